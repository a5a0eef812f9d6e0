"""Term recall of a mined set against the TICO-19 gold lists on ALL 3,071 units (gold README rules).

Evaluation code (it reads gold through the registration code; the miner never does). Prints the
aggregate figures only: overall recall and recall on pairs attested in >= 3 units, per list, and,
for the missed >= 3-unit pairs, how often the TM itself writes the gold rendering: attesting units /
units whose source holds the term, on all units and on the units the miner kept (the set's
``suspect_units.parquet`` left out), and how many of the attesting units are in the dev split (no
term is printed, so held-out misses stay unread). A miner that mandates the TM's majority rendering
cannot recover a pair the TM renders otherwise in most of the term's kept units: the printed
ceiling leaves those out.
Usage: ``python -m tests.eval.mining_term_recall SET_DIR [tm_units.parquet]`` (without a
tm_units file, the demo TMX is ingested into a temporary folder).
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.registration.fold import contains_bounded, fold
from housestyle.pipelines.registration.freeze import load_registration
from housestyle.pipelines.registration.gold import load_term_pairs
from housestyle.pipelines.registration.terms import attest_pairs, recovered_pairs, term_recall
from tests.conftest import REPO_ROOT, find_shared_data


def main(set_dir: Path, units_path: Path | None = None) -> None:
    conventions = load_conventions(set_dir, regex_guard=False)
    if units_path is None:
        data = find_shared_data()
        if data is None:
            raise SystemExit("no shared data")
        tmp = Path(tempfile.mkdtemp(prefix="recall-"))
        ingest_files([data / "tico19" / "TM" / "all.en-fr.tmx"], client="demo", out_dir=tmp)
        units_path = tmp / "tm_units.parquet"
    units = pl.read_parquet(units_path)
    suspects_path = set_dir / "suspect_units.parquet"
    flagged = set(pl.read_parquet(suspects_path)["unit_id"]) if suspects_path.exists() else set()
    dev_ids = set(json.loads((REPO_ROOT / "inbox" / "demo" / "splits.json").read_text())["dev"]["unit_id"])
    unit_ids = list(units["unit_id"])
    rows = list(zip(units["unit_id"], units["source"], units["target"]))
    folded_sources = [fold(s) for s in units["source"]]
    reg_dir = REPO_ROOT / "registrations" / "demo" / "v1"
    reg = load_registration(reg_dir)
    terms = [c for c in conventions if c.rule == "term"]
    for name in ("facebook", "google"):
        gold = reg.gold_by_name(name)
        pairs = load_term_pairs(reg_dir / gold.path, gold.kind, gold.src_lang, gold.tgt_lang)
        attested = attest_pairs(pairs, rows)
        recovered = recovered_pairs(conventions, pairs, gold.src_lang, gold.tgt_lang)
        overall = term_recall(pairs, attested, recovered)
        frequent = [k for k in attested if len(attested[k]) >= 3]
        hit = sum(k in recovered for k in frequent)
        print(f"{name}: overall {overall.value:.3f} ({overall.recovered}/{overall.attested}); "
              f">=3 units {hit / len(frequent):.3f} ({hit}/{len(frequent)})")
        shares = sorted((tm_agreement(key[0], attested[key], folded_sources, unit_ids, flagged, dev_ids)
                        for key in frequent if key not in recovered), key=lambda s: s.kept_share)
        minority = sum(s.kept_share < 0.5 for s in shares)
        print(f"  missed >=3-unit pairs, units writing the gold rendering / units holding the term "
              f"(all units; kept units; attesting units in dev): {'; '.join(map(str, shares))}")
        print(f"  {minority} below half of the kept units: ceiling for a majority miner "
              f"{(len(frequent) - minority) / len(frequent):.3f} ({len(frequent) - minority}/{len(frequent)})")
    print(f"term rules: {len(terms)}")


@dataclass(frozen=True)
class Agreement:
    """How often the TM writes a gold pair's rendering where its source holds the term."""
    attesting: int
    holding: int
    kept_attesting: int
    kept_holding: int
    dev_attesting: int

    @property
    def kept_share(self) -> float:
        return self.kept_attesting / max(1, self.kept_holding)

    def __str__(self) -> str:
        return f"{self.attesting}/{self.holding}, {self.kept_attesting}/{self.kept_holding}, dev {self.dev_attesting}"


def tm_agreement(source_term: str, attesting_ids: list[str], folded_sources: list[str], unit_ids: list[str],
                 flagged: set[str], dev_ids: set[str]) -> Agreement:
    """Units attesting the pair and units whose folded source holds the term word-bounded, on all
    units and on the units the miner kept."""
    holding = [u for u, s in zip(unit_ids, folded_sources) if contains_bounded(s, source_term)]
    return Agreement(len(attesting_ids), len(holding), sum(u not in flagged for u in attesting_ids),
                     sum(u not in flagged for u in holding), sum(u in dev_ids for u in attesting_ids))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
