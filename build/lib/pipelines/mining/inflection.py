"""Inflected forms of one rendering as ONE expected entry: an escaped alternation of the attested
forms (``contagieu(?:x|se|ses)``), so a rule requires the term, not one of its forms.

Forms are grouped upstream by lemma key (spaCy lemmas where the language has a lemmatiser); here
they become a regex in FOLDED form (regexes apply as written to folded text, SPEC §2), with word
boundaries added explicitly because regex entries get none automatically.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from pipelines.conventions.matching import is_no_space_script, is_word_char


def escape(text: str) -> str:
    """``re.escape`` without escaping spaces (readable; a space is not special in ``re``)."""
    return re.escape(text).replace("\\ ", " ")


def _bounded(char: str) -> bool:
    return is_word_char(char) and not is_no_space_script(char)


def alternatives(forms: Iterable[str]) -> tuple[str, bool]:
    """(entry, is_regex): the single form as a plain string, else a bounded regex of all forms."""
    unique = sorted({f for f in forms if f})
    if not unique:
        raise ValueError("no forms")
    if len(unique) == 1:
        return unique[0], False
    prefix = os.path.commonprefix(unique)
    suffixes = sorted({f[len(prefix):] for f in unique}, key=lambda s: (-len(s), s))
    optional = "" in suffixes
    rest = [escape(s) for s in suffixes if s]
    if len(rest) == 1 and optional:
        body = escape(prefix) + (f"(?:{rest[0]})?" if len(suffixes[0]) > 1 else f"{rest[0]}?")
    else:
        body = escape(prefix) + "(?:" + "|".join(rest) + ")" + ("?" if optional else "")
    head = r"\b" if all(_bounded(f[0]) for f in unique) else ""
    tail = r"\b" if all(_bounded(f[-1]) for f in unique) else ""
    return head + body + tail, True


def entry_matches(entry: str, is_regex: bool, text: str) -> bool:
    """Whether a folded ``text`` is exactly one of the entry's forms (used by tests and conflicts)."""
    return re.fullmatch(entry, text) is not None if is_regex else entry == text
