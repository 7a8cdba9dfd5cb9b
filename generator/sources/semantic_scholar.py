"""`semantic_scholar` — papers from the Semantic Scholar Graph API (/graph/v1/paper/search).

Works without a key at a low shared rate limit; SEMANTIC_SCHOLAR_API_KEY (header `x-api-key`) raises it.
"""

from __future__ import annotations

import os

import msgspec

from generator.http import get_json

from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://api.semanticscholar.org"
FIELDS = "title,abstract,url,year,authors,venue,externalIds,citationCount,publicationDate,tldr"


@register
class SemanticScholarProvider(SearchProvider):
    name = "semantic_scholar"
    academic = True

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = os.environ.get("SEMANTIC_SCHOLAR_API_KEY", "").strip()
        data = self.request(
            get_json,
            f"{(self.base_url or ENDPOINT).rstrip('/')}/graph/v1/paper/search",
            params={"query": query, "limit": min(max(limit, 1), 100), "fields": FIELDS},
            headers={"x-api-key": key} if key else {},
        )
        found = [p for p in self.results(data, "data", Paper, limit) if p.title]
        return [_hit(paper, rank) for rank, paper in enumerate(found)]


class Author(msgspec.Struct):
    name: str | None = None


class Tldr(msgspec.Struct):
    text: str | None = None


class ExternalIds(msgspec.Struct):
    doi: str | None = msgspec.field(default=None, name="DOI")
    arxiv: str | None = msgspec.field(default=None, name="ArXiv")


class Paper(msgspec.Struct):
    """One item of the answer's `data`, with the FIELDS asked for."""

    title: str | None = None
    paper_id: str = msgspec.field(default="", name="paperId")
    abstract: str | None = None
    tldr: Tldr | None = None
    url: str | None = None
    authors: list[Author] | None = None
    publication_date: str | None = msgspec.field(default=None, name="publicationDate")
    year: int | None = None
    venue: str | None = None
    citations: int | None = msgspec.field(default=None, name="citationCount")
    ids: ExternalIds | None = msgspec.field(default=None, name="externalIds")


def _hit(paper: Paper, rank: int) -> SearchHit:
    abstract = paper.abstract or (paper.tldr.text if paper.tldr else "") or ""
    ids = paper.ids or ExternalIds()
    return SearchHit(
        url=paper.url or f"https://www.semanticscholar.org/paper/{paper.paper_id}",
        title=" ".join((paper.title or "").split()),
        content=" ".join(abstract.split()),
        source="semantic_scholar",
        score=1.0 / (rank + 1),
        kind="paper",
        authors=[a.name or "" for a in paper.authors or []],
        published=paper.publication_date or str(paper.year or ""),
        extra={
            "paper_id": paper.paper_id,
            "venue": paper.venue or "",
            "citations": paper.citations or 0,
            "doi": ids.doi or "",
            "arxiv_id": ids.arxiv or "",
        },
    )
