"""The instances JavaScript/TypeScript code makes and keeps: a name bound to `new Request(…)` in a file, and a
class field given one in a constructor (`this.router = options.router ?? new SmartRouter(…)`), in the class
or in a subclass another file declares. A method called on them is the instance's class's (tscalls.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.repo.facts.comments import descendants, node_text
from generator.repo.model import FileFacts, Symbol

_CONSTRUCTORS = frozenset({"identifier", "member_expression"})


def named_instances(root: Any) -> dict[str, Any]:
    """Names bound to a new instance anywhere in the file (`const request = new Request(…)`) → the class
    expression, for the names bound to one class only: a method called on them is that class's."""
    found: dict[str, Any] = {}
    ambiguous: set[str] = set()
    for declarator in descendants(root, "variable_declarator"):
        name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
        if name is None or name.type != "identifier" or value is None or value.type != "new_expression":
            continue
        constructor = value.child_by_field_name("constructor")
        if constructor is None or constructor.type not in _CONSTRUCTORS:
            continue
        key = node_text(name)
        if key in found and node_text(found[key]) != node_text(constructor):
            ambiguous.add(key)
        found.setdefault(key, constructor)
    return {key: value for key, value in found.items() if key not in ambiguous}


def field_instances(root: Any, start: int, end: int, field: str) -> list[Any]:
    """The class expressions of the instances assigned to `this.<field>` between lines `start` and `end`
    (a class's body): `new X(…)` on the right, alone or beside a default (`options.router ?? new X()`)."""
    found: list[Any] = []
    for assignment in descendants(root, "assignment_expression"):
        if not start <= assignment.start_point[0] + 1 <= end:
            continue
        left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
        if left is None or right is None or left.type != "member_expression":
            continue
        target = left.child_by_field_name("object")
        if (
            target is None
            or target.type != "this"
            or node_text(left.child_by_field_name("property")) != field
        ):
            continue
        made = [right] if right.type == "new_expression" else list(descendants(right, "new_expression"))
        outer = [n for n in made if not any(_inside(n, other) for other in made if other is not n)]
        found += [
            c
            for n in outer
            if (c := n.child_by_field_name("constructor")) is not None and c.type in _CONSTRUCTORS
        ]
    return found


def _inside(node: Any, other: Any) -> bool:
    return other.start_byte <= node.start_byte and node.end_byte <= other.end_byte


def subclasses(files: Mapping[str, FileFacts], path: str, cls: str) -> list[tuple[str, Symbol]]:
    """Classes other files declare on `cls` of `path`: by its name, or by any name when `path` exports that
    one class alone (hono's `class Hono extends HonoBase`, `HonoBase` being hono-base.ts's `Hono`)."""
    home = files.get(path)
    alone = home is not None and home.exports == [cls]
    return [
        (other, symbol)
        for other, fact in files.items()
        if other != path and path in fact.depends_on
        for symbol in fact.symbols
        if symbol.kind == "class" and symbol.bases and (alone or symbol.bases[0].rsplit(".", 1)[-1] == cls)
    ]
