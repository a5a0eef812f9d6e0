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


def attested_pairs(pairs: Sequence[tuple[str, str]], sources: Sequence[str], targets: Sequence[str]) -> list[tuple[str, str]]:
    """The gold ``pairs`` attested on the units: source term in >= 3 units, rendering in >= 80% of them."""
    src = [fold_text(s, 'typographic') for s in sources]; tgt = [fold_text(t, 'typographic') for t in targets]
    out = []
    for a, b in pairs:
        fa, fb = fold_text(a, 'typographic'), fold_text(b, 'typographic')
        rows = [i for i, s in enumerate(src) if find_plain(s, fa, first_only=True)]
        if len(rows) < 3: continue
        if sum(1 for i in rows if find_plain(tgt[i], fb, first_only=True)) < 0.8 * len(rows): continue
        out.append((a, b))
    return out


def recalls(pair: tuple[str, str], src: str, expected: str, regex: bool) -> bool:
    """Does a term rule (its src, first expected entry, regex flag) recall the gold ``pair``?
    A plain entry is folded like the text (SPEC §2: a name the rule writes 'Hubei' matches 'hubei')."""
    fa, fb = fold_text(pair[0], 'typographic'), fold_text(pair[1], 'typographic')
    if fold_text(src, 'typographic') != fa:
        return False
    return bool(re.search(expected, fb) if regex else find_plain(fb, fold_text(expected, 'typographic'), first_only=True))


def attested_recall(pairs: Sequence[tuple[str, str]], sources: Sequence[str], targets: Sequence[str],
                    terms: pl.DataFrame) -> tuple[int, int, list[str]]:
    """(attested, recalled, missed 'src->tgt') of gold ``pairs`` on the units (``sources``/``targets``, the
    TM the rules were mined from) against ``terms`` (term rules: columns src, expected_terms, regex)."""
    rules = [(r['src'], r['expected_terms'][0], r['regex']) for r in terms.iter_rows(named=True)]
    att = attested_pairs(pairs, sources, targets)
    missed = [f'{a}->{b}' for a, b in att if not any(recalls((a, b), *rule) for rule in rules)]
    return len(att), len(att) - len(missed), missed


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
