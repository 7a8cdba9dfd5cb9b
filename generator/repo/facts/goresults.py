"""What a Go file's functions return first, read from its syntax tree where the facts stage parses it (the
survey), so that the call graph's pass never parses a file again to learn it."""

from __future__ import annotations

from typing import Any

from generator.repo.facts.comments import node_text


def go_results(root: Any) -> dict[str, str]:
    """Each function's and method's first result type name (`func New(…) (*Kong, error)` → "Kong"), by its
    qualified name."""
    found: dict[str, str] = {}
    for function in root.named_children:
        if function.type not in {"function_declaration", "method_declaration"}:
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
        if type_name:
            found[name] = type_name
    return found


def go_type_name(node: Any) -> str:
    """The package's own type a type expression names (`*Kong`, `List[T]` → "Kong", "List"); '' otherwise."""
    while node is not None and node.type in {"pointer_type", "generic_type"}:
        node = node.named_children[0] if node.named_children else None
    return node_text(node) if node is not None and node.type == "type_identifier" else ""
