"""unit_hash: its fast paths (already-collapsed text) give exactly the NFC + split/join definition."""

from __future__ import annotations

import hashlib
import random
import unicodedata

from housestyle.pipelines.unit_hash import unit_hash


def reference(src: str | None, tgt: str | None, source: str, target: str | None) -> str:
    def norm(text: str | None) -> str:
        return " ".join(unicodedata.normalize("NFC", text).split()) if text else ""

    joined = "\x1f".join((src or "", tgt or "", norm(source), norm(target)))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()


def test_fast_paths_equal_the_definition() -> None:
    rng = random.Random(7)
    alphabets = [
        [chr(i) for i in range(128)],  # every ASCII character, controls included
        list(" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2003\u2028\u202f\u3000ab.é\u0301e\u00e9"),
    ]
    for _ in range(20_000):
        chars = rng.choice(alphabets)
        source = "".join(rng.choice(chars) for _ in range(rng.randint(0, 8)))
        target = "".join(rng.choice(chars) for _ in range(rng.randint(1, 8)))
        assert unit_hash("en", "fr", source, target) == reference("en", "fr", source, target), (source, target)
    assert unit_hash(None, "fr", "", None) == reference(None, "fr", "", None)


def test_known_value() -> None:
    assert unit_hash("en", "fr", "  Wash   your hands. ", "Cafe\u0301") == reference("en", "fr", "Wash your hands.", "Café")
