"""A passage that could answer a sub-question, with how well it does: what every way of finding passages
returns and the allocation chooses from."""

from __future__ import annotations

import math
from dataclasses import dataclass

FACET_BONUS = 0.25


@dataclass(frozen=True)
class Candidate:
    """A passage that could answer a sub-question, with how well it does."""

    text: str
    source: str  # raw source id
    facet_hits: float  # the question's own facet words it names, weighed by its prose ratio
    focus_hits: float  # its relevance to the topic and the question (0–1), weighed the same way
    score: float  # its centrality in its source (generator/summarize.py)
    parts: tuple[str, ...] = ()  # its sentences, when it quotes the sentence before it too
    weight: float = 1.0  # how relevant the retrieval judge found its source
    code: str = ""  # the code example the passage introduces
    treats: bool = False  # it opens a section whose heading treats the question's facet (facet_sections.py)
    fallback: bool = False  # it answers only a section no other passage answers (`allocate`)
    items: tuple[str, ...] = ()  # the list the passage introduces
    # it stands in a section whose heading names the subject ("## Context parameters in suspend functions"):
    # a document other than the subject's own account speaks of the subject there, not of its own change
    under_subject: bool = False
    part: int = 0  # the asked part (1…) of the question as written it answers (asked_sections.py); 0: none

    @property
    def sentences(self) -> tuple[str, ...]:
        return self.parts or (self.text,)

    @property
    def relevance(self) -> float:
        """Coverage of the question, a bonus per facet word (what makes this section's question its own),
        centrality as a tie-break; scaled by how relevant the retrieval judge found the source."""
        facet = FACET_BONUS * self.facet_hits
        return (facet + self.focus_hits + math.log1p(max(self.score, 0.0)) / 100) * self.weight
