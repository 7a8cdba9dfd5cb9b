"""The repository as subsystems: every core module placed in the subsystem it is closest to in the dependency
graph (the module catalogue), and the edges between subsystems labelled with what crosses them.
"""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import module_lines
from generator.repo.facts.ranking import secondary_names
from generator.repo.model import (
    CallEdge,
    CatalogueGroup,
    Facts,
    RepoMap,
    ShardAnalysis,
    SubsystemEdge,
    SubsystemLink,
)
from generator.repo.plan.naming import name_words
from generator.repo.plan.subsystems import dependency_graph, edge_weights

LABEL_NAMES = 2  # names on an architecture edge
# what an edge's strength counts: a call builds on the other subsystem more than an import does, and
# importing or calling only its error types, shims or type aliases least of all
W_CALL, W_IMPORT, W_WEAK = 3, 2, 1
_TYPING = frozenset({"types", "typing", "typings", "compat", "shim", "shims"})
OTHER = "Other modules"


def place_modules(
    modules: Sequence[str], shards: Sequence[tuple[int, Sequence[str]]], facts: Facts, repo_map: RepoMap
) -> dict[str, int]:
    """Each module → the index of the shard (`shards`: index, files) whose files are nearest to it through
    imports and packages, a stronger tie being a shorter step (between shards equally near, the first). A
    shard's own files are its own; a shard that stands for a sub-package holds that package's modules and
    no others (`generator/documents/` is not part of the "Topic" subsystem because `generator/topic/` is the
    package nearest to it). 0: no shard may hold it."""
    shard_files = [path for _, files in shards for path in files]
    nodes = list(dict.fromkeys([*modules, *shard_files]))
    graph = dependency_graph(nodes, facts, repo_map)
    home = {path: index for index, files in shards for path in files}
    position = {path: i for i, path in enumerate(nodes)}
    packages = _package_shards(shards)
    # the shards a module outside every shard's package may join: those standing for no package
    loose = [p for p in home if p in position and home[p] not in packages.values()]
    nearest: dict[str, int] = {}
    if loose:
        weights = edge_weights(graph)
        steps = [1.0 / w for w in weights] if weights else None
        # one row per shard file: its distance to every node (Dijkstra, in C); a column's least is the nearest
        rows = graph.distances(source=[position[p] for p in loose], weights=steps)
        for path, column in zip(nodes, zip(*rows, strict=True), strict=True):
            least = min(column)
            nearest[path] = home[loose[column.index(least)]] if least != float("inf") else 0
    return {m: home.get(m) or _package_of(m, packages) or nearest.get(m, 0) for m in modules}


def _package_shards(shards: Sequence[tuple[int, Sequence[str]]]) -> dict[str, int]:
    """Folder → shard, for each shard whose files share a folder no other shard's files are in: the
    sub-package it stands for, whose other modules belong to it too."""
    folders = {
        index: posixpath.commonpath([posixpath.dirname(p) for p in files]) for index, files in shards if files
    }
    packages: dict[str, int] = {}
    for index, folder in folders.items():
        others = [p for i, files in shards if i != index for p in files]
        if folder and not any(p.startswith(f"{folder}/") for p in others):
            packages[folder] = index
    return packages


def _package_of(path: str, packages: dict[str, int]) -> int:
    """The shard whose sub-package holds `path` (the deepest such), 0 for none."""
    folder = posixpath.dirname(path)
    while folder:
        if folder in packages:
            return packages[folder]
        folder = posixpath.dirname(folder)
    return 0


def catalogue(
    placement: dict[str, int],
    analyses: Sequence[ShardAnalysis],
    facts: Facts,
    repo_map: RepoMap,
    linker: Linker,
) -> list[CatalogueGroup]:
    """Every module, one line each, grouped by subsystem in plan order; then the modules no subsystem holds,
    by folder (a folder of one such module joins "Other modules", last)."""
    members: dict[int, list[str]] = defaultdict(list)
    for path, index in placement.items():
        members[index].append(path)
    folders: dict[str, list[str]] = defaultdict(list)
    for path in members.pop(0, []):
        folders[posixpath.dirname(path)].append(path)
    rest = sorted(path for paths in folders.values() if len(paths) == 1 for path in paths)
    names = {a.index: a.shard.name for a in analyses}
    groups = [(names.get(index, OTHER), index, members[index]) for index in sorted(members)]
    groups += [(f"{folder or '.'}/", 0, paths) for folder, paths in sorted(folders.items()) if len(paths) > 1]
    groups += [(OTHER, 0, rest)] if rest else []
    return [
        CatalogueGroup(name, index, tuple(module_lines(sorted(paths), repo_map, facts, linker)))
        for name, index, paths in groups
    ]


def subsystem_edges(
    placement: dict[str, int], facts: Facts, calls: Sequence[CallEdge] = (), flow: Sequence[CallEdge] = ()
) -> list[SubsystemEdge]:
    """An edge where a module of one subsystem imports or calls into another, labelled with the names
    imported or called across it most often, primary ones before error types and shims (else the files of
    the modules imported); its crossings say which module uses which, with what. Its strength weighs a call
    over an import, and an import or call of only errors, shims or type aliases least: raising another
    subsystem's exception is not building on it. An edge a call of the main `flow` crosses is marked."""
    used: dict[tuple[int, int], Counter[str]] = defaultdict(Counter)
    strength: Counter[tuple[int, int]] = Counter()
    pairs: dict[tuple[int, int], dict[tuple[str, str], Counter[str]]] = defaultdict(
        lambda: defaultdict(Counter)
    )
    lesser = _Secondary(facts)
    for path, source in placement.items():
        fact = facts.files.get(path)
        for target in fact.depends_on if fact else []:
            other = placement.get(target)
            if not source or not other or other == source:
                continue
            names = fact.names_from.get(target, []) if fact else []
            # a module imported whole (or a Go file of the same package) is named by its file: what exists
            for name in names or [PurePosixPath(target).name]:
                used[(source, other)][name] += 1 if names else 0  # a name imported outranks a module
                pairs[(source, other)][(path, target)][name] += 1 if names else 0
            weak = lesser.module(target) or bool(names) and all(lesser.of(target, n) for n in names)
            strength[(source, other)] += W_WEAK if weak else W_IMPORT
    crossed = {(placement.get(c.caller_path), placement.get(c.callee_path)) for c in flow}
    for call in [*calls, *(c for c in flow if c not in calls)]:
        caller, callee = placement.get(call.caller_path), placement.get(call.callee_path)
        if caller and callee and caller != callee:
            used[(caller, callee)][call.callee] += 1
            pairs[(caller, callee)][(call.caller_path, call.callee_path)][call.callee] += 1
            weak = lesser.of(call.callee_path, call.callee)
            strength[(caller, callee)] += W_WEAK if weak else W_CALL
    return [
        SubsystemEdge(
            a,
            b,
            _label_names(names, lesser.names),
            strength[(a, b)],
            tuple((x, y, _label_names(n, lesser.names)) for (x, y), n in sorted(pairs[(a, b)].items())),
            (a, b) in crossed,
        )
        for (a, b), names in sorted(used.items())
    ]


class _Secondary:
    """Which names of a module are error types or shims (facts/ranking.py `secondary_names`), and which
    modules hold only those or type aliases; each module read once."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.found: dict[str, set[str]] = {}
        self.names: set[str] = set()  # every secondary name looked up so far, for the labels

    def of(self, path: str, name: str) -> bool:
        known = self.found.get(path)
        if known is None:
            fact = self.facts.files.get(path)
            known = self.found[path] = secondary_names(fact) if fact is not None else set()
            self.names |= known
        return name in known or name.split(".", 1)[0] in known

    def module(self, path: str) -> bool:
        """A module of type aliases or shims, or one whose every symbol is an error type."""
        if set(name_words(PurePosixPath(path).name.split(".")[0])) <= _TYPING:
            return True
        fact = self.facts.files.get(path)
        return fact is not None and bool(fact.symbols) and all(self.of(path, s.name) for s in fact.symbols)


def _label_names(names: Counter[str], lesser: set[str]) -> tuple[str, ...]:
    """The names most called across an edge, public ones first and error types and shims (`lesser`) after
    the others (else the modules imported)."""
    called = [n for n, count in names.most_common() if count > 0]
    public = [n for n in called if not n.rsplit(".", 1)[-1].startswith("_")]
    shown = sorted(public or called, key=lambda n: n in lesser or n.split(".", 1)[0] in lesser)
    return tuple((shown or sorted(names))[:LABEL_NAMES])


def link_subsystems(analyses: Sequence[ShardAnalysis], edges: Iterable[SubsystemEdge]) -> None:
    """Fill each shard's "depends on" and "used by" from the subsystem edges, each with the shard's own
    modules the names cross at."""
    by_index = {a.index: a for a in analyses}
    for edge in edges:
        source, target = by_index.get(edge.source), by_index.get(edge.target)
        if source is None or target is None:
            continue
        outgoing = _at_files(((a, n) for a, _, n in edge.crossings), source.shard.files)
        incoming = _at_files(((b, n) for _, b, n in edge.crossings), target.shard.files)
        source.depends_on.append(SubsystemLink(target.shard.name, target.slug, edge.uses, outgoing))
        target.used_by.append(SubsystemLink(source.shard.name, source.slug, edge.uses, incoming))


def _at_files(
    crossings: Iterable[tuple[str, tuple[str, ...]]], files: Sequence[str]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The names crossing at each of `files` (in the shard's order), at most LABEL_NAMES per module."""
    at: dict[str, list[str]] = defaultdict(list)
    for path, names in crossings:
        if path in files:
            at[path] += [n for n in names if n not in at[path]]
    return tuple((path, tuple(at[path][:LABEL_NAMES])) for path in files if path in at)
