"""Build the demo client's precomputed system outputs ONCE, at bundling time (not part of the pipeline).

Writes, keyed by the TICO-19 TMX unit ids (tuid ``DOC:N``):
- inbox/demo/systems/reference.jsonl — the TICO-19 French targets themselves;
- inbox/demo/systems/fairseq.jsonl and inbox/demo/generic/fairseq.jsonl — the WMT21 terminology
  task's Fairseq output (../shared/data/wmt21-terminology-enfr/en-fr.hyp.txt.truecased.xml),
  detokenised with sacremoses (Moses French rules). Its tokenisation still leaves plain spaces
  before ``? ! : ;`` and lowercase sentence starts (it was truecased); we keep them: that is
  what the scoring run should see.

Id alignment is CHECKED, not assumed: the hyp file's ``docid:seg`` ids must equal all.ids.txt line by
line, all.ids.txt must equal the TMX tuids in order, and the WMT English source of each id must
equal the TMX English source modulo tokenisation (letters and digits compared).

Run: python -m tests.eval.build_demo_bundle [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from lxml import etree
from sacremoses import MosesDetokenizer

from housestyle.pipelines.segments import load_segments

REPO = Path(__file__).resolve().parents[2]
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def read_tmx(path: Path) -> list[tuple[str, str, str]]:
    """(tuid, en, fr) in file order, with a hardened parser (no entities, no network, no DTD)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    root = etree.parse(str(path), parser).getroot()
    units = []
    for tu in root.iter("tu"):
        texts = {}
        for tuv in tu.findall("tuv"):
            seg = tuv.find("seg")
            texts[tuv.get(XML_LANG)] = "".join(seg.itertext()) if seg is not None else ""
        units.append((tu.get("tuid") or "", texts["en"], texts["fr"]))
    return units


def _skeleton(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()


def write_jsonl(path: Path, rows: list[tuple[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for seg_id, text in rows:
            handle.write(json.dumps({"id": seg_id, "text": text}, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    args = parser.parse_args()
    wmt = args.data / "wmt21-terminology-enfr"
    tmx = read_tmx(args.data / "tico19" / "TM" / "all.en-fr.tmx")
    ids = [line.strip() for line in (wmt / "all.ids.txt").read_text(encoding="utf-8").splitlines() if line.strip()]
    hyp = load_segments(wmt / "en-fr.hyp.txt.truecased.xml")
    wmt_en = load_segments(wmt / "all.en-fr.en.xml")
    tuids = [u[0] for u in tmx]
    assert list(hyp) == ids, "hyp docid:seg ids differ from all.ids.txt"
    assert tuids == ids, "all.ids.txt differs from the TMX tuids"
    same = sum(_skeleton(wmt_en[tuid]) == _skeleton(en) for tuid, en, _fr in tmx)
    print(f"ids aligned: {len(ids)}; WMT en == TMX en (letters/digits): {same}/{len(tmx)}")
    assert same >= 0.99 * len(tmx), "WMT and TMX English sources disagree: ids are not aligned"
    detok = MosesDetokenizer(lang="fr")
    fairseq = [(seg_id, detok.detokenize(hyp[seg_id].split())) for seg_id in ids]
    write_jsonl(REPO / "inbox/demo/systems/reference.jsonl", [(tuid, fr) for tuid, _en, fr in tmx])
    write_jsonl(REPO / "inbox/demo/systems/fairseq.jsonl", fairseq)
    write_jsonl(REPO / "inbox/demo/generic/fairseq.jsonl", fairseq)
    print("wrote inbox/demo/systems/{reference,fairseq}.jsonl and inbox/demo/generic/fairseq.jsonl")


if __name__ == "__main__":
    main()
