"""Isolation, proven (SPEC.md §2 Registration): the miner never sees gold; the checker never sees the miner.

1. Import graph of pipelines/ (and assets/), walked from the AST, transitively, parents included:
   no module under pipelines/mining or pipelines/contrast reaches housestyle.pipelines.registration; the
   checker (pipelines/scoring, pipelines/rules, pipelines/conventions) never reaches housestyle.pipelines.mining.
2. Dagster asset graph: no asset upstream of ``convention_candidates`` reads gold (tag
   ``housestyle/reads_gold`` or a registration/gold key), and the code module of every
   such upstream asset neither imports the registration code nor touches the registrations folder.
A guard whose subject is missing (a package emptied, an asset or command renamed) FAILS, naming
what it looked for, rather than skipping; the walker (tests/imports.py) is proven on a planted
violation so a pass is never vacuous.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.imports import chain, forbidden_reaches, module_index, reach

MINER_PACKAGES = ("housestyle.pipelines.mining", "housestyle.pipelines.contrast")
CHECKER_PACKAGES = ("housestyle.pipelines.scoring", "housestyle.pipelines.rules", "housestyle.pipelines.conventions")
GOLD_TAG = "housestyle/reads_gold"
GOLD_KEY_WORDS = ("registration", "gold")  # plus the explicit tag (miner_evaluation carries it)


def _modules_under(index: dict[str, Path], packages: tuple[str, ...]) -> list[str]:
    return [n for n in index if any(n == p or n.startswith(p + ".") for p in packages)]


# --- 1. the import graph ---------------------------------------------------------------------

def test_walker_finds_a_planted_transitive_violation(tmp_path: Path) -> None:
    files = {
        "pipelines/__init__.py": "",
        "pipelines/mining/__init__.py": "",
        "pipelines/mining/terms.py": "from ..util import helper\n",
        "pipelines/util.py": "def helper():\n    import importlib\n    return importlib.import_module('housestyle.pipelines.registration.gold')\n",
        "pipelines/registration/__init__.py": "",
        "pipelines/registration/gold.py": "",
        "pipelines/scoring/__init__.py": "from housestyle.pipelines.mining import terms\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    index = module_index(tmp_path, ("pipelines",))
    assert forbidden_reaches(index, MINER_PACKAGES, "housestyle.pipelines.registration") == [
        "housestyle.pipelines.mining.terms -> housestyle.pipelines.util -> housestyle.pipelines.registration",
        "housestyle.pipelines.mining.terms -> housestyle.pipelines.util -> housestyle.pipelines.registration.gold",
    ]
    assert forbidden_reaches(index, ("housestyle.pipelines.scoring",), "housestyle.pipelines.mining")[0] == "housestyle.pipelines.scoring -> housestyle.pipelines.mining"


def test_walker_sees_the_real_registration_package() -> None:
    index = module_index(REPO_ROOT)
    assert "housestyle.pipelines.registration.evaluate" in index
    assert "housestyle.pipelines.registration.gold" in reach("housestyle.pipelines.registration.evaluate", index)


def test_no_mining_module_imports_the_registration_code() -> None:
    index = module_index(REPO_ROOT)
    miners = _modules_under(index, MINER_PACKAGES)
    assert miners, "pipelines/mining and pipelines/contrast hold no module: the guard would prove nothing"
    assert forbidden_reaches(index, MINER_PACKAGES, "housestyle.pipelines.registration") == []


def test_no_mining_module_names_gold_paths() -> None:
    """No string literal in miner code points at a registration or gold folder."""
    index = module_index(REPO_ROOT)
    miners = _modules_under(index, MINER_PACKAGES)
    assert miners, "pipelines/mining and pipelines/contrast hold no module: the guard would prove nothing"
    bad = []
    for name in miners:
        for node in ast.walk(ast.parse(index[name].read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value.replace("\\", "/")
                if any(word in text for word in ("registrations/", "shared/gold", "/gold/", "gold.jsonl")):
                    bad.append(f"{index[name].relative_to(REPO_ROOT)}:{node.lineno}: {text[:60]!r}")
    assert bad == []


def test_checker_never_imports_the_miner() -> None:
    index = module_index(REPO_ROOT)
    assert _modules_under(index, CHECKER_PACKAGES), "checker packages missing: the walk would be vacuous"
    assert forbidden_reaches(index, CHECKER_PACKAGES, "housestyle.pipelines.mining") == []
    assert forbidden_reaches(index, CHECKER_PACKAGES, "housestyle.pipelines.contrast") == []


# --- 2. the Dagster asset graph --------------------------------------------------------------

def _graph():  # type: ignore[no-untyped-def]
    from housestyle.assets.definitions import defs

    return defs.resolve_asset_graph()


def _reads_gold(node) -> bool:  # type: ignore[no-untyped-def]
    words = "/".join(node.key.path).lower()
    return (node.tags or {}).get(GOLD_TAG) == "true" or any(w in words for w in GOLD_KEY_WORDS)


def _upstream(graph, key) -> set:  # type: ignore[no-untyped-def]
    seen, stack = set(), [key]
    while stack:
        for parent in graph.get(stack.pop()).parent_keys:
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def test_gold_assets_are_in_the_graph_and_depend_on_the_registration() -> None:
    """Guards the detection below against vacuity: the gold readers exist and are recognised."""
    from dagster import AssetKey

    graph = _graph()
    gold = {k for k in graph.get_all_asset_keys() if _reads_gold(graph.get(k))}
    assert {AssetKey("registration"), AssetKey("miner_evaluation")} <= gold
    assert AssetKey("registration") in graph.get(AssetKey("miner_evaluation")).parent_keys


def _candidate_keys(graph) -> list:  # type: ignore[no-untyped-def]
    return [k for k in graph.get_all_asset_keys()
            if k.path[-1].endswith("_candidates") or k.path[-1] in ("contrast_outputs", "convention_candidates")]


def test_nothing_upstream_of_convention_candidates_reads_gold() -> None:
    from dagster import AssetKey

    graph = _graph()
    key = AssetKey("convention_candidates")
    assert key in graph.get_all_asset_keys(), "asset convention_candidates is missing (renamed?): update the guard"
    upstream = _upstream(graph, key) | {key}
    assert sorted("/".join(k.path) for k in upstream if _reads_gold(graph.get(k))) == []


def test_no_candidate_producing_asset_reads_gold_or_its_code() -> None:
    """Every candidate-producing asset and all its ancestors: no gold asset, no gold code in their modules."""
    graph = _graph()
    candidates = _candidate_keys(graph)
    assert candidates, "no candidate-producing asset (*_candidates, contrast_outputs) found (renamed?): update the guard"
    index = module_index(REPO_ROOT)
    bad: list[str] = []
    for key in candidates:
        for upstream in sorted(_upstream(graph, key) | {key}, key=lambda k: k.path):
            node = graph.get(upstream)
            if _reads_gold(node):
                bad.append(f"{'/'.join(key.path)} <- {'/'.join(upstream.path)} reads gold")
            module = _asset_module(node)
            if module in index:
                came_from = reach(module, index)
                bad += [f"{'/'.join(upstream.path)}: {chain(came_from, m)}" for m in came_from
                        if m.startswith("housestyle.pipelines.registration")]
                bad += [f"{'/'.join(upstream.path)}: {module}:{line} reads settings.registrations"
                        for line in _registrations_access(index[module])]
    assert bad == []


def _registrations_access(path: Path) -> list[int]:
    """Lines that touch the registrations folder through the settings resource (``x.registrations``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and n.attr in ("registrations", "registrations_root")]


def _asset_module(node) -> str:  # type: ignore[no-untyped-def]
    """The Python module defining an asset's compute function ('' for external assets)."""
    assets_def = node.assets_def
    if assets_def.is_external:  # a source asset (the client's input files): no compute function
        return ""
    fn = getattr(getattr(assets_def, "op", None), "compute_fn", None)
    decorated = getattr(fn, "decorated_fn", fn)
    return getattr(decorated, "__module__", "") or ""


def test_asset_module_lookup_works() -> None:
    from dagster import AssetKey

    graph = _graph()
    assert _asset_module(graph.get(AssetKey("miner_evaluation"))) == "housestyle.assets.evaluation"
    assert "housestyle.assets.evaluation" in sys.modules


# --- 3. the miner's output does not depend on gold being on disk ------------------------------

_MINE_SCRIPT = r"""
import json, sys
out, log, tm, *gold_roots = sys.argv[1:]
opened = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes)):
        path = args[0].decode() if isinstance(args[0], bytes) else args[0]
        if any(root in path for root in gold_roots):
            opened.append(path)
sys.addaudithook(hook)
from housestyle.pipelines.cli.main import main
code = main(["mine", tm, "--src", "en", "--tgt", "fr", "--out", out])
json.dump({"code": code, "opened": opened}, open(log, "w"))
"""


def test_miner_output_is_byte_identical_without_gold_and_never_opens_it(tmp_path: Path) -> None:
    """`housestyle mine` run twice: in the repository (registrations and ../shared/gold on disk) and in an
    empty folder with HOUSESTYLE_REGISTRATIONS pointing at nothing. Same bytes out; an audit hook on
    every open() shows that neither run touched a registration, gold or termbase file."""
    from housestyle.pipelines.cli.main import build_parser

    assert re.search(r"^\s+mine\s", build_parser().format_help(), re.MULTILINE), "`housestyle mine` is not registered"
    tm = REPO_ROOT / "inbox" / "mozilla-fr" / "tm" / "vpn" / "fr" / "extras.xliff"  # dev domain
    gold_roots = [str(REPO_ROOT / "registrations"), "/gold/", "terminologies", ".tbx"]
    empty = tmp_path / "elsewhere"
    (empty / "registrations").mkdir(parents=True)
    runs = {"with_gold": (REPO_ROOT, {}), "without_gold": (empty, {"HOUSESTYLE_REGISTRATIONS": str(empty / "registrations"),
                                                                   "HOUSESTYLE_ROOT": str(empty)})}
    outputs = {}
    for name, (cwd, extra_env) in runs.items():
        out, log = tmp_path / name, tmp_path / f"{name}.json"
        env = {**os.environ, **extra_env}
        subprocess.run([sys.executable, "-c", _MINE_SCRIPT, str(out), str(log), str(tm), *gold_roots],
                       cwd=cwd, env=env, check=True, timeout=600)
        report = json.loads(log.read_text(encoding="utf-8"))
        assert report == {"code": 0, "opened": []}, name
        files = sorted(out.rglob("conventions.jsonl"))
        assert files, f"{name}: mine wrote no conventions.jsonl under {out}"
        outputs[name] = [f.read_bytes() for f in files]
    assert outputs["with_gold"] == outputs["without_gold"]
