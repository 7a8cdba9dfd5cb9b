"""`arxiv` — papers from the arXiv Atom API (export.arxiv.org/api/query), no key needed."""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from generator.http import get_xml

from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://export.arxiv.org"
_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_STOPWORDS = frozenset("a an and are as at by for from how in is of on or the to what with".split())


def arxiv_query(query: str, max_terms: int = 5) -> str:
    """`all:word AND all:word …` from the query's words (arXiv's own syntax characters removed)."""
    words = [w for w in re.findall(r"[\w-]+", query.lower()) if w not in _STOPWORDS]
    return " AND ".join(f"all:{w}" for w in list(dict.fromkeys(words))[:max_terms])


@register
class ArxivProvider(SearchProvider):
    name = "arxiv"
    academic = True

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        expression = arxiv_query(query)
        if not expression:
            return []
        feed = self.request(
            get_xml,
            f"{(self.base_url or ENDPOINT).rstrip('/')}/api/query",
            params={"search_query": expression, "start": 0, "max_results": limit, "sortBy": "relevance"},
        )
        entries = feed.findall(f"{_ATOM}entry")
        return [_hit(entry, rank) for rank, entry in enumerate(entries[:limit]) if _text(entry, "title")]


def _text(entry: Element, tag: str, ns: str = _ATOM) -> str:
    node = entry.find(f"{ns}{tag}")
    return " ".join((node.text or "").split()) if node is not None else ""


def _hit(entry: Element, rank: int) -> SearchHit:
    links = {
        link.get("title") or link.get("rel"): link.get("href", "") for link in entry.findall(f"{_ATOM}link")
    }
    url = links.get("alternate") or _text(entry, "id")
    return SearchHit(
        url=url,
        title=_text(entry, "title"),
        content=_text(entry, "summary"),
        source="arxiv",
        score=1.0 / (rank + 1),
        kind="paper",
        authors=[_text(a, "name") for a in entry.findall(f"{_ATOM}author")],
        published=_text(entry, "published")[:10],
        extra={
            "pdf": links.get("pdf", ""),
            "arxiv_id": _text(entry, "id").rsplit("/abs/", 1)[-1],
            "categories": [c.get("term", "") for c in entry.findall(f"{_ATOM}category")],
            "doi": _text(entry, "doi", _ARXIV),
        },
    )
