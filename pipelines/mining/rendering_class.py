"""Whether a rendering is nominal: terminology is noun phrases, so renderings that are clauses,
verbs or adverbs are phrasing, not terms. The small French tagger errs on words of short segments,
so a rendering's tags in context are repaired from each word's tags over the whole TM.
"""

from __future__ import annotations

from collections import Counter

from housestyle.pipelines.mining.term_candidates import Candidates
from housestyle.pipelines.mining.tokens import DOUBTFUL_VERB

CONTENT_POS = frozenset({"NOUN", "PROPN", "ADJ"})
NOUNISH = frozenset({"NOUN", "PROPN", ""})  # "" = no tagger
FINITE = frozenset({"VFIN", "AUX", DOUBTFUL_VERB})


def nominal(pos_seqs: Counter[str]) -> bool:
    """Whether a rendering is nominal in most of its occurrences: it starts with a noun, proper noun
    or adjective (then followed by its noun) and holds a noun or proper noun (a lone adjective passes). Terminology is nominal;
    verbs and adverbs are phrasing. The small tagger errs on later words (``numérique`` as VERB),
    so only the first word's tag is strict. An empty tag is unknown (no tagger, or a tag the
    lemmatiser contradicted) and stands for any content word."""
    total = sum(pos_seqs.values())
    if not total:
        return True
    good = 0
    for seq, count in pos_seqs.items():
        tags = seq.split(" ")
        if (tags[0] in CONTENT_POS or tags[0] == "") and (len(tags) == 1 or any(t in NOUNISH for t in tags)) \
                and not any(t in FINITE for t in tags) and _adjectives_reach_a_noun(tags):
            good += count
    return good * 2 > total


def _adjectives_reach_a_noun(tags: list[str]) -> bool:
    """Leading adjectives must qualify a noun that follows them (``forte prévalence``); adjectives
    followed by a preposition lost their noun to the left of the span: ``médicales d'urgence`` of
    ``services médicaux d'urgence``, ``annuel d'activité de la société`` of ``rapport …``."""
    rest = [t for t in tags if t != "ADJ"] if tags[0] == "ADJ" else []
    return not rest or rest[0] in NOUNISH


def nominal_key(key: str, cands: Candidates) -> bool:
    """``nominal`` on the rendering's tags in context, repaired from each word's tags over the whole
    TM (the small tagger misreads words of short segments): a word that is mostly a noun in the TM
    counts as a noun where the tagger read an adjective or an infinitive, or a doubtful finite verb
    where a noun phrase can start (``mise`` as a verb in ``mise en page``, ``ferme`` as ADJ); any
    other doubtful finite verb is a finite verb (``lave``). A backed finite verb stays one."""
    seqs = cands.pos.get(key, Counter())
    words = key.split(" ")
    as_read: Counter[str] = Counter()
    repaired: Counter[str] = Counter()
    for seq, count in seqs.items():
        tags = seq.split(" ")
        if len(tags) != len(words):
            tags = ["VFIN" if t == DOUBTFUL_VERB else t for t in tags]
            as_read[" ".join(tags)] += count
            repaired[" ".join(tags)] += count
            continue
        usual = [_known_tag(cands.pos.get(w)) for w in words]
        # A doubtful verb may be a noun only where a noun phrase can start: first word, or after a
        # preposition, determiner or elided word (mise en page, mode d'emploi); after a noun it is the verb of a clause
        # (le fichier reste).
        opens = [i == 0 or tags[i - 1] in ("ADP", "DET") or words[i - 1].endswith("'") for i in range(len(tags))]
        as_read[" ".join(_settle(t, u, t == DOUBTFUL_VERB and o) for t, u, o in zip(tags, usual, opens))] += count
        repaired[" ".join(_settle(t, u, t not in FINITE or (t == DOUBTFUL_VERB and o))
                          for t, u, o in zip(tags, usual, opens))] += count
    if len(words) > 1 and _verb_object(words, seqs):
        return False
    return nominal(as_read) or (len(words) > 1 and nominal(repaired))


OPENS_NP = frozenset({"ADP", "CCONJ", "DET", ""})  # tags a determiner may follow inside a noun phrase


def _verb_object(words: list[str], seqs: Counter[str]) -> bool:
    """Whether, in most occurrences as tagged, a determiner other than a form of ``de`` directly
    follows a content word: a verb (past participles are tagged ADJ, some read as nouns) and its
    object (``accru la fréquence``, ``signé des pétitions``, ``réduit la consommation``). Inside
    a noun phrase a determiner follows a preposition or an elided one (``membre de la famille``,
    ``développement d'une``), or opens a superlative (``pays les plus touchés``). Checked before
    the tag repair, which may turn the participle into a noun."""
    total = clause = 0
    for seq, count in seqs.items():
        tags = seq.split(" ")
        if len(tags) != len(words):
            continue
        total += count
        if any(tags[i] == "DET" and tags[i - 1] not in OPENS_NP and words[i] != "de" and not words[i - 1].endswith("'")
               and tags[i + 1:i + 2] != ["ADV"] for i in range(1, len(tags))):  # d'une; pays les plus touchés
            clause += count
    return clause * 2 > total > 0


def _settle(tag: str, usual: str, replaceable: bool) -> str:
    """``usual`` where the word is mostly a noun and its tag may be replaced; a doubtful verb left
    standing is a finite verb."""
    if replaceable and usual in ("NOUN", "PROPN"):
        return usual
    return "VFIN" if tag == DOUBTFUL_VERB else tag


def _known_tag(tags: Counter[str] | None) -> str:
    """The word's most frequent tag over the TM, doubtful verbs and unknown tags aside ("" if none)."""
    items = [(n, t) for t, n in (tags or Counter()).items() if t and t != DOUBTFUL_VERB]
    return max(items)[1] if items else ""
