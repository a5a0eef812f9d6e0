"""Vacuous conventions (SPEC.md §2): either list may be empty, and both may. A convention that checks
nothing loads with a warning naming its file and line, passes every item it applies to, and is
marked ``vacuous`` in the scores; it is never an error and never stops a run."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.registry import is_vacuous
from housestyle.pipelines.scoring.check import check_item
from housestyle.pipelines.scoring.engine import score_systems

ROWS = [
    '{"dimension": "term:air", "rule": "term", "src": "air", "wrong_variants": ["atmosphère"]}',
    '{"dimension": "forbidden:x", "rule": "forbidden", "expected_terms": ["air"]}',
    '{"dimension": "term:none", "rule": "term", "src": "air"}',
    '{"dimension": "forbidden:none", "rule": "forbidden"}',
    '{"dimension": "punct:none", "rule": "pattern", "regex": true, "expected_terms": [], "wrong_variants": []}',
]
SOURCES = {"a": "the air", "b": "no trigger here", "c": "air air"}
OUTPUT = {"a": "l'atmosphère", "b": "rien", "c": ""}


@pytest.fixture()
def conv_file(tmp_path: Path) -> Path:
    path = tmp_path / "conv.jsonl"
    path.write_text("".join(r + "\n" for r in ROWS), encoding="utf-8")
    return path


def test_every_empty_list_combination_loads(conv_file: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="housestyle.conventions"):
        convs = load_conventions(conv_file)
    assert [c.dimension for c in convs] == ["term:air", "forbidden:x", "term:none", "forbidden:none", "punct:none"]
    assert [is_vacuous(c) for c in convs] == [False, False, True, True, True]
    warned = [r.getMessage() for r in caplog.records if r.name == "housestyle.conventions"]
    assert len(warned) == 3  # one per vacuous convention, none for the two that check one list
    for line, dimension, message in zip((3, 4, 5), ("term:none", "forbidden:none", "punct:none"), warned):
        assert message.startswith(f"{conv_file}:{line}: convention ")
        assert dimension in message and "checks nothing" in message


def test_vacuous_conventions_pass_every_item_they_apply_to(conv_file: Path) -> None:
    convs = load_conventions(conv_file)
    result = score_systems(convs, SOURCES, {"sys": OUTPUT})
    rows = {r["dimension"]: r for r in result.scores.iter_rows(named=True)}
    # the term with only a wrong variant checks it: "atmosphère" in a, nothing in c
    assert (rows["term:air"]["scored"], rows["term:air"]["passed"], rows["term:air"]["vacuous"]) == (2, 1, False)
    # expected terms alone: required where the rule applies (everywhere: no src)
    assert (rows["forbidden:x"]["scored"], rows["forbidden:x"]["passed"], rows["forbidden:x"]["vacuous"]) == (3, 0, False)
    assert (rows["term:none"]["scored"], rows["term:none"]["passed"]) == (2, 2)  # triggered by "air": a and c
    for dim in ("forbidden:none", "punct:none"):  # no src: applies to every segment
        assert (rows[dim]["scored"], rows[dim]["passed"], rows[dim]["score"], rows[dim]["vacuous"]) == (3, 3, 100.0, True)
    assert rows["term:none"]["vacuous"] is True
    vacuous_ids = {c.convention_id for c in convs if is_vacuous(c)}
    assert not set(result.failures["convention_id"].to_list()) & vacuous_ids
    dims = {r["dimension"]: r["vacuous"] for r in result.dimension_scores.iter_rows(named=True)}
    assert dims == {"term:air": False, "forbidden:x": False, "term:none": True, "forbidden:none": True, "punct:none": True}


def test_the_reference_checker_agrees() -> None:
    conv = Convention(dimension="term:none", rule="term", src="air")
    verdict = check_item(conv, "the air", "anything at all")
    assert verdict is not None and verdict.full_pass and verdict.missing_expected == [] and verdict.found_wrong == []
    assert check_item(conv, "no trigger", "x") is None  # vacuous, but still only where it applies
