"""`housestyle import-glossary FILE --client C`: the client's termbase as glossary conventions (SPEC §3).

Reads TBX (2008 / TBX-Basic / v3), CSV / TSV and XLSX termbases (pipelines/glossary/README.md lists
the layouts and column names), writes inbox/<client>/glossary/<file stem>.jsonl (origin glossary,
status validated) that every new set of the client includes, and lists what was refused and why.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from housestyle.pipelines.cli.inbox import inbox_root
from housestyle.pipelines.errors import InputError

SHOWN_REFUSALS = 50


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("import-glossary", help="the client's termbase (TBX, CSV, XLSX) as glossary conventions",
                              description="Preferred terms become required term rules, admitted terms accepted "
                                          "alternatives, deprecated / forbidden terms wrong variants; written to "
                                          "inbox/<client>/glossary/<name>.jsonl, which every new set of the client includes.")
    p.add_argument("file", type=Path, help="the termbase (.tbx, .csv, .tsv, .xlsx)")
    p.add_argument("--client", required=True, help="the client whose conventions these are")
    p.add_argument("--src", help="source language (default: the TBX's xml:lang, the file's language columns)")
    p.add_argument("--tgt", help="target language (default: every other language of the file)")
    p.add_argument("--inbox", type=Path, default=None, help="inbox root (default: <project>/inbox)")
    p.add_argument("--dry-run", action="store_true", help="read and report; write nothing")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from housestyle.pipelines.glossary.intake import import_glossary  # loads spaCy and the lexicons (seconds): only when run

    if not args.file.is_file():
        raise InputError("no such file", path=str(args.file))
    inbox = inbox_root(args.inbox)
    done = import_glossary(args.file, inbox=inbox, client=args.client, src_lang=args.src, tgt_lang=args.tgt,
                           dry_run=args.dry_run)
    converted = done.converted
    pairs = Counter(f"{c.src_lang}→{c.tgt_lang}" for c in converted.conventions)
    rules = Counter(c.rule for c in converted.conventions)
    print(f"read {done.concepts} entries (entry x language pair) from {args.file}")
    print(f"imported {len(converted.conventions)} conventions ({', '.join(f'{k} {v}' for k, v in sorted(rules.items()))}; "
          f"{', '.join(f'{k} {v}' for k, v in sorted(pairs.items()))}); {converted.merged} homonym entries joined "
          f"an earlier rule of the same source term")
    reasons = Counter(r.reason.split(" '")[0].split(' "')[0] for r in converted.refused)
    print(f"refused {len(converted.refused)}" + (f": {', '.join(f'{k} ({v})' for k, v in reasons.most_common())}"
                                                  if reasons else ""))
    for refusal in converted.refused[:SHOWN_REFUSALS]:
        print(f"  {refusal.where} [{refusal.concept_id}]: {refusal.reason}")
    if len(converted.refused) > SHOWN_REFUSALS:
        print(f"  … and {len(converted.refused) - SHOWN_REFUSALS} more")
    if args.dry_run:
        print("dry run: nothing written")
    else:
        print(f"→ {done.path}; every new set of {args.client} includes it (the convention_set asset, or "
              f"mine --glossary {done.path.parent})")
    return 0
