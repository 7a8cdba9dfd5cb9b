"""The project's own documentation as a source: docs read with their lines (Markdown, MDX, reST), ordered by
the docs' navigation, grouped into concepts, and published as guide pages whose every passage links to the
doc file's lines at the revision, with the code the docs name linked to its definition."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.documents import read_text
from generator.documents.comment import package_doc
from generator.repo.analyze.citations import Linker
from generator.repo.docs import navigation
from generator.repo.docs.answers import doc_answer
from generator.repo.docs.model import DocPassage, ProjectDocs
from generator.repo.docs.navigation import doc_files, docs_root, read_navigation
from generator.repo.docs.overview import overview
from generator.repo.docs.passages import passages
from generator.repo.docs.project import read_project_docs
from generator.repo.docs.usage import usage_examples
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import _overview_adds, publish_repo
from generator.store import read_page

GUIDE = """---
title: Routing
sidebar_position: 2
---

# Routing

The `Router` matches each request path against its routes in the order they were added.

To add a route, call `Router.add` with a pattern and a handler:

```python
router = Router()
router.add("/users/{id}", show_user)
router.dispatch("/users/7")
```

- Patterns may hold `{name}` placeholders.
- A route added later never shadows an earlier one.

<script>alert(1)</script> is how a hostile page would try to run code in the site.
"""
PROJECT = {
    "README.md": (
        "[![CI](https://ci.example/badge.svg)](https://ci.example)\n\n# tinyweb\n\n"
        "Tinyweb is a small web framework that routes requests to handlers and runs middleware around them.\n\n"
        "Please consider becoming a sponsor of this project through our sponsors page today.\n\n"
        "## Quick start\n\nCreate an app and serve it:\n\n"
        "```python\nfrom tinyweb import App\n\napp = App()\napp.serve(8000)\n```\n\n"
        "## License\n\nReleased under the MIT licence, which lets you do almost anything with it.\n"
    ),
    "CHANGELOG.md": "# Changelog\n\n## 1.0\n\nThe first release of the framework, with routing.\n",
    "docs/index.md": "# Tinyweb\n\nTinyweb is made of an application object, a router and middleware.\n",
    "docs/routing/index.md": GUIDE,
    "docs/routing/patterns.rst": (
        "Patterns\n========\n\nA pattern is a path with placeholders, matched segment by segment.\n\n"
        ".. code-block:: python\n\n    router.add('/files/{path}', serve_file)\n\n"
        "Literal blocks work too::\n\n    router.add('/', index)\n"
    ),
    "docs/middleware.md": "# Middleware\n\nMiddleware wraps every handler; the `Middleware` class is the base.\n",
    "docs/zh/routing.md": "# 路由\n\n路由把请求路径匹配到处理函数上，按添加的顺序逐一匹配。\n",
    "tinyweb/__init__.py": '"""Tinyweb."""\n\nfrom .app import App\n\n__all__ = ["App"]\n',
    "tinyweb/app.py": (
        '"""The application."""\n\nfrom .routing.router import Router\n\n\nclass App:\n'
        '    """The application: a router and its middleware."""\n\n'
        '    def serve(self, port):\n        """Serve requests on `port`."""\n        return Router()\n'
    ),
    "tinyweb/routing/__init__.py": '"""Routing."""\n',
    "tinyweb/routing/router.py": (
        '"""Routes requests to handlers."""\n\n\nclass Router:\n    """Matches paths to handlers."""\n\n'
        '    def add(self, pattern, handler):\n        """Add a route."""\n        return self\n\n'
        '    def dispatch(self, path):\n        """Call the handler of `path`."""\n        return path\n'
    ),
    "tinyweb/middleware.py": '"""Middleware."""\n\n\nclass Middleware:\n    """Wraps a handler."""\n',
}


def _docs_of(root: Path) -> ProjectDocs:
    """The project docs of a checkout, read as the docs stage reads them."""
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    return read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)


def test_markdown_blocks_keep_their_lines_language_and_lead() -> None:
    doc = read_text(GUIDE, name="docs/routing/index.md")
    assert doc.title == "Routing"
    blocks = [b for _, b in doc.blocks()]
    code = next(b for b in blocks if b.kind == "code")
    lines = GUIDE.split("\n")
    assert code.language == "python" and code.text.startswith("router = Router()")
    assert lines[code.start - 1].startswith("```") and lines[code.end - 1] == "```"  # the fence's own lines
    assert code.lead.startswith("To add a route, call `Router.add`")  # code spans keep their backticks
    items = [b for b in blocks if b.kind == "item"]
    assert [lines[b.start - 1][:12] for b in items] == ["- Patterns m", "- A route ad"]


def test_a_code_blocks_lead_is_the_sentence_that_introduces_it_not_a_bare_pointer() -> None:
    """ "Here's an example:" says nothing alone: the sentence before it comes with it. A lead that says
    something is its paragraph's last sentence only."""
    text = (
        "# Console\n\nConstruct a console first. The console has a `print` method like the builtin one. "
        "Here's an example of use:\n\n```python\nconsole.print('hi')\n```\n\n"
        "Styles are strings. Pass one as the `style` argument to colour the whole line:\n\n"
        "```python\nconsole.print('hi', style='red')\n```\n\n"
        "控制台可以写入文件。示例如下：\n\n```python\nConsole(file=f)\n```\n\n"
        "Data can be added to log lines as key:value pairs. An example of this is below:\n\n```go\nlog()\n```\n\n"
        "Merging overrides the earlier value.\n\nFor example:\n\n```yaml\nkey: 1\n```\n"
    )
    codes = [b for _, b in read_text(text, name="README.md").blocks() if b.kind == "code"]
    assert [c.lead for c in codes] == [
        "The console has a `print` method like the builtin one. Here's an example of use:",
        "Pass one as the `style` argument to colour the whole line:",
        "控制台可以写入文件。示例如下：",
        # pointing words alone, however many (zerolog, fastify, KEEP), or a paragraph of them (koanf)
        "Data can be added to log lines as key:value pairs. An example of this is below:",
        "Merging overrides the earlier value. For example:",
    ]


def test_rst_sections_code_blocks_and_literal_blocks() -> None:
    text = PROJECT["docs/routing/patterns.rst"]
    doc = read_text(text, name="patterns.rst")
    assert doc.title == "Patterns"
    codes = [b for _, b in doc.blocks() if b.kind == "code"]
    assert [c.text for c in codes] == ["router.add('/files/{path}', serve_file)", "router.add('/', index)"]
    assert codes[0].language == "python"
    assert text.split("\n")[codes[1].start - 1].strip() == "router.add('/', index)"


def test_docs_root_order_and_what_is_not_documentation(tmp_path: Path) -> None:
    root = make_project(tmp_path / "tinyweb", PROJECT)
    repo_map = map_repository(root)
    paths = doc_files(repo_map)
    assert "CHANGELOG.md" not in paths and "docs/zh/routing.md" not in paths  # history, other languages
    # a version history in the docs folder (anyio's and apscheduler's versionhistory.rst, SumatraPDF's
    # Version-history.md) is history too: it was a guide concept "naming" amap, gather and as_completed
    history = {
        "docs/index.md": "# A\n",
        "docs/versionhistory.rst": "History\n=======\n",
        "docs/Version-history.md": "#\n",
        "docs/whats_new.rst": "What's New in 3\n===============\n",  # wtforms', mcp-sdk's whats-new.md
        "docs/whats-new.md": "# What's new\n",
    }
    assert doc_files(map_repository(make_project(tmp_path / "history", history))) == ["docs/index.md"]
    assert docs_root(paths) == "docs"
    # a docs folder at the top of the repository is the project's, though a vendored copy of another
    # project holds more pages; a nested one is chosen only when the top holds too few
    vendored = [*(f"mupdf/docs/page{i}.md" for i in range(9)), *(f"docs/md/{n}.md" for n in "abc")]
    assert docs_root(vendored) == "docs"
    assert docs_root([*vendored[:9], "docs/one.md"]) == "mupdf/docs"
    # how to get help and how the maintainers run the repository (sqlmodel's help.md, management.md)
    process = make_project(tmp_path / "process", {"docs/help.md": "# Help\n", "docs/management.md": "# M\n"})
    assert doc_files(map_repository(process)) == []
    # … how it is released and how its code and docs are written (okio's releasing.md, black's
    # contributing/release_process.md, faker's coding_style.rst and writing-docs.rst)
    maintained = {
        "docs/releasing.md": "# R\n",
        "docs/contributing/release_process.md": "# R\n",
        "docs/coding_style.rst": "S\n=\n",
        "docs/writing-docs.rst": "W\n=\n",
    }
    assert doc_files(map_repository(make_project(tmp_path / "maintained", maintained))) == []
    # GitHub's folder holds templates, and the README GitHub shows first (javalin's, FluentValidation's)
    github = {
        ".github/README.md": "# A\n",
        ".github/ISSUE_TEMPLATE/bug.md": "# B\n",
        ".github/SUPPORT.md": "#\n",
    }
    assert doc_files(map_repository(make_project(tmp_path / "github", github))) == [".github/README.md"]
    # the routing folder's front page states its place (`sidebar_position: 2`): before a page stating none
    assert list(read_navigation(root, paths).order) == [
        "docs/index.md",
        "docs/routing/index.md",
        "docs/routing/patterns.rst",
        "docs/middleware.md",
    ]


def test_a_jekyll_parent_page_s_nav_order_places_its_folder_among_the_pages(tmp_path: Path) -> None:
    """grpc-gateway's just-the-docs site: overview/index.md (`nav_order: 1`, `has_children: true`), mapping/
    (2) and operations/ (3) come before faq.md (7) and related_projects.md (8); the guide had put every page
    at the top before any folder (FAQ, Related projects … Overview), and ordered a folder by the first place
    its children state (0 for each). Within a folder the children's own `nav_order` holds, before a name's
    rank (background.md 0 before usage.md 1)."""

    def page(title: str, order: int, parent: str = "", children: bool = False) -> str:
        fields = f"title: {title}\nnav_order: {order}\n" + (f"parent: {parent}\n" if parent else "")
        return f"---\nlayout: default\n{fields}{'has_children: true' if children else ''}\n---\n\n# {title}\n"

    files = {
        "docs/index.md": page("Home", 0),
        "docs/faq.md": page("FAQ", 7),
        "docs/related.md": page("Related projects", 8),
        "docs/overview/index.md": page("Overview", 1, children=True),
        "docs/overview/usage.md": page("How do I use this?", 1, "Overview"),
        "docs/overview/background.md": page("Background", 0, "Overview"),
        "docs/mapping/index.md": page("Mapping", 2, children=True),
        "docs/mapping/examples.md": page("Examples", 0, "Mapping"),
        "docs/operations/index.md": page("Operations", 3, children=True),
        "docs/operations/tracing.md": page("Tracing", 0, "Operations"),
    }
    root = make_project(tmp_path / "gw", files)
    assert list(read_navigation(root, doc_files(map_repository(root))).order) == [
        "docs/index.md",
        "docs/overview/index.md",
        "docs/overview/background.md",
        "docs/overview/usage.md",
        "docs/mapping/index.md",
        "docs/mapping/examples.md",
        "docs/operations/index.md",
        "docs/operations/tracing.md",
        "docs/faq.md",
        "docs/related.md",
    ]


def test_mkdocs_nav_gives_the_order(tmp_path: Path) -> None:
    nav = "site_name: t\nnav:\n  - Home: index.md\n  - Routing:\n    - routing/patterns.rst\n    - routing/index.md\n"
    root = make_project(
        tmp_path / "tinyweb", {**PROJECT, "mkdocs.yml": nav + "extra: !!python/name:os.system\n"}
    )
    paths = doc_files(map_repository(root))
    assert list(read_navigation(root, paths).order)[:3] == [
        "docs/index.md",
        "docs/routing/patterns.rst",
        "docs/routing/index.md",
    ]


def test_the_navigation_is_read_once_into_one_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the order, the nav's titles and its sections come from one reading of each navigation file
    nav = (
        "site_name: t\nnav:\n  - Home: index.md\n  - Guide:\n    - The **Patterns**: routing/patterns.rst\n"
        "    - routing/index.md\n"
    )
    root = make_project(tmp_path / "tinyweb", {**PROJECT, "mkdocs.yml": nav})
    files = doc_files(map_repository(root))
    read: list[str] = []
    for name in ("read_source", "read_or_none"):  # whether a file that cannot be read is an error or not
        real = getattr(navigation, name)

        def counted(root: Path, path: str, real: Any = real, **kwargs: int) -> Any:
            read.append(path)
            return real(root, path, **kwargs)

        monkeypatch.setattr(navigation, name, counted)
    record = read_navigation(root, files)
    assert read.count("mkdocs.yml") == 1
    assert record.docs == "docs" and record.order[:2] == ("docs/index.md", "docs/routing/patterns.rst")
    assert record.titles() == {"docs/index.md": "Home", "docs/routing/patterns.rst": "The Patterns"}
    assert record.sections() == {"docs/routing/patterns.rst": "Guide", "docs/routing/index.md": "Guide"}


def test_pydoc_markdowns_pages_are_the_nav_when_it_builds_the_site(tmp_path: Path) -> None:
    """beanie keeps no mkdocs.yml: pydoc-markdown.yml:57-107 lists the pages (`renderer.pages`, MkDocs
    settings under `mkdocs_config`). The guide came out alphabetical, the Migrations page titled by its
    "Attention!" heading; the pages' order, titles and sections are the renderer's. Its `hooks` are never
    run and its tags never constructed; a `source` outside the repository is no page."""
    pydoc = (
        "hooks:\n  pre-render:\n    - touch /tmp/pwned\n"
        "renderer:\n  type: mkdocs\n  mkdocs_config:\n    site_name: t\n"
        "    extra: !!python/name:os.system\n  pages:\n"
        "    - title: Overview\n      name: index\n      source: docs/index.md\n"
        "    - title: Guide\n      children:\n"
        "        - title: Middleware\n          source: docs/middleware.md\n"
        "        - title: Patterns\n          source: docs/routing/patterns.rst\n"
        "        - title: Secrets\n          source: ../../etc/passwd.md\n"
        "        - title: API\n          contents: [tinyweb.*]\n"
    )
    root = make_project(tmp_path / "tinyweb", {**PROJECT, "pydoc-markdown.yml": pydoc})
    record = read_navigation(root, doc_files(map_repository(root)))
    # … and only those are built: the routing page it does not list is on no page of the site
    assert record.order == ("docs/index.md", "docs/middleware.md", "docs/routing/patterns.rst")
    assert record.titles() == {
        "docs/index.md": "Overview",
        "docs/middleware.md": "Middleware",
        "docs/routing/patterns.rst": "Patterns",
    }
    assert record.sections() == {"docs/middleware.md": "Guide", "docs/routing/patterns.rst": "Guide"}


def test_a_mkdocs_config_inheriting_another_takes_its_nav(tmp_path: Path) -> None:
    """MkDocs' `INHERIT` reads the settings a shared file gives (docs/mkdocs.yml over ../mkdocs-base.yml):
    the nav there orders the docs; a parent outside the repository is not read."""
    base = "site_name: t\nnav:\n  - Home: index.md\n  - The Patterns: routing/patterns.rst\n"
    root = make_project(
        tmp_path / "tinyweb",
        {**PROJECT, "mkdocs-base.yml": base, "mkdocs.yml": "INHERIT: mkdocs-base.yml\nsite_name: child\n"},
    )
    record = read_navigation(root, doc_files(map_repository(root)))
    assert record.order[:2] == ("docs/index.md", "docs/routing/patterns.rst")
    assert record.titles()["docs/routing/patterns.rst"] == "The Patterns"
    outside = make_project(
        tmp_path / "other", {**PROJECT, "mkdocs.yml": "INHERIT: ../tinyweb/mkdocs-base.yml\n"}
    )
    assert read_navigation(outside, doc_files(map_repository(outside))).titles() == {}


def test_a_mkdocs_config_beside_a_nested_docs_folder_orders_it(tmp_path: Path) -> None:
    """MkDocs keeps its configuration beside the docs folder it builds: kyverno/chainsaw's website/mkdocs.yaml
    (INHERIT: ./mkdocs.base.yaml) orders website/docs/, which had come out in file-name order."""
    files = {
        "README.md": PROJECT["README.md"],
        "website/docs/index.md": "# Home\n\nThe tool runs declarative tests against a cluster.\n",
        "website/docs/quick-start/install.md": "# Install\n\nInstall the binary with the package manager.\n",
        "website/docs/quick-start/first-test.md": "# First test\n\nWrite a test file and run it.\n",
        "website/mkdocs.base.yaml": "site_name: t\ntheme: material\n",
        "website/mkdocs.yaml": (
            "INHERIT: ./mkdocs.base.yaml\nnav:\n- Home: index.md\n- Getting started:\n"
            "  - quick-start/first-test.md\n  - Installing: quick-start/install.md\n"
        ),
    }
    root = make_project(tmp_path / "tinytest", files)
    record = read_navigation(root, doc_files(map_repository(root)))
    assert record.order[:3] == (
        "website/docs/index.md",
        "website/docs/quick-start/first-test.md",
        "website/docs/quick-start/install.md",
    )
    assert record.titles()["website/docs/quick-start/install.md"] == "Installing"


def test_a_page_is_named_as_the_mkdocs_nav_names_it(tmp_path: Path) -> None:
    # starlette's pages open with an API-reference widget and no H1: the first heading found was a
    # subsection ("Storing state on the app instance"), while the nav says "Applications"
    nav = (
        "site_name: t\nnav:\n  - Introduction: index.md\n  - Features:\n    - The Middleware: middleware.md\n"
        # traefik's nav shows an icon beside a title: the words are the title
        '    - \'<span class="nav">Routing <img src="https://x.test/i.svg" class="menu-icon" alt="Hub"></span>\':'
        " routing/index.md\n"
    )
    middleware = (
        '??? abstract "API Reference"\n    ::: tinyweb.Middleware\n\n'
        "Middleware wraps every handler; the `Middleware` class is the base.\n\n"
        "## Ordering of the wrappers\n\nThe first middleware added runs outermost, around all the others.\n"
    )
    root = make_project(
        tmp_path / "tinyweb",
        {
            **PROJECT,
            "mkdocs.yml": nav,
            "docs/middleware.md": middleware,
            "docs/sponsorship.md": "# Sponsor us\n",
        },
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    titles = {page.path: page.title for concept in docs.concepts for page in concept.pages}
    assert titles["docs/middleware.md"] == "The Middleware"  # the nav's name, not the subsection's
    assert titles["docs/index.md"] == "Introduction"
    assert titles["docs/routing/index.md"] == "Routing"  # the nav's title without its icon
    assert "docs/sponsorship.md" not in doc_files(repo_map)  # a call for sponsors explains nothing


def test_a_project_without_a_docs_folder_has_its_readme_sections_as_its_guide(tmp_path: Path) -> None:
    # viper documents itself in a 800-line README: its top-level sections are the concepts
    said = "Viper {0} in several ways, and this section explains each of them in turn with examples."
    readme = (
        "# tinyconf\n\nTinyconf is a configuration library that reads files, flags and the environment.\n\n"
        "## Install\n\n```shell\ngo get example.org/tinyconf\n```\n\nIt needs Go 1.22 or newer, nothing else at all.\n\n"
        + "".join(
            f"## {title}\n\n{said.format(verb)}\n\nThe precedence, from the highest:\n\n- flags\n- env\n- "
            f"config\n\n### Details of {title.lower()}\n\nEach source is read once, when `Load` is called first.\n\n"
            for title, verb in (
                ("Putting values in", "takes values"),
                ("Getting values out", "returns values"),
            )
        )
        + "## Development\n\nRun the tests with make, then open a pull request with your change.\n\n- make\n- "
        "make test\n- make lint\n- make docs\n\n## Licence\n\nMIT, see the licence file for the full text of it.\n"
        "\n## FAQ\n\nWhy the name? It is small, and it reads configuration from many places.\n\nSee the list:\n\n"
        "- one\n- two\n- three\n"
    )
    root = make_project(
        tmp_path / "tinyconf", {"README.md": readme, "conf.go": "package tinyconf\n\nfunc Load() {}\n"}
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyconf")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Putting values in", "Getting values out", "FAQ"]
    put = docs.concepts[0].pages[0]
    assert [p.text for p in put.passages if p.kind == "item"] == [
        "flags",
        "env",
        "config",
    ]  # short items stay
    assert any(p.heading == "Details of putting values in" for p in put.passages)  # subsections belong to it
    # a README with fewer explaining sections is an overview and examples, not a guide
    root = make_project(tmp_path / "small", {"README.md": readme.split("## Getting")[0]})
    repo_map = map_repository(root)
    assert read_project_docs(root, repo_map, extract_facts(root, repo_map), linker).concepts == ()


def test_a_guide_at_the_top_of_a_repository_without_docs_folder_is_its_docs(tmp_path: Path) -> None:
    """joi: a README of a title, a one-line heading ("#### The most powerful … for JavaScript.") and links,
    and a 4,500-line API.md beside it: the heading is the tagline, API.md's introduction joins the overview,
    its sections are the guide and its first example is the getting-started example."""
    section = (
        "Generates a schema object that matches {0} data. It has rules of its own.\n\n"
        "Each rule returns a new schema, so a schema is never changed once made.\n\n"
        "Its rules are these:\n\n- min\n- max\n- {1}\n\n```js\nJoi.{0}().min(1);\n```\n"
    )
    api = (
        "### Introduction\n\n**joi** lets you describe your data using a simple, intuitive, and readable"
        " language.\n\n#### Example\n\n```js\nconst schema = Joi.object({ a: Joi.string() });\n```\n\n"
        + "".join(f"### `{t}`\n\n" + section.format(t, "length") for t in ("any", "string", "number"))
    )
    readme = (
        "# joi\n\n#### The most powerful schema description language and data validator for JavaScript.\n\n"
        "## Installation\n`npm install joi`\n"
    )
    root = make_project(
        tmp_path / "joi", {"README.md": readme, "API.md": api, "lib/index.js": "exports.x = 1;\n"}
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/joi")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [p.text for p in docs.overview] == [
        "The most powerful schema description language and data validator for JavaScript.",
        "joi lets you describe your data using a simple, intuitive, and readable language.",
    ]
    assert [c.name for c in docs.concepts] == ["any", "string", "number"]
    assert [p.text for p in docs.examples if p.kind == "code"] == [
        "const schema = Joi.object({ a: Joi.string() });"
    ]
    docs_folder = make_project(
        tmp_path / "with_docs",
        {
            "README.md": readme,
            "API.md": api,
            "docs/intro.md": "# Intro\n\nJoi validates data against schemas you describe in code.\n",
        },
    )
    repo_map = map_repository(docs_folder)
    docs = read_project_docs(docs_folder, repo_map, extract_facts(docs_folder, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Intro"]  # a docs folder is the docs


def test_a_readme_that_explains_is_a_guide_beside_a_docs_folder_of_a_page_or_two(tmp_path: Path) -> None:
    """CLI11's docs/ holds a Doxygen main page and an examples list beside a 2,100-line README; winston's,
    gin's, fd's and ws's docs folders one to three pages: the README's sections were no concept at all."""
    section = (
        "{0} are added to the app and read when it parses. Each one is checked in turn.\n\nThey report "
        "errors with the name given.\n\nEvery {0} is kept on the app once added.\n\n```cpp\napp.add({0});\n```\n"
    )
    readme = "# tinycli\n\nTinycli is a command line parser for small programs in C.\n\n" + "".join(
        f"## {name}\n\n" + section.format(name.lower().rstrip(":"))
        # pond's "## Features:": the heading's colon is no part of the concept's name
        for name in ("Options", "Subcommands", "Validators:")
    )
    root = make_project(
        tmp_path / "tinycli",
        {
            "README.md": readme,
            "docs/mainpage.md": "# Main page\n\nTinycli lets you write command line programs.\n",
        },
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinycli")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Options", "Subcommands", "Validators", "Main page"]
    assert docs.concepts[2].slug == "validators"


def test_a_readme_chapter_of_many_subsections_gives_a_concept_each(tmp_path: Path) -> None:
    """CLI11's "Usage" holds adding options, subcommands, configuration files, formatting and more (10
    subsections, hundreds of passages), loguru's "Take the tour" 18, cJSON's "Usage" 9: one concept named
    "Usage" hid them all. An API section of entries named in code stays one concept."""

    def body(topic: str) -> str:
        return "".join(f"{topic} sentence {i} says what the part does for a program.\n\n" for i in range(7))

    usage = "## Usage\n\nEvery program starts with an app.\n\n" + "".join(
        f"### {topic}\n\n" + body(topic)
        for topic in ("Adding options", "Subcommands", "Configuration file", "Formatting", "Subclassing")
    )
    api = "## API\n\n" + "".join(
        f"### `app.{m}(fn)`\n\n" + body(m) for m in ("use", "add", "run", "stop", "wait")
    )
    readme = "# tinycli\n\nTinycli is a command line parser for small programs in C.\n\n" + usage + api
    root = make_project(
        tmp_path / "tinycli", {"README.md": readme, "src/app.c": "int run(void) { return 0; }\n"}
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinycli")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == [
        "Adding options",
        "Subcommands",
        "Configuration file",
        "Formatting",
        "Subclassing",
        "API",
    ]
    first = docs.concepts[0].pages[0].passages
    assert (
        first[0].text == "Every program starts with an app."
    )  # the chapter's opening goes with its first part


def test_a_readme_chapter_s_opening_that_says_as_much_as_a_concept_is_a_page_of_its_own(
    tmp_path: Path,
) -> None:
    """machinery's "Configuration" opens with loading the config from the environment or YAML and the
    `Config` struct before its "Lock", "Broker" … subsections: that opening was the start of a page called
    "Lock" (python-tabulate's "Library usage" of "Headers", redis-py's "Advanced Topics" of "Pipelines")."""

    def body(topic: str) -> str:
        return "".join(f"{topic} sentence {i} says what the setting does for a worker.\n\n" for i in range(7))

    opening = "".join(
        f"The config package loads settings in way {i} for every worker it starts.\n\n" for i in range(4)
    )
    configuration = (
        "## Configuration\n\n"
        + opening
        + "".join(
            f"### {topic}\n\n" + body(topic)
            for topic in ("Lock", "Broker", "Result backend", "Queues", "Logging")
        )
    )
    readme = (
        "# tinyq\n\nTinyq is a task queue for Go programs that run many workers.\n\n"
        "## First steps\n\nDefine a task and send it:\n\n```go\nserver.SendTask(sig)\n```\n\n" + configuration
    )
    root = make_project(
        tmp_path / "tinyq", {"README.md": readme, "queue.go": "package tinyq\n\nfunc Run() {}\n"}
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyq")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts][:3] == ["Configuration", "Lock", "Broker"]
    assert docs.concepts[1].pages[0].passages[0].text.startswith("Lock sentence 0")


def test_a_list_of_the_document_s_own_headings_is_no_passage() -> None:
    """kingpin's README opens its titled chapter with a MarkdownTOC list ("Overview", "Features", "Versions" …,
    under no "Contents" heading): quoted, it was a guide page of 25 links. A list of other things stays."""
    text = (
        "# Tinycli\n\n- [What it is for](#what-it-is-for)\n- [Values it reads](#values-it-reads)\n"
        "- [Commands within commands](#commands-within-commands)\n\n"
        "## What it is for\n\nTinycli parses the command line of small programs into typed values.\n\n"
        "## Values it reads\n\nIt reads these kinds of values:\n\n- Flags with values\n- Integers\n- Durations\n\n"
        "## Commands within commands\n\nA command may hold other commands, each with its own flags and arguments.\n"
    )
    found = passages(read_text(text, name="README.md", origin="README.md"), limit=20)
    assert [p.text for p in found if p.kind == "item"] == ["Flags with values", "Integers", "Durations"]
    assert found[0].text.startswith("Tinycli parses")


_DOC_GO = (
    "/*\nPackage cron implements a cron spec parser and job runner.\n\nUsage\n\n"
    "Callers may register Funcs to be invoked on a given schedule.\n\n"
    '\tc := cron.New()\n\tc.AddFunc("@hourly", func() {\n\t\tfmt.Println("hourly")\n\t})\n\tc.Start()\n\n'
    "Funcs are invoked in their own goroutine, asynchronously, and may be added to a running Cron.\n\n"
    "Stop halts the scheduler; it does not stop any jobs already running.\n\n"
    "Time zones\n\nBy default, all interpretation and scheduling is done in the machine's local time zone.\n\n"
    "The time zone may be overridden by providing an additional space-separated field.\n\n"
    "Each job is scheduled in the time zone its spec names, whatever the runner's own location is.\n\n"
    "Be aware that jobs scheduled during daylight-savings leap-ahead transitions will not be run!\n\n"
    "Job Wrappers\n\nA Cron runner may be configured with a chain of job wrappers to add functionality.\n\n"
    "  - Recover any panics from jobs\n  - Delay a job's execution if the previous run hasn't completed yet\n"
    "  - Skip a job's execution if the previous run hasn't completed yet\n  - Log each job's invocations\n"
    "*/\npackage cron\n"
)


def test_a_go_package_doc_comment_reads_as_markdown_on_its_own_lines() -> None:
    """Old-style headings (a lone capitalised line before a paragraph), `# Headings`, indented code kept
    indented inside itself, indented bullets as items; one line out for each line in, as `//` or `/* */`."""
    package, markdown = package_doc(_DOC_GO)
    assert package == "cron" and len(markdown.split("\n")) == len(_DOC_GO.split("\n"))
    document = read_text(markdown, name="doc.go", origin="doc.go", markup="markdown")
    assert [s.heading for s in document.sections] == ["", "Usage", "Time zones", "Job Wrappers"]
    code = next(b for s in document.sections for b in s.blocks if b.kind == "code")
    assert code.text.split("\n")[2] == '\tfmt.Println("hourly")' and code.start == 8
    assert [b.kind for b in document.sections[3].blocks] == ["paragraph", "item", "item", "item", "item"]
    slashes = (
        '// Package kv stores keys.\n//\n// # Reading\n//\n// Get reads a key.\n//\n//   v := kv.Get("k")\n'
    )
    _, markdown = package_doc(slashes + "// Set writes one.\n// Delete removes one.\npackage kv\n")
    document = read_text(markdown, name="kv.go", markup="markdown")
    assert [s.heading for s in document.sections] == ["", "Reading"]
    assert [b.text for b in document.sections[1].blocks if b.kind == "code"] == ['v := kv.Get("k")']
    assert package_doc("// Package kv stores keys.\npackage kv\n") == ("", "")  # a sentence, not a guide


def test_only_the_comment_right_above_the_package_clause_is_the_package_s_doc(tmp_path: Path) -> None:
    """Go's rule, in both readers (the guide's package doc and the one-line description): a `/* … */` block
    a blank line above `package` documents nothing; right above it, it does."""
    from generator.repo.facts.description import go_package_doc

    block = "/*\nPackage kv stores keys.\n" + "\n".join(f"Line {n} says more." for n in range(6)) + "\n*/\n"
    (tmp_path / "apart.go").write_text(block + "\npackage kv\n")
    (tmp_path / "above.go").write_text(block + "package kv\n")
    assert package_doc(block + "\npackage kv\n") == ("", "")
    assert package_doc(block + "package kv\n")[0] == "kv"
    assert go_package_doc(tmp_path, ["apart.go"]) == ""
    assert go_package_doc(tmp_path, ["apart.go", "above.go"]) == "Package kv stores keys. Line 0 says more."


def test_a_go_repository_without_docs_folder_is_documented_by_its_package_comment(tmp_path: Path) -> None:
    """robfig/cron: a README of upgrade notes and a doc.go that holds the usage, the formats and the
    options, as pkg.go.dev shows them: its sentence joins the overview, its "Usage" code is the first
    getting-started example (Go, cited at doc.go's lines), its sections are the guide."""
    readme = (
        "# cron\n\nCron V3 has been released!\n\n## Upgrading to v3\n\nUpdate your imports:\n\n"
        '```go\nimport "github.com/robfig/cron/v3"\n```\n'
    )
    files = {
        "README.md": readme,
        "doc.go": _DOC_GO,
        "cron.go": "package cron\n\ntype Cron struct{}\n\nfunc New() *Cron { return &Cron{} }\n",
        "internal/x/doc.go": _DOC_GO.replace("package cron", "package x").replace("Usage", "Longer usage"),
        "go.mod": "module example.com/cron\n\ngo 1.21\n",
    }
    root = make_project(tmp_path / "cron", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/cron")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [p.text for p in docs.overview][-1] == "Package cron implements a cron spec parser and job runner."
    assert not any("released" in p.text for p in docs.overview)
    first = next(p for p in docs.examples if p.kind == "code")
    assert (first.path, first.start, first.language) == ("doc.go", 8, "go")
    assert first.text.startswith("c := cron.New()")
    assert [c.name for c in docs.concepts] == ["Usage", "Time zones", "Job Wrappers"]
    files["docs/intro.md"] = "# Intro\n\nCron runs jobs on a schedule you describe with a spec string.\n"
    with_docs = make_project(tmp_path / "with_docs", files)
    repo_map = map_repository(with_docs)
    docs = read_project_docs(with_docs, repo_map, extract_facts(with_docs, repo_map), linker)
    assert not any(p.path == "doc.go" for p in docs.examples)  # a docs folder is the docs


_LIB_RS = (
    "// Copyright the authors.\n\n"
    "//! # Tiny Log\n//!\n//! A lightweight logging facade.\n//!\n//! # Usage\n//!\n"
    "//! Libraries log through the macros; executables pick an implementation.\n//!\n"
    "//! The five macros are error, warn, info, debug and trace, highest priority first.\n//!\n"
    '//! ```\n//! # struct Yak;\n//! # fn main() {\n//! use tinylog::info;\n//! info!("shaving");\n'
    "//! ## not hidden\n//! # }\n//! ```\n//!\n//! Each message is dropped unless a logger is installed.\n//!\n"
    "//! # Implementing a Logger\n//!\n//! Loggers implement the `Log` trait and are installed once.\n//!\n"
    "//! ```rust,ignore\n//! impl Log for SimpleLogger {\n//!     fn flush(&self) {}\n//! }\n//! ```\n//!\n"
    "//! # Compile time filters\n//!\n//! Levels can be disabled at compile time with cargo features.\n//!\n"
    '//! ```toml\n//! [dependencies]\n//! # comment kept\n//! tinylog = { features = ["max_level_info"] }\n//! ```\n'
    "\n#![no_std]\n\npub trait Log {\n    fn flush(&self);\n}\n"
)


def test_a_rust_repository_without_docs_folder_is_documented_by_its_crate_docs(tmp_path: Path) -> None:
    """log, serde_json, reqwest, axum: the `//!` docs opening `src/lib.rs` are the crate's front page on
    docs.rs: its sections are the guide, its "Usage" code is a getting-started example cited at lib.rs's
    lines; a code block is Rust unless its fence names another language (`rust,ignore` is Rust), and
    rustdoc's hidden lines (`# fn main() {`) are left out, `##` showing one `#`. A section the README already
    has is not a second concept, nor is the title opening the crate docs ("# Serde JSON")."""
    readme = (  # serde_json's README repeats its crate docs' sections
        "# tinylog\n\nA lightweight logging facade.\n\n"
        + "".join(
            f"## {h}\n\nThe README says this about {h.lower()}, in a paragraph of its own.\n\n"
            f"```rust\nlet {h.split()[0].lower()} = 1;\n```\n\nThen {h.lower()} goes on, said once more here.\n\n"
            f"And {h.lower()} ends with a last paragraph of words.\n\n"
            for h in ("Usage", "Implementing a Logger", "Compile time filters")
        )
    )
    files = {
        "README.md": readme,
        "Cargo.toml": '[package]\nname = "tinylog"\nversion = "0.1.0"\n',
        "src/lib.rs": _LIB_RS,
        "examples/src/lib.rs": _LIB_RS.replace("Usage", "Example usage"),
    }
    root = make_project(tmp_path / "tinylog", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinylog")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Usage", "Implementing a Logger", "Compile time filters"]
    assert [c.pages[0].path for c in docs.concepts] == ["README.md"] * 3
    del files["README.md"]
    root = make_project(tmp_path / "bare", files)
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Usage", "Implementing a Logger", "Compile time filters"]
    first = next(p for p in docs.examples if p.kind == "code")
    assert (first.path, first.start, first.end, first.language) == ("src/lib.rs", 16, 18, "rust")
    assert first.text == 'use tinylog::info;\ninfo!("shaving");\n# not hidden'
    code = {
        p.language: p.text
        for c in docs.concepts
        for page in c.pages
        for p in page.passages
        if p.kind == "code"
    }
    assert code["rust"].startswith("impl Log for SimpleLogger {\n    fn flush")
    assert "# comment kept" in code["toml"]


def test_a_rust_doc_comment_is_markdown_with_its_doctest_lines_hidden() -> None:
    """An item's `///` comment as rustdoc shows it: never Go's rules (indented code lines became tabs, a
    hidden `# use` line a `## use` heading line), each line cited at its source line."""
    from generator.documents.comment import doc_comment

    lines = [
        "/// Parses a [`Value`] or fails with [Error]; see [`Map::get`].",
        "///",
        "/// # Example",
        "///",
        "/// ```",
        "/// # use tinyjson::from_str;",
        "/// struct User {",
        "///     name: String,",
        "/// }",
        "/// ```",
        "pub fn from_str() {}",
    ]
    comment = doc_comment(lines, 11, 11, "rust")
    assert comment is not None
    document = read_text(comment.text, name="de.rs", markup=comment.markup)
    code = next(b for _, b in document.blocks() if b.kind == "code")
    assert (code.text, code.language) == ("struct User {\n    name: String,\n}", "rust")
    assert comment.span(code) == (7, 9)
    assert [s.heading for s in document.sections] == ["", "Example"]
    assert document.sections[0].blocks[0].text == ("Parses a `Value` or fails with `Error`; see `Map::get`.")


def test_a_go_doc_link_reads_as_the_name_it_links() -> None:
    """pkg.go.dev shows `[Client]` and `[*http.Request]` as links named Client and http.Request (a pointer's
    star too); an index in code (`m[key]`) and a link definition are no doc links."""
    from generator.documents.comment import doc_comment

    lines = [
        "// Do sends a [*http.Request] with the [Client]'s settings, as [Client.Do] says.",
        "//",
        "//\tv := m[key]",
        "//",
        "// [RFC 7231]: https://example.org/rfc7231",
        "func Do() {}",
    ]
    comment = doc_comment(lines, 6, 6, "go")
    assert comment is not None
    document = read_text(comment.text, name="do.go", markup=comment.markup)
    texts = [b.text for _, b in document.blocks()]
    assert texts[0] == "Do sends a `http.Request` with the `Client`'s settings, as `Client.Do` says."
    assert texts[1] == "v := m[key]"


def test_a_sub_package_s_doc_is_never_the_project_s_when_the_root_is_a_package(tmp_path: Path) -> None:
    """koanf's root package has no doc comment and its k8smount provider has a long one, lipgloss' compat
    layer too: that doc is the sub-package's, never the guide or the overview of the project. A repository
    whose root holds no package still reads its shallowest package's doc."""
    sub = _DOC_GO.replace("package cron", "package mount").replace("Package cron", "Package mount")
    files = {
        "README.md": "# cron\n\nCron runs jobs.\n",
        "cron.go": "package cron\n\ntype Cron struct{}\n",
        "providers/mount/doc.go": sub,
        "go.mod": "module example.com/cron\n\ngo 1.21\n",
    }
    root = make_project(tmp_path / "cron", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/cron")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert not any("mount" in p.text for p in docs.overview) and docs.concepts == ()
    del files["cron.go"]
    bare = make_project(tmp_path / "bare", files)
    repo_map = map_repository(bare)
    docs = read_project_docs(bare, repo_map, extract_facts(bare, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Usage", "Time zones", "Job Wrappers"]


def test_a_docs_folder_no_navigation_orders_is_introduced_only_by_a_page_named_so(tmp_path: Path) -> None:
    """axum's src/docs/ holds the fragments its crate docs include, alphabetically first
    debugging_handler_type_errors.md: the overview quoted "Unfortunately Rust gives poor error messages…".
    Only a page named as an introduction (index, README, overview…) introduces unordered docs."""
    files = {
        "README.md": "# hops\n\nHops is an HTTP routing library that focuses on ergonomics and modularity.\n",
        "docs/debugging_errors.md": (
            "# Debugging\n\nUnfortunately the compiler gives poor error messages for a handler of the"
            " wrong type.\n"
        ),
        "docs/routing.md": "# Routing\n\nRoutes map a path to the handler that answers requests for it.\n",
        "hops/__init__.py": "def route(path):\n    return path\n",
    }
    said = [p.text for p in _docs_of(make_project(tmp_path / "hops", files)).overview]
    assert said == ["Hops is an HTTP routing library that focuses on ergonomics and modularity."]
    # a folder's index goes by the folder's name (valibot's guides are `(advanced)/async-validation/index.mdx`)
    files["docs/async/index.md"] = files.pop("docs/debugging_errors.md")
    said = [p.text for p in _docs_of(make_project(tmp_path / "folders", files)).overview]
    assert said == ["Hops is an HTTP routing library that focuses on ergonomics and modularity."]
    files["docs/index.md"] = "# Hops\n\nThese pages explain how hops matches a request to its handler.\n"
    said = [p.text for p in _docs_of(make_project(tmp_path / "named", files)).overview]
    assert said[-1] == "These pages explain how hops matches a request to its handler."
    # … and so does the index of the folder holding every page (watchdog's docs/source/index.rst)
    nested = {p.replace("docs/", "docs/source/"): text for p, text in files.items()}
    said = [p.text for p in _docs_of(make_project(tmp_path / "nested", nested)).overview]
    assert said[-1] == "These pages explain how hops matches a request to its handler."


def test_the_overview_reads_past_the_install_block_to_why_the_project_exists() -> None:
    # viper's README opens with a slogan and an install block; what it is comes after, under "Why use Viper?"
    readme = read_text(
        "**Config with fangs!**\n\n## Install\n\n```shell\ngo get example.org/tinyconf\n```\n\n"
        "## Why use tinyconf?\n\nTinyconf is a complete configuration solution for Go applications, "
        "reading files, flags and the environment. It supports:\n\n- defaults\n- flags\n\n## Usage\n\n```go\ntinyconf.Load()\n```\n\n"
        "Tinyconf reads every source once, at the first call to Load, and never again after that.\n",
        name="README.md",
        origin="README.md",
    )
    said = [p.text for p in overview(readme, [])]
    assert said == [
        "Tinyconf is a complete configuration solution for Go applications, reading files, flags and the environment."
    ]  # and not the usage after the first example of use
    # elsewhere, the sentences before a lead-in prepare it: they say nothing of the project alone
    goals = read_text(
        "# tinyconf\n\n## Design goals\n\nThere are myriads of configuration libraries out there, each with its "
        "reasons. Our library had these design goals:\n\n- small\n- fast\n",
        name="README.md",
        origin="README.md",
    )
    assert overview(goals, []) == ()
    # a tutorial's prose walks through code: it is no overview, even before the tutorial's first code block
    tutorial = read_text(
        "# tinytea\n\nTinytea is a small framework for terminal apps built on a model, an update and a view.\n\n"
        "## Tutorial\n\n### Let's get to it\n\nTo start we'll define our package and import some libraries from the "
        "standard one.\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text[:12] for p in overview(tutorial, [])] == ["Tinytea is a"]


def test_a_long_readmes_overview_reads_its_whole_opening_section() -> None:
    """tqdm's 1,500-line README: a page cut to fit keeps each section's first passage only, so the overview
    saw one paragraph of the opening (the name's etymology), never "Instantly make your loops show a smart
    progress meter…" below it; falcon's and loguru's overviews lost their second paragraphs the same way."""
    parts = "".join(
        f"## Part {i}\n\nThe part number {i} explains one more thing about the tool in a few words.\n\n"
        f"It adds a second paragraph, number {i}, with more words about the same part.\n\n"
        for i in range(45)
    )
    readme = read_text(
        "# tinybar\n\nThe name tinybar comes from the small bars it draws, one per loop of a program.\n\n"
        "Tinybar shows a progress meter for any loop: wrap an iterable and every step redraws the bar.\n\n"
        + parts,
        name="README.md",
        origin="README.md",
    )
    said = [p.text for p in overview(readme, [])]
    assert (
        "Tinybar shows a progress meter for any loop: wrap an iterable and every step redraws the bar."
        in said
    )


def test_a_licence_sentence_is_no_overview_however_it_is_put() -> None:
    # pflag's Description: "pflag is available under the same style of BSD license as the Go language";
    # jsoup "is an open source project distributed under the liberal MIT license", minreq, kazoo alike
    readme = read_text(
        "# tinyflag\n\n## Description\n\ntinyflag is a drop-in replacement for the flag package, with "
        "POSIX-style long and short flags.\n\ntinyflag is available under the same style of BSD license as "
        "the Go language, which can be found in the LICENSE file.\n",
        name="README.md",
        origin="README.md",
    )
    said = [p.text for p in overview(readme, [])]
    assert said == [
        "tinyflag is a drop-in replacement for the flag package, with POSIX-style long and short flags."
    ]


def test_which_language_versions_a_project_runs_on_is_no_overview() -> None:
    # pendulum's overview was "Supports Python 3.10 and newer."; boltons' said "Boltons is tested against
    # Python 3.7-3.14, as well as PyPy3." between what it is and why
    readme = read_text(
        "# tinytime\n\nTinytime makes datetimes easy to create, shift and compare in any timezone.\n\n"
        "Supports Python **3.10 and newer**.\n\nTinytime is tested against Python 3.7-3.14, as well as PyPy3.\n\n"
        "Its types subclass the standard library's, so any code taking a datetime takes a tinytime.\n",
        name="README.md",
        origin="README.md",
    )
    said = [p.text[:24] for p in overview(readme, [])]
    assert said == ["Tinytime makes datetimes", "Its types subclass the s"]


def test_a_paragraph_sending_the_reader_elsewhere_is_no_overview() -> None:
    # gjson's "Also check out SJSON for modifying json, and the JJ command line tool." and "This README is a
    # quick overview of how to use GJSON, for more information check out GJSON Syntax."; tokio-tungstenite's
    # "Take a look at the examples/ directory …", OpenHands' "Check out our Product Roadmap …" alike
    readme = read_text(
        "# tinyjson\n\nTinyjson gets values from a JSON document by a path, with dot notation and iteration.\n\n"
        "Also check out [tinyset](https://example.org) for modifying JSON, and the tj command line tool.\n\n"
        "This README is a quick overview of how to use tinyjson, for more information check out the syntax.\n\n"
        "It parses nothing it does not need, so a value deep in a large document comes back in microseconds.\n",
        name="README.md",
        origin="README.md",
    )
    said = [p.text[:20] for p in overview(readme, [])]
    assert said == ["Tinyjson gets values", "It parses nothing it"]
    # … nor is a closing pointer to the docs, though what comes before it says what the project is: restify's
    # "… for building REST APIs. For full details, see http://restify.com" (unpunctuated, it had left the
    # overview empty), caffeine's "… caching library. For more details, see our user's guide …"
    for closing in ("For full details, see http://example.org", "For more details, see our user's guide."):
        readme = read_text(
            f"# rest\n\nrest is a framework, utilizing connect style middleware for building REST APIs. {closing}\n",
            name="README.md",
            origin="README.md",
        )
        assert [p.text for p in overview(readme, [])] == [
            "rest is a framework, utilizing connect style middleware for building REST APIs."
        ]


def test_a_paragraph_recommending_another_project_is_no_overview() -> None:
    # pydash's note "Looking for a library that is more memory efficient …? Check out fnc! …" stood second in
    # its overview; node-schedule's said "… toad-scheduler would be a better choice." and "In case you need
    # durable jobs …, try agenda or bree." — what to use instead, never what the project is
    said = _overview_openings(
        "# tinydash\n\nTinydash is a kitchen sink of utilities for doing stuff in a functional way.\n\n"
        "Looking for a library that is more memory efficient? Check out [fnc](https://example.org)! It is built "
        "around generators.\n\n"
        "If you only want to run a function every 5 minutes, [toad](https://example.org) would be a better "
        "choice.\n\n"
        "In case you need durable jobs that persist across restarts, try [agenda](https://example.org) or "
        "[bree](https://example.org).\n\n"
        "Its functions take the data first, so each reads as the sentence it is. Check out the tutorial.\n"
    )
    assert said == ["Tinydash is a kitche", "Its functions take t"]


def _overview_openings(text: str, name: str = "README.md") -> list[str]:
    """The first 20 characters of each passage of the overview: of the README `text`, or of the docs
    introduction page `text` when `name` is not a README."""
    document = read_text(text, name=name, origin=name)
    passages = overview(document, []) if name == "README.md" else overview(None, [document])
    return [p.text[:20] for p in passages]


def test_a_docs_index_s_blurbs_over_its_toctrees_are_no_overview() -> None:
    """cachelib's docs index (Pallets' layout: flask's, click's, werkzeug's) puts a blurb over each toctree:
    "The user guide is the best place to start if you are new to CacheLib. …" and "If you are looking for
    information on a specific function, class or method, this part of the documentation is for you." — both
    stood in its overview, about the docs, not the project."""
    said = _overview_openings(
        "CacheKit\n========\n\nA collection of cache libraries behind one API, extracted from a web toolkit.\n\n"
        "User's Guide\n------------\n\nThe user guide is the best place to start if you are new to CacheKit. It\n"
        "includes installation instructions and a quickstart guide.\n\n.. toctree::\n\n    installation\n\n"
        "API Reference\n-------------\n\nIf you are looking for information on a specific function, class or\n"
        "method, this part of the documentation is for you.\n\n.. toctree::\n\n    api\n",
        name="index.rst",
    )
    assert said == ["A collection of cach"]


def test_a_why_section_s_list_is_the_features_an_overview_without_a_list_shows() -> None:
    """consola's README is a title, the quote "> Elegant Console Wrapper" and "## Why Consola?", a list of what
    it does (easy to use, fancy output, pluggable reporters …): its overview was empty. A "Why X?" section's
    list is the project's features, as a "Features" section's is, led by its question."""
    readme = read_text(
        "# Consolette\n\n> Elegant Console Wrapper\n\n## Why Consolette?\n\n- Easy to use\n"
        "- Fancy output with fallback for minimal environments\n- Pluggable reporters\n\n## Install\n\n"
        "```bash\nnpm i consolette\n```\n",
        name="README.md",
        origin="README.md",
    )
    said = [(p.kind, p.text) for p in overview(readme, [])]
    assert said[:2] == [("paragraph", "Why Consolette?"), ("item", "Easy to use")]
    assert len([k for k, _ in said if k == "item"]) == 3


def test_the_overview_leaves_out_sections_about_policy_support_and_users() -> None:
    # fx's "Stability", libuv's "Versioning", vue's "Questions", leveldb's "Documentation", mkdocstrings'
    # "Used by": prose before the first example that says how the project is kept, not what it is
    readme = read_text(
        "# tinyconf\n\nTinyconf is a configuration library for Go that reads files, flags and the environment.\n\n"
        "## Stability\n\nNo breaking changes will be made to exported APIs before the second major version.\n\n"
        "## Versioning\n\nStarting with version 1.0.0 tinyconf follows the semantic versioning scheme closely.\n\n"
        "## Questions\n\nFor questions and support please use the official forum or the community chat.\n\n"
        "## Documentation\n\nThe library documentation is online and bundled with the source code too.\n\n"
        # mitmproxy's "Documentation & Help", django-rest-framework's "Documentation & Support"
        "## Documentation & Help\n\nIf you have questions on how to use tinyconf, please use the discussions!\n\n"
        "## Used by\n\nTinyconf is used by well-known companies, projects and scientific teams around the world.\n\n"
        "## Is tinyconf.dev down?\n\nProbably not, but it's possible; check whether other .dev sites load for you.\n\n"
        "## How do I submit a patch?\n\nIn order to submit a patch, first read the guidelines for contributors.\n\n"
        "## Tinyconf for enterprise\n\nAvailable as part of the Tidelift Subscription for teams and companies.\n\n"
        "## Enterprise support\n\nThe maintainers work with Tidelift to deliver commercial support and upkeep.\n\n"
        "## Why tinyconf?\n\nTinyconf merges every source into one set of keys, so a flag overrides a file.\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text[:16] for p in overview(readme, [])] == ["Tinyconf is a co", "Tinyconf merges "]


def test_a_notice_about_the_projects_name_and_its_versions_section_are_no_overview() -> None:
    # negroni opens on "Notice: This is the library formerly known as …" (buntdb's and karmada's READMEs
    # have "Notice:" paragraphs too); tollbooth's "## Versions" says what each major version changed and
    # ioredis', kingpin's, longhorn's and thanos' "Versions"/"Releases" list releases: news, not what it is
    readme = read_text(
        "# tinyware\n\nNotice: This is the library formerly known as `example.test/old/tinyware` -- requests"
        " are redirected, but we recommend updating your references.\n\n"
        "Tinyware is an idiomatic approach to web middleware that encourages plain handlers.\n\n"
        "## Versions\n\n**v2.x.x:** Brand-new API for the sake of code cleanup and thread safety.\n\n"
        "## Release History\n\nThe second major version dropped the old callback style in favour of contexts.\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text[:16] for p in overview(readme, [])] == ["Tinyware is an i"]
    from generator.repo.synthesize.readme import first_paragraph

    assert first_paragraph(readme).startswith("Tinyware is an idiomatic")


def test_a_readme_opening_that_leads_into_an_example_or_a_list_still_says_what_the_project_is() -> None:
    """sinatra's one sentence "Sinatra is a DSL for … with minimal effort:" leads into its example, quart's
    "Quart is an async Python web application framework. Using Quart you can," into a list: both overviews
    were empty. The statement is kept (its colon a full stop), the lead-in left out; "There are a few ways
    to work with X:" states nothing."""
    from generator.repo.docs.overview import overview

    def said(text: str) -> list[str]:
        return [p.text for p in overview(read_text(text, name="README.md"), [])]

    assert said(
        "# Tool\n\nTool is a DSL for making web apps with little effort:\n\n```ruby\nget '/'\n```\n"
    ) == ["Tool is a DSL for making web apps with little effort."]
    assert said(
        "# Tool\n\nTool is an async web framework. Using Tool you can,\n\n- serve pages,\n- stream,\n"
    ) == ["Tool is an async web framework."]
    assert said("# Tool\n\nThere are a few ways to work with Tool:\n\n```shell\ntool run\n```\n") == []


def test_a_call_for_support_is_no_overview_whatever_it_calls_it() -> None:
    """rq's overview went on "If you find RQ useful, please consider supporting this project via Tidelift.":
    a call for money named no sponsor, so it passed; gunicorn's "please consider supporting us", calls to
    Open Collective, Patreon or Ko-fi likewise."""
    from generator.repo.docs.overview import overview

    for notice in (
        "If you find Tool useful, please consider supporting this project via Tidelift.",
        "Tool is maintained by volunteers, so please consider supporting us if you can.",
        "You can back the maintainers of Tool on Open Collective every month.",
    ):
        readme = read_text(
            f"# Tool\n\nTool queues jobs and runs them in workers.\n\n{notice}\n", name="README.md"
        )
        assert [p.text for p in overview(readme, [])] == ["Tool queues jobs and runs them in workers."]


def test_the_overview_says_once_what_the_readme_and_the_docs_intro_both_say() -> None:
    """msgspec's docs/index.rst repeats its README's closing sentence with a code span where the README has a
    link: the same words, said once."""
    readme = read_text(
        "# tinyser\n\nTinyser is a fast serialization library for Python programs.\n\n"
        "All of this is included in a [lightweight library](https://x) with no required dependencies.\n",
        name="README.md",
    )
    intro = read_text(
        "Tinyser\n=======\n\nAll of this is included in a ``lightweight library`` with no required dependencies.\n",
        name="docs/index.rst",
    )
    assert [p.text for p in overview(readme, [intro])] == [
        "Tinyser is a fast serialization library for Python programs.",
        "All of this is included in a lightweight library with no required dependencies.",
    ]
    # negroni's doc.go says "Package negroni is …" where its README says "Negroni is …": said once
    package = read_text(
        "Package tinyser is a fast serialization library for Python programs.\n", name="doc.go"
    )
    assert len(overview(readme, [package, intro])) == 2


def test_a_readme_whose_definition_leads_into_its_example_opens_the_overview_with_it() -> None:
    """pytest-xdist's README says what it is in the sentence leading into `pytest -n auto` ("The pytest-xdist
    plugin extends pytest … execution::"); what follows the example says what the call did ("With this
    call, …"), and its "Documentation" section points at the docs: neither is what the project is."""
    from generator.repo.synthesize.readme import first_paragraph

    text = (
        "tinyx\n=====\n\nThe tinyx plugin extends pytest with new test execution modes across CPUs::\n\n"
        "    pytest -n auto\n\nWith this call, pytest will spawn a number of workers processes equal to the CPUs.\n\n"
        "Documentation\n=============\n\nDocumentation is available at Read The Docs, with every option.\n"
    )
    readme = read_text(text, name="README.rst")
    assert [p.text for p in overview(readme, [])] == [
        "The tinyx plugin extends pytest with new test execution modes across CPUs."
    ]
    assert first_paragraph(readme) == ""
    # nor what the docs hold, or which interpreters it is tested on (babel's, colander's)
    for said in (
        "Details can be found in the HTML files in the docs folder of the source tree.",
        "The user documentation explains some core concept of the library and its use.",
        "The API reference lists the full public API that the library provides to you.",
        "It is tested on Python 3.7, 3.8, 3.9, 3.10, and 3.11, and PyPy 3.8 today.",
        # where the docs are, said at more length (pyee's, and READMEs found by a code search)
        "Autogenerated API docs, including basic installation directions and examples, can be found at example.org.",
        "For complete documentation, including advanced usage and more examples, please visit our website.",
        "More information about the library can be found in the documentation at example.org.",
        "Check out the documentation for more examples and the full API reference of the library.",
    ):
        assert first_paragraph(read_text(f"# tinyx\n\n{said}\n", name="README.md")) == ""


def test_a_docs_page_speaking_of_itself_or_sending_the_reader_on_is_not_what_the_project_is() -> None:
    """The docs' introduction page greets the reader, says how it is split, or where to look next (fiber,
    fastify, kue, polly, quart, amqp091-go, fabric): none of it says what the project is, and the project's
    own sentences beside them stay, however they open ("Welcome to Tinyx, a fast …", "Details of …")."""
    readme = read_text(
        "# tinyx\n\nTinyx is a fast serialization library for Python programs.\n", name="README.md"
    )
    for said in (
        "Welcome to Tinyx's online API documentation, complete with examples to help you start right away!",
        "The documentation for Tinyx is split into two categories, a reference and a set of guides.",
        "PROTIP This is the latest Tinyx documentation, make sure to also read the changelist.",
        "You can learn more about each serializer and how to use them in the serializers section.",
        "If you can't find documentation for what you are looking for here, remember the json module.",
        "Understand the MessagePack 2.0 model by reviewing these links first. Its terms are used throughout.",
        "Details on the command-line interface to Tinyx, and examples of shortcuts for common conversions.",
        "Coming from Tinyx v2? See What's New in v3 for the migration guide and the upgrade tool.",
        "The json documentation is so good that you may be better placed consulting it first, then here.",
        "You can browse the documentation using the sidebar or visit the API section for the reference.",
    ):
        intro = read_text(f"Tinyx\n=====\n\n{said}\n", name="docs/index.rst")
        assert [p.text for p in overview(readme, [intro])] == [
            "Tinyx is a fast serialization library for Python programs."
        ], said
    for said in (
        "Welcome to Tinyx, a serializer that turns any Python object into compact bytes and back again.",
        "Details of each object are kept in a schema that every serializer reads before writing it.",
    ):
        intro = read_text(f"Tinyx\n=====\n\n{said}\n", name="docs/index.rst")
        assert [p.text for p in overview(readme, [intro])][1:] == [said]
    # nor as the lead-in of a list (fastify's two categories)
    split = (
        "The documentation for Tinyx is split into two categories:\n\n- Reference documentation\n- Guides\n"
    )
    intro = read_text(f"# Tinyx\n\n{split}", name="docs/index.md")
    assert [p.text for p in overview(readme, [intro])] == [
        "Tinyx is a fast serialization library for Python programs."
    ]


def test_the_overview_shows_the_readmes_features_list_wherever_it_stands() -> None:
    """httpx, express, hono, gunicorn and pdoc list what they do under "Features" after their first example,
    where the overview stops reading: the first list of that section is the overview's list, headed by its
    lead-in or else by the heading as a label; "Features not supported" is no such section."""
    from generator.repo.docs.overview import overview

    readme = read_text(
        "# tool\n\nTool documents Python projects from their docstrings.\n\n## Usage\n\n"
        "```shell\ntool ./module.py\n```\n\n## Features not supported\n\nThese are left out:\n\n"
        "- Completion of partial options\n- Non-standard names\n\n"
        "## Features\n\nTool aims to do one thing well.\n\n- Documentation is plain Markdown\n"
        "- A web server with live reloading\n  - reloads on save\n- Customizable HTML templates\n\n"
        "Under the hood:\n\n- Links identifiers in docstrings\n- Respects `__all__`\n",
        name="README.md",
        origin="README.md",
    )
    said = [(p.kind, p.text) for p in overview(readme, [])]
    assert said == [
        ("paragraph", "Tool documents Python projects from their docstrings."),
        ("paragraph", "Features:"),
        ("item", "Documentation is plain Markdown"),
        ("item", "A web server with live reloading"),
        ("item", "Customizable HTML templates"),
    ]


def test_a_folders_readme_saying_what_the_folder_holds_is_not_the_overview() -> None:
    # pdoc's docs/README.md: "This directory contains the source code for the pdoc website" (go-plugin's too)
    from generator.repo.docs.overview import overview

    readme = read_text("# tool\n\nTool documents Python projects from their docstrings.\n", name="README.md")
    intro = read_text(
        "# tool.dev\n\nThis directory contains the source code for the tool website, built on each release.\n\n"
        "Tool renders a module's docstrings as Markdown pages that link every name they mention.\n",
        name="docs/README.md",
    )
    assert [p.text for p in overview(readme, [intro])] == [
        "Tool documents Python projects from their docstrings.",
        "Tool renders a module's docstrings as Markdown pages that link every name they mention.",
    ]


def test_the_overview_keeps_the_list_that_says_what_the_project_does_with_its_lead_in() -> None:
    """parsel's README says what it is in one sentence, then "It supports:" and a list; anyio's lists its
    features under "Features"; werkzeug's and jinja's under "It includes:". The list was dropped (only
    paragraphs were an overview) and a short lead-in was never quoted: the overview said one sentence."""
    readme = read_text(
        "# tinyparse\n\nTinyparse is a small library to extract data from HTML and JSON documents.\n\n"
        "It supports:\n\n- CSS and XPath expressions for HTML\n- JMESPath expressions for JSON\n- Regular expressions\n\n"
        "## Features\n\nIt also offers the following functionality:\n\n- Task groups for running work\n"
        "- Worker threads\n\n## Docs\n\nSee:\n\n- Roadmap\n- Releases\n",
        name="README.md",
        origin="README.md",
    )
    assert [(p.kind, p.text, p.start) for p in overview(readme, [])] == [
        ("paragraph", "Tinyparse is a small library to extract data from HTML and JSON documents.", 3),
        ("paragraph", "It supports:", 5),
        ("item", "CSS and XPath expressions for HTML", 7),
        ("item", "JMESPath expressions for JSON", 8),
        ("item", "Regular expressions", 9),
        ("paragraph", "It also offers the following functionality:", 13),
        ("item", "Task groups for running work", 15),
        ("item", "Worker threads", 16),
    ]  # a list of links ("Roadmap", "Releases") under another heading says nothing of the project


def test_the_index_shows_the_overviews_feature_list_as_one_list_cited_once() -> None:
    """anyio's index showed each of its ten features as a paragraph of its own with its own citation."""
    from generator.repo.docs.model import ProjectDocs
    from generator.site.pages.repo_guide import overview_markdown

    readme = read_text(
        "# tinyparse\n\nTinyparse is a small library to extract data from HTML and JSON documents.\n\n"
        "It supports:\n\n- CSS and XPath expressions for HTML\n- JMESPath expressions for JSON\n",
        name="README.md",
        origin="README.md",
    )
    docs = ProjectDocs(root="", files=1, overview=overview(readme, []))
    linker = Linker({"README.md": 8}, "r" * 40, "https://github.com/acme/tinyparse")
    shown = overview_markdown(docs, linker)
    assert len(shown) == 3
    assert shown[1].startswith("It supports: (") and "#L5-L8" in shown[1]
    assert shown[2] == "- CSS and XPath expressions for HTML\n- JMESPath expressions for JSON"


def test_a_guide_page_quotes_a_list_with_its_short_lead_in_at_no_cost_to_its_other_passages() -> None:
    """A list under "huey supports:" or "Arguments are:" lost the line that says what it lists (too short
    to quote alone); kept, it must not push the page's later sections past its passage budget."""
    text = "# Guide\n\n" + "".join(
        f"## Part {n}\n\nPart {n} of the guide explains one thing in a sentence of words.\n\n"
        f"It has:\n\n- the first item of part {n}\n- the second item of part {n}\n\n"
        for n in range(1, 4)
    )
    found = passages(read_text(text, name="guide.md", origin="docs/guide.md"), limit=9)
    assert [p.text for p in found if p.heading == "Part 3"] == [
        "Part 3 of the guide explains one thing in a sentence of words.",
        "It has:",
        "the first item of part 3",
        "the second item of part 3",
    ]
    assert sum(p.text == "It has:" for p in found) == 3


def test_a_lead_in_to_a_code_block_too_long_to_show_is_left_out_with_it() -> None:
    """mistune's renderers page: "Here is a a list of available renderer functions for `HTMLRenderer`,
    including methods on plugins:" stood over nothing, its listing being too long to quote (past
    `FIRST_EXAMPLE_LINES`: a shorter one is shown whole with what introduces it)."""
    listing = "".join(f"method_{n}(self, text)\n" for n in range(130))
    text = (
        "# Renderers\n\n## Available methods\n\nHere is a list of the renderer functions of the HTML renderer:\n\n"
        f"```python\n{listing}```\n\nEach of these methods returns the HTML of its token as a string.\n\n"
        "## Custom\n\nA renderer of your own is made like this, with its methods:\n\n"
        "```python\nclass Mine(HTMLRenderer):\n    pass\n```\n"
    )
    found = passages(read_text(text, name="renderers.md", origin="docs/renderers.md"), limit=9)
    assert [p.text for p in found if p.heading == "Available methods"] == [
        "Each of these methods returns the HTML of its token as a string."
    ]
    assert [p.kind for p in found if p.heading == "Custom"] == ["paragraph", "code"]  # a short one stays


def test_a_sentence_that_introduces_code_keeps_its_code_though_long() -> None:
    """grpc-gateway's tutorial: "We also need to add and serve the gRPC-Gateway mux in our `main.go` file."
    stood over nothing, its 69-line `main.go` being past `CODE_LINES`, so the page promised what it never
    showed. Code a paragraph right above it introduces is shown whole up to `FIRST_EXAMPLE_LINES`; long code
    nothing introduces is still left out."""
    body = "".join(f"\tstep{n}()\n" for n in range(66))
    main = f"package main\n\nfunc main() {{\n{body}}}\n"
    text = (
        "# Adding the gateway\n\n## Serving\n\nWe also need to add and serve the mux in our `main.go` file.\n\n"
        f"```go\n{main}```\n\n## Listing\n\n```go\n{main}```\n"
    )
    found = passages(read_text(text, name="tutorial.md", origin="docs/tutorial.md"))
    assert [(p.kind, p.heading) for p in found] == [("paragraph", "Serving"), ("code", "Serving")]
    assert found[1].text == main.rstrip("\n") and found[1].end - found[1].start == 71  # 70 lines, fences


def test_other_projects_and_a_table_of_contents_are_neither_concepts_nor_overview(tmp_path: Path) -> None:
    """zerolog's "Who uses zerolog" ("Find out who uses zerolog and add your company") opened its overview,
    its "Related Projects" and koanf's "Contents" (a list of the README's own headings) were guide pages."""
    said = "Tinyconf {0} in several ways, and this section explains each of them in turn with examples."
    sections = "".join(
        f"## {title}\n\n{said.format(title.lower())}\n\n- {title} flags\n- {title} env\n- {title} files\n\n"
        for title in ("Reads values", "Writes values", "Watches files")
    )
    readme = (
        "# tinyconf\n\nTinyconf is a configuration library that reads files, flags and the environment.\n\n"
        "## Who uses tinyconf\n\nFind out who uses tinyconf and add your company or project to the list.\n\n"
        "## Contents\n\n- Reading values from files\n- Writing values to files\n- Watching files for changes\n- Related Projects\n\n"
        + sections
        + "## Related Projects\n\n- confy: the same for the shell\n- envy: environment only, for the "
        "shell\n- flaggy: flags only, for the shell\n- filey: files only, for the shell\n"
    )
    root = make_project(
        tmp_path / "tinyconf", {"README.md": readme, "conf.go": "package tinyconf\n\nfunc Load() {}\n"}
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyconf")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Reads values", "Writes values", "Watches files"]
    assert not any("who uses" in p.text for p in docs.overview)


def test_a_name_qualified_by_the_project_s_own_package_is_the_name_it_qualifies(tmp_path: Path) -> None:
    """koanf's "Concepts" explains `koanf.Provider` and `koanf.Parser`, go-plugin's README `plugin.Serve`,
    serde_json's docs `serde_json::Value`: the package (root Go package, crate, folder) qualifies the
    project's own definition, which the concept shows (the root's `Provider`, not the file provider's); a name
    qualified by another package stays unknown."""
    said = "Tinyconf {0} in several ways, and this section explains each of them in turn with examples."
    readme = "# tinyconf\n\nTinyconf reads configuration.\n\n" + "".join(
        f"## {title}\n\n{said.format(title.lower())}\n\n- {title} {span}, the first way\n"
        f"- {title} second way here\n- {title} third way here\n\n"
        for title, span in (
            ("Reads values", "`tinyconf.Provider`"),
            ("Parses values", "`conf::Parser`"),
            ("Writes values", "`fmt.Stringer` and `mount.Source`"),
        )
    )
    files = {
        "README.md": readme,
        "conf.go": "package tinyconf\n\n// Provider provides values.\ntype Provider interface{ Read() }\n",
        "parse.go": "package tinyconf\n\n// Parser parses bytes.\ntype Parser interface{ Parse() }\n"
        "\n// Stringer is a local one.\ntype Stringer interface{ String() }\n",
        "providers/mount/mount.go": "package mount\n\n// Source reads a mount.\ntype Source struct{}\n",
        "providers/file/file.go": "package file\n\n// Provider reads a file.\nfunc Provider() {}\n",
    }
    root = make_project(tmp_path / "conf", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyconf")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    symbols = {c.name: [s.name for s in c.symbols] for c in docs.concepts}
    assert symbols == {"Reads values": ["Provider"], "Parses values": ["Parser"], "Writes values": ["Source"]}


def test_a_short_name_the_project_s_package_qualifies_is_its_definition(tmp_path: Path) -> None:
    """uber-go/fx's Parameter Objects page says "Embed `fx.In` into this struct": a name of two letters was
    never resolved, so the page linked no code though `fx` qualifies it (inout.go's `type In = dig.In`). A
    short name the project's own package qualifies is its definition when that package defines it; a bare
    short one (`Op`), or one the package does not define (`tinyfx.Io`, only in sub/), still is none, as a
    word of two letters is too often something else."""
    said = "Tinyfx {0} in several ways, and this section explains each of them in turn with examples."
    readme = "# tinyfx\n\nTinyfx wires applications.\n\n" + "".join(
        f"## {title}\n\n{said.format(title.lower())}\n\n- {title} with {span}, the first way\n"
        f"- {title} second way here\n- {title} third way here\n\n"
        for title, span in (
            ("Parameter objects", "`tinyfx.In`"),
            ("Operations", "`Op`"),
            ("Results", "`Result`"),
            ("Streams", "`tinyfx.Io`"),
        )
    )
    files = {
        "README.md": readme,
        "inout.go": "package tinyfx\n\n// In marks a parameter struct.\ntype In struct{}\n",
        "sub/io.go": "package sub\n\n// Io is a stream.\ntype Io struct{}\n",
        "op.go": "package tinyfx\n\n// Op is an operation.\ntype Op struct{}\n\n// Result is a result.\ntype Result struct{}\n",
    }
    root = make_project(tmp_path / "tinyfx", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyfx")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    symbols = {c.name: [s.name for s in c.symbols] for c in docs.concepts}
    assert symbols == {"Parameter objects": ["In"], "Operations": [], "Results": ["Result"], "Streams": []}


def test_a_concept_s_code_is_never_a_test_beside_the_code_it_tests(tmp_path: Path) -> None:
    # traefik's Docker, Kv, Knative and Ingress guide entries linked `TestDynConfBuilder_build`,
    # `Test_buildConfiguration` … from the _test.go files beside pkg/provider/<name>/'s code
    page = "# Docker\n\nThe Docker provider reads the labels of your containers and routes to them.\n\n"
    files = {
        "README.md": "# tinyproxy\n\nTinyproxy routes requests to your containers and services.\n",
        "go.mod": "module example.com/tinyproxy\n",
        "docs/docker.md": page + "It watches the `Provider` events: `TestBuild` shows how.\n",
        "docs/file.md": "# File\n\nThe file provider reads a configuration file and routes by it.\n",
        "docs/kv.md": "# KV\n\nThe KV provider reads a key-value store and routes by its keys.\n",
        "pkg/provider/docker/docker.go": (
            "package docker\n\n// Provider reads containers.\ntype Provider struct{}\n\n"
            "// Build builds the configuration.\nfunc Build() {}\n"
        ),
        "pkg/provider/docker/config_test.go": (
            'package docker\n\nimport "testing"\n\nfunc TestBuild(t *testing.T) {\n\tBuild()\n}\n'
        ),
    }
    root = make_project(tmp_path / "tinyproxy", files)
    symbols = {c.name: [s.name for s in c.symbols] for c in _docs_of(root).concepts}
    assert "Provider" in symbols["Docker"]
    assert not any(name.startswith("Test") for names in symbols.values() for name in names)


def test_a_few_side_pages_in_a_docs_folder_leave_the_readme_s_guide_its_place(tmp_path: Path) -> None:
    """go-plugin's docs/ holds an internals page and two tutorials, winston's three side pages, fd's two:
    their READMEs are the guide (Features, Architecture, Usage; Logging, Formats, Transports) and were
    dropped for the folder. The README's sections come first; a news or policy section is none. A docs
    folder of more pages than SMALL_DOCS is the docs alone."""
    said = "Tinyplug {0} in several ways, and this section explains each of them in turn with examples."
    readme = "# tinyplug\n\nTinyplug runs plugins.\n\n" + "".join(
        f"## {title}\n\n{said.format(title.lower())}\n\n- {title} does one\n- {title} does two\n- {title} does three\n\n"
        for title in ("Features", "Architecture", "Handshake", "Version 2.0 released", "Documentation")
    )
    files = {"README.md": readme, "plug.go": "package tinyplug\n\nfunc Serve() {}\n"}
    for n in range(2):
        files[f"docs/page{n}.md"] = (
            f"# Page {n}\n\nThis page explains part {n} of the plugin system in words.\n"
        )
    root = make_project(tmp_path / "small", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyplug")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Features", "Architecture", "Handshake", "Page 0", "Page 1"]
    for n in range(2, 7):
        files[f"docs/page{n}.md"] = (
            f"# Page {n}\n\nThis page explains part {n} of the plugin system in words.\n"
        )
    root = make_project(tmp_path / "large", files)
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == [f"Page {n}" for n in range(7)]


def test_a_readmes_opening_quote_is_its_tagline_and_a_recommendation_elsewhere_is_not_it() -> None:
    """got's README: an HTML banner, then "> Human-friendly … for Node.js" (unpunctuated, eight words), then
    "You probably want Ky instead": the tagline opens the overview and is the description; the notice is
    neither. A callout quote is no tagline, nor is a quote after the first paragraph."""
    from generator.repo.synthesize.readme import first_paragraph

    text = (
        '<div align="center"><img src="logo.svg"></div>\n\n'
        "> Human-friendly and powerful HTTP request library for Node.js\n\n"
        "**You probably want [Ky](https://x.test/ky) instead, by the same people. It is smaller.**\n\n"
        "## Install\n\n```sh\nnpm install got\n```\n\n"
        "Got retries failed requests, follows redirects and decodes JSON for you, with hooks at every step.\n"
    )
    readme = read_text(text, name="README.md", origin="README.md")
    said = [p.text for p in overview(readme, [])]
    assert said[0] == "Human-friendly and powerful HTTP request library for Node.js"
    assert not any("instead" in s for s in said)
    assert (
        first_paragraph(read_text(text, name="README.md"))
        == "Human-friendly and powerful HTTP request library for Node.js"
    )
    note = "> **Note** This library needs Node.js 20 or later to run.\n\nGot is an HTTP client for Node.js apps.\n"
    assert first_paragraph(read_text(note, name="README.md")) == "Got is an HTTP client for Node.js apps."
    later = "Got is an HTTP client for Node.js apps.\n\n> A quote from a happy user of the library here\n"
    assert first_paragraph(read_text(later, name="README.md")) == "Got is an HTTP client for Node.js apps."


def test_a_banner_quote_over_the_readme_is_neither_its_tagline_nor_its_overview() -> None:
    """ko's README: badges, a demo image, then "> 🎉 Google has applied for `ko` to join the CNCF as a Sandbox
    project! Learn more [here](…)!" over "`ko` is a simple, fast container image builder …": the banner is
    news sending the reader elsewhere, so the description and the overview open on what the project is."""
    from generator.repo.synthesize.readme import first_paragraph

    said_first = "`ko` is a simple, fast container image builder for Go applications."
    for banner in (
        "> 🎉 Google has applied for `ko` to join the Foundation as a Sandbox project!"
        " Learn more [here](https://x.test/news)!",
        "> 📢 Our hosted service is moving to a new home at the end of the month",
    ):
        text = (
            "# `ko`: Easy Go Containers\n\n[![Build](https://x.test/b.svg)](https://x.test)\n\n"
            f'<img src="./docs/demo.png" width="100%">\n\n---\n\n{banner}\n\n{said_first}\n\n'
            "It's ideal for use cases where your image contains a single Go application without any OS"
            " package dependencies.\n"
        )
        readme = read_text(text, name="README.md", origin="README.md")
        said = [p.text for p in overview(readme, [])]
        assert said[0] == said_first
        assert not any("Sandbox" in s or "moving" in s for s in said)
        assert first_paragraph(readme) == said_first


def test_a_readme_title_that_says_what_it_is_is_its_tagline_and_release_news_is_no_overview() -> None:
    """kong's README: "# Kong is a command-line parser for Go", then "## Version 1.0.0 Release" ("Kong has
    been stable for a long time, so it seemed appropriate to cut a 1.0 release.") before "## Introduction":
    the title is the tagline, the release note is neither the description nor the overview."""
    from generator.repo.synthesize.readme import first_paragraph

    text = (
        "# Kong is a command-line parser for Go\n\n[![CI](https://x.test/b.svg)](https://x.test)\n\n"
        "## Version 1.0.0 Release\n\nKong has been stable for a long time, so it seemed appropriate to cut"
        " a 1.0 release.\n\n## Introduction\n\nKong aims to support arbitrarily complex command-line"
        " structures with as little developer effort as possible.\n"
    )
    readme = read_text(text, name="README.md", origin="README.md")
    said = [p.text for p in overview(readme, [])]
    assert said[0] == "Kong is a command-line parser for Go."
    assert not any("release" in s for s in said) and any("arbitrarily complex" in s for s in said)
    assert first_paragraph(readme) == "Kong is a command-line parser for Go."
    plain = "# kong\n\n## What's new in 2.0\n\nWe rewrote the parser for speed and it is now twice as fast.\n"
    about = plain + "\n## About\n\nKong parses command lines into Go structs.\n"
    assert first_paragraph(read_text(about, name="README.md")) == (
        "Kong parses command lines into Go structs."
    )


def test_a_page_opens_with_the_first_sentence_that_says_something_alone() -> None:
    """The guide's line for a page and a silent subsystem's description skip a lead-in, a question, a
    sentence pointing above or below and a clause standing alone (got's docs, each)."""
    from generator.repo.analyze.describe import opening_sentence

    said = [
        "All Got errors contain various metadata, such as:",
        "Want to skip the article?",
        "The function above is exposed by the `got` main interface.",
        "When a request fails. Contains a `code` property.",
        "Next, we'll define our application's initial state.",
        "Okay, so you already have learned some basics.",
        "After that, we'll define our application's initial state in the `Init` method.",
        "Got retries a failed request up to twice by default. More follows.",
    ]
    assert opening_sentence(said) == "Got retries a failed request up to twice by default."
    assert opening_sentence(["When the stream ends the response is complete and cached."]) != ""
    assert opening_sentence(said[:7]) == ""
    # a pronoun standing for what came before: superstruct's "This will expose the `Superstruct` global."
    # (after its script tag), env_logger's "This is because Rust modules … cannot contain hyphens", rq's "It
    # can also be integrated easily in your Flask app."; "This is the second part of the tutorial." says it
    leaning = [
        "This will expose the `Superstruct` global.",
        "This is because Rust modules and crates cannot contain hyphens in their name.",
        "It can also be integrated easily in your Flask app.",
    ]
    assert opening_sentence(leaning) == ""
    assert opening_sentence([*leaning, "This is the second part of the tutorial."]) == (
        "This is the second part of the tutorial."
    )
    # a notice or a pointer onward: sqlglot's custom dialects and metadata pages, boltons', dynaconf's
    notices = [
        "Note: when `sqlglot[c]` is installed, subclassing may not work properly.",
        "Read the ast primer to learn more about SQLGlot's internals.",
        "Note that `-i`/`--instance` cannot be used with `init`.",
        "Please provide feedback in GitHub issues.",
    ]
    assert opening_sentence(notices) == ""
    assert opening_sentence([*notices, "Notebooks render the scheduler's state."]) == (
        "Notebooks render the scheduler's state."
    )
    # a tutorial chapter's recap of the one before: redux-saga's Task Cancellation, Channels and Concurrency
    # pages were described by what the reader had met already; what the chapter adds follows it
    assert opening_sentence(
        [
            "We saw already an example of cancellation in the Non blocking calls section. In this section we'll"
            " review it in more detail.",
            "Once a task is forked, you can abort its execution using `yield cancel(task)`.",
        ]
    ) == ("Once a task is forked, you can abort its execution using `yield cancel(task)`.")
    assert opening_sentence(
        [
            "Until now we've used the `take` and `put` effects to talk to the Store. Channels generalize those"
            " effects to talk to external event sources. They can also queue actions."
        ]
    ) == ("Channels generalize those effects to talk to external event sources.")
    assert (
        opening_sentence(["In the basics section, we saw how to use the helper effects `takeEvery`."]) == ""
    )
    # … and the sentence after a recap that only speaks of it ("This mimics somewhat the behavior of …")
    assert opening_sentence(
        ["Until now we've used the helper `takeEvery`. This mimics the behavior of `redux-thunk`, each time."]
    ) == ("")


def test_a_concept_page_shows_the_code_path_of_its_own_symbols(tmp_path: Path) -> None:
    # `App` is in every page's examples and says nothing of routing: the path starts at the router's own
    # method leading to the most code, never at a constructor, and a one-call path is not shown
    router = (
        '"""Routes requests to handlers."""\n\n\nclass Router:\n    """Matches paths to handlers."""\n\n'
        "    def __init__(self):\n        self.routes = self.reset()\n\n"
        "    def reset(self):\n        return self.clean({})\n\n"
        "    def clean(self, table):\n        return self.sorted(table)\n\n"
        "    def sorted(self, table):\n        return table\n\n"
        "    def add(self, pattern, handler):\n        return self\n\n"
        "    def dispatch(self, path):\n        route = self.match(path)\n        return self.call(route, path)\n\n"
        "    def match(self, path):\n        return self.normalize(path)\n\n"
        "    def normalize(self, path):\n        return path.strip('/')\n\n"
        "    def call(self, route, path):\n        return route\n"
    )
    files = {
        **PROJECT,
        "tinyweb/routing/router.py": router,
        "docs/middleware.md": "# Middleware\n\nMiddleware wraps every handler; `App` runs the `Middleware` class.\n",
        "docs/index.md": "# Tinyweb\n\nTinyweb is made of an application object `App`, a router and middleware.\n",
    }
    root = make_project(tmp_path / "tinyweb", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    flows = {c.name: c.flow for c in docs.concepts}
    routing = flows["Routing"]
    assert routing[0].hop.caller == "Router.dispatch"
    assert [b.hop.callee for b in routing] == ["Router.match", "Router.call"]
    assert routing[0].below[0].hop.callee == "Router.normalize" and routing[0].hop.citation is not None
    assert not flows["Middleware"]  # `App` and `Middleware` lead to no calls worth a path
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    body = read_page(next((result.study.harvest_dir / "guide").glob("*_routing.md")))[1]
    shown = body.split("## How the code does it", 1)[1]
    assert shown.index("- `Router.dispatch`") < shown.index("- calls `Router.match`")
    assert f"/blob/{result.synthesis.revision}/tinyweb/routing/router.py#L" in shown  # each call cited


def test_a_concept_whose_named_types_lead_nowhere_shows_the_path_of_its_other_symbols(tmp_path: Path) -> None:
    """falcon's and werkzeug's routing pages, marshmallow-like docs: the page names more field or converter
    types (one module, no calls between them) than entry methods, so the path was sought in the types'
    module alone, found nothing, and the page showed no code path though `Schema.load` leads to the work."""
    files = {
        "README.md": "# tinyschema\n\nTinyschema turns dictionaries into objects and back.\n",
        "tinyschema/__init__.py": '"""Tinyschema."""\n',
        "tinyschema/fields.py": (
            '"""Fields."""\n\n\nclass String:\n    """A string field."""\n\n\nclass Integer:\n'
            '    """An integer field."""\n'
        ),
        "tinyschema/schema.py": (
            '"""Schemas."""\n\n\nclass Schema:\n    """Loads and dumps data."""\n\n'
            "    def load(self, data):\n        return self._deserialize(data)\n\n"
            "    def _deserialize(self, data):\n        return self._validate(self._convert(data))\n\n"
            "    def _convert(self, data):\n        return dict(data)\n\n"
            "    def _validate(self, data):\n        return self._store(data)\n\n"
            "    def _store(self, data):\n        return data\n"
        ),
        "docs/index.md": "# Tinyschema\n\nTinyschema is made of schemas.\n",
        "docs/schemas.md": (
            "# Schemas\n\nDeclare fields with `String` and `Integer`, then call `Schema.load` on the input.\n"
        ),
    }
    root = make_project(tmp_path / "tinyschema", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyschema")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    flows = {c.name: c.flow for c in docs.concepts}
    assert flows["Schemas"] and flows["Schemas"][0].hop.caller == "Schema.load"


def test_dated_history_a_missing_page_and_the_docs_folders_own_readme_are_not_guides(tmp_path: Path) -> None:
    # history files named under a date or version (or "in" one), a site's 404 page, and the README a docs folder with an
    # index keeps for whoever builds the docs: none of them explains the project
    files = {
        "docs/index.md": "# Tiny\n\nTiny serves requests.\n",
        "docs/routing.md": "# Routing\n\nRoutes map paths to handlers.\n",
        "docs/2026-news.md": "# 2026\n\nThe ASGI worker is a beta feature.\n",
        "docs/CHANGELOG-pre-5.md": "# Changes\n",
        # pyparsing's four "What's New in Pyparsing 3.x" pages were guide concepts; towncrier fragments and
        # monthly notes sit in a changelogs/ folder
        "docs/whats_new_in_3_1.rst": "What's New in 3.1\n=================\n\nTag is a new class.\n",
        "docs/CHANGELOG-historical.md": "# Old changes\n",
        "docs/changelogs/October2021.md": "# October\n\nRouting got faster.\n",
        "docs/404.md": "# Page not found\n",
        "docs/README.md": "# Generate documentation\n\nRun mkdocs serve.\n",
    }
    root = make_project(tmp_path / "tiny", files)
    paths = doc_files(map_repository(root))
    assert sorted(paths) == ["docs/README.md", "docs/index.md", "docs/routing.md"]
    assert list(read_navigation(root, paths).order) == ["docs/index.md", "docs/routing.md"]
    # without an index page, the docs folder's README is its front page and stays …
    del files["docs/index.md"]
    root = make_project(tmp_path / "plain", {**files, "docs/README.md": "# Tiny\n\nTiny serves requests.\n"})
    assert "docs/README.md" in read_navigation(root, doc_files(map_repository(root))).order
    # … unless it opens by speaking of the docs themselves (mitmproxy's Hugo pages have their index deeper)
    for about in ("This directory houses the tiny documentation.", "Run mkdocs serve."):
        root = make_project(tmp_path / about[:4], {**files, "docs/README.md": f"# Tiny docs\n\n{about}\n"})
        assert "docs/README.md" not in read_navigation(root, doc_files(map_repository(root))).order, about
    # and a navigation that lists it keeps it
    mkdocs = "nav:\n  - Home: index.md\n  - Build: README.md\n"
    root = make_project(tmp_path / "listed", {**files, "docs/index.md": "# Tiny\n", "mkdocs.yml": mkdocs})
    assert "docs/README.md" in read_navigation(root, doc_files(map_repository(root))).order


def test_docs_in_other_languages_beside_the_english_folder_are_copies(tmp_path: Path) -> None:
    """dayjs' docs/ holds en/ and es-es/, si/, sw/, he/ (a region, or a language the name list lacks):
    the guide had "Es es", "පටන් ගැනීම" and "Kuanza" pages; vitepress' docs/fa/ beside docs/en/ too. A
    folder of two-letter names without an English one (js/, go/) is no set of translations."""
    files = {
        "docs/en/Installation.md": "# Installation\n\nInstall the library with npm and import it.\n",
        "docs/es-es/Installation.md": "# Instalación\n\nInstale la biblioteca con npm.\n",
        "docs/si/README-si.md": "# පටන් ගැනීම\n\nday.js.org වියමන අඩවියෙහි.\n",
        "docs/sw/README-sw.md": "# Kuanza\n\nUnaweza kutafuta maelekezo zaidi.\n",
        "sdk/js/usage.md": "# JavaScript\n\nCall the client from JavaScript.\n",
        "sdk/go/usage.md": "# Go\n\nCall the client from Go.\n",
    }
    paths = doc_files(map_repository(make_project(tmp_path / "tiny", files)))
    assert sorted(paths) == ["docs/en/Installation.md", "sdk/go/usage.md", "sdk/js/usage.md"]


def test_a_docs_page_saying_where_its_content_moved_is_no_guide_page(tmp_path: Path) -> None:
    """dayjs' docs/en/Installation.md, API-reference.md, I18n.md and Plugin.md are each "### Note / The
    documents are moved to https://day.js.org.": four guide pages saying the same nothing (litestar's
    "This content has moved to :doc:`/onboarding/flask`" pages alike)."""
    files = {
        "README.md": "# tinydate\n\nTinydate parses, validates, manipulates and displays dates and times.\n",
        "docs/en/Installation.md": "### Note\n\nThe documents are moved to [https://tiny.example](https://tiny.example).\n",
        "docs/en/Plugin.md": "### Note\n\nThe documents are moved to [https://tiny.example](https://tiny.example).\n",
        "docs/en/Parsing.md": "# Parsing\n\nA date is parsed from an ISO 8601 string or a timestamp, in local time.\n",
        "docs/en/Install.md": "# Install\n\nSee the command below:\n\n```sh\nnpm install tinydate\n```\n",
        "src/index.js": "export function parse(s) { return s }\n",
    }
    docs = _docs_of(make_project(tmp_path / "tinydate", files))
    assert sorted(page.path for c in docs.concepts for page in c.pages) == [
        "docs/en/Install.md",
        "docs/en/Parsing.md",
    ]


def test_a_yaml_table_of_contents_gives_the_order(tmp_path: Path) -> None:
    # Elastic's docs-builder: docset.yml names folders, each folder's toc.yml lists files and their children;
    # a toc pointing outside the repository is refused like any other path
    docset = "project: t\ntoc:\n  - toc: routing\n  - toc: ../../outside\n"
    toc = "toc:\n  - file: index.md\n    children:\n      - file: patterns.rst\n  - file: nowhere.md\n"
    root = make_project(
        tmp_path / "tinyweb", {**PROJECT, "docs/docset.yml": docset, "docs/routing/toc.yml": toc}
    )
    paths = doc_files(map_repository(root))
    assert list(read_navigation(root, paths).order)[:2] == [
        "docs/routing/index.md",
        "docs/routing/patterns.rst",
    ]
    # Jupyter Book: _toc.yml at the top, files named without their suffix
    book = "format: jb-book\nroot: docs/middleware\nchapters:\n  - file: docs/routing/patterns\n"
    root = make_project(tmp_path / "book", {**PROJECT, "_toc.yml": book})
    paths = doc_files(map_repository(root))
    assert list(read_navigation(root, paths).order)[:2] == ["docs/middleware.md", "docs/routing/patterns.rst"]


def test_pages_stating_their_place_order_their_folders_too(tmp_path: Path) -> None:
    # jotai and zustand: each page's front matter says `nav: 2.01`; the folders have no _category_ file,
    # so a folder is where its first page is (core before utilities before extensions, whatever the names)
    pages = {
        "docs/index.md": "---\nnav: 0\n---\n# Tinystate\n\nTinystate keeps state in small atoms.\n",
        "docs/utilities/storage.md": "---\nnav: 3.01\n---\n# Storage\n\nAtoms that persist.\n",
        "docs/utilities/family.md": "---\nnav: 3.5\n---\n# Family\n\nAtoms made per key.\n",
        "docs/core/use-atom.md": "---\nnav: 2.02\n---\n# useAtom\n\nReads and writes an atom.\n",
        "docs/core/atom.md": "---\nnav: 2.01\n---\n# atom\n\nDeclares a piece of state.\n",
        "docs/extensions/query.md": "---\nnav: 4.02\n---\n# Query\n\nAtoms from queries.\n",
        "docs/basics/concepts.md": "# Concepts\n\nNo place stated: after those that state one.\n",
    }
    root = make_project(tmp_path / "tinystate", {"README.md": "# tinystate\n", **pages})
    assert list(read_navigation(root, doc_files(map_repository(root))).order) == [
        "docs/index.md",
        "docs/core/atom.md",
        "docs/core/use-atom.md",
        "docs/utilities/storage.md",
        "docs/utilities/family.md",
        "docs/extensions/query.md",
        "docs/basics/concepts.md",
    ]


def test_with_no_navigation_the_basics_come_before_the_advanced_parts(tmp_path: Path) -> None:
    # valtio's api/advanced sorted before api/basic by name, pinia's core-concepts after its api reference
    pages = {
        "docs/index.md": "# Tinystate\n\nTinystate keeps state in proxies.\n",
        "docs/api/advanced/ref.md": "# ref\n\nA ref is never proxied.\n",
        "docs/api/basic/proxy.md": "# proxy\n\nA proxy tracks changes.\n",
        "docs/api/utils/watch.md": "# watch\n\nWatch runs on every change.\n",
        "docs/core-concepts/state.md": "# State\n\nState is a proxy.\n",
    }
    root = make_project(tmp_path / "tinystate", {"README.md": "# tinystate\n", **pages})
    assert list(read_navigation(root, doc_files(map_repository(root))).order) == [
        "docs/index.md",
        "docs/core-concepts/state.md",
        "docs/api/basic/proxy.md",
        "docs/api/utils/watch.md",
        "docs/api/advanced/ref.md",
    ]


def test_a_docsify_sidebar_is_the_docs_navigation_not_a_page(tmp_path: Path) -> None:
    # faraday's docs/_sidebar.md (docsify) lists the pages under unlinked chapter names; it was a guide page
    # called "sidebar" and the pages came in folder order
    sidebar = (
        "* Getting Started\n  * [Quick Start](start/quick.md)\n* Customization\n"
        "  * [Configuration](custom/index.md)\n* [Middleware](middleware/index.md)\n"
    )
    docs = {
        "docs/_sidebar.md": sidebar,
        "docs/index.md": "# Tinyweb\n\nTinyweb routes requests to handlers and runs middleware.\n",
        "docs/custom/index.md": "# Configuration\n\nEvery option of the router is set on the app.\n",
        "docs/middleware/index.md": "# Middleware\n\nMiddleware wraps every handler of the app.\n",
        "docs/start/quick.md": "# Quick start\n\nMake an app and add a route to it.\n",
    }
    root = make_project(tmp_path / "tinyweb", {**PROJECT, **docs})
    record = read_navigation(root, doc_files(map_repository(root)))
    assert "docs/_sidebar.md" not in record.order
    assert record.order[:3] == ("docs/start/quick.md", "docs/custom/index.md", "docs/middleware/index.md")


@pytest.mark.parametrize(
    ("navigation", "text"),
    [
        (
            "docs/index.rst",
            "Tinyweb\n=======\n\n.. toctree::\n   :maxdepth: 2\n\n   start/quick\n   middleware/index\n",
        ),
        ("docs/_sidebar.md", "* [Quick Start](start/quick.md)\n* [Middleware](middleware/index.md)\n"),
    ],
)
def test_a_navigation_file_written_with_crlf_line_endings_orders_the_pages(
    tmp_path: Path, navigation: str, text: str
) -> None:
    """x64dbg's docs index.rst is written with CRLF: its toctrees, whose blank lines are `\\r\\n`, were read
    as empty, and the sections they list fell out of the guide (its breakpoint and thread commands)."""
    docs = {
        "docs/middleware/index.md": "# Middleware\n\nMiddleware wraps every handler of the app.\n",
        "docs/start/quick.md": "# Quick start\n\nMake an app and add a route to it.\n",
        "docs/about.md": "# About\n\nWho made it.\n",
    }
    root = make_project(tmp_path / "tinyweb", {**PROJECT, **docs})
    (root / navigation).write_bytes(text.replace("\n", "\r\n").encode())
    order = read_navigation(root, doc_files(map_repository(root))).order
    assert [p for p in order if p != navigation][:2] == ["docs/start/quick.md", "docs/middleware/index.md"]


@pytest.mark.parametrize("source", ["docs/source", "docs/build"])
def test_a_sphinx_source_below_the_docs_folder_is_read_and_its_toctree_orders_the_pages(
    tmp_path: Path, source: str
) -> None:
    """watchdog's and fsspec's docs/source/, toolz's doc/source/: the toctree was looked for only in the docs
    folder's own index, so the guide came in alphabetical order (fsspec's API before its introduction).
    dogpile.cache (and SQLAlchemy, Alembic, Mako) keep the Sphinx source in docs/build/, a folder the map never
    entered as a build output, so the project had no guide at all."""
    docs = {
        f"{source}/conf.py": "project = 'tinyweb'\n",
        f"{source}/index.rst": "Tinyweb\n=======\n\n.. toctree::\n\n   routing\n   api\n",
        f"{source}/routing.rst": "Routing\n=======\n\nA route maps a path to a handler.\n",
        f"{source}/api.rst": "API\n===\n\nEvery class the app is made of.\n",
        "build/lib/tinyweb/app.py": "class Built:\n    pass\n",
    }
    code = {path: text for path, text in PROJECT.items() if not path.startswith("docs/")}
    root = make_project(tmp_path / "tinyweb", {**code, **docs})
    repo_map = map_repository(root)
    assert not any(f.path.startswith("build/") for f in repo_map.files)  # a real build output stays out
    order = read_navigation(root, doc_files(repo_map)).order
    assert order[:3] == (f"{source}/index.rst", f"{source}/routing.rst", f"{source}/api.rst")


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("DeepDiff 8.6.1 documentation!", "About DeepDiff"),
        ("Welcome to dogpile.cache's documentation!", "About dogpile.cache"),
        ("PyToolz API Documentation", "PyToolz API Documentation"),
    ],
)
def test_a_front_page_titled_by_sphinx_quickstart_is_about_the_project_it_names(
    tmp_path: Path, title: str, name: str
) -> None:
    """deepdiff's guide opened on "DeepDiff 8.6.1 documentation!" (a name stale with the next release),
    dogpile.cache's on "Welcome to dogpile.cache's documentation!", funcy's on "Welcome to funcy documentation!":
    the boilerplate sphinx-quickstart writes on the front page. A title of the project's own stays."""
    docs = {
        "docs/conf.py": "project = 'tinyweb'\n",
        "docs/index.rst": f"{title}\n{'=' * len(title)}\n\nTinyweb routes requests to handlers.\n\n"
        "Modules\n-------\n\nThe router matches a path to its handler, segment by segment.\n\n"
        "The middleware wraps every handler the router calls, in the order it was added.\n\n"
        "Installation\n------------\n\nInstall it with pip, then import the application class.\n\n"
        ".. toctree::\n\n   routing\n",
        "docs/routing.rst": "Routing\n=======\n\nA route maps a path to a handler.\n",
    }
    code = {path: text for path, text in PROJECT.items() if not path.startswith("docs/")}
    root = make_project(tmp_path / "tinyweb", {**code, **docs})
    assert [c.name for c in _docs_of(root).concepts][:2] == [name, "Routing"]


def test_a_docs_folder_front_page_listing_its_pages_orders_them(tmp_path: Path) -> None:
    # Catch2's docs/Readme.md ("start with the tutorial", then "Writing tests:" assertions, matchers …),
    # tc39 Temporal's docs/README.md, cloudevents' docs/README.md: no navigation file, so the pages came in
    # alphabetical folder order (Catch2: "Authoring benchmarks", "CMake integration", "Commercial users" …)
    front = (
        "# Reference\n\nTo get the most out of Tiny, start with the [tutorial](tutorial.md#top).\n\n"
        "**Writing tests:**\n* [Assertion macros](assertions.md#top)\n* [Matchers](matchers.md)\n"
        "* [Benchmarks](benchmarks.md)\n\nSee [the site](https://example.org/x.md) and [FAQ](faq.md).\n"
        "Strings: [contains](strings/contains.md).\n"
    )
    docs = {
        "docs/Readme.md": front,
        "docs/assertions.md": "# Assertions\n\nREQUIRE stops a test, CHECK goes on.\n",
        "docs/benchmarks.md": "# Benchmarks\n\nBENCHMARK measures a block of code.\n",
        "docs/faq.md": "# FAQ\n\nQuestions people ask.\n",
        "docs/matchers.md": "# Matchers\n\nREQUIRE_THAT takes a matcher.\n",
        "docs/tutorial.md": "# Tutorial\n\nWrite a first test case.\n",
        "docs/aaa-notes.md": "# Notes\n\nRelease notes of the docs.\n",
        "docs/strings/contains.md": "# Contains\n\nContainsSubstring matches a part of a string.\n",
        "docs/strings/index.md": "# String matchers\n\nMatchers for strings.\n",
    }
    root = make_project(tmp_path / "tiny", {**PROJECT, **docs})
    record = read_navigation(root, doc_files(map_repository(root)))
    assert record.order[:8] == (
        "docs/Readme.md",
        "docs/tutorial.md",
        "docs/assertions.md",
        "docs/matchers.md",
        "docs/benchmarks.md",
        "docs/faq.md",
        "docs/strings/index.md",  # a folder's own front page opens it (Polly's strategies/index.md)
        "docs/strings/contains.md",
    )
    assert "docs/aaa-notes.md" in record.order[8:]  # a page it does not link comes after, in folder order
    # two links are a page pointing onward, not a table of contents
    docs["docs/Readme.md"] = (
        "# Tiny\n\nSee the [matchers](matchers.md) and the [assertions](assertions.md).\n"
    )
    root = make_project(tmp_path / "tiny2", {**PROJECT, **docs})
    order = read_navigation(root, doc_files(map_repository(root))).order
    assert order.index("docs/assertions.md") < order.index("docs/matchers.md")


def test_a_books_summary_md_gives_the_order_titles_and_sections(tmp_path: Path) -> None:
    # mdBook (guide/src/SUMMARY.md) and GitBook: the table of contents is the navigation and no page of its
    # own; the book's folder is the docs root, so its sub-folders are its concepts
    summary = (
        "# Summary\n\n[Introduction](README.md)\n\n# User guide\n\n- [Installing](guide/install.md)\n"
        "- [Routing](routing/index.md)\n    - [Patterns](routing/patterns.md#top)\n        - [Syntax](routing/syntax.md)\n"
        "    - [Draft]()\n    - [Hosts](routing/hosts.md)\n"
        "- [Elsewhere](https://example.org/x.md)\n- [Outside](../../README.md)\n\n---\n\n[Credits](misc/credits.md)\n"
    )
    book = {
        "guide/book.toml": "[book]\ntitle = 'tinyweb'\n",
        "guide/src/SUMMARY.md": summary,
        "guide/src/README.md": "# Tinyweb\n\nTinyweb routes requests to handlers and runs middleware.\n",
        "guide/src/guide/install.md": "# Install\n\nInstall tinyweb with your package manager of choice.\n",
        "guide/src/routing/index.md": "# Routing\n\nThe router matches each request path against its routes.\n",
        "guide/src/routing/patterns.md": "# Patterns\n\nPatterns may hold placeholders that match one segment.\n",
        "guide/src/routing/syntax.md": "# Syntax\n\nA placeholder is a name between braces in the pattern.\n",
        "guide/src/routing/hosts.md": "# Hosts\n\nA route may match the request's host as well as its path.\n",
        "guide/src/misc/credits.md": "# Credits\n\nThanks to everyone who helped write tinyweb's docs.\n",
    }
    root = make_project(tmp_path / "tinyweb", {**PROJECT, **book})
    record = read_navigation(root, doc_files(map_repository(root)))
    assert record.docs == "guide/src"
    assert record.order == (
        "guide/src/README.md",
        "guide/src/guide/install.md",
        "guide/src/routing/index.md",
        "guide/src/routing/patterns.md",
        "guide/src/routing/syntax.md",
        "guide/src/routing/hosts.md",
        "guide/src/misc/credits.md",
    )
    assert record.titles()["guide/src/README.md"] == "Introduction"
    # each page is in the section of the chapter right above it; a chapter with sub-chapters is its own
    assert record.sections() == {
        "guide/src/routing/index.md": "guide/src/routing/index.md",
        "guide/src/routing/patterns.md": "guide/src/routing/patterns.md",
        "guide/src/routing/syntax.md": "guide/src/routing/patterns.md",
        "guide/src/routing/hosts.md": "guide/src/routing/index.md",
    }
    # a page that happens to be called SUMMARY.md and lists no pages is a page like any other
    root = make_project(
        tmp_path / "plain", {**PROJECT, "docs/summary.md": "# Summary\n\nTinyweb in brief: a router.\n"}
    )
    record = read_navigation(root, doc_files(map_repository(root)))
    assert "docs/summary.md" in record.order


def test_a_docsets_table_of_contents_and_substitutions_are_one_reading(tmp_path: Path) -> None:
    # the navigation reads the docset once: its toc orders the pages, its subs come with it; docs-builder
    # names it `_docset.yml` as well, and the first docset giving subs (the docs folder's) is the one used
    docset = (
        "project: t\nsubs:\n  tw: Tinyweb\ntoc:\n  - file: routing/patterns.rst\n  - file: middleware.md\n"
    )
    files = {**PROJECT, "docs/_docset.yml": docset, "docset.yml": "subs:\n  tw: Elsewhere\n"}
    root = make_project(tmp_path / "tinyweb", files)
    navigation = read_navigation(root, doc_files(map_repository(root)))
    assert list(navigation.order)[:2] == ["docs/routing/patterns.rst", "docs/middleware.md"]
    assert navigation.substitutions == {"tw": "Tinyweb"}


def test_docs_builder_substitutions_read_as_the_docset_gives_them(tmp_path: Path) -> None:
    # `{{tw}}` is "Tinyweb" wherever the docset's subs give it; an unknown name stays as written, and a
    # code block keeps its text unless its fence says subs=true; a value is put in as data, never expanded
    docset = (
        "project: t\nsubs:\n  tw: Tinyweb\n  nested: '{{tw}} <b>bold</b>'\n  multi: |\n    two\n    lines\n"
        "toc:\n  - file: routing.md\n"
    )
    page = (
        "# Routing in {{tw}}\n\n{{ tw }} routes each request path; {{unknown}} and {{multi}} stay as they are.\n\n"
        "Then {{nested}} is shown as written.\n\n"
        "```sh\nbin/{{tw}} --help\n```\n\n```sh subs=true\nbin/{{tw}} --version\n```\n"
    )
    root = make_project(tmp_path / "tinyweb", {**PROJECT, "docs/docset.yml": docset, "docs/routing.md": page})
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, facts, linker)
    routing = next(c for c in docs.concepts if c.pages[0].path == "docs/routing.md")
    texts = [p.text for p in routing.pages[0].passages]
    assert routing.pages[0].title == "Routing in Tinyweb"
    assert "Tinyweb routes each request path; {{unknown}} and {{multi}} stay as they are." in texts
    assert "Then {{tw}} bold is shown as written." in texts  # not expanded again; the tags dropped as ever
    assert "bin/{{tw}} --help" in texts and "bin/Tinyweb --version" in texts


def test_a_docs_page_no_longer_in_force_is_listed_labelled_and_never_quoted(tmp_path: Path) -> None:
    from generator.site.pages.repo_guide import concept_line, concept_page

    obsolete = (
        "This document is obsolete.\nIt's kept here for future reference if needed.\n\n# Draft router design\n\n"
        "The router keeps a global table of routes that every handler mutates as it likes.\n"
    )
    deprecated = (
        "---\ntitle: Old hooks\ndeprecated: true\n---\n\nHooks run before every handler, in any order.\n"
    )
    files = {**PROJECT, "docs/routing/draft.md": obsolete, "docs/hooks.md": deprecated}
    root = make_project(tmp_path / "tinyweb", files)
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, facts, linker)
    concepts = {c.name: c for c in docs.concepts}
    routing = concepts["Routing"]
    draft = next(p for p in routing.pages if p.path == "docs/routing/draft.md")
    assert draft.standing == "obsolete" and draft.passages == ()
    quoted = " ".join(p.text for c in docs.concepts for page in c.pages for p in page.passages)
    assert "global table" not in quoted and "in any order" not in quoted
    page = concept_page(routing, "acme/tinyweb", linker)
    assert "draft.md) (obsolete)" in page.lead
    hooks = concepts["Old hooks"]
    assert [p.standing for p in hooks.pages] == ["deprecated"]
    assert "(deprecated)" in concept_line(3, hooks)
    assert "marks Old hooks as deprecated" in concept_page(hooks, "acme/tinyweb", linker).lead


def flat_guide(count: int) -> dict[str, str]:
    return {
        f"docs/guide/page{i:02d}.md": f"# Topic {i}\n\nTopic {i} explains one more part of the framework in words.\n"
        for i in range(count)
    }


def test_a_flat_docs_folder_is_grouped_by_the_sections_its_navigation_gives(tmp_path: Path) -> None:
    # docs-builder: a toc entry with children is a section; an mkdocs nav section likewise; a page in
    # none stands alone, as every page of a flat folder did before
    toc = (
        "toc:\n  - file: page00.md\n    children:\n      - file: page01.md\n      - file: page02.md\n"
        "  - file: page03.md\n  - file: page04.md\n    children:\n      - file: page05.md\n"
        "        children:\n          - file: page06.md\n"
    )
    docset = "project: t\ntoc:\n  - toc: guide\n"
    files = {**PROJECT, **flat_guide(14), "docs/docset.yml": docset, "docs/guide/toc.yml": toc}
    root = make_project(tmp_path / "toc", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    pages = {c.name: [p.path.rsplit("/", 1)[-1] for p in c.pages] for c in docs.concepts}
    assert pages["Topic 0"] == ["page00.md", "page01.md", "page02.md"]
    assert pages["Topic 3"] == ["page03.md"]
    assert pages["Topic 4"] == ["page04.md", "page05.md", "page06.md"]
    assert pages["Topic 7"] == ["page07.md"]
    nav = "nav:\n  - Home: index.md\n  - Basics:\n    - guide/page02.md\n    - guide/page03.md\n  - More:\n    - Deep: guide/page09.md\n    - guide/page10.md\n"
    files = {**PROJECT, **flat_guide(14), "mkdocs.yml": nav}
    root = make_project(tmp_path / "mkdocs", files)
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    pages = {c.name: [p.path.rsplit("/", 1)[-1] for p in c.pages] for c in docs.concepts}
    assert pages["Basics"] == ["page02.md", "page03.md"] and pages["More"] == ["page09.md", "page10.md"]
    assert pages["Topic 0"] == ["page00.md"]
    # a named section of more pages than a concept holds is a category ("Features"): one concept per page
    features = "".join(f"    - guide/page{i:02d}.md\n" for i in range(14))
    root = make_project(
        tmp_path / "features", {**PROJECT, **flat_guide(14), "mkdocs.yml": f"nav:\n  - Features:\n{features}"}
    )
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert sum(1 for c in docs.concepts if c.name.startswith("Topic")) == 14
    # pages at the docs root, under a parent page in docset.yml's own toc, join the parent's concept
    toc = "project: t\ntoc:\n  - file: dispatch.md\n    children:\n      - file: matching.md\n  - file: middleware.md\n"
    flat = {
        "docs/docset.yml": toc,
        "docs/dispatch.md": "# Dispatch\n\nThe router matches each request path against the routes it holds.\n",
        "docs/matching.md": "# Matching\n\nA pattern is a path with placeholders, matched segment by segment.\n",
    }
    root = make_project(tmp_path / "rootflat", {**PROJECT, **flat})
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    pages = {c.name: [p.path for p in c.pages] for c in docs.concepts}
    assert pages["Dispatch"] == ["docs/dispatch.md", "docs/matching.md"] and "Matching" not in pages
    # without a navigation, a flat folder of many pages is still one concept per page
    root = make_project(tmp_path / "flat", {**PROJECT, **flat_guide(14)})
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert sum(1 for c in docs.concepts if c.name.startswith("Topic")) == 14


def test_autodoc_lines_in_a_row_name_their_objects_each_quoted_once_where_they_stand(tmp_path: Path) -> None:
    """boltons' pages write `.. autoexception::` four lines in a row: one paragraph, "::: boltons.socketutils.Error
    ::: boltons.socketutils.Timeout …", quoted as words (and anyio's in its main flow's docs passage); and an
    object its own line names stood where the module documented whole above it lists it too."""
    files = {
        **PROJECT,
        "docs/timing.rst": (
            "Timing\n======\n\n.. automodule:: tinyweb.timing\n\n"
            "Measuring\n---------\n\nTimers measure how long a handler runs, in seconds of the clock.\n\n"
            ".. autofunction:: tinyweb.timing.elapsed\n.. autofunction:: tinyweb.timing.started\n"
        ),
        "tinyweb/timing.py": (
            '"""Timing."""\n\n\ndef elapsed(timer):\n    """Seconds since the timer started."""\n'
            '\n\ndef started(timer):\n    """When the timer started, in seconds of the clock."""\n'
        ),
    }
    root = make_project(tmp_path / "tinyweb", files)
    (page,) = {c.name: c for c in _docs_of(root).concepts}["Timing"].pages
    assert not any(":::" in p.text for p in page.passages)
    assert [p.heading for p in page.passages] == ["tinyweb.timing", "Measuring", "elapsed", "started"]


def test_a_page_that_documents_code_from_its_docstrings_shows_that_code(tmp_path: Path) -> None:
    """packaging's "Version Handling" page is an example and `.. automodule:: packaging.version`: the built
    docs show the module's classes there, deepkb showed no code at all (the directive was blanked). Sphinx's
    autodoc directives and mkdocstrings' `::: module.Object` name the page's code; a module documented whole
    gives its public definitions, read even when no subsystem holds its file. Never quoted as words."""
    files = {
        **PROJECT,
        "docs/timing.rst": (
            "Timing\n======\n\nTimers measure how long a handler runs, in seconds of the clock.\n\n"
            ".. automodule:: tinyweb.timing\n    :members:\n"
        ),
        "docs/middleware.md": (
            "# Middleware\n\nMiddleware wraps every handler; it runs before and after the handler.\n\n"
            "::: tinyweb.middleware.Middleware\n    options:\n      members: true\n\n"
            "## Ordering\n\nThe first middleware added runs outermost, around all of the others.\n"
        ),
        "docs/elapsed.md": "# Elapsed\n\n::: tinyweb.timing.elapsed\n",
        "docs/reference.md": "# API reference\n\n::: tinyweb.timing.elapsed\n",
        "tinyweb/timing.py": (
            '"""Timing."""\n\n\nclass Timer:\n    """Measures a handler."""\n\n    def stop(self):\n'
            '        """Stop it."""\n\n\ndef elapsed(timer):\n    """Seconds since the timer started."""\n'
            "\n\ndef _private():\n    return 1\n"
        ),
    }
    root = make_project(tmp_path / "tinyweb", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    concepts = {c.name: c for c in docs.concepts}
    assert [s.name for s in concepts["Timing"].symbols][:2] == ["Timer", "elapsed"]
    assert "_private" not in [s.name for s in concepts["Timing"].symbols]
    assert [s.name for s in concepts["Middleware"].symbols][:1] == ["Middleware"]
    quoted = [p.text for c in docs.concepts for page in c.pages for p in page.passages]
    assert not any(":::" in text or "automodule" in text or "options" in text for text in quoted)
    # a page that is only an object's docstring is listed by its code, not by the docstring's first sentence
    # (anyio's "API reference" read as its first object's summary) …
    from generator.site.pages.repo_guide import concept_line

    reference = concepts["API reference"]
    assert [p.text for page in reference.pages for p in page.passages] == ["Seconds since the timer started."]
    assert "Seconds since" not in concept_line(1, reference) and "`elapsed`" in concept_line(1, reference)
    # … unless the page is titled after that object: it is the object's page (dateutil's relativedelta.rst)
    assert "— Seconds since the timer started. · [`elapsed`](" in concept_line(1, concepts["Elapsed"])
    # the page quotes what the built docs show there: the documented code's docstrings, at their lines, in
    # the place of their marker
    (middleware,) = concepts["Middleware"].pages
    assert [(p.heading, p.path) for p in middleware.passages] == [
        ("Middleware", "docs/middleware.md"),
        ("Middleware", "tinyweb/middleware.py"),
        ("Ordering", "docs/middleware.md"),
    ]
    (timing,) = concepts["Timing"].pages
    assert [(p.heading, p.text, p.path, p.start) for p in timing.passages[1:]] == [
        (
            "tinyweb.timing",
            "Timing.",
            "tinyweb/timing.py",
            1,
        ),  # a module documented whole: its own words first
        ("Timer", "Measures a handler.", "tinyweb/timing.py", 5),
        ("elapsed", "Seconds since the timer started.", "tinyweb/timing.py", 12),
    ]


def test_project_docs_overview_examples_and_concepts(tmp_path: Path) -> None:
    root = make_project(tmp_path / "tinyweb", PROJECT)
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, facts, linker)
    overview = " ".join(p.text for p in docs.overview)
    assert "routes requests to handlers" in overview
    assert "sponsor" not in overview and "MIT" not in overview  # never sponsors or licence credits
    code = [p for p in docs.examples if p.kind == "code"]
    assert (
        code[0].text == "from tinyweb import App\n\napp = App()\napp.serve(8000)"
        and code[0].language == "python"
    )
    assert "App" in [s.name for s in docs.example_symbols]
    concepts = {c.name: c for c in docs.concepts}
    # routing/index.md states `sidebar_position: 2`, its folder's place: before a page stating none
    assert list(concepts) == ["Tinyweb", "Routing", "Middleware"]
    routing = concepts["Routing"]
    assert [p.path for p in routing.pages] == ["docs/routing/index.md", "docs/routing/patterns.rst"]
    cited = {s.name: s.citation.path for s in routing.symbols if s.citation}
    assert cited["Router"] == "tinyweb/routing/router.py" and "Router.add" in cited


def test_an_introduction_after_a_first_page_with_no_prose_is_the_docs_introduction(tmp_path: Path) -> None:
    # valtio's introduction.mdx is a title alone and its getting-started page says what valtio is; rich's
    # index.rst is a toctree before introduction.rst. A page not named as an introduction is no overview.
    files = {
        "README.md": "# tinystate\n\n## Usage\n\n```js\nconst s = proxy({})\n```\n",
        "docs/index.md": "# Tinystate\n",
        "docs/api.md": "# API\n\nEvery function of the API takes a proxy as its first argument.\n",
        "docs/introduction.md": (
            "# Tinystate\n\nTinystate turns the object you pass it into a proxy that tracks every change.\n"
        ),
    }
    root = make_project(tmp_path / "tinystate", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinystate")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [(p.path, p.text[:20]) for p in docs.overview] == [
        ("docs/introduction.md", "Tinystate turns the ")
    ]
    del files["docs/introduction.md"]
    root = make_project(tmp_path / "api-only", files)
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert docs.overview == ()


def test_guide_pages_quote_the_docs_with_permalinks_and_link_the_code(tmp_path: Path) -> None:
    root = make_project(tmp_path / "tinyweb", PROJECT)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    directory = result.study.harvest_dir
    revision = result.synthesis.revision
    _, index = read_page(directory / "index.md")
    assert "## Guide" in index and "(guide/getting-started.md)" in index
    assert re.search(r"\[Routing\]\(guide/\d\d_routing\.md\) — The `Router` matches", index)
    assert f"/blob/{revision}/README.md#L5)" in index  # the overview is the README's paragraph, cited
    # said once, cited: not also as the synthesis's uncited copy of the same README paragraph
    assert index.count("Tinyweb is a small web framework that routes requests") == 1
    started = read_page(directory / "guide" / "getting-started.md")[1]
    assert "```python\nfrom tinyweb import App\n\napp = App()\napp.serve(8000)\n```" in started
    routing_page = next((directory / "guide").glob("*_routing.md"))
    body = read_page(routing_page)[1]
    assert "```python\nrouter = Router()" in body
    assert f"/blob/{revision}/docs/routing/index.md#L" in body  # passages link to the doc file's lines
    assert f"/blob/{revision}/tinyweb/routing/router.py#L4-" in body  # the code the docs name
    # a class the docs name shows its main methods under it, each linked to its lines
    add = f"/blob/{revision}/tinyweb/routing/router.py#L7-L9) — Add a route."
    assert f"\n    - [`add`](https://github.com/acme/shop{add}" in body
    assert "<script>" not in body  # docs text is data: escaped, never raw HTML


def test_a_concept_explains_the_subsystems_defining_the_code_it_is_about() -> None:
    """A page naming two symbols of a subsystem explains it; one naming one symbol does only when it names
    hardly anything else (ky's FAQ, naming a dozen symbols across the code, was the one guide page its core
    subsystem led to)."""
    from generator.repo.docs.model import DocConcept
    from generator.repo.model import CitedSymbol, Shard, ShardAnalysis
    from generator.repo.synthesize.doc_links import shard_concepts

    def concept(name: str, *symbols: tuple[str, str]) -> DocConcept:
        return DocConcept(name, name.lower(), (), tuple(CitedSymbol(n, "class", p) for n, p in symbols))

    core = ShardAnalysis(1, Shard("Core", ("core.py",)), "01_core", "")
    hooks = ShardAnalysis(2, Shard("Hooks", ("hooks.py", "retry.py")), "02_hooks", "")
    errors = ShardAnalysis(3, Shard("Errors", ("errors.py",)), "03_errors", "")
    concepts = [
        concept(
            "FAQ", ("Ky", "core.py"), ("Hook", "hooks.py"), ("HTTPError", "errors.py"), ("Other", "x.py")
        ),
        concept("Hooks", ("Hook", "hooks.py"), ("run_hooks", "hooks.py"), ("Ky", "core.py")),
        concept("Instances", ("Ky", "core.py")),
        concept("Retry", ("retry", "retry.py"), ("Ky", "core.py")),
    ]
    # the FAQ names one symbol of each: it explains none of them; Hooks explains Hooks (two of its symbols)
    # and not Core; Instances is about Core alone; Retry about `retry`, its name, not the `Ky` it calls
    assert shard_concepts(concepts, [core, hooks, errors]) == {2: [2, 4], 1: [3]}
    # a migration guide names the old API and the new: after the pages saying how the part works
    upgrading = concept(
        "Upgrading to 2.0", ("Hook", "hooks.py"), ("run_hooks", "hooks.py"), ("retry", "retry.py")
    )
    assert shard_concepts([*concepts, upgrading], [core, hooks, errors])[2] == [2, 4, 5]


def test_a_concept_explains_the_subsystem_holding_what_its_title_names_not_what_its_examples_call() -> None:
    """huma's Response Errors names `ErrorModel`, `StatusError` … (error.go, in no subsystem) and the
    `humachi.New` its example starts with: "The subsystem that does it: Adapters" was wrong. Its Middleware
    page names `Middlewares` (chain.go) once, three symbols of the API and two adapters' `New`: it is about
    the first, explained by the second, and the adapters are only what its examples start."""
    from generator.repo.docs.model import DocConcept
    from generator.repo.model import CitedSymbol, Shard, ShardAnalysis
    from generator.repo.synthesize.doc_links import shard_concepts

    def concept(name: str, *symbols: tuple[str, str]) -> DocConcept:
        return DocConcept(name, name.lower(), (), tuple(CitedSymbol(n, "type", p) for n, p in symbols))

    api = ShardAnalysis(1, Shard("API", ("api.go",)), "01_api", "")
    adapters = ShardAnalysis(
        2,
        Shard("Adapters", ("adapters/humachi/humachi.go", "adapters/humafiber/humafiber.go")),
        "02_adapters",
        "",
    )
    core = ShardAnalysis(3, Shard("Huma", ("chain.go", "huma.go")), "03_huma", "")
    errors = concept(
        "Response Errors",
        *((name, "error.go") for name in ("ErrorModel", "ErrorDetail", "StatusError", "HeadersError")),
        ("New", "adapters/humachi/humachi.go"),
    )
    middleware = concept(
        "Middleware",
        ("Middlewares", "chain.go"),
        ("New", "adapters/humafiber/humafiber.go"),
        ("New", "adapters/humachi/humachi.go"),
        ("Context", "api.go"),
        ("API", "api.go"),
        ("NewAPI", "api.go"),
        ("Get", "huma.go"),
    )
    assert shard_concepts([errors, middleware], [api, adapters, core]) == {1: [2], 3: [2]}
    # a page about a subsystem's code leads there however many pages name more of it (three of those stay)
    crowded = [
        concept(f"Page {i}", ("Get", "huma.go"), ("Put", "huma.go"), ("Head", "huma.go")) for i in range(3)
    ]
    assert shard_concepts([*crowded, middleware], [api, adapters, core])[3] == [4, 1, 2, 3]


def test_subsystem_pages_lead_to_the_guide_pages_explaining_them_and_back(tmp_path: Path) -> None:
    """tablib's Formats subsystem never said that docs/formats.rst explains it, nor did that guide page say
    which subsystem does it: a concept explains the subsystems that define the code it names."""
    root = make_project(tmp_path / "tinyweb", PROJECT)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    directory = result.study.harvest_dir
    router = next(a for a in result.synthesis.landed if "tinyweb/routing/router.py" in a.shard.files)
    shard = read_page(directory / "shards" / f"{router.slug}.md")[1]
    docs = shard.split("## In the project's docs", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"- \[Routing\]\(\.\./guide/\d\d_routing\.md\) — The `Router` matches", docs)
    # a page naming none of its code is not about it
    assert (directory / "guide" / "01_tinyweb.md").exists() and "(../guide/01_tinyweb.md)" not in docs
    routing = read_page(next((directory / "guide").glob("*_routing.md")))[1]
    assert f"does it: [{router.shard.name}](../shards/{router.slug}.md)." in routing


def test_the_maintainers_development_page_is_no_guide_page(tmp_path: Path) -> None:
    """tablib's and diskcache's docs/development.rst (how to send a pull request and run the test suite) and
    dynaconf's development/maintainers-manual.md were guide pages; a users' page on the development server
    stays one."""
    files = {
        "README.md": "# tinyweb\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/index.md": "# Tinyweb\n\nTinyweb routes requests to handlers, in the order they were added.\n",
        "docs/development.rst": (
            "Development\n===========\n\nTinyweb is under active development, and contributors are welcome. "
            "Send a pull request on GitHub.\n\nRun the test suite with tox before you do.\n"
        ),
        "docs/server/development.md": "# Development server\n\nRun `tinyweb serve` to reload on every change.\n",
        "docs/project/maintainers-manual.md": "# Maintainers Manual\n\nSee RELEASING.md at the root.\n",
        "tinyweb/__init__.py": '"""Tinyweb."""\n',
    }
    root = make_project(tmp_path / "tinyweb", files)
    docs = _docs_of(root)
    pages = {page.path for concept in docs.concepts for page in concept.pages}
    assert pages == {"docs/index.md", "docs/server/development.md"}


def test_a_sphinx_source_folder_beside_other_docs_is_the_manual_a_concept_per_page(tmp_path: Path) -> None:
    """omegaconf's docs/source/ (index.rst's toctree: usage, custom resolvers, grammar …) stands beside
    docs/design/: the folder was one concept, "OmegaConf", of the whole manual, and no part of it was
    linked to the code doing it. A folder named `source` holds the manual; each page is a concept."""
    sections = "".join(
        f"Part {i}\n-------\n\nPart {i} of using tinyweb explains one more step.\n\n" for i in range(6)
    )
    files = {
        "README.md": "# tinyweb\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/source/conf.py": "project = 'tinyweb'\n",
        "docs/source/index.rst": (
            "Tinyweb\n=======\n\nTinyweb routes requests to handlers, in the order they were added.\n\n"
            ".. toctree::\n\n   usage\n   resolvers\n   grammar\n"
        ),
        "docs/source/usage.rst": "Usage\n=====\n\n" + sections,
        "docs/source/resolvers.rst": "Resolvers\n=========\n\nA `Resolver` turns a name into its handler.\n",
        "docs/source/grammar.rst": "Grammar\n=======\n\nThe route grammar allows `{name}` placeholders.\n",
        "docs/design/routing-table.md": "# Routing table\n\nA design note: the router keeps one table per method.\n",
        "tinyweb/__init__.py": '"""Tinyweb."""\n',
    }
    root = make_project(tmp_path / "tinyweb", files)
    concepts = {c.name: [p.path for p in c.pages] for c in _docs_of(root).concepts}
    assert concepts["Usage"] == ["docs/source/usage.rst"]
    assert concepts["Resolvers"] == ["docs/source/resolvers.rst"]
    assert concepts["Grammar"] == ["docs/source/grammar.rst"]


def test_a_template_to_copy_is_no_guide_page(tmp_path: Path) -> None:
    """omegaconf's docs/design/TEMPLATE.md (front matter "status: Draft", "# Title", "Summarize the change")
    was a concept of its own, "Title (draft)", among the design notes; a page about templates stays one."""
    files = {
        "README.md": "# tinyweb\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/index.md": "# Tinyweb\n\nTinyweb routes requests to handlers, in the order they were added.\n",
        "docs/templates.md": "# Templates\n\nTinyweb renders a handler's templates with the context it returns.\n",
        "docs/design/TEMPLATE.md": (
            "---\nstatus: Draft\n---\n\n# Title\n\n## Summary\n\nSummarize the change and intended outcome.\n"
        ),
        "docs/design/routing-table.md": "# Routing table\n\nA design note: the router keeps one table per method.\n",
        "tinyweb/__init__.py": '"""Tinyweb."""\n',
    }
    root = make_project(tmp_path / "tinyweb", files)
    pages = {page.path for concept in _docs_of(root).concepts for page in concept.pages}
    assert pages == {"docs/index.md", "docs/templates.md", "docs/design/routing-table.md"}


def test_a_docs_page_that_only_shows_the_readme_is_no_guide_page(tmp_path: Path) -> None:
    """diskcache's docs/index.rst is `.. include:: ../README.rst` and a toctree: its guide page, titled
    "index", repeated the README the overview and Getting started already read. A page with text of its own
    around the README stays one."""
    files = {
        "README.rst": "tinyweb\n=======\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/index.rst": ".. include:: ../README.rst\n\n.. toctree::\n   :hidden:\n\n   routing\n",
        "docs/guide.rst": "User Guide\n==========\n\n.. include:: ../README.rst\n\nGet the source\n--------------\n\nClone it.\n",
        "docs/routing.rst": "Routing\n=======\n\nThe `Router` matches each path to its handler in order.\n",
        "tinyweb/__init__.py": '"""Tinyweb."""\n',
    }
    root = make_project(tmp_path / "tinyweb", files)
    docs = _docs_of(root)
    pages = [page.path for concept in docs.concepts for page in concept.pages]
    assert "docs/index.rst" not in pages and {"docs/guide.rst", "docs/routing.rst"} <= set(pages)


def test_an_index_adding_only_its_contents_and_sphinx_s_indices_to_the_readme_is_no_guide_page(
    tmp_path: Path,
) -> None:
    """bleach's and vcrpy's docs/index.rst: the README included, a "Contents" toctree and sphinx-quickstart's
    "Indices and tables" (genindex, search) — their guide opened with a page titled "index" repeating the
    overview."""
    index = (
        ".. include:: ../README.rst\n\nContents\n========\n\n.. toctree::\n   :maxdepth: 2\n\n   routing\n\n"
        "Indices and tables\n==================\n\n* :ref:`genindex`\n* :ref:`modindex`\n* :ref:`search`\n"
    )
    files = {
        "README.rst": "tinyweb\n=======\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/index.rst": index,
        "docs/routing.rst": "Routing\n=======\n\nThe `Router` matches each path to its handler in order.\n",
        "tinyweb/__init__.py": '"""Tinyweb."""\n',
    }
    root = make_project(tmp_path / "tinyweb", files)
    docs = _docs_of(root)
    assert [page.path for concept in docs.concepts for page in concept.pages] == ["docs/routing.rst"]
    # … and the README it shows still introduces the docs: vcrpy's overview had its Rationale from it
    shown = make_project(tmp_path / "shown", {**files, "README.rst": RATIONALE})
    assert "The ability to work offline" in [p.text for p in _docs_of(shown).overview]


RATIONALE = (
    "tinyvcr\n=======\n\nThis is a Python version of a record-and-replay library.\n\n"
    "Rationale\n---------\n\nTinyvcr records the HTTP requests a test makes and replays them later, which gives:\n\n"
    "-  The ability to work offline\n-  Completely deterministic tests\n-  Increased test execution speed\n"
)


def test_docs_name_the_code_of_a_package_whose_name_ends_in_a_folder_kind(tmp_path: Path) -> None:
    """apispec's package is src/apispec/, pytest's src/_pytest/, mkdocs' mkdocs/: read as a `spec/`, `test/` or
    `docs/` folder, none of their code was ever named by their docs (no guide page linked a symbol, and the
    reference pages were empty), while `unit-tests/` and `IntegrationTests/` are still tests."""
    files = {
        "README.md": "# tinyspec\n\nTinyspec writes API specifications from the code of an application.\n",
        "docs/quickstart.md": "# Quickstart\n\nCreate an `APISpec` first, then call `APISpec.path` for each view.\n",
        "src/apispec/__init__.py": '"""Tinyspec."""\n\nfrom .core import APISpec\n',
        "src/apispec/core.py": (
            '"""The spec."""\n\n\nclass APISpec:\n    """An API specification."""\n\n'
            '    def path(self, view):\n        """Add the path of `view`."""\n        return view\n'
        ),
        "src/unit-tests/core.py": 'class APISpec:\n    """A test double."""\n',
        "src/IntegrationTests/core.py": 'class APISpec:\n    """Another test double."""\n',
    }
    root = make_project(tmp_path / "tinyspec", files)
    docs = _docs_of(root)
    named = {(s.name, s.path) for c in docs.concepts for s in c.symbols}
    assert ("APISpec", "src/apispec/core.py") in named and ("APISpec.path", "src/apispec/core.py") in named


def test_doc_answer_quotes_the_section_that_answers_from_where_it_begins(tmp_path: Path) -> None:
    root = make_project(tmp_path / "tinyweb", PROJECT)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    steps = doc_answer(docs, "How is a route added to the router?")
    assert steps[0].path == "docs/routing/index.md"
    assert steps[0].text.startswith("The `Router` matches each request path")  # the section's start
    assert any(p.kind == "code" and p.text.startswith("router = Router()") for p in steps)
    assert doc_answer(docs, "How are thumbnails resized?") == ()  # nothing in the docs answers it


def test_answer_page_answers_in_the_docs_words_before_the_code(tmp_path: Path) -> None:
    root = make_project(tmp_path / "tinyweb", PROJECT)
    paths, config, provider = offline_setup(tmp_path / "kb")
    question = "How is a route added to the router?"
    result = run_repo_research(
        paths,
        config,
        provider,
        repo_target(paths, config, str(root), requests=question),
        publish=publish_repo,
    )
    page = next((result.study.harvest_dir / "answers").glob("*.md"))
    body = read_page(page)[1]
    revision = result.synthesis.revision
    docs_at = body.index("The `Router` matches each request path")
    assert f"/blob/{revision}/docs/routing/index.md#L" in body[docs_at:]  # each step cited
    assert docs_at < body.index("Starts at **")  # the code's answer, from where its process begins
    files = body.split("## Files that answer it", 1)[1].split("\n## ", 1)[0]
    assert f"/blob/{revision}/tinyweb/" in files and "#L" not in files  # a file is linked whole, as on guides
    if "How the files were found" in body:  # the retrieval trace comes last, folded
        assert '??? note "How the files were found"' in body
        assert body.index("How the files were found") > body.index("Starts at **")


def test_process_sections_are_skipped_but_features_named_like_them_are_kept() -> None:
    text = (
        "# Confirmation Mode and Security Analyzers\n\nThe security analyzers rate each action's risk before it runs.\n\n"
        "## Security\n\nReport vulnerabilities privately to the maintainers by email please.\n"
    )
    quoted = [p.text for p in passages(read_text(text, name="docs/confirmation.md"))]
    assert quoted == ["The security analyzers rate each action's risk before it runs."]
    # credits under another name: javalin's, vue-router's and x64dbg's "Special thanks", trpc's "shout-outs"
    thanks = "# T\n\nTinyweb routes each request to the handler of its path.\n\n## Special thanks\n\nTo the people who gave us a hand.\n"
    assert [p.text for p in passages(read_text(thanks, name="README.md"))] == [
        "Tinyweb routes each request to the handler of its path."
    ]
    # contributing by another name: voluptuous' "Contribution to Documentation" (a README concept of its own),
    # Kotlin KEEP's "Contributing to existing KEEPs", fiber's "Code Contributors"
    for heading in (
        "Contribution to Documentation",
        "Contributing to existing KEEPs",
        "💻 Code Contributors",
    ):
        text = f"# T\n\nTinyweb routes each request to the handler of its path.\n\n## {heading}\n\nThe documentation is built with Sphinx from the docs folder.\n"
        assert [p.text for p in passages(read_text(text, name="README.md"))] == [
            "Tinyweb routes each request to the handler of its path."
        ]


def test_other_languages_copies_and_deep_sections_of_many_pages(tmp_path: Path) -> None:
    pages = {
        f"docs/guide/syntax/{n:02d}-page.md": f"# Page {n}\n\nPage {n} explains one part of the syntax.\n"
        for n in range(14)
    }
    root = make_project(
        tmp_path / "tinyweb", {**PROJECT, **pages, "README_JA.md": "# 日本語\n\n日本語の説明です。\n"}
    )
    repo_map = map_repository(root)
    assert "README_JA.md" not in doc_files(repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    names = [c.name for c in docs.concepts]
    assert [f"Page {n}" for n in range(14)] == [n for n in names if n.startswith("Page ")]  # none cut off


def test_a_folder_whose_index_page_is_called_overview_is_named_by_the_folder(tmp_path: Path) -> None:
    pages = {
        "docs/runtimes/overview.md": "# Overview\n\nA runtime is where the agent's commands run, one per session.\n",
        "docs/runtimes/docker.md": "# Docker\n\nThe Docker runtime runs each session in its own container.\n",
    }
    root = make_project(tmp_path / "tinyweb", {**PROJECT, **pages})
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert "Runtimes" in [c.name for c in docs.concepts] and "Overview" not in [c.name for c in docs.concepts]


def test_the_overview_skips_a_paragraph_that_opens_as_one_already_quoted(tmp_path: Path) -> None:
    """A README and the docs' introduction often open with the same sentence: the overview says it once."""
    opening = "Tinyweb is a small web framework that routes requests to handlers and runs middleware."
    project = {
        **PROJECT,
        "README.md": f"# tinyweb\n\n{opening} It is tiny.\n",
        "docs/index.md": f"# Tinyweb\n\n{opening} It is made of an application object and a router.\n",
    }
    root = make_project(tmp_path / "tinyweb", project)
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, facts, linker)
    assert [p.path for p in docs.overview] == ["README.md"]


def test_the_synthesis_overview_is_not_said_again_when_the_cited_opening_says_it_with_code_spans() -> None:
    """jsonschema's README opens "``jsonschema`` is an implementation of …": the cited copy keeps the code
    span, the synthesis's plain copy has none; the index says it once."""
    said = "jsonschema is an implementation of the JSON Schema specification for Python."
    quoted = DocPassage(
        "README.rst",
        32,
        32,
        "paragraph",
        "`jsonschema` is an implementation of the JSON Schema specification for Python.",
    )
    docs = ProjectDocs(root="docs", files=1, overview=(quoted,))
    assert not _overview_adds(said, docs)
    assert _overview_adds("jsonschema validates JSON documents against schemas in Python.", docs)


def test_the_short_answer_to_a_question_is_quoted() -> None:
    """FAQs answer in a few words (jest's "Yes, as well as with any other test.", Temporal's "No.", json's
    "Yes, see Parsing and exceptions."): the answer to a question in a heading or a paragraph is quoted
    however short; a short line after anything else is not."""
    document = read_text(
        "# FAQ\n\n## Does code coverage work with snapshot testing?\n\nYes, as well as with any other test.\n\n"
        "## Exceptions\n\nIs it possible to indicate a parse error without throwing an exception?\n\n"
        "Yes, see Parsing.\n\n## Numbers\n\nNumbers are stored as doubles unless they are integers.\n\nSee above.\n",
        name="docs/faq.md",
        origin="docs/faq.md",
    )
    assert [p.text for p in passages(document)] == [
        "Yes, as well as with any other test.",
        "Is it possible to indicate a parse error without throwing an exception?",
        "Yes, see Parsing.",
        "Numbers are stored as doubles unless they are integers.",
    ]


def _reference_project(entries: int) -> dict[str, str]:
    api = {
        f"docs/api/fn{n:02}.md": (
            f"# fn{n:02}\n\n```js\nfn{n:02}(x)\n```\n\nReturns the value of x run through step {n} of the pipeline.\n\n"
            "## Parameters\n\n- x: the number to put through the step, any finite value\n"
        )
        for n in range(entries)
    }
    return {
        "README.md": "# calc\n\nCalc is a small library of numeric steps that run one after another.\n",
        "docs/index.md": "# Calc\n\nCalc runs numeric steps one after another, each a function of its own.\n",
        "docs/guide/intro.md": "# Introduction\n\nEach step is a plain function; a pipeline calls them in order.\n",
        "calc/__init__.py": '"""Calc."""\n\n\ndef fn00(x):\n    """Step zero."""\n    return x\n',
        **api,
    }


def test_a_reference_too_long_for_the_guide_is_one_concept_of_its_entries_openings(tmp_path: Path) -> None:
    """nlohmann/json's API reference (a page per function) was cut after "diff" at the guide's 40 concepts:
    a folder whose pages past the cut number REFERENCE_PAGES or more is one concept, each page its opening;
    a few pages past the cut make the folder one concept again, every page whole (none left out)."""
    from generator.repo.docs.concept import MAX_CONCEPTS
    from generator.repo.docs.folder_concepts import REFERENCE_PAGES

    def concepts(entries: int) -> list[tuple[str, int, list[str]]]:
        root = make_project(tmp_path / str(entries), _reference_project(entries))
        repo_map = map_repository(root)
        linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/calc")
        docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
        return [(c.name, len(c.pages), [p.text for p in c.pages[-1].passages]) for c in docs.concepts]

    folded = concepts(MAX_CONCEPTS + REFERENCE_PAGES + 10)
    entries = MAX_CONCEPTS + REFERENCE_PAGES + 10
    assert [(name, pages) for name, pages, _ in folded] == [
        ("Calc", 1),
        ("Api", entries),
        ("Introduction", 1),
    ]
    last = entries - 1  # each entry quotes its opening section: the signature and what it does
    assert folded[1][2] == [
        f"fn{last}(x)",
        f"Returns the value of x run through step {last} of the pipeline.",
    ]
    # two entries past the cut: the folder divided into a concept a page is one again, every entry whole
    whole = concepts(MAX_CONCEPTS + 2)
    assert [(name, pages) for name, pages, _ in whole] == [
        ("Calc", 1),
        ("Api", MAX_CONCEPTS + 2),
        ("Introduction", 1),
    ]
    assert whole[1][2] == [
        f"fn{MAX_CONCEPTS + 1}(x)",
        f"Returns the value of x run through step {MAX_CONCEPTS + 1} of the pipeline.",
        "x: the number to put through the step, any finite value",
    ]


def _guide_page(name: str) -> str:
    """A doc page that is a guide of its own: six sections, each saying something."""
    return f"# {name}\n\n" + "".join(
        f"## Part {n}\n\nThe {name} guide explains part {n} of its subject in a sentence of its own.\n\n"
        for n in range(6)
    )


def _guide_concepts(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int]]:
    files = {
        "README.md": "# calc\n\nCalc is a small library of numeric steps that run one after another.\n",
        "docs/index.md": "# Calc\n\nCalc runs numeric steps one after another, each a function of its own.\n",
        "calc/__init__.py": '"""Calc."""\n\n\ndef fn00(x):\n    """Step zero."""\n    return x\n',
        **files,
    }
    root = make_project(tmp_path, files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/calc")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    return [(c.name, len(c.pages)) for c in docs.concepts]


def test_sections_divided_past_the_guides_cut_are_whole_again_not_left_out(tmp_path: Path) -> None:
    """piccolo's query types and query clauses, divided into a concept a page, pushed its serialization,
    testing and API reference sections past the guide's 40 concepts, on no page: a section divided into
    pieces is one concept again, all its pages, while the guide would otherwise leave sections out."""
    from generator.repo.docs.concept import MAX_CONCEPTS

    clauses = {
        f"docs/clauses/c{n:02}.md": f"# Clause {n:02}\n\nClause {n:02} narrows what a query returns in one way.\n"
        for n in range(14)
    }
    sections = {
        f"docs/s{n:02}/index.md": f"# Section {n:02}\n\nSection {n:02} explains one more part of the library.\n"
        for n in range(MAX_CONCEPTS - 10)
    }
    concepts = _guide_concepts(tmp_path, {**clauses, **sections})
    assert ("Clauses", 14) in concepts  # one concept of all its pages, in the place of its first
    assert [name for name, _ in concepts if name.startswith("Section")] == [
        f"Section {n:02}" for n in range(MAX_CONCEPTS - 10)
    ]


def test_a_reference_before_the_cut_is_folded_and_the_guides_after_it_stay_whole(tmp_path: Path) -> None:
    """x64dbg's one-line arithmetic commands filled the guide's concepts before its breakpoint commands, and
    mermaid's one-paragraph config functions stood before its diagram syntax guides, which were folded to
    their openings: the folder of short entries is folded wherever it stands, the guides stay concepts."""
    from generator.repo.docs.concept import MAX_CONCEPTS

    entries = {
        f"docs/api/fn{n:02}.md": f"# fn{n:02}\n\nReturns x run through step {n} of the pipeline.\n"
        for n in range(20)
    }
    guides = {f"docs/guides/g{n:02}.md": _guide_page(f"g{n:02}") for n in range(MAX_CONCEPTS - 1)}
    concepts = _guide_concepts(tmp_path, {**entries, **guides})
    assert ("Api", 20) in concepts
    assert [name for name, _ in concepts if name.startswith("g")] == [
        f"g{n:02}" for n in range(MAX_CONCEPTS - 1)
    ]


def test_guides_too_many_for_the_guide_fold_only_those_past_the_cut(tmp_path: Path) -> None:
    """material-components-android's 45 component guides, past the 40 concepts with its theming guides,
    were all folded to their opening paragraphs: the folder's stubs fold first, then its last pages, as many
    as the guide is over; the other guides stay concepts of their own."""
    from generator.repo.docs.concept import MAX_CONCEPTS
    from generator.repo.docs.folder_concepts import REFERENCE_PAGES

    count = MAX_CONCEPTS + REFERENCE_PAGES
    stubs = {
        f"docs/components/a{n}.md": f"# Stub {n}\n\nThis component is yet to be completed.\n"
        for n in range(3)
    }
    guides = {f"docs/components/c{n:02}.md": _guide_page(f"c{n:02}") for n in range(count)}
    concepts = _guide_concepts(tmp_path, {**stubs, **guides})
    assert [name for name, _ in concepts if name.startswith("Stub")] == []
    whole = [name for name, pages in concepts if name.startswith("c") and pages == 1]
    assert whole == [f"c{n:02}" for n in range(MAX_CONCEPTS - 1)]  # the docs' index page is the 40th
    assert ("Components", len(stubs) + count - (MAX_CONCEPTS - 1)) in concepts


def test_the_readmes_short_opening_tagline_opens_the_overview_cited() -> None:
    """node-fetch's README says what it is in one short line under its logo; the overview quotes it, cited,
    before the longer paragraphs (a short line further down still says too little)."""
    readme = read_text(
        '<div align="center">\n  <img src="logo.svg">\n  <h1>Node Fetch</h1>\n'
        "  <p>A light-weight module that brings Fetch API to Node.js.</p>\n</div>\n\n"
        "## Motivation\n\nInstead of implementing XMLHttpRequest in Node.js to run a browser polyfill, why not go "
        "from native http to the fetch API directly?\n\nIt is small and it is fast, really.\n",
        name="README.md",
        origin="README.md",
    )
    assert [(p.start, p.text) for p in overview(readme, [])] == [
        (4, "A light-weight module that brings Fetch API to Node.js."),
        (
            9,
            "Instead of implementing XMLHttpRequest in Node.js to run a browser polyfill, why not go from native "
            "http to the fetch API directly?",
        ),
    ]


def test_the_readmes_unpunctuated_opening_statement_is_its_overview_but_a_row_of_links_is_not() -> None:
    """axios, Chart.js and date-fns say what they are in one line under the logo without a full stop; the
    overview had been empty. A row of links or badges in the same place is no statement."""
    readme = read_text(
        "[![npm](https://img.shields.io/npm/v/tinydate.svg)](https://npm.im/tinydate)\n\n"
        "Deutsch | Español | français | 日本語\n\n"
        "tinydate provides a simple and consistent toolset for manipulating dates in a browser & Node.js\n\n"
        "```js\nformat(new Date(), 'yyyy')\n```\n",
        name="README.md",
        origin="README.md",
    )
    assert [(p.start, p.text) for p in overview(readme, [])] == [
        (5, "tinydate provides a simple and consistent toolset for manipulating dates in a browser & Node.js")
    ]


def test_the_first_usage_example_is_shown_whole_though_long_and_ends_the_overview() -> None:
    """grape's, bull's and transitions' READMEs teach with one example of 64–74 lines under "Basic Usage" or
    "Quickstart": Getting started opened on a later two-line snippet instead, and the overview read on past
    it into the sections that follow."""
    body = "\n".join(f"    get :route{n} do\n      {{ n: {n} }}\n    end" for n in range(24))
    readme = read_text(
        "# tinyapi\n\nTinyapi is a REST-like API framework for Ruby with a small DSL.\n\n"
        "## Basic Usage\n\nAn API is a class that subclasses `Tinyapi::API`:\n\n"
        f"```ruby\nclass API < Tinyapi::API\n{body}\nend\n```\n\n"
        "## Mounting\n\nBy default tinyapi compiles the routes on the first request, but you can pre-load them.\n\n"
        "```ruby\nAPI.compile!\n```\n\n## Later\n\n```ruby\n" + "x = 1\n" * 70 + "```\n",
        name="README.md",
        origin="README.md",
    )
    code = [p for p in usage_examples([readme]) if p.kind == "code"]
    assert [(p.heading, p.text.count("\n") + 1) for p in code] == [("Basic Usage", 74), ("Mounting", 1)]
    assert [p.start for p in overview(readme, [])] == [3]


def test_a_guide_entry_keeps_a_lower_case_product_name() -> None:
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import concept_line

    said = DocPassage(
        "docs/index.md", 3, 3, "paragraph", "deepkb turns research into a knowledge base. It is fast."
    )
    concept = DocConcept("Overview", "overview", (DocPage("docs/index.md", "Overview", (said,)),))
    line = concept_line(1, concept)
    assert "— deepkb turns research into a knowledge base." in line and "Deepkb" not in line


def test_a_guide_entry_of_a_page_opening_with_a_lead_in_is_that_lead_in_as_a_statement() -> None:
    """minijinja's "The Environment is the central configuration object:" and python-tabulate's "The module
    provides just one function …:" open their pages over an example: the guide listed those pages with no
    words at all. Said as a statement, the lead-in tells the page; one pointing ahead ("from the following
    json:"), left hanging ("… implemented are:"), a step's purpose ("To install …:") or too short stays out."""
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import concept_line

    def line(*texts: str) -> str:
        said = tuple(DocPassage("docs/env.md", 3 + i, 3 + i, "paragraph", t) for i, t in enumerate(texts))
        return concept_line(
            1, DocConcept("Environment", "environment", (DocPage("docs/env.md", "Env", said),))
        )

    assert line("The Environment is the central configuration object:").endswith(
        "— The Environment is the central configuration object."
    )
    for hanging in (
        "Suppose you want all the last names from the following json:",
        "The collection types and key features currently implemented are:",
        "To install the latest version from the PyPI:",
        "The modules we will use:",
    ):
        assert " — " not in line(hanging), hanging
    # a sentence of its own further on still comes first
    assert line("The Environment holds templates:", "Each program creates one at its start.").endswith(
        "— Each program creates one at its start."
    )


def test_an_api_page_opening_by_contrast_is_told_by_the_paragraph_naming_it() -> None:
    """reselect's `weakMapMemoize` page opens on another memoizer ("lruMemoize has to be explicitly
    configured to have a cache size larger than 1 …") and says what weakMapMemoize does next: the guide
    described weakMapMemoize by lruMemoize's limit. A page whose first paragraph never names it is told by
    the paragraph opening on its name; a subjectless first paragraph with no such paragraph, or a page
    titled by a plain word, keeps its opening."""
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import concept_line

    def line(title: str, *texts: str) -> str:
        said = tuple(DocPassage("docs/api.md", 3 + i, 3 + i, "paragraph", t) for i, t in enumerate(texts))
        return concept_line(1, DocConcept(title, "api", (DocPage("docs/api.md", title, said),)))

    contrast = "The LRU memoizer has to be configured to keep more than one result, and evicts the oldest."
    own = "`weakMapMemoize` keeps a tree of WeakMap-based cache nodes keyed by the arguments."
    assert line("weakMapMemoize", contrast, own).endswith(
        "— `weakMapMemoize` keeps a tree of WeakMap-based cache nodes keyed by the arguments."
    )
    assert line("`weakMapMemoize`", contrast, own).endswith("keyed by the arguments.")
    # named in the first paragraph already, or no paragraph opening with the name: the opening stays
    named = "Unlike `weakMapMemoize`, the LRU memoizer keeps a bounded cache."
    assert line("weakMapMemoize", named, own).endswith("— " + named)
    subjectless = "Accepts input selectors and a result function, and returns a memoized selector."
    later = "The selectors created by `createSelector` have extra fields."
    assert line("createSelector", subjectless, later).endswith("— " + subjectless)
    # a plain word opens many paragraphs without being their subject
    assert line("Usage", contrast, "Usage of the cache is free of charge.").endswith("— " + contrast)


def test_a_faq_pages_guide_entry_is_its_questions_never_its_first_answer() -> None:
    """guzzle's FAQ was listed as "FAQ — No." and knex's by its answer on debugging: a reader's question
    answered is not what a page is about; a page saying nothing else is told by its first questions."""
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import concept_line

    def answer(at: int, heading: str, text: str) -> DocPassage:
        return DocPassage("docs/faq.rst", at, at, "paragraph", text, heading)

    faq = (
        answer(5, "Does it require cURL?", "No. It can use any HTTP handler that sends requests."),
        answer(9, "How do I debug?", "Set the debug option to true and every request is printed."),
        answer(12, "Can it send asynchronous requests?", "Yes. Every method has an async twin."),
        answer(15, "Why am I getting an SSL error?", "Your certificate bundle is out of date or missing."),
    )
    line = concept_line(1, DocConcept("FAQ", "faq", (DocPage("docs/faq.rst", "FAQ", faq),)))
    assert line.endswith("— Does it require cURL? How do I debug? Can it send asynchronous requests?")
    intro = answer(2, "", "These questions come up again and again on the tracker.")
    line = concept_line(1, DocConcept("FAQ", "faq", (DocPage("docs/faq.rst", "FAQ", (intro, *faq)),)))
    assert line.endswith("— These questions come up again and again on the tracker.")


def test_getting_started_leaves_out_benchmark_results_and_the_machine_they_ran_on() -> None:
    """fasthttp's Getting started opened on `go test -bench` output under "HTTP server performance comparison
    with net/http", gnet's on the hardware listing of "Benchmarks on TechEmpower": neither uses the project."""
    from generator.repo.docs.usage import usage_examples

    readme = read_text(
        "# fastnet\n\n## HTTP server performance comparison with net/http\n\n"
        "```\n$ GOMAXPROCS=1 go test -bench=ServerGet -benchmem\n"
        "BenchmarkServerGet1ReqPerConn   4304683   2733 ns/op   0 B/op   0 allocs/op\n```\n\n"
        "## Results on TechEmpower\n\n```bash\n# Hardware Environment\n* 28 HT Cores Intel(R) Xeon(R) Gold 5120\n"
        "* 32GB RAM\n```\n\n## Usage\n\nServe a handler:\n\n"
        '```go\nfastnet.ListenAndServe(":8080", handler)\n```\n',
        name="README.md",
        origin="README.md",
    )
    code = [p.text for p in usage_examples([readme]) if p.kind == "code"]
    assert code == ['fastnet.ListenAndServe(":8080", handler)']


def test_getting_started_leaves_out_what_a_program_printed_but_keeps_a_file_tree() -> None:
    """zinx's Getting started showed its server's block-letter banner and start-up log (a `bash` block of
    "2023/03/09 18:39:49 [INFO]…" lines) after the code; gunicorn's docs show log lines, fastify's JSON logs.
    What to type and a project's file tree stay."""
    from generator.repo.docs.usage import usage_examples

    readme = read_text(
        "# tinynet\n\n## Server\n\n```go\ns := tinynet.NewServer()\ns.Serve()\n```\n\nRun it:\n\n"
        "```bash\n ██████  ▀▀\n [tinynet] Version: V1.0\n2023/03/09 18:39:49 [INFO]server.go:112: [START] Server\n"
        "2023/03/09 18:39:49 [INFO]msghandler.go:66: Worker ID = 0 is started.\n"
        '{"level":30,"time":1650063793316,"msg":"listening"}\n```\n\n'
        "Lay it out so:\n\n```\n.\n├── main.go\n└── conf\n    └── tinynet.json\n```\n\n"
        "Then start it:\n\n```bash\n$ go run server.go\n$ go run client.go\n$ curl localhost:8999\n```\n",
        name="README.md",
        origin="README.md",
    )
    code = [p.text for p in usage_examples([readme]) if p.kind == "code"]
    assert len(code) == 3 and not any("[INFO]" in c for c in code)
    assert any("├── main.go" in c for c in code) and any("go run client.go" in c for c in code)


def test_getting_started_leaves_out_every_way_of_installing_and_keeps_the_uses() -> None:
    from generator.repo.docs.usage import usage_examples

    readme = read_text(
        "# mdview\n\n## Installation\n\n### Package manager\n\n"
        "```bash\n# macOS\nbrew install mdview\n```\n\n"
        "```bash\n# Arch Linux\nsudo pacman -S mdview\n```\n\n"
        "```bash\n# Debian\ncurl -fsSL https://repo.example/key | sudo gpg --dearmor -o /k.gpg\n"
        "sudo apt update && sudo apt install mdview\n```\n\n"
        "## Usage\n\nTo read a file, give its path:\n\n```bash\n# Read from file\nmdview README.md\n```\n\n"
        "```bash\nsudo port install mdview\nmdview --width 60 notes.md\n```\n",
        name="README.md",
        origin="README.md",
    )
    code = [p.text for p in usage_examples([readme]) if p.kind == "code"]
    assert code == [
        "# Read from file\nmdview README.md",
        "sudo port install mdview\nmdview --width 60 notes.md",
    ]


def test_getting_started_leaves_out_a_go_api_listing_written_into_the_readme() -> None:
    """retry-go's README ends in godocdown's listing under "## Usage": "#### func  BackOffDelay" over its
    signature, "#### func (Error) Unwrap", "#### type Option" — five signatures followed its synopsis on
    Getting started, as if they were uses of it; a heading naming no declaration keeps its code."""
    from generator.repo.docs.usage import usage_examples

    readme = read_text(
        "# retry\n\n# SYNOPSIS\n\n```go\nerr := retry.New(retry.Attempts(5)).Do(fetch)\n```\n\n## Usage\n\n"
        "#### func  BackOffDelay\n\n```go\nfunc BackOffDelay(n uint, _ error, config DelayContext) time.Duration\n"
        "```\nBackOffDelay is a DelayType which increases delay between consecutive retries\n\n"
        "#### func (Error) Unwrap\n\n```go\nfunc (e Error) Unwrap() error\n```\n\n"
        "#### type Option\n\n```go\ntype Option func(*Config)\n```\n\n"
        "#### Function types\n\n```go\nretry.Do(fetch, retry.DelayType(retry.FixedDelay))\n```\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text for p in usage_examples([readme]) if p.kind == "code"] == [
        "err := retry.New(retry.Attempts(5)).Do(fetch)",
        "retry.Do(fetch, retry.DelayType(retry.FixedDelay))",
    ]


def test_getting_started_leaves_out_a_build_file_s_dependency_on_the_project() -> None:
    """javalin's quickstart, gson's, jsoup's, moshi's and jackson-core's READMEs open on Maven's `<dependency>`
    and Gradle's `implementation(…)`: how to get the library, no use of it."""
    from generator.repo.docs.usage import usage_examples

    readme = read_text(
        "# tinyweb\n\n## Quickstart\n\n### Add dependency\n\n#### Maven\n\n```xml\n<dependency>\n"
        "    <groupId>io.tiny</groupId>\n    <artifactId>tinyweb</artifactId>\n    <version>7.2.3</version>\n"
        '</dependency>\n```\n\n#### Gradle\n\n```kotlin\nimplementation("io.tiny:tinyweb:7.2.3")\n```\n\n'
        "```groovy\ndependencies {\n  implementation 'io.tiny:tinyweb:7.2.3'\n}\n```\n\n"
        "### Start programming\n\n```java\nvar app = Tiny.create().start(7070);\n```\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text for p in usage_examples([readme]) if p.kind == "code"] == [
        "var app = Tiny.create().start(7070);"
    ]
    # building the project is no use of it either (mockito's "./gradlew build", libuv's and cJSON's cmake, make)
    build = read_text(
        "# t\n\n## Quick start\n\n```shell\n./gradlew build\n```\n\n```\nmkdir build\ncd build\ncmake ..\nmake\n```\n\n"
        "## Use\n\n```shell\ntiny serve --port 80\n```\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text for p in usage_examples([build]) if p.kind == "code"] == ["tiny serve --port 80"]


def test_a_page_of_recipes_gives_the_getting_started_its_examples(tmp_path: Path) -> None:
    """okio's README and docs/index.md show no code; its docs/recipes.md opens with reading a file line by
    line (recipes or a cookbook in 9 mirrors' docs: huey, structlog, cattrs, loguru, dramatiq, alembic …)."""
    root = make_project(
        tmp_path / "tinyio",
        {
            "README.md": "# tinyio\n\nTinyio makes it much easier to access, store and process your data.\n",
            "docs/index.md": "# Tinyio\n\nTinyio is built around two types that pack a lot of capability.\n",
            "docs/recipes.md": (
                "# Recipes\n\n## Read a text file line by line\n\nOpen a source and wrap it with a buffer:\n\n"
                "```kotlin\nFileSystem.SYSTEM.source(path).buffer().use { it.readUtf8Line() }\n```\n"
            ),
            "docs/internals.md": "# Internals\n\nSegments move between buffers.\n\n```kotlin\nval s = Segment()\n```\n",
        },
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyio")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [p.text for p in docs.examples if p.kind == "code"] == [
        "FileSystem.SYSTEM.source(path).buffer().use { it.readUtf8Line() }"
    ]


def test_the_users_guide_gives_the_getting_started_its_examples(tmp_path: Path) -> None:
    """typeguard's README shows no code and its docs have no quick start: its docs/userguide.rst opens with
    `check_type` (a user's guide as the first walk through the project: typeguard, apscheduler, huey's
    guide.rst, koa's guide.md, libsql's USER_GUIDE.md); a migration or contribution guide is none."""
    root = make_project(
        tmp_path / "tinycheck",
        {
            "README.md": "# tinycheck\n\nTinycheck checks types at run time.\n",
            "docs/index.md": "# Tinycheck\n\nRun-time type checking.\n",
            "docs/userguide.md": (
                "# User guide\n\n## Checking types directly\n\nCall `check` on any value:\n\n"
                "```python\ncheck([1], list[int])\n```\n"
            ),
            "docs/migration-guide.md": "# Migrating\n\nRename the call:\n\n```python\nold_check(x)\n```\n",
        },
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinycheck")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [p.text for p in docs.examples if p.kind == "code"] == ["check([1], list[int])"]


def test_sphinx_pages_under_docs_source_are_concepts_of_their_own(tmp_path: Path) -> None:
    """Sphinx's `docs/source/` layout (trio, rich, dramatiq, tenacity, libuv) put the whole manual in one
    concept: the top-level part of every page was "source"."""
    root = make_project(
        tmp_path / "tinyio",
        {
            "README.md": "# tinyio\n\nTinyio is an async I/O library for Python programs.\n",
            "docs/Makefile": "html:\n\tsphinx-build source build\n",
            "docs/source/conf.py": "project = 'tinyio'\n",
            "docs/source/index.rst": "Tinyio\n======\n\nTinyio runs many things at once.\n\n.. toctree::\n\n   tutorial\n   design\n",
            "docs/source/tutorial.rst": "Tutorial\n========\n\nWelcome to the tutorial of tinyio, step by step.\n",
            "docs/source/design.rst": "Design\n======\n\nThere are many valid ways to write an I/O library.\n",
        },
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyio")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Tinyio", "Tutorial", "Design"]


def test_getting_started_shows_each_content_tab_under_its_label() -> None:
    """apscheduler's user guide runs the scheduler in four tabs: each example under its tab's title, the
    first under what opens the tabs too (it had shown the first without its title, the others with)."""
    from generator.repo.docs.usage import usage_examples

    guide = read_text(
        "Running\n=======\n\nStart the scheduler in one of these ways:\n\n.. tabs::\n\n"
        "   .. code-tab:: python Synchronous\n\n      with Scheduler() as s:\n          s.run_until_stopped()\n\n"
        "   .. code-tab:: python Asynchronous\n\n      async with AsyncScheduler() as s:\n          await s.run_until_stopped()\n",
        name="docs/userguide.rst",
        origin="docs/userguide.rst",
    )
    assert [(p.kind, p.text.split("\n")[0]) for p in usage_examples([guide])] == [
        ("lead", "Start the scheduler in one of these ways:"),
        ("paragraph", "Synchronous"),
        ("code", "with Scheduler() as s:"),
        ("paragraph", "Asynchronous"),
        ("code", "async with AsyncScheduler() as s:"),
    ]


def test_a_fragment_a_page_includes_whole_is_no_guide_page_of_its_own(tmp_path: Path) -> None:
    """peewee's pool-snippet.rst (no title of its own) is included by two pages: it had been a guide entry
    "pool snippet"; a titled page another includes (huey's django.rst in contrib.rst) stays a page."""
    root = make_project(
        tmp_path / "tinydb",
        {
            "README.md": "# tinydb\n\nTinydb is a small ORM for Python programs and scripts.\n",
            "docs/index.rst": "Tinydb\n======\n\n.. toctree::\n\n   database\n   contrib\n",
            "docs/database.rst": "Database\n========\n\nOpen a database.\n\n.. include:: pool-snippet.rst\n",
            "docs/pool-snippet.rst": "Pooled databases keep a number of connections open for reuse by each thread.\n",
            "docs/contrib.rst": "Contrib\n=======\n\nThe extensions.\n\n.. include:: django.rst\n",
            "docs/django.rst": "Django\n------\n\nTinydb works with Django through its own app and settings.\n",
        },
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinydb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    pages = [p.path for c in docs.concepts for p in c.pages]
    assert "docs/pool-snippet.rst" not in pages and "docs/django.rst" in pages
    database = next(p for c in docs.concepts for p in c.pages if p.path == "docs/database.rst")
    assert any("Pooled databases" in q.text for q in database.passages)


def test_getting_started_keeps_what_the_docs_say_an_example_did_after_it() -> None:
    """swr's README explains its one example after it ("In this example, the React Hook `useSWR` accepts a
    `key` …"); a paragraph that introduces the next example is that one's lead, not this one's explanation."""
    from generator.repo.docs.usage import usage_examples

    readme = read_text(
        "# kv\n\nA key-value store.\n\n## Quick start\n\nOpen a store and write to it:\n\n"
        "```python\nstore = kv.open('db')\nstore['a'] = 1\n```\n\n"
        "In this example, `kv.open` creates the file `db` when it is missing and locks it.\n\n"
        "Writing a key stores it at once; nothing is buffered in memory.\n\n"
        "Reading a key back works the same way, by subscript:\n\n```python\nprint(store['a'])\n```\n",
        name="README.md",
        origin="README.md",
    )
    assert [(p.kind, p.text) for p in usage_examples([readme])] == [
        ("lead", "Open a store and write to it:"),
        ("code", "store = kv.open('db')\nstore['a'] = 1"),
        ("paragraph", "In this example, `kv.open` creates the file `db` when it is missing and locks it."),
        ("paragraph", "Writing a key stores it at once; nothing is buffered in memory."),
        ("lead", "Reading a key back works the same way, by subscript:"),
        ("code", "print(store['a'])"),
    ]


def test_an_example_comes_with_the_short_paragraph_that_introduces_it_whole() -> None:
    """The sentence before an example is the paragraph's last, but a short paragraph's first sentence often
    says what the example shows (webargs' "As an alternative to `Parser.parse`, you can decorate your view
    with `use_args`.", glow's "In addition to a TUI, Glow has a CLI"): the paragraph is quoted whole, at its
    own lines. A long paragraph gives only its last sentence."""
    from generator.repo.docs.usage import usage_examples

    long_one = " ".join(["Every option of the store is read once, when it opens."] * 7)
    readme = read_text(
        "# kv\n\n## Decorators\n\nAs an alternative to `kv.open`, decorate a function with `kv.store`.\n"
        "The store is passed as its first argument.\n\n```python\n@kv.store('db')\ndef f(store): ...\n```\n\n"
        f"## Options\n\n{long_one} Set them like so:\n\n```python\nkv.open('db', sync=True)\n```\n",
        name="README.md",
        origin="README.md",
    )
    leads = [p for p in usage_examples([readme]) if p.kind == "lead"]
    assert [(p.text, p.start, p.end) for p in leads] == [
        (
            "As an alternative to `kv.open`, decorate a function with `kv.store`. "
            "The store is passed as its first argument.",
            5,
            6,
        ),
        ("Every option of the store is read once, when it opens. Set them like so:", 17, 19),
    ]


def test_code_spans_keep_their_brackets_while_links_read_as_their_text() -> None:
    # jest's `diffItems[i][0]`, gunicorn's `environ['wsgi.early_hints'](headers)`, mkdocstrings' syntax
    # `[example][full.path.object1]`: code, not a link to reduce; a docstring's link around code still is
    from generator.site.pages.repo_guide import prose

    assert prose("Compare `diffItems[i][0]` with `[example][full.path]`.") == (
        "Compare `diffItems[i][0]` with `[example][full.path]`."
    )
    assert prose("Call `environ['hints'](headers)` early.") == "Call `environ['hints'](headers)` early."
    assert prose("See [`Extension`][markdown.Extension] and [the docs](https://x.test).") == (
        "See `Extension` and the docs."
    )


def test_getting_started_leaves_out_the_projects_own_benchmarks_and_test_suite() -> None:
    """How the project checks itself (jsonschema's "Running the Test Suite" and "Benchmarks", chi's and
    fastify's "Benchmarks") is no use of it; a "Testing" section showing the user's tests stays."""
    from generator.repo.docs.usage import usage_examples

    readme = read_text(
        "# kv\n\nA key-value store.\n\n## Usage\n\n```python\nstore = kv.open('db')\nstore['a'] = 1\n```\n\n"
        "## Testing your app\n\nUse the in-memory store in tests:\n\n```python\nstore = kv.memory()\n```\n\n"
        "## Running the Test Suite\n\nRun every test with nox:\n\n```\n$ nox\n```\n\n"
        "## Benchmarks\n\nThe benchmarks compare kv with other stores and write a table of timings:\n\n"
        "```\n$ nox -s perf\n```\n",
        name="README.md",
        origin="README.md",
    )
    code = [p.text for p in usage_examples([readme]) if p.kind == "code"]
    assert code == ["store = kv.open('db')\nstore['a'] = 1", "store = kv.memory()"]


def test_a_section_headed_by_the_asked_process_answers_before_one_that_mentions_it() -> None:
    """got: "How does got retry a failed request?" — the tips page's "Retries" section answers it, not its
    "Nock" section, which names every word of the question while telling how to test with nock."""
    from generator.repo.docs.answers import DocSection, best_section
    from generator.repo.docs.model import DocPassage

    def section(heading: str, *texts: str) -> DocSection:
        return DocSection(
            "Tips",
            tuple(DocPassage("docs/tips.md", i, i, "paragraph", t, heading) for i, t in enumerate(texts)),
        )

    nock = section(
        "Nock",
        "By default nock mocks only one request. Got will retry failed requests by default, so a retried "
        "request finds no mock: the failed request is retried and fails again.",
    )
    retries = section("Retries", "By default, Got makes a new retry on a failed request if possible.")
    other = section("Cookies", "Got supports cookies out of the box for every request it sends.")
    question = "How does got retry a failed request?"
    assert best_section([nock, retries, other], question) is nock  # the words alone
    assert best_section([nock, retries, other], question, verbs=("retry",)) is retries


def test_a_concept_named_after_a_type_shows_that_types_code_path_though_other_pages_name_it(
    tmp_path: Path,
) -> None:
    # rich's shape: the "Tables" page names `Table` (as the "Console" page does) and `Align`, named nowhere
    # else; the path starts at Table, not at the heavier Align that only this page mentions
    def chain(cls: str, steps: int) -> str:
        body = f"class {cls}:\n    def render(self):\n        return self.step0()\n\n"
        for i in range(steps):
            after = f"self.step{i + 1}()" if i + 1 < steps else "None"
            body += f"    def step{i}(self):\n" + "".join(f"        x{j} = {j}\n" for j in range(6))
            body += f"        return {after}\n\n"
        return body

    files = {
        **PROJECT,
        "docs/tables.md": "# Tables\n\nA `Table` lays out rows; `Align` centres a cell.\n",
        "docs/console.md": "# Console\n\nThe console prints a `Table` as well as text.\n",
        "tinyweb/table.py": '"""Tables."""\n\n\n' + chain("Table", 3),
        "tinyweb/align.py": '"""Alignment."""\n\n\n' + chain("Align", 6),
    }
    root = make_project(tmp_path / "tinyweb", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    flows = {c.name: c.flow for c in docs.concepts}
    assert flows["Tables"][0].hop.caller == "Table.render"
    assert [b.hop.callee for b in flows["Tables"]] == ["Table.step0"]


def test_a_concepts_code_path_never_starts_at_a_property(tmp_path: Path) -> None:
    """anyio's "Creating and managing tasks" page opened its code on `TaskHandle.status`, a property whose
    branches reach the backend, not on how a task is started: a member read as an attribute (a property, a
    cached property) is never where a concept's code path starts, however much code it leads to."""

    def steps(prefix: str, count: int, method: bool) -> str:
        body, own, indent = "", "self" if method else "", "    " if method else ""
        for i in range(count):
            after = (
                (f"self.{prefix}{i + 1}()" if method else f"{prefix}{i + 1}()") if i + 1 < count else "None"
            )
            body += f"{indent}def {prefix}{i}({own}):\n" + "".join(
                f"{indent}    x{j} = {j}\n" for j in range(6)
            )
            body += f"{indent}    return {after}\n\n"
        return body

    handle = (
        "import functools\n\n\n" + steps("check", 6, method=False) + "\nclass Handle:\n"
        "    @property\n    def status(self):\n        return check0()\n\n"
        "    @functools.cached_property\n    def result(self):\n        return check0()\n\n"
        "    def start(self):\n        return self.run0()\n\n" + steps("run", 3, method=True)
    )
    files = {
        **PROJECT,
        "docs/handles.md": "# Handles\n\nA `Handle` runs one task; start it with `Handle.start`.\n",
        "tinyweb/handle.py": '"""Task handles."""\n\n\n' + handle,
    }
    root = make_project(tmp_path / "tinyweb", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    flow = {c.name: c.flow for c in docs.concepts}["Handles"]
    assert flow[0].hop.caller == "Handle.start"
    assert [b.hop.callee for b in flow] == ["Handle.run0"]


def test_a_quotes_paragraphs_and_list_items_stay_apart() -> None:
    """got's "**Note:**" quotes hold lists, mkdocstrings' "> NOTE:" a lead-in and links: each item its own
    paragraph of the quote, never run together ("YAML idiosyncrasies YAML multiline")."""
    from generator.documents.markdown import read_markdown
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import passage_markdown

    source = (
        "> NOTE: Resources on YAML:\n>\n> - [YAML idiosyncrasies](https://x.test)\n> - `multiline` strings\n"
    )
    quote = next(block for section in read_markdown(source) for block in section.blocks)
    passage = DocPassage("docs/a.md", quote.start, quote.end, "quote", quote.text)
    shown = passage_markdown(passage, Linker({"docs/a.md": 4}, "https://h/x", None), cite=False)
    assert shown.splitlines() == [
        "> NOTE: Resources on YAML:",
        ">",
        "> YAML idiosyncrasies",
        ">",
        "> `multiline` strings",
    ]


def test_a_docs_table_is_shown_as_a_table() -> None:
    """immer's array-methods page: a table of methods stays a table on the guide page, each cell read as
    prose (code spans kept); a table whose rows do not line up falls back to its rows as a list."""
    from generator.documents.markdown import read_markdown
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import passage_markdown

    source = (
        "# Methods\n\n| Method | Returns |\n| --- | --- |\n| `push()` | New length |\n"
        "| `pop()` | Removed *element* |\n"
    )
    table = next(
        block for section in read_markdown(source) for block in section.blocks if block.kind == "table"
    )
    passage = DocPassage("docs/a.md", table.start, table.end, "table", table.text)
    shown = passage_markdown(passage, Linker({"docs/a.md": 6}, "https://h/x", None), cite=False)
    assert shown.splitlines() == [
        "| Method | Returns |",
        "| --- | --- |",
        "| `push()` | New length |",
        "| `pop()` | Removed element |",
    ]
    ragged = DocPassage("docs/a.md", 3, 5, "table", "Type | Meaning\nstr | None | optional")
    assert passage_markdown(ragged, Linker({}, "https://h/x", None), cite=False).startswith(
        "- Type \\| Meaning"
    )


def test_a_docs_table_whose_cells_hold_an_escaped_pipe_stays_a_table() -> None:
    """superstruct's Error Properties: the `key` row's type `string \\| number \\| undefined` had broken the
    columns apart, and the whole table was shown as bullets of "`key` \\| string \\| number \\| …"."""
    from generator.site.pages.repo_guide import passage_markdown

    source = (
        "# Errors\n\nEach error thrown includes the following properties:\n\n"
        "| Property | Type | Description |\n| --- | --- | --- |\n"
        "| `key` | `string \\| number` | The key of the value. |\n| `value` | `any` | The invalid value. |\n"
    )
    table = next(p for p in passages(read_text(source, name="docs/errors.md")) if p.kind == "table")
    shown = passage_markdown(table, Linker({"docs/errors.md": 8}, "https://h/x", None), cite=False)
    assert shown.splitlines() == [
        "| Property | Type | Description |",
        "| --- | --- | --- |",
        "| `key` | string \\| number | The key of the value. |",
        "| `value` | `any` | The invalid value. |",
    ]


def test_long_guides_in_one_folder_are_concepts_of_their_own(tmp_path: Path) -> None:
    """loguru's docs/resources/ holds a migration guide, a troubleshooting FAQ and recipes, each of many
    sections: three concepts, not one "Resources"; a folder opened by its index page stays one."""

    def guide(title: str) -> str:
        return f"# {title}\n\n" + "".join(
            f"## Part {i}\n\nThis part explains one more thing about {title.lower()} in a few words.\n\n"
            for i in range(6)
        )

    files = {
        "README.md": "# tool\n\nTool logs messages to the places you choose, with levels and colours.\n",
        "docs/resources/migration.md": guide("Switching from logging"),
        "docs/resources/recipes.md": guide("Recipes"),
        "docs/axes/index.md": guide("Axes"),
        "docs/axes/linear.md": guide("Linear axis"),
        "tool/core.py": "def log():\n    return 1\n",
    }
    root = make_project(tmp_path / "tool", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tool")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert {c.name: [p.path for p in c.pages] for c in docs.concepts} == {
        "Axes": ["docs/axes/index.md", "docs/axes/linear.md"],
        "Switching from logging": ["docs/resources/migration.md"],
        "Recipes": ["docs/resources/recipes.md"],
    }


def test_a_folder_of_mostly_long_guides_is_a_category_unless_its_index_names_it(tmp_path: Path) -> None:
    """okhttp's docs/features/ (calls, caching, interceptors … and a short R8 page) and knex's docs/guide/
    (opened by an index titled "Installation", then the query builder, schema builder, transactions) had
    each been one concept: most of their pages are guides of their own, a concept each. An index page
    that names its folder ("Axes") or calls itself an introduction keeps the folder one subject."""

    def guide(title: str) -> str:
        return f"# {title}\n\n" + "".join(
            f"## Part {i}\n\nThis part explains one more thing about {title.lower()} in a few words.\n\n"
            for i in range(6)
        )

    files = {
        "README.md": "# tool\n\nTool sends requests over HTTP and hands back their responses, pooled.\n",
        "docs/features/calls.md": guide("Calls"),
        "docs/features/caching.md": guide("Caching"),
        "docs/features/r8.md": "# R8\n\nShrinking needs no rules of its own for this library at all.\n",
        "docs/guide/index.md": guide("Installation"),
        "docs/guide/query.md": guide("Query builder"),
        "docs/guide/extending.md": "# Extending\n\nAdd a method to the builder with `Builder.extend(name, fn)`.\n",
        "docs/axes/index.md": guide("Axes"),
        "docs/axes/linear.md": guide("Linear axis"),
        "docs/axes/radial.md": "# Radial axis\n\nA radial axis goes round the centre of the chart, once.\n",
        "docs/intro/index.md": guide("Introduction"),
        "docs/intro/why.md": guide("Why tool"),
        "tool/core.py": "def send():\n    return 1\n",
    }
    root = make_project(tmp_path / "tool", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tool")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert {c.name: [p.path for p in c.pages] for c in docs.concepts} == {
        "Axes": ["docs/axes/index.md", "docs/axes/linear.md", "docs/axes/radial.md"],
        "Calls": ["docs/features/calls.md"],
        "Caching": ["docs/features/caching.md"],
        "R8": ["docs/features/r8.md"],
        "Installation": ["docs/guide/index.md"],
        "Query builder": ["docs/guide/query.md"],
        "Extending": ["docs/guide/extending.md"],
        "Intro": ["docs/intro/index.md", "docs/intro/why.md"],
    }


def test_a_folder_named_for_a_kind_of_page_is_a_category_of_concepts(tmp_path: Path) -> None:
    """superstruct's docs/guides/ (validating, coercing, refining data, handling errors …, each a short page)
    and docs/reference/ had each been one concept, "Guides" and "Reference", their subjects' code paths and
    symbols mixed; quart's tutorials/, Polly's advanced/ and websockets' howto/ likewise (10 mirrors have such
    folders). A folder named for a kind of page holds a concept per page; its landing page ("How-to guides"
    over howto/, an index titled "Overview") lists them and is none; an index with a subject of its own
    stays. A navigation section the author named "Basics" is the author's group, not a folder: kept whole."""
    files = {
        "README.md": "# tool\n\nTool validates data against structs and reports each failure.\n",
        "docs/guides/validating.md": "# Validating data\n\nA struct validates data with `assert(value, Struct)`.\n",
        "docs/guides/coercing.md": "# Coercing data\n\nA coercion turns the input into the shape a struct wants.\n",
        "docs/guides/errors.md": "# Handling errors\n\nA failed validation throws a `StructError` with its failures.\n",
        "docs/howto/index.md": "# How-to guides\n\nThese guides help you build your application with tool.\n",
        "docs/howto/debug.md": "# Enable debug logs\n\nSet the logger's level to DEBUG to see every frame.\n",
        "docs/howto/deploy.md": "# Deploy\n\nRun one process per core behind the load balancer you use.\n",
        "docs/routing/index.md": "# Routing\n\nThe router matches each path against its routes in order.\n",
        "docs/routing/patterns.md": "# Patterns\n\nA pattern names its parameters with a colon in front.\n",
        "docs/pages/types.md": "# Question types\n\nA question is a text, a select or a checkbox prompt.\n",
        "docs/pages/styles.md": "# Styles\n\nA style colours each part of a prompt the way you name it.\n",
        "tool/core.py": "def check():\n    return 1\n",
    }
    docs = _docs_of(make_project(tmp_path / "tool", files))
    concepts = {c.name: [p.path for p in c.pages] for c in docs.concepts}
    assert concepts["Validating data"] == ["docs/guides/validating.md"]
    assert concepts["Coercing data"] == ["docs/guides/coercing.md"]
    assert concepts["Handling errors"] == ["docs/guides/errors.md"]
    assert concepts["Enable debug logs"] == ["docs/howto/debug.md"] and concepts["Deploy"] == [
        "docs/howto/deploy.md"
    ]
    assert "How-to guides" not in concepts and "Guides" not in concepts
    assert concepts["Routing"] == ["docs/routing/index.md", "docs/routing/patterns.md"]  # a subject's folder
    # questionary's docs/pages/: a folder of pages is no subject either
    assert concepts["Question types"] == ["docs/pages/types.md"] and concepts["Styles"] == [
        "docs/pages/styles.md"
    ]


def test_a_rust_type_the_docs_name_is_its_struct_not_an_impl_block(tmp_path: Path) -> None:
    """indicatif's docs name `ProgressBar` and `MultiProgress`: each is a struct with `impl` blocks of the same
    name, so the name was ambiguous and left out — the guide's "Crate contents" linked no code at all."""
    files = {
        "README.md": "# bar\n\nBar draws progress bars in a terminal, one or several at once.\n",
        "Cargo.toml": '[package]\nname = "bar"\n',
        "docs/bars.md": "# Bars\n\nA `Bar` counts up to its length and draws itself as it goes.\n",
        "src/lib.rs": (
            "/// A progress bar.\n#[derive(Clone)]\npub struct Bar {\n    pos: u64,\n}\n\n"
            "impl std::fmt::Debug for Bar {\n    fn fmt(&self) -> u64 { 0 }\n}\n\n"
            "impl Bar {\n    pub fn inc(&self) -> u64 {\n        self.pos\n    }\n}\n"
        ),
    }
    docs = _docs_of(make_project(tmp_path / "bar", files))
    (bars,) = [c for c in docs.concepts if c.name == "Bars"]
    assert [(s.name, s.kind, s.doc) for s in bars.symbols if s.name == "Bar"] == [
        ("Bar", "struct", "A progress bar.")
    ]


def test_a_rest_substitution_reads_as_its_definition_from_the_page_an_include_or_conf_py(
    tmp_path: Path,
) -> None:
    """watchdog's pages say "|project_name| requires 3.9+" with the definition in docs/source/global.rst.inc:
    the guide read "project_name requires 3.9+"; loguru's type hints page defines `.. |str| replace::
    :class:`str``. A definition in the page, an included `.inc` file or conf.py's `rst_epilog` is what the
    built page shows; an undefined name stays its name."""
    files = {
        "README.md": "# tool\n\nTool watches folders and calls a handler for every change it sees.\n",
        "docs/source/global.rst.inc": ".. |project_name| replace:: ``tool``\n",
        "docs/source/conf.py": 'project = "tool"\nrst_epilog = """\n.. |os| replace:: the operating system\n"""\n',
        "docs/source/index.rst": (
            "Tool\n====\n\n.. include:: global.rst.inc\n\n|project_name| requires Python 3.9 to work on |os|.\n\n"
            ".. |str| replace:: :class:`str`\n\nEvery path is a |str|, never |bytes|.\n"
        ),
        "docs/source/api.rst": "API\n===\n\n|project_name| calls each handler from one thread.\n",
        "tool/core.py": "def watch():\n    return 1\n",
    }
    docs = _docs_of(make_project(tmp_path / "tool", files))
    quoted = [p.text for c in docs.concepts for page in c.pages for p in page.passages]
    quoted += [p.text for p in docs.overview]
    assert "`tool` requires Python 3.9 to work on the operating system." in quoted
    assert "Every path is a `str`, never bytes." in quoted
    assert "`tool` calls each handler from one thread." in quoted


def test_a_rest_substitution_that_is_also_a_links_text_reads_as_its_definition(tmp_path: Path) -> None:
    """toolz's README says "|literal dicttoolz|_, for operations on dictionaries" with `.. |literal dicttoolz|
    replace:: ``dicttoolz``` and a link target of that name (loguru's recipes, ghc-proposals' README and
    litestar's CLI page link substitutions too): the overview read "literal dicttoolz, for operations…"."""
    readme = (
        "Tool\n====\n\n``tool`` is implemented in two parts:\n\n"
        "|literal itertools|_, for operations on iterables such as grouping and interposing items.\n\n"
        "|literal dicttools|__, for operations on dictionaries such as merging and updating nested keys.\n\n"
        ".. |literal itertools| replace:: ``itertools``\n"
        ".. _literal itertools: https://example.org/itertools.py\n\n"
        ".. |literal dicttools| replace:: ``dicttools``\n"
        "__ https://example.org/dicttools.py\n"
    )
    docs = _docs_of(
        make_project(
            tmp_path / "tool", {"README.rst": readme, "tool/core.py": "def group():\n    return 1\n"}
        )
    )
    quoted = " ".join(p.text for p in docs.overview)
    assert "`itertools`, for operations on iterables" in quoted
    assert "`dicttools`, for operations on dictionaries" in quoted
    assert "literal" not in quoted


def test_markdown_include_lines_show_the_files_they_name(tmp_path: Path) -> None:
    """markdown-include's `{!path!}`: pendulum's docs/index.md is seventeen `{!docs/….md!}` lines (a guide
    page "index" quoting them raw), sqlmodel's tutorials fence `{!./docs_src/….py!}` for their programs
    (33 of them, never shown). A page assembling other pages is none of its own; a fenced one is code."""
    files = {
        "README.md": "# tool\n\nTool makes datetimes easy to handle in any timezone.\n",
        "docs/mkdocs.yml": "site_name: tool\nmarkdown_extensions:\n  - markdown_include.include:\n      base_path: docs\n",
        "docs/docs/index.md": "{!docs/parsing.md!}\n{!docs/timezones.md!}\n",
        "docs/docs/parsing.md": "# Parsing\n\nThe library parses RFC 3339 and most ISO 8601 strings into datetimes.\n",
        "docs/docs/timezones.md": (
            "# Timezones\n\nEvery datetime carries its timezone, converted with `in_timezone`.\n\n"
            "```python\n{!./docs_src/zones.py!}\n```\n"
        ),
        "docs_src/zones.py": "import tool\n\nnow = tool.now('Europe/Paris').in_timezone('UTC')\n",
        "tool/core.py": "def now(tz):\n    return tz\n",
    }
    files["docs/docs/parsing.md"] += (
        "\nA page including a part writes:\n\n```md\n# Title\n{!docs/part.md!}\n```\n"
    )
    docs = _docs_of(make_project(tmp_path / "tool", files))
    assert [c.name for c in docs.concepts] == ["Parsing", "Timezones"]
    code = [p for c in docs.concepts for page in c.pages for p in page.passages if p.kind == "code"]
    assert [(p.path, p.text) for p in code] == [
        ("docs/docs/parsing.md", "# Title\n{!docs/part.md!}"),  # the syntax shown in an example stays
        ("docs_src/zones.py", "import tool\n\nnow = tool.now('Europe/Paris').in_timezone('UTC')"),
    ]


def test_hugo_shortcodes_are_the_site_s_markup_and_an_example_one_shows_its_file(tmp_path: Path) -> None:
    """mitmproxy's Hugo docs: `{{< example src="examples/addons/…py" lang="py" >}}` shows an addon where it
    stands, `{{% note %}}` wraps an aside, `{{< figure … >}}` a screenshot, `{{< relref "…" >}}` a link's
    target: the markup was quoted as the page's text and the examples never shown."""
    files = {
        "README.md": "# proxy\n\nProxy is an interactive intercepting proxy for HTTP that addons extend.\n",
        "docs/content/addons.md": (
            "---\ntitle: Addons\n---\n\n# Addons\n\nAn addon is a class whose methods the proxy calls on each"
            " event of a flow.\n\n"
            '{{< example src="examples/addons/add_header.py" lang="py" >}}\n\n'
            "{{% note %}}\nAddons run in the order they are loaded.\n{{% /note %}}\n\n"
            '{{< figure src="/screenshots/ui.png" alt="the terminal ui" >}}\n\n'
            'See [the features]({{< relref "/overview/features" >}}) for the rest of what addons change.\n'
        ),
        "examples/addons/add_header.py": (
            "class AddHeader:\n    def response(self, flow):\n        flow.response.headers['x'] = '1'\n"
        ),
        "proxy/__init__.py": "def run():\n    return 1\n",
    }
    docs = _docs_of(make_project(tmp_path / "proxy", files))
    passages = [p for c in docs.concepts for page in c.pages for p in page.passages]
    assert not any("{{" in p.text or "}}" in p.text for p in passages)
    code = [(p.path, p.text) for p in passages if p.kind == "code"]
    assert code == [("examples/addons/add_header.py", files["examples/addons/add_header.py"].rstrip("\n"))]
    said = [p.text for p in passages if p.kind == "paragraph"]
    assert "Addons run in the order they are loaded." in said
    assert "See the features for the rest of what addons change." in said


def test_the_examples_link_a_method_they_call_when_no_other_goes_by_its_name(tmp_path: Path) -> None:
    """pendulum's README calls `pendulum.now('Europe/Paris').in_timezone('UTC')`, bbolt's `tx.Commit()`,
    loguru's `logger.debug(…)`: only `now` was linked, the methods a newcomer calls next were not. A
    method name two classes share, or one every library has (`append`), stays unlinked."""
    files = {
        "README.md": (
            "# tinytime\n\nTinytime makes datetimes easy to create, shift and compare in any timezone.\n\n"
            "```python\nimport tinytime\n\nnow = tinytime.now()\nnow.in_timezone('UTC')\nnow.shifted(days=1)\n"
            "items.append(now)\n```\n"
        ),
        "tinytime/__init__.py": "from .core import DateTime, now\n",
        "tinytime/core.py": (
            "class DateTime:\n    def in_timezone(self, tz):\n        return self\n\n"
            "    def shifted(self, days):\n        return self\n\n    def append(self, x):\n        return x\n\n\n"
            "class Date:\n    def shifted(self, days):\n        return self\n\n\ndef now():\n    return DateTime()\n"
        ),
    }
    docs = _docs_of(make_project(tmp_path / "tinytime", files))
    assert [s.name for s in docs.example_symbols] == ["now", "DateTime.in_timezone"]


@pytest.mark.parametrize("heading", ["Develop", "Development", "Local development"])
def test_the_maintainers_set_up_is_no_overview_and_no_example(tmp_path: Path, heading: str) -> None:
    """fsspec's README "Develop" section (a conda environment, `pip install -e`, the tests) opened Getting
    started and gave the overview "For local use, pick a version suitable for you."; boltons' and pyee's
    "Development" runs tox. Neither is how a user uses the project."""
    files = {
        "README.md": (
            "# fsx\n\nFsx is a specification for pythonic filesystems that many backends implement.\n\n"
            "## Usage\n\n```python\nimport fsx\n\nfs = fsx.filesystem('file')\n```\n\n"
            f"## {heading}\n\nFor local use, pick a version of the tools suitable for you.\n\n"
            "```python\nimport fsx.testing\n\nfsx.testing.run_all()\n```\n"
        ),
        "fsx/__init__.py": "def filesystem(protocol):\n    return protocol\n",
    }
    docs = _docs_of(make_project(tmp_path / "fsx", files))
    assert [p.text for p in docs.examples if p.kind == "code"] == [
        "import fsx\n\nfs = fsx.filesystem('file')"
    ]
    assert not any("local use" in p.text for p in docs.overview)


def test_go_s_exported_close_and_string_are_no_distinctive_methods(tmp_path: Path) -> None:
    """colly's README calls `c.Visit(…)` and, like most Go examples, `defer f.Close()`, `e.String()`: the
    common names in their exported spelling stay unlinked as they do in lower case."""
    files = {
        "README.md": (
            "# crawl\n\nCrawl is a scraping framework for Go that walks the pages of a site for you.\n\n"
            '```go\nc := crawl.NewCollector()\ndefer c.Close()\nc.Visit("http://example.com")\n'
            "fmt.Println(c.String())\n```\n"
        ),
        "go.mod": "module example.com/crawl\n\ngo 1.21\n",
        "crawl.go": (
            "package crawl\n\ntype Collector struct{}\n\nfunc NewCollector() *Collector { return &Collector{} }\n\n"
            "func (c *Collector) Visit(url string) error { return nil }\n\n"
            "func (c *Collector) Close() error { return nil }\n\n"
            'func (c *Collector) String() string { return "" }\n'
        ),
    }
    docs = _docs_of(make_project(tmp_path / "crawl", files))
    assert [s.name for s in docs.example_symbols] == ["NewCollector", "Collector.Visit"]


def test_a_docs_folder_of_one_long_page_has_its_sections_as_concepts(tmp_path: Path) -> None:
    """pydantic-settings' docs are one 3,600-line docs/index.md, gin's one docs/doc.md: one concept named
    after its first heading, and no Getting started. Such a page is the manual, read like a README: a
    concept per section (its table of contents none), its usage section the Getting started."""

    def part(name: str) -> str:
        return f"## {name}\n\n" + "".join(
            f"The {name.lower()} part explains one more thing in a few words, number {i}.\n\n"
            for i in range(4)
        )

    manual = (
        "# Tool guide\n\n## Contents\n\n- [Usage](#usage)\n- [Sources](#sources)\n\n"
        "## Usage\n\nMake a settings class and read it:\n\n```python\nsettings = tool.Settings()\n```\n\n"
        + part("Usage notes")
        + part("Sources")
        + part("Secrets")
        + part("Priority")
    )
    files = {
        "README.md": "# tool\n\nTool reads settings from the environment and from files.\n",
        "docs/index.md": manual,
        "docs/changes.md": "# Changes\n\nVersion one.\n",
        "tool/core.py": "class Settings:\n    pass\n",
    }
    root = make_project(tmp_path / "tool", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tool")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [c.name for c in docs.concepts] == ["Usage notes", "Sources", "Secrets", "Priority"]
    assert [p.text for p in docs.examples if p.kind == "code"] == ["settings = tool.Settings()"]


def test_a_sphinx_ref_reads_as_the_title_of_the_section_it_names_in_any_page(tmp_path: Path) -> None:
    """pyjwt's "See :ref:`installation_cryptography`." read "See installation\\_cryptography."; Sphinx shows
    the title of the section the label stands over, in whichever page ("Cryptographic Dependencies
    (Optional)"). A label over no title, or unknown, stays as written; an explicit title is kept."""
    files = {
        "README.rst": "tool\n====\n\nTool signs tokens with the keys you give it, in a few lines of code.\n",
        "docs/index.rst": "Tool\n====\n\n.. toctree::\n\n   install\n   usage\n",
        "docs/install.rst": (
            "Installing\n==========\n\nInstall the tool with pip and you are ready to sign tokens.\n\n"
            ".. _crypto_deps:\n\nCryptographic ``Dependencies``\n-------------------------------\n\n"
            "RSA needs the cryptography package, installed with the extra named crypto.\n\n"
            ".. _a_table:\n\n.. code-block:: text\n\n   no title here\n"
        ),
        "docs/usage.rst": (
            "Usage\n=====\n\nRSA signing needs more packages. See :ref:`crypto_deps` before you start.\n\n"
            "Tables need nothing more; see :ref:`a_table`, :ref:`unknown_one` and "
            ":ref:`the extras <crypto_deps>` for the rest of it.\n"
        ),
        "tool/core.py": "def sign():\n    return 1\n",
    }
    root = make_project(tmp_path / "tool", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tool")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    said = [
        p.text for c in docs.concepts for page in c.pages for p in page.passages if p.path == "docs/usage.rst"
    ]
    assert said == [
        "RSA signing needs more packages. See Cryptographic Dependencies before you start.",
        "Tables need nothing more; see a_table, unknown_one and the extras for the rest of it.",
    ]


def test_a_getting_started_section_of_another_docs_page_gives_examples(tmp_path: Path) -> None:
    """sqlite-utils' Python API page opens with "Getting started" (gunicorn's, falcon's and werkzeug's pages
    too): its examples come after the README's and the starter pages'; a page's other sections give none."""
    files = {
        "README.md": "# tool\n\nTool stores rows in a file database.\n\n```shell\ntool insert db rows.json\n```\n",
        "docs/cli.md": "# CLI\n\nThe command line inserts rows.\n\n```shell\ntool query db 'select 1'\n```\n",
        "docs/python-api.md": (
            "# Python library\n\n## Getting started\n\nCreate a database and insert rows into a table:\n\n"
            "```python\ndb = Database('x.db')\ndb.table('t').insert_all(rows)\n```\n\n"
            "## Tables\n\nEvery table has a name and its rows:\n\n```python\ndb.table('t').rows\n```\n"
        ),
        "tool/core.py": "class Database:\n    pass\n",
    }
    root = make_project(tmp_path / "tool", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tool")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [p.text for p in docs.examples if p.kind == "code"] == [
        "tool insert db rows.json",
        "db = Database('x.db')\ndb.table('t').insert_all(rows)",
    ]


def test_the_examples_page_never_shares_a_name_with_a_docs_page(tmp_path: Path) -> None:
    """zustand's docs have a "Getting started" page of their own: deepkb's page of the project's examples
    is then "Usage examples", so the guide never lists two pages named alike."""
    files = dict(PROJECT)
    files["docs/getting-started.md"] = (
        "# Getting started\n\nInstall tinyweb, make an `App` and add a route to its router to serve a page.\n"
    )
    root = make_project(tmp_path / "tinyweb", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    directory = result.study.harvest_dir
    index = read_page(directory / "index.md")[1]
    assert "[Usage examples](guide/getting-started.md)" in index
    assert re.search(r"\[Getting started\]\(guide/\d\d_getting-started\.md\)", index)
    assert read_page(directory / "guide" / "getting-started.md")[0]["title"].endswith("· Usage examples")


def test_a_notice_is_no_overview(tmp_path: Path) -> None:
    """pf4j's README: what a plugin is, then "**NOTE:** Starting with version 0.9 …": the note is an aside,
    not what the project is."""
    readme = (
        "# PF4J\n\n"
        "A plugin is a way for a third party to extend the functionality of an application.\n\n"
        "**NOTE:** Starting with version 0.9 you can define an extension directly in the application jar.\n\n"
        + "".join(
            f"## {name}\n\nThis part of the README explains {name.lower()} in a sentence or two.\n\n"
            f"It says more about {name.lower()} here.\n\nAnd more again, so it counts.\n\nAnd once more.\n\n"
            for name in ("Features", "Components", "How to use")
        )
    )
    root = make_project(tmp_path / "pf4j", {"README.md": readme, "src/Plugin.java": "class Plugin {}\n"})
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/pf4j")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    said = [p.text for p in docs.overview]
    assert said[0] == "A plugin is a way for a third party to extend the functionality of an application."
    assert not any("version 0.9" in s for s in said)


def test_a_concept_of_many_pages_names_its_first_pages_in_its_lead() -> None:
    """A folded reference holds a hundred pages: its lead names the first ones and counts the rest."""
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.site.pages.repo_guide import LISTED_PAGES, concept_page

    pages = tuple(
        DocPage(
            f"docs/api/fn{n:02}.md",
            f"fn{n:02}",
            (DocPassage(f"docs/api/fn{n:02}.md", 1, 1, "paragraph", "x"),),
        )
        for n in range(LISTED_PAGES + 8)
    )
    linker = Linker({p.path: 3 for p in pages}, "r" * 40, "https://github.com/acme/calc")
    lead = concept_page(DocConcept("Api", "api", pages), "acme/calc", linker).lead
    assert "docs/api/fn00.md" in lead and f"docs/api/fn{LISTED_PAGES - 1:02}.md" in lead
    assert f"fn{LISTED_PAGES:02}.md" not in lead and lead.endswith(" and 8 more pages).")


def test_a_copy_named_for_its_language_and_region_is_no_documentation(tmp_path: Path) -> None:
    copies = {
        "docs/README.ar-AR.md": "# الميزات\n\nمكتبة نماذج.\n",
        "docs/README.pt-BR.md": "# Recursos\n\nFormulários.\n",
        "doc/README-ar.md": "# ملتر\n\nوسيط.\n",
        "docs/README.zh-Hant.md": "# 功能\n\n表單。\n",
        "docs/recipes/request-id.md": "# Request IDs\n\nEach request carries an id the logs repeat.\n",
    }
    root = make_project(tmp_path / "tinyweb", {**PROJECT, **copies})
    files = doc_files(map_repository(root))
    assert [p for p in copies if p in files] == ["docs/recipes/request-id.md"]


def test_getting_started_comes_from_pages_named_intro_or_basics_never_from_words_holding_them(
    tmp_path: Path,
) -> None:
    project = {
        "README.md": "# tinyweb\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/01-intro.md": (
            "# Intro\n\nStart with an app that serves one route:\n\n"
            "```python\napp = App()\napp.serve(8000)\n```\n"
        ),
        "docs/recipes/0011-introspecting-routes.md": (
            "# Introspecting routes\n\nThe example below prints every route the router holds:\n\n"
            "```python\nfor route in app.router.routes:\n    print(route)\n```\n"
        ),
        "docs/usage/BasicReducerStructure.md": (
            "# Basic reducer structure\n\nA reducer composed of smaller ones, one per part:\n\n"
            "```python\nreducer = combine(users=users, posts=posts)\n```\n"
        ),
        "tinyweb/__init__.py": '"""Tinyweb."""\n\n\nclass App:\n    """The app."""\n',
    }
    root = make_project(tmp_path / "tinyweb", project)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [p.text for p in docs.examples if p.kind == "code"] == ["app = App()\napp.serve(8000)"]


def test_nuxt_content_order_prefixes_never_name_a_concept_and_a_page_titled_getting_started_is_a_starter(
    tmp_path: Path,
) -> None:
    project = {
        "README.md": "# tinyweb\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/1.guide/0.index.md": (
            "---\nicon: ph:book\n---\n\n# Getting Started\n\nTinyweb serves an app on any runtime.\n\n"
            "Create an app and serve it:\n\n```ts\nconst app = new App();\nserve(app, { port: 3000 });\n```\n"
        ),
        "docs/1.guide/2.routing.md": "# Routing\n\nThe router matches each path against its routes in order.\n",
        "docs/2.deploy/0.index.md": "# Overview\n\nTinyweb builds one output for every hosting provider.\n",
        "docs/2.deploy/10.runtimes/1.node.md": "# Node.js\n\nNode.js is the default runtime of a build.\n",
        "docs/2.deploy/10.runtimes/bun.md": "# Bun\n\nBun runs the same build without changes.\n",
        "tinyweb/__init__.py": '"""Tinyweb."""\n\n\nclass App:\n    """The app."""\n',
    }
    providers = {  # a catalogue too long for one concept: the folder is split, its index stands alone
        f"docs/2.deploy/20.providers/host{n}.md": f"# Host {n}\n\nHost {n} deploys a build with one command.\n"
        for n in range(12)
    }
    root = make_project(tmp_path / "tinyweb", project)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    names = [c.name for c in docs.concepts]
    assert names and not any(re.fullmatch(r"\d+|\d+\.\w+", n) for n in names)
    # guide/ is a category: a concept per page; its getting-started page is quoted on Getting started instead
    assert names[:2] == ["Routing", "Deploy"] and docs.started and docs.started.name == "Getting Started"
    split = make_project(tmp_path / "split", {**project, **providers})
    split_map = map_repository(split)
    split_linker = Linker(
        {f.path: f.lines for f in split_map.files}, "r" * 40, "https://github.com/acme/tinyweb"
    )
    split_names = [
        c.name
        for c in read_project_docs(split, split_map, extract_facts(split, split_map), split_linker).concepts
    ]
    assert split_names[:3] == ["Routing", "Deploy", "Runtimes"]
    assert [p.text for p in docs.examples if p.kind == "code"] == [
        "const app = new App();\nserve(app, { port: 3000 });"
    ]


def test_a_guide_without_a_title_keeps_its_first_part(tmp_path: Path) -> None:
    """hapi's API.md opens on "## Server" (2,700 lines of the server's API) with no `#` title above it: the
    page is titled by that heading, and the part was dropped as the title said again, so the guide had
    route options, the request lifecycle, requests and plugins but never the server."""
    api = "".join(
        f"## {h}\n\nThe {h.lower()} is explained here, in a paragraph of its own.\n\n"
        f"```js\nconst {h.split()[0].lower()} = 1;\n```\n\nThen the {h.lower()} goes on, said once more here.\n\n"
        f"And the {h.lower()} ends with a last paragraph of words.\n\n"
        for h in ("Server", "Route options", "Request lifecycle", "Plugins")
    )
    files = {
        "README.md": "# web\n\nA web framework.\n",
        "API.md": "\n" + api,
        "package.json": '{"name": "web"}\n',
        "lib/index.js": "exports.server = function server() {};\n",
    }
    docs = _docs_of(make_project(tmp_path / "web", files))
    assert [c.name for c in docs.concepts] == ["Server", "Route options", "Request lifecycle", "Plugins"]


def test_a_readme_s_copies_in_other_languages_are_not_the_docs(tmp_path: Path) -> None:
    """multer's doc/ folder holds its README in ten languages and nothing else, so its "docs" were the Uzbek
    copy; signale's docs/ the Albanian, German and Chinese ones, whose sections became the guide's concepts
    ("Pikat Kryesore", "Regjistruesit e Paracaktuar" …). A copy named with its language beside the README
    or a front page is no page of the docs, whatever its language (the list `_NOT_DOCS` knows by name has no
    Uzbek); an English one, or a page so named with no original (`intro-go.md`), stays."""
    files = {
        "README.md": "# upload\n\nHandles uploads.\n",
        "doc/README-uz.md": "# upload\n\nYuklash.\n",
        "doc/README-pt-br.md": "# upload\n\nCarregar.\n",
        "docs/readme.md": "# Translations\n",
        "docs/readme.AL.md": "# Signale\n",
        "docs/readme.zh_CN.md": "# Signale\n",
        "docs/index.en-US.md": "# Home\n",
        "docs/guide/api-go.md": "# The Go API\n",
        "docs/guide/api.md": "# The API\n",
        "site/intro-go.md": "# Go\n",
    }
    paths = doc_files(map_repository(make_project(tmp_path / "upload", files)))
    assert sorted(paths) == [
        "README.md",
        "docs/guide/api-go.md",
        "docs/guide/api.md",
        "docs/index.en-US.md",
        "docs/readme.md",
        "site/intro-go.md",
    ]


def test_a_project_showing_no_use_in_its_readme_is_shown_used_by_its_docs_pages(tmp_path: Path) -> None:
    """hapi's README holds no code and its API.md teaches by example (`const server = Hapi.server({ port: 80
    })`); beaker's README neither, its sessions and caching pages do: Getting started shows those, not nothing."""
    files = {
        "README.md": "# web\n\nA framework for building web servers.\n\n```shell\nnpm install web\n```\n",
        "API.md": (
            "# API\n\n## Server\n\nCreate a server and start it:\n\n"
            "```js\nconst server = Web.server({ port: 80 });\nawait server.start();\n```\n"
        ),
        "lib/index.js": "exports.server = function (options) {\n    return options;\n};\n",
    }
    docs = _docs_of(make_project(tmp_path / "web", files))
    assert [p.text for p in docs.examples if p.kind == "code"] == [
        "const server = Web.server({ port: 80 });\nawait server.start();"
    ]


def test_a_guide_entry_of_a_page_that_is_a_list_is_its_first_item() -> None:
    """gws' "Feature" section is a task list (`- [x] Event-driven API based on the Event interface, …`):
    the guide listed it with no words. Its first item says what it holds; a bare link or a name does not."""
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import concept_line

    def line(*items: str) -> str:
        said = tuple(DocPassage("README.md", 3 + i, 3 + i, "item", t) for i, t in enumerate(items))
        return concept_line(1, DocConcept("Feature", "feature", (DocPage("README.md", "Feature", said),)))

    assert line(
        "☑ Event-driven API based on the Event interface, similar to common SDKs", "☑ Broadcast"
    ).endswith("— Event-driven API based on the Event interface, similar to common SDKs.")
    assert " — " not in line("Redis", "Memcached") and " — " not in line("Diagrams (we recommend Mermaid)")


def test_a_guide_entry_of_a_question_the_readme_answers_is_its_answer() -> None:
    """p-queue's README answers each question of its FAQ under its own heading, and each is a guide page: the
    index listed "How do I implement backpressure? — How do I implement backpressure?", its page opening "How the
    project's documentation explains How do I implement backpressure?, in its own order". A page that is the
    question says its answer; a FAQ page of several questions is still told by its first questions."""
    from generator.repo.analyze.citations import Linker
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import DocPassage
    from generator.site.pages.repo_guide import concept_line, concept_page

    question = "How do I cancel a queued task?"
    answer = DocPassage(
        "readme.md",
        40,
        40,
        "paragraph",
        "Use `AbortSignal` for targeted cancellation. It is cheap.",
        question,
    )
    concept = DocConcept(question, "cancel", (DocPage("readme.md", question, (answer,)),))
    assert concept_line(7, concept).endswith("— Use `AbortSignal` for targeted cancellation.")
    lead = concept_page(concept, "acme/pq", Linker({"readme.md": 60}, "r" * 40, "")).lead
    assert lead.startswith(
        "How the project's documentation answers “How do I cancel a queued task?”, in its own"
    )
    asked = DocPassage("docs/faq.md", 3, 3, "paragraph", answer.text, question)
    faq = DocConcept("FAQ", "faq", (DocPage("docs/faq.md", "FAQ", (asked,)),))
    assert concept_line(8, faq).endswith("— How do I cancel a queued task?")


def test_a_disclaimer_is_no_part_of_what_a_page_says(tmp_path: Path) -> None:
    """luxon's "Why does Luxon exist?" opens on its questions, then "## A disclaimer" ("I should clarify here
    that I'm just one of Moment's maintainers; …"): the guide described the page by the disclaimer. Whose
    opinions these are is not what the page explains; its Origin is."""
    from generator.site.pages.repo_guide import concept_line

    files = {
        **PROJECT,
        "docs/why.md": (
            "# Why does tinyweb exist?\n\nWhat's the deal with tinyweb anyway? Why did I write it?\n\n"
            "## A disclaimer\n\nI should clarify here that I'm just one of the maintainers; I'm not in charge.\n\n"
            "## Origin\n\nTinyweb started because routing in the old framework was slow to change.\n"
        ),
    }
    docs = _docs_of(make_project(tmp_path / "tinyweb", files))
    why = next(c for c in docs.concepts if c.name.startswith("Why"))
    line = concept_line(1, why)
    assert "Tinyweb started because routing" in line and "clarify" not in line
    # … though the page still quotes it (toolz's streaming page says in one that it is no data-analytics library)
    assert any("clarify" in p.text for page in why.pages for p in page.passages)


def test_a_concepts_own_symbols_come_before_those_every_concept_names() -> None:
    """anyio's guide listed "Creating and managing tasks · `sleep`, `create_task_group`, `run`" and "Working
    with threads · `run`, `sleep`, `Event`": `run` ends every page's examples and tells none of them. A
    symbol at least half the concepts name comes after a concept's own symbols — a class too: ormar's every
    page opened on `OrmarConfig`, `Integer`, `String` — unless the concept's name names it (`Runner`); a
    concept naming nothing else keeps it."""
    from generator.repo.docs.model import DocConcept
    from generator.repo.docs.specific import specific_symbols_first
    from generator.repo.model import CitedSymbol

    def concept(name: str, *symbols: str) -> DocConcept:
        cited = tuple(
            CitedSymbol(s, "class" if s[0].isupper() else "function", "src/kit.py") for s in symbols
        )
        return DocConcept(name, name.lower(), (), cited)

    concepts = [
        concept("Tasks", "run", "create_task_group"),
        concept("Threads", "run", "Machine", "to_thread"),
        concept("Signals", "run", "Machine", "open_signal_receiver"),
        concept("Files", "run", "Machine", "open_file"),
        concept("Runner", "Machine", "run", "Runner"),
        concept("Basics", "run"),
        concept("Streams", "create_stream"),
    ]
    ordered = {c.name: [s.name for s in c.symbols] for c in specific_symbols_first(concepts, 8)}
    assert ordered["Tasks"] == ["create_task_group", "run"]
    assert ordered["Threads"] == ["to_thread", "run", "Machine"]
    assert ordered["Runner"] == ["Runner", "Machine", "run"]
    assert ordered["Basics"] == ["run"] and ordered["Streams"] == ["create_stream"]
    few = specific_symbols_first(concepts[:2], 8)  # two concepts: a symbol needs three to be shared
    assert [s.name for s in few[0].symbols] == ["run", "create_task_group"]


def test_a_method_the_examples_call_through_its_class_is_that_class_s(tmp_path: Path) -> None:
    """omegaconf's docs call `OmegaConf.create({...})` and `OmegaConf.load('example.yaml')`: the bare name
    `create` was linked to the `oc.create` resolver of resolvers/oc/__init__.py, and `load` (which two
    modules define) was never listed. A call through a class is that class's method."""
    files = {
        "README.md": (
            "# tinyconf\n\nTinyconf is a hierarchical configuration system merging many sources.\n\n"
            "```python\nfrom tinyconf import TinyConf\n\nconf = TinyConf.create({'a': 1})\n"
            "conf = TinyConf.load('example.yaml')\n```\n"
        ),
        "tinyconf/__init__.py": "from .api import TinyConf\n",
        "tinyconf/api.py": (
            "class TinyConf:\n    @staticmethod\n    def create(obj):\n        return obj\n\n"
            "    @staticmethod\n    def load(path):\n        return path\n"
        ),
        "tinyconf/resolvers.py": (
            "def create(obj):\n    return obj\n\n\nclass Loader:\n    def load(self, path):\n        return path\n"
        ),
    }
    docs = _docs_of(make_project(tmp_path / "tinyconf", files))
    assert [(s.name, s.path) for s in docs.example_symbols] == [
        ("TinyConf.create", "tinyconf/api.py"),
        ("TinyConf.load", "tinyconf/api.py"),
    ]


def test_getting_started_opens_with_the_project_s_own_install_section(tmp_path: Path) -> None:
    """copier's README says how to install it ("Install Python 3.10 or newer", `pipx install copier`,
    `brew install copier`) and expr's (`go get github.com/expr-lang/expr`): neither was on any page, since
    install blocks are no examples; Getting started now opens with them, cited at their lines."""
    from generator.repo.docs.install import install_steps
    from generator.site.pages.repo_guide import started_page

    readme = read_text(
        "# tinycopy\n\nA library and CLI app for rendering project templates.\n\n## Installation\n\n"
        "1. Install Python 3.10 or newer.\n1. Install Git 2.27 or newer.\n"
        "1. To use as a CLI app: [`pipx install tinycopy`](https://pipx.example)\n"
        "1. To use as a library: `pip install tinycopy`\n\n### Homebrew formula\n\n"
        "To install the latest release using its Homebrew formula:\n\n```shell\nbrew install tinycopy\n```\n\n"
        "> [!NOTE]\n> Windows is supported too.\n\n"
        "## Quick start\n\n```python\nfrom tinycopy import run_copy\n\nrun_copy('src', 'dst')\n```\n",
        name="README.md",
        origin="README.md",
    )
    steps = install_steps([readme])
    assert [(p.kind, p.text, p.start) for p in steps] == [
        ("item", "Install Python 3.10 or newer.", 7),
        ("item", "Install Git 2.27 or newer.", 8),
        ("item", "To use as a CLI app: `pipx install tinycopy`", 9),
        ("item", "To use as a library: `pip install tinycopy`", 10),
        ("paragraph", "To install the latest release using its Homebrew formula:", 14),
        ("code", "brew install tinycopy", 16),
    ]
    go = read_text(
        "# tinyexpr\n\nAn expression language.\n\n## Install\n\n```\ngo get github.com/acme/tinyexpr\n```\n\n"
        "## Documentation\n\nSee the docs.\n",
        name="README.md",
        origin="README.md",
    )
    assert [(p.kind, p.text) for p in install_steps([go])] == [("code", "go get github.com/acme/tinyexpr")]
    # a README that says nothing of installing leaves it to the docs' installation page (immer's, mobx's)
    bare = read_text("# tinystate\n\n## Usage\n\n```js\nproduce(base, fn)\n```\n", name="README.md")
    page = read_text(
        "---\ntitle: Installation\n---\n\nTinystate can be installed as a direct dependency:\n\n"
        "- Yarn: `yarn add tinystate`\n- NPM: `npm install tinystate`\n",
        name="docs/installation.md",
        origin="docs/installation.md",
    )
    assert [p.kind for p in install_steps([bare, page])] == ["paragraph", "item", "item"]
    # … and a heading naming installing that shows no install command is none (a plugins' "Installing" page)
    assert install_steps([bare]) == []

    files = {
        **PROJECT,
        "README.md": PROJECT["README.md"].replace(
            "## Quick start", "## Install\n\n```sh\npip install tinyweb\n```\n\n## Quick start"
        ),
    }
    root = make_project(tmp_path / "tinyweb", files)
    docs = _docs_of(root)
    linker = Linker({"README.md": 40}, "r" * 40, "https://github.com/acme/tinyweb")
    page = started_page(docs, "acme/tinyweb", linker)
    assert page.sections[0].heading == "Install"
    assert page.sections[0].body == ["```sh\npip install tinyweb\n```"]
    assert "README.md#L" in page.sections[0].source
    assert page.sections[1].heading == "Quick start"


def test_a_badge_to_paste_into_one_s_own_readme_is_no_usage_example() -> None:
    """copier's "Show your support" offers its badge as Markdown, reST and HTML: these closed its Getting
    started as if they were uses of copier."""
    readme = read_text(
        "# tinycopy\n\n## Quick start\n\n```python\nrun_copy('src', 'dst')\n```\n\n## Show your support\n\n"
        "Add the badge to your `README.md`:\n\n"
        "```md\n[![tinycopy](https://img.shields.io/endpoint?url=x.json)](https://github.com/acme/tinycopy)\n```\n\n"
        "```rst\n.. image:: https://img.shields.io/endpoint?url=x.json\n    :target: https://github.com/acme/tinycopy\n"
        "    :alt: tinycopy\n```\n\n"
        '```html\n<a href="https://github.com/acme/tinycopy"><img src="https://img.shields.io/x.json" alt="t"/></a>\n'
        "```\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text for p in usage_examples([readme]) if p.kind == "code"] == ["run_copy('src', 'dst')"]


def test_a_guide_page_names_the_code_its_examples_call_through_the_project_s_packages(tmp_path: Path) -> None:
    """expr's Patch page calls `expr.Patch(…)` and `ast.Patch(…)` (two functions named Patch) and
    `reflect.TypeOf(…)`: its "In the code" listed expr's own `types.TypeOf`, matched by the bare name, and
    neither Patch (ambiguous by name alone). Now each call through a package of the project is the definition
    its package names, and a name only called through another package the code imports is that package's."""
    files = {
        "go.mod": "module github.com/acme/tinyexpr\n\ngo 1.21\n",
        "README.md": "# tinyexpr\n\nTinyexpr is an expression language with a compiler and a virtual machine.\n",
        "expr.go": (
            'package expr\n\nimport (\n\t"reflect"\n\n\t"github.com/acme/tinyexpr/ast"\n)\n\n'
            "// Patch adds a visitor applied before compiling.\nfunc Patch(v ast.Visitor) int {\n"
            "\t_ = reflect.TypeOf(v)\n\treturn 1\n}\n\n"
            "// Compile compiles the input.\nfunc Compile(input string, patches ...int) int {\n\treturn len(input)\n}\n"
        ),
        "ast/node.go": (
            "package ast\n\n// Visitor visits nodes.\ntype Visitor interface {\n\tVisit(node *Node)\n}\n\n"
            "// Node is a node.\ntype Node interface{}\n\n"
            "// Patch replaces the node with a new one.\nfunc Patch(node *Node, newNode Node) {\n\t*node = newNode\n}\n"
        ),
        "types/types.go": (
            "package types\n\n// TypeOf returns the type of a value.\nfunc TypeOf(v any) int {\n\treturn 0\n}\n"
        ),
        "docs/getting-started.md": "# Getting started\n\nCompile an expression:\n\n```go\nexpr.Compile(`1`)\n```\n",
        "docs/patch.md": (
            "# Patch\n\nSometimes it is necessary to modify an expression before the compilation.\n\n"
            "```go\nvar decimalType = reflect.TypeOf(Decimal{})\n\nfunc (FooPatcher) Visit(node *ast.Node) {\n"
            "\tast.Patch(node, &ast.IntegerNode{Value: 42})\n}\n```\n\n"
            "Now we can use the patcher on compilation:\n\n"
            "```go\nprogram, err := expr.Compile(`foo + bar`, expr.Patch(FooPatcher{}))\n```\n"
        ),
        "docs/visitor.md": "# Visitor\n\nA visitor walks every node of the tree in order.\n",
    }
    root = make_project(tmp_path / "tinyexpr", files)
    docs = _docs_of(root)
    patch = next(c for c in docs.concepts if c.name == "Patch")
    assert {(s.name, s.path) for s in patch.symbols[:2]} == {("Patch", "ast/node.go"), ("Patch", "expr.go")}
    assert "TypeOf" not in {s.name for s in patch.symbols}


COPIER_README = (
    "# tinycopy\n\nA library and CLI app for rendering project templates.\n\n"
    "- Works with local paths and Git URLs.\n- Copier can replace values in any kind of text file.\n"
    "- It takes care of not overwriting existing files unless told to.\n\n"
    "## Quick start\n\n```python\nfrom tinycopy import run_copy\n\nrun_copy('src', 'dst')\n```\n\n"
    "## Basic concepts\n\nTinycopy is composed of these main concepts:\n\n"
    "1. **Templates**. They lay out how to generate the subproject.\n"
    "1. **Projects**. This is where your real program lives, generated from a template.\n"
)


def test_the_list_under_the_readme_s_opening_statement_is_what_the_project_does() -> None:
    """copier's README says what it is in one sentence, then in three bullets (local paths and Git URLs,
    values replaced in any text file, never overwriting unless told): the overview had the sentence alone."""
    said = [
        (p.kind, p.text) for p in overview(read_text(COPIER_README, name="README.md", origin="README.md"), [])
    ]
    assert said == [
        ("paragraph", "A library and CLI app for rendering project templates."),
        ("item", "Works with local paths and Git URLs."),
        ("item", "Copier can replace values in any kind of text file."),
        ("item", "It takes care of not overwriting existing files unless told to."),
    ]


def test_a_docs_index_that_links_to_the_readme_is_the_readme_read_whole_as_the_overview(
    tmp_path: Path,
) -> None:
    """copier's docs/index.md, the docs' "Overview" in mkdocs.yml's nav, is a symbolic link to ../README.md:
    the walk never follows a link, so the page was skipped and the README's "Basic concepts" (templates,
    questionnaires, projects) reached no page. The link is read as the file it names, inside the tree only:
    the docs open with the README, read whole for the overview, past its first example."""
    files = {
        "README.md": COPIER_README,
        "mkdocs.yml": "nav:\n  - Overview: index.md\n  - Creating: creating.md\n  - Updating: updating.md\n",
        "docs/creating.md": "# Creating\n\nA template is a directory: usually the root folder of a Git repository.\n",
        "docs/updating.md": "# Updating\n\nTinycopy updates a project when its template evolves, keeping your changes.\n",
        "tinycopy/__init__.py": '"""Tinycopy."""\n\n\ndef run_copy(src, dst):\n    """Copy."""\n    return dst\n',
    }
    root = make_project(tmp_path / "tinycopy", files)
    (root / "docs" / "index.md").symlink_to("../README.md")
    (root / "docs" / "outside.md").symlink_to("../../elsewhere.md")  # out of the tree: never read
    (tmp_path / "elsewhere.md").write_text(
        "# Elsewhere\n\nA page outside the repository, never to be read.\n"
    )
    docs = _docs_of(root)
    said = [p.text for p in docs.overview]
    assert "Tinycopy is composed of these main concepts:" in said
    assert any(t.startswith("Templates") and "subproject" in t for t in said)
    assert docs.overview[0].path == "README.md"
    assert [c.name for c in docs.concepts] == [
        "Creating",
        "Updating",
    ]  # the README is no guide page of its own
    assert not any("outside" in p.path for c in docs.concepts for p in c.pages)


def test_a_usage_walk_through_is_read_to_its_last_step() -> None:
    """grpc-gateway's README "Usage" is six numbered steps; the examples' budget ran out in step 4's second
    sub-step, so step 5's entrypoint (`runtime.NewServeMux()` … `http.ListenAndServe`), which the steps
    before it lead to, was on no page. The walk-through the budget stops in goes on to its last step, one
    example a step; what follows it, unnumbered, is not read on."""
    from generator.repo.docs.usage import MAX_EXAMPLES

    def step(name: str, count: int) -> str:
        return f"### {name}\n\n" + "".join(f"```go\n{name.split()[0]}_{n}()\n```\n\n" for n in range(count))

    readme = read_text(
        "# gw\n\n## Usage\n\n"
        + step("1. Define", 4)
        + step("2. Generate", 4)
        + "#### 1. Default mapping\n\n```go\ndefault()\n```\n\n"
        + step("3.Implement", 2)
        + "### Step 4: Serve\n\nWrite the entrypoint:\n\n```go\nhttp.ListenAndServe()\n```\n\n"
        + "## More examples\n\n```go\nmore()\n```\n",
        name="README.md",
        origin="README.md",
    )
    code = [p.text for p in usage_examples([readme]) if p.kind == "code"]
    assert MAX_EXAMPLES == 8 and code == [
        *(f"1._{n}()" for n in range(4)),
        *(f"2._{n}()" for n in range(4)),
        "default()",
        "3.Implement_0()",
        "http.ListenAndServe()",
    ]


def test_an_install_command_continued_over_lines_is_an_install_step() -> None:
    """grpc-gateway's "Install by running" stood over nothing: its `go install \\` block goes on over four
    lines of package paths, none of which alone reads as a command, so the block was not taken to install."""
    from generator.repo.docs.install import install_steps

    readme = read_text(
        "# gw\n\n## Installation\n\nRun `go mod tidy` to resolve the versions. Install by running\n\n"
        "```sh\ngo install \\\n    github.com/acme/gw/cmd/gen \\\n    github.com/acme/gw/cmd/openapi\n```\n\n"
        "This will place two binaries in your `$GOBIN`.\n",
        name="README.md",
        origin="README.md",
    )
    assert [(p.kind, p.start) for p in install_steps([readme])] == [("paragraph", 5), ("code", 7)]


def test_a_folder_whose_front_page_only_lists_its_pages_is_a_category_of_subjects(tmp_path: Path) -> None:
    """grpc-gateway's mapping/index.md is just-the-docs front matter alone (`title: Mapping`,
    `has_children: true`): the site lists its nine pages there (custom marshalers, OpenAPI output, binary
    uploads …), and the guide had merged them into one "Mapping" page with one "In the code". Each is a
    concept of its own; a folder whose front page says something of its own stays one subject."""
    child = "---\ntitle: {0}\nparent: Mapping\nnav_order: {1}\n---\n\n{0} are set with `{2}` on the mux, like so.\n"
    files = {
        "README.md": "# gw\n\nA gateway that translates a RESTful HTTP API into gRPC calls.\n",
        "docs/index.md": "---\ntitle: Home\nnav_order: 0\n---\n\nThe gateway turns HTTP requests into calls.\n",
        "docs/mapping/index.md": "---\nlayout: default\ntitle: Mapping\nnav_order: 2\nhas_children: true\n---\n",
        "docs/mapping/marshalers.md": child.format("Custom marshalers", 0, "WithMarshalerOption"),
        "docs/mapping/uploads.md": child.format("Binary file uploads", 1, "HandlePath"),
        "docs/mapping/errors.md": child.format("Error handlers", 2, "WithErrorHandler"),
        "docs/routing/index.md": "---\ntitle: Routing\nnav_order: 3\n---\n\nRouting matches a request's path to a handler, pattern by pattern.\n",
        "docs/routing/patterns.md": "---\ntitle: Patterns\n---\n\nA pattern is a path with placeholders in it, matched segment by segment.\n",
        "docs/routing/order.md": "---\ntitle: Order\n---\n\nRoutes are tried in the order they were registered, the first match wins.\n",
        "gw.go": "package gw\n\n// HandlePath adds a route.\nfunc HandlePath() {}\n",
    }
    docs = _docs_of(make_project(tmp_path / "gw", files))
    assert [c.name for c in docs.concepts] == [
        "Home",
        "Custom marshalers",
        "Binary file uploads",
        "Error handlers",
        "Routing",
    ]


def test_a_folder_s_front_page_gives_the_folder_its_vuepress_theme_hope_order(tmp_path: Path) -> None:
    """taskiq's docs (vuepress-theme-hope, `sidebar: "structure"`): guide/README.md says `dir: order: 1`,
    available-components/README.md `order: 1` for itself and `dir: order: 4` for its folder."""
    files = {
        "docs/README.md": "---\ntitle: Home\n---\n\nTasks for asyncio.\n",
        "docs/available-components/README.md": "---\norder: 1\ndir:\n  order: 4\n---\n\n# Components\n",
        "docs/available-components/brokers.md": "---\norder: 2\n---\n\n# Brokers\n",
        "docs/extending/README.md": "---\ndir:\n  order: 3\n---\n\n# Extending\n",
        "docs/guide/README.md": "---\norder: 1\ndir:\n  order: 1\n---\n\n# Guide\n",
        "docs/guide/cli.md": "---\norder: 4\n---\n\n# CLI\n",
    }
    root = make_project(tmp_path / "tq", files)
    order = read_navigation(root, doc_files(map_repository(root))).order
    assert list(order) == [
        "docs/README.md",
        "docs/guide/README.md",
        "docs/guide/cli.md",
        "docs/extending/README.md",
        "docs/available-components/README.md",
        "docs/available-components/brokers.md",
    ]


def test_the_overview_stops_at_the_readmes_community_part() -> None:
    # chainsaw's lead ran on into "## Community Meetings" ("To attend our community meetings, join the Chainsaw
    # group …", README.md:50-52), a section no other heading rule knew; nothing past it says what the tool is
    readme = read_text(
        "# tinysaw\n\n## Overview\n\nTinysaw provides a declarative approach to test Kubernetes operators and "
        "controllers.\n\n## Community Meetings\n\nTo attend our meetings, join the Tinysaw group and you will then "
        "be sent a meeting invite with the agenda.\n\n## Design\n\nTinysaw runs every step of a test in order and "
        "checks each resource against its expected state.\n",
        name="README.md",
        origin="README.md",
    )
    said = [p.text for p in overview(readme, [])]
    assert said == ["Tinysaw provides a declarative approach to test Kubernetes operators and controllers."]
    # "Support for …" is a feature, not the support part
    featured = read_text(
        "# tinysaw\n\nTinysaw provides a declarative approach to test Kubernetes operators and controllers.\n\n"
        "## Support for Helm\n\nTinysaw installs a Helm chart before a test and removes it after the test ends.\n",
        name="README.md",
        origin="README.md",
    )
    assert len(overview(featured, [])) == 2
    # a community banner over the page, before the lead, ends nothing (beanie's "Join Us" above its "Overview")
    banner = read_text(
        "# tinysaw\n\n## Join Us\n\nWe meet every week to plan the next release of the tool together.\n\n"
        "## Overview\n\nTinysaw provides a declarative approach to test Kubernetes operators and controllers.\n\n"
        "Tinysaw runs every step of a test in order and checks each resource against its expected state.\n",
        name="README.md",
        origin="README.md",
    )
    assert [p.text[:20] for p in overview(banner, [])] == ["Tinysaw provides a d", "Tinysaw runs every s"]


def test_passages_under_no_heading_are_headed_by_their_file_s_name_not_its_path() -> None:
    """nfpm's Getting started showed "## www/content/docs/quick-start.md" over the quick start's opening
    lines (a page titled in front matter has no heading above them): a path as an h2, in the page's table of
    contents. The section is named after the file; its citation line still names the path."""
    from generator.site.pages.repo_guide import sections

    linker = Linker({"www/content/docs/quick-start.md": 40, "docs/guide/index.md": 10}, "r" * 40, "")
    found = [
        DocPassage("www/content/docs/quick-start.md", 5, 5, "paragraph", "Install nfpm first."),
        DocPassage("docs/guide/index.md", 3, 3, "paragraph", "The guide starts here."),
        DocPassage("docs/guide/index.md", 7, 7, "paragraph", "Then this.", heading="Usage"),
    ]
    headings = [s.heading for s in sections(found, linker)]
    assert headings == ["Quick start", "Guide", "Usage"]


def test_a_paragraph_after_an_example_that_announces_a_list_comes_with_the_list() -> None:
    """gqlgen's README: "… the first model in this list is used as the default type and it will always be used
    when:" had ended the ID-type answer on Getting started, the two cases it names and the sentence after them
    dropped."""
    text = (
        "# gqlgen\n\n## Can I change the type of the ID from type String to Type Int?\n\n"
        "Yes! You can by remapping it in config as seen below:\n\n"
        "```yaml\nmodels:\n  ID:\n    model:\n      - github.com/99designs/gqlgen/graphql.IntID\n```\n\n"
        "This means gqlgen will bind to strings or ints, but the first model in this list is used as the "
        "default type and it will always be used when:\n\n"
        "- Generating models based on schema\n- As arguments in resolvers\n\n"
        "There isn't any way around this, gqlgen has no way to know what you want in a given context.\n\n"
        "## Why do my interfaces have getters?\n\nSee below.\n"
    )
    found = usage_examples([read_text(text, name="README.md")])
    assert [(p.kind, p.text[:24]) for p in found] == [
        ("lead", "Yes! You can by remappin"),
        ("code", "models:\n  ID:\n    model:"),
        ("paragraph", "This means gqlgen will b"),
        ("item", "Generating models based "),
        ("item", "As arguments in resolver"),
        ("paragraph", "There isn't any way arou"),
    ]
