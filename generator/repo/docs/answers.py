"""What the project's own documentation says to a question asked of the repository: the doc section most about
the question as a whole, by the retrieval engine's BM25F over the doc's title, the section's heading, its
opening and its prose, quoted from where the section begins, in its order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from generator.repo.docs.model import DocPage, DocPassage, ProjectDocs
from generator.retrieval.scoring import CorpusStats, Fields, FieldTokens, field_tokens, question_terms, score
from generator.text.words import stem, tokens

STEPS = 6  # passages an answer quotes
MIN_SCORE = 0.2  # a section less about the question than this does not answer it
MIN_TERMS = 2  # …nor one naming fewer of the question's words (of a question that has that many)


@dataclass(frozen=True)
class DocSection:
    """Consecutive passages of one doc file under one heading, with the file's title."""

    title: str
    passages: tuple[DocPassage, ...]

    def fields(self) -> Fields:
        heading = self.passages[0].heading
        prose = [p.text for p in self.passages if p.kind != "code"]
        return Fields(
            title=self.title,
            headings=heading if heading != self.title else "",
            body="\n".join(prose),
            lead=prose[0] if prose else "",
            code="\n".join(p.text for p in self.passages if p.kind == "code"),
        )


def doc_answer(
    docs: ProjectDocs | None, question: str, limit: int = STEPS, *, verbs: Sequence[str] = ()
) -> tuple[DocPassage, ...]:
    """The passages of the section most about `question`, in order (code blocks kept); () when no section
    is about it (naming what is specific to the question, at least MIN_SCORE). `verbs`: the process the
    question asks about (synthesize/asked.asked_process)."""
    if docs is None:
        return ()
    found = doc_sections(page for concept in docs.concepts for page in concept.pages)
    best = best_section(found, question, verbs)
    return best.passages[:limit] if best is not None else ()


def best_section(found: Sequence[DocSection], question: str, verbs: Sequence[str] = ()) -> DocSection | None:
    """The section whose title, heading, opening and prose are most about the question (BM25F: a title or
    heading naming it counts many mentions in passing); None when none is on point. Among those on point,
    a section whose own heading names the asked process comes first ("Retries" for "how does got retry a
    failed request?", before a testing tip that mentions retrying failed requests in passing)."""
    terms = question_terms(question)
    if not terms or not found:
        return None
    stats = CorpusStats()
    tokens: list[FieldTokens] = []
    for i, section in enumerate(found):
        tokens.append(field_tokens(section.fields()))
        stats.add(str(i), tokens[-1])
    least = min(MIN_TERMS, len(terms))
    scored = [(score(words, terms, stats), i) for i, words in enumerate(tokens)]
    asked = {stem(verb.lower()) for verb in verbs}
    kept = [
        (_names(found[i], asked), relevance.score, -i)
        for relevance, i in scored
        if relevance.on_point and relevance.score >= MIN_SCORE and len(relevance.matched) >= least
    ]
    return found[-max(kept)[2]] if kept else None


def _names(section: DocSection, stems: set[str]) -> bool:
    """Whether the section's own heading names one of the asked process's verbs (by stem)."""
    heading = section.passages[0].heading
    return heading != section.title and bool(stems & set(tokens(heading)))


def doc_sections(pages: Iterable[DocPage]) -> list[DocSection]:
    """Each page's passages cut where the heading changes, each cut carrying the page's title."""
    found: list[DocSection] = []
    for page in pages:
        for passages in sections(page.passages):
            found.append(DocSection(page.title, tuple(passages)))
    return found


def sections(found: Iterable[DocPassage]) -> list[list[DocPassage]]:
    """Consecutive passages of one file under one heading."""
    grouped: list[list[DocPassage]] = []
    for passage in found:
        if grouped and (grouped[-1][0].quoted_in, grouped[-1][0].heading) == (
            passage.quoted_in,
            passage.heading,
        ):
            grouped[-1].append(passage)
        else:
            grouped.append([passage])
    return grouped
