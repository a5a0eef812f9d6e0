"""Misaligned units the term pass flags on TICO-19 en→fr (issue 25): per registration split, by
document, and on the dev split with every 10th target swapped for the one 5 units on (known
misalignments). Units are in the TMX's order (``Corpus.tm_order``), so runs count as mining counts
them. Run: ``python -m tests.eval.suspects_tico``."""

from __future__ import annotations

import json
from collections import Counter

from translate.storage import tmx

from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.mine import term_group
from housestyle.pipelines.mining.params import MiningParams
from tests.conftest import REPO_ROOT, find_shared_data


def main() -> None:
    data = find_shared_data()
    if data is None:
        raise SystemExit("../shared/data not found")
    with (data / "tico19" / "TM" / "all.en-fr.tmx").open("rb") as handle:
        units = [(u.getid(), u.source, u.target) for u in tmx.tmxfile(handle).units]
    position = {u[0]: k for k, u in enumerate(units)}
    splits = json.loads((REPO_ROOT / "inbox" / "demo" / "splits.json").read_text(encoding="utf-8"))
    for name in ("dev", "test"):
        wanted = set(splits[name]["unit_id"])
        part = [u for u in units if u[0] in wanted]
        order = ([0] * len(part), [position[u[0]] for u in part])  # one file, the TMX's own order
        corpus = Corpus([u[0] for u in part], [u[1] for u in part], [u[2] for u in part], "en", "fr", tm_order=order)
        _, _, stats, _ = term_group(corpus, MiningParams())
        by_doc = Counter(row["unit_id"].split(":")[0] for row in stats["suspect_units"])
        run = sum(1 for row in stats["suspect_units"] if row["p_value"] >= MiningParams().suspects.alpha)
        print(f"{name}: {len(stats['suspect_units'])} of {len(corpus)} units flagged ({run} by their run); "
              f"by document {dict(by_doc)}")
        if name == "dev":
            targets, swapped = list(corpus.targets), set()
            for i in range(0, len(corpus), 10):
                targets[i] = corpus.targets[(i + 5) % len(corpus)]
                swapped.add(corpus.unit_ids[i])
            swapped_corpus = Corpus(corpus.unit_ids, corpus.sources, targets, "en", "fr", tm_order=order)
            _, _, stats, _ = term_group(swapped_corpus, MiningParams())
            found = {row["unit_id"] for row in stats["suspect_units"]}
            print(f"dev, every 10th target swapped: {len(found & swapped)} of {len(swapped)} swaps found, "
                  f"{len(found - swapped)} other units flagged")


if __name__ == "__main__":
    main()
