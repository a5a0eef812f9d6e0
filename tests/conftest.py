"""Shared fixtures: where the real public data lives, and an isolated DAGSTER_HOME."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def find_shared_data() -> Path | None:
    """../shared/data beside the checkout, or $HOUSESTYLE_DATA; None when neither exists."""
    env = os.environ.get("HOUSESTYLE_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO_ROOT.parent / "shared" / "data")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data folder; tests that need it skip with a clear reason when it is absent."""
    found = find_shared_data()
    if found is None:
        pytest.skip("real data not found: put ../shared/data beside the checkout or set HOUSESTYLE_DATA")
    return found


@pytest.fixture(scope="session")
def shared_gold(shared_data: Path) -> Path:
    """../shared/gold (hand-authored gold), beside the data folder."""
    gold = shared_data.parent / "gold"
    if not gold.is_dir():
        pytest.skip(f"gold folder not found beside {shared_data}")
    return gold


@pytest.fixture()
def dagster_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throwaway Dagster instance folder, so tests never touch a user's instance."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    return home


def _mount_tmpfs(folder: Path, options: str) -> bool:
    """Mount a small tmpfs on ``folder`` (needs root); False when this machine does not allow it."""
    import subprocess

    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True, check=False)
    return done.returncode == 0


def _unmount(folder: Path) -> None:
    import subprocess

    subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


@pytest.fixture()
def readonly_folder(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A folder nothing can be written into: a read-only tmpfs (root ignores permission bits), or a
    mode-0555 folder for an ordinary user; skips when neither is possible."""
    folder = tmp_path / "readonly"
    if os.geteuid() == 0:
        if not _mount_tmpfs(folder, "ro,size=64k"):
            pytest.skip("running as root and cannot mount a read-only tmpfs: no read-only folder to test with")
        yield folder
        _unmount(folder)
        return
    folder.mkdir()
    folder.chmod(0o555)
    yield folder
    folder.chmod(0o755)


@pytest.fixture()
def small_disk(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A 256 KiB tmpfs (a disk that fills up); skips where mounting is not allowed."""
    folder = tmp_path / "small_disk"
    if not _mount_tmpfs(folder, "size=256k"):
        pytest.skip("cannot mount a small tmpfs here (needs root): no full disk to test with")
    yield folder
    _unmount(folder)


def fill_disk(folder: Path, leave: int = 0) -> None:
    """Write into ``folder`` until its file system has at most ``leave`` bytes free."""
    with (folder / "filler").open("wb", buffering=0) as handle:
        try:
            while os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize > leave:
                handle.write(b"\0" * 4096)
        except OSError:
            pass


def write_sealed_set(folder: Path, conventions: list[Any], manifest: dict[str, Any] | None = None,
                     files: dict[str, Callable[[Path], object]] | None = None) -> Path:
    """A complete convention set folder (conventions.jsonl + any ``files``, sealed by a manifest with
    their sha256) named ``folder``; its set_version is the folder name unless ``manifest`` says."""
    from housestyle.pipelines.rules.io import write_conventions
    from housestyle.pipelines.conventionset.store import publish_set

    def write(building: Path) -> None:
        write_conventions(conventions, building / "conventions.jsonl")
        for name, writer in (files or {}).items():
            writer(building / name)

    return publish_set(folder, write, {"set_version": folder.name, **(manifest or {})})
