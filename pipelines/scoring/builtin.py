"""Checks every run makes without a mined rule: placeholders of real software formats, and numbers
where the target language has a known number format.

Software strings break when a placeholder is lost or changed (Qt ``%1`` → ``% 1``), whether or not
the miner saw one in the client's TM; a number changed in translation is an error whatever the TM
holds. So the scorer adds, beside the set's own conventions:

- ``placeholder:builtin`` — Qt ``%1``, printf ``%s`` / ``%(name)s`` / ``%1$s``, ICU ``{x}`` / ``{0}``,
  Fluent ``{ $x }`` / ``{ -term }``, ``${x}``, ``{{ x }}`` and HTML/XML tags, checked both ways (a
  token missing, or one the source does not have). When the set has placeholder conventions, only
  the families none of them lists are added, and the inline codes are left to the set's rule, so
  no token is counted twice.
- ``number:builtin`` — when the set has no ``numeric`` convention and CLDR (Babel) knows both
  languages: every source number must appear in the target's decimal / group format.

They are conventions like the others (status ``validated``, ``extra.builtin``), stored in the run's
conventions.jsonl, so the report, failures and ignores treat them the same way.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol, get_group_symbol

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.placeholder import DEFAULT_PATTERNS, MARKUP_PATTERN

QT_PATTERN = r"%\d+"  # Qt's QString::arg markers (%1 … %99); printf's %1$s is longer and tried first
FLUENT_PATTERNS = (r"\{\s*\$[A-Za-z_][\w-]*\s*\}", r"\{\s*-[A-Za-z][\w-]*\s*\}")
BUILTIN_PATTERNS: tuple[str, ...] = (*DEFAULT_PATTERNS, QT_PATTERN, *FLUENT_PATTERNS, MARKUP_PATTERN)
_SPACES = ("\u202f", "\u00a0", " ")


def _pair(conventions: Sequence[Convention]) -> tuple[str | None, str | None]:
    """The set's most frequent language pair."""
    pairs = Counter((c.src_lang, c.tgt_lang) for c in conventions if c.src_lang and c.tgt_lang)
    return pairs.most_common(1)[0][0] if pairs else (None, None)


def _symbols(lang: str) -> tuple[str, str] | None:
    """(decimal, group) of a language from CLDR, None when Babel does not know it."""
    try:
        locale = Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    return get_decimal_symbol(locale), get_group_symbol(locale)


def builtin_placeholder(conventions: Sequence[Convention], src: str | None, tgt: str | None) -> Convention | None:
    own = [c for c in conventions if c.rule == "placeholder"]
    covered = {p for c in own for p in c.params.get("patterns", DEFAULT_PATTERNS)}
    patterns = [p for p in BUILTIN_PATTERNS if p not in covered]
    if not patterns:
        return None
    params: dict[str, object] = {"patterns": patterns}
    if own:
        params["inline"] = False
    return _builtin(Convention(dimension="placeholder:builtin", rule="placeholder", params=params, src_lang=src,
                               tgt_lang=tgt, mqm_category="Locale conventions/Markup"))


def builtin_numeric(conventions: Sequence[Convention], src: str | None, tgt: str | None) -> Convention | None:
    if any(c.rule == "numeric" for c in conventions) or not src or not tgt:
        return None
    source, target = _symbols(src), _symbols(tgt)
    if source is None or target is None or source[0] == source[1] or target[0] == target[1]:
        return None
    decimal, group = target
    groups = list(_SPACES) if group in _SPACES or group.isspace() else [group]
    params: dict[str, object] = {"decimal": decimal, "group": groups if len(groups) > 1 else groups[0],
                                 "src_decimal": source[0], "src_group": source[1]}
    return _builtin(Convention(dimension="number:builtin", rule="numeric", params=params, src_lang=src, tgt_lang=tgt,
                               mqm_category="Locale conventions/Number format"))


def _builtin(conv: Convention) -> Convention:
    conv.status = "validated"
    conv.origin = "authored"
    conv.note = "built in: checked by every run without a mined rule"
    conv.extra = {"builtin": True}
    return conv


def builtin_conventions(conventions: Sequence[Convention]) -> list[Convention]:
    """The built-in checks to add to ``conventions`` (none already present by id)."""
    src, tgt = _pair(conventions)
    present = {c.convention_id for c in conventions}
    found = [builtin_placeholder(conventions, src, tgt), builtin_numeric(conventions, src, tgt)]
    return [c for c in found if c is not None and c.convention_id not in present]
