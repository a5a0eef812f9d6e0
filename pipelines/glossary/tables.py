"""CSV and XLSX termbases, in the two layouts the tools export (the column names accepted per tool
are in pipelines/glossary/README.md).

* Pair rows (TICO-19, Weblate, DeepL): one row per term pair, a source and a target column
  (``sourceString`` / ``targetString``, ``source`` / ``target``, ``source term`` / ``target term``),
  the languages in ``sourceLang`` / ``targetLang`` columns or given by the caller; a status in a
  ``status`` column, Weblate's ``flags`` (``forbidden``) or a ``forbidden`` column. Rows of the same
  source term and pair make one concept (a preferred row and a forbidden row of one term).
* Language columns (memoQ, Phrase, Crowdin): one row per concept, a column per language named by its
  code (``en``, ``fr-FR``, ``fr_FR``) or name (``English``, ``French_France``), repeated for further
  terms; per-language fields as ``Status [fr]`` / ``Description [fr]`` (Crowdin), ``fr_Def`` /
  ``fr status`` / ``French_Forbidden`` (memoQ, Phrase), or memoQ's term-level ``Term_*`` columns,
  which belong to the term column before them.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import langcodes

from housestyle.pipelines.errors import InputError, MalformedFileError
from housestyle.pipelines.glossary.model import Concept, Refusal, Role, covers, role_of
from housestyle.pipelines.langtags import same_language, try_normalise
from housestyle.pipelines.spreadsheet import XlsxLimits, csv_records, read_xlsx_rows
from housestyle.pipelines.textinput import read_text

MAX_BYTES = 64 << 20
MAX_ROWS = 500_000
MAX_CELL = 10_000
MAX_TERM_CHARS = 200
MAX_COLUMNS = 1_024  # a language-layout export: ~5 fields for each of up to ~200 languages
XLSX_LIMITS = XlsxLimits("termbase", MAX_BYTES, 512 << 20, MAX_COLUMNS, MAX_ROWS + 1)
SOURCE_COLUMNS = ("sourcestring", "source", "source term", "source_term", "sourceterm")
TARGET_COLUMNS = ("targetstring", "target", "target term", "target_term", "targetterm", "translation")
SOURCE_LANG_COLUMNS = ("sourcelang", "source language", "source_lang", "sourcelanguage")
TARGET_LANG_COLUMNS = ("targetlang", "target language", "target_lang", "targetlanguage")
STATUS_FIELDS = frozenset({"status", "term status", "termstatus", "term_status", "administrative status",
                           "administrativestatus", "usage status", "info", "term_info"})
FORBIDDEN_FIELDS = frozenset({"forbidden", "term_forbidden", "forbidden term", "do not use"})
NOTE_FIELDS = frozenset({"def", "definition", "description", "note", "notes", "comment", "comments",
                         "developer_comments", "explanation", "context", "entry_note"})
TERM_FIELDS = frozenset({"term", "terms"})
FIELDS = STATUS_FIELDS | FORBIDDEN_FIELDS | NOTE_FIELDS | TERM_FIELDS
TRUE = frozenset({"1", "true", "yes", "y", "x", "forbidden"})
_BRACKETED = re.compile(r"^(.*?)\s*[\[(]([^\])]+)[\])]$")
_SUFFIXED = re.compile(r"^(.+?)[\s_](term_info|term_forbidden|[a-z]+)$", re.IGNORECASE)


def language_of(header: str) -> str | None:
    """The language a column header names (a code, or an English / native name), else None."""
    text = header.strip()
    if not text or text.lower() in FIELDS or text.lower() in ("id", "no", "type") or text.lower().startswith(("entry_", "term_")):
        return None
    parts = re.split(r"[-_]", text)
    if 2 <= len(parts[0]) <= 3 and parts[0].isascii() and parts[0].isalpha() and all(
            len(p) == 2 or (len(p) == 4 and p.isalpha()) or (len(p) == 3 and p.isdigit()) for p in parts[1:]):
        return try_normalise("-".join(parts))  # fr, fr-FR, fr_FR, zh-Hans, es-419
    try:
        found = langcodes.find(text.replace("_", " "))
    except LookupError:
        return None
    names = {found.language_name().lower(), found.autonym().lower()}  # find() is fuzzy: Gender is no language
    words = re.split(r"[\s_(]+", text.lower())
    return str(found.language) if any(n and n.split() == words[:len(n.split())] for n in names) else None


def column_of(header: str) -> tuple[str | None, str]:
    """(language, field) of a language-layout header: ``fr`` → (fr, term); ``Status [fr]`` →
    (fr, status); ``fr_Def`` → (fr, def); ``Term_Info`` → (None, term_info)."""
    text = header.strip()
    if m := _BRACKETED.match(text):
        lang = language_of(m.group(2))
        if lang is not None:
            return lang, (m.group(1).strip().lower() or "term")
    if (m := _SUFFIXED.match(text)) and m.group(2).lower() in FIELDS and (lang := language_of(m.group(1))) is not None:
        return lang, m.group(2).lower()
    if (lang := language_of(text)) is not None:
        return lang, "term"
    return None, text.lower()


def read_rows(path: Path) -> list[list[str]]:
    """The file's rows as text cells (header first): CSV (delimiter sniffed among , ; tab) or XLSX (first sheet)."""
    if path.stat().st_size > MAX_BYTES:
        raise MalformedFileError(f"larger than {MAX_BYTES >> 20} MiB: not read as a termbase", path=str(path))
    if path.suffix.lower() == ".xlsx":
        return _xlsx_rows(path)
    text = read_text(path)
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:8192], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    records = csv_records(text, path, max_rows=MAX_ROWS + 1, dialect=dialect)
    return [[c[:MAX_CELL] for c in row] for _, row in records]


def _xlsx_rows(path: Path) -> list[list[str]]:
    return [["" if v is None else str(v)[:MAX_CELL] for v in values] for values in read_xlsx_rows(path, XLSX_LIMITS)]


def read_table(path: Path, *, src_lang: str | None, tgt_lang: str | None) -> Iterator[Concept | Refusal]:
    """The concepts of a CSV / XLSX termbase in either layout (module doc)."""
    rows = read_rows(path)
    if not rows:
        raise MalformedFileError("empty file", path=str(path))
    header = [h.strip().lower() for h in rows[0]]
    if any(h in SOURCE_COLUMNS for h in header) and any(h in TARGET_COLUMNS for h in header):
        yield from _pair_rows(path, header, rows[1:], src_lang, tgt_lang)
    else:
        yield from _language_rows(path, rows[0], rows[1:], src_lang, tgt_lang)


def _first(header: Sequence[str], names: Sequence[str]) -> int | None:
    return next((i for i, h in enumerate(header) if h in names), None)


def _cell(row: Sequence[str], index: int | None) -> str:
    return " ".join(row[index].split()) if index is not None and index < len(row) else ""


def _role(status: str, forbidden: str, flags: str) -> Role | None:
    if forbidden.strip().lower() in TRUE or "forbidden" in {f.strip().lower() for f in flags.split(",")}:
        return "wrong"
    return role_of(status)


def _pair_rows(path: Path, header: list[str], rows: list[list[str]], src_lang: str | None,
               tgt_lang: str | None) -> Iterator[Concept | Refusal]:
    src, tgt = _first(header, SOURCE_COLUMNS), _first(header, TARGET_COLUMNS)
    slang, tlang = _first(header, SOURCE_LANG_COLUMNS), _first(header, TARGET_LANG_COLUMNS)
    if (slang is None and src_lang is None) or (tlang is None and tgt_lang is None):
        raise InputError("a source/target glossary without language columns needs --src and --tgt", path=str(path))
    status = _first(header, tuple(STATUS_FIELDS))
    forbidden, flags = _first(header, tuple(FORBIDDEN_FIELDS)), _first(header, ("flags",))
    note = _first(header, tuple(NOTE_FIELDS))
    concepts: dict[tuple[str, str, str], Concept] = {}
    for n, row in enumerate(rows, start=2):
        where = f"{path.name}:{n}"
        source, target = _cell(row, src), _cell(row, tgt)
        if not source and not target:
            continue  # a blank row (TICO's es file ends in 306 rows holding only the language code)
        s_lang = try_normalise(_cell(row, slang).replace("_", "-")) if slang is not None else src_lang
        t_lang = try_normalise(_cell(row, tlang).replace("_", "-")) if tlang is not None else tgt_lang
        if not source or not target:
            yield Refusal(where, where, "no source term" if not source else "no target term")
            continue
        if s_lang is None or t_lang is None:
            yield Refusal(where, where, "unreadable language code")
            continue
        if (src_lang and not covers(src_lang, s_lang)) or (tgt_lang and not covers(tgt_lang, t_lang)):
            continue  # another pair of a multilingual file: not asked for
        role = _role(_cell(row, status), _cell(row, forbidden), _cell(row, flags))
        if role is None:
            yield Refusal(where, where, f"unknown status {_cell(row, status)!r}")
            continue
        if max(len(source), len(target)) > MAX_TERM_CHARS:
            yield Refusal(where, where, f"term longer than {MAX_TERM_CHARS} characters")
            continue
        key = (s_lang, t_lang, source)
        if key not in concepts:
            concepts[key] = Concept(where, where, s_lang, t_lang, [source], note=_cell(row, note) or None)
        concepts[key].add(target, role)
    yield from concepts.values()


@dataclass(slots=True)
class _TermColumn:
    lang: str
    index: int
    status: int | None = None
    forbidden: int | None = None


def _language_columns(header: Sequence[str]) -> tuple[list[_TermColumn], dict[str, int]]:
    """Term columns (each with its status / forbidden column) and each language's note column."""
    terms: list[_TermColumn] = []
    notes: dict[str, int] = {}
    for index, text in enumerate(header):
        lang, field = column_of(text)
        if lang is None and terms and field.startswith("term_"):  # memoQ: term fields follow their term
            lang, field = terms[-1].lang, field[len("term_"):]
        if lang is None:
            continue
        if field in TERM_FIELDS:
            terms.append(_TermColumn(lang, index))
            continue
        owner = next((t for t in reversed(terms) if t.lang == lang), None)
        if field in STATUS_FIELDS or field == "info":
            if owner is not None:
                owner.status = index
        elif field in FORBIDDEN_FIELDS or field == "forbidden":
            if owner is not None:
                owner.forbidden = index
        elif field in NOTE_FIELDS:
            notes.setdefault(lang, index)
    return terms, notes


def _language_rows(path: Path, header: list[str], rows: list[list[str]], src_lang: str | None,
                   tgt_lang: str | None) -> Iterator[Concept | Refusal]:
    columns, notes = _language_columns(header)
    langs = list(dict.fromkeys(c.lang for c in columns))
    if len(langs) < 2:
        raise InputError(f"no two language columns found in the header ({', '.join(header[:8])}); see "
                         "pipelines/glossary/README.md for the column names accepted", path=str(path), location=1)
    src = next((lang for lang in langs if covers(src_lang, lang)), None) if src_lang else langs[0]
    if src is None:
        raise InputError(f"no column of the source language {src_lang} (columns: {', '.join(langs)})", path=str(path))
    targets = [lang for lang in langs if lang != src and covers(tgt_lang, lang)]
    if not targets:
        raise InputError(f"no column of the target language {tgt_lang} (columns: {', '.join(langs)})", path=str(path))
    id_column = _first([h.strip().lower() for h in header], ("entry_id", "id", "concept id", "conceptid"))
    for n, row in enumerate(rows, start=2):
        where = f"{path.name}:{n}"
        if not any(cell.strip() for cell in row):
            continue
        cid = _cell(row, id_column) or where
        for tgt in targets:
            concept = Concept(cid, where, src, tgt, note=_cell(row, notes.get(src)) or _cell(row, notes.get(tgt)) or None)
            for column in columns:
                if column.lang not in (src, tgt) or not (term := _cell(row, column.index)):
                    continue
                role = _role(_cell(row, column.status), _cell(row, column.forbidden), "")
                if role is None:
                    yield Refusal(where, cid, f"unknown status {_cell(row, column.status)!r} of term {term!r}")
                elif len(term) > MAX_TERM_CHARS:
                    yield Refusal(where, cid, f"term longer than {MAX_TERM_CHARS} characters")
                elif column.lang == src:
                    if role != "wrong" and term not in concept.sources:
                        concept.sources.append(term)
                else:
                    concept.add(term, role)
            yield concept
