"""Parse N candidate references out of one model answer, robustly, recording what was dropped.

Models answer "a numbered list" in many ways: ``1.``/``1)``/``(1)``/``1:`` or bullets, a preamble
("Here are ten translations:"), notes after the list, quotes or ``**bold**`` around items, the same
item twice, more or fewer than asked, the last item cut at max_tokens. Every line that does not
become a candidate is kept in ``dropped`` with its reason, so a weak generator's failure modes are
visible instead of silently shrinking the reference set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ITEM_RE = re.compile(r"^\s*(?:\(?(\d{1,3})\s*[.)\]:\-–]|[-*•·])\s*(.*)$")
_WRAP_PAIRS = (('"', '"'), ("“", "”"), ("«", "»"), ("'", "'"), ("‘", "’"), ("「", "」"))
_SPACES = re.compile(r"\s+")


@dataclass(slots=True)
class Parsed:
    candidates: list[str] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (text, reason)

    def drop(self, text: str, reason: str) -> None:
        self.dropped.append((text, reason))


def _clean(text: str) -> str:
    text = text.strip().replace("**", "").replace("__", "").strip()
    for left, right in _WRAP_PAIRS:
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            text = text[len(left):-len(right)].strip()
    return text


def _key(text: str) -> str:
    return _SPACES.sub(" ", text).strip().casefold()


def parse_candidates(raw: str, n: int, *, prefix: str = "", source: str | None = None,
                     ground_truth: str | None = None, truncated: bool = False) -> Parsed:
    """Up to ``n`` distinct candidates from ``prefix + raw`` (the prompt may end with ``1.``).

    Lines before the first list item are a preamble, lines after it that are not items are stray
    text (both dropped); without any list marker every non-empty line is an item. ``truncated``
    (the answer hit max_tokens) drops the last item, which may be cut mid-sentence."""
    lines = [line for line in (prefix + raw).splitlines() if line.strip()]
    marked = [bool(_ITEM_RE.match(line)) for line in lines]
    out = Parsed()
    items: list[str] = []
    seen_item = False
    for line, is_item in zip(lines, marked):
        if not any(marked):
            items.append(line)
            continue
        if is_item:
            match = _ITEM_RE.match(line)
            items.append(match.group(2) if match else line)
            seen_item = True
        else:
            out.drop(line.strip(), "stray text" if seen_item else "preamble")
    if truncated and items:
        out.drop(items.pop().strip(), "truncated at max_tokens")
    seen: set[str] = set()
    forbidden = {_key(t): reason for t, reason in ((source, "copy of the source"),
                                                   (ground_truth, "copy of the ground truth")) if t}
    for item in items:
        text = _clean(item)
        key = _key(text)
        if not text:
            out.drop(item, "empty")
        elif key in forbidden:
            out.drop(text, forbidden[key])
        elif key in seen:
            out.drop(text, "duplicate")
        elif len(out.candidates) >= n:
            out.drop(text, f"beyond the {n} asked for")
        else:
            seen.add(key)
            out.candidates.append(text)
    return out
