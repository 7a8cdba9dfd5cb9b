"""Python calls through what the code declares of its values' types (pytypes.py): a property's return
annotation, a TypeVar's bound, and what a `with … as name` statement binds."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository

# ormar's shape: the query set's `model` is a property typed `type["T"]`, T a TypeVar bound to the Model the
# package re-exports (from orm/__init__.py, from orm/models/__init__.py, defined in orm/models/model.py)
ORM = {
    "orm/__init__.py": '"""An ORM."""\nfrom orm.models import Model\n',
    "orm/models/__init__.py": "from orm.models.model import Model\n",
    "orm/models/row.py": (
        "class ModelRow:\n    @classmethod\n    def from_row(cls, row):\n        return cls(row)\n\n"
        "    def save(self):\n        return self\n"
    ),
    "orm/models/model.py": "from orm.models.row import ModelRow\n\n\nclass Model(ModelRow):\n    pass\n",
    "orm/config.py": (
        "class Executor:\n    def fetch_all(self, query):\n        return query\n\n\n"
        "class Config:\n    def __init__(self, name):\n        self.name = name\n\n"
        "    @property\n    def executor(self) -> Executor:\n        return Executor()\n"
    ),
    "orm/queryset.py": (
        "from typing import TYPE_CHECKING, Generic, TypeVar\n\nfrom orm.config import Config\n\n"
        'if TYPE_CHECKING:\n    from orm import Model\nelse:\n    T = TypeVar("T", bound="Model")\n\n\n'
        "class QuerySet(Generic[T]):\n    def __init__(self, model_cls, config: Config):\n"
        "        self.model_cls = model_cls\n        self.settings = config\n\n"
        '    @property\n    def model(self) -> type["T"]:\n        return self.model_cls\n\n'
        '    @property\n    def config(self) -> "Config":\n        return self.settings\n\n'
        "    def all(self, query):\n        rows = self.config.executor.fetch_all(query)\n"
        "        return [self.model.from_row(row) for row in rows]\n\n"
        "    def clone(self):\n        return make(self.model, self.config)\n\n"
        "    def first(self):\n        return self.save()\n\n\n"
        "def make(model, config):\n    return QuerySet(model, config)\n"
    ),
}


def _calls(root: Path, path: str) -> set[tuple[str, str]]:
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    edges = facts.calls.edges([path])
    return {(e.caller, e.callee) for e in edges if not e.dispatched and not e.inferred}


def test_a_property_gives_its_return_annotation_and_a_typevar_its_bound(tmp_path: Path) -> None:
    calls = _calls(write_tree(tmp_path / "repo", ORM), "orm/queryset.py")
    assert ("QuerySet.all", "ModelRow.from_row") in calls  # `type["T"]`, T bound to the re-exported Model
    assert ("QuerySet.all", "Executor.fetch_all") in calls  # a property of a property's class


def test_a_generic_base_and_a_property_read_are_no_class_and_no_method(tmp_path: Path) -> None:
    calls = _calls(write_tree(tmp_path / "repo", ORM), "orm/queryset.py")
    # `Generic[T]` does not make the query set a Model: `self.save()` is no method of it
    assert not {callee for caller, callee in calls if caller == "QuerySet.first"}
    # `make(self.model, …)` hands over what the property gives, not the property to call back
    assert {callee for caller, callee in calls if caller == "QuerySet.clone"} == {"make"}


def test_a_class_typed_by_a_typevar_handed_over_is_not_called_back(tmp_path: Path) -> None:
    # `Proxy(to)` with `to: type["T"]`: the user's model, any subclass of the bound; its bound's API (`save`)
    # is not what the proxy calls back
    files = {
        **ORM,
        "orm/models/model.py": (
            "from orm.models.row import ModelRow\n\n\nclass Model(ModelRow):\n"
            "    def upsert(self):\n        return self\n\n    def delete(self):\n        return None\n"
        ),
        "orm/proxy.py": (
            'from typing import TypeVar\n\nT = TypeVar("T", bound="Model")\n\n\n'
            "class Proxy:\n    def __init__(self, to):\n        self.to = to\n\n\n"
            'def relate(to: type["T"]):\n    return Proxy(to)\n'
        ),
    }
    facts = extract_facts(write_tree(tmp_path / "repo", files), map_repository(tmp_path / "repo"))
    assert facts.calls is not None
    edges = facts.calls.edges(["orm/proxy.py"])
    assert {e.callee for e in edges if e.caller == "relate"} == {"Proxy"}


# ormar's shape: `async with self.database.executor() as runner:` — an `@asynccontextmanager` method
# annotated `-> AsyncIterator[Executor]`; the name `runner` says nothing of its class
DATABASE = {
    "db/__init__.py": '"""A database layer."""\n',
    "db/executor.py": (
        "class Executor:\n    def fetch_all(self, query):\n        return query\n\n"
        "    def close(self):\n        return None\n"
    ),
    "db/pool.py": (
        "from db.executor import Executor\n\n\n"
        "class Connection:\n    def ping(self):\n        return True\n\n\n"
        "class Pool:\n    def __init__(self):\n        self.conn = Connection()\n\n"
        "    def __enter__(self) -> Connection:\n        return self.conn\n\n"
        "    def __exit__(self, *exc):\n        return None\n\n"
        "    def ping(self):\n        return False\n\n\n"
        "class Session:\n    async def __aenter__(self):\n        return self\n\n"
        "    async def __aexit__(self, *exc):\n        return None\n\n"
        "    def commit(self):\n        return None\n\n\n"
        "class Lease:\n    def __enter__(self):\n        return self.conn\n\n"
        "    def __exit__(self, *exc):\n        return None\n\n"
        "    def ping(self):\n        return None\n"
    ),
    "db/connection.py": (
        "from contextlib import asynccontextmanager\nfrom typing import AsyncIterator\n\n"
        "from db.executor import Executor\n\n\n"
        "class Database:\n    @asynccontextmanager\n"
        "    async def executor(self) -> AsyncIterator[Executor]:\n        yield Executor()\n"
    ),
    "db/query.py": (
        "from db.connection import Database\nfrom db.pool import Lease, Pool, Session\n\n\n"
        "class Query:\n    def __init__(self, database: Database):\n        self.database = database\n\n"
        "    async def run(self, sql):\n        async with self.database.executor() as runner:\n"
        "            return runner.fetch_all(sql)\n\n"
        "    def check(self):\n        with Pool() as handle:\n            return handle.ping()\n\n"
        "    async def save(self):\n        async with Session() as unit:\n            unit.commit()\n\n"
        "    def lease(self):\n        with Lease() as held:\n            return held.ping()\n"
    ),
}


def test_a_name_a_with_statement_binds_holds_what_entering_its_manager_gives(tmp_path: Path) -> None:
    calls = _calls(write_tree(tmp_path / "repo", DATABASE), "db/query.py")
    assert ("Query.run", "Executor.fetch_all") in calls  # the @asynccontextmanager's yield type
    assert ("Query.check", "Connection.ping") in calls  # `__enter__(self) -> Connection`
    assert ("Query.check", "Pool.ping") not in calls
    assert ("Query.save", "Session.commit") in calls  # `__aenter__` returns self
    # `Lease.__enter__` gives what it keeps, not itself: its class is not known
    assert ("Query.lease", "Lease.ping") not in calls


# ormar's model rows: a class method hands the model class it was given on, to its own helper and to the
# next row's `from_row`; nothing there makes a handler of it to call back
ROWS = {
    "rows/__init__.py": '"""Rows made into models."""\n',
    "rows/row.py": (
        'class ModelRow:\n    @classmethod\n    def from_row(cls, row, source_model: type["Model"]):\n'
        "        prefix = cls._prefix(source_model=source_model)\n"
        "        nested = cls.fields[row].to.from_row(row, source_model=source_model)\n"
        "        return cls(prefix, nested)\n\n"
        '    @classmethod\n    def _prefix(cls, source_model: type["Model"]):\n        return source_model.name\n\n\n'
        "from rows.model import Model  # noqa: E402\n"
    ),
    "rows/model.py": (
        "from rows.row import ModelRow\n\n\nclass Model(ModelRow):\n"
        "    def save(self):\n        return self\n\n    def load_all(self):\n        return self\n"
    ),
}


def test_a_model_class_handed_on_by_its_own_kind_is_not_called_back(tmp_path: Path) -> None:
    facts = extract_facts(write_tree(tmp_path / "repo", ROWS), map_repository(tmp_path / "repo"))
    assert facts.calls is not None
    edges = facts.calls.edges(["rows/row.py"])
    assert not [e for e in edges if e.caller == "ModelRow.from_row" and e.handed]


# beanie's shape: an object made to be awaited (`__await__`) runs its work when awaited — made there, given by a
# typed method (`find_one(…) -> FindOne[T] | None`) or held by a local; an `async def`'s annotation is its result
AWAITED = {
    "odm/__init__.py": '"""An ODM."""\n',
    "odm/query.py": (
        "from typing import Generic, Optional, TypeVar\n\n"
        'T = TypeVar("T")\n\n\n'
        "class FindOne(Generic[T]):\n    def __init__(self, model):\n        self.model = model\n\n"
        "    async def _find_one(self):\n        return None\n\n"
        "    def __await__(self):\n        return (yield from self._find_one().__await__())\n\n\n"
        "class Found:\n    def __await__(self):\n        yield\n\n\n"
        "class Finder:\n    def find_one(self, model) -> FindOne[T] | None:\n        return FindOne(model)\n\n"
        "    def maybe(self, model) -> Optional[FindOne]:\n        return FindOne(model)\n\n"
        "    async def fetched(self, model) -> Found:\n        return Found()\n\n\n"
        "class Init:\n    def __await__(self):\n        yield\n"
    ),
    "odm/api.py": (
        "from odm.query import FindOne, Finder, Init\n\n\n"
        "async def init():\n    await Init()\n\n\n"
        "async def get(finder: Finder, model):\n    return await finder.find_one(model)\n\n\n"
        "async def get_maybe(finder: Finder, model):\n    return await finder.maybe(model)\n\n\n"
        "async def held(model):\n    query = FindOne(model)\n    return await query\n\n\n"
        "async def given(query: FindOne):\n    return await query\n\n\n"
        "async def done(finder: Finder, model):\n    return await finder.fetched(model)\n"
    ),
}


def test_awaiting_an_object_of_the_repository_runs_its_await(tmp_path: Path) -> None:
    calls = _calls(write_tree(tmp_path / "repo", AWAITED), "odm/api.py")
    awaits = {caller for caller, callee in calls if callee == "FindOne.__await__"}
    assert ("init", "Init.__await__") in calls  # made where it is awaited
    assert awaits == {"get", "get_maybe", "held", "given"}  # a typed call's, a local's, a parameter's
    # a coroutine's call gives its result when awaited: `Found.__await__` is not what `await fetched()` runs
    assert ("done", "Found.__await__") not in calls
    assert ("done", "Finder.fetched") in calls


# a call on what another call gives: `self.find_one(q).update()` reaches the method of the class the first
# one's return annotation names — one class, not a container of it, not one of two a union names, not a
# coroutine's
CHAINED = {
    "odm/__init__.py": '"""An ODM."""\n',
    "odm/query.py": (
        "from typing import Generic, Optional, TypeVar\n\n"
        'T = TypeVar("T")\n\n\n'
        "class UpdateOne:\n    def __await__(self):\n        yield\n\n\n"
        "class DeleteOne:\n    def __await__(self):\n        yield\n\n\n"
        "class DeleteMany:\n    def __await__(self):\n        yield\n\n\n"
        "class FindOne(Generic[T]):\n    def update(self) -> UpdateOne:\n        return UpdateOne()\n\n"
        "    def delete(self) -> DeleteOne | DeleteMany:\n        return DeleteOne()\n\n\n"
        "class Finder:\n    def find_one(self) -> Optional[FindOne[T]]:\n        return FindOne()\n\n"
        "    def find_all(self) -> list[FindOne]:\n        return [FindOne()]\n\n"
        "    async def fetched(self) -> FindOne:\n        return FindOne()\n"
    ),
    "odm/api.py": (
        "from odm.query import Finder\n\n\n"
        "async def update(finder: Finder):\n    return await finder.find_one().update()\n\n\n"
        "async def delete(finder: Finder):\n    return await finder.find_one().delete()\n\n\n"
        "def listed(finder: Finder):\n    return finder.find_all().update()\n\n\n"
        "def unawaited(finder: Finder):\n    return finder.fetched().update()\n"
    ),
}


def test_a_call_on_what_a_typed_call_gives_reaches_that_class(tmp_path: Path) -> None:
    calls = _calls(write_tree(tmp_path / "repo", CHAINED), "odm/api.py")
    assert {("update", "FindOne.update"), ("update", "UpdateOne.__await__")} <= calls  # Optional[FindOne[T]]
    assert ("delete", "FindOne.delete") in calls
    # `DeleteOne | DeleteMany` names no one class; a list's elements and a coroutine are not what is called
    assert not {callee for caller, callee in calls if callee.endswith("__await__") and caller == "delete"}
    made = {callee for caller, callee in calls if caller in {"listed", "unawaited"}}
    assert made == {"Finder.find_all", "Finder.fetched"}
