"""Format readers behind one interface; the explicit registry lives in ``registry.py``."""
