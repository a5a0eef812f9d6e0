"""Language tags: keep what the file wrote, and a normalised BCP-47 form for grouping.

Why not a full BCP-47 validator (langcodes)? TMs carry tags such as ``es-LA`` (not a registered
region) and ``fr_FR`` (POSIX locale); the miner needs them *grouped*, not judged. So we only
normalise spelling (separator, case, POSIX encoding/modifier suffixes) and keep every subtag, which
keeps ``es-LA`` distinct from ``es-419`` and ``zh`` distinct from ``zh-CN``.
"""

from __future__ import annotations

import functools
import re

_SUBTAG_RE = re.compile(r"^[A-Za-z0-9]{1,8}$")
# POSIX locale modifiers that name a script (sr@latin); any other modifier (@euro) is dropped.
_POSIX_SCRIPT_MODIFIERS = {"latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva"}


# Orthographies that capitalise every noun (German, Luxembourgish): their sentence case says only that
# the first word is capitalised (``patterns.casing``), and their dictionaries list nouns capitalised
# (``mining.lexicon``).
CAPITALISED_NOUNS = frozenset({"de", "lb"})


def primary_subtag(tag: str | None) -> str:
    """The language subtag of a tag as written (``de_CH`` -> ``de``, ``FR-ca`` -> ``fr``; None -> "")."""
    return (tag or "").replace("_", "-").split("-")[0].casefold()


class LanguageTagError(ValueError):
    """A tag that cannot be read as a language tag at all (empty, spaces, punctuation)."""


def normalise_tag(tag: str) -> str:
    """``fr_FR`` -> ``fr-FR``, ``EN-us`` -> ``en-US``, ``zh-hans-cn`` -> ``zh-Hans-CN``.

    Case rules of BCP-47 §2.1.1: language lower, script title, region upper, the rest lower.
    Raises ``LanguageTagError`` for text that is not shaped like a tag.
    """
    text = tag.strip()
    modifier = None
    if "@" in text:  # POSIX: ll_CC.charset@modifier
        text, _, modifier = text.partition("@")
    text = text.split(".", 1)[0]
    parts = [p for p in text.replace("_", "-").split("-")]
    if not text or any(not _SUBTAG_RE.match(p) for p in parts):
        raise LanguageTagError(f"not a language tag: {tag!r}")
    out = [parts[0].lower()]
    in_extension = False
    for part in parts[1:]:
        if len(part) == 1:  # singleton: extension or private use; everything after stays lower
            in_extension = True
        if in_extension:
            out.append(part.lower())
        elif len(part) == 4 and part.isalpha():
            out.append(part.title())
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            out.append(part.upper())
        else:
            out.append(part.lower())
    if modifier and modifier.lower() in _POSIX_SCRIPT_MODIFIERS:
        out.insert(1, _POSIX_SCRIPT_MODIFIERS[modifier.lower()])
    return "-".join(out)


@functools.lru_cache(maxsize=4096)
def try_normalise(tag: str | None) -> str | None:
    """``normalise_tag`` that returns None for a missing or unreadable tag (callers reject the unit).

    Memoised: a TM has a handful of distinct tags and the ingest calls this twice per unit."""
    if tag is None or not tag.strip():
        return None
    try:
        return normalise_tag(tag)
    except LanguageTagError:
        return None


def same_language(a: str | None, b: str | None) -> bool:
    """Whether two tags as written name the same language variant (case and separator blind)."""
    na, nb = try_normalise(a), try_normalise(b)
    return na is not None and na == nb
