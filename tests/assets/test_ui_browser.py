"""The UI really shows our asset graph: dagster-webserver + headless Chromium (Debian `chromium`).

The webserver runs alone (it stops cleanly on SIGTERM; `dagster dev` would need its process group
killed), on a free port, with a throwaway DAGSTER_HOME holding the repo's dagster.yaml, so telemetry
is off and the first-visit newsletter dialog (`nux`) is disabled: the screenshot shows the graph.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync", "--hide-scrollbars"]
NUX_DIALOG_TEXT = "Join the Dagster community"
LOCATION = "housestyle.assets.definitions"  # the code location name `-m housestyle.assets.definitions` gets

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian chromium at /usr/bin/chromium (apt-get install chromium)"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"dagster-webserver exited early with code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(1.0)
    raise AssertionError(f"dagster-webserver did not answer {url} within {timeout:.0f}s")


@pytest.fixture()
def webserver(tmp_path: Path) -> Iterator[str]:
    """A running dagster-webserver on 127.0.0.1:<free port>; yields its base URL, SIGTERMs it afterwards."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copyfile(REPO / "dagster.yaml", home / "dagster.yaml")
    env = {**os.environ, "DAGSTER_HOME": str(home), "DAGSTER_DISABLE_TELEMETRY": "1",
           "HOUSESTYLE_STORAGE": str(tmp_path / "storage"), "HOUSESTYLE_RULES_OUT": str(tmp_path / "rules_out")}
    port = free_port()
    log = (tmp_path / "webserver.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "dagster_webserver", "-m", "housestyle.assets.definitions", "-h", "127.0.0.1", "-p", str(port)],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(f"{base}/server_info", process)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"chromium-profile-{time.monotonic_ns()}"
    return subprocess.run([str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=180, check=False)


def dump_until(tmp_path: Path, url: str, needle: str, tries: int = 3) -> str:
    """The rendered DOM of ``url`` (JS run under a virtual-time budget), retried while the code location loads."""
    dom = ""
    for _ in range(tries):
        dom = chromium(tmp_path, "--virtual-time-budget=20000", "--dump-dom", url).stdout
        if needle in dom:
            break
        time.sleep(3)
    return dom


def test_asset_graph_lists_tm_units(webserver: str, tmp_path: Path) -> None:
    # The global lineage shows one box per asset group; the ingest group's lineage shows its assets.
    lineage = dump_until(tmp_path, f"{webserver}/asset-groups", "Global asset lineage")
    assert "ingest" in lineage and "scoring" in lineage, lineage[-2000:]
    group_url = f"{webserver}/locations/{LOCATION}/asset-groups/ingest/lineage"
    group = dump_until(tmp_path, group_url, "tm_units")
    assert "tm_units" in group and "tm_rejects" in group, group[-2000:]
    assert NUX_DIALOG_TEXT not in lineage + group  # nux disabled in dagster.yaml

    shot = tmp_path / "asset_graph.png"
    chromium(tmp_path, "--virtual-time-budget=20000", "--window-size=1400,900", f"--screenshot={shot}", group_url)
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = os.environ.get("HOUSESTYLE_KEEP_SCREENSHOT")  # to look at it: HOUSESTYLE_KEEP_SCREENSHOT=/tmp/graph.png
    if keep:
        shutil.copyfile(shot, keep)
