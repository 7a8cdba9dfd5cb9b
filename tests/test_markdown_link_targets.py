"""Link targets in Markdown are read past, never rewritten: what a page shows of a link is its text, so the
parsers leave each target as written (no URL normalizing per link), and the text read is unchanged."""

from __future__ import annotations

from generator.documents import read_text
from generator.documents.markdown import markdown_parser
from generator.repo.facts.examples import _commonmark, markdown_code

PAGE = """# Routing

See [the router](http://例子.测试/ü?q=1 "title") and [`Router.Handle`](<../api/router.md#handle it>) or
[ref][r]; a [bad one](javascript:alert(1)) goes too. An autolink <http://example.com/%C3%BC> shows decoded,
a formula ![x²](img/x².png) stays in the sentence.

- [x] [Middlewares](./middlewares/overview.md) run in order.

[r]: <https://exämple.org/ref path>
"""


def _hrefs(tokens) -> list[str]:  # type: ignore[no-untyped-def]
    found = []
    for token in tokens:
        for child in token.children or ():
            if child.type in ("link_open", "image"):
                found.append(str(child.attrGet("href") or child.attrGet("src")))
    return found


def test_the_document_parser_leaves_link_targets_as_written() -> None:
    hrefs = _hrefs(markdown_parser().parse(PAGE))
    assert hrefs == [
        "http://例子.测试/ü?q=1",
        "../api/router.md#handle it",
        "https://exämple.org/ref path",
        "javascript:alert(1)",
        "http://example.com/%C3%BC",
        "img/x².png",
        "./middlewares/overview.md",
    ]
    assert _hrefs(markdown_parser(mdx=True).parse(PAGE))[0] == "http://例子.测试/ü?q=1"


def test_the_text_read_from_links_is_their_text() -> None:
    doc = read_text(PAGE, name="docs/routing.md")
    texts = [block.text for _, block in doc.blocks()]
    assert texts == [
        "See the router and `Router.Handle` or ref; a bad one goes too. An autolink http://example.com/ü shows "
        "decoded, a formula x² stays in the sentence.",
        "☑ Middlewares run in order.",
    ]


def test_the_example_reader_reads_code_and_leaves_targets_as_written() -> None:
    assert _hrefs(_commonmark().parse(PAGE))[0] == "http://例子.测试/ü?q=1"
    assert markdown_code(PAGE) == "Router.Handle"
