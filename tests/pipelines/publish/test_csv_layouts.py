"""CSV layouts per tool: one row per concept with base forms, re-read by a termbase parser."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.glossary.intake import read_glossary
from housestyle.pipelines.publish.csv_layouts import LAYOUTS, language_name
from housestyle.pipelines.publish.publish import publish
from tests.pipelines.publish.sample import sample_set


def _published(tmp_path: Path, layout: str) -> Path:
    out = tmp_path / f"{layout}.csv"
    publish(sample_set(tmp_path / "v1"), "csv", out, ("validated",), layout=layout)
    return out


@pytest.mark.parametrize("layout", LAYOUTS)
def test_each_layout_is_read_back_with_statuses(tmp_path: Path, layout: str) -> None:
    """Our own termbase reader (the column names it accepts are the ones the tools export) reads every
    layout back: preferred terms required, banned ones forbidden, base forms only."""
    concepts, refused = read_glossary(_published(tmp_path, layout), src_lang="en", tgt_lang="fr")
    assert refused == []
    by_source: dict[str, tuple[set[str], set[str]]] = {}
    for c in concepts:
        preferred, wrong = by_source.setdefault(c.sources[0], (set(), set()))
        preferred.update(c.preferred)
        wrong.update(c.wrong)
    assert by_source == {
        "air mass": ({"masse d'air"}, {"masse atmosphérique"}),
        "household soap": ({"savon ménager"}, set()),  # one base form, not every inflection
        "face masks": ({"masque"}, set()),
        "lockdown": (set(), {"lockdown", "bouclage"}),
    }


def test_one_row_per_concept_and_the_tools_headers(tmp_path: Path) -> None:
    rows = {layout: list(csv.reader(_published(tmp_path, layout).read_text(encoding="utf-8-sig").splitlines()))
            for layout in LAYOUTS}
    assert rows["memoq"][0][:5] == ["Entry_ID", "Entry_Note", "English", "French", "Term_Forbidden"]
    assert rows["phrase"][0][:5] == ["en", "note", "fr", "fr_status", "fr_forbidden"]
    assert rows["crowdin"][0][:4] == ["Term [en]", "Description [en]", "Term [fr]", "Status [fr]"]
    assert rows["weblate"][0] == ["source", "target", "context", "explanation", "flags"]
    for layout in ("memoq", "phrase", "crowdin"):
        assert len(rows[layout]) == 1 + 4  # four published concepts
    soap = next(r for r in rows["crowdin"] if r[0] == "household soap")
    assert soap[2:4] == ["savon ménager", "preferred"] and "forms: savons ménagers" in soap[1]
    assert sum(r[4] == "forbidden" for r in rows["weblate"][1:]) == 3
    assert language_name("en-US") == "English_United_States"


def test_layout_only_with_csv(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--layout goes with --format csv"):
        publish(sample_set(tmp_path / "v1"), "tbx", tmp_path / "x.tbx", ("validated",), layout="memoq")
