"""Versioned convention sets: rules_out/<client>/<set_version>/ (SPEC §2), LATEST, decisions and diffs.
Stores, versions and diffs sets; how a set is mined lives with the miner (``housestyle.pipelines.mining.build_set``)."""
