"""Gate results -> verdict, claim level and label (counting_rules.verdict), and evaluation.json."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic

EVALUATION_FILE = "evaluation.json"
EVALUATION_FORMAT = "housestyle-evaluation/1"


@dataclass(slots=True)
class GateResult:
    """One gate (or informative figure, ``gate=False``) as measured."""

    name: str
    metric: str
    split: str | None
    gold: str | None
    threshold: float | None
    value: float | None
    status: str  # pass | fail | pending | info
    on_fail: str | None = None
    role: str | None = None
    gate: bool = True
    reason: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Evaluation:
    client: str
    registration: dict[str, Any]
    conventions: dict[str, Any]
    tm_units: dict[str, Any]
    gates: list[GateResult]
    informative: list[GateResult]
    verdict: str
    claim_level: str
    downgrades: list[str]
    label: str
    signature: str
    evaluated_at: str
    format: str = EVALUATION_FORMAT

    def gate(self, name: str) -> GateResult:
        for result in [*self.gates, *self.informative]:
            if result.name == name:
                return result
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def write(self, directory: Path) -> Path:
        """evaluation.json in the set's folder: status lives here, so the set_version never changes."""
        text = json.dumps(self.to_dict(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        return atomic.write_text(Path(directory) / EVALUATION_FILE, text)

    def summary_lines(self) -> list[str]:
        """Readable lines for the CLI and the asset metadata."""
        head = (f"{self.client} · registration {self.registration['version']} "
                f"({self.registration['registration_hash'][:12]}) · set {self.conventions.get('set_version')}")
        lines = [head]
        for result in self.gates:
            value = "—" if result.value is None else _fmt(result.value, result.metric)
            threshold = "—" if result.threshold is None else _fmt(result.threshold, result.metric)
            extra = f" ({result.reason})" if result.reason else ""
            lines.append(f"  [{result.status.upper():7}] {result.name}: {value} vs ≥ {threshold}{extra}")
        for result in self.informative:
            lines.append(f"  [INFO   ] {result.name}: {_fmt(result.value or 0.0, result.metric)}")
        lines.append(f"verdict: {self.verdict} · claim: {self.claim_level} · label: {self.label}")
        lines.append(f"signature: {self.signature}")
        return lines


def _fmt(value: float, metric: str) -> str:
    return f"{int(value)}" if metric == "conventions_recovered" else f"{value:.3f}"


def decide(gates: list[GateResult], claim_levels: list[str],
           all_validated: bool = False) -> tuple[str, str, list[str], str]:
    """verdict, claim level, downgrades, label.

    The claim is the lowest rung of the ladder named by any failed gate; a pending gate never
    lowers the claim but keeps the verdict pending; the label is ``validated`` once the
    precision-under-review gate has passed, or when linguists validated every convention the set
    scores (``all_validated``: their review decisions, which the set follows), else ``indicative``.
    The gates themselves never depend on the label.
    """
    failed = [g for g in gates if g.status == "fail"]
    pending = [g for g in gates if g.status == "pending"]
    verdict = "fail" if failed else "pending" if pending else "pass"
    downgrades = list(dict.fromkeys(str(g.on_fail) for g in failed))
    rung = max((claim_levels.index(d) for d in downgrades if d in claim_levels), default=0)
    precision_passed = any(g.metric == "precision_under_review" and g.status == "pass" for g in gates)
    return verdict, claim_levels[rung], downgrades, "validated" if precision_passed or all_validated else "indicative"


def every_scored_validated(statuses: list[str]) -> bool:
    """True when the set scores something and every convention it scores (all but ``rejected``) is
    ``validated``."""
    scored = [s for s in statuses if s != "rejected"]
    return bool(scored) and all(s == "validated" for s in scored)


def verdict_line(set_dir: Path) -> str | None:
    """One line for `housestyle run` from a set's evaluation.json (None when not evaluated yet)."""
    path = Path(set_dir) / EVALUATION_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    reg = data.get("registration", {})
    return (f"verdict {data.get('verdict')} · claim: {data.get('claim_level')} · label: {data.get('label')} "
            f"(registration {reg.get('version')} {str(reg.get('registration_hash', ''))[:12]})")
