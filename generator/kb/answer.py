"""`deepkb ask`, answering: the retrieved passages as the answer (offline), or a model's answer written from them
with every citation it gives checked — a `[n]` must name a passage shown, a `path:line` a line one of them
cites — and one that does not hold dropped and counted, as the repository analyst does with its citations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from typing_extensions import TypedDict

from ..llm.base import Prompt, Provider
from ..store import KBPaths
from .ask import DEFAULT_LIMIT, Found, PageRef, retrieve

_MARKER = re.compile(r"\[(\d{1,3})\]")


@dataclass
class Answer:
    question: str
    found: list[Found]
    method: str = "extractive"
    text: str = ""
    """The model's answer with its checked [n] citations; "" offline."""
    citations_checked: int = 0
    citations_dropped: int = 0
    concepts: list[str] = field(default_factory=list)
    answered: bool = False
    """Does a passage carry the question's key terms (or define a symbol it names)?"""

    @property
    def pages(self) -> list[PageRef]:
        return list(dict.fromkeys(PageRef(f.page, f.page_title, f.entry) for f in self.found))

    def to_json(self) -> AnswerPayload:
        return {
            "question": self.question,
            "answered": self.answered,
            "method": self.method,
            "answer": self.text,
            "citations_checked": self.citations_checked,
            "citations_dropped": self.citations_dropped,
            "concepts": self.concepts,
            "passages": [_passage_json(f) for f in self.found],
            "pages": [{"page": p.page, "title": p.title, "entry": p.entry} for p in self.pages],
        }


class CitationPayload(TypedDict):
    label: str
    url: str
    path: str
    line: int
    page: str


class PassagePayload(TypedDict):
    text: str
    heading: str
    symbol: str
    entry: str
    page: str
    page_title: str
    kind: str
    score: float
    citations: list[CitationPayload]


class PagePayload(TypedDict):
    page: str
    title: str
    entry: str


class AnswerPayload(TypedDict):
    """`deepkb ask --json` and the MCP `ask` tool's reply."""

    question: str
    answered: bool
    method: str
    answer: str
    citations_checked: int
    citations_dropped: int
    concepts: list[str]
    passages: list[PassagePayload]
    pages: list[PagePayload]


def _passage_json(found: Found) -> PassagePayload:
    return {
        "text": found.text,
        "heading": found.heading,
        "symbol": found.symbol,
        "entry": found.entry,
        "page": found.page,
        "page_title": found.page_title,
        "kind": found.kind,
        "score": round(found.score, 3),
        "citations": [
            {"label": c.label, "url": c.url, "path": c.path, "line": c.line, "page": c.page}
            for c in found.cites
        ],
    }


def answer_question(
    paths: KBPaths, question: str, provider: Provider | None = None, limit: int = DEFAULT_LIMIT
) -> Answer:
    """The passages answering `question`; with a model (not the offline one), its answer written from them."""
    got = retrieve(paths, question, limit)
    found = got.found
    answer = Answer(
        " ".join(question.split()), found, concepts=[c.label for c in got.concepts], answered=got.answered
    )
    if answer.answered and provider is not None and provider.name != "offline":
        reply = provider.complete(_prompt(answer.question, found))
        answer.text, answer.citations_checked, answer.citations_dropped = check_citations(reply.text, found)
        answer.method = "model"
    return answer


def _prompt(question: str, found: list[Found]) -> Prompt:
    numbered = "\n".join(
        f"[{i}] ({f.page_title} — {f.heading}) {f.text}"
        + "".join(f" <{c.path}:{c.line}>" for c in f.cites if c.path)
        for i, f in enumerate(found, 1)
    )
    system = (
        "You answer questions about code and research from numbered passages of a knowledge base. Use only "
        "the passages. Cite each claim with the passage number in square brackets, like [2]; you may also "
        "cite a file line exactly as a passage shows it, like path/to/file.py:42. If the passages do not "
        "answer the question, say so. Answer in the question's language, in at most 200 words."
    )
    return Prompt(
        user=f"Passages:\n{numbered}\n\nQuestion: {question}", system=system, max_tokens=800, stage="ask"
    )


_LINE_CITE = re.compile(r"(?<![\w/.:\-])(?P<path>[\w][\w.\-/]*\.\w+):(?P<line>\d{1,7})(?:-\d{1,7})?(?![\w])")


def check_citations(text: str, found: list[Found]) -> tuple[str, int, int]:
    """The model's text with each citation checked: a [n] must name a passage shown, a `path:line` a line one
    of them cites. One that does not hold is removed from the text and counted. Returns (text, kept, dropped)."""
    kept = dropped = 0
    lines = {(c.path, c.line) for f in found for c in f.cites if c.path}

    def marker(match: re.Match[str]) -> str:
        nonlocal kept, dropped
        if 1 <= int(match.group(1)) <= len(found):
            kept += 1
            return match.group(0)
        dropped += 1
        return ""

    def line_cite(match: re.Match[str]) -> str:
        nonlocal kept, dropped
        if (match.group("path"), int(match.group("line"))) in lines:
            kept += 1
            return match.group(0)
        dropped += 1
        return ""

    text = _LINE_CITE.sub(line_cite, _MARKER.sub(marker, text))
    return re.sub(r"[ \t]{2,}", " ", text).strip(), kept, dropped
