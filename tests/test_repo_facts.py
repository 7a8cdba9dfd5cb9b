"""Stage 3 (facts): symbols with line ranges, resolved imports, entry points and importance, per language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from repo_source_fixture import FIXTURE, write_tree

from generator.repo.facts import forked
from generator.repo.facts.extract import extract_facts, pagerank
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts, Symbol


@pytest.fixture
def facts(tmp_path: Path) -> Facts:
    root = write_tree(tmp_path / "repo", FIXTURE)
    return extract_facts(root, map_repository(root))


def symbols(facts: Facts, path: str) -> dict[str, Symbol]:
    return {s.name: s for s in facts.files[path].symbols}


def test_python_symbols_docs_and_imports(facts: Facts) -> None:
    core = symbols(facts, "pkg/core.py")
    assert (core["Engine"].kind, core["Engine"].start, core["Engine"].end, core["Engine"].doc) == (
        "class",
        9,
        17,
        "Runs things.",
    )
    assert (core["Engine.run"].kind, core["Engine.run"].start, core["Engine.run"].end) == ("method", 12, 14)
    assert core["Engine.run"].doc == "Run once."
    assert not core["Engine._private"].public and core["build"].public
    assert facts.files["pkg/core.py"].doc == "Core engine."
    assert facts.files["pkg/core.py"].depends_on == ["pkg/util.py"]  # relative and absolute forms
    assert facts.files["pkg/__init__.py"].depends_on == ["pkg/core.py"]
    assert facts.files["app.py"].depends_on == ["pkg/core.py"]  # `sys` is outside the repository
    assert facts.files["app.py"].is_entry_point


def test_go_symbols_and_module_imports(facts: Facts) -> None:
    lib = symbols(facts, "gosvc/lib/lib.go")
    assert (lib["Add"].start, lib["Add"].end, lib["Add"].doc, lib["Add"].public) == (
        4,
        6,
        "Add adds two numbers.",
        True,
    )
    assert lib["Point"].kind == "struct" and lib["Point.Norm"].kind == "method"
    assert not lib["helper"].public
    main = facts.files["gosvc/main.go"]
    assert main.depends_on == ["gosvc/lib/lib.go"] and main.is_entry_point
    assert main.doc == "Command svc serves things."


def test_typescript_symbols_and_relative_imports(facts: Facts) -> None:
    index = facts.files["web/index.ts"]
    assert index.depends_on == ["web/comp/index.ts", "web/util.ts"]  # extension and index resolution
    assert "react" in index.imports
    util = symbols(facts, "web/util.ts")
    assert (util["greet"].start, util["greet"].end, util["greet"].doc, util["greet"].public) == (
        2,
        4,
        "Greets someone.",
        True,
    )
    assert not util["internal"].public
    widget = symbols(facts, "web/comp/index.ts")
    assert (widget["Widget.render"].kind, widget["Widget.render"].start) == ("method", 3)


OVERLOADED = """\
export interface CreateSelector<State> {
  /** With input selectors and a result function. */
  <Inputs extends Selector<State>[], Result>(
    ...args: [...inputs: Inputs, combiner: Combiner<Inputs, Result>]
  ): Output<Inputs, Result> &
    Interrupt

  /**
   * With an options object too.
   */
  <
    Inputs extends Selector<State>[],
    Result,
    OverrideMemoize extends Memoizer = Memoize
  >(
    ...args: [...inputs: Inputs, combiner: Combiner<Inputs, Result>, options: Options<OverrideMemoize>]
  ): Output<Inputs, Result> &
    Interrupt
}

export function createSelectorCreator<State>(memoize: Memoize): CreateSelector<State> {
  const createSelector = (...args: unknown[]) => memoize(args)
  return createSelector as CreateSelector<State>
}
"""


def test_typescript_call_signatures_without_semicolons_are_read() -> None:
    """TypeScript lets an interface's call signatures follow each other without a semicolon; tree-sitter's
    grammar reads `Interrupt\n<Inputs …>` as one generic type, and the whole file was an error with no
    symbol (reselect's createSelectorCreator.ts, immer's types-external.ts). Read again with the signatures
    separated, the file's symbols are found at their lines."""
    from generator.repo.facts.languages import extract

    found = {s.name: (s.kind, s.start) for s in extract("typescript", OVERLOADED).symbols}
    assert found["CreateSelector"] == ("interface", 1)
    assert found["createSelectorCreator"] == ("function", 21)


def test_rust_symbols_mod_and_use(facts: Facts) -> None:
    main = facts.files["rs/src/main.rs"]
    assert main.depends_on == ["rs/src/parser.rs"] and main.is_entry_point
    parser = symbols(facts, "rs/src/parser.rs")
    assert (parser["parse"].start, parser["parse"].end, parser["parse"].doc) == (4, 6, "Parse a string.")
    assert parser["Parser.new"].kind == "method"
    assert facts.files["rs/src/parser.rs"].doc == "Parsing helpers."


def test_java_symbols_and_package_imports(facts: Facts) -> None:
    app = facts.files["java/src/com/acme/App.java"]
    assert app.depends_on == ["java/src/com/acme/util/Helper.java"] and app.is_entry_point
    helper = symbols(facts, "java/src/com/acme/util/Helper.java")
    assert (helper["Helper.help"].start, helper["Helper.help"].end, helper["Helper.help"].doc) == (
        5,
        7,
        "Helps.",
    )
    assert not helper["Helper.hidden"].public


KOTLIN = {
    "okio/src/commonMain/kotlin/okio/Source.kt": (
        "package okio\n\n"
        "import okio.internal.commonRead\n\n"
        "/** Supplies a stream of bytes. */\n"
        "interface Source : Closeable {\n"
        "  /** Removes bytes from this and appends them to [sink]. */\n"
        "  fun read(sink: Buffer, byteCount: Long): Long\n"
        "}\n"
    ),
    "okio/src/commonMain/kotlin/okio/Buffer.kt": (
        "/*\n * Copyright (C) 2019 Square, Inc.\n */\n"
        "package okio\n\n"
        "import okio.Source\n"
        "import java.io.Closeable\n\n"
        "/** A collection of bytes in memory. */\n"
        "expect class Buffer() : BufferedSource, Source {\n"
        "  fun size(): Long\n"
        "  internal fun segment(): Int\n"
        "  companion object { fun of(text: String): Buffer }\n"
        "}\n\n"
        "object Okio { fun buffer(source: Source): Buffer = Buffer() }\n\n"
        "enum class Mode { READ, WRITE }\n\n"
        "private fun helper() = 1\n"
    ),
}


def test_kotlin_symbols_docs_and_imports(tmp_path: Path) -> None:
    """Kotlin's grammar names no fields: okio's 309 Kotlin files gave no symbol at all, its pages showed a
    vendored C header's structs as the data model and test modules as its key files."""
    root = write_tree(tmp_path / "repo", KOTLIN)
    facts = extract_facts(root, map_repository(root))
    source = symbols(facts, "okio/src/commonMain/kotlin/okio/Source.kt")
    assert (source["Source"].kind, source["Source"].doc, source["Source"].bases) == (
        "interface",
        "Supplies a stream of bytes.",
        ("Closeable",),
    )
    assert (source["Source.read"].kind, source["Source.read"].start, source["Source.read"].end) == (
        "method",
        8,
        8,
    )
    buffer = symbols(facts, "okio/src/commonMain/kotlin/okio/Buffer.kt")
    assert buffer["Buffer"].doc == "A collection of bytes in memory."
    assert buffer["Buffer"].bases == ("BufferedSource", "Source")
    assert [n for n in buffer if n.startswith("Buffer.")] == ["Buffer.size", "Buffer.segment", "Buffer.of"]
    assert not buffer["Buffer.segment"].public and not buffer["helper"].public
    assert (buffer["Okio"].kind, buffer["Okio.buffer"].kind, buffer["Mode"].kind) == (
        "class",
        "method",
        "enum",
    )
    assert facts.files["okio/src/commonMain/kotlin/okio/Buffer.kt"].depends_on == [
        "okio/src/commonMain/kotlin/okio/Source.kt"
    ]


def test_c_symbols_and_includes(facts: Facts) -> None:
    util = symbols(facts, "c/util.c")
    assert (util["add"].start, util["add"].end, util["add"].doc) == (5, 7, "Adds.")
    assert not util["hidden"].public  # static
    assert facts.files["c/util.c"].depends_on == ["c/util.h"]  # <stdio.h> is external
    assert facts.files["c/main.c"].is_entry_point


def test_parse_failure_does_not_stop_the_run(facts: Facts) -> None:
    assert facts.files["broken.py"].symbols == []
    assert facts.files["pkg/util.py"].symbols  # later files still parsed


def test_importance_ranks_hub_above_leaf(tmp_path: Path) -> None:
    files = {"hub.py": '"""Shared helpers."""\n\ndef shared():\n    return 1\n'}
    for i in range(6):
        files[f"leaf{i}.py"] = f"from hub import shared\n\n\ndef use{i}():\n    return shared()\n"
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    hub = facts.files["hub.py"].importance
    assert all(hub > facts.files[f"leaf{i}.py"].importance for i in range(6))
    assert all(0.0 <= f.importance <= 1.0 for f in facts.files.values())
    assert sorted(p for p, f in facts.files.items() if "hub.py" in f.depends_on) == [
        f"leaf{i}.py" for i in range(6)
    ]


def test_pagerank_sums_to_one_and_flows_to_dependencies() -> None:
    ranks = pagerank({"a": ["c"], "b": ["c"], "c": []}, ["a", "b", "c"])
    assert sum(ranks.values()) == pytest.approx(1.0)
    assert ranks["c"] > ranks["a"] == pytest.approx(ranks["b"])


def test_entry_points_from_packaging_metadata(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": '[project]\nname = "tool"\n[project.scripts]\ntool = "tool.cli:main"\n',
            "src/tool/__init__.py": "",
            "src/tool/cli.py": "def main():\n    pass\n",
            "js/package.json": json.dumps({"name": "x", "bin": {"x": "bin/run.js"}, "main": "lib/index"}),
            "js/bin/run.js": "require('../lib');\n",
            "js/lib/index.js": "module.exports = {};\n",
            "js/lib/other.js": "module.exports = {};\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["src/tool/cli.py"].is_entry_point
    assert facts.files["js/bin/run.js"].is_entry_point and facts.files["js/lib/index.js"].is_entry_point
    assert not facts.files["js/lib/other.js"].is_entry_point
    assert facts.files["js/bin/run.js"].depends_on == ["js/lib/index.js"]  # require() of a folder


def test_python_src_layout_and_submodule_imports(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "src/lib/__init__.py": "from lib import sub\n",
            "src/lib/sub/__init__.py": "",
            "src/lib/sub/deep.py": "from ..other import thing\n",
            "src/lib/other.py": "thing = 1\n",
            "tests/test_x.py": "import lib.sub.deep\nfrom lib.other import thing\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["src/lib/__init__.py"].depends_on == ["src/lib/sub/__init__.py"]
    assert facts.files["src/lib/sub/deep.py"].depends_on == ["src/lib/other.py"]
    assert facts.files["tests/test_x.py"].depends_on == ["src/lib/other.py", "src/lib/sub/deep.py"]


def test_relative_imports_prefer_a_module_then_a_package_then_their_stubs(tmp_path: Path) -> None:
    """`from .x import y` names x.py before x/__init__.py before x.pyi before x/__init__.pyi, and a name
    that is a submodule (`from . import part`) names its file."""
    root = write_tree(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/main.py": "from .both import a\nfrom .package import b\nfrom .stub import c\n"
            "from .stubpkg import d\nfrom . import part\nfrom .missing import e\n",
            "pkg/both.py": "a = 1\n",
            "pkg/both/__init__.py": "",
            "pkg/package/__init__.py": "b = 1\n",
            "pkg/package/__init__.pyi": "b: int\n",
            "pkg/stub.pyi": "c: int\n",
            "pkg/stub/__init__.pyi": "",
            "pkg/stubpkg/__init__.pyi": "d: int\n",
            "pkg/part.py": "",
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["pkg/main.py"].depends_on == [
        "pkg/both.py",
        "pkg/package/__init__.py",
        "pkg/part.py",
        "pkg/stub.pyi",
        "pkg/stubpkg/__init__.pyi",
    ]


CPP_HEADER = """#pragma once
namespace geo {
/// A shape.
class Shape {
 public:
  virtual double area() const = 0;
  int sides() const { return n_; }
 private:
  int n_;
};
}  // namespace geo
"""

CPP_SOURCE = """#include "shape.h"
#include <vector>

namespace geo {

// Computes a total.
double total(const std::vector<Shape*>& shapes) {
  double sum = 0;
  for (auto* s : shapes) sum += s->area();
  return sum;
}

template <typename T>
T twice(T x) {
  return x + x;
}

}  // namespace geo

int main() { return 0; }
"""


def test_cpp_namespaces_classes_templates(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {"cpp/shape.h": CPP_HEADER, "cpp/shape.cpp": CPP_SOURCE})
    facts = extract_facts(root, map_repository(root))
    header = symbols(facts, "cpp/shape.h")  # a .h with classes is parsed as C++
    assert (header["geo.Shape"].kind, header["geo.Shape"].start, header["geo.Shape"].end) == ("class", 4, 10)
    assert header["geo.Shape"].doc == "A shape." and header["geo.Shape.sides"].kind == "method"
    source = symbols(facts, "cpp/shape.cpp")
    assert (source["geo.total"].kind, source["geo.total"].start, source["geo.total"].doc) == (
        "function",
        7,
        "Computes a total.",
    )
    assert (source["geo.twice"].start, source["geo.twice"].end) == (13, 16)  # from the `template` line
    assert facts.files["cpp/shape.cpp"].depends_on == ["cpp/shape.h"]
    assert facts.files["cpp/shape.cpp"].is_entry_point


def test_a_macro_before_a_namespace_makes_no_symbol_called_namespace(tmp_path: Path) -> None:
    # nlohmann/json opens its namespaces with NLOHMANN_JSON_NAMESPACE_BEGIN: tree-sitter reads a function
    # named "namespace", which was a key symbol of four subsystems; what it holds is still found
    text = (
        "#include <x.hpp>\n\nJSON_NAMESPACE_BEGIN\nnamespace detail\n{\nint helper(int a) { return a; }\n}\n"
    )
    root = write_tree(tmp_path / "repo", {"include/detail.hpp": text})
    found = symbols(extract_facts(root, map_repository(root)), "include/detail.hpp")
    assert list(found) == ["helper"] and found["helper"].start == 6


def test_typescript_path_aliases_from_tsconfig(tmp_path: Path) -> None:
    tsconfig = """{
      // JSON with comments, as tsc accepts it
      "compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}, /* trailing comma */},
    }"""
    root = write_tree(
        tmp_path / "repo",
        {
            "app/tsconfig.json": tsconfig,
            "app/src/main.ts": 'import { a } from "@/widgets/a";\nimport { b } from "src/b";\nimport x from "lodash";\n',
            "app/src/widgets/a.ts": "export const a = 1;\n",
            "app/src/b.ts": "export const b = 2;\n",
            "other/c.ts": 'import { a } from "@/widgets/a";\n',  # outside the tsconfig's folder
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["app/src/main.ts"].depends_on == ["app/src/b.ts", "app/src/widgets/a.ts"]
    assert facts.files["other/c.ts"].depends_on == []


def test_workspace_packages_import_each_other_by_name(tmp_path: Path) -> None:
    # a JS/TS monorepo without tsconfig paths: siblings import `@acme/core` by its package.json name, whose
    # built entry (dist/) is not in the repository, so its source index is; `@acme/core/sub` is a file of it
    manifest = {
        "name": "@acme/core",
        "main": "dist/index.js",
        "exports": {".": {"types": "./dist/index.d.ts"}},
    }
    root = write_tree(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"private": True, "workspaces": ["packages/*"]}),
            "packages/core/package.json": json.dumps(manifest),
            "packages/core/src/index.ts": 'export { run } from "./run";\n',
            "packages/core/src/run.ts": "export function run() { return 1; }\n",
            "packages/cli/package.json": json.dumps({"name": "@acme/cli", "main": "lib/main.js"}),
            "packages/cli/lib/main.js": 'const core = require("@acme/core");\nrequire("@acme/cli/lib/x");\n',
            "packages/cli/lib/x.js": 'import { run } from "@acme/core/src/run";\nimport y from "@acme/other";\n',
            "fixtures/core/package.json": json.dumps({"name": "lodash", "main": "index.js"}),  # no workspace
            "fixtures/core/index.js": "module.exports = 1;\n",
            "tools/a.js": 'const _ = require("lodash");\n',
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["packages/cli/lib/main.js"].depends_on == [
        "packages/cli/lib/x.js",
        "packages/core/src/index.ts",
    ]
    assert facts.files["packages/cli/lib/x.js"].depends_on == ["packages/core/src/run.ts"]
    assert facts.files["tools/a.js"].depends_on == []


def test_pnpm_workspace_packages_resolve_to_code_not_declarations(tmp_path: Path) -> None:
    # pnpm-workspace.yaml globs with an exclusion; `exports` by subpath; a committed .d.ts is not the code
    ui = {"name": "ui", "types": "index.d.ts", "exports": {".": {"types": "./index.d.ts"}, "./*": "./*"}}
    root = write_tree(
        tmp_path / "repo",
        {
            "pnpm-workspace.yaml": "packages:\n  - 'libs/*'\n  - '!libs/legacy'\n",
            "libs/ui/package.json": json.dumps(ui),
            "libs/ui/index.d.ts": "export declare const button: number;\n",
            "libs/ui/src/index.ts": "export const button = 1;\n",
            "libs/legacy/package.json": json.dumps({"name": "legacy", "main": "index.js"}),
            "libs/legacy/index.js": "module.exports = 1;\n",
            "app/main.ts": 'import { button } from "ui";\nimport old from "legacy";\n',
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["app/main.ts"].depends_on == ["libs/ui/src/index.ts"]


def test_root_folder_that_is_itself_a_package(tmp_path: Path) -> None:
    # a checkout whose root holds __init__.py: its import name ("toolkit") is learned from the imports
    root = write_tree(
        tmp_path / "checkout-dir",
        {
            "__init__.py": "",
            "core.py": "from toolkit.util import helper\n",
            "util.py": "def helper():\n    return 1\n",
            "cli/__init__.py": "",
            "cli/main.py": "from toolkit.core import *\nimport toolkit.util\nimport os.path\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["core.py"].depends_on == ["util.py"]
    assert facts.files["cli/main.py"].depends_on == ["core.py", "util.py"]


def test_docstrings_and_imports_are_redacted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEPLOY_TOKEN", "deploy-token-value-99")
    key = "AKIA" + "ZX9QRST4UVW7XY2B"
    root = write_tree(
        tmp_path / "repo",
        {
            "conf.py": f'"""Uses key {key} for uploads."""\n\ndef f():\n    """Token is deploy-token-value-99."""\n',
            "web/app.ts": 'import x from "https://user:hunter2pw@cdn.example.com/x.js";\n',
            "docs/guide.md": "# Guide\n\nDeploy with the token deploy-token-value-99 set.\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    text = repr(facts)
    for secret in (key, "deploy-token-value-99", "hunter2pw"):
        assert secret not in text
    assert facts.files["conf.py"].symbols[0].doc == "Token is [REDACTED:env]."
    assert "[REDACTED:env]" in facts.files["docs/guide.md"].doc  # a doc no parser read
    assert "[REDACTED:" in facts.files["conf.py"].doc


def test_a_pool_of_forked_processes_reads_the_same_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEPLOY_TOKEN", "deploy-token-value-99")
    tree = {**FIXTURE, "conf.py": '"""Deploy with deploy-token-value-99."""\nimport pkg.models\n'}
    root = write_tree(tmp_path / "repo", tree)
    alone = extract_facts(root, map_repository(root))
    pools: list[int] = []

    class CountedPool(forked.ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs: Any) -> None:
            pools.append(workers)
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(forked, "ProcessPoolExecutor", CountedPool)
    monkeypatch.setattr(forked, "workers", lambda total, least: 2)  # two processes for this small repository
    pooled = extract_facts(root, map_repository(root))
    assert pools == [2, 2]  # the symbols pass, then the calls pass
    assert pooled.files == alone.files and "[REDACTED:env]" in pooled.files["conf.py"].doc
    assert pooled.calls is not None and alone.calls is not None
    assert pooled.calls.edges() == alone.calls.edges() and alone.calls.edges()


RUBY_GEM = """require_relative "gem/util"
require "json"

# The gem's entry.
module Gem
  # Builds things.
  class Builder
    def build
      Util.help
    end
  end
end
"""

CSHARP_PROGRAM = """using System;

namespace Acme.App
{
    /// <summary>Entry.</summary>
    public class Program
    {
        public static void Main(string[] args)
        {
            Console.WriteLine("hi");
        }

        private int Hidden() { return 1; }
    }
}
"""

PHP_CLASS = """<?php
namespace App;

/** A K. */
class K
{
    public function run()
    {
        return 1;
    }

    private function hidden() {}
}
"""


def test_ruby_csharp_php_symbols(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "lib/gem.rb": RUBY_GEM,
            "lib/gem/util.rb": "module Util\nend\n",
            "Program.cs": CSHARP_PROGRAM,
            "K.php": PHP_CLASS,
        },
    )
    facts = extract_facts(root, map_repository(root))
    ruby = symbols(facts, "lib/gem.rb")
    assert (ruby["Gem.Builder"].start, ruby["Gem.Builder"].end, ruby["Gem.Builder"].doc) == (
        7,
        11,
        "Builds things.",
    )
    assert ruby["Gem.Builder.build"].kind == "method"
    assert facts.files["lib/gem.rb"].depends_on == ["lib/gem/util.rb"]
    csharp = symbols(facts, "Program.cs")
    assert csharp["Acme.App.Program"].doc == "Entry." and not csharp["Acme.App.Program.Hidden"].public
    assert (csharp["Acme.App.Program.Main"].start, csharp["Acme.App.Program.Main"].end) == (8, 11)
    assert facts.files["Program.cs"].is_entry_point
    php = symbols(facts, "K.php")
    assert (php["K"].start, php["K"].end, php["K"].doc) == (5, 13, "A K.")
    assert php["K.run"].public and not php["K.hidden"].public


def test_imports_are_shown_as_written_and_resolved_from_their_targets(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from .b import thing\nimport os.path\nfrom . import b\n",
            "pkg/b.py": "thing = 1\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["pkg/a.py"].imports == [".b.thing", "os.path", ".b"]
    assert facts.files["pkg/a.py"].depends_on == ["pkg/b.py"]


def test_a_comment_among_the_imports_is_no_description_of_the_file(tmp_path: Path) -> None:
    """got's options.ts: "// DO NOT use destructuring for `https.request` …" sits between two imports and
    notes the one below it; it described the whole subsystem. A comment above the imports still counts."""
    files = {
        "src/options.ts": (
            "import process from 'node:process';\n"
            "// DO NOT use destructuring for `https.request` as it's not compatible with `nock`.\n"
            "import https from 'node:https';\n\nexport class Options {}\n"
        ),
        "src/client.ts": "// The HTTP client: requests and their retries.\nimport http from 'node:http';\n\n"
        "export class Client {}\n",
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.files["src/options.ts"].doc == ""
    assert facts.files["src/client.ts"].doc == "The HTTP client: requests and their retries."


def test_js_requires_are_found_at_any_depth_and_only_there() -> None:
    """A statement is walked for `require(…)`/`import(…)` calls only when its text names one (the rest are
    skipped unread): a call deep in a callback and a dynamic import still count."""
    from generator.repo.facts.languages import extract

    text = (
        "const a = 1;\n"
        "describe('x', () => { it('y', () => { const b = require('./deep'); }); });\n"
        "load(() => import('./lazy'));\n"
        "requireAll('./nothing');\n"
        "console.log('no module named here');\n"
    )
    assert extract("javascript", text).imports == ["./deep", "./lazy"]


def test_a_rust_doc_comment_is_one_paragraph_over_its_lines() -> None:
    """rayon's `Folder`: "The `Folder` trait encapsulates [the standard fold" / "operation][fold]." — a Rust
    `///` line comment holds its newline, so the lines were joined with a blank line between each: every line
    a paragraph, the first sentence cut at the line's end ("The Folder trait encapsulates [the standard fold.")."""
    from generator.repo.facts.languages import symbols_of

    text = (
        "/// The `Folder` trait encapsulates the standard fold\n/// operation.  It can be fed many items.\n"
        "///\n/// A second paragraph.\npub trait Folder {\n    fn consume(self) -> Self;\n}\n"
    )
    (folder,) = [s for s in symbols_of("rust", text) if s.name == "Folder"]
    assert folder.doc_source.startswith("The `Folder` trait encapsulates the standard fold\noperation.")
    assert "\n\nA second paragraph." in folder.doc_source
    assert folder.doc.startswith("The Folder trait encapsulates the standard fold operation.")


def test_a_rust_items_doc_stands_above_its_attributes_and_a_blanket_impl_is_its_traits() -> None:
    """indicatif's `/// A progress bar or spinner` over `#[derive(Clone)] pub struct ProgressBar`, env_logger's
    `Builder` under `#[derive(Default)]`: the attribute stood between the doc and the item, so every derived
    struct had no doc and its subsystem read "Defines src.ProgressBar, …". `impl<S, T: Iterator> ProgressIterator
    for T` implements the trait for all T: its methods are the trait's, never a type named `T`."""
    from generator.repo.facts.languages import symbols_of

    text = (
        "/// A progress bar or spinner\n///\n/// Cloning it shares the state.\n#[derive(Clone)]\n"
        "#[cfg_attr(test, derive(Debug))]\npub struct ProgressBar {\n    pos: u64,\n}\n\n"
        "pub trait ProgressIterator {\n    fn progress(self) -> u64;\n}\n\n"
        "impl<S, T: Iterator<Item = S>> ProgressIterator for T {\n    fn progress(self) -> u64 { 0 }\n}\n\n"
        "/// Not the struct's doc: a blank line parts them.\n\n#[derive(Debug)]\npub struct Plain;\n"
    )
    found = {(s.name, s.kind): s for s in symbols_of("rust", text)}
    assert found["ProgressBar", "struct"].doc == "A progress bar or spinner."
    assert found["ProgressIterator", "impl"].start == 14 and ("T", "impl") not in found
    assert "ProgressIterator.progress" in {name for name, _ in found}
    assert found["Plain", "struct"].doc == ""


def test_a_rust_module_declaration_is_a_stub_and_an_inline_module_is_not() -> None:
    """axum's `mod route;` (routing/mod.rs) was what its examples' `.route(…)` call resolved to ("`route`
    *module*"), and lib.rs' `mod format;`, `mod in_memory;` were indicatif's key symbols of lib.rs: a
    declaration only points at a file. `mod sealed { … }` defines what it holds."""
    from generator.repo.facts.languages import symbols_of

    found = {
        s.name: s
        for s in symbols_of("rust", "mod route;\npub mod iter;\nmod sealed {\n    pub trait S {}\n}\n")
    }
    assert found["route"].stub and found["iter"].stub
    assert not found["sealed"].stub and not found["sealed.S"].stub


def test_a_rust_file_its_parent_declares_for_tests_only_is_unit_tests(tmp_path: Path) -> None:
    """ureq's `src/unversioned/transport/test.rs` (`#[cfg(feature = "_test")] mod test;`), rayon's and tower's
    `#[cfg(test)] mod test;` files are unit tests; warp's public `src/test.rs` (`pub mod test;`) is API."""
    root = write_tree(
        tmp_path / "repo",
        {
            "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
            "src/lib.rs": 'pub mod test;\nmod pool;\n#[cfg(all(test, feature = "tls"))]\nmod tls_tests;\n',
            "src/test.rs": "pub fn request() {}\n",
            "src/tls_tests.rs": "fn handshake() {}\n",
            "src/pool/mod.rs": '#[cfg(test)]\nmod tests;\n#[cfg(feature = "_test")]\nmod test;\n',
            "src/pool/tests.rs": "fn pooled() {}\n",
            "src/pool/test/mod.rs": "fn reused() {}\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    tests = {path for path, fact in facts.files.items() if fact.unit_tests}
    assert tests == {"src/tls_tests.rs", "src/pool/tests.rs", "src/pool/test/mod.rs"}


def test_a_comment_ending_the_line_above_is_no_doc_comment() -> None:
    """Catch2's `virtual ~MatcherUntypedBase(); // = default;` above `virtual std::string describe() const = 0;`
    made "= default;" the doc of `describe`; a Go `limit = 3 // retries` above a func, a Java field's trailing
    comment above a method likewise (jsoup, wazuh, sumatrapdf, x64dbg, nlohmann/json: tens of such lines
    each). A comment on lines of its own still is the doc."""
    from generator.repo.facts.languages import symbols_of

    cases = {
        "cpp": "class A {\npublic:\n    virtual ~A(); // = default;\n    virtual void describe() const = 0;\n"
        "    /// Another.\n    int go() { return 1; }\n};\n",
        "go": "package x\n\nvar limit = 3 // the most retries\nfunc Run() {}\n\n// Go goes.\nfunc Go() {}\n",
        "java": "class A {\n  int x = 1; // the count\n  void run() {}\n  /** Another. */\n  void go() {}\n}\n",
        "javascript": "const a = 1; // counter\nfunction run() {}\n/** Another. */\nfunction go() {}\n",
    }
    for language, text in cases.items():
        docs = {s.short_name: s.doc_source for s in symbols_of(language, text) if s.doc_source}
        assert docs in ({"go": "Another."}, {"Go": "Go goes."}), (language, docs)


def test_a_js_class_assigned_to_a_member_is_named_after_it_with_its_methods(tmp_path: Path) -> None:
    """hapi's and joi's shape: `exports = module.exports = internals.Request = class {…}`. The class was
    nameless, so its methods were loose functions named `constructor`, `generate`, … and the module's key
    symbols said nothing."""
    source = (
        "'use strict';\n\nconst internals = {};\n\n\n/**\n * An incoming request.\n */\n"
        "exports = module.exports = internals.Request = class {\n\n"
        "    constructor(server) {\n        this.server = server;\n    }\n\n"
        "    static generate(server) {\n        return new internals.Request(server);\n    }\n};\n\n\n"
        "internals.Auth = class {\n\n    test(name) {\n        return name;\n    }\n};\n\n"
        "exports.Report = class extends Error {\n    explain() {\n        return 1;\n    }\n};\n"
    )
    root = write_tree(tmp_path / "repo", {"lib/request.js": source, "package.json": '{"name": "web"}\n'})
    found = symbols(extract_facts(root, map_repository(root)), "lib/request.js")
    request = found["Request"]
    assert (request.kind, request.start, request.doc, request.exported) == (
        "class",
        9,
        "An incoming request.",
        True,
    )
    assert found["Request.generate"].parent == "Request" and found["Request.constructor"].kind == "method"
    assert (found["Auth"].kind, found["Auth"].exported, found["Auth.test"].parent) == ("class", False, "Auth")
    assert found["Report"].exported and found["Report.explain"].parent == "Report"
    assert "constructor" not in found and "internals.Auth" not in found


def test_the_names_a_commonjs_module_exports_in_an_object_literal_are_exported(tmp_path: Path) -> None:
    """node-schedule's lib/schedule.js ends `module.exports = { scheduleJob, rescheduleJob, cancelJob, … }`,
    bree's job-utils.js and pino's lib/tools.js likewise: none of those functions was public, so the README's
    `schedule.scheduleJob(…)` linked nothing and the flow started inside `Job.schedule`. A shorthand member or a
    member naming one of the module's functions is exported; a member holding a value is nothing of the
    module's, and what the object does not hold stays private."""
    source = (
        "'use strict';\n\nfunction scheduleJob(spec, fn) {\n  return spec;\n}\n\n"
        "function cancelJob(job) {\n  return job;\n}\n\nfunction helper() {\n  return 1;\n}\n\n"
        "class Job {\n  run() {\n    return 2;\n  }\n}\n\n"
        "module.exports = {\n  scheduleJob,\n  cancel: cancelJob,\n  Job,\n  version: '1.0'\n};\n"
    )
    root = write_tree(tmp_path / "repo", {"lib/schedule.js": source, "package.json": '{"name": "sched"}\n'})
    found = symbols(extract_facts(root, map_repository(root)), "lib/schedule.js")
    assert all(found[name].exported and found[name].public for name in ("scheduleJob", "cancelJob", "Job"))
    assert found["Job.run"].public and not found["helper"].exported


def test_an_overloaded_typescript_function_has_the_doc_comment_above_its_first_overload() -> None:
    """superstruct documents `object` above its first overload signature (structs/types.ts:287-291), then
    gives two signatures and the implementation: `object`, `array`, `map`, `set`, `enums` and `assign` had
    no description on any page. The doc of a function is the comment above its overloads; a signature of
    another name between them ends the search, and a class's overloaded method is read the same way. Once
    read, immer's `original` was described "… given draft #__PURE__": `/*#__PURE__*/` is a bundler's."""
    from generator.repo.facts.languages import symbols_of

    text = (
        "/**\n * Ensure that a value is an object.\n */\n\nexport function object(): Struct<null>\n"
        "export function object<S>(schema: S): Struct<S>\nexport function object<S>(schema?: S): any {\n"
        "  return schema\n}\n\n/** Another. */\nexport function other(): void\n"
        "export function lone(x: number): number {\n  return x\n}\n\n"
        "export class Box {\n  /** Put a value in. */\n  put(x: string): void\n  put(x: number): void\n"
        "  put(x: any): void {\n    return\n  }\n}\n\n"
        "/** Get the underlying object. */\n/*#__PURE__*/\nexport function original<T>(value: T): T\n"
        "export function original(value: any): any {\n  return value\n}\n"
    )
    docs = {s.name: s.doc_source for s in symbols_of("typescript", text) if not s.stub}
    assert docs["object"] == "Ensure that a value is an object."
    assert docs["lone"] == ""
    assert docs["Box.put"] == "Put a value in."
    assert docs["original"] == "Get the underlying object."  # immer's: a bundler's annotation is no doc


def test_a_go_type_alias_is_a_type_naming_what_it_stands_for() -> None:
    """uber-go/fx declares `fx.In` and `fx.Out` as aliases (`type In = dig.In`): the Go reader skipped every
    `type A = B`, so the parameter-object and result-object pages linked no code and the reference lacked
    them. An alias, alone or grouped, generic or not, is a type of its file with its doc comment and line,
    and names what it stands for."""
    from generator.repo.facts.languages import symbols_of

    text = (
        'package fx\n\nimport "go.uber.org/dig"\n\n// In can be embedded into a struct.\ntype In = dig.In\n\n'
        "type (\n\t// Out marks a result object.\n\tOut = dig.Out\n\t// Pair holds two of a kind.\n"
        "\tPair[T any] = Gen[T, T]\n\tcount = int\n\tPlain int\n)\n"
    )
    found = {s.name: (s.kind, s.start, s.doc_source, s.bases, s.exported) for s in symbols_of("go", text)}
    assert found == {
        "In": ("type", 6, "In can be embedded into a struct.", ("dig.In",), True),
        "Out": ("type", 10, "Out marks a result object.", ("dig.Out",), True),
        "Pair": ("type", 12, "Pair holds two of a kind.", ("Gen",), True),
        "count": ("type", 13, "", ("int",), False),
        "Plain": ("type", 14, "", (), True),
    }
