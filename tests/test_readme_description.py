"""The sentence a repository's index is described by: the README's own lead, never an announcement section's
call for members, nor a credit line standing after the lead's list (beanie, huma; reader_s40_check.md 1)."""

from __future__ import annotations

from generator.documents import read_text
from generator.repo.docs.overview import overview
from generator.repo.synthesize.readme import first_paragraph

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
