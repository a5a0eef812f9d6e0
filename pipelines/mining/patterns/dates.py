"""Date conventions: how the client's targets write dates, and "where the source has a date, the
target writes it the client's way".

Written dates (a day number and a month name, joined as CLDR's long date pattern joins them: ``15
mars``, ``15 de marzo``, ``15. März``): the order of day and month, the case of the month name, the
space after the day, the first of the month (``1er mars`` / ``1 mars``). Numeric dates:
the separator and, where a date is unambiguous (a day above 12), the order of day and month.
Which way is never a locale default: each family is a closed list of variants and the TM decides,
as for the typographic families (``base``). Month names are only recognition vocabulary: the
CLDR wide and abbreviated format names of the language, read through Babel (the maintained CLDR
reader), so no month list is written here. A language Babel does not know gets the numeric families
only; one whose months are written with 月 (zh, ja) gets, instead of the written-date families, the
spacing of ``3月15日`` / ``3 月 15 日``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.dates import get_month_names

from housestyle.pipelines.conventions.matching import is_no_space_script
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.patterns.base import Family, mine_family, variant

MQM_DATE = "Locale conventions/Date format"
_SPACES = {"space": " ", "nbsp": "\u00a0", "nnbsp": "\u202f"}
SP = "[ \u00a0\u202f]"
_END = "(?![^\\W\\d_])"  # a month name ends where the letters end (``janv.`` ends after its dot)
_NOT_IN_NUMBER = "(?<![\\w.,/:-])"  # not the end of a number or a code (B0AT1 may: no date)
DAY = "(?:[12]\\d|3[01]|0?[1-9])"
ORD = "[^\\W\\d_]{0,3}"  # 1er, 2nd, 15th, 1º
MONTH_NUM = "(?:0?[1-9]|1[0-2])"
DAY_ONLY = "(?:1[3-9]|2\\d|3[01])"  # a day that cannot be a month



def _locale(lang: str) -> Locale | None:
    """The CLDR locale of a BCP-47 tag, else of its primary language (``es-LA``: Babel has no such
    locale, and month names are the language's); None when Babel knows neither."""
    tag = lang.replace("-", "_")
    for candidate in (tag, tag.split("_")[0]):
        try:
            return Locale.parse(candidate)
        except (UnknownLocaleError, ValueError, TypeError):
            continue
    return None


@lru_cache(maxsize=32)
def month_names(lang: str) -> tuple[str, ...]:
    """CLDR wide and abbreviated month names in date (format) context, sorted; empty when Babel
    does not know the language or its script writes no spaces between words."""
    locale = _locale(lang)
    if locale is None:
        return ()
    names = {str(name) for width in ("wide", "abbreviated") for name in get_month_names(width, locale=locale).values()}
    names = {n for n in names if len(n.rstrip(".")) >= 3 and n.rstrip(".").isalpha()}
    if any(is_no_space_script(n[0]) for n in names):
        return ()
    return tuple(sorted(names))


@lru_cache(maxsize=32)
def day_month_link(lang: str) -> str:
    """What CLDR's long date pattern writes between the day and the month, spaces and quotes
    removed: ``de`` (es, pt: 15 de marzo), ``.`` (de, fi: 15. März) or nothing (fr, ru, en)."""
    locale = _locale(lang)
    if locale is None:
        return ""
    found = re.search(r"(?<![dM])d(?!d)(.*?)M{3,4}", str(locale.date_formats["long"].pattern))
    return found.group(1).replace("'", "").strip() if found else ""


def _to_month(lang: str, space: str = SP) -> str:
    """The regex from the end of the day to the month name: ``space`` is the first space."""
    link = day_month_link(lang)
    if link == ".":
        return f"\\.?{space}"
    if link:
        return f"{space}(?:{re.escape(link)}{SP})?"
    return space


def _alternation(names: Iterable[str], *, any_case: bool = False) -> str:
    """One group matching any of ``names``, longest first (so ``janv.`` is not cut to ``jan``)."""
    ordered = sorted(set(names), key=lambda n: (-len(n), n))
    return ("(?i:" if any_case else "(?:") + "|".join(re.escape(n) for n in ordered) + ")"


def written_families(lang: str) -> tuple[Family, ...]:
    """The written-date families of a target language (none without month names)."""
    names = month_names(lang)
    if not names:
        return ()
    month = _alternation(names, any_case=True) + _END
    to_month = _to_month(lang)
    day_month = f"{_NOT_IN_NUMBER}{DAY}{ORD}{to_month}{month}"
    month_day = f"{month}{SP}{DAY}{ORD}(?!\\d)(?:,{SP}?\\d{{4}}|(?=\\s*(?:[,.;:)!?](?!\\d)|$)))"  # not 1,7
    families = [
        Family("date:order", (variant("day_first", day_month), variant("month_first", f"(?<![^\\W\\d_]){month_day}")),
               MQM_DATE, "day before month (15 mars) or month before day (March 15)"),
        Family("date:day_month_space",
               tuple(variant(k, f"{_NOT_IN_NUMBER}{DAY}{ORD}{_to_month(lang, re.escape(c))}{month}")
                     for k, c in _SPACES.items()),
               MQM_DATE, "the space between the day and the month"),
        Family("date:first_of_month",
               (variant("ordinal", f"{_NOT_IN_NUMBER}0?1[^\\W\\d_]{{1,3}}{to_month}{month}"),
                variant("cardinal", f"{_NOT_IN_NUMBER}0?1{to_month}{month}")),
               MQM_DATE, "the first of the month as an ordinal (1er) or a number (1)"),
    ]
    lower = {n.lower() for n in names}
    capital = {n[:1].upper() + n[1:].lower() for n in names}
    if lower != capital:  # a cased script
        families.append(Family(
            "date:month_case",
            tuple(variant(k, f"{_NOT_IN_NUMBER}{DAY}{ORD}{to_month}{_alternation(forms)}{_END}")
                  for k, forms in (("lower", lower), ("capital", capital))),
            MQM_DATE, "the month name after a day in lower case (mars) or capitalised (Mars)"))
    return tuple(families)


_AFTER = "(?![\\d,/:-]|\\.\\d|[^\\W\\d_])"  # a number ends here (a full stop may follow)
_YEAR = f"(?:\\d{{4}}){_AFTER}"
NUMERIC_SEPARATOR = Family(
    "date:numeric_separator",
    (variant("slash", f"{_NOT_IN_NUMBER}\\d{{1,2}}/\\d{{1,2}}/(?:\\d{{4}}|\\d{{2}}){_AFTER}"),
     variant("dot", f"{_NOT_IN_NUMBER}\\d{{1,2}}\\.\\d{{1,2}}\\.{_YEAR}"),
     variant("hyphen", f"{_NOT_IN_NUMBER}\\d{{1,2}}-\\d{{1,2}}-{_YEAR}"),
     variant("iso", f"{_NOT_IN_NUMBER}\\d{{4}}-\\d{{2}}-\\d{{2}}{_AFTER}")),
    MQM_DATE, "the separator of numeric dates (15/03/2020, 15.03.2020, 2020-03-15)",
)
NUMERIC_ORDER = Family(
    "date:numeric_order",
    tuple(variant(k, _NOT_IN_NUMBER + "(?:" + "|".join(f"{a}{re.escape(s)}{b}{re.escape(s)}" for s in "/.-")
             + f")(?:\\d{{4}}|\\d{{2}}){_AFTER}")
          for k, a, b in (("day_first", DAY_ONLY, MONTH_NUM), ("month_first", MONTH_NUM, DAY_ONLY))),
    MQM_DATE, "day before month in numeric dates (15/03) or month before day (03/15), where unambiguous",
)


CJK_SPACING = Family(
    "date:cjk_spacing",
    (variant("compact", "(?<!\\d)\\d{1,2}月\\d{1,2}日"), variant("spaced", "(?<!\\d)\\d{1,2} 月 \\d{1,2} 日")),
    MQM_DATE, "spaces around the numbers of a Chinese or Japanese date (3月15日 or 3 月 15 日)",
)


@lru_cache(maxsize=32)
def writes_month_kanji(lang: str) -> bool:
    """Whether CLDR's month names of the language are written with 月 (zh: 三月, ja: 3月)."""
    locale = _locale(lang)
    return locale is not None and any("月" in str(name) for name in get_month_names("wide", locale=locale).values())


def mine_dates(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
    """The date families the TM decides, plus the source-date rule when the order is decided."""
    cjk = (CJK_SPACING,) if writes_month_kanji(corpus.tgt_lang) else ()
    families = (*written_families(corpus.tgt_lang), *cjk, NUMERIC_SEPARATOR, NUMERIC_ORDER)
    out = [conv for family in families for conv in mine_family(family, corpus, indices, params)]
    order = next((str(c.extra["variant"]) for c in out if c.dimension == "date:order"), None)
    source_rule = _source_date(corpus, order) if order is not None else None
    return out + ([source_rule] if source_rule is not None else [])


def _source_date(corpus: Corpus, order: str) -> Convention | None:
    """Where the source writes a day and a month name, the target writes a day and a month name in
    the client's order (a date dropped or turned numeric fails). Measured on the TM afterwards."""
    src_names, tgt_names = month_names(corpus.src_lang), month_names(corpus.tgt_lang)
    if not src_names or not tgt_names:
        return None
    # The source's own spelling, or capitalised: English ``May``, never the modal ``may``.
    src_month = _alternation({f for n in src_names for f in (n, n[:1].upper() + n[1:])}) + _END
    trigger = (f"{_NOT_IN_NUMBER}{DAY}{ORD}{_to_month(corpus.src_lang)}{src_month}"
               f"|(?<![^\\W\\d_]){src_month}{SP}{DAY}(?![\\d:])")
    tgt_month = _alternation(tgt_names, any_case=True) + _END
    expected = (f"{_NOT_IN_NUMBER}{DAY}{ORD}{_to_month(corpus.tgt_lang)}{tgt_month}" if order == "day_first"
                else f"(?<![^\\W\\d_]){tgt_month}{SP}{DAY}(?!\\d)")
    conv = Convention(
        dimension="date:source_date", rule="pattern", src=trigger, src_regex=True, expected_terms=[expected],
        regex=True, match_mode="exact", src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=MQM_DATE,
        origin="mined", status="candidate",
    )
    conv.extra = {"variant": order}
    return conv
