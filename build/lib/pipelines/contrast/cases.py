"""The contrast cases: a required term, a TM unit whose approved reference honours it, and a generic
output that does not.

The term rule is matched exactly as the checker matches it (``compile_generic``: the same folds, the
same word boundaries, regexes as written), so a "case" here is precisely an item the scorer would
fail for a missing expected term. Units whose reference lacks the mandated rendering are not cases
(the client itself did not follow the rule there) but are counted; so are agreements.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import ahocorasick_rs

from pipelines.conventions.compiled import Compiled, compile_generic
from pipelines.conventions.folding import Folded, fold_with_map
from pipelines.conventions.model import Convention


@dataclass(frozen=True, slots=True)
class Unit:
    unit_id: str
    source: str
    reference: str


@dataclass(frozen=True, slots=True)
class Case:
    """Rule ``rule_index`` is missed by the output of ``unit_id``; the reference has it at [start, end)."""

    rule_index: int
    unit_id: str
    expected: str  # the expected_terms entry that is missing (a literal or a regex)
    ref_start: int
    ref_end: int


@dataclass(slots=True)
class CaseCounts:
    """Per rule: triggered units with an output, agreements, references without the term, cases."""

    triggered: dict[int, int] = field(default_factory=dict)
    agree: dict[int, int] = field(default_factory=dict)
    ref_lacks: dict[int, int] = field(default_factory=dict)
    cases: dict[int, int] = field(default_factory=dict)

    def bump(self, table: dict[int, int], rule: int) -> None:
        table[rule] = table.get(rule, 0) + 1


class Folds:
    """A unit's texts folded once per match mode (many rules share a mode)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], Folded] = {}

    def get(self, text: str, mode: str) -> Folded:
        key = (mode, text)
        if key not in self._cache:
            self._cache[key] = fold_with_map(text, mode)
        return self._cache[key]


def compile_rules(rules: Sequence[Convention]) -> list[Compiled]:
    return [compile_generic(rule) for rule in rules]


class TriggerIndex:
    """Which rules a source triggers, in one Aho–Corasick pass per match mode (thousands of mined
    rules × a large TM would otherwise be a nested loop); hits are then checked for word boundaries
    by the rule's own matcher. Regex triggers, and rules without ``src``, are checked directly."""

    def __init__(self, compiled: Sequence[Compiled]) -> None:
        self.compiled = list(compiled)
        self.always = [i for i, cc in enumerate(compiled) if cc.trigger is None]
        self.regex = [i for i, cc in enumerate(compiled) if cc.trigger is not None and cc.trigger.is_regex]
        plain: dict[str, list[int]] = {}
        for i, cc in enumerate(compiled):
            if cc.trigger is not None and not cc.trigger.is_regex and cc.trigger.folded:
                plain.setdefault(cc.trigger_mode, []).append(i)
        self.by_mode = {mode: (ahocorasick_rs.AhoCorasick([compiled[i].trigger.folded or "" for i in idx],  # type: ignore[union-attr]
                                                          matchkind=ahocorasick_rs.MatchKind.Standard), idx)
                        for mode, idx in plain.items()}

    def triggered(self, source: str, folds: Folds) -> list[int]:
        hits = set(self.always)
        for i in self.regex:
            cc = self.compiled[i]
            if cc.trigger is not None and cc.trigger.present(folds.get(source, cc.trigger_mode).text):
                hits.add(i)
        for mode, (matcher, idx) in self.by_mode.items():
            text = folds.get(source, mode).text
            for pattern, _start, _end in matcher.find_matches_as_indexes(text, overlapping=True):
                rule = idx[pattern]
                trigger = self.compiled[rule].trigger
                if rule not in hits and trigger is not None and trigger.present(text):
                    hits.add(rule)
        return sorted(hits)


def find_cases(rules: Sequence[Convention], units: Sequence[Unit], outputs: Mapping[str, str]) -> tuple[list[Case], CaseCounts]:
    """Every (rule, unit) where the reference holds an expected term that the output lacks."""
    compiled = compile_rules(rules)
    index = TriggerIndex(compiled)
    counts = CaseCounts()
    cases: list[Case] = []
    for unit in units:
        output = outputs.get(unit.unit_id)
        if output is None:
            continue
        folds = Folds()  # per unit: the source, reference and output, once per mode
        for rule in index.triggered(unit.source, folds):
            cc = compiled[rule]
            counts.bump(counts.triggered, rule)
            ref = folds.get(unit.reference, cc.mode)
            found = [(entry, entry.find(ref.text, first_only=True)) for entry in cc.expected]
            if not found or any(not spans for _entry, spans in found):
                counts.bump(counts.ref_lacks, rule)
                continue
            out = folds.get(output, cc.mode).text
            missing = [(entry, spans) for entry, spans in found if not entry.present(out)]
            if not missing:
                counts.bump(counts.agree, rule)
                continue
            counts.bump(counts.cases, rule)
            for entry, spans in missing:
                start, end = ref.raw_span(*spans[0])
                cases.append(Case(rule, unit.unit_id, entry.raw, start, end))
    return cases, counts
