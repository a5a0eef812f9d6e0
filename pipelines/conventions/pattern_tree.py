"""One parse of a regex for every reader of its tree (validation, the slow-pattern guard, the
prefilter's factors, the timed engine's probe).

Why: each of them called ``re._parser.parse`` on its own, so a set's regex was parsed five times
before ``re.compile`` parsed it again; with the miner's boundary lookarounds (~200 characters a rule)
parsing became most of the time a scoring run spends loading a mined set. The tree is only read
(``getwidth`` caches its width in it, the same for every reader), so one cached parse serves all.
"""

from __future__ import annotations

from functools import lru_cache
from re import _parser as sre  # type: ignore[attr-defined]  # no public API exposes the parse tree
from typing import Any


# A few hundred trees: a pattern's readers ask for its tree one after the other, and what they derive
# from it is cached by each of them (``per_start_cost``, ``compiled_re``, the factors), so a tree is not
# asked for again once its rule is compiled. A tree is ~10 KB (4,988 of the demo set's: 49 MiB); held
# for 65,536 patterns, a 1M-unit mining run kept its first fold's ~14,000 trees through the next fold.
PARSE_TREES_HELD = 256


@lru_cache(maxsize=PARSE_TREES_HELD)
def parse_tree(pattern: str) -> Any:
    """``re._parser.parse(pattern)``, cached (raises ``re.error`` like it; errors are not cached)."""
    return sre.parse(pattern)
