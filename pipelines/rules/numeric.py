"""``numeric``: every number of the source appears in the output, written in the target format.

params (all optional):
- ``decimal`` (default ``"."``): the target decimal separator, e.g. ``","`` for fr/de.
- ``group`` (default ``""`` = no grouping): the target group separator, one character or a list of
  accepted ones, e.g. ``"\\u202f"`` or ``["\\u202f", "\\u00a0"]`` for fr, ``"."`` for de.
- ``src_decimal`` (default ``"."``), ``src_group`` (default ``","``): how the SOURCE writes them.
- ``min_group_digits`` (default 5): integer parts with at least this many digits must be grouped;
  shorter ones may be written either way (``2020`` stays a year, ``1234`` or ``1 234`` both pass).

What a source number is comes from ``housestyle.pipelines.rules.numbers`` (the one number grammar, shared
with the numeric miner and the judge): a quantity (``12,000``, ``3.5``; ``MP3`` holds none,
``8:00`` holds only 8, ``Apollo-11`` holds 11) must appear in the target format; a quantity with a
scale word (``760 thousand``, ``2.5 million``) is satisfied by its mantissa (``2,5 millions``) or by
the digits of its value (``760 000``); the two sides of a range or ratio (``3.51-4.05``) are two
quantities; an identifier (``20-0097189``, ``1-800-555-0199``, ``3.2.1``, ``2020-03-15``) must be
copied verbatim and is never regrouped as a quantity. In the output a required form must not touch
other digits (``3`` is not found inside ``3,5`` or ``13``). A number written with the right digits but
the wrong separators (``3.5`` for ``3,5``, ``1,234`` for ``1 234``) is reported as a wrong variant
with its span. Applies to segments whose source contains at least one number. Matching is on text
folded with ``match_mode`` (``typographic`` accepts any space as a group separator; ``exact`` does not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from housestyle.pipelines.conventions.compiled import Compiled
from housestyle.pipelines.conventions.folding import fold_term, fold_with_map
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules._params import check_keys, fail
from housestyle.pipelines.rules.base import Findings, ItemVerdict, RuleSpec, match_entries, verdict
from housestyle.pipelines.rules.numbers import (
    IDENTIFIER_JOINERS,
    LIBERAL_RE,
    SourceStyle,
    TargetFormat,
    form_pattern,
    target_forms,
)
from housestyle.pipelines.rules.numbers import source_numbers as grammar_numbers


@dataclass(frozen=True, slots=True)
class NumericParams:
    style: SourceStyle
    target: TargetFormat

    @property
    def separators(self) -> str:
        """Every character that may continue a number in the output (lookarounds of the forms)."""
        t, st = self.target, self.style
        return "".join(dict.fromkeys(t.decimal + "".join(t.groups) + st.decimal + st.group))


def prepare(conv: Convention) -> NumericParams:
    p = conv.params
    group = p.get("group", "")
    groups = tuple(g for g in ([group] if isinstance(group, str) else group) if g)
    return NumericParams(SourceStyle(p.get("src_decimal", "."), p.get("src_group", ",")),
                         TargetFormat(p.get("decimal", "."), groups, int(p.get("min_group_digits", 5))))


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


@dataclass(frozen=True, slots=True)
class Number:
    text: str  # as written in the source
    digits: frozenset[str]  # digit strings that are this number in any format (mantissa, value)
    canonical: str  # the preferred target form (reported when missing)
    forms: tuple[str, ...]  # every accepted target form
    identifier: bool


def source_numbers(params: NumericParams, source: str) -> list[Number]:
    """Distinct numbers of the source with their accepted target forms."""
    found: dict[str, Number] = {}
    for number in grammar_numbers(source, params.style):
        canonical, forms = target_forms(number, params.target)
        value = number.value_digits()
        digits = frozenset({number.digits} | ({value[0] + value[1]} if value else set()))
        key = number.text + (f"e{number.scale}" if number.scale else "")
        found.setdefault(key, Number(number.text, digits, canonical, forms, number.kind == "identifier"))
    return list(found.values())


def applies(cc: Compiled, source: str) -> bool:
    params: NumericParams = cc.prepared
    return bool(grammar_numbers(source, params.style))


def check(cc: Compiled, source: str, output: str) -> ItemVerdict:
    params: NumericParams = cc.prepared
    folded = fold_with_map(output, cc.mode)
    findings = match_entries(folded, cc.expected, cc.wrong, Findings())
    seps = "".join(fold_term(s, cc.mode) for s in params.separators)
    numbers = source_numbers(params, source)
    for number in numbers:
        forms = tuple(fold_term(f, cc.mode) for f in number.forms)
        if form_pattern(forms, seps + IDENTIFIER_JOINERS if number.identifier else seps).search(folded.text) is None:
            findings.missing.append(number.canonical)
    wanted: dict[str, list[Number]] = {}
    for number in numbers:
        for digits in number.digits:
            wanted.setdefault(digits, []).append(number)
    for match in LIBERAL_RE.finditer(folded.text):
        hits = wanted.get(re.sub(r"[^0-9]", "", match.group()))
        if hits and all(match.group() not in {fold_term(f, cc.mode) for f in hit.forms} for hit in hits):
            raw_start, raw_end = folded.raw_span(*match.span())
            findings.found.append(output[raw_start:raw_end])
            findings.spans.append((raw_start, raw_end))
    return verdict(findings.missing, findings.found, findings.spans)


SPEC = RuleSpec(
    name="numeric", static=False, validate=validate, prepare=prepare, applies=applies, check=check,
    params_doc='{"decimal": ",", "group": "\\u202f" | [..], "src_decimal": ".", "src_group": ",", "min_group_digits": 5}',
)
