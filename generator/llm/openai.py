"""OpenAI-compatible chat completions over httpx (being written)."""

from __future__ import annotations

from .base import Completion, Prompt, Provider, register


@register
class OpenAIProvider(Provider):
    name = "openai"
    default_model = "gpt-4o-mini"

    def complete(self, prompt: Prompt) -> Completion:
        raise NotImplementedError
