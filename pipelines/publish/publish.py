"""Open a convention set, keep the conventions of the chosen statuses, and write them where
translators work: a TBX termbase or CSV glossary (term rules) and/or QA checks (the other rules).

Every convention lands in exactly one place: glossary material (``glossary.is_glossary``) in the
TBX/CSV, the rest in the QA JSON; what the chosen format does not carry is counted as left out,
so the summary accounts for every convention of the set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from housestyle.pipelines import atomic
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventionset.store import convention_source
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.publish.csv_glossary import write_csv
from housestyle.pipelines.publish.csv_layouts import LAYOUTS, write_layout
from housestyle.pipelines.publish.glossary import glossary_entries, is_glossary
from housestyle.pipelines.publish.qa import qa_checks, qa_document, write_qa
from housestyle.pipelines.publish.select import NOT_IN_FORMAT, Account, by_status
from housestyle.pipelines.publish.tbx import write_tbx

FORMATS: tuple[str, ...] = ("tbx", "csv", "qa")
QA_SUFFIX = ".qa.json"


@dataclass(slots=True)
class Written:
    path: Path
    items: int
    unit: str  # what ``items`` counts: "term entries" (TBX), "rows" (CSV), "checks" (QA)
    size: int


@dataclass(slots=True)
class Publication:
    set_version: str | None
    account: Account
    files: list[Written]


def qa_beside(out: Path) -> Path:
    """Where ``--with-qa`` writes the QA checks of a TBX/CSV publication: FILE.qa.json."""
    return out.with_name(out.name + QA_SUFFIX)


def publish(conventions: Path, fmt: str, out: Path, statuses: Sequence[str], *,
            with_qa: bool = False, layout: str | None = None) -> Publication:
    """Write the publication; ``statuses``: what ``housestyle.pipelines.conventions.statuses.parse_statuses`` gave. Refuses an incomplete set
    (``convention_source``: InputError naming the folder)."""
    if fmt not in FORMATS:
        raise ConfigError(f"--format: one of {', '.join(FORMATS)}, not {fmt!r}")
    if layout is not None and (fmt != "csv" or layout not in LAYOUTS):
        raise ConfigError(f"--layout goes with --format csv and is one of {', '.join(LAYOUTS)}, not {layout!r}")
    out = Path(out)
    atomic.writable_folder(out.parent)
    path, opened = convention_source(Path(conventions))
    # A sealed set's regexes passed the slow-regex probe when it was built (its hashes prove it is
    # that set); a loose file has not, so it is probed here.
    conventions_list = load_conventions(path, regex_guard=opened is None)
    set_version = opened.set_version if opened else None
    client = str(opened.manifest.get("client")) if opened and opened.manifest.get("client") else None
    account = Account()
    selected = by_status(conventions_list, statuses, account)
    terms = [c for c in selected if is_glossary(c)]
    others = [c for c in selected if not is_glossary(c)]
    files: list[Written] = []
    if fmt in ("tbx", "csv"):
        entries = glossary_entries(terms, account)
        if fmt == "tbx":
            src_lang = (opened.manifest.get("src_lang") if opened else None) or next(
                (c.src_lang for c in conventions_list if c.src_lang), "und")
            title = "housestyle conventions" + "".join(f" {x}" for x in (client, set_version) if x)
            size = write_tbx(entries, out, src_lang=str(src_lang), client=client, set_version=set_version,
                             title=title)
            files.append(Written(out, len(entries), "term entries", size))
        elif layout is not None:
            rows, size = write_layout(entries, out, layout)
            files.append(Written(out, rows, f"rows ({layout} layout)", size))
        else:
            size = write_csv(entries, out)
            rows = sum(len(e.source_terms) * (len(e.preferred) + len(e.deprecated)) for e in entries)
            files.append(Written(out, rows, "rows", size))
    else:
        for conv in terms:
            account.of(conv.rule).left_out[NOT_IN_FORMAT] += 1
    if fmt == "qa" or with_qa:
        checks = qa_checks(others, account)
        target = out if fmt == "qa" else qa_beside(out)
        document = qa_document(checks, client=client, set_version=set_version,
                               statuses=sorted(statuses))
        files.append(Written(target, len(checks), "checks", write_qa(document, target)))
    else:
        for conv in others:
            account.of(conv.rule).left_out[NOT_IN_FORMAT] += 1
    return Publication(set_version, account, files)
