"""TBX publication: translate-toolkit reads back every term, and the shipped RELAX NG schema holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from translate.storage.tbx import tbxfile

from housestyle.pipelines.conventions.model import STATUSES
from housestyle.pipelines.publish.publish import publish
from housestyle.pipelines.publish.tbx import DEPRECATED, PREFERRED, validation_errors
from tests.pipelines.publish.sample import sample_set


@pytest.fixture()
def published(tmp_path: Path) -> tuple[Path, object]:
    out = tmp_path / "out" / "acme.tbx"
    done = publish(sample_set(tmp_path / "v1"), "tbx", out, ("validated",))
    return out, done


def _terms(store: tbxfile) -> dict[str, dict[str, str | None]]:
    """source term → {target term: administrative status}, as the toolkit reads them."""
    result: dict[str, dict[str, str | None]] = {}
    for unit in store.units:
        (source,) = [t.text for t in unit.get_source_terms()]
        result[source] = {t.text: t.administrative_status for t in unit.get_target_terms()}
    return result


def test_translate_toolkit_reads_back_every_term(published: tuple[Path, object]) -> None:
    out, _done = published
    store = tbxfile.parsestring(out.read_bytes(), sourcelanguage="en", targetlanguage="fr")
    assert _terms(store) == {
        "air mass": {"masse d'air": PREFERRED, "masse atmosphérique": DEPRECATED},
        "household soap": {"savon ménager": PREFERRED, "savons ménagers": PREFERRED},  # regex expanded
        "face masks": {"masque": PREFERRED, "masques": PREFERRED},  # "\d+ masques" is not finite
        "lockdown": {"lockdown": DEPRECATED, "bouclage": DEPRECATED},
    }
    # without naming the languages, the toolkit takes the first langSet as the source
    assert len(tbxfile.parsestring(out.read_bytes()).units) == 4
    air = next(u for u in store.units if u.source == "air mass")
    # the preferred term is what the toolkit calls the target; the banned variant is its own term, deprecated
    assert air.target == "masse d'air" and [t.deprecated for t in air.get_target_terms()] == [False, True]
    soap = next(u for u in store.units if u.source == "household soap")
    assert soap.target == "savon ménager"  # the base form first, then the other inflections
    lockdown = next(u for u in store.units if u.source == "lockdown")
    assert all(t.deprecated for t in lockdown.get_target_terms())
    notes = air.getnotes()
    assert "Météo-France usage" in notes and "support: 12" in notes and "set_version: v1" in notes
    assert f"convention_id: {air.getid()[1:]}" in notes


def test_account_says_what_was_left_out(published: tuple[Path, object]) -> None:
    _out, done = published
    lines = done.account.lines()  # type: ignore[attr-defined]
    assert lines[0] == "term: 3 published, 2 left out (status 2); 1 non-finite form(s) left out"
    assert "forbidden: 1 published, 1 left out (not in this format 1)" in lines
    assert "pattern: 0 published, 1 left out (not in this format 1)" in lines


def test_schema_accepts_what_we_write_and_refuses_a_broken_file(published: tuple[Path, object]) -> None:
    out, _done = published
    document = etree.parse(str(out))
    assert validation_errors(document) == []
    tig = document.find(".//tig[termNote]")
    assert tig is not None
    tig.find("termNote").text = "bestTerm-admn-sts"  # type: ignore[union-attr]
    assert validation_errors(document)
    broken = etree.parse(str(out))
    entry = broken.find(".//termEntry")
    assert entry is not None
    entry.remove(entry.findall("langSet")[1])  # a term entry with no target language
    assert validation_errors(broken)


def test_all_statuses_and_an_empty_publication(tmp_path: Path) -> None:
    folder = sample_set(tmp_path / "v1")
    every = publish(folder, "tbx", tmp_path / "all.tbx", STATUSES)
    assert every.files[0].items == 6
    none = publish(folder, "tbx", tmp_path / "none.tbx", ("indicative",))
    assert none.files[0].items == 0 and none.account.published == 0
    assert validation_errors(etree.parse(str(tmp_path / "none.tbx"))) == []
    assert tbxfile.parsestring((tmp_path / "none.tbx").read_bytes()).units == []
