"""Python calls made on the elements of a collection a class keeps (`for route in self.routes:
route.matches(scope)`). No type names the element, so the callee is inferred: the method of that name on the
classes whose instances the class's methods put into the collection (`self.routes.append(Route(…))`, an
annotation `list[Route]`) and on their subclasses beside them, else on every class of the module's package
that defines it (pycalls.py marks those edges `inferred`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

ADDERS = frozenset({"append", "appendleft", "add", "insert", "extend", "setdefault"})
VIEWS = frozenset({"values", "copy"})  # `for r in self.routes.values()` walks the same elements
# a method built-in data has (`value.decode()`, `item.get()`): with no class known to be stored, the element
# may be such data, and a repository class defining the name is no better a guess than any other
BUILTIN_METHODS = frozenset(
    name for kind in (str, bytes, list, dict, set, tuple) for name in dir(kind) if not name.startswith("_")
)
MAX_INFERRED = 8  # more classes defining the method than this: the name is too common to tell them apart


class ElementOf(ast.expr):
    """What a name is bound to when it walks the elements of `self.<attribute>` (a loop's or a
    comprehension's target)."""

    _fields = ()

    def __init__(self, attribute: str) -> None:
        super().__init__()
        self.attribute = attribute


def element_names(target: ast.expr, iterable: ast.expr) -> dict[str, ElementOf]:
    """The names a loop target binds to elements of a `self` attribute: `for r in self.routes`, `for r in
    self.routes.values()`, `for name, r in self.routes.items()` (the value)."""
    if isinstance(target, ast.Name):
        attribute = _collection(iterable, VIEWS)
        return {target.id: ElementOf(attribute)} if attribute else {}
    pairs = isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute)
    if (
        pairs
        and isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and isinstance(target.elts[1], ast.Name)
    ):
        attribute = _collection(iterable, frozenset({"items"}))
        return {target.elts[1].id: ElementOf(attribute)} if attribute else {}
    return {}


def element_receiver(func: ast.expr, local: Mapping[str, ast.expr]) -> str | None:
    """The `self` attribute whose element a called method's receiver is: `r.m()` with `r` walking
    `self.routes`, or `self.routes[key].m()`; None for any other call."""
    if not isinstance(func, ast.Attribute):
        return None
    receiver = func.value
    if isinstance(receiver, ast.Name):
        bound = local.get(receiver.id)
        return bound.attribute if isinstance(bound, ElementOf) else None
    if isinstance(receiver, ast.Subscript):
        return self_attribute(receiver.value)
    return None


def stored_elements(calls: list[ast.Call], local: Mapping[str, ast.expr]) -> dict[str, list[ast.expr]]:
    """What one method puts into its class's collections, by attribute: `self.routes.append(route)` with
    `route = Route(…)` gives `routes: [Route(…)]` (a parameter's annotation when that is all there is)."""
    found: dict[str, list[ast.expr]] = {}
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ADDERS and call.args):
            continue
        attribute = self_attribute(func.value)
        if attribute is None:
            continue
        value = call.args[-1]
        items = value.elts if isinstance(value, ast.List | ast.Tuple) and func.attr == "extend" else [value]
        for item in items:
            given = local.get(item.id) if isinstance(item, ast.Name) else item
            if given is not None:
                found.setdefault(attribute, []).append(given)
    return found


def element_type(annotation: ast.expr) -> ast.expr:
    """The element class of a collection's annotation: `list[Route]` → Route, `dict[str, Route]` → Route."""
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple):
        elements = annotation.slice.elts
        return elements[-1] if elements else annotation
    return annotation


def _collection(iterable: ast.expr, views: frozenset[str]) -> str | None:
    if isinstance(iterable, ast.Call) and not iterable.args and isinstance(iterable.func, ast.Attribute):
        return self_attribute(iterable.func.value) if iterable.func.attr in views else None
    return self_attribute(iterable)


def self_attribute(node: ast.expr) -> str | None:
    """`self.x` → "x" (None for any other expression)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None
