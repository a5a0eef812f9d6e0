"""One way to write a file or a folder so that readers see it whole or not at all.

Why one module: a fixed temporary name (``.<name>.tmp``) lets two writers of one file tear each
other's output (one renames the other's half-written file, the other then fails), and a crash
between "write" and "rename" must leave only a temporary that the next writer ignores. So:

- every temporary name is unique (pid + random), beside its target (same filesystem: the rename is
  atomic), and starts with ``.`` and ends with ``.tmp`` so globbing readers never pick it up;
- data is fsynced before the rename, and the folder after it, so a power cut cannot publish an
  empty file under the final name;
- on any exception the temporary is removed, and the target is untouched.

``stale_temporaries`` finds temporaries left by a killed process (SIGKILL runs no cleanup), so a
later writer can remove them; ``discard`` removes a folder in one visible step. ``file_lock`` and
``locked_append`` serialise read-modify-write of one table (two imports at once both land). ``writable_folder`` probes an output folder before long work starts,
and a write that fails for want of space or permission raises ``OutputError`` (one line naming the
place) instead of a library's traceback.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING
from contextlib import contextmanager
from pathlib import Path

from housestyle.pipelines.errors import OutputError

if TYPE_CHECKING:
    import polars as pl

TMP_SUFFIX = ".tmp"
# errno values that say the output place, not the data, is at fault
_PLACE_ERRNOS = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "disk quota exceeded",
                 errno.EROFS: "read-only file system", errno.EACCES: "permission denied",
                 errno.EPERM: "operation not permitted", errno.ENOENT: "folder does not exist",
                 errno.ENOTDIR: "not a folder"}
# Libraries that wrap the OS error in their own exception (polars, pyarrow) keep its text.
_NO_SPACE_TEXT = ("No space left on device", "(os error 28)", "Disk quota exceeded")


def temporary_name(final: Path) -> Path:
    """A unique temporary path beside ``final`` (hidden, ``.tmp``-suffixed)."""
    return final.with_name(f".{final.name}.{os.getpid()}-{uuid.uuid4().hex[:12]}{TMP_SUFFIX}")


def _fsync_path(path: Path) -> None:
    """fsync a file, or a folder's entry table (best effort where the OS refuses folders)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _fsync_tree(path: Path) -> None:
    if path.is_dir():
        for child in path.rglob("*"):
            if child.is_file():
                _fsync_path(child)
        for folder in [*sorted((p for p in path.rglob("*") if p.is_dir()), reverse=True), path]:
            _fsync_path(folder)
    else:
        _fsync_path(path)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except OSError:  # absent (or on a read-only place, never created): nothing to remove
            pass


def place_problem(exc: BaseException, place: Path, written: Path | None = None) -> OutputError | None:
    """The ``OutputError`` for an exception raised while writing ``written`` into the folder ``place``,
    when it is about the place (full, read-only, missing, not permitted) and not about the data or
    another file (an input the writer reads); else None."""
    if isinstance(exc, OutputError):
        return None
    code = getattr(exc, "errno", None)
    if isinstance(exc, OSError) and code in _PLACE_ERRNOS:
        named = getattr(exc, "filename", None)
        ours = named is None or Path(str(named)) in {Path(place), *([Path(written)] if written else [])}
        if code in (errno.ENOSPC, errno.EDQUOT, errno.EROFS) or (
                ours and (code != errno.ENOENT or not Path(place).is_dir())):
            return OutputError(f"cannot write here: {_PLACE_ERRNOS[code]}", path=str(place))
    if any(text in str(exc) for text in _NO_SPACE_TEXT):
        return OutputError("cannot write here: no space left on the device", path=str(place))
    return None


@contextmanager
def _committed(final: Path, tmp: Path, durable: bool) -> Iterator[None]:
    """Around writing ``tmp`` and renaming it to ``final``: on any failure the temporary goes and a
    problem about the place becomes an ``OutputError``; on success the rename is made durable."""
    try:
        yield
    except BaseException as exc:
        _remove(tmp)
        problem = place_problem(exc, final.parent, tmp)
        if problem is not None:
            raise problem from exc
        raise
    if durable:
        _fsync_path(final.parent)


@contextmanager
def atomic_path(final: Path, *, durable: bool = True) -> Iterator[Path]:
    """Yield a temporary path; on success it replaces ``final`` in one rename, on error it is removed.

    The caller writes a file at the yielded path (any writer: polars, pyarrow, open()). A failure
    about the place (``place_problem``) is raised as ``OutputError``.
    """
    final = Path(final)
    tmp = temporary_name(final)
    with _committed(final, tmp, durable):
        yield tmp
        if durable:
            _fsync_path(tmp)
        os.replace(tmp, final)


def write_bytes(final: Path, data: bytes) -> Path:
    """Write ``data`` to ``final`` atomically."""
    with atomic_path(final) as tmp:
        tmp.write_bytes(data)
    return Path(final)


def write_text(final: Path, text: str) -> Path:
    """Write UTF-8 ``text`` to ``final`` atomically."""
    return write_bytes(final, text.encode("utf-8"))


def write_with(final: Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(tmp_path)`` and publish the result atomically (``frame.write_parquet`` etc.)."""
    with atomic_path(final) as tmp:
        write(tmp)
    return Path(final)


def copy_file(source: Path, final: Path) -> Path:
    """Copy ``source`` to ``final`` atomically (a reader never sees a half-copied file)."""
    return write_with(final, lambda tmp: shutil.copyfile(source, tmp))


def writable_folder(folder: Path) -> Path:
    """Create ``folder`` (and its parents) if needed and prove it takes a file, by writing and removing
    a probe temporary: a read-only, full or impossible output place is reported (``OutputError``)
    before any long work starts, and nothing is left behind."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError("cannot write here: not a folder", path=str(folder))
    probe = temporary_name(folder / ".housestyle-probe")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        try:
            with probe.open("xb") as handle:
                handle.write(b"probe")
        finally:
            _remove(probe)
    except OSError as exc:
        problem = place_problem(exc, folder, probe)
        if problem is None:
            raise OutputError(f"cannot write here: {exc.strerror or exc}", path=str(folder)) from exc
        raise problem from exc
    return folder


@contextmanager
def atomic_dir(final: Path, *, durable: bool = True) -> Iterator[Path]:
    """Yield a fresh temporary folder beside ``final``; on success it becomes ``final``.

    ``final`` must not exist yet (a folder cannot be replaced in one atomic rename when it is not
    empty); if it appears meanwhile (a concurrent writer won), ``FileExistsError`` is raised and the
    temporary is removed — callers whose folder names are content hashes may treat that as done.
    """
    final = Path(final)
    tmp = temporary_name(final)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp.mkdir()
    except OSError as exc:
        problem = place_problem(exc, final.parent, tmp)
        if problem is not None:
            raise problem from exc
        raise
    with _committed(final, tmp, durable):
        yield tmp
        if durable:
            _fsync_tree(tmp)
        if final.exists():
            raise FileExistsError(f"{final} already exists")
        os.rename(tmp, final)


def discard(path: Path) -> None:
    """Remove a file or folder so that no reader sees it half-deleted: it is first renamed to a
    temporary name (one atomic step), then removed."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        return
    doomed = temporary_name(path)
    os.rename(path, doomed)
    _remove(doomed)


def stale_temporaries(folder: Path, *, older_than_seconds: float = 0.0) -> list[Path]:
    """Temporaries (files or folders) left in ``folder`` by writers that died before renaming.

    A temporary of a live process in this machine is never listed (its pid is in the name).
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    now = time.time()
    stale: list[Path] = []
    for path in folder.iterdir():
        name = path.name
        if not (name.startswith(".") and name.endswith(TMP_SUFFIX)):
            continue
        pid_part = name[: -len(TMP_SUFFIX)].rsplit(".", 1)[-1].split("-", 1)[0]
        if pid_part.isdigit() and pid_alive(int(pid_part)):
            continue
        try:
            age = now - path.lstat().st_mtime
        except FileNotFoundError:
            continue
        if age >= older_than_seconds:
            stale.append(path)
    return stale


def remove_stale_temporaries(folder: Path, *, older_than_seconds: float = 0.0) -> int:
    """Remove what ``stale_temporaries`` lists; returns how many were removed."""
    stale = stale_temporaries(folder, older_than_seconds=older_than_seconds)
    for path in stale:
        _remove(path)
    return len(stale)


def pid_alive(pid: int) -> bool:
    """True while process ``pid`` of this machine exists (a pid we may not signal counts as alive)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


LOCK_SUFFIX = ".lock"


def lock_path(target: Path) -> Path:
    """The lock file beside ``target`` (hidden; never removed: removing a lock file races its users)."""
    target = Path(target)
    return target.with_name(f".{target.name}{LOCK_SUFFIX}")


@contextmanager
def file_lock(target: Path, *, blocking: bool = True) -> Iterator[Path]:
    """Hold an exclusive ``flock`` on ``target``'s lock file for the block.

    The kernel drops the lock when the holder dies (even by SIGKILL), so a killed writer never blocks
    the next one. ``blocking=False`` raises ``BlockingIOError`` at once when another process holds it.
    """
    path = lock_path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        try:
            yield path
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def locked_append(path: Path, frame: pl.DataFrame,
                  read: Callable[[Path], pl.DataFrame] | None = None) -> int:
    """Append ``frame``'s rows to the Parquet table ``path`` (created when absent), read, concatenated
    and replaced in one rename while holding ``path``'s lock: concurrent appenders wait for each other,
    so none loses the other's rows. ``read`` reads (and validates) the current table; the result has
    its columns. Returns the rows the table now holds."""
    import polars as pl

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(path):
        if path.is_file():
            old = (read or pl.read_parquet)(path)
            new = pl.concat([old, frame.select(old.columns).cast(old.schema)])
        else:
            new = frame
        write_with(path, new.write_parquet)
    return new.height


def replace_dir(final: Path, build: Callable[[Path], object]) -> Path:
    """``build(tmp)`` fills a fresh temporary folder beside ``final``, which then takes ``final``'s
    place (a previous ``final`` is discarded first). A failure — a full disk half-way — removes the
    temporary and leaves ``final`` as it was, never a torn folder; temporaries a killed builder left
    are removed first. An ``OutputError`` names ``final`` (not the temporary)."""
    final = Path(final)
    tmp = temporary_name(final)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(final.parent)
        tmp.mkdir()
        build(tmp)
        _fsync_tree(tmp)
    except BaseException as exc:
        _remove(tmp)
        if isinstance(exc, OutputError) and exc.path.startswith(str(tmp)):
            raise OutputError(exc.reason, path=str(final) + exc.path[len(str(tmp)):]) from exc
        problem = place_problem(exc, final.parent, tmp)
        if problem is not None:
            raise OutputError(problem.reason, path=str(final)) from exc
        raise
    discard(final)
    os.rename(tmp, final)
    _fsync_path(final.parent)
    return final
