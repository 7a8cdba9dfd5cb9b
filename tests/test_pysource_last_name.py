"""The one helper the Python readers (calls, CLI commands) share for the name an expression ends with."""

from __future__ import annotations

import ast

from generator.repo.facts.pysource import last_name


def _expression(code: str) -> ast.expr:
    statement = ast.parse(code).body[0]
    assert isinstance(statement, ast.Expr)
    return statement.value


def test_the_name_an_attribute_chain_or_a_name_ends_with() -> None:
    assert last_name(_expression("self.sock.send")) == "send"
    assert last_name(_expression("main")) == "main"


def test_a_call_or_a_subscript_ends_with_no_name() -> None:
    assert last_name(_expression("make()")) == ""
    assert last_name(_expression("handlers[0]")) == ""
