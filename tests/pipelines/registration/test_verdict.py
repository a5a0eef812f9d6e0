"""Verdict, claim ladder and label from gate results."""

from __future__ import annotations

from housestyle.pipelines.registration.verdict import GateResult, decide, every_scored_validated

LADDER = ["zero-curation mining", "same-domain scaling only", "assisted authoring, not zero-curation mining"]


def _gate(name: str, status: str, on_fail: str, metric: str = "term_recall") -> GateResult:
    return GateResult(name=name, metric=metric, split=None, gold=None, threshold=0.5, value=None, status=status, on_fail=on_fail)


def test_all_pass_is_the_full_claim_and_validated() -> None:
    gates = [_gate("dev", "pass", LADDER[2]), _gate("heldout", "pass", LADDER[1]),
             _gate("p", "pass", LADDER[2], "precision_under_review")]
    assert decide(gates, LADDER) == ("pass", LADDER[0], [], "validated")


def test_pending_precision_keeps_claim_but_label_indicative() -> None:
    gates = [_gate("dev", "pass", LADDER[2]), _gate("p", "pending", LADDER[2], "precision_under_review")]
    assert decide(gates, LADDER) == ("pending", LADDER[0], [], "indicative")


def test_heldout_failure_downgrades_to_same_domain() -> None:
    gates = [_gate("dev", "pass", LADDER[2]), _gate("heldout", "fail", LADDER[1]),
             _gate("p", "pending", LADDER[2], "precision_under_review")]
    assert decide(gates, LADDER) == ("fail", LADDER[1], [LADDER[1]], "indicative")


def test_lowest_rung_wins_when_several_fail() -> None:
    gates = [_gate("heldout", "fail", LADDER[1]), _gate("dev", "fail", LADDER[2])]
    assert decide(gates, LADDER) == ("fail", LADDER[2], [LADDER[1], LADDER[2]], "indicative")


def test_a_set_whose_scored_conventions_linguists_all_validated_is_labelled_validated() -> None:
    """Decisions validate every scored rule: the label says so; the gates and verdict are unchanged."""
    gates = [_gate("dev", "pass", LADDER[2]), _gate("p", "pending", LADDER[2], "precision_under_review")]
    assert every_scored_validated(["validated", "rejected", "validated"])
    assert not every_scored_validated(["validated", "candidate"]) and not every_scored_validated(["rejected"])
    assert decide(gates, LADDER, all_validated=True) == ("pending", LADDER[0], [], "validated")
    assert decide(gates, LADDER, all_validated=False)[3] == "indicative"
