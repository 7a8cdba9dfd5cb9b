"""What a Go file's functions return first, read from its syntax tree where the facts stage parses it (the
survey), so that the call graph's pass never parses a file again to learn it."""

from __future__ import annotations

from typing import Any

from generator.repo.facts.comments import node_text

_FUNCTIONS = frozenset({"function_declaration", "method_declaration"})


def go_results(root: Any) -> dict[str, str]:
    """Each function's and method's first result type name (`func New(…) (*Kong, error)` → "Kong"), by its
    qualified name. A function declared to return an interface (another package's, `gen.Generator`, or one
    of the file's) that builds one type of its package in every return (`return &generator{…}`) returns
    that type: what its callers hold and call (grpc-gateway's `gengateway.New`, then `generator.Generate`)."""
    interfaces = _interfaces(root)
    found: dict[str, str] = {}
    for function in root.named_children:
        if function.type not in _FUNCTIONS:
            continue
        result = function.child_by_field_name("result")
        if result is not None and result.type == "parameter_list":
            first = next(iter(result.named_children), None)
            result = first.child_by_field_name("type") if first is not None else None
        name = node_text(function.child_by_field_name("name"))
        receiver = function.child_by_field_name("receiver") if function.type == "method_declaration" else None
        if receiver is not None and receiver.named_children:
            owner = go_type_name(receiver.named_children[0].child_by_field_name("type"))
            name = f"{owner}.{name}" if owner else name
        type_name = go_type_name(result) if result is not None else ""
        if result is not None and (type_name in interfaces or result.type == "qualified_type"):
            type_name = _built(function.child_by_field_name("body")) or type_name
        if type_name:
            found[name] = type_name
    return found


def go_type_name(node: Any) -> str:
    """The package's own type a type expression names (`*Kong`, `List[T]` → "Kong", "List"); '' otherwise."""
    while node is not None and node.type in {"pointer_type", "generic_type"}:
        node = node.named_children[0] if node.named_children else None
    return node_text(node) if node is not None and node.type == "type_identifier" else ""


def _interfaces(root: Any) -> set[str]:
    """The interface types the file declares."""
    return {
        node_text(spec.child_by_field_name("name"))
        for declaration in root.named_children
        if declaration.type == "type_declaration"
        for spec in declaration.named_children
        if spec.type == "type_spec"
        and getattr(spec.child_by_field_name("type"), "type", "") == "interface_type"
    }


def _built(body: Any) -> str:
    """The one type of the package every return of `body` that gives a value builds (`return &T{…}`, `return
    T{…}`; `return nil` aside, a closure's returns its own); '' when one returns anything else."""
    built: set[str] = set()
    for value in _returned(body):
        if value.type == "nil":
            continue
        if value.type == "unary_expression" and value.named_children:
            value = value.named_children[0]
        kind = value.child_by_field_name("type") if value.type == "composite_literal" else None
        if kind is None or kind.type != "type_identifier":
            return ""
        built.add(node_text(kind))
    return built.pop() if len(built) == 1 else ""


def _returned(node: Any) -> list[Any]:
    """The first value of each return statement below `node`, not inside a function literal."""
    found: list[Any] = []
    for child in node.named_children if node is not None else ():
        if child.type == "func_literal":
            continue
        if child.type == "return_statement":
            values = next(iter(child.named_children), None)
            first = next(iter(values.named_children), None) if values is not None else None
            if first is not None:
                found.append(first)
            continue
        found.extend(_returned(child))
    return found
