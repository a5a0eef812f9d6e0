"""Which conventions a command takes, by status (SPEC.md §3): one ``--status`` grammar for
``score``, the ``scoring_run`` asset, ``publish`` and ``review-export``.

Linguists' decisions give conventions a status: ``validated`` (accepted), ``rejected`` (kept in the
set for audit) or ``candidate`` (not reviewed yet). A run scores ``candidate`` and ``validated`` unless
told otherwise (SCORED_STATUSES); ``rejected`` is taken only when named, so a rule a linguist threw
out can never lower a system's score by default; ``publish`` takes ``validated`` only
(PUBLISHED_STATUSES). ``suggested`` (issue 25: mined, plausible, but the client's held-out approved
output does not keep it) is never scored, published or listed for review unless named
(``review-export --status suggested`` lists them so a linguist can promote one). A run records its selection (run.json, signature) together with how many
conventions it left out per status, so a reader knows what a figure covers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from housestyle.pipelines.conventions.model import STATUSES, Convention
from housestyle.pipelines.errors import ConfigError

SCORED_STATUSES: tuple[str, ...] = ("candidate", "validated")
PUBLISHED_STATUSES: tuple[str, ...] = ("validated",)
UNLISTED_STATUSES: tuple[str, ...] = ("suggested",)  # left out of a review packet unless named


def parse_statuses(value: str | Iterable[str] | None, default: tuple[str, ...] = SCORED_STATUSES) -> tuple[str, ...]:
    """``"validated,candidate"`` (or a list) → the selection in STATUSES order; None → ``default``;
    ``all`` → every status (rejected included: naming ``all`` names it). Nothing named, or an unknown
    status, is a ``ConfigError`` naming the known ones ."""
    if value is None:
        return default
    items = value.split(",") if isinstance(value, str) else list(value)
    names = {item.strip() for item in items if item.strip()}
    if not names:
        raise ConfigError(f"--status: give one or more of {', '.join(STATUSES)}, or all")
    if "all" in names:
        return STATUSES
    unknown = sorted(names - set(STATUSES))
    if unknown:
        raise ConfigError(f"--status: unknown status {', '.join(unknown)} (one of {', '.join(STATUSES)}, or all)")
    return tuple(s for s in STATUSES if s in names)


def status_mix(conventions: Iterable[Convention]) -> dict[str, int]:
    """Conventions per status, in STATUSES order (statuses with none left out)."""
    counts = Counter(c.status for c in conventions)
    return {s: counts[s] for s in (*STATUSES, *sorted(set(counts) - set(STATUSES))) if counts[s]}


def select_statuses(conventions: Sequence[Convention], statuses: Sequence[str]) -> tuple[list[Convention], dict[str, int]]:
    """(the conventions whose status is in ``statuses``, how many were left out per status)."""
    wanted = set(statuses)
    kept = [c for c in conventions if c.status in wanted]
    return kept, status_mix(c for c in conventions if c.status not in wanted)
