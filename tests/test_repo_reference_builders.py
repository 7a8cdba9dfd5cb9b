"""The Configuration page leads with what the project's own quick start calls: the chainable setters of a
builder (`Builder::new().num_threads(8)`, `Caffeine.newBuilder().maximumSize(…)`), each with what it takes
and its doc line, and the keyword arguments of the function the examples call (dataset's `connect`) before
those of the entries imported most."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.model import Symbol
from generator.repo.reference import builders
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

POOL = {
    "Cargo.toml": '[package]\nname = "pool"\nversion = "0.1.0"\nedition = "2021"\n',
    "README.md": (
        "# pool\n\nPool runs jobs on a fixed set of worker threads.\n\n## Usage\n\n```rust\n"
        'let pool = pool::Builder::new()\n    .num_threads(8)\n    .thread_name("worker".into())\n'
        '    .build();\npool.execute(|| println!("hi"));\n```\n'
    ),
    "src/lib.rs": (
        "//! A thread pool.\n\n/// Configures a pool before it is built.\npub struct Builder {\n"
        "    num_threads: Option<usize>,\n    thread_name: Option<String>,\n}\n\n"
        "impl Builder {\n    /// A builder with no settings.\n    pub fn new() -> Builder {\n"
        "        Builder { num_threads: None, thread_name: None }\n    }\n\n"
        "    /// How many threads run jobs (default: one per CPU).\n"
        "    pub fn num_threads(mut self, num_threads: usize) -> Builder {\n"
        "        self.num_threads = Some(num_threads);\n        self\n    }\n\n"
        "    /// The name of each worker thread.\n"
        "    pub fn thread_name(mut self, name: String) -> Builder {\n"
        "        self.thread_name = Some(name);\n        self\n    }\n\n"
        "    /// The pool.\n    pub fn build(self) -> ThreadPool {\n        ThreadPool { size: 1 }\n    }\n}\n\n"
        "/// Runs jobs.\npub struct ThreadPool {\n    size: usize,\n}\n\n"
        "impl ThreadPool {\n    /// Runs `job` on a worker.\n    pub fn execute<F: FnOnce()>(&self, job: F) {\n"
        "        job()\n    }\n}\n\n"
        "/// A link of the job queue.\npub struct Node {\n    next: Option<Box<Node>>,\n}\n\n"
        "impl Node {\n    /// The link after this one.\n    pub fn next(&self) -> Node {\n"
        "        Node { next: None }\n    }\n\n    /// The last link.\n"
        "    pub fn last(&self) -> Node {\n        Node { next: None }\n    }\n}\n"
    ),
}


def _configuration(tmp_path: Path, files: dict[str, str]) -> str:
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(paths, config, provider, repo_target(paths, config, str(root)))
    publish_repo(result)
    return read_page(result.study.harvest_dir / "reference" / "configuration.md")[1]


def test_a_builder_the_quick_start_chains_leads_the_configuration_page(tmp_path: Path) -> None:
    """rust-threadpool's and rayon's settings are the setters of their builders: no config struct, no
    keyword arguments, so the page was missing (rust-threadpool) or led with build features (rayon)."""
    page = _configuration(tmp_path, POOL)
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    assert headings[0] == "## Settings of `Builder`"
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert rows[0].startswith("| `num_threads` | `num_threads: usize` | How many threads run jobs")
    assert rows[1].startswith("| `thread_name` | `name: String` | The name of each worker thread.")
    assert "`build`" not in page and "`new`" not in page  # what builds one is no setting
    assert "`Node`" not in page and "`last`" not in page  # a type returning itself is no builder


def test_two_builders_of_one_name_keep_their_setters_apart(tmp_path: Path) -> None:
    """env_logger's `Builder` and its env_filter crate's, reqwest's `RequestBuilder` and its wasm one: their
    setters shared one table, the second's of the same names dropped as repeats and its own (`parse`)
    left among the first's as if that type had it."""
    filter_rs = (
        "//! Filters.\n\n/// Builds a filter.\npub struct Builder {\n    level: usize,\n}\n\n"
        "impl Builder {\n    /// How many threads.\n    pub fn num_threads(mut self, n: usize) -> Builder {\n"
        "        self\n    }\n\n    /// Parses directives.\n    pub fn parse(mut self, spec: &str) -> Builder {\n"
        "        self\n    }\n}\n"
    )
    page = _configuration(tmp_path, {**POOL, "src/filter.rs": filter_rs})
    table = page.split("## Settings of `Builder`", 1)[1].split("\n## ", 1)[0]
    assert "`num_threads`" in table and "`thread_name`" in table and "`parse`" not in table
    assert "src/filter.rs" not in table


DATASET = {
    "README.md": (
        "# tinydb\n\nTinydb reads and writes SQL tables as dictionaries.\n\n## Quickstart\n\n```python\n"
        "import tinydb\nfrom tinydb.fields import IntField, TextField\n\n\nclass User(tinydb.Model):\n"
        "    id = IntField(primary_key=True)\n    name = TextField(max_length=50)\n\n\n"
        "db = tinydb.connect('sqlite:///:memory:')\n```\n"
    ),
    "tinydb/__init__.py": (
        '"""Tinydb."""\n\nfrom tinydb.database import Database\nfrom tinydb.table import Table\n\n\n'
        "def connect(url: str | None = None, schema: str | None = None, ensure_schema: bool = True) -> Database:\n"
        '    """Opens a connection to a database."""\n    return Database(url, schema, ensure_schema)\n\n\n'
        '__all__ = ["connect", "Database", "Table"]\n'
    ),
    "tinydb/database.py": (
        '"""A database."""\n\nfrom tinydb.table import Table\n\n\nclass Database:\n    """A database."""\n\n'
        "    def __init__(self, url: str, schema: str | None = None, ensure_schema: bool = True) -> None:\n"
        "        self.url = url\n\n    def table(self, name: str) -> Table:\n        return Table(self, name)\n"
    ),
    "tinydb/table.py": (
        '"""A table."""\n\n\nclass Table:\n    """A table."""\n\n'
        "    def __init__(self, db: object, name: str, primary_id: str = 'id', chunk_size: int = 1000,"
        " auto_create: bool = True) -> None:\n        self.name = name\n"
    ),
    "tinydb/fields.py": (
        '"""Fields."""\n\n\nclass Field:\n    """A column."""\n\n'
        "    def __init__(self, primary_key: bool = False, null: bool = False) -> None:\n        self.null = null\n\n\n"
        'class IntField(Field):\n    """An integer."""\n\n'
        "    def __init__(self, primary_key: bool = False, null: bool = False) -> None:\n        self.null = null\n\n\n"
        'class TextField(Field):\n    """Text."""\n\n'
        "    def __init__(self, max_length: int = 255, null: bool = False) -> None:\n        self.null = null\n\n\n"
        '__all__ = ["Field", "IntField", "TextField"]\n'
    ),
    "tinydb/query.py": '"""Queries."""\n\nfrom tinydb.table import Table\n\n\ndef rows(table: Table) -> list:\n    return []\n',
    "tinydb/util.py": '"""Helpers."""\n\nfrom tinydb.table import Table\n\n\ndef name(table: Table) -> str:\n    return ""\n',
}


def test_the_arguments_of_what_the_quick_start_calls_come_first(tmp_path: Path) -> None:
    """dataset's quick start calls `connect`; its Configuration page listed the arguments of `Table` (the
    most imported entry) and `Database` before them. The fields of the user's own model that an example
    declares first (tortoise's `IntField`, `TextField`) are no entry: they stay after it. A class the docs
    never build (`Table`, which `db.table(name)` makes; ormar's `QuerySet`, `OrderAction`) is set up by the
    library, not the user: its arguments are no configuration."""
    page = _configuration(tmp_path, DATASET)
    headings = [line for line in page.splitlines() if line.startswith("## Arguments")]
    assert headings[0] == "## Arguments of `connect`"
    assert "## Arguments of `IntField`" in headings
    assert "## Arguments of `Table`" not in headings and "## Arguments of `Database`" not in headings


CACHE = {
    "pyproject.toml": '[project]\nname = "tinycache"\nversion = "1.0"\n',
    "README.md": (
        "# tinycache\n\nTinycache keeps the values of slow functions in a cache region.\n\n## Usage\n\n```python\n"
        "from tinycache import make_region\n\nregion = make_region().configure('memory', expiration_time=3600)\n"
        "region.set('key', 'value')\nregion.invalidate()\n```\n"
    ),
    "tinycache/__init__.py": '"""Tinycache."""\n\nfrom .region import make_region\n\n__all__ = ["make_region"]\n',
    "tinycache/region.py": (
        '"""Cache regions."""\n\n\nclass Region:\n    """A cache region."""\n\n'
        "    def configure(self, backend, expiration_time=None, arguments=None, replace_existing=False):\n"
        '        """Set up the region.\n\n        :param expiration_time: seconds a value lives.\n        """\n'
        "        return self\n\n"
        "    def set(self, key, value):\n        pass\n\n"
        "    def invalidate(self, hard=True):\n        pass\n\n\n"
        'def make_region(name=None):\n    """A new region."""\n    return Region()\n'
    ),
}


def test_the_arguments_of_a_method_the_quick_start_calls_are_settings(tmp_path: Path) -> None:
    """dogpile.cache is set up by `make_region().configure(backend, expiration_time=…, arguments=…)`, loguru
    by `logger.add(…)`: the Configuration page listed `make_region`'s `name` and nothing of `configure`. A
    method taking one optional argument (`invalidate(hard=True)`, aiocache's `delete(key, namespace=None)`)
    is an operation, not a set-up: it stays off."""
    page = _configuration(tmp_path, CACHE)
    headings = [line for line in page.splitlines() if line.startswith("## Arguments")]
    assert "## Arguments of `Region.configure`" in headings
    assert "## Arguments of `Region.invalidate`" not in headings
    rows = [line for line in page.splitlines() if line.startswith("| `expiration_time`")]
    assert rows and "seconds a value lives" in rows[0]


CRON = {
    "go.mod": "module example.com/tick\n\ngo 1.21\n",
    "README.md": (
        "# tick\n\nTick runs jobs on a schedule, like cron.\n\n## Usage\n\n```go\n"
        'c := tick.New(tick.WithSeconds(), tick.WithLocation(time.UTC))\nc.Add("@every 1s", job)\n```\n'
    ),
    "tick.go": (
        "package tick\n\n// Tick runs jobs.\ntype Tick struct {\n\tseconds bool\n}\n\n"
        "// New returns a scheduler configured by the options given.\n"
        "func New(opts ...Option) *Tick {\n\tt := &Tick{}\n\tfor _, o := range opts {\n\t\to(t)\n\t}\n\treturn t\n}\n\n"
        "// Add schedules a job.\nfunc (t *Tick) Add(spec string, job func()) error { return nil }\n"
    ),
    "option.go": (
        'package tick\n\nimport "time"\n\n// Option configures a Tick.\ntype Option func(*Tick)\n\n'
        "// WithSeconds lets a spec start with a seconds field.\nfunc WithSeconds() Option {\n"
        "\treturn func(t *Tick) { t.seconds = true }\n}\n\n"
        "// WithLocation sets the time zone specs are read in (default: time.Local).\n"
        "func WithLocation(loc *time.Location) Option {\n\treturn func(t *Tick) {}\n}\n\n"
        "// WithPanicHandler handles a job's panic.\n"
        "func WithPanicHandler(handler func(any)) Option {\n\treturn func(t *Tick) {}\n}\n"
    ),
}


def test_go_functional_options_are_the_settings_of_what_takes_them(tmp_path: Path) -> None:
    """ants' `WithPreAlloc`, robfig/cron's `WithSeconds`, kong's `Name`: functions making a value that
    `New(opts ...Option)` takes were on no page."""
    page = _configuration(tmp_path, CRON)
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    assert headings[0] == "## Options of `New`"
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert rows[0].startswith("| `WithSeconds` | — | WithSeconds lets a spec start with a seconds field.")
    assert rows[1].startswith("| `WithLocation` | `loc *time.Location` | WithLocation sets the time zone")
    assert rows[2].startswith("| `WithPanicHandler` | `handler func(any)` | WithPanicHandler handles")


def test_a_context_manager_s_enter_is_no_setter() -> None:
    """werkzeug's `Response.__enter__` returns `Response`, as does its `make_conditional`: two methods
    returning the type made it a builder, and "Settings of `Response`" led the Configuration page with
    `__enter__` as its first setting. A dunder is the language's protocol, never an option a user sets."""
    text = (
        "class Response:\n"
        "    def __enter__(self) -> Response:\n        return self\n\n"
        "    def make_conditional(self, request: Request, accept_ranges: bool = False) -> Response:\n"
        "        return self\n\n"
        "class Query:\n"
        "    def paging(self, offset: int, num: int) -> Query:\n        return self\n\n"
        "    def sort_by(self, field: str, asc: bool = True) -> Query:\n        return self\n"
    )
    symbols = [
        Symbol("Response.__enter__", "method", 2, 3, parent="Response"),
        Symbol("Response.make_conditional", "method", 5, 6, parent="Response"),
        Symbol("Query.paging", "method", 9, 10, parent="Query"),
        Symbol("Query.sort_by", "method", 12, 13, parent="Query"),
    ]
    found = builders.chainable_setters(text.splitlines(), symbols, "python")
    assert [s.method.name for s in found] == ["Query.paging", "Query.sort_by"]
    assert found[0].takes == "offset: int, num: int"


def test_a_method_returning_an_awaitable_of_itself_is_no_setter() -> None:
    """beanie's `Document.set`, `current_date` and `inc` return `Coroutine[None, None, Self]`: database
    updates a user awaits. Their declared type was read by its last name, `Self`, and "Settings of
    `Document`" told the Configuration page they "chain before it is built". An `async def` returning
    `Self` is awaited the same way; a type holding the class (`list[Self]`) is not the class."""
    text = (
        "class Document:\n"
        "    def set(self: Self, expression: dict, session=None) -> Coroutine[None, None, Self]:\n"
        "        return self.update(expression)\n\n"
        "    def inc(self: Self, expression: dict) -> Coroutine[None, None, Self]:\n"
        "        return self.update(expression)\n\n"
        "    async def save(self, session=None) -> Self:\n        return self\n\n"
        "    async def replace(self, session=None) -> Self:\n        return self\n\n"
        "    def copies(self, n: int) -> list[Self]:\n        return [self]\n\n"
        "    def siblings(self) -> list[Self]:\n        return [self]\n\n"
        "class Query:\n"
        "    def limit(self, n: int) -> Self:\n        return self\n\n"
        "    def sort(self, *keys: str) -> 'Query':\n        return self\n"
    )
    symbols = [
        Symbol("Document.set", "method", 2, 3, parent="Document"),
        Symbol("Document.inc", "method", 5, 6, parent="Document"),
        Symbol("Document.save", "method", 8, 9, parent="Document"),
        Symbol("Document.replace", "method", 11, 12, parent="Document"),
        Symbol("Document.copies", "method", 14, 15, parent="Document"),
        Symbol("Document.siblings", "method", 17, 18, parent="Document"),
        Symbol("Query.limit", "method", 21, 22, parent="Query"),
        Symbol("Query.sort", "method", 24, 25, parent="Query"),
    ]
    found = builders.chainable_setters(text.splitlines(), symbols, "python")
    assert [s.method.name for s in found] == ["Query.limit", "Query.sort"]
