"""Where a repository's flows start and what its object modules define: the README's calls, deprecated
symbols, a maintainer's entry points, JavaScript object literals, classes and delegates."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from llm_fakes import FakeOpenAI, RecordedRequest
from repo_output_fakes import is_analyst, make_project
from repo_source_fixture import write_tree

from generator.cli import cli
from generator.config import load_config
from generator.errors import ConfigError
from generator.repo.facts.calltree import main_line, reaches
from generator.repo.facts.deprecation import deprecated_by_body, deprecated_by_doc
from generator.repo.facts.entrypoints import resolve_entry_points
from generator.repo.facts.examples import called_names, example_calls, example_code
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import CallTree, Facts

KOA_LIKE = {
    "package.json": '{"name": "web", "main": "lib/application.js"}\n',
    "lib/application.js": (
        "const context = require('./context');\n\n"
        "module.exports = class Application extends Emitter {\n"
        "  constructor() {\n    super();\n    this.middleware = [];\n  }\n\n"
        "  listen(...args) {\n    const server = http.createServer(this.callback());\n"
        "    return server.listen(...args);\n  }\n\n"
        "  use(fn) {\n    this.middleware.push(fn);\n    return this;\n  }\n\n"
        "  callback() {\n    const fn = compose(this.middleware);\n"
        "    return (req, res) => this.handleRequest(req, fn);\n  }\n\n"
        "  handleRequest(ctx, fn) {\n    return fn(ctx).then(() => respond(ctx));\n  }\n"
        "};\n\n"
        "function respond(ctx) {\n  const body = ctx.body;\n  if (!body) return;\n  ctx.res.end(body);\n}\n"
    ),
    "lib/context.js": (
        "const proto = module.exports = {\n"
        "  /** Throw an HTTP error. */\n  throw(...args) {\n    throw createError(...args);\n  },\n\n"
        "  get cookies() {\n    return this._cookies;\n  },\n\n"
        "  set cookies(value) {\n    this._cookies = value;\n  },\n\n"
        "  onerror: function (err) {\n    this.app.emit('error', err);\n  },\n"
        "};\n\n"
        "delegate(proto, 'response')\n  .method('redirect')\n  .access('status');\n"
    ),
    "lib/request.js": (
        "module.exports = {\n  get header() {\n    return this.req.headers;\n  },\n\n"
        "  set header(val) {\n    this.req.headers = val;\n  },\n\n"
        "  get(field) {\n    return this.header[field];\n  },\n};\n"
    ),
    "test-helpers/context.js": "module.exports = function context() {\n  return {};\n};\n",
}


def invoke(kb: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--root", str(kb), *args], catch_exceptions=False)


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    root = write_tree(tmp_path / "repo", files)
    return extract_facts(root, map_repository(root))


def test_object_literal_class_and_delegated_members_are_symbols_with_their_lines(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, KOA_LIKE)
    app = {s.name: s for s in facts.files["lib/application.js"].symbols}
    assert {"Application.listen", "Application.callback", "Application.handleRequest"} <= set(app)
    assert app["Application.listen"].start == 9 and app["Application.listen"].parent == "Application"
    context = {s.name: s for s in facts.files["lib/context.js"].symbols}
    assert context["proto.throw"].doc == "Throw an HTTP error."
    assert context["proto.cookies"].start == 7  # the getter; its setter adds no second symbol
    assert [s.name for s in facts.files["lib/context.js"].symbols].count("proto.cookies") == 1
    assert context["proto.onerror"].kind == "method"
    assert (context["proto.redirect"].kind, context["proto.redirect"].start) == ("method", 21)
    assert (context["proto.status"].kind, context["proto.status"].start) == ("property", 22)
    assert context["proto.status"].doc == "Delegates to response.status."
    request = facts.files["lib/request.js"]
    assert [s.name for s in request.symbols] == ["header", "get"]  # an anonymous module object's members
    assert [s.kind for s in request.symbols] == ["property", "function"]  # a getter, a method
    assert context["proto.cookies"].kind == "property" and context["proto.throw"].kind == "method"
    assert {"header", "get"} <= set(request.exports)


def test_test_helpers_are_context_not_code(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, KOA_LIKE)
    assert facts.calls is not None
    assert "test-helpers/context.js" not in {e.caller_path for e in facts.calls.edges()}
    flow = main_line(facts.calls.tree())
    assert flow and all(not e.callee_path.startswith("test-helpers/") for e in flow)


LIB = {
    "README.md": (
        "# web\n\nFetch a page:\n\n```python\nimport web\nr = web.fetch('https://example.org')\n"
        "print(r.status)\n```\n"
    ),
    "web/__init__.py": "from .api import fetch, legacy_fetch, stats\nfrom .sessions import Session\n",
    "web/api.py": (
        "import warnings\nfrom .sessions import Session\n\n\n"
        "def legacy_fetch(url):\n"
        '    """Fetch a page the old way."""\n'
        "    warnings.warn('legacy_fetch is deprecated, use fetch', DeprecationWarning, stacklevel=2)\n"
        "    session = Session()\n    return session.request('get', url)\n\n\n"
        "def stats(url):\n"
        '    """Count the bytes of a page.\n\n    .. deprecated:: 2.0\n        Use fetch.\n    """\n'
        "    session = Session()\n    return session.request('get', url)\n\n\n"
        "def fetch(url):\n"
        "    session = Session()\n    return session.request('get', url)\n"
    ),
    "web/sessions.py": (
        "from .adapters import Adapter\n\n\n"
        "class Session:\n"
        "    def request(self, method, url):\n"
        "        prepared = self.prepare(method, url)\n"
        "        return self.send(prepared)\n\n"
        "    def prepare(self, method, url):\n" + "".join(f"        step{i} = {i}\n" for i in range(12)) + ""
        "        return self.check(method, url)\n\n"
        "    def check(self, method, url):\n" + "".join(f"        step{i} = {i}\n" for i in range(12)) + ""
        "        return self.encode(method, url)\n\n"
        "    def encode(self, method, url):\n" + "".join(f"        step{i} = {i}\n" for i in range(12)) + ""
        "        return (method, url)\n\n"
        "    def send(self, prepared):\n"
        "        adapter = Adapter()\n        return adapter.send(prepared)\n"
    ),
    "web/adapters.py": (
        "class Adapter:\n    def send(self, prepared):\n"
        + "".join(f"        step{i} = {i}\n" for i in range(45))
        + "        return prepared\n"
    ),
}


def first_flow(facts: Facts) -> list[str]:
    assert facts.calls is not None
    chain = main_line(facts.calls.tree())
    return [chain[0].caller, *(e.callee for e in chain)]


def test_the_main_flow_starts_at_what_the_readme_calls_and_never_at_a_deprecated_symbol(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, LIB)
    assert facts.calls is not None
    assert facts.calls.examples["fetch"] > 0
    assert first_flow(facts)[:2] == ["fetch", "Session.request"]
    starts = {name for _, name in facts.calls.entries(limit=5)}
    assert "fetch" in starts and not starts & {"legacy_fetch", "stats"}
    # the README names none of them: the deprecated ones still never open a flow
    quiet = facts_of(tmp_path / "quiet", {**LIB, "README.md": "# web\n"})
    assert quiet.calls is not None
    assert not {name for _, name in quiet.calls.entries(limit=5)} & {"legacy_fetch", "stats"}


def test_a_deprecated_symbol_sinks_in_its_files_ranking(tmp_path: Path) -> None:
    from generator.repo.facts.ranking import key_symbols

    facts = facts_of(tmp_path, LIB)
    ranked = [r.symbol.name for r in key_symbols(facts, "web/api.py")]
    assert ranked[0] == "fetch" and ranked.index("stats") > ranked.index("fetch")


def test_the_flow_hands_on_to_the_next_module_rather_than_staying_in_set_up(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, LIB)
    flow = first_flow(facts)
    assert flow[-2:] == ["Session.send", "Adapter.send"], flow


def test_koa_like_flow_runs_listen_callback_handle_request_respond(tmp_path: Path) -> None:
    readme = "# web\n\n```js\nconst Web = require('web');\nconst app = new Web();\napp.listen(3000);\n```\n"
    facts = facts_of(tmp_path, {**KOA_LIKE, "Readme.md": readme})
    assert first_flow(facts) == [
        "Application.listen",
        "Application.callback",
        "Application.handleRequest",
        "respond",
    ]


EXPRESS_LIKE = {
    "package.json": '{"name": "web", "main": "index.js"}\n',
    "index.js": "module.exports = require('./lib/web');\n",
    "lib/web.js": (
        "var mixin = require('merge-descriptors');\nvar proto = require('./application');\n\n"
        "exports = module.exports = createApplication;\n\n"
        "function createApplication() {\n  var app = function (req, res, next) {\n"
        "    app.handle(req, res, next);\n  };\n  mixin(app, proto, false);\n  app.init();\n  return app;\n}\n"
    ),
    "lib/application.js": (
        "var app = exports = module.exports = {};\n\n"
        "app.init = function init() {\n  this.settings = {};\n  this.defaultConfiguration();\n};\n\n"
        "app.defaultConfiguration = function defaultConfiguration() {\n  this.set('etag', 'weak');\n"
        "  this.set('env', 'development');\n  this.set('query parser', 'simple');\n};\n\n"
        "app.set = function set(setting, val) {\n  if (arguments.length === 1) {\n"
        "    return this.settings[setting];\n  }\n  this.settings[setting] = val;\n  return this;\n};\n\n"
        "app.handle = function handle(req, res, callback) {\n  var done = callback || finalhandler(req, res);\n"
        "  req.res = res;\n  res.req = req;\n  this.router.handle(req, res, done);\n};\n"
    ),
    "lib/response.js": (
        "var res = module.exports = {};\n\n"
        "res.send = function send(body) {\n  var chunk = body;\n  if (typeof chunk === 'object') {\n"
        "    return this.json(chunk);\n  }\n  this.set('Content-Length', chunk.length);\n"
        "  this.status(200);\n  this.end(chunk);\n  return this;\n};\n\n"
        "res.json = function json(obj) {\n  var body = JSON.stringify(obj);\n"
        "  this.set('Content-Type', 'application/json');\n  return this.send(body);\n};\n\n"
        "res.status = function status(code) {\n  this.statusCode = code;\n  return this;\n};\n\n"
        "res.set = function set(field, val) {\n  var value = String(val);\n"
        "  this.setHeader(field, value);\n  return this;\n};\n"
    ),
}


def test_an_express_like_flow_starts_at_the_function_requiring_the_package_gives(tmp_path: Path) -> None:
    # `express()` calls what lib/express.js exports; the app object it builds is the application
    # module's `app` mixed in, so `app.handle()` is application.js's `app.handle`
    readme = (
        "# web\n\n```js\nconst web = require('web');\nconst app = web();\n"
        "app.get('/', (req, res) => res.send('hi'));\napp.listen(3000);\n```\n"
    )
    facts = facts_of(tmp_path, {**EXPRESS_LIKE, "Readme.md": readme})
    assert facts.calls is not None
    calls = {(e.caller, e.callee, e.callee_path) for e in facts.calls.edges(["lib/web.js"])}
    assert ("createApplication", "app.handle", "lib/application.js") in calls
    assert ("createApplication", "app.init", "lib/application.js") in calls
    assert first_flow(facts)[0] == "createApplication"


def test_entry_points_name_modules_files_or_symbols_and_an_unknown_one_is_a_config_error(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, LIB)
    found = resolve_entry_points(
        facts.files, ["web.sessions.Session.send", "web/api.py:fetch", "Adapter.send", "web.fetch"]
    )
    assert found == [
        ("web/sessions.py", "Session.send"),
        ("web/api.py", "fetch"),
        ("web/adapters.py", "Adapter.send"),
        ("web/api.py", "fetch"),  # what the package re-exports: where it comes from
    ]
    with pytest.raises(ConfigError, match="'web.api.nope' matches no symbol"):
        resolve_entry_points(facts.files, ["web.api.fetch", "web.api.nope"])


def test_a_maintainers_entry_point_opens_the_main_flow(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, LIB)
    assert facts.calls is not None
    facts.calls.entry_points = resolve_entry_points(facts.files, ["web.sessions.Session.send"])
    assert first_flow(facts) == ["Session.send", "Adapter.send"]
    assert facts.calls.entries(limit=2)[0] == ("web/sessions.py", "Session.send")


def test_repo_entries_take_entry_points_and_reject_a_misspelt_key(tmp_path: Path) -> None:
    path = tmp_path / "deepkb.yml"
    path.write_text("repos:\n  - source: .\n    entry_points: [web.api.fetch]\n", encoding="utf-8")
    assert load_config(path).repos[0].entry_points == ["web.api.fetch"]
    path.write_text("repos:\n  - source: .\n    entry_point: [web.api.fetch]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown key 'repos.0.entry_point'"):
        load_config(path)


def test_repo_run_starts_the_flow_at_the_entry_point_given_and_names_an_unknown_one(tmp_path: Path) -> None:
    root = make_project(tmp_path / "web", LIB)
    kb = tmp_path / "kb"
    kb.mkdir()
    bad = invoke(kb, "repo", "run", str(root), "--entry-point", "web.api.nope")
    assert bad.exit_code != 0
    assert bad.stderr.strip().splitlines()[-1].startswith("Error: entry_points: 'web.api.nope'")
    good = invoke(kb, "repo", "run", str(root), "--entry-point", "web.sessions.Session.send")
    assert good.exit_code == 0, good.stderr
    index = (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").read_text(encoding="utf-8")
    flow = index.split("### Main flow", 1)[1]
    assert "participant p0 as Session.send" in flow and "participant p1 as Adapter.send" in flow


def test_the_model_is_told_the_entry_points_and_the_main_flow(tmp_path: Path) -> None:
    root = make_project(tmp_path / "web", LIB)
    kb = tmp_path / "kb"
    kb.mkdir()

    def reply(req: RecordedRequest) -> str:
        return "Summary: Fetches pages.\n## Purpose\nIt fetches pages (web/api.py:1-3).\n"

    with FakeOpenAI(default=reply) as fake:
        (kb / "deepkb.yml").write_text(
            f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  max_retries: 0\n", encoding="utf-8"
        )
        invoke(kb, "repo", "run", str(root))
    analyst = [r.prompt for r in fake.requests if is_analyst(r)]
    assert analyst
    for prompt in analyst:
        told = prompt.split("Where a user enters the code", 1)[1]
        assert "- entry point fetch (web/api.py:" in told
        assert "1. fetch calls Session.request (web/api.py:" in told
    assert any("Main flow through these files" in prompt for prompt in analyst)


ESM = {
    "package.json": '{"name": "client", "main": "lib/client.js", "type": "module"}\n',
    "README.md": "```js\nimport client from 'client';\nawait client.request({url: '/'});\n```\n",
    "lib/client.js": "import Client from './core/Client.js';\n\nconst client = new Client();\nexport default client;\n",
    "lib/core/Client.js": (
        "import dispatch from './dispatch.js';\nimport merge from './merge.js';\n\n"
        "class Client {\n  request(config) {\n    return this._request(config);\n  }\n\n"
        "  _request(config) {\n    const merged = merge({}, config);\n"
        "    return dispatch.call(this, merged);\n  }\n}\n\nexport default Client;\n"
    ),
    "lib/core/dispatch.js": (
        "export default function dispatch(config) {\n  const body = encode(config);\n  return body;\n}\n\n"
        "function encode(config) {\n  return JSON.stringify(config);\n}\n"
    ),
    "lib/core/merge.js": "export default function merge(a, b) {\n  return Object.assign(a, b);\n}\n",
}


def test_es_modules_export_by_name_and_calls_reach_default_imports_and_fn_call(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, ESM)
    client = {s.name: s for s in facts.files["lib/core/Client.js"].symbols}
    assert "Client" in facts.files["lib/core/Client.js"].exports and client["Client.request"].exported
    assert facts.calls is not None
    edges = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["lib/core/Client.js"])}
    assert ("Client._request", "lib/core/merge.js", "merge") in edges  # a default import, called
    assert ("Client._request", "lib/core/dispatch.js", "dispatch") in edges  # `dispatch.call(this, …)`
    assert first_flow(facts) == ["Client.request", "Client._request", "dispatch", "encode"]


GO_ROUTER = {
    "go.mod": "module example.com/web\n\ngo 1.21\n",
    "router.go": (
        'package web\n\nimport "net/http"\n\n'
        "type Router struct{ root *node }\n\n"
        "func New() *Router {\n\treturn &Router{root: &node{}}\n}\n\n"
        "func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {\n"
        "\tvar tree *node = r.root\n\th := tree.lookup(req.URL.Path)\n\tif h == nil {\n\t\tserveError(w)\n\t\treturn\n\t}\n\th(w, req)\n}\n\n"
        "func serveError(w http.ResponseWriter) {\n"
        + "".join(f"\tcode{i} := {i}\n\t_ = code{i}\n" for i in range(12))
        + "\twriteStatus(w)\n}\n\n"
        "// Describe returns a description of every route the router holds.\n"
        "func (r *Router) Describe() string {\n"
        + "".join(f"\tpart{i} := {i}\n\t_ = part{i}\n" for i in range(12))
        + "\treturn describe(r.root)\n}\n"
    ),
    "status.go": (
        'package web\n\nimport "net/http"\n\n'
        "func writeStatus(w http.ResponseWriter) {\n"
        + "".join(f"\tline{i} := {i}\n\t_ = line{i}\n" for i in range(12))
        + "\tw.WriteHeader(404)\n}\n"
    ),
    "tree.go": (
        'package web\n\nimport "net/http"\n\n'
        "type node struct{ children []*node }\n\n"
        "func (n *node) lookup(path string) http.HandlerFunc {\n"
        + "".join(f"\tstep{i} := {i}\n\t_ = step{i}\n" for i in range(12))
        + "\treturn nil\n}\n\n"
        "func describe(n *node) string {\n\treturn label(n)\n}\n\n"
        'func label(n *node) string {\n\treturn "node"\n}\n'
    ),
}


def test_a_servers_callback_opens_the_flow_into_the_router(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GO_ROUTER)
    assert facts.calls is not None
    assert facts.calls.entries(limit=1) == [("router.go", "Router.ServeHTTP")]  # what net/http calls
    assert first_flow(facts) == ["Router.ServeHTTP", "node.lookup"]  # the lookup, not the 404


def test_a_symbol_weighs_as_its_implementation_not_its_overload_stubs(tmp_path: Path) -> None:
    stubs = "".join(
        f"    @overload\n    def main(self, arg: {kind}) -> None: ...\n\n" for kind in ("int", "str")
    )
    body = "".join(f"        step{i} = {i}\n" for i in range(30))
    files = {
        "cli/__init__.py": "from .core import Command\n",
        "cli/core.py": (
            "from typing import overload\n\n\nclass Command:\n"
            f"{stubs}    def main(self, arg=None):\n{body}        return arg\n"
        ),
    }
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None
    node = ("cli/core.py", "Command.main")
    stubs_only = {
        "cli/core.py": replace(facts.files["cli/core.py"], symbols=facts.files["cli/core.py"].symbols[:2])
    }
    assert reaches(facts.calls, facts.files, [node])[node] > reaches(facts.calls, stubs_only, [node])[node]


def test_a_name_the_readme_imports_counts_even_when_a_builtin_goes_by_it() -> None:
    text = "```python\nfrom rich import print\nprint('hello')\nlen('x')\n```\n"
    assert called_names(text, "README.md") == ["print"]
    assert called_names("```python\nprint(len('x'))\n```\n", "README.md") == []


def test_a_function_the_example_defines_is_no_call_into_the_project() -> None:
    # starlette's README defines `async def app(scope, …)` and `def homepage(request)`: neither calls the
    # library (a method named `app` would open the flow), while what the example calls still counts
    text = (
        "```python\nasync def app(scope, receive, send):\n    await send(message)\n\n"
        "def homepage(request):\n    return JSONResponse({})\n\napp = Starlette(routes=[Route('/', homepage)])\n```\n"
        "```go\nfunc (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n\th.serve(w)\n}\n```\n"
        "```js\nfunction handler(req, res) {\n  res.end(render(req))\n}\n```\n"
    )
    assert called_names(text, "README.md") == [
        "send",
        "JSONResponse",
        "Starlette",
        "Route",
        "serve",
        "end",
        "render",
    ]


@pytest.mark.parametrize(
    ("lines", "deprecated"),
    [
        (
            ["def old():", '    """Old."""', "    warnings.warn('old is deprecated', DeprecationWarning)"],
            True,
        ),
        (["def f(x):", "    if x:", "        warnings.warn('x is deprecated', DeprecationWarning)"], False),
        (["function send(body) {", "  deprecate('res.send(status): use res.status()');", "}"], True),
        (
            [
                "func (c *Context) BindWith() error {",
                "\tlog.Println(`BindWith is going to",
                "\tbe deprecated`)",
                "}",
            ],
            True,
        ),
        (["def warn_user(msg):", "    warnings.warn(msg, UserWarning)"], False),
    ],
)
def test_a_body_that_warns_of_its_own_deprecation_is_deprecated(lines: list[str], deprecated: bool) -> None:
    assert deprecated_by_body(lines) is deprecated


def test_deprecation_said_in_a_doc_comment() -> None:
    assert deprecated_by_doc("Deprecated: use ShouldBind instead.")  # Go
    assert deprecated_by_doc("Send a request.\n\n@deprecated use fetch")  # JSDoc
    assert deprecated_by_doc("The old decorator. This is no longer documented.")
    assert deprecated_by_doc("Run it.\n\n.. deprecated:: 2.0\n    Use run.")
    assert not deprecated_by_doc("Warn when a deprecated option is used.")


def test_build_takes_a_repositorys_entry_points_from_deepkb_yml(tmp_path: Path) -> None:
    root = make_project(tmp_path / "web", LIB)
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "deepkb.yml").write_text(
        f"repos:\n  - source: {root}\n    entry_points: [web.sessions.Session.send]\n", encoding="utf-8"
    )
    result = invoke(kb, "build", "--no-site")
    assert result.exit_code == 0, result.stderr
    index = (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").read_text(encoding="utf-8")
    assert "participant p0 as Session.send" in index.split("### Main flow", 1)[1]


def test_repo_run_of_a_configured_repository_starts_where_its_entry_says(tmp_path: Path) -> None:
    root = make_project(tmp_path / "web", LIB)
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "deepkb.yml").write_text(
        f"repos:\n  - source: {root}\n    entry_points: [web/sessions.py:Session.send]\n", encoding="utf-8"
    )
    result = invoke(kb, "repo", "run", str(root))
    assert result.exit_code == 0, result.stderr
    index = (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").read_text(encoding="utf-8")
    assert "participant p0 as Session.send" in index.split("### Main flow", 1)[1]


def test_a_chunked_session_starts_its_flows_where_the_entry_says(tmp_path: Path) -> None:
    root = make_project(tmp_path / "web", LIB)
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "deepkb.yml").write_text(
        f"repos:\n  - source: {root}\n    entry_points: [web/sessions.py:Session.send]\n", encoding="utf-8"
    )
    session = json.loads(invoke(kb, "repo", "start", str(root)).stdout)["session_id"]
    assert invoke(kb, "repo", "shard", session).exit_code == 0
    assert invoke(kb, "repo", "synthesize", session).exit_code == 0
    index = (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").read_text(encoding="utf-8")
    assert "participant p0 as Session.send" in index.split("### Main flow", 1)[1]


def _lines(count: int, indent: str = "    ") -> str:
    return "".join(f"{indent}step{i} = {i}\n" for i in range(count))


# a runtime of many small public functions, one module each, that the package re-exports, and a compiler
# whose one-line `compile` hands the source to a long pipeline in modules of its own (svelte's shape)
COMPILER = {
    "kit/__init__.py": "".join(f"from .signal{i} import watch{i}\n" for i in range(30))
    + "from .compiler import compile\n",
    **{
        f"kit/signal{i}.py": (
            f'from .track import track\n\n\ndef watch{i}(value):\n    """Signal {i}."""\n{_lines(12)}'
            "    return track(value)\n"
        )
        for i in range(30)
    },
    "kit/track.py": f"def track(value):\n{_lines(10)}    return value\n",
    "kit/compiler.py": "from .phases import parse\n\n\ndef compile(source):\n    return parse(source)\n",
    "kit/phases.py": (
        f"def parse(source):\n{_lines(40)}    return analyze(source)\n\n\n"
        f"def analyze(tree):\n{_lines(40)}    return transform(tree)\n\n\n"
        f"def transform(tree):\n{_lines(40)}    return tree\n"
    ),
}


def test_the_flow_starts_at_the_api_function_leading_to_the_most_code_however_short(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, COMPILER)
    assert facts.calls is not None
    assert first_flow(facts) == ["compile", "parse", "analyze", "transform"]
    assert facts.calls.entries(limit=1) == [("kit/compiler.py", "compile")]


def test_a_class_field_holding_a_function_is_a_method_whose_calls_are_read(tmp_path: Path) -> None:
    files = {
        "package.json": '{"name": "web", "main": "src/app.ts"}\n',
        "src/app.ts": (
            "export class App {\n  /** What a runtime calls with each request. */\n"
            "  fetch = (request: Request): Response => {\n    return this.#dispatch(request)\n  }\n\n"
            "  private count = 0\n\n"
            "  #dispatch(request: Request): Response {\n    return new Response(request.url)\n  }\n}\n"
        ),
    }
    facts = facts_of(tmp_path, files)
    fetch = next(s for s in facts.files["src/app.ts"].symbols if s.name == "App.fetch")
    assert (fetch.kind, fetch.start, fetch.end, fetch.public) == ("method", 3, 5, True)
    assert fetch.doc == "What a runtime calls with each request."
    assert "App.count" not in {s.name for s in facts.files["src/app.ts"].symbols}  # a value, not a function
    assert facts.calls is not None
    assert ("App.fetch", "App.#dispatch") in {(e.caller, e.callee) for e in facts.calls.edges(["src/app.ts"])}


def test_a_module_a_package_exports_under_a_subpath_is_public_api(tmp_path: Path) -> None:
    files = {
        "package.json": (
            '{"name": "kit", "main": "src/index.js", "exports": {".": "./src/index.js",'
            ' "./compiler": {"types": "./types/compiler.d.ts", "default": "./src/compiler/index.js"},'
            ' "./package.json": "./package.json", "./*": "./src/*.js"}}\n'
        ),
        "src/index.js": "export function mount(target) {\n  return target;\n}\n",
        "src/compiler/index.js": "export function compile(source) {\n  return source;\n}\n",
        "src/compiler/phases.js": "export function parse(source) {\n  return source;\n}\n",
    }
    facts = facts_of(tmp_path, files)
    assert facts.files["src/compiler/index.js"].api_names == ["compile"]
    assert facts.files["src/compiler/phases.js"].api_names == []  # exported by a module, not by the package


def test_a_method_called_on_an_object_just_made_is_a_call_of_the_class_method(tmp_path: Path) -> None:
    files = {
        "calc/__init__.py": "from .engine import evaluate\n",
        "calc/engine.py": (
            "class Engine:\n    def run(self, text):\n        return text.split()\n\n\n"
            "def evaluate(text):\n    return Engine().run(text)\n"
        ),
    }
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None
    calls = {(e.caller, e.callee) for e in facts.calls.edges(["calc/engine.py"])}
    assert {("evaluate", "Engine"), ("evaluate", "Engine.run")} <= calls
    assert first_flow(facts) == ["evaluate", "Engine.run"]


def test_the_flow_starts_at_the_best_entry_point_that_calls_into_the_code(tmp_path: Path) -> None:
    files = {
        "README.md": "# kit\n\n```python\nimport kit\nkit.dump({'a': 1})\nkit.dump([])\n```\n",
        "kit/__init__.py": "from .api import dump, load\n",
        "kit/api.py": (
            f"import json\n\n\ndef dump(value):\n{_lines(30)}    return json.dumps(value)\n\n\n"
            "def load(text):\n    return decode(text)\n\n\n"
            f"def decode(text):\n{_lines(10)}    return text\n"
        ),
    }
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None
    assert facts.calls.entries(limit=1) == [("kit/api.py", "dump")]  # used, and longer: it ranks first
    assert first_flow(facts) == ["load", "decode"]  # but it calls only into json: no flow of its own


# a logging library's shape (loguru): `add` is set-up, leading to much code (a Handler and its sink made and
# configured); `debug` is what a user calls at run time, through the class's `_log` into `Handler.emit`
LOGGER = {
    "README.md": (
        "# logs\n\n```python\nfrom logs import logger\nlogger.add(sink)\nlogger.debug('hello')\n```\n"
    ),
    "logs/__init__.py": "from ._logger import Logger\n\nlogger = Logger()\n__all__ = ['Logger', 'logger']\n",
    "logs/_logger.py": (
        "from ._handler import Handler\n\n\nclass Logger:\n"
        "    def __init__(self):\n        self.handlers = []\n\n"
        f"    def add(self, sink):\n{_lines(20, ' ' * 8)}"
        "        self.handlers.append(Handler(sink))\n\n"
        "    def debug(__self, message):  # noqa: N805: `self` stays free for the caller's keywords\n"
        "        __self._log('DEBUG', message)\n\n"
        f"    def _log(self, level, message):\n{_lines(8, ' ' * 8)}"
        "        for handler in self.handlers:\n            handler.emit(level, message)\n"
    ),
    "logs/_handler.py": (
        "class Handler:\n"
        f"    def __init__(self, sink):\n{_lines(60, ' ' * 8)}        self.sink = sink\n\n"
        f"    def emit(self, level, message):\n{_lines(12, ' ' * 8)}        return message\n"
    ),
}


def test_a_methods_first_parameter_is_its_instance_whatever_its_name(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, LOGGER)
    assert facts.calls is not None
    calls = {(e.caller, e.callee) for e in facts.calls.edges(["logs/_logger.py"])}
    assert ("Logger.debug", "Logger._log") in calls  # `__self._log(…)`
    assert ("Logger._log", "Handler.emit") in calls


def test_a_level_method_handing_over_to_its_loggers_helper_is_the_straight_line(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, LOGGER)
    assert facts.calls is not None
    debug = ("logs/_logger.py", "Logger.debug")
    # `_log` is named like a logging helper, a side path elsewhere; called by `debug` it is the work
    assert reaches(facts.calls, facts.files, [debug])[debug] > 20


def test_the_flow_starts_at_the_run_time_call_that_uses_what_the_set_up_made(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, LOGGER)
    assert facts.calls is not None
    entries = facts.calls.entries(limit=3)
    assert entries[0] == ("logs/_logger.py", "Logger.debug"), entries
    assert ("logs/_logger.py", "Logger.add") in entries
    assert first_flow(facts) == ["Logger.debug", "Logger._log", "Handler.emit"]


def test_a_second_door_to_the_same_work_is_no_run_time_call(tmp_path: Path) -> None:
    # requests' shape: `get` makes a Session and calls its `request`; `Session.get` (the examples call
    # `get` on a session too) leads to the same work: the flow stays at the function
    files = {
        "README.md": "# web\n\n```python\nimport web\nweb.get(url)\ns = web.Session()\ns.get(url)\n```\n",
        "web/__init__.py": "from .api import get\nfrom .sessions import Session\n",
        "web/api.py": (
            "from .sessions import Session\n\n\n"
            "def get(url):\n    with Session() as session:\n        return session.request('GET', url)\n"
        ),
        "web/sessions.py": (
            "class Session:\n    def __enter__(self):\n        return self\n\n"
            "    def __exit__(self, *args):\n        return None\n\n"
            "    def get(self, url):\n        return self.request('GET', url)\n\n"
            f"    def request(self, method, url):\n{_lines(30, ' ' * 8)}        return url\n"
        ),
    }
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None
    assert facts.calls.entries(limit=3)[0] == ("web/api.py", "get")


def _go_lines(count: int) -> str:
    return "".join(f"\tstep{i} := {i}\n\t_ = step{i}\n" for i in range(count))


# echo's shape: `New` builds the framework (a router its constructor makes, behind an interface, leading
# to the most code); `Start` hands the framework itself to the server, which calls its `ServeHTTP` with every
# request; `newContext(w)` only keeps it
GO_FRAMEWORK = {
    "go.mod": "module example.com/web\n\ngo 1.21\n",
    "README.md": ('# web\n\n```go\nw := web.New()\nw.GET("/", hello)\nw.Start(":8080")\n```\n'),
    "web.go": (
        'package web\n\nimport "net/http"\n\n'
        "type Router interface {\n\tAdd(path string, h http.HandlerFunc)\n"
        "\tFind(path string) http.HandlerFunc\n}\n\n"
        "type Web struct {\n\trouter Router\n\tpool   *Context\n}\n\n"
        "func New() *Web {\n\tw := &Web{}\n\tw.router = NewRouter()\n\tw.pool = newContext(w)\n\treturn w\n}\n\n"
        "func (w *Web) GET(path string, h http.HandlerFunc) {\n\tw.router.Add(path, h)\n}\n\n"
        "func (w *Web) Start(address string) error {\n\treturn serve(address, w)\n}\n\n"
        "func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {\n"
        "\th := w.router.Find(r.URL.Path)\n\th(rw, r)\n}\n"
    ),
    "context.go": (
        "package web\n\ntype Context struct {\n\tweb *Web\n}\n\n"
        "func newContext(w *Web) *Context {\n\treturn &Context{web: w}\n}\n"
    ),
    "server.go": (
        'package web\n\nimport "net/http"\n\n'
        "func serve(address string, h http.Handler) error {\n"
        "\treturn http.ListenAndServe(address, h)\n}\n"
    ),
    "router.go": (
        'package web\n\nimport "net/http"\n\n'
        "type tree struct {\n\troutes map[string]http.HandlerFunc\n}\n\n"
        f"func NewRouter() *tree {{\n{_go_lines(40)}\treturn &tree{{}}\n}}\n\n"
        "func (t *tree) Add(path string, h http.HandlerFunc) {\n\tt.routes[path] = h\n}\n\n"
        f"func (t *tree) Find(path string) http.HandlerFunc {{\n{_go_lines(20)}\treturn t.routes[path]\n}}\n"
    ),
}


def test_a_go_value_handed_to_a_call_is_served_by_its_serve_http(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GO_FRAMEWORK)
    assert facts.calls is not None
    handed = {(e.caller, e.callee, e.handed) for e in facts.calls.edges(["web.go"])}
    assert ("Web.Start", "Web.ServeHTTP", True) in handed  # `serve(address, w)`: the server calls it
    assert not any(caller == "New" and callee == "Web.ServeHTTP" for caller, callee, _ in handed)  # kept only


def test_a_call_through_an_interface_field_reaches_the_type_the_package_puts_there(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GO_FRAMEWORK)
    assert facts.calls is not None
    calls = {(e.caller, e.callee) for e in facts.calls.edges(["web.go"])}
    assert ("Web.ServeHTTP", "tree.Find") in calls  # `router Router`, set to `NewRouter()`: a *tree


def test_a_go_frameworks_flow_runs_the_request_not_the_constructor(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GO_FRAMEWORK)
    assert facts.calls is not None
    assert ("web.go", "New") in facts.calls.entries(limit=8)
    # `New` makes the Web that `Start` serves: the flow follows the request into the router's lookup
    assert first_flow(facts)[0] in {"Web.Start", "Web.ServeHTTP"}
    assert "tree.Find" in {name for branch in facts.calls.tree() for name in _names(branch)}


def _names(branch: CallTree) -> list[str]:
    return [branch.edge.callee, *(name for below in branch.below for name in _names(below))]


def test_super_calls_the_method_a_base_class_gives(tmp_path: Path) -> None:
    files = {
        "srv/__init__.py": "from .app import App\n",
        "srv/base.py": "class Base:\n    def run(self):\n        return serve(self)\n\n\ndef serve(app):\n    return app\n",
        "srv/app.py": (
            "from .base import Base\n\n\nclass App(Base):\n    def run(self):\n        self.prepare()\n"
            "        return super().run()\n\n    def prepare(self):\n        return None\n"
        ),
    }
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None
    calls = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["srv/app.py"])}
    assert ("App.run", "srv/base.py", "Base.run") in calls


def test_a_star_import_under_the_packages_all_exports_the_names_it_lists(tmp_path: Path) -> None:
    """pyparsing's `__init__` says `from .core import *` and lists `ParserElement`, `Word` … in `__all__`:
    core.py's classes were no public API, so its flow started at a demo and then nowhere; the library's
    `parse_string`, which its README calls, is the entry now."""
    files = {
        "pp/__init__.py": '"""Parsers."""\n\nfrom .core import *\n\n__all__ = ["Element", "Word"]\n',
        "pp/core.py": (
            "class Element:\n    def parse_string(self, text):\n        return self.parse_impl(text)\n\n"
            "    def parse_impl(self, text):\n        return text\n\n\nclass Word(Element):\n    pass\n\n\n"
            "def _helper():\n    return 1\n"
        ),
        "README.md": "# pp\n\n```python\nimport pp\n\npp.Word().parse_string('hi')\n```\n",
    }
    facts = facts_of(tmp_path, files)
    assert {"Element", "Word"} <= set(facts.files["pp/core.py"].api_names)
    assert facts.calls is not None
    assert facts.calls.entries(["pp/__init__.py", "pp/core.py"])[0] == ("pp/core.py", "Element.parse_string")


def test_a_method_called_by_another_name_the_class_gives_it_calls_the_method(tmp_path: Path) -> None:
    """pyparsing's `ParserElement` says `_parse = _parseNoCache` in its body and calls `self._parse(…)` from
    `parse_string` and every subclass: the call reached nothing, so the library's parse had no flow."""
    files = {
        "pp/__init__.py": "from .core import Element\n",
        "pp/core.py": (
            "class Element:\n    def _parse_plain(self, text):\n        return self.parse_impl(text)\n\n"
            "    _parse = _parse_plain\n\n    def parse_impl(self, text):\n        return text\n\n"
            "    def parse_string(self, text):\n        return self._parse(text)\n\n\n"
            "class Word(Element):\n    def scan(self, text):\n        return self._parse(text)\n"
        ),
    }
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None
    calls = {(e.caller, e.callee) for e in facts.calls.edges(["pp/core.py"])}
    assert ("Element.parse_string", "Element._parse_plain") in calls
    assert ("Word.scan", "Element._parse_plain") in calls


# pluggy's shape: the manager keeps its inner call in an attribute and hands its bound `_hookexec` to each
# HookCaller it makes, whose `__init__` keeps it; calling the hook calls the kept function
PLUGINS = {
    "hooks/__init__.py": "from ._manager import PluginManager\n",
    "hooks/_callers.py": f"def _multicall(name, kwargs):\n{_lines(20)}    return name\n",
    "hooks/_hooks.py": (
        "class HookCaller:\n    def __init__(self, name, hook_execute):\n        self.name = name\n"
        "        self._hookexec = hook_execute\n\n"
        "    def __call__(self, **kwargs):\n        return self._hookexec(self.name, kwargs)\n"
    ),
    "hooks/_manager.py": (
        "from ._callers import _multicall\nfrom ._hooks import HookCaller\n\n\nclass PluginManager:\n"
        "    def __init__(self):\n        self._inner_hookexec = _multicall\n\n"
        "    def _hookexec(self, name, kwargs):\n        return self._inner_hookexec(name, kwargs)\n\n"
        "    def add_hookspecs(self, name):\n        return HookCaller(name, self._hookexec)\n"
    ),
}


def test_a_function_kept_on_an_instance_is_called_where_the_instance_calls_it(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, PLUGINS)
    assert facts.calls is not None
    manager = {(e.caller, e.callee, e.handed) for e in facts.calls.edges(["hooks/_manager.py"])}
    assert ("PluginManager._hookexec", "_multicall", False) in manager  # `self._inner_hookexec = _multicall`
    assert (
        "PluginManager.add_hookspecs",
        "PluginManager._hookexec",
        True,
    ) in manager  # a bound method handed
    hooks = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["hooks/_hooks.py"])}
    # `HookCaller(name, self._hookexec)`, kept by `__init__` as `self._hookexec`, called by `__call__`
    assert ("HookCaller.__call__", "hooks/_manager.py", "PluginManager._hookexec") in hooks


def test_a_kept_function_is_followed_through_the_class_s_own_lines(tmp_path: Path) -> None:
    """Only the class and the calling method are parsed: a class whose module holds code Python 3 cannot
    parse elsewhere (a Python 2 `print` statement) still has its kept functions followed."""
    files = dict(PLUGINS)
    legacy = '\n\ndef legacy():\n    print "old"\n'
    files["hooks/_hooks.py"] += legacy
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None
    hooks = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["hooks/_hooks.py"])}
    assert ("HookCaller.__call__", "hooks/_manager.py", "PluginManager._hookexec") in hooks


# falcon's shape: `add_route` checks the template and hands it to the router, which compiles it into its
# table (much code); each request enters `App.__call__`, which finds the responder through the router's
# `find`, kept on the app by its constructor: set-up registers, the call made at run time reads it
ROUTED_APP = {
    "README.md": "# web\n\n```python\nimport web\napp = web.App()\napp.add_route('/things', Things())\n```\n",
    "web/__init__.py": "from .app import App\n\n__all__ = ['App']\n",
    "web/app.py": (
        "from .routing import Router\n\n\nclass App:\n"
        "    def __init__(self):\n        self._router = Router()\n"
        "        self._router_search = self._router.find\n\n"
        "    def add_route(self, template, resource):\n"
        "        if not template.startswith('/'):\n            raise ValueError(template)\n"
        "        self._router.add_route(template, resource)\n\n"
        "    def __call__(self, env, start_response):\n"
        "        responder = self._get_responder(env)\n"
        f"{_lines(6, ' ' * 8)}        return responder(env)\n\n"
        "    def _get_responder(self, env):\n"
        "        return self._router_search(env['PATH_INFO'])\n"
    ),
    "web/routing.py": (
        "class Router:\n    def __init__(self):\n        self._roots = []\n\n"
        f"    def add_route(self, template, resource):\n{_lines(40, ' ' * 8)}"
        "        self._roots.append((template, resource))\n        self._compile()\n\n"
        f"    def _compile(self):\n{_lines(40, ' ' * 8)}        self._find = self._roots\n\n"
        f"    def find(self, path):\n{_lines(12, ' ' * 8)}"
        "        for template, resource in self._roots:\n            return resource\n"
    ),
}


def test_the_flow_starts_at_the_call_that_reads_what_the_set_up_registered(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, ROUTED_APP)
    assert facts.calls is not None
    assert facts.calls.runtime.left(
        [("web/app.py", "App.add_route"), ("web/routing.py", "Router.add_route")]
    ) >= {
        "App._router",  # stored into: the router's own `add_route` grows its table
        "Router._roots",
    }
    assert first_flow(facts)[0] == "App.__call__"
    # `self._router_search(…)` calls the router's `find`, the bound method the constructor kept
    calls = {(e.caller, e.callee) for e in facts.calls.edges(["web/app.py"])}
    assert ("App._get_responder", "Router.find") in calls


# a job queue (bull's, bee-queue's shape): `process` registers the handler and starts the worker thread that
# takes jobs and runs it — the work; `pause` reads the workers `process` keeps and waits for them
JOB_QUEUE = {
    "README.md": "# jobs\n\n```python\nq = jobs.Queue('mail')\nq.process(send)\nq.pause()\n```\n",
    "jobs/__init__.py": "from .queue import Queue\n",
    "jobs/queue.py": (
        "import threading\n\nfrom .work import run_job, wait_for\n\n\n"
        "class Queue:\n    def __init__(self, name):\n        self.name = name\n        self.handlers = []\n"
        "        self.workers = []\n\n"
        "    def process(self, handler):\n        self.handlers.append(handler)\n"
        "        worker = threading.Thread(target=self._work)\n        self.workers.append(worker)\n"
        "        worker.start()\n\n"
        f"    def _work(self):\n{_lines(30, ' ' * 8)}        for handler in self.handlers:\n"
        "            run_job(handler)\n\n"
        "    def pause(self):\n        for worker in self.workers:\n            wait_for(worker)\n"
    ),
    "jobs/work.py": f"def run_job(handler):\n{_lines(40)}    return handler\n\n\n"
    f"def wait_for(worker):\n{_lines(20)}    return worker\n",
}


def test_a_set_up_that_starts_its_own_worker_keeps_the_flow_over_a_call_beside_it(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, JOB_QUEUE)
    assert facts.calls is not None
    # `pause` reads what `process` left (its workers), yet the work is the thread `process` started
    assert "Queue.workers" in facts.calls.runtime.left([("jobs/queue.py", "Queue.process")])
    assert first_flow(facts)[:3] == ["Queue.process", "Queue._work", "run_job"]


# an embedded database in Go (pogreb's, lotusdb's, buntdb's shape): `Open` opens the log and spawns the
# compaction loop — upkeep; the examples go on calling the `DB` it returns, and `Put` is where the work is
# done (the log append, the index); the `Close` they defer flushes the log, their teardown
KV_STORE = {
    "go.mod": "module example.com/kv\n\ngo 1.21\n",
    "README.md": (
        '# kv\n\n```go\ndb, err := kv.Open("data")\ndefer db.Close()\ndb.Put("a", "1")\nv := db.Get("a")\n```\n'
    ),
    "db.go": (
        "package kv\n\ntype DB struct {\n\tlog   *wal\n\tindex map[string]int64\n}\n\n"
        "func Open(path string) (*DB, error) {\n\tdb := &DB{index: map[string]int64{}}\n"
        "\tdb.log = openLog(path)\n\tgo db.compactLoop()\n\treturn db, nil\n}\n\n"
        "func (db *DB) compactLoop() {\n\tfor {\n\t\tcompact(db.log)\n\t}\n}\n\n"
        "func (db *DB) Put(key string, value string) error {\n\toff := db.log.append(key, value)\n"
        "\tdb.index[key] = off\n\treturn nil\n}\n\n"
        "func (db *DB) Get(key string) string {\n\treturn db.log.readAt(db.index[key])\n}\n\n"
        "func (db *DB) Close() error {\n\treturn db.log.flush()\n}\n"
    ),
    "wal.go": (
        f"package kv\n\ntype wal struct {{\n\tpath string\n}}\n\nfunc openLog(path string) *wal {{\n{_go_lines(30)}"
        "\treturn &wal{path: path}\n}\n\n"
        f"func (w *wal) append(key string, value string) int64 {{\n{_go_lines(40)}\treturn encode(key, value)\n}}\n\n"
        f"func encode(key string, value string) int64 {{\n{_go_lines(20)}\treturn 0\n}}\n\n"
        f'func (w *wal) readAt(off int64) string {{\n{_go_lines(20)}\treturn ""\n}}\n'
    ),
    "compact.go": (
        f"package kv\n\nfunc compact(w *wal) {{\n{_go_lines(80)}}}\n\n"
        f"func (w *wal) flush() error {{\n{_go_lines(90)}\treturn nil\n}}\n"
    ),
}


def test_a_database_flow_starts_at_the_write_on_what_open_returns_not_at_its_upkeep(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, KV_STORE)
    assert facts.calls is not None
    assert facts.calls.runtime.spawned(("db.go", "Open")) == [("db.go", "DB.compactLoop")]
    # the compaction loop `Open` spawns is the database's upkeep: the flow is the write the examples make,
    # not the `Close` they defer, however much it leads to
    assert first_flow(facts)[:3] == ["DB.Put", "wal.append", "encode"]
    assert facts.calls.deferred.keys() == {"Close"}


# a client in Go (go-stomp's, amqp091-go's shape): `Dial` spawns the loop reading what the connection
# brings — the work; `Send` on the `Conn` it returns only hands a frame to the writer
CLIENT = {
    "go.mod": "module example.com/client\n\ngo 1.21\n",
    "README.md": '# client\n\n```go\nconn, err := client.Dial("tcp", "localhost:61613")\nconn.Send("/q", "hi")\n```\n',
    "conn.go": (
        "package client\n\ntype Conn struct {\n\tr *reader\n\tout chan string\n}\n\n"
        "func Dial(network string, addr string) (*Conn, error) {\n\tc := &Conn{r: newReader(addr)}\n"
        "\tgo c.readLoop()\n\treturn c, nil\n}\n\n"
        "func (c *Conn) readLoop() {\n\tfor {\n\t\tframe := c.r.Read()\n\t\tdispatch(frame)\n\t}\n}\n\n"
        "func (c *Conn) Send(dest string, body string) error {\n\treturn encodeFrame(dest, body)\n}\n"
    ),
    "reader.go": (
        f"package client\n\ntype reader struct {{\n\taddr string\n}}\n\nfunc newReader(addr string) *reader {{\n"
        f"{_go_lines(10)}\treturn &reader{{addr: addr}}\n}}\n\n"
        f'func (r *reader) Read() string {{\n{_go_lines(30)}\treturn ""\n}}\n\n'
        f"func dispatch(frame string) {{\n{_go_lines(40)}}}\n\n"
        f"func encodeFrame(dest string, body string) error {{\n{_go_lines(40)}\treturn nil\n}}\n"
    ),
}


def test_a_client_flow_stays_at_the_dial_whose_loop_reads_what_comes_in(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, CLIENT)
    assert facts.calls is not None
    assert facts.calls.runtime.reads_input(("conn.go", "Conn.readLoop"))
    # the loop `Dial` spawns reads the connection: that is the work, not the `Send` beside it
    assert first_flow(facts)[:3] == ["Dial", "Conn.readLoop", "dispatch"]


# a message bus in Go: `Subscribe` validates the topic at length and registers the handler in the bus's
# table; `Publish`, which the examples call too, reads that table and runs the handlers — the work
BUS = {
    "go.mod": "module example.com/bus\n\ngo 1.21\n",
    "README.md": '# bus\n\n```go\nb := bus.Bus{}\nb.Subscribe("a", h)\nb.Publish("a", msg)\n```\n',
    "bus.go": (
        "package bus\n\ntype Handler func(msg string)\n\n"
        "type Bus struct {\n\thandlers map[string][]Handler\n}\n\n"
        "func (b *Bus) Subscribe(topic string, h Handler) {\n\tcheckTopic(topic)\n"
        "\tb.handlers[topic] = append(b.handlers[topic], h)\n}\n\n"
        "func (b *Bus) Publish(topic string, msg string) {\n"
        "\tfor _, h := range b.handlers[topic] {\n\t\tdeliver(h, msg)\n\t}\n}\n"
    ),
    "topic.go": f"package bus\n\nfunc checkTopic(topic string) {{\n{_go_lines(60)}}}\n",
    "deliver.go": f"package bus\n\nfunc deliver(h Handler, msg string) {{\n{_go_lines(20)}\th(msg)\n}}\n",
}


def test_a_go_flow_starts_where_the_registered_handlers_are_run(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, BUS)
    assert facts.calls is not None
    assert facts.calls.entries(limit=2)[0] == ("bus.go", "Bus.Publish")
    assert first_flow(facts)[:2] == ["Bus.Publish", "deliver"]


def _c_lines(count: int) -> str:
    return "".join(f"  int step{i} = {i};\n" for i in range(count))


# libuv's shape: `include/` declares the library's API (`lib_run`); `src/` defines it, and internal
# functions its other files share without `static` (`lib__work`, leading to more code)
C_LIBRARY = {
    "include/lib.h": "#ifndef LIB_H\n#define LIB_H\ntypedef struct lib_loop lib_loop;\nint lib_run(lib_loop *loop);\n#endif\n",
    "src/core.c": (
        '#include "lib.h"\n\nint lib__poll(lib_loop *loop);\n\n'
        f"int lib_run(lib_loop *loop) {{\n{_c_lines(10)}  return lib__poll(loop);\n}}\n"
    ),
    "src/poll.c": f'#include "lib.h"\n\nint lib__poll(lib_loop *loop) {{\n{_c_lines(20)}  return 0;\n}}\n',
    "src/work.c": (
        '#include "lib.h"\n\n'
        f"int lib__work_done(lib_loop *loop) {{\n{_c_lines(60)}  return 0;\n}}\n\n"
        f"int lib__work(lib_loop *loop) {{\n{_c_lines(60)}  return lib__work_done(loop);\n}}\n"
    ),
}


def test_a_c_librarys_flow_starts_at_what_its_public_headers_declare(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, C_LIBRARY)
    assert facts.calls is not None
    assert first_flow(facts)[:2] == ["lib_run", "lib__poll"]


@pytest.mark.parametrize(
    "page", ["docs/basic_usage.rst", "docs/guides/01-getting-started.md", "docs/quickstart.en-US.md"]
)
def test_a_starter_page_numbered_levelled_or_localized_gives_examples(tmp_path: Path, page: str) -> None:
    """kazoo's README has no code; its `zk.start()` sits in docs/basic_usage.rst, which was never read, so
    a `KazooRetry.__call__` no example names opened its flow."""
    code = (
        "\n.. code-block:: python\n\n    zk.start()\n"
        if page.endswith(".rst")
        else "\n```\nzk.start()\n```\n"
    )
    root = write_tree(tmp_path / "repo", {"README.md": "# zk\n\nA client.\n", page: "Usage\n=====\n" + code})
    assert "start" in example_calls(example_code(root, map_repository(root)))
    other = write_tree(tmp_path / "other", {"README.md": "# zk\n", "docs/advanced_retries.rst": code})
    assert "start" not in example_calls(example_code(other, map_repository(other)))


def test_each_example_file_is_parsed_once_for_the_calls_it_makes_enters_and_defers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The examples' calls, the context managers they enter and the calls they defer are read from one
    parse of each example file (the README and a getting-started page were parsed three times each)."""
    import generator.repo.facts.examples as examples

    parsed: list[str] = []
    markdown_code = examples.markdown_code

    def counted(text: str) -> str:
        parsed.append(text)
        return markdown_code(text)

    monkeypatch.setattr(examples, "markdown_code", counted)
    facts = facts_of(
        tmp_path, {**MOCKER, "docs/getting-started.md": "# Start\n\n```\ndefer m.close()\n```\n"}
    )
    assert sorted(parsed) == sorted([MOCKER["README.md"], "# Start\n\n```\ndefer m.close()\n```\n"])
    assert facts.calls is not None
    assert "Mocker" in facts.calls.examples and "Mocker" in facts.calls.entered  # what each read finds
    assert set(facts.calls.deferred) == {"close"}


def _work(name: str, steps: int) -> str:
    """A module-level function doing `steps` lines of work."""
    return f"def {name}(x):\n" + "".join(f"    x = x + {i}\n" for i in range(steps)) + "    return x\n"


# requests-mock's shape: the README enters `Mocker()` with `with`; what the `with` runs (`__enter__` →
# start → patching the transport) is the engine, and `m.get(…)` only registers a response
MOCKER = {
    "README.md": (
        "# mocker\n\n```python\nimport mocker\n\nwith mocker.Mocker() as m:\n"
        "    m.get('http://test.com', text='data')\n```\n"
    ),
    "mocker/__init__.py": "from mocker.core import Mocker\n\n__all__ = ['Mocker']\n",
    "mocker/core.py": (
        "from mocker.patching import install, record\n\n\nclass Mocker:\n"
        "    def __init__(self):\n        self.routes = []\n\n"
        "    def __enter__(self):\n        self.start()\n        return self\n\n"
        "    def __exit__(self, *args):\n        self.routes = []\n\n"
        "    def start(self):\n        install(self.routes)\n\n"
        "    def get(self, url, **kwargs):\n        return record(self.routes, url)\n"
    ),
    "mocker/patching.py": _work("install", 40) + "\n\n" + _work("record", 12),
}


def test_the_with_statement_the_readme_opens_enters_the_flow_at_its_context_managers_enter(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, MOCKER)
    assert first_flow(facts) == ["Mocker.__enter__", "Mocker.start", "install"]  # not `Mocker.get → record`


def test_the_names_a_with_statement_enters_are_those_of_the_calls_making_its_context_manager() -> None:
    from generator.repo.facts.examples import entered_names

    code = (
        "```python\nwith requests_mock.Mocker() as m:\n    m.get('x')\n"
        "async with connect('ws://localhost') as ws:\n    await ws.send('x')\n"
        "with Betamax(session).use_cassette('user'):\n    session.get('x')\n"
        "with lock:\n    pass\n```\n"
    )
    assert entered_names(code, "README.md") == ["Mocker", "connect", "use_cassette"]


# a cache in Go (go-cache's shape): `New` returns `*Cache`, a struct that only embeds the unexported `*cache`,
# and spawns the janitor sweeping expired items — upkeep; every method the examples call is `cache`'s,
# promoted to `Cache`; `Set` writes inline, calling none of the project's code
EMBEDDING_CACHE = {
    "go.mod": "module example.com/cache\n\ngo 1.21\n",
    "README.md": (
        '# cache\n\n```go\nc := cache.New(time.Minute)\nc.Set("a", 1)\nv, ok := c.Get("a")\n'
        'c.Delete("a")\n```\n'
    ),
    "cache.go": (
        'package cache\n\nimport "time"\n\ntype Cache struct {\n\t*cache\n}\n\n'
        "type cache struct {\n\titems map[string]int\n\tj     *janitor\n}\n\n"
        "func New(every time.Duration) *Cache {\n\tc := &cache{items: map[string]int{}}\n"
        "\tC := &Cache{c}\n\trunJanitor(c, every)\n\treturn C\n}\n\n"
        "func (c *cache) Set(k string, v int) {\n\tc.items[k] = v\n}\n\n"
        "func (c *cache) Get(k string) (int, bool) {\n\tv, ok := c.items[k]\n\treturn v, ok\n}\n\n"
        "func (c *cache) Delete(k string) {\n\tc.delete(k)\n}\n\n"
        f"func (c *cache) delete(k string) {{\n{_go_lines(20)}\tdelete(c.items, k)\n}}\n\n"
        f'func (c *cache) DeleteExpired() {{\n{_go_lines(60)}\tc.delete("")\n}}\n'
    ),
    "janitor.go": (
        'package cache\n\nimport "time"\n\ntype janitor struct {\n\tevery time.Duration\n}\n\n'
        "func runJanitor(c *cache, every time.Duration) {\n\tj := &janitor{every: every}\n\tc.j = j\n"
        "\tgo j.Run(c)\n}\n\n"
        "func (j *janitor) Run(c *cache) {\n\tticker := time.NewTicker(j.every)\n\tfor {\n\t\t<-ticker.C\n"
        "\t\tc.DeleteExpired()\n\t}\n}\n"
    ),
}


def test_a_cache_flow_starts_at_a_call_on_the_type_its_result_embeds_not_at_its_janitor(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, EMBEDDING_CACHE)
    assert facts.calls is not None
    assert facts.calls.embedded("cache.go", "Cache") == ["cache"]
    # the janitor `New` spawns is upkeep; the examples call `cache`'s methods on the `*Cache` it returns,
    # and `Delete` is the one leading to the project's code (`Set` and `Get` call none)
    assert first_flow(facts)[:2] == ["cache.Delete", "cache.delete"]


def test_a_parameter_s_deprecation_is_not_its_function_s() -> None:
    """anyio's `create_memory_object_stream` documents `:param item_type:` with a nested `.. deprecated::
    4.0`: the argument is deprecated, the function is not (its listing said "(deprecated)")."""
    doc = (
        "Create a memory object stream.\n\n    :param max_buffer_size: items held in the buffer\n"
        "    :param item_type: old way of marking the streams\n\n        .. deprecated:: 4.0\n"
        "          Use ``create_memory_object_stream[YourItemType](...)`` instead.\n"
        "    :return: a tuple of (send stream, receive stream)\n"
    )
    assert not deprecated_by_doc(doc)
    assert deprecated_by_doc("Run it.\n\n    .. deprecated:: 2.0\n        Use run.\n    :param x: a value\n")


# fx's shape: `New` runs the work itself — it provides every constructor and invokes the user's functions
# (`provideAll`, `invokeAll`, much code) — and returns the App whose `Run` only starts, waits and stops;
# `apptest.New` wraps `app.New` for tests, and the examples call `app.New(…)`, never `apptest.New`
GO_CONTAINER = {
    "go.mod": "module example.com/app\n\ngo 1.21\n",
    "README.md": "# app\n\n```go\napp.New(app.Provide(NewServer)).Run()\n```\n",
    "app.go": (
        "package app\n\ntype App struct {\n\tprovides []func()\n\tstarted bool\n}\n\n"
        "type Option func(*App)\n\n"
        "func Provide(f func()) Option {\n\treturn func(a *App) { a.provides = append(a.provides, f) }\n}\n\n"
        "func New(opts ...Option) *App {\n\ta := &App{}\n\tfor _, o := range opts {\n\t\to(a)\n\t}\n"
        "\ta.provideAll()\n\ta.invokeAll()\n\treturn a\n}\n\n"
        f"func (a *App) provideAll() {{\n{_go_lines(40)}\trunProvide(a)\n}}\n\n"
        f"func runProvide(a *App) {{\n{_go_lines(40)}}}\n\n"
        f"func (a *App) invokeAll() {{\n{_go_lines(40)}\trunInvoke(a)\n}}\n\n"
        f"func runInvoke(a *App) {{\n{_go_lines(40)}}}\n\n"
        "func (a *App) Run() {\n\ta.start()\n}\n\n"
        f"func (a *App) start() {{\n{_go_lines(10)}\ta.started = true\n}}\n"
    ),
    "apptest/app.go": (
        'package apptest\n\nimport "example.com/app"\n\n'
        "func New(opts ...app.Option) *app.App {\n\treturn app.New(opts...)\n}\n"
    ),
}


def test_a_constructor_doing_the_work_itself_opens_the_flow(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GO_CONTAINER)
    assert facts.calls is not None
    # `app.New(…)` in the examples is the root package's `New`, not the test package's of the same name
    assert facts.calls.entries(limit=1) == [("app.go", "New")]
    # and `Run`, though it uses the App `New` made, leads to less than `New` does itself
    names = {name for branch in facts.calls.tree() for name in _names(branch)}
    assert first_flow(facts)[0] == "New"
    assert {"App.provideAll", "runProvide", "App.invokeAll", "runInvoke"} <= names


# fx's run half: `New` builds the App and opens the flow; the examples then call `Run` on it, which starts,
# waits and stops — and they call `Start` too, which `Run` runs
GO_RUNNING_APP = {
    **GO_CONTAINER,
    "README.md": (
        "# app\n\n```go\napp.New(app.Provide(NewServer)).Run()\n```\n\n"
        "```go\na := app.New()\nif err := a.Start(); err != nil {\n\tpanic(err)\n}\n```\n"
    ),
    "app.go": GO_CONTAINER["app.go"].replace(
        "func (a *App) Run() {\n\ta.start()\n}\n",
        "func (a *App) Run() {\n\ta.Start()\n\ta.stop()\n}\n\n"
        "func (a *App) Start() error {\n\ta.start()\n\treturn nil\n}\n\n"
        f"func (a *App) stop() {{\n{_go_lines(10)}\ta.started = false\n}}\n",
    ),
}


def test_the_index_draws_what_the_examples_call_on_what_the_flow_s_entry_returns(tmp_path: Path) -> None:
    """fx's `fx.New(…).Run()`: `New` opens the flow (it does the work of building the graph); `App.Run`,
    which the examples call on what it returns, is drawn after it — not `Start`, which `Run` runs too."""
    facts = facts_of(tmp_path, GO_RUNNING_APP)
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert first_flow(facts)[0] == "New"
    then = facts.calls.then(tree)
    assert then and then[0].edge.caller == "App.Run"
    assert {"App.Start", "App.start", "App.stop"} <= {n for branch in then for n in _names(branch)}
    root = make_project(tmp_path / "web", GO_RUNNING_APP)
    kb = tmp_path / "kb"
    kb.mkdir()
    assert invoke(kb, "repo", "run", str(root)).exit_code == 0
    index = (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").read_text(encoding="utf-8")
    flow = index.split("### Main flow", 1)[1].split("## Module catalogue", 1)[0]
    then_part = flow.split("Then the usage examples call `App.Run` on what `New` returns", 1)[1]
    assert "- `App.Run`\n    - calls `App.Start` — [app.go:" in then_part
    assert "        - calls `App.start`" in then_part
