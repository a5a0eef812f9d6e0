"""The miner never sees gold: no import of the registration code, and the output is byte-identical
whether or not the gold/registration files can be opened (an audit hook forbids opening them)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.imports import forbidden_reaches, module_index

HOOK = """
import os, sys
FORBIDDEN = [os.path.realpath(p) for p in os.environ["FORBIDDEN_PATHS"].split(os.pathsep)]
def guard(event, args):
    if event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], (str, bytes)):
        name = os.path.realpath(args[0].decode() if isinstance(args[0], bytes) else args[0])
        if any(name == f or name.startswith(f + os.sep) for f in FORBIDDEN):
            raise PermissionError("miner tried to open gold: " + name)
sys.addaudithook(guard)
from housestyle.pipelines.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_no_mining_module_imports_registration() -> None:
    index = module_index(REPO_ROOT, ("pipelines",))
    assert forbidden_reaches(index, ("housestyle.pipelines.mining", "housestyle.pipelines.conventionset"), "housestyle.pipelines.registration") == []


def _mine(tm: Path, out: Path, cwd: Path, hooked: bool) -> subprocess.CompletedProcess[str]:
    args = ["mine", str(tm), "--src", "en", "--tgt", "fr", "--client", "c", "--out", str(out)]
    cmd = [sys.executable, "-c", HOOK, *args] if hooked else [sys.executable, "-m", "housestyle.pipelines.cli.main", *args]
    forbidden = [REPO_ROOT / "registrations", REPO_ROOT.parent / "shared" / "gold",
                 REPO_ROOT.parent / "shared" / "data" / "tico19" / "terminologies"]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HOUSESTYLE_DATA": str(cwd / "no-such-data"),
           "FORBIDDEN_PATHS": os.pathsep.join(str(p) for p in forbidden)}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False)


def _digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_output_identical_with_gold_hidden(tmp_path: Path) -> None:
    tm = tmp_path / "tm.xliff"
    tm.write_bytes((REPO_ROOT / "tests" / "fixtures" / "mining" / "tiny_enfr.xliff").read_bytes())
    normal = _mine(tm, tmp_path / "a", REPO_ROOT, hooked=False)
    hidden_dir = tmp_path / "elsewhere"
    hidden_dir.mkdir()
    hidden = _mine(tm, tmp_path / "b", hidden_dir, hooked=True)
    assert normal.returncode == 0, normal.stderr[-2000:]
    assert hidden.returncode == 0, hidden.stderr[-2000:]
    version = (tmp_path / "a" / "c" / "LATEST").read_text(encoding="utf-8")
    assert version == (tmp_path / "b" / "c" / "LATEST").read_text(encoding="utf-8")
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")


def test_the_guard_is_not_vacuous(tmp_path: Path) -> None:
    registration = next((REPO_ROOT / "registrations").rglob("registration.json"), None)
    if registration is None:
        import pytest
        pytest.skip("no registration in this checkout to prove the guard on")
    done = _mine(registration, tmp_path / "x", tmp_path, hooked=True)
    assert done.returncode != 0 and "tried to open gold" in done.stderr


def _gold_pairs(shared_data: Path) -> set[tuple[str, str]]:
    """(source, target) of every gold term: the TICO-19 termbases, the shared gold conventions and
    the registrations' frozen gold files (CSV, JSONL, TBX), case-folded. Pairs that only respell the
    source (``COVID19`` → ``COVID-19``) choose no rendering and are left out."""
    import csv
    import json
    import re

    pairs: set[tuple[str, str]] = set()
    for path in sorted((shared_data / "tico19" / "terminologies").glob("*.csv")):
        with path.open(encoding="utf-8") as handle:
            pairs |= {(r["sourceString"].strip(), r["targetString"].strip()) for r in csv.DictReader(handle)}
    for path in [*sorted((shared_data.parent / "gold").glob("*.jsonl")), *sorted((REPO_ROOT / "registrations").rglob("*.jsonl"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("src") and not row.get("regex"):
                pairs |= {(row["src"], t) for t in row.get("expected_terms") or []}
    for path in sorted((REPO_ROOT / "registrations").rglob("*.tbx")):
        for entry in re.findall(r"<termEntry.*?</termEntry>", path.read_text(encoding="utf-8"), flags=re.S):
            langs = {lang.split("-")[0]: re.findall(r"<term>(.*?)</term>", body, flags=re.S)
                     for lang, body in re.findall(r'<langSet xml:lang="([^"]+)">(.*?)</langSet>', entry, flags=re.S)}
            pairs |= {(s, t) for s in langs.get("en", []) for t in langs.get("fr", [])}
    folded = {(s.casefold(), t.casefold()) for s, t in pairs if s and t}
    return {(s, t) for s, t in folded if re.sub(r"\W", "", s) != re.sub(r"\W", "", t) and len(t) > 2}


def test_no_gold_rendering_is_quoted_in_the_code(shared_data: Path) -> None:
    """Code, comments and docstrings of pipelines/ and assets/ never quote a gold term beside its
    gold rendering (examples must come from outside the gold lists: the miner is judged on them)."""
    import re

    pairs = _gold_pairs(shared_data)
    assert len(pairs) > 1000, "the gold lists were not found: the scan would be vacuous"
    by_word: dict[str, list[tuple[str, str]]] = {}
    for source, target in pairs:
        by_word.setdefault(re.split(r"\W+", target.strip())[0] or target, []).append((source, target))
    found = []
    for path in sorted([*(REPO_ROOT / "pipelines").rglob("*.py"), *(REPO_ROOT / "assets").rglob("*.py")]):
        lines = path.read_text(encoding="utf-8").casefold().splitlines()
        for number, line in enumerate(lines, start=1):
            window = " ".join(lines[number - 1:number + 1])  # a pair may wrap onto the next line
            for word in set(re.findall(r"\w+", line)) & by_word.keys():
                for source, target in by_word[word]:
                    if all(re.search(r"(?<![\w-])" + re.escape(t) + r"(?!\w)", window) for t in (source, target)):
                        found.append(f"{path.relative_to(REPO_ROOT)}:{number}: {source} → {target}")
    assert found == []
