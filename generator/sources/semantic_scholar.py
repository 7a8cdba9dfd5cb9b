"""`semantic_scholar` — papers from the Semantic Scholar Graph API (/graph/v1/paper/search).

Works without a key at a low shared rate limit; SEMANTIC_SCHOLAR_API_KEY (header `x-api-key`) raises it.
"""

from __future__ import annotations

import os
from typing import Any

from generator.http import get_json

from ..errors import ProviderResponseError
from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://api.semanticscholar.org"
FIELDS = "title,abstract,url,year,authors,venue,externalIds,citationCount,publicationDate,tldr"


@register
class SemanticScholarProvider(SearchProvider):
    name = "semantic_scholar"
    academic = True

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = os.environ.get("SEMANTIC_SCHOLAR_API_KEY", "").strip()
        data = get_json(
            f"{(self.base_url or ENDPOINT).rstrip('/')}/graph/v1/paper/search",
            provider=self.name,
            params={"query": query, "limit": min(max(limit, 1), 100), "fields": FIELDS},
            headers={"x-api-key": key} if key else {},
            timeout=self.timeout,
            retry=self.retry,
        )
        papers = data.get("data") if isinstance(data, dict) else None
        if not isinstance(papers, list):
            raise ProviderResponseError(f"{self.name}: answer has no 'data' list")
        return [
            _hit(p, rank) for rank, p in enumerate(papers[:limit]) if isinstance(p, dict) and p.get("title")
        ]


def _hit(paper: dict[str, Any], rank: int) -> SearchHit:
    tldr = paper.get("tldr") or {}
    abstract = paper.get("abstract") or (tldr.get("text") if isinstance(tldr, dict) else "") or ""
    ids = paper.get("externalIds") or {}
    url = paper.get("url") or f"https://www.semanticscholar.org/paper/{paper.get('paperId', '')}"
    return SearchHit(
        url=url,
        title=" ".join(str(paper["title"]).split()),
        content=" ".join(str(abstract).split()),
        source="semantic_scholar",
        score=1.0 / (rank + 1),
        kind="paper",
        authors=[str(a.get("name", "")) for a in paper.get("authors") or [] if isinstance(a, dict)],
        published=str(paper.get("publicationDate") or paper.get("year") or ""),
        extra={
            "paper_id": paper.get("paperId", ""),
            "venue": paper.get("venue") or "",
            "citations": paper.get("citationCount") or 0,
            "doi": ids.get("DOI", "") if isinstance(ids, dict) else "",
            "arxiv_id": ids.get("ArXiv", "") if isinstance(ids, dict) else "",
        },
    )
