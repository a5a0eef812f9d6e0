"""Evaluation tables generated from the real data (scripts here; their outputs are committed)."""
