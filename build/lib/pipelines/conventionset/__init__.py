"""Versioned convention sets: rules_out/<client>/<set_version>/ (SPEC §2), LATEST, and diffs."""
