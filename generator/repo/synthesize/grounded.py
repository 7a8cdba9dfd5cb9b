"""A model's prose checked sentence by sentence against the facts it was given (concept pages, answer pages).

Each fact is a line (or block) of the prompt with the lines it lets the model cite. A sentence is kept when
every citation in it lies within a given fact's lines, and when most of its words are the words of the facts
it rests on (those it cites; else those its line cites; else all of them): a weak model copies a fact's
citation and writes beside it a sentence of its own, or echoes the prompt ("Sure, here is a guide page …").
A code block is kept only when it is copied from the facts (a model's own code is invented code); a heading
only when something stays under it; a sentence only once. When less than half of what the model wrote is
left, or none of its citations, the prose is refused (ResearchError) and the caller uses the offline text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from generator.errors import ResearchError
from generator.repo.analyze.citations import CITATION_RE, Linker, check_citations, looks_like_file
from generator.repo.analyze.draft import repeats_itself
from generator.repo.model import Citation
from generator.text.grounding import grounded, source_words

_MARKER = re.compile(r"^(\s*(?:[-*+]|\d{1,3}[.)])\s+)")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\[])")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
MAX_HEADING_WORDS = 10  # a longer "heading" is a sentence the model marked up


@dataclass(frozen=True)
class Fact:
    """One line (or block) of a prompt and the lines it lets the model cite."""

    text: str
    spans: tuple[Citation, ...]
    part: str = "code"  # the prompt's section it is shown in ("docs", "code", "calls", …)


def given_linker(linker: Linker, facts: Sequence[Fact]) -> GivenLinker:
    """A Linker that holds a citation only when it lies within lines one of `facts` cites, and knows each
    fact's text (what a sentence citing it must say)."""
    return GivenLinker(linker.line_counts, linker.revision, linker.web_url, tuple(facts))


@dataclass(frozen=True)
class GivenLinker(Linker):
    facts: tuple[Fact, ...] = field(default=())

    def check(self, path: str, start: int, end: int | None = None) -> Citation | None:
        citation = super().check(path, start, end)
        if citation is None:
            return None
        return citation if self._holding(citation) else None

    def _holding(self, citation: Citation) -> list[Fact]:
        return [
            fact
            for fact in self.facts
            for span in fact.spans
            if span.path == citation.path and span.start <= citation.start and citation.end <= span.end
        ]

    def words_for(self, citations: Sequence[Citation]) -> frozenset[str]:
        """The words of the facts holding `citations`; of every fact when there are none."""
        facts = [f for c in citations for f in self._holding(c)] if citations else list(self.facts)
        return source_words(dict.fromkeys(f.text for f in facts))

    def copied(self, block: Sequence[str]) -> bool:
        """Whether every non-blank line of a code block is a line of the facts (whitespace aside)."""
        known = {" ".join(line.split()) for f in self.facts for line in f.text.splitlines()}
        lines = [" ".join(line.split()) for line in block if line.strip()]
        return bool(lines) and all(line in known for line in lines)


@dataclass
class _Tally:
    kept: int = 0
    dropped: int = 0
    seen: set[str] = field(default_factory=set)


def checked_prose(text: str, given: GivenLinker, linker: Linker, what: str = "page") -> tuple[str, int]:
    """The model's prose without the sentences and blocks that fail (see the module docstring), and how many
    were left out; ResearchError when the prose is empty, loops, is mostly left out or cites none of the
    given lines."""
    if not text.strip():
        raise ResearchError(f"the model's {what} was empty")
    if repeats_itself(text):
        raise ResearchError(f"the model's {what} repeats itself")
    tally = _Tally()
    kept = _kept_lines(text.replace("\r\n", "\n").split("\n"), given, tally)
    prose = re.sub(r"\n{3,}", "\n\n", "\n".join(_without_empty_sections(kept))).strip()
    left = f" ({tally.dropped} sentence(s) or block(s) were not grounded in what it was given)"
    if tally.kept < tally.dropped:
        raise ResearchError(f"most of the model's {what} was not grounded in what it was given{left}")
    valid, _ = check_citations(prose, linker)
    if not valid:
        raise ResearchError(
            f"the model's {what} cites none of the lines it was given{left if tally.dropped else ''}"
        )
    return prose, tally.dropped


def _kept_lines(lines: Sequence[str], given: GivenLinker, tally: _Tally) -> list[str]:
    kept: list[str] = []
    block: list[str] | None = None
    for line in lines:
        if block is not None:
            block.append(line)
            if _FENCE.match(line):
                kept += _checked_block(block, given, tally)
                block = None
            continue
        if _FENCE.match(line):
            block = [line]
            continue
        heading = _HEADING.match(line)
        if heading:
            if len(heading.group(1).split()) <= MAX_HEADING_WORDS and heading.group(1).strip():
                kept.append(line)
            continue
        cited = _keep_grounded(line, given, tally)
        if cited is not None:
            kept.append(cited)
    if block is not None:  # a block the model never closed
        kept += _checked_block([*block, block[0].strip()], given, tally)
    return kept


def _checked_block(block: list[str], given: GivenLinker, tally: _Tally) -> list[str]:
    if given.copied(block[1:-1]):
        tally.kept += 1
        return block
    tally.dropped += 1
    return []


def _keep_grounded(line: str, given: GivenLinker, tally: _Tally) -> str | None:
    """`line` with only its grounded sentences (None when none is left; a blank line stays blank)."""
    if not line.strip():
        return line
    marker_match = _MARKER.match(line)
    marker = marker_match.group(1) if marker_match else ""
    sentences = [s for s in _SENTENCE_END.split(line[len(marker) :]) if s.strip()]
    line_cites = _given_citations(line, given)
    kept = []
    for sentence in sentences:
        if _sentence_holds(sentence, line_cites, given, tally.seen):
            kept.append(sentence)
            tally.seen.add(_normal(sentence))
    tally.kept += len(kept)
    tally.dropped += len(sentences) - len(kept)
    return (marker + " ".join(kept)) if kept else None


def _sentence_holds(sentence: str, line_cites: list[Citation], given: GivenLinker, seen: set[str]) -> bool:
    if _normal(sentence) in seen:
        return False
    if not _cites_only_given(sentence, given):
        return False
    cites = _given_citations(sentence, given) or line_cites
    return grounded(CITATION_RE.sub(" ", sentence), given.words_for(cites))


def _normal(sentence: str) -> str:
    return " ".join(CITATION_RE.sub(" ", sentence).lower().split()).strip(" .()")


def _given_citations(text: str, given: GivenLinker) -> list[Citation]:
    found = []
    for match in CITATION_RE.finditer(text):
        if looks_like_file(match.group("path")):
            end = int(match.group("end")) if match.group("end") else None
            citation = given.check(match.group("path"), int(match.group("start")), end)
            if citation is not None:
                found.append(citation)
    return found


def _cites_only_given(sentence: str, given: GivenLinker) -> bool:
    for match in CITATION_RE.finditer(sentence):
        if not looks_like_file(match.group("path")):
            continue
        end = int(match.group("end")) if match.group("end") else None
        if given.check(match.group("path"), int(match.group("start")), end) is None:
            return False
    return True


def _without_empty_sections(lines: list[str]) -> list[str]:
    """`lines` without the headings that nothing stays under (up to the next heading of their level or above)."""
    out: list[str] = []
    for number, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading is None:
            out.append(line)
            continue
        level = len(line.strip()) - len(line.strip().lstrip("#"))
        if _has_body(lines[number + 1 :], level):
            out.append(line)
    return out


def _has_body(rest: Sequence[str], level: int) -> bool:
    for line in rest:
        if _HEADING.match(line):
            deeper = len(line.strip()) - len(line.strip().lstrip("#"))
            if deeper <= level:
                return False
            continue
        if line.strip():
            return True
    return False
