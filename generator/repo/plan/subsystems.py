"""Subsystems from the package structure and the dependency graph: the offline architect.

Source files are the nodes of a weighted graph: an import is a strong tie, sharing a package directory a weak
one (so packages hold together where imports are silent). Louvain community detection (igraph's multilevel
method, in C) finds the groups; the most important 3–5 become shards of at most 5 files, each named after
what its own modules are called. Tests, docs, examples, CI, packaging and release scripts are context, never a shard, while any core
module is left.
"""

from __future__ import annotations

import functools
import posixpath
import random
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import PurePosixPath

import igraph

from generator.repo.facts.ranking import TYPE_KINDS, key_symbols
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import (
    MAX_FILES_PER_SHARD,
    MAX_PLANNED_FILES,
    MAX_SHARDS,
    MIN_SHARDS,
    Facts,
    RepoMap,
    Shard,
)

# a declaration file (.pyi stub, .d.ts typings) restates a module rather than being one
DECLARATIONS = re.compile(r"\.d\.[cm]?ts$|\.pyi$")
PROSE_LANGUAGES = frozenset(
    {"markdown", "rst", "text", "other", "json", "yaml", "toml", "ini", "csv", "xml", "html", "css"}
)
SMALL_GROUP = 2  # seed: normalize merges consecutive shards of at most 2 files
IMPORT_WEIGHT = 1.0
FILE_GRAPH_LIMIT = 400  # more source modules than this: divide the packages, not the modules
PACKAGE_WEIGHT = 0.4
# Louvain resolutions tried in turn, from coarse to fine: the first giving 3–5 communities of two or more
# modules wins (a lower resolution merges communities, a higher one splits them)
RESOLUTIONS = (1.0, 0.7, 0.5, 0.3, 0.15, 1.5, 2.0, 4.0, 8.0)
SEED = 0
# igraph draws the order it visits nodes in from one process-wide generator: each detection sets a freshly
# seeded one, under a lock (a batch researches several repositories at once), so runs repeat
_SEEDED = threading.Lock()
# module names that say where code lives, not what it does; the package or the main class names it instead
_GENERIC = frozenset(
    "index main init mod lib src utils util helpers helper common misc core base internal pkg cmd package"
    " source impl".split()
)
_PLATFORM = re.compile(
    r"windows|win|notwin|linux|darwin|unix|posix|wasm|js|bsd|freebsd|openbsd|solaris|plan|amd|arm|go|nt"
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def is_context(path: str) -> bool:
    """Tests, docs, examples, CI, packaging and release scripts (context for the code, not the code), and
    declaration files."""
    return is_context_file(path) or bool(DECLARATIONS.search(path))


def core_modules(repo_map: RepoMap, allowed: Iterable[str] | None = None) -> list[str]:
    """Source files of the main packages (code, not context), or whatever exists when there is none."""
    wanted = set(allowed) if allowed is not None else None
    code = [
        f.path
        for f in repo_map.files
        if f.language not in PROSE_LANGUAGES and (wanted is None or f.path in wanted)
    ]
    return [p for p in code if not is_context(p)] or code


def rank_files(paths: Iterable[str], facts: Facts, repo_map: RepoMap) -> list[str]:
    """Most important first (`file_weight`), then path (stable)."""
    return sorted(paths, key=_rank_key(facts, repo_map))


def _rank_key(facts: Facts, repo_map: RepoMap) -> Callable[[str], tuple[float, str]]:
    """Each file's sort key, cached: the planner ranks the same files in every grouping it tries (thousands
    of times on a large repository)."""
    lines = {f.path: f.lines for f in repo_map.files}
    most = max(lines.values(), default=1)
    return functools.cache(lambda path: (-file_weight(path, facts, lines, most), path))


def dependency_graph(pool: Sequence[str], facts: Facts, repo_map: RepoMap) -> igraph.Graph:
    """Files joined by imports (weight 1 each way) and, more weakly, to their package's main file."""
    inside = set(pool)
    ties = [
        (path, target, IMPORT_WEIGHT)
        for path in pool
        if path in facts.files
        for target in facts.files[path].depends_on
        if target in inside and target != path
    ]
    for files in _by_directory(rank_files(pool, facts, repo_map)).values():
        ties += [(files[0], other, PACKAGE_WEIGHT) for other in files[1:]]
    return _weighted_graph(pool, ties)


def _weighted_graph(nodes: Iterable[str], ties: Iterable[tuple[str, str, float]]) -> igraph.Graph:
    """A graph of `nodes` (vertex attribute "name") whose edge between two nodes sums the weights of their
    ties, either way round (edge attribute "weight"). Vertices and edges keep the order the nodes were given
    and the pairs were first tied in, which fixes the order the graph's algorithms visit them in."""
    names = list(dict.fromkeys(nodes))
    position = {name: i for i, name in enumerate(names)}
    weights: dict[tuple[str, str], float] = {}
    for a, b, weight in ties:
        pair = (b, a) if (b, a) in weights else (a, b)
        weights[pair] = weights.get(pair, 0.0) + weight
    graph = igraph.Graph(n=len(names), edges=[(position[a], position[b]) for a, b in weights])
    graph.vs["name"] = names
    graph.es["weight"] = list(weights.values())
    return graph


def edge_weights(graph: igraph.Graph) -> list[float] | None:
    """The graph's edge weights, None when it has no edge (igraph keeps no attribute for zero edges)."""
    return graph.es["weight"] if graph.ecount() else None


def _by_directory(paths: Iterable[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        groups[path.rpartition("/")[0] or "."].append(path)  # PurePosixPath(path).parent, for map paths
    return dict(groups)


def package_graph(pool: Sequence[str], facts: Facts) -> tuple[igraph.Graph, dict[str, list[str]]]:
    """Packages (directories) joined by the imports between their modules, and each package's modules: the
    graph a large repository is divided on, where its own package structure already groups the files."""
    members = _by_directory(pool)
    home = {path: folder for folder, files in members.items() for path in files}
    ties = [
        (home[path], home[target], IMPORT_WEIGHT)
        for path in pool
        if path in facts.files
        for target in facts.files[path].depends_on
        if target in home and home[target] != home[path]
    ]
    return _weighted_graph(members, ties), members


def communities(
    graph: igraph.Graph, facts: Facts, repo_map: RepoMap, members: dict[str, list[str]] | None = None
) -> list[list[str]]:
    """Louvain communities (seeded, so runs repeat), each ranked inside, most important community first.
    Resolutions are tried until 3–5 communities have more than one module; else the closest count wins.
    `members`: the modules of each node, when the nodes are packages rather than modules."""
    best: list[list[str]] = []
    key = _rank_key(facts, repo_map)
    for resolution in RESOLUTIONS:
        parts = louvain(graph, resolution)
        found = [
            sorted((f for node in part for f in (members[node] if members else [node])), key=key)
            for part in parts
            if part
        ]
        if _fit(found) < _fit(best) or not best:
            best = found
        if _fit(found)[0] == 0:
            break
    if len(best) < MIN_SHARDS:
        best = _split_largest(best)
    weight = _group_weight(facts, repo_map)
    return sorted(best, key=lambda files: (-weight(files), files[0]))


def louvain(graph: igraph.Graph, resolution: float) -> list[list[str]]:
    """The graph's communities (node names) at `resolution`, by Louvain's multilevel method, seeded."""
    names = graph.vs["name"] if graph.vcount() else []
    with _SEEDED:
        igraph.set_random_number_generator(random.Random(SEED))
        try:
            clustering = graph.community_multilevel(weights=edge_weights(graph), resolution=resolution)
        finally:
            igraph.set_random_number_generator(random)  # igraph's default
    return [[names[i] for i in part] for part in clustering]


def _fit(groups: Sequence[Sequence[str]]) -> tuple[int, int]:
    """How far the number of substantial communities is from the seed's 3–5, then how many small ones
    there are. Substantial: more than SMALL_GROUP modules (normalize merges smaller shards anyway)."""
    count = sum(1 for g in groups if len(g) > SMALL_GROUP)
    return max(MIN_SHARDS - count, count - MAX_SHARDS, 0), len(groups) - count


def _split_largest(groups: list[list[str]]) -> list[list[str]]:
    """Too few communities (a small, tightly knit package): halve the largest ones in path order, which
    keeps neighbouring modules together, until the minimum is reached or nothing is left to split."""
    groups = [g for g in groups if g]
    while len(groups) < MIN_SHARDS:
        largest = max(groups, key=len, default=[])
        if len(largest) <= 2 * SMALL_GROUP:
            break  # halves would be shards small enough for normalize to merge again
        groups.remove(largest)
        first = set(sorted(largest)[: len(largest) // 2])
        groups += [[p for p in largest if p in first], [p for p in largest if p not in first]]
    return groups


def file_weight(path: str, facts: Facts, lines: dict[str, int], most: int) -> float:
    """What a module weighs in the plan: its importance (centrality, entry status) plus its share of code,
    so a large core module outweighs a small one that everything imports."""
    fact = facts.files.get(path)
    return (fact.importance if fact else 0.0) + lines.get(path, 0) / max(most, 1)


def _group_weight(facts: Facts, repo_map: RepoMap) -> Callable[[Sequence[str]], float]:
    """What a group of modules weighs: its heaviest shard's worth of files, plus a little per file."""
    key = _rank_key(facts, repo_map)

    def weight(files: Sequence[str]) -> float:
        scores = sorted((-key(p)[0] for p in files), reverse=True)
        return sum(scores[:MAX_FILES_PER_SHARD]) + 0.001 * len(files)

    return weight


def plan_subsystems(repo_map: RepoMap, facts: Facts, allowed: Sequence[str]) -> list[Shard]:
    """3–5 shards of at most 5 files (25 in all), most important first, each named after what it does."""
    pool = core_modules(repo_map, allowed)
    if not pool:
        return []
    if len(pool) > FILE_GRAPH_LIMIT:
        graph, members = package_graph(pool, facts)
        groups = communities(graph, facts, repo_map, members)
    else:
        groups = communities(dependency_graph(pool, facts, repo_map), facts, repo_map)
    # a large community gives several shards (its modules in rank order, 5 at a time) before a trivial
    # community gives one: core modules are covered before small leftovers
    parts = [
        (group, group[i : i + MAX_FILES_PER_SHARD])
        for group in groups
        for i in range(0, len(group), MAX_FILES_PER_SHARD)
    ]
    weight = _group_weight(facts, repo_map)
    parts.sort(key=lambda gp: -weight(gp[1]))
    chosen = parts[: min(MAX_SHARDS, MAX_PLANNED_FILES // MAX_FILES_PER_SHARD)]
    names = subsystem_names([files for _, files in chosen], facts)
    return [
        Shard(name, tuple(files), _rationale(group, files))
        for name, (group, files) in zip(names, chosen, strict=True)
    ]


def _rationale(group: Sequence[str], files: Sequence[str]) -> str:
    if len(group) == len(files):
        return f"{len(files)} modules held together by imports and their package."
    return (
        f"The {len(files)} weightiest of {len(group)} modules held together by imports and their package;"
        " the others are listed in the module catalogue."
    )


# --------------------------------------------------------------------------- names


def subsystem_names(groups: Sequence[Sequence[str]], facts: Facts) -> list[str]:
    """A name per group from what its most important modules are called ("Client and models"), distinct
    across groups; never a number."""
    names: list[str] = []
    used: set[str] = set()
    main = _main_package(groups)
    for files in groups:
        package = _subpackage_name(files, main)
        if package and package not in names:
            names.append(package)
            continue
        terms = _distinct_terms(module_term(path, facts) for path in by_symbol_weight(files, facts))
        # a term an earlier subsystem is named by goes last: names should tell subsystems apart
        terms = [t for t in terms if t not in used] + [t for t in terms if t in used]
        used |= set(terms[:2])
        name = _join_terms(terms[:2]) if terms else _package_name(files)
        extra = 2
        while name in names and extra < len(terms):
            extra += 1
            name = _join_terms(terms[:extra])
        if name in names:
            name = f"{name} in {PurePosixPath(files[0]).parent.as_posix()}"
        names.append(name)
    return names


def _main_package(groups: Sequence[Sequence[str]]) -> str:
    """The directory holding most of the modules: the package the subsystems are parts of."""
    folders = Counter(str(PurePosixPath(p).parent) for files in groups for p in files)
    return folders.most_common(1)[0][0] if folders else ""


def _subpackage_name(files: Sequence[str], main: str) -> str:
    """A subpackage's own name ("Transports" for httpx/_transports/…) when all of a group's modules live in
    one below or beside the main package: its authors already named what it does."""
    common = PurePosixPath(posixpath.commonpath([str(PurePosixPath(p).parent) for p in files]))
    if str(common) in (".", main) or main.startswith(f"{common}/"):
        return ""
    words = words_of(common.name)
    return _join_terms([" ".join(words)]) if words and not set(words) <= _GENERIC else ""


def by_symbol_weight(files: Sequence[str], facts: Facts) -> list[str]:
    """The modules ordered by their most important symbol (the facts' ranking: exported, used, large):
    the modules holding a subsystem's central types name it."""

    def best(path: str) -> float:
        top = key_symbols(facts, path, limit=1)
        return top[0].score if top else 0.0

    return sorted(files, key=lambda path: -best(path))


def _distinct_terms(terms: Iterable[str]) -> list[str]:
    """Terms in order without repeats or variants of one already kept ("zsh completions" after "completions")."""
    kept: list[str] = []
    for term in terms:
        if term and not any(term.split()[-1] == k.split()[-1] for k in kept):
            kept.append(term)
    return kept


TERM_WORDS = 3  # a type named in more words than this is too particular to name what a module is about


def module_term(path: str, facts: Facts) -> str:
    """What a module is about, in words: its name, else its main type's, else its package's ("" for a
    module of helpers, which names nothing)."""
    pure = PurePosixPath(path)
    words = name_words(pure.name.split(".")[0])
    if words and not set(words) <= _GENERIC:
        return " ".join(words)
    for entry in key_symbols(facts, path):
        symbol = entry.symbol
        words = words_of(symbol.name)
        if (
            symbol.kind in TYPE_KINDS
            and not symbol.parent
            and 0 < len(words) <= TERM_WORDS  # "MixedAnnotatedAndDefaultStyleError" names no subsystem
            and not set(words) <= _GENERIC
        ):
            return " ".join(words)
    return ""  # a package's entry module re-exports what the others do: it names nothing itself


def words_of(identifier: str) -> list[str]:
    """`_HTTPClient` → ["http", "client"], `shell_completion` → ["shell", "completion"]; version numbers
    and single letters ("V2", "go1_16") say nothing and are dropped."""
    return [w.lower() for w in _WORD.findall(identifier) if len(w) > 1 and not w.isdigit()]


def name_words(file_name: str) -> list[str]:
    """The words of a module's name without the platform and version suffixes that select a build
    (`command_win.go`, `viper_go1_16.go`, `watch_wasm.go`): they say where it runs, not what it does."""
    words = words_of(file_name)
    while len(words) > 1 and _PLATFORM.fullmatch(words[-1]):
        words.pop()
    return words


def _join_terms(terms: Sequence[str]) -> str:
    if not terms:
        return ""
    text = terms[0] if len(terms) == 1 else ", ".join(terms[:-1]) + " and " + terms[-1]
    return text[0].upper() + text[1:]


def part_namer(facts: Facts) -> Callable[[str, Sequence[str]], str]:
    """Names the parts of a shard split for size after their own modules: "Core: client and models"."""

    def name(shard: str, files: Sequence[str]) -> str:
        terms = _distinct_terms(module_term(path, facts) for path in by_symbol_weight(files, facts))
        return f"{shard}: {(_join_terms(terms[:2]) if terms else _package_name(files)).lower()}"

    return name


def _package_name(files: Sequence[str]) -> str:
    """The package a group of entry modules belongs to, when none of its modules names anything."""
    for path in files:
        words = words_of(PurePosixPath(path).parent.name)
        if words:
            return _join_terms([" ".join(words)]) + " package"
    return "Top-level modules"
