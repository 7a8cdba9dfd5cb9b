"""A document's own title and outline, per format, and the local search that indexes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.documents import read_file, read_text
from generator.sources.base import create_search_provider
from generator.text.htmlpage import html_title

PEP = """PEP: 639
Title: Improving License Clarity with Better Package Metadata
Author: Someone <someone@example.org>
Status: Final

Abstract
========

This PEP defines a specification for how to license a package.
"""
RST = """.. _assert:

How to write and report assertions in tests
===========================================

.. code-block:: python

    # content of test_assert1.py
    def f():
        return 3

Asserting with the assert statement
-----------------------------------

pytest allows you to use the standard Python assert.
"""
MARKDOWN_H1 = """Some preface line.

```python
# not a heading: a comment in code
```

# Caching

## What is cached

HTTP responses are cached.
"""
FRONTMATTER = """---
title: "Dependency Resolution"
tags: [pip]
---

# Something else

Text.
"""


@pytest.mark.parametrize(
    ("name", "text", "title"),
    [
        ("pep-0639.rst", PEP, "Improving License Clarity with Better Package Metadata"),
        ("assert.rst", RST, "How to write and report assertions in tests"),
        ("caching.md", MARKDOWN_H1, "Caching"),
        ("resolution.md", FRONTMATTER, "Dependency Resolution"),
        ("plain-notes.txt", "just words\n", "plain notes"),
    ],
)
def test_each_format_gives_its_own_title(tmp_path: Path, name: str, text: str, title: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert read_file(path).title == title


def test_html_prefers_og_title_then_title_then_h1() -> None:
    og = '<html><head><title>Caching | Site</title><meta property="og:title" content="Caching"></head></html>'
    assert html_title(og) == "Caching"
    assert html_title("<html><head><title>Plain &amp; simple</title></head></html>") == "Plain & simple"
    assert html_title("<html><body><h1>Only <em>a</em> heading</h1></body></html>") == "Only a heading"


def test_pdf_title_comes_from_its_metadata(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=72, height=72)
    writer.add_metadata({"/Title": "Measured Latency of Queues"})
    path = tmp_path / "report-2024.pdf"
    with path.open("wb") as out:
        writer.write(out)
    assert read_file(path).title == "Measured Latency of Queues"


def test_outline_keeps_headings_and_skips_code(tmp_path: Path) -> None:
    path = tmp_path / "assert.rst"
    path.write_text(RST, encoding="utf-8")
    assert read_file(path).headings == [
        "How to write and report assertions in tests",
        "Asserting with the assert statement",
    ]


def test_outline_headings_keep_their_words_and_html_as_text() -> None:
    text = "# A `<img src=x>` **guide**\n\nIntro.\n\n````\n# not a heading\n````\n\nNext\n----\nBody.\n"
    sections = read_text(text, name="guide.md").sections
    assert [(s.heading, s.level) for s in sections] == [("A <img src=x> guide", 1), ("Next", 2)]
    assert [(b.kind, b.text) for b in sections[0].blocks] == [
        ("paragraph", "Intro."),
        ("code", "# not a heading"),
    ]
    assert [b.text for b in sections[1].blocks] == ["Body."]


def test_local_search_titles_and_headings_come_from_the_document(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pep-0639.rst").write_text(PEP, encoding="utf-8")
    (docs / "caching.md").write_text(MARKDOWN_H1, encoding="utf-8")
    provider = create_search_provider(f"local:{docs}", cache_dir=tmp_path / "cache")
    [hit] = provider.search("license specification", limit=3)
    assert hit.title == "Improving License Clarity with Better Package Metadata"
    assert "Abstract" in hit.extra["headings"]
    [cached] = provider.search("cached responses", limit=3)
    assert cached.title == "Caching" and cached.extra["headings"] == ["Caching", "What is cached"]


def test_a_crawled_page_is_titled_by_its_og_title_or_markdown_heading() -> None:
    from generator.topic.crawl import _Body, _read_page

    page = b'<html><head><title>Caching | Docs</title><meta property="og:title" content="Caching"></head><body><p>x</p></body></html>'
    fetched = _read_page("https://docs.test/c", _Body("https://docs.test/c", 200, "text/html", "utf-8", page))
    assert fetched.title == "Caching"
    md = b"---\ntitle: Dependency Resolution\n---\n\nintro line\n\n# Other\n"
    fetched = _read_page(
        "https://docs.test/d.md", _Body("https://docs.test/d.md", 200, "text/markdown", "utf-8", md)
    )
    assert fetched.title == "Dependency Resolution"


def test_a_page_opening_on_its_api_without_a_title_is_named_by_its_file(tmp_path: Path) -> None:
    # TDesign's component pages are ':: BASE_DOC ::' then '## API', Arco's keep their title in a yaml block:
    # every one of them was titled "API", and a report's references read "[1] API"
    from generator.documents import read_file

    table = "## API\n\n### Transfer Props\n\n名称 | 类型 | 说明\n-- | -- | --\ndirection | String | 穿梭框可操作方向\n"
    (tmp_path / "transfer").mkdir()
    (tmp_path / "transfer" / "transfer.md").write_text(":: BASE_DOC ::\n\n" + table, encoding="utf-8")
    (tmp_path / "resize-box").mkdir()
    (tmp_path / "resize-box" / "README.zh-CN.md").write_text(table, encoding="utf-8")
    assert read_file(tmp_path / "transfer" / "transfer.md").title == "transfer"
    readme = tmp_path / "resize-box" / "README.zh-CN.md"
    assert read_file(readme, origin="resize-box/README.zh-CN.md").title == "resize box"
    # a page titled "API" by its own level-1 heading, or a reST page whose first heading is its title, keeps it
    (tmp_path / "api.md").write_text("# API\n\nThe functions.\n", encoding="utf-8")
    (tmp_path / "reference.rst").write_text(
        "API Reference\n=============\n\nThe functions.\n", encoding="utf-8"
    )
    assert read_file(tmp_path / "api.md").title == "API"
    assert read_file(tmp_path / "reference.rst").title == "API Reference"


# Arco Design Vue's ResizeBox page (packages/web-vue/components/resize-box/README.zh-CN.md), its tables shortened
RESIZE_BOX = (
    "```yaml\nmeta:\n  type: 组件\n  category: 其他\ntitle: 伸缩框 ResizeBox\ndescription: 伸缩框组件。\n```\n\n"
    "@import ./__demo__/basic.md\n\n@import ./__demo__/controlled.md\n\n## API\n\n### `<resize-box>` Props\n\n"
    "|参数名|描述|类型|默认值|\n|---|---|---|:---:|\n|width **(v-model)**|宽度|`number`|`-`|\n"
)


def test_a_yaml_block_opening_a_page_with_its_title_is_its_front_matter() -> None:
    # Arco keeps a page's title and description in a fenced yaml block: the page was named after its folder
    # ("resize box"), its description read as code, and "伸缩框是什么？" went unanswered
    from generator.documents import read_text
    from generator.documents.plain import markup_prose

    page = read_text(RESIZE_BOX, name="README.zh-CN.md")
    assert page.title == "伸缩框 ResizeBox"
    stored = markup_prose(RESIZE_BOX, structure=True)
    assert stored.startswith("伸缩框组件。\n") and "yaml" not in stored and "category" not in stored
    # a yaml example further down, or one at the top setting neither title nor description, is code
    for example in ("```yaml\nname: build\non: push\n```\n\n# CI\n", "# 配置\n\n```yaml\ntitle: 示例\n```\n"):
        code = [b for s in read_text(example, name="ci.md").sections for b in s.blocks if b.kind == "code"]
        assert len(code) == 1
