"""Currency rules mined from each real TM: per family, the units showing each variant and the rules.

Measurement only (the held-out TMs are measured, never tuned on). Usage:
``python -m tests.eval.mining_currency`` (ingests the TMs from ../shared/data into a temporary folder).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import polars as pl

from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.mining.mine import proposer_group
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.patterns.base import count_variants
from housestyle.pipelines.mining.patterns.currency import FAMILIES
from tests.conftest import REPO_ROOT, find_shared_data


def _units(files: list[Path], out: Path) -> pl.DataFrame:
    ingest_files(files, client="eval", out_dir=out)
    return pl.read_parquet(out / "tm_units.parquet")


def main() -> None:
    data = find_shared_data()
    if data is None:
        raise SystemExit("no shared data")
    tmp = Path(tempfile.mkdtemp(prefix="currency-"))
    tico = _units([data / "tico19" / "TM" / "all.en-fr.tmx"], tmp / "fr")
    dev = json.loads((REPO_ROOT / "inbox" / "demo" / "splits.json").read_text())["dev"]["unit_id"]
    vpn = sorted((REPO_ROOT / "inbox" / "mozilla-fr" / "tm" / "vpn").rglob("*.xliff"))
    po = sorted((REPO_ROOT / "inbox" / "mozilla-fr" / "tm" / "foundation").rglob("*.po"))
    tms: list[tuple[str, pl.DataFrame, str]] = [
        ("TICO en-fr dev split", tico.filter(pl.col("unit_id").is_in(dev)), "fr"),
        ("TICO en-fr all units", tico, "fr"),
        ("Mozilla VPN XLIFF (dev)", _units(vpn, tmp / "vpn"), "fr"),
        ("Mozilla PO (held-out)", _units(po, tmp / "po"), "fr"),
    ]
    for lang in ("ru", "zh", "es-LA", "pt-BR"):
        tm = data / "tico19" / "TM" / f"all.en-{lang}.tmx.zip"
        tms.append((f"TICO en-{lang} (held-out)", _units([tm], tmp / lang), lang))
    for name, units, tgt in tms:
        shown = {f.dimension: dict(sorted(count_variants(f, units["target"].to_list())[1].items())) for f in FAMILIES}
        mined, _ = proposer_group(corpus_from_units(units, "en", tgt), ("currency",), MiningParams())
        rules = [(m.conv.dimension, m.conv.extra["variant"], m.conv.support, m.conv.consistency) for m in mined]
        print(f"{name} ({units.height} units): units per variant {shown}; rules {rules}")


if __name__ == "__main__":
    main()
