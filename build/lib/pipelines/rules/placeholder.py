"""``placeholder``: the output carries exactly the source's placeholders and inline-code tokens.

Tokens are the inline codes ingest turned into ``⟨g1⟩…⟨/g1⟩`` / ``⟨x2/⟩`` (always checked, see
``pipelines.readers.base.INLINE_TOKEN_RE``) plus whatever ``params.patterns`` match (regexes,
applied on text folded with ``match_mode``; default ``DEFAULT_PATTERNS``: ``{0}``, ``{name}``,
``%s``/``%d``/``%1$s``/``%(name)s``/``%@``, ``${name}``, ``{{ name }}``). Source and output must hold
the same MULTISET: a token missing in the output is a missing expected string, an extra one (or an
extra copy) is a wrong variant with its span. Applies to segments whose source holds at least one
token (a convention's scored items never depend on a system's output).
params: ``{"patterns": [regex, ...]}`` (optional; replaces the defaults, inline tokens stay).
"""

from __future__ import annotations

import re
from collections import Counter

from pipelines.conventions.compiled import Compiled
from pipelines.conventions.folding import fold_with_map
from pipelines.conventions.model import Convention
from pipelines.conventions.regex_guard import compile_problem, min_width, static_problem
from pipelines.readers.base import INLINE_TOKEN_RE
from pipelines.rules._params import check_keys, fail, str_list
from pipelines.rules.base import Findings, ItemVerdict, RuleSpec, match_entries, verdict

DEFAULT_PATTERNS: tuple[str, ...] = (
    r"\{\d+\}",
    r"\{[A-Za-z_][\w.\-]*\}",
    r"%(?:\d+\$)?(?:\([A-Za-z_]\w*\))?[sd@]",
    r"\$\{[A-Za-z_][\w.\-]*\}",
    r"\{\{\s*[A-Za-z_][\w.\-]*\s*\}\}",
)


def prepare(conv: Convention) -> re.Pattern[str]:
    patterns = conv.params.get("patterns", list(DEFAULT_PATTERNS))
    # longest constructs first, so {{ name }} is one token, not {name} inside braces
    ordered = [INLINE_TOKEN_RE.pattern, *sorted(patterns, key=lambda p: -len(p))]
    return re.compile("|".join(f"(?:{p})" for p in ordered))


def validate(conv: Convention) -> None:
    check_keys(conv, {"patterns"})
    for pattern in str_list(conv, "patterns", list(DEFAULT_PATTERNS)):
        problem = compile_problem(pattern) or static_problem(pattern)
        if problem is None and min_width(pattern) == 0:
            problem = "pattern can match the empty string"
        if problem:
            raise fail(conv, f"{problem}: {pattern!r}", "patterns")


def tokens(cc: Compiled, text: str) -> list[tuple[str, int, int]]:
    """(token, raw start, raw end) in order of appearance."""
    folded = fold_with_map(text, cc.mode)
    pattern: re.Pattern[str] = cc.prepared
    out = []
    for match in pattern.finditer(folded.text):
        start, end = folded.raw_span(*match.span())
        out.append((text[start:end], start, end))
    return out


def applies(cc: Compiled, source: str) -> bool:
    pattern: re.Pattern[str] = cc.prepared
    return pattern.search(fold_with_map(source, cc.mode).text) is not None


def check(cc: Compiled, source: str, output: str) -> ItemVerdict:
    findings = match_entries(fold_with_map(output, cc.mode), cc.expected, cc.wrong, Findings())
    wanted = Counter(tok for tok, _s, _e in tokens(cc, source))
    seen: Counter[str] = Counter()
    for tok, start, end in tokens(cc, output):
        seen[tok] += 1
        if seen[tok] > wanted[tok]:
            findings.found.append(tok)
            findings.spans.append((start, end))
    for tok, count in wanted.items():
        findings.missing.extend([tok] * max(0, count - seen[tok]))
    return verdict(findings.missing, findings.found, findings.spans)


SPEC = RuleSpec(
    name="placeholder", static=False, validate=validate, prepare=prepare, applies=applies, check=check,
    params_doc='{"patterns": ["\\\\{\\\\d+\\\\}", "%\\\\(\\\\w+\\\\)s"]} (optional)',
)
