"""What repository pages hold, read from real offline runs over a small library: the README's own words,
named subsystems with their key symbols linked, key types with their methods, the module catalogue, the
answer to a request, the history window; and the page layer's diagrams and flows from records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target, session_target
from generator.documents import read_text
from generator.repo.model import Citation, FlowHop
from generator.repo.run.chunked import run_chunks, start_session, synthesize_session
from generator.repo.run.pipeline import RepoPartialFailure, run_repo_research
from generator.repo.synthesize.readme import first_paragraph
from generator.site.pages import diagrams
from generator.site.pages.repo import publish_repo
from generator.site.pages.repo_diagrams import flow_markdown
from generator.store import read_page

LIBRARY: dict[str, str] = {
    "README.md": (
        "[![CI](https://ci.example/badge.svg)](https://ci.example)\n\n# webclient\n\n"
        "Webclient is a small HTTP client. It keeps sessions ({class}`Session`), follows redirects and retries.\n\n"
        "## Installation\n\nInstall it with pip install webclient today please.\n"
    ),
    "webclient/__init__.py": '"""The webclient package."""\n\nfrom .sessions import Session\n\n__all__ = ["Session"]\n',
    "webclient/sessions.py": (
        '"""Sessions keep cookies and settings across requests."""\n\n'
        "from .adapters import HTTPAdapter\nfrom .models import Request, Response\n\n\n"
        "class Session:\n"
        '    """A session: settings and cookies shared by its requests."""\n\n'
        "    def request(self, method, url):\n"
        '        """Build a request, send it and return the response."""\n'
        "        return self.send(Request(method, url))\n\n"
        "    def send(self, request):\n"
        '        """Send a prepared request through the adapter."""\n'
        "        return HTTPAdapter().send(request)\n\n"
        "    def resolve_redirects(self, response):\n"
        '        """Follow the redirects a response asks for."""\n'
        "        return response\n\n"
        "    def _private(self):\n"
        "        return None\n"
    ),
    "webclient/models.py": (
        '"""Requests and responses as plain objects."""\n\n\n'
        "class Request:\n"
        '    """What is sent: a method and a URL."""\n\n'
        "    def __init__(self, method, url):\n"
        "        self.method, self.url = method, url\n\n\n"
        "class Response:\n"
        '    """What came back: a status and a body."""\n\n'
        "    def json(self):\n"
        '        """The body decoded as JSON."""\n'
        "        return {}\n"
    ),
    "webclient/adapters.py": (
        '"""Transport adapters that talk to the network."""\n\n'
        "from .models import Response\n\n\n"
        "class HTTPAdapter:\n"
        '    """Sends requests over HTTP connections."""\n\n'
        "    def send(self, request):\n"
        '        """Send one request and build its response."""\n'
        "        return Response()\n"
    ),
    "webclient/auth.py": (
        '"""Authentication handlers."""\n\nfrom .models import Request\n\n\n'
        "class BasicAuth:\n"
        '    """HTTP basic authentication."""\n\n'
        "    def __call__(self, request):\n"
        "        return request\n"
    ),
    "webclient/cookies.py": '"""Cookie jars."""\n\n\nclass CookieJar:\n    """Holds cookies."""\n',
    "webclient/hooks.py": '"""Event hooks."""\n\n\ndef dispatch_hook(key, hooks):\n    """Call the hooks of one event."""\n    return hooks\n',
    "webclient/exceptions.py": '"""Errors."""\n\n\nclass WebclientError(Exception):\n    """Base error."""\n',
    "webclient/status_codes.py": '"""Status code names."""\n\nCODES = {200: "ok"}\n',
    "tests/test_sessions.py": "from webclient.sessions import Session\n\n\ndef test_session():\n    assert Session()\n",
    "docs/conf.py": "project = 'webclient'\n",
    "setup.py": "from setuptools import setup\n\nsetup()\n",
    ".github/workflows/ci.yml": "on: push\n",
    "LICENSE": "MIT License\n\nCopyright (c) 2026 someone\n",
}
SOURCE_MODULES = sorted(p for p in LIBRARY if p.startswith("webclient/"))


@pytest.fixture
def researched(tmp_path: Path) -> tuple[dict, str, list[tuple[dict, str]]]:
    root = make_project(tmp_path / "webclient", LIBRARY)
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(
        paths,
        config,
        provider,
        repo_target(paths, config, str(root), requests="how are redirects handled"),
        publish=publish_repo,
    )
    index_meta, index = read_page(paths.repos_dir / "acme" / "shop" / "index.md")
    shards = [read_page(paths.repos_dir / "acme" / "shop" / page) for page in index_meta["shards"]]
    index_meta["_folder"] = paths.repos_dir / "acme" / "shop"
    return index_meta, index, shards


def test_index_opens_with_the_readme_paragraph_and_links_source_and_revision(researched):
    meta, index, _ = researched
    body = index.split("\n", 2)[2].lstrip()
    # a MyST role reads as the code it names
    assert body.startswith(
        "Webclient is a small HTTP client. It keeps sessions \\(`Session`\\), follows redirects and retries."
    )
    assert "{class}" not in index
    assert meta["description"].startswith("Webclient is a small HTTP client. It keeps sessions (Session),")
    assert "pip install" not in index and "badge" not in index
    assert f"](https://github.com/acme/shop/commit/{meta['revision']})" in index
    assert "**Source:** [https://github.com/acme/shop](https://github.com/acme/shop)" in index


def test_the_description_is_the_overview_the_index_opens_with(tmp_path: Path) -> None:
    # humanize: an opening that leads into a list is no first paragraph, the manifest says too little — the
    # search description was a subsystem's docstring ("Activate, get and deactivate translations.")
    files = {
        "README.md": (
            "# tally\n\nThis modest package turns numbers into words a person reads, like a fuzzy"
            " duration or a file size. It is localized to:\n\n- Arabic\n- Basque\n"
        ),
        "pyproject.toml": '[project]\nname = "tally"\ndescription = "Tally utilities"\n',
        "tally/__init__.py": '"""Tally."""\n\nfrom .words import words\n',
        "tally/words.py": '"""Activate, get and deactivate translations."""\n\n\ndef words(n):\n    return str(n)\n',
    }
    root = make_project(tmp_path / "tally", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    meta, index = read_page(paths.repos_dir / "acme" / "shop" / "index.md")
    opening = (
        "This modest package turns numbers into words a person reads, like a fuzzy duration or a file size."
    )
    assert meta["description"] == opening
    assert index.split("\n", 2)[2].lstrip().startswith(opening)


def test_a_run_reads_the_readme_once_in_the_docs_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index's opening paragraph is the docs model's README document's: the facts and the shard
    context no longer read and parse the README a second time."""
    import generator.repo.facts.mentions as mentions

    def read_again(*_: object) -> str:
        raise AssertionError("the README was parsed again outside the docs model")

    monkeypatch.setattr(mentions, "first_paragraph", read_again)
    root = make_project(tmp_path / "webclient", LIBRARY)
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    _, index = read_page(paths.repos_dir / "acme" / "shop" / "index.md")
    assert index.split("\n", 2)[2].lstrip().startswith("Webclient is a small HTTP client.")


def test_subsystems_are_named_and_show_their_key_symbols_linked(researched):
    meta, index, _ = researched
    table = index.split("## Subsystems", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| [")]
    assert 3 <= len(rows) <= 5 == len(meta["shards"]) or 3 <= len(rows) == len(meta["shards"])
    for row in rows:
        name = row.split("](", 1)[0][3:]
        assert not re.search(r"\d|/|\(", name), name  # a name, never a directory or a number
        assert "](https://github.com/acme/shop/blob/" in row.split(" | ")[2]  # key symbols, linked
    assert "[`Session`](https://github.com/acme/shop/blob/" in table


def test_the_module_catalogue_lists_every_source_module_and_no_context(researched):
    _, index, _ = researched
    catalogue = index.split("## Module catalogue", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- \[`([^`]+)`\]", catalogue, re.MULTILINE)
    assert sorted(listed) == SOURCE_MODULES
    assert f"({len(SOURCE_MODULES)} of {len(SOURCE_MODULES)})" in catalogue


def test_the_index_says_which_folders_it_read_as_context(researched):
    _, index, _ = researched
    context = index.split("### What the map read as context, not code", 1)[1]
    assert "| `tests/` | 1 |" in context and "| `docs/` | 1 |" in context


def test_shard_pages_carry_the_repository_and_their_classes_with_methods(researched):
    _, _, shards = researched
    titles = [meta["title"] for meta, _ in shards]
    assert all(title.startswith("shop · ") for title in titles)
    session_page = next(body for _, body in shards if "[`Session`](" in body)
    types = session_page.split("## Key types", 1)[1].split("\n## ", 1)[0]
    session = types.split("- **[`Session`]", 1)[1].split("\n- **", 1)[0]
    methods = re.findall(r"^    - \[`(\w+)`\]\(https://github.com/acme/shop/blob/", session, re.MULTILINE)
    assert methods[:2] == ["request", "send"] or set(methods) >= {"request", "send", "resolve_redirects"}
    assert "_private" not in session and "__init__" not in types
    assert "— Build a request, send it and return the response." in session
    # the page opens with its own files' documentation, not the README
    opening = session_page.split("\n", 2)[2].lstrip().split("\n", 1)[0]
    assert "Webclient is a small HTTP client" not in opening and opening


def test_a_shard_page_names_the_package_its_files_share_as_code(tmp_path: Path) -> None:
    # why a subsystem's files belong together ("the `shop/pricing` package") shows the package as inline
    # code, not as escaped backticks
    files = {"README.md": "# Shop\n\nShop sells things online to people.\n"}
    for package, names in (
        ("pricing", "tax discount total rounding"),
        ("orders", "cart checkout invoice refund"),
    ):
        modules = names.split()
        for i, name in enumerate(modules):
            after = modules[(i + 1) % len(modules)]
            files[f"shop/{package}/{name}.py"] = (
                f"from shop.{package}.{after} import {after.title()}\n\n\n"
                f"class {name.title()}:\n    def run(self):\n        return {after.title()}()\n"
            )
        files[f"shop/{package}/__init__.py"] = ""
    root = make_project(tmp_path / "shop", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    index_meta, _ = read_page(paths.repos_dir / "acme" / "shop" / "index.md")
    bodies = [read_page(paths.repos_dir / "acme" / "shop" / page)[1] for page in index_meta["shards"]]
    rationales = [body.split("(../index.md) · ", 1)[1].split("\n", 1)[0] for body in bodies]
    assert any("the `shop/pricing` package" in r for r in rationales), rationales
    assert not any("\\`" in r for r in rationales)


def test_the_request_is_answered_with_symbols_named_after_it(researched):
    meta, index, _ = researched
    assert meta["answers"] == ["answers/how-are-redirects-handled.md"]
    listed = index.split("## Questions answered", 1)[1].split("\n## ", 1)[0]
    assert "- [how are redirects handled](answers/how-are-redirects-handled.md)" in listed
    answer = read_page(meta["_folder"] / meta["answers"][0])[1]
    # the answer starts where the process begins: the one match, which calls no other
    first = re.search(
        r"^1\. Starts at \*\*\[`([\w.]+)`\]\(https://github.com/acme/shop/blob/", answer, re.MULTILINE
    )
    assert first and first.group(1) == "Session.resolve_redirects"
    assert "— Follow the redirects a response asks for." in answer
    assert "LICENSE" not in answer and ".github" not in answer


def test_the_answer_opens_with_the_symbol_that_calls_the_others(tmp_path: Path) -> None:
    # a digest handler named after more of the question's words than the session's redirect loop, which
    # calls it: the loop is what handles redirects, the handler a step of it
    library = {
        **LIBRARY,
        "webclient/auth.py": (
            '"""Authentication handlers."""\n\n\n'
            "class DigestAuth:\n"
            '    """HTTP digest authentication."""\n\n'
            "    def handle_redirect(self, response):\n"
            '        """Reset the digest counter."""\n'
            "        return response\n"
        ),
        "webclient/sessions.py": LIBRARY["webclient/sessions.py"]
        .replace(
            "from .adapters import HTTPAdapter\n",
            "from .adapters import HTTPAdapter\nfrom .auth import DigestAuth\n",
        )
        .replace(
            "        return response\n\n    def _private",
            "        auth = DigestAuth()\n        return auth.handle_redirect(response)\n\n    def _private",
        ),
    }
    root = make_project(tmp_path / "webclient", library)
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(
        paths,
        config,
        provider,
        repo_target(paths, config, str(root), requests="how are redirects handled"),
        publish=publish_repo,
    )
    answer = read_page(paths.repos_dir / "acme" / "shop" / "answers" / "how-are-redirects-handled.md")[1]
    listed = re.findall(r"^\d\. (?:Starts at )?\*\*\[`([\w.]+)`\]", answer, re.MULTILINE)
    assert listed[:2] == ["Session.resolve_redirects", "DigestAuth.handle_redirect"]
    assert "`Session.resolve_redirects` calls `DigestAuth.handle_redirect`" in answer
    lead = answer.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "**[`DigestAuth.handle_redirect`]" in lead and "(called by `Session.resolve_redirects` at" in lead


def test_history_states_its_window(researched):
    meta, index, _ = researched
    history = index.split("## History and stats", 1)[1]
    day = meta["revision_date"][:10]
    assert f"Commits touching each file in all 1 commits \\({day} to {day}\\)." in history


def test_flows_render_as_a_validated_sequence_diagram_with_cited_steps():
    cited = Citation(
        "webclient/sessions.py", 12, 12, "https://github.com/acme/shop/blob/abc/webclient/sessions.py#L12"
    )
    hops = [
        FlowHop("Session.request", "Session.send", cited),
        FlowHop("Session.send", 'HTTPAdapter.send"]; click x', None),
    ]
    diagram, steps = flow_markdown(hops)
    source = diagram.split("```mermaid\n", 1)[1].rsplit("\n```", 1)[0]
    diagrams.validate(source)
    assert source.splitlines()[:2] == ["sequenceDiagram", "    autonumber"]
    assert "p0->>p1: send" in source and "click" not in source.replace("click x", "")
    assert steps[0] == (
        "`Session.request` calls `Session.send` — "
        "[webclient/sessions.py:12](https://github.com/acme/shop/blob/abc/webclient/sessions.py#L12)"
    )
    assert flow_markdown([]) == ("", [])


def test_a_partial_chunked_synthesis_never_replaces_complete_pages(tmp_path: Path):
    root = make_project(tmp_path / "webclient", LIBRARY)
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    index = paths.repos_dir / "acme" / "shop" / "index.md"
    complete = index.read_bytes()
    session = start_session(paths, config, provider, repo_target(paths, config, str(root)))
    run_chunks(
        paths, config, provider, session.session_id, session_target(paths, config, session.session_id), ["c1"]
    )
    with pytest.raises(RepoPartialFailure) as caught:
        synthesize_session(
            paths,
            config,
            provider,
            session.session_id,
            session_target(paths, config, session.session_id),
            publish=publish_repo,
        )
    assert index.read_bytes() == complete
    assert "complete pages of an earlier run were kept" in caught.value.line()
    run_chunks(paths, config, provider, session.session_id, session_target(paths, config, session.session_id))
    synthesize_session(
        paths,
        config,
        provider,
        session.session_id,
        session_target(paths, config, session.session_id),
        publish=publish_repo,
    )  # complete again: written
    assert read_page(index)[0]["failed_shards"] == []


def test_readme_paragraph_skips_badges_headings_and_install_sections():
    text = "[![x](b.svg)](u)\n\n# T\n\n## Install\n\nRun pip install thing now in a shell.\n\n## About\n\nThing parses configuration files for you quickly.\n"
    assert (
        first_paragraph(read_text(text, name="README.md"))
        == "Thing parses configuration files for you quickly."
    )
    nested = "# T\n\n## Download and Installation\n\n#### macOS\n\nYou can either download the latest image or use a cask.\n"
    assert (
        first_paragraph(read_text(nested, name="README.md")) == ""
    )  # a platform's section under Installation is installing too
    rst = "Thing\n=====\n\n.. image:: badge.svg\n\nThing is a :class:`Parser` for `INI files <https://x>`_ everywhere.\n"
    assert first_paragraph(read_text(rst, name="README.rst")) == "Thing is a Parser for INI files everywhere."


def test_a_lead_in_is_no_description_and_thanks_to_a_library_is_no_thanks():
    from generator.repo.synthesize.readme import describes_project

    text = (
        "# Gin\n\nGin pairs Express-style routing with Go's speed, making it ideal for:\n\n- REST APIs\n\n"
        "Gin is an HTTP web framework that is fast thanks to httprouter.\n"
    )
    assert (
        first_paragraph(read_text(text, name="README.md"))
        == "Gin is an HTTP web framework that is fast thanks to httprouter."
    )
    assert not describes_project("Many thanks to all our contributors for their work on this.")
    assert not describes_project(
        "If you're working on a polyfill, please file an issue or PR so we can add yours."
    )
    assert not describes_project(
        "Welcome to Tool, a community focused on testing. We'd love for you to join us on Slack."
    )
    # a pointer at what follows says nothing of the project (nlohmann/json's overview opened with one)
    pointer = "Here are some examples to give you an idea how to use the class."
    assert not describes_project(pointer) and not describes_project(pointer, steps=True)
    # … as does a paragraph sending the reader elsewhere (bubbletea's and rich's overviews quoted these)
    for elsewhere in (
        "To get started, see the tutorial below, the examples, the docs, and some common resources.",
        "Be sure to check out Bubbles, a library of common UI components for Bubble Tea.",
        "For a video introduction to Rich see calmcode.io by @fishnets88.",
        "This tutorial assumes you have a working knowledge of Go.",
    ):
        assert not describes_project(elsewhere, steps=True), elsewhere
    assert describes_project("For terminals, Rich renders tables, progress bars and markdown.", steps=True)
    step = "Use it to read documentation directly on the command line, in colour."
    assert not describes_project(step) and describes_project(step, steps=True)  # the overview keeps it


def test_the_intro_says_what_the_project_is_not_news_thanks_or_usage(tmp_path):
    from generator.redact import Redactor
    from generator.repo.facts.mentions import readme_paragraph
    from generator.repo.map.walk import map_repository

    news = "Version 3 is now released with many new things inside.\n\nThanks to our sponsors for their support today.\n\nThing parses configuration files for you quickly.\n"
    assert (
        first_paragraph(read_text(news, name="README.md"))
        == "Thing parses configuration files for you quickly."
    )
    usage = "```js\nnpm install thing\n```\n\nOnce the package is installed, import it with require.\n\nYou can also pass options to the default export.\n"
    assert (
        first_paragraph(read_text(usage, name="README.md")) == ""
    )  # past the first code example a README teaches usage
    # then the manifest says what the project is; a Go package without one, its package comment
    root = tmp_path / "js"
    root.mkdir()
    (root / "README.md").write_text(usage, encoding="utf-8")
    (root / "package.json").write_text(
        '{"name": "thing", "description": "Promise based HTTP client for browsers"}'
    )
    (root / "index.js").write_text("module.exports = 1\n")
    redactor = Redactor.from_environ()
    assert readme_paragraph(root, map_repository(root), redactor) == "Promise based HTTP client for browsers."
    go = tmp_path / "go"
    go.mkdir()
    (go / "a.go").write_text(
        "// Copyright 2020 Someone.\n\n/*\nPackage mux implements a request router.\n\nMore text.\n*/\npackage mux\n"
    )
    (go / "b.go").write_text("// Helpers.\npackage mux\n")
    assert readme_paragraph(go, map_repository(go), redactor) == "Package mux implements a request router."


def test_documentation_keeps_its_code_spans_and_nothing_else():
    from generator.site.pages.repo import prose

    assert (
        prose("Check if the given `encoding`s are accepted.")
        == "Check if the given `encoding`s are accepted."
    )
    assert prose("Uses `a|b` and <b>x</b> [link](javascript:x)") == "Uses a\\|b and &lt;b&gt;x&lt;/b&gt; link"
    assert prose("Wraps [markdown.Markdown][] and [Extension][markdown.Extension].") == (
        "Wraps markdown.Markdown and Extension."
    )


@pytest.mark.parametrize(
    ("doc", "shown"),
    [
        ("Use {func}`option` or {class}`Option`.", "Use `option` or `Option`."),
        ("See {py:meth}`click.Command.main`.", "See `click.Command.main`."),
        ("Returns a :class:`~click.core.Option`.", "Returns a `Option`."),
        ("Read :ref:`the guide <guide-label>` and :meth:`!raw`.", "Read `the guide` and `raw`."),
        (":func:`~loads` decodes.", "`loads` decodes."),
    ],
)
def test_sphinx_and_myst_roles_read_as_the_code_they_name(doc: str, shown: str) -> None:
    from generator.site.pages.repo import prose

    assert prose(doc) == shown


def test_key_hierarchies_become_a_class_diagram_of_plain_identifiers():
    from generator.repo.model import CitedSymbol, KeyType
    from generator.site.pages.repo_diagrams import hierarchy_diagram

    def key(name: str, *bases: str) -> KeyType:
        return KeyType(CitedSymbol(name, "class", "m.py"), (), bases)

    types = [
        key("Adapter", "t.Generic[T]"),
        key("HTTPAdapter", "base.Adapter"),
        key("Mock", 'Adapter"]; click'),
    ]
    assert hierarchy_diagram(types[:2]) == ""  # one real edge (Generic is every class's root): no diagram
    source = hierarchy_diagram([*types, key("Retry", "Adapter")]).split("\n", 1)[1].rsplit("\n```", 1)[0]
    diagrams.validate(source)
    assert source.splitlines() == ["classDiagram", "    Adapter <|-- HTTPAdapter", "    Adapter <|-- Retry"]


def test_a_models_headings_sit_below_the_analysis_section():
    from generator.repo.analyze.citations import Linker
    from generator.site.pages.model_text import render_model_markdown

    linker = Linker({"a.py": 3}, "0" * 40)
    text = render_model_markdown("# Title\n## Purpose\n#### Deep\ntext", linker, top_level=3).markdown
    assert text.splitlines()[:3] == ["### Title", "### Purpose", "##### Deep"]


def test_descriptions_end_at_a_sentence():
    from generator.site.pages.repo import whole_sentences

    assert whole_sentences("One two. Three four five. Six.", 20) == "One two."
    assert whole_sentences("x" * 50, 10) == "x" * 9 + "…"  # one endless sentence: cut, and marked


def test_a_value_with_a_backslash_is_shown_as_code_and_nothing_escapes_a_span() -> None:
    """`'\\n'` (a field's default) is inline code as Python-Markdown renders it; a backtick, a pipe or a
    newline still turns the value into escaped text, which cannot leave its table cell."""
    import markdown

    from generator.site.pages.model_text import inline_code

    assert inline_code("'\\n'") == "`'\\n'`"
    html = markdown.markdown(
        f"| a |\n| --- |\n| {inline_code(chr(39) + chr(92) + 'n' + chr(39))} |", extensions=["tables"]
    )
    assert "<code>'\\n'</code>" in html
    # a generic type or a Rust reference is code as written (C#'s `Func<A, B>`, rayon's `&mut [T]`): it had
    # been escaped text, its code marks lost; now a code element whose text holds entities, so that the page
    # source never holds a live-looking tag and Markdown reads nothing inside it
    for code, shown in (
        ("Func<A, B>", "<code>Func&lt;A, B&gt;</code>"),
        ("&mut [T]", "<code>&amp;mut &#91;T&#93;</code>"),
        (
            "<b>x</b> *y* [z](javascript:w)",
            "<code>&lt;b&gt;x&lt;/b&gt; &#42;y&#42; &#91;z&#93;(javascript&#58;w)</code>",
        ),
    ):
        assert "<b>" not in inline_code(code)
        cell = markdown.markdown(
            f"| a |\n| --- |\n| [{inline_code(code)}](https://x.org) |", extensions=["tables"]
        )
        assert f'<a href="https://x.org">{shown}</a>' in cell and "<b>" not in cell and "<em>" not in cell
    for hostile in ("a`b", "a|b", "a\nb", "x\\`<b>"):
        cell = markdown.markdown(
            f"| a | b |\n| --- | --- |\n| {inline_code(hostile)} | z |", extensions=["tables"]
        )
        assert cell.count("<td>") == 2 and "<b>" not in cell


def test_a_readme_without_a_paragraph_opens_on_the_manifest_never_on_a_credit(tmp_path: Path) -> None:
    """consola's README is a title, the quote "> Elegant Console Wrapper" and a list of lines ending in <br>;
    its package.json says "Elegant Console Wrapper" — three words, one short of the manifest's minimum — so the
    index opened on its most important modules' first sentences, the first of them color.ts' credit "Based on
    https://github.com/jorgebucaran/colorette Read LICENSE file for more information …". A three-word
    manifest description says what the project is; a module's credit to the code it comes from never does."""
    colors = (
        "/**\n * Based on https://github.com/jorgebucaran/colorette\n * Read LICENSE file for more information\n"
        " */\nexport function red(text) {\n  return text\n}\n"
    )
    logger = (
        "import { red } from './colors.js'\n\n/**\n * Writes leveled messages to the console.\n */\n"
        "export function log(message) {\n  return red(message)\n}\n"
    )
    readme = "# Consolette\n\n> Elegant Console Wrapper\n\n## Install\n\n```bash\nnpm i consolette\n```\n"
    for described, opening in (
        ('"description": "Elegant Console Wrapper", ', "Elegant Console Wrapper."),
        ("", "**Source:**"),  # nothing said of it rather than its credit
    ):
        files = {
            "README.md": readme,
            "package.json": f'{{"name": "consolette", {described}"main": "logger.js"}}\n',
            "logger.js": logger,
            "colors.js": colors,
        }
        root = make_project(tmp_path / f"c{len(described)}", files)
        paths, config, provider = offline_setup(tmp_path / f"kb{len(described)}")
        run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        _, index = read_page(paths.repos_dir / "acme" / "shop" / "index.md")
        assert index.split("\n", 2)[2].lstrip().startswith(opening), index[:300]
        assert "Based on" not in index.split("## ", 1)[0]
