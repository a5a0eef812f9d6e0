"""Which process owns a client's run, so a killed run never blocks its client.

A run started by ``housestyle run`` carries its process id and host as tags. Once that process is
gone (``kill -9``, an out-of-memory kill) Dagster still says ``STARTED``: nothing is left to report
the end. ``release_dead_runs`` (called by the inbox sensor and by ``housestyle run``) marks such a
run failed, on the machine that started it only (a pid means nothing on another host), so the client
is refreshed at the next tick. Runs the daemon launched are covered by Dagster's run monitoring
(dagster.yaml ``run_monitoring``: a run still in progress after ``max_runtime_seconds`` is failed).

``client_run_lock`` makes two ``housestyle run`` of one client on one machine refuse, not race:
an exclusive ``flock`` the kernel drops when its holder dies.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

from housestyle.pipelines import atomic
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.paths import client_name, under

OWNER_PID_TAG = "housestyle/pid"
OWNER_HOST_TAG = "housestyle/host"
# Statuses a run can be stuck in once its process died (a QUEUED run has no process yet).
_RUNNING = [DagsterRunStatus.NOT_STARTED, DagsterRunStatus.STARTING, DagsterRunStatus.STARTED]


def owner_tags() -> dict[str, str]:
    """The tags naming this process as the run's owner."""
    return {OWNER_PID_TAG: str(os.getpid()), OWNER_HOST_TAG: socket.gethostname()}


def owner_gone(tags: dict[str, str]) -> bool:
    """True when the tags name a process of this machine that no longer exists."""
    pid = tags.get(OWNER_PID_TAG, "")
    return tags.get(OWNER_HOST_TAG) == socket.gethostname() and pid.isdigit() and not atomic.pid_alive(int(pid))


def release_dead_runs(instance: DagsterInstance, client: str) -> list[str]:
    """Mark failed every in-progress run of ``client`` whose owning process is gone; their ids."""
    released = []
    for record in instance.get_run_records(RunsFilter(tags={"dagster/partition": client}, statuses=_RUNNING)):
        run = record.dagster_run
        if owner_gone(dict(run.tags)):
            instance.report_run_failed(run, f"the process that ran it (pid {run.tags[OWNER_PID_TAG]} on "
                                            f"{run.tags[OWNER_HOST_TAG]}) is gone: killed or out of memory")
            released.append(run.run_id)
    return released


@contextmanager
def client_run_lock(storage: Path, client: str) -> Iterator[Path]:
    """Hold ``<storage>/.locks/<client>.run``'s lock while a CLI run of the client works; refuse
    (``ConfigError``, one line) when another process of this machine holds it."""
    target = under(storage, ".locks", f"{client_name(client)}.run")
    stack = ExitStack()
    try:
        lock = stack.enter_context(atomic.file_lock(target, blocking=False))
    except BlockingIOError:
        raise ConfigError(f"another `housestyle run` of client {client!r} is in progress on this machine "
                          f"(it holds {atomic.lock_path(target)}): wait for it to finish, then run again") from None
    with stack:
        yield lock
