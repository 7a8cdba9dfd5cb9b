"""The research-everything loop shared by `build` and `refresh`: run a list of entries, each failing alone.

An entry ends `done`, `unverified` (a topic's report published without passing verification, or a repository
whose model answers for some shards did not pass the checks: labelled offline pages in their place), `partial` (PartialFailure after writing what landed) or `failed` (nothing new written); the loop goes
on, and the caller exits 3 after the index and site are rebuilt when an entry is partial or failed (or, with
`--strict`, unverified). Each entry meters
its own tokens and cost (`_cost.json`, copied into `_index.json`), also when entries run concurrently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Literal

from msgspec.structs import replace
from rich.console import Console

from generator.repo.run.pipeline import run_repo_research

from ..config import Config
from ..deadlines import RunDeadline, run_all, run_deadline
from ..errors import DeepkbError, PartialFailure
from ..kb.costs import save_cost
from ..kb.search import refresh_search_db
from ..llm.base import Provider
from ..llm.cost import CostRecord
from ..llm.meter import MeteredProvider
from ..site.pages.repo import publish_repo
from ..site.pages.topic import publish_topic
from ..store import KBPaths
from ..topic.pipeline import run_topic_research, unverified_line
from .entries import Entry
from .targets import entry_target
from .topic_target import topic_target

Status = Literal["done", "unverified", "partial", "failed"]
BATCH_WORKERS = 16  # entries researched at once in batch mode: their prompts of one stage share a batch


@dataclass
class Outcome:
    """How one entry's research ended; `line` is the one-line reason when it did not fully succeed."""

    entry: Entry
    status: Status
    line: str = ""
    cost: CostRecord | None = None


class OnDemand:
    """Opens the provider on first use and keeps it, so the caller can report what the run's calls cost."""

    def __init__(self, factory: Callable[[], Provider]) -> None:
        self.factory = factory
        self.provider: Provider | None = None

    def open(self) -> Provider:
        if self.provider is None:
            self.provider = self.factory()
        return self.provider

    def count(self) -> int:
        return self.provider.usage.calls if self.provider is not None else 0


def research_entries(
    paths: KBPaths,
    config: Config,
    provider_factory: Callable[[], Provider],
    entries: Sequence[Entry],
    *,
    console: Console | None = None,
    batch: bool = False,
) -> list[Outcome]:
    """Research every entry; the provider is opened only when there is something to research."""
    if not entries:
        return []
    provider = provider_factory()
    # every entry's research searches the knowledge base as it stood before the run (queries never sync the
    # database; the command syncs it once it is done), so no entry depends on which ran first
    refresh_search_db(paths)
    if not batch:
        return [research_entry(paths, config, provider, entry, console) for entry in entries]
    config = batch_config(config)
    works = [partial(research_entry, paths, config, provider, entry, console) for entry in entries]
    return run_all(works, BATCH_WORKERS)


def batch_config(config: Config) -> Config:
    """A batch answers within hours, not seconds: the per-run timeouts are off (each poll has its own) and
    every shard of a repository asks at once, so all of them land in the same batch."""
    repo = replace(config.repo, idle_timeout=0.0, total_timeout=0.0)
    llm = replace(config.llm, max_concurrent=64)
    return replace(config, repo=repo, llm=llm)


def research_entry(
    paths: KBPaths, config: Config, provider: Provider, entry: Entry, console: Console | None
) -> Outcome:
    """One entry, to the end: its own DeepkbError is its outcome, never the run's."""
    if console is not None:
        console.rule(f"{entry.kind} {entry.name}")
    meter = MeteredProvider(provider)
    try:
        with entry_deadline(config, entry):
            unverified = _research(paths, config, meter, entry, console)
        outcome = Outcome(entry, "unverified", unverified) if unverified else Outcome(entry, "done")
    except PartialFailure as exc:
        outcome = Outcome(entry, "partial", exc.line())
    except DeepkbError as exc:
        outcome = Outcome(entry, "failed", exc.line())
    outcome.cost = save_cost(paths, config.llm, meter, entry.id)
    return outcome


def entry_deadline(config: Config, entry: Entry) -> AbstractContextManager[RunDeadline]:
    """The idle and total timeouts of one entry's run (repo.* or topic.*), as `deepkb repo/topic run` open them."""
    section = "repo" if entry.repo is not None else "topic"
    limits = config.repo if entry.repo is not None else config.topic
    return run_deadline(section, total=limits.total_timeout, idle=limits.idle_timeout)


def _research(
    paths: KBPaths, config: Config, provider: Provider, entry: Entry, console: Console | None
) -> str:
    """Run one entry; returns the line that says its report was not verified (or its shards' model answers
    were refused), else ""."""
    if entry.repo is not None:
        repo = entry_target(paths, config, entry.repo, entry.source)
        done = run_repo_research(paths, config, provider, repo, console=console, publish=publish_repo)
        return done.refused_line()
    elif entry.topic is not None:
        topic = topic_target(paths, entry.topic, entry_options=True)
        result = run_topic_research(paths, config, provider, topic, console=console, publish=publish_topic)
        if result.status == "unverified":
            return unverified_line(result)
    return ""


def exit_line(outcomes: Sequence[Outcome], *, strict: bool = False) -> str | None:
    """The summary that makes the run exit 3, or None when every entry was done (or only unverified, unless
    `strict`)."""
    accepted = {"done"} if strict else {"done", "unverified"}
    unfinished = [o for o in outcomes if o.status not in accepted]
    if not unfinished:
        return None
    counts = ", ".join(
        f"{n} {status}"
        for status in ("failed", "partial", "unverified")
        if (n := sum(1 for o in unfinished if o.status == status))
    )
    return f"{len(unfinished)} of {len(outcomes)} entries did not finish ({counts}); see above"
