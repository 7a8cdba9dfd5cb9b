"""A disk cache in front of any provider: same provider, model and prompt → the stored answer, no call."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import store
from ..errors import StoreError
from .base import Completion, Prompt, Provider


class CachedProvider(Provider):
    """Wraps a provider; answers repeated prompts from `cache_dir` and counts calls and hits in `usage`."""

    def __init__(self, inner: Provider, cache_dir: Path) -> None:
        super().__init__(inner.config)
        self.inner = inner
        self.cache_dir = cache_dir
        self.name = inner.name  # type: ignore[misc]
        self.offline = inner.offline  # type: ignore[misc]
        self.default_model = inner.default_model  # type: ignore[misc]

    def model_for(self, stage: str) -> str:
        return self.inner.model_for(stage)

    def key(self, prompt: Prompt) -> str:
        material = [
            self.inner.name,
            getattr(self.inner, "base_url", "") or "",  # same model name on two servers is two models
            self.model_for(prompt.stage),
            prompt.system or "",
            prompt.user,
            prompt.max_tokens,
            prompt.json_mode,
        ]
        return hashlib.sha256(json.dumps(material, ensure_ascii=False).encode()).hexdigest()

    def complete(self, prompt: Prompt) -> Completion:
        key = self.key(prompt)
        path = self.cache_dir / key[:2] / f"{key}.json"
        try:
            stored = store.read_json(path)
        except StoreError:
            stored = None  # a damaged entry is only a miss: the answer is fetched again and rewritten
        if isinstance(stored, dict) and "text" in stored:
            completion = Completion(
                text=stored["text"],
                model=stored.get("model", ""),
                provider=self.inner.name,
                input_tokens=stored.get("input_tokens", 0),
                output_tokens=stored.get("output_tokens", 0),
                cached=True,
            )
        else:
            completion = self.inner.complete(prompt)
            store.write_json(
                path,
                {
                    "text": completion.text,
                    "model": completion.model,
                    "input_tokens": completion.input_tokens,
                    "output_tokens": completion.output_tokens,
                },
            )
        self.usage.add(completion)
        return completion
