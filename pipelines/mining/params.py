"""Every mining threshold in one place, grouped per stage of the miner (frozen dataclasses).

Defaults were chosen on the DEV data only (TICO-19 en→fr dev split, Mozilla VPN XLIFF, po-corpora);
the held-out probes (en→ru, en→zh, en→pt-BR, Mozilla PO files) were never used to set them.
``params_hash`` goes into the set_version, so changing a threshold changes the version. Access is
per stage (``params.terms.min_support``); ``with_`` takes dotted names (``{"terms.min_support": 2}``)
or a whole group (``terms=...`` as a dataclass or a dict of its fields).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, is_dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from housestyle.pipelines.conventions.model import canonical_json


@dataclass(frozen=True, slots=True)
class TermParams:
    """Which source terms are candidates and which of their renderings becomes a rule (term_rules,
    term_decision)."""

    max_words: int = 4  # longest source n-gram (words; hyphens inside a word do not count)
    min_support: int = 1  # units whose target holds the rendering
    min_consistency: float = 0.5  # support / units whose source holds the term
    cooc_min_units: int = 3  # co-occurring target words become candidates from this many units
    cognate_similarity: float = 0.8  # rapidfuzz ratio above which a single word is a cognate
    # A rendering far more associated with another term is that term's (competitive linking), unless
    # well attested (two synonyms, one French word). Without it (filter rendering_belongs_to_other_term
    # off; ablation figures as below): TICO .954→.945 (items 1499→1534); VPN .989→.989, Django and
    # Wagtail unchanged.
    reverse_ratio: float = 0.5
    reverse_max_support: int = 5
    stem_min_chars: int = 6  # one-word renderings sharing this long a stem join one rule
    compound_share: float = 0.9  # share of a rendering's occurrences hyphen-joined that makes it a compound's half
    compound_sample: int = 200  # evidence units read to tell a compound's half (see fragment_of_compound)
    # Terms, not vocabulary (termhood.py): a one-word term this frequent in general language (Zipf)
    # is a rule only at both figures below. Held-out (Mozilla VPN XLIFF, seeded half A mined, half B's
    # approved targets scored): one-word Zipf >= 4 rules pass .847 (Zipf < 4: .996); of those, the ones
    # at support >= 3 and consistency >= .9 pass .968, the rest .713. Without the filter (ablation
    # below): TICO .954→.950 (items 1499→1724), VPN .989→.987, Django .988→.980, Wagtail .958→.957;
    # without general_min_support only: TICO .954→.955, VPN .989→.988, Django .988→.980 (86→102 items),
    # Wagtail .958→.958; without general_min_consistency only: TICO .954→.949 (1499→1681 items), VPN
    # .989→.987, Django .988→.989, Wagtail .958→.957. Each alone leaves the ±.003 band, so all three stay.
    general_zipf: float = 4.0
    general_min_support: int = 3
    general_min_consistency: float = 0.9
    verb_min_aligned: int = 3  # a one-word term with no nominal rendering may take a verb aligned this often
    min_chars: int = 3  # shortest source term (characters)
    max_rendering_words: int = 5
    form_suffix_slack: int = 3  # an attested form of a multiword rendering joins it when each word
    # shares all but this many characters of the shorter word with the aligned form's word (paradigm.py)
    generate_forms: bool = True  # renderings also take the number/gender forms the TM did not
    # attest, where the target language has a generator (paradigm.FORM_GENERATORS; French)
    boundary_tolerance: float = 0.1  # shorter rendering wins only when it raises coverage by more
    conflict_min_share: float = 0.25  # a second rendering this frequent is reported as a conflict
    conflict_min_support: int = 2  # ... and seen in this many units: one unit is noise, not a conflict
    # Removed by the held-out ablation (issue 25; `python -m tests.bench.bench_heldout --only "tico en-fr
    # test→dev,mozilla vpn,django po fr,wagtail po fr"` with the filter off; figures: term held-out pass,
    # term held-out items, attested gold recalled by all rules). A filter went when every corpus kept its
    # pass rate within ±.003 and its items within ±0.3% and no gold was lost: the cross-fit's bar
    # (heldout.term) now does its job. The kept ones say "without it: ..." with the same figures.
    # - compositional_support 1 / compositional_dice .7 (filter not_compositional): TICO .954→.954, items
    #   1499→1501, gold 47→48; VPN .989→.989, 452→453; Django .988→.988, 86→86; Wagtail .958→.958, 783→785.
    # - singleton_max_words 3 (filter long_singleton): TICO .954→.954, items 1499→1498, gold 47→47; VPN,
    #   Django, Wagtail unchanged (.989/452, .988/86, .958/783).
    # - low_support 2, and with it min_dice .25 and low_support_min_align .5 (filter weak_low_support) and
    #   the filters rare_gerund, ends_in_modifier and cognate_of_other_term, which applied only at or below
    #   it; candidates.extra_words_allowed now holds at every support. Off: TICO .954→.954, items
    #   1499→1502, gold 47→47; VPN .989→.989, 452→452; Django .988→.988, 86→86; Wagtail .958→.957,
    #   783→784. Left without a user by those filters, and removed with them: term_context.modifier_share
    #   2/3 and word_class_min_aligned 3 (modifier_words, for ends_in_modifier), candidates.
    #   same_word_prefix_share .75 (other_word, for cognate_of_other_term).
    # - no_majority .5: at or below it a rendering needed a cognate or compositional one, but
    #   low_consistency rejects below min_consistency (.5) first, so it only ever judged a tie at the
    #   floor. Filter off: TICO .954→.954, items 1499→1499, gold 47→47; VPN, Django, Wagtail identical.
    #   The filter stays on min_consistency (the same boundary at the defaults): a 5/5 split is reported
    #   as a conflict, not mandated (test_conflicts_splits), which is no held-out figure's job.
    # All of the above removed together (this code): TICO .954→.954, items 1499→1503, gold 47→48; VPN
    # .989→.989, 452→453; Django .988→.988, 86→86; Wagtail .958→.957, 783→786. The cost: more rules
    # reach the suggested tier (TICO 3554→5289, VPN 368→490), the default review packet grows 384→402 (TICO).


@dataclass(frozen=True, slots=True)
class CandidateParams:
    """Term candidates and their renderings: word shapes and shares (term_rules, term_candidates,
    term_filters, boundary, compound)."""

    aligned_keys: int = 4  # aligned renderings tried per term: the strongest few (more add only noise)
    aligned_key_share: float = 0.2  # ... each aligned at least this share as often as the strongest
    cognate_min_chars: int = 5  # shorter words are too often alike by chance to count as cognates
    rival_terms: int = 8  # strongest rival terms kept per rendering, for competitive linking
    word_renderings: int = 3  # a source word's top aligned renderings, for the neighbour test (trim_overlong)
    neighbour_share: float = 0.5  # a word is a term's neighbour when beside it in this share of its units
    edge_min_chars: int = 2  # an edge word of a term span has this many characters (or terms.min_chars)
    elided_max_chars: int = 4  # an apostrophe-final word this short is an elided article or pronoun (l', qu')
    cooc_min_chars: int = 2  # a one-letter target word never renders a term on its own
    content_word_min_chars: int = 3  # a shorter word is a function word when counting content words
    rendering_word_min_chars: int = 2  # a one-letter word of a rendering counts for nothing
    cover_share: float = 0.5  # a rendering has counterparts for at least this share of the term's content words
    extra_words_allowed: int = 1  # content words a rendering may add to its term
    adverb_min_chars: int = 6  # shorter -ly words are rarely adverbs (only, fly, rely)
    participle_min_chars: int = 5  # shorter -ed words are rarely participles (red, bed, need)
    plural_stem_min_chars: int = 3  # an English plural keeps a stem this long (bus, gas are no plurals)
    shared_prefix_min_chars: int = 3  # two words share a start only when it is at least this long
    family_prefix_share: float = 0.5  # a verb and a noun of one family share this much of the shorter word
    stem_prefix_share: float = 0.8  # one-word renderings sharing this much of the shorter word are one rule
    compound_prefix_share: float = 0.8  # a hyphenated word sharing this much with a compound is its form


@dataclass(frozen=True, slots=True)
class TermContextParams:
    """What the rest of the TM says about a term (term_context)."""

    noun_min_aligned: int = 2  # alignments before a word can be told a noun
    noun_share: float = 0.5  # a noun's renderings are nouns more often than this
    verb_sense_min_aligned: int = 2  # a verb rendering aligned once is noise, not the term's verb sense
    verb_share: float = 0.5  # a verb rendering is tagged a verb more often than this
    nested_min_occurrences: int = 2  # a term seen once cannot tell whether it only occurs nested


@dataclass(frozen=True, slots=True)
class SuspectParams:
    """Misaligned units left out of the term rules (suspect_units.py)."""

    # A unit failing this improbably many of its term rules is misaligned (0 = off). Dev split: no
    # real unit flagged; with every 10th target swapped for another unit's, 60 of 97 swapped units
    # flagged and no other unit. Without it (0; ablation as in TermParams): TICO held-out term pass
    # .954→.952, items 1499→1409, gold 47→46; VPN, Django, Wagtail unchanged.
    alpha: float = 0.01


@dataclass(frozen=True, slots=True)
class AlignmentParams:
    """The word aligner (align.py) and its sample."""

    max_units: int = 20_000  # units aligned/lemmatised (a deterministic sample of larger TMs)
    iterations: int = 5
    diagonal: float = 4.0  # fast_align-style diagonal tension
    null: float = 0.08
    # A unit with more word pairs than this (|source tokens| x |target tokens|) gets no links: the
    # aligner holds every pair, and a hostile 20,000-word unit took ~10 GB before it was stopped. The
    # longest TICO-19 unit has ~53,000 pairs by whitespace words: no real sentence pair comes near.
    max_pairs_per_unit: int = 250_000


@dataclass(frozen=True, slots=True)
class PatternParams:
    """Patterned conventions (typography, quotes, dates, currency: patterns/)."""

    min_support: int = 5  # occurrences of the dominant variant
    min_consistency: float = 0.85  # dominant variant / all variants observed
    verify_max_units: int = 20_000  # units every non-term family is measured on (sample of larger TMs)


@dataclass(frozen=True, slots=True)
class CasingParams:
    """Title casing (patterns/casing.py)."""

    min_support: int = 5  # title-like source units
    min_consistency: float = 0.8
    keep_min_units: int = 2  # a capitalised target word kept in this many units joins ``keep``
    keep_min_ratio: float = 9.0  # ... written capitalised at least this many times per lowercase use
    script_probe_units: int = 2000  # targets looked at to tell an uncased script (zh, ja): no casing rule
    title_max_chars: int = 80  # a title-like source's words before / after its first space, at most


@dataclass(frozen=True, slots=True)
class SourceCopyParams:
    """Tokens copied from source to target unchanged (source_copy.py)."""

    min_support: int = 3
    min_consistency: float = 0.9


@dataclass(frozen=True, slots=True)
class NumericParams:
    """The decimal separator (numeric.py)."""

    min_support: int = 5
    min_consistency: float = 0.85
    max_integer_digits: int = 6  # a decimal with a longer integer part is a measurement of another kind (an id)
    max_fraction_digits: int = 4  # ... or with more decimals (coordinates): it does not show the format


@dataclass(frozen=True, slots=True)
class PlaceholderParams:
    """Placeholders and markup kept (placeholder.py)."""

    min_support: int = 3
    min_consistency: float = 0.9


@dataclass(frozen=True, slots=True)
class HeldoutBar:
    """A rule is kept as ``candidate`` when at least ``min_items`` held-out items exist and at least
    ``min_rate`` of them pass; otherwise it is ``suggested`` (heldout.py)."""

    min_items: int
    min_rate: float


@dataclass(frozen=True, slots=True)
class HeldoutParams:
    """The cross-fit's bars per rule kind (heldout.py), each justified by a held-out figure (issue 25
    table: TICO en→fr mined on `test`, scored on `dev`; Mozilla VPN XLIFF seeded halves):
    - term: rules seen on one unit pass .65 (TICO) / .80 (VPN) on held-out approved output. A rule
      needs >= 4 held-out items of which >= .95 pass: all of them up to 19 items, so "kept every time
      it was re-found, at least four times". Chosen in 0.4.7 from the grid of bars replayed on every
      bench case but the fomo probe (`python -m tests.eval.heldout_bar_rules --both-folds --out DIR`,
      `python -m tests.eval.heldout_bar_sim DIR`; tests/eval/heldout_bar_grid_2026-12-07.md): on the
      seeded A→B folds of the nine product corpora, pass >= .97 on 7 (3@.9, the bar before: 5; 4@.9:
      6; 5@.95: 6, Sphinx de left with no term rule); on the B→A folds, not used to choose, 6 (before:
      4). Django de .950 → .981, Sphinx fr .961 → .9705 (263/271), TICO test→dev .954 → .962; Plone fr/de stay
      below (.962/.925). The cost: fewer items (TICO test→dev 2.57 → 2.08 a segment, Sphinx fr .85 →
      .63, VPN 1.02 → .93; no corpus falls below the 0.5 coverage target that was above it) and fewer
      attested gold terms among the scored rules (TICO test→dev 39/49 → 38/49, dev→test 24/34 →
      22/34, VPN 2/5 → 1/5); the others wait as ``suggested``.
    - every other kind: pattern held out at .997/.999 and source_copy at 1.0 while casing was .667
      on VPN: the bar is the issue's target for these kinds, .99, on >= 3 items.
    Measured with these bars (tests/bench/results/heldout_2026-12-06.md, rules mined on one half by
    a miner that cross-fits inside that half, scored on the other half's approved targets): term
    rules .821 → .949 (TICO test→dev), .910 → .983 (Mozilla VPN); pattern/placeholder/source_copy
    >= .991 (the term bar then was >= 3 items at >= .9)."""

    term: HeldoutBar = HeldoutBar(min_items=4, min_rate=0.95)
    other: HeldoutBar = HeldoutBar(min_items=3, min_rate=0.99)
    # The cross-fit's units (heldout.sample_of): above this, the folds are cut from a hashed sample of
    # about this many. On 200,000 units of real text the cross-fit took 333 s of CPU beside the full
    # run's 386 s; on 1M units, re-mining both halves of the whole TM, mining took 2,226 s of CPU, and
    # 1,706 s with the sample (the same 14,416 rules; 1,472 terms suggested instead of 1,402). Every
    # corpus of the held-out bench (mined halves of at most 2,100 units) and the demo TM (3,071) are far
    # below, so their figures are unchanged.
    # The cost: in a larger TM a rule too rare to be re-found in half the sample is ``suggested``.
    # 0 (or less): no bound, every unit.
    max_units: int = 200_000


@dataclass(frozen=True, slots=True)
class MiningParams:
    """The miner's parameters, one group per stage."""

    terms: TermParams = TermParams()
    candidates: CandidateParams = CandidateParams()
    term_context: TermContextParams = TermContextParams()
    suspects: SuspectParams = SuspectParams()
    alignment: AlignmentParams = AlignmentParams()
    patterns: PatternParams = PatternParams()
    casing: CasingParams = CasingParams()
    source_copy: SourceCopyParams = SourceCopyParams()
    numeric: NumericParams = NumericParams()
    placeholder: PlaceholderParams = PlaceholderParams()
    heldout: HeldoutParams = HeldoutParams()

    def with_(self, changes: Mapping[str, Any] | None = None, /, **groups: Any) -> MiningParams:
        """A copy with ``changes`` by dotted name (``{"terms.min_support": 2, "heldout.term.min_rate":
        .95}``) and whole ``groups`` replaced (``terms=TermParams(...)`` or ``terms={"min_support": 2}``)."""
        out: Any = self
        for group, value in groups.items():
            current = _child(out, group, group)
            out = replace(out, **{group: replace(current, **value) if isinstance(value, Mapping) else value})
        for name, value in (changes or {}).items():
            out = _replace_path(out, name.split("."), value, name)
        return out

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, stored: Mapping[str, Any]) -> MiningParams:
        """The parameters a set's manifest stored (``to_dict``); names this version does not know
        (a set mined before a threshold was removed or the groups were formed) keep the default."""
        return _build(cls(), stored)

    def params_hash(self) -> str:
        return hashlib.sha256(canonical_json(self.to_dict()).encode("utf-8")).hexdigest()[:16]


def _child(obj: Any, part: str, name: str) -> Any:
    if part not in {f.name for f in fields(obj)}:
        raise ValueError(f"unknown mining parameter {name!r}")
    return getattr(obj, part)


def _replace_path(obj: Any, parts: list[str], value: Any, name: str) -> Any:
    current = _child(obj, parts[0], name)
    if len(parts) > 1:
        if not is_dataclass(current):
            raise ValueError(f"unknown mining parameter {name!r}")
        value = _replace_path(current, parts[1:], value, name)
    elif is_dataclass(current) and not is_dataclass(value):
        raise ValueError(f"mining parameter {name!r} is a group: give its fields")
    return replace(obj, **{parts[0]: value})


def _build(default: Any, stored: Mapping[str, Any]) -> Any:
    kept: dict[str, Any] = {}
    for f in fields(default):
        if f.name not in stored:
            continue
        value, current = stored[f.name], getattr(default, f.name)
        if not is_dataclass(current):
            kept[f.name] = value
        elif isinstance(value, Mapping):
            kept[f.name] = _build(current, value)
    return replace(default, **kept)


DEFAULT_PARAMS = MiningParams()


@lru_cache(maxsize=None)
def _fraction(share: float) -> Fraction:
    return Fraction(share).limit_denominator(1000)


def at_least(part: float, whole: float, share: float) -> bool:
    """``part >= share × whole``, exact for counts: the share is taken as the simple fraction it
    stands for (2/3, not 0.666…), so a share moved into the parameters never moves a boundary."""
    ratio = _fraction(share)
    return part * ratio.denominator >= ratio.numerator * whole


def more_than(part: float, whole: float, share: float) -> bool:
    """``part > share × whole``, exact for counts (see ``at_least``)."""
    ratio = _fraction(share)
    return part * ratio.denominator > ratio.numerator * whole
