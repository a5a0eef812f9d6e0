"""Refuse regular expressions that are catastrophically slow, before they meet a million segments.

Python's ``re`` backtracks and cannot be interrupted from another thread, so a bad pattern would
hang a scoring run. Two guards, both applied at load time:

1. Static (deterministic, instant): reject *nested unbounded quantifiers* — a repeat with an
   upper bound > 1 inside another unbounded repeat, e.g. ``(a+)+``, ``(\\w+\\s?)*``. This is the
   classic cause of exponential backtracking (star height ≥ 2). Possessive quantifiers and atomic
   groups (``a++``, ``(?>…)``, Python ≥ 3.11) do not backtrack and are allowed.
2. Bounded run (catches what the static rule misses, e.g. ambiguous alternations ``(a|ab)*`` or
   polynomial blow-ups): each pattern is run in a *separate process* on adversarial strings built
   from its own characters (short strings for exponential, long ones for polynomial behaviour);
   a pattern that does not finish within ``timeout`` seconds is refused. A subprocess is the only
   way to stop a runaway ``re`` search safely.
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
from re import _constants as C  # type: ignore[attr-defined]  # the stdlib parser's opcodes
from re import _parser as sre  # type: ignore[attr-defined]  # no public API exposes the parse tree
from typing import Any

_REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT}
_NON_BACKTRACKING = {getattr(C, "POSSESSIVE_REPEAT", None), getattr(C, "ATOMIC_GROUP", None)} - {None}


def _can_match_nonempty(sub: Any) -> bool:
    return bool(sub.getwidth()[1] > 0)


def _walk(items: Any, inside_unbounded: bool) -> str | None:
    """Return a description of the first nested quantifier found, else None."""
    for op, av in items:
        if op in _REPEATS:
            lo, hi, sub = av
            unbounded = hi == C.MAXREPEAT or hi > 64
            if inside_unbounded and hi > 1 and _can_match_nonempty(sub):
                return "nested quantifier (a repeated group containing another repeat)"
            found = _walk(sub, inside_unbounded or unbounded)
            if found:
                return found
        elif op in _NON_BACKTRACKING:
            continue  # no backtracking into it
        elif op is C.SUBPATTERN:
            found = _walk(av[-1], inside_unbounded)
            if found:
                return found
        elif op is C.BRANCH:
            for alt in av[1]:
                found = _walk(alt, inside_unbounded)
                if found:
                    return found
        elif op in (C.ASSERT, C.ASSERT_NOT):
            found = _walk(av[1], inside_unbounded)
            if found:
                return found
        elif op is C.GROUPREF_EXISTS:
            for part in av[1:]:
                if part is not None:
                    found = _walk(part, inside_unbounded)
                    if found:
                        return found
    return None


def static_problem(pattern: str) -> str | None:
    """Why ``pattern`` is statically unsafe, or None. Assumes the pattern compiles."""
    return _walk(sre.parse(pattern), False)


def min_width(pattern: str) -> int:
    """The shortest match length (0 means the pattern can match the empty string)."""
    return int(sre.parse(pattern).getwidth()[0])


# The child process: for each pattern, search adversarial strings, print the index when done.
_CHILD = r"""
import json, re, sys
patterns = json.load(sys.stdin)
sys.stdout.write("ready\n")
sys.stdout.flush()
for i, p in enumerate(patterns):
    rx = re.compile(p)
    chars = sorted(set(c for c in p if c.isprintable() and c not in "\\()[]{}|*+?.^$"))[:10]
    chars += ["a", "0", " ", "\u00a0", "x"]
    probes = []
    for c in chars:
        probes += [c * 28 + "\x00", c * 3000 + "\x00"]
    probes += ["".join(chars) * 40 + "\x00", "".join(chars) * 400 + "\x00"]
    for pair in zip(chars, chars[1:]):
        probes.append("".join(pair) * 20 + "\x00")
    for s in probes:
        rx.search(s)
    sys.stdout.write(f"{i}\n")
    sys.stdout.flush()
"""


def slow_patterns(patterns: list[str], timeout: float = 1.0) -> dict[str, str]:
    """Run each pattern on adversarial input in a child process; return {pattern: reason} for the
    ones that did not finish in ``timeout`` seconds (the first slow one stops the probe; the rest
    are probed again in a fresh process)."""
    slow: dict[str, str] = {}
    pending = list(dict.fromkeys(patterns))
    while pending:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _CHILD],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(pending))
        proc.stdin.close()
        lines: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout

        def pump() -> None:
            for line in stdout:
                lines.put(line)
            lines.put("")

        threading.Thread(target=pump, daemon=True).start()
        done = -1  # the child first says "ready" (interpreter start-up is not the pattern's fault)
        stuck: int | None = None
        while done < len(pending):
            try:
                line = lines.get(timeout=timeout if done >= 0 else 30.0)
            except queue.Empty:
                stuck = max(done, 0)
                break
            if not line:
                stuck = max(done, 0)  # child died (e.g. RecursionError): refuse that pattern
                break
            done += 1
        proc.kill()
        proc.wait()
        proc.stdout.close()
        if stuck is None:
            break
        slow[pending[stuck]] = f"did not finish within {timeout:g} s on adversarial input"
        pending = pending[stuck + 1:]
    return slow


def compile_problem(pattern: str) -> str | None:
    """Why ``pattern`` does not compile as a Python regex, or None."""
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        return f"regex does not compile: {exc}"
    return None
