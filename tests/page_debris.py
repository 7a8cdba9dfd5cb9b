"""A lint of rendered pages for text that is not content, used by the page tests and bench/page_quality.py:
escapes the site's Markdown renderer shows as they are, reST underlines and roles, licence headers, build tags,
and sentences said twice. It reads the markdown as the reader will see it (escapes resolved, code and
diagrams left out) and names each finding."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# what Python-Markdown (with the tables extension) turns back into the character: anything else keeps its
# backslash on screen
HONOURED_ESCAPES = set("\\`*_{}[]()>#+-.!|")
_ESCAPE = re.compile(r"\\(.)")
_UNDERLINE = re.compile(r"(^|\s)([=~^\"'*+#/-])\2{3,}(\s|$)")  # reST underlines, comment banners
_ROLE = re.compile(
    r":(?:py:)?(?:class|func|meth|attr|mod|obj|exc|data|const|ref|doc|term|ivar|param|type):`?"
)
_LICENCE = re.compile(
    r"copyright \(c\)|copyright ©|licensed under|spdx-license-identifier|all rights reserved"
    r"|permission is hereby granted|(apache|opensource|gnu)\.org/licenses",
    re.IGNORECASE,
)
_BUILD_TAG = re.compile(r"go:build|\+build\s|-\*- coding|eslint-disable|@license\b|#!/|jshint|noinspection")
_LINK_SYNTAX = re.compile(r"\\\]\\[\[(]")  # "\]\[" or "\]\(": a link the text quoted, shown raw
_LINK = re.compile(r"\]\([^)]*\)")
_CODE_SPAN = re.compile(r"(?<!\\)`[^`]*(?<!\\)`")  # an escaped backtick opens no span
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
MIN_REPEATED_WORDS = 6


@dataclass(frozen=True)
class Debris:
    line: int
    kind: str  # "escape", "underline", "role", "licence", "build tag", "repeated sentence"
    text: str


def prose_lines(markdown: str) -> Iterator[tuple[int, str]]:
    """(line number, visible text) of every line outside fences, admonition bodies excluded from nothing:
    link targets and code spans removed, honoured escapes resolved."""
    fenced = False
    for number, line in enumerate(markdown.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or re.fullmatch(r"\|?[\s:|-]+\|?", line.strip() or "x"):
            continue  # code, diagrams, table rules
        visible = _CODE_SPAN.sub("", _LINK.sub("]", line))
        yield number, visible


def find_debris(markdown: str) -> list[Debris]:
    """Every piece of debris on one page."""
    found: list[Debris] = []
    sentences: Counter[str] = Counter()
    first_line: dict[str, int] = {}
    for number, text in prose_lines(markdown):
        found += _line_debris(number, text)
        if text.lstrip().startswith(("#", "|", "- ", "    ", "!!!", "*")) or re.match(r"\d+\. ", text):
            continue  # headings, tables, lists: not running prose
        for sentence in _SENTENCE.split(_visible(text).strip()):
            if len(sentence.split()) >= MIN_REPEATED_WORDS:
                sentences[sentence] += 1
                first_line.setdefault(sentence, number)
    found += [
        Debris(first_line[s], "repeated sentence", s[:120]) for s, count in sentences.items() if count > 1
    ]
    return sorted(found, key=lambda d: (d.line, d.kind))


def _line_debris(number: int, text: str) -> Iterable[Debris]:
    shown = _visible(text)
    for match in _ESCAPE.finditer(text):
        if match.group(1) not in HONOURED_ESCAPES:
            yield Debris(number, "escape", text.strip()[:120])
            break
    unescaped = _ESCAPE.sub(r"\1", text)  # "\~\~\~" is an underline on screen too
    if _UNDERLINE.search(unescaped):
        yield Debris(number, "underline", shown.strip()[:120])
    if _LINK_SYNTAX.search(text):
        yield Debris(number, "link syntax", shown.strip()[:120])
    checks = (("role", _ROLE), ("licence", _LICENCE), ("build tag", _BUILD_TAG))
    for kind, pattern in checks:
        if pattern.search(shown):
            yield Debris(number, kind, shown.strip()[:120])


def _visible(text: str) -> str:
    return _ESCAPE.sub(lambda m: m.group(1) if m.group(1) in HONOURED_ESCAPES else m.group(0), text)


def repeated_openings(pages: dict[str, str]) -> list[Debris]:
    """The same opening paragraph on several pages (one fragment used as the purpose of many shards)."""
    openings: dict[str, list[str]] = {}
    for name, markdown in pages.items():
        lines = [t for _, t in prose_lines(markdown) if t.strip() and not t.lstrip().startswith("#")]
        if lines:
            openings.setdefault(_visible(lines[0]).strip(), []).append(name)
    return [
        Debris(1, "repeated sentence", f"{text[:80]} (on {', '.join(names)})")
        for text, names in openings.items()
        if len(names) > 1 and len(text.split()) >= MIN_REPEATED_WORDS
    ]
