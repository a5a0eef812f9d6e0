"""Attested gold recall of a term_heldout run (issue 25 definition; not a test). Gold = the Mozilla TBX,
or GOLD=<csv with sourceString,targetString>: gold pairs whose source term is in >=3 units of half A and whose rendering is in
>=80% of them; recalled when the set has a term rule for that source whose expected entry matches the rendering.
``attested_recall`` is the measure itself (tests/bench/bench_heldout.py reuses it)."""
from __future__ import annotations

import csv
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import polars as pl
from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.conventions.matching import find_plain

MOZILLA_TBX = Path('/work/shared/data/mozilla-fr/terminology_management/terminology/fr.tbx')


def tbx_pairs(path: Path = MOZILLA_TBX) -> list[tuple[str, str]]:
    """(en term, fr term) pairs of every entry of a TBX (each en form × each fr form)."""
    X = '{http://www.w3.org/XML/1998/namespace}lang'
    pairs = []
    for e in ET.parse(path).getroot().iter('termEntry'):
        en = [t.text for ls in e.iter('langSet') if ls.get(X, '').startswith('en') for t in ls.iter('term') if t.text]
        fr = [t.text for ls in e.iter('langSet') if ls.get(X, '') == 'fr' for t in ls.iter('term') if t.text]
        pairs += [(a, b) for a in en for b in fr]
    return pairs


def csv_pairs(path: Path) -> list[tuple[str, str]]:
    """(sourceString, targetString) pairs of a TICO-19 terminology CSV."""
    with open(path, encoding='utf-8') as handle:
        return [(r['sourceString'], r['targetString']) for r in csv.DictReader(handle)]


def attested_recall(pairs: Sequence[tuple[str, str]], sources: Sequence[str], targets: Sequence[str],
                    terms: pl.DataFrame) -> tuple[int, int, list[str]]:
    """(attested, recalled, missed 'src->tgt') of gold ``pairs`` on the units (``sources``/``targets``, the
    TM the rules were mined from) against ``terms`` (term rules: columns src, expected_terms, regex)."""
    src = [fold_text(s, 'typographic') for s in sources]; tgt = [fold_text(t, 'typographic') for t in targets]
    rules: dict[str, list[tuple[str, bool]]] = {}
    for r in terms.iter_rows(named=True):
        rules.setdefault(fold_text(r['src'], 'typographic'), []).append((r['expected_terms'][0], r['regex']))
    att = rec = 0; missed = []
    for a, b in pairs:
        fa, fb = fold_text(a, 'typographic'), fold_text(b, 'typographic')
        rows = [i for i, s in enumerate(src) if find_plain(s, fa, first_only=True)]
        if len(rows) < 3: continue
        if sum(1 for i in rows if find_plain(tgt[i], fb, first_only=True)) < 0.8 * len(rows): continue
        att += 1
        # a plain entry is folded like the text (SPEC §2: a name the rule writes 'Hubei' matches 'hubei')
        ok = any((re.search(e, fb) if rx else find_plain(fb, fold_text(e, 'typographic'), first_only=True))
                 for e, rx in rules.get(fa, []))
        rec += bool(ok)
        if not ok: missed.append(f'{a}->{b}')
    return att, rec, missed


def main() -> None:
    pairs = csv_pairs(Path(os.environ["GOLD"])) if os.environ.get("GOLD") else tbx_pairs()
    for d in sys.argv[1:]:
        u = pl.read_parquet(f'{d}/tm/tm_units.parquet').unique('unit_id')
        A = set(json.load(open(f'{d}/splits.json'))['A']['unit_id'])
        u = u.filter(pl.col('unit_id').is_in(list(A)) & pl.col('target').is_not_null())
        c = pl.read_parquet(glob.glob(f'{d}/rules/*/[0-9a-f]*/conventions.parquet')[0]).filter(pl.col('rule') == 'term')
        att, rec, missed = attested_recall(pairs, u['source'].to_list(), u['target'].to_list(), c)
        print(d, 'attested', att, 'recalled', rec, 'missed', missed)


if __name__ == "__main__":
    main()
