"""Deterministic synthetic TMX for the ingest benchmark (not test data: generated into tests/bench/_data/).

Realistic shape: sentence lengths ~ log-normal (median ~14 words, long tail to ~80), pseudo-words
with accented target letters, ~25% of units with inline codes (bpt/ept pairs, ph, occasionally it),
tu attributes (tuid, dates, creationid), 1-2 props (x-domain, x-project), a note on ~10%, and ~2%
exact repeats (so duplicate marking has work to do). Usage:
``python -m tests.bench.gen_tmx OUT.tmx N``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

_SYLLABLES = ["ka", "to", "ri", "en", "la", "mo", "st", "pre", "con", "ti", "on", "de", "ver", "al", "un",
              "sa", "ne", "ly", "im", "ber", "qu", "ho", "ze", "pa", "li", "mar", "ter", "is", "ar", "ou"]
_ACCENTED = {"e": "é", "a": "à", "o": "ô", "u": "ù", "i": "î"}
_DOMAINS = ["medical", "legal", "software", "marketing", "finance"]


def _word(rng: random.Random, target: bool) -> str:
    word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 4)))
    if target and rng.random() < 0.3:
        i = rng.randrange(len(word))
        word = word[:i] + _ACCENTED.get(word[i], word[i]) + word[i + 1:]
    return word


def _sentence(rng: random.Random, n_words: int, target: bool, codes: list[str]) -> str:
    words = [_word(rng, target) for _ in range(n_words)]
    words[0] = words[0].capitalize()
    out: list[str] = []
    pending = list(codes)
    for i, w in enumerate(words):
        if pending and rng.random() < 0.2:
            code = pending.pop()
            if code.startswith("b"):
                out.append(f'<bpt i="{code[1:]}" x="{code[1:]}" type="bold">&lt;b&gt;</bpt>{w}<ept i="{code[1:]}">&lt;/b&gt;</ept>')
                continue
            if code.startswith("p"):
                out.append(f'<ph x="{code[1:]}" type="x-placeholder">{{{code[1:]}}}</ph> {w}')
                continue
            out.append(f'<it pos="begin" x="{code[1:]}">&lt;i&gt;</it>{w}')
            continue
        out.append(w)
    for code in pending:
        out.append(f'<ph x="{code[1:]}" type="x-placeholder">{{{code[1:]}}}</ph>')
    return " ".join(out) + rng.choice([".", ".", ".", "?", "!", ":"])


def _tu(rng: random.Random, index: int) -> str:
    n = max(2, min(80, int(rng.lognormvariate(2.6, 0.6))))
    codes: list[str] = []
    if rng.random() < 0.25:
        codes = [rng.choice(["b", "b", "p", "i"]) + str(k) for k in range(1, rng.randint(2, 4))]
    state = rng.getstate()
    source = _sentence(rng, n, False, codes)
    rng.setstate(state)  # target mirrors the source's code positions
    target = _sentence(rng, n + rng.randint(0, 3), True, codes)
    day = 1 + index % 28
    props = f'<prop type="x-domain">{rng.choice(_DOMAINS)}</prop>'
    if rng.random() < 0.5:
        props += f'<prop type="x-project">P{rng.randint(1, 400)}</prop>'
    note = f"<note>Reviewed by linguist {rng.randint(1, 30)}</note>" if rng.random() < 0.1 else ""
    return (f'<tu tuid="u{index}" creationdate="202301{day:02d}T101500Z" changedate="202302{day:02d}T080000Z" '
            f'creationid="user{index % 17}">\n  {props}{note}\n'
            f'  <tuv xml:lang="en-US"><seg>{source}</seg></tuv>\n'
            f'  <tuv xml:lang="fr-FR"><seg>{target}</seg></tuv>\n</tu>\n')


def write_tmx(path: Path, head: str, units: Iterable[str]) -> Path:
    """Write ``head`` (everything up to and including ``<body>``), the ``<tu>`` strings in chunks
    of 10,000 (a 1M-unit file never sits in memory), and the closing tags."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(head)
        units = iter(units)
        while chunk := list(islice(units, 10_000)):
            out.write("".join(chunk))
        out.write("</body>\n</tmx>\n")
    return path


def write_synthetic_tmx(path: Path, n_units: int, seed: int = 13) -> Path:
    """Write ``n_units`` units (same seed -> same file; a smaller N is a prefix of a larger one)."""
    rng = random.Random(seed)
    recent: list[str] = []

    def units() -> Iterator[str]:
        for i in range(n_units):
            if recent and rng.random() < 0.02:
                yield recent[rng.randrange(len(recent))].replace('tuid="u', f'tuid="r{i}-u', 1)
                continue
            tu = _tu(rng, i)
            if len(recent) < 1000:
                recent.append(tu)
            yield tu

    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
            '<header creationtool="housestyle-bench" creationtoolversion="1" segtype="sentence" '
            'o-tmf="synthetic" adminlang="en" srclang="en-US" datatype="plaintext"/>\n<body>\n')
    return write_tmx(path, head, units())


if __name__ == "__main__":
    write_synthetic_tmx(Path(sys.argv[1]), int(sys.argv[2]))
