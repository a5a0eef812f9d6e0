"""The UI renders asset descriptions as Markdown: a bare ``<client>`` is read as an HTML tag and
vanishes (``inbox//conventions/``). Placeholders in angle brackets must sit in a code span."""

from __future__ import annotations

import re

from housestyle.assets.definitions import defs

BARE_TAG = re.compile(r"<[a-z_]+>")


def _outside_code(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)


def test_no_asset_description_hides_a_placeholder_as_html() -> None:
    graph = defs.resolve_asset_graph()
    bad = {key.to_user_string(): BARE_TAG.findall(_outside_code(graph.get(key).description or ""))
           for key in graph.get_all_asset_keys()}
    assert {k: v for k, v in bad.items() if v} == {}
    assert "`inbox/<client>/conventions/`" in (graph.get(next(k for k in graph.get_all_asset_keys()
                                                            if k.to_user_string() == "convention_set")).description or "")
