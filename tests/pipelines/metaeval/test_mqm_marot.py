"""Contract of the Marot layout (housestyle.pipelines.metaeval.mqm_marot): a hand-scored toy file in Google's
current shape, Marot's default weights, attention checks dropped and counted, and the real
generalMT2023 side-by-side file read as upstream ships it (.tsv.tar.gz)."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.metaeval.mqm import layout_for, load_mqm
from housestyle.pipelines.metaeval.mqm_marot import COLUMNS, MAROT_WEIGHTS
from housestyle.pipelines.metaeval.mqm_score import error_weight

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "metaeval" / "mqm_toy_marot.tsv"
GENERAL_2023 = Path("wmt-mqm/generalMT2023/ende/sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv.tar.gz")
# System MQM recomputed from the raw rows with an independent awk script (Marot's weights, HOTW-test
# rows skipped, mean over raters then over segments); see the h26c report. Data figures, not gold.
GENERAL_2023_MQM = {
    "ONLINE-W": 2.7186, "GPT4-5shot_with_refA": 2.8635, "GPT4-5shot_with_ONLINE-W": 3.0772, "refA": 3.0962,
    "ONLINE-A": 3.9244, "ONLINE-Y": 4.4433, "ONLINE-M": 5.4471, "ONLINE-G": 5.9913, "Lan-BridgeMT": 7.7971,
    "NLLB_MBR_BLEU": 10.3840,
}


def test_marot_default_weights() -> None:
    """marot.js mqmDefaultWeights, first match on ``severity:category``."""
    def weight(severity: str, category: str) -> float | None:
        return error_weight(severity, category, MAROT_WEIGHTS)

    assert weight("Minor", "Fluency/Punctuation") == 0.1
    assert weight("Major", "Fluency/Punctuation") == 5
    assert weight("Major", "Accuracy/Creative Reinterpretation") == 0
    assert weight("Minor", "Source issue") == 0 and weight("Major", "Source issue") == 0
    assert weight("Major", "Non-translation!") == 25 and weight("Minor", "Non-translation") == 25
    assert weight("Minor", "Style/Unnatural or awkward") == 1 and weight("Major", "Accuracy/Mistranslation") == 5
    assert weight("Critical", "Accuracy/Omission") == 5
    assert weight("No-error", "No-error") == 0 and weight("Neutral", "Style") == 0
    assert weight("Bogus", "Style") is None


def test_toy_marot_file_scores_by_hand() -> None:
    data = load_mqm(FIXTURE)
    assert data.layout == "marot" and data.lp == "en-de"  # from the docs' ':en-de' suffix
    assert data.dropped == {"attention_check": 2, "metadata_only": 1}
    scores = {r["system"]: r["mqm"] for r in data.system_scores().iter_rows(named=True)}
    # sysA: seg1 mean(0.1, 0, creative 0) ; seg2 mean(5+1, source 0, source 0) ; seg3 mean(25, 1)
    assert scores["sysA"] == pytest.approx((0.1 / 3 + 6 / 3 + 26 / 2) / 3)
    # sysB: seg1 mean(1, 0) ; seg2 critical 5 (HOTW row dropped) ; seg3 0 (metadata-only row dropped)
    assert scores["sysB"] == pytest.approx((0.5 + 5 + 0) / 3)
    assert scores["refA"] == 0
    seg = data.segments.filter((data.segments["system"] == "sysB") & (data.segments["seg_id"] == 1)).row(0, named=True)
    assert seg["target"] == "Die Katze." and seg["n_raters"] == 2  # spans and the marked trailing space gone
    assert data.seg_ids == [1, 2, 3] and data.sources()[3] == "See you tomorrow."
    assert "layout:marot" in data.signature and "attention_check=2" in data.signature
    assert load_mqm(FIXTURE, lp="en-xx").lp == "en-xx"


def test_header_detection_and_constant_global_seg_id(tmp_path: Path) -> None:
    assert layout_for(list(COLUMNS), FIXTURE).name == "marot"
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    constant = [lines[0]] + ["\t".join(f if i != 3 else "0" for i, f in enumerate(line.split("\t"))) for line in lines[1:]]
    path = tmp_path / "constant.tsv"
    path.write_text("\n".join(constant) + "\n", encoding="utf-8")
    data = load_mqm(path)  # globalSegId 0 everywhere: segments numbered by (doc, docSegId) in order
    assert data.seg_ids == [1, 2, 3]
    assert data.system_scores()["mqm"].to_list() == load_mqm(FIXTURE).system_scores()["mqm"].to_list()


def test_reads_the_tar_gz_as_shipped(tmp_path: Path) -> None:
    archive = tmp_path / "sxs_mqm_toy_ende.tsv.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(FIXTURE, arcname="sxs_mqm_toy_ende.tsv")
    assert load_mqm(archive).system_scores().equals(load_mqm(FIXTURE).system_scores())


@pytest.mark.shared_data
def test_general_mt_2023_as_published(shared_data: Path) -> None:
    path = shared_data / GENERAL_2023
    if not path.is_file():
        pytest.skip(f"generalMT2023 side-by-side MQM file not found: {path}")
    data = load_mqm(path)
    assert data.layout == "marot" and data.lp == "en-de"
    assert data.dropped == {"attention_check": 245}
    table = data.system_scores()
    assert set(table["n_segments"].to_list()) == {104} and set(data.segments["n_raters"].to_list()) == {3}
    assert {s: round(m, 4) for s, m in zip(table["system"].to_list(), table["mqm"].to_list())} == GENERAL_2023_MQM


def test_copy_keeps_working(tmp_path: Path) -> None:
    """The layout comes from the header, not the name: a renamed copy reads the same."""
    copy = tmp_path / "ratings.tsv"
    shutil.copy(FIXTURE, copy)
    assert load_mqm(copy).lp == "en-de"
    bad = tmp_path / "link.tsv.tar.gz"
    with tarfile.open(bad, "w:gz") as tar:
        link = tarfile.TarInfo("a.tsv")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
        info = tarfile.TarInfo("b.tsv")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"x\ty"))
    with pytest.raises(InputError, match="must start with a regular .tsv file"):
        load_mqm(bad)
    truncated = tmp_path / "cut.tsv.tar.gz"
    truncated.write_bytes((tmp_path / "link.tsv.tar.gz").read_bytes()[:20])
    with pytest.raises(InputError, match="unreadable .tar.gz"):
        load_mqm(truncated)


def _awk_scores(tsv_text: bytes) -> dict[str, float]:
    awk = shutil.which("awk")
    if awk is None:
        pytest.skip("awk not installed (the independent recomputation needs it)")
    script = FIXTURE.with_name("marot_recompute.awk")
    done = subprocess.run([awk, "-f", str(script)], input=tsv_text, capture_output=True, check=True, timeout=60)
    return {line.split("\t")[0]: float(line.split("\t")[1]) for line in done.stdout.decode().splitlines()}


def test_independent_awk_recomputation_agrees_on_the_toy() -> None:
    ours = {s: round(m, 4) for s, m in load_mqm(FIXTURE).system_scores().select("system", "mqm").iter_rows()}
    assert _awk_scores(FIXTURE.read_bytes()) == ours


@pytest.mark.shared_data
def test_independent_awk_recomputation_agrees_on_general_mt_2023(shared_data: Path) -> None:
    path = shared_data / GENERAL_2023
    if not path.is_file():
        pytest.skip(f"generalMT2023 side-by-side MQM file not found: {path}")
    with tarfile.open(path, "r:gz") as archive:
        member = archive.extractfile(archive.getmembers()[0])
        assert member is not None
        text = member.read()
    ours = {s: round(m, 4) for s, m in load_mqm(path).system_scores().select("system", "mqm").iter_rows()}
    assert _awk_scores(text) == ours == GENERAL_2023_MQM
