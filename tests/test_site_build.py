"""Site builds with MkDocs --strict from pages written through the store, read back as HTML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SharedSite
from site_checks import as_displayed, count_entries, indexed_pages
from site_fixtures import (
    HOSTILE_DESCRIPTION,
    LiveMarkup,
    parse_html,
    write_index,
    write_topics,
)

from generator.config import Config, validated
from generator.errors import ConfigError
from generator.site.build import SiteBuildError, build_site, config_overrides
from generator.site.render import render_site
from generator.site.sanitize import clean_description
from generator.site.static import MERMAID_VERSION
from generator.store import KBPaths, read_page, write_page


@pytest.fixture(scope="module")
def hostile_site(shared_site: SharedSite) -> tuple[KBPaths, dict[Path, dict]]:
    """The hostile pages of the run's shared site (conftest), built by `deepkb site` with --strict."""
    assert shared_site.result.exit_code == 0, shared_site.result.output
    return shared_site.paths, shared_site.written


def _pages(paths: KBPaths) -> list[Path]:
    return sorted(p for p in paths.site_dir.rglob("*.html") if "assets" not in p.parts)


def test_hostile_content_builds_with_no_live_markup(hostile_site: tuple[KBPaths, dict]) -> None:
    paths, _ = hostile_site
    pages = _pages(paths)
    assert len(pages) >= 10
    for page in pages:
        found: LiveMarkup = parse_html(page)
        where = page.relative_to(paths.site_dir)
        for script in found.scripts:
            # theme scripts only: its bundles under assets/, or its inline snippets outside the page body
            src = script.get("src", "")
            assert not src or src.lstrip("./").startswith("assets/javascripts/"), (where, src)
        assert found.inline_in_article == [], where
        assert found.handlers == [], (where, found.handlers)
        assert found.bad_urls == [], (where, found.bad_urls)
        assert found.frames == [], where
        assert len(found.descriptions) == 1, where
        text = page.read_text(encoding="utf-8")
        assert "alert(" not in "".join(_script_bodies(text)), where


def _script_bodies(text: str) -> list[str]:
    import re

    return re.findall(r"<script[^>]*>(.*?)</script>", text, flags=re.DOTALL | re.IGNORECASE)


def test_crafted_description_stays_inside_its_meta_attribute(hostile_site: tuple[KBPaths, dict]) -> None:
    paths, _ = hostile_site
    found = parse_html(paths.site_dir / "repos" / "acme" / "evil" / "index.html")
    assert found.descriptions == ['"› alert(1)']
    assert clean_description(HOSTILE_DESCRIPTION) == "&quot;› alert(1)"
    assert "</title>" not in found.title_text and "<script" not in found.title_text


def test_frontmatter_parses_back_to_what_was_written(hostile_site: tuple[KBPaths, dict]) -> None:
    _, written = hostile_site
    for path, meta in written.items():
        assert read_page(path)[0] == meta, path


def test_mermaid_and_code_survive_sanitizing(hostile_site: tuple[KBPaths, dict]) -> None:
    paths, _ = hostile_site
    html = (paths.site_dir / "topics" / "evil-topic" / "index.html").read_text(encoding="utf-8")
    assert '<pre class="deepkb-diagram"><code>graph TD' in html
    assert '<span class="k">def</span>' in html
    assert '<div class="admonition info">' in html
    assert "Produced offline" in html


def test_workspace_json_is_not_published(hostile_site: tuple[KBPaths, dict]) -> None:
    paths, _ = hostile_site
    assert not list(paths.site_dir.rglob("_meta.json"))
    assert not list(paths.site_dir.rglob("plan.json"))
    assert not (paths.site_dir / "_index.json").exists()


def test_search_index_segments_chinese_and_leaves_the_404_page_out(
    hostile_site: tuple[KBPaths, dict],
) -> None:
    paths, _ = hostile_site
    pages = indexed_pages(paths.site_dir)
    urls = {page["url"] for page in pages}
    assert "/topics/evil-topic/" in urls and not any("404" in url for url in urls)
    titles = {page["url"]: page["meta"]["title"] for page in pages}
    assert titles["/topics/evil-topic/output/report/"] == "Report"  # the page's title, not its "# Findings"
    texts = " ".join(page["content"] for page in pages)
    # the topic page declares lang zh: Pagefind's extended build segmented its Chinese, in the zh index
    assert "知识\u200b库" in texts or "知识库\u200b" in texts
    topic_page = (paths.site_dir / "topics" / "evil-topic" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh"' in topic_page
    shown = as_displayed(paths.site_dir, json.dumps(pages, ensure_ascii=False))
    assert "<script" in texts and "<script" not in shown  # text about markup, shown as text
    assert not (paths.site_dir / "search" / "search_index.json").exists()  # no whole-site index to download


def test_tag_page_lists_repo_topic_and_source_with_variants(hostile_site: tuple[KBPaths, dict]) -> None:
    paths, _ = hostile_site
    html = (paths.site_dir / "tags" / "trade" / "index.html").read_text(encoding="utf-8")
    for variant in ("trading", "trades", "交易"):
        assert variant in html
    assert 'href="../../repos/acme/evil/"' in html
    assert 'href="../../topics/evil-topic/"' in html
    assert 'href="../../topics/evil-topic/raw/source-1a2b3c/"' in html
    assert "<h2" in html and "Raw sources" in html
    assert "javascript:" not in html  # the source's URL is listed as inert text at most


def test_nav_stays_bounded_and_every_topic_is_reachable(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    write_index(paths, write_topics(tmp_path, 100))
    render_site(paths, Config())
    nav = config_overrides(paths, Config())["nav"]
    topics = next(item["Topics"] for item in nav if "Topics" in item)
    assert len(topics) <= 31 and count_entries(nav) <= 70
    site = build_site(paths, Config(), strict=True)
    listing = (site / "topics" / "index.html").read_text(encoding="utf-8")
    for n in range(100):
        assert (site / "topics" / f"topic-{n:03d}" / "index.html").is_file()
        assert (site / "topics" / f"topic-{n:03d}" / "raw" / f"src-{n:03d}" / "index.html").is_file()
        assert f'href="topic-{n:03d}/"' in listing
    # the nav every page repeats lists 30 topics, not 100
    page = (site / "topics" / "topic-000" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="md-nav__link"') < 90


def test_strict_build_fails_with_one_line_and_no_strict_passes(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    write_page(paths.topic_dir("t") / "index.md", {"title": "T"}, "See [missing](nowhere.md).\n")
    render_site(paths, Config())
    with pytest.raises(SiteBuildError) as caught:
        build_site(paths, Config(), strict=True)
    assert "nowhere.md" in caught.value.line() and "\n" not in caught.value.line()
    assert (build_site(paths, Config(), strict=False) / "index.html").is_file()


def test_a_root_mkdocs_yml_without_the_sanitizer_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\ntheme:\n  name: material\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="deepkb-sanitize"):
        build_site(KBPaths(tmp_path), Config())


def test_edit_links_follow_the_site_settings(shared_site: SharedSite) -> None:
    # the shared site's deepkb.yml: site_fixtures.SHARED_SITE_SETTINGS
    html = (shared_site.paths.site_dir / "topics" / "t" / "index.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/acme/kb/edit/main/site_src/topics/t/index.md"' in html


def _live_pages(site: Path) -> dict[str, list[str]]:
    from generator.site.sanitize import find_live_markup

    found = {}
    for page in sorted(site.rglob("*.html")):
        problems = find_live_markup(page.read_text(encoding="utf-8"))
        if problems:
            found[page.relative_to(site).as_posix()] = problems
    return found


def test_hostile_site_settings_reach_no_page_as_markup(tmp_path: Path) -> None:
    """Issue 8 finding 6: deepkb.yml's description was live in site/404.html, the page the sanitizer skipped."""
    paths = KBPaths(tmp_path)
    write_page(paths.topic_dir("t") / "index.md", {"title": "T"}, "Body.\n")
    config = validated(
        Config,
        {
            "site": {
                "description": '"><script>alert(3)</script>',
                "title": "KB</title><script>alert(4)</script>",
            }
        },
    )
    render_site(paths, config)
    site = build_site(paths, config)
    assert (site / "404.html").is_file()
    assert _live_pages(site) == {}
    for page in ("404.html", "index.html", "topics/t/index.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert "<script>alert(" not in html and '"><script' not in html, page


def test_a_page_failing_the_final_check_leaves_no_live_markup_in_site(tmp_path: Path) -> None:
    """A theme override that puts a script into 404.html fails the build, and site/ keeps the last good build."""
    paths = KBPaths(tmp_path)
    write_page(paths.topic_dir("t") / "index.md", {"title": "T"}, "Body.\n")
    render_site(paths, Config())
    good = build_site(paths, Config())
    assert (good / "topics" / "t" / "index.html").is_file()
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    (overrides / "404.html").write_text(
        '{% extends "main.html" %}{% block content %}<script>alert(6)</script>{% endblock %}',
        encoding="utf-8",
    )
    project = (Path(__file__).resolve().parents[1] / "mkdocs.yml").read_text(encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        project.replace("  name: material\n", "  name: material\n  custom_dir: overrides\n", 1),
        encoding="utf-8",
    )
    write_page(paths.topic_dir("t") / "index.md", {"title": "T"}, "Changed body.\n")
    with pytest.raises(SiteBuildError, match="404.html"):
        build_site(paths, Config())
    assert _live_pages(paths.site_dir) == {}
    assert "Changed body" not in (paths.site_dir / "topics" / "t" / "index.html").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site")] == []  # no staging left behind


def test_a_root_mkdocs_yml_without_the_site_plugin_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\ntheme:\n  name: material\nplugins:\n  - deepkb-sanitize\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="deepkb-site"):
        build_site(KBPaths(tmp_path), Config())


def test_the_site_serves_its_own_assets_and_asks_no_third_party(shared_site: SharedSite) -> None:
    """Fonts off, mermaid and deepkb's scripts shipped in the site, no absolute URL in any <script>/<link>."""
    import re

    # topic t's page holds a mermaid diagram (site_fixtures.DIAGRAM_PAGE)
    site = shared_site.paths.site_dir
    for asset in ("vendor/mermaid/mermaid.min.js", "vendor/mermaid/LICENSE", "deepkb/diagrams.js"):
        assert (site / "assets" / "javascripts" / asset).is_file(), asset
    for page in ("index.html", "topics/t/index.html", "404.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in html and "unpkg.com" not in html, page
        assert not re.findall(r'<(?:script|link)\b[^>]*(?:src|href)="(?:https?:)?//', html), page
    assert (site / "pagefind" / "pagefind-ui.js").is_file()
    vendored = (site / "assets" / "javascripts" / "vendor" / "mermaid" / "mermaid.min.js").read_text(
        encoding="utf-8"
    )
    assert f'"{MERMAID_VERSION}"' in vendored  # the pinned release is the one shipped


def test_the_repository_link_asks_github_for_no_facts(shared_site: SharedSite) -> None:
    """Issue 22 #14: with site.repo_url set, Material's "source" component fetched the repository's facts
    from api.github.com on every page; the link stays, the component that fetches is not mounted."""
    site = shared_site.paths.site_dir
    for page in ("index.html", "topics/t/index.html", "404.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert 'href="https://github.com/acme/kb"' in html and 'class="md-source"' in html, page
        assert 'data-md-component="source"' not in html, page


def test_prose_about_handlers_builds_and_a_bidi_override_leaves_the_table_of_contents(tmp_path: Path) -> None:
    """#32.1: a description or body that mentions `onclick=` or `href=javascript:` is text, and failed the
    whole build (the final check read the escaped copy in <meta name="description"> as markup). #32.5: a bidi
    override in a heading reached the sidebar's table of contents, which body and titles are cleaned of."""
    paths = KBPaths(tmp_path)
    prose = "A widget library: set onclick=go on a button, or href=javascript:void(0) on a link."
    body = f"# Widgets\n\n{prose}\n\n## Binding \u202eevil\u202c handlers\n\nText.\n\n## Second\n\nMore.\n"
    write_page(paths.topic_dir("t") / "index.md", {"title": "T", "description": prose}, body)
    render_site(paths, Config())
    site = build_site(paths, Config(), strict=True)
    html = (site / "topics" / "t" / "index.html").read_text(encoding="utf-8")
    assert "set onclick=go on a button" in html  # in the description and the body, as text
    assert "Binding evil handlers" in html and "\u202e" not in html and "\u202c" not in html
    assert _live_pages(site) == {}
