"""A repository's reading path: its shard pages in the left nav, previous/next and a breadcrumb back, per page."""

from __future__ import annotations

import re
from pathlib import Path

from generator.config import Config
from generator.site.build import build_site
from generator.site.render import render_site
from generator.store import KBPaths, write_page


def _write_repo(paths: KBPaths, owner: str, name: str, shards: list[str]) -> None:
    folder = paths.site_src / "repos" / owner / name
    links = "".join(f"- [{s}](shards/{n:02d}_{s}.md)\n" for n, s in enumerate(shards, start=1))
    write_page(folder / "index.md", {"title": f"{owner}/{name}"}, f"# {name}\n\n{links}")
    for n, shard in enumerate(shards, start=1):
        write_page(
            folder / "shards" / f"{n:02d}_{shard}.md",
            {"title": f"{name} · {shard}"},
            f"# {shard}\n\n[Back](../index.md)\n",
        )


def _sidebar(html: str) -> str:
    return html.split('class="md-sidebar md-sidebar--primary"', 1)[1].split(
        'class="md-sidebar md-sidebar--secondary"'
    )[0]


def test_shard_pages_walk_their_repository(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    _write_repo(paths, "acme", "webclient", ["sessions", "redirects", "cookies"])
    _write_repo(paths, "acme", "other", ["core", "cli"])
    render_site(paths, Config())
    site = build_site(paths, Config())
    middle = (site / "repos/acme/webclient/shards/02_redirects/index.html").read_text(encoding="utf-8")

    nav = _sidebar(middle)
    for title in ("webclient · sessions", "webclient · redirects", "webclient · cookies"):
        assert title in nav
    assert "other · core" not in nav  # another repository's shards are not in this page's nav

    footer = middle.split('class="md-footer"', 1)[1]
    assert re.search(r'href="\.\./01_sessions/"[^>]*md-footer__link--prev', footer)
    assert re.search(r'href="\.\./03_cookies/"[^>]*md-footer__link--next', footer)

    path = middle.split('class="md-path"', 1)[1].split("</nav>", 1)[0]
    assert "Repositories" in path and 'href="../../"' in path  # breadcrumb back to the repository index

    index = (site / "repos/acme/webclient/index.html").read_text(encoding="utf-8")
    assert re.search(
        r'href="shards/01_sessions/"[^>]*md-footer__link--next', index.split('class="md-footer"')[1]
    )
    last = (site / "repos/acme/webclient/shards/03_cookies/index.html").read_text(encoding="utf-8")
    assert "md-footer__link--next" not in last.split('class="md-footer"', 1)[1]

    # pages outside repositories keep the bounded site nav, with no repository's shards in it
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "webclient · sessions" not in home and "other · core" not in home


def test_a_topic_walks_landing_report_analysis_and_sources(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    topic = paths.topic_dir("widgets")
    write_page(topic / "index.md", {"title": "Widgets"}, "# Widgets\n\n[Report](output/report.md)\n")
    write_page(topic / "output" / "report.md", {"title": "Report: Widgets"}, "# Report\n")
    write_page(topic / "processed" / "analysis.md", {"title": "Analysis: Widgets"}, "# Analysis\n")
    write_page(topic / "sources.md", {"title": "Sources: Widgets"}, "# Sources\n\n[a](raw/a.md)\n")
    write_page(topic / "raw" / "a.md", {"title": "Raw source A"}, "# A\n")
    render_site(paths, Config())
    site = build_site(paths, Config())
    report = (site / "topics/widgets/output/report/index.html").read_text(encoding="utf-8")
    nav = _sidebar(report)
    assert "Analysis: Widgets" in nav and "Sources: Widgets" in nav and "Raw source A" not in nav
    footer = report.split('class="md-footer"', 1)[1]
    assert re.search(r'href="\.\./\.\./"[^>]*md-footer__link--prev', footer)  # back to the landing page
    assert re.search(r'href="\.\./\.\./processed/analysis/"[^>]*md-footer__link--next', footer)
