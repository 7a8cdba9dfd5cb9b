"""Go, JavaScript/TypeScript and Java calls resolved to repository symbols with tree-sitter.

Each call is credited to the innermost function or method whose lines hold it. Go: `f()` is the package's
function `f` (a package spans the files of one folder); `x.M()` is a method of `x`'s declared type (receiver,
parameter or `var`), a function of an imported package of the repository, or the one method of that name
in the package; `v.M()` on an element of a slice or map field (`for _, route := range r.routes`) is inferred:
the element type's method, else the package's methods of that name (`CallEdge.inferred`). JavaScript: `this.m()` is a method of the enclosing class or object, `obj.m()` a function
assigned as `obj.m = …` in the file, `mod.m()`/`m()` a definition of the file `mod`/`m` was `require`d or
imported from, `this[key]()` the function an object literal of the repository binds to `[key]:` (when only
one is). Java: javacalls.py. What cannot be resolved statically is left out.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from generator.repo.facts.branches import tree_share
from generator.repo.facts.comments import descendants, node_text
from generator.repo.facts.dispatch import DISPATCH, Families
from generator.repo.facts.gonodes import GO_CONVERSION, GoDeclaration, go_declarations
from generator.repo.facts.goregistry import registered_types
from generator.repo.facts.goresults import go_type_name
from generator.repo.facts.imports import JS_LANGUAGES
from generator.repo.facts.javacalls import CALL_NODES, Classes, JavaScope, class_table
from generator.repo.facts.jsinstances import (
    declared_field_type,
    declared_types,
    enclosing_functions,
    field_instances,
    function_field,
    named_instances,
    subclasses,
    this_aliases,
)
from generator.repo.facts.languages import go_head_tree, parse_tree
from generator.repo.facts.nativecalls import NativeScope, NativeTable
from generator.repo.facts.pyelements import MAX_INFERRED
from generator.repo.model import CallEdge, FileFacts, Symbol

CALLABLE_KINDS = frozenset({"function", "method"})
# a Go struct's slice, array or map field: `routes []*Route`, `segments [segmentCount]segment`, `named
# map[string]*Route` → (names, element type)
_GO_COLLECTION_FIELD = re.compile(r"^\s*(\w+(?:\s*,\s*\w+)*)\s+(?:\[\w*\]|map\[[^\]]*\])+\*?(?:\w+\.)?(\w+)")
# net/http's functions that serve a handler handed to them
_NET_HTTP_SERVES = frozenset({"ListenAndServe", "ListenAndServeTLS", "Serve", "ServeTLS"})
_GO_MAJOR_VERSION = re.compile(r"v[2-9]\d*|v1\d+")  # a module path's major version: `/v2`
_GO_METHOD_HEAD = re.compile(r"^func\s*\([^)]*\)\s*\w+\s*(?:\[[^\]]*\])?\(")  # `func (f T) Log(`
_RETURNED = "()"  # a declared type that is "what this function returns": `x, err := New(…)`
_GO_INTERFACE_METHOD = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(")  # `NextBackOff() time.Duration`
# an embedded field: a type alone on its line (`*cache`, `sync.Mutex` is another package's)
_GO_EMBEDDED = re.compile(r"^\s*\*?(\w+)(?:\[[^\]]*\])?\s*(?:`.*`)?\s*(?://.*)?$")
# another package's type embedded: `*lifecycle.Lifecycle` → (package name, type)
_GO_EMBEDDED_FOREIGN = re.compile(r"^\s*\*?(\w+)\.(\w+)(?:\[[^\]]*\])?\s*(?:`.*`)?\s*(?://.*)?$")
EMBEDDED_DEPTH = 2  # types embedding types embedding the method's type
# a field given a function's result: `e.router = NewRouter(e)` → (field, function)
_GO_FIELD_ASSIGNED = re.compile(r"\.(\w+)\s*=\s*&?(\w+)\(")
_GO_FIELD = re.compile(r"^\s*(\w+(?:\s*,\s*\w+)*)\s+\*?(\w+)\s*(?:`.*`)?\s*(?://.*)?$")  # `tree *node`
# any named field: `handler Handler`, `handlers []HandlerFunc`, `onClose func(c *Conn)` → (names, type)
_GO_ANY_FIELD = re.compile(r"^\s*(\w+(?:\s*,\s*\w+)*)\s+([^\s/`][^/`]*?)\s*(?:`.*`)?\s*(?://.*)?$")
# a type's collection or pointer prefixes: `[]`, `[8]`, `map[string]`, `*`
_GO_CONTAINERS = re.compile(r"^(?:\[\w*\]|map\[[^\]]*\]|\*)+")
_JS_ADDERS = frozenset({"push", "unshift", "add", "set"})  # what puts an element into an array, set or map
Resolve = Callable[[str, str, str], list[str]]
# a function stored in a struct's field: (the function, the function the literal holding it is handed to
# as an argument, the function handing it over), the last two None for a store of another kind
Stored = tuple[tuple[str, str], tuple[str, str] | None, tuple[str, str] | None]
# what a call reaches, with CallEdge's flags: (target, handed, inferred, dispatched, plugged)
Target = tuple[tuple[str, str] | None, bool, bool, bool, bool]
# an object literal's method under a computed key, one pair a line: `[writeSym]: write,` (pino's prototype)
_KEYED_PAIR = re.compile(r"^\s*\[([A-Za-z_$][\w$]*)\]\s*:\s*([A-Za-z_$][\w$]*)\s*,?\s*$", re.MULTILINE)


class TreeSitterCalls:
    """Calls of Go, JS/TS and Java files; `read(path)` gives a file's text, `symbols(path)` its symbols."""

    def __init__(
        self,
        read: Callable[[str], str | None],
        symbols: Callable[[str], list[Symbol]],
        files: dict[str, FileFacts],
        resolve: Resolve,
    ) -> None:
        self.read, self.symbols, self.files, self.resolve = read, symbols, files, resolve
        self._packages: dict[str, dict[str, list[tuple[str, Symbol]]]] = {}
        self._in_folder: dict[str, list[str]] | None = None  # `_folders`
        self._classes: Classes | None = None  # Java's classes by name, gathered on the first Java file
        self._native: NativeTable | None = (
            None  # C, C++ and Rust definitions, gathered on the first such file
        )
        self._embeds: dict[str, list[str]] = {}  # a Go struct → the package's types it embeds
        self._imports: dict[str, dict[str, str]] = {}  # a Go file → its imports (`go_imports`)
        # (Go package folder, field) → the one type its constructors put in that field (`_assigned_type`)
        self.assigned: dict[tuple[str, str], str] = {}
        # Go package folder → field → the functions whose results its code puts in that field (`_constructors`)
        self.constructors: dict[str, dict[str, list[str]]] = {}
        # (Go package folder, interface) → its implementations' methods, largest first (`_implementers`)
        self.implementers: dict[tuple[str, str], list[tuple[str, str]]] = {}
        # Go package folder → its top-level variables' types (`_package_variables`)
        self.variables: dict[str, dict[str, str]] = {}
        self._js_scopes: dict[str, _JsScope | None] = {}  # other JS/TS files' scopes (js_scope)
        self._keyed: dict[str, set[tuple[str, str]]] | None = None  # computed key → functions bound to it
        self.families = Families(
            files
        )  # a receiver named after a family of classes (`storage._handleFile()`)

    def edges(self, path: str, language: str) -> list[CallEdge]:
        if language not in {"go", "java", "c", "cpp", "rust", *JS_LANGUAGES}:
            return []
        text = self.read(path)
        if text is None:
            return []
        root = parse_tree(language, text).root_node
        callers = sorted(
            (s for s in self.symbols(path) if s.kind in CALLABLE_KINDS), key=lambda s: (s.start, -s.end)
        )
        scope = self._scope(path, language, root)
        found: dict[tuple[str, str, str, int], CallEdge] = {}
        kinds = (
            CALL_NODES
            if language == "java"
            else JS_CALLS
            if language in JS_LANGUAGES
            else ("call_expression",)
        )
        calls = (
            [c for d in scope.declarations for c in d.calls]
            if isinstance(scope, _GoScope)
            else descendants(root, *kinds)
        )
        for call in calls:
            line = call.start_point[0] + 1
            caller = innermost(callers, line)
            targets = self._targets(scope, call, caller)
            for target, handed, inferred, dispatched, plugged in targets:
                if target is None or target == (path, caller.name if caller else ""):
                    continue
                if handed and not self._callable(target):
                    continue
                edge = CallEdge(
                    path,
                    caller.name if caller else "",
                    target[0],
                    target[1],
                    line,
                    tree_share(call),
                    handed,
                    inferred,
                    dispatched,
                    plugged,
                    scope.passed.get((line, target), ()) if isinstance(scope, _GoScope) else (),
                )
                found.setdefault((edge.caller, edge.callee_path, edge.callee, line), edge)
        return sorted(found.values(), key=lambda e: (e.line, e.callee))

    def _targets(self, scope: Scope, call: Any, caller: Symbol | None) -> list[Target]:
        """What a call reaches: (target, handed, inferred, dispatched, plugged) each (CallEdge's flags)."""
        if call.type == GO_CONVERSION:  # `ctx.handlers[i](ctx)`, which Go's grammar reads as a conversion
            plugged = scope.plugged(call, caller) if isinstance(scope, _GoScope) else []
            return [(target, False, False, False, True) for target in plugged]
        called = scope.callee(call, caller)
        targets: list[Target] = [(called, False, False, False, False)]
        targets += [(scope.resolve(node, caller), True, False, False, False) for node in _handed(call)]
        if isinstance(scope, _GoScope):
            targets += [(target, True, False, False, False) for target in scope.served(call, caller)]
        if called is None and isinstance(scope, _GoScope):
            known: list[Target] = [(t, False, True, False, False) for t in scope.on_element(call, caller)]
            known += [(t, False, True, False, False) for t in scope.stored(call, caller)]
            known += [(t, False, False, True, False) for t in scope.implementations(call, caller)]
            # nothing of the repository's: what the user plugs in, kept in a field
            plugged = [] if known else scope.plugged(call, caller)
            targets += [*known, *((t, False, False, False, True) for t in plugged)]
        if called is None and isinstance(scope, _JsScope):
            family = [(t, False, False, True, False) for t in scope.family(call)]
            # nothing of the repository's: what the user plugs in, kept in a field
            plugged = [] if family else scope.plugged(call, caller)
            targets += [*family, *((t, False, False, False, True) for t in plugged)]
        if called is None and isinstance(scope, NativeScope):
            targets += [(target, False, True, False, False) for target in scope.inferred(call, caller)]
            targets += [(t, False, False, True, False) for t in scope.implementations(call, caller)]
        return targets

    def js_scope(self, path: str) -> _JsScope | None:
        """Another JS/TS file's scope (its names and imports), read once: a subclass's file, for what its
        constructor gives its base class's fields."""
        if path not in self._js_scopes:
            language = self.files[path].language if path in self.files else ""
            text = self.read(path) if language in JS_LANGUAGES else None
            root = parse_tree(language, text).root_node if text is not None else None
            self._js_scopes[path] = _JsScope(self, path, language, root) if root is not None else None
        return self._js_scopes[path]

    def _scope(self, path: str, language: str, root: Any) -> Scope:
        if language == "go":
            return _GoScope(self, path, root)
        if language in {"c", "cpp", "rust"}:
            if self._native is None:
                self._native = NativeTable(self.files, self.read)
            return NativeScope(self._native, path, language, root)
        if language == "java":
            if self._classes is None:
                self._classes = class_table(self.files)
            return JavaScope(self._classes, self.symbols, path, root)
        return _JsScope(self, path, language, root)

    def keyed(self, key: str) -> tuple[str, str] | None:
        """The function the repository's JS/TS object literals bind to the computed key named `key`
        (`[writeSym]: write`, so that `this[writeSym](…)` calls `write`), when exactly one is."""
        if self._keyed is None:
            self._keyed = self._computed_keys()
        found = self._keyed.get(key, set())
        return next(iter(found)) if len(found) == 1 else None

    def _computed_keys(self) -> dict[str, set[tuple[str, str]]]:
        table: dict[str, set[tuple[str, str]]] = {}
        for path, fact in self.files.items():
            text = self.read(path) if fact.language in JS_LANGUAGES else None
            pairs = _KEYED_PAIR.findall(text) if text and "]:" in text else []
            if not pairs:
                continue
            scope = _JsScope(self, path, fact.language, parse_tree(fact.language, text or "").root_node)
            for key, value in pairs:
                target = scope.named(value)
                if target is not None and self._callable(target):
                    table.setdefault(key, set()).add(target)
        return table

    def _callable(self, target: tuple[str, str]) -> bool:
        """Is the target a function or method (a value handed over may be any symbol)?"""
        return any(s.name == target[1] and s.kind in CALLABLE_KINDS for s in self.symbols(target[0]))

    def go_results(self, path: str) -> dict[str, str]:
        """The first result type of each function a Go file declares, as the survey read it from its tree."""
        fact = self.files.get(path)
        return fact.results if fact is not None else {}

    def go_embedded(self, folder: str, type_name: str) -> list[str]:
        """The types of a Go package (`folder`) a struct of it embeds: a field line that is one of the
        package's types alone (go-cache's `type Cache struct { *cache }`, whose methods are all `cache`'s,
        promoted to `Cache`); read once per struct."""
        key = f"{folder}\0{type_name}"
        if key not in self._embeds:
            package = self.package(folder, "go")
            found: list[str] = []
            for path, symbol in package.get(type_name, []):
                for line in (self.read(path) or "").splitlines()[symbol.start : symbol.end - 1]:
                    embedded = _GO_EMBEDDED.match(line)
                    if embedded and embedded[1] != type_name and embedded[1] in package:
                        found.append(embedded[1])
            self._embeds[key] = list(dict.fromkeys(found))
        return self._embeds[key]

    def go_foreign_embedded(self, folder: str, type_name: str) -> list[tuple[str, str]]:
        """(folder, type) of the repository's types of other packages a struct of a Go package (`folder`)
        embeds, whose methods it promotes: fx's `type lifecycleWrapper struct { *lifecycle.Lifecycle }`, so
        that `app.lifecycle.Start(ctx)` is internal/lifecycle's `Lifecycle.Start`; read once per struct."""
        key = f"{folder}\0{type_name}\0foreign"
        if key not in self._embeds:
            found: list[str] = []
            for path, symbol in self.package(folder, "go").get(type_name, []):
                text = self.read(path) or ""
                lines = text.splitlines()[symbol.start : symbol.end - 1]
                named = [m for line in lines if (m := _GO_EMBEDDED_FOREIGN.match(line))]
                # the struct's file's imports, read from its head: its calls are read by its own scope
                imports = _go_imports(go_head_tree("go", text).root_node) if named else {}
                for embedded in (m for m in named if m[1] in imports):
                    homes = self.resolve(path, "go", imports[embedded[1]])
                    found += [f"{posixpath.dirname(home)}\0{embedded[2]}" for home in homes[:1]]
            self._embeds[key] = list(dict.fromkeys(found))
        return [(home, name) for home, _, name in (f.partition("\0") for f in self._embeds[key])]

    def go_imports(self, path: str) -> dict[str, str]:
        """A Go file's imports, local package name → import path (`_go_imports`), read from its head once."""
        if path not in self._imports:
            text = self.read(path) or ""
            self._imports[path] = _go_imports(go_head_tree("go", text).root_node)
        return self._imports[path]

    def package(self, folder: str, language: str) -> dict[str, list[tuple[str, Symbol]]]:
        """name → definitions across one Go package (the non-test files of one folder)."""
        key = f"{language}\0{folder}"
        if key not in self._packages:
            table: dict[str, list[tuple[str, Symbol]]] = {}
            for path in self._folders().get(key, []):
                if path.endswith("_test.go"):
                    continue
                for symbol in self.files[path].symbols:
                    table.setdefault(symbol.name, []).append((path, symbol))
                    if symbol.parent:
                        table.setdefault("." + symbol.short_name, []).append((path, symbol))
            self._packages[key] = table
        return self._packages[key]

    def _folders(self) -> dict[str, list[str]]:
        """language and folder → its files, in the facts' order: each package's table reads its own folder's
        files, not every file of the repository again."""
        if self._in_folder is None:
            self._in_folder = {}
            for path, fact in self.files.items():
                self._in_folder.setdefault(f"{fact.language}\0{posixpath.dirname(path)}", []).append(path)
        return self._in_folder


def _handed(call: Any) -> list[Any]:
    """The arguments of a call that name a function rather than call one (`queue.push(performCall)`,
    `http.HandleFunc("/", index)`, `register({load: runLoad})`): names, `this.m`/`pkg.F` selectors,
    and those among the items of a literal array or object argument."""
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    found: list[Any] = []
    for node in arguments.named_children:
        items = [node]
        if node.type in _LITERALS:
            items = [c.child_by_field_name("value") or c for c in node.named_children]
        found.extend(n for n in items if n is not None and n.type in _REFERENCES)
    return found


JS_CALLS = ("call_expression", "new_expression")
_REFERENCES = frozenset({"identifier", "member_expression", "selector_expression"})
_LITERALS = frozenset({"array", "object", "composite_literal", "literal_value"})


def innermost(callers: list[Symbol], line: int) -> Symbol | None:
    """The function or method whose lines hold `line` and start last (`callers` sorted by start)."""
    found = None
    for symbol in callers:
        if symbol.start > line:
            break
        if symbol.end >= line and (found is None or symbol.start >= found.start):
            found = symbol
    return found


class _GoScope:
    def __init__(self, calls: TreeSitterCalls, path: str, root: Any) -> None:
        self.calls, self.path = calls, path
        self.package = calls.package(posixpath.dirname(path), "go")
        self.imports = _go_imports(root)
        self.declarations = go_declarations(root)  # one walk of the tree for the calls, locals and stores
        self.types, self.ranges = _go_locals(self.declarations)
        self._fields: dict[str, dict[str, str]] = {}  # struct → its slice and map fields' element types
        self._typed: dict[str, dict[str, str]] = {}  # struct → its fields typed by a package type
        self.handlers: dict[tuple[str, str], list[Stored]] | None = None  # _stored_handlers
        # (line, target) → the callers that pass a call of the file its target (`stored`, CallEdge.passed_by)
        self.passed: dict[tuple[int, tuple[str, str]], tuple[tuple[str, str], ...]] = {}

    def callee(self, call: Any, caller: Symbol | None) -> tuple[str, str] | None:
        return self.resolve(call.child_by_field_name("function"), caller)

    def resolve(self, function: Any, caller: Symbol | None) -> tuple[str, str] | None:
        """The repository symbol a name or selector refers to."""
        return self._resolve_at(function, caller.start if caller else 0)

    def _resolve_at(self, function: Any, start: int) -> tuple[str, str] | None:
        if function is None:
            return None
        if function.type == "identifier":
            return self._top_level(self.package, node_text(function))
        if function.type != "selector_expression":
            return None
        operand, field = (
            function.child_by_field_name("operand"),
            node_text(function.child_by_field_name("field")),
        )
        if operand is not None and operand.type == "selector_expression":  # mx.tree.FindRoute()
            owner = self._field_owner(operand, start)
            typed = self._field_types(owner[0]).get(owner[1], "") if owner else ""
            hit = self._method(typed, field) if typed else None
            if hit is None and owner is not None:  # an interface: the type the package's code puts there
                made = self._assigned_type(owner[1])
                hit = self._method(made, field) if made else None
            return hit
        if operand is not None and operand.type == "index_expression":  # cache.segments[id].set()
            return self._element_method(operand.child_by_field_name("operand"), field, start)
        if made := _go_made_type(operand):  # expr's `new(Parser).Parse(…)`, `(&Checker{}).Check(…)`
            return self._typed_method(made, field)
        if operand is None or operand.type != "identifier":
            return None
        name = node_text(operand)
        declared = self.types.get((start, name), "")
        if declared.startswith(_RETURNED):
            return self._returned_method(declared.removeprefix(_RETURNED), field, start)
        if declared:
            return self._typed_method(declared, field)
        if name in self.imports:
            for target in self.calls.resolve(self.path, "go", self.imports[name]):
                hit = self._top_level(self.calls.package(posixpath.dirname(target), "go"), field)
                if hit is not None:
                    return hit
            return None
        typed = self._package_variables().get(name, "")
        if "." in typed:
            return self._typed_method(typed, field)
        if typed and (hit := self._method(typed, field)) is not None:
            return hit
        methods = self.package.get("." + field, [])
        return (methods[0][0], methods[0][1].name) if len(methods) == 1 else None

    def served(self, call: Any, caller: Symbol | None) -> list[tuple[str, str]]:
        """The `ServeHTTP` of a value handed to a call that takes an `http.Handler` (echo's
        `sc.Start(ctx, e)` with `e *Echo`, `http.ListenAndServe(addr, e)`): the server it is handed to calls
        it with every request."""
        start = caller.start if caller else 0
        declared = [
            self.types.get((start, node_text(node)), "")
            for node in _handed(call)
            if node.type == "identifier"
        ]
        found = [
            self._method(name, "ServeHTTP") for name in declared if name and not name.startswith(_RETURNED)
        ]
        hits = [hit for hit in found if hit is not None]
        return hits if hits and self._takes_handler(call, caller) else []

    def _takes_handler(self, call: Any, caller: Symbol | None) -> bool:
        """Whether the call's function takes an `http.Handler`: net/http's servers, or a repository
        function whose parameters name one."""
        function = call.child_by_field_name("function")
        text = node_text(function) if function is not None else ""
        head, _, name = text.rpartition(".")
        if self.imports.get(head) == "net/http":
            return name in _NET_HTTP_SERVES
        target = self.callee(call, caller)
        symbol = (
            next((s for s in self.calls.symbols(target[0]) if s.name == target[1]), None) if target else None
        )
        if target is None or symbol is None:
            return False
        lines = (self.calls.read(target[0]) or "").splitlines()[symbol.start - 1 : symbol.start + 2]
        return "http.Handler" in "\n".join(lines).split("{", 1)[0]

    def _field_owner(self, selector: Any, start: int) -> tuple[str, str] | None:
        """(struct type, field) of `v.f` with `v` a variable of a declared type."""
        operand = selector.child_by_field_name("operand")
        if operand is None or operand.type != "identifier":
            return None
        declared = self.types.get((start, node_text(operand))) or self._ranged_type(operand, start)
        return (declared, node_text(selector.child_by_field_name("field"))) if declared else None

    def _ranged_type(self, name: Any, start: int) -> str:
        """The element type of the collection field a name ranges over (`for _, h := range
        s.handlers[r.Method]`, `handlers map[string][]handler`: `handler`); "" when unknown."""
        ranged = self.ranges.get((start, node_text(name)))
        owner = self.types.get((start, ranged[0]), "") if ranged else ""
        return self._element_type(owner, ranged[1]) if ranged and owner else ""

    def _assigned_type(self, field: str) -> str:
        """The one type the package's constructors make for a field (echo's `e.router = NewRouter(…)`,
        returning *DefaultRouter, for `router Router`, an interface): "" when none or several are."""
        key = (posixpath.dirname(self.path), field)
        if key not in self.calls.assigned:
            made: set[str] = set()
            for function in self._constructors().get(field, []):
                homes = [p for p, symbol in self.package.get(function, []) if not symbol.parent]
                made.update(self.calls.go_results(home).get(function, "") for home in homes)
            made.discard("")
            self.calls.assigned[key] = made.pop() if len(made) == 1 else ""
        return self.calls.assigned[key]

    def _constructors(self) -> dict[str, list[str]]:
        """Field → the functions called for what the package's code assigns to it (`e.router =
        NewRouter(…)`, `x.f = &T(…)`), from one reading of the package's files."""
        folder = posixpath.dirname(self.path)
        if folder not in self.calls.constructors:
            table: dict[str, list[str]] = {}
            for path in dict.fromkeys(p for hits in self.package.values() for p, _ in hits):
                for field, function in _GO_FIELD_ASSIGNED.findall(self.calls.read(path) or ""):
                    table.setdefault(field, []).append(function)
            self.calls.constructors[folder] = table
        return self.calls.constructors[folder]

    def _field_types(self, type_name: str) -> dict[str, str]:
        """A struct's fields typed by one of the package's own types (`tree *node`), from its declaration."""
        if type_name not in self._typed:
            found = self._declared_fields(type_name, _GO_FIELD)
            self._typed[type_name] = {name: kind for name, kind in found.items() if kind in self.package}
        return self._typed[type_name]

    def _declared_fields(self, type_name: str, pattern: re.Pattern[str]) -> dict[str, str]:
        """Field → type of each line of the struct's declaration `pattern` matches (`routes []*Route`:
        names, then the type)."""
        fields: dict[str, str] = {}
        for path, symbol in self.package.get(type_name, []):
            for line in (self.calls.read(path) or "").splitlines()[symbol.start - 1 : symbol.end]:
                found = pattern.match(line)
                if found:
                    fields.update(dict.fromkeys(re.split(r"\s*,\s*", found[1]), found[2]))
        return fields

    def stored(self, call: Any, caller: Symbol | None) -> list[tuple[str, str]]:
        """`mx.handler.ServeHTTP(w, r)` or `mx.handler(w, r)`: a call through a struct field leads to the
        functions the file hands to that field (`mx.handler = chain(mws, http.HandlerFunc(mx.routeHTTP))`,
        `&Client{CheckRetry: DefaultRetryPolicy}`); so does a call of one of the field's elements
        (`c.handlers[i](c)`, `for _, f := range c.beforeRequest { f(c, req) }` with
        `c.beforeRequest = []RequestMiddleware{parseRequestURL, …}`). A function stored only in literals
        handed to the caller itself (fx's `withTimeout(ctx, &withTimeoutParams{callback: app.start})`) is
        what those callers pass: noted in `passed` (CallEdge.passed_by), so that a call tree follows it
        under `Start`, never under `Stop`, which passes its own closure."""
        function = call.child_by_field_name("function")
        if caller is None or function is None:
            return []
        owner = self._holder(function, caller.start)
        if owner is None:
            return []
        if self.handlers is None:
            self.handlers = self._stored_handlers()
        here = (self.path, caller.name)
        passers: dict[tuple[str, str], list[tuple[str, str] | None]] = {}
        for target, receiver, storer in self.handlers.get(owner, []):
            if target != here:
                passers.setdefault(target, []).append(storer if receiver == here else None)
        line = call.start_point[0] + 1
        for target, storers in passers.items():
            if None not in storers:
                self.passed[(line, target)] = tuple(dict.fromkeys(s for s in storers if s is not None))
        return list(passers)

    def plugged(self, call: Any, caller: Symbol | None) -> list[tuple[str, str]]:
        """`sess.handler(sess)`, `ctx.handlers[i](ctx)`: a call of a struct's function-typed field, or of an
        element of one, that none of the repository's functions is stored in (`stored`), runs what the user
        hands in (`ListenAndServe(addr, handler)`, `Handle("/echo", fn)`): the field, named
        `struct.field`, is where the user's code plugs in (CallEdge.plugged)."""
        if caller is None:
            return []
        owner = (
            self._converted_field(call, caller.start)
            if call.type == GO_CONVERSION
            else self._called_field(call.child_by_field_name("function"), caller.start)
        )
        if owner is None or owner[0] not in self.package:
            return []
        kind = self._declared_fields(owner[0], _GO_ANY_FIELD).get(owner[1], "")
        if not self._function_typed(kind):
            return []
        home = next((path for path, symbol in self.package[owner[0]] if not symbol.parent), None)
        return [(home, f"{owner[0]}.{owner[1]}")] if home is not None else []

    def _called_field(self, function: Any, start: int) -> tuple[str, str] | None:
        """(struct type, field) of a called field or element of one: `s.handler(…)`, `s.hs[k](…)`, a ranged
        element, or a field of the struct another field points to (melody's session calls the user's
        handler through its back-pointer, `s.melody.messageHandler(s, message)`); not a method of a field's
        value (`s.h.Serve(…)`)."""
        if function is None:
            return None
        if function.type == "selector_expression":
            operand = function.child_by_field_name("operand")
            if operand is not None and operand.type == "selector_expression":
                pointed = self._pointed_struct(operand, start)
                return (pointed, node_text(function.child_by_field_name("field"))) if pointed else None
            if operand is None or operand.type != "identifier":
                return None
        return self._holder(function, start)

    def _pointed_struct(self, selector: Any, start: int) -> str:
        """The package's struct a field `v.f` holds or points to (`s.melody`, declared `melody *Melody` in
        Session): "" when its type is no struct of the package."""
        owner = self._field_owner(selector, start)
        if owner is None or owner[0] not in self.package:
            return ""
        declared = self._declared_fields(owner[0], _GO_ANY_FIELD).get(owner[1], "").strip().lstrip("*")
        return declared if declared.isidentifier() and declared in self.package else ""

    def _converted_field(self, conversion: Any, start: int) -> tuple[str, str] | None:
        """(struct type, field) of `v.f[i](…)`, which Go's grammar reads as converting to a generic type
        `v.f[i]`: `v` a variable of a declared type, not a package."""
        generic = conversion.child_by_field_name("type")
        if generic is None or generic.type != "generic_type" or not generic.named_children:
            return None
        qualified = generic.named_children[0]
        if qualified.type != "qualified_type" or len(qualified.named_children) < 2:
            return None
        variable, field = qualified.named_children[:2]
        declared = self.types.get((start, node_text(variable)), "")
        return (declared, node_text(field)) if declared and "." not in declared else None

    def _function_typed(self, kind: str) -> bool:
        """Whether a field's declared type holds functions: `func(…)`, one of the package's function types
        (`type Handler func(Session)`), or a slice or map of them."""
        kind = _GO_CONTAINERS.sub("", kind)
        if kind.startswith("func"):
            return True
        declared = re.compile(rf"^\s*(?:type\s+)?{re.escape(kind)}(?:\[[^\]]*\])?\s+func\b")
        for path, symbol in self.package.get(kind, []) if kind.isidentifier() else ():
            lines = (self.calls.read(path) or "").splitlines()[symbol.start - 1 : symbol.start]
            if lines and declared.match(lines[0]):
                return True
        return False

    def _holder(self, function: Any, start: int) -> tuple[str, str] | None:
        """(struct type, field) of the field a called expression is, or is an element of."""
        if function.type == "identifier":  # an element ranged over: `for _, f := range c.beforeRequest`
            ranged = self.ranges.get((start, node_text(function)))
            declared = self.types.get((start, ranged[0]), "") if ranged else ""
            return (declared, ranged[1]) if ranged and declared and "." not in declared else None
        if function.type == "index_expression":  # `c.handlers[c.index](c)`
            function = function.child_by_field_name("operand")
        if function is None or function.type != "selector_expression":
            return None
        operand = function.child_by_field_name("operand")
        selector = operand if operand is not None and operand.type == "selector_expression" else function
        return self._field_owner(selector, start)

    def _stored_handlers(self) -> dict[tuple[str, str], list[Stored]]:
        """(struct type, field) → the functions and methods named in what the file stores in that field: the
        right of an assignment (`mx.handler = chain(mx.middlewares, http.HandlerFunc(mx.routeHTTP))`) or a
        keyed element of a literal of the package's struct (`&Client{CheckRetry: DefaultRetryPolicy}`), those
        called there left out; each with the function a literal is handed to as an argument and the
        function handing it (`Stored`)."""
        callers = sorted(
            (s for s in self.calls.symbols(self.path) if s.kind in CALLABLE_KINDS),
            key=lambda s: (s.start, -s.end),
        )
        found: dict[tuple[str, str], list[Stored]] = {}
        for declaration in self.declarations:
            start = declaration.node.start_point[0] + 1 if declaration.function else 0
            held = declaration.storing  # its assignments, then its literals
            for node in (n for n in held if n.type == "assignment_statement"):
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                target = left.named_children[0] if left is not None and left.named_children else None
                if target is None or right is None or target.type != "selector_expression":
                    continue
                owner = self._field_owner(target, start)
                if owner is not None:
                    named = self._named_functions(right, start)
                    found.setdefault(owner, []).extend((hit, None, None) for hit in named)
            for literal in (n for n in held if n.type == "composite_literal"):
                struct = go_type_name(literal.child_by_field_name("type"))
                body = literal.child_by_field_name("body")
                if not struct or struct not in self.package or body is None:
                    continue
                receiver = self._handed_to(literal, start)
                storer = innermost(callers, literal.start_point[0] + 1) if receiver is not None else None
                passer = (self.path, storer.name) if storer is not None else None
                for element in (e for e in body.named_children if e.type == "keyed_element"):
                    key, value = (element.named_children + [None, None])[:2]
                    if key is not None and value is not None and node_text(key).isidentifier():
                        named = self._named_functions(value, start)
                        stored = ((hit, receiver if passer else None, passer) for hit in named)
                        found.setdefault((struct, node_text(key)), []).extend(stored)
        return found

    def _handed_to(self, literal: Any, start: int) -> tuple[str, str] | None:
        """The repository function a struct literal (or its address) is an argument of: `withTimeout` for
        `withTimeout(ctx, &withTimeoutParams{…})`."""
        node = literal.parent
        if node is not None and node.type == "unary_expression":
            node = node.parent
        call = node.parent if node is not None and node.type == "argument_list" else None
        if call is None or call.type != "call_expression":
            return None
        return self._resolve_at(call.child_by_field_name("function"), start)

    def _named_functions(self, value: Any, start: int) -> list[tuple[str, str]]:
        """The package's functions and methods a stored value names, not calls."""
        # nodes compare by their place in the tree: a node object is made anew each time one is asked for,
        # so the id() of one made here would say nothing of the node met again below
        nodes = list(descendants(value, "call_expression", "selector_expression", "identifier"))
        called = {c.child_by_field_name("function") for c in nodes if c.type == "call_expression"}
        hits = (
            None if reference in called else self._resolve_at(reference, start)
            for reference in nodes
            if reference.type != "call_expression"
        )
        return [hit for hit in hits if hit is not None and self._callable(hit)]

    def _callable(self, target: tuple[str, str]) -> bool:
        return any(
            s.name == target[1] and s.kind in {"function", "method"}
            for _, s in self.package.get(target[1], [])
        )

    def on_element(self, call: Any, caller: Symbol | None) -> list[tuple[str, str]]:
        """`v.M()` with `v` ranging over a slice or map field of a declared variable (`for _, route :=
        range r.routes`): the element type's `M`, else every method `M` of the package (none when more than
        MAX_INFERRED have one, nor the caller's own)."""
        function = call.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        if caller is None or operand is None or operand.type != "identifier":
            return []
        ranged = self.ranges.get((caller.start, node_text(operand)))
        if ranged is None:
            return []
        method = node_text(function.child_by_field_name("field"))
        owner = self.types.get((caller.start, ranged[0]))
        element = self._element_type(owner, ranged[1]) if owner else ""
        exact = self._method(element, method) if element else None
        if exact is not None:
            return [exact]
        found = {
            (path, symbol.name)
            for path, symbol in self.package.get("." + method, [])
            if symbol.kind == "method" and symbol.name != caller.name
        }
        return sorted(found) if len(found) <= MAX_INFERRED else []

    def implementations(self, call: Any, caller: Symbol | None) -> list[tuple[str, str]]:
        """`b.NextBackOff()` with `b` (or the field `c.b`) declared by one of the package's interfaces, or
        by an interface of another package of the repository (ko's `b build.Interface`): the method of each
        type of the interface's package that has every method the interface declares, the DISPATCH largest
        (the call tree's branches; dispatch.py does the same for abstract classes)."""
        function = call.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        if caller is None or operand is None:
            return []
        if operand.type == "identifier":
            declared = self.types.get((caller.start, node_text(operand)), "")
        elif operand.type == "selector_expression":
            owner = self._field_owner(operand, caller.start)
            declared = self._field_types(owner[0]).get(owner[1], "") if owner else ""
        else:
            return []
        method = node_text(function.child_by_field_name("field"))
        home, interface = (
            self._returned_home(declared.removeprefix(_RETURNED))
            if declared.startswith(_RETURNED)
            else self._interface_home(declared)
        )
        found = self._implementers(home, interface) if interface else []
        return [hit for hit in found if hit[1].endswith("." + method)][:DISPATCH]

    def _interface_home(self, declared: str) -> tuple[str, str]:
        """The folder of the package a declared type `T` or `pkg.T` belongs to and its name: ("", "") for an
        imported package outside the repository."""
        head, _, name = declared.rpartition(".")
        if not head:
            return posixpath.dirname(self.path), name
        homes = self.calls.resolve(self.path, "go", self.imports[head]) if head in self.imports else []
        return (posixpath.dirname(homes[0]), name) if homes else ("", "")

    def _returned_home(self, called: str) -> tuple[str, str]:
        """The folder and name of the repository type the function `called` (`F`, `pkg.F`) returns first
        (`pkg, err := nfpm.Get(format)` holds an `nfpm.Packager`): ("", "") when not one of its packages'."""
        head, _, function = called.rpartition(".")
        if head and head not in self.imports:
            return "", ""
        homes = self.calls.resolve(self.path, "go", self.imports[head]) if head else [self.path]
        for home in homes:
            folder = posixpath.dirname(home)
            for path, _ in self.calls.package(folder, "go").get(function, []):
                returned = self.calls.go_results(path).get(function, "").lstrip("*")
                if returned and "." not in returned:
                    return folder, returned
        return "", ""

    def _implementers(self, folder: str, interface: str) -> list[tuple[str, str]]:
        """Every method of the types of the package in `folder` that have all the methods `interface`
        declares, and of the types the repository registers with a registry of it (goregistry.py: nfpm's
        `RegisterPackager(format, Default)` in each format's package), largest first; [] when `interface`
        is not one of that package's interfaces."""
        key = (folder, interface)
        if key in self.calls.implementers:
            return self.calls.implementers[key]
        package = self.calls.package(folder, "go")
        declared = [(p, s) for p, s in package.get(interface, []) if s.kind == "interface"]
        wanted: dict[str, int | None] = {}  # each method the interface declares → how many parameters
        for path, symbol in declared:
            for line in (self.calls.read(path) or "").splitlines()[symbol.start : symbol.end - 1]:
                if (declares := _GO_INTERFACE_METHOD.match(line)) is not None:
                    wanted[declares[1]] = go_arity(line[declares.end() - 1 :])
        owners: set[str] | None = None
        for name, arity in wanted.items():
            having = {
                s.parent
                for p, s in package.get("." + name, [])
                if s.kind == "method" and self._takes(p, s, arity)
            }
            owners = having if owners is None else owners & having
        found = [
            (path, symbol)
            for owner in sorted(owners or ())
            for name in sorted(wanted)
            for path, symbol in package.get(f"{owner}.{name}", [])[:1]
        ]
        for home, registered in registered_types(self.calls, folder, interface) if declared else ():
            methods = self.calls.package(home, "go")
            found += [
                (path, symbol)
                for name in sorted(wanted)
                for path, symbol in methods.get(f"{registered}.{name}", [])[:1]
                if self._takes(path, symbol, wanted[name])
            ]
        found = list(dict.fromkeys(found))
        found.sort(key=lambda hit: -hit[1].lines)
        self.calls.implementers[key] = [(path, symbol.name) for path, symbol in found]
        return self.calls.implementers[key]

    def _takes(self, path: str, method: Symbol, arity: int | None) -> bool:
        """Whether a Go method takes as many parameters as the interface's method of its name: chainsaw's
        `SinkFunc.Log` (8) implements its `Sink`, not its `Logger` (`Log` of 6). True when either is
        not known (a signature over several lines)."""
        lines = (self.calls.read(path) or "").splitlines()
        head = _GO_METHOD_HEAD.match(lines[method.start - 1]) if 0 < method.start <= len(lines) else None
        takes = go_arity(lines[method.start - 1][head.end() - 1 :]) if head is not None else None
        return arity is None or takes is None or takes == arity

    def _element_method(self, collection: Any, name: str, start: int) -> tuple[str, str] | None:
        """`name` of the element type of `v.field`, a slice, array or map field of a declared variable
        (freecache's `cache.segments[segID].set(…)` with `segments [segmentCount]segment`)."""
        if collection is None or collection.type != "selector_expression":
            return None
        owner = self._field_owner(collection, start)
        element = self._element_type(*owner) if owner else ""
        return self._method(element, name) if element else None

    def _element_type(self, type_name: str, field: str) -> str:
        """The element type of a struct's slice or map field, read from the struct's declaration."""
        if type_name not in self._fields:
            self._fields[type_name] = self._declared_fields(type_name, _GO_COLLECTION_FIELD)
        return self._fields[type_name].get(field, "")

    def _method(self, type_name: str, name: str, depth: int = 0) -> tuple[str, str] | None:
        """`name` of the package's type, or of a type it embeds (go-cache's `type Cache struct { *cache }`:
        every method is `cache`'s, promoted to `Cache`)."""
        hits = self.package.get(f"{type_name}.{name}", [])
        if hits:
            return (hits[0][0], hits[0][1].name)
        if depth < EMBEDDED_DEPTH:
            for embedded in self._embedded(type_name):
                if (hit := self._method(embedded, name, depth + 1)) is not None:
                    return hit
        for folder, embedded in self.calls.go_foreign_embedded(posixpath.dirname(self.path), type_name):
            foreign = self.calls.package(folder, "go").get(f"{embedded}.{name}", [])
            if foreign:
                return (foreign[0][0], foreign[0][1].name)
        return None

    def _embedded(self, type_name: str) -> list[str]:
        return self.calls.go_embedded(posixpath.dirname(self.path), type_name)

    def _typed_method(self, type_name: str, name: str) -> tuple[str, str] | None:
        """`name` of a value's type: the package's own type, or `pkg.T` of an imported package — in the
        repository when the import resolves into it, else nothing (the standard library's `sync.Pool.Put`
        is never the package's `Request.Put`)."""
        head, _, type_name = type_name.rpartition(".")
        if not head:
            return self._method(type_name, name)
        if head not in self.imports:
            return None
        for target in self.calls.resolve(self.path, "go", self.imports[head]):
            hits = self.calls.package(posixpath.dirname(target), "go").get(f"{type_name}.{name}", [])
            if hits:
                return (hits[0][0], hits[0][1].name)
        return None

    def _package_variables(self) -> dict[str, str]:
        """The package's variables declared at its top level with a type or a composite literal (`bufPool =
        &sync.Pool{…}`, `var shelf store.Shelf`) → that type, `pkg.T` when another package's; read from
        the text of the package's files, once per package."""
        folder = posixpath.dirname(self.path)
        if folder not in self.calls.variables:
            found: dict[str, str] = {}
            for path in dict.fromkeys(p for hits in self.package.values() for p, _ in hits):
                found.update(_top_level_variables(self.calls.read(path) or ""))
            self.calls.variables[folder] = found
        return self.calls.variables[folder]

    def _returned_method(self, called: str, name: str, start: int, depth: int = 0) -> tuple[str, str] | None:
        """`v.M()` where `v, err := New(…)` (or `pkg.New(…)`, or `w.Method(…)`): `M` of the type the
        function returns first, in that function's package (kong's `parser, err := New(cli)` then
        `ctx := parser.Parse(args)` then `ctx.Run()`)."""
        head, _, function = called.rpartition(".")
        if head in self.imports:
            targets = [
                (path, symbol.name)
                for path in self.calls.resolve(self.path, "go", self.imports[head])
                for path, symbol in self.calls.package(posixpath.dirname(path), "go").get(function, [])
            ]
        elif head:
            owner = self.types.get((start, head), "")
            method = (
                self._returned_method(owner.removeprefix(_RETURNED), function, start, depth + 1)
                if owner.startswith(_RETURNED) and depth < 3
                else self._method(owner, function)
                if owner
                else None
            )
            targets = [method] if method is not None else []
        else:
            targets = [
                (path, symbol.name) for path, symbol in self.package.get(function, []) if not symbol.parent
            ]
        for path, found in targets:
            returned = self.calls.go_results(path).get(found, "")
            if returned and posixpath.dirname(path) == posixpath.dirname(self.path):
                if (hit := self._method(returned, name)) is not None:  # … or of a type it embeds
                    return hit
                continue
            hits = (
                self.calls.package(posixpath.dirname(path), "go").get(f"{returned}.{name}", [])
                if returned
                else []
            )
            if hits:
                return (hits[0][0], hits[0][1].name)
        return None

    @staticmethod
    def _top_level(table: dict[str, list[tuple[str, Symbol]]], name: str) -> tuple[str, str] | None:
        hits = [(p, s) for p, s in table.get(name, []) if not s.parent]
        return (hits[0][0], hits[0][1].name) if hits else None


def go_arity(parameters: str) -> int | None:
    """How many parameters a Go parameter list opening `parameters` (`(ctx context.Context, a, b int)`)
    names: 3; None when it does not close on this text."""
    depth = commas = 0
    for index, character in enumerate(parameters):
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
            if depth == 0:
                return commas + 1 if parameters[1:index].strip() else 0
        elif character == "," and depth == 1:
            commas += 1
    return None


def go_package_name(path: str) -> str:
    """The name an import path's package goes by unless renamed: its last part, the part before a major
    version suffix (`github.com/goreleaser/nfpm/v2` is package `nfpm`)."""
    parts = path.split("/")
    return parts[-2] if len(parts) > 1 and _GO_MAJOR_VERSION.fullmatch(parts[-1]) else parts[-1]


def _go_imports(root: Any) -> dict[str, str]:
    """Local package name → import path (`cobra "github.com/spf13/cobra"`, or `go_package_name`)."""
    found: dict[str, str] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "import_spec":
            path = node_text(node.child_by_field_name("path")).strip('"`')
            alias = node.child_by_field_name("name")
            found[node_text(alias) if alias is not None else go_package_name(path)] = path
        elif node.type in {"source_file", "import_declaration", "import_spec_list"}:
            stack.extend(node.named_children)
    return found


def _go_locals(
    declarations: list[GoDeclaration],
) -> tuple[dict[tuple[int, str], str], dict[tuple[int, str], tuple[str, str]]]:
    """What each function's names hold, keyed by (first line of the enclosing function, variable), from one
    walk of each function: the type name of its receivers, parameters and `var x T` / `x := &T{…}` / `x :=
    T{…}` declarations; and the (variable, field) whose elements a name ranges over (`for _, route :=
    range r.routes` gives `route` → (`r`, `routes`))."""
    types: dict[tuple[int, str], str] = {}
    ranges: dict[tuple[int, str], tuple[str, str]] = {}
    for declaration in (d for d in declarations if d.function):
        function = declaration.node
        start = function.start_point[0] + 1
        for node in declaration.declaring:
            if node.type == "range_clause":
                _note_range(node, start, ranges)
            elif (
                node.parent is not None
                and node.parent.parent is not None
                and node.parent.parent.type == "function_type"
            ):
                continue  # `step func(w io.Writer) bool` names no variable of the function
            elif node.type == "short_var_declaration":
                _note_literal(node, start, types)
            else:
                type_name = _go_value_type(node.child_by_field_name("type"))
                for name in node.children_by_field_name("name"):
                    if type_name:
                        types[(start, node_text(name))] = type_name
        # Go never retypes a receiver or a parameter: a name declared again in an inner block or a closure
        # (`if c, ok := body.(io.ReadCloser); ok {` in a method on `c *Client`) holds there only
        for field in ("receiver", "parameters"):
            own = function.child_by_field_name(field)
            for node in (n for n in own.named_children if n.type == "parameter_declaration") if own else ():
                type_name = _go_value_type(node.child_by_field_name("type"))
                for name in node.children_by_field_name("name") if type_name else ():
                    types[(start, node_text(name))] = type_name
    return types, ranges


def _note_range(node: Any, start: int, found: dict[tuple[int, str], tuple[str, str]]) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    names = left.named_children if left is not None else []
    if right is not None and right.type == "index_expression":  # `range s.handlers[r.Method]`
        right = right.child_by_field_name("operand")
    if len(names) != 2 or right is None or right.type != "selector_expression":
        return
    operand = right.child_by_field_name("operand")
    if operand is not None and operand.type == "identifier":
        field = node_text(right.child_by_field_name("field"))
        found[(start, node_text(names[1]))] = (node_text(operand), field)


def _note_literal(node: Any, start: int, found: dict[tuple[int, str], str]) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or not left.named_children or not right.named_children:
        return
    value = right.named_children[0]
    called = value.child_by_field_name("function") if value.type == "call_expression" else None
    if called is not None and called.type in {"identifier", "selector_expression"}:
        # `x, err := New(…)`: its type is what the function returns, looked up when a method is called on it
        found[(start, node_text(left.named_children[0]))] = _RETURNED + node_text(called)
        return
    if value.type == "unary_expression":
        value = value.child_by_field_name("operand") or value
    type_name = _go_value_type(value.child_by_field_name("type")) if value.type in _GO_TYPED_VALUES else ""
    # `x.(ExitCoder)`, an interface of the package's own, says nothing of which type's method runs
    if type_name and (value.type == "composite_literal" or "." in type_name):
        found[(start, node_text(left.named_children[0]))] = type_name


_GO_TYPED_VALUES = frozenset(
    {"composite_literal", "type_assertion_expression"}
)  # `&T{…}`, `v.(*bytes.Buffer)`


def _go_made_type(node: Any) -> str:
    """The type of a value made where it is used: `new(T)`, `new(pkg.T)`, `T{…}`, `&T{…}`, `(&T{…})` — the
    package's own `T` or `pkg.T`; "" for anything else."""
    while node is not None and node.type in {"parenthesized_expression", "unary_expression"}:
        if node.type == "unary_expression" and node_text(node.child_by_field_name("operator")) != "&":
            return ""
        node = node.child_by_field_name("operand") or (
            node.named_children[0] if node.named_children else None
        )
    if node is None:
        return ""
    if node.type == "composite_literal":
        return _go_value_type(node.child_by_field_name("type"))
    function, arguments = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if node.type != "call_expression" or node_text(function) != "new" or arguments is None:
        return ""
    kinds = {"type_identifier", "qualified_type", "pointer_type", "generic_type"}
    made = [n for n in arguments.named_children if n.type in kinds]
    return _go_value_type(made[0]) if len(made) == 1 == len(arguments.named_children) else ""


def _go_value_type(node: Any) -> str:
    """A variable's type name: the package's own `T`, or `pkg.T` for another package's."""
    while node is not None and node.type in {"pointer_type", "generic_type"}:
        node = node.named_children[0] if node.named_children else None
    return node_text(node) if node is not None and node.type == "qualified_type" else go_type_name(node)


# a top-level variable with its type: `var name pkg.T`, `name = &pkg.T{` (alone or in a `var (…)` block)
_GO_VARIABLE = re.compile(
    r"^(?:var\s+|\t)(\w+)\s+(?:=\s*&?|\*?)((?:\w+\.)?[A-Za-z_]\w*)(?:\{|\s*(?://.*)?$)", re.MULTILINE
)


def _top_level_variables(text: str) -> dict[str, str]:
    """Variable → type of a Go file's top-level `var` declarations (see `_GO_VARIABLE`)."""
    found: dict[str, str] = {}
    for block in re.finditer(r"^var\s*\((.*?)^\)|^var\s+[^(\n].*$", text, re.MULTILINE | re.DOTALL):
        body = block.group(1) if block.group(1) is not None else block.group(0)
        for match in _GO_VARIABLE.finditer(body):
            found[match.group(1)] = match.group(2)
    return found


class _JsScope:
    def __init__(self, calls: TreeSitterCalls, path: str, language: str, root: Any) -> None:
        self.calls, self.path, self.language = calls, path, language
        self.local = {s.name: s for s in calls.symbols(path)}
        self._with_methods = {s.name.rpartition(".")[0] for s in self.local.values() if s.kind == "method"}
        # a function making a class's methods (`Logger.prototype.info = mkLogEmitter(INFO)`): `this` in what
        # it returns is that class's instance
        fact = calls.files.get(path)
        made = fact.made_by.items() if fact is not None else ()
        self._makers = {maker: method.rpartition(".")[0] for method, maker in made if "." in method}
        self.modules, self.names = _js_bindings(root)
        self.root = root
        self.made = named_instances(root)
        self._fields: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (class, field) → classes it holds
        self._declared: dict[tuple[int, int], dict[str, str]] = {}  # a function's TypeScript-typed names
        self._selves: dict[tuple[int, int], frozenset[str]] = {}  # a function's names for `this`
        self._kept: frozenset[str] | None = None  # fields set from parameters (`_given`)

    def callee(self, call: Any, caller: Symbol | None) -> tuple[str, str] | None:
        return self.resolve(_called(call), caller)

    def resolve(self, function: Any, caller: Symbol | None) -> tuple[str, str] | None:
        """The repository symbol a name or member expression refers to."""
        if function is None:
            return None
        if function.type == "identifier":
            return self.named(node_text(function))
        if function.type == "subscript_expression":
            # `this[writeSym](…)`: the function an object literal binds to that computed key
            index = function.child_by_field_name("index")
            return (
                self.calls.keyed(node_text(index))
                if index is not None and index.type == "identifier"
                else None
            )
        if function.type != "member_expression":
            return None
        obj, prop = (
            function.child_by_field_name("object"),
            node_text(function.child_by_field_name("property")),
        )
        if obj is None:
            return None
        owner = self._this_class(caller)
        if owner and (obj.type == "this" or self._is_this(obj)):
            hit = self.local.get(f"{owner}.{prop}")
            return (self.path, hit.name) if hit is not None else None
        if obj.type == "new_expression":  # `new Needle(…).start()`: the method of the class just made
            made_now = self.resolve(obj.child_by_field_name("constructor"), caller)
            return self._method(made_now, prop) if made_now is not None else None
        held = _this_field(obj)
        if held and owner:  # `this.router.match()`: the router's class
            found = (self._method(cls, prop) for cls in self.field_classes(owner, held))
            return next((hit for hit in found if hit is not None), None)
        owner = node_text(obj)
        if f"{owner}.{prop}" in self.local:
            return (self.path, f"{owner}.{prop}")
        if owner in self.modules:
            return self._imported(self.modules[owner], prop)
        made = self.made.get(owner)
        cls = self.resolve(made, caller) if made is not None else None
        if cls is not None:  # `const request = new Request(…)` … `request.flush()`
            return self._method(cls, prop)
        typed = self._typed(obj) if obj.type == "identifier" else None
        if typed is not None:  # `async runOrRetry(job: Job)` … `job.run()`
            return self._method(typed, prop)
        return self._mixed_in(f"{owner}.{prop}")

    def _this_class(self, caller: Symbol | None) -> str:
        """The class `this` is in the caller: a method's, or the function itself when it is a constructor
        whose prototype has methods (`function Logger(…) { … self.addStream(s) }` beside
        `Logger.prototype.addStream = function …`); "" elsewhere."""
        if caller is None:
            return ""
        if caller.parent:
            return caller.parent
        if caller.kind != "function":
            return ""
        return caller.name if caller.name in self._with_methods else self._makers.get(caller.name, "")

    def plugged(self, call: Any, caller: Symbol | None) -> list[tuple[str, str]]:
        """`this.process(task, cb)`, `self.fn.call(self, tasks, done)`: a call of a field, no method of the
        class, that the file sets from a function's parameter (`this.fn = opts.fn`, `this.onData =
        options.onData || noop`) runs what the user hands in: the field, named `Class.field`, is where the
        user's code plugs in (CallEdge.plugged)."""
        function = _called(call)
        owner = self._this_class(caller)
        if function is not None and function.type == "identifier":  # `for (const cb of this.callbacks)`
            function = _walked(function)
        elif function is not None and function.type == "subscript_expression":  # `this.handlers[name](…)`
            function = function.child_by_field_name("object")
        if function is None or function.type != "member_expression":
            return []
        name = self._this_member(function)
        if not owner or not name:
            return self._field_of_typed(function)
        if f"{owner}.{name}" in self.local or name not in self._given():
            return []
        return [(self.path, f"{owner}.{name}")]

    def _field_of_typed(self, member: Any) -> list[tuple[str, str]]:
        """`struct.validator(value, ctx)` on a name TypeScript declares of a repository class (`struct:
        Struct<T, S>`): a field of that class, no method, that the class declares with a function type
        (`validator: (value: unknown, context: Context) => Iterable<Failure>`) holds the function the call
        runs: the field, named `Class.field` (CallEdge.plugged)."""
        holder = member.child_by_field_name("object")
        cls = self._typed(holder) if holder is not None and holder.type == "identifier" else None
        scope = self.calls.js_scope(cls[0]) if cls is not None else None
        owner = scope.local.get(cls[1]) if scope is not None and cls is not None else None
        if scope is None or owner is None or cls is None:
            return []
        name = node_text(member.child_by_field_name("property"))
        if f"{cls[1]}.{name}" in scope.local:
            return []
        held = function_field(scope.root, owner.start, owner.end, name)
        return [(cls[0], f"{cls[1]}.{name}")] if held else []

    def _this_member(self, member: Any) -> str:
        """`this.x` or `self.x` (`self` an alias of `this`) → "x"; "" otherwise."""
        holder = member.child_by_field_name("object") if member.type == "member_expression" else None
        if holder is None or not (holder.type == "this" or self._is_this(holder)):
            return ""
        return node_text(member.child_by_field_name("property"))

    def _given(self) -> frozenset[str]:
        """The fields the file sets on `this` from the enclosing function's parameters: the parameter, an
        option of it (`opts.fn`), a default beside it (`opts.process || noop`) or a call wrapping it."""
        if self._kept is None:
            kept: set[str] = set()
            for node in descendants(self.root, "assignment_expression", "call_expression"):
                if node.type == "assignment_expression":  # `this.fn = opts.fn`, `this.handlers[k] = fn`
                    field, values = node.child_by_field_name("left"), [node.child_by_field_name("right")]
                    if field is not None and field.type == "subscript_expression":
                        field = field.child_by_field_name("object")
                else:  # `this._callbacks.push(callback)`: one of the elements
                    function, arguments = (
                        node.child_by_field_name("function"),
                        node.child_by_field_name("arguments"),
                    )
                    adds = function is not None and function.type == "member_expression"
                    adds = adds and node_text(function.child_by_field_name("property")) in _JS_ADDERS
                    field = function.child_by_field_name("object") if adds else None
                    values = arguments.named_children if arguments is not None else []
                name = self._this_member(field) if field is not None else ""
                if name and any(_from_parameter(value, _parameters(node)) for value in values):
                    kept.add(name)
            self._kept = frozenset(kept)
        return self._kept

    def _is_this(self, name: Any) -> bool:
        """Whether `name` is a function's alias of `this` where it stands (`var self = this`)."""
        if name.type != "identifier":
            return False
        wanted = node_text(name)
        for function in enclosing_functions(name):
            key = (function.start_byte, function.end_byte)
            if key not in self._selves:
                self._selves[key] = this_aliases(function)
            if wanted in self._selves[key]:
                return True
        return False

    def _typed(self, name: Any) -> tuple[str, str] | None:
        """The repository class TypeScript declares `name` of, where it stands: a parameter or typed
        variable of the innermost function declaring that name."""
        wanted = node_text(name)
        for function in enclosing_functions(name):
            key = (function.start_byte, function.end_byte)
            if key not in self._declared:
                self._declared[key] = declared_types(function)
            if wanted in self._declared[key]:
                return self._class_named(self._declared[key][wanted])
        return None

    def _class_named(self, name: str, depth: int = 0) -> tuple[str, str] | None:
        """The repository class `name` refers to here, through a type alias adding to one (`type
        JobWithId = Job & {…}`)."""
        found = self.named(name) if name else None
        kinds = {s.kind for s in self.calls.symbols(found[0]) if s.name == found[1]} if found else set()
        if found is None or "class" in kinds:
            return found
        alias = _aliased(self.calls.read(found[0]) or "", name) if "type" in kinds and depth < 2 else ""
        scope = self.calls.js_scope(found[0]) if alias else None
        return scope._class_named(alias, depth + 1) if scope is not None else None

    def family(self, call: Any) -> list[tuple[str, str]]:
        """`storage._handleFile()` or `this.storage._handleFile()` left unresolved: the `_handleFile` of
        the classes named like the receiver's last word (DiskStorage, MemoryStorage; dispatch.Families)."""
        function = _called(call)
        if function is None or function.type != "member_expression":
            return []
        obj = function.child_by_field_name("object")
        if obj is None:
            return []
        name = _this_field(obj) or (node_text(obj) if obj.type == "identifier" else "")
        method = node_text(function.child_by_field_name("property"))
        return self.calls.families.of(self.language, name, method) if name else []

    def field_classes(self, cls: str, field: str) -> list[tuple[str, str]]:
        """The classes a field of `cls` is given an instance of (`this.router = new SmartRouter(…)`) in
        the class, or in a subclass another file declares (hono's `Hono extends HonoBase` sets the router
        its base class matches with)."""
        if (cls, field) not in self._fields:
            owner = self.local.get(cls)
            found: list[tuple[str, str]] = []
            if owner is not None:
                made = field_instances(self.root, owner.start, owner.end, field)
                found += [hit for node in made if (hit := self.resolve(node, None)) is not None]
                # `private agenda: Agenda;`, `constructor(private queue: Queue)`: the type it declares
                declared = self._class_named(declared_field_type(self.root, owner.start, owner.end, field))
                found += [declared] if declared is not None else []
                for path, symbol in subclasses(self.calls.files, self.path, cls):
                    scope = self.calls.js_scope(path)
                    made = field_instances(scope.root, symbol.start, symbol.end, field) if scope else []
                    found += [
                        hit for node in made if scope and (hit := scope.resolve(node, None)) is not None
                    ]
            self._fields[(cls, field)] = list(dict.fromkeys(found))
        return self._fields[(cls, field)]

    def _method(self, cls: tuple[str, str], name: str) -> tuple[str, str] | None:
        qualified = f"{cls[1]}.{name}"
        found = any(s.name == qualified and s.kind in CALLABLE_KINDS for s in self.calls.symbols(cls[0]))
        return (cls[0], qualified) if found else None

    def named(self, name: str) -> tuple[str, str] | None:
        """The repository symbol a bare name refers to: the file's own function or class, else an import."""
        if name in self.local and self.local[name].kind in CALLABLE_KINDS | {"class"}:
            return (self.path, name)
        if name in self.names:
            return self._imported(self.names[name], name)
        # a default import or a required module called as a function: what that module exports
        return self._imported(self.modules.get(name), name)

    def _mixed_in(self, qualified: str) -> tuple[str, str] | None:
        """A method called on a local object that a required module's object of the same name defines
        (express: `var app = function …; mixin(app, proto)` then `app.handle()`, where
        `require('./application')` defines `app.handle`): that definition, when only one module has it."""
        found = {
            (target, symbol.name)
            for spec in {*self.modules.values(), *self.names.values()}
            if spec.startswith(".")
            for target in self.calls.resolve(self.path, self.language, spec)
            for symbol in self.calls.symbols(target)
            if symbol.name == qualified and symbol.kind in CALLABLE_KINDS
        }
        return found.pop() if len(found) == 1 else None

    def _imported(self, spec: str | None, name: str) -> tuple[str, str] | None:
        return _defined(self.calls, self.path, self.language, spec, name, set()) if spec else None


def _defined(
    calls: TreeSitterCalls, path: str, language: str, spec: str, name: str, seen: set[str]
) -> tuple[str, str] | None:
    """Where `name`, imported from `spec` in `path`, is defined: the module `spec` names, or, for a barrel
    module that only re-exports (immer's `internal.ts`: `export * from "./core/finalize"`), the module it
    re-exports the name from, followed a few modules deep."""
    for target in calls.resolve(path, language, spec):
        if target in seen or len(seen) > 64:
            continue
        seen.add(target)
        for symbol in calls.symbols(target):
            if symbol.name == name or (symbol.short_name == name and symbol.exported):
                return (target, symbol.name)
        facts = calls.files.get(target)
        for inner in facts.imports if facts is not None else []:
            if inner.startswith("."):
                found = _defined(calls, target, language, inner, name, seen)
                if found is not None:
                    return found
    return None


def _aliased(text: str, name: str) -> str:
    """The type a TypeScript alias `name` stands for, alone or intersected (`type JobWithId = Job & {…}`)."""
    found = re.search(
        rf"^\s*(?:export\s+)?type\s+{re.escape(name)}\b[^=\n]*=\s*([A-Za-z_$][\w$]*)\s*(?:<[^\n]*?>)?\s*(?:&|;|$)",
        text,
        re.M,
    )
    return found.group(1) if found else ""


def _this_field(node: Any) -> str:
    """`this.router` → "router" ("" for any other expression)."""
    if node.type != "member_expression":
        return ""
    obj = node.child_by_field_name("object")
    return node_text(node.child_by_field_name("property")) if obj is not None and obj.type == "this" else ""


def _js_bindings(root: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Module-level `const x = require('./x')` / `import x from` (x → spec) and destructured or named
    imports (`const { A } = require('./a')`, `import { A } from './a'`: A → spec)."""
    modules: dict[str, str] = {}
    names: dict[str, str] = {}
    for node in root.named_children:
        if node.type in {"lexical_declaration", "variable_declaration"}:
            for declarator in node.named_children:
                spec = _required(declarator.child_by_field_name("value"))
                target = declarator.child_by_field_name("name")
                if spec and target is not None:
                    if target.type == "identifier":
                        modules[node_text(target)] = spec
                    else:
                        names.update(
                            {node_text(n): spec for n in target.named_children if n.named_child_count == 0}
                        )
        elif node.type == "import_statement":
            spec = node_text(node.child_by_field_name("source")).strip("'\"`")
            _note_import_clause(node, spec, modules, names)
    return modules, names


def _note_import_clause(node: Any, spec: str, modules: dict[str, str], names: dict[str, str]) -> None:
    for clause in node.named_children:
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                modules[node_text(part)] = spec
            elif part.type == "namespace_import":
                modules.update({node_text(n): spec for n in part.named_children})
            elif part.type == "named_imports":
                for item in part.named_children:
                    alias = item.child_by_field_name("alias") or item.child_by_field_name("name")
                    names[node_text(alias)] = spec


def _required(value: Any) -> str:
    if value is None or value.type != "call_expression":
        return ""
    if node_text(value.child_by_field_name("function")) != "require":
        return ""
    arguments = value.child_by_field_name("arguments")
    strings = [c for c in arguments.named_children if c.type == "string"] if arguments is not None else []
    return node_text(strings[0]).strip("'\"`") if strings else ""


def _parameters(node: Any) -> set[str]:
    """The names of the parameters of the function around `node`."""
    functions = enclosing_functions(node)
    parameters = functions[0].child_by_field_name("parameters") if functions else None
    return {node_text(n) for n in descendants(parameters, "identifier")}


def _walked(name: Any) -> Any:
    """The collection a loop's variable walks (`for (const cb of this.callbacks)` → `this.callbacks`), else
    None."""
    scope = name.parent
    wanted = node_text(name)
    while scope is not None and scope.type not in {"function_declaration", "method_definition", "program"}:
        if scope.type == "for_in_statement":
            left = scope.child_by_field_name("left")
            if left is not None and node_text(left) == wanted:
                return scope.child_by_field_name("right")
        scope = scope.parent
    return None


def _from_parameter(value: Any, parameters: set[str]) -> bool:
    """A JS value that is one of `parameters`, an option of one (`opts.fn`), a default beside one
    (`opts.process || noop`, `a ?? b`) or a call wrapping one (`this._fnWrap(onTick)`)."""
    if value is None or not parameters:
        return False
    if value.type == "identifier":
        return node_text(value) in parameters
    if value.type == "member_expression":
        obj = value.child_by_field_name("object")
        return obj is not None and obj.type == "identifier" and node_text(obj) in parameters
    if value.type in {"binary_expression", "parenthesized_expression"}:
        return any(_from_parameter(child, parameters) for child in value.named_children)
    if value.type == "call_expression":
        arguments = value.child_by_field_name("arguments")
        found = arguments.named_children if arguments is not None else []
        return any(a.type == "identifier" and node_text(a) in parameters for a in found)
    return False


def _called(call: Any) -> Any:
    """The node a JS/TS call calls: `dispatchRequest.call(this, config)` and `.apply(…)` call dispatchRequest;
    `new Request(…)` calls the class (its constructor)."""
    if call.type == "new_expression":
        return call.child_by_field_name("constructor")
    function = call.child_by_field_name("function")
    if function is not None and function.type == "member_expression":
        if node_text(function.child_by_field_name("property")) in {"call", "apply"}:
            return function.child_by_field_name("object")
    return function


Scope = _GoScope | _JsScope | JavaScope | NativeScope
