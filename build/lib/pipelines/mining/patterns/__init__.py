"""Patterned conventions (SPEC rule ``pattern`` and ``casing``): one module per family."""
