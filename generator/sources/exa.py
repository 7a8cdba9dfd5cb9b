"""`exa` — neural web search (POST /search) with page text in the same call, key in EXA_API_KEY."""

from __future__ import annotations

from typing import Any

from generator.http import post_json

from ..errors import ProviderResponseError
from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://api.exa.ai"
TEXT_CHARS = 3000


@register
class ExaProvider(SearchProvider):
    name = "exa"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = self.api_key("EXA_API_KEY")
        data = post_json(
            f"{(self.base_url or ENDPOINT).rstrip('/')}/search",
            {
                "query": query,
                "numResults": min(max(limit, 1), 25),
                "contents": {"text": {"maxCharacters": TEXT_CHARS}},
            },
            provider=self.name,
            headers={"x-api-key": key},
            timeout=self.timeout,
            retry=self.retry,
        )
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise ProviderResponseError(f"{self.name}: answer has no 'results' list")
        return [_hit(r) for r in results[:limit] if isinstance(r, dict) and r.get("url")]


def _hit(result: dict[str, Any]) -> SearchHit:
    author = result.get("author")
    return SearchHit(
        url=str(result["url"]),
        title=str(result.get("title") or result["url"]),
        content=str(result.get("text") or result.get("summary") or "").strip(),
        source="exa",
        score=float(result.get("score") or 0.0),
        authors=[str(author)] if author else [],
        published=str(result.get("publishedDate") or "")[:10],
        extra={"id": result.get("id", "")},
    )
