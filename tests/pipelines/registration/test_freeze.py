"""Freezing and verifying registrations: the committed ones verify, any change is a named hard error."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from housestyle.pipelines.errors import FrozenRegistrationChangedError, RegistrationError
from housestyle.pipelines.registration.freeze import (
    changes_of,
    freeze_registration,
    load_registration,
    read_spec,
    sha256_file,
)
from tests.conftest import REPO_ROOT

# The registrations frozen before any mining code existed (commit "Freeze demo and mozilla-fr
# registrations v1"). Pinned here too, so even a consistent re-hash of an edited file fails a test.
FROZEN = {
    "demo/v1": "5e4191df2b581c64b32049d2d4f41befc4441b8b116777cbbb5fb9dc56126a61",
    "mozilla-fr/v1": "057748b0b67867a0cc4b683b099268f9af7878e050f594d003d529383b58e4f7",
}


@pytest.mark.parametrize("name", sorted(FROZEN))
def test_committed_registrations_verify_and_keep_their_hash(name: str) -> None:
    reg = load_registration(REPO_ROOT / "registrations" / name)
    assert reg.registration_hash == FROZEN[name]
    assert [g.name for g in reg.gates][-1] == "precision_under_review"


def test_demo_v2_adds_the_automatic_heldout_gate_and_v1_still_loads() -> None:
    """Issue 25: the held-out agreement gate is a new version under counting rules /2; v1 (rules /1)
    keeps verifying and evaluating."""
    v1, v2 = (load_registration(REPO_ROOT / "registrations" / "demo" / v) for v in ("v1", "v2"))
    assert v2.registration_hash == "07076a1238e47fcaeadc8d790f6b2d38fc95497631214e715eda5b24e7227d54"
    assert (v1.counting_rules["id"], v2.counting_rules["id"]) == ("housestyle-gold-counting/1", "housestyle-gold-counting/2")
    gate = v2.gates[-1]
    assert (gate.metric, gate.role, gate.threshold, gate.gold) == ("heldout_agreement", "automatic", 0.95, None)
    assert [g.name for g in v1.gates] == [g.name for g in v2.gates][:-1]
    assert [(g.threshold, g.on_fail) for g in v1.gates] == [(g.threshold, g.on_fail) for g in v2.gates][:-1]


def _copy_registration(tmp_path: Path, client: str = "demo") -> tuple[Path, Path]:
    """A repository-shaped copy: <tmp>/registrations/<client>/v1 and <tmp>/inbox/<client>/splits.json."""
    reg_dir = tmp_path / "registrations" / client / "v1"
    shutil.copytree(REPO_ROOT / "registrations" / client / "v1", reg_dir)
    (tmp_path / "inbox" / client).mkdir(parents=True)
    shutil.copyfile(REPO_ROOT / "inbox" / client / "splits.json", tmp_path / "inbox" / client / "splits.json")
    return tmp_path, reg_dir


def test_copy_verifies_with_root_inferred_from_layout(tmp_path: Path) -> None:
    _, reg_dir = _copy_registration(tmp_path)
    assert load_registration(reg_dir).registration_hash == FROZEN["demo/v1"]


def test_tamper_one_gold_line_names_the_file_and_both_hashes(tmp_path: Path) -> None:
    _, reg_dir = _copy_registration(tmp_path)
    gold = reg_dir / "gold" / "f_en-fr_XX.csv"
    frozen = sha256_file(gold)
    lines = gold.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[2] == "2,en,fr_XX,acute bronchitis,bronchite aiguë\n"
    lines[2] = "2,en,fr_XX,acute bronchitis,bronchite sévère\n"
    gold.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(FrozenRegistrationChangedError) as info:
        load_registration(reg_dir)
    message = str(info.value)
    assert message == (
        f"{reg_dir / 'registration.json'}: frozen registration demo/v1 changed after freezing (1 change); "
        "a changed registration must be a new version (housestyle register):\n"
        f"  - gold file gold/f_en-fr_XX.csv (facebook): expected sha256 {frozen}, actual {sha256_file(gold)}")


def test_tampered_threshold_and_splits_are_both_named(tmp_path: Path) -> None:
    root, reg_dir = _copy_registration(tmp_path)
    file = reg_dir / "registration.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    data["gates"][0]["threshold"] = 0.5
    file.write_text(json.dumps(data), encoding="utf-8")
    splits = root / "inbox" / "demo" / "splits.json"
    splits.write_text(splits.read_text(encoding="utf-8").replace('"CMU_1:6",', "", 1), encoding="utf-8")
    with pytest.raises(FrozenRegistrationChangedError) as info:
        load_registration(reg_dir)
    changes = changes_of(info.value)
    assert len(changes) == 2
    assert changes[0].startswith("field gates[facebook_recall_dev].threshold: frozen hash ")
    assert changes[0].endswith(", now 0.5 (hash " + changes[0].rsplit("(hash ", 1)[1])
    assert changes[1].startswith("splits file inbox/demo/splits.json: expected sha256 ")


def test_removed_gate_and_missing_gold_are_named(tmp_path: Path) -> None:
    _, reg_dir = _copy_registration(tmp_path, "mozilla-fr")
    file = reg_dir / "registration.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    data["gates"] = data["gates"][:2]
    file.write_text(json.dumps(data), encoding="utf-8")
    (reg_dir / "gold" / "fr.tbx").unlink()
    with pytest.raises(FrozenRegistrationChangedError) as info:
        load_registration(reg_dir)
    text = str(info.value)
    assert "field gates[precision_under_review].threshold: removed after freezing" in text
    assert "gold file gold/fr.tbx (mozilla_tbx): expected sha256 " in text and "file missing" in text


def test_new_registration_is_a_new_version_and_old_one_stays_readable(tmp_path: Path) -> None:
    root, _ = _copy_registration(tmp_path)
    spec = read_spec(REPO_ROOT / "registrations" / "specs" / "demo.json")
    for gold in spec["gold"]:  # the spec's gold paths are relative to the real repository
        gold["source"] = str(REPO_ROOT / "registrations" / "demo" / "v1" / "gold" / Path(gold["source"]).name)
    spec["gates"][0]["threshold"] = 0.75
    when = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    v2 = freeze_registration(spec, root=root, now=when)
    assert v2.name == "v2"
    new, old = load_registration(v2), load_registration(root / "registrations" / "demo" / "v1")
    assert (new.gates[0].threshold, old.gates[0].threshold) == (0.75, 0.70)
    assert new.created_at == "2030-01-02T03:04:05Z" and new.registration_hash != old.registration_hash


def test_freeze_refuses_a_gate_on_an_unknown_split(tmp_path: Path) -> None:
    root, _ = _copy_registration(tmp_path)
    spec = read_spec(REPO_ROOT / "registrations" / "specs" / "demo.json")
    for gold in spec["gold"]:
        gold["source"] = str(REPO_ROOT / "registrations" / "demo" / "v1" / "gold" / Path(gold["source"]).name)
    spec["gates"][1]["split"] = "heldout"
    with pytest.raises(RegistrationError, match="facebook_recall_test: split 'heldout' not in inbox/demo/splits.json"):
        freeze_registration(spec, root=root)
    assert not (root / "registrations" / "demo" / "v2").exists()  # nothing half-frozen left behind
