"""The sanitizer on its own: page HTML through nh3, frontmatter fields to plain text, the final-page check."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from generator.site.sanitize import clean_html, clean_meta, clean_tags, clean_title, find_live_markup


def test_clean_html_removes_scripts_handlers_styles_and_script_urls() -> None:
    dirty = (
        '<p onclick="x()">hi<script>alert(1)</script></p><iframe src="https://e"></iframe>'
        '<a href="javascript:alert(1)">a</a><a href="jav&#x09;ascript:alert(1)">b</a>'
        '<img src="data:image/svg+xml;base64,AA" onerror="alert(1)"><div style="position:fixed">d</div>'
        '<svg onload="alert(1)"><circle/></svg><a href="vbscript:x">v</a><object data="x"></object>'
    )
    clean = clean_html(dirty)
    for needle in ("<script", "alert", "<iframe", "onclick", "onerror", "javascript", "data:", "style=",
                   "<svg", "vbscript", "<object"):  # fmt: skip
        assert needle not in clean.lower(), needle
    assert "<p>hi</p>" in clean


def test_clean_html_keeps_what_material_and_our_markdown_need() -> None:
    rendered = (
        '<h2 id="usage">Usage<a class="headerlink" href="#usage" title="Permanent link">¶</a></h2>'
        '<pre class="mermaid"><code>graph TD\n  A --&gt; B</code></pre>'
        '<div class="highlight"><pre><span></span><code><a id="__codelineno-0-1" name="__codelineno-0-1" '
        'href="#__codelineno-0-1"></a><span class="k">def</span></code></pre></div>'
        '<div class="admonition info"><p class="admonition-title">Produced offline</p></div>'
        "<details class=\"note\"><summary>More</summary><p>x</p></details>"
        '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>'
        '<img alt="rel" src="../img/b.png">'
        '<a href="../repos/index.md">rel</a><a href="https://example.org/">ext</a>'
    )  # fmt: skip
    assert clean_html(rendered) == rendered


def test_clean_html_renames_ids_the_theme_and_deepkbs_scripts_look_up() -> None:
    """Issue 22 #1: a page's `<div id="__config">` (or a heading slugged to it) clobbered the theme's config."""
    dirty = (
        '<div id="__config">{"base":"//elsewhere/x"}</div><a name="__search" href="#__config">a</a>'
        '<span id="deepkb-search">s</span><a href="../other/#__toc">b</a><p id="__proto__">p</p>'
    )
    assert clean_html(dirty) == (
        '<div id="kb-__config">{"base":"//elsewhere/x"}</div><a name="kb-__search" href="#kb-__config">a</a>'
        '<span id="kb-deepkb-search">s</span><a href="../other/#kb-__toc">b</a><p id="kb-__proto__">p</p>'
    )
    # other sites' fragments are theirs; ordinary and pymdownx line-anchor ids are left as they are
    kept = '<a href="https://example.org/#__config">x</a><h2 id="usage">u</h2><a id="__codelineno-3-14"></a>'
    assert clean_html(kept) == kept


def test_a_heading_cannot_become_the_theme_config(tmp_path: Path) -> None:
    """A model heading `## {"__config":{}}` is slugged to `__config` by the toc: the built page renames it,
    heading, permalink and sidebar entry alike, and the theme's own config stays the only `__config`."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text('# Home\n\n## {"__config":{}}\n\ntext\n', encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme: {name: material}\nplugins: [deepkb-sanitize]\n"
        "markdown_extensions: [{toc: {permalink: true}}]\n",
        encoding="utf-8",
    )
    build(load_config(str(tmp_path / "mkdocs.yml")))
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'id="([^"]*__config)"', page) == ["kb-__config", "__config"]
    # the permalink, and the table of contents Material prints twice (sidebar and the mobile navigation)
    assert page.count('href="#kb-__config"') == 3
    assert 'href="#__config"' not in page


def test_clean_html_drops_images_from_other_hosts() -> None:
    """Issue 22 #14: a page makes no request outside the site, so an image's src must be a relative path."""
    outside = [
        "https://tracker.example/p.png",
        "//tracker.example/p.png",
        "/\\tracker.example/p.png",
        "&#x2f;&#x2f;tracker.example/p.png",
        " \t//tracker.example/p.png",
        "/\n/tracker.example/p.png",
        "HTTP://tracker.example/p.png",
    ]
    for src in outside:
        assert clean_html(f'<img alt="a" src="{src}">') == '<img alt="a">', src
    for src in ("p.png", "../img/p.png", "/kb/img/p.png", "./p.png?x=//y"):
        assert clean_html(f'<img src="{src}">') == f'<img src="{src}">', src


def test_mermaid_configuration_is_removed_from_diagrams() -> None:
    """Issue 22 #14: `%%{init: {"fontFamily": "x;background:url(…)"}}%%` made mermaid fetch from elsewhere."""
    directive = '%%{init: {"fontFamily": "x;background:url(https://tracker.example/p)"}}%%'
    fence = '<pre class="deepkb-diagram"><code>{}</code></pre>'
    assert clean_html(fence.format(directive + "\ngraph TD\n  A --&gt; B")) == fence.format(
        "\ngraph TD\n  A --&gt; B"
    )
    assert clean_html(fence.format("graph TD\n  A[x] %%{init: {}\n  B")) == fence.format("graph TD\n  A[x] ")
    frontmatter = "---\nconfig:\n  themeCSS: x\n---\ngraph TD\n  A"
    assert clean_html(fence.format(frontmatter)) == fence.format("\ngraph TD\n  A")
    # a diagram written as raw HTML could split a directive across tags: it is shown as text, never drawn
    raw = '<pre class="note deepkb-diagram"><code>%<b>%</b>{init: {}}%%\ngraph TD</code></pre>'
    assert clean_html(raw) == raw.replace("deepkb-diagram", "deepkb-diagram-text")


def test_clean_html_drops_ids_and_classes_that_are_not_plain_names() -> None:
    assert clean_html('<span class="a&quot;onmouseover=x" id="ok-1">t</span>') == '<span id="ok-1">t</span>'


def test_clean_meta_makes_theme_fields_plain_and_drops_layout_keys() -> None:
    meta = clean_meta({
        "title": "</title><script>alert(1)</script>\n---\nevil: yes",
        "description": '"><script>alert(1)</script>',
        "tags": ["<img src=x onerror=alert(1)>", "Trade", "trade", {"x": 1}],
        "template": "../../evil.html",
        "hide": ["navigation"],
        "files": ["a.py"],
        "git_revision_date_localized": '<script>x</script>"',
        "extra": {"nested": ["<b>"]},
    })  # fmt: skip
    assert meta["title"] == "alert(1) --- evil: yes"
    assert "<" not in meta["description"] and '"' not in meta["description"]
    assert html.unescape(meta["description"]) == '"› alert(1)'
    assert meta["tags"] == ["trade"]
    assert "template" not in meta and "hide" not in meta
    assert meta["files"] == ["a.py"]
    assert meta["git_revision_date_localized"] == "‹script›x‹/script›”"
    assert meta["extra"] == {"nested": ["‹b›"]}


def test_title_cannot_smuggle_markup_through_entities_or_control_characters() -> None:
    # Jinja's striptags (Material's <title>) unescapes entities: &lt;script&gt; must not survive as one
    title = clean_title("A &lt;script&gt; \x00 B\u202e & C " + "x" * 400)
    assert "&lt" not in title and "\x00" not in title and "\u202e" not in title
    assert "& C" in title and len(title) <= 200


def test_titles_keep_angle_brackets_that_are_not_html() -> None:
    assert clean_title("Vec<T> vs <b>Box</b><!-- x -->") == "Vec‹T› vs Box"
    assert clean_title("<IMG SRC=x ONERROR=alert(1)>Shard <svg/onload=alert(2)>") == "Shard"


def test_clean_tags_accepts_a_single_string_and_keeps_chinese() -> None:
    assert clean_tags("交易") == ["交易"]
    assert clean_tags(["Machine Learning", "machine learning", ""]) == ["machine learning"]


def material_scope_snippet(base: str) -> str:
    """Material's first inline script as a page built `base` away from the site root holds it."""
    import re

    import material

    partial = Path(material.__file__).parent / "templates" / "partials" / "javascripts" / "base.html"
    body = re.search(r"<script>(.*?)</script>", partial.read_text(encoding="utf-8"), re.S)
    assert body is not None
    return re.sub(r"\{\{.*?\}\}", lambda _: base, body.group(1))


def test_find_live_markup_allows_theme_scripts_only() -> None:
    scope = material_scope_snippet("../..").replace("{", "{{").replace("}", "}}")
    shell = (
        f"<html><head><script>{scope}</script></head><body>"
        '<script src="../assets/javascripts/bundle.abc.min.js"></script>'
        '<form class="md-search__form"></form><article>{}</article></body></html>'
    )
    assert find_live_markup(shell.format("<p>fine</p>")) == []
    assert find_live_markup(shell.format("<script>x()</script>")) == ["inline <script> 'x()'"]
    assert find_live_markup(shell.format('<a href=" javascript:x">a</a>'))
    assert find_live_markup(shell.format('<p class="a" ONCLICK = "x">a</p>')) == ["onclick= handler"]
    assert find_live_markup(shell.format('<img src="a.png" alt="x"/onerror=y>')) == ["onerror= handler"]
    assert find_live_markup(shell.format("<a title=\"x\" href='jav&#x09;ascript:x'>a</a>"))
    assert find_live_markup(shell.format("<iframe></iframe>")) == ["<iframe>"]
    assert find_live_markup(shell.format("<form></form>")) == ["<form> in the page body"]
    # text that merely talks about handlers and script URLs is not markup
    assert find_live_markup(shell.format("<code>&lt;a onclick=x href=javascript:y&gt;</code>")) == []
    assert find_live_markup(shell.replace("../assets/javascripts/bundle.abc.min.js", "https://evil/x.js"))


def test_final_check_judges_markup_as_a_browser_parses_it() -> None:
    """Text inside an attribute value is text (#32.1: a README saying `onclick=` stopped every build); what a
    browser reads as a tag, handler or script link is found however it is spelled."""
    shell = "<html><head>{}</head><body><article>{}</article></body></html>"
    prose = "A widget library: set onclick=go on a button, or href=javascript:x, src=data:y"
    described = f'<meta name="description" content="{prose}">'
    assert find_live_markup(shell.format(described, f'<p title="{prose}">{prose}</p>')) == []
    assert find_live_markup(shell.format("", '<img alt=x/onerror=y src="a.png">')) == []  # one value
    assert find_live_markup(shell.format("", "<a/onclick=x>a</a>")) == ["onclick= handler"]
    assert find_live_markup(shell.format("", '<a href="x"onmouseover=y>a</a>')) == ["onmouseover= handler"]
    assert find_live_markup(shell.format("", '<a href="&#106;ava&#x09;script:x">a</a>'))
    assert find_live_markup(shell.format('<meta http-equiv="refresh" content="0;url=/">', ""))
    assert find_live_markup(
        shell.format("", '<svg><animate attributeName="href" values="javascript:x"/></svg>')
    )
    # markup a browser reads that html.parser would hide in a comment, a declaration or a self-closed script
    assert find_live_markup(shell.format("", "<!--><img src=x onerror=alert(1)>-->"))
    assert find_live_markup(shell.format("", "<![CDATA[ x><img src=x onerror=alert(1)>]]>"))
    assert find_live_markup(shell.format("", "<script/>alert(1)</script>"))
    assert find_live_markup(shell.format("", "<img src=x onerror=alert(1)"))  # cut short at the end


def test_inline_scripts_are_allowed_by_exact_theme_content_only() -> None:
    """Material's snippets pass wherever they are; any other inline script fails, in <head> as in <article>."""
    page = "<html><head><script>{}</script></head><body><article></article></body></html>"
    config = '<script id="__config" type="application/json">{"base": ".."}</script>'
    assert find_live_markup(page.format(material_scope_snippet("../.."))) == []
    assert find_live_markup(page.format(material_scope_snippet("/kb/")) + config) == []
    # an injected base is not the theme's snippet
    assert find_live_markup(page.format(material_scope_snippet('",alert(1),"')))
    assert find_live_markup(page.format("alert(3)"))  # in <head>: outside <article> is no longer a free pass
    assert find_live_markup(
        page.format("") + '<script id="__config" type="application/json">alert(1)</script>'
    )
    assert find_live_markup(page.format("").replace("</body>", "<script>alert(1)</body>")) == [
        "unclosed <script>"
    ]


def test_a_page_the_final_check_cannot_parse_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from html.parser import HTMLParser

    def broken(self: HTMLParser, data: str) -> None:
        raise AssertionError("we should not get here!")  # what html.parser raises on input it cannot take

    monkeypatch.setattr(HTMLParser, "feed", broken)
    assert find_live_markup("<html><body><article><p>fine</p></article></body></html>") == [
        "a page the check cannot parse (AssertionError)"
    ]


def test_the_404_page_of_a_site_served_under_a_path_loads_the_theme_bundles_from_it() -> None:
    """GitHub Pages serves a project site under /<repository>/: with site.site_url set, MkDocs' 404 page
    loads the bundles from that absolute path, and only from it."""
    page = '<html><script src="/kb/assets/javascripts/bundle.min.js"></script></html>'
    assert find_live_markup(page, base_path="/kb/") == []
    assert find_live_markup(page, base_path="/") == ["<script src='/kb/assets/javascripts/bundle.min.js'>"]
    other = '<html><script src="/evil/assets/javascripts/x.js"></script></html>'
    assert find_live_markup(other, base_path="/kb/") == ["<script src='/evil/assets/javascripts/x.js'>"]
    assert find_live_markup('<script src="/assets/javascripts/b.js"></script>') == []  # a site at the root
