"""The seven rule types of SPEC.md §2, one module each, listed explicitly in ``registry.RULES``."""
