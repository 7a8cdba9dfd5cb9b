"""Code a doc page includes from another file (MkDocs snippets, Sphinx `literalinclude`): quoted as that
file's lines and cited there, never shown as the placeholder."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.config import load_bounded_yaml
from generator.documents import read_text
from generator.repo.docs.includes import Included, Includes
from generator.repo.docs.navigation import snippet_bases
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

HELLO = "from tinyweb import App\n\napp = App()\napp.serve(8000)\n"
SERVE = "server {\n    listen 80;\n    location / { proxy_pass http://app; }\n}\n"


def _code(text: str, name: str, includes: bool = True) -> list[tuple[str, str, int, int, str]]:
    document = read_text(text, name=name, origin=name, revision="", includes=includes)
    return [(b.text, b.language, b.start, b.end, b.origin) for _, b in document.blocks() if b.kind == "code"]


def test_a_literalinclude_is_a_code_block_holding_its_marker() -> None:
    text = (
        "Usage\n=====\n\nRun this:\n\n.. literalinclude:: ../examples/hello.py\n    :language: python\n\n"
        "A part of it:\n\n.. literalinclude:: ../examples/hello.py\n    :lines: 3-4\n\n"
        "One function:\n\n.. literalinclude:: ../examples/hello.py\n    :pyobject: main\n\n"
        "Short form:\n\n.. literalinclude:: serve.conf\n\nThe end.\n"
    )
    assert [(t, lang) for t, lang, *_ in _code(text, "docs/usage.rst")] == [
        (".. literalinclude:: ../examples/hello.py", "python"),
        (".. literalinclude:: ../examples/hello.py:3:4", ""),
        (".. literalinclude:: serve.conf", ""),  # `:pyobject:` picks a part no marker can say: left out
    ]
    assert _code(text, "docs/usage.rst", includes=False) == []  # a reader that cannot read the files
    # the lines after the directives keep their places (the reST file's own lines stay citable)
    document = read_text(text, name="docs/usage.rst", origin="docs/usage.rst", revision="")
    last = [b for _, b in document.blocks()][-1]
    assert (last.text, last.start) == ("The end.", text.splitlines().index("The end.") + 1)


def test_an_included_name_resolves_among_the_repositorys_files_only(tmp_path: Path) -> None:
    files = frozenset({"docs/guide.md", "docs/examples/a.cpp", "examples/nginx.conf", "x/b.py", "y/b.py"})
    includes = Includes(tmp_path, files, "docs")
    assert includes.resolve("docs/guide.md", "examples/a.cpp") == "docs/examples/a.cpp"  # the page's folder
    assert includes.resolve("docs/guide.md", "examples/nginx.conf") == "examples/nginx.conf"  # the root
    assert includes.resolve("docs/api/x.md", "examples/a.cpp") == "docs/examples/a.cpp"  # the docs folder
    assert includes.resolve("site/docs/x.md", "a.cpp") == "docs/examples/a.cpp"  # the one file ending so
    assert includes.resolve("docs/guide.md", "b.py") == ""  # two files end so: neither is guessed
    assert includes.resolve("docs/guide.md", "/examples/a.cpp", sphinx=True) == "docs/examples/a.cpp"
    for hostile in ("../../../etc/passwd", "/etc/passwd", "..\\..\\secrets", "a.cpp\x00"):
        assert includes.resolve("docs/guide.md", hostile) == ""


def test_a_snippet_block_becomes_the_included_files_lines(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", {"docs/guide.md": "x\n", "examples/hello.py": "\n" + HELLO})
    files = frozenset({"docs/guide.md", "examples/hello.py"})
    text = (
        '# Guide\n\nServe an app:\n\n```python\n--8<-- "examples/hello.py"\n```\n\n'
        'Just the call:\n\n```python\n--8<-- "examples/hello.py:5:5"\n```\n\n'
        'A missing one:\n\n```python\n--8<-- "examples/missing.py"\n```\n\n'
        '--8<-- "includes/abbreviations.md"\n\n'
        'Escaped, as written:\n\n```text\n;--8<-- "examples/hello.py"\n```\n'
    )
    document = Includes(root, files, "docs").expand(
        read_text(text, name="docs/guide.md", origin="docs/guide.md", includes=True)
    )
    code = [
        (b.text, b.start, b.end, b.language, b.origin, b.lead)
        for _, b in document.blocks()
        if b.kind == "code"
    ]
    assert code == [
        (HELLO.rstrip(), 2, 5, "python", "examples/hello.py", "Serve an app:"),  # blank first line left out
        ("app.serve(8000)", 5, 5, "python", "examples/hello.py", "Just the call:"),
        (';--8<-- "examples/hello.py"', 25, 27, "text", "", "Escaped, as written:"),
    ]
    assert not any("8<" in b.text and not b.text.startswith(";") for _, b in document.blocks())


def test_a_guide_page_shows_included_code_cited_at_the_included_file(tmp_path: Path) -> None:
    project = {
        "README.md": "# tinyweb\n\nTinyweb is a small web framework that routes requests to handlers.\n",
        "docs/index.md": "# Tinyweb\n\nTinyweb is made of an application object and a router.\n",
        "docs/deploy.md": (
            "# Deploying\n\nTinyweb runs behind a proxy that forwards every request to the app.\n\n"
            'An nginx server block that forwards to the app:\n\n```nginx\n--8<-- "examples/serve.conf"\n```\n\n'
            "Then start the app on the port the proxy forwards to, with the same worker settings.\n"
        ),
        "docs/running.rst": (
            "Running\n=======\n\nA whole program that serves the application on port 8000:\n\n"
            ".. literalinclude:: ../examples/hello.py\n    :language: python\n\n"
            "It blocks until the process is stopped by a signal from the terminal.\n"
        ),
        "examples/serve.conf": SERVE,
        "examples/hello.py": HELLO,
        "tinyweb/__init__.py": '"""Tinyweb."""\n\n\nclass App:\n    """The app."""\n\n    def serve(self, port):\n'
        '        """Serve."""\n        return port\n',
    }
    root = make_project(tmp_path / "tinyweb", project)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    revision = result.synthesis.revision
    guide = result.study.harvest_dir / "guide"
    deploy = read_page(next(guide.glob("*_deploying.md")))[1]
    assert "```nginx\n" + SERVE.rstrip() + "\n```" in deploy
    assert f"/blob/{revision}/examples/serve.conf#L1-L4)" in deploy  # the code, cited where it is
    assert f"/blob/{revision}/docs/deploy.md#L3-L" in deploy  # the page's own text, cited in the page
    assert "8&lt;" not in deploy and "--8<--" not in deploy
    running = read_page(next(guide.glob("*_running.md")))[1]
    assert "```python\n" + HELLO.rstrip() + "\n```" in running
    assert f"/blob/{revision}/examples/hello.py#L1-L4)" in running
    assert "literalinclude" not in running


def test_an_mdx_pages_markdown_partial_is_read_in_its_place(tmp_path: Path) -> None:
    types = (
        "---\nsidebar_label: x\n---\n\nKysely needs to know your database structure.\n\n"  # front matter: 1-3
        '```ts title="src/types.ts"\nexport interface Database { person: PersonTable }\n```\n\n'
        "<Nested />\n"
    )
    root = make_project(
        tmp_path / "p",
        {
            "site/docs/getting-started/_types.mdx": types,
            "site/docs/partials/_note.md": "Import types only.\n",
        },
    )
    files = frozenset(
        {
            "site/docs/getting-started.mdx",
            "site/docs/getting-started/_types.mdx",
            "site/docs/partials/_note.md",
        }
    )
    text = (
        "import Types from './getting-started/_types.mdx'\n"
        "import Note from '@site/docs/partials/_note.md';\n"
        "import { Installation } from './getting-started/Installation'\n\n"
        "# Getting started\n\n## Types\n\n<Types />\n\n## Installation\n\n<Installation />\n\n<Note />\n\n"
        "<Missing />\n\nDone.\n"
    )
    page = "site/docs/getting-started.mdx"
    read = read_text(text, name=page, origin=page, includes=True)
    document = Includes(root, files, "site/docs").expand(read)
    assert [(s.heading, b.kind, b.text, b.start, b.origin) for s, b in document.blocks()] == [
        (
            "Types",
            "paragraph",
            "Kysely needs to know your database structure.",
            5,
            "site/docs/getting-started/_types.mdx",
        ),
        (
            "Types",
            "code",
            "export interface Database { person: PersonTable }",
            7,
            "site/docs/getting-started/_types.mdx",
        ),
        ("Installation", "paragraph", "Import types only.", 1, "site/docs/partials/_note.md"),
        ("Installation", "paragraph", "Done.", 19, ""),
    ]
    # a reader that cannot read the repository's files (a topic's stored page) leaves the marker out
    stored = read_text(text, name=page, origin=page)
    assert [b.text for _, b in stored.blocks()] == ["Done."]


def test_a_markdown_page_of_an_mdx_site_shows_no_import_lines() -> None:
    text = (
        "# Globals\n\nJest puts these methods into the global environment.\n\n"
        "import TypeScriptExamplesNote from './_TypeScriptExamplesNote.md';\n\n"
        "## Methods\n\nimport TOCInline from '@theme/TOCInline';\nimport '../styles.css';\n\n"
        "import the module you need from the package, as usual.\n\n"
        "```js\nimport {describe} from '@jest/globals';\n```\n"
    )
    document = read_text(text, name="docs/GlobalAPI.md", origin="docs/GlobalAPI.md")
    assert [(b.kind, b.text) for _, b in document.blocks()] == [
        ("paragraph", "Jest puts these methods into the global environment."),
        ("paragraph", "import the module you need from the package, as usual."),
        ("code", "import {describe} from '@jest/globals';"),
    ]


def test_a_pages_text_included_from_the_readme_is_read_in_its_place(tmp_path: Path) -> None:
    """A docs index that includes the README's part between two marker comments (MyST `{include}` in
    svcs, stamina, structlog, attrs, cattrs; Sphinx `.. include:: ../README.rst` in typeguard, anyio,
    loguru, packaging, parsel — 15 mirrors) shows that part: its blocks are read and cited at the README's
    own lines; an include that cannot be read, or of code, says nothing."""
    readme = (
        "# tinydi\n\n<!-- begin index -->\n\n*tinydi* is a dependency container for Python.\n\n"
        "- It cleans up.\n\n<!-- end index -->\n\nLicense: MIT.\n"
    )
    root = make_project(
        tmp_path / "p", {"README.md": readme, "README.rst": "Tinydi\n======\n\nIt wires.\n\nSee the docs.\n"}
    )
    files = frozenset({"README.md", "README.rst", "docs/index.md", "docs/other.rst"})
    myst = (
        '# tinydi\n\n```{include} ../README.md\n:start-after: "<!-- begin index -->"\n'
        ':end-before: "<!-- end index -->"\n```\n\n```{include} ../missing.md\n```\n\n'
        "```{include} ../README.md\n:literal:\n```\n\nAfter.\n"
    )
    document = Includes(root, files, "docs").expand(
        read_text(myst, name="docs/index.md", origin="docs/index.md", includes=True)
    )
    assert [(b.text, b.start, b.origin) for _, b in document.blocks()] == [
        ("tinydi is a dependency container for Python.", 5, "README.md"),
        ("It cleans up.", 7, "README.md"),
        ("After.", 15, ""),
    ]
    rst = "Other\n=====\n\n.. include:: ../README.rst\n   :end-before: See the\n\nMore.\n"
    document = Includes(root, files, "docs").expand(
        read_text(rst, name="docs/other.rst", origin="docs/other.rst", includes=True)
    )
    assert [(b.text, b.start, b.origin) for _, b in document.blocks()] == [
        ("It wires.", 4, "README.rst"),
        ("More.", 7, ""),
    ]
    # a reader that does not expand includes (a topic's stored source) never shows the marker
    assert [b.text for _, b in read_text(myst, name="docs/index.md").blocks()] == ["After."]


MAIN_GO = (
    "package main\n\n"
    'import "example.com/tinyweb"\n\n'
    "// --8<-- [start:main]\n"
    "func main() {\n"
    "\t// --8<-- [start:serve]\n"
    "\ttinyweb.Serve(8000)\n"
    "\t// --8<-- [end:serve]\n"
    "}\n"
    "// --8<-- [end:main]\n"
)
FX_STYLE = {  # uber-go/fx's shape: mkdocs.yml in docs/, pages in docs/src/, examples under the `base_path` docs/ex/
    "README.md": "# tinyweb\n\nTinyweb is a small web framework that routes requests to handlers.\n",
    "docs/mkdocs.yml": (
        "site_name: tinyweb\ndocs_dir: src\nnav:\n  - Home: index.md\n  - Start: start.md\n"
        "markdown_extensions:\n  - admonition\n  - pymdownx.snippets:\n      base_path: [ex]\n"
    ),
    "docs/src/index.md": "# Tinyweb\n\nTinyweb is made of an application object and a router.\n",
    "docs/src/start.md": (
        "# Getting started\n\nBuild the smallest application there is.\n\n"
        '1. Write a minimal `main.go`.\n\n   ```go\n   --8<-- "start/main.go:main"\n   ```\n\n'
        '2. The line that serves, by its lines:\n\n   ```go\n   --8<-- "start/main.go:8:8"\n   ```\n\n'
        "3. Both parts, listed in a block:\n\n   ```go\n   --8<--\n   start/main.go:serve\n"
        "   start/main.go:1:1\n   --8<--\n   ```\n\n"
        'A hostile one:\n\n```go\n--8<-- "../../etc/passwd"\n```\n\n'
        'A remote one:\n\n```go\n--8<-- "https://example.com/x.go"\n```\n\n'
        "Then run it with the go tool and open the port in a browser.\n"
    ),
    "docs/ex/start/main.go": MAIN_GO,
    "tinyweb/serve.go": "package tinyweb\n\n// Serve serves.\nfunc Serve(port int) {}\n",
}


def test_a_snippet_names_a_section_or_lines_of_a_file_under_the_snippets_base_path(tmp_path: Path) -> None:
    root = make_project(tmp_path / "tinyweb", FX_STYLE)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    revision = result.synthesis.revision
    start = read_page(next((result.study.harvest_dir / "guide").glob("*_start.md")))[1]
    cited = f"/blob/{revision}/docs/ex/start/main.go"
    # the section's lines, its marker lines left out, cited at the example file's lines
    assert "```go\nfunc main() {\n\ttinyweb.Serve(8000)\n}\n```" in start
    assert f"{cited}#L6-L10)" in start
    assert "```go\n\ttinyweb.Serve(8000)\n```" in start and f"{cited}#L8)" in start
    assert "```go\npackage main\n```" in start and f"{cited}#L1)" in start  # the block form's second name
    assert "8<" not in start and "[start:" not in start
    assert "passwd" not in start and "example.com/x.go" not in start  # left out, not shown as written


def test_an_included_file_outside_the_repository_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.go"
    secret.write_text("package secret\n\nconst Key = 1\n")
    root = make_project(tmp_path / "p", {"docs/ex/ok.go": MAIN_GO, "docs/guide.md": "x\n"})
    (root / "docs/ex/leak.go").symlink_to(secret)
    includes = Includes(
        root, frozenset({"docs/ex/ok.go", "docs/ex/leak.go", "docs/guide.md"}), "docs", None, ("docs/ex",)
    )
    assert includes.read("docs/guide.md", ("--8<--", "ok.go:serve")) == Included(
        "docs/ex/ok.go", 8, 8, "\ttinyweb.Serve(8000)"
    )
    for hostile in (
        "leak.go",
        "../../../etc/passwd",
        "/etc/passwd",
        "https://example.com/ok.go",
        "ok.go:nowhere",
    ):
        assert includes.read("docs/guide.md", ("--8<--", hostile)) is None


def test_snippets_of_one_file_in_one_fence_are_one_block(tmp_path: Path) -> None:
    # fx's `main.go:partial-1` + `main.go:partial-2`: a function with its middle left out, shown as one block
    server = (
        "package main\n\n// --8<-- [start:head]\nfunc NewServer() *Server {\n\ts := &Server{}\n"
        "\t// --8<-- [end:head]\n\ts.hooks = 1\n\t// --8<-- [start:tail]\n\treturn s\n}\n"
        "// --8<-- [end:tail]\n"
    )
    root = make_project(tmp_path / "p", {"docs/ex/server.go": server, "docs/guide.md": "x\n"})
    includes = Includes(root, frozenset({"docs/ex/server.go", "docs/guide.md"}), "docs", None, ("docs/ex",))
    page = (
        '# Guide\n\n```go\n--8<-- "server.go:head"\n--8<-- "server.go:tail"\n```\n\n'
        '```go\n--8<-- "server.go:tail"\n--8<-- "server.go:head"\n```\n'
    )
    document = includes.expand(read_text(page, name="docs/guide.md", origin="docs/guide.md", includes=True))
    code = [(b.origin, b.start, b.end, b.text) for _, b in document.blocks() if b.kind == "code"]
    assert code == [
        ("docs/ex/server.go", 4, 10, "func NewServer() *Server {\n\ts := &Server{}\n\treturn s\n}"),
        # out of the file's order: each where it is, as cited
        ("docs/ex/server.go", 9, 10, "\treturn s\n}"),
        ("docs/ex/server.go", 4, 5, "func NewServer() *Server {\n\ts := &Server{}"),
    ]


def test_a_snippets_base_path_relative_to_the_config_or_docs_folder_is_that_folder() -> None:
    # griffe's `base_path: [!relative $config_dir]`; MkDocs also knows `$docs_dir`
    text = (
        "docs_dir: src\nmarkdown_extensions:\n- pymdownx.snippets:\n"
        "    base_path: [!relative $config_dir, !relative $docs_dir/snippets, ex]\n"
    )
    data = load_bounded_yaml(text, "docs/mkdocs.yml", foreign_tags=True)
    assert snippet_bases(data, "docs/mkdocs.yml") == ("docs", "docs/src/snippets", "docs/ex")
    assert snippet_bases(data, "mkdocs.yml") == (".", "src/snippets", "ex")


def test_a_vuepress_code_import_is_the_files_lines_and_a_tab_title_is_a_label(tmp_path: Path) -> None:
    # taskiq's docs: `@[code python](../examples/…)` in `::: tabs` with `@tab sync` / `@tab async`
    root = make_project(tmp_path / "p", {"docs/guide/run.md": "x\n", "docs/examples/hello.py": HELLO})
    files = frozenset({"docs/guide/run.md", "docs/examples/hello.py"})
    text = (
        "# Run\n\nServe an app:\n\n::: tabs\n\n@tab:active sync#one\n\n"
        "@[code python](../examples/hello.py)\n\n@tab two calls\n\n@[code{3-4}](../examples/hello.py)\n\n"
        ":::\n\nA missing one:\n\n@[code python](../examples/missing.py)\n\nThe end.\n"
    )
    document = Includes(root, files, "docs").expand(
        read_text(text, name="docs/guide/run.md", origin="docs/guide/run.md", includes=True)
    )
    blocks = [(b.kind, b.text, b.start, b.end, b.language, b.origin) for _, b in document.blocks()]
    assert blocks == [
        ("paragraph", "Serve an app:", 3, 3, "", ""),
        ("paragraph", "sync", 7, 7, "", ""),
        ("code", HELLO.rstrip(), 1, 4, "python", "docs/examples/hello.py"),
        ("paragraph", "two calls", 11, 11, "", ""),
        ("code", "app = App()\napp.serve(8000)", 3, 4, "python", "docs/examples/hello.py"),
        ("paragraph", "A missing one:", 17, 17, "", ""),
        ("paragraph", "The end.", 21, 21, "", ""),
    ]
    # a reader that cannot read the files shows neither the import nor the tab marker
    plain = read_text(text, name="docs/guide/run.md", origin="docs/guide/run.md")
    assert not any("@" in b.text or "8<" in b.text for _, b in plain.blocks())
