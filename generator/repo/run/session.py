"""Saved stage outputs of repository research, under the cache dir: what makes re-runs free and runs resumable.

`RepoCache` keeps, per repository, the plan and every shard's analysis draft keyed by what they depend on
(file contents, config, provider and model), so an unchanged shard costs no LLM call and keeps its date.
A draft is kept as its versioned record (model.ShardDraft); an entry of another shape is analyzed again.
`ChunkedSession` is the checkpoint of a chunked run (`deepkb repo start/shard/synthesize`), written
atomically after every chunk so a killed run resumes without redoing finished chunks.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import filelock
import msgspec

from generator import store
from generator.errors import StoreError, UsageError
from generator.repo.model import DRAFT_VERSION, Shard, ShardDraft, ShardPlan

WORKFLOW = "research_chunked"


def fingerprint(*parts: Any) -> str:
    """A stable hash of JSON-able parts (the cache key of a stage output)."""
    return hashlib.sha256(
        json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str).encode()
    ).hexdigest()


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


class SavedPlan(msgspec.Struct, kw_only=True):
    """A plan as the stage cache keeps it, with the tokens the architect spent on it."""

    plan: ShardPlan
    tokens: dict[str, int] = msgspec.field(default_factory=dict)


class RepoCache:
    """Stage outputs of one repository: cache_dir/repos/<owner>/<repo>/{plan.json,focus.json,analyses/…}."""

    def __init__(self, cache_dir: Path, owner: str, name: str) -> None:
        self.dir = store.safe_join(
            cache_dir, "repos", store.slugify(owner, keep_case=True), store.slugify(name, keep_case=True)
        )

    # plan and focus: one current entry each, valid while its key matches
    def load_stage(self, stage: str, key: str) -> dict[str, Any] | None:
        data = store.read_json(self.dir / f"{stage}.json")
        return data if isinstance(data, dict) and data.get("key") == key else None

    def save_stage(self, stage: str, key: str, value: dict[str, Any]) -> None:
        store.write_json(self.dir / f"{stage}.json", {"key": key, **value})

    def load_plan(self, stage: str, key: str) -> SavedPlan | None:
        """The plan saved under `key` (`plan` or `last-plan`); None when there is none or it is damaged."""
        try:
            return msgspec.convert(self.load_stage(stage, key), SavedPlan | None)
        except (StoreError, msgspec.ValidationError):
            return None

    def save_plan(self, stage: str, key: str, saved: SavedPlan) -> None:
        self.save_stage(stage, key, msgspec.to_builtins(saved))

    # analyses: content-addressed, so an old revision's unchanged shards are found again
    def load_analysis(self, key: str) -> ShardDraft | None:
        """The saved draft of `key`; None when there is none, or it has another shape or version (an
        older deepkb's, a damaged file): the shard is analyzed again."""
        try:
            found = msgspec.convert(store.read_json(self._analysis_path(key)), ShardDraft)
        except (StoreError, msgspec.ValidationError):
            return None
        return found if found.version == DRAFT_VERSION and found.key == key else None

    def save_analysis(self, entry: ShardDraft) -> None:
        store.write_json(self._analysis_path(entry.key), msgspec.to_builtins(entry))

    def _analysis_path(self, key: str) -> Path:
        return self.dir / "analyses" / f"{key[:24]}.json"


# --------------------------------------------------------------------------- chunked sessions


class Chunk(msgspec.Struct, kw_only=True):
    id: str  # "c1", "c2", …
    index: int  # position in the plan (gives the page's NN_)
    name: str
    files: list[str]
    rationale: str = ""
    status: str = "pending"  # pending | done | failed
    error: str = ""
    analysis_key: str = ""


class ChunkedSession(msgspec.Struct, kw_only=True):
    """A chunked run's checkpoint (`sessions/<id>.json`), read back as this record or refused."""

    session_id: str
    source: str
    request: str | None
    owner: str
    name: str
    revision: str
    created: str
    planner: str
    plan_note: str
    chunks: list[Chunk] = msgspec.field(default_factory=list)
    plan_tokens: dict[str, int] = msgspec.field(default_factory=dict)
    workflow: str = WORKFLOW
    finished: bool = False

    def chunk(self, chunk_id: str) -> Chunk:
        for chunk in self.chunks:
            if chunk.id == chunk_id:
                return chunk
        known = ", ".join(c.id for c in self.chunks)
        raise UsageError(f"session {self.session_id} has no chunk {chunk_id!r}", hint=f"chunks: {known}")

    def pending(self) -> list[Chunk]:
        return [c for c in self.chunks if c.status != "done"]

    def plan(self) -> ShardPlan:
        shards = tuple(Shard(c.name, tuple(c.files), c.rationale) for c in self.chunks)
        return ShardPlan(shards, "llm" if self.planner == "llm" else "heuristic", self.plan_note)

    def next_action(self) -> str:
        if self.finished:
            return "done: the research pages are written"
        if self.pending():
            return f"deepkb repo shard {self.session_id}"
        return f"deepkb repo synthesize {self.session_id}"

    def to_json(self) -> dict[str, object]:
        return {**msgspec.to_builtins(self), "next_action": self.next_action()}


def new_session_id(owner: str, name: str) -> str:
    return f"{store.slugify(owner)}-{store.slugify(name)}-{secrets.token_hex(4)}"


def session_path(cache_dir: Path, session_id: str) -> Path:
    return store.safe_join(cache_dir, "sessions", f"{store.slugify(session_id)}.json")


def save_session(cache_dir: Path, session: ChunkedSession) -> None:
    store.write_json(session_path(cache_dir, session.session_id), session.to_json())


def load_session(cache_dir: Path, session_id: str) -> ChunkedSession:
    data = store.read_json(session_path(cache_dir, session_id))
    try:
        session = msgspec.convert(data, ChunkedSession)
    except msgspec.ValidationError:
        session = None  # not a session, or a damaged one
    if session is None or session.workflow != WORKFLOW:
        raise UsageError(
            f"no chunked research session {session_id!r}", hint="start one with `deepkb repo start SOURCE`"
        )
    return session


@contextmanager
def session_lock(cache_dir: Path, session_id: str) -> Iterator[None]:
    """Serializes read-modify-write of one session file between concurrent `repo shard` processes."""
    path = session_path(cache_dir, session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(str(path) + ".lock", timeout=60):
        yield
