"""QA checks: the non-term rules, with regexes a checklist can run, and statuses respected."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from housestyle.pipelines.conventions.model import STATUSES
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.publish.publish import publish, qa_beside
from housestyle.pipelines.publish.qa import QA_FORMAT
from housestyle.pipelines.conventions.matching import plain_regex
from housestyle.pipelines.conventions.statuses import PUBLISHED_STATUSES, parse_statuses
from tests.pipelines.publish.sample import sample_set


def test_qa_checks_of_the_validated_non_term_rules(tmp_path: Path) -> None:
    out = tmp_path / "acme.qa.json"
    done = publish(sample_set(tmp_path / "v1"), "qa", out, ("validated",))
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["format"] == QA_FORMAT and document["set_version"] == "v1" and document["client"] == "acme"
    checks = {c["kind"] + ":" + c["dimension"]: c for c in document["checks"]}
    assert sorted(checks) == ["forbidden:term:vaccine", "numeric:number:format", "pattern:punct:nbsp_before_colon",
                              "source_copy:copy:WHO"]
    colon = checks["pattern:punct:nbsp_before_colon"]
    assert colon["source_regex"] == r":(?=\s|$)" and colon["severity"] == "minor" and not colon["ignore_case"]
    assert re.search(colon["target_forbidden"][0], "Note : ceci") and not re.search(colon["target_forbidden"][0], "Note\u00a0: ceci")
    copy = checks["source_copy:copy:WHO"]
    assert copy["source_derived"] == "copy_spans" and copy["severity"] == "major"
    assert re.search(copy["source_regex"], "the WHO said") and not re.search(copy["source_regex"], "WHOM")
    assert checks["numeric:number:format"]["params"] == {"decimal": ",", "group": "\u202f"}
    assert checks["forbidden:term:vaccine"]["source_regex"] is None  # applies to every segment
    assert "placeholder: 0 published, 1 left out (status 1)" in done.account.lines()
    assert "term: 0 published, 5 left out (not in this format 3, status 2)" in done.account.lines()


def test_with_qa_writes_both_and_every_convention_is_accounted_once(tmp_path: Path) -> None:
    out = tmp_path / "acme.csv"
    done = publish(sample_set(tmp_path / "v1"), "csv", out, STATUSES, with_qa=True)
    assert [w.path for w in done.files] == [out, qa_beside(out)]
    assert done.account.published == 11 and all(not c.left_out for c in done.account.kinds.values())


@pytest.mark.parametrize(("text", "inside", "outside"), [
    ("virus", "un virus.", "anti-virus"),
    ("épidémie", "l'épidémie", "épidémies"),
    ("SARS-CoV", "le SARS-CoV.", "SARS-CoV-2"),
    ("(WHO)", "x(WHO)y", "x(WH)y"),
])
def test_plain_strings_keep_the_word_edges(text: str, inside: str, outside: str) -> None:
    assert re.search(plain_regex([text], "exact"), inside)
    assert not re.search(plain_regex([text], "exact"), outside)


def test_status_option() -> None:
    assert parse_statuses(None, PUBLISHED_STATUSES) == ("validated",)
    assert parse_statuses("validated, candidate", PUBLISHED_STATUSES) == ("candidate", "validated")
    assert parse_statuses("all", PUBLISHED_STATUSES) == ("suggested", "candidate", "indicative", "validated", "rejected")
    with pytest.raises(ConfigError, match="unknown status approved"):
        parse_statuses("approved")
