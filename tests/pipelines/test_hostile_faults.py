"""Fault suite of issue 26 (names, inbox entries, concurrent appends, formulas, full disk), beside the
readers' hostile suite: generated inputs, seconds each, real processes where the fault is one."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import polars as pl
import pytest
from openpyxl import load_workbook

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import inert_cell
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.decisions import DECISIONS_SCHEMA, append_decisions, read_decisions
from housestyle.pipelines.conventionset.store import MANIFEST_FILE, open_set
from housestyle.pipelines.errors import InputError, OutputError
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.paths import UnsafePathError, client_name, client_path, is_client_name, under
from housestyle.pipelines.review.packet import build_packet, write_csv
from housestyle.pipelines.review.xlsx import write_xlsx
from tests.conftest import fill_disk, write_sealed_set

# ---- 1. names are names ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["demo", "acme-2", "a.b_c", "X", "9"])
def test_client_names_that_are_one_segment_pass(name: str) -> None:
    assert client_name(name) == name


@pytest.mark.parametrize("name", ["", "..", ".", "../../tmp/x", "/etc", "demo/tm", "a..b", ".hidden", "-x", "a b",
                                  "a\\b", "a\0b", "é", "x" * 129, None, 3])
def test_client_names_that_are_paths_are_refused(name: object) -> None:
    assert not is_client_name(name)
    with pytest.raises(UnsafePathError, match="not a client name"):
        client_name(name)


def test_paths_stay_under_their_root(tmp_path: Path) -> None:
    root = tmp_path / "rules_out"
    root.mkdir()
    assert under(root, "acme", "LATEST") == (root / "acme" / "LATEST").resolve()
    with pytest.raises(UnsafePathError, match="outside"):
        under(root, "..", "escaped")
    (root / "link").symlink_to(tmp_path)  # a folder inside that points out
    with pytest.raises(UnsafePathError, match="outside"):
        under(root, "link", "x")
    with pytest.raises(UnsafePathError):
        client_path(root, "../x")


def _set(folder: Path, client: str) -> Path:
    conv = Convention(dimension="terminology", rule="term", src="cat", expected_terms=["chat"], status="validated")
    return write_sealed_set(folder, [conv], manifest={"client": client})


def test_a_manifest_client_edited_after_sealing_is_refused(tmp_path: Path) -> None:
    folder = _set(tmp_path / "acme" / "v1", "acme")
    assert open_set(folder).manifest["client"] == "acme"
    path = folder / MANIFEST_FILE
    path.write_text(path.read_text(encoding="utf-8").replace('"client": "acme"', '"client": "other"'), encoding="utf-8")
    with pytest.raises(InputError, match="changed after it was sealed"):
        open_set(folder)


def test_a_manifest_client_that_is_a_path_is_refused_even_unsealed(tmp_path: Path) -> None:
    folder = _set(tmp_path / "acme" / "v1", "acme")
    path = folder / MANIFEST_FILE
    text = path.read_text(encoding="utf-8").replace('"client": "acme"', '"client": "../../escaped_review"')
    path.write_text("\n".join(line for line in text.splitlines() if '"seal"' not in line), encoding="utf-8")
    with pytest.raises(InputError, match="not a client name"):
        open_set(folder)


# ---- 2. the inbox reads only regular files -------------------------------------------------------


def test_symlinks_fifos_and_devices_are_rejects_that_quote_nothing(tmp_path: Path) -> None:
    secret = tmp_path / "secret.po"
    secret.write_text('msgid "top"\nmsgstr "SECRET-LINE"\n', encoding="utf-8")
    tm = tmp_path / "tm"
    tm.mkdir()
    (tm / "ok.po").write_text('msgid "a"\nmsgstr "b"\n', encoding="utf-8")
    (tm / "link.po").symlink_to(secret)
    os.mkfifo(tm / "pipe.po")
    (tm / "null.po").symlink_to("/dev/null")
    summary = ingest_files(sorted(tm.iterdir()), client="acme", out_dir=tmp_path / "out")
    assert (summary.units_kept, summary.units_rejected) == (1, 3)
    rejects = pl.read_parquet(tmp_path / "out" / "tm_rejects.parquet")
    assert sorted(Path(f).name for f in rejects["source_file"].to_list()) == ["link.po", "null.po", "pipe.po"]
    reasons = " ".join(rejects["reason"].to_list() + rejects["raw"].to_list())
    assert "not a regular file (a symbolic link)" in reasons and "(a FIFO)" in reasons
    assert "SECRET" not in reasons and "secret" not in reasons and "/dev/null" not in reasons
    assert stat.S_ISFIFO((tm / "pipe.po").lstat().st_mode)  # never opened (an open would have blocked)


# ---- 4. decisions appended under a lock ----------------------------------------------------------


def _rows(tag: str, n: int) -> pl.DataFrame:
    return pl.DataFrame({"convention_id": [f"{tag}-{i}" for i in range(n)], "identity": [tag] * n,
                         "decision": ["accept"] * n, "expected_terms": [[]] * n, "wrong_variants": [[]] * n,
                         "comment": [None] * n, "reviewer": [tag] * n, "reviewer_role": [None] * n,
                         "decided_at": ["2026-01-01T00:00:00Z"] * n, "set_version": ["v"] * n}, schema=DECISIONS_SCHEMA)


def _import(path: str, side: str, trials: int) -> None:
    for trial in range(trials):
        append_decisions(Path(path), _rows(f"t{trial}{side}", 7))


def test_twenty_paired_concurrent_appends_lose_no_row(tmp_path: Path) -> None:
    """Two processes append side by side, 20 times each (spawned: a forked polars can deadlock).
    Two plain processes, not a ``Pool``: a pool whose worker exits while holding its task queue's
    lock waits forever (seen once in CI, 2026-12-07), where a process that dies here is a failure."""
    path = tmp_path / "inbox" / "acme" / "decisions.parquet"
    spawn = multiprocessing.get_context("spawn")
    workers = [spawn.Process(target=_import, args=(str(path), side, 20)) for side in "ab"]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=600)  # a guard against a hang, not a speed test: each side takes seconds
        if worker.is_alive():
            worker.kill()
    assert [w.exitcode for w in workers] == [0, 0]
    frame = read_decisions(path)
    assert frame.height == 20 * 2 * 7
    assert frame["reviewer"].n_unique() == 40
    assert not atomic.stale_temporaries(path.parent)


# ---- 5. formulas never leave ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ['=HYPERLINK("http://x","y")', "+1+2", "-2+3", "@SUM(A1)", "\tx", "\rx"])
def test_formula_cells_are_neutralised(text: str) -> None:
    assert inert_cell(text) == "'" + text


def test_plain_numbers_and_words_stay(tmp_path: Path) -> None:
    assert [inert_cell(t) for t in ("-3", "+4,5", "word", "")] == ["-3", "+4,5", "word", ""]


def test_review_packets_carry_no_formula(tmp_path: Path) -> None:
    formula = '=HYPERLINK("http://evil.example","click")'
    conv = Convention(dimension="terminology", rule="term", src=formula, expected_terms=["+cmd|' /C calc'!A0"],
                      status="candidate")
    evidence = pl.DataFrame(schema={"convention_id": pl.Utf8, "unit_id": pl.Utf8, "role": pl.Utf8})
    packet = build_packet([conv], client="acme", set_version="v1", evidence=evidence)
    csv_text = write_csv(packet, tmp_path / "p.csv").read_text(encoding="utf-8-sig")
    assert "'" + formula.replace('"', '""') in csv_text and "\n=" not in csv_text and ",=" not in csv_text
    book = load_workbook(write_xlsx(packet, tmp_path / "p.xlsx"))
    cells = [c for row in book["review"].iter_rows(min_row=2) for c in row if c.value is not None]
    assert cells and all(c.data_type != "f" for c in cells)
    assert formula in [c.value for c in cells]


# ---- 8. a full disk leaves no torn folder ---------------------------------------------------------


def test_replace_dir_on_a_full_disk_leaves_the_old_folder_and_names_it(small_disk: Path) -> None:
    final = small_disk / "runs" / "r1"
    atomic.replace_dir(final, lambda tmp: (tmp / "old.txt").write_text("old", encoding="utf-8"))
    fill_disk(small_disk, leave=0)

    def build(tmp: Path) -> None:
        atomic.write_bytes(tmp / "scores.parquet", b"\0" * 200_000)

    with pytest.raises(OutputError) as caught:
        atomic.replace_dir(final, build)
    assert str(final) in str(caught.value) and ".tmp" not in str(caught.value)
    assert sorted(p.name for p in final.iterdir()) == ["old.txt"]
    assert [p.name for p in final.parent.iterdir()] == ["r1"]  # no temporary left


def test_replace_dir_removes_what_a_killed_builder_left(tmp_path: Path) -> None:
    final = tmp_path / "runs" / "r1"
    final.parent.mkdir(parents=True)
    torn = final.parent / f".r1.999999999-deadbeef0000{atomic.TMP_SUFFIX}"
    torn.mkdir()
    atomic.replace_dir(final, lambda tmp: (tmp / "a").write_text("a", encoding="utf-8"))
    assert sorted(p.name for p in final.parent.iterdir()) == ["r1"]
