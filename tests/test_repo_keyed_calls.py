"""A JavaScript method called through a computed key (`this[writeSym](…)`, pino's prototype) is the function
an object literal of the repository binds to that key (`[writeSym]: write`): the call graph reaches it."""

from __future__ import annotations

from pathlib import Path

from generator.repo.facts.extract import extract_facts
from generator.repo.facts.languages import SUPPORTED
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts

LOGGER = {
    "package.json": '{"name": "logger", "main": "lib/logger.js"}\n',
    "lib/symbols.js": (
        "const writeSym = Symbol('write')\nconst formatSym = Symbol('format')\n"
        "module.exports = { writeSym, formatSym }\n"
    ),
    "lib/proto.js": (
        "const { writeSym, formatSym } = require('./symbols')\n"
        "const { asLine } = require('./tools')\n\n"
        "const prototype = {\n"
        "  [writeSym]: write,\n"
        "  [formatSym]: asLine,\n"
        "}\n\n"
        "function write (msg) {\n"
        "  const line = this[formatSym](msg)\n"
        "  this.stream.write(line)\n"
        "}\n\n"
        "module.exports = prototype\n"
    ),
    "lib/tools.js": (
        "const { writeSym } = require('./symbols')\n\n"
        "function asLine (msg) {\n  return JSON.stringify(msg) + '\\n'\n}\n\n"
        "function genLog (level) {\n"
        "  return function LOG (msg) {\n"
        "    this[writeSym](msg, level)\n"
        "  }\n"
        "}\n\n"
        "module.exports = { asLine, genLog }\n"
    ),
    # a key two literals bind to different functions says nothing about which one a call reaches
    "lib/a.js": "const k = Symbol('k')\nfunction one () {}\nconst a = {\n  [k]: one,\n}\nfunction go () { a[k]() }\n",
    "lib/b.js": "const k = Symbol('k')\nfunction two () {}\nconst b = {\n  [k]: two,\n}\n",
}


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return extract_facts(tmp_path, map_repository(tmp_path, keep_languages=SUPPORTED, keep_bytes=10_000_000))


def callees(facts: Facts, path: str, caller: str) -> set[tuple[str, str]]:
    assert facts.calls is not None
    return {(e.callee_path, e.callee) for e in facts.calls.calls_of(path, {caller})}


def test_a_call_through_a_computed_key_reaches_the_function_bound_to_it(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, LOGGER)
    assert ("lib/proto.js", "write") in callees(facts, "lib/tools.js", "genLog") | callees(
        facts, "lib/tools.js", "LOG"
    )
    # bound to a function the file imports: the definition in the module it comes from
    assert ("lib/tools.js", "asLine") in callees(facts, "lib/proto.js", "write")
    assert callees(facts, "lib/a.js", "go") == set()
