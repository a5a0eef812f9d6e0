"""What a termbase says about one concept in one language pair, whatever the file format.

Every reader (``glossary.tbx``, ``glossary.tables``) yields ``Concept``s and ``Refusal``s; the
conversion to conventions (``glossary.conventions``) never sees a format. Term statuses are mapped
onto three roles by ``role_of``: a preferred term is required, an admitted one an accepted
alternative, a deprecated / forbidden / obsolete one a wrong variant. A term without a status is
preferred (a plain two-column glossary lists the renderings to use).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from housestyle.pipelines.langtags import same_language, try_normalise

Role = Literal["preferred", "admitted", "wrong"]

# Status words as the formats spell them (folded: lower case, '-', '_' and spaces removed):
# TBX administrativeStatus / termStatus values, Crowdin statuses, Phrase and Weblate flags.
_ROLES: dict[str, Role] = {
    **dict.fromkeys(("preferred", "preferredterm", "preferredtermadmnsts", "approved", "new", "standardized",
                     "standardizedterm", "standardizedtermadmnsts", "legal", "regulated"), "preferred"),
    **dict.fromkeys(("admitted", "admittedterm", "admittedtermadmnsts", "permitted", "allowed", "synonym"), "admitted"),
    **dict.fromkeys(("deprecated", "deprecatedterm", "deprecatedtermadmnsts", "forbidden", "forbiddenterm",
                     "notrecommended", "obsolete", "supersededterm", "supersededtermadmnsts", "superseded",
                     "rejected"), "wrong"),
}


def role_of(status: str | None) -> Role | None:
    """The role a status word gives a term (None: an unknown word, refused by the caller);
    no status at all is ``preferred``."""
    if status is None or not status.strip():
        return "preferred"
    return _ROLES.get("".join(c for c in status.lower() if c.isalnum()))


@dataclass(slots=True)
class Concept:
    """One termbase entry seen from one language pair: the source terms that trigger it and the
    target terms by role. ``where`` names the file and line (or row) for messages."""

    concept_id: str
    where: str
    src_lang: str
    tgt_lang: str
    sources: list[str] = field(default_factory=list)
    preferred: list[str] = field(default_factory=list)
    admitted: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    note: str | None = None

    def add(self, term: str, role: Role) -> None:
        bucket = {"preferred": self.preferred, "admitted": self.admitted, "wrong": self.wrong}[role]
        if term and term not in bucket:
            bucket.append(term)


@dataclass(frozen=True, slots=True)
class Refusal:
    """An entry (or one of its terms) not imported, and why."""

    where: str
    concept_id: str
    reason: str


def covers(asked: str | None, lang: str | None) -> bool:
    """Whether a language the caller asked for takes in a file's ``lang``: the same tag, or a bare
    language (``en``) for any of its regional tags (``en-US``); None asks for any language."""
    if asked is None:
        return True
    if same_language(asked, lang):
        return True
    a, b = try_normalise(asked), try_normalise(lang)
    return a is not None and b is not None and "-" not in a and b.split("-")[0] == a
