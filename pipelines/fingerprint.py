"""The code fingerprint every signature carries: the package version alone does not move when the code
does, so a figure re-run on changed code would show an identical signature.

``code_version()`` is ``<package version>+code.<hash>``, the hash a sha256 over the relative path and
bytes of every source and data file of housestyle's code packages (``pipelines/``, ``assets/``: the
modules, prompt templates, criteria), computed once per process. It is the same whether housestyle
runs from a checkout or an installed wheel. ``files_digest`` is the one hashing routine, shared with
the Dagster assets' per-module ``code_version`` (assets/freshness.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from importlib import metadata
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
CODE_PACKAGES = ("pipelines", "assets")


def package_version() -> str:
    """The installed distribution's version (``0+unknown`` when running from a bare checkout)."""
    try:
        return metadata.version("housestyle")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def files_digest(paths: Iterable[Path], root: Path, seed: bytes = b"") -> str:
    """sha256 (hex) over each file's path relative to ``root`` and its bytes, in sorted path order."""
    digest = hashlib.sha256(seed)
    for path in sorted(set(paths)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def code_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    """Every file of the code packages under ``root`` (bytecode caches excluded)."""
    return [path for package in CODE_PACKAGES for path in (root / package).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"]


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """First 12 hex digits of the hash of the code this process runs."""
    return files_digest(code_files(), PACKAGE_ROOT)[:12]


def code_version() -> str:
    """Package version plus code fingerprint, e.g. ``0.2.0+code.3f2a9c0d1e4b``: goes into every signature."""
    return f"{package_version()}+code.{code_fingerprint()}"
