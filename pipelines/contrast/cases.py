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

from housestyle.pipelines.conventions.compiled import Compiled, compile_generic
from housestyle.pipelines.conventions.folding import Folded, fold_with_map
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.multisearch import word_hits


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
    """Which rules each source triggers. Plain triggers go through the checker's many-strings search
    (``multisearch.word_hits``: one Aho–Corasick pass over all sources per match mode, then the word
    boundaries), since thousands of mined rules × a large TM would otherwise be a nested loop. Regex
    triggers, and rules without ``src``, are checked directly."""

    def __init__(self, compiled: Sequence[Compiled]) -> None:
        self.compiled = list(compiled)
        self.always = [i for i, cc in enumerate(compiled) if cc.trigger is None]
        self.regex = [i for i, cc in enumerate(compiled) if cc.trigger is not None and cc.trigger.is_regex]
        self.plain: dict[str, list[int]] = {}
        for i, cc in enumerate(compiled):
            if cc.trigger is not None and not cc.trigger.is_regex and cc.trigger.folded:
                self.plain.setdefault(cc.trigger_mode, []).append(i)

    def triggered_all(self, sources: Sequence[str], folds: Sequence[Folds] | None = None) -> list[list[int]]:
        """For each source, the sorted indices of the rules it triggers (``folds``: one per source,
        reused by the caller for the same texts)."""
        folds = list(folds) if folds is not None else [Folds() for _ in sources]
        hits: list[set[int]] = [set(self.always) for _ in sources]
        for i in self.regex:
            cc = self.compiled[i]
            for u, source in enumerate(sources):
                if cc.trigger is not None and cc.trigger.present(folds[u].get(source, cc.trigger_mode).text, source):
                    hits[u].add(i)
        for mode, idx in self.plain.items():
            texts = [folds[u].get(source, mode).text for u, source in enumerate(sources)]
            patterns = [self.compiled[i].trigger.folded or "" for i in idx]  # type: ignore[union-attr]
            for rule, units in zip(idx, word_hits(patterns, texts, raws=sources, mode=mode)):
                for u in units:
                    hits[u].add(rule)
        return [sorted(h) for h in hits]


def find_cases(rules: Sequence[Convention], units: Sequence[Unit], outputs: Mapping[str, str]) -> tuple[list[Case], CaseCounts]:
    """Every (rule, unit) where the reference holds an expected term that the output lacks."""
    compiled = compile_rules(rules)
    produced = [unit for unit in units if unit.unit_id in outputs]
    unit_folds = [Folds() for _ in produced]  # per unit: the source, reference and output, once per mode
    triggered = TriggerIndex(compiled).triggered_all([unit.source for unit in produced], unit_folds)
    counts = CaseCounts()
    cases: list[Case] = []
    for unit, folds, rules_hit in zip(produced, unit_folds, triggered):
        output = outputs[unit.unit_id]
        for rule in rules_hit:
            cc = compiled[rule]
            counts.bump(counts.triggered, rule)
            ref = folds.get(unit.reference, cc.mode)
            found = [(entry, entry.find(ref.text, first_only=True, raw=unit.reference)) for entry in cc.expected]
            if not found or any(not spans for _entry, spans in found):
                counts.bump(counts.ref_lacks, rule)
                continue
            out = folds.get(output, cc.mode).text
            missing = [(entry, spans) for entry, spans in found if not entry.present(out, output)]
            if not missing:
                counts.bump(counts.agree, rule)
                continue
            counts.bump(counts.cases, rule)
            for entry, spans in missing:
                start, end = ref.raw_span(*spans[0])
                cases.append(Case(rule, unit.unit_id, entry.raw, start, end))
    return cases, counts
