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


_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
    }
)
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
_NO_TYPE = frozenset({"undefined", "null", "void", "never", "unknown", "any"})


def enclosing_functions(node: Any) -> list[Any]:
    """The functions around `node`, innermost first."""
    found, scope = [], node.parent
    while scope is not None:
        if scope.type in _FUNCTIONS:
            found.append(scope)
        scope = scope.parent
    return found


def this_aliases(function: Any) -> frozenset[str]:
    """The names a function's body binds to `this` (`var self = this`): older JavaScript calls the object's
    own methods through them, from the callbacks it hands on (needle's `self.send_request(…)`)."""
    body = function.child_by_field_name("body")
    found = set()
    for declarator in descendants(body, "variable_declarator") if body is not None else []:
        named, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
        if named is not None and named.type == "identifier" and value is not None and value.type == "this":
            found.add(node_text(named))
    return frozenset(found)


def declared_types(function: Any) -> dict[str, str]:
    """The one named type TypeScript declares for each name in a function: its parameters (`async
    run(job: Job | undefined)`) and the variables its body declares with a type (`let job: Job = …`); ""
    for a parameter declared with no type, a builtin or several (`A | B`): it hides an outer one."""
    found: dict[str, str] = {}
    body = function.child_by_field_name("body")
    for declarator in descendants(body, "variable_declarator") if body is not None else []:
        named, typed = declarator.child_by_field_name("name"), declarator.child_by_field_name("type")
        if typed is not None and named is not None and named.type == "identifier":
            found[node_text(named)] = _type_name(typed)
    parameters = function.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else []:
        pattern = parameter.child_by_field_name("pattern")
        if parameter.type in _PARAMETERS and pattern is not None and pattern.type == "identifier":
            found[node_text(pattern)] = _type_name(parameter.child_by_field_name("type"))
    return found


def declared_field_type(root: Any, start: int, end: int, field: str) -> str:
    """The one named type a TypeScript class between lines `start` and `end` declares for its field
    `field`: `private agenda: Agenda;`, or a constructor's parameter property `constructor(private
    queue: Queue)`; "" when none is declared."""
    for node in descendants(root, "public_field_definition", *_PARAMETERS):
        if not start <= node.start_point[0] + 1 <= end:
            continue
        if node.type in _PARAMETERS and not any(c.type == "accessibility_modifier" for c in node.children):
            continue  # a plain parameter, no field
        named = node.child_by_field_name("name" if node.type == "public_field_definition" else "pattern")
        if named is not None and node_text(named) == field:
            return _type_name(node.child_by_field_name("type"))
    return ""


def function_field(root: Any, start: int, end: int, field: str) -> bool:
    """Whether a TypeScript class between lines `start` and `end` declares its field `field` with a function
    type (`validator: (value: unknown, context: Context) => Iterable<Failure>`, optional or `| undefined`),
    or with an alias of one the file declares (`type Is<A> = (u: unknown) => u is A`), as a field or as a
    constructor's parameter property (io-ts's `constructor(readonly is: Is<A>, …)`): a call of it runs the
    function the code puts there."""
    aliases = {
        node_text(named)
        for node in descendants(root, "type_alias_declaration")
        if (named := node.child_by_field_name("name")) is not None
        and _is_function(node.child_by_field_name("value"), set())
    }
    for node in descendants(root, "public_field_definition", *_PARAMETERS):
        if not start <= node.start_point[0] + 1 <= end:
            continue
        if node.type in _PARAMETERS and not any(
            c.type in {"accessibility_modifier", "readonly"} for c in node.children
        ):
            continue  # a plain parameter, no field
        named = node.child_by_field_name("name" if node.type == "public_field_definition" else "pattern")
        if named is not None and node_text(named) == field:
            annotation = node.child_by_field_name("type")
            return annotation is not None and any(_is_function(t, aliases) for t in annotation.named_children)
    return False


def _is_function(node: Any, aliases: set[str]) -> bool:
    """A function type or one of `aliases` (`Is<A>`), parenthesized or in a union with `undefined` / `null`
    only."""
    if node is None:
        return False
    if node.type == "parenthesized_type":
        return any(_is_function(t, aliases) for t in node.named_children)
    if node.type == "union_type":
        members = node.named_children
        rest = [m for m in members if node_text(m) not in {"undefined", "null"}]
        return len(rest) == 1 and _is_function(rest[0], aliases)
    if node.type == "generic_type":  # `Is<A>`
        return any(_is_function(t, aliases) for t in node.named_children[:1])
    return node.type == "function_type" or (node.type == "type_identifier" and node_text(node) in aliases)


def _type_name(annotation: Any) -> str:
    """`: Job`, `: Job | undefined`, `: Queue<T>`, `: ns.Job` → the type's name; "" for a builtin or
    several types."""
    if annotation is None:
        return ""
    names = {
        node_text(n)
        for n in descendants(annotation, "type_identifier")
        if n.parent is None or n.parent.type != "type_arguments"
    }
    names -= _NO_TYPE
    return names.pop() if len(names) == 1 else ""
