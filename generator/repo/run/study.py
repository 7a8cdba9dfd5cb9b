"""The data one repository research carries between its stages, and what it returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator import store
from generator.config import Config, RepoEntry
from generator.errors import PartialFailure
from generator.repo.analyze.draft import ShardContext
from generator.repo.docs.model import ProjectDocs
from generator.repo.model import (
    Checkout,
    Facts,
    RepoMap,
    RepoSource,
    RepoSynthesis,
    Shard,
    ShardAnalysis,
    ShardPlan,
)
from generator.repo.reference.model import Reference
from generator.repo.run.session import RepoCache
from generator.store import KBPaths

from ...jsontypes import JSONObject


def shard_slug(index: int, shard: Shard) -> str:
    """NN_<slug> of shards/NN_<slug>.md: NN is the shard's place in the plan, stable while the plan is."""
    return f"{index:02d}_{store.slugify(shard.name, max_len=50)}"


@dataclass(frozen=True)
class RepoTarget:
    """One repository to research, resolved once by the app layer (app/targets.py): which repository, what
    deepkb.yml says about it, and what this run asks."""

    source: RepoSource
    entry: RepoEntry | None = None
    """deepkb.yml's entry for this repository, however its source is written there; None when not listed."""
    notes: str = ""
    """The text of the maintainer's notes file the entry names ("" when it names none)."""
    questions: tuple[str, ...] = ()
    """Asked in this run, each on a page of its own: the entry's questions, then the command line's."""
    entry_points: tuple[str, ...] = ()
    """Where the main flows start: the command line's, else the entry's."""
    pins: dict[str, list[str]] = field(default_factory=dict, compare=False)
    """The entry's pinned subsystems: name → files or globs."""
    retry_failed: bool = False
    """Keep the last run's plan and ask the model again only for the shards it failed."""
    max_concurrent: int | None = None
    """Shards analyzed at once (None: llm.max_concurrent)."""

    @property
    def id(self) -> str:
        return f"repo:{self.source.owner}/{self.source.name}"


@dataclass
class Study:
    """Everything prepared before the shards are analyzed: the pinned checkout, its facts and the plan."""

    paths: KBPaths
    config: Config
    target: RepoTarget
    checkout: Checkout
    repo_map: RepoMap
    facts: Facts
    plan: ShardPlan
    ctx: ShardContext
    cache: RepoCache
    plan_tokens: dict[str, int] = field(default_factory=dict)
    docs: ProjectDocs | None = None  # the project's own documentation (repo/docs/), read with the facts
    reference: Reference | None = None  # its configuration, data model and extension points (repo/reference/)

    @property
    def source(self) -> RepoSource:
        return self.target.source

    @property
    def questions(self) -> tuple[str, ...]:
        """Asked in this run; the ones asked before are read from their pages."""
        return self.target.questions

    @property
    def label(self) -> str:
        return f"{self.source.owner}/{self.source.name}"

    @property
    def harvest_dir(self) -> Path:
        return self.paths.repo_dir(self.source.owner, self.source.name)


@dataclass
class RepoResult:
    """What a repository research returns: its study and the synthesis the pages are rendered from."""

    study: Study
    synthesis: RepoSynthesis
    usage: dict[str, int]

    @property
    def failed(self) -> list[ShardAnalysis]:
        return self.synthesis.failed

    @property
    def fallen_back(self) -> list[ShardAnalysis]:
        return self.synthesis.fallen_back

    def refused_line(self) -> str:
        """Which shards are offline pages because the model's answers did not pass the checks (published,
        labelled on their pages: the honest outcome of a weak model); "" when none."""
        refused = [a.shard.name for a in self.fallen_back if a.rejected]
        if not refused:
            return ""
        return (
            f"{len(refused)} of {len(self.synthesis.analyses)} shards of {self.study.label} are offline pages,"
            f" labelled: the model's answers did not pass the checks ({', '.join(refused)})"
        )

    def to_json(self) -> JSONObject:
        study = self.study
        return {
            "success": not self.failed and not self.fallen_back,
            "harvest_dir": str(study.harvest_dir),
            "index": str(study.harvest_dir / "index.md"),
            "source": study.source.raw,
            "repository": study.label,
            "revision": study.checkout.revision,
            "revision_date": study.checkout.revision_date,
            "shards_analyzed": len(self.synthesis.landed),
            "shards_failed": [
                {"name": a.shard.name, "files": list(a.shard.files), "reason": a.error} for a in self.failed
            ],
            "shards_fallen_back": [
                {
                    "name": a.shard.name,
                    "page": f"shards/{a.slug}.md",
                    "reason": a.fallback,
                    "answer_refused": a.rejected,
                }
                for a in self.fallen_back
            ],
            "shards": [
                {"name": a.shard.name, "page": f"shards/{a.slug}.md", "summary": a.summary}
                for a in self.synthesis.landed
            ],
            "answers": [
                {"request": a.request, "page": f"answers/{a.slug}.md", "symbols": [s.name for s in a.symbols]}
                for a in self.synthesis.answers
            ],
            "summary": " ".join([self.synthesis.overview, *self.synthesis.summary]).strip(),
            "planner": study.plan.planner,
            "provider": self.synthesis.provider,
            "model": self.synthesis.model,
            "usage": self.usage,
        }


class RepoPartialFailure(PartialFailure):
    """Some shards failed, or fell back to the offline analyst; the other pages and the index were written.
    Carries the result for --json."""

    def __init__(self, result: RepoResult, *, kept_complete_pages: bool = False) -> None:
        total = len(result.synthesis.analyses)
        parts = [
            f"{len(group)} of {total} shards of {result.study.label} {what}: "
            + ", ".join(a.shard.name for a in group)
            for group, what in ((result.failed, "failed"), (result.fallen_back, "fell back to offline pages"))
            if group
        ]
        hint = "the index lists the reasons; run again to retry only those shards"
        if kept_complete_pages:
            hint = "the complete pages of an earlier run were kept; finish the chunks, then synthesize again"
        super().__init__("; ".join(parts), hint=hint)
        self.result = result
