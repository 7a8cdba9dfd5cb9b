"""The topic run's state machine and its checkpoint record (`_meta.json`), as plain typed data.

seed: INIT → PLANNING → CRAWLING → AGGREGATE → ANALYSIS → REPORT → VERIFY → COMPLETED (or FAILED). The phase is
saved after every step, so a resumed run starts at the first phase that did not finish. A run that found no
usable source ends `no_sources`, never `completed`: it has nothing to report.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import ClassVar, Literal

import msgspec

from ..config import TopicEntry
from ..jsontypes import JSONObject


class Phase(StrEnum):
    INIT = "INIT"
    PLANNING = "PLANNING"
    CRAWLING = "CRAWLING"
    AGGREGATE = "AGGREGATE"
    ANALYSIS = "ANALYSIS"
    REPORT = "REPORT"
    VERIFY = "VERIFY"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"


ORDER = [p for p in Phase if p not in (Phase.COMPLETED, Phase.FAILED)]  # the phases a run goes through

# the phase after each one
_NEXT: dict[Phase, Phase] = dict(zip(ORDER, [*ORDER[1:], Phase.COMPLETED], strict=True))

Status = Literal["in_progress", "awaiting_review", "completed", "unverified", "no_sources", "failed"]
"""`unverified`: the report is published, but its verification failed (the run ends partial)."""


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Options(msgspec.Struct, kw_only=True):
    """How the run was asked to work (CLI flags or the deepkb.yml entry)."""

    quick: bool = False
    verify: bool = True
    parallel: bool = True
    sources: list[str] = msgspec.field(default_factory=lambda: ["local"])
    lang: Literal["en", "zh"] = "en"
    review_plan: bool = False


class Progress(msgspec.Struct, kw_only=True):
    phase: Phase = Phase.INIT
    completed_tasks: int = 0
    total_tasks: int = 0


class Stats(msgspec.Struct, kw_only=True):
    sources_count: int = 0  # distinct raw sources stored
    raw_items: int = 0  # candidates found before dedupe
    deduplicated: int = 0  # candidates dropped as duplicates


class Metrics(msgspec.Struct, kw_only=True):
    steps_by_type: dict[str, int] = msgspec.field(default_factory=dict)
    dispatch_loops: int = 0
    step_durations: dict[str, float] = msgspec.field(default_factory=dict)  # step id → seconds
    failures: list[dict[str, str]] = msgspec.field(default_factory=list)
    tokens: dict[str, int] = msgspec.field(default_factory=lambda: {"input": 0, "output": 0})
    llm_calls: int = 0
    cost_estimate_usd: float = 0.0
    plan_iterations: int = 0
    verify_rounds: int = 0


class VerificationState(msgspec.Struct, kw_only=True):
    """What the verification loop found last, and what it needs to decide on the next round."""

    unresolved_citations: int = 0  # citations the report dropped: they named no stored source
    passed: bool | None = None
    uncovered: list[str] = msgspec.field(default_factory=list)
    unresolved: int = 0
    distinct_sources: int = 0
    problems: list[str] = msgspec.field(default_factory=list)
    rounds: int = 0
    sources_before_round: int = -1  # sources stored when the last supplementary round began


class Run(msgspec.Struct, kw_only=True):
    started_at: str
    finished_at: str | None = None
    status: str = "in_progress"
    provider: str = "offline"
    note: str = ""


class TopicMeta(msgspec.Struct, kw_only=True):
    """`_meta.json`: the seed's data design plus runs history and metrics. A mutable checkpoint, saved after
    every phase; keys it does not know (written by an older deepkb) are ignored when it is read."""

    id: str
    topic: str
    slug: str
    topic_key: str = ""  # the topic's identity hash (workspace.topic_key): finds this workspace again
    created_at: str = msgspec.field(default_factory=now_iso)
    updated_at: str = msgspec.field(default_factory=now_iso)
    status: Status = "in_progress"
    options: Options = msgspec.field(default_factory=Options)
    queries: list[str] = msgspec.field(default_factory=list)
    progress: Progress = msgspec.field(default_factory=Progress)
    stats: Stats = msgspec.field(default_factory=Stats)
    runs: list[Run] = msgspec.field(default_factory=list)
    metrics: Metrics = msgspec.field(default_factory=Metrics)
    phases_done: list[Phase] = msgspec.field(default_factory=list)
    provider: str = "offline"
    model: str = ""  # the model that wrote the analysis ("" offline)
    warnings: list[str] = msgspec.field(default_factory=list)
    verification: VerificationState = msgspec.field(default_factory=VerificationState)
    error: str = ""
    plan_reviewed: bool = False  # set by `resume` after a --review-plan pause
    refresh_days: int = 7  # `deepkb refresh` re-researches the topic once its last run is older than this
    VERSION: ClassVar[int] = 1  # bump when the shape changes; a record without one is version 1
    version: int = VERSION

    def done(self, phase: Phase) -> bool:
        return phase in self.phases_done

    def finish_phase(self, phase: Phase) -> None:
        if phase not in self.phases_done:
            self.phases_done.append(phase)
        self.progress.phase = _NEXT.get(phase, phase)

    def reopen(self, *phases: Phase) -> None:
        """Mark phases as not done (verification added steps, so crawling onward runs again)."""
        self.phases_done = [p for p in self.phases_done if p not in phases]

    def is_fresh(self, options: Options) -> bool:
        """Completed with the same sources and language, and not older than refresh_days (0: never stale)."""
        if self.options.sources != options.sources or self.options.lang != options.lang:
            return False
        if self.refresh_days == 0:
            return True
        try:
            updated = datetime.fromisoformat(self.updated_at.replace("Z", "+00:00"))
        except ValueError:
            return False
        return datetime.now(UTC) - updated <= timedelta(days=self.refresh_days)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)


@dataclass
class TopicResult:
    id: str
    slug: str
    topic: str
    status: str
    phase: str
    workspace: str
    report: str | None
    sources_count: int
    raw_items: int
    deduplicated: int
    unresolved_citations: int
    failed_steps: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    verification: VerificationState = field(default_factory=VerificationState)
    metrics: Metrics = field(default_factory=Metrics)

    def to_json(self) -> JSONObject:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update(
            verification=msgspec.to_builtins(self.verification),
            metrics=msgspec.to_builtins(self.metrics),
        )
        return {"success": self.status in ("completed", "awaiting_review"), **data}


@dataclass(frozen=True)
class TopicTarget:
    """One topic to research, resolved once by the app layer (app/targets.py) and passed down the phases."""

    topic: str
    """The topic's text, whitespace folded."""
    slug: str
    """Its workspace, site_src/topics/<slug>/ (an existing one of the same topic is found again)."""
    entry: TopicEntry
    """Its deepkb.yml entry, or the defaults for a topic deepkb.yml does not list."""
    options: Options
    """The entry's options with the command line's over them."""
    refresh: bool = False
    """Research again even when the topic is younger than its `refresh_days` (`deepkb topic run`)."""
    entry_options: bool = False
    """Continue an unfinished run with these options, never the ones its `_meta.json` records (build,
    refresh): a record on disk is data, not authority."""
