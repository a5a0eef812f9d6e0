"""The reference semantics of SPEC.md §2 for ONE (convention, source, output) item.

Everything else (the bulk engine, reports) must agree with ``check_item``; a property test compares
the engine with it on random data. Kept deliberately simple and slow.
"""

from __future__ import annotations

from housestyle.pipelines.conventions.code_spans import entry_text, trigger_text
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.timed_regex import RegexTimeout
from housestyle.pipelines.rules.base import ItemVerdict, error_verdict
from housestyle.pipelines.rules.registry import RULES, compile_convention

__all__ = ["ItemVerdict", "applies", "check_item"]


def applies(conv: Convention, source: str) -> bool:
    """Whether ``conv`` scores this source segment: its ``src`` trigger holds (src_match_mode) and
    the rule's own condition on the source holds (e.g. numeric: the source has a number). A term's
    trigger reads the source with its code spans blanked (``code_spans.trigger_text``): ``{user}``
    never triggers a rule on "user"."""
    compiled = compile_convention(conv)
    masked = trigger_text(conv.rule, source)
    try:
        return compiled.triggered(masked) and RULES[conv.rule].applies(compiled, masked)
    except RegexTimeout:
        return True  # undecidable on this source: an error item wherever it is scored (check_item)


def check_item(conv: Convention, source: str, output: str) -> ItemVerdict | None:
    """The verdict for one item, or None when the convention does not apply to this source. A term's
    entries read the output with its code spans blanked (``code_spans.entry_text``): "%sexterne" holds
    "externe", and "{fichier}" or a URL's path does not hold "fichier". A regex
    that times out (on the source's trigger or on the output) makes the item an error verdict: it
    is scored and not passed, whatever the rest of the item holds."""
    compiled = compile_convention(conv)
    rule = RULES[conv.rule]
    masked = trigger_text(conv.rule, source)  # as in ``applies``
    try:
        if not compiled.triggered(masked) or not rule.applies(compiled, masked):
            return None
    except RegexTimeout as exc:
        return error_verdict(str(exc))
    try:
        return rule.check(compiled, source, entry_text(conv.rule, output))
    except RegexTimeout as exc:
        return error_verdict(str(exc))
