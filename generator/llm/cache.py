"""A disk cache in front of any provider: same provider, model and prompt → the stored answer, no call.

`ReplyCache` is the store itself (one JSON file per prompt key); the batch provider writes a batch's
results into it as soon as they arrive, so a run interrupted after that point pays for nothing again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import ClassVar

import msgspec

from .. import store
from .base import Completion, Prompt, Provider
from .meter import MeteredProvider


class CachedReply(msgspec.Struct, frozen=True, kw_only=True):
    """One stored answer. An entry of another version (or none: written before entries carried one) is a
    miss, fetched again and rewritten."""

    VERSION: ClassVar[int] = 1
    version: int = 0
    text: str
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0


class ReplyCache:
    """Answers by prompt key under `folder` (the key is a sha256 hex digest, usable as a batch custom_id)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @staticmethod
    def key(provider: Provider, prompt: Prompt) -> str:
        material = [
            provider.name,
            getattr(provider, "base_url", "") or "",  # same model name on two servers is two models
            provider.model_for(prompt.stage),
            prompt.system or "",
            prompt.user,
            prompt.max_tokens,
            prompt.json_mode,
            *([prompt.json_schema.name, prompt.json_schema.text] if prompt.json_schema else []),
        ]
        return hashlib.sha256(json.dumps(material, ensure_ascii=False).encode()).hexdigest()

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def load(self, key: str, provider: str) -> Completion | None:
        try:
            stored = msgspec.json.decode(self.path(key).read_bytes(), type=CachedReply)
        except (OSError, msgspec.DecodeError):
            return None  # no entry, or a damaged one: only a miss
        if stored.version != CachedReply.VERSION:
            return None
        return Completion(
            text=stored.text,
            model=stored.model,
            provider=provider,
            input_tokens=stored.input_tokens,
            output_tokens=stored.output_tokens,
            cached=True,
        )

    def save(self, key: str, completion: Completion) -> None:
        reply = CachedReply(
            version=CachedReply.VERSION,
            text=completion.text,
            model=completion.model,
            input_tokens=completion.input_tokens,
            output_tokens=completion.output_tokens,
        )
        store.write_json(self.path(key), msgspec.to_builtins(reply))

    def drop(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)


class CachedProvider(MeteredProvider):
    """Wraps a provider; answers repeated prompts from `cache_dir` and counts calls and hits in `usage`."""

    def __init__(self, inner: Provider, cache_dir: Path) -> None:
        super().__init__(inner)
        self.replies = ReplyCache(cache_dir)

    def complete(self, prompt: Prompt) -> Completion:
        key = self.replies.key(self.inner, prompt)
        completion = self.replies.load(key, self.inner.name)
        if completion is None:
            completion = self.inner.complete(prompt)
            self.replies.save(key, completion)
        self.usage.add(completion)
        return completion

    def forget(self, prompt: Prompt) -> None:
        """A JSON reply that did not validate is not served again: the next run asks the model anew."""
        self.replies.drop(self.replies.key(self.inner, prompt))
        self.inner.forget(prompt)
