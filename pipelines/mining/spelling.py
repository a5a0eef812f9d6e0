"""A rendering written as the TM writes it when that is a name: ``Mozilla``, not ``mozilla``.

WHY (issue 25, item 3: "a proper noun keeps its case"): the miner counts folded text, so a one-form
rendering was written folded (``use`` → ``mozilla``), and that is what a review packet, a TBX export
and a glossary show. Matching is unchanged: a plain expected string is folded with the rule's
``typographic`` mode before it is compared (SPEC §2), so ``Mozilla`` and ``mozilla`` match the same
outputs. Regex entries (several forms) stay folded: a regex applies as written to folded text.

A name is what the TM writes with the same capitals at every occurrence that is not at the start of a
sentence or segment (at least one such occurrence): sentence-initial capitals say nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_SENTENCE_END = re.compile(r"(?:^|[.!?:;…»«\"“”()\[\]•·\-–—])\s*$")


def as_written(form: str, raw_targets: Iterable[str]) -> str:
    """``form`` (folded) spelled as the raw targets write it mid-sentence, when every such occurrence
    has the same spelling with a capital; else ``form`` unchanged."""
    if not form or not any(c.isalpha() for c in form):
        return form
    pattern = re.compile(r"(?<!\w)" + re.escape(form) + r"(?!\w)", re.IGNORECASE)
    spellings: set[str] = set()
    for text in raw_targets:
        for match in pattern.finditer(text):
            if _SENTENCE_END.search(text[:match.start()]):
                continue  # segment or sentence start: a capital there is the sentence's
            spellings.add(match.group())
            if len(spellings) > 1:
                return form
    (spelling,) = spellings if spellings else (form,)
    return spelling if spelling != spelling.lower() and spelling.casefold() == form.casefold() else form
