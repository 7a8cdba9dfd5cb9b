"""`wikipedia` (or `wikipedia:zh`) — MediaWiki search with page extracts, one API call per query."""

from __future__ import annotations

import re

import msgspec

from generator.http import get_json

from ..errors import ConfigError, ProviderResponseError
from .base import SearchHit, SearchProvider, register, typed_results


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
        data = self.request(
            get_json,
            f"{self.endpoint}/w/api.php",
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
        )
        if not isinstance(data, dict):
            raise ProviderResponseError(f"{self.name}: answer is not a JSON object")
        pages = _pages(data)
        return [_hit(page, rank, self.endpoint) for rank, page in enumerate(pages[:limit])]


class WikiPage(msgspec.Struct):
    """One page of the answer's `query.pages` (`missing` is present, true or "", for a page that is not there)."""

    title: str = ""
    fullurl: str | None = None
    extract: str | None = None
    pageid: int | None = None
    index: int = 0
    missing: bool | str | msgspec.UnsetType = msgspec.UNSET


def _pages(data: dict[str, object]) -> list[WikiPage]:
    """The result pages in search order; formatversion 2 gives a list, version 1 a dict keyed by id."""
    query = data.get("query")
    pages = (query.get("pages") if isinstance(query, dict) else None) or []
    if isinstance(pages, dict):
        pages = list(pages.values())
    if not isinstance(pages, list):
        return []
    valid = [p for p in typed_results(pages, WikiPage) if p.title and p.missing is msgspec.UNSET]
    return sorted(valid, key=lambda p: p.index)


def _hit(page: WikiPage, rank: int, endpoint: str) -> SearchHit:
    url = page.fullurl or f"{endpoint}/wiki/{page.title.replace(' ', '_')}"
    return SearchHit(
        url=url,
        title=page.title,
        content=(page.extract or "").strip(),
        source="wikipedia",
        score=1.0 / (rank + 1),
        kind="wiki",
        extra={"pageid": page.pageid},
    )
