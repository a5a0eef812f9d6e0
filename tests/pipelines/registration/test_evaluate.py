"""evaluate() on a fixture registration with hand-counted answers (fast; no shared data)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import FrozenRegistrationChangedError
from housestyle.pipelines.registration.evaluate import evaluate, set_directory
from housestyle.pipelines.registration.freeze import freeze_registration, read_spec
from housestyle.pipelines.registration.verdict import EVALUATION_FILE, verdict_line
from tests.conftest import write_sealed_set

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "registration"
UNITS = pl.read_ndjson(FIX / "units.jsonl")


@pytest.fixture()
def reg_dir(tmp_path: Path) -> Path:
    (tmp_path / "gold_src").mkdir()
    for name in ("terms_facebook.csv", "mini.tbx"):
        shutil.copyfile(FIX / name, tmp_path / "gold_src" / name)
    (tmp_path / "inbox" / "fx").mkdir(parents=True)
    shutil.copyfile(FIX / "splits.json", tmp_path / "inbox" / "fx" / "splits.json")
    return freeze_registration(read_spec(FIX / "spec_fixture.json"), root=tmp_path)


def _term(src: str, expected: str) -> Convention:
    return Convention(dimension=f"term:{src}", rule="term", src=src, expected_terms=[expected], match_mode="caseless",
                      src_lang="en", tgt_lang="fr")


def _set(tmp_path: Path, conventions: list[Convention], manifest: dict[str, object] | None = None) -> Path:
    """A complete set folder; ``manifest`` None = one that records no mining split."""
    return write_sealed_set(tmp_path / "rules_out" / "fx" / "s1", conventions, manifest)


def test_subset_gives_the_exact_fraction_and_missed_items(reg_dir: Path, tmp_path: Path) -> None:
    set_dir = _set(tmp_path, [_term("air mass", "masse d'air"), _term("fever", "fièvre")], {"split": "dev"})
    result = evaluate(reg_dir, set_dir, UNITS)
    dev, test = result.gate("recall_dev"), result.gate("recall_test")
    assert (dev.value, dev.detail["attested"], dev.status) == (0.5, 4, "pass")          # 2 of 4
    assert [m["source"] for m in dev.detail["missed"]] == ["chair", "face mask"]
    assert (test.value, test.detail["attested"], test.status) == (0.5, 2, "fail")       # 1 of 2 < .6
    assert (result.verdict, result.claim_level, result.label) == ("fail", "same-domain scaling only", "indicative")
    assert result.conventions["set_version"] == "s1"
    assert result.gate("tbx_dev").status == "info"
    path = result.write(set_directory(set_dir))
    assert path == set_dir / EVALUATION_FILE
    assert json.loads(path.read_text(encoding="utf-8"))["gates"][0]["value"] == 0.5
    assert verdict_line(set_dir).startswith("verdict fail · claim: same-domain scaling only · label: indicative")  # type: ignore[union-attr]


def test_gold_itself_passes_and_a_linguist_review_validates(reg_dir: Path, tmp_path: Path) -> None:
    gold = [_term("air mass", "masse d'air"), _term("face mask", "masque"), _term("fever", "fièvre"),
            _term("chair", "chaise"), _term("self isolation", "auto isolement")]
    set_dir = _set(tmp_path, gold)
    pending = evaluate(reg_dir, set_dir, UNITS)
    assert [g.status for g in pending.gates] == ["pass", "pass", "pending"]
    assert (pending.verdict, pending.claim_level, pending.label) == ("pending", "zero-curation mining", "indicative")
    review = tmp_path / "review.csv"
    rows = [f"{c.convention_id},correct,,Anne,linguist" for c in gold[:3]]
    review.write_text("convention_id,verdict,comment,reviewer,reviewer_role\n" + "\n".join(rows) + "\n", encoding="utf-8")
    done = evaluate(reg_dir, set_dir, UNITS, review)
    assert done.gate("precision_under_review").value == 1.0
    assert (done.verdict, done.claim_level, done.label) == ("pass", "zero-curation mining", "validated")
    assert "|review:" in done.signature and "|review:none" not in done.signature


def test_empty_set_recalls_nothing(reg_dir: Path, tmp_path: Path) -> None:
    result = evaluate(reg_dir, _set(tmp_path, []), UNITS)
    assert [(g.value, g.status) for g in result.gates[:2]] == [(0.0, "fail"), (0.0, "fail")]
    assert result.claim_level == "assisted authoring, not zero-curation mining"


@pytest.mark.parametrize("split, why", [
    (None, "set mined on all units (held-out split included, untuned there)"),
    ("test", "set mined on ['test']: 3 units shared with held-out split 'test'"),
])
def test_heldout_gate_records_mining_provenance_without_failing(reg_dir: Path, tmp_path: Path, split: str | None,
                                                                why: str) -> None:
    """Mining is unsupervised and runs on held-out units; only tuning there is forbidden (SPEC.md §2)."""
    gold = [_term("fever", "fièvre"), _term("self isolation", "auto isolement")]
    result = evaluate(reg_dir, _set(tmp_path, gold, {"split": split}), UNITS)
    test = result.gate("recall_test")
    assert (test.value, test.status, test.reason) == (1.0, "pass", why)


def test_evaluating_a_tampered_registration_is_a_hard_error(reg_dir: Path, tmp_path: Path) -> None:
    gold = reg_dir / "gold" / "mini.tbx"
    gold.write_text(gold.read_text(encoding="utf-8").replace("connexion", "login"), encoding="utf-8")
    with pytest.raises(FrozenRegistrationChangedError, match=r"gold file gold/mini.tbx \(tbx\): expected sha256 "):
        evaluate(reg_dir, _set(tmp_path, []), UNITS)


def test_authored_set_has_no_mining_split_to_leak(reg_dir: Path, tmp_path: Path) -> None:
    gold = [_term("fever", "fièvre"), _term("self isolation", "auto isolement")]
    result = evaluate(reg_dir, _set(tmp_path, gold, {"split": None, "origin": "authored"}), UNITS)
    assert (result.gate("recall_test").status, result.gate("recall_test").reason) == ("pass", "")


@pytest.mark.parametrize("passed,status,claim", [(10, "pass", "zero-curation mining"),
                                                 (9, "fail", "assisted authoring, not zero-curation mining")])
def test_heldout_agreement_gate_is_automatic_and_counts_only_scored_rules(
        tmp_path: Path, passed: int, status: str, claim: str) -> None:
    spec = read_spec(FIX / "spec_fixture.json")
    spec["gates"] = [{"name": "heldout_agreement", "metric": "heldout_agreement", "split": None, "threshold": 0.95,
                      "gold": None, "on_fail": "assisted authoring, not zero-curation mining", "role": "automatic",
                      "params": {}}]
    (tmp_path / "gold_src").mkdir()
    for name in ("terms_facebook.csv", "mini.tbx"):
        shutil.copyfile(FIX / name, tmp_path / "gold_src" / name)
    (tmp_path / "inbox" / "fx").mkdir(parents=True)
    shutil.copyfile(FIX / "splits.json", tmp_path / "inbox" / "fx" / "splits.json")
    reg = freeze_registration(spec, root=tmp_path)
    kept, weak = _term("fever", "fièvre"), _term("chair", "chaise")
    kept.heldout_items, kept.heldout_passed = 10, passed
    weak.heldout_items, weak.heldout_passed, weak.status = 10, 1, "suggested"  # never scored: never counted
    result = evaluate(reg, [kept, weak, _term("air mass", "masse d'air")], UNITS)
    gate = result.gate("heldout_agreement")
    assert (gate.value, gate.status, gate.role) == (passed / 10, status, "automatic")
    assert gate.reason.startswith("automatic") and gate.detail["heldout_items"] == 10
    assert gate.detail["by_kind"]["term"]["rules"] == 1
    assert result.claim_level == claim


def test_counting_rules_3_let_only_scored_rules_recover_gold(reg_dir: Path, tmp_path: Path) -> None:
    """Under /3 (frozen now) a `suggested` rule recovers nothing; a registration frozen under /2 keeps
    counting it, as it froze (the evaluator implements every id)."""
    from housestyle.pipelines.registration.model import COUNTING_RULES, COUNTING_RULES_V2_ID

    suggested = _term("fever", "fièvre")
    suggested.status = "suggested"
    set_dir = _set(tmp_path, [_term("air mass", "masse d'air"), suggested], {"split": "dev"})
    assert COUNTING_RULES["id"] == "housestyle-gold-counting/3"
    assert evaluate(reg_dir, set_dir, UNITS).gate("recall_dev").value == 0.25  # air mass only: 1 of 4
    frozen = json.loads((reg_dir / "registration.json").read_text(encoding="utf-8"))
    assert frozen["counting_rules"]["id"] == "housestyle-gold-counting/3"
    from housestyle.pipelines.registration.model import recovery_statuses

    assert recovery_statuses(COUNTING_RULES_V2_ID) is None  # /1 and /2: every rule of the set recovers
    assert recovery_statuses(frozen["counting_rules"]["id"]) == ("candidate", "validated")
