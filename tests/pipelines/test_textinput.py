"""Fault suite for text inputs (issue 26 parts 6-7): undecodable bytes, nesting too deep and YAML alias
bombs give one InputError naming the file (and line), in well under a second, not a traceback or GBs."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.rules.io import load_authored, load_conventions
from housestyle.pipelines.errors import ConventionError, InputError
from housestyle.pipelines.segments import load_segments
from housestyle.pipelines.textinput import text_lines, yaml_value

ROW = '{"dimension": "term:x", "rule": "term", "src": "x", "expected_terms": ["y"]'


def _yaml_bomb(levels: int = 9) -> str:
    """The 'billion laughs' shape: each level a mapping of nine aliases of the level below."""
    lines = ["a: &a {" + ", ".join(f"k{j}: lol" for j in range(9)) + "}"]
    names = "abcdefghijklmnop"
    for i in range(1, levels):
        lines.append(f"{names[i]}: &{names[i]} {{" + ", ".join(f"k{j}: *{names[i - 1]}" for j in range(9)) + "}")
    lines.append(f'conventions:\n- {{dimension: "term:x", rule: term, src: x, expected_terms: [y], params: *{names[levels - 1]}}}')
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "content", "where"), [
    ("sys.jsonl", b'{"id": "1", "text": "ok"}\n{"id": "2", "text": "bad \xff"}\n', "sys.jsonl:2: not UTF-8: byte 0xFF"),
    ("sys.tsv", b"id\ttext\n1\tok\n2\tbad \xc3 byte\n", "sys.tsv:3: not UTF-8: byte 0xC3 at column 7"),
    ("sys.jsonl", b"[" * 200_000 + b"]" * 200_000 + b"\n", "sys.jsonl:1: JSON nested too deep"),
])
def test_segment_files_fail_in_one_line(tmp_path: Path, name: str, content: bytes, where: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        load_segments(path)
    assert str(info.value).startswith(str(path.parent / where)) and "\n" not in str(info.value)


def test_text_lines_keep_newlines_and_drop_the_bom(tmp_path: Path) -> None:
    path = tmp_path / "a.tsv"
    path.write_bytes("\ufeffid\ttext\r\n1\tcafé\r".encode())
    assert list(text_lines(path, newline="")) == [(1, "id\ttext\r\n"), (2, "1\tcafé\r")]


@pytest.mark.parametrize(("name", "content", "error", "message"), [
    ("c.jsonl", ROW + ', "params": ' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}\n", InputError,
     "c.jsonl:1: JSON nested too deep"),
    ("c.jsonl", ROW + ', "params": "' + '{\\"a\\": ' * 100_000 + "1" + "}" * 100_000 + '"}\n', ConventionError,
     "params nested too deep"),
    ("c.jsonl", ROW + ', "params": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}\n", ConventionError,
     "params nested deeper than 16 levels"),
    ("c.json", "[" * 200_000 + "]" * 200_000, InputError, "c.json: JSON nested too deep"),
    ("c.jsonl", (ROW + "}\n").encode().replace(b"term:x", b"term:\xe9") , InputError, "c.jsonl:1: not UTF-8: byte 0xE9"),
    ("c.yaml", _yaml_bomb(), InputError, "YAML aliases expand to more than 100,000 extra nodes"),
    ("c.yaml", "conventions: &a [*a]\n", InputError, "refer to themselves"),
    ("c.yaml", "[" * 5_000 + "]" * 5_000, InputError, "c.yaml: YAML nested too deep"),
])
def test_convention_files_fail_in_one_line(tmp_path: Path, name: str, content: str | bytes,
                                           error: type[Exception], message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(error) as info:
        load_conventions(path, regex_guard=False)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_yaml_with_a_few_shared_aliases_still_loads(tmp_path: Path) -> None:
    text = "terms: &t [masse d'air]\nconventions:\n" + "".join(
        f"- {{dimension: 'term:a{i}', rule: term, src: a{i}, expected_terms: *t}}\n" for i in range(50))
    assert len(yaml_value(text, path="x.yaml")["conventions"]) == 50
    path = tmp_path / "ok.yaml"
    path.write_text(text, encoding="utf-8")
    assert [c.expected_terms for c in load_conventions(path, regex_guard=False)][0] == ["masse d'air"]


def test_authored_folder_takes_only_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(_yaml_bomb(), encoding="utf-8")
    with pytest.raises(InputError, match=r"rules.yaml: not read: authored conventions are \*.jsonl files"):
        load_authored(path)
    good = tmp_path / "rules.jsonl"
    good.write_text(ROW + "}\n", encoding="utf-8")
    assert [c.src for c in load_authored(good)] == ["x"]
