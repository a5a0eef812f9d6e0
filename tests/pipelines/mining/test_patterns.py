from __future__ import annotations

from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.mine import proposer_group
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.patterns.base import count_variants, dominant
from housestyle.pipelines.mining.patterns.casing import _TITLE_RE, learn_keep, lowercase_initials
from housestyle.pipelines.mining.patterns.typography import APOSTROPHE, BRACKETS
from housestyle.pipelines.scoring.check import check_item

NB = "\u00a0"


def _by_dimension(corpus: Corpus) -> dict[str, object]:
    mined, _ = proposer_group(corpus, ("typography", "quotes", "casing"), MiningParams())
    return {m.conv.dimension: m.conv for m in mined}


def test_space_before_high_punctuation_is_learned_from_targets(tiny: Corpus) -> None:
    rule = _by_dimension(tiny)["punct:space_before_high"]
    assert rule.match_mode == "exact" and rule.extra["variant"] == "nbsp"
    assert rule.support == 8 and rule.consistency == 1.0
    assert check_item(rule, "Ready?", f"Prêt{NB}?").full_pass
    for bad in ("Prêt ?", "Prêt?", "Prêt\u202f?"):
        assert not check_item(rule, "Ready?", bad).full_pass
    assert check_item(rule, "See https://x.org at 10:30", "Voir https://x.org à 10:30").full_pass


def test_quotes_source_quoted_and_inner_space(tiny: Corpus) -> None:
    rules = _by_dimension(tiny)
    pair, inner = rules["quotes:source_quoted"], rules["quotes:guillemet_inner_space"]
    source = 'Click "Save".'
    assert check_item(pair, source, f"Cliquez sur «{NB}Enregistrer{NB}».").full_pass
    assert not check_item(pair, source, "Cliquez sur Enregistrer.").full_pass
    assert not check_item(inner, source, "Cliquez sur «Enregistrer».").full_pass
    assert check_item(pair, "No quotes here.", "Pas de guillemets.") is None
    assert check_item(rules["quotes:style"], '<a href="x">', '<a href="x">lien</a>').full_pass


def test_ellipsis_and_casing(tiny: Corpus) -> None:
    rules = _by_dimension(tiny)
    assert not check_item(rules["punct:ellipsis"], "Loading...", "Chargement...").full_pass
    assert check_item(rules["punct:ellipsis"], "Loading...", "Chargement…").full_pass
    casing = rules["casing:title_to_sentence"]
    assert "Firefox" in casing.params["keep"]
    assert check_item(casing, "Open Firefox Settings", "Ouvrir les paramètres de Firefox").full_pass
    assert not check_item(casing, "Open Firefox Settings", "Ouvrir Les Paramètres De Firefox").full_pass
    assert check_item(casing, "Sign in to continue.", "Connectez-vous.") is None


def test_title_source_regex() -> None:
    assert _TITLE_RE.match("Manage Your Devices") and _TITLE_RE.match("Turn On Mozilla VPN?")
    assert not _TITLE_RE.match("Manage your devices") and not _TITLE_RE.match("Settings")


def test_keep_list_learns_names_and_copied_words() -> None:
    keep = learn_keep(["Visit Tel Aviv", "x", "y"], ["Visitez Tel Aviv", "Ouvrir Firefox maintenant", "Lancer Firefox"],
                      MiningParams())
    assert {"Aviv", "Firefox"} <= set(keep) and "Ouvrir" not in keep


def test_apostrophe_family_counts_and_dominates(make_corpus) -> None:
    corpus = make_corpus([("x", f"l’objet n°{i} d’un jour") for i in range(6)] + [("y", "l'objet")])
    occ, units = count_variants(APOSTROPHE, corpus.targets)
    assert occ["typographic"] == 12 and occ["ascii"] == 1
    assert dominant(occ, units, MiningParams()) == "typographic"
    assert dominant(occ, units, MiningParams().with_({"patterns.min_consistency": 0.95})) is None


def test_fullwidth_brackets_for_chinese(make_corpus) -> None:
    corpus = make_corpus([(f"see (note {i})", f"见（注{i}）") for i in range(6)], tgt="zh")
    rules = _by_dimension(corpus)
    rule = rules[BRACKETS.dimension]
    assert rule.extra["variant"] == "fullwidth"
    assert not check_item(rule, "see (x)", "见(注)").full_pass and check_item(rule, "see (x)", "见（注）").full_pass
    assert "casing:title_to_sentence" not in rules  # uncased script


def test_lowercase_initials_of_title_like_sources_are_kept_as_written() -> None:
    # French language names in a picker (Mozilla VPN): the client never capitalises them
    sources = ["British English", "Canadian English", "Traditional Chinese", "Simplified Chinese", "Open Settings"]
    targets = ["anglais britannique", "anglais canadien", "chinois traditionnel", "chinois simplifié", "Ouvrir les paramètres"]
    assert lowercase_initials(sources, targets, MiningParams()) == ["anglais", "chinois"]
    assert lowercase_initials(sources[:1], targets[:1], MiningParams()) == []  # one unit is no habit


def test_counting_skips_only_targets_without_a_family_s_required_strings() -> None:
    """The prefilter (``family_prefilter``) changes no count: every family of the miner, over
    seeded random texts of the characters its variants turn on, counts as variant by variant."""
    import random
    from collections import Counter

    from housestyle.pipelines.mining.patterns.base import family_prefilter
    from housestyle.pipelines.mining.patterns.currency import FAMILIES as CURRENCY
    from housestyle.pipelines.mining.patterns.dates import CJK_SPACING, NUMERIC_ORDER, NUMERIC_SEPARATOR
    from housestyle.pipelines.mining.patterns.quotes import GUILLEMET_SPACE, STYLE
    from housestyle.pipelines.mining.patterns.typography import FAMILIES as TYPOGRAPHY

    pieces = ["a", "É", "12", "3", "０", " ", NB, "\u202f", "?", "!", ":", ";", "%", "'", "’", "ʼ", "«", "»", "“",
              '"', "„", "(", ")", "（", "…", "...", "$", "€", "£", "-", "/", ".", "月", "3月15日", "3 月 15 日", "15/03/2020",
              "03/15/20", "15.03.2020", "2020-03-15", "2024", "\n"]
    rng = random.Random(25)
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(3000)]
    families = [*CURRENCY, *TYPOGRAPHY, CJK_SPACING, NUMERIC_ORDER, NUMERIC_SEPARATOR, GUILLEMET_SPACE, STYLE]
    assert all(family_prefilter(f) is not None for f in families)
    for family in families:
        occ: Counter[str] = Counter()
        units: Counter[str] = Counter()
        for text in texts:
            for variant in family.variants:
                if n := len(variant.count.findall(text)):
                    occ[variant.name] += n
                    units[variant.name] += 1
        assert count_variants(family, texts) == (occ, units), family.dimension
        assert occ, family.dimension  # the texts do hold each family's variants


def test_a_long_run_of_numbers_without_a_currency_sign_never_reaches_the_currency_variants() -> None:
    """The currency variants backtrack over a run of numbers (10,000 characters of ``1 1 1 …`` took
    9.7 s in one of them); every match holds a currency sign, so a target without one is skipped."""
    from housestyle.pipelines.mining.patterns.base import family_prefilter
    from housestyle.pipelines.mining.patterns.currency import FAMILIES as CURRENCY

    hostile = "1 " * 5000
    for family in CURRENCY:
        prefilter = family_prefilter(family)
        assert prefilter is not None and prefilter.search(hostile) is None
        assert prefilter.search("5 US$") and prefilter.search("10\u00a0€") and prefilter.search("R$ 3")
        assert count_variants(family, [hostile]) == ({}, {})


def test_a_long_run_of_numbers_with_a_currency_sign_is_counted_on_the_timed_engine(caplog) -> None:  # type: ignore[no-untyped-def]
    """With a sign in the target the backtracking stays (4,000 characters of ``1 1 …`` and a ``$``: 1.2 s;
    quadratic, so 40,000: minutes). A target over the scorer's MAX_FAST_TEXT is counted on its timed
    engine: an ordinary long one counts as ``re`` counts it; the hostile one times out, is logged and
    counts nothing, and after MAX_TIMEOUTS the variant is not run on the long targets left."""
    import logging
    from collections import Counter

    from housestyle.pipelines.conventions.timed_regex import MAX_FAST_TEXT, MAX_TIMEOUTS
    from housestyle.pipelines.mining.patterns.currency import SYMBOL_POSITION, SYMBOL_SPACE

    ordinary = "Un don de 20\u00a0$, un autre de 30 $ et de 5 €. " * 200
    assert len(ordinary) > MAX_FAST_TEXT
    expected = Counter({v.name: len(v.count.findall(ordinary)) for v in SYMBOL_SPACE.variants})
    assert count_variants(SYMBOL_SPACE, [ordinary]) == (+expected, Counter(dict.fromkeys(+expected, 1)))
    assert len(+expected) == 2  # the no-break space and the space variants both occur

    # "$ 1" is a sign before its amount, found at once; the sign-after variant retries the run of
    # numbers from every digit (and finds no sign after it).
    hostile = "$ " + "1 " * 20_000 + "x"
    with caplog.at_level(logging.WARNING, logger="housestyle.mining"):
        occ, units = count_variants(SYMBOL_POSITION, [hostile] * (MAX_TIMEOUTS + 2))
    warned = [r.getMessage() for r in caplog.records if r.getMessage().startswith(f"{SYMBOL_POSITION.dimension}, variant 'after'")]
    assert len(warned) == MAX_TIMEOUTS and all("not counted in a target of 40,003 characters" in w for w in warned)
    assert occ == units == Counter(before=MAX_TIMEOUTS + 2)
