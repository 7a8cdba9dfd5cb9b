"""Subsystems by concept, from the package structure and the dependency graph: the offline architect.

A sub-package (`middleware/`, `binding/`, `render/`) is one concept and stays together unless it holds most
of the code itself, when its own modules and sub-packages are divided instead. The modules of a flat package
are divided by Louvain community detection (igraph's multilevel method, in C) on their imports, a shared
package being a weak tie. The most important 3–5 concepts become shards of their 5 weightiest files, each
named after what it is (naming.py). Tests, docs, examples, CI, packaging and release scripts are context,
never a shard, while any core module is left. A maintainer's pinned subsystems come first, as given.
"""

from __future__ import annotations

import functools
import json
import posixpath
import random
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace

import igraph

from generator.repo.facts.apart import serving_tests
from generator.repo.facts.calltree import RUNTIME_CALLBACKS
from generator.repo.facts.extract import package_json_entries
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import read_or_none
from generator.repo.model import (
    MAX_FILES_PER_SHARD,
    MAX_PLANNED_FILES,
    MAX_SHARDS,
    MIN_SHARDS,
    Facts,
    FileFacts,
    RepoMap,
    Shard,
)
from generator.repo.plan.naming import is_private, name_words, says_where_not_what, subsystem_names

# a declaration file (.pyi stub, .d.ts typings) restates a module rather than being one
DECLARATIONS = re.compile(r"\.d\.[cm]?ts$|\.pyi$")
PROSE_LANGUAGES = frozenset(
    {"markdown", "rst", "text", "other", "json", "yaml", "toml", "ini", "csv", "xml", "html", "css"}
)
SCRIPT_LANGUAGES = frozenset({"shell", "powershell", "make", "dockerfile"})
MANIFEST_BYTES = 100_000  # of a manifest (pyproject.toml, package.json …) read for what it names
SMALL_GROUP = 2  # seed: normalize merges consecutive shards of at most 2 files
IMPORT_WEIGHT = 1.0
PACKAGE_WEIGHT = 0.4
# Louvain resolutions tried in turn, from coarse to fine: the first giving 3–5 communities of two or more
# modules wins (a lower resolution merges communities, a higher one splits them)
RESOLUTIONS = (1.0, 0.7, 0.5, 0.3, 0.15, 1.5, 2.0, 4.0, 8.0)
SEED = 0
# igraph draws the order it visits nodes in from one process-wide generator: each detection sets a freshly
# seeded one, under a lock (a batch researches several repositories at once), so runs repeat
_SEEDED = threading.Lock()


def is_context(path: str) -> bool:
    """Tests, docs, examples, CI, packaging and release scripts (context for the code, not the code), and
    declaration files."""
    return is_context_file(path) or bool(DECLARATIONS.search(path))


def core_modules(repo_map: RepoMap, allowed: Iterable[str] | None = None) -> list[str]:
    """Source files of the main packages (code, not context), or whatever exists when there is none. Shell
    scripts beside code in a programming language are tooling (pluggy's downstream/recipes/conda.bash, a
    completion script), unless they are most of the code."""
    wanted = set(allowed) if allowed is not None else None
    code = [
        f
        for f in repo_map.files
        if f.language not in PROSE_LANGUAGES and (wanted is None or f.path in wanted)
    ]
    loose = _loose_python(repo_map) | _maintainer_programs(repo_map) | npm_run_scripts(repo_map)
    core = [f for f in code if not is_context(f.path) and f.path not in loose] or code
    programs = [f for f in core if f.language not in SCRIPT_LANGUAGES]
    return [f.path for f in (programs if 2 * len(programs) >= len(core) else core)]


PYTHON_MANIFESTS = ("pyproject.toml", "setup.py", "setup.cfg")
_BACKEND_PATH = re.compile(r"^\s*backend-path\s*=\s*\[([^\]]*)\]", re.MULTILINE)
_BUILD_BACKEND = re.compile(r"^\s*build-backend\s*=\s*[\"']([\w.]+)[\"']", re.MULTILINE)


def _loose_python(repo_map: RepoMap) -> frozenset[str]:
    """Python modules outside every package of a project that ships packages, which its manifest does not
    name: the maintainers' scripts, benchmarks and experiments beside the library (pyparsing's
    dest/inv_regex.py demo, whose `invert` was the main flow; yarl's benchmark.py, websockets'
    experiments/ and compliance/, redis-py's doctests/, structlog's show_off.py). A module the manifest
    names (peewee's `py_modules=['peewee', 'pwiz']`) is the library's own. The in-tree build backend its
    pyproject.toml names (`backend-path = ["packaging"]`: pyyaml's and yarl's) builds the library: it is none
    of it, packaged or not."""
    manifest = _manifest_text(repo_map)
    building = _build_backend(repo_map, manifest)
    packages = {
        posixpath.dirname(f.path) for f in repo_map.files if posixpath.basename(f.path) == "__init__.py"
    }
    if not packages or "" in packages or not manifest:  # a repository that is itself the package holds
        return building  # nothing loose

    def packaged(path: str) -> bool:
        folder = posixpath.dirname(path)
        return any(folder == p or folder.startswith(f"{p}/") for p in packages)

    def named(path: str) -> bool:
        first = path.split("/", 1)[0].removesuffix(".py")
        stem = posixpath.basename(path).removesuffix(".py")
        return any(re.search(rf"\b{re.escape(word)}\b", manifest) for word in {first, stem})

    return building | frozenset(
        f.path
        for f in repo_map.files
        if f.language == "python" and f.path.endswith(".py") and not packaged(f.path) and not named(f.path)
    )


# a folder its maintainers name for testing or for their own work: a test program (badger's integration/testgc,
# goleveldb's manualtest/dbstress, ristretto's contrib/memtest, pgx's testsetup) or a maintenance one
# (watermill's dev/, Kubernetes' hack/ convention)
_FOR_MAINTAINERS = re.compile(r"test\w*|\w*test[a-z]?|dev|hack", re.IGNORECASE)
# a file that is a program: Go's `package main`, a C, C++ or Rust `main`
_PROGRAM = {
    "go": re.compile(r"^package\s+main\b", re.MULTILINE),
    "c": re.compile(r"^\w[\w\s*]*\bmain\s*\(", re.MULTILINE),
    "cpp": re.compile(r"^\w[\w\s*]*\bmain\s*\(", re.MULTILINE),
    "rust": re.compile(r"^\s*fn\s+main\s*\(", re.MULTILINE),
}
PROGRAM_BYTES = 64_000  # of a file read for whether it is a program


def _maintainer_programs(repo_map: RepoMap) -> frozenset[str]:
    """The code of programs kept in a folder named for testing or for the maintainers' own work (a folder
    `*test`, `test*`, `dev` or `hack` on its path, outside `cmd/`, holding a Go `package main` or a C, C++ or
    Rust `main`): a memory test beside a cache, a stress test beside a database, a script consolidating
    go.mod files. They use the library rather than being it, so they are no subsystem, no entry point and no
    configuration; watermill's dev/ had been a subsystem ("Dev"), ristretto's contrib/memtest another.
    A library package named so (`httptest`, a helper for the users' tests) is no program and stays."""
    folders: dict[str, list[str]] = defaultdict(list)
    for entry in repo_map.files:
        folder = posixpath.dirname(entry.path)
        parts = folder.split("/") if folder else []
        if entry.language in _PROGRAM and "cmd" not in parts:
            marked = next((i for i, part in enumerate(parts) if _FOR_MAINTAINERS.fullmatch(part)), None)
            if marked is not None:
                folders["/".join(parts[: marked + 1])].append(entry.path)
    languages = {entry.path: entry.language for entry in repo_map.files}
    found: set[str] = set()
    for paths in folders.values():
        if any(
            _PROGRAM[languages[path]].search(read_or_none(repo_map.root, path, max_bytes=PROGRAM_BYTES) or "")
            for path in paths
        ):
            found.update(paths)
    return frozenset(found)


# a runner package.json's `scripts` start a maintainer's program with (`babel-node tasks/buildAll.js`, `node
# ./commandTransform.js ./rawScripts`, `node --import=tsx/esm bench.ts`), and the file it runs
_NPM_RUN = re.compile(
    r"(?:^|[\s;&|(])(?:node|babel-node|ts-node|tsx|zx|bun(?:\s+run)?|deno\s+run)((?:\s+-\S+)*)\s+"
    r"(?:\./)?([\w@+-][\w@+./-]*\.[cm]?[jt]sx?)(?=$|[\s;&|)])"
)
# … under a script named for the maintainers' work: building, generating, benchmarking, releasing (never
# `start`, `dev` or `serve`, which run the program itself)
_MAINTAINING = re.compile(
    r"^(?:pre|post)?(?:build|bundle|compile|dist|gen(?:erate)?|codegen|transform|bench(?:mark)?s?|release"
    r"|version|pack|publish|prepare|docs?|changelog|clean|size)(?:$|[:_-])",
    re.IGNORECASE,
)


def npm_run_scripts(repo_map: RepoMap) -> frozenset[str]:
    """The programs the top package.json's building, generating or benchmarking `scripts` run with node (or
    babel-node, ts-node, tsx, zx, bun, deno) that the package does not ship as its face or its commands:
    luxon's tasks/buildAll.js (`"build": "babel-node tasks/buildAll.js"`), bull's generateRawScripts.js,
    p-queue's bench.ts. bull's "Generate raw scripts" and luxon's "Tasks" had been subsystems."""
    try:
        data = json.loads(read_or_none(repo_map.root, "package.json", max_bytes=MANIFEST_BYTES) or "{}")
    except ValueError:
        return frozenset()
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return frozenset()
    paths = {entry.path for entry in repo_map.files}
    shipped = {posixpath.normpath(p) for named in package_json_entries(data) for p in named}
    run = {
        posixpath.normpath(found.group(2))
        for name, command in scripts.items()
        if isinstance(command, str) and _MAINTAINING.match(name)
        for found in _NPM_RUN.finditer(command)
        if "--test" not in found.group(1)  # `node --test test/*.ts` runs the test suite
    }
    return frozenset(path for path in run if path in paths and path not in shipped)


def _importers(facts: Facts) -> defaultdict[str, set[str]]:
    """Each module → the modules importing it."""
    importers: defaultdict[str, set[str]] = defaultdict(set)
    for importer, imports in facts.files.items():
        for target in imports.depends_on:
            importers[target].add(importer)
    return importers


def only_theirs(programs: Collection[str], pool: Sequence[str], facts: Facts) -> set[str]:
    """The modules of `pool` only `programs` import, and those only they and these import (luxon's
    tasks/build.js, which its build scripts import): the maintainers' programs' own helpers."""
    importers = _importers(facts)
    theirs = set(programs)
    grew = True
    while grew:
        grew = False
        for path in pool:
            if path not in theirs and importers[path] and importers[path] <= theirs:
                theirs.add(path)
                grew = True
    return theirs - set(programs)


def _build_backend(repo_map: RepoMap, manifest: str) -> frozenset[str]:
    """The files of the in-tree build backend pyproject.toml names: the top module or package of its
    `build-backend` in a `backend-path` folder beside the code (pyyaml's packaging/_pyyaml_pep517.py, yarl's
    packaging/pep517_backend/); never one in the repository's top folder, where the library itself may
    build itself."""
    named = _BUILD_BACKEND.search(manifest)
    top = named.group(1).split(".", 1)[0] if named else ""
    folders = {
        name.strip("/")
        for listed in _BACKEND_PATH.findall(manifest)
        for name in re.findall(r"[\"']([^\"'\n]+)[\"']", listed)
    } - {"", "."}
    if not top or not folders:
        return frozenset()
    return frozenset(
        f.path
        for f in repo_map.files
        for folder in folders
        if f.path == f"{folder}/{top}.py" or f.path.startswith(f"{folder}/{top}/")
    )


def _manifest_text(repo_map: RepoMap) -> str:
    present = {f.path for f in repo_map.files}
    return "\n".join(
        read_or_none(repo_map.root, name, max_bytes=MANIFEST_BYTES) or ""
        for name in PYTHON_MANIFESTS
        if name in present
    )


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
        (path, target, weight)
        for path in pool
        if path in facts.files
        for target, weight in import_ties(facts.files[path])
        if target in inside and target != path
    ]
    ties += package_calls(facts, inside)
    for files in _by_directory(rank_files(pool, facts, repo_map)).values():
        ties += [(files[0], other, PACKAGE_WEIGHT) for other in files[1:]]
    return _weighted_graph(pool, ties)


def module_ties(pool: Sequence[str], facts: Facts) -> list[tuple[str, str]]:
    """(module, module it depends on) within the pool: its imports, a Go package's ties (package_calls),
    and in Java, whose classes of one package use each other without importing, the files of its package
    it calls into."""
    inside = set(pool)
    ties = [
        (path, target)
        for path in pool
        if path in facts.files
        for target in facts.files[path].depends_on
        if target in inside and target != path
    ]
    ties += [(a, b) for a, b, _ in package_calls(facts, inside)]
    joined = set(ties)
    java = [p for p in pool if p in facts.files and facts.files[p].language == "java"]
    for edge in facts.calls.edges(java) if java and facts.calls is not None else []:
        pair = (edge.caller_path, edge.callee_path)
        same_package = pair[0] != pair[1] and posixpath.dirname(pair[0]) == posixpath.dirname(pair[1])
        if edge.callee_path in inside and same_package and pair not in joined:
            joined.add(pair)
            ties.append(pair)
    return ties


def import_ties(fact: FileFacts) -> list[tuple[str, float]]:
    """Each module a file imports with the weight of its tie: one import, one tie. A Go import names a
    package, so its tie is shared among the package's files: importing echo's 19 files ties
    `middleware/cors.go` no harder to them than one Python import ties two modules."""
    if fact.language != "go":
        return [(target, IMPORT_WEIGHT) for target in fact.depends_on]
    per_folder = Counter(posixpath.dirname(target) for target in fact.depends_on)
    return [(t, IMPORT_WEIGHT / per_folder[posixpath.dirname(t)]) for t in fact.depends_on]


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


def communities(
    graph: igraph.Graph,
    facts: Facts,
    repo_map: RepoMap,
    members: dict[str, list[str]] | None = None,
    already: int = 0,
) -> list[list[str]]:
    """Louvain communities (seeded, so runs repeat), each ranked inside, most important community first.
    Resolutions are tried until, with the `already` found concepts, 3–5 communities have more than two
    modules and none has fewer; else the closest count wins, then the fewest small communities. `members`: the modules of each node, when nodes are units."""
    best: list[list[str]] = []
    key = _rank_key(facts, repo_map)
    for resolution in RESOLUTIONS:
        parts = louvain(graph, resolution)
        found = [
            sorted((f for node in part for f in (members[node] if members else [node])), key=key)
            for part in parts
            if part
        ]
        if _fit(found, already) < _fit(best, already) or not best:
            best = found
        if _fit(found, already) == (0, 0):
            break
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


def _fit(groups: Sequence[Sequence[str]], already: int = 0) -> tuple[int, int]:
    """How far the number of substantial communities (plus `already` found) is from the seed's 3–5, then
    how many small ones there are. Substantial: more than SMALL_GROUP modules (normalize merges smaller
    shards)."""
    count = sum(1 for g in groups if len(g) > SMALL_GROUP)
    total = count + already
    return max(MIN_SHARDS - total, total - MAX_SHARDS, 0), len(groups) - count


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


# --------------------------------------------------------------------------- concepts


# a sub-package holding more than this share of the modules (and more than one shard's worth) is divided
LARGE_SHARE = 0.5
# a large sub-package beside its parent's own modules stays whole unless it holds more than this share
WHOLE_SHARE = 0.8
# folders that only hold packages: never one concept of their own
CONTAINERS = frozenset("src lib pkg internal packages source sources crates".split())
# a large sub-package fewer of whose modules than this share depend on another of its modules is a collection
COLLECTION_SHARE = 0.5
# a community holding more than this share of the code is divided however many concepts there are
MOST_CODE = 0.5
LARGE_COMMUNITY = (
    2 * MAX_FILES_PER_SHARD
)  # a community of more modules than this is divided when room is left


@dataclass(frozen=True)
class Concept:
    """A candidate subsystem: a sub-package kept whole (`folder` set) or a community of modules."""

    files: tuple[str, ...]  # most important first
    folder: str = ""


def package_units(pool: Sequence[str], ties: Iterable[tuple[str, str]] | None = None) -> dict[str, list[str]]:
    """The pool as units that are never torn apart, keyed by name: each sub-package that is not itself
    large (its folder, ending in "/"), and each module of a large or flat package (its path). Given the
    modules' `ties` (module_ties), a large sub-package most of whose modules depend on none of the others
    is a collection (chi's `middleware/`, one middleware a file) and stays one: its import communities
    would be arbitrary slices of it, each named after a file."""
    units: dict[str, list[str]] = {}
    linked: dict[str, set[str]] = defaultdict(set)
    for a, b in ties or ():
        linked[a].add(b)
        linked[b].add(a)

    def collection(members: Sequence[str]) -> bool:
        if ties is None:
            return False
        inside = set(members)
        joined = sum(1 for m in members if linked[m] & inside)
        return joined < COLLECTION_SHARE * len(members)

    def visit(base: str, files: Sequence[str]) -> None:
        children: dict[str, list[str]] = defaultdict(list)
        for path in files:
            head, sep, _ = path[len(base) :].partition("/")
            if sep:
                children[f"{base}{head}/"].append(path)
            else:
                units[path] = [path]
        beside_code = any(path in units for path in files)  # `base` holds modules of its own
        for folder, members in children.items():
            large = len(members) > max(LARGE_SHARE * len(pool), MAX_FILES_PER_SHARD)
            divided = large and not collection(members) and not sub_package(folder, members, beside_code)
            if divided or container(folder, members):
                visit(folder, members)
            elif len(members) == 1:
                units[members[0]] = members
            else:
                units[folder] = members

    def container(folder: str, members: Sequence[str]) -> bool:
        # a folder that only holds packages (fx's and zap's internal/: a clock, a stack walker, a logger
        # fake) is no concept of its own, however small: its packages are units, each joined to its user
        name = folder.rstrip("/").rpartition("/")[2]
        parts = {m[len(folder) :].partition("/")[0] for m in members}
        return name in CONTAINERS and len(parts) > 1

    def sub_package(folder: str, members: Sequence[str], beside_code: bool) -> bool:
        # a package beside its parent's own modules is one of the parent's concepts (echo's middleware/
        # beside the router, databases' backends/ beside the core), however many modules it has; a
        # container (`src/`, `internal/`) or one holding nearly all the code is divided
        name = folder.rstrip("/").rpartition("/")[2]
        return beside_code and name not in CONTAINERS and len(members) <= WHOLE_SHARE * len(pool)

    visit("", pool)
    return units


def unit_graph(units: dict[str, list[str]], facts: Facts, repo_map: RepoMap) -> igraph.Graph:
    """Units joined by the imports between their modules (weight 1 each) and, more weakly, the modules of
    one flat package to its most important module."""
    home = {path: unit for unit, files in units.items() for path in files}
    ties = [
        (home[path], home[target], weight)
        for path in home
        if path in facts.files
        for target, weight in import_ties(facts.files[path])
        if target in home and home[target] != home[path]
    ]
    ties += [(home[a], home[b], weight) for a, b, weight in package_calls(facts, home) if home[a] != home[b]]
    loose = [unit for unit, files in units.items() if len(files) == 1]
    for files in _by_directory(rank_files(loose, facts, repo_map)).values():
        ties += [(files[0], other, PACKAGE_WEIGHT) for other in files[1:]]
    return _weighted_graph(units, ties)


def package_calls(facts: Facts, inside: Iterable[str]) -> list[tuple[str, str, float]]:
    """The ties of one Go package's files, which never import each other: a file calling another file's
    functions is tied to it, IMPORT_WEIGHT for each function it calls there, up to three (echo's router.go
    calling route.go), and a file is tied to the one its name extends (`tty_unix.go` to `tty.go`,
    `router_concurrent.go` to `router.go`): a variant of it, for a platform or a case."""
    members = {path for path in inside if path in facts.files and facts.files[path].language == "go"}
    called: dict[tuple[str, str], set[str]] = defaultdict(set)
    for edge in facts.calls.edges(sorted(members)) if facts.calls is not None else []:
        a, b = edge.caller_path, edge.callee_path
        if a != b and b in members and posixpath.dirname(a) == posixpath.dirname(b):
            called[(a, b)].add(edge.callee)
    ties = [(a, b, IMPORT_WEIGHT * min(len(names), 3)) for (a, b), names in called.items()]
    stems = {path.removesuffix(".go"): path for path in members}
    for stem, path in stems.items():
        base = stem.rpartition("_")[0]
        while base and base not in stems:
            base = base.rpartition("_")[0]
        if base:
            ties.append((path, stems[base], IMPORT_WEIGHT * 3))
    return ties


def with_private_helpers(
    units: dict[str, list[str]], ties: Iterable[tuple[str, str]]
) -> dict[str, list[str]]:
    """The units with each small private helper package (one or two modules under an `internal/` folder: fx's
    internal/lifecycle, nats.go's internal/syncx) that one other unit alone uses joined to that unit: it is
    a detail of the code importing it. Left a unit of its own, it was clustered with the other private
    helpers (a group of unrelated internals named after one of them) or left a group of one. A helper many
    units share, or none uses (a tool's main package), stays as it is."""
    home = {path: unit for unit, files in units.items() for path in files}
    users: dict[str, Counter[str]] = defaultdict(Counter)
    for user, used in ties:
        if user in home and used in home and home[user] != home[used]:
            users[home[used]][home[user]] += 1
    helpers = [u for u, files in units.items() if len(files) <= SMALL_GROUP and is_private(u)]
    joined = {u: list(files) for u, files in units.items()}
    for helper in helpers:
        named = [u for u in users[helper] if u not in helpers]
        if len(named) == 1 and len(users[helper]) == 1:
            joined[named[0]] += joined.pop(helper)
    return joined


def with_namesake_modules(units: dict[str, list[str]]) -> dict[str, list[str]]:
    """The units with each module named like a sub-package beside it joined to that package: dramatiq's
    broker.py (the Broker base class) with brokers/, hono's router.ts with router/, viper's remote.go with
    remote/. The module declares what the package's modules implement; apart, it was clustered by its
    imports with whatever else the flat package holds."""
    folders = {unit.rstrip("/"): unit for unit in units if unit.endswith("/")}
    joined = {u: list(files) for u, files in units.items()}
    for unit, files in units.items():
        if unit.endswith("/") or len(files) != 1:
            continue
        parent, _, name = unit.rpartition("/")
        stem = name.split(".")[0].lstrip("_")
        for folder in (f"{stem}s", stem, f"_{stem}s", f"_{stem}"):
            key = folders.get(f"{parent}/{folder}" if parent else folder)
            if key is not None:
                joined[key] += joined.pop(unit)
                break
    return joined


def concepts(pool: Sequence[str], facts: Facts, repo_map: RepoMap) -> list[Concept]:
    """The pool's concepts, most important first: sub-packages kept whole, and the communities the other
    modules form; too few (fewer than 3 for 6 modules or more) and the largest community is divided."""
    ties = module_ties(pool, facts)
    units = with_namesake_modules(with_private_helpers(package_units(pool, ties), ties))
    kept = {u: files for u, files in units.items() if u.endswith("/") and len(files) > SMALL_GROUP}
    rest = {u: files for u, files in units.items() if u not in kept}
    key = _rank_key(facts, repo_map)
    found = [Concept(tuple(sorted(files, key=key)), folder.rstrip("/")) for folder, files in kept.items()]
    if rest:
        graph = unit_graph(rest, facts, repo_map)
        for files in communities(graph, facts, repo_map, rest, len(found)):
            # a community that is one small sub-package is still that package
            folders = {u for u, members in rest.items() if set(members) & set(files)}
            only = next(iter(folders)) if len(folders) == 1 else ""
            found.append(Concept(tuple(files), only.rstrip("/") if only.endswith("/") else ""))
    lines = {entry.path: entry.lines for entry in repo_map.files}
    code = sum(lines.get(path, 0) for path in pool)
    while (
        part := _to_divide(found, len(pool), lambda c: sum(lines.get(p, 0) for p in c.files) / max(code, 1))
    ) is not None:
        parts = divide(part, facts, repo_map)
        if len(parts) < 2:
            break
        found.remove(part)
        found += parts
    weight = _group_weight(facts, repo_map)
    found = [public_first(c) for c in absorb_small(found, facts, repo_map)]
    return sorted(found, key=lambda c: (of_helpers(c), -weight(c.files), c.files[0]))


def of_helpers(concept: Concept) -> bool:
    """A concept of helpers: a package named for where code lives or what shim it is (`util/`, `helpers/`,
    `errors/`, `common/`), or modules so named alone. Every other module imports it, so it weighs most, but it
    is no part of the architecture a reader meets: it comes after the concepts that say what they are, and is
    planned only when room is left (goleveldb's `util/` had ranked first and left the DB itself in no
    subsystem; hono's `utils/` and `helper/` had taken the places of its router and middleware)."""
    paths = [concept.folder] if concept.folder else list(concept.files)
    return all(name_words(posixpath.basename(p).split(".")[0]) and says_where_not_what(p) for p in paths)


def public_first(concept: Concept) -> Concept:
    """The concept with its private helpers (`internal/` modules) and its shims (errors, utils, compat: a
    module named for where code lives) after its other modules, in their order: a helper many modules import
    ranks high, but the module a reader meets (fx's app.go beside internal/fxclock; goleveldb's db.go beside
    errors.go, which had taken its place among the five modules analysed) is what the group is about, and what
    names and describes it."""
    files = sorted(concept.files, key=lambda path: (is_private(path), says_where_not_what(path)))
    return replace(concept, files=tuple(files)) if files != list(concept.files) else concept


def absorb_small(found: list[Concept], facts: Facts, repo_map: RepoMap) -> list[Concept]:
    """While there are more than 3 concepts, the lightest community of one or two modules joins the
    community its modules import from or are imported by most (while that stays one shard's worth; a Go
    package's files tie by their calls): its modules are analysed with their neighbours rather than left out
    or merged by name with a stranger (bigcache's bytes.go had been a subsystem of one function, "Bytes:
    Defines bytesToString", its calls from bigcache.go no tie)."""
    weight = _group_weight(facts, repo_map)
    key = _rank_key(facts, repo_map)
    found = list(found)
    while len(found) > MIN_SHARDS:
        small = sorted(
            (c for c in found if not c.folder and len(c.files) <= SMALL_GROUP), key=lambda c: weight(c.files)
        )
        merged = False
        for concept in small:
            room = [
                c
                for c in found
                if c is not concept
                and not c.folder
                and len(c.files) + len(concept.files) <= MAX_FILES_PER_SHARD
            ]
            target = _closest(concept, room, facts)
            if target is not None:
                found.remove(concept)
                found[found.index(target)] = Concept(tuple(sorted(target.files + concept.files, key=key)))
                merged = True
                break
        if not merged:
            break
    return found


def _closest(concept: Concept, others: Sequence[Concept], facts: Facts) -> Concept | None:
    """The concept with the most ties to or from `concept`'s modules (`module_ties`: imports, and a Go
    package's calls between its files, which import nothing of each other); None when none has any."""
    mine = set(concept.files)
    ties = []
    for other in others:
        theirs = set(other.files)
        count = sum(
            1
            for a, b in module_ties([*concept.files, *other.files], facts)
            if (a in mine and b in theirs) or (a in theirs and b in mine)
        )
        ties.append((count, other))
    best = max(ties, key=lambda t: t[0], default=(0, None))
    return best[1] if best[0] else None


def _to_divide(found: Sequence[Concept], modules: int, share: Callable[[Concept], float]) -> Concept | None:
    """The concept to divide next: the largest community while there are fewer than 3 concepts (with 6
    modules or more), or one too large for one shard to stand for while there are fewer than 5, or while it
    holds most of the code (`share`: of the pool's lines) — fasthttp's package, server, client, messages and
    file server in one community of 44 modules, had been one subsystem beside four small helper packages; a
    sub-package only when nothing else is left to divide."""
    largest = sorted(found, key=lambda c: (bool(c.folder), -len(c.files)))
    if len(found) < MIN_SHARDS and modules >= 2 * MIN_SHARDS:
        return next((c for c in largest if len(c.files) > SMALL_GROUP), None)
    large = [c for c in largest if not c.folder and len(c.files) > LARGE_COMMUNITY]
    if len(found) < MAX_SHARDS:
        return next(iter(large), None)
    return next((c for c in large if share(c) > MOST_CODE), None)


def divide(concept: Concept, facts: Facts, repo_map: RepoMap) -> list[Concept]:
    """A concept split in two or more: its modules' communities at a finer resolution, else its halves in
    path order (neighbouring modules stay together)."""
    graph = dependency_graph(concept.files, facts, repo_map)
    key = _rank_key(facts, repo_map)
    for resolution in (2.0, 4.0, 8.0):
        parts = [p for p in louvain(graph, resolution) if p]
        if 2 <= len(parts) <= MIN_SHARDS:
            return [Concept(tuple(sorted(p, key=key))) for p in parts]
    ordered = sorted(concept.files)
    half = len(ordered) // 2
    return [Concept(tuple(sorted(p, key=key))) for p in (ordered[:half], ordered[half:]) if p]


def plan_subsystems(
    repo_map: RepoMap, facts: Facts, allowed: Sequence[str], pinned: Sequence[Shard] = (), project: str = ""
) -> list[Shard]:
    """The maintainer's `pinned` shards, then 3–5 in all of at most 5 files (25 in all), most important
    first, each a concept named after what it is; one holding all of the code is `project` (the repository's
    name, as its pages are titled; its checkout's folder's when not given)."""
    taken = {path for shard in pinned for path in shard.files}
    modules = core_modules(repo_map, allowed)
    scripts = standalone_scripts(modules, facts, repo_map) | test_support(modules, facts)
    scripts |= only_theirs(npm_run_scripts(repo_map), modules, facts)
    pool = [p for p in modules if p not in taken and p not in scripts]
    room = min(MAX_SHARDS, MAX_PLANNED_FILES // MAX_FILES_PER_SHARD) - len(pinned)
    if not pool or room <= 0:
        return list(pinned)
    found = concepts(pool, facts, repo_map)
    # a part defining nothing of its own and running nothing (sqlmodel's pool/__init__.py, re-exporting
    # SQLAlchemy's) says nothing; a launcher script (`if __name__ == "__main__": serve()`) runs the program
    defining = [
        c
        for c in found
        if any(
            f in facts.files and (facts.files[f].symbols or facts.files[f].is_entry_point) for f in c.files
        )
    ]
    chosen = with_door(defining or found, facts, pool, room)
    groups = [with_own_door(c.files, facts) for c in chosen]
    names = subsystem_names(groups, facts, [c.folder for c in chosen], taken=[s.name for s in pinned])
    if not pinned and len(chosen) == 1 and set(chosen[0].files) >= set(pool):
        names = [whole_project_name(project or repo_map.root.name, names[0])]
    return [
        *pinned,
        *(
            Shard(name, files, _rationale(concept, files))
            for name, concept, files in zip(names, chosen, groups, strict=True)
        ),
    ]


def whole_project_name(project: str, named: str) -> str:
    """The name of the one subsystem holding all of the project's code: the project's own (`p-retry`,
    `retry-go`), as the index is titled, where naming it after a module or a type had made one part of it
    the whole (p-retry's index.js as "Abort error", after the error class beside `pRetry`; retry-go's two
    files as "Options"); `named` when it already is the project's name in other letters ("Bree" for bree),
    or when the name is no name (a hash, a dot)."""
    if not re.search(r"[A-Za-z]", project) or re.fullmatch(r"[0-9a-f]{12,}", project):
        return named
    if re.sub(r"[^a-z0-9]", "", named.lower()) == re.sub(r"[^a-z0-9]", "", project.lower()):
        return named
    return project


def with_door(ranked: Sequence[Concept], facts: Facts, pool: Sequence[str], room: int) -> list[Concept]:
    """The first `room` concepts, the one holding where the flows start (the door a typical call enters by,
    flows.entry_points) always among them: in place of the lightest when it is not. The door's module uses the
    others and nothing imports it, so it weighs little; left out, the subsystems were the parts it drives and
    never the part that drives them (goleveldb's DB, apscheduler's scheduler)."""
    chosen = list(ranked[:room])
    doors = facts.calls.entries(pool, limit=1) if facts.calls is not None and chosen else []
    door = next((c for c in ranked if doors and doors[0][0] in c.files), None)
    if door is None or door in chosen:
        return chosen
    return [*chosen[: room - 1], door]


def with_own_door(files: Sequence[str], facts: Facts) -> tuple[str, ...]:
    """A concept's shard: its MAX_FILES_PER_SHARD weightiest files, with the module holding its door in place
    of the lightest when it is not among them: the runtime callback (calltree.RUNTIME_CALLBACKS, a Go
    `ServeHTTP`) where its flows start, through which the standard library hands it every request. Nothing
    imports that module, so it weighs little: grpc-gateway's runtime/mux.go, where `ServeMux.ServeHTTP`
    routes each REST call to gRPC, had been left out of its 20-module package's five for the helpers the
    generated code imports, and its flow had started in `AnnotateContext`."""
    kept = tuple(files[:MAX_FILES_PER_SHARD])
    if len(files) <= MAX_FILES_PER_SHARD or facts.calls is None:
        return kept
    doors = facts.calls.entries(files, limit=1)
    door = doors[0] if doors else ("", "")
    if door[0] in kept or door[0] not in files or door[1].rpartition(".")[2] not in RUNTIME_CALLBACKS:
        return kept
    return (*kept[:-1], door[0])


def test_support(pool: Sequence[str], facts: Facts) -> set[str]:
    """The Go modules of `pool` in an `internal/` package only the tests reach (facts/apart.py): no user can
    import an internal package, so one the code never imports serves the tests alone (pond's internal/assert,
    its `Equal` and `PanicsWith`, had been a subsystem "Assert" beside the pool)."""
    serving = serving_tests(facts)
    return {path for path in pool if path in serving}


def standalone_scripts(pool: Sequence[str], facts: Facts, repo_map: RepoMap) -> set[str]:
    """Python scripts beside the code rather than part of it: a module run as a script (a `__main__`
    guard) in a folder that is no package, which imports none of the repository's modules and no module
    imports, in a repository whose code lives in packages (pluggy's downstream/run_downstream.py, which
    runs other projects' test suites). A script that uses the packages (`cli/main.py` serving the app) is
    a front end to them, and a module at the top of the repository may be the tool itself: both stay."""
    paths = {entry.path for entry in repo_map.files}
    if not any(posixpath.basename(path) == "__init__.py" for path in paths):
        return set()
    imported = {target for fact in facts.files.values() for target in fact.depends_on}
    return {
        path
        for path in pool
        if "/" in path
        and (fact := facts.files.get(path)) is not None
        and fact.language == "python"
        and fact.is_entry_point
        and not fact.depends_on
        and path not in imported
        and posixpath.join(posixpath.dirname(path), "__init__.py") not in paths
    }


def _rationale(concept: Concept, files: Sequence[str]) -> str:
    held = (
        f"the `{concept.folder}` package"
        if concept.folder
        else "modules held together by their imports"
        if len(concept.files) > 1
        else "a module tied to no other group"
    )
    if len(concept.files) == len(files):
        return f"{len(files)} module{'s' if len(files) > 1 else ''}: {held}."
    return (
        f"The {len(files)} weightiest of {len(concept.files)} modules: {held};"
        " the others are listed in the module catalogue."
    )
