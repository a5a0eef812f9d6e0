"""`housestyle meta-eval` and `housestyle judge` on hostile MQM files of every layout: one line on
stderr, exit 2, seconds — before any metric or criterion is computed (generated inputs)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main as housestyle

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
GOOD_TED = FIXTURES / "metaeval" / "mqm_toy_ende.tsv"
MAROT = FIXTURES / "metaeval" / "mqm_toy_marot.tsv"
HEADERS = {
    "ted": "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity",
    "marot": "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\t# Documentation",
}
ROW = {
    "ted": "A\td\t1\t1\tr1\tThe cat.\t{t}\tNo-error\tNo-error",
    "marot": "A\td:en-de\t1\t1\tr1\tThe cat.\t{t}\tNo-error\tNo-error\t{{}}",
}
KINDS = {
    "truncated": lambda l: f"{HEADERS[l]}\n{ROW[l].format(t='x')}\nA\td\t1\n",
    "wrong header": lambda l: "system\tdocument\tsegment\n" + ROW[l].format(t="x") + "\n",
    "empty": lambda l: "",
    "huge field": lambda l: f"{HEADERS[l]}\n{ROW[l].format(t='x' * 300_000)}\n",
}


def _commands(bad: Path, out: Path) -> dict[str, list[str]]:
    return {
        "meta-eval": ["meta-eval", "--mqm", str(GOOD_TED), str(bad), "--reference-system", "ref", "--out", str(out)],
        "judge": ["judge", "--train", str(GOOD_TED), "--test", str(bad), "--criteria", "deterministic", "--out", str(out)],
    }


@pytest.mark.parametrize("command", ["meta-eval", "judge"])
@pytest.mark.parametrize("layout", sorted(HEADERS))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_hostile_file_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, layout: str,
                                      kind: str) -> None:
    bad = tmp_path / "mqm_bad_zhen.tsv"
    bad.write_text(KINDS[kind](layout), encoding="utf-8")
    started = time.perf_counter()
    code = housestyle(_commands(bad, tmp_path / "out")[command])
    elapsed = time.perf_counter() - started
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and str(bad) in err[0], err
    assert elapsed < 15 and not (tmp_path / "out").exists()


def test_lp_options_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert housestyle(["meta-eval", "--mqm", str(GOOD_TED), "--lp", "en-de", "zh-en", "--reference-system", "ref",
                       "--out", str(out)]) == 2
    assert "one per file" in capsys.readouterr().err
    assert housestyle(["judge", "--train", str(GOOD_TED), "--test", str(MAROT), "--lp", "en-de", "../x",
                       "--criteria", "deterministic", "--out", str(out)]) == 2
    assert "not a language pair" in capsys.readouterr().err
    assert not out.exists()


def test_meta_eval_reads_marot_and_reports_attention_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert housestyle(["meta-eval", "--mqm", str(MAROT), "--lp", "en-gb", "--reference-system", "refA",
                       "--include-human", "--out", str(out), "--bootstrap", "0"]) == 0
    captured = capsys.readouterr()
    assert "marot layout, en-gb" in captured.err and "2 attention-check rows dropped" in captured.err
    markdown = (out / "meta_eval.md").read_text(encoding="utf-8")
    assert "--lp en-gb" in markdown and "**en-gb** (marot layout; 2 attention-check rows dropped" in markdown
