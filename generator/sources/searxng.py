"""`searxng:URL` — a SearXNG metasearch instance (GET /search?format=json); URL from the option or SEARXNG_URL.

The instance must have the JSON format enabled (`search.formats: [html, json]` in its settings.yml).
"""

from __future__ import annotations

import os

import msgspec

from generator.http import get_json

from ..errors import ProviderAuthError
from ..text.htmlpage import strip_tags
from .base import SearchHit, SearchProvider, register


@register
class SearxngProvider(SearchProvider):
    name = "searxng"

    @property
    def endpoint(self) -> str:
        url = self.base_url or self.option or os.environ.get("SEARXNG_URL", "").strip()
        if not url:
            raise ProviderAuthError(
                "search provider 'searxng' needs its instance URL in SEARXNG_URL",
                hint="set SEARXNG_URL or use searxng:URL",
            )
        return url.rstrip("/")

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        data = self.request(
            get_json,
            f"{self.endpoint}/search",
            params={"q": query, "format": "json"},
        )
        found = self.results(data, "results", SearxngResult, limit, hint="enable the json format")
        return [_hit(r) for r in found if r.url]


class SearxngResult(msgspec.Struct):
    """One item of the answer's `results`."""

    url: str = ""
    title: str | None = None
    content: str | None = None
    score: float | None = None
    published: str | None = msgspec.field(default=None, name="publishedDate")
    engine: str = ""


def _hit(result: SearxngResult) -> SearchHit:
    return SearchHit(
        url=result.url,
        title=" ".join((result.title or result.url).split()),
        content=strip_tags(result.content or ""),
        source="searxng",
        score=result.score or 0.0,
        published=(result.published or "")[:10],
        extra={"engine": result.engine},
    )
