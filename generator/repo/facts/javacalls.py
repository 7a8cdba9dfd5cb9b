"""Java calls resolved to repository symbols with tree-sitter (tscalls.py reads the file and credits each
call to the method holding it).

`m()` and `this.m()` are a method of the enclosing class or a class it extends; `super.m()` one of the
classes it extends; `x.m()` a method of `x`'s declared type (a parameter, a local variable or a field of
the class) or, when `x` names a class, its static method; `new T(…)` is T's constructor (the class, when it
declares none). A class named in several packages is taken from the caller's own file, then its package.
What cannot be resolved statically (an interface's implementations, a lambda) is left out.
"""

from __future__ import annotations

import posixpath
from typing import Any

from generator.repo.facts.comments import node_text
from generator.repo.model import FileFacts, Symbol

CALL_NODES = frozenset({"method_invocation", "object_creation_expression"})
CLASS_KINDS = frozenset({"class", "interface", "enum", "record"})
_TYPE_HOLDERS = frozenset({"formal_parameter", "local_variable_declaration", "field_declaration"})
_METHODS = frozenset({"method_declaration", "constructor_declaration"})
ANCESTORS = 4  # classes walked up from a class for a method it inherits
# nodes whose insides declare nothing the calls need (a lambda's own locals among the arguments included)
_NO_DECLARATIONS = frozenset(
    {"argument_list", "method_invocation", "object_creation_expression", "binary_expression", "field_access"}
    | {"string_literal", "annotation", "marker_annotation", "modifiers", "line_comment", "block_comment"}
    | {"expression_statement", "return_statement", "throw_statement"}
)

Target = tuple[str, str]
Classes = dict[str, list[tuple[str, Symbol]]]


def class_table(files: dict[str, FileFacts]) -> Classes:
    """Every Java class, interface, enum and record by its own name (`Inner` for `Outer.Inner`)."""
    table: Classes = {}
    for path, fact in files.items():
        if fact.language == "java":
            for symbol in fact.symbols:
                if symbol.kind in CLASS_KINDS:
                    table.setdefault(symbol.short_name, []).append((path, symbol))
    return table


class JavaScope:
    """One Java file's calls; `symbols(path)` gives any file's symbols."""

    def __init__(self, classes: Classes, symbols: Any, path: str, root: Any) -> None:
        self.classes, self.symbols, self.path = classes, symbols, path
        self.types = _declared_types(root)

    def callee(self, call: Any, caller: Symbol | None) -> Target | None:
        if call.type == "object_creation_expression":
            found = self._class(_type_name(call.child_by_field_name("type")))
            return self._constructor(found) if found is not None else None
        name = node_text(call.child_by_field_name("name"))
        receiver = call.child_by_field_name("object")
        owner = caller.parent if caller is not None else ""
        if receiver is None or receiver.type == "this":
            return self._method(self._class(owner), name)
        if receiver.type == "super":
            home = self._class(owner)
            bases = home[1].bases if home is not None else ()
            return next((hit for b in bases if (hit := self._method(self._class(b), name))), None)
        return self._method(self._class(self._type_of(receiver, caller)), name)

    def resolve(self, node: Any, caller: Symbol | None) -> Target | None:
        """A value handed to a call is never resolved: Java hands over objects, not named functions."""
        return None

    def _type_of(self, receiver: Any, caller: Symbol | None) -> str:
        """The class a receiver expression is declared as, or names (a static call)."""
        if receiver.type == "object_creation_expression":
            return _type_name(receiver.child_by_field_name("type"))
        field = (
            receiver.type == "field_access" and node_text(receiver.child_by_field_name("object")) == "this"
        )
        if receiver.type != "identifier" and not field:
            return ""
        name = node_text(receiver.child_by_field_name("field") if field else receiver)
        owner = caller.parent.rsplit(".", 1)[-1] if caller is not None and caller.parent else ""
        declared = self.types.get((caller.start, name)) if caller is not None and not field else None
        return declared or self.types.get((owner, name)) or ("" if field else name)

    def _class(self, name: str) -> tuple[str, Symbol] | None:
        """The class a name refers to: the caller's file's own, else its package's, else the only one."""
        hits = self.classes.get(name.rsplit(".", 1)[-1], []) if name else []
        folder = posixpath.dirname(self.path)
        for near in (lambda p: p == self.path, lambda p: posixpath.dirname(p) == folder):
            close = [hit for hit in hits if near(hit[0])]
            if close:
                return close[0]
        return hits[0] if len(hits) == 1 else None

    def _method(self, found: tuple[str, Symbol] | None, name: str, depth: int = 0) -> Target | None:
        """`name` as the class declares it or, failing that, as a class it extends does."""
        if found is None or depth > ANCESTORS:
            return None
        path, cls = found
        wanted = f"{cls.name}.{name}"
        if any(s.name == wanted for s in self.symbols(path)):
            return (path, wanted)
        return next((hit for b in cls.bases if (hit := self._method(self._class(b), name, depth + 1))), None)

    def _constructor(self, found: tuple[str, Symbol]) -> Target:
        path, cls = found
        own = f"{cls.name}.{cls.short_name}"
        return (path, own) if any(s.name == own for s in self.symbols(path)) else (path, cls.name)


def _declared_types(root: Any) -> dict[tuple[int | str, str], str]:
    """(first line of the method, variable) → its declared class for parameters and local variables;
    (class name, field) → its declared class for fields."""
    found: dict[tuple[int | str, str], str] = {}
    stack = [(root, 0, "")]
    while stack:
        node, method, owner = stack.pop()
        if node.type in _METHODS:
            method = node.start_point[0] + 1
        elif node.type in {"class_declaration", "enum_declaration", "record_declaration"}:
            owner, method = node_text(node.child_by_field_name("name")), 0
        if node.type in _TYPE_HOLDERS:
            type_name = _type_name(node.child_by_field_name("type"))
            declarators = [node] if node.type == "formal_parameter" else node.named_children
            for declarator in declarators:
                name = declarator.child_by_field_name("name")
                if type_name and name is not None:
                    key: int | str = owner if node.type == "field_declaration" else method
                    found[(key, node_text(name))] = type_name
        if node.type not in _NO_DECLARATIONS:
            stack.extend((child, method, owner) for child in node.named_children)
    return found


def _type_name(node: Any) -> str:
    """`TreeBuilder`, `List<Node>` → `List`, `org.jsoup.Parser` → `Parser`."""
    while node is not None and node.type == "generic_type":
        node = node.named_children[0] if node.named_children else None
    if node is None or node.type not in {"type_identifier", "scoped_type_identifier"}:
        return ""
    return node_text(node).rsplit(".", 1)[-1]
