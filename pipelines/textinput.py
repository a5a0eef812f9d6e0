"""The one reader of line-based text inputs (JSONL, TSV, JSON, YAML): hostile bytes become one error.

Why one helper: every command that reads a JSONL or TSV file must turn an undecodable byte or a
document nested too deep for the parser into an ``InputError`` naming the file and line (the CLI
prints one line, exit 2) instead of a ``UnicodeDecodeError`` / ``RecursionError`` traceback.

Bytes are decoded with ``surrogateescape`` so the file is read as a stream (universal newlines, as
before) and a line holding an escaped byte is refused at that line: strict UTF-8 never yields a lone
surrogate, so any surrogate in a decoded line is a byte that was not UTF-8. A UTF-8 byte order mark
(which Windows editors write) is not part of the first line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import yaml

from housestyle.pipelines.errors import InputError

_ESCAPED = re.compile("[\ud800-\udfff]")
# YAML aliases may add this many nodes beyond the document's own (a "billion laughs" file of 1.3 KB
# names 10^9); a hand-written conventions file with a few shared lists stays far below it.
YAML_MAX_ALIAS_NODES = 100_000


def _not_utf8(path: Path, number: int, line: str) -> InputError:
    found = _ESCAPED.search(line)
    column = 0 if found is None else found.start() + 1
    byte = "" if found is None else f" 0x{ord(found.group()) - 0xDC00:02X}"
    return InputError(f"not UTF-8: byte{byte} at column {column}", path=str(path), location=number)


def text_lines(path: Path, *, newline: str | None = None) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a UTF-8 text file, BOM dropped; ``newline`` as for ``open``.
    Raises InputError(path:line) at the first line holding a byte that is not UTF-8."""
    with Path(path).open(encoding="utf-8-sig", errors="surrogateescape", newline=newline) as handle:
        for number, line in enumerate(handle, start=1):
            if _ESCAPED.search(line):
                raise _not_utf8(path, number, line)
            yield number, line


def read_text(path: Path) -> str:
    """A whole UTF-8 text file (BOM dropped); an undecodable byte is an InputError naming its line."""
    text = Path(path).read_text(encoding="utf-8-sig", errors="surrogateescape")
    found = _ESCAPED.search(text)
    if found is not None:
        number = text.count("\n", 0, found.start()) + 1
        line = text[text.rfind("\n", 0, found.start()) + 1:found.start() + 1]
        raise _not_utf8(path, number, line)
    return text


def json_value(text: str, *, path: Path | str, location: int | str | None = None) -> Any:
    """``json.loads`` whose errors name the place: invalid JSON, or nesting too deep to decode."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = location if location is not None else exc.lineno
        raise InputError(f"invalid JSON: {exc.msg} (column {exc.colno})", path=str(path), location=where) from None
    except RecursionError:
        raise InputError("JSON nested too deep", path=str(path), location=location) from None


def _expanded_nodes(root: yaml.Node, limit: int) -> int | None:
    """Nodes of the document with every alias expanded, or None once past ``limit`` (or on a cycle).
    Sizes are memoised per node, so a shared node is measured once: linear in the file."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        if done:
            on_path.discard(key)
            sizes[key] = 1 + sum(sizes[id(c)] for c in children)
            if sizes[key] > limit:
                return None
            continue
        if key in sizes:
            continue
        if key in on_path:
            return None  # a recursive alias: infinite when expanded
        on_path.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)]


def _distinct_nodes(root: yaml.Node) -> int:
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in node.value for n in pair)
    return len(seen)


def yaml_value(text: str, *, path: Path | str) -> Any:
    """``yaml.safe_load`` bounded: aliases may not expand the document by more than
    ``YAML_MAX_ALIAS_NODES`` nodes (refused before anything is built), nesting too deep is refused."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        distinct = _distinct_nodes(node)
        if _expanded_nodes(node, distinct + YAML_MAX_ALIAS_NODES) is None:
            raise InputError(f"YAML aliases expand to more than {YAML_MAX_ALIAS_NODES:,} extra nodes (or refer to "
                             "themselves): refused", path=str(path))
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(f"invalid YAML: {exc}".replace("\n", " "), path=str(path),
                         location=None if mark is None else mark.line + 1) from None
    except RecursionError:
        raise InputError("YAML nested too deep", path=str(path)) from None
    finally:
        loader.dispose()


def too_deep(value: Any, limit: int) -> bool:
    """Whether a decoded JSON/YAML value nests lists/objects deeper than ``limit`` (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False
