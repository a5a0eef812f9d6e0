"""The score signature: everything a reader needs to reproduce or compare a figure, in one line
(modelled on sacrebleu's ``nrefs:1|case:mixed|...`` signatures)."""

from __future__ import annotations

import hashlib
import sys
import unicodedata
from typing import Sequence

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.fingerprint import code_version

SCORER_NAME = "housestyle-scs"


def set_hash(conventions: Sequence[Convention]) -> str:
    """Order-free hash of a convention set: sha256 of its sorted convention ids, first 12 hex."""
    ids = "\n".join(sorted(c.convention_id for c in conventions))
    return hashlib.sha256(ids.encode("utf-8")).hexdigest()[:12]


def score_signature(conventions: Sequence[Convention], n_segments: int, statuses: Sequence[str] | None = None) -> str:
    """e.g. ``housestyle-scs|v:0.2.0+code.9c1e0a…|set:3f2a…|n:12|status:candidate+validated|rules:forbidden+term|modes:caseless+exact|segs:3071|py:3.11|unicode:14.0.0``.
    ``v`` is the package version and the code fingerprint (pipelines/fingerprint.py): any code change
    moves it. Python and Unicode versions are part of it: casefold, NFKC and ``re`` classes follow them.
    ``status`` is the status selection the run scored (``statuses``); without one, the statuses of
    the conventions given (a caller that selected nothing scored whatever it passed)."""
    chosen = sorted(set(statuses) if statuses is not None else {c.status for c in conventions})
    modes = sorted({c.match_mode for c in conventions} | {c.trigger_mode for c in conventions if c.src is not None})
    rules = sorted({c.rule for c in conventions})
    return "|".join([
        SCORER_NAME,
        f"v:{code_version()}",
        f"set:{set_hash(conventions)}",
        f"n:{len(conventions)}",
        f"status:{'+'.join(chosen) or '-'}",
        f"rules:{'+'.join(rules) or '-'}",
        f"modes:{'+'.join(modes) or '-'}",
        f"segs:{n_segments}",
        f"py:{sys.version_info.major}.{sys.version_info.minor}",
        f"unicode:{unicodedata.unidata_version}",
    ])
