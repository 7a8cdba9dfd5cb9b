"""The records the analysis stage returns: the catalog of citable sources, the claims quoted or written for
each sub-question, its sections, and the analysis (`processed/findings.json`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from .workspace import RawSource


class Catalog:
    """The citable sources of a topic: number n (1-based, stable order) ↔ raw source id."""

    def __init__(self, sources: list[RawSource]) -> None:
        self.sources = sources
        self.by_id = {s.id: s for s in sources}
        self.number_of = {s.id: n for n, s in enumerate(sources, 1)}

    def id_for(self, number: int) -> str | None:
        return self.sources[number - 1].id if 1 <= number <= len(self.sources) else None


@dataclass
class Claim:
    text: str
    sources: list[str]  # raw source ids
    score: float = (
        0.0  # how well it answers its question (the extractive analyst's relevance; 0 from a model)
    )
    code: str = ""  # the code example `text` introduces, quoted with it (as the source writes it)
    items: tuple[str, ...] = ()  # the list `text` introduces, quoted with it (sentences.list_quote)
    omitted: int = 0  # the items of that list left out: a long table is quoted from its first rows
    attributed: str = ""  # the title of the document quoted, when it is not the subject's (`attribute`)
    header: bool = False  # not a quote: what the document's header states of it (`header_claims`)
    # what it answers, when the quote alone does not say: a field's name, a question (`in_context`)
    context: str = ""
    language: str = ""  # the language the source's fence declares for `code` ("go"), when it names one


@dataclass
class Section:
    question: str
    claims: list[Claim] = field(default_factory=list)
    considered: list[str] = field(default_factory=list)  # raw source ids looked at


@dataclass
class Analysis:
    sections: list[Section]
    definition: Claim | None = None  # the defining document's own opening: what the report opens with
    mechanism: Claim | None = None  # that document's design section's opening: how the subject works
    defining: list[str] = field(default_factory=list)  # ids of the documents defining the topic
    unresolved: int = 0  # citations dropped because they named no stored source
    unsupported: int = 0  # claims dropped because none of their citations resolved
    notes: list[str] = field(default_factory=list)
    method: str = "extractive"
    VERSION: ClassVar[int] = 1  # `processed/findings.json`: bump when the shape changes
    version: int = VERSION
