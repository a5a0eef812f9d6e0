"""``forbidden``: banned variants. None of ``wrong_variants`` may occur (``expected_terms`` may add
requirements but usually is empty). Without ``src`` it applies to every segment."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules._static import require_no_params
from housestyle.pipelines.rules.base import RuleSpec, always, no_params, static_check


def validate(conv: Convention) -> None:
    require_no_params(conv)


SPEC = RuleSpec(
    name="forbidden", static=True, validate=validate, prepare=no_params, applies=always,
    check=lambda cc, source, output: static_check(cc, output),
    params_doc="none",
)
