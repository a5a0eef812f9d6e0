"""The README's "How it is built" names every folder a newcomer meets, and keeps the test command
.ci/run reads."""

from __future__ import annotations

from tests.conftest import REPO_ROOT

README = REPO_ROOT / "README.md"


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_how_it_is_built_names_every_folder() -> None:
    built = _section(README.read_text(encoding="utf-8"), "How it is built")
    packages = sorted(p.name for p in (REPO_ROOT / "pipelines").iterdir() if (p / "__init__.py").is_file())
    assert packages, "pipelines/ has no package: the check would be vacuous"
    missing = [f"pipelines/{name}/" for name in packages if f"pipelines/{name}/" not in built]
    missing += [f"{name}/" for name in ("pipelines", "assets", "inbox", "registrations", "rules_out", "tests")
                if f"`{name}/" not in built]
    missing += [room for room in ("pipelines/cli/commands/<command>.py", "assets/commands/<command>.py",
                                  "assets/<area>.py", "pipelines/rules/<type>.py") if room not in built]
    assert missing == []


def test_the_quick_start_comes_first_and_the_test_command_is_kept() -> None:
    text = README.read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[:2] == ["## Quick start", "## How to read a report"]
    marker = text.index("<!-- test-command")
    assert "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest" in text[marker:marker + 200]
