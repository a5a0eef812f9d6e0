"""The dedup key of a unit: sha256 over NFC, whitespace-collapsed language pair, source and target.

A light module (hashlib + unicodedata only) so reader worker processes can compute it next to the
parse, off the ingest's main process.
"""

from __future__ import annotations

import hashlib
import unicodedata


def _norm(text: str | None) -> str:
    if not text:
        return ""
    if not text.isascii():  # ASCII is already NFC; skipping the call halves the cost on English sources
        text = unicodedata.normalize("NFC", text)
    # Already collapsed texts (most) skip split+join, checked in C: every separator str.split() knows
    # except the ASCII space is non-printable (control characters, Zs/Zl/Zp).
    if text.isprintable() and "  " not in text and text[0] != " " and text[-1] != " ":
        return text
    return " ".join(text.split())


def unit_hash(src_lang_norm: str | None, tgt_lang_norm: str | None, source: str, target: str | None) -> str:
    """Hex sha256 of the normalised (src_lang_norm, tgt_lang_norm, source, target)."""
    joined = "\x1f".join((src_lang_norm or "", tgt_lang_norm or "", _norm(source), _norm(target)))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()
