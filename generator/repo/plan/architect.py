"""Stage 4, architect: split the repository into 3–5 subsystems worth analyzing.

The LLM proposes `{shards: [{name, files, rationale}]}` from the map and the key facts; the reply is checked
against a schema and against the file list (unknown files are dropped). When it is unusable after one repair,
or offline, the dependency-graph communities of generator/repo/plan/subsystems.py are the plan; the model
is shown them too, with each module's main symbols, so both paths start from the same facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from generator.errors import ProviderAuthError, ProviderError
from generator.llm.base import Prompt, Provider
from generator.llm.window import context_window, fit_entries
from generator.redact import Redactor
from generator.repo.facts.ranking import key_symbols
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
from generator.repo.plan.subsystems import core_modules, plan_subsystems, rank_files

if TYPE_CHECKING:
    from generator.repo.plan.architect_reply import ArchitectReply

_MAP_LINES_IN_PROMPT = 300
_FACT_FILES_IN_PROMPT = 40


def plan_shards(
    provider: Provider,
    repo_map: RepoMap,
    facts: Facts,
    *,
    redactor: Redactor | None = None,
    pinned: Sequence[Shard] = (),
    project: str = "",
) -> ShardPlan:
    """The architect's plan over the whole map, after the maintainer's `pinned` shards; heuristic when it
    fails (`project`: the repository's name, as its pages are titled)."""
    allowed = [f.path for f in repo_map.files]
    if provider.offline:
        note = "Planned offline from the dependency graph."
        return heuristic_plan(repo_map, facts, note=note, pinned=pinned, project=project)
    # the model path only: the schema library is not loaded by offline runs
    from generator.llm.structured import complete_json
    from generator.repo.plan.architect_reply import ArchitectReply

    # the map is cut to the model's window, least important files first
    prompt = fit_entries(
        architect_prompts(repo_map, facts, allowed, pinned),
        _MAP_LINES_IN_PROMPT,
        context_window(provider, "architect"),
    )
    # docstrings quoted in the prompt are repository text: redacted before they leave the process
    user, _ = (redactor or Redactor.from_environ()).redact(prompt.user)
    try:
        reply, notes = complete_json(provider, replace(prompt, user=user), ArchitectReply)
    except ProviderAuthError:
        raise
    except ProviderError as exc:
        reply, notes = None, [f"the architect request failed: {exc.message}"]
    shards = accept_proposal(reply, allowed, pinned) if reply else []
    if not shards:
        why = "; ".join(notes) or "the proposal named no file of the repository"
        note = f"The architect's plan was unusable ({why}), so the dependency-graph heuristic planned the shards."
        return heuristic_plan(repo_map, facts, note=note, pinned=pinned, project=project)
    return ShardPlan((*pinned, *shards), "llm", "; ".join(notes))


def accept_proposal(
    reply: ArchitectReply, allowed: Sequence[str], pinned: Sequence[Shard] = ()
) -> list[Shard]:
    """The proposal's shards with unknown, repeated and pinned files dropped, shards left empty removed,
    and no more than the pinned ones leave room for."""
    known = set(allowed)
    taken = {path for shard in pinned for path in shard.files}
    pinned_names = {shard.name.lower() for shard in pinned}
    shards: list[Shard] = []
    for proposal in reply.shards[: max(MAX_SHARDS - len(pinned), 0)]:
        if " ".join(proposal.name.split()).lower() in pinned_names:
            continue  # the model restated a pinned subsystem: the maintainer's stands
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


def architect_prompts(
    repo_map: RepoMap,
    facts: Facts,
    allowed: Sequence[str],
    pinned: Sequence[Shard] = (),
) -> Callable[[int], Prompt]:
    """The architect's prompt by how many files it lists (the most important ones, with the key facts of
    the first of them and the suggested subsystems' files among them), after the maintainer's `pinned`
    shards; ranked and grouped once."""
    ranked = rank_files(core_modules(repo_map, allowed), facts, repo_map)
    proposal = plan_subsystems(repo_map, facts, allowed, pinned)[len(pinned) :]
    room = MAX_SHARDS - len(pinned)
    fixed = (
        "\n\nSubsystems the maintainer pinned (kept as they are; do not list their files again):\n"
        + "\n".join(f"- {s.name}: {', '.join(s.files)}" for s in pinned)
        + f"\nPlan only the rest, in at most {room} more subsystems."
        if pinned
        else ""
    )
    sizes = {f.path: f for f in repo_map.files}
    languages = ", ".join(
        f"{lang} ({v['files']} files)" for lang, v in list(repo_map.languages().items())[:8]
    )
    system = (
        "You are a software architect planning how to study an unfamiliar code base. You answer with JSON."
    )

    def build(lines: int) -> Prompt:
        listed = ranked[:lines]
        map_lines = [f"{p} ({sizes[p].lines} lines, {sizes[p].language})" for p in listed if p in sizes]
        if len(ranked) > lines:
            map_lines.append(f"… and {len(ranked) - lines} less important files")
        shown = set(listed)
        groups = [(s.name, [f for f in s.files if f in shown]) for s in proposal]
        user = (
            f"Languages: {languages}\n\nFiles (most important first):\n"
            + "\n".join(map_lines)
            + "\n\nKey facts:\n"
            + "\n".join(_fact_lines(listed[:_FACT_FILES_IN_PROMPT], facts))
            + "\n\nSubsystems the dependency graph suggests (improve on them; name each after what it does):\n"
            + "\n".join(f"- {name}: {', '.join(files)}" for name, files in groups if files)
            + fixed
            + "\nA subsystem is one concept: keep a sub-package's modules together (divide only a package that"
            " holds nearly all the code, or a container such as src/), and name it with the short noun phrase a"
            " maintainer would use (the package's name, or what its docstrings say it holds), never after one"
            " file and never a list of file names."
            + f"\n\nGroup the most important files into {MIN_SHARDS}-{MAX_SHARDS} subsystems (shards) for deep analysis."
            " Tests, docs, examples, benchmarks, scripts, completion scripts, CI, packaging and bundled"
            " third-party code are context, not shards."
            f" Limits: at most {MAX_FILES_PER_SHARD} files per shard, at most {MAX_PLANNED_FILES} files in total"
            " — stay under the limits. Use file paths exactly as listed above. Put the most important shard first."
            '\nAnswer with JSON only: {"shards": [{"name": "short subsystem name", "files": ["path", "…"],'
            ' "rationale": "why these files belong together"}]}'
        )
        return Prompt(user=user[:24_000], system=system, max_tokens=2048, json_mode=True, stage="architect")

    return build


def _fact_lines(paths: Sequence[str], facts: Facts) -> list[str]:
    lines = []
    for path in paths:
        fact = facts.files.get(path)
        if fact is None:
            continue
        symbols = ", ".join(r.symbol.name for r in key_symbols(facts, path, limit=8))[:200]
        deps = ", ".join(fact.depends_on[:5])
        doc = f" — {fact.doc.splitlines()[0][:120]}" if fact.doc else ""
        entry = " [entry point]" if fact.is_entry_point else ""
        lines.append(f"- {path}{entry}{doc}\n  symbols: {symbols or '-'}; imports: {deps or '-'}")
    return lines


# --------------------------------------------------------------------------- heuristic plan


def heuristic_plan(
    repo_map: RepoMap, facts: Facts, *, note: str, pinned: Sequence[Shard] = (), project: str = ""
) -> ShardPlan:
    """The offline architect: the maintainer's pinned shards, then subsystems from the package structure
    and the dependency graph (`project`: the repository's name, for a subsystem holding all of its code)."""
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files], pinned, project=project)
    if pinned:
        note += (
            f" {len(pinned)} of the subsystems {'was' if len(pinned) == 1 else 'were'} pinned in deepkb.yml."
        )
    if 0 < len(shards) < MIN_SHARDS:
        modules = len(core_modules(repo_map))
        planned = "1 was" if len(shards) == 1 else f"{len(shards)} were"
        note += (
            f" The repository has {modules} source modules, too few for {MIN_SHARDS} subsystems of more than"
            f" two modules each, so {planned} planned."
        )
    return ShardPlan(tuple(shards), "heuristic", note)
