"""Freeze a registration from a spec, and load one back only if nothing it froze has changed.

Freezing copies every gold file beside the registration, hashes gold, splits and every field, and
writes ``registration.json``. Loading re-hashes everything; ANY difference raises
``FrozenRegistrationChangedError`` naming each change (file + expected/actual sha256, or field), so a
threshold cannot be relaxed after the miner has been seen.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.errors import (
    FrozenRegistrationChangedError,
    InputError,
    RegistrationError,
)
from housestyle.pipelines.registration.model import (
    COUNTING_RULES,
    GATE_ROLES,
    GOLD_KINDS,
    IMPLEMENTED_RULES,
    METRICS,
    Gate,
    GoldFile,
    Informative,
    Registration,
    SplitsRef,
    field_hashes_of,
    flatten_fields,
    hash_payload,
    sha256_bytes,
)
from housestyle.pipelines.splits import read_splits
from housestyle.pipelines.paths import client_path

REGISTRATION_FILE = "registration.json"
_VERSION_RE = re.compile(r"^v(\d+)$")


def sha256_file(path: Path) -> str:
    return sha256_bytes(Path(path).read_bytes())


def read_spec(path: Path) -> dict[str, Any]:
    """A registration spec (registrations/specs/<client>.json): gold sources, splits path, gates."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RegistrationError(f"{path}: cannot read registration spec: {exc}") from None
    if not isinstance(data, dict):
        raise RegistrationError(f"{path}: registration spec must be a JSON object")
    return data


def next_version(client_dir: Path) -> str:
    """v1, v2, …: one more than the highest existing version (old versions are never touched)."""
    numbers = [int(m.group(1)) for p in client_dir.glob("v*") if (m := _VERSION_RE.match(p.name)) and p.is_dir()]
    return f"v{max(numbers, default=0) + 1}"


def _conventions_gold_ids(path: Path) -> list[str]:
    ids = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                ids.append(str(json.loads(line)["gold_id"]))
            except (json.JSONDecodeError, KeyError) as exc:
                raise InputError(f"gold convention line without a readable gold_id ({exc})", path=str(path), location=lineno) from None
    return ids


def _validate(reg: Registration, root: Path, reg_dir: Path) -> None:
    """Refuse to freeze something the evaluator could not evaluate."""
    splits = read_splits(root / reg.splits.path)
    names = {g.name for g in reg.gold}
    if len(names) != len(reg.gold):
        raise RegistrationError("gold file names must be unique")
    for gold in reg.gold:
        if gold.kind not in GOLD_KINDS:
            raise RegistrationError(f"gold {gold.name}: kind {gold.kind!r} not one of {GOLD_KINDS}")
        if gold.kind == "conventions":
            missing = sorted(set(_conventions_gold_ids(reg_dir / gold.path)) - set(gold.attestation))
            if missing:
                raise RegistrationError(f"gold {gold.name}: no attestation evidence frozen for {missing}")
    if len(reg.claim_levels) < 1:
        raise RegistrationError("claim_levels must list at least the full claim")
    measured: list[Gate | Informative] = [*reg.gates, *reg.informative]
    for gate in measured:
        if gate.metric not in METRICS:
            raise RegistrationError(f"{gate.name}: unknown metric {gate.metric!r} (known: {sorted(METRICS)})")
        kinds = METRICS[gate.metric][1]
        if kinds:
            if gate.gold not in names:
                raise RegistrationError(f"{gate.name}: gold {gate.gold!r} is not a registered gold file")
            if reg.gold_by_name(str(gate.gold)).kind not in kinds:
                raise RegistrationError(f"{gate.name}: metric {gate.metric} needs gold of kind {kinds}")
            if gate.split not in splits:
                raise RegistrationError(f"{gate.name}: split {gate.split!r} not in {reg.splits.path} ({sorted(splits)})")
    for gate in reg.gates:
        if gate.role not in GATE_ROLES:
            raise RegistrationError(f"{gate.name}: role {gate.role!r} not one of {GATE_ROLES}")
        if gate.on_fail not in reg.claim_levels[1:]:
            raise RegistrationError(f"{gate.name}: on_fail {gate.on_fail!r} is not a downgrade in claim_levels")


def freeze_registration(spec: dict[str, Any], *, root: Path, registrations_dir: Path | None = None,
                        now: datetime | None = None) -> Path:
    """Write and freeze a new version for ``spec['client']``; returns the version directory.

    Paths in the spec (gold ``source``, ``splits``) are relative to ``root`` (the repository).
    """
    root = Path(root).resolve()
    client = str(spec["client"])
    client_dir = client_path(registrations_dir or root / "registrations", client, source="registration spec client")
    client_dir.mkdir(parents=True, exist_ok=True)
    version = next_version(client_dir)
    reg_dir = client_dir / version
    # Built in a temporary folder renamed into place: a failed or killed freeze never leaves a
    # half-written version that looks frozen (a concurrent freeze of the same version fails).
    with atomic.atomic_dir(reg_dir) as building:
        (building / "gold").mkdir()
        gold = []
        for entry in spec["gold"]:
            src = (root / entry["source"]).resolve()
            if not src.is_file():
                raise RegistrationError(f"gold {entry['name']}: file not found: {src}")
            dest = building / "gold" / src.name
            shutil.copyfile(src, dest)
            gold.append(GoldFile(name=entry["name"], path=f"gold/{src.name}", sha256=sha256_file(dest),
                                 kind=entry["kind"], src_lang=entry["src_lang"], tgt_lang=entry["tgt_lang"],
                                 origin=str(entry["source"]), licence=entry.get("licence", ""),
                                 attestation=entry.get("attestation", {})))
        splits_path = root / spec["splits"]
        reg = Registration(
            client=client, version=version,
            created_at=(now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            gold=gold, splits=SplitsRef(path=str(spec["splits"]), sha256=sha256_file(splits_path)),
            gates=[Gate(**g) for g in spec["gates"]],
            informative=[Informative(**i) for i in spec.get("informative", [])],
            claim_levels=list(spec["claim_levels"]), counting_rules=COUNTING_RULES,
            description=str(spec.get("description", "")),
        )
        _validate(reg, root, building)
        payload = reg.payload()
        reg.field_hashes = field_hashes_of(payload)
        reg.registration_hash = hash_payload(payload)
        (building / REGISTRATION_FILE).write_text(reg.to_json(), encoding="utf-8")
    return reg_dir


def _field_changes(stored: dict[str, str], payload: dict[str, Any]) -> list[str]:
    current = field_hashes_of(payload)
    leaves = flatten_fields(payload)
    changes = []
    for path in sorted(set(stored) | set(current)):
        if path not in current:
            changes.append(f"field {path}: removed after freezing (frozen hash {stored[path]})")
        elif path not in stored:
            changes.append(f"field {path}: added after freezing (now {leaves[path]})")
        elif stored[path] != current[path]:
            changes.append(f"field {path}: frozen hash {stored[path]}, now {leaves[path]} (hash {current[path]})")
    return changes


def load_registration(reg_dir: Path, *, root: Path | None = None, splits_file: Path | None = None) -> Registration:
    """Read and verify a frozen registration; raise naming every change since freezing.

    ``root`` (where ``splits.path`` is relative to) defaults to the repository holding
    ``registrations/<client>/<version>/``; ``splits_file`` overrides where the splits file is read
    (a relocated inbox): it must still hash to the frozen value.
    """
    reg_dir = Path(reg_dir)
    if reg_dir.is_file():
        reg_dir = reg_dir.parent
    file = reg_dir / REGISTRATION_FILE
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        reg = Registration.from_dict(data)
    except FileNotFoundError:
        raise RegistrationError(f"{file}: no registration here") from None
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise RegistrationError(f"{file}: malformed registration: {exc!r}") from None
    root = Path(root) if root is not None else reg_dir.resolve().parents[2]
    payload = reg.payload()
    changes = _field_changes(reg.field_hashes, payload)
    actual_hash = hash_payload(payload)
    if not changes and actual_hash != reg.registration_hash:
        changes.append(f"registration_hash: frozen {reg.registration_hash}, recomputed {actual_hash}")
    for gold in reg.gold:
        changes += _file_change(f"gold file {gold.path} ({gold.name})", reg_dir / gold.path, gold.sha256)
    splits_path = Path(splits_file) if splits_file is not None else root / reg.splits.path
    changes += _file_change(f"splits file {reg.splits.path}", splits_path, reg.splits.sha256)
    if changes:
        detail = "\n".join(f"  - {c}" for c in changes)
        error = FrozenRegistrationChangedError(
            f"{file}: frozen registration {reg.client}/{reg.version} changed after freezing "
            f"({len(changes)} change{'s' if len(changes) > 1 else ''}); a changed registration must be a new "
            f"version (housestyle register):\n{detail}")
        vars(error)["changes"] = changes  # read back with changes_of(error)
        raise error
    if reg.counting_rules.get("id") not in IMPLEMENTED_RULES:
        raise RegistrationError(f"{file}: frozen under counting rules {reg.counting_rules.get('id')!r}; "
                                f"this evaluator implements {', '.join(map(repr, IMPLEMENTED_RULES))}")
    return reg


def changes_of(error: FrozenRegistrationChangedError) -> list[str]:
    """The individual changes a FrozenRegistrationChangedError reported (one line each)."""
    return list(vars(error).get("changes", []))


def _file_change(label: str, path: Path, expected: str) -> list[str]:
    if not path.is_file():
        return [f"{label}: expected sha256 {expected}, file missing ({path})"]
    actual = sha256_file(path)
    return [] if actual == expected else [f"{label}: expected sha256 {expected}, actual {actual}"]


def latest_registration_dir(registrations_root: Path, client: str) -> Path | None:
    """registrations/<client>/v<highest>/, or None when the client has no registration."""
    client_dir = client_path(registrations_root, client)
    numbers = [int(m.group(1)) for p in client_dir.glob("v*") if (m := _VERSION_RE.match(p.name)) and p.is_dir()]
    return client_dir / f"v{max(numbers)}" if numbers else None


def registration_summary(reg: Registration) -> dict[str, Any]:
    """What a report shows about the registration a verdict came from."""
    return {"client": reg.client, "version": reg.version, "created_at": reg.created_at,
            "registration_hash": reg.registration_hash, "gates": [asdict(g) for g in reg.gates]}
