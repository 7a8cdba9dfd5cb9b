"""The sentence a repository's index is described by: the README's own lead, never an announcement section's
call for members, nor a credit line standing after the lead's list (beanie, huma; reader_s40_check.md 1)."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.documents import read_text
from generator.repo.analyze.citations import Linker
from generator.repo.docs.model import ProjectDocs
from generator.repo.docs.overview import overview
from generator.repo.docs.project import read_project_docs
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.synthesize.readme import first_paragraph, news_section
from generator.site.pages.repo_guide import concept_line

_ANNOUNCED = (
    "# tinyodm\n\n[![pypi](https://img.shields.io/pypi/v/tinyodm.svg)](https://pypi.org/project/tinyodm)\n\n"
    "## \N{PUBLIC ADDRESS LOUDSPEAKER} Important Update \N{PUBLIC ADDRESS LOUDSPEAKER}\n\n"
    "We are excited to announce that tinyodm is moving to a team of maintainers.\n\n"
    "At this moment we are establishing a board of members that will decide all the future steps of the"
    " project. We are looking for contributors and maintainers to join the board.\n\n"
    "### Join Us\n\nIf you want to help shape the project, come and talk to us in the chat room.\n\n"
    "## Overview\n\nTinyodm is an asynchronous object-document mapper for MongoDB built on Pydantic.\n"
)


def test_an_announcement_section_is_news_as_a_whole() -> None:
    """Every paragraph under an announcing heading (a pictograph, "Important Update", "News") is the news of
    the day: the second one, which matches no news word, was beanie's description and first line."""
    readme = read_text(_ANNOUNCED, name="README.md")
    assert first_paragraph(readme) == (
        "Tinyodm is an asynchronous object-document mapper for MongoDB built on Pydantic."
    )
    said = [p.text for p in overview(readme, [])]
    assert said[0].startswith("Tinyodm is an asynchronous"), said
    assert not any("board of members" in s or "talk to us" in s for s in said), said
    news = _ANNOUNCED.replace(
        "\N{PUBLIC ADDRESS LOUDSPEAKER} Important Update \N{PUBLIC ADDRESS LOUDSPEAKER}", "News"
    )
    assert first_paragraph(read_text(news, name="README.md")).startswith("Tinyodm is")


def test_a_lead_announcing_its_list_is_still_the_lead_and_a_credit_line_is_no_description() -> None:
    """huma's lead ends "The goals of this project are to provide:" and its list; the description fell
    through to the closing credit line ("This project was inspired by FastAPI. Logo & branding designed by
    …")."""
    text = (
        "# tinyapi\n\n[Chinese docs](./README_CN.md)\n\n"
        "A modern, simple and fast micro framework for building HTTP APIs in Go backed by OpenAPI 3."
        " The goals of this project are to provide:\n\n"
        "- Incremental adoption for teams with existing services\n- Guard rails to prevent common mistakes\n\n"
        "Features include:\n\n- Request validation\n- Generated documentation\n\n"
        "This project was inspired by FastAPI. Logo & branding designed by Jane Doe.\n"
    )
    assert first_paragraph(read_text(text, name="README.md")) == (
        "A modern, simple and fast micro framework for building HTTP APIs in Go backed by OpenAPI 3."
    )
    credits = "# tinyapi\n\nThis project was inspired by FastAPI. Logo & branding designed by Jane Doe.\n"
    assert first_paragraph(read_text(credits, name="README.md")) == ""
    # under a section heading, the sentences before a lead-in prepare its list: no description
    prepared = "# tinyapi\n\n## Design\n\nThere are many HTTP frameworks out there. Our goals were these:\n"
    assert first_paragraph(read_text(prepared, name="README.md")) == ""


def _docs(tmp_path: Path, files: dict[str, str]) -> ProjectDocs:
    root = write_tree(tmp_path / "repo", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyodm")
    return read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)


def test_a_guide_page_opens_with_what_it_explains_and_its_announcement_comes_after(tmp_path: Path) -> None:
    """beanie's docs/index.md, the guide's Overview, opens with the README's "📢 Important Update 📢": the page,
    its line on the index and on a shard page opened "We are excited to announce …". The section stays on the
    page, as the docs' own, after what the page explains."""
    pages = {
        f"docs/{name}.md": f"# {name.title()}\n\nHow tinyodm handles {name}, explained with care for newcomers.\n"
        for name in ("insert", "find", "update", "delete", "migrations")
    }
    docs = _docs(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "tinyodm"\n',
            "tinyodm/__init__.py": "def find():\n    return 1\n",
            "README.md": "# tinyodm\n\nTinyodm is an asynchronous object-document mapper for MongoDB.\n",
            "docs/index.md": _ANNOUNCED,
            **pages,
        },
    )
    (page,) = [p for c in docs.concepts for p in c.pages if p.path == "docs/index.md"]
    said = [p.text for p in page.passages]
    assert said[0].startswith("Tinyodm is an asynchronous"), said
    assert any(s.startswith("We are excited to announce") for s in said[1:]), said
    (concept,) = [c for c in docs.concepts if page in c.pages]
    assert "Tinyodm is an asynchronous" in concept_line(1, concept)


def test_a_readmes_announcement_is_no_concept_of_its_guide(tmp_path: Path) -> None:
    """A README read as the guide (no docs folder): its announcing section is news, never a concept of its
    own, by the same test as the description's."""
    parts = "".join(
        f"## {name.title()}\n\nTinyodm {name}s documents in one call, and explains how it does so here.\n\n"
        f"```python\nawait Doc.{name}()\n```\n\nIt {name}s every document the query selects, in one batch.\n\n"
        for name in ("insert", "find", "update", "delete")
    )
    board = (
        "The board will meet every month and publish its minutes in the repository for everyone to read.\n\n"
        "Until it is formed, the current maintainer keeps reviewing every change with the same care.\n\n"
    )
    readme = _ANNOUNCED.replace("### Join Us", board + "### Join Us").replace(
        "## Overview", parts + "## Overview"
    )
    docs = _docs(tmp_path, {"pyproject.toml": '[project]\nname = "tinyodm"\n', "README.md": readme})
    names = [c.name for c in docs.concepts]
    assert "Insert" in names, names
    assert not any("Important Update" in n or "Join Us" in n for n in names), names


def test_a_methods_heading_or_a_migration_guide_is_no_announcement() -> None:
    """ormar's method pages ("## update", "## update()") and its "Migrations & Database creation" explain the
    project, and so does Sa-Token's "🎉 Sa-Token 功能一览" (its features): the guide keeps them where the page
    has them."""
    assert news_section(
        [
            "Overview",
            "\N{PUBLIC ADDRESS LOUDSPEAKER} Important Update \N{PUBLIC ADDRESS LOUDSPEAKER}",
            "Join Us",
        ]
    )
    assert news_section(["News"]) and news_section(["What's new in 2.0"]) and news_section(["Latest updates"])
    ordinary = ("update", "update()", "Migrations & Database creation", "\N{PARTY POPPER} Sa-Token 功能一览")
    assert not any(news_section([h]) for h in ordinary)
