"""Outputs some other system already produced, read from a file and matched by segment id.

Any format ``housestyle.pipelines.segments.load_segments`` reads: TMX, XLIFF, PO (target side), TSV
(``id<TAB>text``), JSONL (``{"id", "text"}``) and the WMT "fake SGML" ``<seg>`` files (id =
``docid:N``; ``<term>`` markup removed). WMT system outputs are often Moses-tokenised
(``l' un``, ``pourquoi ?``): ``detokenize="moses"`` undoes that with sacremoses for the target
language. Nothing is generated, so nothing is cached: the file IS the cache. An id the file lacks
is a per-segment failure (missing coverage), never a silent empty output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.base import Completion, Request, SegmentFailure
from housestyle.pipelines.readers.base import Reject
from housestyle.pipelines.segments import load_segments

DETOKENIZERS = (None, "moses")


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class PrecomputedBackend:
    """``path``: the output file; ``tgt_lang``: the language of the outputs (for the detokeniser);
    ``only_lang``: keep only this target language of a multilingual TMX (its tag exactly as written)."""

    path: str
    tgt_lang: str | None = None
    detokenize: str | None = None
    only_lang: str | None = None
    name: str = "precomputed"
    max_workers: int = 1
    cacheable: bool = False
    model: str = field(init=False, default="")
    rejects: list[Reject] = field(init=False, default_factory=list)
    _outputs: dict[str, str] = field(init=False, default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.detokenize not in DETOKENIZERS:
            raise ConfigError(f"detokenize must be one of {DETOKENIZERS}, not {self.detokenize!r}")
        file = Path(self.path)
        outputs = load_segments(file, side="target", tgt_lang=self.only_lang, rejects=self.rejects)
        if self.detokenize == "moses":
            from sacremoses import MosesDetokenizer

            detok = MosesDetokenizer(lang=(self.tgt_lang or "en").split("-")[0])
            outputs = {k: detok.detokenize(v.split()) for k, v in outputs.items()}
        self._outputs = outputs
        self.model = f"{file.name}@{_sha256(file)[:16]}" + (f"+{self.detokenize}" if self.detokenize else "")

    def __len__(self) -> int:
        return len(self._outputs)

    def ids(self) -> list[str]:
        return list(self._outputs)

    def settings(self) -> dict[str, Any]:
        return {"detokenize": self.detokenize}

    def complete(self, request: Request) -> Completion:
        text = self._outputs.get(request.segment_id)
        if text is None:
            raise SegmentFailure(f"segment {request.segment_id!r} is not in {self.path}")
        return Completion(text=text)

    def close(self) -> None:
        """Nothing to release."""
