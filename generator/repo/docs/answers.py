"""What the project's own documentation says to a question asked of the repository: the doc section whose
heading and passages share most of the question's words, quoted from where it begins, in its order."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from generator.repo.docs.model import DocPassage, ProjectDocs

STEPS = 6  # passages an answer quotes
MIN_TERMS = 2  # a section sharing fewer of the question's words does not answer it
_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
_STOP = frozenset(
    "the and for with how does what when where which why who are is was were can this that from into "
    "its their there use used using work works get set do".split()
)


def doc_answer(docs: ProjectDocs | None, question: str, limit: int = STEPS) -> tuple[DocPassage, ...]:
    """The passages of the best-matching doc section, in order (code blocks kept); () when no section shares
    at least MIN_TERMS of the question's words."""
    if docs is None:
        return ()
    wanted = terms(question)
    best: tuple[float, list[DocPassage]] = (0.0, [])
    for section in sections(_all_passages(docs)):
        score = _score(wanted, section)
        if score > best[0]:
            best = (score, section)
    return tuple(best[1][:limit]) if best[0] >= MIN_TERMS else ()


def terms(text: str) -> set[str]:
    """Words of `text` cut to a crude stem ("routing", "routes" → "rout"), stop words left out."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP}


def _stem(word: str) -> str:
    return re.sub(r"(?:ing|ed|es|s|ion|ions)$", "", word) if len(word) > 5 else word


def _all_passages(docs: ProjectDocs) -> Iterable[DocPassage]:
    for concept in docs.concepts:
        for page in concept.pages:
            yield from page.passages


def sections(found: Iterable[DocPassage]) -> list[list[DocPassage]]:
    """Consecutive passages of one file under one heading."""
    grouped: list[list[DocPassage]] = []
    for passage in found:
        if grouped and (grouped[-1][0].path, grouped[-1][0].heading) == (passage.path, passage.heading):
            grouped[-1].append(passage)
        else:
            grouped.append([passage])
    return grouped


def _score(wanted: set[str], section: Sequence[DocPassage]) -> float:
    """Question words the heading holds count twice; words of the prose once; each word counted once."""
    heading = terms(section[0].heading)
    prose = terms(" ".join(p.text for p in section if p.kind != "code"))
    return 2 * len(wanted & heading) + len((wanted - heading) & prose)
