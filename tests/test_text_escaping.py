"""Untrusted text rendered through md_escape / md_inline / code_block shows as itself and nothing is live."""

from __future__ import annotations

from html.parser import HTMLParser

import markdown
import pytest

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


def test_templates_escape_plain_strings_and_keep_markdown() -> None:
    """A plain string reaching a template is escaped there; only Markdown built by the page layer is not."""
    import jinja2

    from generator.site import templates
    from generator.site.text import Markdown

    env = templates.environment()
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
