"""Call edges that are no calls: a subclass's constructor passing its table class on to the base's, a class
read as a dict's key, and an abstract method's implementations cited at its decorator (piccolo's shapes)."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import CallEdge, Facts


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    root = write_tree(tmp_path / "repo", files)
    return extract_facts(root, map_repository(root))


def edges_of(facts: Facts, path: str) -> list[CallEdge]:
    assert facts.calls is not None
    return facts.calls.edges([path])


TABLE = (
    "class Table:\n"
    '    """A row of a table."""\n\n'
    "    def __init__(self, **columns):\n"
    "        self.columns = columns\n\n"
    "    def save(self):\n"
    "        return self.columns\n\n"
    "    def remove(self):\n"
    "        return None\n"
)

# piccolo's query/base.py and query/methods/delete.py: each query keeps the table class it works on
QUERIES = {
    "orm/__init__.py": "",
    "orm/table.py": TABLE,
    "orm/query.py": (
        "from orm.table import Table\n\n\n"
        "class Query:\n"
        "    def __init__(self, table: type[Table]):\n"
        "        self.table = table\n\n"
        "    async def run(\n"
        "        self, node: str | None = None\n"
        "    ) -> list:\n"
        "        return await self._run(node)\n\n"
        "    async def _run(self, node):\n"
        "        return [node]\n\n"
        "    def freeze(self):\n"
        "        return str(self)\n\n\n"
        "class Delete(Query):\n"
        "    def __init__(self, table: type[Table], force: bool = False):\n"
        "        super().__init__(table)\n"
        "        self.force = force\n"
    ),
}


def test_a_class_passed_on_to_the_base_constructor_is_registered_with_none_of_its_methods(
    tmp_path: Path,
) -> None:
    """`Delete.__init__` passes its table class on to `Query.__init__`: the query keeps it, which makes no
    registry of `Query` whose every method hands over `Table` at its `def` line (piccolo's query/base.py:196
    `async def run(`)."""
    edges = edges_of(facts_of(tmp_path, QUERIES), "orm/query.py")
    handed = [(e.caller, e.callee, e.line) for e in edges if e.callee == "Table"]
    assert handed == [("Delete.__init__", "Table", 22)]  # the class passed on, where it is passed


# piccolo's apps/schema/commands/generate.py:318, :391: a dict of regexes keyed by column class
COLUMNS = {
    "orm/__init__.py": "",
    "orm/columns.py": (
        "class Column:\n"
        "    def ddl(self):\n        return 'x'\n\n"
        "    def ilike(self, value):\n        return value\n\n\n"
        "class Integer(Column):\n    pass\n"
    ),
    "orm/generate.py": (
        "import re\n"
        "from typing import Any\n\n"
        "from orm.columns import Column, Integer\n\n"
        "PARSER: dict[type[Column], Any] = {Integer: re.compile('^(?P<value>-?[0-9]+)$')}\n\n\n"
        "def column_default(column_type: type[Column], text: str) -> Any:\n"
        "    pattern = PARSER.get(column_type)\n"
        "    if pattern is None:\n"
        "        return None\n"
        "    return pattern.match(text)\n\n\n"
        "def serve(handler: type[Column], loop):\n"
        "    return loop.create_server(handler)\n"
    ),
}


def test_a_class_looked_up_as_a_dicts_key_is_handed_to_no_one(tmp_path: Path) -> None:
    """`PARSER.get(column_type)` reads a regex keyed by the column class: nothing is made of the class, so
    nothing calls back `Column.ddl` or `Column.ilike` there; a class given to a call that keeps it
    (`loop.create_server(handler)`) is still handed over."""
    edges = edges_of(facts_of(tmp_path, COLUMNS), "orm/generate.py")
    assert [(e.caller, e.callee) for e in edges if e.caller == "column_default"] == []
    assert ("serve", "Column") in [(e.caller, e.callee) for e in edges if e.handed]


ENGINES = {
    "db/__init__.py": "",
    "db/base.py": (
        "from abc import ABC, abstractmethod\n\n\n"
        "class Engine(ABC):\n"
        "    @abstractmethod\n"
        "    def atomic(self):\n"
        "        pass\n\n"
        "    def create_tables(self, tables):\n"
        "        with self.atomic():\n"
        "            return list(tables)\n"
    ),
    "db/sqlite.py": (
        "from db.base import Engine\n\n\n"
        "class SQLiteEngine(Engine):\n"
        "    def atomic(self):\n"
        "        lock = self.lock()\n"
        "        return lock\n\n"
        "    def lock(self):\n"
        "        return object()\n"
    ),
}


def test_an_abstract_methods_implementations_are_cited_at_its_def_not_its_decorator(tmp_path: Path) -> None:
    """`Engine.atomic` is answered by `SQLiteEngine.atomic`: the link lands on `def atomic` (db/base.py:6),
    not on the `@abstractmethod` above it (piccolo's engine/base.py:150)."""
    facts = facts_of(tmp_path, ENGINES)
    assert facts.calls is not None
    dispatched = facts.calls.calls_of("db/base.py", {"Engine.atomic"}, dispatched=True)
    assert [(e.callee, e.line) for e in dispatched] == [("SQLiteEngine.atomic", 6)]
