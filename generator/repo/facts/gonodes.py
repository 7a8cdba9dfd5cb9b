"""The nodes a Go file's call pass reads, gathered by one walk of each top-level declaration: its calls, what
names its functions' variables, and what stores a value in a field. The call pass asks for all three of
every declaration, so one walk serves them rather than one walk each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.repo.facts.comments import descendants

# `ctx.handlers[i](ctx)`, a call that Go's grammar reads as a conversion
GO_CONVERSION = "type_conversion_expression"
GO_CALLS = frozenset({"call_expression", GO_CONVERSION})
GO_DECLARING = frozenset({"parameter_declaration", "var_spec", "short_var_declaration", "range_clause"})
GO_STORING = frozenset({"assignment_statement", "composite_literal"})
GO_FUNCTIONS = frozenset({"function_declaration", "method_declaration"})


@dataclass(frozen=True)
class GoDeclaration:
    """One top-level declaration of a Go file and the nodes below it of each kind the call pass reads, each
    list in source order."""

    node: Any
    calls: list[Any]  # GO_CALLS
    declaring: list[Any]  # GO_DECLARING
    storing: list[Any]  # GO_STORING

    @property
    def function(self) -> bool:
        return self.node.type in GO_FUNCTIONS


def go_declarations(root: Any) -> list[GoDeclaration]:
    """The file's top-level declarations (its root's named children), each walked once."""
    kinds = (*GO_CALLS, *GO_DECLARING, *GO_STORING)
    found = []
    for node in root.named_children:
        calls: list[Any] = []
        declaring: list[Any] = []
        storing: list[Any] = []
        for below in descendants(node, *kinds):
            kind = below.type
            (calls if kind in GO_CALLS else declaring if kind in GO_DECLARING else storing).append(below)
        found.append(GoDeclaration(node, calls, declaring, storing))
    return found
