"""The guarded crawler against local servers (through the explicit allow_loopback test switch), and
`deepkb crawl`: robots.txt, byte cap, content types, hostile pages rendered inert, same-site crawling."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from click.testing import CliRunner
from pymdownx import superfences
from search_fakes import FakeSearchServer, Reply, tiny_pdf

from generator.cli import cli
from generator.errors import ProviderTimeout, UnsafeSourceError
from generator.text.pagetext import inert_markdown
from generator.topic.crawl import Crawler, FetchedPage, FetchFailed, FetchRefused, crawl_site

FILLER = "<p>" + "Crawlers read pages politely and keep only their main text. " * 8 + "</p>"
HOSTILE = f"""<!doctype html><html><head><title>Hostile &lt;page&gt;</title>
<script>alert('head')</script><style>body{{}}</style></head><body><article>
<h1>Welcome</h1>
<p>Intro <script>alert(1)</script> text with &lt;script&gt;alert(2)&lt;/script&gt; escaped markup.</p>
<p><img src="x" onerror="alert(3)"> An image, then <a href="javascript:alert(4)">a js link</a>,
<a href="JaVaScRiPt:alert(5)">mixed case</a>, <a href="data:text/html,<script>alert(6)</script>">data</a>,
<a href="vbscript:msgbox(7)">vb</a> and <a href="https://good.example/ok">a good link</a>.</p>
<p>Raw markdown tricks: [x](javascript:alert(8)) and [y]: javascript:alert(9) and {{: onclick="alert(10)"}}
and &lt;img src=x onerror=alert(11)&gt; and [z](&amp;#106;avascript:alert(12)) and \\<b onmouseover=alert(13)>.</p>
<div onclick="alert(14)"><iframe src="https://evil.example/"></iframe>Div text.</div>
{FILLER}</article></body></html>"""

MARKDOWN_EXTENSIONS = [
    "attr_list",
    "md_in_html",
    "tables",
    "toc",
    "admonition",
    "def_list",
    "pymdownx.superfences",
    "pymdownx.magiclink",
    "pymdownx.inlinehilite",
    "pymdownx.details",
    "pymdownx.highlight",
]
UNSAFE_SCHEMES = ("javascript:", "data:", "vbscript:")
# As in mkdocs.yml: a ```mermaid fence becomes a live diagram (drawn by the site's own script).
EXTENSION_CONFIGS = {
    "pymdownx.superfences": {
        "custom_fences": [
            {"name": "mermaid", "class": "deepkb-diagram", "format": superfences.fence_code_format},
        ]
    }
}


def fetch_page(url: str, *, allow_loopback: bool = False) -> FetchedPage:
    """One page through a fresh crawler's SSRF guard, with no politeness wait."""
    with Crawler(allow_loopback=allow_loopback, delay=0.0) as crawler:
        return crawler.fetch(url)


def render(text: str) -> str:
    return markdown.markdown(text, extensions=MARKDOWN_EXTENSIONS, extension_configs=EXTENSION_CONFIGS)


class TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def live_markup_problems(text: str) -> list[str]:
    """Render `text` as MkDocs would (Python-Markdown) and list every live tag or attribute that is unsafe."""
    collector = TagCollector()
    collector.feed(render(text))
    problems = []
    for tag, attrs in collector.tags:
        if tag in {"script", "img", "iframe", "object", "embed", "style", "svg", "form", "b"}:
            problems.append(f"<{tag}>")
        if "deepkb-diagram" in (dict(attrs).get("class") or ""):
            problems.append(f"<{tag} class=deepkb-diagram>")
        for name, value in attrs:
            target = "".join((value or "").split()).lower()
            if name.startswith("on") or target.startswith(UNSAFE_SCHEMES):
                problems.append(f"<{tag} {name}={value!r}>")
    return problems


@pytest.fixture
def site() -> Iterator[FakeSearchServer]:
    with FakeSearchServer() as server:
        server.route("/robots.txt", Reply(200, "User-agent: *\nDisallow: /private\n"))
        yield server


def html_reply(body: str, **kwargs: object) -> Reply:
    return Reply(200, body, content_type="text/html; charset=utf-8", **kwargs)  # type: ignore[arg-type]


def crawler(**options: object) -> Crawler:
    return Crawler(allow_loopback=True, delay=0, **options)  # type: ignore[arg-type]


def test_fetch_page_reads_main_text_title_and_links(site: FakeSearchServer) -> None:
    site.route(
        "/doc",
        html_reply(
            f"<html><head><title>Doc</title></head><body><h1>Doc</h1>{FILLER}"
            '<a href="/next#part">next</a> <a href="mailto:x@y">mail</a></body></html>'
        ),
    )
    page = fetch_page(f"{site.url}/doc", allow_loopback=True)
    assert page.title == "Doc" and page.status == 200 and page.content_type == "text/html"
    assert "Crawlers read pages politely" in page.text
    assert page.links == [f"{site.url}/next"]
    assert site.requests[-1].headers["user-agent"].startswith("deepkb/")


def test_hostile_page_renders_without_live_markup(site: FakeSearchServer) -> None:
    site.route("/hostile", html_reply(HOSTILE))
    page = fetch_page(f"{site.url}/hostile", allow_loopback=True)
    assert "Welcome" in page.text and "a good link" in page.text
    assert live_markup_problems(page.text) == []
    rendered = render(page.text)
    assert '<a href="https://good.example/ok">' in rendered  # safe links stay links
    assert "alert(1)" not in page.text  # scripts are dropped, not just escaped


@pytest.mark.parametrize(
    "text",
    [
        "\\<script>alert(1)\\</script>",
        "<img src=x onerror=alert(1)>",
        "[a](javascript:alert(1))",
        "[a](<javascript:alert(1)>)",
        "[a]( JAVASCRIPT:alert(1))",
        "[a](&#106;avascript:alert(1))",
        "\\\\[a\\\\](javascript:alert(1))",
        "[a][r]\n\n[r]: javascript:alert(1)",
        "![x](javascript:alert(1))",
        "![x](https://tracker.example/pixel.png)",
        "<https://example.org/>",
        'Paragraph\n{: onclick="alert(1)"}',
        "# Head {: onmouseover=alert(1) }",
        "[ok](https://x.example/){: onclick=alert(1)}",
        '<div markdown="1" onclick="alert(1)">x</div>',
        "[a](data:text/html;base64,PHNjcmlwdD4=)",
        "<a href='vbscript:x'>v</a>",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        '```mermaid\ngraph TD\n  A-->B\n  click A "javascript:alert(1)"\n```',
        "~~~ {.mermaid onclick=alert(1)}\ngraph TD\n~~~",
    ],
)
def test_inert_markdown_cases(text: str) -> None:
    assert live_markup_problems(inert_markdown(text)) == []


def test_the_checker_sees_live_markup() -> None:
    """The cases above would be caught: raw, they do render live."""
    assert live_markup_problems("<img src=x onerror=alert(1)>")
    assert live_markup_problems("[a](javascript:alert(1))")
    assert live_markup_problems("```mermaid\ngraph TD\n```")
    assert live_markup_problems('Paragraph\n{: onclick="alert(1)"}')


def test_inert_markdown_keeps_structure() -> None:
    text = (
        "# Title\n\n- item *one*\n- [link](https://example.org/a?b=1&c=2)\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    )
    rendered = render(inert_markdown(text))
    assert "<h1" in rendered and "<li>item <em>one</em></li>" in rendered and "<table>" in rendered
    assert '<a href="https://example.org/a?b=1&amp;c=2">link</a>' in rendered
    assert html.unescape(inert_markdown("AT&T <3 [x]")) == "AT&T <3 [x]"


def test_robots_disallow_honoured(site: FakeSearchServer) -> None:
    site.route("/private/page", html_reply(FILLER))
    with crawler() as c, pytest.raises(FetchRefused, match="robots.txt"):
        c.fetch(f"{site.url}/private/page")
    assert site.hits("/robots.txt") == 1 and site.hits("/private/page") == 0


def test_robots_fetched_once_per_site(site: FakeSearchServer) -> None:
    site.route("/a", html_reply(FILLER))
    with crawler() as c:
        c.fetch(f"{site.url}/a")
        c.fetch(f"{site.url}/a")
    assert site.hits("/robots.txt") == 1 and site.hits("/a") == 2


def test_robots_server_error_means_disallow(site: FakeSearchServer) -> None:
    site.route("/robots.txt", Reply(503, "down"))
    with crawler() as c, pytest.raises(FetchRefused):
        c.fetch(f"{site.url}/a")


def test_politeness_delay_per_host(site: FakeSearchServer) -> None:
    site.route("/a", html_reply(FILLER))
    waits: list[float] = []
    with Crawler(allow_loopback=True, delay=2.0, sleep=waits.append) as c:
        c.fetch(f"{site.url}/a")  # robots.txt, then the page: the page waits its turn
        c.fetch(f"{site.url}/a")
    # The recorder does not really sleep, so each request is booked one delay after the previous booking.
    assert len(waits) == 2 and 0 < waits[0] <= 2.0 and waits[0] < waits[1] <= 4.0


def test_robots_crawl_delay_raises_the_spacing(site: FakeSearchServer) -> None:
    site.route("/robots.txt", Reply(200, "User-agent: *\nCrawl-delay: 60\n"))
    site.route("/a", html_reply(FILLER))
    waits: list[float] = []
    with Crawler(allow_loopback=True, delay=1.0, sleep=waits.append) as c:
        c.fetch(f"{site.url}/a")
    assert len(waits) == 1 and 1.0 < waits[0] <= 10.0  # crawl-delay honoured, capped at 10 s


@pytest.mark.parametrize("chunked", [False, True])
def test_byte_cap(site: FakeSearchServer, chunked: bool) -> None:
    site.route("/big", html_reply("<p>" + "x" * 50_000 + "</p>", chunked=chunked))
    with crawler(max_bytes=10_000) as c, pytest.raises(FetchRefused, match="larger than 10000 bytes"):
        c.fetch(f"{site.url}/big")


@pytest.mark.parametrize(
    "content_type", ["application/javascript", "image/svg+xml", "application/octet-stream", ""]
)
def test_content_type_refused(site: FakeSearchServer, content_type: str) -> None:
    site.route("/blob", Reply(200, b"<svg onload=alert(1)>", content_type=content_type))
    with crawler() as c, pytest.raises(FetchRefused, match="does not crawl"):
        c.fetch(f"{site.url}/blob")


def test_plain_text_and_pdf(site: FakeSearchServer) -> None:
    site.route("/notes.txt", Reply(200, "Field notes\n\n<script>x</script> [a](javascript:y)"))
    site.route("/paper.pdf", Reply(200, tiny_pdf("Annealing schedules"), content_type="application/pdf"))
    with crawler() as c:
        notes = c.fetch(f"{site.url}/notes.txt")
        paper = c.fetch(f"{site.url}/paper.pdf")
    assert notes.title == "Field notes" and live_markup_problems(notes.text) == []
    assert "Annealing schedules" in paper.text


def test_error_status_and_timeout(site: FakeSearchServer) -> None:
    site.route("/gone", Reply(404, "no"))
    site.route("/slow", html_reply(FILLER, delay=3.0))
    # robots.txt is not what this asks (the robots tests above are): fetched within the same 0.2 s, on a
    # loaded machine it timed out, and no answer disallows every page; the 404 gets a timeout no loaded
    # machine reaches (within 0.2 s, a full test suite beside three other jobs made it a timeout too)
    with crawler(timeout=10, respect_robots=False) as c:
        with pytest.raises(FetchFailed, match="404"):
            c.fetch(f"{site.url}/gone")
    with crawler(timeout=0.3, respect_robots=False) as c:
        with pytest.raises(ProviderTimeout):
            c.fetch(f"{site.url}/slow")


def test_charset_from_meta(site: FakeSearchServer) -> None:
    body = f'<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title></head><body>{FILLER}</body></html>'
    site.route("/latin", Reply(200, body.encode("latin-1"), content_type="text/html"))
    assert fetch_page(f"{site.url}/latin", allow_loopback=True).title == "Café"


def test_crawl_site_follows_same_site_links_to_depth(site: FakeSearchServer) -> None:
    site.route(
        "/",
        html_reply(
            f'<title>Home</title>{FILLER}<a href="/a">a</a><a href="/b?utm_source=x">b</a>'
            '<a href="https://elsewhere.example/">off-site</a><a href="/private/x">p</a>'
        ),
    )
    site.route("/a", html_reply(f'<title>A</title>{FILLER}<a href="/a/deep">deep</a><a href="/">home</a>'))
    site.route("/b", html_reply(f"<title>B</title>{FILLER}"))
    site.route("/a/deep", html_reply(f"<title>Deep</title>{FILLER}"))
    with crawler() as c:
        shallow = crawl_site(f"{site.url}/", 1, crawler=c)
        deep = crawl_site(f"{site.url}/", 2, crawler=c, max_pages=10)
        capped = crawl_site(f"{site.url}/", 2, crawler=c, max_pages=2)
    assert [p.title for p in shallow.pages] == ["Home", "A", "B"]
    assert [url for url, _ in shallow.skipped] == [f"{site.url}/private/x"]
    assert [p.title for p in deep.pages] == ["Home", "A", "B", "Deep"]
    assert len(capped.pages) == 2
    assert all(r.path != "/" or r.method == "GET" for r in site.requests)


def test_crawl_site_refuses_first_page(site: FakeSearchServer) -> None:
    with Crawler() as crawler, pytest.raises(UnsafeSourceError):
        crawl_site(f"{site.url}/", crawler=crawler)  # default crawler: loopback refused
    assert site.hits() == 0


# --- deepkb crawl -----------------------------------------------------------------------------------


@pytest.fixture
def local_crawler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's crawler with the test switch on: the real crawler, able to reach 127.0.0.1."""
    monkeypatch.setattr("generator.cli.crawl.make_crawler", lambda: Crawler(allow_loopback=True, delay=0))


def test_cli_refuses_loopback_with_one_line(kb_root: Path, site: FakeSearchServer) -> None:
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "crawl", f"http://localhost:{site.port}/"])
    assert result.exit_code == 2
    assert result.output.strip().startswith("Error: refusing to fetch") and "Traceback" not in result.output
    assert site.hits() == 0


@pytest.mark.usefixtures("local_crawler")
def test_cli_prints_json_and_markdown(kb_root: Path, site: FakeSearchServer) -> None:
    site.route("/", html_reply(f'<title>Home [x](javascript:1)</title>{FILLER}<a href="/a">a</a>'))
    site.route("/a", html_reply(f"<title>A</title>{FILLER}"))
    runner = CliRunner()
    as_json = runner.invoke(
        cli, ["--root", str(kb_root), "crawl", f"{site.url}/", "--depth", "1", "--format", "json"]
    )
    assert as_json.exit_code == 0, as_json.output
    pages = json.loads(as_json.stdout)["pages"]
    assert [p["title"] for p in pages] == ["Home [x](javascript:1)", "A"]
    as_md = runner.invoke(cli, ["--root", str(kb_root), "crawl", f"{site.url}/"])
    assert as_md.exit_code == 0 and as_md.stdout.startswith("# Home")
    assert live_markup_problems(as_md.stdout) == []


@pytest.mark.usefixtures("local_crawler")
def test_cli_stores_raw_sources_of_a_topic(kb_root: Path, site: FakeSearchServer) -> None:
    from generator.store import KBPaths
    from generator.topic.state import TopicMeta
    from generator.topic.workspace import list_raw_sources, save_meta

    paths = KBPaths(kb_root)
    save_meta(paths, TopicMeta(id="t1", topic="Crawling", slug="crawling"))
    site.route("/hostile", html_reply(HOSTILE))
    result = CliRunner().invoke(
        cli, ["--root", str(kb_root), "crawl", f"{site.url}/hostile", "--topic", "t1"]
    )
    assert result.exit_code == 0, result.output
    raws = list_raw_sources(paths, "crawling")
    assert [r.source for r in raws] == ["crawl"] and raws[0].url == f"{site.url}/hostile"
    assert result.stdout.strip() == raws[0].id
    page = (paths.topic_dir("crawling") / raws[0].page).read_text()
    assert live_markup_problems(page.split("---", 2)[2]) == []


def test_cli_unknown_topic(kb_root: Path, site: FakeSearchServer, local_crawler: None) -> None:
    site.route("/a", html_reply(FILLER))
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "crawl", f"{site.url}/a", "--topic", "nope"])
    assert result.exit_code == 2 and "no topic workspace" in result.output


def test_inert_text_cannot_include_files_through_snippets(tmp_path: Path) -> None:
    """pymdownx.snippets (`--8<--`) would paste a local file into the page at build time."""
    (tmp_path / "secret.txt").write_text("TOPSECRET")
    hostile = '--8<-- "secret.txt"\n\n;--8<-- "secret.txt"'

    def render(text: str) -> str:
        config = {"pymdownx.snippets": {"base_path": [str(tmp_path)]}}
        return markdown.markdown(text, extensions=["pymdownx.snippets"], extension_configs=config)

    assert "TOPSECRET" in render(hostile)  # the attack works on raw text…
    assert "TOPSECRET" not in render(inert_markdown(hostile))  # …and not on inert text
