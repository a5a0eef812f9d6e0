"""``term``: required terminology. Every expected term must be present; wrong variants (the
translations the client rejected) must be absent. Usually triggered by ``src`` (the source term).

One optional param, ``yields_to`` (a list of longer source terms, plain strings in the trigger's
mode): longest match. An occurrence of ``src`` inside an occurrence of one of them does not trigger
the rule; the longer term's own rule decides there (``page`` yields to ``child page``, rendered
``sous-page``: "Ajouter une sous-page" is not a missing ``page``). The rule applies where at least
one occurrence of ``src`` lies outside them. The miner writes it (``mining/precedence.py``); issue 25's
held-out failures: 16 of 39 matching defects were a shorter term triggered inside a longer one.
"""

from __future__ import annotations

from housestyle.pipelines.conventions.compiled import Compiled, Entry, make_entry
from housestyle.pipelines.conventions.folding import fold_with_map
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules._params import check_keys, fail, str_list
from housestyle.pipelines.rules.base import RuleSpec, static_check

MAX_YIELDS = 64  # longer terms one rule yields to (the miner writes a handful)


def validate(conv: Convention) -> None:
    if not conv.params:
        return
    check_keys(conv, {"yields_to"})
    longer = str_list(conv, "yields_to")
    if len(longer) > MAX_YIELDS:
        raise fail(conv, f"params.yields_to lists {len(longer)} terms (at most {MAX_YIELDS})", "yields_to")
    if conv.src is None:
        raise fail(conv, "params.yields_to needs a src trigger", "yields_to")


def prepare(conv: Convention) -> tuple[Entry, ...] | None:
    """The longer terms as plain entries in the trigger's mode; None without ``yields_to``."""
    longer = conv.params.get("yields_to") if conv.params else None
    if not longer:
        return None
    return tuple(make_entry(t, conv.trigger_mode, False) for t in longer)


def applies(cc: Compiled, source: str) -> bool:
    """Some occurrence of the trigger lies outside every occurrence of the longer terms."""
    longer: tuple[Entry, ...] | None = cc.prepared
    if not longer or cc.trigger is None:
        return True
    folded = fold_with_map(source, cc.trigger_mode).text
    covers = [span for entry in longer for span in entry.find(folded, raw=source)]
    if not covers:
        return True
    return any(not any(a <= start and end <= b for a, b in covers)
               for start, end in cc.trigger.find(folded, raw=source))


SPEC = RuleSpec(
    name="term", static=True, validate=validate, prepare=prepare, applies=applies,
    check=lambda cc, source, output: static_check(cc, output),
    params_doc='{"yields_to": [longer source terms]} (optional): an occurrence of src inside one of them does not trigger',
)
