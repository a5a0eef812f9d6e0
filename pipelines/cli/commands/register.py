"""`housestyle register`: freeze a registration spec (registrations/specs/<client>.json) into a new version
of the client's pre-registered gold comparison (registrations/<client>/vN/)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from housestyle.pipelines.errors import RegistrationError
from housestyle.pipelines.paths import CLIENT_GRAMMAR, client_name, under
from housestyle.pipelines.project import resolve_project
from housestyle.pipelines.registration.freeze import freeze_registration, load_registration, read_spec


def register(subparsers: Any) -> None:
    reg = subparsers.add_parser("register", help="freeze a gold registration for a client (a new version)",
                                description="Freeze gold files, splits hash and gates into registrations/<client>/vN/.")
    source = reg.add_mutually_exclusive_group(required=True)
    source.add_argument("--spec", type=Path, help="registration spec JSON (gold, splits, gates, claim_levels)")
    source.add_argument("--client", help="use registrations/specs/<CLIENT>.json (one path segment: " + CLIENT_GRAMMAR + ")")
    reg.add_argument("--root", type=Path, default=None,
                     help="folder the spec's paths are relative to (default: the project, as for every command)")
    reg.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root = args.root if args.root is not None else resolve_project()
    spec_path = args.spec or under(root / "registrations" / "specs", f"{client_name(args.client, source='--client')}.json")
    if not spec_path.is_file():
        raise RegistrationError(f"{spec_path}: no registration spec")
    reg_dir = freeze_registration(read_spec(spec_path), root=root)
    reg = load_registration(reg_dir, root=root)
    print(f"froze {reg.client} {reg.version} at {reg_dir}")
    print(f"registration_hash {reg.registration_hash}")
    for gate in reg.gates:
        print(f"  gate {gate.name}: {gate.metric} on {gate.split or '-'} >= {gate.threshold} (on fail: {gate.on_fail})")
    return 0
