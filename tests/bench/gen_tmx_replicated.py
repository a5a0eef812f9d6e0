"""A large TMX of REAL text: the units of a real TMX cycled, each copy under a new tuid.

Why beside ``gen_tmx``: pseudo-words have no terms and no misaligned units, so the miner's second
term pass (run only when units are flagged as misaligned, ``suspect_units``) never happens on the
synthetic TM. Cycling TICO-19 en→fr (whose PubMed_8 holds a misaligned run) gives a 1M-unit TM on
which it does, so the worst-case runtime can be measured. Exact repeats count once in mining, so
copy k >= 1 of a unit ends its source and target with the marker `` [k]`` (a reference number,
copied as a real TM copies one): 1M distinct units of real text. Not test data: generated into
tests/bench/_data/. Usage: ``python -m tests.bench.gen_tmx_replicated REAL.tmx OUT.tmx N``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.bench.gen_tmx import write_tmx

_TU = re.compile(r"<tu\b.*?</tu>", re.DOTALL)
_TUID = re.compile(r'tuid="([^"]*)"')
_SEG_END = re.compile(r"</seg>")


def write_replicated_tmx(real: Path, path: Path, n_units: int) -> Path:
    """Write ``n_units`` units cycling ``real``'s; copy k of unit ``X`` gets tuid ``X#k``."""
    text = real.read_text(encoding="utf-8")
    body_start = text.index("<body>") + len("<body>")
    units = _TU.findall(text)
    if not units:
        raise ValueError(f"{real}: no <tu> element")
    tus = (_marked(units[i % len(units)], i // len(units)) for i in range(n_units))
    return write_tmx(path, text[:body_start] + "\n", tus)


def _marked(tu: str, copy: int) -> str:
    """Copy ``copy`` of a ``<tu>``: its own tuid and, from the second copy, the `` [k]`` marker."""
    tu = _TUID.sub(lambda m: f'tuid="{m.group(1)}#{copy}"', tu, count=1)
    return (_SEG_END.sub(f" [{copy}]</seg>", tu) if copy else tu) + "\n"

if __name__ == "__main__":
    write_replicated_tmx(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
