"""Definitions by the names docs use for them (`Session`, `Session.send`, `koanf.Provider`), and the code path
from the symbols a concept names to the code that does its work."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path, PurePosixPath

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite, flow_branches, ranked
from generator.repo.docs.exampledirs import project_name
from generator.repo.docs.reading import DOC_BYTES
from generator.repo.facts.apart import serving_tests
from generator.repo.facts.extract import OnDemandFileFacts
from generator.repo.facts.ranking import TYPE_KINDS
from generator.repo.facts.receivers import Receivers
from generator.repo.map.filetypes import WORD_ENDING_FOLDER
from generator.repo.map.walk import read_or_none
from generator.repo.model import (
    CallGraphView,
    CallTree,
    CitedSymbol,
    Facts,
    FlowBranch,
    KeyType,
    RepoMap,
    Symbol,
)

_SETUP = frozenset({"__init__", "__new__", "__post_init__", "constructor"})  # setting up is not the work
MIN_PATH_CALLS = 3  # a shorter code path shows no working
MAX_STARTS = 60  # a concept's functions and methods weighed as the start of its code path
TYPE_METHODS = 5  # main public methods shown under a class the docs name
# tests, samples and docs define `Person` and `Order` too: never the definition a doc means
NOT_LIBRARY = re.compile(
    WORD_ENDING_FOLDER + r"(?:tests?|specs?|__tests__|examples?|samples?|demos?|benchmarks?|docs?)/"
    # … and a test beside the code it tests: traefik's Docker, Kv, Knative and Ingress guide entries linked
    # `TestDynConfBuilder_build`, `Test_buildConfiguration` from pkg/provider/*/…_test.go
    r"|(?:^|/)(?:test_[^/]*\.py|conftest\.py|[^/]*_test\.\w+|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?)$",
    re.IGNORECASE,
)
_QUALIFIED = re.compile(r"\.|::")  # `koanf.Provider`, `serde_json::Value`, `log::Level`
_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)

# a member read as an attribute, never called: a Python property (`@property`, `@cached_property`, a setter),
# a JavaScript/TypeScript accessor (`get status()`, `static get x()`)
_GETTER = re.compile(
    r"^\s*(?:@(?:\w+\.)*(?:property|cached_property|getter|setter|deleter)\b"
    r"|(?:(?:public|private|protected|static|override)\s+)*[gs]et\s+[\w$#]+\s*\()"
)


def _getters(graph: CallGraphView, path: str, members: Sequence[Symbol]) -> set[str]:
    """The members of a type that are read as attributes, never called (their first line, decorators
    included, says so): no concept's code starts at one — anyio's task page opened its code on
    `TaskHandle.status`, a property whose branches reach the backend, not on how a task is started."""
    lines = graph.lines(path) if members else []
    return {m.name for m in members if 0 < m.start <= len(lines) and _GETTER.match(lines[m.start - 1])}


# a call through a package (or a module, or a variable): `expr.Patch(`, `ast.IntegerNode{`, `time.sleep(`
_PACKAGE_CALL = re.compile(r"(?<![\w.$])([a-z_][a-z0-9_]*)\.([A-Za-z_]\w*)\s*[({]")


def package_calls(code: str) -> list[tuple[str, str]]:
    """Each call in `code` through a lower-case name, as (that name, the name called)."""
    return [(m.group(1), m.group(2)) for m in _PACKAGE_CALL.finditer(code)]


def package_qualifiers(root: Path, repo_map: RepoMap) -> dict[str, str]:
    """The names docs qualify the project's own code with (`koanf.Provider`, `serde_json::Value`,
    `plugin.ClientConfig`, zerolog's `log.Info`), each with the folder it names: its folders' names, and its
    crate's or npm package's, its root Go package's and its own folder's, which name the root ("")."""
    found = {
        part.replace("-", "_"): part for f in repo_map.files for part in PurePosixPath(f.path).parts[:-1]
    }
    go = next((f.path for f in repo_map.files if f.language == "go" and "/" not in f.path), "")
    package = _GO_PACKAGE.search(read_or_none(root, go, max_bytes=DOC_BYTES) or "") if go else None
    for name in (root.name, project_name(root), package.group(1) if package else ""):
        if name:
            found[name.replace("-", "_")] = ""
    return found


# method names every language's library gives (a list's `append`, a map's `items`, a promise's `then`): an
# example calling one is not calling the project's method of that name
_COMMON_METHODS = frozenset(
    "append extend insert remove items keys values update clear copy index count split strip join format "
    "replace lower upper encode decode startswith endswith close flush write read readline open start stop "
    "send recv call apply bind then catch finally push shift slice splice concat filter reduce forEach "
    "toString valueOf getTime sleep sort reverse search match parse "
    # Go's standard interfaces' methods, which every Go type may have (io.Closer, fmt.Stringer, error …)
    "Close String Error Write Flush Unwrap Format".split()
)


def _distinctive_method(name: str) -> bool:
    """Whether a method's own name is long and rare enough that an example calling it means the project's."""
    return len(name) >= 5 and name not in _COMMON_METHODS and not name.startswith("_")


# a Go function's first result after its parameters, the package it comes from aside: `) (*vm.Program, error)`
_GO_RESULT = re.compile(r"\)\s*\(?\s*(?:\*|\[\])*(?:[a-z]\w*\.)?([A-Za-z_]\w*)\s*(?:[,)]|$)")
# a method named through its class (`OmegaConf.create`): the class's own, else the one of the method's name
_THROUGH_CLASS = re.compile(r"[A-Z]\w*\.[A-Za-z_]\w*")


class SymbolNames:
    """Definitions by the names docs use for them: `Session`, `Session.send`, `send`; a name qualified by
    the project's own package (`koanf.Provider`, `serde_json::Value`) is the name it qualifies."""

    def __init__(
        self,
        facts: Facts,
        linker: Linker,
        qualifiers: Mapping[str, str] | None = None,
        root: Path | None = None,
    ) -> None:
        self.linker = linker
        self.root = root  # where a Go function's declaration is read for its result type (`_result_type`)
        self.facts = facts
        self.qualifiers = qualifiers or {}
        self.by_name: dict[str, list[tuple[str, Symbol]]] = {}
        self.by_method: dict[str, list[tuple[str, Symbol]]] = {}  # a method's own name → its methods
        # code only the tests use (expr's internal/spew): `fmt.Print` in an example is never spew's `Print`
        self.serving = serving_tests(facts)
        for path, file_facts in facts.files.items():
            # a file read on demand (a test the shards do not show) stays unread: docs never name its code
            if isinstance(file_facts, OnDemandFileFacts) or NOT_LIBRARY.search(path) or path in self.serving:
                continue
            for symbol in file_facts.symbols:
                if symbol.public and not symbol.stub:
                    self.by_name.setdefault(symbol.name, []).append((path, symbol))
                    if symbol.parent:
                        self.by_method.setdefault(symbol.short_name, []).append((path, symbol))

    def resolve(self, names: Iterable[str], methods: bool = False, dotted: bool = False) -> list[CitedSymbol]:
        """Each name's one definition (a name several files define equally is left out: ambiguous). With
        `methods`, a name nothing else goes by is the one method of that name (an example's
        `now.in_timezone('UTC')`: `DateTime.in_timezone`), when it is distinctive enough to be it. `dotted`:
        the names come from full dotted paths (an autodoc marker names the module), never bare words."""
        found = []
        for name in names:
            if "()." in name:  # a method of what a function returns (`_held_method`): that type's
                made, _, name = name.rpartition("().")
                # a name every Go type may have (`String`, `Close`) is the type's own no more than by name
                typed = self._method_of(made, name) if name not in _COMMON_METHODS else None
                if typed is not None:
                    found.append(cite(typed[1], typed[0], self.linker))
                    # … and the type it gives back (`node := program.Node()`: an ast.Node)
                    given = self.by_name.get(self._result_type(*typed), [])
                    if len(given) == 1 and given[0][1].kind in TYPE_KINDS:
                        found.append(cite(given[0][1], given[0][0], self.linker))
                    continue
                name = f".{name}"
            if name.startswith("."):  # a method called on a result (`_called_on_results`): the one so named
                named = self.by_method.get(name[1:], [])
                if len(named) == 1 and name[1:] not in _COMMON_METHODS:
                    found.append(cite(named[0][1], named[0][0], self.linker))
                continue
            name, home = (name, None) if name in self.by_name else self.unqualified(name)
            member = home is None and name not in self.by_name and bool(_THROUGH_CLASS.fullmatch(name))
            if member:
                name = name.rpartition(".")[2]  # a method its class inherits, or a class not the project's
            candidates = self.by_name.get(name, [])
            # … a member of it, never a module's function of that name (ko's template field `Git.Tag`)
            if member:
                candidates = [c for c in candidates if not _module_function(c[1])]
            if not candidates and methods and _distinctive_method(name):
                named = self.by_method.get(name, [])
                candidates = named if len(named) == 1 else []  # two methods of the name: either is a guess
            inside = [c for c in candidates if home is not None and in_package_folder(c[0], home)]
            # the package named: `koanf.Provider` is the root's, not `file.Provider`
            candidates = inside or candidates
            # a bare name of two letters is too often a word; one defined in the package qualifying it is not
            # (`fx.In`), one defined elsewhere still is
            best = _best(candidates, self.facts) if len(name) > 2 or inside else None
            if best is not None and home is None and not dotted and self._a_method_more_likely(name, *best):
                continue
            if best is not None:
                found.append(cite(best[1], best[0], self.linker))
        # `humacli.New` and `humachi.New`: two definitions of one name, each asked for by its package
        return list({(s.path, s.name): s for s in found}.values())

    def package_code(self, package: str) -> list[CitedSymbol]:
        """The key symbols of the code package named like a docs concept (`docs/query/` → `…/query/`)."""
        return [cite(r.symbol, r.path, self.linker) for r in ranked(self.package_files(package), self.facts)]

    def _a_method_more_likely(self, name: str, path: str, symbol: Symbol) -> bool:
        """Whether a bare `name` the docs use stands for the project's methods so named rather than for the
        module function `symbol` its package keeps to itself: ormar's Methods and Signals pages say
        `update()` of a model or a queryset, never `ormar/queryset/utils.py`'s dict-merging `update`, which
        no `__init__` re-exports."""
        if not (_module_function(symbol) and path.endswith(".py") and name in self.by_method):
            return False
        fact = self.facts.files.get(path)
        return fact is not None and name not in fact.exports and name not in fact.api_names

    def _method_of(self, function: str, method: str) -> tuple[str, Symbol] | None:
        """The method `method` of the one type `function` (`expr.Compile`, `griffe.GriffeLoader`) makes or
        returns (a class is its own; a Go function's first result, `*vm.Program` → `Program`); None when
        that type is unknown or defines no such method, or several types are so named."""
        name, home = self.unqualified(function)
        defined = [c for c in self.by_name.get(name, []) if home is None or in_package_folder(c[0], home)]
        if len(defined) != 1:
            return None
        path, symbol = defined[0]
        made = symbol.name if symbol.kind in TYPE_KINDS else self._result_type(path, symbol)
        methods = [m for m in self.by_method.get(method, []) if m[1].parent == made]
        return methods[0] if made and len(methods) == 1 else None

    def _result_type(self, path: str, function: Symbol) -> str:
        """The type a Go function returns first (`func Compile(…) (*vm.Program, error)` → "Program"), read
        from its declaration; '' for another language or a result that names no type."""
        if not path.endswith(".go") or self.root is None:
            return ""
        fact = self.facts.files.get(path)
        if fact is not None and (own := fact.results.get(function.name)):
            return own
        source = read_or_none(self.root, path) or ""
        declaration = "\n".join(source.splitlines()[function.start - 1 : function.end])
        result = _GO_RESULT.search(declaration.partition("{")[0])
        return result.group(1) if result is not None else ""

    def qualified_calls(self, code: str) -> list[str]:
        """The calls in `code` through one of the project's own packages, as written: `expr.Patch`."""
        return [f"{owner}.{name}" for owner, name in package_calls(code) if owner in self.qualifiers]

    def foreign_calls(self, code: str) -> set[str]:
        """The names `code` calls only through another package the project's code imports (`reflect.TypeOf`,
        `fmt.Errorf`): never called bare, nor on anything else."""
        calls = package_calls(code)
        theirs = {name for owner, name in calls if owner in self.foreign}
        elsewhere = {name for owner, name in calls if owner not in self.foreign}
        return {
            name for name in theirs - elsewhere if not re.search(rf"(?<![\w.]){re.escape(name)}\s*\(", code)
        }

    @cached_property
    def foreign(self) -> frozenset[str]:
        """The names of the packages the project's code imports that are not its own (`reflect`, `fmt`,
        `time`): what a Go import path or a Python module ends or starts with."""
        found = set()
        for file_facts in self.facts.files.values():
            if isinstance(file_facts, OnDemandFileFacts):
                continue
            for target in file_facts.imports:
                target = target.strip("\"'` ")
                if not target or target.startswith((".", "/")):
                    continue
                name = target.rsplit("/", 1)[-1] if "/" in target else target.split(".", 1)[0]
                if name.isidentifier():
                    found.add(name)
        return frozenset(found - set(self.qualifiers))

    @cached_property
    def receivers(self) -> Receivers:
        """The classes of the files the shards read, with their bases and methods: what an example's own
        objects stand on (exampleobjects.py)."""
        return Receivers({p: f for p, f in self.facts.files.items() if not isinstance(f, OnDemandFileFacts)})

    def unqualified(self, name: str) -> tuple[str, str | None]:
        """`name` without the project's own package names before it, and the folder the last of them names
        (`koanf.Provider` → `Provider` at the root, `serde_json::Map::get` → `Map.get`); (name, None) when
        nothing qualifies it."""
        parts, home = _QUALIFIED.split(name), None
        while len(parts) > 1 and parts[0] in self.qualifiers:
            parts, home = parts[1:], self.qualifiers[parts[0]]
        return (".".join(parts), home) if home is not None else (name, None)

    def documented(self, dotted: str) -> list[CitedSymbol]:
        """The definitions a page's autodoc or mkdocstrings object stands for: `packaging.version.Version` is
        `Version`, `anyio.abc.TaskGroup.start_soon` is `TaskGroup.start_soon`, a module (`packaging.version`)
        its own public definitions, best first (read on demand when no shard holds the module)."""
        parts = dotted.split(".")
        upper = next((i for i, part in enumerate(parts) if part[:1].isupper()), len(parts) - 1)
        if named := self.resolve([".".join(parts[upper:])], dotted=True):
            return named
        module = self.module_file(dotted)
        return (
            [cite(r.symbol, r.path, self.linker) for r in ranked([module], self.facts) if r.symbol.public]
            if module
            else []
        )

    def module_file(self, dotted: str) -> str:
        """The one library file a dotted module name (`packaging.version`) stands for; '' when none or several."""
        module = dotted.replace(".", "/")
        ends = (f"{module}.py", f"{module}/__init__.py")
        files = [p for p in self.facts.files if p.endswith(ends) and not NOT_LIBRARY.search(p)]
        return files[0] if len(files) == 1 else ""

    def key_type(self, cited: CitedSymbol) -> KeyType:
        """A class the docs name with its first public methods (constructors and dunders left out)."""
        file_facts = self.facts.files.get(cited.path)
        methods = [
            m
            for m in (file_facts.symbols if file_facts is not None else ())
            if m.parent == cited.name
            and m.public
            and not m.stub
            and not m.short_name.startswith("_")
            and m.short_name not in ("constructor", "init", "New")
        ]
        return KeyType(cited, tuple(cite(m, cited.path, self.linker) for m in methods[:TYPE_METHODS]))

    def code_path(self, symbols: Sequence[CitedSymbol]) -> tuple[FlowBranch, ...]:
        """The code that does what a concept's docs explain: the call tree (calltree.py) from the one of its
        functions and its classes' methods that leads to the most code, in the module most of its symbols are
        defined in when one holds two or more; () without a call graph or calls."""
        graph = self.facts.calls
        if graph is None:
            return ()
        homes = Counter(cited.path for cited in symbols)
        home, held = homes.most_common(1)[0] if homes else ("", 0)
        if held >= 2:  # the module most of them are in is where the concept's work is done …
            found = self._code_path(graph, [cited for cited in symbols if cited.path == home])
            if found or held == len(symbols):
                return found
        return self._code_path(graph, symbols)  # … unless no path starts there (field types, not the work)

    def _code_path(self, graph: CallGraphView, symbols: Sequence[CitedSymbol]) -> tuple[FlowBranch, ...]:
        starts: list[tuple[str, str]] = []
        for cited in symbols:
            if cited.kind in TYPE_KINDS:
                file_facts = self.facts.files.get(cited.path)
                members = [
                    m
                    for m in (file_facts.symbols if file_facts is not None else ())
                    if m.parent == cited.name and m.kind == "method"
                ]
                getters = _getters(graph, cited.path, members)
                starts += [(cited.path, m.name) for m in members if m.name not in getters]
            elif cited.kind in ("function", "method"):
                starts.append((cited.path, cited.name))
        tree = graph.tree_from(starts[:MAX_STARTS])
        if _hops(tree) < MIN_PATH_CALLS or tree[0].edge.caller.rsplit(".", 1)[-1] in _SETUP:
            return ()  # one call, or a constructor's: nothing a reader learns the working of
        return tuple(flow_branches(tree, self.linker))

    def package_files(self, key: str) -> list[str]:
        """Source files under a folder named like the docs section (plural or singular), tests left out; a
        package's own folder (`packages/server-renderer`), when `key` is one, whatever its name."""
        own = [
            path
            for path in self.folders.get("", ())
            if "/" in key and path.startswith(key + "/") and not NOT_LIBRARY.search(path[len(key) :])
        ]
        if own:
            return own
        stem = PurePosixPath(key).stem.lower().replace("-", "_")
        wanted = {stem, stem.rstrip("s"), stem + "s"} - {""}
        return list(dict.fromkeys(path for name in sorted(wanted) for path in self.folders.get(name, ())))

    @cached_property
    def folders(self) -> dict[str, list[str]]:
        """Each folder name (lower case) → the library files under a folder of that name, in facts order."""
        found: dict[str, list[str]] = {}
        for path, file_facts in self.facts.files.items():
            if isinstance(file_facts, OnDemandFileFacts) or NOT_LIBRARY.search(path) or path in self.serving:
                continue
            found.setdefault("", []).append(path)  # every library file, for a package's own folder
            for part in dict.fromkeys(p.lower() for p in PurePosixPath(path).parts[:-1]):
                found.setdefault(part, []).append(path)
        return found


def in_package_folder(path: str, folder: str) -> bool:
    """Whether a file is in the package `folder` names: one of that name, or the root ("": the top, or a
    crate's `src/`)."""
    parent = PurePosixPath(path).parent
    return parent.name == folder if folder else str(parent) in (".", "src")


def _module_function(symbol: Symbol) -> bool:
    return symbol.kind == "function" and not symbol.parent


def _hops(tree: Sequence[CallTree]) -> int:
    return sum(1 + _hops(branch.below) for branch in tree)


def _best(candidates: list[tuple[str, Symbol]], facts: Facts) -> tuple[str, Symbol] | None:
    """The definition a reader means: the only one (a Rust type, not its `impl` blocks), or the one
    class/top-level definition outside tests; of several, the one the package's top level re-exports
    (redis-py's `Redis` in redis/client.py, not redis/asyncio/client.py's; falcon's `App`, not falcon.asgi's):
    what `import redis; redis.Redis()` names."""
    real = [c for c in candidates if not NOT_LIBRARY.search(c[0])]
    # a Rust type and its `impl` blocks share its name: the type is what the docs name
    real = [c for c in real if c[1].kind != "impl"] or real
    if len(real) == 1:
        return real[0]
    top = [c for c in real if not c[1].parent]
    if len(top) == 1:
        return top[0]
    exported = [c for c in top if c[1].name in facts.files[c[0]].api_names]
    return exported[0] if len(exported) == 1 else None
