"""A tiny OpenAI-compatible HTTP server for fast, deterministic tests of retries, Retry-After and errors.

It stands in for the EXTERNAL endpoint (as a real llama.cpp server does in test_openai_real_server.py),
not for any of our code: the backend under test speaks real HTTP to it. Replies are
``echo:<last prompt line>``; ``script`` is a queue of behaviours consumed one per request:
``("status", code, retry_after)``, ``("sleep", seconds)``, ``("garbage",)``, ``("reply", text, finish_reason)``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StubState:
    def __init__(self) -> None:
        self.script: list[tuple[Any, ...]] = []
        self.calls: list[dict[str, Any]] = []
        self.lock = threading.Lock()


def _handler(state: StubState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            return

        def _send(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            body = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):  # the client timed out and left: expected
                pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            with state.lock:
                state.calls.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                action = state.script.pop(0) if state.script else ("ok",)
            if action[0] == "status":
                headers = {"Retry-After": str(action[2])} if len(action) > 2 and action[2] is not None else {}
                self._send(action[1], {"error": "scripted"}, headers)
                return
            if action[0] == "sleep":
                time.sleep(action[1])
            if action[0] == "garbage":
                self._send(200, b"not json")
                return
            chat = self.path.endswith("/chat/completions")
            if action[0] == "reply":
                text, finish = action[1], action[2]
            elif chat:
                text, finish = "echo:" + body["messages"][-1]["content"].splitlines()[-1], "stop"
            else:
                text, finish = " echo:" + body["prompt"].splitlines()[-2], "stop"
            choice: dict[str, Any] = {"message": {"role": "assistant", "content": text}} if chat else {"text": text}
            choice["finish_reason"] = finish
            self._send(200, {"choices": [choice], "usage": {"prompt_tokens": 10, "completion_tokens": 3}})

    return Handler


@contextmanager
def stub_server() -> Iterator[tuple[str, StubState]]:
    """(base_url with /v1, state) of a server on a free port; shut down on exit."""
    state = StubState()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", state
    finally:
        server.shutdown()
        server.server_close()
