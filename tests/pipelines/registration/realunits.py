"""Real TM units for the evaluation tests, read straight from the shared data with lxml / translate-toolkit.

Independent of our readers on purpose: the gold comparison must not move when a reader changes.
Domain = first folder under the client's tm/ (as the ingest assigns it).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
from lxml import etree
from translate.storage import factory

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def tico19_units(shared_data: Path) -> pl.DataFrame:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    tree = etree.parse(str(shared_data / "tico19" / "TM" / "all.en-fr.tmx"), parser)
    rows = []
    for tu in tree.iter("tu"):
        segs = {}
        for tuv in tu.iter("tuv"):
            seg = tuv.find("seg")
            segs[tuv.get(XML_LANG)] = "".join(seg.itertext()) if seg is not None else ""
        rows.append({"unit_id": str(tu.get("tuid")), "domain": None, "source": segs["en"], "target": segs["fr"]})
    return pl.DataFrame(rows, schema={"unit_id": pl.Utf8, "domain": pl.Utf8, "source": pl.Utf8, "target": pl.Utf8})


def mozilla_units(tm_dir: Path) -> pl.DataFrame:
    rows = []
    for path in sorted(p for p in tm_dir.rglob("*") if p.suffix in (".xliff", ".po")):
        domain = path.relative_to(tm_dir).parts[0]
        store = factory.getobject(str(path))
        for index, unit in enumerate(store.units):
            if unit.isheader() or not unit.source:
                continue
            rows.append({"unit_id": f"{path.relative_to(tm_dir).as_posix()}#{index}", "domain": domain,
                         "source": str(unit.source), "target": str(unit.target or "") or None})
    return pl.DataFrame(rows, schema={"unit_id": pl.Utf8, "domain": pl.Utf8, "source": pl.Utf8, "target": pl.Utf8})
