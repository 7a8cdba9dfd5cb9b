"""Planning and retrieval on small libraries: subsystem names from what modules are, context never planned,
the request's domain words kept, symbol names ranked above prose, licence and CI files never ranked; and
the debris lint that measures rendered pages."""

from __future__ import annotations

from pathlib import Path

from page_debris import find_debris, repeated_openings
from repo_output_fakes import make_project

from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Shard
from generator.repo.plan.architect import heuristic_plan
from generator.repo.plan.focus import NEVER_RANKED, _candidate, discriminating, relevance
from generator.repo.plan.naming import module_term, name_words, part_namer
from generator.repo.plan.normalize import normalize_shards
from generator.repo.plan.subsystems import concepts, is_context, plan_subsystems
from generator.retrieval.feedback import Query

CLI_LIBRARY: dict[str, str] = {
    "cli/__init__.py": '"""A command line toolkit."""\n\nfrom .core import Command, Option\n',
    "cli/core.py": (
        '"""Commands and their parameters."""\n\nfrom .types import convert\n\n\n'
        'class Command:\n    """A command."""\n\n    def main(self):\n        """Run it."""\n'
        '        return convert(1)\n\n\nclass Option:\n    """An option of a command."""\n\n'
        '    def consume(self, value):\n        """Take the option\'s value."""\n        return value\n'
    ),
    "cli/types.py": '"""Parameter types and conversion."""\n\n\ndef convert(value):\n    """Convert."""\n    return value\n',
    "cli/termui.py": '"""Terminal helpers."""\n\nfrom .core import Command\n\n\ndef echo(text):\n    """Print."""\n    return Command\n',
    "cli/formatting.py": '"""Help text formatting."""\n\n\nclass HelpFormatter:\n    """Formats help."""\n',
    "cli/exceptions.py": '"""Errors."""\n\n\nclass UsageError(Exception):\n    """Bad usage."""\n',
    "cli/cmd_windows.go": "package cli\n\nfunc Hook() {}\n",
    "tests/test_core.py": "from cli.core import Command\n\n\ndef test_command_option():\n    assert Command\n",
    "docs/conf.py": "project = 'cli'\n",
    "setup.py": "from setuptools import setup\n\nsetup()\n",
    ".github/workflows/option.yml": "on: push  # option option option\n",
    "LICENSE": "option option option option\n",
    "README.md": "# cli\n\nA command line toolkit with options.\n",
}


def survey(tmp_path: Path, files: dict[str, str]):
    root = make_project(tmp_path / "lib", files)
    repo_map = map_repository(root)
    return root, repo_map, extract_facts(root, repo_map)


def test_context_files_are_never_planned_while_code_exists(tmp_path: Path):
    _, repo_map, facts = survey(tmp_path, CLI_LIBRARY)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    planned = {p for s in shards for p in s.files}
    assert "cli/core.py" in planned
    assert not {p for p in planned if is_context(p)}
    assert all(len(s.files) <= 5 for s in shards) and sum(len(s.files) for s in shards) <= 25


def test_modules_are_named_by_what_they_are_not_where_they_run(tmp_path: Path):
    _, _, facts = survey(tmp_path, CLI_LIBRARY)
    assert module_term("cli/formatting.py", facts) == "formatting"
    assert module_term("cli/core.py", facts) in ("command", "option")  # "core" says nothing: its main type
    assert module_term("cli/__init__.py", facts) == ""  # an entry module re-exports, it names nothing
    assert name_words("command_windows") == ["command"] and name_words("viper_go1_16") == ["viper"]
    # a generic module whose main type is named in many words names nothing (typer's utils.py)
    helpers = {
        "cli/utils.py": '"""Helpers."""\n\n\nclass MixedAnnotatedAndDefaultStyleError(Exception):\n    pass\n'
    }
    _, _, facts = survey(tmp_path / "long", {**CLI_LIBRARY, **helpers})
    assert module_term("cli/utils.py", facts) == ""


def test_a_split_shard_is_named_after_its_parts_not_numbered(tmp_path: Path):
    _, _, facts = survey(tmp_path, CLI_LIBRARY)
    files = (
        "cli/core.py",
        "cli/types.py",
        "cli/termui.py",
        "cli/formatting.py",
        "cli/exceptions.py",
        "cli/__init__.py",
    )
    shards = normalize_shards([Shard("Toolkit", files)], name_part=part_namer(facts))
    assert [s.name for s in shards][0].startswith("Toolkit: ")
    assert not any("(" in s.name for s in shards)


def test_a_frequent_domain_word_is_kept_and_named_files_rank_first(tmp_path: Path):
    root, repo_map, facts = survey(tmp_path, CLI_LIBRARY)
    redactor = Redactor.from_environ()
    candidates = {
        e.path: _candidate(root, e.path, facts, redactor, 1_000_000)
        for e in repo_map.files
        if not NEVER_RANKED.search(e.path)
    }
    many = {**candidates, **{f"x{i}": candidates["cli/types.py"] for i in range(8)}}
    # "option" is in most files' text, but the code is named after it: it stays; "toolkit" names nothing
    assert "option" in discriminating(["option", "toolkit"], many)
    query = Query(["option"])
    scores = {path: relevance(query.terms, c)[0] for path, c in candidates.items()}
    ranked = sorted((s, p) for p, s in scores.items() if s > 0)[::-1]
    assert ranked[0][1] == "cli/core.py"  # names an `Option` class: above the test that only mentions it
    assert scores["tests/test_core.py"] < scores["cli/core.py"]
    assert "LICENSE" not in candidates and ".github/workflows/option.yml" not in candidates


def test_the_debris_lint_finds_what_a_reader_would_see():
    page = (
        "# Title\n\nA module\\~ with an escape the renderer shows.\n\n"
        "Sessions\n\\~\\~\\~\\~\\~\\~\n\n"
        "Uses :class:`Session` from the core.\n\n"
        "Copyright (c) 2009-2013 Someone.\n\n"
        "go:build windows\n\n"
        "Wraps \\[markdown.Markdown\\]\\[\\] and more.\n\n"
        "This sentence is said twice on this page. This sentence is said twice on this page.\n\n"
        "```python\n~~~~ in code is fine: Copyright (c)\n```\n\n"
        "- `a \\| b` in code and \\*stars\\* escaped are fine\n"
    )
    kinds = sorted({d.kind for d in find_debris(page)})
    assert kinds == [
        "build tag",
        "escape",
        "licence",
        "link syntax",
        "repeated sentence",
        "role",
        "underline",
    ]
    assert find_debris("# Clean\n\nA clean page about \\_private names and \\(parentheses\\).\n") == []
    banner = "| [Parse](p.md) | ////////////////////////// PARSE //////////. | `ZodType` |\n"
    assert [d.kind for d in find_debris(banner)] == ["underline"]
    pages = {
        "a.md": "# A\n\nThe same opening line on two pages here.\n",
        "b.md": "# B\n\nThe same opening line on two pages here.\n",
    }
    assert [d.kind for d in repeated_openings(pages)] == ["repeated sentence"]


def test_a_sub_package_stays_together_and_a_flat_package_is_divided_by_imports(tmp_path: Path):
    files = {}
    # a flat package of two import clusters, and two sub-packages that import across each other
    for cluster, names in (("route", ("router", "tree", "group")), ("log", ("logger", "recovery", "color"))):
        for i, name in enumerate(names):
            uses = names[(i + 1) % 3]
            files[f"web/{name}.py"] = (
                f'"""{cluster}."""\n\nfrom web.{uses} import f\n\n\ndef f():\n    return 1\n'
            )
    for package, other in (("binding", "render"), ("render", "binding")):
        for i in range(4):
            files[f"web/{package}/m{i}.py"] = (
                f'"""{package}."""\n\nfrom web.{other}.m{i} import g\n\n\ndef g():\n    return {i}\n'
            )
    _, repo_map, facts = survey(tmp_path, files)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    home = {path: shard.name for shard in shards for path in shard.files}
    assert {home[f"web/binding/m{i}.py"] for i in range(4)} == {"Binding"}
    assert {home[f"web/render/m{i}.py"] for i in range(4)} == {"Render"}
    route = {home[f"web/{n}.py"] for n in ("router", "tree", "group")}
    log = {home[f"web/{n}.py"] for n in ("logger", "recovery", "color")}
    assert len(route) == 1 and len(log) == 1 and route != log
    assert 3 <= len(shards) <= 5


def test_a_flat_go_package_is_divided_by_its_calls_and_name_variants(tmp_path: Path):
    """The files of one Go package never import each other: echo's router.go calls route.go, and
    tty_unix.go is a variant of tty.go; a sub-package importing the package ties to it as one import,
    not once per file (middleware/cors.go used to pull a root file into each middleware group)."""
    from generator.repo.plan.subsystems import import_ties, package_calls

    files = {"go.mod": "module example.com/web\n\ngo 1.22\n"}
    clusters = {
        "route": ("router", "route", "tree", "group"),
        "bind": ("binder", "bind", "value", "form"),
        "tty": ("tty", "tty_unix", "tty_windows", "termcap"),
    }
    for names in clusters.values():
        for i, name in enumerate(names):
            calls = "" if "_" in name else f"\tF{names[(i + 1) % 4].title().replace('_', '')}()\n"
            files[f"{name}.go"] = f"package web\n\nfunc F{name.title().replace('_', '')}() {{\n{calls}}}\n"
    for name in ("cors", "csrf", "proxy", "logger"):
        files[f"middleware/{name}.go"] = (
            f'package middleware\n\nimport "example.com/web"\n\nfunc {name.title()}() {{\n\tweb.FRouter()\n}}\n'
        )
    _, repo_map, facts = survey(tmp_path, files)
    ties = {(a, b): w for a, b, w in package_calls(facts, facts.files)}
    assert ties[("router.go", "route.go")] == 1.0
    assert ties[("tty_unix.go", "tty.go")] == 3.0  # a variant of tty.go
    assert not any(a.startswith("middleware/") != b.startswith("middleware/") for a, b in ties)
    cors = dict(import_ties(facts.files["middleware/cors.go"]))
    assert len(cors) == 12 and abs(sum(cors.values()) - 1.0) < 1e-9
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files if f.path.endswith(".go")])
    home = {path: shard.name for shard in shards for path in shard.files}
    for names in clusters.values():
        assert len({home[f"{name}.go"] for name in names if f"{name}.go" in home}) == 1, names
    assert all(home[f"middleware/{n}.go"] == "Middleware" for n in ("cors", "csrf", "proxy", "logger"))


def test_scripts_beside_the_code_are_no_subsystem(tmp_path: Path):
    """pluggy's downstream/run_downstream.py (a script no module imports, outside any package) and its
    recipes/conda.bash, and a top-level build script are tooling; a package's modules, a top-level tool
    script and a script using the packages (a front end to them) stay."""
    from generator.repo.plan.subsystems import core_modules

    files = {
        "pkg/__init__.py": '"""Pkg."""\n\nfrom pkg.hooks import Hook\n',
        "pkg/hooks.py": '"""Hooks."""\n\nfrom pkg.calls import call\n\n\nclass Hook:\n    pass\n',
        "pkg/calls.py": '"""Calls."""\n\n\ndef call():\n    return 1\n',
        "pkg/manager.py": '"""Manager."""\n\nfrom pkg.hooks import Hook\n\n\nclass Manager:\n    pass\n',
        "downstream/run_downstream.py": 'def run():\n    return 1\n\n\nif __name__ == "__main__":\n    run()\n',
        "downstream/recipes/conda.bash": "#!/bin/bash\nconda install pkg\n",
        "build_docs.py": 'def build():\n    return 1\n\n\nif __name__ == "__main__":\n    build()\n',
        "tool.py": 'from pkg.manager import Manager\n\n\ndef main():\n    Manager()\n\n\nif __name__ == "__main__":\n    main()\n',
        "cli/main.py": 'from pkg.manager import Manager\n\n\ndef main():\n    Manager()\n\n\nif __name__ == "__main__":\n    main()\n',
    }
    _, repo_map, facts = survey(tmp_path, files)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    planned = {path for shard in shards for path in shard.files}
    assert {"pkg/hooks.py", "pkg/calls.py", "pkg/manager.py", "tool.py", "cli/main.py"} <= planned
    assert not planned & {"downstream/run_downstream.py", "downstream/recipes/conda.bash", "build_docs.py"}
    # a sub-package re-exporting another library's names (sqlmodel's pool/__init__.py) defines nothing
    reexport = {
        f"lib/{part}/{name}.py": (
            f'"""{part} {name}."""\n\nfrom lib.{part}.base import Base\n\n\nclass {name.title()}(Base):\n    pass\n'
        )
        for part in ("sql", "orm", "ext")
        for name in ("base", "one", "two")
    }
    reexport["lib/pool/__init__.py"] = "from sqlalchemy.pool import StaticPool as StaticPool\n"
    _, repo_map, facts = survey(tmp_path / "reexport", reexport)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    assert all(shard.files != ("lib/pool/__init__.py",) for shard in shards)
    shell = {"install.sh": "#!/bin/sh\necho hi\n", "lib/util.sh": "f() { :; }\n", "main.py": "x = 1\n"}
    _, repo_map, _ = survey(tmp_path / "shell", shell)
    assert set(core_modules(repo_map)) == {"install.sh", "lib/util.sh", "main.py"}  # shell is most of it


def test_python_modules_the_manifest_does_not_ship_are_no_subsystem(tmp_path: Path):
    """With a manifest, a module outside every package that it does not name is the maintainers' own:
    pyparsing's dest/inv_regex.py demo (its `invert` was the main flow), websockets' experiments/ and
    compliance/ (two of its five subsystems), yarl's benchmark.py. What the manifest names stays: peewee's
    `py_modules=["peewee", "pwiz"]` beside its playhouse/ package, a console script's module."""
    from generator.repo.plan.subsystems import core_modules

    use = "from pkg.core import Parser\n\n\ndef run():\n    return Parser()\n"
    files = {
        "pkg/__init__.py": '"""Pkg."""\n',
        "pkg/core.py": '"""Core."""\n\n\nclass Parser:\n    pass\n',
        "dest/inv_regex.py": use,
        "experiments/broadcast/server.py": use,
        "benchmark.py": use,
        "single.py": use,
        "cli/main.py": use,
        "setup.py": 'from setuptools import setup\n\nsetup(py_modules=["single"], entry_points={"console_scripts": '
        '["tool = cli.main:run"]})\n',
    }
    _, repo_map, _ = survey(tmp_path, files)
    assert set(core_modules(repo_map)) == {"pkg/__init__.py", "pkg/core.py", "single.py", "cli/main.py"}
    # a repository that is itself the package (its __init__.py at the top) has no module outside it
    top = {
        "__init__.py": '"""Pkg."""\n',
        "core.py": "def run():\n    return 1\n",
        "sub/__init__.py": "",
        "sub/x.py": "def x():\n    return 1\n",
        "setup.py": "setup()\n",
    }
    _, repo_map, _ = survey(tmp_path / "top", top)
    assert set(core_modules(repo_map)) == {"__init__.py", "core.py", "sub/__init__.py", "sub/x.py"}
    del files["setup.py"]  # without a manifest nothing says what ships: a script using the package stays
    _, repo_map, _ = survey(tmp_path / "bare", files)
    assert "dest/inv_regex.py" in core_modules(repo_map)


def test_programs_in_folders_named_for_testing_or_maintenance_are_not_the_library(tmp_path: Path):
    """A Go `package main` or a C `main` in a folder named for testing or for the maintainers' own work
    (badger's integration/testgc, goleveldb's manualtest/dbstress, ristretto's contrib/memtest and memtestc,
    watermill's dev/) uses the library rather than being it. The project's commands under cmd/, a library
    package named so (`cachetest`, helpers for the users' tests) and a program in a plain folder stay."""
    from generator.repo.plan.subsystems import core_modules

    lib = "package cache\n\n// Cache holds items.\ntype Cache struct{}\n\nfunc New() *Cache { return &Cache{} }\n"
    program = 'package main\n\nimport "example.com/cache"\n\nfunc main() { cache.New() }\n'
    files = {
        "go.mod": "module example.com/cache\n",
        "cache.go": lib,
        "policy.go": "package cache\n\nfunc admit() bool { return true }\n",
        "integration/testgc/main.go": program,
        "manualtest/dbstress/main.go": program,
        "manualtest/dbstress/key.go": "package main\n\nfunc key() []byte { return nil }\n",
        "contrib/memtest/main.go": program,
        "contrib/memtestc/list.c": "#include <stdio.h>\n\nint main(void) {\n    return 0;\n}\n",
        "dev/consolidate-gomods/main.go": program,
        "cmd/cachetool/main.go": program,
        "cachetest/helpers.go": "package cachetest\n\nfunc Fill() {}\n",
        "server/main.go": program,
    }
    _, repo_map, facts = survey(tmp_path, files)
    assert set(core_modules(repo_map)) == {
        "cache.go",
        "policy.go",
        "cmd/cachetool/main.go",
        "cachetest/helpers.go",
        "server/main.go",
    }
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    planned = {path for shard in shards for path in shard.files}
    assert not planned & {
        "integration/testgc/main.go",
        "contrib/memtest/main.go",
        "dev/consolidate-gomods/main.go",
    }


def test_the_in_tree_build_backend_is_no_subsystem(tmp_path: Path):
    # pyyaml's packaging/_pyyaml_pep517.py was a subsystem "Packaging" (yarl's packaging/pep517_backend/ too):
    # pyproject.toml's `backend-path` names the code that builds the library, not the library
    from generator.repo.plan.subsystems import core_modules

    files = {
        "lib/yaml/__init__.py": "from .core import load\n",
        "lib/yaml/core.py": "def load(stream):\n    return stream\n",
        "packaging/_backend.py": "def build_wheel(directory):\n    return directory\n",
        "packaging/hooks/__init__.py": "def get_requires():\n    return []\n",
        "pyproject.toml": '[build-system]\nbackend-path = ["packaging"]\nbuild-backend = "_backend"\n',
    }
    _, repo_map, _ = survey(tmp_path / "yaml", files)
    assert "packaging/_backend.py" not in core_modules(repo_map)
    assert "lib/yaml/core.py" in core_modules(repo_map)
    # a backend package beside it goes whole; one at the top is where a library may build itself (flit_core)
    files["pyproject.toml"] = '[build-system]\nbackend-path = ["packaging"]\nbuild-backend = "hooks.api"\n'
    _, repo_map, _ = survey(tmp_path / "package", files)
    assert set(core_modules(repo_map)) == {
        "lib/yaml/__init__.py",
        "lib/yaml/core.py",
        "packaging/_backend.py",
    }
    files["pyproject.toml"] = '[build-system]\nbackend-path = ["."]\nbuild-backend = "lib"\n'
    _, repo_map, _ = survey(tmp_path / "own", files)
    assert "lib/yaml/core.py" in core_modules(repo_map)


def test_a_sub_package_holding_most_of_the_code_is_divided(tmp_path: Path):
    from generator.repo.plan.subsystems import package_units

    pool = [f"src/pkg/m{i}.py" for i in range(6)] + [
        "src/pkg/sub/a.py",
        "src/pkg/sub/b.py",
        "src/pkg/one/x.py",
    ]
    units = package_units(pool)
    assert units["src/pkg/sub/"] == ["src/pkg/sub/a.py", "src/pkg/sub/b.py"]
    assert units["src/pkg/one/x.py"] == ["src/pkg/one/x.py"]  # a folder of one module is a module
    assert units["src/pkg/m0.py"] == ["src/pkg/m0.py"]  # the package that holds most of the code is divided


def test_a_large_package_in_a_folder_of_packages_alone_is_divided_into_its_own(tmp_path: Path):
    # cattrs: src/ holds no module of its own, only the legacy alias package cattr/ and cattrs/, which holds
    # most of the code with its gen/, preconf/ and strategies/ — those are its concepts, each kept whole
    from generator.repo.plan.subsystems import package_units

    pool = (
        [f"src/old/a{i}.py" for i in range(4)]
        + [f"src/mylib/m{i}.py" for i in range(6)]
        + [f"src/mylib/gen/g{i}.py" for i in range(3)]
        + [f"src/mylib/preconf/p{i}.py" for i in range(4)]
    )
    units = package_units(pool)
    assert units["src/mylib/preconf/"] == [f"src/mylib/preconf/p{i}.py" for i in range(4)]
    assert units["src/mylib/gen/"] == [f"src/mylib/gen/g{i}.py" for i in range(3)]
    assert units["src/old/"] == [f"src/old/a{i}.py" for i in range(4)]
    assert "src/mylib/" not in units
    # beside modules of its parent's own, the same package stays one concept (echo's middleware/)
    units = package_units([*pool, "src/setup_helpers.py"])
    assert len(units["src/mylib/"]) == 13


def test_names_come_from_the_concept_not_a_list_of_file_names(tmp_path: Path):
    from generator.repo.plan.naming import folder_name, phrase, subsystem_names

    files = {
        "pkg/adapters.py": (
            '"""This module contains the transport adapters that pkg uses to connect."""\n\n\n'
            "class HTTPAdapter:\n    pass\n"
        ),
        "pkg/zsh_completions.py": "def zsh():\n    return 1\n",
        "pkg/fish_completions.py": "def fish():\n    return 1\n",
        "pkg/models.py": '"""This module contains the primary objects."""\n\n\nclass Model:\n    pass\n',
        "pkg/utils.py": "def helper():\n    return 1\n",
    }
    _, _, facts = survey(tmp_path, files)
    groups = [
        ["pkg/adapters.py", "pkg/utils.py"],
        ["pkg/zsh_completions.py", "pkg/fish_completions.py"],
        ["pkg/models.py"],  # "primary objects" is in no name of its module: not a concept
        ["pkg/utils.py"],
    ]
    assert subsystem_names(groups, facts) == ["Transport adapters", "Completions", "Models", "Utilities"]
    # a name a pinned subsystem holds goes to no planned one
    assert subsystem_names(groups[:1], facts, taken=["transport ADAPTERS"]) == ["Adapters"]
    # the noun phrase ends where a preposition goes on (hug's "Defines the method decorators at the core …")
    _, _, facts = survey(
        tmp_path / "hug",
        {
            "pkg/decorators.py": '"""Defines the method decorators at the core of pkg."""\n\n\ndef route():\n    pass\n'
        },
    )
    assert subsystem_names([["pkg/decorators.py"]], facts) == ["Method decorators"]
    assert [folder_name(f) for f in ("web/_transports", "src", "flask/json", "lib/utils")] == [
        "Transports",
        "",
        "JSON",
        "Utilities",
    ]
    # abbreviations as prose says them: apispec's ext/, dynaconf's and tortoise's contrib/
    assert [folder_name(f) for f in ("src/apispec/ext", "dynaconf/contrib", "pkg/extras")] == [
        "Extensions",
        "Integrations",
        "Extras",
    ]
    assert phrase(["urls", "and", "http"]) == "URLs and HTTP"
    # a package's number is part of its name (pgx's pgproto3 was "Pgproto", gunicorn's http2 "HTTP" beside its
    # http/), a version or platform suffix is not
    assert [
        folder_name(f) for f in ("pgproto3", "gunicorn/http2", "core/_http2", "api/v2", "compat/py3")
    ] == [
        "Pgproto3",
        "HTTP2",
        "HTTP2",
        "",
        "Py",
    ]
    # … within a hyphenated name too: grpc-gateway's protoc-gen-openapiv2 had been "Protoc gen openapiv"
    assert [folder_name(f) for f in ("protoc-gen-openapiv2", "viper_go1_16", "client-v2")] == [
        "Protoc gen openapiv2",
        "Viper go",
        "Client",
    ]


def test_a_numeronym_names_its_module(tmp_path: Path):
    # humanize's i18n.py read as the words "i" and "n", dropped as single letters: the subsystem holding only
    # it was called "Humanize package"; a version ("v1alpha1", "go1_16") still says nothing
    from generator.repo.plan.naming import subsystem_names, words_of

    files = {
        "humanize/i18n.py": "def activate(locale):\n    return locale\n",
        "humanize/k8s_client.py": "def connect():\n    return 1\n",
    }
    _, _, facts = survey(tmp_path, files)
    assert subsystem_names([["humanize/i18n.py"], ["humanize/k8s_client.py"]], facts) == [
        "I18n",
        "K8s client",
    ]
    assert words_of("v1alpha1") == ["alpha"] and words_of("viper_go1_16") == ["viper", "go"]


def test_communities_repeat_whatever_the_random_state(tmp_path: Path):
    # igraph draws its visiting order from a process-wide generator: each detection seeds its own
    import random

    import igraph

    from generator.repo.plan.subsystems import SEED, core_modules, dependency_graph, louvain

    # a ring of modules, one per folder: many partitions are equally good, so the order decides
    files = {
        f"p{i}/mod.py": f"from p{(i + 1) % 30}.mod import f\n\n\ndef f():\n    return {i}\n"
        for i in range(30)
    }
    _, repo_map, facts = survey(tmp_path, files)
    graph = dependency_graph(core_modules(repo_map), facts, repo_map)
    first = louvain(graph, 1.0)
    random.seed(SEED + 1)
    igraph.set_random_number_generator(random.Random(12345))  # someone else's generator, left behind
    try:
        assert louvain(graph, 1.0) == first
    finally:
        igraph.set_random_number_generator(random)
    assert sorted(p for part in first for p in part) == sorted(graph.vs["name"])


def test_a_module_goes_to_the_nearest_shard_and_ties_to_the_first(tmp_path: Path):
    from generator.repo.synthesize.architecture import place_modules

    # one module per folder: no package ties, only imports; each shard spans two folders, so neither stands
    # for a package (a shard that does holds that package's modules only: see the catalogue test below)
    files = {
        "a/core.py": "def a():\n    return 1\n",
        "b/core.py": "def b():\n    return 2\n",
        "c/core.py": "C = 1\n",
        "d/core.py": "D = 1\n",
        "near/mod.py": "from a.core import a\n",  # one import from a
        "both/mod.py": "from a.core import a\nfrom b.core import b\n",  # one import from each
        "far/mod.py": "from near.mod import a\n",  # two imports from a
        "lone/mod.py": "X = 1\n",  # nothing reaches it
    }
    _, repo_map, facts = survey(tmp_path, files)
    for first, second in ((1, 2), (2, 1)):
        shards = sorted([(first, ["a/core.py", "c/core.py"]), (second, ["b/core.py", "d/core.py"])])
        placement = place_modules(list(files), shards, facts, repo_map)
        assert placement["a/core.py"] == first and placement["b/core.py"] == second
        assert placement["near/mod.py"] == first and placement["far/mod.py"] == first
        assert placement["both/mod.py"] == 1  # as near to both: the shard listed first
        assert placement["lone/mod.py"] == 0


def test_the_catalogue_never_files_another_package_under_a_sub_package_s_subsystem(tmp_path: Path):
    from generator.repo.model import ShardAnalysis
    from generator.repo.synthesize.architecture import catalogue, place_modules

    # tool/topic/ is a subsystem; tool/documents/ imports nothing else and sits nearest to it, but it is a
    # package of its own, listed under its folder; tool/flat/ is a flat package divided by communities,
    # whose modules stay with the subsystem nearest them
    files = {
        "tool/topic/run.py": "from tool.documents.read import read\n",
        "tool/topic/plan.py": "from tool.topic.run import read\n",
        "tool/documents/read.py": "def read():\n    return 1\n",
        "tool/documents/model.py": "from tool.documents.read import read\n",
        "tool/flat/a.py": "def a():\n    return 1\n",
        "tool/flat/b.py": "from tool.flat.a import a\n",
        "tool/flat/c.py": "def c():\n    return 1\n",
        "tool/flat/d.py": "from tool.flat.c import c\n",
        "tool/flat/e.py": "from tool.flat.a import a\nfrom tool.flat.c import c\n",
    }
    _, repo_map, facts = survey(tmp_path, files)
    shards = [
        (1, ("tool/topic/run.py", "tool/topic/plan.py")),
        (2, ("tool/flat/a.py",)),
        (3, ("tool/flat/c.py",)),
    ]
    analyses = [
        ShardAnalysis(i, Shard(name, f), f"0{i}_x", "") for (i, f), name in zip(shards, "TAC", strict=True)
    ]
    placement = place_modules(list(files), shards, facts, repo_map)
    assert placement["tool/documents/read.py"] == 0  # nearest to Topic, but a package of its own
    linker = Linker({p: 2 for p in files}, "0" * 40)
    groups = {
        g.name: [m.path for m in g.modules] for g in catalogue(placement, analyses, facts, repo_map, linker)
    }
    assert groups["T"] == ["tool/topic/plan.py", "tool/topic/run.py"]
    assert groups["tool/documents/"] == ["tool/documents/model.py", "tool/documents/read.py"]
    assert "tool/flat/b.py" in groups["A"] and "tool/flat/d.py" in groups["C"]


def test_a_plan_of_fewer_subsystems_says_the_repository_has_too_few_files(tmp_path: Path):
    small = {p: t for p, t in CLI_LIBRARY.items() if p in {"cli/core.py", "cli/types.py", "README.md"}}
    _, repo_map, facts = survey(tmp_path / "small", small)
    whole = heuristic_plan(repo_map, facts, note="Planned.")
    assert len(whole.shards) == 1
    assert whole.note.endswith(
        "The repository has 2 source modules, too few for 3 subsystems of"
        " more than two modules each, so 1 was planned."
    )


def test_a_small_community_joins_the_one_it_imports_rather_than_being_left_out(tmp_path: Path):
    from generator.repo.plan.subsystems import Concept, absorb_small

    files = {f"pkg/{g}{i}.py": f"def f{i}():\n    return {i}\n" for g in "abc" for i in range(3)}
    files["pkg/d0.py"] = "from pkg.c0 import f0\n"
    files["pkg/d1.py"] = "from pkg.d0 import f0\n"
    _, repo_map, facts = survey(tmp_path, files)
    groups = [Concept(tuple(f"pkg/{g}{i}.py" for i in range(3))) for g in "abc"]
    small = Concept(("pkg/d0.py", "pkg/d1.py"))
    merged = absorb_small([*groups, small], facts, repo_map)
    assert len(merged) == 3
    assert {"pkg/d0.py", "pkg/d1.py", "pkg/c0.py"} <= set(
        next(c for c in merged if "pkg/c0.py" in c.files).files
    )
    # three concepts are the least: nothing more is absorbed
    assert absorb_small(groups, facts, repo_map) == groups


def test_a_concepts_shims_and_private_helpers_come_after_the_modules_it_is_about():
    """A module every other one imports ranks high, but errors.go, utils.py or compat.py says where code lives,
    not what the group does: among the five modules a subsystem analyses, bbolt's errors/errors.go had taken
    cursor.go's place, kombu's exceptions.py serialization.py's."""
    from generator.repo.plan.subsystems import Concept, public_first

    concept = Concept(
        ("errors/errors.go", "db.go", "internal/fxclock/clock.go", "utils.go", "bucket.go", "cursor.go")
    )
    assert public_first(concept).files == (
        "db.go",
        "bucket.go",
        "cursor.go",
        "errors/errors.go",
        "utils.go",
        "internal/fxclock/clock.go",
    )


def test_a_subsystem_sentence_comes_from_a_module_that_names_something():
    from generator.repo.model import ModuleLine, ShardAnalysis
    from generator.repo.synthesize.synthesis import _offline_summary

    files = [
        ModuleLine("pkg/compat.py", "python", 40, "This module handles import compatibility."),
        ModuleLine("pkg/adapters.py", "python", 400, "This module contains the transport adapters."),
    ]
    shard = ShardAnalysis(
        1, Shard("Transport adapters", ("pkg/compat.py", "pkg/adapters.py")), "01_t", "", files=files
    )
    assert _offline_summary(shard) == "This module contains the transport adapters."


def test_a_subsystem_is_described_by_its_own_code_before_a_docs_page_on_something_else():
    """The opening of a docs page titled after the subsystem describes it ("Configuration" for "Config");
    a page on something else that holds its name or leads with its symbol (watermill's "Delayed Messages",
    bleach's migration page) opens on that other thing, so the doc comment of the symbol the subsystem is named
    after, or of its main symbol, comes first. An aside ("Please provide feedback …", "It is not
    recommended …") describes nothing, from any page."""
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import CitedSymbol, DocPassage, ModuleLine, ShardAnalysis
    from generator.repo.synthesize.synthesis import _offline_summary, docs_say

    def concept(name: str, *said: str) -> DocConcept:
        passages = tuple(DocPassage("docs/x.md", i, i, "paragraph", text) for i, text in enumerate(said, 1))
        return DocConcept(name, name.lower(), (DocPage("docs/x.md", name, passages),), (message,))

    message = CitedSymbol("Message", "struct", "message/message.go", "Message is the basic transfer unit.")
    files = [ModuleLine("message/message.go", "go", 300, "")]
    shard = ShardAnalysis(
        1, Shard("Message", ("message/message.go",)), "01_m", "", files=files, functions=[message]
    )
    delayed = concept("Delayed Messages", "Delaying events or commands is a common use case in many apps.")
    said, titled = docs_say(shard, [delayed])
    assert said.startswith("Delaying events") and not titled
    assert _offline_summary(shard, "", said, titled) == "Message is the basic transfer unit."
    titled_page = concept("Messages and routers", "A message is what a publisher sends to subscribers.")
    said, titled = docs_say(shard, [titled_page])
    assert (
        titled
        and _offline_summary(shard, "", said, titled) == "A message is what a publisher sends to subscribers."
    )
    aside = concept("Message", "Please provide feedback in GitHub issues about the API.", "More text here.")
    assert docs_say(shard, [aside]) == ("", False)
    assert _offline_summary(shard, "", *docs_say(shard, [aside])) == "Message is the basic transfer unit."


def test_a_subsystem_sentence_never_comes_from_a_neighbour_of_its_silent_central_module():
    from generator.repo.model import CitedSymbol, ModuleLine, ShardAnalysis
    from generator.repo.synthesize.synthesis import _offline_summary

    # the central module has no docstring: a helper module's ("Handlers for Content-Encoding.") would misname
    # the subsystem, so it says what the subsystem defines; a Go package's doc.go speaks for the package
    files = [
        ModuleLine("pkg/_models.py", "python", 900, ""),
        ModuleLine("pkg/_decoders.py", "python", 300, "Handlers for Content-Encoding."),
    ]
    types = [
        CitedSymbol("Response", "class", "pkg/_models.py"),
        CitedSymbol("Request", "class", "pkg/_models.py"),
    ]
    shard = ShardAnalysis(
        1, Shard("Models", ("pkg/_models.py", "pkg/_decoders.py")), "01_m", "", files=files, functions=types
    )
    assert _offline_summary(shard) == "Defines Response and Request."
    # a subsystem named after its main symbol is what that symbol's doc comment says (echo's Context)
    documented = [CitedSymbol("Context", "struct", "pkg/_models.py", "Context represents the request. More.")]
    named = ShardAnalysis(
        1, Shard("Context", shard.shard.files), "01_c", "", files=files, functions=documented
    )
    assert _offline_summary(named) == "Context represents the request."
    # named otherwise, its main symbol's doc comment still says more than a list of names; it speaks for
    # that symbol, so the symbol is named first when the sentence does not start with it (httpx's Client)
    named.shard = Shard("Models", shard.shard.files)
    assert _offline_summary(named) == "Context represents the request."
    client = CitedSymbol("Client", "class", "pkg/_client.py", "An HTTP client, with connection pooling.")
    url = CitedSymbol("URL", "class", "pkg/_urls.py", 'url = httpx.URL("HTTPS://example.org/") is parsed.')
    named.functions = [*types, client]  # the first documented of its three main symbols
    assert _offline_summary(named) == "Client: An HTTP client, with connection pooling."
    value = CitedSymbol("Value", "class", "pkg/_models.py", "A Value is either a flag or an argument.")
    named.functions = [value]  # a sentence naming it among its first words needs no name before it
    assert _offline_summary(named) == "A Value is either a flag or an argument."
    # modules of one kind saying one sentence with a word changed speak for the group before its helper does
    # (cattrs' preconf/ was "Wrap a `Converter` `__init__` in a type-safe way.")
    backends = [
        ModuleLine(f"pkg/preconf/{n}.py", "python", 90, f"Converters for {n}.") for n in ("bson", "orjson")
    ]
    helper = CitedSymbol(
        "wrap", "function", "pkg/preconf/__init__.py", "Wrap a converter in a type-safe way."
    )
    kind = ShardAnalysis(1, Shard("Preconf", ()), "01_p", "", files=backends, functions=[helper])
    assert _offline_summary(kind) == "Converters for bson."  # two modules are no kind yet: its central one
    kind.files = [*backends, ModuleLine("pkg/preconf/msgpack.py", "python", 90, "Converters for msgpack.")]
    assert _offline_summary(kind) == "Converters for bson, orjson and msgpack."
    sketch = CitedSymbol(
        "cmSketch", "struct", "sketch.go", "cmSketch is a Count-Min sketch with 4-bit counters."
    )
    named.functions = [sketch]  # ristretto's: capitalised as a sentence, it still opens with its name
    assert _offline_summary(named) == "CmSketch is a Count-Min sketch with 4-bit counters."
    notes = [
        CitedSymbol(
            "I18nKey", "enum", "pkg/keys.ts", "This file generate by script, don't modify it manually!!!"
        ),
        CitedSymbol("FlowDB", "class", "pkg/db.ts", "We are using arrow functions assigned to class fields."),
        CitedSymbol("overrides", "function", "pkg/db.ts", "Striped fill like start nodes TODO remove any."),
        CitedSymbol(
            "parseLink", "function", "pkg/link.ts", "https://tools.ietf.org/html/rfc5988 - link headers."
        ),
    ]
    named.functions = [*notes, client]  # a maintainer's note about the code says nothing of what it is
    assert _offline_summary(named) == "Defines I18nKey, FlowDB and overrides."
    named.functions = [notes[3], value]  # a comment opening with a link is a reference, not a description
    assert _offline_summary(named) == "A Value is either a flag or an argument."
    named.functions = [url, *types]  # an example line is no description
    assert _offline_summary(named) == "Defines URL, Response and Request."
    # a stability notice is no description either, from a symbol or from the central module (jotai's
    # "Internal functions (subject to change without notice)", "For internal use only")
    internal = [
        ModuleLine(
            "pkg/internals.ts", "typescript", 900, "Internal functions (subject to change without notice)."
        )
    ]
    hidden = CitedSymbol(
        "INTERNAL_Tuples", "type", "pkg/internals.ts", "For internal use only. This can change."
    )
    named.files, named.functions = internal, [hidden, value]
    assert _offline_summary(named) == "A Value is either a flag or an argument."
    named.files = files
    go = [ModuleLine("mux.go", "go", 500, ""), ModuleLine("doc.go", "go", 30, "Package mux routes requests.")]
    shard = ShardAnalysis(1, Shard("Mux", ("mux.go", "doc.go")), "01_m", "", files=go, functions=types)
    assert _offline_summary(shard) == "Package mux routes requests."
    # a subsystem whose code says nothing of itself is what the docs page named like it says (starlette)
    from generator.repo.docs.model import DocConcept, DocPage, DocPassage
    from generator.repo.synthesize.synthesis import docs_say

    def concept(name: str, text: str, lead: str) -> DocConcept:
        opening = DocPassage(f"docs/{name.lower()}.md", 3, 3, "paragraph", text)
        page = DocPage(f"docs/{name.lower()}.md", name, (opening,))
        return DocConcept(name, name.lower(), (page,), (CitedSymbol(lead, "class", "pkg/x.py"),))

    concepts = [
        concept(
            "Requests", "Starlette includes a `Request` class for the incoming request. More.", "Response"
        ),
        concept("Responses", "Starlette includes a few response classes. More.", "Response"),
    ]
    silent = ShardAnalysis(
        1, Shard("Models", ("pkg/_models.py",)), "01_m", "", files=files[:1], functions=types
    )
    said, titled = docs_say(silent, concepts)  # "Models": no page is named like it; one leads with `Response`
    assert not titled and said == "Starlette includes a `Request` class for the incoming request."
    # a page led by its symbol whose opening names none of its symbols says nothing of it (loguru's
    # migration guide, first mentioning `Handler` further on)
    guide = concept(
        "Resources", "First and foremost, it is important to understand some concepts.", "Response"
    )
    assert docs_say(silent, [guide]) == ("", False)
    silent.shard = Shard("Responses", silent.shard.files)
    said, titled = docs_say(silent, concepts)
    assert said == "Starlette includes a few response classes." and titled  # its name wins
    assert _offline_summary(silent, "", said, titled) == said
    # no page is named like it: one whose name holds its name comes before another leading with its symbol
    protocol = concept("Console Protocol", "Rich supports a simple protocol for custom objects.", "Text")
    text = concept("Rich Text", "Rich has a `Text` class to mark up strings.", "Text")
    silent.functions = [CitedSymbol("Text", "class", "pkg/x.py")]
    silent.shard = Shard("Text", ("pkg/x.py",))
    assert docs_say(silent, [protocol, text])[0] == "Rich has a `Text` class to mark up strings."
    silent.shard = Shard("Pretty", ("pkg/x.py",))  # led by a symbol of its files (`pprint` in pretty.py)
    pretty = concept("Pretty Printing", "Rich will pretty print containers.", "pprint")
    assert docs_say(silent, [protocol, pretty])[0] == "Rich will pretty print containers."
    silent.shard = Shard("Pretty", ("pkg/other.py",))  # a page naming it, about code elsewhere: not it
    assert docs_say(silent, [pretty]) == ("", False)
    # sibling packages, each with its own Codec (viper's internal/encoding/…), are told apart by folder
    codecs = [CitedSymbol("Codec", "struct", f"enc/{name}/codec.go") for name in ("json", "toml", "yaml")]
    files = [ModuleLine(c.path, "go", 40, "") for c in codecs]
    shard = ShardAnalysis(
        1, Shard("Codec", tuple(f.path for f in files)), "01_c", "", files=files, functions=codecs
    )
    assert _offline_summary(shard) == "Defines json.Codec, toml.Codec and yaml.Codec."


def test_a_sub_package_s_subsystem_is_described_by_the_package_s_own_docstring(tmp_path: Path):
    from generator.repo.synthesize.synthesis import package_doc

    # the package says what it is in __init__.py; its biggest module speaks only for itself. A flat package
    # divided into several shards is described by none of them: its docstring speaks for all.
    files = {
        "tool/llm/__init__.py": '"""Model providers behind one interface, picked by name."""\n',
        "tool/llm/client.py": '"""Findings per question, each tied to its sources."""\n\n\ndef ask():\n    return 1\n',
        "tool/llm/stream.py": '"""Streams."""\n\nfrom tool.llm.client import ask\n\n\ndef go():\n    return ask()\n',
        "tool/site/__init__.py": '"""Rendering pages."""\n',
        "tool/site/page.py": '"""Pages."""\n\n\ndef page():\n    return 1\n',
    }
    _, _, facts = survey(tmp_path, files)
    llm = Shard("LLM", ("tool/llm/client.py", "tool/llm/stream.py"))
    site = Shard("Site", ("tool/site/page.py",))
    assert package_doc(llm, [llm, site], facts) == "Model providers behind one interface, picked by name."
    assert package_doc(site, [llm, site], facts) == ""  # "Rendering pages." says too little
    mixed = Shard("Mixed", ("tool/llm/client.py", "tool/site/page.py"))
    assert package_doc(mixed, [mixed, llm], facts) == ""  # tool/ is shared with another shard


def test_a_go_package_s_doc_speaks_for_the_shard_that_holds_its_folder(tmp_path: Path):
    """bbolt's root package ("package bbolt implements a low-level key/value store…" in doc.go) shares its
    shard with cmd/ and internal/ packages it pulls in, so the shard has no folder of its own, and its
    description was a guide's sentence about `NextSequence()`. The folder most of the shard's Go files are
    in, when no other shard has a file there, is the package that speaks for it."""
    from generator.repo.synthesize.synthesis import package_doc

    files = {
        "doc.go": "// Package kv implements a small key/value store kept in one file.\npackage kv\n",
        "db.go": "package kv\n\ntype DB struct{}\n\nfunc Open() *DB { return &DB{} }\n",
        "bucket.go": "package kv\n\ntype Bucket struct{}\n",
        "cmd/kv/main.go": 'package main\n\nimport "example.com/kv"\n\nfunc main() { kv.Open() }\n',
        "internal/page/page.go": "package page\n\ntype Page struct{}\n",
    }
    _, _, facts = survey(tmp_path, files)
    core = Shard("Bucket", ("db.go", "bucket.go", "cmd/kv/main.go"))
    page = Shard("Page", ("internal/page/page.go",))
    assert (
        package_doc(core, [core, page], facts)
        == "Package kv implements a small key/value store kept in one file."
    )
    assert package_doc(page, [core, page], facts) == ""  # internal/page has no doc.go
    # a folder another shard also has files in is no one shard's package
    split = Shard("Open", ("db.go",))
    assert package_doc(split, [split, Shard("Bucket", ("bucket.go",))], facts) == ""


def test_a_rust_impl_of_a_type_another_file_defines_is_that_type(tmp_path: Path):
    """minijinja's `impl<'a> ArgType<'a> for Value` in value/argtypes.rs was a key type "Value" *impl*, listed
    above the struct `Value` of value/mod.rs it implements a trait for: one type, twice."""
    from generator.repo.analyze.describe import ranked

    body = "".join(f"        let x{i} = {i};\n" for i in range(30))
    files = {
        "Cargo.toml": '[package]\nname = "tiny"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub mod value;\npub mod argtypes;\n",
        "src/value.rs": "/// A dynamically typed value.\npub struct Value {\n    repr: u8,\n}\n",
        "src/argtypes.rs": (
            "use crate::value::Value;\n\n/// Turns arguments into values.\npub trait ArgType {\n    fn from_value(v: u8) -> Self;\n}\n\n"
            f"impl ArgType for Value {{\n    fn from_value(v: u8) -> Self {{\n{body}        Value {{ repr: v }}\n    }}\n}}\n"
        ),
    }
    _, _, facts = survey(tmp_path, files)
    found = [
        (r.symbol.name, r.symbol.kind, r.path) for r in ranked(["src/argtypes.rs", "src/value.rs"], facts)
    ]
    assert ("Value", "struct", "src/value.rs") in found
    assert [name for name, _, _ in found].count("Value") == 1


def test_a_shard_s_lead_reads_its_shim_modules_last(tmp_path: Path):
    from repo_source_fixture import write_tree

    from generator.repo.analyze.draft import shard_purpose

    files = {
        "pkg/compat.py": '"""This module handled Python 2 compatibility."""\n',
        "pkg/adapters.py": '"""This module contains the transport adapters."""\n',
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    purpose = shard_purpose(Shard("Transport adapters", ("pkg/compat.py", "pkg/adapters.py")), facts)
    assert purpose == [
        "This module contains the transport adapters.",
        "This module handled Python 2 compatibility.",
    ]


def test_a_shard_s_lead_says_a_sentence_its_modules_repeat_once(tmp_path: Path):
    # cattrs' preconf/ read "Preconfigured converters for msgspec. Preconfigured converters for bson.
    # Preconfigured converters for orjson."; tqdm's contrib "Sends updates to a Discord bot." twice over
    from repo_source_fixture import write_tree

    from generator.repo.analyze.draft import shard_purpose

    files = {
        f"pkg/preconf/{name}.py": f'"""Preconfigured converters for {name}."""\n'
        for name in ("msgspec", "bson", "orjson", "tomlkit", "cbor2", "json", "ujson")
    }
    files["pkg/preconf/__init__.py"] = '"""Factories of converters, one a serialization library."""\n'
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    purpose = shard_purpose(Shard("Preconf", tuple(sorted(files))), facts)
    assert purpose[0] == "Factories of converters, one a serialization library."
    assert purpose[1] == "Preconfigured converters for bson, cbor2, json, msgspec, orjson and 2 more."
    assert len(purpose) == 2


def test_a_type_defined_again_in_a_build_tagged_sibling_is_one_key_type(tmp_path: Path):
    from generator.repo.analyze.describe import key_types

    doc = "// Validator checks a request's fields before a handler reads them.\n"
    body = "type Validator interface {\n\tValidate(obj any) error\n}\n"
    files = {
        "binding/binding.go": f"package binding\n\n{doc}{body}",
        "binding/binding_nomsgpack.go": f"//go:build nomsgpack\n\npackage binding\n\n{doc}{body}",
        "render/render.go": f"package render\n\n{doc}{body}",  # another package's type of that name stays
    }
    _, _, facts = survey(tmp_path, files)
    linker = Linker({p: 10 for p in files}, "0" * 40)
    found = [(t.symbol.name, t.symbol.path) for t in key_types(list(files), facts, linker)]
    assert sorted(found) == [("Validator", "binding/binding.go"), ("Validator", "render/render.go")]


def test_a_group_led_by_a_program_s_main_module_is_the_command_line(tmp_path: Path):
    from generator.repo.plan.naming import subsystem_names

    # a markdown reader's command: main.go starts it, gitlab.go and github.go find READMEs for it
    files = {
        "main.go": "// Package main provides the entry point for the reader.\npackage main\n\n"
        "func main() {\n\tfindGitLabREADME()\n\tfindGitHubREADME()\n}\n",
        "gitlab.go": "package main\n\n// FindGitLabREADME finds a README.\nfunc findGitLabREADME() {}\n",
        "github.go": "package main\n\n// FindGitHubREADME finds a README.\nfunc findGitHubREADME() {}\n",
        "ui/pager.go": "package ui\n\n// Pager shows a document.\ntype Pager struct{}\n",
    }
    _, _, facts = survey(tmp_path, files)
    assert facts.files["main.go"].is_entry_point
    names = subsystem_names(
        [["main.go", "gitlab.go", "github.go"], ["gitlab.go", "github.go"], ["ui/pager.go"]], facts
    )
    assert names[0] == "Command line" and names[1] != "Command line"


def test_a_community_living_in_a_folder_of_its_own_is_named_after_it():
    from generator.repo.plan.naming import home_folder_name

    actions = [
        "src/main/menu/actions/file.js",
        "src/main/menu/actions/paragraph.js",
        "src/main/commands/index.js",
    ]
    groups = [actions, ["src/muya/lib/parser.js", "src/muya/lib/render.js"], ["src/renderer/app.js"]]
    assert home_folder_name(actions, groups) == "Menu actions"  # not "Paragraph", after one of its files
    # the project's own package folder, where the other groups live too, names no one part of it
    core = ["src/tool/rules.py", "src/tool/results.py"]
    assert home_folder_name(core, [core, ["src/tool/validators/a.py", "src/tool/validators/b.py"]]) == ""
    # nor does a word the other groups' folders share: the project's name
    main = ["packages/graphrag/graphrag/pipeline/run.py", "packages/graphrag/graphrag/pipeline/flow.py"]
    llm = ["packages/graphrag-llm/graphrag_llm/chat.py", "packages/graphrag-llm/graphrag_llm/embed.py"]
    assert home_folder_name(main, [main, llm]) == "Pipeline"
    assert (
        home_folder_name(["packages/graphrag/graphrag/a.py", "packages/graphrag/graphrag/b.py"], [llm]) == ""
    )


def test_a_java_package_is_described_by_its_package_info_and_a_file_by_the_type_named_after_it(
    tmp_path: Path,
):
    from generator.repo.analyze.describe import module_purpose
    from generator.repo.synthesize.synthesis import package_doc

    # a Java package says what it is in package-info.java (its licence header is no summary); a Java or C#
    # file rarely has a doc of its own, but the type named after it does
    files = {
        "src/org/acme/select/package-info.java": (
            "/*\n * Licensed under the MIT License.\n */\n"
            "/**\n Packages to support the CSS-style element selector.\n"
            " {@link org.acme.select.Selector Selector defines the query syntax.}\n */\n"
            "@NullMarked\npackage org.acme.select;\n\nimport org.jspecify.annotations.NullMarked;\n"
        ),
        "src/org/acme/select/Selector.java": (
            "package org.acme.select;\n\n/** Helper. */\nclass Other {}\n\n"
            "/**\n * Finds the elements that match a {@code query}.\n */\npublic class Selector {\n"
            "    public void select() {}\n}\n"
        ),
        "src/Acme/AbstractValidator.cs": (
            'namespace Acme\n{\n/// <summary>\n/// Base class for object validators of <see cref="T:Acme.Rule"/>.\n'
            "/// </summary>\npublic abstract class AbstractValidator<T> {\n    public void Validate() {}\n}\n}\n"
        ),
    }
    _, _, facts = survey(tmp_path, files)
    select = Shard("Select", ("src/org/acme/select/Selector.java",))
    other = Shard("Validators", ("src/Acme/AbstractValidator.cs",))
    assert (
        package_doc(select, [select, other], facts) == "Packages to support the CSS-style element selector."
    )
    java = "src/org/acme/select/Selector.java"
    assert module_purpose(java, facts.files[java]) == "Finds the elements that match a query."
    csharp = "src/Acme/AbstractValidator.cs"
    assert module_purpose(csharp, facts.files[csharp]) == "Base class for object validators of Rule."


def test_a_subsystem_named_after_its_documented_main_type_opens_with_what_that_type_is(tmp_path: Path):
    """kong's "Context" subsystem: context.go has no package comment; its `Context` struct says "Context
    contains the current parse context." — the page and the index open with that, not "Defines Context,
    Path and Resolver.". (The three files are all of the code, so the one subsystem is named after the
    project: the repository here is named as kong's subsystem is.)"""
    from repo_output_fakes import make_git_repo, offline_setup

    from generator.app.targets import repo_target
    from generator.repo.run.pipeline import run_repo_research
    from generator.site.pages.repo import publish_repo
    from generator.store import read_page

    files = {"go.mod": "module example.com/cli\n\ngo 1.22\n"}
    for name, doc in (
        ("context", "Context contains the current parse context."),
        ("parser", ""),
        ("model", ""),
    ):
        title = name.title()
        comment = f"// {doc}\n" if doc else ""
        files[f"{name}.go"] = (
            f"package cli\n\n{comment}type {title} struct {{\n\tName string\n}}\n\n"
            f"func (c *{title}) Run() error {{\n\treturn nil\n}}\n"
        )
    root = make_git_repo(tmp_path / "context", files, origin="https://github.com/acme/context.git")
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    pages = {
        read_page(p)[0]["title"]: read_page(p)[1] for p in (result.study.harvest_dir / "shards").glob("*.md")
    }
    (context,) = pages.values()
    assert context.split("\n\n")[1].strip() == "Context contains the current parse context."


def _go_file(package: str, body: str) -> str:
    return f'package {package}\n\nimport "net/http"\n\n{body}\nvar _ http.Handler\n'


def test_a_large_folder_of_independent_modules_is_one_collection_not_slices_named_after_files(tmp_path: Path):
    # chi's shape: a small router package and a middleware folder holding most of the files, each
    # middleware on its own (two of them share a response writer)
    files = {"go.mod": "module example.com/mux\n\ngo 1.21\n"}
    files["mux.go"] = _go_file(
        "mux", "type Mux struct{ tree *node }\n\nfunc (mx *Mux) Route() { mx.tree.find() }\n"
    )
    files["tree.go"] = _go_file("mux", "type node struct{}\n\nfunc (n *node) find() {}\n")
    files["chain.go"] = _go_file("mux", "func Chain() *Mux { return &Mux{} }\n")
    for name in ("logger", "recoverer", "nocache", "throttle", "timeout", "heartbeat", "compress", "realip"):
        uses = "\tw := wrapWriter(nil)\n\t_ = w\n" if name in {"logger", "compress"} else ""
        files[f"middleware/{name}.go"] = _go_file(
            "middleware", f"func {name.title()}(next http.Handler) http.Handler {{\n{uses}\treturn next\n}}\n"
        )
    files["middleware/wrap_writer.go"] = _go_file("middleware", "func wrapWriter(w any) any { return w }\n")
    _, repo_map, facts = survey(tmp_path, files)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    home = {path: shard.name for shard in shards for path in shard.files}
    assert {name for path, name in home.items() if path.startswith("middleware/")} == {"Middleware"}
    assert not {name for path, name in home.items() if not path.startswith("middleware/")} & {"Middleware"}


def test_go_files_of_one_package_are_tied_by_their_calls(tmp_path: Path):
    from generator.repo.plan.subsystems import core_modules, module_ties

    files = {
        "go.mod": "module example.com/mux\n\ngo 1.21\n",
        "mux.go": _go_file("mux", "func Route() { find() }\n"),
        "tree.go": _go_file("mux", "func find() {}\n"),
        "other.go": _go_file("mux", "func Other() {}\n"),
    }
    _, repo_map, facts = survey(tmp_path, files)
    assert module_ties(core_modules(repo_map), facts) == [("mux.go", "tree.go")]


def test_the_scripts_beside_the_code_are_found_once_per_plan(tmp_path: Path, monkeypatch):
    """Finding the standalone scripts reads every module's imports: once per plan, never once per module
    (it was asked for each of OpenHands' 1,500 modules, 2.6 s of a 5 s run)."""
    from generator.repo.plan import subsystems

    calls = []
    found = subsystems.standalone_scripts
    monkeypatch.setattr(subsystems, "standalone_scripts", lambda *a: calls.append(a) or found(*a))
    _, repo_map, facts = survey(tmp_path, CLI_LIBRARY)
    subsystems.plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    assert len(calls) == 1


def test_a_large_package_beside_its_parent_s_own_modules_stays_one_concept(tmp_path: Path):
    # echo's shape: a root package and a middleware package holding most of the files, its middlewares
    # all calling one shared helper (so it is no collection of independent files)
    files = {"go.mod": "module example.com/web\n\ngo 1.21\n"}
    for name in ("echo", "router", "context", "group", "binder", "response"):
        files[f"{name}.go"] = _go_file(
            "web", f"func {name.title()}() {{ {name}Helper() }}\n\nfunc {name}Helper() {{}}\n"
        )
    for name in ("logger", "recover", "cors", "csrf", "gzip", "proxy", "static", "secure"):
        files[f"middleware/{name}.go"] = _go_file(
            "middleware",
            f"func {name.title()}(next http.Handler) http.Handler {{\n\tskip()\n\treturn next\n}}\n",
        )
    files["middleware/middleware.go"] = _go_file("middleware", "func skip() {}\n")
    _, repo_map, facts = survey(tmp_path, files)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    middleware = {s.name for s in shards for p in s.files if p.startswith("middleware/")}
    assert middleware == {"Middleware"}
    assert all(p.startswith("middleware/") for s in shards if s.name == "Middleware" for p in s.files)


def test_a_package_whose_code_says_nothing_is_described_by_its_folder_s_readme(tmp_path: Path):
    # OpenHands' shape: each top-level part a folder with a README saying what it is, its modules silent
    from repo_output_fakes import offline_setup

    from generator.app.targets import repo_target
    from generator.repo.run.pipeline import run_repo_research

    files = {"pyproject.toml": "[project]\nname = 'agent'\n"}
    for part, said, code in (
        ("runtime", "This directory contains the sandboxes that run the agent's commands.", "runtime"),
        ("server", "The web server that hosts conversations.", "server/src"),  # a crate's README above src/
        ("events", "", "events"),
        ("web", "There are two components:", "web"),  # mitmproxy's web/README.md: a lead-in says nothing
    ):
        if said:
            files[f"{part}/README.md"] = f"# {part.title()}\n\n{said}\n\n## More\n\nDetails.\n"
        if part == "web":
            files[f"{part}/README.md"] = (
                "# Quick Start\n\n- Run `npm install` to install dependencies.\n\n"
                f"## Architecture\n\n{said}\n\n- Server: the Python side\n- Client: the browser side\n"
            )
        module = code.replace("/", ".")
        for i in range(3):
            files[f"{code}/m{i}.py"] = (
                f"from {module}.m{(i + 1) % 3} import X{(i + 1) % 3}\n\n\nclass X{i}:\n    pass\n"
            )
    root = make_project(tmp_path / "agent", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(paths, config, provider, repo_target(paths, config, str(root)))
    said = {a.shard.name: a.summary for a in result.synthesis.analyses}
    assert said["Runtime"] == "This directory contains the sandboxes that run the agent's commands."
    opening = {a.shard.name: a.purpose[0] for a in result.synthesis.analyses}
    assert opening["Runtime"] == said["Runtime"]  # its page opens with it too
    assert said["Server"] == "The web server that hosts conversations."
    assert said["Events"].startswith("Defines ")  # nothing says what it is
    assert said["Web"].startswith("Defines ")


def test_private_helper_packages_join_the_code_that_uses_them_and_never_lead_it(tmp_path: Path):
    """fx's and zap's shape: a root package and an internal/ folder of small private packages (a clock, a
    lifecycle, a stack walker), each used by one root module. Kept as one unit, internal/ was a group of
    unrelated helpers named after one of them ("Fxreflect", described "Mock is a fake source of time.")."""
    module = "example.com/fx"
    files = {"go.mod": f"module {module}\n\ngo 1.21\n"}
    helpers = {"app": "clock", "lifecycle": "hooks", "provide": "stack"}
    for name in ("app", "lifecycle", "provide", "invoke", "module", "annotated", "supply", "decorate"):
        helper = helpers.get(name)
        imports = f'import "{module}/internal/{helper}"\n\n' if helper else ""
        body = f"\t{helper}.Use{helper.title()}()\n" if helper else ""
        files[f"{name}.go"] = (
            f"package fx\n\n{imports}// {name.title()} is part of an application.\n"
            f"type {name.title()} struct{{}}\n\nfunc New{name.title()}() *{name.title()} {{\n{body}"
            f"\treturn &{name.title()}{{}}\n}}\n"
        )
    for helper in helpers.values():
        files[f"internal/{helper}/{helper}.go"] = (
            f"package {helper}\n\n// Use{helper.title()} is a private helper.\n"
            f"func Use{helper.title()}() {{}}\n\n// Fake{helper.title()} is a fake for tests.\n"
            f"type Fake{helper.title()} struct{{}}\n"
        )
    for name in ("event", "console", "logger"):
        files[f"fxevent/{name}.go"] = (
            f"package fxevent\n\n// {name.title()} logs.\ntype {name.title()} struct{{}}\n"
        )
    _, repo_map, facts = survey(tmp_path, files)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    home = {path: shard for shard in shards for path in shard.files}
    for user, helper in helpers.items():
        if f"internal/{helper}/{helper}.go" in home:
            assert home[f"internal/{helper}/{helper}.go"] is home[f"{user}.go"], (user, helper)
    for shard in shards:
        private = [p for p in shard.files if p.startswith("internal/")]
        assert 2 * len(private) <= len(shard.files), shard
        assert not shard.files[0].startswith("internal/"), shard
        assert shard.name.lower() not in {"clock", "hooks", "stack", "internal"}, shard


def test_a_module_named_like_the_package_beside_it_joins_that_package(tmp_path: Path):
    """dramatiq's broker.py (the Broker base class) beside brokers/ (its implementations), zustand's
    middleware.ts beside middleware/: the module declares what the package implements. Clustered by its
    imports, it had joined the flat package's worker and messages instead."""
    files = {
        "tasks/__init__.py": '"""Background tasks."""\n',
        "tasks/broker.py": (
            '"""Brokers."""\n\nfrom .message import Message\n\n\nclass Broker:\n'
            '    """Base class for brokers."""\n\n    def enqueue(self, message: Message):\n        return message\n'
        ),
        "tasks/message.py": '"""Messages."""\n\n\nclass Message:\n    """A message."""\n',
        "tasks/actor.py": (
            '"""Actors."""\n\nfrom .broker import Broker\nfrom .message import Message\n\n\n'
            'class Actor:\n    """An actor."""\n\n    def send(self, broker: Broker):\n'
            "        return broker.enqueue(Message())\n"
        ),
        "tasks/worker.py": (
            '"""Workers."""\n\nfrom .broker import Broker\nfrom .message import Message\n\n\n'
            'class Worker:\n    """Consumes messages."""\n\n    def run(self, broker: Broker):\n'
            "        return Message, broker\n"
        ),
        "tasks/cli.py": '"""The command."""\n\nfrom .worker import Worker\n\n\ndef main():\n    return Worker()\n',
    }
    for name in ("redis", "rabbitmq", "stub"):
        files[f"tasks/brokers/{name}.py"] = (
            f'"""The {name} broker."""\n\nfrom ..broker import Broker\n\n\n'
            f"class {name.title()}Broker(Broker):\n    pass\n"
        )
    files["tasks/brokers/__init__.py"] = ""
    _, repo_map, facts = survey(tmp_path, files)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    home = {path: shard for shard in shards for path in shard.files}
    assert home["tasks/broker.py"] is home["tasks/brokers/redis.py"]
    assert home["tasks/broker.py"].name == "Brokers"


def test_a_group_is_described_by_the_module_it_is_named_after():
    """loguru's "File sink" (the file sink beside string parsers and date helpers) was described by a
    neighbour's symbol ("Frequencies: …"), marshmallow's "Schema" by fields.py ("Field classes for …"): the
    module the group's name speaks of says what the group is."""
    from generator.repo.model import CitedSymbol, ModuleLine, ShardAnalysis
    from generator.repo.synthesize.synthesis import _offline_summary

    files = [
        ModuleLine("log/_string_parsers.py", "python", 300, ""),
        ModuleLine("log/_file_sink.py", "python", 400, ""),
    ]
    symbols = [
        CitedSymbol(
            "Frequencies", "class", "log/_string_parsers.py", "Compute the next occurrence of a time."
        ),
        CitedSymbol("Sink", "class", "log/_file_sink.py", "A sink writing to files, rotated and retained."),
    ]
    shard = Shard("File sink", ("log/_string_parsers.py", "log/_file_sink.py"))
    group = ShardAnalysis(1, shard, "01_f", "", files=files, functions=symbols)
    assert _offline_summary(group) == "Sink: A sink writing to files, rotated and retained."
    said = [
        ModuleLine("s/fields.py", "python", 900, "Field classes."),
        ModuleLine("s/schema.py", "python", 800, "The Schema class."),
    ]
    schema = ShardAnalysis(1, Shard("Schema", ("s/fields.py", "s/schema.py")), "01_s", "", files=said)
    assert _offline_summary(schema) == "The Schema class."


def test_a_word_half_the_modules_share_names_the_group_only_with_its_lead():
    """tenacity's before.py and before_sleep.py beside wait.py, the group's lead, named it "Before"."""
    from generator.repo.plan.naming import shared_word

    files = ["t/wait.py", "t/_utils.py", "t/before_sleep.py", "t/before.py"]
    assert shared_word(files, lead="t/wait.py") == ""
    assert shared_word(files, lead="t/before.py") == "before"
    completions = ["c/zsh_completions.go", "c/fish_completions.go", "c/bash_completions.go", "c/args.go"]
    assert shared_word(completions, lead="c/args.go") == "completions"  # most of them share it


def test_a_small_go_file_joins_the_files_that_call_it_in_its_package(tmp_path: Path) -> None:
    """bigcache's bytes.go (one function, `bytesToString`, called from bigcache.go) was a subsystem of its own,
    "Bytes: Defines bytesToString": Go files of one package import nothing of each other, so the small
    community had no tie to join by. Their calls are their ties."""
    from generator.repo.plan.subsystems import Concept, absorb_small

    def go(body: str) -> str:
        return f"package cache\n\n{body}\n"

    files = {
        "go.mod": "module example.com/cache\n\ngo 1.21\n",
        "cache.go": go(
            "func (c *Cache) Get(key string) string {\n\treturn bytesToString(c.shard(key))\n}\n\n"
            "type Cache struct{}\n\nfunc (c *Cache) shard(key string) []byte { return nil }"
        ),
        "shard.go": go("type Shard struct{}\n\nfunc (s *Shard) Get() []byte { return nil }"),
        "entry.go": go("func wrapEntry() []byte { return nil }"),
        "config.go": go(
            "type Config struct{ Shards int }\n\nfunc DefaultConfig() Config { return Config{Shards: now()} }"
        ),
        "clock.go": go("func now() int { return 1 }"),
        "logger.go": go("type Logger interface{ Printf(string) }"),
        "bytes.go": go("func bytesToString(b []byte) string {\n\treturn string(b)\n}"),
        "server/server.go": "package main\n\nfunc main() {}\n",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    repo_map = map_repository(tmp_path)
    facts = extract_facts(tmp_path, repo_map)
    found = [
        Concept(("cache.go", "shard.go", "entry.go")),
        Concept(("config.go", "clock.go", "logger.go")),
        Concept(("server/server.go",), "server"),
        Concept(("bytes.go",)),
    ]
    merged = absorb_small(found, facts, repo_map)
    assert [set(c.files) for c in merged if "cache.go" in c.files] == [
        {"cache.go", "shard.go", "entry.go", "bytes.go"}
    ]
    assert len(merged) == 3


def test_a_package_of_helpers_every_module_imports_comes_after_the_concepts_it_serves(tmp_path: Path):
    """hono's and goleveldb's shape: a utils package every other module imports weighs most by its imports, and
    had ranked first and taken a place of the router, the middleware or the database itself. It comes after
    the packages that say what they are, and is planned only when room is left."""
    parts = ("router", "middleware", "adapter", "client", "context")
    files = {"web/__init__.py": '"""A web framework."""\n'}
    for helper in ("strings", "headers", "encoding"):
        files[f"web/utils/{helper}.py"] = (
            f'"""{helper.title()} helpers."""\n\n\ndef {helper}(value):\n    return value\n'
        )
    files["web/utils/__init__.py"] = '"""Helpers."""\n'
    for part in parts:
        files[f"web/{part}/__init__.py"] = f'"""The {part}."""\n'
        for role in ("base", "impl", "types"):
            files[f"web/{part}/{role}.py"] = (
                f'"""The {part}\'s {role}."""\n\nfrom web.utils.strings import strings\n'
                "from web.utils.headers import headers\nfrom web.utils.encoding import encoding\n\n\n"
                f'class {part.title()}{role.title()}:\n    """A {part} {role}."""\n\n'
                "    def run(self, value):\n        return strings(headers(encoding(value)))\n"
            )
    files["web/app.py"] = (
        '"""The application."""\n\n'
        + "".join(f"from web.{part}.base import {part.title()}Base\n" for part in parts)
        + '\n\nclass App:\n    """An application."""\n'
    )
    _, repo_map, facts = survey(tmp_path, files)
    pool = [f.path for f in repo_map.files if f.path.endswith(".py")]
    found = concepts(pool, facts, repo_map)
    folders = [c.folder for c in found]
    assert "web/utils" in folders, folders
    assert folders.index("web/utils") == len(found) - 1, folders
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    planned = {p for s in shards for p in s.files}
    assert not any(p.startswith("web/utils/") for p in planned), [s.name for s in shards]
    assert all(any(p.startswith(f"web/{part}/") for p in planned) for part in parts), [s.name for s in shards]


def test_the_part_where_a_typical_call_enters_is_always_planned(tmp_path: Path):
    """apscheduler's and goleveldb's shape: the scheduler (the DB) uses every other part and nothing imports
    it, so it weighed least and was left out while the parts it drives filled the five places. Where the
    flows start is planned, in place of the lightest part."""
    parts = ("triggers", "stores", "events", "executors", "brokers", "serializers")
    files = {
        "README.md": (
            "# sched\n\nA job scheduler.\n\n```python\nfrom sched import Scheduler\n\n"
            "scheduler = Scheduler()\nscheduler.add_job(print)\nscheduler.run_until_stopped()\n```\n"
        ),
        "sched/__init__.py": '"""A job scheduler."""\n\nfrom sched.scheduler.core import Scheduler\n',
        "sched/_structures.py": '"""Jobs and schedules."""\n\n\nclass Job:\n    """A job."""\n',
        "sched/scheduler/__init__.py": '"""The scheduler."""\n',
    }
    uses = "".join(f"from sched.{part}.base import {part.title()}Base\n" for part in parts)
    calls = "".join(f"        {part.title()}Base().run(job)\n" for part in parts)
    files["sched/scheduler/core.py"] = (
        f'"""The scheduler."""\n\n{uses}\n\nclass Scheduler:\n    """Runs jobs when their triggers fire."""\n\n'
        "    def add_job(self, func):\n        self.job = func\n\n"
        f"    def run_until_stopped(self):\n        job = self.job\n{calls}"
    )
    for part in parts:
        files[f"sched/{part}/__init__.py"] = f'"""The {part}."""\n'
        for role in ("base", "memory", "remote"):
            files[f"sched/{part}/{role}.py"] = (
                f'"""The {part}\'s {role}."""\n\nfrom sched._structures import Job\n\n\n'
                f'class {part.title()}{role.title()}:\n    """A {part} {role}."""\n\n'
                "    def run(self, job):\n        return Job()\n"
            )
    _, repo_map, facts = survey(tmp_path, files)
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    planned = {p for s in shards for p in s.files}
    assert len(shards) == 5, [s.name for s in shards]
    assert "sched/scheduler/core.py" in planned, [s.name for s in shards]


def test_a_community_holding_most_of_the_code_is_divided_however_many_packages_stand_beside_it():
    """fasthttp's shape: the root package (server, client, messages, file server: 91 % of the code) was one
    community of 44 modules, so one subsystem, beside five small helper packages that each took a place."""
    from generator.repo.plan.subsystems import Concept, _to_divide

    core = Concept(tuple(f"core{i}.go" for i in range(12)))
    helpers = [
        Concept((f"{p}/a.go", f"{p}/b.go", f"{p}/c.go"), p)
        for p in ("bytes", "stack", "tcp", "proxy", "adapt")
    ]
    found = [core, *helpers]
    assert _to_divide(found, 27, lambda c: 0.9 if c is core else 0.02) is core
    assert _to_divide(found, 27, lambda c: 0.4 if c is core else 0.12) is None


def test_a_group_is_named_after_the_modules_holding_its_code_not_its_most_used_small_type(tmp_path: Path):
    from generator.repo.plan.naming import subsystem_names

    # gnet's engine, event loops and connections were "Client" after client_unix.go, whose exported `Client`
    # weighs most; connection_unix.go and connection_linux.go hold most of the group's code
    work = "".join(f"\tc.n += {i}\n" for i in range(40))
    files = {
        "client_unix.go": "package gnet\n\n// Client of gnet.\ntype Client struct{ n int }\n\n"
        "// NewClient makes a client.\nfunc NewClient() *Client { return &Client{} }\n",
        "connection_unix.go": "package gnet\n\ntype conn struct{ n int }\n\n"
        f"func (c *conn) read() {{\n{work}}}\n\nfunc (c *conn) write() {{\n{work}}}\n",
        "connection_linux.go": f"package gnet\n\nfunc (c *conn) processIO() {{\n{work}}}\n",
        "engine_unix.go": "package gnet\n\ntype engine struct{ n int }\n\nfunc (e *engine) start() { e.n++ }\n",
        "eventloop_unix.go": "package gnet\n\ntype eventloop struct{ n int }\n\nfunc (l *eventloop) run() { l.n++ }\n",
        "user.go": "package gnet\n\nfunc Use() { NewClient(); NewClient(); NewClient() }\n",
        "socket_compat.go": f"package gnet\n\nfunc (c *conn) shim() {{\n{work}{work}}}\n",
    }
    _, _, facts = survey(tmp_path, files)
    group = [
        "client_unix.go",
        "connection_unix.go",
        "connection_linux.go",
        "engine_unix.go",
        "eventloop_unix.go",
    ]
    assert subsystem_names([group], facts) == ["Connection"]
    # a lead module holding a fair share of the code keeps naming it
    assert subsystem_names([["client_unix.go", "user.go"]], facts) == ["Client"]
    # a shim's code names nothing, whatever else its name says (watchdog's pythoncapi_compat.h)
    assert subsystem_names([["client_unix.go", "socket_compat.go"]], facts) == ["Client"]


def test_a_package_speaks_for_a_subsystem_only_when_the_subsystem_holds_most_of_it():
    """hug's `hug/__init__.py` ("Everyone needs a hug every once in a while. Even API developers.") had
    described the subsystem of its decorators, the package split across five subsystems; negroni's doc.go
    ("Package negroni is an idiomatic approach …") the one of its Logger. A package's own words describe a
    subsystem holding most of the package's modules."""
    from generator.repo.analyze.draft import shard_purpose
    from generator.repo.model import Facts, FileFacts, ModuleLine, ShardAnalysis
    from generator.repo.synthesize.synthesis import _offline_summary

    said = {
        "hug/__init__.py": "Everyone needs a hug every once in a while. Even API developers.",
        "hug/decorators.py": "Defines the method decorators at the core of the approach to HTTP APIs.",
        "hug/api.py": "Defines the API object storing all routes.",
        "hug/routing.py": "Defines the chainable routers.",
        "hug/use.py": "Provides a way to use external APIs.",
        "logger.go": "This middleware logs each incoming request and response.",
        "doc.go": "Package tool is an idiomatic approach to web middleware in Go.",
        "tool.go": "",
        "static.go": "",
        "recovery.go": "",
    }
    facts = Facts({path: FileFacts(path, "python", doc=doc) for path, doc in said.items()})

    def analysis(*paths: str) -> ShardAnalysis:
        files = [
            ModuleLine(path, "python", 100, said[path].split(". ")[0].rstrip(".") + ".") for path in paths
        ]
        return ShardAnalysis(1, Shard("Method decorators", paths), "01_m", "", files=files)

    part = analysis("hug/__init__.py", "hug/decorators.py")
    assert _offline_summary(part, facts=facts) == said["hug/decorators.py"]
    assert shard_purpose(part.shard, facts) == [said["hug/decorators.py"]]
    logger = analysis("logger.go", "doc.go")
    assert _offline_summary(logger, facts=facts) == said["logger.go"]
    # holding most of the package, the subsystem is what the package says it is
    most = analysis("hug/__init__.py", "hug/decorators.py", "hug/api.py", "hug/routing.py")
    assert _offline_summary(most, facts=facts) == "Everyone needs a hug every once in a while."
    assert shard_purpose(most.shard, facts)[0] == "Everyone needs a hug every once in a while."
    assert _offline_summary(analysis("doc.go", "logger.go", "tool.go", "static.go"), facts=facts).startswith(
        "Package tool is"
    )


def test_the_one_subsystem_holding_all_the_code_is_what_the_readme_says_the_project_is(tmp_path: Path):
    """morgan is index.js alone: its one subsystem had been described by its `compile` helper's doc comment,
    "Compile a format string into a function.", not by the README's "HTTP request logger middleware"."""
    from repo_output_fakes import offline_setup

    from generator.app.targets import repo_target
    from generator.repo.run.pipeline import run_repo_research

    files = {
        "README.md": "# logly\n\n[![npm](https://img.shields.io/npm/v/logly.svg)](https://npm.im/logly)\n\n"
        "HTTP request logger middleware for node.js\n\n## Usage\n\n```js\napp.use(logly('tiny'))\n```\n",
        "index.js": (
            "/**\n * Compile a format string into a function.\n */\nfunction compile (format) {\n"
            "  return function (tokens) { return format }\n}\n\n"
            "/**\n * Create a logger middleware.\n */\nfunction logly (format) {\n"
            "  var line = compile(format)\n  return function (req, res, next) { line(req); next() }\n}\n\n"
            "module.exports = logly\nmodule.exports.compile = compile\n"
        ),
        "package.json": '{"name": "logly", "description": "HTTP request logger middleware for node.js"}\n',
    }
    root = make_project(tmp_path / "logly", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(paths, config, provider, repo_target(paths, config, str(root)))
    (only,) = result.synthesis.analyses
    assert only.summary == "HTTP request logger middleware for node.js."
    # the index has said so above its table: the row says the subsystem is all of the code
    from generator.site.pages.repo import index_page

    (row,) = index_page(result.synthesis, result.study.ctx.linker).subsystems
    assert row.summary == "All of the project's code: 1 module, what the overview describes."


def test_a_subsystem_is_what_the_docs_page_named_after_its_module_says() -> None:
    """funcy's docs give each module a page of its own, titled for what it holds: docs/seqs.rst, "Sequences",
    opens "This functions are aimed at manipulating finite and infinite sequences of values." The Seqs
    subsystem's sentence was its first function's doc comment, "map: An extended version of builtin map().",
    as no concept is named "Seqs"."""
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import CitedSymbol, DocPassage, ModuleLine, ShardAnalysis
    from generator.repo.synthesize.synthesis import _offline_summary, docs_say

    mapped = CitedSymbol("map", "function", "pkg/seqs.py", "An extended version of builtin map().")
    shard = ShardAnalysis(
        1,
        Shard("Seqs", ("pkg/seqs.py", "pkg/colls.py")),
        "01_s",
        "",
        files=[ModuleLine("pkg/seqs.py", "python", 400, ""), ModuleLine("pkg/colls.py", "python", 300, "")],
        functions=[mapped],
    )
    opening = "These functions manipulate finite and infinite sequences of values."
    page = DocPage("docs/seqs.rst", "Sequences", (DocPassage("docs/seqs.rst", 4, 5, "paragraph", opening),))
    other = DocPage(
        "docs/colls.rst", "Collections", (DocPassage("docs/colls.rst", 4, 4, "paragraph", "Walk a dict."),)
    )
    concepts = [
        DocConcept("Collections", "collections", (other,)),
        DocConcept("Sequences", "sequences", (page,)),
    ]
    said, titled = docs_say(shard, concepts)
    assert said == opening and titled
    assert _offline_summary(shard, "", said, titled) == opening


def test_a_word_the_lesser_modules_share_names_no_group_one_module_holds_most_of(tmp_path: Path):
    """bree's job-builder.js, job-utils.js and job-validator.js share "job", and its one subsystem was "Job",
    though index.js, holding the `Bree` scheduler, is more than half of the code: the module holding most of
    a group names it before a word of the rest; a word the modules holding most of it share still does
    (tenacity's `wait_*` strategies)."""
    from repo_source_fixture import write_tree

    from generator.repo.plan.naming import concept_names

    scheduler = "".join(f"  step{n}() {{\n    return {n};\n  }}\n" for n in range(40))
    helper = "".join(f"  const v{n} = {n};\n" for n in range(12))
    files = {
        "src/index.js": f"export class Scheduler {{\n{scheduler}}}\n",
        **{
            f"src/job-{part}.js": f"export function {part}Job() {{\n{helper}  return 1;\n}}\n"
            for part in ("builder", "utils", "validator")
        },
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert concept_names(sorted(files), facts)[0] == "Scheduler"
    lesser = {**files, "src/index.js": "export class Scheduler {\n  run() {\n    return 1;\n  }\n}\n"}
    root = write_tree(tmp_path / "lesser", lesser)
    facts = extract_facts(root, map_repository(root))
    assert concept_names(sorted(lesser), facts)[0] == "Job"


def test_a_module_of_tools_names_no_subsystem(tmp_path: Path):
    """pino's lib/tools.js holds its helpers (genLog, asJson, stringify …): once its CommonJS exports were read,
    its functions outranked lib/transport.js's and the subsystem docs call "Transport" was named "Tools". A
    module named for tools is one of helpers, as utils.py is."""
    from repo_source_fixture import write_tree

    from generator.repo.plan.naming import concept_names

    helpers = "".join(f"function help{n}() {{\n  return {n};\n}}\n\n" for n in range(30))
    exported = ", ".join(f"help{n}" for n in range(30))
    files = {
        "lib/tools.js": f"{helpers}module.exports = {{ {exported} }};\n",
        "lib/transport.js": (
            "const { help1 } = require('./tools');\n\n"
            "function transport(opts) {\n  return help1(opts);\n}\n\nmodule.exports = transport;\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert concept_names(sorted(files), facts)[0] == "Transport"


def test_the_one_subsystem_holding_all_of_the_code_is_named_after_the_project(tmp_path: Path):
    """p-retry's index.js and its type declarations are all of its code: its one subsystem was "Abort error",
    after the error class beside `pRetry`, and retry-go's two files were "Options" — the whole named after a
    part. It is the project's name, as the index is titled; a name that already is it in other letters stays
    ("Bree" for bree)."""
    from repo_output_fakes import make_git_repo

    from generator.repo.plan.subsystems import whole_project_name

    files = {
        "package.json": '{"name": "p-retry", "main": "index.js"}\n',
        "index.js": (
            "export class AbortError extends Error {\n  constructor(message) {\n    super(message);\n"
            "    this.name = 'AbortError';\n  }\n}\n\n"
            "export default async function pRetry(input, options) {\n  return input(1);\n}\n"
        ),
    }
    root = make_git_repo(tmp_path / "p-retry", files, origin="https://github.com/sindresorhus/p-retry.git")
    repo_map = map_repository(root)
    shards = plan_subsystems(repo_map, extract_facts(root, repo_map), [f.path for f in repo_map.files])
    assert [s.name for s in shards] == ["p-retry"]
    # … and its page is "p-retry · the code", not "p-retry · p-retry"
    from repo_output_fakes import offline_setup

    from generator.app.targets import repo_target
    from generator.repo.run.pipeline import run_repo_research
    from generator.site.pages.repo import publish_repo
    from generator.store import read_page

    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    pages = sorted((result.study.harvest_dir / "shards").glob("*.md"))
    assert [read_page(p)[0]["title"] for p in pages] == ["p-retry · the code"]
    assert whole_project_name("bree", "Bree") == "Bree"
    assert whole_project_name("3f2a9c0d1e2b4a5f", "Options") == "Options"


def test_a_go_internal_package_only_the_tests_import_is_no_subsystem(tmp_path: Path):
    """pond's internal/assert (`Equal`, `PanicsWith`) is imported by its _test.go files alone, and had been a
    subsystem "Assert" beside the pool: no user can import an internal package, so one the code never imports
    serves the tests. An internal package the code imports (its queue's buffer) is part of it."""
    from generator.repo.plan.subsystems import test_support

    files = {
        "go.mod": "module example.com/pool\n\ngo 1.22\n",
        "pool.go": (
            'package pool\n\nimport "example.com/pool/internal/buffer"\n\n'
            "// Pool runs tasks.\ntype Pool struct {\n\tq *buffer.Buffer\n}\n\n"
            "func (p *Pool) Submit(task func()) {\n\tp.q.Write(task)\n}\n"
        ),
        "internal/buffer/buffer.go": (
            "package buffer\n\n// Buffer queues tasks.\ntype Buffer struct{}\n\nfunc (b *Buffer) Write(t func()) {}\n"
        ),
        "internal/assert/assert.go": (
            'package assert\n\nimport "testing"\n\n// Equal fails the test when the values differ.\n'
            "func Equal(t *testing.T, a, b any) {\n\tif a != b {\n\t\tt.Fail()\n\t}\n}\n"
        ),
        "pool_test.go": (
            'package pool\n\nimport (\n\t"testing"\n\n\t"example.com/pool/internal/assert"\n)\n\n'
            "func TestSubmit(t *testing.T) {\n\tassert.Equal(t, 1, 1)\n}\n"
        ),
    }
    _, repo_map, facts = survey(tmp_path, files)
    modules = [f.path for f in repo_map.files if f.path.endswith(".go") and not f.path.endswith("_test.go")]
    assert test_support(modules, facts) == {"internal/assert/assert.go"}
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    planned = {p for s in shards for p in s.files}
    assert "internal/buffer/buffer.go" in planned and "internal/assert/assert.go" not in planned


def test_a_go_internal_package_s_types_come_after_the_package_a_user_imports(tmp_path: Path):
    """pond's Pool subsystem led its key symbols with `LinkedBuffer`, the queue's storage in
    internal/linkedbuffer, which every pool file uses: no user can name it. Beside the package a user imports,
    an internal package's types come after its own; alone, they lead."""
    from generator.repo.analyze.describe import ranked

    buffer = (
        "package buffer\n\n// Buffer queues tasks.\ntype Buffer struct{}\n\n"
        "func (b *Buffer) Write(t func()) {}\n\nfunc (b *Buffer) Read() func() { return nil }\n"
    )
    uses = 'package pool\n\nimport "example.com/pool/internal/buffer"\n\n'
    files = {
        "go.mod": "module example.com/pool\n\ngo 1.22\n",
        "pool.go": (
            f"{uses}// Pool runs tasks.\ntype Pool struct {{\n\tq *buffer.Buffer\n}}\n\n"
            "func (p *Pool) Submit(task func()) {\n\tp.q.Write(task)\n}\n"
        ),
        "group.go": f"{uses}func drain(b *buffer.Buffer) {{\n\tb.Read()\n\tb.Write(nil)\n}}\n",
        "internal/buffer/buffer.go": buffer,
    }
    _, _, facts = survey(tmp_path, files)
    names = [r.symbol.name for r in ranked(["pool.go", "group.go", "internal/buffer/buffer.go"], facts)]
    assert names.index("Pool") < names.index("Buffer")
    assert [r.symbol.name for r in ranked(["internal/buffer/buffer.go"], facts)][0] == "Buffer"


def test_a_subsystem_named_as_the_project_among_others_keeps_its_name_on_its_page(tmp_path: Path):
    """OpenHands' openhands/ package is one subsystem of several, "Openhands": its page is "OpenHands ·
    Openhands", never "the code" — only the one subsystem holding all of the code is that."""
    from repo_output_fakes import offline_setup

    from generator.app.targets import repo_target
    from generator.repo.run.pipeline import run_repo_research
    from generator.site.pages.repo import publish_repo
    from generator.store import read_page

    files = {"pyproject.toml": '[project]\nname = "shop"\n', "shop/__init__.py": "", "web/__init__.py": ""}
    for package, other in (("shop", ""), ("web", "from shop.a import a0\n")):
        for i, name in enumerate("abc"):
            files[f"{package}/{name}.py"] = (
                f'"""The {package} {name}."""\n{other}from {package}.{"abc"[i - 1]} import {"abc"[i - 1]}0\n\n\n'
                f"def {name}0():\n    return {i}\n\n\nclass {name.upper()}{package.title()}:\n    pass\n"
            )
    root = make_project(tmp_path / "shop", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    titles = sorted(read_page(p)[0]["title"] for p in (result.study.harvest_dir / "shards").glob("*.md"))
    assert len(titles) > 1 and "shop · Shop" in titles and "shop · the code" not in titles


def test_the_programs_a_package_json_builds_or_generates_with_are_no_subsystem(tmp_path: Path):
    """luxon's `"build": "babel-node tasks/buildAll.js"` and bull's `"generate:raw:scripts": "node
    generateRawScripts.js"` run the maintainers' programs: luxon's "Tasks" (with tasks/build.js, which only
    they import) and bull's "Generate raw scripts" had been subsystems. What `start` runs is the program
    itself, and what the package ships (`main`) is the library, whatever runs it."""
    from generator.repo.plan.subsystems import npm_run_scripts

    lib = "const {{ {0} }} = require('./{0}')\n\nfunction {1}(x) {{\n  return {0}(x) + 1\n}}\n\nmodule.exports = {{ {1} }}\n"
    files = {
        "package.json": (
            '{"name": "dates", "main": "index.js", "scripts": {"build": "babel-node tasks/buildAll.js",'
            ' "generate:raw": "node ./generateRaw.js ./raw", "start": "node server.js",'
            ' "test": "node --test test/*.js", "bench": "node index.js"}}\n'
        ),
        "index.js": "const { parse } = require('./lib/parse')\n\nmodule.exports = { parse }\n",
        "lib/parse.js": lib.format("scan", "parse"),
        "lib/scan.js": "function scan(x) {\n  return x\n}\n\nmodule.exports = { scan }\n",
        "lib/format.js": lib.format("scan", "format"),
        "server.js": "const { parse } = require('./index')\n\nparse(1)\n",
        "tasks/buildAll.js": "const { build } = require('./build')\n\nbuild('all')\n",
        "tasks/build.js": "function build(target) {\n  return target\n}\n\nmodule.exports = { build }\n",
        "generateRaw.js": "function generate() {\n  return 1\n}\n\ngenerate()\n",
    }
    _, repo_map, facts = survey(tmp_path, files)
    assert npm_run_scripts(repo_map) == {"tasks/buildAll.js", "generateRaw.js"}
    shards = plan_subsystems(repo_map, facts, [f.path for f in repo_map.files])
    planned = {p for s in shards for p in s.files}
    assert not planned & {"tasks/buildAll.js", "tasks/build.js", "generateRaw.js"}
    assert {"index.js", "lib/parse.js", "server.js"} <= planned


def test_the_top_package_s_door_and_its_modules_are_the_core_described_by_the_package(tmp_path: Path):
    # taskiq's kicker.py, message.py and taskiq/__init__.py were "Serialization" after serialization.py, the
    # weightiest, and described by one class's docstring; a door holding most of the code names the group
    # itself (tenacity's Retrying), and a sub-package's __init__.py makes no core
    from generator.repo.plan.naming import subsystem_names
    from generator.repo.synthesize.synthesis import core_doc

    big = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(40))
    files = {
        "tq/__init__.py": '"""Distributed task manager."""\nfrom tq.kicker import Kicker\n',
        "tq/kicker.py": "class Kicker:\n    def kiq(self):\n        return 1\n",
        "tq/serialization.py": f'class ExceptionRepr:\n    """Serializable exception model."""\n\n\n{big}',
        "tq/abc/__init__.py": '"""Abstract classes."""\n',
        "tq/abc/broker.py": "class Broker:\n    pass\n",
        "rt/__init__.py": f"class Retrying:\n    pass\n\n\n{big}",
        "rt/stop.py": "def stop_after(n):\n    return n\n",
    }
    _, _, facts = survey(tmp_path, files)
    groups = [
        ["tq/serialization.py", "tq/kicker.py", "tq/__init__.py"],
        ["tq/abc/broker.py", "tq/abc/__init__.py"],
        ["rt/__init__.py", "rt/stop.py"],
    ]
    assert subsystem_names(groups, facts, ["", "tq/abc", ""]) == ["Core", "Abc", "Rt"]
    core = Shard("Core", tuple(groups[0]))
    assert core_doc(core, facts, "A readme.") == "Distributed task manager."
    assert core_doc(Shard("Abc", tuple(groups[1])), facts, "A readme opening.") == ""
    # the door beside modules of a sub-folder (griffe's _internal/) leaves them their own concept's name
    _, _, facts = survey(
        tmp_path / "griffe",
        {
            "gf/__init__.py": '"""Griffe package."""\nfrom gf._internal.expressions import Expr\n',
            "gf/_internal/expressions.py": "class Expr:\n    pass\n",
            "gf/_internal/diff.py": "def diff():\n    return 1\n",
        },
    )
    assert subsystem_names(
        [["gf/_internal/expressions.py", "gf/_internal/diff.py", "gf/__init__.py"]], facts
    ) != ["Core"]
