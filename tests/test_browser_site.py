"""The built site as a reader sees it: Debian's Chromium, driven by Playwright, over a KB built by `deepkb build`.

For every page kind: no console error, no request outside the site's origin, diagrams drawn as SVG (and
redrawn in dark mode), the dark-mode toggle, no horizontal overflow at 400 px, no escape debris on screen.
Search answers an English and a Chinese query from a page with a diagram, by keyboard. Screenshots of each
page kind (light, dark, 400 px) are saved in the module's tmp folder (printed by `pytest -s`; keep them with
`--basetemp DIR`).
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from browser_kb import TOPIC, ZH_TOPIC, build_kb, serve
from site_checks import escape_debris

CHROMIUM = Path(os.environ.get("DEEPKB_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _cannot_run(reason: str) -> None:
    """Skips this module (conftest reports it in a banner); under CI a browser test is never skipped: it fails."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run under CI=true: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}", allow_module_level=True)


if not CHROMIUM.is_file():
    _cannot_run(f"no Chromium at {CHROMIUM} (apt-get install chromium fonts-noto-cjk)")
try:
    from playwright import sync_api
except ImportError:
    _cannot_run("playwright is not installed (pip install -e '.[dev]')")

RENDERER_DEBRIS = ("unconsumed escape",)
"""Debris the renderer's escaping causes; docstring markup (underlines, roles) is the repository pages' to clean,
checked by test_docstring_markup_never_reaches_the_screen below."""
SEARCH_BUDGET = 500 * 1024
"""Bytes a first query may fetch (issue 12: ≤ 0.5 MB at 20,000 pages; bench/site_scale.py measures that)."""
PAGE_KINDS = ("home", "repository index", "shard", "topic landing", "report", "raw source", "tag page")


@dataclass
class Reader:
    """One open page and everything it did: console errors, requests, the origin it was served from."""

    page: Any
    origin: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def outside_origin(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(self.origin)]


@dataclass
class Site:
    root: Path
    base: str
    pages: dict[str, str]
    shots: Path


def _page_urls(site: Path) -> dict[str, str]:
    def first(pattern: str) -> str:
        found = sorted(site.glob(pattern))
        assert found, f"no page matches {pattern}"
        return found[0].parent.relative_to(site).as_posix() + "/"

    return {
        "home": "",
        "repository index": first("repos/*/*/index.html"),
        "shard": first("repos/*/*/shards/*/index.html"),
        "topic landing": first("topics/*/index.html"),
        "report": first("topics/*/output/report/index.html"),
        "raw source": first("topics/*/raw/*/index.html"),
        "tag page": first("tags/[!i]*/index.html"),
    }


DIAGRAM_FENCE = '<pre class="deepkb-diagram"><code>'


def _add_broken_diagram_page(site: Path, shard_url: str) -> str:
    """A copy of the shard page whose diagram does not parse (same depth: its relative links still work)."""
    source = site / shard_url / "index.html"
    target = source.parent.parent / "zz-broken-diagram" / "index.html"
    target.parent.mkdir()
    html = source.read_text(encoding="utf-8")
    if DIAGRAM_FENCE not in html:
        return shard_url + "no-diagram-to-break/"  # the test on this page then fails on its first check
    start = html.index(DIAGRAM_FENCE) + len(DIAGRAM_FENCE)
    html = html[:start] + "flowchart LR\n  A[unclosed --&gt;&gt; ((B\n" + html[html.index("</code>", start) :]
    target.write_text(html, encoding="utf-8")
    return target.parent.relative_to(site).as_posix() + "/"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = build_kb(tmp_path_factory.mktemp("browser-kb"))
    pages = _page_urls(root / "site")
    pages["broken diagram"] = _add_broken_diagram_page(root / "site", pages["shard"])
    shots = tmp_path_factory.mktemp("screenshots")
    with serve(root / "site") as base:
        yield Site(root, base, pages, shots)
    print(f"\nscreenshots: {shots}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser: Any, site: Site) -> Iterator[Any]:
    contexts = []

    def opener(kind: str, width: int = 1280, block: str = "") -> Reader:
        context = browser.new_context(viewport={"width": width, "height": 900})
        contexts.append(context)
        if block:  # a file the server "fails" to deliver
            context.route(block, lambda route: route.abort())
        reader = Reader(context.new_page(), site.base)
        reader.page.on("console", lambda m: reader.errors.append(m.text) if m.type == "error" else None)
        reader.page.on("pageerror", lambda e: reader.errors.append(f"uncaught: {e}"))
        reader.page.on("request", lambda r: reader.requests.append(r.url))
        reader.page.goto(site.base + site.pages[kind], wait_until="load")
        return reader

    yield opener
    for context in contexts:
        context.close()


def _wait_for_diagrams(page: Any) -> int:
    """Waits until every diagram on the page is drawn as SVG; returns how many there are."""
    count = page.locator("pre.deepkb-diagram").count()
    if count:
        page.wait_for_function(
            "n => document.querySelectorAll('.deepkb-diagram-drawn svg').length === n",
            arg=count,
            timeout=20000,
        )
    return count


def _toggle_theme(page: Any) -> str:
    scheme = "document.body.getAttribute('data-md-color-scheme')"
    before = page.evaluate(scheme)
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_function(f"{scheme} !== {before!r}", timeout=5000)
    return str(page.evaluate(scheme))


@pytest.mark.parametrize("kind", PAGE_KINDS)
def test_page_kind_reads_cleanly_in_light_dark_and_narrow(open_page: Any, site: Site, kind: str) -> None:
    reader = open_page(kind)
    page = reader.page
    drawn = _wait_for_diagrams(page)
    if kind == "shard":
        assert drawn >= 1  # the offline analyst draws each shard's files
    assert page.locator(".deepkb-diagram-note").count() == 0
    assert [d for d in escape_debris(page.content()) if d.startswith(RENDERER_DEBRIS)] == []
    slug = kind.replace(" ", "-")
    page.screenshot(path=str(site.shots / f"{slug}-light.png"), full_page=True)

    assert _toggle_theme(page) == "slate"
    if drawn:
        page.wait_for_function(
            "document.querySelector('.deepkb-diagram-drawn svg') !== null"
            " && getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)'"
        )
        _wait_for_diagrams(page)
    page.screenshot(path=str(site.shots / f"{slug}-dark.png"), full_page=True)
    assert _toggle_theme(page) == "default"

    page.set_viewport_size({"width": 400, "height": 800})
    page.wait_for_function("document.documentElement.clientWidth === 400")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    page.screenshot(path=str(site.shots / f"{slug}-400px.png"), full_page=True)
    assert overflow <= 0, f"{kind}: the page scrolls sideways by {overflow}px at 400 px"
    assert reader.outside_origin() == []
    assert reader.errors == []


def _search(page: Any, query: str) -> list[str]:
    field = page.locator("#deepkb-search input")
    field.fill("")
    field.type(query, delay=20)
    page.wait_for_selector(".pagefind-ui__result-link", timeout=15000)
    return [str(t) for t in page.locator(".pagefind-ui__result-link").all_inner_texts()]


def test_search_answers_english_and_chinese_from_a_page_with_a_diagram(open_page: Any, site: Site) -> None:
    reader = open_page("shard")
    page = reader.page
    assert _wait_for_diagrams(page) >= 1
    page.wait_for_load_state("networkidle")
    fetched: list[int] = []
    page.on("requestfinished", lambda r: fetched.append(r.sizes()["responseBodySize"]))
    page.keyboard.press("/")
    page.wait_for_selector("#deepkb-search input", state="visible")
    english = _search(page, "tokenizer")
    assert english, "no result for an English word of the shard pages"
    assert 0 < sum(fetched) <= SEARCH_BUDGET  # the UI, Pagefind's loader and only the chunks a query needs
    page.screenshot(path=str(site.shots / "search-english.png"))
    chinese = _search(page, "算盘")
    assert chinese, "no result for a Chinese word of the corpus"
    page.screenshot(path=str(site.shots / "search-chinese.png"))
    page.keyboard.press("Escape")
    assert not page.locator("dialog.deepkb-search-dialog").evaluate("d => d.open")
    page.keyboard.press("s")  # the second shortcut opens it again
    assert page.locator("dialog.deepkb-search-dialog").evaluate("d => d.open")
    assert reader.outside_origin() == []
    assert reader.errors == []


def _results(page: Any, query: str, none: str = "No results") -> int:
    """How many pages Pagefind's UI reports for `query` (0 when it says there are none)."""
    field = page.locator("#deepkb-search input")
    field.fill("")
    field.type(query, delay=20)
    message = page.locator(".pagefind-ui__message")
    page.wait_for_function(  # the count for this query, not the "Searching for …" note before it
        "q => { const t = (document.querySelector('.pagefind-ui__message') || {}).textContent || '';"
        " return t.includes(q) && !/(\\.\\.\\.|…)\\s*$/.test(t); }",
        arg=query,
    )
    text = message.inner_text()
    return 0 if text.startswith(none) else int(re.search(r"\d+", text).group())  # type: ignore[union-attr]


def test_the_key_that_opens_search_is_never_lost(open_page: Any) -> None:
    reader = open_page("shard")
    page = reader.page
    page.wait_for_load_state("networkidle")
    page.keyboard.press("/")
    page.keyboard.type("tokenizer", delay=80)  # at once, while the search UI is still loading
    page.wait_for_selector(".pagefind-ui__message", timeout=15000)
    assert page.locator("#deepkb-search input").input_value() == "tokenizer"
    assert page.locator(".deepkb-search-early").count() == 0  # the early field gave way to Pagefind's
    assert reader.errors == []


def test_search_counts_english_chinese_and_nonsense_in_their_own_languages(
    open_page: Any, site: Site
) -> None:
    entry = json.loads((site.root / "site" / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert sorted(entry["languages"]) == ["en", "zh"]
    reader = open_page("shard")
    page = reader.page
    page.wait_for_load_state("networkidle")
    page.keyboard.press("/")
    page.wait_for_selector("#deepkb-search input", state="visible")
    assert _results(page, "tokenizers") >= 2  # stemmed: the repository's pages say "tokenizer", "tokens"
    assert _results(page, "算盘") >= 5  # the Chinese topic's five pages (zh index) and the tag page (en)
    # Pagefind renders each result's link after the count, one fragment at a time: wait for the raw page's
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pagefind-ui__result-link')].some(a => {"
        " const h = decodeURIComponent(a.href); return h.includes('/raw/') && h.includes('计算器-如何'); })"
    )
    assert _results(page, "zzqx") == 0
    assert _results(page, "alrus") == 0  # Pagefind alone answers for "a", the longest indexed prefix
    assert _results(page, "tok") >= 2  # a word still being typed finds the words it begins
    # and from a Chinese page, an English word finds the repository's English pages
    zh_topic = next(p for p in (site.root / "site" / "topics").iterdir() if p.name.startswith("计算器-如何"))
    page.goto(site.base + f"topics/{quote(zh_topic.name)}/", wait_until="networkidle")
    assert page.evaluate("document.documentElement.lang") == "zh"
    page.keyboard.press("/")
    page.wait_for_selector("#deepkb-search input", state="visible")
    assert _results(page, "tokenizer", none="未找到") >= 2
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pagefind-ui__result-link')].some(a => a.href.includes('/repos/'))"
    )
    assert _results(page, "zzqx", none="未找到") == 0
    assert reader.outside_origin() == []
    assert reader.errors == []


def test_a_chinese_query_finds_english_pages_through_the_glossary(open_page: Any, site: Site) -> None:
    """令牌 (token) is on no page: the glossary the build ships (as `ask` reads it) searches its English twin."""
    built = site.root / "site"
    assert not any("令牌" in p.read_text(encoding="utf-8") for p in built.rglob("*.html"))
    assert json.loads((built / "assets/javascripts/deepkb/glossary.json").read_text(encoding="utf-8"))[
        "zh_en"
    ]["令牌"] == ["token"]
    reader = open_page("home")
    page = reader.page
    page.wait_for_load_state("networkidle")
    page.keyboard.press("/")
    page.wait_for_selector("#deepkb-search input", state="visible")
    assert _results(page, "令牌") >= 2  # the repository's pages about tokens
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pagefind-ui__result-link')].some(a => a.href.includes('/repos/'))"
    )
    assert _results(page, "算盘") >= 5  # a Chinese word the pages hold still finds them, as before
    assert _results(page, "zzqx") == 0
    assert reader.outside_origin() == []
    assert reader.errors == []


def test_each_page_declares_its_language_and_notices_stay_out_of_the_index(site: Site) -> None:
    built = site.root / "site"
    zh_topic = next(p for p in built.glob("topics/*/index.html") if "计算器-如何" in p.parent.name)
    assert '<html lang="zh"' in zh_topic.read_text(encoding="utf-8")
    repo = next(built.glob("repos/*/*/index.html"))
    assert '<html lang="en"' in repo.read_text(encoding="utf-8")
    assert "Produced offline" in repo.read_text(encoding="utf-8")  # the notice is on the page…
    for fragment in (built / "pagefind" / "fragment").iterdir():
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8", errors="replace")
        assert "Produced offline" not in text, fragment.name  # …but never what a result shows


def test_a_diagram_that_fails_to_parse_shows_text_and_the_page_keeps_working(
    open_page: Any, site: Site
) -> None:
    reader = open_page("broken diagram")
    page = reader.page
    page.wait_for_selector(".deepkb-diagram-note", timeout=20000)
    assert page.locator("pre.deepkb-diagram").first.is_visible()  # the source, as text
    assert "could not be drawn" in page.locator(".deepkb-diagram-note").first.inner_text()
    page.screenshot(path=str(site.shots / "broken-diagram.png"), full_page=True)
    assert _toggle_theme(page) == "slate"
    page.locator(".deepkb-search-button").click()
    assert _search(page, "tokenizer")
    assert reader.errors == []


def test_a_diagram_is_drawn_readable_and_opens_full_size(open_page: Any, site: Site) -> None:
    page = open_page("repository index").page
    assert _wait_for_diagrams(page) >= 1
    # labels as large as the text, not shrunk to the column (a diagram wider than it scrolls instead)
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('.deepkb-diagram-drawn svg .nodeLabel')]"
        ".map(e => e.getBoundingClientRect().height).filter(h => h > 0))"
    )
    assert smallest >= 12, f"diagram labels are {smallest}px tall"
    page.locator(".deepkb-diagram-open").first.click()
    dialog = page.locator("dialog.deepkb-diagram-dialog")
    assert dialog.is_visible() and dialog.locator("svg").count() == 1
    assert (
        dialog.locator("svg").bounding_box()["width"]
        >= page.locator(".deepkb-diagram-drawn svg").first.bounding_box()["width"]
    )
    page.screenshot(path=str(site.shots / "diagram-full-size.png"))
    page.keyboard.press("Escape")
    assert not dialog.is_visible()


def test_an_identifier_in_a_table_never_breaks_mid_word(open_page: Any) -> None:
    """reader44 on a configuration table: "SchemaFilenam|e", "TypeReferenc|e" wrapped inside their code spans
    while the prose column beside them stood almost empty; a table too wide for the column scrolls instead."""
    page = open_page("repository index").page
    lines = page.evaluate(
        """() => {
      const wrap = document.createElement('div');
      wrap.className = 'md-typeset__scrollwrap';
      const names = ['SchemaFilenameConfiguration', 'TypeReferenceResolution', 'OmitComplexityLimitsOption'];
      const rows = names.map(n => `<tr><td><code>${n}</code></td><td><code>StringList{"schema.graphql"}</code></td>`
        + `<td>${'what it is for, said in words '.repeat(6)}</td></tr>`).join('');
      wrap.innerHTML = `<div class="md-typeset__table"><table><thead><tr><th>Field</th><th>Default</th>`
        + `<th>What it is</th></tr></thead><tbody>${rows}</tbody></table></div>`;
      document.querySelector('article').appendChild(wrap);
      return [...wrap.querySelectorAll('code')].map(c => {
        const tops = new Set([...c.getClientRects()].map(r => Math.round(r.top)));
        return [c.textContent, tops.size];
      });
    }"""
    )
    assert [name for name, rows in lines if rows > 1] == []


def test_a_table_too_wide_for_the_column_breaks_its_long_names_at_their_seams(open_page: Any) -> None:
    """reader44: four of gqlgen's configuration tables scrolled, their descriptions out of view, held wide by
    names (`WithApolloSandboxHideCookieToggle`, graph/playground/apollo_sandbox_playground.go:122-126 as a
    link, the same name again in prose). Those names break at a slash, a dot, an underscore or a camel-case
    capital and the table fits; a name with no seam never breaks, and the text is the same."""
    page = open_page("repository index").page
    found = page.evaluate(
        """async () => {
      const wrap = document.createElement('div');
      wrap.className = 'md-typeset__scrollwrap';
      const names = ['WithApolloSandboxInitialStateIncludeCookies', 'WithApolloSandboxEndpointIsEditable'];
      const path = 'graph/playground/apollo_sandbox_playground.go:122-126';
      const rows = names.map(n => `<tr><td><code>${n}</code></td><td><code>includeCookies bool</code></td>`
        + `<td>${n} sets ${'what it is for, in words '.repeat(3)}</td><td><a href="#">${path}</a></td></tr>`);
      rows.push('<tr><td><code>abcdefghijklmnopqrstuvwxyzabcd</code></td><td></td><td></td><td></td></tr>');
      wrap.innerHTML = `<div class="md-typeset__table"><table><thead><tr><th>Setting</th><th>Takes</th>`
        + `<th>What it sets</th><th>Declared at</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
      document.querySelector('article').appendChild(wrap);
      const table = wrap.querySelector('table');
      const text = table.textContent;
      const wide = table.scrollWidth > wrap.clientWidth;
      const src = [...document.scripts].map(s => s.src).find(s => s.endsWith('/deepkb/tables.js'));
      if (!src) return {wide, script: 'none'};
      await new Promise(done => {
        const again = document.createElement('script');
        again.src = src;
        again.onload = done;
        document.body.appendChild(again);
      });
      const rowsOf = el => new Set([...el.getClientRects()].map(r => Math.round(r.top))).size;
      return {wide, fits: table.scrollWidth <= wrap.clientWidth, same: table.textContent === text,
              seamless: rowsOf(table.querySelector('tr:last-child code'))};
    }"""
    )
    assert found == {"wide": True, "fits": True, "same": True, "seamless": 1}


def test_a_diagram_a_little_wider_than_the_column_fits_it(open_page: Any) -> None:
    """reader44: a main-flow diagram 716 px wide in a 688 px column had its right edge cut off until one scrolled.
    A diagram up to a third wider than the column shrinks to fit it; a wider one shrinks to 3/4 and scrolls."""
    page = open_page("repository index").page
    assert _wait_for_diagrams(page) >= 1
    fits = page.evaluate(
        """() => {
      const figure = document.querySelector('.deepkb-diagram-drawn');
      const svg = figure.querySelector('svg');
      const natural = parseFloat(svg.getAttribute('width'));
      const at = share => {
        figure.style.width = Math.round(natural * share) + 'px';
        return [Math.round(svg.getBoundingClientRect().width), figure.clientWidth];
      };
      return {natural, close: at(0.85), far: at(0.5)};
    }"""
    )
    natural, (close_svg, close_room), (far_svg, far_room) = fits["natural"], fits["close"], fits["far"]
    assert close_svg <= close_room, f"a diagram of {natural}px is {close_svg}px in a {close_room}px column"
    assert far_svg >= round(natural * 0.75) - 1 and far_svg > far_room  # labels kept readable: it scrolls


def test_docstring_markup_never_reaches_the_screen(open_page: Any) -> None:
    for kind in ("repository index", "shard"):
        assert escape_debris(open_page(kind).page.content()) == [], kind


def test_a_diagram_library_that_fails_to_load_leaves_search_and_theme_working(open_page: Any) -> None:
    reader = open_page("shard", block="**/mermaid.min.js")
    page = reader.page
    page.wait_for_selector(".deepkb-diagram-note", timeout=20000)
    assert "did not load" in page.locator(".deepkb-diagram-note").first.inner_text()
    assert _toggle_theme(page) == "slate"
    page.keyboard.press("/")
    assert _search(page, "tokenizer")
    # the one console line is the browser's own report of the blocked request
    assert reader.errors == ["Failed to load resource: net::ERR_FAILED"]


def test_screenshots_were_saved(site: Site) -> None:
    shots = sorted(p.name for p in site.shots.glob("*.png"))
    assert len(shots) >= 3 * len(PAGE_KINDS), shots


def test_the_sidebar_names_a_repositorys_pages_without_the_repository(site: Site) -> None:
    """reader44: every guide entry started with "<project> · " and wrapped to two or three lines; under the
    repository's own section the entry is the page's own name, while the page's title keeps the project."""
    html = (site.root / "site" / site.pages["shard"] / "index.html").read_text(encoding="utf-8")
    nav = html.split('class="md-sidebar md-sidebar--primary"', 1)[1].split("md-sidebar--secondary")[0]
    labels = [
        re.sub(r"<[^>]+>|\s+", " ", m).strip()
        for m in re.findall(r'<span class="md-ellipsis">(.*?)</span>\s*</(?:a|label)', nav, re.S)
    ]
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    assert title and " · " in title.group(1)
    repo = title.group(1).split(" · ", 1)[0]
    assert labels and [label for label in labels if label.startswith(f"{repo} · ")] == []
    assert title.group(1).split(" · ", 1)[1].split(" - ")[0].strip() in labels


def test_the_sidebar_keeps_its_order_while_browsing(site: Site) -> None:
    # the two topics of browser_kb: whichever one is being read, the Topics section lists them in one order
    built = site.root / "site"
    topics = sorted(p.parent for p in built.glob("topics/*/index.html"))
    titles = [TOPIC, ZH_TOPIC]

    def order(page: Path) -> list[str]:
        html = page.read_text(encoding="utf-8")
        nav = html.split('class="md-sidebar md-sidebar--primary"', 1)[1].split("md-sidebar--secondary")[0]
        return sorted(titles, key=lambda title: nav.index(title))

    home = order(built / "index.html")
    assert [order(topic / "index.html") for topic in topics] == [home] * len(topics) and len(topics) == 2
