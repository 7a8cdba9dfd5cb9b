"""The no-key provider: deterministic, no network. Pipelines check `offline` and use static analysis;
a direct prompt gets an extractive summary of its own text."""

from __future__ import annotations

import json

from ..summarize import summarize
from .base import Completion, Prompt, Provider, estimate_tokens, register


@register
class OfflineProvider(Provider):
    name = "offline"
    offline = True
    default_model = "offline-extractive"

    def complete(self, prompt: Prompt) -> Completion:
        if prompt.json_mode:
            text = json.dumps({"offline": True})
        else:
            text = "\n".join(summarize(prompt.user, sentences=5)) or prompt.user[:400]
        completion = Completion(
            text=text,
            model=self.model_for(prompt.stage),
            provider=self.name,
            input_tokens=estimate_tokens(prompt.user),
            output_tokens=estimate_tokens(text),
        )
        self.usage.add(completion)
        return completion
