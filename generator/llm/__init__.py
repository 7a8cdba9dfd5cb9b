"""LLM providers behind one interface: `anthropic`, `openai` (any OpenAI-compatible server) and `offline`."""

from __future__ import annotations

from ..config import LLMConfig
from ..store import KBPaths
from .base import Completion, Prompt, Provider, Selection, Usage, create_provider, select_provider_name
from .cache import CachedProvider

__all__ = ["Completion", "Prompt", "Provider", "Selection", "Usage", "open_provider"]


def open_provider(
    paths: KBPaths, config: LLMConfig, cli_value: str | None = None
) -> tuple[Provider, Selection]:
    """The provider this run uses, behind the disk cache (offline answers are cheap and not cached)."""
    selection = select_provider_name(cli_value, config)
    provider = create_provider(selection.name, config)
    if provider.offline:
        return provider, selection
    return CachedProvider(provider, paths.cache_dir / "llm"), selection
