"""Reports one click away from the UI: `housestyle ui` serves the project's rules_out/ read-only on
127.0.0.1 (``REPORTS_PORT``, the UI's port + 1) beside the Dagster webserver, and the ``scoring_run``
asset links its report there (``report_url``, a ``MetadataValue.url`` in the asset's metadata). The
UI itself cannot serve a file, and a browser will not follow a ``file://`` link from an http page.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

ENV_REPORTS_URL = "HOUSESTYLE_REPORTS_URL"
REPORTS_PORT = 3001


def reports_base(port: int = REPORTS_PORT) -> str:
    return f"http://127.0.0.1:{port}/"


def report_url(rules_out: Path, report: Path) -> str | None:
    """The report's address on the reports server ($HOUSESTYLE_REPORTS_URL, set by `housestyle ui`,
    else the default port); None for a report outside rules_out."""
    try:
        relative = report.resolve().relative_to(rules_out.resolve())
    except ValueError:
        return None
    base = os.environ.get(ENV_REPORTS_URL) or reports_base()
    return base.rstrip("/") + "/" + quote(relative.as_posix())


# `python -m http.server` with SIGTERM and SIGINT unblocked and at their defaults first: a child
# inherits its parent's blocked and ignored signals, and a parent whose libraries block them (seen
# in the full test run: the server outlived terminate() by 10 s) would leave it deaf to terminate()
SERVE = ("import runpy, signal, sys; "
         "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT}); "
         "signal.signal(signal.SIGTERM, signal.SIG_DFL); signal.signal(signal.SIGINT, signal.default_int_handler); "
         "sys.argv = ['http.server', *sys.argv[1:]]; runpy.run_module('http.server', run_name='__main__')")


def start_reports_server(rules_out: Path, port: int) -> subprocess.Popen[bytes]:
    """`python -m http.server` on 127.0.0.1 serving rules_out/ only; it runs in the UI's process group,
    so the Ctrl-C that stops the UI stops it too."""
    rules_out.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-c", SERVE, str(port), "--bind", "127.0.0.1", "--directory", str(rules_out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
