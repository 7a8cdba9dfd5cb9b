"""The object a call tree works on: below a method of a class, a call on `self` of a method the class
inherits runs on the same object, so a method that method calls is the receiver's own override. beanie's
`Document.insert` calls the inherited `get_pymongo_collection` (OtherGettersInterface), whose
`cls.get_settings()` is `Document.get_settings`, not the abstract declaration nor the `View` and `UnionDoc`
overrides a dispatch lists for a receiver of the abstract type.

Go's embedding and C/C++'s non-virtual methods do not dispatch on the outer object: their calls stay as
resolved.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping

from generator.repo.facts.native import family
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import CallEdge, FileFacts

Node = tuple[str, str]  # (path, qualified symbol)
ANCESTORS = 40  # classes looked through above one class
_STATIC = frozenset({"go", "c", "rust"})  # no virtual call on the outer object
_BASE_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:[<\[(].*)?$")  # `Generic[T]` / `models.Model` → its name


class Receivers:
    """The repository's classes with their bases and methods, asked along a call tree's path."""

    def __init__(self, files: Mapping[str, FileFacts]) -> None:
        self.bases: dict[Node, list[str]] = {}
        self.by_name: dict[tuple[str, str], list[Node]] = {}
        self.owner: dict[Node, Node] = {}  # a method → its class
        self.methods: set[Node] = set()
        self.language: dict[str, str] = {}
        for path, fact in files.items():
            if is_context_file(path) or family(fact.language) in _STATIC:
                continue
            self.language[path] = family(fact.language)
            for symbol in fact.symbols:
                if symbol.kind == "class":
                    self.bases[(path, symbol.name)] = list(symbol.bases)
                    short = symbol.name.rsplit(".", 1)[-1]
                    self.by_name.setdefault((self.language[path], short), []).append((path, symbol.name))
                elif symbol.kind == "method" and symbol.parent:
                    self.owner[(path, symbol.name)] = (path, symbol.parent)
                    if not symbol.stub:
                        self.methods.add((path, symbol.name))
        self.lineage: dict[Node, list[Node]] = {}

    def mro(self, cls: Node) -> list[Node]:
        """`cls` and its ancestors in the repository, nearest first (bases left to right, level by level)."""
        if cls in self.lineage:
            return self.lineage[cls]
        order, queue = [cls], [cls]
        while queue and len(order) < ANCESTORS:
            here = queue.pop(0)
            for base in self.bases.get(here, ()):
                named = _BASE_NAME.search(base.rsplit(".", 1)[-1].strip())
                found = self.by_name.get((self.language.get(here[0], ""), named[1] if named else ""), [])
                # a base of the same name in the class's own file first
                for parent in sorted(found, key=lambda node: node[0] != here[0])[:1]:
                    if parent not in order:
                        order.append(parent)
                        queue.append(parent)
        self.lineage[cls] = order
        return order

    def receiver(self, path: Iterable[Node]) -> Node | None:
        """The class whose object the last node of a call tree's `path` works on: a method's own class, kept
        while the path goes on into methods the object inherits (calls on `self`); None below a function."""
        current: Node | None = None
        for node in path:
            owner = self.owner.get(node)
            if owner is None:
                current = None
            elif current is None or owner not in self.mro(current):
                current = owner
        return current

    def resolve(self, edge: CallEdge, receiver: Node | None) -> CallEdge | None:
        """`edge` as the receiver's object runs it: a call of a method the receiver inherits goes to its
        nearest override (cited at the same call); an implementation dispatched for another branch of the
        class tree than the receiver's, for an abstract method the receiver inherits, is none of its calls
        (None)."""
        if receiver is None:
            return edge
        callee = (edge.callee_path, edge.callee)
        owner = self.owner.get(callee)
        if owner is None:
            return edge
        line = self.mro(receiver)
        if edge.dispatched:
            # an abstract method the receiver inherits: the receiver's kin answer it, not another branch's
            caller = self.owner.get((edge.caller_path, edge.caller))
            inherited = caller is not None and caller != receiver and caller in line
            return None if inherited and receiver not in self.mro(owner) and owner not in line else edge
        if owner not in line or owner == receiver:
            return edge
        short = edge.callee[len(owner[1]) + 1 :]
        # the caller's own class and its bases were resolved where the call was read: an override there
        # the call passed over is `super()`'s
        caller = self.owner.get((edge.caller_path, edge.caller))
        read = set(self.mro(caller)) if caller is not None else set()
        for cls in line[: line.index(owner)]:
            nearer = (cls[0], f"{cls[1]}.{short}")
            if nearer in self.methods:
                if cls in read:
                    return edge
                return dataclasses.replace(edge, callee_path=nearer[0], callee=nearer[1])
        return edge

    def classes(self, language: str, short: str) -> list[Node]:
        """The repository's classes of `language` named `short`."""
        return self.by_name.get((language, short), [])

    def method(self, bases: Iterable[Node], name: str) -> Node | None:
        """The method `name` an object standing on `bases` (in order) runs: the nearest definition along
        each base's ancestors in turn; None when none defines it."""
        for base in bases:
            for cls in self.mro(base):
                if (cls[0], f"{cls[1]}.{name}") in self.methods:
                    return (cls[0], f"{cls[1]}.{name}")
        return None
