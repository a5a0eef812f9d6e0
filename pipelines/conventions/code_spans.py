"""Code spans: the placeholders, markup, URLs and identifiers of a text, which are not its words.

A term's trigger and entries read texts with these spans blanked (same length, so offsets stay raw),
in the checker and in the miner alike. Split out of ``matching`` (word boundaries), which had grown
past 350 lines: masking decides which characters are text, matching where strings occur in it.
"""

from __future__ import annotations

import re

# Code spans (SPEC.md §2: placeholders and markup are not text): ingest's inline codes (⟨g1⟩), printf
# (%s, %1$s, %(name)s, %.2f, Qt/Windows %1; Python's named %(name)r / %(name)a / %(name)o: Django's
# "%(value)r is not a valid choice"), brace placeholders ({0}, {user}, ICU {n, number} and the head of
# {n, plural, …}, Fluent { $var } / { -brand }), ${name}, Jinja/Handlebars {{ x }} / {% x %},
# HTML/XML tags, entities and URLs. A term trigger never matches inside one, in the checker (the
# scored sources are masked before the triggers run) and in the miner (tokens.py masks before
# tokenising), for the rules in MASKED_TRIGGER_RULES. No space flag in printf: "50 % de" is French text, not "% d".
# Snake-case identifiers (``folder_add_more``, ``label_login_to_add_comments``) and dotted lower-case
# names (``plone.leftcolumn``, ``sitemap.xml``) are code too: Plone's PO files key many units by such
# a msgid with no English text (issue 25: 15 of the 31 held-out failures of the term rules mined on
# Plone de were a term inside a snake-case one, 2 of the 52 German failures left after that inside a
# dotted one).
CODE_SPAN_RE = re.compile(
    r"⟨/?[a-z]+\d+/?⟩"
    r"|%(?:\d+\$)?(?:\([A-Za-z_]\w*\))?[-+#0]*\d*(?:\.\d+)?[sdifuxXeEgGc@]|%\([A-Za-z_]\w*\)[-+#0]*\d*[rao]|%\d+"
    r"|\$\{[\w.\-/]+\}|\{\{[^{}\n]{0,200}\}\}|\{%[^{}\n]{0,200}%\}"
    r"|\{\s*[$-]?[A-Za-z_0-9][\w.\-]*(?:\s*,\s*[A-Za-z_]\w*)*\s*\}"
    r"|\{\s*[A-Za-z_]\w*\s*,\s*(?:plural|select|selectordinal)\s*,"
    r"|<[^<>\n]{1,200}>|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);|https?://\S+|www\.\S+"
    r"|(?<![\w\-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w\-])"
    r"|(?<![\w\-.])[a-z][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+(?![\w\-])"
)


# Rules whose ``src`` trigger and entries are words of the text (a term): neither matches inside a
# code span, on the source or on the output (a placeholder glued to a word, "%sexterne", leaves the
# word whole; a URL's path holds no rendering). Other rules keep the raw texts (a source_copy rule's
# trigger IS a URL or a placeholder).
MASKED_TRIGGER_RULES = frozenset({"term", "forbidden"})


def trigger_text(rule: str, source: str) -> str:
    """The source as ``rule``'s trigger reads it (see MASKED_TRIGGER_RULES)."""
    return mask_code(source) if rule in MASKED_TRIGGER_RULES else source


def entry_text(rule: str, output: str) -> str:
    """The output as ``rule``'s expected terms and wrong variants read it (see MASKED_TRIGGER_RULES)."""
    return mask_code(output) if rule in MASKED_TRIGGER_RULES else output


# What every code span holds (one per alternative of CODE_SPAN_RE: a bracket or sign, an underscore,
# a URL's scheme or ``www.``, or a dot between name characters). A text without any is returned as it
# is: most texts have none, and CODE_SPAN_RE's name alternatives try every letter of a text (mining
# folds every unit once: 1M TICO units took ~30 s a side). Tested to agree with the full search.
CODE_SPAN_HINT = re.compile(r"[⟨%${<&_]|https?:|www\.|[a-z0-9_]\.[a-z_]")


def mask_code(text: str) -> str:
    """``text`` with its code spans (``CODE_SPAN_RE``) blanked to spaces of the same length, so
    offsets stay raw and no word is glued to its neighbour."""
    if not text or not CODE_SPAN_HINT.search(text):
        return text
    return CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), text)
