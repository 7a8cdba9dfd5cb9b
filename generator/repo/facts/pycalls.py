"""Python calls resolved to repository symbols with `ast`: through imports (names, modules and aliases,
package re-exports followed), `self.method()`/`cls.method()` (inherited ones too), attributes typed in the
class (`self.adapter = HTTPAdapter()`), parameters and locals with a known class (`x: Request`,
`x = Session()`), a receiver named after a class (`adapter.send()` → the `…Adapter` class that
defines `send`), a method bound to a local (`render = self.render`), a `with` statement's context manager
(its `__enter__` and `__exit__`) and an awaited object of the repository's (its `__await__`). A call on an element of a collection the class keeps is inferred
(pyelements.py); what else cannot be resolved statically is left out rather than guessed wider.
"""

from __future__ import annotations

import ast
import builtins
import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from generator.repo.facts.branches import python_regions, share_at
from generator.repo.facts.fanin import module_stem
from generator.repo.facts.pyelements import (
    ADDERS,
    BUILTIN_METHODS,
    MAX_INFERRED,
    ElementOf,
    element_names,
    element_receiver,
    element_type,
    self_attribute,
    stored_elements,
)
from generator.repo.facts.pysource import last_name
from generator.repo.facts.pytypes import (
    ITSELF,
    NO_TYPES,
    DeclaredTypes,
    declared_types,
    is_property,
    top_level,
)
from generator.repo.model import CallEdge, Symbol

Target = tuple[str, str]  # (path, qualified symbol name); name "" for a module
MAX_BASE_DEPTH = 6
MAX_REEXPORTS = 4  # packages a name is followed through to where it is defined
MAX_CHAIN = 3  # attributes followed from `self` to a call's receiver (`self.broker.formatter.loads()`)
IMPORT_STRING = re.compile(r"([A-Za-z_][\w.]*):([A-Za-z_]\w*)")  # "pkg.module:Symbol"
BUILTINS = frozenset(dir(builtins))  # isinstance(x, Cls) and the like are handed no class to make
# typing's helpers name a class without making one: cast(Cls, x), TypeVar("T", bound=Cls)
TYPE_HELPERS = frozenset({"cast", "TypeVar", "NewType", "assert_type", "reveal_type", "get_type_hints"})
# the keys a table of commands files each command's function or class under (`set_defaults(func=run)`)
DISPATCH_KEYS = frozenset({"func", "handler", "command", "callback", "run"})
DISPATCH_KEYED = 3  # commands followed from one call through such a key, the largest first
# a container's lookups: their first argument is a key or an element sought (`PARSERS.get(column_type)`),
# no class handed to anyone who makes it
LOOKUPS = frozenset({"get", "pop", "setdefault", "index", "count", "remove", "discard", "__getitem__"})
OPTIONAL = frozenset({"Optional", "Annotated"})  # generics naming one class, not a container of it
UNKNOWN: ast.expr = ast.Constant(None)  # a local whose class is not known
# a function's body as read: (caller, owning class, its locals, its calls, its side paths' line spans)
Body = tuple[str, str, dict[str, ast.expr], list[ast.Call], list[tuple[int, int, float]]]


class HeldFunction(ast.expr):
    """An attribute set to a function or method rather than to what calling one gives (`self._inner =
    _multicall`, `self.handle = self.handle_sync`): calling the attribute calls it."""

    _fields = ()

    def __init__(self, value: ast.expr) -> None:
        super().__init__()
        self.value = value


class LocalImport(ast.expr):
    """A name a function imports in its own body (`from .core import main`): lazy imports of a CLI."""

    _fields = ()

    def __init__(self, module: str, name: str) -> None:
        super().__init__()
        self.module, self.name = module, name


class Awaited(ast.Call):
    """`await EXPR` read as the call it makes without writing it, `EXPR.__await__()`: an awaitable object
    of the repository's (beanie's `await Initializer(…)`, `await Document.find_one(…)` giving a `FindOne`)
    runs its `__await__`."""


class Entered(ast.expr):
    """A name a `with` statement binds (`async with db.executor() as executor`): what entering its context
    manager gives, not the manager itself."""

    _fields = ()

    def __init__(self, manager: ast.expr, asynchronous: bool) -> None:
        super().__init__()
        self.manager, self.asynchronous = manager, asynchronous


@dataclass
class ModuleScope:
    """What one Python module's names refer to."""

    path: str
    names: dict[str, Target] = field(default_factory=dict)  # imported or defined name → target
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    # a module constant of import strings (`HTTP_PROTOCOLS = {"h11": "pkg.http.h11:H11Protocol"}`) → the
    # repository symbols they name: a function reading it hands them to the loader
    loaded: dict[str, list[Target]] = field(default_factory=dict)
    # a module constant mapping keys to the repository's functions or classes (`RENDERERS = {"json":
    # JSONRenderer, …}`): a call of one of its values (`RENDERERS[kind](…)`) may reach each of them
    tables: dict[str, list[ast.expr]] = field(default_factory=dict)
    # what the module files under a dispatch key (`{"name": "bump", "func": commands.Bump}` in a table of
    # subcommands, `parser.set_defaults(func=run)`): a call through that key (`args.func(…)`) reaches them
    keyed: dict[str, list[ast.expr]] = field(default_factory=dict)
    # its functions' return annotations (`def make_server(…) -> BaseWSGIServer`: a local bound to their result
    # holds that class), its TypeVars' bounds…, read from its tree (pytypes.py); None for a light scope
    types: DeclaredTypes | None = None
    _symbols: list[tuple[str, Target]] | None = field(default=None, init=False, repr=False)
    _named_like: dict[str, list[Target]] = field(default_factory=dict, init=False, repr=False)

    def named_like(self, wanted: str) -> list[Target]:
        """The symbols bound to a name that ends like `wanted` (lower-cased: a receiver `adapter` names an
        `HTTPAdapter`), in binding order. Kept: once a scope is built, only modules are bound to it."""
        if self._symbols is None:
            self._symbols = [(name.lower(), target) for name, target in self.names.items() if target[1]]
        if wanted not in self._named_like:
            self._named_like[wanted] = [target for name, target in self._symbols if name.endswith(wanted)]
        return self._named_like[wanted]


@dataclass
class ClassInfo:
    name: str
    methods: set[str] = field(default_factory=set)
    bases: list[ast.expr] = field(default_factory=list)
    attributes: dict[str, ast.expr] = field(default_factory=dict)  # self.x = Cls(...) → x: Cls(...)
    elements: dict[str, list[ast.expr]] = field(default_factory=dict)  # self.xs.append(Cls(...)) → xs
    tables: dict[str, list[ast.expr]] = field(default_factory=dict)  # splitters = {"row": RowSplitter}
    aliases: dict[str, str] = field(default_factory=dict)  # _parse = _parseNoCache → _parse: _parseNoCache
    # attributes a method keeps from its parameters (`self.handler = handler`, `self.job_func =
    # partial(job_func)`): a call of one runs what the caller handed in (CallEdge.plugged)
    given: set[str] = field(default_factory=set)
    properties: set[str] = field(default_factory=set)  # methods read as attributes (`@property`)


@dataclass
class PythonCalls:
    """Reads Python modules' calls. `resolve_import(path, raw)` resolves an import target as the facts
    stage does; `symbols(path)` gives a file's symbols; `names_from(path)` the names it imports from each
    repository file; `tree(path)` its parsed module (None: unreadable); `package(path)` the Python modules of
    its folder (itself included).

    Only the files whose calls are read are parsed: the others a call leads into (a re-export followed, a
    base class looked up) are known from the facts alone (`_light_scope`)."""

    resolve_import: Callable[[str, str], list[str]]
    symbols: Callable[[str], list[Symbol]]
    names_from: Callable[[str], dict[str, list[str]]]
    tree: Callable[[str], ast.Module | None]
    package: Callable[[str], list[str]] = field(default=lambda path: [path])
    # a receiver's name and a method → the methods of the family of classes it names (dispatch.Families)
    family: Callable[[str, str], list[Target]] = field(default=lambda receiver, method: [])
    scopes: dict[str, ModuleScope] = field(default_factory=dict)
    # a module's class → what gives the class of each attribute it sets on `self` (`class_attributes`), read
    # from that module's own tree, so a chain of attributes is typed alike from every module
    attributes: Callable[[str, str], dict[str, ast.expr]] = field(default=lambda path, cls: {})
    # a module's module-level function by name (None when not one), read from that module's own tree
    function: Callable[[str, str], ast.FunctionDef | ast.AsyncFunctionDef | None] = field(
        default=lambda path, name: None
    )
    # a module's declared types (pytypes.py), read from that module's own tree
    types: Callable[[str], DeclaredTypes] = field(default=lambda path: NO_TYPES)
    # file → its symbols' names, each with whether a class goes by it: resolving a call asks a file
    # whether it defines a name many times over (the facts do not change while calls are read)
    _defined: dict[str, dict[str, bool]] = field(default_factory=dict, init=False, repr=False)

    def edges(self, path: str) -> list[CallEdge]:
        """Calls made by `path`'s functions and methods (module-level calls under caller "")."""
        module = self.tree(path)
        if module is None:
            return []
        scope = self.scopes[path] = self._build_scope(path, module)
        # one walk per function; the attributes a class's methods assign are known before any is resolved
        bodies = []
        for caller, owner, function in _functions(module):
            regions: list[tuple[int, int, float]] = []
            contexts: list[ast.withitem] = []
            awaits: list[ast.Await] = []
            attributes = scope.classes[owner].attributes if owner else None
            local, calls = read_body(function, attributes, regions, contexts, awaits)
            made = [*calls, *_entered(contexts), *map(_awaited, awaits)]
            bodies.append((caller, owner, local, made, regions))
            for key, value in _defaults(calls):
                scope.keyed.setdefault(key, []).append(value)
            if owner:
                for attribute, stored in stored_elements(calls, local).items():
                    scope.classes[owner].elements.setdefault(attribute, []).extend(stored)
                scope.classes[owner].given.update(_kept_parameters(function))
        return self.resolved(scope, bodies)

    def resolved(self, scope: ModuleScope, bodies: list[Body]) -> list[CallEdge]:
        """The edges of some functions' calls: (caller, owning class, its locals, its calls, the side paths
        of its body) each."""
        found: dict[tuple[str, str, str, int], CallEdge] = {}
        for caller, owner, local, calls, regions in bodies:
            for call in calls:
                if isinstance(call, Awaited):  # no guess: the awaitable's class is known or nothing is called
                    awaits = self._awaits(scope, owner, local, call)
                    if awaits is not None:
                        edge = CallEdge(
                            scope.path, caller, *awaits, call.lineno, share_at(regions, call.lineno)
                        )
                        found.setdefault((caller, edge.callee_path, edge.callee, edge.line), edge)
                    continue
                called = self._target(scope, owner, local, call.func)
                plugged: list[Target] = []
                targets = [
                    (called, False, False, False),
                    *((t, True, False, False) for t in self._handed(scope, owner, local, call, called)),
                    *((t, True, False, False) for t in _loaded(scope, local, call)),
                ]
                if called is None:
                    elements = self._elements(scope, owner, local, call.func)
                    elements += self._tabled(scope, owner, local, call.func)
                    targets += [(t, False, True, False) for t in elements]
                    targets += [(t, False, False, True) for t in self._through_key(scope, call.func)]
                    if not elements:  # a receiver named after a family of classes (dispatch.Families)
                        targets += [(t, False, False, True) for t in self._family(call.func)]
                    if not any(t for t, *_ in targets):  # nothing of the repository's: handed in
                        plugged = _plugged(scope, owner, local, call.func)
                        targets += [(t, False, False, False) for t in plugged]
                share = share_at(regions, call.lineno)
                for target, handed, inferred, dispatched in targets:
                    guessed = inferred or dispatched
                    if target is not None and target[1] and (not guessed or target != (scope.path, caller)):
                        edge = CallEdge(
                            scope.path,
                            caller,
                            target[0],
                            target[1],
                            call.lineno,
                            share,
                            handed,
                            inferred,
                            dispatched,
                            plugged=target in plugged,
                        )
                        found.setdefault((caller, edge.callee_path, edge.callee, edge.line), edge)
        return sorted(found.values(), key=lambda e: (e.line, e.callee))

    def _through_key(self, scope: ModuleScope, function: ast.expr) -> list[Target]:
        """`args.func(config, arguments)`: a call through a dispatch key the module files its commands
        under (`ModuleScope.keyed`) reaches each of them, the DISPATCH largest; a call of what that call
        gives (`args.func(config, arguments)()`, commitizen's cli.py:722) runs a command class's
        `__call__`. [] when the receiver is none of the module's tables of commands."""
        called = isinstance(function, ast.Call)
        through = function.func if isinstance(function, ast.Call) else function
        if not isinstance(through, ast.Attribute) or through.attr not in scope.keyed:
            return []
        found: list[tuple[int, Target]] = []
        for value in scope.keyed[through.attr]:
            target = self._target(scope, "", {}, value)
            is_class = target is not None and self._names(target[0]).get(target[1])
            hit = self.method(target[0], target[1], "__call__") if target and called and is_class else target
            if hit is not None and hit[1] and (is_class or not called):
                size = next((s.lines for s in self.symbols(hit[0]) if s.name == hit[1]), 0)
                found.append((size, hit))
        found.sort(key=lambda item: -item[0])
        return list(dict.fromkeys(hit for _, hit in found))[:DISPATCH_KEYED]

    def _family(self, function: ast.expr) -> list[Target]:
        """`self._sink.write()` or `sink.write()` left unresolved: the `write` of the classes named like the
        receiver's last word (dispatch.Families), each a possible callee."""
        if not isinstance(function, ast.Attribute):
            return []
        receiver = function.value
        if isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name):
            name = receiver.attr if receiver.value.id == "self" else ""
        else:
            name = (
                receiver.id if isinstance(receiver, ast.Name) and receiver.id not in {"self", "cls"} else ""
            )
        return self.family(name, function.attr) if name else []

    def _handed(
        self,
        scope: ModuleScope,
        owner: str,
        local: dict[str, ast.expr],
        call: ast.Call,
        receiver: Target | None = None,
    ) -> list[Target | None]:
        """The repository functions a call hands over by name (`raw_main(main_program=program)`,
        `Thread(target=work)`), alone or in a literal dict, list, tuple or set (a registry's
        `register_all({"load": run_load})`): the callee calls them, so the caller's flow leads there. A
        class handed to anything but a builtin (`HTTPServer(address, Handler)`, a local or parameter holding
        one, `handler: type[Handler]`) is made and called back by the receiver (callbacks.py), unless the
        receiver is a function of the repository that only reads the class's attributes (`receiver`: ormar's
        `create_dummy_model(to, to_field)` asks the model its name and saves nothing), and unless the class
        is the calling method's own or a subclass of it (ormar's `ModelRow.from_row` handing the `Model`
        it was given on to the next row's `from_row`): a class working on its own kind plugs in nothing. The
        key of a container's lookup (`PARSERS.get(column_type)`, LOOKUPS) is handed to no one."""
        looked_up = receiver is None and isinstance(call.func, ast.Attribute) and call.func.attr in LOOKUPS
        values = [*(call.args[1:] if looked_up else call.args), *(keyword.value for keyword in call.keywords)]
        names = [v.id for v in _handed_values(values) if isinstance(v, ast.Name)]
        # a method of the instance handed over (`HookCaller(name, self._hookexec)`)
        info = scope.classes.get(owner)
        properties = info.properties if info is not None else set()
        bound = [
            v.attr
            for v in values
            if isinstance(v, ast.Attribute) and _is_self(v.value) and v.attr not in properties  # a value read
        ]
        named = call.func.id if isinstance(call.func, ast.Name) else ""
        called = named or getattr(call.func, "attr", "")
        to_builtin = (named in BUILTINS and named not in local) or called in TYPE_HELPERS
        found: list[Target | None] = []
        for name in names:
            value = local.get(name)
            if isinstance(value, LocalImport):
                target = self._imported(scope.path, value.module, value.name)
            elif value is None:
                target = scope.names.get(name)
            else:
                target = None if to_builtin else self._class_held(scope, value)
            is_class = target is not None and target[1] and self._names(target[0]).get(target[1])
            if is_class and receiver is not None and self._only_reads(receiver, call, name):
                continue
            if is_class and owner and target is not None and self._kin(target, (scope.path, owner)):
                continue  # a model class handing its own kind around works on it: it plugs in no handler
            if target is not None and target[1] and (is_class is False or (is_class and not to_builtin)):
                found.append(target)
        found.extend(self.method(scope.path, owner, name) for name in bound if owner and not to_builtin)
        return found

    def _kin(self, handed: Target, owner: Target) -> bool:
        """Whether the class handed over is the calling method's own class or one of its subclasses."""
        return handed == owner or owner in self._ancestors(handed)

    def _only_reads(self, called: Target, call: ast.Call, name: str) -> bool:
        """Whether `called`, a module-level function of the repository, does nothing with the parameter
        `call` gives the local `name` but read its attributes (`base_model.get_name()`): it neither calls
        it, stores it, returns it nor passes it on, so no one calls the class back. False when the
        parameter is not known."""
        path, function = called
        if "." in function or self._names(path).get(function) is not False:
            return False
        definition = self.function(path, function)
        parameter = _parameter_given(definition, call, name) if definition is not None else None
        if definition is None or parameter is None:
            return False
        read = {id(node.value) for node in ast.walk(definition) if isinstance(node, ast.Attribute)}
        uses = [n for n in ast.walk(definition) if isinstance(n, ast.Name) and n.id == parameter]
        return all(id(use) in read for use in uses)

    def _tabled(
        self, scope: ModuleScope, owner: str, local: dict[str, ast.expr], func: ast.expr
    ) -> list[Target]:
        """The functions or classes a call may reach through a table it looks its callee up in
        (`RENDERERS[kind](…)`, `self.splitters[name]()`, `server = server_names.get(name); server(…)`,
        a local dict literal's): each of the table's values the graph resolves."""
        if isinstance(func, ast.Name) and isinstance(local.get(func.id), ast.Subscript | ast.Call):
            func = local[func.id]  # a local bound to the looked-up value, called later
        looked = _looked_up_in(func)
        values: list[ast.expr | None] = []
        within: dict[str, ast.expr] = {}  # a module's or class's table names what the module binds
        if isinstance(looked, ast.Name) and looked.id in local:
            held = local[looked.id]
            values, within = (list(held.values) if isinstance(held, ast.Dict) else []), local
        elif isinstance(looked, ast.Name):
            values = list(scope.tables.get(looked.id, []))
        elif isinstance(looked, ast.Attribute) and _is_self_or_cls(looked.value) and owner in scope.classes:
            values = list(scope.classes[owner].tables.get(looked.attr, []))
        hits = [self._target(scope, owner, within, value) for value in values if value is not None]
        return list(dict.fromkeys(hit for hit in hits if hit is not None and hit[1]))

    def _class_held(self, scope: ModuleScope, value: ast.expr) -> Target | None:
        """The repository class a local is annotated to hold (`handler: type[Handler] | None`); a local
        bound to a bare name may be an instance annotated with its class, and is no class handed over."""
        if isinstance(value, ast.BinOp):  # type[Handler] | None
            return self._class_held(scope, value.left) or self._class_held(scope, value.right)
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name | ast.Attribute):
            kind = value.value.id if isinstance(value.value, ast.Name) else value.value.attr
            # not a TypeVar's bound: a `type[T]` parameter holds the user's subclass, whose protocol is unknown
            return self._class_of(scope, value.slice, bounds=False) if kind in {"type", "Type"} else None
        return None

    def _elements(
        self, scope: ModuleScope, owner: str, local: dict[str, ast.expr], func: ast.expr
    ) -> list[Target]:
        """The methods a call on an element of the class's collection may reach (pyelements.py): the method
        on the classes stored there and their subclasses in the package, else on every class of the package
        defining it; none when more than MAX_INFERRED do."""
        attribute = element_receiver(func, local) if owner else None
        info = scope.classes.get(owner)
        if attribute is None or info is None or not isinstance(func, ast.Attribute):
            return []
        typed = info.attributes.get(attribute)
        stored = [*info.elements.get(attribute, ()), *([element_type(typed)] if typed is not None else [])]
        known = {cls for value in stored if (cls := self._class_of(scope, value)) is not None}
        found = {hit for cls in known if (hit := self.method(cls[0], cls[1], func.attr)) is not None}
        kinds = {cls[1] for cls in known}
        if not known and func.attr in BUILTIN_METHODS:
            return []
        for path in self.package(scope.path):
            for symbol in self.symbols(path):
                if symbol.kind != "method" or symbol.short_name != func.attr or "." in symbol.parent:
                    continue
                owner_class = next((s for s in self.symbols(path) if s.name == symbol.parent), None)
                bases = {b.rsplit(".", 1)[-1] for b in owner_class.bases} if owner_class else set()
                if not known or bases & kinds:
                    found.add((path, symbol.name))
        return sorted(found) if len(found) <= MAX_INFERRED else []

    # --- scopes ------------------------------------------------------------------------------------

    def scope(self, path: str) -> ModuleScope | None:
        if path not in self.scopes:
            self.scopes[path] = self._light_scope(path)
        return self.scopes[path]

    def _light_scope(self, path: str) -> ModuleScope:
        """A module's names and classes from the facts: its definitions, the names it imports by name,
        its classes' methods and bases (attributes and module imports are not known without parsing)."""
        scope = ModuleScope(path)
        for target, names in self.names_from(path).items():
            for name in names:
                scope.names[name] = (target, name)
        for symbol in self.symbols(path):
            if not symbol.parent:
                scope.names[symbol.name] = (path, symbol.name)
            if symbol.kind == "class" and not symbol.parent:
                scope.classes[symbol.name] = ClassInfo(
                    symbol.name, bases=list(map(_expression, symbol.bases))
                )
            elif symbol.parent in scope.classes:
                scope.classes[symbol.parent].methods.add(symbol.short_name)
        return scope

    def _build_scope(self, path: str, module: ast.Module) -> ModuleScope:
        scope = ModuleScope(path, types=declared_types(module))
        for node in top_level(module.body):
            if isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                for alias in node.names:
                    if alias.name != "*":
                        target = self._imported(path, base, alias.name)
                        if target is not None:
                            scope.names[alias.asname or alias.name] = target
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self._import_module(scope, path, alias)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                scope.names[node.name] = (path, node.name)
            elif isinstance(node, ast.ClassDef):
                scope.names[node.name] = (path, node.name)
                scope.classes[node.name] = _class_info(node)
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                self._note_import_strings(scope, node)
                scope.tables.update(_tables(node))
                for key, value in _keyed_values(node.value):
                    scope.keyed.setdefault(key, []).append(value)
        return scope

    def _note_import_strings(self, scope: ModuleScope, node: ast.Assign | ast.AnnAssign) -> None:
        """`NAME = {"key": "pkg.module:Symbol", …}` (or one such string, or a list of them): the
        repository symbols the constant's import strings name."""
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        assert node.value is not None
        strings = [v.value for v in _handed_values([node.value]) if isinstance(v, ast.Constant)]
        found = [
            hit
            for text in strings
            if isinstance(text, str)
            and (match := IMPORT_STRING.fullmatch(text))
            and (hit := self._imported(scope.path, match[1], match[2])) is not None
            and hit[1]
        ]
        for name in names if found else []:
            scope.loaded[name] = found

    def _import_module(self, scope: ModuleScope, path: str, alias: ast.alias) -> None:
        if alias.asname:
            hits = self.resolve_import(path, alias.name)
            if hits:
                scope.names[alias.asname] = (hits[0], "")
            return
        head = alias.name.split(".", 1)[0]  # `import a.b` binds `a`; `a.b.f()` is followed by _attribute
        hits = self.resolve_import(path, head)
        if hits:
            scope.names.setdefault(head, (hits[0], ""))

    def _imported(self, path: str, module: str, name: str) -> Target | None:
        hits = self.resolve_import(path, f"{module}:{name}")
        if not hits:
            return None
        hit = hits[0]
        if module_stem(hit) == name:
            # `from pkg import submodule`, unless the module named is the one defining it, under its own name
            # (`from ._emoji_replace import _emoji_replace`, `from .cron import cron`)
            named = module.rpartition(".")[2] == name
            return (named and self.defined(hit, name)) or (hit, "")
        return self.defined(hit, name)

    def defined(self, path: str, name: str, depth: int = 0) -> Target | None:
        """Where `name`, taken from module `path`, is defined: there, or where that module imports it from."""
        if name in self._names(path):
            return (path, name)
        scope = self.scope(path) if depth < 4 else None
        if scope is not None and name in scope.names and scope.names[name][0] != path:
            return scope.names[name]
        return None

    # --- resolving one call -------------------------------------------------------------------------

    def _target(
        self, scope: ModuleScope, owner: str, local: dict[str, ast.expr], func: ast.expr
    ) -> Target | None:
        if isinstance(func, ast.Name):
            value = local.get(func.id)
            if isinstance(value, LocalImport):
                return self._imported(scope.path, value.module, value.name)
            if isinstance(value, ast.Attribute):  # `render = self.render`: a method bound to a local
                return self._target(scope, owner, local, value)
            if value is not None:
                return None  # a local variable holding a callable: not statically known
            return scope.names.get(func.id)
        if not isinstance(func, ast.Attribute):
            return None
        receiver, method = func.value, func.attr
        if isinstance(receiver, ast.Name) and receiver.id in {"self", "cls"} and owner:
            return self.method(scope.path, owner, method) or self._held(scope, owner, method)
        if isinstance(receiver, ast.Attribute) and owner:
            # self.adapter.send(), self.broker.formatter.loads(): the class of each attribute in turn
            cls = self._attribute_class(scope, owner, receiver)
            if cls is not None:
                return self.method(cls[0], cls[1], method)
        if isinstance(receiver, ast.Name):
            return self._on_name(scope, owner, local, receiver.id, method)
        if _is_super(receiver) and owner:  # `super().run()`: the method a base class gives
            return self._inherited(scope, owner, method)
        if isinstance(receiver, ast.Call):  # `Session().send()`, `with Lock():` — a class's new instance
            # or what a function or method gives (`self.find_one(q).update()`)
            cls = self._class_of(scope, receiver) or self._returned(scope, owner, local, receiver)
            return self.method(cls[0], cls[1], method) if cls else None
        base = self._target(scope, owner, local, receiver) if isinstance(receiver, ast.Attribute) else None
        if base is not None and not base[1]:
            return self.defined(base[0], method) or self._submodule(base[0], method)
        return None

    def _attribute_class(
        self, scope: ModuleScope, owner: str, value: ast.expr, depth: int = 0
    ) -> Target | None:
        """The repository class of `self.a.b…` (up to MAX_CHAIN attributes): each attribute's as its
        holder's class, or the nearest base of it, sets or annotates it (`self.broker = broker` with `broker:
        AsyncBroker`, then AsyncBroker's `self.formatter: TaskiqFormatter = …`)."""
        if isinstance(value, ast.Name):
            return (scope.path, owner) if value.id == "self" else None
        if not isinstance(value, ast.Attribute) or depth >= MAX_CHAIN:
            return None
        holder = self._attribute_class(scope, owner, value.value, depth + 1)
        return self._typed_attribute(scope, holder, value.attr) if holder is not None else None

    def _typed_attribute(self, scope: ModuleScope, holder: Target, attribute: str) -> Target | None:
        """The class of `attribute` on an instance of `holder`: the module being read knows its own classes'
        attributes from its tree, another module's come from `attributes`, alike whichever module asks."""
        for path, cls in [holder, *sorted(self._ancestors(holder))]:
            home: ModuleScope | None = scope
            if path == scope.path and cls in scope.classes:
                typed = scope.classes[cls].attributes.get(attribute)
            else:
                home, typed = self.scope(path), self.attributes(path, cls).get(attribute)
            if typed is not None and home is not None:
                return self._class_of(home, typed)
        return None

    def _on_name(
        self, scope: ModuleScope, owner: str, local: dict[str, ast.expr], name: str, method: str
    ) -> Target | None:
        value = local.get(name)
        if isinstance(value, LocalImport):
            target = self._imported(scope.path, value.module, value.name)
            return self._on_target(target, method) if target is not None else None
        if value is not None:
            if isinstance(value, Entered):
                cls = self._entered_class(scope, owner, local, value)
            else:
                cls = self._class_of(scope, value)
            return self.method(cls[0], cls[1], method) if cls else self._named_after(scope, name, method)
        target = scope.names.get(name)
        if target is None:
            return self._named_after(scope, name, method)
        return self._on_target(target, method)

    def _entered_class(
        self, scope: ModuleScope, owner: str, local: dict[str, ast.expr], entered: Entered
    ) -> Target | None:
        """The class of what a `with` statement binds: what the called function or method declares entering
        its result gives (a `@contextmanager`'s yield type), or what the manager's class's `__enter__` /
        `__aenter__` gives, the manager's class that of the call's annotated return or the class made."""
        manager = entered.manager
        called = self._target(scope, owner, local, manager.func) if isinstance(manager, ast.Call) else None
        if called is None or not called[1]:
            made = self._class_of(scope, manager) if isinstance(manager, ast.Call) else None
            return self._enters(made, entered.asynchronous) if made is not None else None
        if self._is_class(*called):
            return self._enters(called, entered.asynchronous)
        home = self.scope(called[0])
        types = self._types(home) if home is not None else NO_TYPES
        given, returned = types.entered.get(called[1]), types.returns.get(called[1])
        if home is None or (given is None and returned is None):
            return None
        if given is not None:
            return self._class_of(home, given)
        manager_class = self._class_of(home, returned) if returned is not None else None
        return self._enters(manager_class, entered.asynchronous) if manager_class is not None else None

    def _awaits(
        self, scope: ModuleScope, owner: str, local: dict[str, ast.expr], call: Awaited
    ) -> Target | None:
        """The `__await__` an `await` runs: that of the repository class of the object awaited, made there
        (`await Initializer(…)`), given by a function or method annotated to return it (`await
        Document.find_one(…)` → `FindOne[…]`), or held by a local bound to either or annotated with it. A
        coroutine's call (`async def`) gives no such object: its annotation is what it returns when done."""
        value = call.func.value  # type: ignore[attr-defined]
        if isinstance(value, ast.Name) and value.id in local:
            value = local[value.id]
            if not isinstance(value, ast.Call):  # an annotated local or parameter (`query: FindOne`)
                held = self._class_of(scope, value)
                return self.method(*held, "__await__") if held is not None else None
        if not isinstance(value, ast.Call):
            return None
        called = self._target(scope, owner, local, value.func)
        if called is None or not called[1]:
            return None
        cls = called if self._is_class(*called) else self._returned(scope, owner, local, value)
        return self.method(*cls, "__await__") if cls is not None else None

    def _returned(
        self, scope: ModuleScope, owner: str, local: dict[str, ast.expr], call: ast.Call
    ) -> Target | None:
        """The repository class of what a call of a function or method gives, as its return annotation
        names it (`-> FindOne[T] | None`, `-> Optional[Query]`); none for a coroutine's call (what it gives is
        awaited first) nor for a container's elements (`-> list[Model]`)."""
        called = self._target(scope, owner, local, call.func)
        if called is None or not called[1] or self._is_class(*called):
            return None
        home = self.scope(called[0])
        types = self._types(home) if home is not None else NO_TYPES
        returned = types.returns.get(called[1])
        if home is None or returned is None or called[1] in types.coroutines:
            return None
        return self._generic_class(home, returned)

    def _generic_class(self, scope: ModuleScope, annotation: ast.expr) -> Target | None:
        """The repository class an annotation names, a generic one as itself (`FindOne[T]` is a FindOne,
        where `Optional[X]` names X and `list[X]` no class), the one a union names."""
        if isinstance(annotation, ast.BinOp):  # `Cls | None`; `DeleteOne | DeleteMany` names no one class
            sides = {
                self._generic_class(scope, annotation.left),
                self._generic_class(scope, annotation.right),
            }
            named = sides - {None}
            return named.pop() if len(named) == 1 else None
        if isinstance(annotation, ast.Subscript):
            generic = self._class_of(scope, annotation.value, bounds=False)
            if generic is not None or last_name(annotation.value) not in OPTIONAL:
                return generic
            inner = annotation.slice  # `Optional[FindOne[T]]`, `Annotated[FindOne, …]`
            return self._generic_class(scope, inner.elts[0] if isinstance(inner, ast.Tuple) else inner)
        return self._class_of(scope, annotation)

    def _enters(self, manager: Target, asynchronous: bool) -> Target | None:
        """What entering an instance of `manager` gives: its own instance when its `__enter__` (or
        `__aenter__`) returns `self` or is not the repository's, the class it is annotated with otherwise."""
        enter = self.method(*manager, "__aenter__" if asynchronous else "__enter__")
        home = self.scope(enter[0]) if enter is not None else None
        if enter is None or home is None:
            return manager
        given = self._types(home).entered.get(enter[1])
        if given is ITSELF:
            return manager
        return self._class_of(home, given) if given is not None else None

    def _on_target(self, target: Target, method: str) -> Target | None:
        """`method` of a module or class the name refers to."""
        path, symbol = target
        if not symbol:  # a module: `sessions.Session()`, `models.Response`
            return self.defined(path, method) or self._submodule(path, method)
        if self._is_class(path, symbol):
            return self.method(path, symbol, method)  # Class.method() / Class.classmethod()
        return None

    def _submodule(self, package: str, name: str) -> Target | None:
        hits = self.resolve_import(package, f".:{name}") if package.endswith("__init__.py") else []
        return (hits[0], "") if hits and module_stem(hits[0]) == name else None

    def _class_of(self, scope: ModuleScope, value: ast.expr, bounds: bool = True) -> Target | None:
        """The repository class a value's expression names: `Cls(...)`, an annotation `Cls`/`mod.Cls`, a
        call of a function of the module annotated to return one (`make_server(…) -> Server`), a TypeVar
        the module makes or imports, as its bound (`type["T"]`, `T = TypeVar("T", bound="Model")`)."""
        if isinstance(value, ast.Call):
            made = value.func.id if isinstance(value.func, ast.Name) else ""
            value = self._types(scope).returns.get(made, value.func) if made else value.func
        if isinstance(value, ast.Subscript):  # Optional[Cls], list[Cls]: the inner class
            value = value.slice
        if isinstance(value, ast.Constant) and isinstance(value.value, str):  # "Cls" forward reference
            value = ast.Name(value.value.split("[", 1)[0].strip())
        if isinstance(value, ast.BinOp):  # Cls | None
            return self._class_of(scope, value.left) or self._class_of(scope, value.right)
        target = None
        if isinstance(value, ast.Name):
            target = scope.names.get(value.id)
        elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
            module = scope.names.get(value.value.id)
            target = self.defined(module[0], value.attr) if module and not module[1] else None
        if target is not None and target[1] and self._is_class(*target):
            return target
        return self._bound(scope, value.id, target) if bounds and isinstance(value, ast.Name) else None

    def _bound(self, scope: ModuleScope, name: str, imported: Target | None) -> Target | None:
        """The class bounding a TypeVar the module makes (`T = TypeVar("T", bound="Model")`), or imports
        from another module of the repository, resolved where it is made."""
        home: ModuleScope | None = scope
        bound = self._types(scope).bounds.get(name)
        if bound is None and imported is not None and imported[1]:
            home = self.scope(imported[0])
            bound = self._types(home).bounds.get(imported[1]) if home is not None else None
        if bound is None or home is None:
            return None
        return self._class_of(home, bound, bounds=False) or self._reexported_class(home, bound)

    def _reexported_class(self, scope: ModuleScope, value: ast.expr) -> Target | None:
        """The class a name stands for where the package re-exporting it defines it: a TypeVar's bound is a
        class of the package's API (`from ormar import Model` names ormar/__init__.py, which takes it from
        ormar.models, which takes it from ormar/models/model.py)."""
        name = value.value if isinstance(value, ast.Constant) else getattr(value, "id", None)
        target = scope.names.get(name) if isinstance(name, str) else None
        for _ in range(MAX_REEXPORTS if target is not None and target[1] else 0):
            assert target is not None
            if self._is_class(*target):
                return target
            further = self.defined(*target)
            if further is None or further == target:
                return None
            target = further
        return None

    def _types(self, scope: ModuleScope) -> DeclaredTypes:
        """What the module declares of its names' types: from its tree when its calls are being read, else
        from the module's own parse (`types`)."""
        return scope.types if scope.types is not None else self.types(scope.path)

    def _base_class(self, scope: ModuleScope, base: ast.expr) -> Target | None:
        """The repository class a base expression names: `Base`, `pkg.Base`, `Base[T]` as Base (as the
        facts read bases, pysymbols.class_bases), never a TypeVar's bound (`Generic[T]`)."""
        return self._class_of(scope, base.value if isinstance(base, ast.Subscript) else base, bounds=False)

    def _named_after(self, scope: ModuleScope, name: str, method: str) -> Target | None:
        """`adapter.send()`: the one class the module knows whose name ends like the receiver's and that
        defines `send` (a subclass before its base); else like the receiver's last word (`write_console`
        → `Console`)."""
        whole, last = name.replace("_", "").lower(), name.rpartition("_")[2].lower()
        return self._named_like(scope, whole, method) or (
            self._named_like(scope, last, method) if last != whole else None
        )

    def _named_like(self, scope: ModuleScope, wanted: str, method: str) -> Target | None:
        if len(wanted) < 3:
            return None
        classes: dict[Target, Target] = {}  # class → where it finds `method`
        for path, symbol in scope.named_like(wanted):
            if self._is_class(path, symbol):
                hit = self.method(path, symbol, method)
                if hit is not None:
                    classes[(path, symbol)] = hit
        bases = {base for cls in classes for base in self._ancestors(cls)}
        unique = sorted({hit for cls, hit in classes.items() if cls not in bases})
        return unique[0] if len(unique) == 1 else None

    def _ancestors(self, cls: Target, depth: int = 0) -> set[Target]:
        scope = self.scope(cls[0])
        info = scope.classes.get(cls[1]) if scope else None
        if scope is None or info is None or depth >= MAX_BASE_DEPTH:
            return set()
        found: set[Target] = set()
        for base in info.bases:
            owner = self._base_class(scope, base)
            if owner is not None:
                found |= {owner, *self._ancestors(owner, depth + 1)}
        return found

    def method(self, path: str, cls: str, name: str, depth: int = 0) -> Target | None:
        """`cls.name` as defined on the class or inherited from a base class in the repository."""
        qualified = f"{cls}.{name}"
        scope = self.scope(path)
        info = scope.classes.get(cls) if scope else None
        if info is not None and name in info.aliases and depth < MAX_BASE_DEPTH:
            return self.method(path, cls, info.aliases[name], depth + 1)
        if qualified in self._names(path):
            return (path, qualified)
        if scope is None or info is None or depth >= MAX_BASE_DEPTH:
            return None
        for base in info.bases:
            owner = self._base_class(scope, base)
            if owner is not None:
                hit = self.method(owner[0], owner[1], name, depth + 1)
                if hit is not None:
                    return hit
        return None

    def _held(self, scope: ModuleScope, cls: str, attribute: str) -> Target | None:
        """What calling `self.attribute()` calls when the class set the attribute to a function or a
        method (`HeldFunction`)."""
        info = scope.classes.get(cls)
        held = info.attributes.get(attribute) if info is not None else None
        if not isinstance(held, HeldFunction):
            return None
        if isinstance(held.value, ast.Attribute):  # `self.handle = self.handle_sync`
            return self.method(scope.path, cls, held.value.attr)
        target = scope.names.get(held.value.id) if isinstance(held.value, ast.Name) else None
        return target if target is not None and target[1] else None

    def _inherited(self, scope: ModuleScope, cls: str, name: str) -> Target | None:
        """`name` as the bases of `cls` define it (what `super().name` calls), the first base first."""
        info = scope.classes.get(cls)
        for base in info.bases if info is not None else ():
            owner = self._base_class(scope, base)
            hit = self.method(owner[0], owner[1], name) if owner is not None else None
            if hit is not None:
                return hit
        return None

    def _is_class(self, path: str, name: str) -> bool:
        return self._names(path).get(name, False)

    def _names(self, path: str) -> dict[str, bool]:
        """`path`'s symbols by name, each name with whether one of its symbols is a class."""
        names = self._defined.get(path)
        if names is None:
            names = {}
            for symbol in self.symbols(path):
                names[symbol.name] = names.get(symbol.name, False) or symbol.kind == "class"
            self._defined[path] = names  # whole before it is shared
        return names


def _loaded(scope: ModuleScope, local: dict[str, ast.expr], call: ast.Call) -> list[Target]:
    """The symbols a call reading a module constant of import strings hands to its loader
    (`import_from_string(HTTP_PROTOCOLS[name])`, `HTTP_PROTOCOLS.get(name)`)."""
    if not scope.loaded:
        return []
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    values = [v.value if isinstance(v, ast.Subscript) else v for v in [receiver, *call.args] if v is not None]
    return [
        target
        for value in values
        if isinstance(value, ast.Name) and value.id not in local
        for target in scope.loaded.get(value.id, ())
    ]


def _parameter_given(
    function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, name: str
) -> str | None:
    """The parameter of `function` that `call` gives the local `name` as a whole argument; None when
    none does, or through `*args`/`**kwargs`."""
    arguments = function.args
    positional = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    for index, value in enumerate(call.args):
        if isinstance(value, ast.Name) and value.id == name:
            return positional[index] if index < len(positional) else None
    keywords = set(positional[len(arguments.posonlyargs) :]) | {a.arg for a in arguments.kwonlyargs}
    for keyword in call.keywords:
        if isinstance(keyword.value, ast.Name) and keyword.value.id == name:
            return keyword.arg if keyword.arg in keywords else None
    return None


def _handed_values(values: list[ast.expr]) -> list[ast.expr]:
    """Call arguments with the items of literal containers among them (a dict's values)."""
    found: list[ast.expr] = []
    for value in values:
        if isinstance(value, ast.Dict):
            found.extend(value.values)
        elif isinstance(value, ast.List | ast.Tuple | ast.Set):
            found.extend(value.elts)
        else:
            found.append(value)
    return found


def _expression(dotted: str) -> ast.expr:
    """`pkg.Base` as the expression it was written as."""
    parts = dotted.split(".")
    node: ast.expr = ast.Name(parts[0])
    for part in parts[1:]:
        node = ast.Attribute(node, part)
    return node


def _class_info(node: ast.ClassDef) -> ClassInfo:
    info = ClassInfo(node.name, bases=list(node.bases))
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            info.methods.add(item.name)
        elif (  # another name for a method defined above it: calling one calls the other
            isinstance(item, ast.Assign)
            and len(item.targets) == 1
            and isinstance(item.targets[0], ast.Name)
            and isinstance(item.value, ast.Name)
            and item.value.id in info.methods
        ):
            info.aliases[item.targets[0].id] = item.value.id
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            info.attributes[item.target.id] = item.annotation
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and is_property(item):
            info.properties.add(item.name)
            if item.returns is not None:  # `self.model.from_row()`: what the property gives
                info.attributes.setdefault(item.name, item.returns)
        if isinstance(item, ast.Assign | ast.AnnAssign):
            info.tables.update(_tables(item))
    return info


def _tables(node: ast.Assign | ast.AnnAssign) -> dict[str, list[ast.expr]]:
    """`NAME = {key: function_or_class, …}`: the names bound to a dict literal whose values are all names
    (`{"row": RowSplitter, "column": ColumnSplitter}`), with those values."""
    value = node.value
    if not isinstance(value, ast.Dict) or not value.values:
        return {}
    if not all(isinstance(v, ast.Name | ast.Attribute) for v in value.values):
        return {}
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return {t.id: list(value.values) for t in targets if isinstance(t, ast.Name)}


def _looked_up_in(func: ast.expr) -> ast.expr | None:
    """The container a called expression looks its callee up in: `TABLE[key]` or `TABLE.get(key)`."""
    if isinstance(func, ast.Subscript):
        return func.value
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and func.func.attr == "get":
        return func.func.value
    return None


def _note_attribute(
    node: ast.AST, attributes: dict[str, ast.expr], local: dict[str, ast.expr], annotated: frozenset[str]
) -> None:
    """`self.x = …` (or `self.x: Cls = …`): what gives the attribute's class; `annotated`: the function's
    parameters with an annotation, which their locals hold."""
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call | ast.Name | ast.Attribute):
        value: ast.expr | None = (
            node.value if isinstance(node.value, ast.Call) else _function_named(node.value, local)
        )
        if isinstance(node.value, ast.Name) and node.value.id in annotated:
            value = local[node.value.id]  # `self.broker = broker`, a parameter `broker: AsyncBroker`
        for target in node.targets:
            if (
                value is not None
                and isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                attributes.setdefault(target.attr, value)
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
        if isinstance(node.target.value, ast.Name) and node.target.value.id == "self":
            attributes.setdefault(node.target.attr, node.annotation)


def class_attributes(module: ast.Module) -> dict[str, dict[str, ast.expr]]:
    """For each class of the module (the first of a name), what gives the class of each attribute it
    annotates or sets on `self`, read as `PythonCalls.edges` reads them."""
    found: dict[str, dict[str, ast.expr]] = {}
    for node in top_level(module.body):
        if isinstance(node, ast.ClassDef) and node.name not in found:
            attributes = _class_info(node).attributes
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    read_body(_as_self(item), attributes)
            found[node.name] = attributes
    return found


def _function_named(value: ast.Name | ast.Attribute, local: dict[str, ast.expr]) -> HeldFunction | None:
    """A module-level name (not a parameter or local of the method) or a method of `self`: maybe a
    function the attribute holds (resolved when the attribute is called)."""
    if isinstance(value, ast.Name):
        return HeldFunction(value) if value.id not in local else None
    held = isinstance(value.value, ast.Name) and value.value.id == "self"
    return HeldFunction(value) if held else None


def _keyed_values(value: ast.expr) -> Iterator[tuple[str, ast.expr]]:
    """(key, value) of each entry under a dispatch key (DISPATCH_KEYS) in the dict literals a module
    constant holds, however nested (commitizen's `data = {"subcommands": {"commands": [{"func": …}]}}`)."""
    for node in ast.walk(value):
        if isinstance(node, ast.Dict):
            for key, held in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in DISPATCH_KEYS and _named(held):
                    yield key.value, held


def _defaults(calls: list[ast.Call]) -> Iterator[tuple[str, ast.expr]]:
    """(key, value) of an argparse parser's `set_defaults(func=run)` among a function's calls."""
    for call in calls:
        if isinstance(call.func, ast.Attribute) and call.func.attr == "set_defaults":
            for keyword in call.keywords:
                if keyword.arg in DISPATCH_KEYS and _named(keyword.value):
                    yield keyword.arg, keyword.value


def _named(value: ast.expr) -> bool:
    return isinstance(value, ast.Name | ast.Attribute)


def _functions(module: ast.Module) -> Iterator[tuple[str, str, ast.AST]]:
    """(qualified caller, owning class, node) for module-level functions, methods, and the module body."""
    definitions = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    yield "", "", ast.Module(body=[n for n in module.body if not isinstance(n, definitions)], type_ignores=[])
    for node in module.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, "", node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{node.name}.{item.name}", node.name, _as_self(item)


def _kept_parameters(method: ast.AST) -> set[str]:
    """The attributes a method's own statements set from its parameters: `self.handler = handler`,
    `self.app = app or default_app`, `self.job_func = functools.partial(job_func, *args)`."""
    if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
        return set()
    arguments = method.args
    parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]} - {"self"}
    kept: set[str] = set()
    for statement in method.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            added = statement.value  # `self.callbacks.append(callback)`: one of the elements
            func = added.func
            if isinstance(func, ast.Attribute) and func.attr in ADDERS and added.args:
                attribute = self_attribute(func.value)
                if attribute and _from_parameter(added.args[-1], parameters):
                    kept.add(attribute)
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        target = statement.targets[0]
        if isinstance(target, ast.Subscript):  # `self.handlers[name] = handler`: one of the elements
            target = target.value
        if isinstance(target, ast.Attribute) and _is_self(target.value):
            if _from_parameter(statement.value, parameters):
                kept.add(target.attr)
    return kept


def _from_parameter(value: ast.expr, parameters: set[str]) -> bool:
    """The parameter itself, a default beside it (`handler or default`, `a if a else b`) or a call wrapping
    it (`partial(job_func, *args)`); not one of its attributes (a bound method of the object handed in) nor
    what a method of the class makes of it (`self._make_retention_function(retention)`)."""
    if isinstance(value, ast.Name):
        return value.id in parameters
    if isinstance(value, ast.BoolOp):
        return any(_from_parameter(v, parameters) for v in value.values)
    if isinstance(value, ast.IfExp):
        return _from_parameter(value.body, parameters) or _from_parameter(value.orelse, parameters)
    if isinstance(value, ast.Call) and not _on_self(value.func):  # not a method making a function of it
        return any(isinstance(a, ast.Name) and a.id in parameters for a in value.args)
    return False


def _on_self(function: ast.expr) -> bool:
    return isinstance(function, ast.Attribute) and _is_self_or_cls(function.value)


def _held_attribute(function: ast.expr, local: dict[str, ast.expr]) -> str:
    """The `self` attribute a called expression is or is an element of: `self.handler(…)`,
    `self.handlers[name](…)`, `callback(…)` walking `self.callbacks`; "" otherwise."""
    if isinstance(function, ast.Subscript):
        return self_attribute(function.value) or ""
    if isinstance(function, ast.Name):
        bound = local.get(function.id)
        return bound.attribute if isinstance(bound, ElementOf) else ""
    return self_attribute(function) or ""


def _plugged(scope: ModuleScope, owner: str, local: dict[str, ast.expr], function: ast.expr) -> list[Target]:
    """`self.handler(sock)` (or an element of `self.handlers`) where a method of the class keeps `handler`
    from its parameters and the class has no such method: the attribute holds what the caller handed in,
    and the call runs the user's code there (CallEdge.plugged), named `Class.attribute`."""
    attribute = _held_attribute(function, local) if owner else ""
    info = scope.classes.get(owner) if attribute else None
    if info is None or attribute not in info.given or attribute in info.methods:
        return []
    return [(scope.path, f"{owner}.{attribute}")]


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _is_self_or_cls(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in {"self", "cls"}


def _is_super(node: ast.expr) -> bool:
    """`super()` or `super(Cls, self)`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


class _Renamed(ast.NodeTransformer):
    def __init__(self, name: str, to: str) -> None:
        self.name, self.to = name, to

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(self.to, node.ctx), node) if node.id == self.name else node


def _as_self(method: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
    """A method whose first parameter goes by another name than `self`/`cls` (loguru's `def info(__self,
    __message)`, which frees `self` for the caller's keywords), read as if it were called `self`: it is the
    instance all the same. A static method's first parameter is an ordinary one."""
    positional = [*method.args.posonlyargs, *method.args.args]
    if not positional or positional[0].arg in {"self", "cls"}:
        return method
    if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in method.decorator_list):
        return method
    if any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(method)):
        return method  # `self` is taken: a static method by other means, or a nested function's
    renamed = copy.deepcopy(method)
    first = [*renamed.args.posonlyargs, *renamed.args.args][0]
    _Renamed(first.arg, "self").visit(renamed)
    first.arg = "self"
    return renamed


def read_body(
    function: ast.AST,
    attributes: dict[str, ast.expr] | None = None,
    regions: list[tuple[int, int, float]] | None = None,
    contexts: list[ast.withitem] | None = None,
    awaits: list[ast.Await] | None = None,
) -> tuple[dict[str, ast.expr], list[ast.Call]]:
    """One walk over a function: its calls, and the names bound inside it with what gives their class
    where known (an annotation, the assigned call `x = Session()`; UNKNOWN otherwise). In a method, the
    `self.x = …` assignments go to `attributes`; given `contexts`, the `with` statements' items go there,
    given `awaits`, the `await` expressions.

    The walk is breadth first, fields in order, like `ast.walk` (the first binding of a name met wins), in
    one loop over a growing list rather than ast.walk's nested generators: a function's walk is most of
    reading its calls. Given `regions`, the side paths of the body (branches.py) go there."""
    local: dict[str, ast.expr] = {}
    calls: list[ast.Call] = []
    if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        arguments = function.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            if arg.arg not in {"self", "cls"}:
                local[arg.arg] = arg.annotation if arg.annotation is not None else UNKNOWN
    annotated = frozenset(name for name, value in local.items() if value is not UNKNOWN)
    queue: list[ast.AST | None] = [function]
    awaited: set[int] = set()  # the items of `async with` statements: entered by `__aenter__`
    for node in queue:  # the list grows as the walk goes
        kind = type(node)
        if kind is ast.Call:
            calls.append(node)  # type: ignore[arg-type]
        elif kind in _BINDINGS:
            _note_binding(node, local, attributes, annotated, id(node) in awaited)  # type: ignore[arg-type]
            if kind is ast.withitem and contexts is not None:
                contexts.append(node)  # type: ignore[arg-type]
        elif kind is ast.AsyncWith:
            awaited.update(map(id, node.items))  # type: ignore[union-attr]
        elif kind is ast.Await and awaits is not None:
            awaits.append(node)  # type: ignore[arg-type]
        elif regions is not None and kind in _BRANCHES:
            regions.extend(python_regions(node))  # type: ignore[arg-type]
        fields = _CHILD_FIELDS.get(kind)
        for name in fields if fields is not None else _child_fields(kind):
            value = getattr(node, name, None)
            if isinstance(value, list):
                queue.extend(value)  # items are nodes, or None (`{**rest}`'s key, a keyword without default)
            elif isinstance(value, ast.AST):
                queue.append(value)
    return local, calls


def _entered(contexts: list[ast.withitem]) -> Iterator[ast.Call]:
    """The calls a `with` statement makes without writing them: its context manager's `__enter__` and
    `__exit__` (`with self:` in a console's `print` is where its buffer is written out)."""
    for item in contexts:
        expression = item.context_expr
        for name in ("__enter__", "__exit__"):
            call = ast.Call(ast.Attribute(expression, name, ast.Load()), [], [])
            yield ast.copy_location(call, expression)


def _awaited(node: ast.Await) -> Awaited:
    call = Awaited(func=ast.Attribute(node.value, "__await__", ast.Load()), args=[], keywords=[])
    return ast.copy_location(call, node)


def _note_binding(
    node: ast.AST,
    local: dict[str, ast.expr],
    attributes: dict[str, ast.expr] | None,
    annotated: frozenset[str] = frozenset(),
    awaited: bool = False,
) -> None:
    if attributes is not None and isinstance(node, ast.Assign | ast.AnnAssign):
        _note_attribute(node, attributes, local, annotated)
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                local.setdefault(target.id, node.value)
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        local[node.target.id] = node.annotation
    elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
        local.setdefault(node.optional_vars.id, Entered(node.context_expr, awaited))
    elif isinstance(node, ast.ImportFrom):
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name != "*":
                local.setdefault(alias.asname or alias.name, LocalImport(module, alias.name))
    elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
        elements = element_names(node.target, node.iter)  # `for route in self.routes`
        for name in ast.walk(node.target):
            if isinstance(name, ast.Name):
                local.setdefault(name.id, elements.get(name.id, UNKNOWN))
    elif isinstance(node, ast.NamedExpr):
        for name in ast.walk(node.target):
            if isinstance(name, ast.Name):
                local.setdefault(name.id, UNKNOWN)


# What the walk skips: fields that hold names, numbers, flags or leaf nodes (contexts, operators, aliases),
# never a call or a binding under them. Leaving them out spares a large share of the nodes (every Name has
# a ctx).
LEAF_FIELDS = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "name", "names", "asname", "module", "level", "kind"}
    | {"type_comment", "simple", "is_async", "conversion", "kwd_attrs", "rest", "tag"}
)
_BINDINGS = frozenset(
    {ast.Assign, ast.AnnAssign, ast.withitem, ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr}
    | {ast.ImportFrom}
)
_BRANCHES = frozenset({ast.If, ast.ExceptHandler})
# node class → the fields the walk follows; filled as classes are met (bounded by ast's node classes)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: (), type(None): ()}


def _child_fields(kind: type) -> tuple[str, ...]:
    fields = _CHILD_FIELDS[kind] = tuple(f for f in getattr(kind, "_fields", ()) if f not in LEAF_FIELDS)
    return fields
