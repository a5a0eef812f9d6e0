"""Which conventions a publication carries, and the per-rule-kind account of what it left out.

Why an account: a glossary that silently drops rules looks complete to the translator who imports
it; so every convention not published is counted under one reason, per rule kind, and the command
prints those counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from housestyle.pipelines.conventions.model import RULE_TYPES, Convention

# Reasons a convention is not published (the keys of ``KindCount.left_out``).
BY_STATUS = "status"
NOT_IN_FORMAT = "not in this format"
NO_FINITE_FORM = "no finite target form"


@dataclass(slots=True)
class KindCount:
    """What became of one rule kind's conventions: published, or left out (reason → count), and
    how many single forms (a non-finite regex entry) were dropped from published conventions."""

    published: int = 0
    left_out: Counter[str] = field(default_factory=Counter)
    forms_left_out: int = 0

    @property
    def total(self) -> int:
        return self.published + sum(self.left_out.values())


@dataclass(slots=True)
class Account:
    """Per rule kind, in SPEC order; kinds absent from the set are not listed."""

    kinds: dict[str, KindCount] = field(default_factory=dict)

    def of(self, rule: str) -> KindCount:
        return self.kinds.setdefault(rule, KindCount())

    def lines(self) -> list[str]:
        """One summary line per rule kind present in the set."""
        order = {name: i for i, name in enumerate(RULE_TYPES)}
        out = []
        for rule in sorted(self.kinds, key=lambda r: (order.get(r, len(order)), r)):
            count = self.kinds[rule]
            line = f"{rule}: {count.published} published, {sum(count.left_out.values())} left out"
            reasons = ", ".join(f"{why} {n}" for why, n in sorted(count.left_out.items()) if n)
            if reasons:
                line += f" ({reasons})"
            if count.forms_left_out:
                line += f"; {count.forms_left_out} non-finite form(s) left out"
            out.append(line)
        return out

    @property
    def published(self) -> int:
        return sum(c.published for c in self.kinds.values())

    @property
    def forms_left_out(self) -> int:
        return sum(c.forms_left_out for c in self.kinds.values())


def by_status(conventions: Iterable[Convention], statuses: Collection[str], account: Account) -> list[Convention]:
    """The conventions whose status is in ``statuses`` (``housestyle.pipelines.conventions.statuses``); the
    rest are counted."""
    kept = []
    for conv in conventions:
        if conv.status in statuses:
            kept.append(conv)
        else:
            account.of(conv.rule).left_out[BY_STATUS] += 1
    return kept
