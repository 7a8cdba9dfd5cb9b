"""`tavily` — web search built for agents (POST /search), key in TAVILY_API_KEY."""

from __future__ import annotations

import msgspec

from generator.http import post_json

from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://api.tavily.com"


@register
class TavilyProvider(SearchProvider):
    name = "tavily"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = self.api_key("TAVILY_API_KEY")
        data = self.request(
            post_json,
            f"{(self.base_url or ENDPOINT).rstrip('/')}/search",
            {
                "query": query,
                "max_results": min(max(limit, 1), 20),
                "search_depth": "basic",
                "include_answer": False,
            },
            headers={"Authorization": f"Bearer {key}"},
        )
        return [_hit(r) for r in self.results(data, "results", TavilyResult, limit) if r.url]


class TavilyResult(msgspec.Struct):
    """One item of the answer's `results`."""

    url: str = ""
    title: str | None = None
    content: str | None = None
    score: float | None = None
    published_date: str | None = None


def _hit(result: TavilyResult) -> SearchHit:
    return SearchHit(
        url=result.url,
        title=result.title or result.url,
        content=(result.content or "").strip(),
        source="tavily",
        score=result.score or 0.0,
        published=result.published_date or "",
    )
