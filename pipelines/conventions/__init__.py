"""Conventions as data: the model, folding and matching, regex guards. Knows nothing of rule types,
miners or gold (loading and validation, which need the rule types, are ``housestyle.pipelines.rules.io`` and
``housestyle.pipelines.rules.validate``)."""
