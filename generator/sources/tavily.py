"""`tavily` — web search built for agents (POST /search), key in TAVILY_API_KEY."""

from __future__ import annotations

from typing import Any

from generator.http import post_json

from ..errors import ProviderResponseError
from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://api.tavily.com"


@register
class TavilyProvider(SearchProvider):
    name = "tavily"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = self.api_key("TAVILY_API_KEY")
        data = post_json(
            f"{(self.base_url or ENDPOINT).rstrip('/')}/search",
            {
                "query": query,
                "max_results": min(max(limit, 1), 20),
                "search_depth": "basic",
                "include_answer": False,
            },
            provider=self.name,
            headers={"Authorization": f"Bearer {key}"},
            timeout=self.timeout,
            retry=self.retry,
        )
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise ProviderResponseError(f"{self.name}: answer has no 'results' list")
        return [_hit(r) for r in results[:limit] if isinstance(r, dict) and r.get("url")]


def _hit(result: dict[str, Any]) -> SearchHit:
    return SearchHit(
        url=str(result["url"]),
        title=str(result.get("title") or result["url"]),
        content=str(result.get("content") or "").strip(),
        source="tavily",
        score=float(result.get("score") or 0.0),
        published=str(result.get("published_date") or ""),
    )
