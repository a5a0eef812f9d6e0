"""Names are names: a client name is one safe path segment, and a path built from input stays under
its root.

Why one module: client names reach file paths from the CLI (``--client``), the inbox (folder names),
Dagster partitions and manifests read back (``manifest.json``'s ``client``). A name such as ``..``,
``/etc`` or ``demo/tm`` would write outside ``rules_out/`` or into another client's folders, so
every place that joins a client name to a root goes through ``client_name`` and ``under``.

Grammar (README, ``--client`` help): ``[A-Za-z0-9][A-Za-z0-9._-]*``, at most 128 characters, no
``..`` anywhere.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from housestyle.pipelines.errors import ConfigError

CLIENT_GRAMMAR = "[A-Za-z0-9][A-Za-z0-9._-]* (at most 128 characters, no '..')"
_CLIENT_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


class UnsafePathError(ConfigError):
    """A name that is not one safe path segment, or a path that leaves its root (CLI: one line, exit 2)."""


def is_client_name(name: object) -> bool:
    """True when ``name`` is a string matching the client grammar."""
    return isinstance(name, str) and _CLIENT_RE.fullmatch(name) is not None and ".." not in name


def client_name(name: object, *, source: str = "client") -> str:
    """``name`` when it is a valid client name, else ``UnsafePathError`` saying where it came from."""
    if not is_client_name(name):
        shown = repr(name)[:80] if isinstance(name, str) else type(name).__name__
        raise UnsafePathError(f"{source}: {shown} is not a client name (one path segment: {CLIENT_GRAMMAR})")
    assert isinstance(name, str)
    return name


def under(root: Path | str, *parts: str | Path) -> Path:
    """``root / parts`` resolved (symlinks followed), refused unless it stays inside ``root`` resolved.

    The path need not exist; the parts that do are resolved through their symlinks, so a symlinked
    folder that points out of the root is refused as well as ``..``.
    """
    base = Path(os.path.realpath(root))
    target = Path(os.path.realpath(Path(root).joinpath(*parts)))
    if target != base and base not in target.parents:
        raise UnsafePathError(f"{Path(root).joinpath(*parts)} is outside {base}")
    return target


def client_path(root: Path | str, client: object, *parts: str | Path, source: str = "client") -> Path:
    """``root/<client>/<parts>``: the client name checked, the result kept under ``root``."""
    return under(root, client_name(client, source=source), *parts)
