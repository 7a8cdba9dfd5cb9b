"""`exa` — neural web search (POST /search) with page text in the same call, key in EXA_API_KEY."""

from __future__ import annotations

import msgspec

from generator.http import post_json

from .base import SearchHit, SearchProvider, register

ENDPOINT = "https://api.exa.ai"
TEXT_CHARS = 3000


@register
class ExaProvider(SearchProvider):
    name = "exa"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        key = self.api_key("EXA_API_KEY")
        data = self.request(
            post_json,
            f"{(self.base_url or ENDPOINT).rstrip('/')}/search",
            {
                "query": query,
                "numResults": min(max(limit, 1), 25),
                "contents": {"text": {"maxCharacters": TEXT_CHARS}},
            },
            headers={"x-api-key": key},
        )
        return [_hit(r) for r in self.results(data, "results", ExaResult, limit) if r.url]


class ExaResult(msgspec.Struct):
    """One item of the answer's `results` (`text` when contents were asked for)."""

    url: str = ""
    id: str = ""
    title: str | None = None
    text: str | None = None
    summary: str | None = None
    score: float | None = None
    author: str | None = None
    published: str | None = msgspec.field(default=None, name="publishedDate")


def _hit(result: ExaResult) -> SearchHit:
    return SearchHit(
        url=result.url,
        title=result.title or result.url,
        content=(result.text or result.summary or "").strip(),
        source="exa",
        score=result.score or 0.0,
        authors=[result.author] if result.author else [],
        published=(result.published or "")[:10],
        extra={"id": result.id},
    )
