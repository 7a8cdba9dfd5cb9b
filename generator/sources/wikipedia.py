"""`wikipedia` (or `wikipedia:zh`) — MediaWiki search with page extracts, one API call per query."""

from __future__ import annotations

import re
from typing import Any

from generator.http import get_json

from ..errors import ConfigError, ProviderResponseError
from .base import SearchHit, SearchProvider, register


@register
class WikipediaProvider(SearchProvider):
    name = "wikipedia"

    @property
    def endpoint(self) -> str:
        if self.base_url:
            return self.base_url.rstrip("/")
        lang = self.option or "en"
        if not re.fullmatch(r"[a-z]{2,3}(-[a-z]+)?", lang):
            raise ConfigError(
                f"wikipedia: '{lang}' is not a language code", hint="e.g. wikipedia:en, wikipedia:zh"
            )
        return f"https://{lang}.wikipedia.org"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        # generator=search feeds the search result pages straight into prop=extracts (intro, plain text).
        data = get_json(
            f"{self.endpoint}/w/api.php",
            provider=self.name,
            params={
                "action": "query",
                "format": "json",
                "formatversion": "2",
                "generator": "search",
                "gsrsearch": query,
                "gsrlimit": min(max(limit, 1), 20),
                "prop": "extracts|info",
                "exintro": "1",
                "explaintext": "1",
                "exlimit": "max",
                "inprop": "url",
            },
            timeout=self.timeout,
            retry=self.retry,
        )
        if not isinstance(data, dict):
            raise ProviderResponseError(f"{self.name}: answer is not a JSON object")
        pages = _pages(data)
        return [_hit(page, rank, self.endpoint) for rank, page in enumerate(pages[:limit])]


def _pages(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The result pages in search order; formatversion 2 gives a list, version 1 a dict keyed by id."""
    pages = (data.get("query") or {}).get("pages") or []
    if isinstance(pages, dict):
        pages = list(pages.values())
    valid = [p for p in pages if isinstance(p, dict) and p.get("title") and "missing" not in p]
    return sorted(valid, key=lambda p: p.get("index", 0))


def _hit(page: dict[str, Any], rank: int, endpoint: str) -> SearchHit:
    title = str(page["title"])
    url = page.get("fullurl") or f"{endpoint}/wiki/{title.replace(' ', '_')}"
    return SearchHit(
        url=str(url),
        title=title,
        content=str(page.get("extract") or "").strip(),
        source="wikipedia",
        score=1.0 / (rank + 1),
        kind="wiki",
        extra={"pageid": page.get("pageid")},
    )
