"""``housestyle publish``: a convention set where translators work (SPEC.md §3).

The term rules become a termbase (TBX, ``tbx.py``) or a CAT-tool glossary (CSV, ``csv_glossary.py``),
both from the same entries (``glossary.py``); the other rules become QA checks (JSON, ``qa.py``).
``publish.py`` opens the set, filters by status and says what was left out and why.
"""
