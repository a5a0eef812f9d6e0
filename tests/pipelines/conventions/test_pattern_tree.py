"""The parse-tree cache (pipelines/conventions/pattern_tree.py) holds only a few hundred trees: that is
safe because every reader of a tree caches what it derives, so compiling rules again never parses."""

from __future__ import annotations

from pathlib import Path

from housestyle.pipelines.conventions.pattern_tree import PARSE_TREES_HELD, parse_tree
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.rules.registry import compile_convention

ROOT = Path(__file__).resolve().parents[3]
SETS = [ROOT / "inbox/demo/conventions/authored.jsonl", ROOT / "tests/fixtures/contrast/rules.jsonl",
        ROOT / "tests/fixtures/scoring/adoption/set.jsonl"]


def test_compiling_rules_again_parses_no_pattern_again() -> None:
    rules = [rule for path in SETS for rule in load_conventions(path)]
    assert sum(1 for rule in rules if rule.regex or rule.src_regex) >= 10
    for rule in rules:
        compile_convention(rule)
    parse_tree.cache_clear()
    for rule in rules:
        compile_convention(rule)
    assert parse_tree.cache_info().misses == 0


def test_the_cache_is_bounded() -> None:
    parse_tree.cache_clear()
    for k in range(PARSE_TREES_HELD + 50):
        parse_tree(f"(?<!\\w)word{k}(?!\\w)")
    assert parse_tree.cache_info().currsize == PARSE_TREES_HELD
