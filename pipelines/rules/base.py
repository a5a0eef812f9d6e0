"""What every rule type provides, and the verdict one (convention, segment) pair gets.

A rule module is a small set of plain functions (validate / prepare / applies / check) collected in
a ``RuleSpec``; ``housestyle.pipelines.rules.registry.RULES`` lists them explicitly. *Static* rules (term,
forbidden, pattern) are fully described by expected strings and wrong variants, so the fast engine
can evaluate them in bulk; the others derive what they require from each source segment and are
checked one item at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from housestyle.pipelines.conventions.compiled import Compiled, Entry
from housestyle.pipelines.conventions.folding import Folded, fold_with_map
from housestyle.pipelines.conventions.model import Convention


@dataclass(slots=True)
class ItemVerdict:
    """The verdict on one scored item. ``spans`` are [start, end) offsets in the RAW output of the
    characters that made it fail (wrong variants found, miscased words, extra placeholders)."""

    domain_pass: bool
    no_wrong_variant: bool
    missing_expected: list[str] = field(default_factory=list)
    found_wrong: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    error: str | None = None  # the item could not be decided (a regex timed out): never a pass
    full_pass: bool = field(init=False)

    def __post_init__(self) -> None:
        self.full_pass = self.domain_pass and self.no_wrong_variant and self.error is None


def verdict(missing: list[str], found: list[str], spans: Iterable[tuple[int, int]]) -> ItemVerdict:
    """Build a verdict from what is missing and what was found (empty lists = vacuously true)."""
    return ItemVerdict(
        domain_pass=not missing,
        no_wrong_variant=not found,
        missing_expected=missing,
        found_wrong=list(dict.fromkeys(found)),
        spans=sorted(set(spans)),
    )


def error_verdict(message: str) -> ItemVerdict:
    """An item that could not be decided (``RegexTimeout``): scored, not passed, reported with why."""
    return ItemVerdict(domain_pass=False, no_wrong_variant=False, error=message)


@dataclass(slots=True)
class Findings:
    """Intermediate result of matching a convention's entries against one output."""

    missing: list[str] = field(default_factory=list)
    found: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)


def match_entries(
    folded: Folded, expected: Iterable[Entry], wrong: Iterable[Entry], findings: Findings | None = None
) -> Findings:
    """Expected entries absent → ``missing`` (as written); wrong entries present → ``found`` (the raw
    text of each occurrence) and its raw spans."""
    out = findings if findings is not None else Findings()
    for entry in expected:
        if not entry.present(folded.text, folded.raw):
            out.missing.append(entry.raw)
    for entry in wrong:
        for start, end in entry.find(folded.text, raw=folded.raw):
            raw_start, raw_end = folded.raw_span(start, end)
            out.found.append(folded.raw[raw_start:raw_end])
            out.spans.append((raw_start, raw_end))
    return out


def static_check(cc: Compiled, output: str) -> ItemVerdict:
    """The SPEC.md rule for conventions described only by expected strings and wrong variants."""
    findings = match_entries(fold_with_map(output, cc.mode), cc.expected, cc.wrong)
    return verdict(findings.missing, findings.found, findings.spans)


def no_params(conv: Convention) -> None:
    """``prepare`` for rules without parameters."""
    return None


def always(cc: Compiled, source: str) -> bool:
    """``applies`` for rules that apply wherever their ``src`` trigger holds."""
    return True


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """One rule type. ``validate`` raises ConventionError; ``prepare`` parses params once;
    ``applies`` is the rule's own applicability (on the source only, so every system is scored on
    the same items); ``check`` judges one output."""

    name: str
    static: bool
    validate: Callable[[Convention], None]
    prepare: Callable[[Convention], Any]
    applies: Callable[[Compiled, str], bool]
    check: Callable[[Compiled, str, str], ItemVerdict]
    params_doc: str
