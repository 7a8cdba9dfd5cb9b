"""A repository's reading path: its shard pages in the left nav, previous/next and a breadcrumb back, per page.
Read from the run's shared site (conftest.shared_site)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SharedSite
from mkdocs.structure.files import File, Files

from generator.site.nav import entry_pages


def _sidebar(html: str) -> str:
    return html.split('class="md-sidebar md-sidebar--primary"', 1)[1].split(
        'class="md-sidebar md-sidebar--secondary"'
    )[0]


def test_shard_pages_walk_their_repository(shared_site: SharedSite) -> None:
    # site_fixtures.write_shared_kb: acme/webclient (sessions, redirects, cookies) and acme/other (core, cli)
    site = shared_site.paths.site_dir
    middle = (site / "repos/acme/webclient/shards/02_redirects/index.html").read_text(encoding="utf-8")

    nav = _sidebar(middle)
    # under the repository's own section a shard is named by its subsystem; its page title keeps the repository
    for title in ("sessions", "redirects", "cookies"):
        assert re.search(rf">\s*{title}\s*<", nav) and f"webclient · {title}" not in nav
    assert "other/shards/" not in nav  # another repository's shards are not in this page's nav

    footer = middle.split('class="md-footer"', 1)[1]
    assert re.search(r'href="\.\./01_sessions/"[^>]*md-footer__link--prev', footer)
    assert re.search(r'href="\.\./03_cookies/"[^>]*md-footer__link--next', footer)

    path = middle.split('class="md-path"', 1)[1].split("</nav>", 1)[0]
    assert "Repositories" in path and 'href="../../"' in path  # breadcrumb back to the repository index
    # the shards sit under a Subsystems section of the repository (a guide page may share a shard's name)
    assert "Subsystems" in path and nav.index("Subsystems") < nav.index("01_sessions/")

    index = (site / "repos/acme/webclient/index.html").read_text(encoding="utf-8")
    assert re.search(
        r'href="shards/01_sessions/"[^>]*md-footer__link--next', index.split('class="md-footer"')[1]
    )
    last = (site / "repos/acme/webclient/shards/03_cookies/index.html").read_text(encoding="utf-8")
    assert "md-footer__link--next" not in last.split('class="md-footer"', 1)[1]

    # pages outside repositories keep the bounded site nav, with no repository's shards in it
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "webclient · sessions" not in home and "other · core" not in home


def test_a_topic_walks_landing_report_analysis_and_sources(shared_site: SharedSite) -> None:
    # site_fixtures.write_shared_kb: topic widgets' landing, report, analysis, sources list and one raw source
    site = shared_site.paths.site_dir
    report = (site / "topics/widgets/output/report/index.html").read_text(encoding="utf-8")
    nav = _sidebar(report)
    assert "Analysis: Widgets" in nav and "Sources: Widgets" in nav and "Raw source A" not in nav
    footer = report.split('class="md-footer"', 1)[1]
    assert re.search(r'href="\.\./\.\./"[^>]*md-footer__link--prev', footer)  # back to the landing page
    assert re.search(r'href="\.\./\.\./processed/analysis/"[^>]*md-footer__link--next', footer)


def _path(html: str) -> str:
    assert 'class="md-path"' in html, "the page has no breadcrumb"
    return html.split('class="md-path"', 1)[1].split("</nav>", 1)[0]


def test_a_raw_source_has_its_topic_s_breadcrumb_and_nav(shared_site: SharedSite) -> None:
    site = shared_site.paths.site_dir
    raw = (site / "topics/widgets/raw/a/index.html").read_text(encoding="utf-8")
    nav = _sidebar(raw)
    assert "Analysis: Widgets" in nav and "Sources: Widgets" in nav
    path = _path(raw)
    assert "Topics" in path and "Widgets" in path
    footer = raw.split('class="md-footer"', 1)[1]
    assert re.search(
        r'href="\.\./\.\./sources/"[^>]*md-footer__link--prev', footer
    )  # back to the sources list
    assert "md-footer__link--next" not in footer


def test_tag_pages_and_the_tags_index_sit_under_tags(shared_site: SharedSite) -> None:
    site = shared_site.paths.site_dir
    tags = sorted(p for p in site.glob("tags/*/index.html"))
    assert tags, "the shared site has no tag page"
    tag = tags[0].read_text(encoding="utf-8")
    assert "Tags" in _path(tag) and 'href="../"' in _path(tag)  # breadcrumb back to the tags index
    assert re.search(r'href="\.\./"[^>]*md-footer__link--prev', tag.split('class="md-footer"', 1)[1])
    assert "Tags" in _sidebar(tag)
    index = (site / "tags/index.html").read_text(encoding="utf-8")
    assert "Tags" in _sidebar(index) and 'class="md-footer"' in index


def test_a_repository_reads_guide_then_reference_then_subsystems(tmp_path: Path) -> None:
    entry = "repos/acme/cachekit/"
    names = [
        "answers/why.md",
        "shards/01_core.md",
        "reference/extension-points.md",
        "reference/configuration.md",
        "guide/01_routing.md",
        "guide/getting-started.md",
        "reference/data-model.md",
        "index.md",
    ]
    files = Files([File(entry + name, str(tmp_path), str(tmp_path / "site"), True) for name in names])
    order = [f.src_uri.removeprefix(entry) for f in entry_pages(files)[entry]]
    assert order == [
        "index.md",
        "guide/getting-started.md",
        "guide/01_routing.md",
        "reference/configuration.md",
        "reference/data-model.md",
        "reference/extension-points.md",
        "shards/01_core.md",
        "answers/why.md",
    ]
