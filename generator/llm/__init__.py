"""LLM providers behind one interface: `anthropic`, `openai` (any OpenAI-compatible server) and `offline`."""

from __future__ import annotations

from ..config import LLMConfig
from ..errors import ConfigError
from ..store import KBPaths
from .base import Completion, Prompt, Provider, Selection, Usage, create_provider, select_provider_name
from .cache import CachedProvider, ReplyCache

__all__ = ["Completion", "Prompt", "Provider", "Selection", "Usage", "open_provider"]


def open_provider(
    paths: KBPaths, config: LLMConfig, cli_value: str | None = None
) -> tuple[Provider, Selection]:
    """The provider this run uses, behind the disk cache (offline answers are cheap and not cached)."""
    selection = select_provider_name(cli_value, config)
    provider = create_provider(selection.name, config)
    if provider.offline:
        return provider, selection  # llm.batch has nothing to batch offline
    replies = paths.cache_dir / "llm"
    if config.batch:
        provider = _batching(provider, ReplyCache(replies))
    return CachedProvider(provider, replies), selection


def _batching(provider: Provider, replies: ReplyCache) -> Provider:
    from .anthropic import AnthropicProvider
    from .batch import BatchProvider

    if not isinstance(provider, AnthropicProvider):
        raise ConfigError(
            f"llm.batch (or --batch) needs the anthropic provider, not {provider.name}",
            hint="set llm.batch: false, or use --provider anthropic",
        )
    return BatchProvider(provider, replies)
