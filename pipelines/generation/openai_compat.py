"""Any OpenAI-compatible endpoint (vLLM, llama.cpp's server, Ollama, hosted APIs) over plain HTTP.

The standard library's urllib is enough for two JSON POST routes (``/completions`` for base models
with few-shot text, ``/chat/completions`` for chat models), so no HTTP client dependency is added.
Decoding is deterministic where the server allows it: temperature 0 and a fixed seed. Transient
failures (connection errors, timeouts, HTTP 408/409/429/5xx) are retried with exponential backoff
(honouring ``Retry-After``); whatever still fails becomes a ``SegmentFailure`` for that segment only.
Threads share nothing but immutable settings, so the runner's pool can call ``complete`` concurrently.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.base import API_MODES, Completion, Request, SegmentFailure

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


@dataclass
class OpenAICompatBackend:
    """``base_url`` is the API root including ``/v1`` (e.g. ``http://127.0.0.1:8080/v1``)."""

    base_url: str
    model: str
    api_key: str | None = None
    api: str = "chat"
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int | None = None
    timeout: float = 60.0
    retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 20.0
    max_workers: int = 4
    name: str = "openai"
    cacheable: bool = True

    def __post_init__(self) -> None:
        if self.api not in API_MODES:
            raise ConfigError(f"api must be one of {API_MODES}, not {self.api!r}")
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"base_url must be an http(s) URL, not {self.base_url!r}")
        if not self.model:
            raise ConfigError("the openai backend needs a model name")
        self.base_url = self.base_url.rstrip("/")

    def settings(self) -> dict[str, Any]:
        return {"api": self.api, "temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}

    def close(self) -> None:
        """Nothing to release: every request opens its own connection."""

    def _payload(self, request: Request) -> tuple[str, dict[str, Any]]:
        prompt = request.prompt
        body: dict[str, Any] = {"model": self.model, "temperature": self.temperature,
                                "max_tokens": self.max_tokens or prompt.max_tokens}
        if self.seed is not None:
            body["seed"] = self.seed
        if prompt.stop:
            body["stop"] = list(prompt.stop)
        if self.api == "chat":
            body["messages"] = [dict(m) for m in prompt.messages]
            return f"{self.base_url}/chat/completions", body
        body["prompt"] = prompt.text
        return f"{self.base_url}/completions", body

    def _post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        req = urllib.request.Request(url, data=data, headers=headers, method="POST")
        with urllib.request.urlopen(req, timeout=self.timeout) as response:
            parsed = json.loads(response.read().decode("utf-8"))
        if not isinstance(parsed, dict):
            raise TypeError("response is not a JSON object")
        return parsed

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(float(retry_after), self.max_backoff)
            except ValueError:
                pass
        return min(self.backoff * (2 ** attempt), self.max_backoff)

    def complete(self, request: Request) -> Completion:
        url, body = self._payload(request)
        last, unreachable = "no attempt made", False
        for attempt in range(self.retries + 1):
            retry_after: str | None = None
            try:
                reply = self._post(url, body)
                return _completion(reply, self.api, attempt + 1)
            except urllib.error.HTTPError as exc:
                detail = exc.read(300).decode("utf-8", "replace") if exc.fp is not None else ""
                last, unreachable = f"HTTP {exc.code} from {url}: {detail.strip()}", False
                if exc.code not in RETRY_STATUS:
                    raise SegmentFailure(last, attempts=attempt + 1) from None
                retry_after = exc.headers.get("Retry-After") if exc.headers else None
            except TimeoutError as exc:
                last, unreachable = f"timed out after {self.timeout:g}s ({exc})", False
            except urllib.error.URLError as exc:
                timed_out = isinstance(exc.reason, (TimeoutError, socket.timeout))
                last = f"timed out after {self.timeout:g}s" if timed_out else f"cannot reach {url}: {exc.reason}"
                unreachable = not timed_out
            except (ConnectionError, OSError, http.client.HTTPException) as exc:  # reset or closed mid-response
                last, unreachable = f"connection to {url} failed: {exc}", True
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise SegmentFailure(f"malformed response from {url}: {exc}", attempts=attempt + 1) from None
            if attempt < self.retries:
                time.sleep(self._delay(attempt, retry_after))
        raise SegmentFailure(f"{last} (after {self.retries + 1} attempts)", attempts=self.retries + 1,
                             unreachable=unreachable)


def _completion(reply: dict[str, Any], api: str, attempts: int) -> Completion:
    choice = reply["choices"][0]
    text = choice["message"]["content"] if api == "chat" else choice["text"]
    if not isinstance(text, str):
        raise TypeError(f"choice text is {type(text).__name__}, not a string")
    usage = reply.get("usage") or {}
    return Completion(text=text, prompt_tokens=usage.get("prompt_tokens"),
                      completion_tokens=usage.get("completion_tokens"),
                      finish_reason=choice.get("finish_reason"), attempts=attempts)
