"""C, C++ and Rust calls resolved to repository symbols with tree-sitter (tscalls.py reads the file and
credits each call to the function holding it).

`f()` is a method of the caller's own class (C++, its bases included) or a function: the caller's file's,
else one of the files it includes or `use`s, else the only one of that name. `Type::f()` is Type's method
(`Self::f`, the caller's type), or a Rust module's function (`server::run` → server.rs). `x.f()`, `x->f()`
is a method of `x`'s type: `self`/`this`, a parameter, a local variable (`let cmd = Command::from_frame(…)`,
`redisReader *r`), a Rust method's result by the type its signature declares (`self.try_prepare()?.send()`,
`-> Result<PreparedRequest>`; a local holding one), a field of the caller's type (`self.connection` →
Connection), a loop over such a field
(`for (auto &sink : sinks_)`), or a Rust enum variant's payload bound by a match arm (`Command::Get(cmd) =>
cmd.apply(…)` → Get). A method name no reading resolves but that one type of the repository defines is that
type's (`CallEdge.inferred`). A call on a Rust trait object or a generic bounded by a trait goes on into the
implementations of the trait (`CallEdge.dispatched`, at most DISPATCH); C++ pure virtual methods are
dispatch.py's.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from generator.repo.facts.comments import node_text
from generator.repo.facts.dispatch import DISPATCH, FAMILY_WORD
from generator.repo.facts.native import family, owner_name, type_name
from generator.repo.model import FileFacts, Symbol

Target = tuple[str, str]
Hit = tuple[str, Symbol]
ANCESTORS = 4  # C++ base classes walked up for a method a class inherits
CALLS = frozenset({"call_expression"})
_FUNCTIONS = frozenset({"function_item", "function_definition"})
_CALLABLE = frozenset({"function", "method"})
_TYPES = frozenset({"struct", "class", "enum", "type", "union", "trait", "impl"})
_RESULT = re.compile(r"->\s*(.+?)\s*(?:\bwhere\b|\{|;|$)", re.DOTALL)  # a Rust function's declared result
SIGNATURE_LINES = 8  # lines of a Rust signature read for its result


class NativeTable:
    """The repository's C, C++ and Rust definitions by name, from the facts (built once per graph)."""

    def __init__(self, files: dict[str, FileFacts], read: Callable[[str], str | None] | None = None) -> None:
        self.files = files
        self._read = read
        self._lines: dict[str, list[str]] = {}
        self.functions: dict[tuple[str, str], list[Hit]] = {}
        self.methods: dict[tuple[str, str, str], list[Hit]] = {}
        self.named: dict[tuple[str, str], list[Hit]] = {}  # method short name → its definitions
        self.types: set[tuple[str, str]] = set()
        self.fields: dict[tuple[str, str], dict[str, str]] = {}
        self.bases: dict[tuple[str, str], list[str]] = {}
        self.implementers: dict[tuple[str, str], list[str]] = {}  # Rust trait → the types implementing it
        for path, fact in files.items():
            if family(fact.language) in {"c", "rust"}:
                self._add(path, fact)

    def _add(self, path: str, fact: FileFacts) -> None:
        kin = family(fact.language)
        for symbol in fact.symbols:
            short = symbol.short_name
            if symbol.kind == "function":
                self.functions.setdefault((kin, short), []).append((path, symbol))
            elif symbol.kind == "method" and symbol.parent:
                owner = _short(symbol.parent)
                self.methods.setdefault((kin, owner, short), []).append((path, symbol))
                self.named.setdefault((kin, short), []).append((path, symbol))
            if symbol.kind in _TYPES:
                self.types.add((kin, _short(symbol.name)))
                if symbol.bases and symbol.kind != "impl":
                    self.bases.setdefault((kin, _short(symbol.name)), []).extend(
                        owner_name(b) for b in symbol.bases
                    )
                if symbol.kind == "impl" and symbol.bases:
                    self.implementers.setdefault((kin, symbol.bases[0]), []).append(_short(symbol.name))
        for owner, declared in fact.fields.items():
            table = self.fields.setdefault((kin, _short(owner)), {})
            for name, written, _ in declared:
                table.setdefault(name, written)

    def returned(self, hit: Hit) -> str:
        """The repository type a Rust function's declared result holds (`-> Result<PreparedRequest<B>>` →
        PreparedRequest, `-> Self` → its own type), "" when it is none of the repository's or not told."""
        path, symbol = hit
        fact = self.files.get(path)
        if self._read is None or fact is None or family(fact.language) != "rust":
            return ""
        if path not in self._lines:
            self._lines[path] = (self._read(path) or "").splitlines()
        head = self._lines[path][symbol.start - 1 : symbol.start - 1 + SIGNATURE_LINES]
        code = " ".join(line for line in head if not line.lstrip().startswith(("//", "#[")))
        found = _RESULT.search(code.partition("{")[0] + "{")
        name = type_name(_result_value(found.group(1))) if found else ""
        name = _short(symbol.parent) if name == "Self" and symbol.parent else name
        return name if ("rust", name) in self.types else ""

    def method(self, kin: str, owner: str, name: str, depth: int = 0) -> Hit | None:
        """`owner`'s method `name`, or the one a base class of it defines (C++)."""
        if not owner or depth > ANCESTORS:
            return None
        hits = self.methods.get((kin, owner, name), [])
        own = [hit for hit in hits if not hit[1].stub] or hits
        if own:
            return own[0]
        for base in self.bases.get((kin, owner), ()):
            found = self.method(kin, base, name, depth + 1)
            if found is not None:
                return found
        return None


class NativeScope:
    """One C, C++ or Rust file's calls."""

    def __init__(self, table: NativeTable, path: str, language: str, root: Any) -> None:
        self.table, self.path = table, path
        self.kin = family(language)
        fact = table.files.get(path)
        self.near = [path, *(fact.depends_on if fact is not None else ())]
        self.locals = _declared(root, self.kin)
        self.root = root

    def callee(self, call: Any, caller: Symbol | None) -> Target | None:
        function = call.child_by_field_name("function")
        if function is None:
            return None
        if function.type == "generic_function":  # `parse::<T>(…)`
            function = function.child_by_field_name("function") or function
        if function.type == "template_function":
            function = function.child_by_field_name("name") or function
        hit: Hit | None = None
        if function.type == "identifier":
            hit = self._plain(node_text(function), caller)
        elif function.type in {"scoped_identifier", "qualified_identifier"}:
            hit = self._scoped(function, caller)
        elif function.type == "field_expression":
            hit = self._on_value(function, caller)
        return (hit[0], hit[1].name) if hit is not None else None

    def resolve(self, node: Any, caller: Symbol | None) -> Target | None:
        """A function handed to a call by name (`redisSetPushCallback(c, redisPushAutoFree)`)."""
        if node.type != "identifier":
            return None
        hit = self._function(node_text(node))
        return (hit[0], hit[1].name) if hit is not None else None

    def inferred(self, call: Any, caller: Symbol | None) -> list[Target]:
        """A method call no reading resolves, on a receiver named after the one type of the repository
        that defines the method (`connection.read_frame()` → Connection, `db_reader.next()` → Reader)."""
        function = call.child_by_field_name("function")
        value = (
            function.child_by_field_name("value") or function.child_by_field_name("argument")
            if function is not None and function.type == "field_expression"
            else None
        )
        if value is None or value.type not in {"identifier", "field_expression"}:
            return []
        word = node_text(value).replace("->", ".").rsplit(".", 1)[-1].rpartition("_")[2].lower()
        if len(word) < FAMILY_WORD:
            return []
        hits = self.table.named.get((self.kin, node_text(function.child_by_field_name("field"))), [])
        hits = [hit for hit in hits if _short(hit[1].parent).lower().endswith(word)]
        return [(hits[0][0], hits[0][1].name)] if len({_short(s.parent) for _, s in hits}) == 1 else []

    def implementations(self, call: Any, caller: Symbol | None) -> list[Target]:
        """A Rust method called on a value typed by a trait (`store: &dyn Store`, `T: Store`): the methods
        of the types implementing the trait, largest first."""
        function = call.child_by_field_name("function")
        if self.kin != "rust" or function is None or function.type != "field_expression":
            return []
        trait = self._type_of(function.child_by_field_name("value"), caller)
        name = node_text(function.child_by_field_name("field"))
        hits = [
            hit
            for owner in self.table.implementers.get((self.kin, trait), ())
            if (hit := self.table.method(self.kin, owner, name)) is not None
        ]
        hits.sort(key=lambda hit: (-hit[1].lines, hit[0], hit[1].name))
        return [(path, symbol.name) for path, symbol in hits[:DISPATCH]]

    def _plain(self, name: str, caller: Symbol | None) -> Hit | None:
        if self.kin == "c" and caller is not None and caller.parent:
            found = self.table.method(self.kin, _short(caller.parent), name)
            if found is not None:
                return found
        return self._function(name)

    def _function(self, name: str) -> Hit | None:
        """The function `name`: the file's own, one in a file it includes or uses, one in its folder, or
        the only one."""
        hits = self.table.functions.get((self.kin, name), [])
        if not hits:
            return None
        for near in (self.near[:1], self.near[1:]):
            close = [hit for hit in hits if hit[0] in near]
            if close:
                return close[0]
        folder = posixpath.dirname(self.path)
        close = [hit for hit in hits if posixpath.dirname(hit[0]) == folder]
        if close:
            return close[0]
        return hits[0] if len({path for path, _ in hits}) == 1 else None

    def _scoped(self, function: Any, caller: Symbol | None) -> Hit | None:
        """`Type::f`, `Self::f`, `module::f`, `ns::f`."""
        name_node = function.child_by_field_name("name")
        scope = function.child_by_field_name("path") or function.child_by_field_name("scope")
        if name_node is None:
            return None
        name = node_text(name_node)
        owner = owner_name(node_text(scope)) if scope is not None else ""
        if owner == "Self" and caller is not None:
            owner = _short(caller.parent)
        found = self.table.method(self.kin, owner, name) if owner else None
        if found is not None:
            return found
        hits = self.table.functions.get((self.kin, name), [])
        in_module = [hit for hit in hits if _module_of(hit) == owner]
        return (
            in_module[0] if in_module else self._function(name) if owner in {"", "crate", "super"} else None
        )

    def _on_value(self, function: Any, caller: Symbol | None, depth: int = 0) -> Hit | None:
        owner = self._type_of(
            function.child_by_field_name("value") or function.child_by_field_name("argument"), caller, depth
        )
        return self.table.method(self.kin, owner, node_text(function.child_by_field_name("field")))

    def _type_of(self, value: Any, caller: Symbol | None, depth: int = 0) -> str:
        """The repository type a receiver expression holds, "" when unknown."""
        if value is None or depth > 3:
            return ""
        own = _short(caller.parent) if caller is not None else ""
        kind = value.type
        if kind in {"self", "this"}:
            return own
        if kind in {
            "reference_expression",
            "parenthesized_expression",
            "pointer_expression",
            "try_expression",
        }:
            inner = value.child_by_field_name("value") or value.child_by_field_name("argument")
            inner = inner or (value.named_children[-1] if value.named_children else None)
            return self._type_of(inner, caller, depth + 1)
        if kind == "identifier":
            name = node_text(value)
            arm = _arm_of(value)
            declared = self.locals.get((-arm, name), "") if arm else ""
            declared = declared or self.locals.get((caller.end if caller is not None else 0, name), "")
            if declared.startswith("\0returned\0"):  # `let req = self.try_prepare()?;`
                return self._type_of(self._call_at(int(declared.split("\0")[2])), caller, depth + 1)
            if declared.startswith("\0"):
                return self._marked(declared.split("\0")[1:], own)
            if declared:
                return declared
            if self.kin == "c" and own:  # a member named without `this->`
                return self._field_type(own, name)
            return name if (self.kin, name) in self.table.types and self.kin == "c" else ""
        if kind == "field_expression":
            holder = self._type_of(
                value.child_by_field_name("value") or value.child_by_field_name("argument"), caller, depth + 1
            )
            return self._field_type(holder, node_text(value.child_by_field_name("field")))
        if kind == "call_expression":  # `Cmd::parse().run()`, `Database::open()?`
            function = value.child_by_field_name("function")
            # what the function called declares it returns (`self.try_prepare()?.send()`)
            hit = (
                self._on_value(function, caller, depth + 1)
                if function is not None and function.type == "field_expression"
                else self._scoped(function, caller)
                if function is not None and function.type == "scoped_identifier"
                else None
            )
            returned = self.table.returned(hit) if hit is not None else ""
            if returned:
                return returned
            if function is not None and function.type == "scoped_identifier":
                owner = owner_name(node_text(function.child_by_field_name("path") or function))
                owner = own if owner == "Self" else owner
                return owner if (self.kin, owner) in self.table.types else ""
        return ""

    def _call_at(self, at: int) -> Any:
        """The call expression starting at byte `at` of the file."""
        node = self.root.descendant_for_byte_range(at, at) if self.root is not None else None
        while node is not None and not (node.type == "call_expression" and node.start_byte == at):
            node = node.parent
        return node

    def _marked(self, marked: list[str], own: str) -> str:
        """A loop variable (`element`, over a field of the caller's type) or a match arm's binding
        (`variant`, of an enum's variant: its payload's type)."""
        if marked[0] == "element":
            field = marked[1].replace("->", ".").rsplit(".", 1)[-1]
            written = self.table.fields.get((self.kin, own), {}).get(field, "")
            return type_name(written, element=True) if written else ""
        return self._field_type(marked[1], marked[2]) if len(marked) == 3 else ""

    def _field_type(self, owner: str, name: str) -> str:
        written = self.table.fields.get((self.kin, owner), {}).get(name, "")
        return type_name(written) if written else ""


def _declared(root: Any, kin: str) -> dict[tuple[int, str], str]:
    """(last line of the function, variable) → the type name it is declared as: parameters, local
    variables with a declared type or made by `Type::f(…)` / `Type {…}`, loop variables over a declared
    collection, Rust match arms binding an enum variant's payload (`Command::Get(cmd)` → the payload's
    type, resolved when the scope asks)."""
    found: dict[tuple[int, str], str] = {}
    stack = [(root, 0)]
    while stack:
        node, end = stack.pop()
        kind = node.type
        if kind in _FUNCTIONS:
            end = node.end_point[0] + 1
        elif end and kind in _HOLDERS:
            # a match arm's binding holds in that arm only: keyed by the arm (its first byte, negated)
            key = -(node.start_byte + 1) if kind == "match_arm" else end
            for name, written in _holds(node, kin, found, end):
                if name and written:
                    found.setdefault((key, name), written)
        stack.extend((child, end) for child in node.named_children)
    return found


_HOLDERS = frozenset(
    {
        "parameter",
        "let_declaration",
        "parameter_declaration",
        "declaration",
        "for_range_loop",
        "match_arm",
        "optional_parameter_declaration",
    }
)


def _holds(node: Any, kin: str, found: dict[tuple[int, str], str], end: int) -> list[tuple[str, str]]:
    kind = node.type
    if kind in {"parameter", "let_declaration"}:
        pattern = node.child_by_field_name("pattern")
        if pattern is None or pattern.type not in {"identifier", "mut_pattern"}:
            return []
        name = node_text(pattern).split()[-1]
        declared = node.child_by_field_name("type")
        if declared is not None:
            return [(name, _trait_or_type(declared))]
        value = node.child_by_field_name("value")
        return [(name, _made(value))] if value is not None else []
    if kind == "match_arm":
        return _arm(node)
    if kind == "for_range_loop":
        declarator = node.child_by_field_name("declarator")
        right = node.child_by_field_name("right")
        name = _declarator_name(declarator)
        if right is not None and right.type in {"identifier", "field_expression"}:
            return [(name, "\0element\0" + node_text(right))]
        return []
    declared = node.child_by_field_name("type")
    if declared is None or declared.type in {"primitive_type", "placeholder_type_specifier"}:
        return []
    written = type_name(node_text(declared))
    return [(_declarator_name(d), written) for d in node.children_by_field_name("declarator")]


def _trait_or_type(declared: Any) -> str:
    """A Rust parameter's type: `&dyn Store`/`impl Store` → Store, `&mut Db` → Db."""
    return type_name(node_text(declared).replace("dyn ", "").replace("impl ", ""))


def _made(value: Any) -> str:
    """The type a Rust `let` value makes: `Type::f(…)` (`?` and `.await` peeled), `Type {…}`."""
    while value is not None and value.type in {"try_expression", "await_expression", "reference_expression"}:
        value = value.named_children[0] if value.named_children else None
    if value is None:
        return ""
    if value.type == "struct_expression":
        return owner_name(node_text(value.child_by_field_name("name")))
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        if function is not None and function.type == "field_expression":  # a method's result: its type is
            return f"\0returned\0{value.start_byte}"  # what the method declares (NativeScope._type_of)
        if function is not None and function.type == "scoped_identifier":
            path = function.child_by_field_name("path")
            return owner_name(node_text(path)) if path is not None else ""
    return ""


def _result_value(written: str) -> str:
    """The value a declared `Result<T, E>` (or `io::Result<T>`) holds: T; the type itself otherwise."""
    head, _, inner = written.partition("<")
    if head.strip().rsplit("::", 1)[-1] != "Result" or not inner:
        return written
    depth = 0
    for i, char in enumerate(inner):
        depth += (char == "<") - (char == ">")
        if depth < 0 or (char == "," and depth == 0):
            return inner[:i]
    return inner


def _arm(node: Any) -> list[tuple[str, str]]:
    """`Command::Get(cmd) => …`: cmd holds the payload of the variant Get of Command."""
    pattern = node.child_by_field_name("pattern")
    inner = pattern.named_children[0] if pattern is not None and pattern.named_children else None
    if inner is None or inner.type != "tuple_struct_pattern":
        return []
    variant = inner.child_by_field_name("type")
    bound = [c for c in inner.named_children if c.type == "identifier" and c != variant]
    if variant is None or variant.type != "scoped_identifier" or len(bound) != 1:
        return []
    enum = owner_name(node_text(variant.child_by_field_name("path")))
    return [(node_text(bound[0]), f"\0variant\0{enum}\0{node_text(variant.child_by_field_name('name'))}")]


def _arm_of(node: Any) -> int:
    """The Rust match arm holding `node` (its first byte + 1), 0 outside any."""
    while node is not None and node.type not in _FUNCTIONS:
        if node.type == "match_arm":
            return node.start_byte + 1
        node = node.parent
    return 0


def _declarator_name(declarator: Any) -> str:
    while declarator is not None and declarator.type not in {"identifier", "field_identifier"}:
        declarator = declarator.child_by_field_name("declarator") or (
            declarator.named_children[-1] if declarator.named_children else None
        )
    return node_text(declarator) if declarator is not None else ""


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _module_of(hit: Hit) -> str:
    """A Rust function's module: its file's stem (`server.rs` → server, `cmd/mod.rs` → cmd) or the inline
    `mod` it sits in."""
    path, symbol = hit
    if symbol.parent:
        return _short(symbol.parent)
    stem = posixpath.splitext(posixpath.basename(path))[0]
    return posixpath.basename(posixpath.dirname(path)) if stem in {"mod", "lib", "main"} else stem
