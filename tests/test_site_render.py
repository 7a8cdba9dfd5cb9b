"""Rendering the listing pages into site_src: home, section indexes, tag pages (no MkDocs build here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from site_fixtures import topic_sources, write_index, write_topics

from generator.config import Config, validated
from generator.site.catalog import load_catalog, safe_doc_path
from generator.site.render import PER_PAGE, render_site
from generator.store import KBPaths, read_page, write_page


def _snapshot(site_src: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.relative_to(site_src).as_posix(): (p.stat().st_mtime_ns, p.read_bytes())
        for p in site_src.rglob("*.md")
    }


def test_home_counts_recent_and_top_tags(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    write_index(paths, write_topics(tmp_path, 12))
    render_site(paths, validated(Config, {"site": {"recent": 5, "title": "My *KB* <b>"}}))
    meta, body = read_page(paths.site_src / "index.md")
    assert meta["title"] == "My *KB* <b>" and meta["generated"] == "2026-12-12"
    assert "| [0](repos/index.md) | [12](topics/index.md) | 0 | [2](tags/index.md) |" in body
    assert body.count("](topics/topic-") == 5
    assert "[trade](tags/trade.md) (6)" in body and "[search](tags/search.md) (6)" in body
    assert "My \\*KB\\* &lt;b&gt;" in body  # the site title is escaped in the body too


def test_rerendering_an_unchanged_kb_changes_no_file(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    write_index(paths, write_topics(tmp_path, 5))
    render_site(paths, Config())
    before = _snapshot(paths.site_src)
    render_site(paths, Config())
    assert _snapshot(paths.site_src) == before


def test_big_sections_continue_on_numbered_pages_and_shrink_back(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    topics = write_topics(tmp_path, PER_PAGE + 3)
    write_index(paths, topics, topic_sources(PER_PAGE + 3))
    render_site(paths, Config())
    first = read_page(paths.site_src / "topics" / "index.md")[1]
    second = read_page(paths.site_src / "topics" / "_page-2.md")[1]
    assert first.count("](topic-") == PER_PAGE and second.count("](topic-") == 3
    assert "[2](_page-2.md)" in first and "[1](index.md)" in second
    # tag pages paginate the same way: 'search' has 102 topics + 102 sources
    assert (paths.site_src / "tags" / "_search-2.md").is_file()
    write_index(paths, dict(list(topics.items())[:10]))
    render_site(paths, Config())
    assert not (paths.site_src / "topics" / "_page-2.md").exists()
    assert not (paths.site_src / "tags" / "_search-2.md").exists()


def test_tag_pages_of_vanished_tags_are_removed_but_foreign_pages_kept(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    topics = write_topics(tmp_path, 2)
    write_index(paths, topics, variants={"trade": ["trading", "交易"]})
    render_site(paths, Config())
    trade = paths.site_src / "tags" / "trade.md"
    meta, body = read_page(trade)
    assert (
        meta["tag"] == "trade"
        and "trading, 交易" in body
        and "[Topic 1](../topics/topic-001/index.md)" in body
    )
    handwritten = paths.site_src / "tags" / "about.md"
    write_page(handwritten, {"title": "About tags"}, "Written by a person.\n")
    for item in topics.values():
        item["tags"] = ["search"]
    write_index(paths, topics)
    render_site(paths, Config())
    assert not trade.exists() and handwritten.exists()


def test_without_an_index_the_catalog_names_entries_as_the_index_does(tmp_path: Path) -> None:
    # pages alone (no _index.json yet): the entries' ids, tags and sources are those the index would give
    paths = KBPaths(tmp_path)
    write_page(paths.topic_dir("calc") / "index.md", {"title": "Calculators", "tags": ["Parsers"]}, "Body.\n")
    write_page(paths.topic_dir("calc") / "raw" / "a.md", {"title": "A", "tags": ["abacus"]}, "Text.\n")
    catalog = load_catalog(paths)
    assert [(e.id, e.title, e.tags) for e in catalog.entries] == [("topic:calc", "Calculators", ("parser",))]
    assert [(s.id, s.topic, s.tags) for s in catalog.sources] == [
        ("source:calc/a", "topic:calc", ("abacus",))
    ]


def test_index_paths_outside_site_src_or_missing_are_ignored(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    (tmp_path / "secret.md").write_text("secret\n", encoding="utf-8")
    write_page(paths.topic_dir("real") / "index.md", {"title": "Real"}, "Body.\n")
    bad = {"title": "Bad", "kind": "topic", "tags": ["x"]}
    write_index(paths, {
        "topic:escape": {**bad, "path": "../secret.md"},
        "topic:abs": {**bad, "path": "/etc/passwd.md"},
        "topic:gone": {**bad, "path": "topics/gone/index.md"},
        "topic:notmd": {**bad, "path": "topics/real/_meta.json"},
        "topic:real": {**bad, "title": "Real", "path": "topics/real/index.md"},
    })  # fmt: skip
    assert [entry.id for entry in load_catalog(paths).entries] == ["topic:real"]
    assert safe_doc_path(paths.site_src, "topics/real/../real/index.md") == "topics/real/index.md"
    assert safe_doc_path(paths.site_src, "topics\\real\\index.md") is None


def test_without_an_index_the_pages_on_disk_are_listed(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    repo = paths.repo_dir("acme", "sample")
    write_page(repo / "index.md", {"title": "Research Analysis: sample", "revision_date": "2026-11-01",
                                   "tags": ["python"]}, "Body.\n")  # fmt: skip
    write_page(repo / "shards" / "01_core.md", {"title": "core"}, "Shard.\n")
    write_page(repo / "shards" / "02_cli.md", {"title": "cli"}, "Shard.\n")
    render_site(paths, Config())
    body = read_page(paths.site_src / "repos" / "index.md")[1]
    assert (
        "| [Research Analysis: sample](acme/sample/index.md) |  |  | 2026-11-01 | 2 | [python](../tags/python.md) |"
        in body
    )
    assert (paths.site_src / "tags" / "python.md").is_file()


def test_repositories_table_shows_the_commit_its_date_and_links(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    sha = "0676dfcd378d14314e66ab3f29a90b5bb799d732"
    pages = {
        ("acme", "web"): {"source": "https://github.com/acme/web.git", "revision": sha},
        ("acme", "self"): {"source": "https://git.example.org/acme/self", "revision": sha},
        ("acme", "evil"): {"source": "javascript:alert(1)//https://x", "revision": "<script>x</script>"},
    }
    for (owner, name), meta in pages.items():
        meta = {
            "title": name,
            "revision_date": "2020-02-03T04:05:06+00:00",
            "generated": "2026-11-25",
            **meta,
        }
        write_page(paths.repo_dir(owner, name) / "index.md", meta, "Body.\n")
    render_site(paths, Config())
    body = read_page(paths.site_src / "repos" / "index.md")[1]
    rows = {line.split("](")[0].lstrip("| ["): line for line in body.splitlines() if line.startswith("| [")}
    assert (
        f"| [github.com/acme/web](https://github.com/acme/web) | [`0676dfcd37`](https://github.com/acme/web/"
        f"commit/{sha}) | 2020-02-03 |" in rows["web"]
    )  # the commit's date, not the research date
    assert "| [git.example.org/acme/self](https://git.example.org/acme/self) | `0676dfcd37` |" in rows["self"]
    assert "](javascript" not in rows["evil"] and "<script>" not in rows["evil"]
    assert "javascript:alert\\(1\\)//https://x | &lt;script&gt;x&lt;/script&gt; |" in rows["evil"]


def test_listing_order_does_not_depend_on_hash_seeds(tmp_path: Path) -> None:
    # same-titled sources under one tag: their order must not follow set iteration (PYTHONHASHSEED)
    paths = KBPaths(tmp_path)
    topics = write_topics(tmp_path, 6)
    sources = topic_sources(6)
    for item in sources.values():
        item["title"] = "Same title"
    write_index(paths, topics, sources)
    script = "import sys; from pathlib import Path; from generator.config import Config; " \
        "from generator.site.render import render_site; from generator.store import KBPaths; " \
        "render_site(KBPaths(Path(sys.argv[1])), Config())"  # fmt: skip
    pages = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True, env=env)
        pages.append((paths.site_src / "tags" / "trade.md").read_bytes())
    assert pages[0] == pages[1] == pages[2]


def _kb_with_spread(tmp_path: Path) -> KBPaths:
    """Three topics: all tagged 'topic-research'; 'parsing' on two; 'abacus' on one topic and its 5 sources."""
    paths = KBPaths(tmp_path)
    topics: dict[str, dict[str, object]] = {}
    sources: dict[str, dict[str, object]] = {}
    for n, tags in enumerate(
        [["topic-research", "parsing"], ["topic-research", "parsing"], ["topic-research"]]
    ):
        slug = f"t{n}"
        write_page(paths.topic_dir(slug) / "index.md", {"title": f"Topic {n}"}, "Body.\n")
        topics[f"topic:{slug}"] = {"title": f"Topic {n}", "kind": "topic", "path": f"topics/{slug}/index.md",
                                   "tags": tags, "summary": "Produced offline.", "updated_at": "2026-11-20"}  # fmt: skip
    for k in range(5):
        write_page(paths.topic_dir("t2") / "raw" / f"s{k}.md", {"title": f"Source {k}"}, "Text.\n")
        sources[f"source:t2/s{k}"] = {"title": f"Source {k}", "topic": "topic:t2", "path": f"topics/t2/raw/s{k}.md",
                                      "url": f"https://example.org/{k}", "tags": ["abacus"]}  # fmt: skip
    write_index(paths, topics, sources)
    return paths


def test_home_tags_rank_by_spread_and_leave_out_what_every_entry_carries(tmp_path: Path) -> None:
    from generator.site.catalog import load_catalog
    from generator.site.render import home_tags

    paths = _kb_with_spread(tmp_path)
    assert home_tags(load_catalog(paths)) == ["parsing", "abacus"]


def test_tag_page_lists_sources_under_their_topic_and_a_shared_summary_once(tmp_path: Path) -> None:
    paths = _kb_with_spread(tmp_path)
    render_site(paths, Config())
    abacus = read_page(paths.site_src / "tags" / "abacus.md")[1]
    assert abacus.count("Topic 2") == 1  # the topic named once, not once per source
    assert abacus.count("— https://example.org/") == 5
    parsing = read_page(paths.site_src / "tags" / "parsing.md")[1]
    assert parsing.count("Produced offline") == 1


def test_home_lists_topics_without_a_report_apart_from_recent_research(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    topics = write_topics(tmp_path, 3)
    topics["topic:topic-002"]["status"] = "no_sources"  # the newest one found nothing usable
    topics["topic:topic-002"]["updated_at"] = "2027-01-01T00:00:00Z"
    write_index(paths, topics)
    render_site(paths, Config())
    _, body = read_page(paths.site_src / "index.md")
    recent, _, unfinished = body.partition("## Unfinished research")
    assert "Topic 2" not in recent and "Topic 0" in recent and "Topic 1" in recent
    assert "[Topic 2](topics/topic-002/index.md)" in unfinished and "no usable source found" in unfinished
