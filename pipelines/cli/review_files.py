"""What `review-import` files for a registration's precision gate, and the set folder the review commands
name: the gate is the registration's ``precision_under_review`` one; a verdict file (review-sample's
convention_id, verdict, …) is copied to inbox/<client>/review/<set_version>.<ext>, where miner_evaluation
finds it, and the precision it gives is printed."""

from __future__ import annotations

from pathlib import Path

from housestyle.pipelines import atomic
from housestyle.pipelines.conventionset.store import OpenedSet, convention_source
from housestyle.pipelines.errors import InputError, RegistrationError
from housestyle.pipelines.paths import client_path
from housestyle.pipelines.registration.freeze import load_registration
from housestyle.pipelines.registration.model import Gate, Registration
from housestyle.pipelines.registration.review import precision_gate, read_review

PACKET_SUFFIXES = (".xlsx", ".csv")  # review-export's packets
VERDICT_SUFFIXES = (".csv", ".tsv", ".parquet")  # review-sample's verdict files


def opened_set(path: Path) -> OpenedSet:
    """A verified set folder whose manifest names the client and the set_version (else one line, exit 2)."""
    _file, opened = convention_source(path)
    if opened is None or not opened.manifest.get("client"):
        raise InputError("not a convention set folder (its manifest names the client and the set_version)", path=str(path))
    return opened


def precision_gate_of(registration: Path, client: str | None = None) -> tuple[Registration, Gate]:
    """The registration (a folder, or a file in it) and its precision_under_review gate; with ``client``,
    the registration must be that client's."""
    reg_dir = registration.parent if registration.is_file() else registration
    reg = load_registration(reg_dir)
    if client is not None and reg.client != client:
        raise RegistrationError(f"{reg_dir}: registration of client {reg.client!r}, the set is of {client!r}")
    gates = [g for g in reg.gates if g.metric == "precision_under_review"]
    if not gates:
        raise RegistrationError(f"{reg_dir}: registration has no precision_under_review gate")
    return reg, gates[0]


def file_verdict_review(review: Path, conventions: Path, registration: Path, inbox: Path) -> int:
    """``review-import`` of a verdict file (convention_id, verdict, …): checked, copied to
    inbox/<client>/review/<set_version>.<ext> for the registration's precision gate."""
    from housestyle.pipelines.registration.evaluate import load_set  # the gate measures' libraries (seconds)

    suffix = review.suffix.lower()
    if suffix not in VERDICT_SUFFIXES:
        raise InputError(f"review file must be one of {VERDICT_SUFFIXES}", path=str(review))
    frame = read_review(review)
    cset = load_set(conventions)
    reg, gate = precision_gate_of(registration)
    prec = precision_gate(frame, {c.convention_id for c in cset.conventions}, gate.threshold, gate.params)
    dest = client_path(inbox, reg.client, "review", f"{cset.set_version}{suffix}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    atomic.copy_file(review, dest)
    value = "—" if prec.value is None else f"{prec.value:.3f}"
    interval = "" if prec.interval is None else f" (Wilson 95% {prec.interval[0]:.3f}–{prec.interval[1]:.3f})"
    print(f"{frame.height} rows: {prec.judged} linguist judgements, precision {value}{interval}; ignored {prec.ignored}")
    print(f"gate {gate.name} (>= {gate.threshold}): {prec.status}{' — ' + prec.reason if prec.reason else ''}")
    print(f"filed as {dest}; miner_evaluation reads it for set {cset.set_version}")
    return 0
