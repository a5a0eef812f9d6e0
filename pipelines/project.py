"""A housestyle project folder: where it is, and how a new one is laid out (SPEC.md §3).

A project is a folder holding ``inbox/`` and ``dagster.yaml`` (plus ``registrations/`` and
``rules_out/``). Every command works on one: ``--project DIR``, else ``$HOUSESTYLE_ROOT``, else the
nearest folder upward from the working directory that holds both markers. Each of its folders is
found here too (``project_folder``): an explicit value (a flag, a resource field), else its own
variable (``$HOUSESTYLE_INBOX``, ...), else the folder inside the project. Every command and the
Dagster settings resource resolve paths through these two functions and nowhere else. Nothing here falls back
to the installed package's own folder: an installed housestyle must never read from or write into
site-packages, so without a project the answer is an error that says how to make one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.paths import client_path

ENV_ROOT = "HOUSESTYLE_ROOT"
INSTANCE_FILE = "dagster.yaml"
WORKSPACE_FILE = "workspace.yaml"
PROJECT_FOLDERS = ("inbox", "registrations", "rules_out")
ENV_INBOX = "HOUSESTYLE_INBOX"
ENV_RULES_OUT = "HOUSESTYLE_RULES_OUT"
ENV_REGISTRATIONS = "HOUSESTYLE_REGISTRATIONS"
ENV_STORAGE = "HOUSESTYLE_STORAGE"
# folder kind -> (its environment variable, its place inside the project)
FOLDERS: dict[str, tuple[str, str]] = {
    "inbox": (ENV_INBOX, "inbox"),
    "rules_out": (ENV_RULES_OUT, "rules_out"),
    "registrations": (ENV_REGISTRATIONS, "registrations"),
    "storage": (ENV_STORAGE, ".dagster/data"),
}


def is_project(folder: Path) -> bool:
    return (folder / "inbox").is_dir() and (folder / INSTANCE_FILE).is_file()


def find_upward(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that is a project, or None."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if is_project(folder):
            return folder
    return None


def resolve_project(explicit: str | Path | None = None, environ: Mapping[str, str] | None = None,
                    cwd: Path | None = None) -> Path:
    """--project, else $HOUSESTYLE_ROOT, else the nearest project upward from ``cwd``.

    An explicit folder (flag or variable) is taken as given, so a fresh folder can be pointed at
    before ``inbox/`` exists; only the upward search requires both markers.
    """
    env = os.environ if environ is None else environ
    if explicit:
        return Path(explicit).expanduser().resolve()
    if env.get(ENV_ROOT):
        return Path(env[ENV_ROOT]).expanduser().resolve()
    here = (cwd or Path.cwd()).resolve()
    found = find_upward(here)
    if found is None:
        raise ConfigError(f"no housestyle project at or above {here} (a folder with inbox/ and {INSTANCE_FILE}): "
                          f"create one with `housestyle init DIR --demo`, or pass --project DIR or set ${ENV_ROOT}")
    return found


def project_folder(kind: str, explicit: str | Path | None = None, *, project: Callable[[], Path] | None = None,
                   environ: Mapping[str, str] | None = None) -> Path:
    """One of the project's folders (``FOLDERS``): ``explicit``, else its variable (read now, not at
    import), else inside ``project()`` (default ``resolve_project``; called only when needed, so a
    fully configured deployment needs no project folder)."""
    env_name, relative = FOLDERS[kind]
    env = os.environ if environ is None else environ
    if explicit:
        return Path(explicit).expanduser()
    if env.get(env_name):
        return Path(env[env_name]).expanduser()
    return (project() if project is not None else resolve_project(environ=env)) / relative


def tm_table(storage: Path, client: str, name: str = "tm_units.parquet") -> Path:
    """<storage>/tm_units/<client>/<name>: the client's ingested TM (``tm_units.parquet``) or its rejects
    (``tm_rejects.parquet``); the settings resource and the commands that read the table both ask here."""
    return client_path(storage / "tm_units", client, name)


@dataclass
class ProjectLayout:
    """What `housestyle init` writes: the folders, text files by relative path, and trees to copy."""

    files: dict[str, str] = field(default_factory=dict)
    trees: dict[str, Path] = field(default_factory=dict)  # relative destination -> source folder


def write_project(target: Path, layout: ProjectLayout, *, force: bool = False) -> list[Path]:
    """Create the project folder; refuse to overwrite an existing file or client unless ``force``.

    Returns what was written. Nothing is written when any planned path already exists (checked first),
    so a refused init leaves the folder as it was.
    """
    target = target.expanduser().resolve()
    if target.exists() and not target.is_dir():
        raise ConfigError(f"{target} exists and is not a folder")
    planned = [target / rel for rel in (*layout.files, *layout.trees)]
    clashes = [p for p in planned if p.exists()]
    if clashes and not force:
        raise ConfigError(f"{clashes[0]} already exists (use --force to overwrite what init writes)")
    written: list[Path] = []
    for name in PROJECT_FOLDERS:
        (target / name).mkdir(parents=True, exist_ok=True)
        written.append(target / name)
    for rel, text in layout.files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    for rel, source in layout.trees.items():
        if not source.is_dir():
            raise ConfigError(f"bundled folder {source} is missing from this installation")
        destination = target / rel
        if destination.exists():
            shutil.rmtree(destination)
        # copy the files, not their permissions: package data may be read-only in site-packages
        shutil.copytree(source, destination, copy_function=shutil.copyfile,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        written.append(destination)
    return written
