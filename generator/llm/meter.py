"""One entry's view of the run's provider: the same answers, its own usage (so its cost is its own)."""

from __future__ import annotations

from .base import Completion, JsonOutcome, Prompt, Provider, Window


class MeteredProvider(Provider):
    """Forwards every call to `inner` and adds what it cost to this meter's `usage` as well. The reply
    cache and the batch provider build on it: each answers in its own way, with the same name and models."""

    def __init__(self, inner: Provider) -> None:
        super().__init__(inner.config)
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]
        self.offline = inner.offline  # type: ignore[misc]
        self.default_model = inner.default_model  # type: ignore[misc]
        self.windows, self.window_lock = inner.windows, inner.window_lock  # one discovery per run
        self.hosted = inner.hosted

    def served_window(self, model: str) -> Window | None:
        return self.inner.served_window(model)

    def model_for(self, stage: str) -> str:
        return self.inner.model_for(stage)

    def complete(self, prompt: Prompt) -> Completion:
        completion = self.inner.complete(prompt)
        self.usage.add(completion)
        return completion

    def schema_mode(self) -> bool:
        return self.inner.schema_mode()

    def record_json(self, stage: str, outcome: JsonOutcome, *, schema_refused: bool = False) -> None:
        super().record_json(stage, outcome, schema_refused=schema_refused)
        self.inner.record_json(stage, outcome, schema_refused=schema_refused)

    def forget(self, prompt: Prompt) -> None:
        self.inner.forget(prompt)
