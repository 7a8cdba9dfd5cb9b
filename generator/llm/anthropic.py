"""Claude through the official Anthropic SDK (being written)."""

from __future__ import annotations

from .base import Completion, Prompt, Provider, register


@register
class AnthropicProvider(Provider):
    name = "anthropic"
    default_model = "claude-sonnet-4-5"

    def complete(self, prompt: Prompt) -> Completion:
        raise NotImplementedError
