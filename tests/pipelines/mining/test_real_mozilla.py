"""The miner on the real Mozilla VPN XLIFF (the dev split): the patterned families it must find,
checked with hand-made probes written for this test (not the gold probes)."""

from __future__ import annotations

import polars as pl
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.ingest import domain_from_path, ingest_files
from housestyle.pipelines.mining.mine import mine_units
from housestyle.pipelines.registration.behaviour import recover
from housestyle.pipelines.registration.gold import load_gold_conventions
from housestyle.pipelines.scoring.check import check_item
from tests.conftest import REPO_ROOT

NB = "\u00a0"


@pytest.fixture(scope="module")
def vpn_set(tmp_path_factory: pytest.TempPathFactory) -> list[Convention]:
    root = REPO_ROOT / "inbox" / "mozilla-fr" / "tm"
    files = sorted(p for p in (root / "vpn").rglob("*.xliff"))
    if not files:
        pytest.skip("inbox/mozilla-fr/tm/vpn is not in this checkout")
    out = tmp_path_factory.mktemp("vpn")
    ingest_files(files, client="mozilla-fr", out_dir=out, domain_of=lambda p: domain_from_path(p, root))
    return mine_units(pl.read_parquet(out / "tm_units.parquet"), "en", "fr").conventions


@pytest.fixture(scope="module")
def vpn_rules(vpn_set: list[Convention]) -> dict[str, object]:
    return {c.dimension: c for c in vpn_set if c.rule != "term"}


def test_the_whole_mined_set_recovers_the_frozen_dev_conventions(vpn_set: list[Convention]) -> None:
    """The registration's behavioural recovery on the VPN XLIFF (the DEV split) with every mined rule,
    terms included: a term rule failing a correct probe output (``need`` → ``avez besoin`` against
    "Besoin d'aide ?") costs a recovery, as it would in the gate."""
    gold = load_gold_conventions(REPO_ROOT / "registrations" / "mozilla-fr" / "v1" / "gold" / "mozilla-fr.conventions.jsonl",
                                 "en", "fr")
    recoveries = [recover(g, vpn_set) for g in gold]
    missed = {r.gold_id: r.failed_probes for r in recoveries if not r.recovered}
    assert not missed


def _passes(conv: object, source: str, output: str) -> bool:
    verdict = check_item(conv, source, output)  # type: ignore[arg-type]
    return verdict is None or verdict.full_pass


def test_vpn_typography(vpn_rules: dict[str, object]) -> None:
    apostrophe = vpn_rules["punct:apostrophe"]
    assert _passes(apostrophe, "Get help", "Obtenir de l’aide") and not _passes(apostrophe, "Get help", "Obtenir de l'aide")
    space = vpn_rules["punct:space_before_high"]
    assert _passes(space, "Connect?", f"Se connecter{NB}?") and not _passes(space, "Connect?", "Se connecter ?")
    ellipsis = vpn_rules["punct:ellipsis"]
    assert _passes(ellipsis, "Loading…", "Chargement…") and not _passes(ellipsis, "Loading...", "Chargement...")


def test_vpn_quotes_casing_and_names(vpn_rules: dict[str, object]) -> None:
    quoted = vpn_rules["quotes:source_quoted"]
    assert _passes(quoted, 'Tap "Connect"', f"Touchez «{NB}Connecter{NB}»")
    assert not _passes(quoted, 'Tap "Connect"', 'Touchez "Connecter"')
    casing = vpn_rules["casing:title_to_sentence"]
    assert _passes(casing, "Manage Devices", "Gérer les appareils")
    assert not _passes(casing, "Manage Devices", "Gérer Les Appareils")
    firefox = vpn_rules["copy:Firefox"]
    assert _passes(firefox, "Use Firefox", "Utiliser Firefox") and not _passes(firefox, "Use Firefox", "Utiliser firefox")
