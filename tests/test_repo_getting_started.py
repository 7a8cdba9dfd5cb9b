"""Getting started: the project's install steps, then the first use it shows whole — its README's Quick Start
and its docs' own getting-started page — in the docs' order."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.documents import read_text
from generator.repo.docs.usage import usage_examples
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page


def test_a_readme_quick_start_is_shown_whole_though_long_and_after_a_partial_snippet() -> None:
    """ormar's README shows a 20-line "partial snippet" under "Migrations & Database creation", then its
    430-line "Quick Start" script (`OrmarConfig`, two models, `create_all`, `Author.objects.create`,
    `Book.objects.get`): Getting started dropped the script as too long for an example that is not the first."""
    steps = "\n".join(
        f"    await Book.objects.create(author=tolkien, title='Book {n}', year={n})" for n in range(200)
    )
    readme = read_text(
        "# tinyorm\n\nTinyorm is an async mini ORM for Python with support for Postgres and SQLite.\n\n"
        "### Migrations & Database creation\n\nFor tests the `sqlalchemy` engine is more than enough:\n\n"
        "```python\n# note this is just a partial snippet\nengine = sqlalchemy.create_engine(URL)\n"
        "metadata.create_all(engine)\n```\n\n"
        "### Quick Start\n\nNote that you can find the same script in the examples folder.\n\n"
        "```python\nimport tinyorm\n\nclass Author(tinyorm.Model):\n    id: int = tinyorm.Integer(primary_key=True)\n\n"
        f"async def create():\n    tolkien = await Author.objects.create(name='J.R.R. Tolkien')\n{steps}\n```\n\n"
        "### Later\n\n```python\n" + "x = 1\n" * 130 + "```\n",
        name="README.md",
        origin="README.md",
    )
    code = [p for p in usage_examples([readme]) if p.kind == "code"]
    assert [(p.heading, p.text.count("\n") + 1) for p in code] == [
        ("Migrations & Database creation", 3),
        ("Quick Start", 207),
    ]


def _tinyko(tmp_path: Path) -> Path:
    """ko's shape: a README that sends the reader to the docs, an install page of alternatives (a release
    download to verify first, then package managers, then `go install`) and a get-started page whose steps
    are prose (choose the destination) before its one command."""
    files = {
        "README.md": (
            "# tinyko\n\n`tinyko` is a simple, fast container image builder for Go applications.\n\n"
            "# [Install `tinyko`](https://x.test/install/) and [get started](https://x.test/get-started/)!\n"
        ),
        "mkdocs.yml": (
            "site_name: tinyko\nnav:\n  - index.md\n  - install.md\n  - get-started.md\n  - configuration.md\n"
        ),
        "docs/index.md": "# tinyko\n\n`tinyko` makes building Go container images easy, fast, and secure.\n",
        "docs/install.md": (
            "# Installation\n\n### Install from GitHub Releases\n\n```\n$ VERSION=TODO # choose the latest\n```\n\n"
            "We sign our releases. To verify a release, install the verifier and verify as follows:\n\n"
            "```shell\n$ curl -sSfL https://x.test/tinyko.tar.gz > tinyko.tar.gz\n```\n\n"
            "```shell\n$ tar xzf tinyko.tar.gz tinyko\n```\n\n"
            "### Install using Homebrew\n\n```plaintext\nbrew install tinyko\n```\n\nMore info [here](https://x.test)\n\n"
            "### Build and Install from source\n\nWith Go 1.16+, build and install the latest released version:\n\n"
            "```plaintext\ngo install example.com/tinyko@latest\n```\n"
        ),
        "docs/get-started.md": (
            "# Get Started\n\n## Setup\n\nFirst, [install `tinyko`](../install).\n\n### Choose Destination\n\n"
            "`tinyko` depends on an environment variable, `TINYKO_REPO`, to identify where it should push images"
            " that it builds:\n\n- `TINYKO_REPO=gcr.io/my-project`, or\n- `TINYKO_REPO=ghcr.io/my-org/my-repo`\n\n"
            "## Build an Image\n\n`tinyko build ./cmd/app` builds and pushes a container image, and prints the"
            " image digest.\n\n```plaintext\n$ tinyko build ./cmd/app\n```\n"
        ),
        "docs/configuration.md": "# Configuration\n\nBy default, `tinyko` bases images on a static base image.\n",
        "go.mod": "module example.com/tinyko\n\ngo 1.22\n",
        "main.go": "package main\n\n// main runs the builder.\nfunc main() {\n\tbuild()\n}\n\nfunc build() {}\n",
    }
    return make_project(tmp_path / "tinyko", files)


def test_getting_started_is_the_install_steps_then_the_docs_get_started_page_whole(tmp_path: Path) -> None:
    """ko's Getting started held one snippet (`ko build ./cmd/app`) and no install step, while its
    get-started page — choose the destination, then build — stood as a guide page named "Get Started" beside
    it: the page is now quoted whole on Getting started, after the install page's package managers (its
    release download, which installs nothing, left out), and the guide lists it once."""
    paths, config, provider = offline_setup(tmp_path / "kb")
    root = _tinyko(tmp_path)
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    directory = result.study.harvest_dir
    started = read_page(directory / "guide" / "getting-started.md")[1]
    for said in (
        "brew install tinyko",
        "go install example.com/tinyko@latest",
        "TINYKO_REPO=gcr.io/my-project",
    ):
        assert said in started
    assert started.index("brew install tinyko") < started.index("TINYKO_REPO") < started.index("tinyko build")
    assert "**Install using Homebrew**" in started and "VERSION=TODO" not in started
    assert "More info" not in started
    index = read_page(directory / "index.md")[1]
    assert "[Getting started](guide/getting-started.md)" in index
    assert "Get Started" not in index and "[Configuration](guide/" in index
    assert not list((directory / "guide").glob("*get-started.md"))


def test_a_docs_getting_started_page_of_pointers_or_of_many_pages_stays_a_guide_page() -> None:
    """griffe's getting-started page only points to the install and introduction pages, fx's "Get started"
    is a tutorial of nine pages: neither is one page walking through a first use, so each stays in the
    guide and Getting started keeps only the examples."""
    from generator.repo.docs.model import DocConcept, DocPage, DocPassage
    from generator.repo.docs.started import fold_started

    said = DocPassage("docs/getting-started.md", 3, 3, "paragraph", "To begin, refer to Installation.")
    code = DocPassage("docs/get-started/minimal.md", 5, 7, "code", "app := fx.New()", "Minimal", "go")
    pointers = DocConcept(
        "Getting started", "getting-started", (DocPage(said.path, "Getting started", (said,)),)
    )
    tutorial = DocConcept(
        "Get started",
        "get-started",
        (DocPage("docs/get-started/index.md", "Get started", ()), DocPage(code.path, "Minimal", (code,))),
    )
    folded = fold_started([pointers, tutorial], [code], "README.md", lambda heading: False)
    assert folded.page is None and folded.concepts == (pointers, tutorial) and folded.examples == (code,)


def test_an_install_page_of_one_line_alternatives_keeps_each_way_in() -> None:
    """ko's install page: Homebrew, MacPorts, Scoop, then `go install` from source, each a one-line command
    under its own heading: three blocks were the budget, and the Go toolchain's own way was cut. A menu of
    labelled one-liners is bounded by the passages' room; commands in a row under one heading stay three."""
    from generator.repo.docs.install import install_steps

    menu = "".join(
        f"### Install using {name}\n\n```plaintext\n{command}\n```\n\n"
        for name, command in (("Homebrew", "brew install tinyko"), ("MacPorts", "sudo port install tinyko"))
    )
    page = read_text(
        f"# Installation\n\n{menu}### Install on Windows using Scoop\n\n```plaintext\nscoop install tinyko\n```\n\n"
        "### Build and Install from source\n\nWith Go 1.16+, build and install the latest released version:\n\n"
        "```plaintext\ngo install example.com/tinyko@latest\n```\n",
        name="docs/install.md",
        origin="docs/install.md",
    )
    assert [p.text for p in install_steps([page]) if p.kind == "code"] == [
        "brew install tinyko",
        "sudo port install tinyko",
        "scoop install tinyko",
        "go install example.com/tinyko@latest",
    ]
    row = "".join(
        f"```sh\n{tool} tinyko\n```\n\n" for tool in ("npm install", "yarn add", "pnpm add", "bun add")
    )
    readme = read_text(f"# tinyko\n\n## Install\n\n{row}", name="README.md", origin="README.md")
    assert len([p for p in install_steps([readme]) if p.kind == "code"]) == 3
