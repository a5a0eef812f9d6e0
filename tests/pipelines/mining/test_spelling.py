"""A name keeps its capitals in the rule (pipelines/mining/spelling.py, issue 25 item 3); matching does not change."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.spelling import as_written
from housestyle.pipelines.scoring.check import check_item

VPN_TARGETS = ["Mozilla VPN protège votre connexion.", "Avec Mozilla, vous gardez le contrôle.",
               "Téléchargez l’application Mozilla VPN.", "Mozilla ne vend pas vos données."]


def test_a_name_is_written_as_the_tm_writes_it_mid_sentence() -> None:
    assert as_written("mozilla", VPN_TARGETS) == "Mozilla"
    assert as_written("vpn", ["Le VPN est actif.", "Activez le VPN."]) == "VPN"
    # sentence-initial capitals say nothing; one lowercase occurrence mid-sentence makes it a word
    assert as_written("page", ["Page suivante", "Ouvrir la page", "Une page"]) == "page"
    assert as_written("mozilla", ["Visitez Mozilla", "visitez mozilla.org"]) == "mozilla"
    assert as_written("mozilla", []) == "mozilla"


def test_the_written_name_matches_as_the_folded_one_did() -> None:
    for expected in ("Mozilla", "mozilla"):
        conv = Convention(dimension="term:mozilla", rule="term", src="Mozilla", expected_terms=[expected],
                          match_mode="typographic")
        ok = check_item(conv, "Mozilla protects you.", "MOZILLA vous protège.")
        bad = check_item(conv, "Mozilla protects you.", "Firefox vous protège.")
        assert ok is not None and ok.full_pass and bad is not None and not bad.full_pass
