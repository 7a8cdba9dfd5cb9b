"""Where a repository's flows start and what its object modules define: the README's calls, deprecated
symbols, a maintainer's entry points, JavaScript object literals, classes and delegates."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts

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
    request = facts.files["lib/request.js"]
    assert [s.name for s in request.symbols] == ["header", "get"]  # an anonymous module object's members
    assert {"header", "get"} <= set(request.exports)


def test_test_helpers_are_context_not_code(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, KOA_LIKE)
    assert facts.calls is not None
    assert "test-helpers/context.js" not in {e.caller_path for e in facts.calls.edges()}
    flows = facts.calls.chains(limit=3)
    assert flows and all(not e.callee_path.startswith("test-helpers/") for chain in flows for e in chain)
