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
    # Already collapsed texts (most) skip split+join, checked in C at a fraction of its cost: every
    # separator str.split() knows except the ASCII space is a control character or non-printable.
    if text.isascii():  # ASCII is already NFC; its only separators besides " " are \t\n\v\f\r\x1c-\x1f
        if (text[0] != " " and text[-1] != " " and "  " not in text and "\n" not in text and "\t" not in text
                and "\r" not in text and "\x0b" not in text and "\x0c" not in text and "\x1c" not in text
                and "\x1d" not in text and "\x1e" not in text and "\x1f" not in text):
            return text
        return " ".join(text.split())
    text = unicodedata.normalize("NFC", text)
    if text.isprintable() and "  " not in text and text[0] != " " and text[-1] != " ":
        return text
    return " ".join(text.split())


def unit_hash(src_lang_norm: str | None, tgt_lang_norm: str | None, source: str, target: str | None) -> str:
    """Hex sha256 of the normalised (src_lang_norm, tgt_lang_norm, source, target)."""
    joined = "\x1f".join((src_lang_norm or "", tgt_lang_norm or "", _norm(source), _norm(target)))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()
