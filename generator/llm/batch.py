"""Anthropic's Message Batches (half price) behind the ordinary `complete()`: the pipelines do not change.

`complete()` queues its prompt and blocks; once no prompt has arrived for `settle` seconds, the queue goes
out as one batch (so one stage of every entry shares a batch), is polled with backoff, and its results are
written to the reply cache. A submitted batch's id is saved first, so an interrupted run waits for it
instead of paying again; a request the batch does not answer is sent synchronously (`batch_fallbacks`).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from .. import store
from ..errors import DeepkbError, ProviderError, StoreError
from .anthropic import AnthropicProvider, completion_from, map_sdk_error
from .base import Completion, Prompt
from .cache import ReplyCache
from .meter import MeteredProvider

POLL_FIRST = 5.0  # seconds before the first poll; each wait doubles up to llm.batch_poll_max
SETTLE = 2.0  # seconds without a new prompt before the queued ones are submitted


class SubmittedBatch(msgspec.Struct, frozen=True):
    """`llm/batches/<id>.json`: a batch sent and not yet answered, so an interrupted run waits for it again."""

    id: str
    keys: list[str]  # the prompts' cache keys (each request's custom_id)
    VERSION: ClassVar[int] = 1
    version: int = VERSION


@dataclass
class _Ticket:
    """One waiting caller: its prompt, and the answer (None: ask synchronously) once the batch ended."""

    key: str
    prompt: Prompt
    done: threading.Event = field(default_factory=threading.Event)
    completion: Completion | None = None
    error: DeepkbError | None = None


class BatchProvider(MeteredProvider):
    """Anthropic through Message Batches; sits under the reply cache, so answered prompts never come here."""

    inner: AnthropicProvider

    def __init__(
        self,
        inner: AnthropicProvider,
        replies: ReplyCache,
        *,
        settle: float = SETTLE,
        poll_first: float = POLL_FIRST,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(inner)
        self.replies = replies
        self.settle = settle
        self.poll_first = poll_first
        self.sleep = sleep
        self.submitted: list[str] = []  # batch ids this provider created, in order
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._queue: list[_Ticket] = []
        self._last_arrival = 0.0
        self._worker: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        # the reply cache keys on it: a batched answer and a synchronous one share their cache entry
        return str(getattr(self.inner, "base_url", "") or "")

    @property
    def records_dir(self) -> Path:
        return self.replies.folder / "batches"

    def complete(self, prompt: Prompt) -> Completion:
        ticket = _Ticket(ReplyCache.key(self, prompt), prompt)
        with self._lock:
            self._queue.append(ticket)
            self._last_arrival = time.monotonic()
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="deepkb-batch", daemon=True)
                self._worker.start()
        self._wake.set()
        ticket.done.wait()
        if ticket.error is not None:
            raise ticket.error
        if ticket.completion is None:
            completion = dataclasses.replace(self.inner.complete(prompt), batch_fallback=True)
        else:
            completion = ticket.completion
        self.usage.add(completion)
        return completion

    # ----------------------------------------------------------------- the worker

    def _work(self) -> None:
        while True:
            tickets = self._collect()
            try:
                self._answer(tickets)
            except DeepkbError as exc:
                _fail(tickets, exc)
            except Exception as exc:  # a bug or an SDK surprise must not leave callers waiting forever
                _fail(tickets, ProviderError(f"message batch failed: {type(exc).__name__}: {exc}"))
            with self._lock:
                if not self._queue:
                    self._worker = None
                    return

    def _collect(self) -> list[_Ticket]:
        """Everything queued, once the queue has been quiet for `settle` seconds."""
        while True:
            with self._lock:
                quiet = time.monotonic() - self._last_arrival
                if self._queue and quiet >= self.settle:
                    tickets, self._queue = self._queue, []
                    return tickets
            self._wake.wait(timeout=max(self.settle - quiet, 0.01))
            self._wake.clear()

    def _answer(self, tickets: list[_Ticket]) -> None:
        pending = self._pending()
        fresh = {t.key: t.prompt for t in tickets if t.key not in pending}
        batch_ids = sorted({pending[t.key] for t in tickets if t.key in pending})
        if fresh:
            batch_ids.append(self._submit(fresh))
        answers: dict[str, Completion] = {}
        for batch_id in batch_ids:
            answers.update(self._results(batch_id))
        for ticket in tickets:
            ticket.completion = answers.get(ticket.key)
            ticket.done.set()

    def _submit(self, prompts: dict[str, Prompt]) -> str:
        requests = [
            {"custom_id": key, "params": self.inner._request(prompt, self.model_for(prompt.stage)).params()}
            for key, prompt in prompts.items()
        ]
        try:
            batch = self.inner.client.messages.batches.create(requests=requests)  # type: ignore[arg-type]
        except self.inner.sdk.APIError as exc:
            raise map_sdk_error(exc, self.model_for("default")) from exc
        store.write_json(
            self.records_dir / f"{batch.id}.json", msgspec.to_builtins(SubmittedBatch(batch.id, [*prompts]))
        )
        self.submitted.append(batch.id)
        return str(batch.id)

    def _results(self, batch_id: str) -> dict[str, Completion]:
        """Wait for the batch to end, store every succeeded answer, then forget the batch."""
        sdk, batches = self.inner.sdk, self.inner.client.messages.batches
        delay = self.poll_first
        try:
            while batches.retrieve(batch_id).processing_status != "ended":
                self.sleep(delay)
                delay = min(delay * 2, self.config.batch_poll_max)
            answers = dict(self._succeeded(batches.results(batch_id)))
        except sdk.NotFoundError:
            answers = {}  # expired from the server's records: its prompts are asked synchronously
        except sdk.APIError as exc:
            raise map_sdk_error(exc, self.model_for("default")) from exc
        for key, completion in answers.items():
            self.replies.save(key, completion)
        (self.records_dir / f"{batch_id}.json").unlink(missing_ok=True)
        return answers

    def _succeeded(self, results: Iterable[Any]) -> Iterable[tuple[str, Completion]]:
        for item in results:
            result = getattr(item, "result", None)
            if getattr(result, "type", None) == "succeeded":
                message = result.message  # type: ignore[union-attr]
                model = str(getattr(message, "model", "") or "")
                yield str(item.custom_id), completion_from(message, model, self.name, batched=True)

    def _pending(self) -> dict[str, str]:
        """prompt key → id of a batch submitted earlier (by this run or an interrupted one) not yet stored."""
        pending: dict[str, str] = {}
        for record_file in sorted(self.records_dir.glob("*.json")) if self.records_dir.is_dir() else []:
            try:
                record = msgspec.convert(store.read_json(record_file, default={}), SubmittedBatch)
            except (StoreError, msgspec.ValidationError):
                continue  # not a record this run can resume: its prompts are asked again
            if record.version == SubmittedBatch.VERSION:
                pending.update(dict.fromkeys(record.keys, record.id))
        return pending


def _fail(tickets: list[_Ticket], error: DeepkbError) -> None:
    for ticket in tickets:
        ticket.error = error
        ticket.done.set()
