"""The interface every search provider implements, and the registry that picks one by name.

A provider turns a query into `SearchHit`s. Keys come from the environment; a provider without its key
raises ProviderAuthError when asked to search, so topic research can skip it with a warning.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypedDict, TypeVar

import msgspec

from generator.http import RetryPolicy

from .. import sources
from ..errors import ConfigError, ProviderAuthError, ProviderResponseError


class HitExtra(TypedDict, total=False):
    """What a provider knows beyond the common fields, and what research notes on a hit as it judges it."""

    path: str  # local: the file, relative to `folder`
    folder: str
    headings: list[str]
    titled_by: str  # local: the heading the files including a title-less fragment put it under
    anchors: str  # local: what the links to the file say (their text and sentence), one a line
    collection_words: list[str]  # local: the query's words naming the folder's collection ("arthas")
    status: str  # the document's own status and date (a proposal's "Status:", its "Created:")
    date: str
    landed: str  # the release a proposal's header says it targets ("Python 3.8")
    meeting: bool  # the document records a meeting (minutes, notes, an agenda), not its subject's account
    pageid: int | None  # wikipedia
    engine: str  # searxng
    id: str  # exa
    paper_id: str  # semantic scholar
    venue: str
    citations: int
    pdf: str  # arxiv
    categories: list[str]
    arxiv_id: str
    doi: str
    requested_url: str  # research: the address the query named, before redirects
    full_chars: int  # the crawled page's length before it was cut
    relevance: float
    relevance_reasons: list[str]
    relevance_by_question: dict[str, float]
    model_judged: bool
    on_point: bool


@dataclass
class SearchHit:
    """One candidate source. `content` is the text we keep (abstract, snippet or full page text)."""

    url: str
    title: str
    content: str
    source: str  # provider name: local, arxiv, tavily, …
    score: float = 0.0
    kind: str = "web"  # web | paper | local | kb | wiki
    authors: list[str] = field(default_factory=list)
    published: str = ""
    extra: HitExtra = field(default_factory=lambda: HitExtra())


R = TypeVar("R")


def typed_results(items: list[object], kind: type[R]) -> list[R]:
    """Each item of an API's result list read as `kind` (numbers given as strings are converted); an item of
    another shape is skipped, so one odd result does not lose the others."""
    found: list[R] = []
    for item in items:
        try:
            found.append(msgspec.convert(item, kind, strict=False))
        except msgspec.ValidationError:
            continue
    return found


class SearchProvider:
    name: ClassVar[str] = ""
    academic: ClassVar[bool] = False  # routed to for academic queries

    def __init__(
        self,
        option: str = "",
        *,
        base_url: str | None = None,
        timeout: float = 20.0,
        retry: RetryPolicy | None = None,
        root: Path | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        """`option` is what follows the colon in `--sources` (`local:PATH`); `base_url` overrides the API host.

        `retry` shrinks or stretches the HTTP backoff (tests pass a zero-wait policy); `root` is the
        knowledge-base root that relative folder options resolve against; `cache_dir` holds search indexes.
        """
        self.option = option
        self.base_url = base_url
        self.timeout = timeout
        self.retry = retry
        self.root = root
        self.cache_dir = cache_dir

    def titles(self) -> list[str]:
        """Every stored document's title, where the provider holds a corpus of its own ([] for a web search)."""
        return []

    def shared_words(self, text: str) -> list[str]:
        """The words of `text` that most of the provider's own documents hold: the collection's name ([])."""
        return []

    def api_key(self, variable: str) -> str:
        """The key from the environment, or ProviderAuthError naming the variable to set."""
        value = os.environ.get(variable, "").strip()
        if not value:
            raise ProviderAuthError(
                f"search provider '{self.name}' needs an API key in {variable}",
                hint=f"set {variable} in the environment, or drop '{self.name}' from the sources",
            )
        return value

    def request(self, read: Callable[..., Any], url: str, *args: Any, **options: Any) -> Any:
        """One API call through generator.http (`get_json`, `post_json`, `get_xml`) with this provider's name,
        timeout and retry policy."""
        return read(url, *args, provider=self.name, timeout=self.timeout, retry=self.retry, **options)

    def results(self, data: Any, key: str, kind: type[R], limit: int, *, hint: str | None = None) -> list[R]:
        """The first `limit` items of the answer's `key` list, read as `kind`; ProviderResponseError when the
        answer holds no such list."""
        items = data.get(key) if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise ProviderResponseError(f"{self.name}: answer has no '{key}' list", hint=hint)
        return typed_results(items[:limit], kind)

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        raise NotImplementedError


_REGISTRY: dict[str, type[SearchProvider]] = {}


def register(cls: type[SearchProvider]) -> type[SearchProvider]:
    _REGISTRY[cls.name] = cls
    return cls


def create_search_provider(spec: str, **kwargs: Any) -> SearchProvider:
    """`spec` is `name` or `name:option`, e.g. `local:docs` or `searxng:http://host:8080`."""
    _load_builtin()
    name, _, option = spec.partition(":")
    try:
        cls = _REGISTRY[name.strip()]
    except KeyError:
        raise ConfigError(
            f"unknown search provider '{name}'", hint=f"choose from: {', '.join(sorted(_REGISTRY))}"
        ) from None
    return cls(option.strip(), **kwargs)


def _load_builtin() -> None:
    for module in pkgutil.iter_modules(sources.__path__):
        if module.name not in {"base"}:
            importlib.import_module(f"{sources.__name__}.{module.name}")
