"""Issue 22 #16: what deepkb prints and publishes from the far side's words: terminal escapes, CI workflow
commands and bidi overrides are neutralised; a site address that would break out of its attribute is refused.
Every far side is a fake server on 127.0.0.1."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from search_fakes import FakeSearchServer, Reply

from generator.cli import cli
from generator.config import load_config
from generator.errors import ConfigError
from generator.site.sanitize import clean_html
from generator.terminal import printable
from generator.topic.crawl import Crawler

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
FILLER = "<p>" + "Crawlers read pages politely and keep only their main text. " * 8 + "</p>"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("::error::pwned", ": :error::pwned"),
        ("::add-mask::secret", ": :add-mask::secret"),
        ("  ::stop-commands::token", "  : :stop-commands::token"),
        ("ok\n::warning file=x::y\n", "ok\n: :warning file=x::y\n"),
        ("\x1b[0m::error::hidden behind an escape", ": :error::hidden behind an escape"),
        ("\r::error::after a carriage return", ": :error::after a carriage return"),
        ("##[error]old syntax", "# #[error]old syntax"),
        ("a::b and std::vector stay", "a::b and std::vector stay"),
        ("## a heading stays", "## a heading stays"),
    ],
)
def test_printed_text_cannot_start_a_workflow_command(text: str, shown: str) -> None:
    assert printable(text) == shown


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSearchServer]:
    monkeypatch.setattr("generator.cli.crawl.make_crawler", lambda: Crawler(allow_loopback=True, delay=0))
    with FakeSearchServer() as server:
        server.route("/robots.txt", Reply(200, "User-agent: *\n"))
        yield server


HOSTILE_TITLE = f"\x1b]0;retitled\x07Home\x1b[2J\x9b31m{BIDI}"
HOSTILE_TEXT = f"<p>\n::error::from the page\n</p><p>::add-mask::x {BIDI}</p>"


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_crawl_prints_titles_and_text_through_the_sanitizer(
    kb_root: Path, site: FakeSearchServer, fmt: str
) -> None:
    page = f"<html><head><title>{HOSTILE_TITLE}</title></head><body><article>{FILLER}{HOSTILE_TEXT}</article></body></html>"
    site.route("/", Reply(200, page, content_type="text/html; charset=utf-8"))
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "crawl", f"{site.url}/", "--format", fmt])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Home" in out
    assert not re.search(r"[\x1b\x07\x9b\u202a-\u202e\u2066-\u2069]", out), repr(out)
    assert not re.search(r"(?m)^\s*::", out), out
    if fmt == "json":
        assert json.loads(out)["pages"][0]["title"].startswith("Home")


def test_bidi_overrides_never_reach_a_page_body() -> None:
    html = clean_html(f"<p>a{BIDI}b</p><pre><code>access = 'user{BIDI[4]}' # admin</code></pre>")
    assert not re.search(r"[\u202a-\u202e\u2066-\u2069]", html)
    assert "<p>ab</p>" in html


def test_bidi_overrides_are_gone_from_a_built_page(tmp_path: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config as load_mkdocs

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(
        f"# Home\n\ntext{BIDI}here &#x202e;entity\n\n```python\nx = 'a\u202eb'\n```\n", encoding="utf-8"
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme: {name: material}\nplugins: [deepkb-sanitize]\n"
        "markdown_extensions: [pymdownx.superfences]\n",
        encoding="utf-8",
    )
    build(load_mkdocs(str(tmp_path / "mkdocs.yml")))
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    article = page[page.index("<article") : page.index("</article>")]
    assert "texthereentity" in article.replace(" ", "")
    assert not re.search(r"[\u202a-\u202e\u2066-\u2069]|&#x202e;|&#8238;", article, re.I)


@pytest.mark.parametrize(
    "url",
    [
        'https://example.org/kb/"onmouseover="alert(1)',
        "https://example.org/kb/'><script>alert(1)</script>",
        "https://example.org/k b/",
        "https://example.org/kb/`x`",
        "https://example.org/\u202ekb/",
    ],
)
def test_site_url_that_would_leave_its_attribute_is_refused(tmp_path: Path, url: str) -> None:
    (tmp_path / "deepkb.yml").write_text(
        json.dumps({"site": {"site_url": url, "repo_url": None}}), encoding="utf-8"
    )
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "deepkb.yml")
    assert "'site.site_url': must be a full http(s) address" in caught.value.line()
    (tmp_path / "deepkb.yml").write_text(json.dumps({"site": {"repo_url": url}}), encoding="utf-8")
    with pytest.raises(ConfigError, match="repo_url"):
        load_config(tmp_path / "deepkb.yml")


def test_a_quoted_site_url_through_deepkb_site_is_one_line_without_no_strict(kb_root: Path) -> None:
    (kb_root / "deepkb.yml").write_text("site:\n  site_url: 'https://example.org/\"x'\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "site.site_url" in result.output, result.output
    assert "--no-strict" not in result.output
