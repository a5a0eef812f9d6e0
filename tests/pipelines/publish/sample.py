"""A small convention set with chosen statuses, shared by the publish tests (pipelines and CLI)."""

from __future__ import annotations

from pathlib import Path

from housestyle.pipelines.conventions.model import Convention
from tests.conftest import write_sealed_set


def sample_conventions() -> list[Convention]:
    """Terms (plain, regex alternations, a non-finite entry), a forbidden rule, QA-only rules; most
    validated, one candidate and one rejected (left out by the default status)."""
    pair = {"src_lang": "en", "tgt_lang": "fr"}
    return [
        Convention(dimension="term:air mass", rule="term", src="air mass", expected_terms=["masse d'air"],
                   wrong_variants=["masse atmosphérique"], match_mode="caseless", status="validated",
                   support=12, consistency=0.92, note="Météo-France usage", origin="mined", **pair),
        Convention(dimension="term:household soap", rule="term", src="household soap",
                   expected_terms=[r"\bsavon(?:s ménagers| ménager)\b"], regex=True, match_mode="typographic",
                   status="validated", support=4, consistency=1.0, origin="mined", **pair),
        Convention(dimension="term:face masks", rule="term", src="face masks",
                   expected_terms=[r"\bmasques?\b", r"\d+ masques"], regex=True, match_mode="typographic",
                   status="validated", support=3, **pair),
        Convention(dimension="term:lockdown", rule="forbidden", src="lockdown", wrong_variants=["lockdown", "bouclage"],
                   match_mode="caseless", status="validated", origin="contrast", **pair),
        Convention(dimension="term:outbreak", rule="term", src="outbreak", expected_terms=["flambée"],
                   match_mode="caseless", status="candidate", **pair),
        Convention(dimension="term:swab", rule="term", src="swab", expected_terms=["écouvillon"],
                   match_mode="caseless", status="rejected", **pair),
        Convention(dimension="punct:nbsp_before_colon", rule="pattern", src=r":(?=\s|$)", src_regex=True,
                   wrong_variants=[r"(?<![\u00a0\u202f]):(?=\s|$)"], regex=True, match_mode="exact",
                   status="validated", **pair),
        Convention(dimension="copy:WHO", rule="source_copy", src="WHO", match_mode="exact", status="validated",
                   support=9, **pair),
        Convention(dimension="number:format", rule="numeric", params={"decimal": ",", "group": "\u202f"},
                   match_mode="exact", status="validated", **pair),
        Convention(dimension="placeholder:integrity", rule="placeholder", match_mode="exact", status="candidate",
                   **pair),
        Convention(dimension="term:vaccine", rule="forbidden", wrong_variants=["vaxin"], match_mode="caseless",
                   status="validated", **pair),  # no source term: a QA check, not a glossary entry
    ]


def sample_set(folder: Path) -> Path:
    return write_sealed_set(folder, sample_conventions(), {"client": "acme", "src_lang": "en", "tgt_lang": "fr"})
