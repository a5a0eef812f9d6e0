"""MQM loading and scoring: a hand-checked toy file, hostile rows, and the real WMT21 TED files."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.metaeval.mqm import error_weight, load_mqm, lp_from_path, strip_spans

# Upstream README "TED talks" tables (expert-based MQM, as printed; ref.A = `ref`, ref.B = `refB`).
README_TED = {
    "en-de": {
        "ref": "0.91", "Facebook-AI": "1.06", "Online-W": "1.12", "VolcTrans-AT": "1.24", "metricsystem3": "1.44",
        "VolcTrans-GLAT": "1.49", "HuaweiTSC": "1.50", "metricsystem1": "1.63", "metricsystem2": "1.69",
        "metricsystem5": "1.72", "UEdin": "1.77", "metricsystem4": "1.78", "eTranslation": "1.96", "Nemo": "2.14",
    },
    "zh-en": {
        "refB": "0.42", "DIDI-NLP": "1.65", "metricsystem2": "1.76", "metricsystem1": "1.90", "MiSS": "1.97",
        "IIE-MT": "1.98", "metricsystem4": "2.05", "metricsystem5": "2.15", "SMU": "2.202", "Borderline": "2.40",
        "NiuTrans": "2.49", "Facebook-AI": "2.64", "Online-W": "2.93", "metricsystem3": "2.99", "ref": "5.52",
    },
}
# Two printed cells are not what the data gives: en→de eTranslation is 1.9688 (→ 1.97, README 1.96) and
# zh→en Borderline 2.4053 (→ 2.41, README 2.40), both in the TSV and in upstream's own avg_seg_scores file
# (checked below). No documented weighting gives them while keeping the other 26 cells; upstream replaced
# the TED TSVs after the first release (ted/*/.history), so the README is presumably from the older files.
README_STALE = {("en-de", "eTranslation"): 1.9688, ("zh-en", "Borderline"): 2.4053}


def test_weights_most_specific_rule_wins() -> None:
    assert error_weight("Major", "Accuracy/Mistranslation") == 5
    assert error_weight("Minor", "Style/Awkward") == 1
    assert error_weight("Minor", "Fluency/Punctuation") == 0.1
    assert error_weight("Major", "Fluency/Punctuation") == 5
    assert error_weight("Major", "Non-translation!") == 25
    assert error_weight("Minor", "Non-translation") == 25
    assert error_weight("No-error", "No-error") == 0
    assert error_weight("Neutral", "Style/Awkward") == 0
    assert error_weight("Critical", "Accuracy") is None


def test_helpers() -> None:
    assert strip_spans("Er <v>sagte</v> hallo") == "Er sagte hallo"
    assert lp_from_path(Path("x/mqm_ted_ende.tsv")) == "en-de"
    assert lp_from_path(Path("mqm_generalMT2023_zhen.avg_seg_scores.tsv")) == "zh-en"
    assert lp_from_path(Path("my_ratings.tsv")) == "my_ratings"


def test_toy_file_scores_by_hand(toy_ende: Path) -> None:
    data = load_mqm(toy_ende)
    assert data.lp == "en-de" and data.tgt_lang == "de"
    scores = {r["system"]: r["mqm"] for r in data.system_scores().iter_rows(named=True)}
    # sysA: 0.1 (minor punct) + mean(5, 0) over two raters + 0 + 1 + 1 = 4.6 over 4 segments
    assert scores["sysA"] == pytest.approx(4.6 / 4)
    assert scores["sysB"] == pytest.approx(25 / 4)  # Non-translation!
    assert scores["sysC"] == pytest.approx((5 + 1 + 0 + 0) / 4)  # Major punct 5, Neutral 0
    assert scores["ref"] == 0
    assert data.system_scores()["system"].to_list() == ["ref", "sysA", "sysC", "sysB"]
    seg2 = data.segments.filter((data.segments["system"] == "sysA") & (data.segments["seg_id"] == 2)).row(0, named=True)
    assert seg2["n_raters"] == 2 and seg2["mqm"] == 2.5
    assert seg2["target"] == 'Er sagte "hallo" zu allen in dem Raum.'  # tags stripped, quotes literal
    assert data.sources()[1] == "The cat sat on the mat."  # the source-error span tags stripped too
    assert data.errors.height == 18
    assert "sha256:" in data.signature and "Minor/Fluency/Punctuation=0.1" in data.signature


def test_nine_column_file_without_comment(toy_zhen: Path) -> None:
    data = load_mqm(toy_zhen)
    assert data.lp == "zh-en"
    assert set(data.systems) == {"ref", "refB", "X", "Y", "Z"}


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "mqm_bad_ende.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"


def test_wrong_field_count_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path, [HEADER, "A\td\t1\t1\tr\tsrc\ttgt\tNo-error\tNo-error", "A\td\t1\t2\tr\tsrc\ttgt\tNo-error"])
    with pytest.raises(InputError) as info:
        load_mqm(path)
    assert info.value.path == str(path) and info.value.location == "3"


def test_unknown_severity_is_an_error_not_a_zero(tmp_path: Path) -> None:
    path = _write(tmp_path, [HEADER, "A\td\t1\t1\tr\tsrc\ttgt\tAccuracy\tCritical"])
    with pytest.raises(InputError, match="Critical") as info:
        load_mqm(path)
    assert info.value.location == "2"


def test_inconsistent_target_and_missing_column(tmp_path: Path) -> None:
    path = _write(tmp_path, [HEADER, "A\td\t1\t1\tr\tsrc\t<v>tgt</v>\tStyle\tMinor", "A\td\t1\t1\tr\tsrc\tother\tStyle\tMinor"])
    with pytest.raises(InputError, match="differs from line 2") as info:
        load_mqm(path)
    assert info.value.location == "3"
    bad_header = _write(tmp_path, ["system\tseg_id\ttarget", "A\t1\tx"])
    with pytest.raises(InputError, match="lacks column"):
        load_mqm(bad_header)
    with pytest.raises(InputError, match="not found"):
        load_mqm(tmp_path / "absent.tsv")


@pytest.mark.shared_data
@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
def test_ted_reproduces_upstream_readme_table(ted: dict[str, Path], lp: str) -> None:
    data = load_mqm(ted[lp])
    table = data.system_scores()
    assert table["n_segments"].to_list() == [529] * table.height
    scores = dict(zip(table["system"].to_list(), table["mqm"].to_list()))
    assert set(scores) == set(README_TED[lp])
    for system, printed in README_TED[lp].items():
        if (lp, system) in README_STALE:
            assert scores[system] == pytest.approx(README_STALE[(lp, system)], abs=5e-5)
            continue
        decimals = len(printed.split(".")[1])
        assert f"{scores[system]:.{decimals}f}" == printed, system
    # the README's ranks (its row order) are reproduced exactly, stale cell included
    assert table["system"].to_list() == list(README_TED[lp])


@pytest.mark.shared_data
@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
def test_ted_segments_match_upstream_avg_seg_scores(ted: dict[str, Path], lp: str) -> None:
    """Every (system, segment) score equals upstream's own per-segment file (which names ref `ref-A`)."""
    data = load_mqm(ted[lp])
    avg_file = ted[lp].with_name(ted[lp].name.replace(".tsv", ".avg_seg_scores.tsv"))
    upstream: dict[tuple[str, int], float] = {}
    for line in avg_file.read_text(encoding="utf-8").splitlines()[1:]:
        system, rest = line.split("\t")
        score, seg = rest.split(" ")
        if score != "None":
            upstream[({"ref-A": "ref", "ref-B": "refB"}.get(system, system), int(seg))] = -float(score)
    ours = {(s, g): m for s, g, m in data.segments.select("system", "seg_id", "mqm").iter_rows()}
    assert set(ours) == set(upstream)
    assert all(abs(ours[k] - upstream[k]) < 1e-6 for k in ours)


@pytest.mark.shared_data
def test_ted_system_counts(ted: dict[str, Path]) -> None:
    """en→de has 13 MT systems + ref (PROVENANCE's "12 MT" miscounts); zh→en 13 MT + ref + refB."""
    ende, zhen = load_mqm(ted["en-de"]), load_mqm(ted["zh-en"])
    assert len([s for s in ende.systems if s != "ref"]) == 13
    assert len([s for s in zhen.systems if s not in ("ref", "refB")]) == 13
    assert len(ende.seg_ids) == len(zhen.seg_ids) == 529
