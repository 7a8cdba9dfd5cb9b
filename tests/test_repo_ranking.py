"""Key symbols: exported, used and large definitions first; stubs, dunders and private helpers last; JS
property-assigned functions and Go methods found; class bases recorded; package re-exports followed."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.facts.ranking import RankedSymbol, key_symbols, leading_symbols
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts

W_FILE = 3.0  # a symbol's score plus this times its file's importance


def repository_symbols(facts: Facts, limit: int = 20) -> list[RankedSymbol]:
    """The repository's most important symbols across its source modules (tests and examples left out): a
    symbol's score gains its file's importance, so the core module's main class leads."""
    found: list[RankedSymbol] = []
    for path, fact in facts.files.items():
        if is_context_file(path) or not fact.symbols:
            continue
        for entry in key_symbols(facts, path, limit=3):
            score = round(entry.score + W_FILE * fact.importance, 4)
            found.append(RankedSymbol(entry.symbol, score, path, entry.methods))
    found.sort(key=lambda r: (-r.score, r.path, r.symbol.start))
    return found[:limit]


SESSIONS = '''"""
web.sessions
~~~~~~~~~~~~

Sessions keep settings across
requests.
"""
from typing import overload


def _merge(a, b):
    return a or b


class Base:
    pass


class Session(Base):
    """A session: cookies and settings kept across requests."""

    def __repr__(self):
        return "Session()"

    def __getattr__(self, name):
        raise AttributeError(name)

    @overload
    def request(self, method: str) -> str: ...
    @overload
    def request(self, method: bytes) -> bytes: ...
    def request(self, method):
        """Send a request."""
        prepared = self.prepare(method)
        return self.send(prepared)

    def prepare(self, method):
        """Prepare a request."""
        return _merge(method, None)

    def send(self, prepared):
        """Send a prepared request."""
        return prepared

    def _helper(self):
        return 1
''' + "\n".join(f"\ndef helper_{i}():\n    return {i}\n" for i in range(6))
FILES = {
    "web/__init__.py": '"""Web."""\nfrom .sessions import Session\nfrom .api import get\n',
    "web/sessions.py": SESSIONS,
    "web/api.py": '"""The API."""\nfrom . import sessions\n\n\ndef get(url):\n    """Get a URL."""\n'
    "    return sessions.Session().request('GET')\n",
    "web/cli.py": "from web.sessions import Session\nfrom web import Session as S\n",
    "tests/test_sessions.py": "from web.sessions import Session\n\n\ndef test_it():\n    Session()\n",
    "js/application.js": "/*!\n * app\n * Copyright(c) 2014 Someone\n * MIT Licensed\n */\n\n"
    "'use strict';\n\nvar app = exports = module.exports = {};\n\n"
    "/**\n * Use the given middleware.\n *\n * @public\n */\n\napp.use = function use(fn) {\n  return fn;\n};\n\n"
    "app._hidden = function () {};\n\nRouter.prototype.route = function route(p) {\n  return p;\n};\n"
    "\nclass Layer extends Base {}\n",
    "go/command.go": "// Package cli builds commands.\npackage cli\n\n// Command is one command.\n"
    "type Command struct {\n\tUse string\n}\n\n// Execute runs the command.\nfunc (c *Command) Execute() error "
    "{\n\treturn c.run()\n}\n\nfunc (c *Command) run() error {\n\treturn nil\n}\n\nfunc helper() {}\n",
}


def make_facts(tmp_path: Path) -> Facts:
    root = write_tree(tmp_path / "repo", FILES)
    return extract_facts(root, map_repository(root))


def names(facts: Facts, path: str) -> list[str]:
    return [r.symbol.name for r in key_symbols(facts, path)]


def test_python_main_class_leads_with_its_public_methods_not_stubs_or_dunders(tmp_path: Path) -> None:
    facts = make_facts(tmp_path)
    fact = facts.files["web/sessions.py"]
    assert fact.doc == "Sessions keep settings across requests."
    assert "Session" in fact.exports  # re-exported by the package
    assert fact.name_uses["Session"] == 3  # web/__init__, web/cli (twice through the package), the test
    ranked = key_symbols(facts, "web/sessions.py")
    top = ranked[0]
    assert top.symbol.name == "Session" and top.symbol.bases == ("Base",)
    methods = [m.name for m in top.methods]
    assert methods[:1] == ["Session.request"] and set(methods) >= {"Session.prepare", "Session.send"}
    assert all(not m.stub for m in top.methods)
    assert not {"Session.__repr__", "Session.__getattr__", "Session._helper"} & set(methods)
    assert all(m.parent == "Session" for m in top.methods)
    assert "_merge" not in names(facts, "web/sessions.py")[:4]


def test_a_propertys_getter_and_setter_are_listed_once(tmp_path: Path) -> None:
    files = {
        "kit/__init__.py": "from .table import Table\n",
        "kit/table.py": (
            "class Table:\n"
            '    """A table."""\n\n'
            "    @property\n    def expand(self):\n"
            '        """Whether the table fills the width."""\n        return self._expand\n\n'
            "    @expand.setter\n    def expand(self, value):\n"
            '        """Set expand."""\n        self._expand = value\n\n'
            "    def add_row(self, *cells):\n"
            '        """Add a row."""\n        return cells\n'
        ),
    }
    facts = extract_facts(write_tree(tmp_path / "repo", files), map_repository(tmp_path / "repo"))
    top = key_symbols(facts, "kit/table.py")[0]
    methods = [(m.name, m.doc) for m in top.methods]
    assert sorted(methods) == [
        ("Table.add_row", "Add a row."),
        ("Table.expand", "Whether the table fills the width."),
    ]


def test_budget_grows_with_the_file_and_limit_is_honoured(tmp_path: Path) -> None:
    facts = make_facts(tmp_path)
    assert len(key_symbols(facts, "web/sessions.py", limit=2)) == 2
    assert len(key_symbols(facts, "web/sessions.py")) == 3  # a ~70-line file shows the minimum budget
    assert key_symbols(facts, "missing.py") == []


def test_repository_ranking_puts_the_public_api_first_and_leaves_tests_out(tmp_path: Path) -> None:
    facts = make_facts(tmp_path)
    ranked = repository_symbols(facts, limit=5)
    assert ranked[0].symbol.name == "Session" and ranked[0].path == "web/sessions.py"
    assert all(not r.path.startswith("tests/") for r in ranked)
    assert "get" in [r.symbol.name for r in ranked]
    assert "get" in facts.files["web/api.py"].api_names


def test_js_property_assigned_functions_are_symbols_of_the_exported_object(tmp_path: Path) -> None:
    facts = make_facts(tmp_path)
    fact = facts.files["js/application.js"]
    assert fact.doc == ""  # only a licence header under the project's name
    by_name = {s.name: s for s in fact.symbols}
    use = by_name["app.use"]
    assert (use.parent, use.exported, use.doc, use.start) == ("app", True, "Use the given middleware.", 17)
    assert not by_name["app._hidden"].public
    assert by_name["Router.route"].parent == "Router"
    assert by_name["Layer"].bases == ("Base",)
    assert names(facts, "js/application.js")[0] == "app.use"


def test_go_methods_belong_to_their_type_and_capitalised_names_are_exported(tmp_path: Path) -> None:
    facts = make_facts(tmp_path)
    fact = facts.files["go/command.go"]
    assert fact.doc == "Package cli builds commands."
    by_name = {s.name: s for s in fact.symbols}
    assert by_name["Command.Execute"].parent == "Command" and by_name["Command.Execute"].exported
    assert not by_name["helper"].exported
    top = key_symbols(facts, "go/command.go")[0]
    assert top.symbol.name == "Command" and [m.name for m in top.methods][0] == "Command.Execute"


def test_names_crossing_an_import_edge_are_known_from_the_imports(tmp_path: Path) -> None:
    facts = make_facts(tmp_path)
    assert facts.files["web/cli.py"].names_from == {
        "web/__init__.py": ["Session"],
        "web/sessions.py": ["Session"],
    }
    assert facts.files["web/__init__.py"].names_from == {
        "web/api.py": ["get"],
        "web/sessions.py": ["Session"],
    }


def test_readme_code_jsdoc_tags_and_the_package_main_steer_js_ranking(tmp_path: Path) -> None:
    files = {
        "README.md": "# lib\n\nA library.\n\n```js\nconst lib = require('lib')\nlib.listen(3000)\n```\n",
        "package.json": '{"name": "lib", "main": "index.js"}',
        "index.js": "module.exports = require('./lib/app');\n",
        "lib/app.js": (
            "var app = exports = module.exports = {};\n\n"
            "/**\n * Set things up.\n * @private\n */\napp.init = function init() {\n"
            + "  var a = 1;\n" * 30
            + "};\n\n/**\n * Listen for connections.\n * @public\n */\napp.listen = function listen() {\n  return 1;\n};\n"
        ),
        "lib/utils.js": "/**\n * Helper.\n * @private\n */\nexports.helper = function helper() {\n  return 1;\n};\n",
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert {"lib", "listen"} <= facts.mentioned and "require" not in facts.mentioned
    assert "app" in facts.files["lib/app.js"].api_names  # required by the package's main module
    assert names(facts, "lib/app.js")[0] == "app.listen"  # shown in the README, `@public`; init is `@private`
    ranked = [r.symbol.name for r in repository_symbols(facts, limit=3)]
    assert ranked[0] == "app.listen"


def test_a_method_the_file_s_docs_point_at_ranks_higher(tmp_path: Path) -> None:
    files = {
        "cli.go": (
            "package cli\n\n// Command is one command.\ntype Command struct{}\n\n"
            "// Alpha does a thing.\nfunc (c *Command) Alpha() {}\n\n"
            "// Execute runs the command.\nfunc (c *Command) Execute() {}\n\n"
            "// ExecuteContext is the same as Execute(), with a context.\nfunc (c *Command) ExecuteContext() {}\n\n"
            "// Run calls Execute() for you.\nfunc (c *Command) Run() {}\n"
        )
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    top = key_symbols(facts, "cli.go")[0]
    assert top.symbol.name == "Command" and top.methods[0].name == "Command.Execute"


def test_a_kept_ranking_answers_as_a_fresh_one_whatever_was_asked_first(tmp_path: Path) -> None:
    """The ranking is kept per file and a class's methods are picked when it is first handed out: asking
    for names only (the catalogue), then for a few, then for all, gives what a fresh ranking gives."""
    facts = make_facts(tmp_path)
    paths = [p for p in facts.files if facts.files[p].symbols]
    for path in paths:
        assert leading_symbols(facts, path, 2) == [
            r.symbol for r in key_symbols(make_facts(tmp_path), path, 2)
        ]
    for path in paths:
        for limit in (1, None, 50):
            assert key_symbols(facts, path, limit) == key_symbols(make_facts(tmp_path), path, limit)
    top = key_symbols(facts, "web/sessions.py", 1)[0]
    assert top.methods and key_symbols(facts, "web/sessions.py")[0] is top  # kept, not picked again
    assert leading_symbols(facts, "missing.py", 3) == []


def test_a_file_with_one_top_level_symbol_leads_with_it_whatever_its_score(tmp_path: Path) -> None:
    """The catalogue names a lone definition without ranking it; the ranking agrees, even when the lone
    definition scores below zero (a private stub class)."""
    root = write_tree(
        tmp_path / "repo",
        {
            "m/model.py": "class Model:\n    def save(self):\n        pass\n",
            "m/_stub.py": "class _Hidden:\n    def _a(self): ...\n",
            "m/two.py": "def one():\n    pass\n\n\ndef _two():\n    pass\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    for path in ("m/model.py", "m/_stub.py", "m/two.py"):
        fresh = extract_facts(root, map_repository(root))
        assert leading_symbols(facts, path, 3) == [r.symbol for r in key_symbols(fresh, path, 3)]
    assert [s.name for s in leading_symbols(facts, "m/_stub.py", 3)] == ["_Hidden"]
    assert key_symbols(facts, "m/_stub.py")[0].score <= 0


ERRORS_REPO = {
    "net/__init__.py": '"""net."""\nfrom net.exceptions import NetError, ReadTimeout\n',
    "net/adapters.py": '"""Transport adapters."""\nfrom net.exceptions import NetError, ReadTimeout\n\n\n'
    'class HTTPAdapter:\n    """Sends requests."""\n\n    def send(self, request):\n'
    "        raise ReadTimeout(request)\n",
    "net/exceptions.py": '"""Errors."""\n\n\nclass NetError(IOError):\n    """Something failed."""\n\n\n'
    'class Timeout(NetError):\n    """Too slow."""\n\n\nclass ReadTimeout(Timeout):\n    """Read too slow."""\n'
    '\n\ndef describe(error):\n    """What went wrong."""\n    return str(error)\n',
    "net/HTTPError.py": '"""An HTTP error."""\n\n\ndef _helper():\n    return 1\n\n\n'
    'def redact(config):\n    """Hides secrets."""\n    return config\n\n\nclass HTTPError(Exception):\n    pass\n',
    "net/compat.py": '"""Old Pythons."""\n\n\ndef to_bytes(text):\n    return text.encode()\n',
    **{
        f"net/user{i}.py": f'"""User {i}."""\nfrom net.exceptions import NetError, Timeout, ReadTimeout\n'
        "from net.compat import to_bytes\n\n\ndef run():\n    raise ReadTimeout(to_bytes(''))\n"
        for i in range(8)
    },
}


def test_error_types_and_compat_shims_rank_after_the_primary_types_however_used(tmp_path: Path) -> None:
    from generator.repo.analyze.citations import Linker
    from generator.repo.analyze.describe import key_functions, key_types, ranked

    root = write_tree(tmp_path / "repo", ERRORS_REPO)
    facts = extract_facts(root, map_repository(root))
    files = ["net/exceptions.py", "net/compat.py", "net/adapters.py"]
    # the errors and the shim are used by every module, the adapter by one: by score alone they would lead
    best = {r.symbol.name: r.score for r in ranked(files, facts)}
    assert max(best["ReadTimeout"], best["to_bytes"]) > best["HTTPAdapter"]
    order = [r.symbol.name for r in ranked(files, facts)]
    assert order[0] == "HTTPAdapter"
    # an error's subclasses in the same file are errors too (Timeout, ReadTimeout subclass NetError)
    lesser = [r.symbol.name for r in ranked(files, facts) if r.secondary]
    assert (
        set(lesser) == {"NetError", "Timeout", "ReadTimeout", "to_bytes"} and order[-len(lesser) :] == lesser
    )
    # a module of errors leads its own line with its errors, not with its one helper
    assert names(facts, "net/exceptions.py")[0] in {"NetError", "Timeout", "ReadTimeout"}
    assert names(facts, "net/HTTPError.py")[0] == "HTTPError"  # one error's module (AxiosError.js)
    linker = Linker({p: 20 for p in ERRORS_REPO}, "")
    assert key_types(files, facts, linker)[0].symbol.name == "HTTPAdapter"
    assert [s.name for s in key_functions(files, facts, linker)] == ["to_bytes"]  # a shim, but the only one
    # the subsystem table's key symbols: the shim function before the error types, though types come first
    from generator.repo.model import Shard, ShardAnalysis

    analysis = ShardAnalysis(
        1,
        Shard("Net", tuple(files)),
        "01_net",
        "",
        key_types=key_types(["net/exceptions.py"], facts, linker),
        functions=key_functions(["net/adapters.py", "net/user0.py"], facts, linker),
    )
    assert analysis.top_symbols[0].name == "run" and analysis.top_symbols[-1].secondary
    # a private class comes after the public function (tabulate's `_CustomTextWrap` before `tabulate`,
    # yarl's `_Quoter`); a protocol's method (`__call__`) is no private one
    from generator.repo.model import CitedSymbol, KeyType

    private = KeyType(CitedSymbol("_TextWrap", "class", "t.py"), ())
    called = CitedSymbol("Table.__call__", "method", "t.py")
    table = ShardAnalysis(
        1,
        Shard("T", ("t.py",)),
        "01_t",
        "",
        key_types=[private],
        functions=[CitedSymbol("tabulate", "function", "t.py"), called],
    )
    assert [s.name for s in table.top_symbols] == ["tabulate", "Table.__call__", "_TextWrap"]


def test_a_package_importing_one_name_from_two_modules_re_exports_both(tmp_path: Path) -> None:
    """redis-py's search package imports `Pipeline as RedisPipeline` from redis.client and `Pipeline as
    AsyncioPipeline` from redis.asyncio.client: one of the two alone was marked re-exported, whichever a set
    of imports gave last, so the same revision gave other pages when the facts came back from forked workers
    than when they were read in one process (its main flow ran through the other client)."""
    pipeline = "class Pipeline:\n    def execute(self):\n        return []\n"
    root = write_tree(
        tmp_path,
        {
            "kv/__init__.py": "",
            "kv/client.py": pipeline,
            "kv/aio/__init__.py": "",
            "kv/aio/client.py": pipeline,
            "kv/search/__init__.py": (
                "from kv.client import Pipeline as KvPipeline\nfrom kv.aio.client import Pipeline as AioPipeline\n"
            ),
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert "Pipeline" in facts.files["kv/client.py"].exports
    assert "Pipeline" in facts.files["kv/aio/client.py"].exports


def test_a_rust_types_impl_blocks_are_the_type_and_its_unit_tests_no_key_symbol(tmp_path: Path) -> None:
    """indicatif's progress_bar.rs listed `ProgressBar` three times (its struct, `impl fmt::Debug for
    ProgressBar`, `impl ProgressBar`) and style.rs its `#[cfg(test)] mod tests` among its key symbols
    (env_logger, reqwest, rayon, actix-web alike). A type's impl blocks are the type, their methods shown
    under it; a type defined in another file is stood for by its longest impl block; unit tests are none."""
    write_tree(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "bar"\n',
            "src/lib.rs": "pub mod bar;\npub mod more;\n",
            "src/bar.rs": (
                "/// A progress bar.\n#[derive(Clone)]\npub struct Bar {\n    pos: u64,\n}\n\n"
                "impl std::fmt::Debug for Bar {\n    fn fmt(&self) -> u64 { 0 }\n}\n\n"
                "impl Bar {\n    pub fn new() -> Bar { Bar { pos: 0 } }\n    pub fn inc(&self) -> u64 {\n"
                "        self.pos\n    }\n}\n\n"
                "#[cfg(test)]\nmod tests {\n    #[test]\n    fn it_counts() {\n        assert_eq!(1, 1);\n"
                "    }\n}\n"
            ),
            "src/more.rs": (
                "use crate::bar::Bar;\n\nimpl Clone for Bar {\n    fn clone(&self) -> Bar { Bar::new() }\n}\n\n"
                "impl Bar {\n    pub fn reset(&self) -> u64 {\n        0\n    }\n    pub fn finish(&self) {}\n}\n"
            ),
        },
    )
    facts = extract_facts(tmp_path, map_repository(tmp_path))
    ranked = key_symbols(facts, "src/bar.rs")
    assert [(r.symbol.name, r.symbol.kind) for r in ranked] == [("Bar", "struct")]
    assert {m.short_name for m in ranked[0].methods} >= {"new", "inc"}
    assert [(s.name, s.kind, s.start) for s in leading_symbols(facts, "src/more.rs", 3)] == [
        ("Bar", "impl", 7)
    ]
