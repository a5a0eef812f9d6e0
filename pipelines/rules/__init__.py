"""The seven rule types of SPEC.md §2, one module each, listed explicitly in ``registry.RULES``; and
reading, writing (``io``) and validating (``validate``) convention files, which need the rule types
(so they live above ``housestyle.pipelines.conventions``, which the rule types build on)."""
