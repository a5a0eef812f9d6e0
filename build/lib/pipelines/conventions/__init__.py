"""Conventions as data: the model, loading/validation, matching. Knows nothing of miners or gold."""
