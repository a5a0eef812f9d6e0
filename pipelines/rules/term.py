"""``term``: required terminology. Every expected term must be present; wrong variants (the
translations the client rejected) must be absent. Usually triggered by ``src`` (the source term)."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules._static import require_no_params
from housestyle.pipelines.rules.base import RuleSpec, always, no_params, static_check


def validate(conv: Convention) -> None:
    require_no_params(conv)


SPEC = RuleSpec(
    name="term", static=True, validate=validate, prepare=no_params, applies=always,
    check=lambda cc, source, output: static_check(cc, output),
    params_doc="none",
)
