"""A convention turned into matchers once: folded literals, compiled regexes, the src trigger.

Both the reference checker (``housestyle.pipelines.scoring.check``) and the fast engine use these objects, so
the two paths cannot disagree about what a string *is* after folding.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from housestyle.pipelines.conventions.folding import fold_term, fold_with_map
from housestyle.pipelines.conventions.matching import find_plain, find_regex
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.timed_regex import TimedPattern


@dataclass(frozen=True, slots=True)
class Entry:
    """One expected string, wrong variant or trigger: a plain string (folded) or a regex (as written;
    every match bounded in time, ``timed_regex``: a search may raise ``RegexTimeout``)."""

    raw: str
    mode: str
    folded: str | None = None
    pattern: TimedPattern | None = None

    @property
    def is_regex(self) -> bool:
        return self.pattern is not None

    def find(self, folded_text: str, *, first_only: bool = False, raw: str | None = None) -> list[tuple[int, int]]:
        """Spans in already-folded text (folded with ``self.mode``). ``raw``, the unfolded text, tells
        a hyphen from a dash the fold wrote as one (word boundaries, see ``matching.raw_hyphen``)."""
        if self.pattern is not None:
            return find_regex(folded_text, self.pattern, first_only=first_only)
        return find_plain(folded_text, self.folded or "", first_only=first_only, raw=raw, mode=self.mode)

    def present(self, folded_text: str, raw: str | None = None) -> bool:
        return bool(self.find(folded_text, first_only=True, raw=raw))


def make_entry(text: str, mode: str, regex: bool) -> Entry:
    """Regexes apply as written to folded text; plain strings are folded like the text."""
    if regex:
        return Entry(text, mode, pattern=TimedPattern(text))
    return Entry(text, mode, folded=fold_term(text, mode))


@dataclass(slots=True)
class Compiled:
    """A convention ready to match. ``prepared`` holds the rule module's parsed ``params``."""

    conv: Convention
    mode: str
    trigger_mode: str
    trigger: Entry | None
    expected: tuple[Entry, ...]
    wrong: tuple[Entry, ...]
    prepared: Any = field(default=None)

    def triggered(self, source: str) -> bool:
        """Whether the ``src`` trigger holds for this source (always, when there is no ``src``)."""
        if self.trigger is None:
            return True
        return self.trigger.present(fold_with_map(source, self.trigger_mode).text, source)


def compile_generic(conv: Convention) -> Compiled:
    """The rule-independent part. A bad regex raises ``re.error`` when first run (``TimedPattern``
    compiles on first use); validation reports it before that."""
    mode = conv.match_mode
    trigger_mode = conv.trigger_mode
    trigger = None if conv.src is None else make_entry(conv.src, trigger_mode, conv.src_regex)
    return Compiled(
        conv=conv,
        mode=mode,
        trigger_mode=trigger_mode,
        trigger=trigger,
        expected=tuple(make_entry(t, mode, conv.regex) for t in conv.expected_terms),
        wrong=tuple(make_entry(t, mode, conv.regex) for t in conv.wrong_variants),
    )
