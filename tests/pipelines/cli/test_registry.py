"""The command line's registry (issue 28): every command module is registered exactly once, adds exactly the
one command it is named after, and `housestyle --help` starts without Dagster."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import COMMAND_MODULES, GRAPH_COMMANDS_GROUP, build_parser

REPO = Path(__file__).resolve().parents[3]
ROOMS = {"housestyle.pipelines.cli.commands": REPO / "pipelines" / "cli" / "commands",
         "housestyle.assets.commands": REPO / "assets" / "commands"}


def _modules_on_disk() -> list[str]:
    return sorted(f"{package}.{path.stem}" for package, folder in ROOMS.items()
                  for path in folder.glob("*.py") if path.stem != "__init__")


def _graph_entry_points() -> dict[str, str]:
    """The ``housestyle.commands`` group as pyproject declares it (what `pip install` turns into entry points)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(config["project"]["entry-points"][GRAPH_COMMANDS_GROUP])


def test_every_command_module_is_registered_exactly_once() -> None:
    registered = [*COMMAND_MODULES, *_graph_entry_points().values()]
    assert len(_modules_on_disk()) >= 20, "the walk found no command modules: the check would be vacuous"
    assert sorted(registered) == _modules_on_disk()
    assert all(m.startswith("housestyle.pipelines.cli.commands.") for m in COMMAND_MODULES)
    assert all(m.startswith("housestyle.assets.commands.") for m in _graph_entry_points().values())


@pytest.mark.parametrize("module", _modules_on_disk())
def test_a_command_module_adds_the_one_command_it_is_named_after(module: str) -> None:
    subparsers = argparse.ArgumentParser().add_subparsers()
    importlib.import_module(module).register(subparsers)
    assert list(subparsers.choices) == [module.rsplit(".", 1)[1].replace("_", "-")]


def test_an_entry_point_is_named_after_its_command() -> None:
    assert all(value.rsplit(".", 1)[1] == name.replace("-", "_") for name, value in _graph_entry_points().items())


def test_the_installed_parser_has_every_command() -> None:
    expected = {m.rsplit(".", 1)[1].replace("_", "-") for m in _modules_on_disk()}
    assert main_parser_choices(build_parser()) == expected, "reinstall (pip install -e .) after changing the entry points"


def test_help_does_not_import_dagster() -> None:
    code = "import sys; from housestyle.pipelines.cli.main import build_parser; build_parser(); print('dagster' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "False"


def test_graph_commands_not_installed_is_one_line_exit_2(tmp_path: Path) -> None:
    """Without an installed distribution (no site-packages, the checkout on sys.path as housestyle.pipelines)
    the entry-point group is missing: `housestyle run` says so in one line and exits 2."""
    (tmp_path / "housestyle").mkdir()
    (tmp_path / "housestyle" / "pipelines").symlink_to(REPO / "pipelines")
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from housestyle.pipelines.cli.main import main; "
            "sys.exit(main(['run', '--client', 'demo']))")
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and GRAPH_COMMANDS_GROUP in done.stderr and "pip install" in done.stderr


def test_a_command_line_imports_its_own_command_only() -> None:
    code = ("import sys; from housestyle.pipelines.cli.main import build_parser; build_parser('diff'); "
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('housestyle.pipelines.cli.commands.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "['diff']"
    assert main_parser_choices(build_parser("no-such-command")) == main_parser_choices(build_parser())


def main_parser_choices(parser: argparse.ArgumentParser) -> set[str]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(action.choices)
