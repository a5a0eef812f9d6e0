"""Read and write convention sets: JSONL, JSON, Parquet, YAML (and a convention-set directory).

Every row is type-checked and validated; an error names the file with the line (JSONL; ``#n`` for
JSON/YAML lists, ``row n`` for Parquet), the convention id and the field
(``conv.jsonl:2: convention 3f2a…: field 'params.decimal': …``). Unknown fields are kept in ``extra`` (other tools may add
columns), except near-misses of a known field name (``expected_term``), which are refused: a typo
would otherwise silently drop a requirement.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import polars as pl
from rapidfuzz.distance import Levenshtein

from housestyle.pipelines import atomic
from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.conventions.model import Convention, canonical_json, convention_id_of
from housestyle.pipelines.rules.validate import at_location, validate_conventions
from housestyle.pipelines.errors import ConventionError, InputError
from housestyle.pipelines.textinput import json_value, read_text, text_lines, too_deep, yaml_value

_FIELDS = {f.name: f for f in fields(Convention)}
_STR_LISTS = ("expected_terms", "wrong_variants", "evidence_unit_ids", "counter_unit_ids")
_BOOLS = ("src_regex", "regex")
_OPT_STRS = ("src", "src_match_mode", "src_lang", "tgt_lang", "mqm_category", "note")
_STRS = ("dimension", "rule", "match_mode", "origin", "status")
PARAMS_MAX_DEPTH = 16  # params of every rule type are flat or one level of lists; deeper is hostile

CONVENTIONS_SCHEMA: dict[str, pl.DataType] = {
    "convention_id": pl.Utf8(),
    "dimension": pl.Utf8(),
    "rule": pl.Utf8(),
    "src_lang": pl.Utf8(),
    "tgt_lang": pl.Utf8(),
    "src": pl.Utf8(),
    "src_regex": pl.Boolean(),
    "src_match_mode": pl.Utf8(),
    "expected_terms": pl.List(pl.Utf8),
    "wrong_variants": pl.List(pl.Utf8),
    "regex": pl.Boolean(),
    "match_mode": pl.Utf8(),
    "params": pl.Utf8(),  # JSON object text: params differ per rule type, a struct cannot hold them
    "mqm_category": pl.Utf8(),
    "origin": pl.Utf8(),
    "status": pl.Utf8(),
    "support": pl.Int64(),
    "consistency": pl.Float64(),
    "evidence_unit_ids": pl.List(pl.Utf8),
    "counter_unit_ids": pl.List(pl.Utf8),
    "heldout_items": pl.Int64(),
    "heldout_passed": pl.Int64(),
    "note": pl.Utf8(),
}
# Derived for people (review packets, glossaries), never read back and never part of the id: the
# literal strings each list stands for (``factors.literal_forms``), null when an entry is not finite.
DERIVED_SCHEMA: dict[str, pl.DataType] = {"expected_forms": pl.List(pl.Utf8), "wrong_forms": pl.List(pl.Utf8)}


def _fail(message: str, location: int | str, field: str | None, path: Path, row: Any = None) -> ConventionError:
    """Before the row is a Convention its id is unknown: name it by the id it states, else its dimension."""
    stated = row.get("convention_id") or row.get("dimension") if isinstance(row, dict) else None
    name = stated if isinstance(stated, str) and stated else "(unnamed)"
    return ConventionError(message, convention=name, field=field, path=at_location(str(path), location))


def convention_from_dict(row: dict[str, Any], *, where: int | str, path: Path) -> Convention:
    """Type-check one row and build the Convention (``where``: its line number, or ``#3``/``row 3``;
    errors name ``path:where``)."""
    at = where
    if not isinstance(row, dict):
        raise _fail(f"a convention must be a JSON object, got {type(row).__name__}", at, None, path, row)
    known: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in row.items():
        if key in DERIVED_SCHEMA:
            continue  # recomputed from the entries whenever a set is written
        if key in _FIELDS and key != "extra":
            known[key] = value
            continue
        near = [name for name in _FIELDS if Levenshtein.distance(key, name) <= 2 and name not in row]
        if near:
            raise _fail(f"unknown field {key!r} (did you mean {near[0]!r}?)", at, key, path, row)
        extra[key] = value
    for name in ("dimension", "rule"):
        if known.get(name) is None:
            raise _fail(f"missing required field {name!r}", at, name, path, row)
    for name in _STRS:
        if name in known and known[name] is None and name in ("match_mode", "origin", "status"):
            del known[name]  # null = default
        if name in known and not isinstance(known[name], str):
            raise _fail(f"must be a string, got {known[name]!r}", at, name, path, row)
    for name in _OPT_STRS:
        if known.get(name) is not None and not isinstance(known[name], str):
            raise _fail(f"must be a string or null, got {known[name]!r}", at, name, path, row)
    for name in _BOOLS:
        if known.get(name) is None:
            known.pop(name, None)
        elif not isinstance(known[name], bool):
            raise _fail(f"must be true or false, got {known[name]!r}", at, name, path, row)
    for name in _STR_LISTS:
        value = known.get(name)
        if value is None:
            known.pop(name, None)
        elif not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _fail(f"must be a list of strings, got {value!r}", at, name, path, row)
    params = known.get("params")
    if params is None:
        known.pop("params", None)
    elif isinstance(params, str):
        try:
            known["params"] = json.loads(params) if params.strip() else {}
        except json.JSONDecodeError as exc:
            raise _fail(f"params is not valid JSON: {exc}", at, "params", path, row) from None
        except RecursionError:
            raise _fail("params nested too deep", at, "params", path, row) from None
    if not isinstance(known.get("params", {}), dict):
        raise _fail("params must be a JSON object", at, "params", path, row)
    if too_deep(known.get("params", {}), PARAMS_MAX_DEPTH):
        raise _fail(f"params nested deeper than {PARAMS_MAX_DEPTH} levels", at, "params", path, row)
    for name in ("support", "heldout_items", "heldout_passed"):
        if known.get(name) is not None and (not isinstance(known[name], int) or isinstance(known[name], bool)):
            raise _fail("must be an integer", at, name, path, row)
    if known.get("consistency") is not None and not isinstance(known["consistency"], (int, float)):
        raise _fail("must be a number", at, "consistency", path, row)
    given_id = known.pop("convention_id", None) or ""
    conv = Convention(**known)
    conv.extra = extra
    if given_id and given_id != convention_id_of(conv):
        raise _fail(
            f"convention_id {given_id!r} does not match its semantic fields (expected {conv.convention_id!r}): "
            "the row was edited without recomputing the id",
            at, "convention_id", path, row,
        )
    return conv


def _rows_jsonl(path: Path) -> Iterator[tuple[int | str, Any]]:
    for number, line in text_lines(path):
        if line.strip():
            yield number, json_value(line, path=path, location=number)


def _rows_document(path: Path, data: Any) -> Iterator[tuple[int | str, Any]]:
    if isinstance(data, dict) and "conventions" in data:
        data = data["conventions"]
    if not isinstance(data, list):
        raise InputError("expected a list of conventions (or {\"conventions\": [...]})", path=str(path))
    for index, row in enumerate(data, start=1):
        yield f"#{index}", row


def _rows(path: Path) -> Iterator[tuple[int | str, Any]]:
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        yield from _rows_jsonl(path)
    elif suffix == ".json":
        yield from _rows_document(path, json_value(read_text(path), path=path))
    elif suffix in (".yaml", ".yml"):
        yield from _rows_document(path, yaml_value(read_text(path), path=path))
    elif suffix == ".parquet":
        frame = pl.read_parquet(path)
        for index, row in enumerate(frame.to_dicts(), start=1):
            yield f"row {index}", {k: v for k, v in row.items()}
    else:
        raise InputError(f"unsupported convention file type {suffix!r} (jsonl, json, yaml, parquet)", path=str(path))


def resolve_conventions_path(path: Path) -> Path:
    """A convention-set directory holds conventions.parquet (preferred) or conventions.jsonl."""
    if path.is_dir():
        for name in ("conventions.parquet", "conventions.jsonl"):
            if (path / name).is_file():
                return path / name
        raise InputError("no conventions.parquet or conventions.jsonl in this directory", path=str(path))
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    return path


def load_conventions(path: Path, *, regex_guard: bool = True, validate: bool = True) -> list[Convention]:
    """Load and validate a convention set; raise ConventionError / InputError naming the file,
    the convention and the field. ``regex_guard`` runs the timed slow-regex probe (a child process).
    ``validate=False`` only type-checks the rows: for a sealed set read back for display (its files
    match the manifest written after they were validated), where compiling every regex again costs
    seconds."""
    path = resolve_conventions_path(Path(path))
    conventions: list[Convention] = []
    locations: list[int | str] = []
    for location, row in _rows(path):
        conventions.append(convention_from_dict(row, where=location, path=path))
        locations.append(location)
    if validate:
        validate_conventions(conventions, path=str(path), locations=locations, regex_guard=regex_guard)
    return conventions


# inbox/<client>/conventions/ (and ``mine --authored``) takes what README documents: JSONL. A file of
# any other suffix dropped there is refused by name, never parsed as whatever its suffix claims.
AUTHORED_SUFFIXES = (".jsonl",)


def load_authored(path: Path) -> list[Convention]:
    """Load one hand-authored conventions file (full regex probe: it comes from people)."""
    path = Path(path)
    if path.suffix.lower() not in AUTHORED_SUFFIXES:
        raise InputError(f"not read: authored conventions are {', '.join('*' + s for s in AUTHORED_SUFFIXES)} files, "
                         f"this one is {path.suffix or 'without a suffix'!s}", path=str(path))
    return load_conventions(path, regex_guard=True)


def _record(conv: Convention) -> dict[str, Any]:
    record = {name: getattr(conv, name) for name in CONVENTIONS_SCHEMA}
    return record


def forms_of(entries: Sequence[str], is_regex: bool) -> list[str] | None:
    """Every literal string a list of entries stands for, in order without repeats; None when one
    entry is not finite (``\\d+``): a reader then needs the regex itself."""
    out: list[str] = []
    for entry in entries:
        forms = literal_forms(entry, is_regex)
        if forms is None:
            return None
        out.extend(f for f in forms if f not in out)
    return out


def derived_fields(conv: Convention) -> dict[str, list[str] | None]:
    """``expected_forms`` and ``wrong_forms`` of a convention (DERIVED_SCHEMA)."""
    return {"expected_forms": forms_of(conv.expected_terms, conv.regex),
            "wrong_forms": forms_of(conv.wrong_variants, conv.regex)}


def conventions_frame(conventions: Iterable[Convention]) -> pl.DataFrame:
    """The Parquet layout (params as JSON text), with the derived literal forms after the fields."""
    schema = {**CONVENTIONS_SCHEMA, **DERIVED_SCHEMA}
    rows = []
    for conv in conventions:
        record = _record(conv)
        record["params"] = canonical_json(conv.params)
        record.update(derived_fields(conv))
        rows.append(record)
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def write_conventions(conventions: Sequence[Convention], path: Path) -> Path:
    """Write ``.jsonl`` (one object a line, ids included), ``.json`` or ``.parquet`` by suffix."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        atomic.write_with(path, conventions_frame(conventions).write_parquet)
    elif suffix in (".jsonl", ".json"):
        records = []
        for conv in conventions:
            record = _record(conv)
            record.update({k: v for k, v in conv.extra.items() if k not in record})
            records.append(record)
        if suffix == ".jsonl":
            text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        else:
            text = json.dumps(records, ensure_ascii=False, indent=1) + "\n"
        atomic.write_text(path, text)
    else:
        raise InputError(f"unsupported convention file type {suffix!r} (jsonl, json, parquet)", path=str(path))
    return path
