"""Signatures carry a code fingerprint: one changed line of a scorer gives another signature."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from housestyle.pipelines.fingerprint import CODE_PACKAGES, PACKAGE_ROOT, code_version
from housestyle.pipelines.scoring.signature import score_signature

SIGNATURE_OF_EMPTY_SET = "from housestyle.pipelines.scoring.signature import score_signature; print(score_signature([], 0))"


def _copy(target: Path) -> Path:
    """The code laid out as a wheel installs it (target/housestyle/{pipelines,assets}), ahead on sys.path."""
    for package in CODE_PACKAGES:
        shutil.copytree(PACKAGE_ROOT / package, target / "housestyle" / package, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def _signature_from(root: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", SIGNATURE_OF_EMPTY_SET], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip()


def test_signature_changes_when_one_line_of_a_scorer_changes(tmp_path: Path) -> None:
    same = _copy(tmp_path / "same")
    changed = _copy(tmp_path / "changed")
    engine = changed / "housestyle" / "pipelines" / "scoring" / "engine.py"
    lines = engine.read_text(encoding="utf-8").splitlines(keepends=True)
    line = next(i for i, text in enumerate(lines) if text.startswith("def "))
    lines[line] = lines[line].rstrip("\n") + "  # one changed line\n"
    engine.write_text("".join(lines), encoding="utf-8")

    here = score_signature([], 0)
    assert _signature_from(same) == here  # an identical copy of the code signs the same
    moved = _signature_from(changed)
    assert moved != here
    assert f"v:{code_version()}" in here and "+code." in moved
