"""Untrusted text rendered through md_escape / md_inline / code_block shows as itself and nothing is live."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from conftest import alarm

from generator.site.text import code_block, md_escape, md_inline

EXTENSIONS = ["tables", "fenced_code", "attr_list", "md_in_html", "admonition"]


def render(text: str) -> str:
    return markdown.markdown(text, extensions=EXTENSIONS)


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "[click](javascript:alert(1))",
        "![x](data:text/html;base64,PHNjcmlwdD4=)",
        "<a href='javascript:alert(1)'>x</a>",
        "text {: onclick=alert(1) }",
        "<div markdown=1>*x*</div>",
        "<iframe src=//evil.example></iframe>",
    ],
)
def test_nothing_live(hostile: str) -> None:
    elements = Elements()
    elements.feed(render(md_escape(hostile)))
    assert elements.seen == [("p", [])]  # one plain paragraph, no attributes: the rest is visible text
    assert elements.text == hostile  # shown to the reader exactly, not dropped


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.seen: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text += data


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("0.7", "0.7"),
        ("1. item", "1. item"),
        ("- dash", "- dash"),
        ("a < b & c", "a &lt; b &amp; c"),
        ("snake_case *stars*", "snake_case *stars*"),
        ("#not-a-heading", "#not-a-heading"),
    ],
)
def test_text_shows_as_itself(text: str, shown: str) -> None:
    html = render(md_escape(text))
    assert html == f"<p>{shown}</p>"


def test_frontmatter_fence_and_setext_lines_stay_text() -> None:
    html = render(md_escape("title\n---\nkey: value\n==="))
    assert "<h1>" not in html and "<h2>" not in html and "<hr" not in html


def test_inline_folds_lines_and_caps_length() -> None:
    assert md_inline("a\nb\n\nc") == "a b c"
    assert len(md_inline("x" * 1000, limit=50)) == 50


def test_code_block_cannot_be_closed_by_its_content() -> None:
    block = code_block("```\n<script>alert(1)</script>\n````", "python")
    html = render(block)
    assert html.count("<code") == 1
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_templates_escape_plain_strings_and_keep_markdown(tmp_path: Path) -> None:
    """A plain string reaching a template is escaped there; only Markdown built by the page layer is not."""
    import jinja2

    from generator.site import templates
    from generator.site.text import Markdown

    env = templates.environment(tmp_path / "templates")
    page = env.from_string("{{ title }} | {{ body }} | {{ parts | join(' ') }} | {{ count }}")
    out = page.render(
        title="<script>x</script> [a](javascript:1)",
        body=Markdown("**bold**"),
        parts=[Markdown("[1](raw/a.md)"), "*not bold*"],
        count=3,
    )
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert r"\[a\]\(javascript:1\)" in out
    assert "| **bold** |" in out
    assert r"[1](raw/a.md) \*not bold\*" in out
    assert out.endswith("| 3")
    assert isinstance(env.undefined, type) and issubclass(env.undefined, jinja2.StrictUndefined)


# --------------------------------------------------------------------------- the site's real Markdown


@pytest.fixture(scope="module")
def site_markdown(tmp_path_factory: pytest.TempPathFactory) -> markdown.Markdown:
    """Python-Markdown configured exactly as the project's mkdocs.yml builds pages (plugins' additions too)."""
    from mkdocs.config import load_config

    from generator.site.build import PROJECT_MKDOCS

    docs = tmp_path_factory.mktemp("docs")
    config = load_config(str(PROJECT_MKDOCS), docs_dir=str(docs), site_dir=str(docs.parent / "out"))
    config = config.plugins.on_config(config)
    return markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)


UNTRUSTED = [
    "Evaluation engine\n~~~~~~~~~~~~~~~~~",
    "Title\n=====\n\nbody",
    "a ~tilde~ and ~~strike~~ and ~~~ fence",
    "~~~python\nprint(1)\n~~~",
    "snake_case *stars* __dunder__ `tick` [link](x) {: .class } | pipe | #hash + plus ! bang",
    "1. first\n2) second\n- dash\n* star\n+ plus",
    "??? note\n    collapsed",
    "!!! warning\n    admonition",
    "a\\b \\~ \\_ C:\\path\\to\\file",
    "x = y == z; 2^10 ^ 3; <T> & &amp; &#126;",
    ":class:`Engine` and :func:`run`",
    "tab\there | cell |\n|---|---|",
    "中文 ~~删除~~ 的 *文本*",
]


def visible(html: str) -> str:
    from site_checks import visible_text

    return " ".join(visible_text(html).split())


@pytest.mark.parametrize("text", UNTRUSTED)
def test_untrusted_text_renders_as_itself_with_the_site_config(
    site_markdown: markdown.Markdown, text: str
) -> None:
    """What the reader sees is the text, character for character (whitespace aside): no `\\~` on screen."""
    site_markdown.reset()
    html = site_markdown.convert(md_escape(text))
    assert visible(html) == " ".join(text.split())
    for tag in ("<h1", "<h2", "<ol", "<ul", "<details", "<del", "<table", "<pre", "<code", "<a ", "<em"):
        assert tag not in html, (tag, html)


def test_inline_text_in_a_table_cell_stays_in_its_cell(site_markdown: markdown.Markdown) -> None:
    site_markdown.reset()
    cell = md_inline("a | b ~~~ c\\")
    html = site_markdown.convert(f"| x | y |\n|---|---|\n| {cell} | z |")
    assert html.count("<td>") == 2 and "a | b ~~~ c\\" in visible(html)


def test_escape_debris_lint_finds_what_readers_saw() -> None:
    from site_checks import escape_debris

    assert escape_debris("<p>fine ~ text_with = signs</p><pre>\\~ ~~~~ :class:`x`</pre>") == []
    found = escape_debris(
        "<p>Evaluation engine \\~\\~\\~\\~</p><p>Title</p><p>=====</p><p>see :class:<code>Engine</code></p>"
    )
    assert [item.split(":")[0] for item in found] == ["unconsumed escape", "underline", "role"]


def test_escaping_many_blank_lines_is_linear() -> None:
    """Issue 22 #6: each line start scanned every following blank line (40 KB cost 36 s). 100,000 blank lines
    are milliseconds of linear work and hours of quadratic work: the alarm only bounds a runaway."""
    blank_lines = " \t\n" * 100_000
    with alarm(60):  # a quadratic md_escape would run for hours
        escaped = md_escape(blank_lines + "text\n  - item\n\n1. one")
    assert escaped == blank_lines + "text\n  \\- item\n\n1\\. one"


def test_line_starts_after_blank_lines_of_any_whitespace_stay_text() -> None:
    text = "\n \n\t- a\n\u3000- b\n\r1) c\n\x0c===\n  ???\n\n---"
    assert md_escape(text) == "\n \n\t\\- a\n\u3000\\- b\n\r1\\) c\n\x0c&#61;==\n  &#63;??\n\n\\---"
