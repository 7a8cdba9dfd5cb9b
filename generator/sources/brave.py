"""`brave` — Brave Search web results (GET /res/v1/web/search), key in BRAVE_API_KEY."""

from __future__ import annotations

import msgspec

from generator.http import get_json

from ..errors import ProviderResponseError
from ..text.htmlpage import strip_tags
from .base import SearchHit, SearchProvider, register, typed_results

ENDPOINT = "https://api.search.brave.com"


@register
class BraveProvider(SearchProvider):
    name = "brave"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = self.api_key("BRAVE_API_KEY")
        data = self.request(
            get_json,
            f"{(self.base_url or ENDPOINT).rstrip('/')}/res/v1/web/search",
            params={"q": query, "count": min(max(limit, 1), 20)},
            headers={"X-Subscription-Token": key, "Accept": "application/json"},
        )
        if not isinstance(data, dict):
            raise ProviderResponseError(f"{self.name}: answer is not a JSON object")
        results = (data.get("web") or {}).get("results") or []
        if not isinstance(results, list):
            raise ProviderResponseError(f"{self.name}: 'web.results' is not a list")
        hits = [_hit(r) for r in typed_results(results[:limit], BraveResult) if r.url]
        for rank, hit in enumerate(hits):
            hit.score = 1.0 / (rank + 1)
        return hits


class BraveResult(msgspec.Struct):
    """One item of the answer's `web.results`."""

    url: str = ""
    title: str | None = None
    description: str | None = None
    extra_snippets: list[str] | None = None
    page_age: str | None = None
    age: str | None = None


def _hit(result: BraveResult) -> SearchHit:
    # Brave marks matches with <strong> in descriptions: keep the words, drop the markup.
    snippets = [strip_tags(s) for s in [result.description or "", *(result.extra_snippets or [])]]
    return SearchHit(
        url=result.url,
        title=" ".join((result.title or result.url).split()),
        content="\n\n".join(s for s in snippets if s),
        source="brave",
        published=result.page_age or result.age or "",
    )
