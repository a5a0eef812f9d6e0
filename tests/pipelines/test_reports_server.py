"""The report one click from the UI: its address on the reports server `housestyle ui` starts."""

from __future__ import annotations

import signal
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from housestyle.pipelines.reports_server import ENV_REPORTS_URL, report_url, start_reports_server


def test_report_url_is_the_report_under_rules_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = tmp_path / "rules_out" / "acme" / "s1" / "runs" / "r 1" / "report.html"
    monkeypatch.delenv(ENV_REPORTS_URL, raising=False)
    assert report_url(tmp_path / "rules_out", report) == "http://127.0.0.1:3001/acme/s1/runs/r%201/report.html"
    monkeypatch.setenv(ENV_REPORTS_URL, "http://127.0.0.1:4001/")
    assert report_url(tmp_path / "rules_out", report) == "http://127.0.0.1:4001/acme/s1/runs/r%201/report.html"
    assert report_url(tmp_path / "rules_out", tmp_path / "elsewhere.html") is None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_reports_server_serves_rules_out(tmp_path: Path) -> None:
    rules_out = tmp_path / "rules_out"
    (rules_out / "acme").mkdir(parents=True)
    (rules_out / "acme" / "report.html").write_text("<h1>report</h1>", encoding="utf-8")
    port = _free_port()
    server = start_reports_server(rules_out, port)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/acme/report.html", timeout=2) as reply:
                    assert reply.read() == b"<h1>report</h1>"
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_server_stops_on_terminate_even_when_its_parent_blocks_sigterm(tmp_path: Path) -> None:
    """A child inherits its parent's signal mask: started from a thread that blocks SIGTERM (as a
    library's can), the server must still stop on terminate()."""
    port = _free_port()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        server = start_reports_server(tmp_path / "rules_out", port)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    time.sleep(0.5)
    server.terminate()
    try:
        assert server.wait(timeout=10) != 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
