"""Stage 4, architect: split the repository into 4–6 subsystems worth analyzing.

The LLM proposes `{shards: [{name, files, rationale}]}` from the map and the key facts; the reply is checked
against a schema and against the file list (unknown files are dropped). When it is unusable after one repair,
or offline, the heuristic plan groups files by package directory, refines the groups with import edges and
ranks them by importance.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from pydantic import BaseModel, Field

from generator.errors import ProviderAuthError, ProviderError
from generator.llm.base import Prompt, Provider
from generator.llm.structured import complete_json
from generator.redact import Redactor
from generator.repo.model import (
    MAX_FILES_PER_SHARD,
    MAX_PLANNED_FILES,
    MAX_SHARDS,
    MIN_SHARDS,
    Facts,
    RepoMap,
    Shard,
    ShardPlan,
)

# tests, docs and examples describe the code rather than being it: planned only when nothing else exists
_NON_CORE = re.compile(
    r"(^|/)(tests?|testing|__tests__|spec|specs|docs?|examples?|benchmarks?|bench|fixtures?)/"
    r"|(^|/)(test_[^/]*|[^/]*_test\.\w+|[^/]*\.(test|spec)\.\w+|conftest\.py)$"
)
_PROSE_LANGUAGES = frozenset(
    {"markdown", "rst", "text", "other", "json", "yaml", "toml", "ini", "csv", "xml"}
)
_MAP_LINES_IN_PROMPT = 300
_FACT_FILES_IN_PROMPT = 40


class ShardProposal(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    files: list[str] = Field(min_length=1, max_length=40)
    rationale: str = Field(default="", max_length=600)


class ArchitectReply(BaseModel):
    """The JSON the architect must answer with."""

    shards: list[ShardProposal] = Field(min_length=1, max_length=12)


def plan_shards(
    provider: Provider,
    repo_map: RepoMap,
    facts: Facts,
    *,
    candidates: Sequence[str] | None = None,
    request: str | None = None,
    redactor: Redactor | None = None,
) -> ShardPlan:
    """The architect's plan over `candidates` (the focus set) or the whole map; heuristic when it fails."""
    allowed = list(candidates) if candidates else [f.path for f in repo_map.files]
    if provider.offline:
        return heuristic_plan(repo_map, facts, allowed, note="Planned offline from the dependency graph.")
    prompt = architect_prompt(repo_map, facts, allowed, request)
    # docstrings quoted in the prompt are repository text: redacted before they leave the process
    user, _ = (redactor or Redactor.from_environ()).redact(prompt.user)
    try:
        reply, notes = complete_json(provider, replace(prompt, user=user), ArchitectReply)
    except ProviderAuthError:
        raise
    except ProviderError as exc:
        reply, notes = None, [f"the architect request failed: {exc.message}"]
    shards = accept_proposal(reply, allowed) if reply else []
    if not shards:
        why = "; ".join(notes) or "the proposal named no file of the repository"
        note = f"The architect's plan was unusable ({why}), so the dependency-graph heuristic planned the shards."
        return heuristic_plan(repo_map, facts, allowed, note=note)
    return ShardPlan(tuple(shards), "llm", "; ".join(notes))


def accept_proposal(reply: ArchitectReply, allowed: Sequence[str]) -> list[Shard]:
    """The proposal's shards with unknown and repeated files dropped, and shards left empty removed."""
    known = set(allowed)
    taken: set[str] = set()
    shards: list[Shard] = []
    for proposal in reply.shards:
        files = []
        for raw in proposal.files:
            path = raw.strip().removeprefix("./")
            if path in known and path not in taken:
                taken.add(path)
                files.append(path)
        if files:
            shards.append(
                Shard(" ".join(proposal.name.split()), tuple(files), " ".join(proposal.rationale.split()))
            )
    return shards


# --------------------------------------------------------------------------- prompt


def architect_prompt(repo_map: RepoMap, facts: Facts, allowed: Sequence[str], request: str | None) -> Prompt:
    ranked = rank_files(allowed, facts, repo_map)
    sizes = {f.path: f for f in repo_map.files}
    map_lines = [
        f"{p} ({sizes[p].lines} lines, {sizes[p].language})"
        for p in ranked[:_MAP_LINES_IN_PROMPT]
        if p in sizes
    ]
    if len(ranked) > _MAP_LINES_IN_PROMPT:
        map_lines.append(f"… and {len(ranked) - _MAP_LINES_IN_PROMPT} less important files")
    languages = ", ".join(
        f"{lang} ({v['files']} files)" for lang, v in list(repo_map.languages().items())[:8]
    )
    task = f"Research request: {request}\nPlan the shards so they answer it.\n\n" if request else ""
    user = (
        f"{task}Languages: {languages}\n\nFiles (most important first):\n"
        + "\n".join(map_lines)
        + "\n\nKey facts:\n"
        + "\n".join(_fact_lines(ranked[:_FACT_FILES_IN_PROMPT], facts))
        + f"\n\nGroup the most important files into {MIN_SHARDS}-{MAX_SHARDS} subsystems (shards) for deep analysis."
        f" Limits: at most {MAX_FILES_PER_SHARD} files per shard, at most {MAX_PLANNED_FILES} files in total"
        " — stay under the limits. Use file paths exactly as listed above. Put the most important shard first."
        '\nAnswer with JSON only: {"shards": [{"name": "short subsystem name", "files": ["path", "…"],'
        ' "rationale": "why these files belong together"}]}'
    )
    system = (
        "You are a software architect planning how to study an unfamiliar code base. You answer with JSON."
    )
    return Prompt(user=user[:24_000], system=system, max_tokens=2048, json_mode=True, stage="architect")


def _fact_lines(paths: Sequence[str], facts: Facts) -> list[str]:
    lines = []
    for path in paths:
        fact = facts.files.get(path)
        if fact is None:
            continue
        symbols = ", ".join(s.name for s in fact.symbols if s.public)[:160]
        deps = ", ".join(fact.depends_on[:5])
        doc = f" — {fact.doc.splitlines()[0][:120]}" if fact.doc else ""
        entry = " [entry point]" if fact.is_entry_point else ""
        lines.append(f"- {path}{entry}{doc}\n  symbols: {symbols or '-'}; imports: {deps or '-'}")
    return lines


# --------------------------------------------------------------------------- heuristic plan


def rank_files(paths: Sequence[str], facts: Facts, repo_map: RepoMap) -> list[str]:
    """Most important first: the facts' importance, then size, then path (stable)."""
    lines = {f.path: f.lines for f in repo_map.files}

    def key(path: str) -> tuple[float, int, str]:
        fact = facts.files.get(path)
        return (-(fact.importance if fact else 0.0), -lines.get(path, 0), path)

    return sorted(paths, key=key)


def heuristic_plan(repo_map: RepoMap, facts: Facts, allowed: Sequence[str], *, note: str) -> ShardPlan:
    """Dependency-graph clusters (package directories joined by import edges), ranked by importance."""
    pool = _core_pool(allowed, facts, repo_map)
    groups = _refine_by_imports(_group_by_directory(pool), facts)
    ranked = sorted(groups.items(), key=lambda kv: (-_group_weight(kv[1], facts), kv[0]))
    per_group = (
        MAX_FILES_PER_SHARD
        if len(ranked) >= MIN_SHARDS
        else math.ceil(MAX_PLANNED_FILES / max(len(ranked), 1))
    )
    shards: list[Shard] = []
    budget = MAX_PLANNED_FILES
    for directory, files in ranked[:MAX_SHARDS]:
        chosen = files[: min(per_group, budget)]
        if not chosen:
            break
        budget -= len(chosen)
        shards.append(Shard(_group_name(directory), tuple(chosen), _rationale(directory, files, chosen)))
    return ShardPlan(tuple(shards), "heuristic", note)


def _core_pool(allowed: Sequence[str], facts: Facts, repo_map: RepoMap) -> list[str]:
    """Source files ranked by importance; tests/docs and prose only when nothing else exists."""
    languages = {f.path: f.language for f in repo_map.files}
    code = [p for p in allowed if languages.get(p, "other") not in _PROSE_LANGUAGES]
    core = [p for p in code if not _NON_CORE.search(p)]
    return rank_files(core or code or list(allowed), facts, repo_map)


def _group_by_directory(pool: Sequence[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for path in pool:  # pool order is importance order, so each group lists its best files first
        groups[str(PurePosixPath(path).parent)].append(path)
    return dict(groups)


def _refine_by_imports(groups: dict[str, list[str]], facts: Facts) -> dict[str, list[str]]:
    """A lone file joins the group it shares the most import edges with (its package in all but name)."""
    home = {path: directory for directory, files in groups.items() for path in files}
    for directory in sorted(groups, key=lambda d: len(groups[d])):
        files = groups.get(directory)
        if not files or len(files) != 1 or len(groups) <= MIN_SHARDS:
            continue
        target = _best_neighbour(files[0], home, facts, exclude=directory)
        if target:
            groups[target].append(files[0])
            home[files[0]] = target
            del groups[directory]
    return groups


def _best_neighbour(path: str, home: dict[str, str], facts: Facts, *, exclude: str) -> str | None:
    fact = facts.files.get(path)
    neighbours = list(fact.depends_on) if fact else []
    neighbours += [p for p, f in facts.files.items() if path in f.depends_on]
    counts: dict[str, int] = defaultdict(int)
    for other in neighbours:
        if other in home and home[other] != exclude:
            counts[home[other]] += 1
    return min(counts, key=lambda d: (-counts[d], d)) if counts else None


def _group_weight(files: Sequence[str], facts: Facts) -> float:
    scores = sorted((facts.files[p].importance if p in facts.files else 0.0 for p in files), reverse=True)
    return sum(scores[:MAX_FILES_PER_SHARD]) + 0.001 * len(files)


def _group_name(directory: str) -> str:
    return "Top level" if directory in ("", ".") else directory


def _rationale(directory: str, files: Sequence[str], chosen: Sequence[str]) -> str:
    where = "the repository root" if directory in ("", ".") else f"{directory}/"
    rest = f" ({len(files) - len(chosen)} less important files left out)" if len(files) > len(chosen) else ""
    return f"The most important files of {where} by import centrality and size{rest}."
