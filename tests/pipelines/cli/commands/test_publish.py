"""`housestyle publish` as a user runs it: summary lines, files, and one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from translate.storage.tbx import tbxfile

from housestyle.pipelines.cli.main import main
from tests.pipelines.publish.sample import sample_set


def test_publish_tbx_with_qa(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = sample_set(tmp_path / "v1")
    out = tmp_path / "pub" / "acme.tbx"
    assert main(["publish", "--conventions", str(folder), "--format", "tbx", "--out", str(out), "--with-qa"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == "term: 3 published, 2 left out (status 2); 1 non-finite form(s) left out"
    assert f"{out}: 4 term entries" in captured.out and f"{out}.qa.json: 4 checks" in captured.out
    assert len(tbxfile.parsestring(out.read_bytes()).units) == 4
    assert len(json.loads(Path(f"{out}.qa.json").read_text(encoding="utf-8"))["checks"]) == 4
    assert sorted(p.name for p in out.parent.iterdir()) == ["acme.tbx", "acme.tbx.qa.json"]  # no temporaries


def test_publish_refuses_an_incomplete_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = sample_set(tmp_path / "v1")
    with (folder / "conventions.jsonl").open("a", encoding="utf-8") as handle:
        handle.write("\n")  # changed after sealing
    out = tmp_path / "acme.csv"
    assert main(["publish", "--conventions", str(folder), "--format", "csv", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "incomplete convention set" in err and str(folder) in err
    assert not out.exists()
    (folder / "manifest.json").unlink()
    assert main(["publish", "--conventions", str(folder), "--format", "csv", "--out", str(out)]) == 2
    assert "no manifest.json" in capsys.readouterr().err


def test_publish_bad_status_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = sample_set(tmp_path / "v1")
    assert main(["publish", "--conventions", str(folder), "--format", "qa", "--out", str(tmp_path / "q.json"),
                 "--status", "approved"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_publish_csv_for_one_tool(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = sample_set(tmp_path / "v1")
    out = tmp_path / "crowdin.csv"
    assert main(["publish", "--conventions", str(folder), "--format", "csv", "--layout", "crowdin", "--out", str(out)]) == 0
    assert f"{out}: 4 rows (crowdin layout)" in capsys.readouterr().out
    assert main(["publish", "--conventions", str(folder), "--format", "tbx", "--layout", "crowdin",
                 "--out", str(tmp_path / "x.tbx")]) == 2
    assert "--layout goes with --format csv" in capsys.readouterr().err
