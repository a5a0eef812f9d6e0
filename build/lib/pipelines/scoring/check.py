"""The reference semantics of SPEC.md §2 for ONE (convention, source, output) item.

Everything else (the bulk engine, reports) must agree with ``check_item``; a property test compares
the engine with it on random data. Kept deliberately simple and slow.
"""

from __future__ import annotations

from pipelines.conventions.model import Convention
from pipelines.rules.base import ItemVerdict
from pipelines.rules.registry import RULES, compile_convention

__all__ = ["ItemVerdict", "applies", "check_item"]


def applies(conv: Convention, source: str) -> bool:
    """Whether ``conv`` scores this source segment: its ``src`` trigger holds (src_match_mode) and
    the rule's own condition on the source holds (e.g. numeric: the source has a number)."""
    compiled = compile_convention(conv)
    return compiled.triggered(source) and RULES[conv.rule].applies(compiled, source)


def check_item(conv: Convention, source: str, output: str) -> ItemVerdict | None:
    """The verdict for one item, or None when the convention does not apply to this source."""
    compiled = compile_convention(conv)
    if not compiled.triggered(source):
        return None
    rule = RULES[conv.rule]
    if not rule.applies(compiled, source):
        return None
    return rule.check(compiled, source, output)
