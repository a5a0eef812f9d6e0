"""Inline codes -> stable placeholder tokens (``⟨g1⟩…⟨/g1⟩``, ``⟨x2/⟩``), plus the original markup.

Hand-written because no library does this mapping: translate-toolkit's placeables drop the code
identity we need to compare source and target token multisets. Rules (see base.INLINE_TOKEN_RE):
- every inline element yields tokens: a *paired* element (g, pc, hi, mrk, sub) an open and a close
  token around its text; a *begin* code (bpt, sc, sm) the open token and its *end* code (ept, ec, em)
  the matching close token; any other code (ph, x, it, ut, bx, ex, cp) one standalone token;
- a code's number is its ordinal in the source segment; a target reuses the source's number for the
  same code identity (kind family + id attribute + occurrence), unknown target codes get new numbers;
- the native code text inside bpt/ph/... is markup, not text: it only survives in ``*_markup``.
  A ``<sub>`` inside a code is translatable text, so it is emitted right after the code's token.
- namespaces: XLIFF readers pass the document's namespace, and only elements in it are inline
  codes. XLIFF 1.2 and 2.0 allow no extension element inside <source>/<target> (annotations go
  through <mrk>), so a foreign element there is an ``InlineError``: that segment is rejected with
  the reason, never read as if it were an XLIFF code. TMX has no namespace rules: local names.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from lxml import etree

from housestyle.pipelines.readers import safexml
from housestyle.pipelines.readers.base import INLINE_TOKEN_RE
from housestyle.pipelines.readers.safexml import local_name

Key = tuple[str, str | None, int]


class InlineError(ValueError):
    """Inline markup we cannot turn into tokens without losing information."""


@dataclass(frozen=True)
class InlineSpec:
    """Per-format vocabulary: role of each inline element and the attributes that identify codes."""

    roles: dict[str, str]  # name -> paired | begin | end | standalone
    id_attrs: dict[str, tuple[str, ...]]  # name -> attributes tried, in order, for cross-language identity
    begin_pair: dict[str, str] = field(default_factory=dict)  # begin name -> attribute pairing it to its end
    end_pair: dict[str, tuple[str, str]] = field(default_factory=dict)  # end name -> (begin name, attribute)


class Numbering:
    """Code numbers of one source segment; ``for_target`` gives a view for one target (cheap: no copy)."""

    __slots__ = ("_numbers", "_next", "_source")

    def __init__(self, source: Numbering | None = None) -> None:
        self._numbers: dict[Key, int] = {}
        self._source = source
        self._next: int = source._next if source is not None else 1

    def for_target(self) -> Numbering:
        return Numbering(self)

    def number(self, key: Key) -> int:
        if self._source is not None:
            found = self._source._numbers.get(key)
            if found is not None:
                return found
        n = self._next
        self._next += 1
        self._numbers[key] = n
        return n


def escape_text(text: str) -> str:
    """Text as XML character data (the markup of a segment without codes)."""
    if "&" in text or "<" in text or ">" in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text


def _check_text(text: str) -> None:
    if "⟨" in text and INLINE_TOKEN_RE.search(text):
        raise InlineError(f"text already contains a placeholder token: {INLINE_TOKEN_RE.search(text)!r}")


def inner_markup(element: safexml.Element) -> str:
    """The element's content as XML text, its own tags excluded.

    Serialised by lxml (C) and cut after the start tag and before the end tag: lxml escapes ``>``
    inside attribute values, so the first ``>`` ends the start tag. Namespace declarations needed by
    the content land on the (removed) outer tag, so inline elements are not cluttered with xmlns.
    """
    xml = etree.tostring(element, encoding="unicode", with_tail=False)
    if xml.endswith("/>") and xml.find(">") == len(xml) - 1:
        return ""
    return xml[xml.index(">") + 1 : xml.rindex("</")]


class _Walk:
    """One segment's walk. Hot for TMs full of tags: each lxml property read costs a C call and a new
    string, so every ``text``/``tail``/``tag`` is read once."""

    __slots__ = ("roles", "id_attrs", "begin_pair", "end_pair", "numbering", "seen", "open", "parts", "line_offset",
                 "prefix")

    def __init__(self, spec: InlineSpec, numbering: Numbering, line_offset: int = 0,
                 namespace: str | None = None) -> None:
        self.line_offset = line_offset
        self.prefix = None if namespace is None else (f"{{{namespace}}}" if namespace else "")
        self.roles = spec.roles
        self.id_attrs = spec.id_attrs
        self.begin_pair = spec.begin_pair
        self.end_pair = spec.end_pair
        self.numbering = numbering
        self.seen: dict[tuple[str, str | None], int] = {}
        self.open: dict[tuple[str, str | None], list[int]] = {}
        self.parts: list[str] = []

    def _number(self, family: str, element: safexml.Element) -> int:
        ident = None
        for attr in self.id_attrs.get(family, ()):
            ident = element.get(attr)
            if ident is not None:
                break
        key = (family, ident)
        occurrence = self.seen.get(key, 0)
        self.seen[key] = occurrence + 1
        return self.numbering.number((family, ident, occurrence))

    def content(self, element: safexml.Element) -> None:
        parts = self.parts
        text = element.text
        if text:
            if "⟨" in text:
                _check_text(text)
            parts.append(text)
        for child in element:
            self.code(child)
            tail = child.tail
            if tail:
                if "⟨" in tail:
                    _check_text(tail)
                parts.append(tail)

    def subs(self, code: safexml.Element) -> None:
        for child in code:
            if self._name(child) == "sub":
                self.code(child)

    def _name(self, element: safexml.Element) -> str:
        """The inline element's name; raises InlineError for an element outside the document's namespace."""
        tag = element.tag
        prefix = self.prefix
        if prefix is None:
            return tag if tag.__class__ is str and "}" not in tag else local_name(tag)
        if tag.__class__ is str and (tag.startswith(prefix) if prefix else not tag.startswith("{")):
            return tag[len(prefix):]
        raise InlineError(f"foreign element <{tag}> in inline content on line "
                          f"{(element.sourceline or 0) + self.line_offset} (XLIFF allows no extension "
                          "element there; annotations go in <mrk>)")

    def code(self, element: safexml.Element) -> None:
        name = self._name(element)
        role = self.roles.get(name)
        if role is None:
            raise InlineError(f"unknown inline element <{name}> on line {(element.sourceline or 0) + self.line_offset}")
        parts = self.parts
        if role == "paired":
            n = self._number(name, element)
            parts.append(f"⟨{name}{n}⟩")
            self.content(element)
            parts.append(f"⟨/{name}{n}⟩")
            return
        if role == "begin":
            n = self._number(name, element)
            pair_attr = self.begin_pair.get(name)
            if pair_attr is not None:
                self.open.setdefault((name, element.get(pair_attr)), []).append(n)
            parts.append(f"⟨{name}{n}⟩")
        elif role == "end":
            begin, attr = self.end_pair[name]
            stack = self.open.get((begin, element.get(attr)))
            if stack:
                parts.append(f"⟨/{begin}{stack.pop()}⟩")
            else:  # an end without its begin (isolated): a standalone code of its own
                parts.append(f"⟨{name}{self._number(name, element)}/⟩")
        else:
            parts.append(f"⟨{name}{self._number(name, element)}/⟩")
        if len(element):
            self.subs(element)


def render_text(text: str) -> tuple[str, str]:
    """(plain text, markup) of a segment without inline codes; raises InlineError (a fake token)."""
    if "⟨" in text:
        _check_text(text)
    return text, escape_text(text)


def render(element: safexml.Element | None, spec: InlineSpec, numbering: Numbering,
           line_offset: int = 0, namespace: str | None = None) -> tuple[str, str]:
    """(plain text with tokens, original inline markup) of a segment element; raises InlineError.
    ``line_offset``: added to line numbers in error messages (a document parsed in chunks);
    ``namespace``: the document's (XLIFF), None for local names (TMX)."""
    if element is None:
        return "", ""
    if len(element) == 0:  # fast path: no inline codes (most real TM segments)
        return render_text(element.text or "")
    walk = _Walk(spec, numbering, line_offset, namespace)
    walk.content(element)
    return "".join(walk.parts), inner_markup(element)


def count_tokens(text: str) -> Counter[str]:
    """Token multiset of a plain text (kind and number, open/close/standalone distinguished)."""
    return Counter(INLINE_TOKEN_RE.findall(text))


TMX_SPEC = InlineSpec(
    roles={"bpt": "begin", "ept": "end", "ph": "standalone", "it": "standalone", "ut": "standalone",
           "hi": "paired", "sub": "paired"},
    id_attrs={"bpt": ("x", "i"), "ph": ("x",), "it": ("x",), "ut": ("x",), "hi": ("x",)},
    begin_pair={"bpt": "i"},
    end_pair={"ept": ("bpt", "i")},
)

XLIFF12_SPEC = InlineSpec(
    roles={"g": "paired", "x": "standalone", "bx": "standalone", "ex": "standalone", "ph": "standalone",
           "bpt": "begin", "ept": "end", "it": "standalone", "sub": "paired", "mrk": "paired"},
    id_attrs={**{k: ("id",) for k in ("g", "x", "bx", "ex", "ph", "bpt", "it")}, "mrk": ("mid",)},
    begin_pair={"bpt": "id"},
    end_pair={"ept": ("bpt", "id")},
)

XLIFF2_SPEC = InlineSpec(
    roles={"pc": "paired", "ph": "standalone", "sc": "begin", "ec": "end", "mrk": "paired", "sm": "begin",
           "em": "end", "cp": "standalone"},
    id_attrs={**{k: ("id",) for k in ("pc", "ph", "sc", "mrk", "sm")}, "cp": ("hex",), "ec": ("id",)},
    begin_pair={"sc": "id", "sm": "id"},
    end_pair={"ec": ("sc", "startRef"), "em": ("sm", "startRef")},
)
