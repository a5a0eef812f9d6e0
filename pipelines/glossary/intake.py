"""``housestyle import-glossary``: a termbase file → ``inbox/<client>/glossary/<name>.jsonl``.

The file is the client's: its conventions join every new set of the client (the ``convention_set``
asset reads the folder, ``mine --glossary`` takes it) and re-importing the same termbase replaces
its file whole. What was refused is returned with reasons, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from housestyle.pipelines.rules.io import write_conventions
from housestyle.pipelines.errors import UnsupportedFormatError
from housestyle.pipelines.glossary.conventions import Converted, to_conventions
from housestyle.pipelines.glossary.model import Concept, Refusal
from housestyle.pipelines.glossary.tables import read_table
from housestyle.pipelines.glossary.tbx import read_tbx
from housestyle.pipelines.langtags import try_normalise
from housestyle.pipelines.paths import UnsafePathError, client_path

GLOSSARY_FOLDER = "glossary"
SUFFIXES = (".tbx", ".csv", ".tsv", ".xlsx")


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import read and wrote."""

    path: Path  # the written conventions file
    concepts: int  # (entry x language pair) read
    converted: Converted


def read_glossary(path: Path, *, src_lang: str | None, tgt_lang: str | None) -> tuple[list[Concept], list[Refusal]]:
    """Concepts and refusals of a TBX / CSV / TSV / XLSX termbase (by suffix)."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise UnsupportedFormatError(f"a termbase is one of {', '.join(SUFFIXES)}", path=str(path))
    reader = read_tbx if suffix == ".tbx" else read_table
    concepts: list[Concept] = []
    refused: list[Refusal] = []
    for item in reader(path, src_lang=src_lang, tgt_lang=tgt_lang):
        if isinstance(item, Concept):
            concepts.append(item)
        else:
            refused.append(item)
    return concepts, refused


def glossary_file(inbox: Path, client: str, source: Path) -> Path:
    """Where a termbase's conventions live: ``inbox/<client>/glossary/<file stem>.jsonl``, kept under
    the inbox (``paths.client_path``: a symlinked folder pointing out of it is refused). A symlinked
    glossary folder is refused too: the pipeline lists no file through one (``inbox_files``), so the
    import would have been written and never read."""
    name = re.sub(r"[^\w.-]+", "_", source.stem).strip("._") or "glossary"
    folder = inbox / client / GLOSSARY_FOLDER
    if folder.is_symlink():
        raise UnsafePathError(f"{folder} is a symlink: the pipeline never reads a glossary through one; make it a folder")
    return client_path(inbox, client, GLOSSARY_FOLDER, f"{name}.jsonl", source="--client")


def import_glossary(path: Path, *, inbox: Path, client: str, src_lang: str | None = None,
                    tgt_lang: str | None = None, dry_run: bool = False) -> Imported:
    """Read ``path``, convert it, and (unless ``dry_run``) write the client's glossary file."""
    concepts, refused = read_glossary(path, src_lang=src_lang, tgt_lang=tgt_lang)
    for concept in concepts:  # languages the caller names are the pair's names (en for the file's en-US)
        concept.src_lang = try_normalise(src_lang) or concept.src_lang
        concept.tgt_lang = try_normalise(tgt_lang) or concept.tgt_lang
    converted = to_conventions(concepts)
    converted.refused[:0] = refused
    out = glossary_file(inbox, client, path)
    if not dry_run:
        write_conventions(converted.conventions, out)
    return Imported(out, len(concepts), converted)
