"""The interface every search provider implements, and the registry that picks one by name.

A provider turns a query into `SearchHit`s. Keys come from the environment; a provider without its key
raises ProviderAuthError when asked to search, so topic research can skip it with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import ConfigError


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
    extra: dict[str, Any] = field(default_factory=dict)


class SearchProvider:
    name: ClassVar[str] = ""
    academic: ClassVar[bool] = False  # routed to for academic queries

    def __init__(self, option: str = "", *, base_url: str | None = None, timeout: float = 20.0) -> None:
        """`option` is what follows the colon in `--sources` (`local:PATH`); `base_url` overrides the API host."""
        self.option = option
        self.base_url = base_url
        self.timeout = timeout

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


def search_provider_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    import importlib
    import pkgutil

    from .. import sources

    for module in pkgutil.iter_modules(sources.__path__):
        if module.name not in {"base"}:
            importlib.import_module(f"{sources.__name__}.{module.name}")
