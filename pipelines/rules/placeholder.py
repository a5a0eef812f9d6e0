"""``placeholder``: the output carries exactly the source's placeholders and inline-code tokens.

Tokens are the inline codes ingest turned into ``⟨g1⟩…⟨/g1⟩`` / ``⟨x2/⟩`` (always checked, see
``housestyle.pipelines.readers.base.INLINE_TOKEN_RE``) plus whatever ``params.patterns`` match (regexes,
applied on text folded with ``match_mode``; default ``DEFAULT_PATTERNS``: ``{0}``, ``{name}``,
``%s``/``%d``/``%1$s``/``%(name)s``/``%@``, ``${name}``, ``{{ name }}``; ``MARKUP_PATTERN`` matches
the HTML/XML tags that plain-text formats — PO, TSV, JSONL — keep as text). Source and output must
hold the same MULTISET, both ways: a token missing in the output is a missing expected string, an
extra one (or an extra copy) is a wrong variant with its span — also where the source has none
(``Hello there.`` → ``Bonjour {0}.`` fails). The order is free, so reordering paired tags is allowed.
A tag whose link is localised for the target language (a ``/en/`` path segment written ``/fr/``) is
the source's tag.
Applies to every segment its ``src`` trigger selects (without ``src``: every segment of the pair), so
a convention's scored items never depend on a system's output.
params: ``{"patterns": [regex, ...]}`` (optional; replaces the defaults, inline tokens stay);
``{"inline": false}`` leaves the inline codes to another placeholder convention of the set (the
scorer's built-in check uses it so a token is never counted twice).
"""

from __future__ import annotations

from collections import Counter

from housestyle.pipelines.conventions.compiled import Compiled
from housestyle.pipelines.conventions.folding import fold_with_map
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.regex_guard import compile_problem, min_width, static_problem
from housestyle.pipelines.conventions.timed_regex import TimedPattern
from housestyle.pipelines.readers.base import INLINE_TOKEN_RE
from housestyle.pipelines.rules._params import check_keys, fail, str_list
from housestyle.pipelines.rules.base import Findings, ItemVerdict, RuleSpec, always, match_entries, verdict

DEFAULT_PATTERNS: tuple[str, ...] = (
    r"\{\d+\}",
    r"\{[A-Za-z_][\w.\-]*\}",
    r"%(?:\d+\$)?(?:\([A-Za-z_]\w*\))?[sd@]",
    r"\$\{[A-Za-z_][\w.\-]*\}",
    r"\{\{\s*[A-Za-z_][\w.\-]*\s*\}\}",
)
# An HTML/XML start, end or empty-element tag written as text, attributes included (``<a href="x">``,
# ``</a>``, ``<br/>``): a letter must follow ``<`` so ``a < b`` and ``<-`` are not tags. Attribute
# values are part of the token: a translated ``title="…"`` counts as a changed tag.
MARKUP_PATTERN = r"</?[A-Za-z][\w:.\-]*(?:\s[^<>]*)?/?>"


def prepare(conv: Convention) -> TimedPattern:
    patterns = conv.params.get("patterns", list(DEFAULT_PATTERNS))
    # longest constructs first, so {{ name }} is one token, not {name} inside braces
    inline = [INLINE_TOKEN_RE.pattern] if conv.params.get("inline", True) else []
    ordered = [*inline, *sorted(patterns, key=lambda p: -len(p))]
    return TimedPattern("|".join(f"(?:{p})" for p in ordered))


def validate(conv: Convention) -> None:
    check_keys(conv, {"patterns", "inline"})
    if not isinstance(conv.params.get("inline", True), bool):
        raise fail(conv, "must be true or false", "inline")
    if conv.params.get("inline") is False and not str_list(conv, "patterns", list(DEFAULT_PATTERNS)):
        raise fail(conv, "checks nothing: no patterns and no inline codes", "patterns")
    for pattern in str_list(conv, "patterns", list(DEFAULT_PATTERNS)):
        problem = compile_problem(pattern) or static_problem(pattern)
        if problem is None and min_width(pattern) == 0:
            problem = "pattern can match the empty string"
        if problem:
            raise fail(conv, f"{problem}: {pattern!r}", "patterns")


def tokens(cc: Compiled, text: str) -> list[tuple[str, int, int]]:
    """(token, raw start, raw end) in order of appearance."""
    folded = fold_with_map(text, cc.mode)
    pattern: TimedPattern = cc.prepared
    out = []
    for match in pattern.finditer(folded.text):
        start, end = folded.raw_span(*match.span())
        out.append((text[start:end], start, end))
    return out


def _language_paths(conv: Convention) -> tuple[str, str] | None:
    """("/tgt/", "/src/") path segments of the pair's primary language subtags; None without both."""
    src, tgt = (((lang or "").replace("_", "-").split("-")[0]).casefold() for lang in (conv.src_lang, conv.tgt_lang))
    return (f"/{tgt}/", f"/{src}/") if src and tgt and src != tgt else None


def _same_tag(tok: str, paths: tuple[str, str] | None) -> str:
    """A tag with a link localised for the target (``href=".../fr/ref/..."`` where the source has
    ``/en/``: Django's docs links, issue 25 held-out failures) is the source's tag: the key compared."""
    if paths is None or not tok.startswith("<"):
        return tok
    return tok.replace(paths[0], paths[1])


def check(cc: Compiled, source: str, output: str) -> ItemVerdict:
    findings = match_entries(fold_with_map(output, cc.mode), cc.expected, cc.wrong, Findings())
    paths = _language_paths(cc.conv)
    source_tokens = [tok for tok, _s, _e in tokens(cc, source)]
    wanted = Counter(_same_tag(tok, paths) for tok in source_tokens)
    written = {_same_tag(tok, paths): tok for tok in reversed(source_tokens)}  # key -> as the source writes it
    seen: Counter[str] = Counter()
    for tok, start, end in tokens(cc, output):
        key = _same_tag(tok, paths)
        seen[key] += 1
        if seen[key] > wanted[key]:
            findings.found.append(tok)
            findings.spans.append((start, end))
    for key, count in wanted.items():
        findings.missing.extend([written[key]] * max(0, count - seen[key]))
    return verdict(findings.missing, findings.found, findings.spans)


SPEC = RuleSpec(
    name="placeholder", static=False, validate=validate, prepare=prepare, applies=always, check=check,
    params_doc='{"patterns": ["\\\\{\\\\d+\\\\}", "%\\\\(\\\\w+\\\\)s"]} (optional)',
)
