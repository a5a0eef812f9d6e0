"""The decision loop on the demo client's TM (TICO-19 en→fr: its first 1,500 units, ~3,500 rules), as a
linguist and an analyst run it: export the packet, fill 30 decisions (10 accept, 10 reject, 10 edit),
import them, re-build the set; then re-mine after removing and adding a few TM units: the decisions that
still apply are kept, the rest reported as unmatched.

Mining costs seconds per hundred units, so the module mines once (module-scoped fixture) and re-builds
the set from that result with the same ``build_set`` ``mine`` calls; only the changed TM is mined again,
through ``housestyle mine --decisions``. Half the demo TM, because the whole of it mined twice took two
minutes of the suite (the whole TM goes through this loop in tests/assets/commands/test_run.py's job).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.cli.main import main
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.build_set import build_set, pair_key, read_sources
from housestyle.pipelines.conventionset.decisions import identity_of
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import corpus_from_units, read_units_for_mining
from housestyle.pipelines.mining.merge import MiningResult
from housestyle.pipelines.mining.mine import mine_corpus
from tests.conftest import REPO_ROOT

DEMO_TM = REPO_ROOT / "inbox" / "demo" / "tm" / "all.en-fr.tmx"
UNITS = 1500  # the demo TM's first units, in file order
SCORED = ("candidate", "validated")  # what score and scoring_run score by default (SPEC §3)

pytestmark = pytest.mark.skipif(not DEMO_TM.is_file(), reason="the demo TM (inbox/demo/tm/all.en-fr.tmx) is not in this checkout")


@dataclass
class Demo:
    root: Path
    units: Path
    result: MiningResult
    set_dir: Path


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    root = tmp_path_factory.mktemp("review_demo")
    ingest_files([DEMO_TM], client="demo", out_dir=root / "all")
    units = root / "units" / "tm_units.parquet"
    units.parent.mkdir()
    pl.read_parquet(root / "all" / "tm_units.parquet").sort("unit_ordinal").head(UNITS).write_parquet(units)
    result = mine_corpus(corpus_from_units(read_units_for_mining(units), "en", "fr"))
    written, _ = build_set({pair_key("en", "fr"): result}, read_sources(), client="demo", rules_out=root / "rules_out",
                           inputs={"tm_units.parquet": "demo"}, split=None)
    return Demo(root, units, result, written.path)


def _fill(packet: Path) -> dict[str, tuple[str, list[str], list[str]]]:
    """30 decisions on term rules as a linguist makes them: accept the 10 most used, reject 10 rules seen
    once, and edit 10 more (keep one rendering, ban the English term left untranslated). The CSV
    packet (the XLSX one reads back the same: tests/pipelines/review; 6,000 rows of openpyxl cost
    seconds here)."""
    with packet.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    terms = [r for r in rows if r["rule"] == "term" and r["origin"] == "mined" and r["expected_forms"]]
    accept = terms[:10]
    reject = [r for r in terms if r["support"] == "1"][-10:]
    edit = [r for r in terms[10:] if not r["expected_forms"].startswith("re:")
            and r["src"].casefold() not in {f.strip().casefold() for f in r["expected_forms"].split("|")}][:10]
    chosen: dict[str, tuple[str, list[str], list[str]]] = {}
    for word, picked in (("accept", accept), ("reject", reject), ("edit", edit)):
        for r in picked:
            r.update(decision=word, reviewer="Camille", reviewer_role="linguist")
            forms: tuple[list[str], list[str]] = ([], [])
            if word == "edit":
                forms = ([r["expected_forms"].split(" | ")[0]], [r["src"]])
                r.update(expected_terms=forms[0][0], wrong_variants=forms[1][0],
                         comment="one rendering; never the English term")
            chosen[r["convention_id"]] = (word, *forms)
    with packet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return chosen


def test_export_decide_import_rebuild_and_remine(demo: Demo, capsys: pytest.CaptureFixture[str]) -> None:
    inbox = demo.root / "inbox"
    packet = demo.root / "packet.csv"
    mined = {c.convention_id: c for c in load_conventions(demo.set_dir)}
    assert main(["review-export", "--conventions", str(demo.set_dir), "--out", str(packet),
                 "--tm-units", str(demo.units), "--status", "all"]) == 0  # suggested rules too (listed only when named)
    assert f"{len(mined)} of {len(mined)} rules of set {demo.set_dir.name}" in capsys.readouterr().out
    chosen = _fill(packet)
    assert [w for w, *_ in chosen.values()].count("edit") == 10 and len(chosen) == 30

    assert main(["review-import", str(packet), "--conventions", str(demo.set_dir), "--inbox", str(inbox)]) == 0
    assert "recorded 30 decisions" in capsys.readouterr().out
    decisions = inbox / "demo" / "decisions.parquet"

    rebuilt, _ = build_set({pair_key("en", "fr"): demo.result}, read_sources(decisions=decisions), client="demo",
                           rules_out=demo.root / "rules_out", inputs={"tm_units.parquet": "demo"}, split=None)
    after = {c.convention_id: c for c in load_conventions(rebuilt.path)}
    scored = {cid for cid, c in after.items() if c.status in SCORED}
    authored = {c.note.split()[2]: c for c in after.values() if c.origin == "authored" and c.note and c.note.startswith("edit of")}
    for cid, (word, expected, wrong) in chosen.items():
        if word == "accept":
            assert after[cid].status == "validated" and cid in scored
        elif word == "reject":
            assert after[cid].status == "rejected" and cid not in scored
        else:
            assert cid not in after
            edit = authored[cid]
            assert (edit.expected_terms, edit.wrong_variants, edit.status) == (expected, wrong, "validated")
            assert (edit.dimension, edit.src, edit.rule) == (mined[cid].dimension, mined[cid].src, "term")
    untouched = set(mined) - set(chosen)
    assert all(after[cid].status == mined[cid].status for cid in untouched)  # candidate or suggested, as mined
    manifest = json.loads((rebuilt.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["decisions"]["applied"] == 30 and manifest["decisions"]["unmatched"] == 0
    assert manifest["by_status"]["rejected"] == 10 and manifest["by_status"]["validated"] == 20

    # Scored as `score` scores it (candidate + validated): no rejected rule, every edit with its new forms.
    run = demo.root / "score"
    assert main(["score", "--conventions", str(rebuilt.path), "--source", str(DEMO_TM), "--system",
                 f"fairseq={REPO_ROOT / 'inbox' / 'demo' / 'systems' / 'fairseq.jsonl'}", "--out", str(run)]) == 0
    capsys.readouterr()
    scored_ids = set(pl.read_parquet(next(run.rglob("scores.parquet")))["convention_id"])
    assert scored_ids and not scored_ids & {cid for cid, (w, *_r) in chosen.items() if w == "reject"}
    assert {c.convention_id for c in authored.values()} <= scored_ids
    failed = pl.read_parquet(next(run.rglob("failures.parquet")))
    for edit in authored.values():  # a failure of an edit names the edited form, never the mined one's
        missing = failed.filter(pl.col("convention_id") == edit.convention_id)["missing_expected"].explode().drop_nulls()
        assert set(missing) <= set(edit.expected_terms)

    # Published where translators work: the validated term rules as TBX, read back by translate-toolkit.
    from translate.storage.tbx import tbxfile

    tbx = demo.root / "validated.tbx"
    assert main(["publish", "--conventions", str(rebuilt.path), "--format", "tbx", "--out", str(tbx)]) == 0
    capsys.readouterr()
    store = tbxfile.parsestring(tbx.read_bytes(), sourcelanguage="en", targetlanguage="fr")
    validated = [c for c in after.values() if c.status == "validated" and c.rule == "term"]
    assert len(store.units) == len(validated) == 20
    assert {u.source for u in store.units} == {c.src for c in validated}

    # The TM changes: the units of three rejected rules go, three units are added (copies under new ids).
    evidence = pl.read_parquet(demo.set_dir / "evidence.parquet")
    gone_rules = [cid for cid, (word, *_r) in chosen.items() if word == "reject"][:3]
    gone_units = set(evidence.filter(pl.col("convention_id").is_in(gone_rules))["unit_id"])
    units = pl.read_parquet(demo.units)
    added = units.head(3).with_columns(pl.col("unit_id") + "-copy")
    changed = demo.root / "changed" / "tm_units.parquet"
    changed.parent.mkdir()
    pl.concat([units.filter(~pl.col("unit_id").is_in(sorted(gone_units))), added]).write_parquet(changed)
    assert main(["mine", str(changed), "--src", "en", "--tgt", "fr", "--client", "demo", "--out", str(demo.root / "remined"),
                 "--decisions", str(decisions)]) == 0
    out = capsys.readouterr().out
    version = (demo.root / "remined" / "demo" / "LATEST").read_text(encoding="utf-8").strip()
    remined = demo.root / "remined" / "demo" / version
    block = json.loads((remined / "manifest.json").read_text(encoding="utf-8"))["decisions"]
    print(f"\nre-mined without {len(gone_units)} units, with 3 added: {block['applied']} decisions applied, "
          f"{block['unmatched']} unmatched; statuses {block['by_status']}")
    assert f"decisions: {block['applied']} applied" in out
    assert block["applied"] + block["unmatched"] == 30 and block["unmatched"] >= 1
    now: dict[str, list[Convention]] = {}
    for conv in load_conventions(remined):
        now.setdefault(identity_of(conv), []).append(conv)
    unmatched = {d["identity"] for d in block["unmatched_decisions"]}
    for cid, (word, expected, _wrong) in chosen.items():
        identity = identity_of(mined[cid])
        if identity in unmatched:
            assert identity not in now  # reported, because no rule of the new set has that identity
            continue
        statuses = {c.status for c in now[identity]}
        assert statuses == {"rejected" if word == "reject" else "validated"}
        if word == "edit":
            assert [c.expected_terms for c in now[identity]] == [expected] and now[identity][0].origin == "authored"
    assert {identity_of(mined[cid]) for cid in gone_rules} <= unmatched  # their only units are gone
