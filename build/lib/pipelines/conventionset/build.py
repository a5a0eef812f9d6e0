"""From tm_units to a published set: select the language pair (and split), mine, write.

The one function both ``housestyle mine`` and the ``convention_set`` asset call, so the command
line and the graph cannot drift apart. It never takes a gold or registration path: the miner
never sees gold.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from pipelines.conventionset.version import sha256_file
from pipelines.conventionset.writer import WrittenSet, write_set
from pipelines.mining.merge import MiningResult
from pipelines.mining.mine import mine_units
from pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from pipelines.splits import select_split


def mine_to_set(units: pl.DataFrame, *, src_lang: str, tgt_lang: str, client: str, rules_out: Path,
                inputs: Mapping[str, str], split: str | None = None, splits_file: Path | None = None,
                params: MiningParams = DEFAULT_PARAMS) -> tuple[WrittenSet, MiningResult]:
    """Mine all units, or the units of ``split`` (from ``splits_file``), and write the set."""
    all_inputs = dict(inputs)
    if split is not None:
        if splits_file is None:
            raise ValueError("a split needs its splits file")
        units = select_split(units, splits_file, split)
        all_inputs["splits.json"] = sha256_file(splits_file)
    result = mine_units(units, src_lang, tgt_lang, params)
    written = write_set(result, client=client, rules_out=rules_out, inputs=all_inputs, params=params.to_dict(),
                        split=split, src_lang=src_lang, tgt_lang=tgt_lang)
    return written, result
