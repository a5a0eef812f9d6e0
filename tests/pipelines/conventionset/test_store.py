"""Only complete convention sets are read: manifest.json, written last, lists every file with its
sha256; a set folder killed mid-write, without a manifest or not matching it is refused everywhere."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.cli.main import main
from housestyle.pipelines.mining.build_set import mine_to_set
from housestyle.pipelines.conventionset.store import convention_source, open_set
from housestyle.pipelines.errors import InputError
from tests.conftest import REPO_ROOT

SCORE_FIX = REPO_ROOT / "tests" / "fixtures" / "scoring"


def _mine(units: pl.DataFrame, out: Path) -> Path:
    written, _ = mine_to_set(units, src_lang="en", tgt_lang="fr", client="fx", rules_out=out, inputs={"tm": "abc"})
    return written.path


def test_the_manifest_lists_every_file_with_its_sha256(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    set_dir = _mine(tiny_units, tmp_path)
    manifest = json.loads((set_dir / "manifest.json").read_text(encoding="utf-8"))
    on_disk = sorted(p.name for p in set_dir.iterdir() if p.name != "manifest.json")
    assert sorted(manifest["files"]) == on_disk == sorted(["conventions.jsonl", "conventions.parquet", "evidence.parquet",
                                                           "conflicts.parquet", "suspect_units.parquet", "term_trace.parquet"])
    for name, digest in manifest["files"].items():  # counted here, not by the code under test
        assert hashlib.sha256((set_dir / name).read_bytes()).hexdigest() == digest
    assert open_set(set_dir).set_version == set_dir.name == manifest["set_version"]
    assert sorted(p.name for p in set_dir.parent.iterdir()) == sorted(["LATEST", set_dir.name])


def _broken_sets(tiny_units: pl.DataFrame, root: Path) -> dict[str, Path]:
    """Set folders as a killed or edited writer leaves them, each with the reason it must be refused."""
    good = _mine(tiny_units, root / "good")
    out: dict[str, Path] = {}
    for case in ("no manifest.json", "evidence.parquet does not match", "conventions.jsonl is missing",
                 "lists no file hashes"):
        folder = root / "broken" / case.split()[0].replace(".", "_") / good.name
        folder.parent.mkdir(parents=True)
        subprocess.run(["cp", "-r", str(good), str(folder)], check=True)
        if case == "no manifest.json":
            (folder / "manifest.json").unlink()
        elif case.startswith("evidence"):
            data = (folder / "evidence.parquet").read_bytes()
            (folder / "evidence.parquet").write_bytes(data[: len(data) // 2])  # half-written
        elif case.startswith("conventions"):
            (folder / "conventions.jsonl").unlink()
        else:  # a set sealed by an older writer: a list of names, no hashes
            manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
            manifest["files"] = sorted(manifest["files"])
            (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        out[case] = folder
    return out


def test_incomplete_sets_are_refused_by_the_one_reader(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    for why, folder in _broken_sets(tiny_units, tmp_path).items():
        with pytest.raises(InputError, match=why.replace(".", r"\.")):
            open_set(folder)
        with pytest.raises(InputError):
            convention_source(folder)
        with pytest.raises(InputError):  # a file of the folder is no way around the check
            convention_source(folder / "conventions.parquet")
    loose, opened = convention_source(SCORE_FIX / "seed.jsonl")  # a hand-written file is no set
    assert opened is None and loose == SCORE_FIX / "seed.jsonl"


def test_score_diff_and_review_refuse_an_incomplete_set(tiny_units: pl.DataFrame, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    broken = _broken_sets(tiny_units, tmp_path)["no manifest.json"]
    good = tmp_path / "good" / "fx" / broken.name
    commands = [
        ["score", "--conventions", str(broken), "--source", str(SCORE_FIX / "sources.tsv"),
         "--system", f"good={SCORE_FIX / 'good.jsonl'}", "--out", str(tmp_path / "run")],
        ["score", "--conventions", str(broken / "conventions.jsonl"), "--source", str(SCORE_FIX / "sources.tsv"),
         "--system", f"good={SCORE_FIX / 'good.jsonl'}", "--out", str(tmp_path / "run")],
        ["diff", str(good), str(broken)],
        ["review-sample", "--conventions", str(broken), "-n", "2", "--out", str(tmp_path / "sample.csv")],
    ]
    for argv in commands:
        capsys.readouterr()
        assert main(argv) == 2, argv
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and "incomplete convention set: no manifest.json" in captured.err, argv
    assert not (tmp_path / "run" / "run.json").exists() and not (tmp_path / "sample.csv").exists()
    assert main(["diff", str(good), str(good)]) == 0  # the complete set is read


WRITE_CHILD = (
    "import sys\n"
    "from pathlib import Path\n"
    "import numpy as np, polars as pl\n"
    "from housestyle.pipelines.conventions.model import Convention\n"
    "from housestyle.pipelines.mining.set_writer import write_set\n"
    "from housestyle.pipelines.mining.merge import MiningResult\n"
    "conv = Convention(dimension='term:fever', rule='term', src='fever', expected_terms=['fièvre'], src_lang='en', tgt_lang='fr')\n"
    "n = 1_000_000\n"
    "ids = pl.Series(np.random.default_rng(0).integers(0, 10**12, n)).cast(pl.Utf8)\n"
    "evidence = pl.DataFrame({'convention_id': [conv.convention_id] * n, 'unit_id': ids, 'role': ['evidence'] * n})\n"
    "print('ready', flush=True)\n"
    "write_set(MiningResult([conv], evidence), client='fx', rules_out=Path(sys.argv[1]), inputs={'tm': sys.argv[2]},\n"
    "          params={}, split=None, src_lang='en', tgt_lang='fr')\n"
)


def _write_in_child(rules_out: Path, tag: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", WRITE_CHILD, str(rules_out), tag], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    return proc


def test_a_set_killed_mid_write_is_never_a_set(tmp_path: Path) -> None:
    """SIGKILL while the set's files are being written: no set folder and no LATEST appear, what is
    left is a hidden temporary that no reader takes for a set, and the next writer removes it."""
    rules_out = tmp_path / "rules_out"
    proc = _write_in_child(rules_out, "first")
    client = rules_out / "fx"
    deadline = time.monotonic() + 120
    killed = False
    while time.monotonic() < deadline and proc.poll() is None:
        building = [p for p in client.iterdir() if p.name.endswith(".tmp")] if client.is_dir() else []
        if building and any(f.name == "conventions.jsonl" for f in building[0].iterdir()):
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed = True
            break
        time.sleep(0.0005)
    assert proc.stdout is not None
    proc.stdout.close()
    assert killed, "the writer finished before the kill"
    left = sorted(p.name for p in client.iterdir())
    assert len(left) == 1 and left[0].startswith(".") and left[0].endswith(".tmp")  # no set, no LATEST
    with pytest.raises(InputError, match="no manifest.json"):
        open_set(client / left[0])
    proc = _write_in_child(rules_out, "first")
    assert proc.wait() == 0
    assert proc.stdout is not None
    proc.stdout.close()
    (version,) = [p.name for p in client.iterdir() if p.name != "LATEST"]  # the stale temporary is gone
    assert (client / "LATEST").read_text(encoding="utf-8").strip() == version
    assert open_set(client / version).manifest["evidence_rows"] == 1_000_000


def test_an_incomplete_folder_under_the_set_name_is_replaced(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    set_dir = _mine(tiny_units, tmp_path)
    good = open_set(set_dir).files
    (set_dir / "manifest.json").unlink()  # what a killed writer of the old code left
    (set_dir / "evaluation.json").write_text("{}", encoding="utf-8")
    assert _mine(tiny_units, tmp_path) == set_dir
    assert open_set(set_dir).files == good and not (set_dir / "evaluation.json").exists()
    (set_dir / "evaluation.json").write_text("{}", encoding="utf-8")  # a complete set is kept as it is
    assert _mine(tiny_units, tmp_path) == set_dir and (set_dir / "evaluation.json").exists()
