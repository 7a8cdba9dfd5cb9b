"""How a guide page built from several doc pages reads: each doc page under its title, its sections one level
down, so the page's table of contents nests instead of running every page's sections together."""

from __future__ import annotations

import re
from pathlib import Path

from generator.repo.analyze.citations import Linker
from generator.repo.docs.model import DocConcept, DocPage, DocPassage
from generator.site.pages.repo_guide import concept_page
from generator.site.templates import render_record
from generator.store import KBPaths


def _passage(path: str, start: int, heading: str, text: str) -> DocPassage:
    return DocPassage(path, start, start, "paragraph", text, heading=heading)


def _headings(pages: tuple[DocPage, ...], tmp_path: Path) -> list[str]:
    linker = Linker({p.path: 40 for p in pages}, "r" * 40, "https://github.com/acme/gql")
    page = concept_page(DocConcept("Recipes", "recipes", pages), "acme/gql", linker)
    text = render_record(KBPaths(tmp_path), "repo_guide.md.j2", page)
    return re.findall(r"^#{2,3} .+$", text, re.MULTILINE)


def test_a_folded_folder_heads_each_doc_page_by_its_title_and_nests_its_sections(tmp_path: Path) -> None:
    """gqlgen's recipes folder is one guide page: its recipes' titles and their own sections ("Websockets",
    "rs/cors", "Enable federation") had stood side by side at one level, ~60 headings in one flat list."""
    auth, cors, fed = "docs/recipes/auth.md", "docs/recipes/cors.md", "docs/recipes/federation.md"
    pages = (
        DocPage(
            auth,
            "Providing authentication details",
            (
                _passage(auth, 3, "", "Users are authenticated with a cookie."),
                _passage(auth, 9, "Websockets", "A websocket carries its own credentials."),
            ),
        ),
        DocPage(cors, "Setting CORS headers", (_passage(cors, 5, "rs/cors", "Wrap the handler in cors."),)),
        DocPage(
            fed,
            "Using Apollo federation",
            (
                _passage(fed, 3, "", "Federation joins services into one graph."),
                _passage(fed, 8, "Enable federation", "Uncomment the federation block."),
                _passage(fed, 12, "Federation 2", "Federation 2 is the default."),
            ),
        ),
    )
    assert _headings(pages, tmp_path) == [
        "## Providing authentication details",
        "### Websockets",
        "## Setting CORS headers",
        "### rs/cors",
        "## Using Apollo federation",
        "### Enable federation",
        "### Federation 2",
    ]


def test_a_doc_pages_own_first_heading_heads_it_and_one_page_keeps_its_sections_at_one_level(
    tmp_path: Path,
) -> None:
    """traefik's navigation calls a page "Overview" whose own heading is "HTTP Middleware Overview": the
    page's heading heads it, never under a second title. A concept of one doc page is unchanged."""
    over, prefix = "docs/middlewares/overview.md", "docs/middlewares/addprefix.md"
    pages = (
        DocPage(
            over,
            "Overview",
            (
                _passage(over, 6, "HTTP Middleware Overview", "Middlewares tweak requests."),
                _passage(over, 26, "Available HTTP Middlewares", "AddPrefix, BasicAuth, Buffering."),
            ),
            headline="HTTP Middleware Overview",
        ),
        DocPage(prefix, "AddPrefix", (_passage(prefix, 8, "Configuration Examples", "Prefix with /foo."),)),
    )
    assert _headings(pages, tmp_path)[:4] == [
        "## HTTP Middleware Overview",
        "### Available HTTP Middlewares",
        "## AddPrefix",
        "### Configuration Examples",
    ]
    assert _headings(pages[:1], tmp_path)[:2] == [
        "## HTTP Middleware Overview",
        "## Available HTTP Middlewares",
    ]
