"""Citations checked against the pinned files, model text made inert, diagrams built and validated safely."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.analyze.citations import Linker
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages import diagrams as mermaid
from generator.site.pages.model_text import render_model_markdown
from generator.site.pages.repo import publish_repo
from generator.store import read_page

REV = "0123456789abcdef0123456789abcdef01234567"
LINKER = Linker({"core/engine.py": 9, "README.md": 3}, REV, "https://github.com/acme/shop")


def test_valid_citation_becomes_a_github_permalink():
    citation = LINKER.check("core/engine.py", 2, 5)
    assert citation is not None
    assert citation.url == f"https://github.com/acme/shop/blob/{REV}/core/engine.py#L2-L5"
    assert LINKER.check("./core/engine.py", 3).url.endswith("#L3")


@pytest.mark.parametrize(
    ("path", "start", "end"),
    [
        ("core/engine.py", 9, 10),
        ("core/engine.py", 0, 2),
        ("core/engine.py", 5, 3),
        ("ghost.py", 1, 1),
        ("../etc/passwd", 1, 1),
    ],
)
def test_citations_outside_the_files_are_refused(path, start, end):
    assert LINKER.check(path, start, end) is None


def test_model_markdown_drops_and_counts_bad_citations():
    text = (
        "# Engine\nThe engine (core/engine.py:2-4) is cached; see core/engine.py:50-60 and `ghost.py:1-2`.\n"
        "- item with `core/engine.py:1` and localhost:8080\n"
    )
    out = render_model_markdown(text, LINKER)
    assert out.dropped == 2
    assert [(c.path, c.start, c.end) for c in out.citations] == [
        ("core/engine.py", 2, 4),
        ("core/engine.py", 1, 1),
    ]
    assert (
        f"[core/engine.py:2-4](https://github.com/acme/shop/blob/{REV}/core/engine.py#L2-L4)" in out.markdown
    )
    assert "50-60" not in out.markdown and "ghost" not in out.markdown
    assert "localhost:8080" in out.markdown
    assert out.markdown.startswith("## Engine")  # the page title is the only h1


def test_model_markdown_is_inert():
    text = (
        '<script>alert(1)</script>\n<img src=x onerror="alert(2)">\n[click](javascript:alert(3))\n'
        "![pixel](https://evil.example/p.png)\n**bold** stays\n```\n</code><b>x</b>\n```\n"
    )
    md = render_model_markdown(text, LINKER).markdown
    assert "<script" not in md and "<img" not in md and "<b>" not in md.split("```")[0]
    assert "](javascript:" not in md and "](https://evil" not in md
    assert "**bold** stays" in md
    assert "&lt;script&gt;" in md


def test_without_a_github_remote_citations_are_plain_code():
    local = Linker({"a.py": 4}, REV, None)
    out = render_model_markdown("See a.py:1-2.", local)
    assert out.markdown.strip() == "See `a.py:1-2`."
    assert out.citations[0].url == ""


def test_mermaid_labels_from_hostile_names_are_scrubbed():
    hostile = 'evil"]; click n0 "javascript:alert(1)" <img src=x>`#quot;'
    source = mermaid.flowchart([hostile, "ok.py"], [(0, 1)])
    mermaid.validate(source)
    label_line = source.splitlines()[1]
    assert label_line.count('"') == 2
    assert "<" not in source and "`" not in source
    # the only entity is Mermaid's own for `#` (`#35;`): `#quot;` can never become a quote
    bare = source.replace("#35;", "")
    assert "#" not in bare and ";" not in bare and "#35;quot" in label_line


def test_a_private_method_keeps_its_hash_in_a_diagram():
    """ky's `Ky.#fetch` read `Ky. fetch` in its call diagram: a `#` is Mermaid's entity `#35;`."""
    assert mermaid.label("Ky.#fetch") == "Ky.#35;fetch"
    source = mermaid.sequence(["Ky.create", "Ky.#fetch"], [(0, 1, "#fetch")])
    mermaid.validate(source)
    assert source.splitlines()[-1] == "    p0->>p1: #35;fetch"


def test_mermaid_validation_rejects_unexpected_lines():
    with pytest.raises(mermaid.MermaidError):
        mermaid.validate('flowchart LR\n    n0["a"]\n    click n0 "javascript:alert(1)"')
    with pytest.raises(mermaid.MermaidError):
        mermaid.validate('graph LR\n    n0["a"]')


def test_offline_pages_from_hostile_file_names_stay_safe(tmp_path: Path):
    evil = 'pkg/evil"] --> n1; click n1 call alert(1) <b>x<b>.py'
    files = {
        "pkg/__init__.py": '"""Package."""\n',
        "pkg/core.py": '"""Core."""\n\n\ndef run():\n    """Run it."""\n    return 1\n',
        evil: '"""Evil module <script>alert(1)</script>."""\n\nfrom pkg.core import run\n\n\ndef go():\n    return run()\n',
    }
    root = make_project(tmp_path / "evil", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    pages = sorted((paths.repos_dir / "acme" / "shop").rglob("*.md"))
    blocks = []
    for page in pages:
        meta, body = read_page(page)
        blocks += re.findall(r"```mermaid\n(.*?)\n```", body, re.DOTALL)
        assert "<script" not in body and "<b>" not in body
    _, index = read_page(paths.repos_dir / "acme" / "shop" / "index.md")
    assert "pkg/evil" in index and "<b>" not in index  # catalogued, as inert text
    for block in blocks:
        mermaid.validate(block)
        assert "<" not in block and "click" not in block.split('"')[0]
