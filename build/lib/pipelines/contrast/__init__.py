"""Model-contrast mining (issue 6): a generic system's recurring divergences from the approved
references around mandated terms become candidate banned variants (origin ``contrast``).

cases.py (which items to look at), analysis.py (spaCy tokens and lemmas), align.py (rapidfuzz
token alignment), demote.py (noise / inflection / client-uses), mine.py (the whole pass),
conventions.py (kept variants as conventions, and the merge). Plain Python: no dagster.
"""
