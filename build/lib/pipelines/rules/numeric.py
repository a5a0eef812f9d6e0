"""``numeric``: every number of the source appears in the output, written in the target format.

params (all optional):
- ``decimal`` (default ``"."``): the target decimal separator, e.g. ``","`` for fr/de.
- ``group`` (default ``""`` = no grouping): the target group separator, one character or a list of
  accepted ones, e.g. ``"\\u202f"`` or ``["\\u202f", "\\u00a0"]`` for fr, ``"."`` for de.
- ``src_decimal`` (default ``"."``), ``src_group`` (default ``","``): how the SOURCE writes them.
- ``min_group_digits`` (default 5): integer parts with at least this many digits must be grouped;
  shorter ones may be written either way (``2020`` stays a year, ``1234`` or ``1 234`` both pass).

A source number is a run of ASCII digits (with source group separators every three digits and an
optional source decimal part) not glued to a preceding letter/digit or colon (``COVID19`` holds no number, ``8:00`` holds only 8;
``COVID-19`` holds 19). In the output a required form must not touch other digits (``3`` is not
found inside ``3,5`` or ``13``). A number written with the right digits but the wrong separators
(``3.5`` for ``3,5``, ``1,234`` for ``1 234``) is reported as a wrong variant with its span.
Applies to segments whose source contains at least one number. Matching is on text folded with
``match_mode`` (``typographic`` accepts any space as a group separator; ``exact`` does not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pipelines.conventions.compiled import Compiled
from pipelines.conventions.folding import fold_term, fold_with_map
from pipelines.conventions.model import Convention
from pipelines.rules._params import check_keys, fail
from pipelines.rules.base import Findings, ItemVerdict, RuleSpec, match_entries, verdict

_LIBERAL_RE = re.compile(r"[0-9]+(?:[ \u00a0\u202f\u2009.,'’][0-9]+)*")


@dataclass(frozen=True, slots=True)
class NumericParams:
    decimal: str
    groups: tuple[str, ...]
    src_decimal: str
    src_group: str
    min_group_digits: int
    source_re: re.Pattern[str]


def _source_re(src_decimal: str, src_group: str) -> re.Pattern[str]:
    seps = re.escape(src_decimal + src_group)
    grouped = rf"[0-9]{{1,3}}(?:{re.escape(src_group)}[0-9]{{3}})+|" if src_group else ""
    return re.compile(rf"(?<![\w{seps}:])({grouped}[0-9]+)(?:{re.escape(src_decimal)}([0-9]+))?(?![0-9])")


def prepare(conv: Convention) -> NumericParams:
    p = conv.params
    group = p.get("group", "")
    groups = tuple(g for g in ([group] if isinstance(group, str) else group) if g)
    src_decimal, src_group = p.get("src_decimal", "."), p.get("src_group", ",")
    return NumericParams(
        decimal=p.get("decimal", "."), groups=groups, src_decimal=src_decimal, src_group=src_group,
        min_group_digits=int(p.get("min_group_digits", 5)), source_re=_source_re(src_decimal, src_group),
    )


def validate(conv: Convention) -> None:
    check_keys(conv, {"decimal", "group", "src_decimal", "src_group", "min_group_digits"})
    for name in ("decimal", "src_decimal"):
        value = conv.params.get(name, ".")
        if not isinstance(value, str) or len(value) != 1 or value.isdigit():
            raise fail(conv, f"params.{name} must be one non-digit character", name)
    group = conv.params.get("group", "")
    groups = [group] if isinstance(group, str) else group
    if not isinstance(groups, list) or not all(isinstance(g, str) and len(g) <= 1 and not g.isdigit() for g in groups):
        raise fail(conv, "params.group must be one character or a list of single characters", "group")
    src_group = conv.params.get("src_group", ",")
    if not isinstance(src_group, str) or len(src_group) > 1 or src_group.isdigit():
        raise fail(conv, "params.src_group must be at most one non-digit character", "src_group")
    if conv.params.get("decimal", ".") in groups:
        raise fail(conv, "params.decimal must differ from every group separator", "decimal")
    mgd = conv.params.get("min_group_digits", 5)
    if not isinstance(mgd, int) or isinstance(mgd, bool) or mgd < 1:
        raise fail(conv, "params.min_group_digits must be a positive integer", "min_group_digits")


def _grouped(digits: str, sep: str) -> str:
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)]
    return sep.join(parts)


@dataclass(frozen=True, slots=True)
class Number:
    text: str  # as written in the source
    digits: str  # integer + fraction digits, no separators
    canonical: str  # the preferred target form (reported when missing)
    forms: tuple[str, ...]  # every accepted target form


def source_numbers(params: NumericParams, source: str) -> list[Number]:
    """Distinct numbers of the source with their accepted target forms."""
    found: dict[str, Number] = {}
    for match in params.source_re.finditer(source):
        integer = match.group(1).replace(params.src_group, "") if params.src_group else match.group(1)
        frac = match.group(2)
        must_group = len(integer) >= params.min_group_digits and bool(params.groups)
        forms = [] if must_group else [integer]
        if len(integer) > 3:
            forms += [_grouped(integer, g) for g in params.groups]
        suffix = f"{params.decimal}{frac}" if frac else ""
        forms = [f + suffix for f in dict.fromkeys(forms)]
        canonical = forms[-1] if must_group else forms[0]
        found.setdefault(match.group(0), Number(match.group(0), integer + (frac or ""), canonical, tuple(forms)))
    return list(found.values())


@lru_cache(maxsize=4096)
def _form_re(forms: tuple[str, ...], seps: str) -> re.Pattern[str]:
    sep_class = re.escape("".join(sorted(set(seps))))
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![0-9])(?<![0-9][{sep_class}])(?:{alternatives})(?![0-9])(?![{sep_class}][0-9])")


def applies(cc: Compiled, source: str) -> bool:
    params: NumericParams = cc.prepared
    return params.source_re.search(source) is not None


def check(cc: Compiled, source: str, output: str) -> ItemVerdict:
    params: NumericParams = cc.prepared
    folded = fold_with_map(output, cc.mode)
    findings = match_entries(folded, cc.expected, cc.wrong, Findings())
    seps = "".join(fold_term(s, cc.mode) for s in (params.decimal, *params.groups, params.src_decimal, params.src_group))
    numbers = source_numbers(params, source)
    for number in numbers:
        forms = tuple(fold_term(f, cc.mode) for f in number.forms)
        if _form_re(forms, seps).search(folded.text) is None:
            findings.missing.append(number.canonical)
    wanted = {n.digits: n for n in numbers}
    for match in _LIBERAL_RE.finditer(folded.text):
        digits = re.sub(r"[^0-9]", "", match.group())
        hit = wanted.get(digits)
        if hit is not None and match.group() not in {fold_term(f, cc.mode) for f in hit.forms}:
            raw_start, raw_end = folded.raw_span(*match.span())
            findings.found.append(output[raw_start:raw_end])
            findings.spans.append((raw_start, raw_end))
    return verdict(findings.missing, findings.found, findings.spans)


SPEC = RuleSpec(
    name="numeric", static=False, validate=validate, prepare=prepare, applies=applies, check=check,
    params_doc='{"decimal": ",", "group": "\\u202f" | [..], "src_decimal": ".", "src_group": ",", "min_group_digits": 5}',
)
