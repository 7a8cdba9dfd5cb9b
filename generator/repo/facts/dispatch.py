"""Calls of an abstract method go on into its implementations: a call the graph resolves to a method with
no work of its own (Java's `abstract T read(JsonReader in);`, an interface's declaration, a Python method
that only raises NotImplementedError) is answered at run time by a subclass's override
(`TypeAdapter.write` by `ReflectiveTypeAdapterFactory.Adapter.write`, `TreeBuilder.process` by
`HtmlTreeBuilder.process`). These edges go from the abstract method to the largest DISPATCH overrides,
marked `CallEdge.dispatched`: the call tree follows them, as branches of the abstract call's node; no entry
ranking counts them, so which entry opens a flow does not change. Go's interface calls are tscalls.py's.

A duck-typed family is the same dispatch without a base class: a call no reader resolves on a receiver
named after a family of the repository's classes that each define the method (`self._sink.write()` with
StreamSink, FileSink …; `storage._handleFile()` with DiskStorage, MemoryStorage) reaches their methods
(`Families`, asked by the language readers).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Mapping

from generator.repo.facts.native import family
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import CallEdge, FileFacts, Symbol

DISPATCH = 3  # implementations followed from one abstract call, the largest first
DESCENDANTS = 200  # subclasses looked through below one class
FAMILY_WORD = 4  # the shortest receiver word naming a family of classes (`sink`, `storage`)

Read = Callable[[str], str | None]
Node = tuple[str, str]
_BASE_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:<.*)?$")  # `TypeAdapter<T>` / `models.Model` → its name
_UNIMPLEMENTED = frozenset({"NotImplementedError", "NotImplemented"})


def dispatch_calls(
    edges: Mapping[str, list[CallEdge]], files: Mapping[str, FileFacts], read: Read
) -> list[CallEdge]:
    """For each abstract method some call reaches, an edge to each of its DISPATCH largest overrides in
    the repository's subclasses of its class (transitively), the language's own."""
    subclasses = _subclasses(files)
    # a test's symbols are read on demand, and no abstract method the code calls is a test's
    sources = {path: fact for path, fact in files.items() if not is_context_file(path)}
    methods = {
        (path, s.name): s for path, fact in sources.items() for s in fact.symbols if s.kind == "method"
    }
    # a C++ method is defined apart from its class (`void DBImpl::Put(…)` in db_impl.cc, the class in its
    # header): found by its qualified name wherever it is
    apart = {name: (path, s) for (path, name), s in methods.items() if family(sources[path].language) == "c"}
    classes = {
        (path, s.name)
        for path, fact in sources.items()
        for s in fact.symbols
        if s.kind in {"class", "interface"}
    }
    texts: dict[str, list[str] | None] = {}
    found: list[CallEdge] = []
    for path, name in dict.fromkeys((e.callee_path, e.callee) for es in edges.values() for e in es):
        symbol = methods.get((path, name))
        if symbol is None or (path, symbol.parent) not in classes:
            continue
        language = family(files[path].language)
        if (language, symbol.parent.rsplit(".", 1)[-1]) not in subclasses:
            continue
        overrides = _overrides(methods, subclasses, language, symbol, apart)
        lines = _lines(texts, read, path)
        if not overrides or not _abstract(lines, symbol, files[path].language):
            continue
        at = _declared_at(lines, symbol)  # the line naming the method, below its decorators
        found += [
            CallEdge(path, name, target[0], target[1], at, dispatched=True)
            for target, _ in overrides[:DISPATCH]
        ]
    return found


def _subclasses(files: Mapping[str, FileFacts]) -> dict[tuple[str, str], list[Node]]:
    """(language, a class's short name) → the classes naming it as a base, outside tests and examples."""
    found: dict[tuple[str, str], list[Node]] = {}
    for path, fact in files.items():
        if is_context_file(path):
            continue
        for symbol in fact.symbols:
            for base in symbol.bases:
                named = _BASE_NAME.search(base.rsplit(".", 1)[-1].strip())
                if named and symbol.kind in {"class", "struct"}:
                    found.setdefault((family(fact.language), named[1]), []).append((path, symbol.name))
    return found


def _overrides(
    methods: Mapping[Node, Symbol],
    subclasses: Mapping[tuple[str, str], list[Node]],
    language: str,
    method: Symbol,
    apart: Mapping[str, tuple[str, Symbol]],
) -> list[tuple[Node, int]]:
    """The subclasses' own definitions of `method`, largest first (ties by place); `apart`: C++ methods
    by qualified name, for those defined outside their class's file."""
    seen: set[Node] = set()
    queue = [method.parent.rsplit(".", 1)[-1]]
    found: list[tuple[Node, int]] = []
    while queue and len(seen) < DESCENDANTS:
        for sub_path, sub in subclasses.get((language, queue.pop(0)), ()):
            if (sub_path, sub) in seen:
                continue
            seen.add((sub_path, sub))
            queue.append(sub.rsplit(".", 1)[-1])
            wanted = f"{sub}.{method.short_name}"
            own_path, own = (
                (sub_path, methods[(sub_path, wanted)])
                if (sub_path, wanted) in methods
                else apart.get(wanted, (sub_path, None))
            )
            if own is not None and not own.stub:
                found.append(((own_path, own.name), own.lines))
    return sorted(found, key=lambda item: (-item[1], item[0]))


def _abstract(lines: list[str] | None, method: Symbol, language: str) -> bool:
    """Whether the method has no work of its own: a stub, a declaration without a body (`abstract`, an
    interface's), or a Python body that only raises NotImplementedError, passes or holds `...`."""
    if method.stub:
        return True
    if lines is None:
        return False
    text = "\n".join(lines[method.start - 1 : method.end])
    if language != "python":
        head = text.split("{", 1)[0]
        return "{" not in text or re.search(r"\babstract\b", head) is not None
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    return all(_does_nothing(statement) for statement in function.body)


def _declared_at(lines: list[str] | None, method: Symbol) -> int:
    """The method's first line below its decorators or annotations (`@abstractmethod`, `@Override`), where
    its name stands: a link to the abstract method lands on it."""
    if lines is None:
        return method.start
    depth = 0  # brackets open in a decorator's arguments running over several lines
    for number in range(method.start, min(method.end, len(lines)) + 1):
        text = lines[number - 1].strip()
        if depth == 0 and text and not text.startswith(("@", "#")):
            return number
        depth = max(0, depth + text.count("(") - text.count(")"))
    return method.start


def _does_nothing(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return True  # a docstring, or `...`
    if isinstance(statement, ast.Raise) and statement.exc is not None:
        raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
        return isinstance(raised, ast.Name) and raised.id in _UNIMPLEMENTED
    return False


def _lines(texts: dict[str, list[str] | None], read: Read, path: str) -> list[str] | None:
    if path not in texts:
        text = read(path)
        texts[path] = text.split("\n") if text is not None else None
    return texts[path]


class Families:
    """The repository's methods by the classes (or constructor functions) defining them: `of(language,
    receiver, method)` gives the DISPATCH largest methods `method` of the classes whose name ends with the
    receiver's last word (`_sink` → StreamSink, FileSink), outside tests and examples."""

    def __init__(self, files: Mapping[str, FileFacts]) -> None:
        self.files = files
        self._methods: dict[tuple[str, str], list[tuple[str, Symbol]]] | None = None

    def of(self, language: str, receiver: str, method: str) -> list[Node]:
        word = receiver.rpartition("_")[2].lower()
        if len(word) < FAMILY_WORD:
            return []
        if self._methods is None:
            self._methods = {}
            for path, fact in self.files.items():
                if is_context_file(path):
                    continue
                for symbol in fact.symbols:
                    if symbol.kind == "method" and symbol.parent and not symbol.stub:
                        key = (fact.language, symbol.short_name)
                        self._methods.setdefault(key, []).append((path, symbol))
        found = [
            (path, symbol)
            for path, symbol in self._methods.get((language, method), ())
            if symbol.parent.rsplit(".", 1)[-1].lower().endswith(word)
        ]
        found.sort(key=lambda hit: (-hit[1].lines, hit[0], hit[1].name))
        return [(path, symbol.name) for path, symbol in found[:DISPATCH]]
