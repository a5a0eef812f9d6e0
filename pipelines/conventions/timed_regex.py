"""Convention regexes whose every match is bounded in time.

Python's ``re`` backtracks and cannot be interrupted, so one pattern on one hostile output could
hang a run (``\\s+$`` against 100,000 spaces: 44.6 s; quadratic). Each pattern therefore runs on
one of two engines, chosen once per pattern:

- ``re`` (the SPEC's reference engine, and the faster one) when the work it can do per start
  position is bounded by the pattern alone (``per_start_cost``: no unbounded repeat except a final
  single-character one such as a trailing ``\\w+``, at most ``MAX_STEPS_PER_START`` paths × width)
  and the text is at most ``MAX_FAST_TEXT`` characters: such a search costs at most
  ``MAX_STEPS_PER_START × MAX_FAST_TEXT`` steps, so it is bounded without a clock;
- otherwise the ``regex`` package (``VERSION0``, its ``re``-compatible mode: same syntax, same
  meaning), with its per-call ``timeout``. A call that exceeds it raises ``RegexTimeout``, which the
  scorer records as an error item of the run — never a pass, never a hang.

A pattern that has timed out ``MAX_TIMEOUTS`` times is stopped: every later call raises its
``RegexTimeout`` at once (``stopped``), so a hostile convention costs a run a few seconds, not one
second per segment it applies to (60 hostile outputs took 100 s).

The cost rule is ours (hand-written: neither engine exposes a worst-case bound); it is
deliberately conservative: a pattern it cannot bound just takes the timed engine.
"""

from __future__ import annotations

import re
from functools import lru_cache
from re import _constants as C  # type: ignore[attr-defined]  # the stdlib parser's opcodes
from typing import Any, Iterator

import regex

from housestyle.pipelines.conventions.pattern_tree import parse_tree
from housestyle.pipelines.errors import HousestyleError

DEFAULT_TIMEOUT_S = 1.0  # per call; the regex package overshoots it by up to ~1 s under load
MAX_TIMEOUTS = 3  # timeouts of one pattern before it is stopped (not run on further texts)
MAX_STEPS_PER_START = 65_536  # paths × width: an overestimate (a greedy repeat scans its run once)
MAX_FAST_TEXT = 5_000  # longer texts always take the timed engine
_SINGLE = {C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY, C.CATEGORY}
_REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", C.MAX_REPEAT)}
_UNBOUNDED = None


class RegexTimeout(HousestyleError):
    """A convention regex did not finish within its time bound on one text."""

    def __init__(self, pattern: str, timeout: float, stopped: bool = False) -> None:
        self.pattern = pattern
        self.timeout = timeout
        self.stopped = stopped
        if stopped:
            message = (f"regex stopped after timing out {MAX_TIMEOUTS} times ({timeout:g} s each); not run on "
                       f"further texts: {pattern!r}")
        else:
            message = f"regex timed out after {timeout:g} s on this text: {pattern!r}"
        super().__init__(message)


def _cost(items: Any) -> tuple[int, int] | None:
    """(max width, paths) of a parsed sequence, or None when some repeat is unbounded."""
    width, paths = 0, 1
    for op, av in items:
        if op in _SINGLE:
            w, p = 1, 1
        elif op is C.AT:
            w, p = 0, 1
        elif op is C.SUBPATTERN:
            inner = _cost(av[-1])
            if inner is None:
                return None
            w, p = inner
        elif op is getattr(C, "ATOMIC_GROUP", None):
            inner = _cost(av)
            if inner is None:
                return None
            w, p = inner
        elif op is C.BRANCH:
            branches = [_cost(b) for b in av[1]]
            if any(b is None for b in branches):
                return None
            w = max(b[0] for b in branches if b is not None)
            p = sum(b[1] for b in branches if b is not None)
        elif op in _REPEATS:
            lo, hi, sub = av
            inner = _cost(sub)
            if inner is None or hi == C.MAXREPEAT:
                return None
            w = inner[0] * hi
            if inner[1] > 1 and hi > 16:
                return None  # an ambiguous body repeated many times: exponential in the count
            p = sum(inner[1] ** k for k in range(lo, hi + 1)) if inner[1] > 1 else hi - lo + 1
        elif op in (C.ASSERT, C.ASSERT_NOT):
            inner = _cost(av[1])
            if inner is None:
                return None
            w, p = 0, inner[1] * max(1, inner[0])
        else:  # back references, conditionals: not bounded by this rule
            return None
        width += w
        paths *= p
        if paths > MAX_STEPS_PER_START:
            return None
    return width, paths


def _tail_repeat(items: list[Any]) -> tuple[list[Any], bool]:
    """The sequence without a final single-character repeat of min ≤ 1 (``\\w+`` at the end of the
    pattern: it consumes its run once and the match then succeeds, so it costs nothing per start)."""
    if items:
        op, av = items[-1]
        if op in _REPEATS and av[0] <= 1 and len(av[2]) == 1 and av[2][0][0] in _SINGLE:
            return items[:-1], True
        if op is C.SUBPATTERN and not (av[1] or av[2]):  # a plain group at the end: look inside
            inner, found = _tail_repeat(list(av[-1]))
            if found:
                return items[:-1] + inner, True
    return items, False


@lru_cache(maxsize=65536)
def per_start_cost(pattern: str) -> int | None:
    """A bound on the backtracking steps of one match attempt, or None when there is none. Cached:
    a mining run builds each rule's pattern about three times (its passes, folds and precedence
    test: 15,741 patterns, 4,945 distinct on the demo TM), and parsing is half of building one."""
    parsed = list(parse_tree(pattern))
    body, _tail = _tail_repeat(parsed)
    cost = _cost(body)
    if cost is None:
        return None
    steps = cost[1] * (cost[0] + 1)
    return steps if steps <= MAX_STEPS_PER_START else None


@lru_cache(maxsize=32768)
def compiled_re(pattern: str) -> re.Pattern[str]:
    """``re.compile``, cached beyond ``re``'s own 512: a mining run scores each fold's rules, whose
    patterns are mostly the other fold's (6,085 compiles, ~4,000 distinct on the demo TM, ~1 s); a
    compiled pattern is immutable and ~1 KB (4,968 of the demo set's: 5 MB). Raises ``re.error``."""
    return re.compile(pattern)


class TimedPattern:
    """A compiled convention regex with ``search`` / ``finditer`` bounded in time (see module doc)."""

    __slots__ = ("pattern", "timeout", "_fast", "_probed", "_timed", "timeouts")

    def __init__(self, pattern: str, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.pattern = pattern
        self.timeout = timeout
        # Both engines compile on first use: the scorer runs a regex only on the rows holding its
        # required strings, and most of a set's never meet one (the held-out scoring of the demo
        # TM's folds built 4,523 patterns and ran 1,460: 2.7 s of compiling, two thirds for none).
        # So a bad pattern raises ``re.error`` when first run, not here; sets are validated on load.
        self._fast: re.Pattern[str] | None = None
        self._probed = False
        self._timed: Any = None
        self.timeouts = 0  # calls that timed out; at MAX_TIMEOUTS the pattern is stopped

    @property
    def fast(self) -> re.Pattern[str] | None:
        """The pattern compiled by ``re`` when its cost per start is bounded, else None (raises
        ``re.error``: the SPEC's syntax is Python re's)."""
        if not self._probed:
            compiled = compiled_re(self.pattern)
            self._fast = compiled if per_start_cost(self.pattern) is not None else None
            self._probed = True
        return self._fast

    def _timeout(self) -> RegexTimeout:
        self.timeouts += 1
        return RegexTimeout(self.pattern, self.timeout)

    def _check_stopped(self) -> None:
        if self.timeouts >= MAX_TIMEOUTS:
            raise RegexTimeout(self.pattern, self.timeout, stopped=True)

    @property
    def timed(self) -> Any:
        if self._timed is None:
            self._timed = regex.compile(self.pattern, flags=regex.VERSION0)
        return self._timed

    def search(self, text: str) -> Any:
        """The first match (``re.Match`` or ``regex.Match``: both have ``span``/``group``), or None."""
        if self.fast is not None and len(text) <= MAX_FAST_TEXT:
            return self.fast.search(text)
        self._check_stopped()
        try:
            return self.timed.search(text, timeout=self.timeout)
        except TimeoutError:
            raise self._timeout() from None

    def finditer(self, text: str) -> Iterator[Any]:
        """Every non-overlapping match, as ``re.finditer`` (the timed engine's are collected first,
        so the time bound covers the whole iteration)."""
        if self.fast is not None and len(text) <= MAX_FAST_TEXT:
            return self.fast.finditer(text)
        self._check_stopped()
        try:
            return iter(list(self.timed.finditer(text, timeout=self.timeout)))
        except TimeoutError:
            raise self._timeout() from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TimedPattern) and (self.pattern, self.timeout) == (other.pattern, other.timeout)

    def __hash__(self) -> int:
        return hash((self.pattern, self.timeout))

    def __repr__(self) -> str:
        return f"TimedPattern({self.pattern!r}, {'re' if self.fast is not None else 'timed'})"
