"""`brave` — Brave Search web results (GET /res/v1/web/search), key in BRAVE_API_KEY."""

from __future__ import annotations

from typing import Any

from generator.http import get_json

from ..errors import ProviderResponseError
from ..text.htmlpage import strip_tags
from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://api.search.brave.com"


@register
class BraveProvider(SearchProvider):
    name = "brave"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = self.api_key("BRAVE_API_KEY")
        data = get_json(
            f"{(self.base_url or ENDPOINT).rstrip('/')}/res/v1/web/search",
            provider=self.name,
            params={"q": query, "count": min(max(limit, 1), 20)},
            headers={"X-Subscription-Token": key, "Accept": "application/json"},
            timeout=self.timeout,
            retry=self.retry,
        )
        if not isinstance(data, dict):
            raise ProviderResponseError(f"{self.name}: answer is not a JSON object")
        results = (data.get("web") or {}).get("results") or []
        if not isinstance(results, list):
            raise ProviderResponseError(f"{self.name}: 'web.results' is not a list")
        hits = [_hit(r) for r in results[:limit] if isinstance(r, dict) and r.get("url")]
        for rank, hit in enumerate(hits):
            hit.score = 1.0 / (rank + 1)
        return hits


def _hit(result: dict[str, Any]) -> SearchHit:
    # Brave marks matches with <strong> in descriptions: keep the words, drop the markup.
    snippets = [strip_tags(str(result.get("description") or ""))]
    snippets += [strip_tags(str(s)) for s in result.get("extra_snippets") or []]
    return SearchHit(
        url=str(result["url"]),
        title=" ".join(str(result.get("title") or result["url"]).split()),
        content="\n\n".join(s for s in snippets if s),
        source="brave",
        published=str(result.get("page_age") or result.get("age") or ""),
    )
