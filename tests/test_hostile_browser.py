"""Issue 22 #1 in Chromium: deepkb's search script against a page whose content clobbers `#__config`.

No site build: two hand-written pages in the theme's shape load the real search.js from a 127.0.0.1 server.
On the first, page content holds a `<div id="__config">` naming another host before the theme's own JSON
config; on the second, the theme's config itself names another host (refused: the page's folder is used). Requests to any other host are
recorded and aborted, never sent.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from browser_kb import serve
from conftest import SharedSite
from test_browser_site import CHROMIUM, CHROMIUM_ARGS, sync_api

from generator.site import static

PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<header><nav class="md-header__inner"><div class="md-header__source"></div></nav></header>
<article>{content}</article>
<script id="__config" type="application/json">{config}</script>
<script src="../assets/javascripts/deepkb/search.js"></script>
</body></html>
"""


def _site(folder: Path) -> Path:
    script = folder / "assets" / "javascripts" / "deepkb" / "search.js"
    script.parent.mkdir(parents=True)
    shutil.copy(static.ASSETS_DIR / "javascripts" / "deepkb" / "search.js", script)
    (folder / "pagefind").mkdir()
    (folder / "pagefind" / "pagefind-ui.js").write_text("window.PagefindUI = function () {};\n")
    (folder / "pagefind" / "pagefind-ui.css").write_text("\n")
    pages = {
        "clobbered": ('<div id="__config">{"base":"//elsewhere.invalid/x"}</div>', '{"base": ".."}'),
        "absolute": ("<p>text</p>", '{"base": "//elsewhere.invalid/kb"}'),
    }
    for name, (content, config) in pages.items():
        (folder / name).mkdir()
        (folder / name / "index.html").write_text(PAGE.format(content=content, config=config))
    return folder


def _site_only(chromium: Any, base: str, outside: list[str]) -> Any:
    """A browser context that lets requests under `base` through and records and aborts every other."""
    context = chromium.new_context()
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(base)
            else (outside.append(route.request.url), route.abort())
        ),
    )
    return context


def test_search_loads_its_ui_only_from_the_site_itself(tmp_path: Path) -> None:
    with serve(_site(tmp_path)) as base, sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        outside: list[str] = []
        context = _site_only(chromium, base, outside)
        page = context.new_page()
        page.goto(base + "clobbered/", wait_until="load")
        with page.expect_request(lambda request: "pagefind-ui.js" in request.url) as loaded:
            page.keyboard.press("/")
        assert loaded.value.url == base + "pagefind/pagefind-ui.js"

        page.goto(base + "absolute/", wait_until="load")
        # a base naming another host is refused: the page's own folder stands in for it
        with page.expect_request(lambda request: "pagefind-ui.js" in request.url) as loaded:
            page.keyboard.press("/")
        assert loaded.value.url == base + "absolute/pagefind/pagefind-ui.js"
        context.close()
        chromium.close()
    assert outside == []


def test_a_site_with_a_repo_url_asks_no_other_host(shared_site: SharedSite) -> None:
    """Issue 22 #14: Material fetched repository facts from api.github.com on every page when repo_url was
    set. Every page kind of the shared site (repo_url github.com/acme/kb) is opened; nothing leaves 127.0.0.1."""
    with serve(shared_site.paths.site_dir) as base, sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        outside: list[str] = []
        context = _site_only(chromium, base, outside)
        page = context.new_page()
        for path in ("", "topics/t/"):
            page.goto(base + path, wait_until="networkidle")
            assert page.locator("a.md-source").count() >= 1  # the repository link is still shown
        context.close()
        chromium.close()
    assert outside == []
