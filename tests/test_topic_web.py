"""Topic research through a web search provider against the fake search server: 429 then success, thin hits
sent to the guarded crawler (which refuses loopback: skipped and logged, zero hits on the page), and dedupe."""

from __future__ import annotations

from pathlib import Path

import pytest
from search_fakes import Doc, FakeSearchServer, Reply, payload
from topic_fakes import config, entry, offline, read_json, topic_dir

from generator.app.topic_target import topic_target
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page


def test_web_provider_429_then_results_crawl_refused_and_duplicates_dropped(
    kb_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeSearchServer() as server:
        page = f"{server.url}/page/1"
        docs = [
            Doc(
                "Vector databases explained", page, "Vector databases store embeddings for similarity search."
            ),
            Doc(
                "Vector databases explained (tracking)",
                f"{page}?utm_source=feed",
                "Vector databases store embeddings for similarity search, as copied.",
            ),
            Doc(
                "HNSW indexes in vector databases",
                f"{server.url}/page/2",
                "Vector databases often use HNSW graph indexes for approximate nearest neighbour search.",
            ),
        ]
        server.route("/search", payload("searxng", docs))
        server.script("/search", Reply(429, headers={"retry-after": "0"}))
        monkeypatch.setenv("SEARXNG_URL", server.url)
        from generator.topic.pipeline import run_topic_research

        result = run_topic_research(
            KBPaths(kb_root),
            config(),
            offline(),
            topic_target(KBPaths(kb_root), entry(sources=["searxng"]), quick=True),
            publish=publish_topic,
        )
        assert server.hits("/page/1") == 0 and server.hits("/page/2") == 0  # the SSRF guard never connected
        searches = [r for r in server.requests if r.path == "/search"]
    assert result.status == "completed"
    assert len(searches) >= 2  # the 429 was retried by the provider
    folder = topic_dir(kb_root)
    raw = [read_page(p)[0] for p in (folder / "raw").glob("*.md")]
    assert sorted(m["url"] for m in raw) == [page, f"{server.url}/page/2"]
    assert all(m["source"] == "searxng" for m in raw)
    meta = read_json(folder / "_meta.json")
    assert meta["stats"]["deduplicated"] >= 1 and meta["stats"]["sources_count"] == 2
    notes = [n for s in read_json(folder / "plan.json")["steps"] for n in s["notes"]]
    assert any(n.startswith(f"crawl skipped {page}") for n in notes)
    _, body = read_page(next((folder / "raw").glob("*.md")))
    assert f"](<{server.url}/page/" in body  # the original URL is linked (http only)


def test_academic_step_stores_papers_with_their_summary_sections(kb_root: Path) -> None:
    from generator.sources.base import create_search_provider
    from generator.topic.plan import Step
    from generator.topic.research import ResearchContext, research_step

    abstract = (
        "We propose a graph index for vector databases. Our method builds a layered proximity graph. "
        "Results show the index improves recall of vector databases by 12 points over baselines."
    )
    with FakeSearchServer() as server:
        server.route(
            "/api/query",
            payload(
                "arxiv",
                [Doc("Graph indexes for vector databases", "https://arxiv.org/abs/2401.00001", abstract)],
            ),
        )
        arxiv = create_search_provider("arxiv", base_url=server.url)
        warnings: list[str] = []
        ctx = ResearchContext(
            KBPaths(kb_root),
            "papers",
            "vector databases",
            offline(),
            {"arxiv": arxiv},
            warn=warnings.append,
            crawl=False,
        )
        outcome = research_step(ctx, Step(id="s1", title="papers", query="vector databases papers"))
    assert outcome.status == "done" and len(outcome.sources) == 1
    _publish_raw(kb_root, "papers")
    meta, body = read_page(KBPaths(kb_root).topic_dir("papers") / "raw" / f"{outcome.sources[0]}.md")
    assert meta["type"] == "paper" and meta["source"] == "arxiv" and meta["authors"] == ["Ada Lovelace"]
    assert meta["url"] == "https://arxiv.org/abs/2401.00001" and meta["published"]
    assert set(meta["summary"]) == {"key_points", "methods", "results"}
    assert any("recall" in line for line in meta["summary"]["results"])
    assert "## Summary" in body and "Ada Lovelace" in body


def test_crawled_page_is_escaped_exactly_once_and_robots_fetched_once(kb_root: Path) -> None:
    import markdown

    from generator.topic.crawl import Crawler
    from generator.topic.plan import Step
    from generator.topic.research import ResearchContext, open_providers, research_step

    article = (
        "<html><head><title>Comparison operators</title></head><body><article>"
        "<p>In every language we studied, the expression a &lt; b &amp;&amp; c compares two values.</p>"
        "<p>Comparison operators such as a &lt; b return booleans in every language we studied.</p>"
        "<script>alert(1)</script></article></body></html>"
    )
    with FakeSearchServer() as server:
        server.route("/robots.txt", Reply(200, "User-agent: *\nAllow: /\n", content_type="text/plain"))
        server.route("/page/1", Reply(200, article, content_type="text/html"))
        server.route(
            "/page/2", Reply(200, article.replace("Comparison", "Relational"), content_type="text/html")
        )
        # a web provider among the sources: only then is a URL query crawled (issue 22 #12)
        web = open_providers(KBPaths(kb_root), [f"searxng:{server.url}"])
        ctx = ResearchContext(
            KBPaths(kb_root), "operators", "comparison operators", offline(), web, warn=lambda _: None
        )
        ctx.crawler = Crawler(allow_loopback=True, delay=0)  # test-only switch: the page is on 127.0.0.1
        try:
            step = Step(id="s1", title="pages", query=f"{server.url}/page/1")
            first = research_step(ctx, step)
            second = research_step(ctx, Step(id="s2", title="pages", query=f"{server.url}/page/2"))
        finally:
            ctx.close()
        robots_hits = server.hits("/robots.txt")
    assert first.status == "done" and second.status == "done", (first, second)
    assert robots_hits == 1  # one crawler per run remembers robots.txt
    assert first.sources, first
    _publish_raw(kb_root, "operators")
    _, body = read_page(KBPaths(kb_root).topic_dir("operators") / "raw" / f"{first.sources[0]}.md")
    html = markdown.markdown(body)
    assert "a &lt; b" in html  # shown as "a < b": escaped once, not "&amp;lt;"
    assert "&amp;lt;" not in html
    assert "<script" not in html


def _publish_raw(kb_root: Path, slug: str) -> None:
    """The page layer renders the raw pages of sources a researcher stored as records."""
    from generator.site.pages.topic_raw import write_raw_pages
    from generator.topic.workspace import list_raw_sources

    paths = KBPaths(kb_root)
    write_raw_pages(paths, slug, list_raw_sources(paths, slug), provider="offline")
