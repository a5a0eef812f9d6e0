"""Renderings that may stand as a part of a compound, in target languages that write compounds.

WHY (issue 25, held-out failures on the German product corpora): German, Dutch and the Scandinavian
languages write a term inside compounds, closed (``Klassenmethode`` holds ``Methode``,
``Terminportlet`` holds ``Termin``, ``Sammlungsberechtigung`` holds ``Sammlung``) or hyphen-joined
(``CSS-Ressourcen``, ``Sammlung-Berechtigung``). The client's approved targets do that all the time,
and a term rule bounded like a plain string (SPEC §2: hyphen-joined words are one word) failed them:
of the 49 held-out failures of the term rules mined on the four German PO corpora (Django, Plone,
Sphinx, Wagtail; ``python -m tests.bench.bench_heldout --only "po de" --failures DIR``, read by the
lead), 21 were such compounds.

So in those languages a mined rendering is written as a regex (SPEC §2: regexes apply as written to
folded text) in which a form of at least ``MIN_PART`` characters may be glued to further letters on
ONE side (the head of a closed compound, or its first part with any linking element: ``sammlung`` +
``s``), never on both (``rat`` is not in ``vorratsraum``); a hyphen on either side is a boundary. A
shorter form (``CSS``, ``Tag``) keeps word boundaries, but a hyphen is a boundary for it too
(``CSS-Ressourcen``). Glued matches can be false friends (``termin`` in ``terminal``): the price of
a rule the client's compounds keep; the held-out bar still judges every rule written this way.
"""

from __future__ import annotations

from collections.abc import Iterable

from housestyle.pipelines.conventions.folding import fold_term
from housestyle.pipelines.conventions.matching import SPACED_WORD_CLASS, alternation, edge_checks, is_word_char
from housestyle.pipelines.langtags import primary_subtag

# Primary subtags of the languages that write closed compounds (explicit registry).
COMPOUNDING_LANGUAGES = frozenset({"de", "nl", "sv", "da", "nb", "nn", "no", "is", "af", "lb", "fy"})
# Shortest form that may be glued to a further word: four letters keep German's short words (Tag, Rat,
# Art, Typ) whole. Held out on the German PO corpora (``bench_heldout --only "po de"``, rules mined on
# half A, approved targets of half B; term items / pass, Wagtail — Plone, Django, Sphinx unchanged but at 6):
# 3: 795 / .976; 4: 773 / .978; 5: 748 / .977; 6: 729 / .973 (Plone 394 / .929, Django .972, Sphinx 4 items).
MIN_PART = 4

_BEFORE, _AFTER = f"(?<!{SPACED_WORD_CLASS})", f"(?!{SPACED_WORD_CLASS})"


def compounding(lang: str | None) -> bool:
    """Whether ``lang`` (a BCP 47 tag) writes compounds (COMPOUNDING_LANGUAGES)."""
    return primary_subtag(lang) in COMPOUNDING_LANGUAGES


def part_bounded(text: str, term: str, start: int) -> bool:
    """Whether ``term`` at ``start`` of ``text`` (both folded) stands as a word or a compound part, as
    ``compound_regex`` matches it: the miner counts a rendering's units this way in a compounding
    target language (``batched_unit_hits(compound=True)``), so its coverage is what the rule will check."""
    end = start + len(term)
    free_left = start == 0 or not is_word_char(text[start - 1])
    free_right = end >= len(text) or not is_word_char(text[end])
    left, right = edge_checks(term)
    if left and right and len(term) >= MIN_PART:
        return free_left or free_right
    return (free_left or not left) and (free_right or not right)


def compound_regex(literals: Iterable[str], match_mode: str) -> str:
    """A regex (on text folded with ``match_mode``) matching each literal as a word or as a compound
    part (see module docstring)."""
    folded = sorted({fold_term(x, match_mode) for x in literals if x})
    if not folded:
        raise ValueError("no literals")
    groups: dict[tuple[bool, bool, bool], list[str]] = {}
    for literal in folded:
        left, right = edge_checks(literal)
        groups.setdefault((left, right, left and right and len(literal) >= MIN_PART), []).append(literal)
    parts = []
    for (left, right, part), group in sorted(groups.items()):
        body = alternation(group)
        if part:
            parts.append(f"(?:{_BEFORE}{body}|{body}{_AFTER})")
        else:
            parts.append((_BEFORE if left else "") + body + (_AFTER if right else ""))
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
