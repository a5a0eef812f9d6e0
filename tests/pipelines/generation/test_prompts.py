"""Prompt templates: versioned data files, both renderings, the three reference parts, literal braces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from housestyle.pipelines.errors import ConfigError, InputError
from housestyle.pipelines.generation.prompts import TEMPLATES, load_template, load_template_file


def test_every_registered_template_loads_with_name_and_version() -> None:
    for name in TEMPLATES:
        tpl = load_template(name)
        assert tpl.name == name and tpl.version >= 1 and len(tpl.sha256) == 64
        assert tpl.signature.startswith(f"template:{name}@{tpl.version}|sha:")


def test_translate_fewshot_completion_and_chat() -> None:
    tpl = load_template("translate")
    prompt = tpl.render({"source": "Use {braces} and $dollars.", "src_lang": "en", "tgt_lang": "fr"})
    assert prompt.text.startswith("Translate English into French.\n\n")
    assert prompt.text.endswith("English: Use {braces} and $dollars.\nFrench:")
    assert prompt.text.count("English: ") == 4  # three examples + the query
    assert prompt.stop == ("\n",) and prompt.template == "translate" and prompt.version == tpl.version
    roles = [m["role"] for m in prompt.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user", "assistant", "user"]
    assert prompt.messages[-1]["content"] == "Use {braces} and $dollars."


def test_unknown_pair_has_no_examples_but_still_renders() -> None:
    prompt = load_template("translate").render({"source": "Hallo", "src_lang": "de", "tgt_lang": "it"})
    assert prompt.text == "Translate German into Italian.\n\nGerman: Hallo\nItalian:"


def test_references_three_parts_ground_truth_only_when_given() -> None:
    tpl = load_template("references")
    base = {"source": "我们明天见。", "src_lang": "zh", "tgt_lang": "en", "n": 10}
    without = tpl.render(base)
    with_truth = tpl.render({**base, "ground_truth": "See you tomorrow."})
    user_without = without.messages[-1]["content"]
    user_with = with_truth.messages[-1]["content"]
    assert "in 10 different ways" in user_without and "See you tomorrow." not in user_without
    assert user_with.startswith(user_without) and user_with.endswith("See you tomorrow.")
    assert without.messages[0]["role"] == "system" and "Principles" in without.messages[0]["content"]
    assert without.text.endswith("Chinese: 我们明天见。\nEnglish translations:\n1.")
    assert "Approved translation: See you tomorrow.\nEnglish translations:\n1." in with_truth.text
    assert "1. The meeting has been moved" in without.text  # few-shot example as a numbered list


def test_input_hash_covers_variables_not_id() -> None:
    tpl = load_template("translate")
    a = tpl.request("x", {"source": "Hi", "src_lang": "en", "tgt_lang": "fr"})
    b = tpl.request("y", {"source": "Hi", "src_lang": "en", "tgt_lang": "fr"})
    c = tpl.request("x", {"source": "Hi", "src_lang": "en", "tgt_lang": "de"})
    assert a.input_hash == b.input_hash != c.input_hash


def test_bad_templates_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown prompt template"):
        load_template("nope")
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x", "version": 0, "task": "t", "completion": {"query": ""}, "chat": {"user": {}}}')
    with pytest.raises(InputError, match="bad.json.*version"):
        load_template_file(bad)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(InputError, match="broken.json: invalid JSON"):
        load_template_file(broken)
    data = json.loads(load_template("translate").path.read_text(encoding="utf-8"))
    del data["chat"]
    lacking = tmp_path / "lacking.json"
    lacking.write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"lacks field\(s\) \['chat'\]"):
        load_template(lacking)
