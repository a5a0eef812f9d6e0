"""Plant known errors in a copy of a client's TM targets: the "MT delivery" of the adoption run (issue 27).

    python -m tests.eval.plant_delivery TM_FOLDER OUT_FOLDER --planted planted.json [--seed 27] [--per-kind 5]
    python -m tests.eval.plant_delivery --count planted.json RUN_DIR TM_FOLDER OUT_FOLDER

The delivery mirrors the TM folder (same files, same ids); only target text changes, edited in the
raw bytes (XLIFF ``<target>`` elements, PO ``msgstr`` strings) so nothing else moves. Kinds, each in
``--per-kind`` seeded units whose target allows it (a unit is planted once):

- ``term``: a French rendering replaced by the English source word (``mot de passe`` → ``password``,
  ``appareil`` → ``device``, ``abonnement`` → ``subscription``, ``serveur`` → ``server``),
- ``quotes``: « » guillemets → straight quotes,
- ``placeholder_qt``: ``%1`` → ``% 1``; ``placeholder``: ``{x}`` / ``%(x)s`` renamed, ``<a …>`` tag dropped,
- ``number``: a digit run changed (``30`` → ``31``),
- ``apostrophe``: ’ → ',
- ``nbsp``: U+00A0 before ``: ? ! ;`` or inside « » → a plain space.

``--count`` reads a finished run (failures.parquet) and reports, per kind, the planted units that
have at least one *new* failure (found) of the planted units, and which dimension caught them.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
import shutil
from pathlib import Path
from typing import Callable

TERMS = {"mot de passe": "password", "appareil": "device", "abonnement": "subscription", "serveur": "server"}


def _term(text: str) -> str | None:
    for fr, en in TERMS.items():
        if re.search(rf"\b{fr}\b", text):
            return re.sub(rf"\b{fr}\b", en, text, count=1)
    return None


def _sub(pattern: str, repl: str | Callable[[re.Match[str]], str]) -> Callable[[str], str | None]:
    def edit(text: str) -> str | None:
        out = re.sub(pattern, repl, text, count=1)
        return out if out != text else None
    return edit


def _number(m: re.Match[str]) -> str:
    digits = m.group(0)
    return digits[:-1] + str((int(digits[-1]) + 1) % 10)


KINDS: dict[str, Callable[[str], str | None]] = {
    "term": _term,
    "quotes": _sub(r"«\u00a0?(.*?)\u00a0?»", r'"\1"'),
    "placeholder_qt": _sub(r"%(\d)", r"% \1"),
    "placeholder": _sub(r"\{ *\$?([A-Za-z_]\w*) *\}|%\(([A-Za-z_]\w*)\)s|<a\b[^>]*>",
                        lambda m: "{nom}" if m.group(1) else ("%(nom)s" if m.group(2) else "")),
    "number": _sub(r"(?<![\w%$.,{])\d+(?![\w}])", _number),
    "apostrophe": _sub("’", "'"),
    "nbsp": _sub(r"\u00a0(?=[:?!;])", " "),
}
XLIFF_TARGET = re.compile(r"(<target\b[^>]*>)(.*?)(</target>)", re.S)
PO_MSGSTR = re.compile(r'^(msgstr )"(.*)"$', re.M)  # one-line, singular msgstr only
PO_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _po_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: PO_ESCAPES.get(m.group(1), m.group(0)), text)


def _targets(path: Path, text: str) -> list[tuple[int, int, str]]:
    """(start, end, unescaped text) of every target string in the raw file text."""
    if path.suffix in (".xliff", ".xlf"):
        return [(m.start(2), m.end(2), html.unescape(m.group(2))) for m in XLIFF_TARGET.finditer(text)]
    return [(m.start(2), m.end(2), _po_unescape(m.group(2))) for m in PO_MSGSTR.finditer(text) if m.group(2)]


def _escape(path: Path, text: str) -> str:
    if path.suffix in (".xliff", ".xlf"):
        return html.escape(text, quote=False)
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def plant(tm: Path, out: Path, seed: int, per_kind: int) -> list[dict[str, str]]:
    """Copy ``tm`` to ``out`` and plant ``per_kind`` errors of each kind; the planted list."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(tm, out)
    files = sorted(p for p in out.rglob("*") if p.suffix in (".xliff", ".xlf", ".po"))
    texts = {p: p.read_text(encoding="utf-8") for p in files}
    slots = [(p, start, end, target) for p in files for start, end, target in _targets(p, texts[p])]
    rng = random.Random(seed)
    used: set[tuple[Path, int]] = set()
    edits: dict[Path, list[tuple[int, int, str]]] = {p: [] for p in files}
    planted = []
    for kind, edit in KINDS.items():
        candidates = [s for s in slots if (s[0], s[1]) not in used and edit(s[3]) is not None]
        for path, start, end, target in rng.sample(candidates, min(per_kind, len(candidates))):
            after = edit(target)
            assert after is not None
            used.add((path, start))
            edits[path].append((start, end, _escape(path, after)))
            planted.append({"kind": kind, "file": path.relative_to(out).as_posix(), "before": target, "after": after})
    for path, changes in edits.items():
        text = texts[path]
        for start, end, new in sorted(changes, reverse=True):
            text = text[:start] + new + text[end:]
        path.write_text(text, encoding="utf-8")
    return planted


def count(planted_file: Path, run_dir: Path, tm: Path, delivery: Path) -> dict[str, dict[str, object]]:
    """Per kind: planted, found (a new failure on the planted unit), and the dimensions that caught them."""
    import polars as pl

    from housestyle.pipelines.scoring.delivery import load_segments_at

    planted = json.loads(planted_file.read_text(encoding="utf-8"))
    before, after = load_segments_at(tm, side="target"), load_segments_at(delivery, side="target")
    changed = {k: after[k] for k in after if before.get(k) != after[k]}
    failures = pl.read_parquet(run_dir / "failures.parquet")
    new = failures.filter(~pl.col("inherited").fill_null(False) & ~pl.col("ignored").fill_null(False))
    caught: dict[str, set[str]] = {}
    for r in new.iter_rows(named=True):
        caught.setdefault(r["segment_id"], set()).add(r["dimension"])
    out: dict[str, dict[str, object]] = {}
    for p in planted:
        ids = [k for k, text in changed.items() if k.split("::")[0] == p["file"] and text == p["after"]]
        row = out.setdefault(p["kind"], {"planted": 0, "found": 0, "by": {}, "missed": []})
        row["planted"] = int(row["planted"]) + 1  # type: ignore[call-overload]
        dims = set().union(*(caught.get(k, set()) for k in ids)) if ids else set()
        if dims:
            row["found"] = int(row["found"]) + 1  # type: ignore[call-overload]
            for d in dims:
                by = row["by"]
                assert isinstance(by, dict)
                by[d] = by.get(d, 0) + 1
        else:
            missed = row["missed"]
            assert isinstance(missed, list)
            missed.append(f"{p['before'][:60]!r} -> {p['after'][:60]!r}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=Path, metavar="PLANTED_JSON")
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--planted", type=Path)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--per-kind", type=int, default=5)
    args = parser.parse_args()
    if args.count:
        run_dir, tm, delivery = args.paths
        result = count(args.count, run_dir, tm, delivery)
        total = sum(int(v["planted"]) for v in result.values())  # type: ignore[call-overload]
        found = sum(int(v["found"]) for v in result.values())  # type: ignore[call-overload]
        print(json.dumps(result, indent=1, ensure_ascii=False))
        print(f"found {found} of {total} planted")
        return
    tm, out = args.paths
    planted = plant(tm, out, args.seed, args.per_kind)
    args.planted.write_text(json.dumps(planted, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"planted {len(planted)} errors in {out}")


if __name__ == "__main__":
    main()
