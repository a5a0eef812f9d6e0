"""Inline codes -> placeholder tokens: N codes of a kind in the markup = N tokens of that kind in the text.

One test per inline-code kind (TMX: bpt/ept/ph/it/ut/hi/sub; XLIFF 1.2: g/x/bx/ex/ph/bpt/ept/it/mrk;
XLIFF 2.0: pc/ph/sc/ec/mrk/sm/em/cp), on our fixtures and on every real format sample that has the kind.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from housestyle.pipelines.readers.base import INLINE_TOKEN_RE, TranslationUnit
from housestyle.pipelines.readers.inline import TMX_SPEC, XLIFF2_SPEC, XLIFF12_SPEC, InlineSpec, count_tokens

from .conftest import FIXTURES, read_all

SPECS = {"tmx": TMX_SPEC, "xliff12": XLIFF12_SPEC, "xliff2": XLIFF2_SPEC}
KINDS = {
    "tmx": ["bpt", "ept", "ph", "it", "ut", "hi", "sub"],
    "xliff12": ["g", "x", "bx", "ex", "ph", "bpt", "ept", "it", "sub", "mrk"],
    "xliff2": ["pc", "ph", "sc", "ec", "mrk", "sm", "em", "cp"],
}
FIXTURE_OF = {"tmx": "inline_codes.tmx", "xliff12": "inline_codes.xlf", "xliff2": "inline_codes_v2.xlf"}


def element_count(markup: str, kind: str) -> int:
    # inline markup is the content as written: prefixes declared on the segment's ancestors (its:) stay
    # unbound, so bind them to dummy namespaces to count elements
    prefixes = set(re.findall(r"[<\s]([A-Za-z_][\w.-]*):[A-Za-z_]", markup)) - {"xml"}
    declarations = "".join(f' xmlns:{p}="urn:{p}"' for p in sorted(prefixes))
    root = etree.fromstring(f"<r{declarations}>{markup}</r>")
    return sum(1 for el in root.iter() if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] == kind)


def token_count(text: str, kind: str, spec: InlineSpec) -> int:
    """Tokens that stand for elements of ``kind`` (an end code is the close token of its begin kind)."""
    tokens = INLINE_TOKEN_RE.findall(text)
    role = spec.roles[kind]
    if role == "end":
        begin = spec.end_pair[kind][0]
        return sum(1 for t in tokens if re.fullmatch(rf"⟨/{begin}\d+⟩", t) or re.fullmatch(rf"⟨{kind}\d+/⟩", t))
    if role == "begin":
        return sum(1 for t in tokens if re.fullmatch(rf"⟨{kind}\d+⟩", t))
    if role == "paired":
        opens = sum(1 for t in tokens if re.fullmatch(rf"⟨{kind}\d+⟩", t))
        closes = sum(1 for t in tokens if re.fullmatch(rf"⟨/{kind}\d+⟩", t))
        assert opens == closes, text
        return opens
    return sum(1 for t in tokens if re.fullmatch(rf"⟨{kind}\d+/⟩", t))


def sides(unit: TranslationUnit) -> list[tuple[str, str]]:
    out = [(unit.source, unit.source_markup)]
    if unit.target is not None and unit.target_markup is not None:
        out.append((unit.target, unit.target_markup))
    return out


def assert_counts_preserved(units: list[TranslationUnit], fmt: str, kind: str) -> int:
    seen = 0
    for unit in units:
        for text, markup in sides(unit):
            n = element_count(markup, kind)
            assert token_count(text, kind, SPECS[fmt]) == n, (unit.unit_id, kind, text, markup)
            seen += n
    return seen


CASES = [(fmt, kind) for fmt, kinds in KINDS.items() for kind in kinds]


@pytest.mark.parametrize(("fmt", "kind"), CASES, ids=[f"{f}-{k}" for f, k in CASES])
def test_fixture_kind_count_preserved(fmt: str, kind: str) -> None:
    units, _rejects, errors = read_all(FIXTURES / FIXTURE_OF[fmt])
    assert not errors
    assert assert_counts_preserved(units, fmt, kind) > 0, f"fixture has no <{kind}>"


REAL_SAMPLES = {
    "tmx": ["tmx/src/test/resources/ImportTest2A.tmx", "tmx/src/test/resources/header_with_prop_and_note.tmx",
            "tmx/src/test/resources/html_test.tmx", "tmx/src/test/resources/Paragraph_TM.tmx"],
    "xliff12": ["xliff/src/test/resources/TS09-12-Test01.xlf", "xliff/src/test/resources/Test_Context_and_PH.xlf",
                "xliff/src/test/resources/segmented.xlf", "xliff/src/test/resources/Balancing/3LevelGTags.xlf",
                "xliff/src/test/resources/PAS-10-Test01.xlf", "xliff/src/test/resources/lqiTest.xlf"],
    "xliff2": ["xliff2/src/test/resources/test01.xlf",
               "xliff2/src/test/resources/roundtrips/comprehensive_data_input.xlf",
               "xliff2/src/test/resources/roundtrips/multiple_placeholders_same_data_input.xlf"],
}


@pytest.mark.parametrize(("fmt", "kind"), CASES, ids=[f"{f}-{k}" for f, k in CASES])
def test_real_samples_kind_count_preserved(shared_data: Path, fmt: str, kind: str) -> None:
    root = shared_data / "format-samples" / "okapi" / "okapi" / "filters"
    for rel in REAL_SAMPLES[fmt]:
        units, _rejects, errors = read_all(root / rel)
        assert not errors, errors
        assert_counts_preserved(units, fmt, kind)


def test_real_sample_totals_match_provenance(shared_data: Path) -> None:
    """ImportTest2A.tmx: PROVENANCE counts bpt 18 / ept 18 / ph 2 / it 4 / hi 2 over the file."""
    path = shared_data / "format-samples/okapi/okapi/filters/tmx/src/test/resources/ImportTest2A.tmx"
    units, _r, _e = read_all(path)
    totals: Counter[str] = Counter()
    for unit in units:
        for text, _markup in sides(unit):
            for kind in ("bpt", "ept", "ph", "it", "hi"):
                totals[kind] += token_count(text, kind, TMX_SPEC)
    assert dict(totals) == {"bpt": 18, "ept": 18, "ph": 2, "it": 4, "hi": 2}


def test_target_reuses_source_numbers(fixtures: Path) -> None:
    units = {u.unit_id: u for u in read_all(fixtures / "inline_codes.tmx")[0]}
    swapped = units["bpt-ept"]
    assert swapped.source == "The ⟨bpt1⟩big⟨/bpt1⟩ ⟨bpt2⟩cat⟨/bpt2⟩"
    assert swapped.target == "Le ⟨bpt2⟩chat⟨/bpt2⟩ ⟨bpt1⟩gros⟨/bpt1⟩"
    assert count_tokens(swapped.source) == count_tokens(swapped.target)
    assert units["sub"].source == "Click ⟨ph1/⟩⟨sub2⟩Start here⟨/sub2⟩ to start."
    # a code only the target has gets a number of its own, never a source code's number
    assert units["target-extra-code"].target == "Cible ⟨ph1/⟩ avec code"
    assert units["target-extra-code"].source == "Plain source"


def test_markup_is_kept(fixtures: Path) -> None:
    units = {u.unit_id: u for u in read_all(fixtures / "inline_codes.xlf")[0]}
    g = units["g"]
    assert g.source_markup == 'Click <g id="1">the <g id="2">big</g> button</g> now'
    assert "xmlns" not in g.source_markup
    assert units["ph"].target_markup == 'Bonjour <ph id="1">%s</ph>, vous avez <ph id="2">%d</ph> messages'
    assert units["bpt-ept"].source_markup == 'A <bpt id="1">&lt;b&gt;</bpt>bold<ept id="1">&lt;/b&gt;</ept> word'


def test_unknown_element_and_fake_token_are_rejected(fixtures: Path) -> None:
    _units, rejects, _errors = read_all(fixtures / "multilingual.tmx")
    reasons = {r.location: (r.reason, r.raw) for r in rejects}
    assert reasons["36"][0] == "unparseable inline markup" and "<b>" in reasons["36"][1]
    assert reasons["40"][0] == "unparseable inline markup" and "placeholder token" in reasons["40"][1]
