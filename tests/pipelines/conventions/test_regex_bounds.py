"""Fault suite, regex time (issue 26 part 6): lookaround bodies are probed at load, and at run time a
pattern that keeps timing out is stopped instead of costing its timeout on every text."""

from __future__ import annotations

import time

import pytest

from housestyle.pipelines.conventions.regex_guard import lookaround_bodies, slow_patterns
from housestyle.pipelines.conventions.timed_regex import MAX_TIMEOUTS, RegexTimeout, TimedPattern


def test_lookaround_bodies_are_found_through_escapes_and_classes() -> None:
    assert lookaround_bodies(r"q(?=(a|aa)+$)") == ["(a|aa)+$"]
    assert lookaround_bodies(r"(?<![\w)])x\(?!(?!\()(?=[(]y)") == [r"[\w)]", r"\(", "[(]y"]


def test_catastrophic_backtracking_inside_a_lookahead_is_refused() -> None:
    slow = slow_patterns([r"q(?=(a|aa)+$)", r"\bair\b(?=\s)"], timeout=0.2)
    assert list(slow) == [r"q(?=(a|aa)+$)"] and "in its lookaround '(a|aa)+$'" in slow[r"q(?=(a|aa)+$)"]


def test_a_pattern_that_keeps_timing_out_is_stopped() -> None:
    pattern = TimedPattern(r"q(?=(a|aa)+$)", timeout=0.05)
    hostile = "q" + "a" * 3000 + "!"
    for _ in range(MAX_TIMEOUTS):
        with pytest.raises(RegexTimeout) as info:
            pattern.search(hostile)
        assert not info.value.stopped
    started = time.monotonic()
    for _ in range(50):
        with pytest.raises(RegexTimeout, match="stopped after timing out 3 times") as info:
            pattern.finditer(hostile)
        assert info.value.stopped
    assert time.monotonic() - started < 0.5  # not run again: no timeout paid per text
    with pytest.raises(RegexTimeout, match="stopped"):
        pattern.search("qa!")  # stopped means stopped, also on an easy text


def test_the_prefilter_takes_a_regex_of_many_alternatives() -> None:
    """One regex of 20,000 alternatives (200,000 took over 300 s when each union copied the set so
    far). No timed assertion: a quadratic regression shows as this test's duration in the suite's
    --durations report, not as a flaky failure on a loaded machine."""
    from housestyle.pipelines.conventions.factors import literal_forms, required_factors

    n = 20_000
    pattern = "(?:" + "|".join(f"w{i}x" for i in range(n)) + ")"
    assert len(required_factors(pattern) or ()) == n and literal_forms(pattern, True) is None
