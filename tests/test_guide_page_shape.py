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


def _code(path: str, start: int, heading: str, text: str, language: str) -> DocPassage:
    return DocPassage(
        path, start, start + text.count("\n") + 2, "code", text, heading=heading, language=language
    )


def _page_text(passages: tuple[DocPassage, ...], tmp_path: Path) -> str:
    path = passages[0].path
    linker = Linker({path: 600}, "r" * 40, "https://github.com/acme/gql")
    pages = (DocPage(path, "Authentication", passages),)
    page = concept_page(DocConcept("Authentication", "authentication", pages), "acme/ds", linker)
    return render_record(KBPaths(tmp_path), "repo_guide.md.j2", page)


def test_content_tabs_show_their_first_tab_and_fold_the_others_under_their_labels(tmp_path: Path) -> None:
    """datasette's `.. tab:: datasette.yaml` / `.. tab:: datasette.json` pairs had shown as two bare labels
    over two stacked copies of every configuration example; the docs build shows one tab at a time."""
    rst = "docs/authentication.rst"
    text = _page_text(
        (
            _passage(rst, 540, "Access to an instance", "Here's how to restrict access to the root user:"),
            _passage(rst, 542, "Access to an instance", "datasette.yaml"),
            _code(rst, 544, "Access to an instance", "allow:\n  id: root", "yaml"),
            _passage(rst, 550, "Access to an instance", "datasette.json"),
            _code(rst, 552, "Access to an instance", '{\n  "allow": {"id": "root"}\n}', "json"),
        ),
        tmp_path,
    )
    body = text.split("## Access to an instance\n\n", 1)[1].split("*Source:*", 1)[0]
    assert body.split("\n\n")[:3] == [
        "Here's how to restrict access to the root user:",
        "datasette.yaml",
        "```yaml\nallow:\n  id: root\n```",
    ]
    assert (
        '??? tab "datasette.json"\n\n    ```json\n    {\n      "allow": {"id": "root"}\n    }\n    ```'
        in body
    )
    assert "docs/authentication.rst#L540-L556" in text  # the section still cites every line it quotes


def test_steps_each_over_its_code_are_no_tabs(tmp_path: Path) -> None:
    """gqlgen's federation recipe: "and regenerate" over a shell block, "then implement the resolvers" over
    Go — short lines each over its code, but steps of a walk-through: both stay in full."""
    md = "docs/recipes/federation.md"
    text = _page_text(
        (
            _passage(md, 60, "Create the servers", "and regenerate"),
            _code(md, 62, "Create the servers", "go tool gqlgen generate", "bash"),
            _passage(md, 66, "Create the servers", "then implement the resolvers"),
            _code(md, 68, "Create the servers", "func (r *userResolver) Reviews() {}", "go"),
        ),
        tmp_path,
    )
    assert "???" not in text and "then implement the resolvers\n\n```go\nfunc" in text


def test_a_sentence_a_code_block_splits_is_no_tab_set(tmp_path: Path) -> None:
    """strawberry's permissions guide: "The following snippet" over one class, "is internally equivalent to"
    over the other — one sentence around two code blocks; as tabs the second example hid in a closed box
    titled by half a sentence."""
    md = "docs/guides/permissions.md"
    text = _page_text(
        (
            _passage(md, 136, "Permissions", "The following snippet"),
            _code(md, 138, "Permissions", "@strawberry.type\nclass Query:\n    user: str", "python"),
            _passage(md, 144, "Permissions", "is internally equivalent to"),
            _code(md, 146, "Permissions", "@strawberry.type\nclass Query:\n    name: str", "python"),
        ),
        tmp_path,
    )
    assert "???" not in text and "is internally equivalent to\n\n```python\n@strawberry.type" in text
