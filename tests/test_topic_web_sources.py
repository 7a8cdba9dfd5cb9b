"""A URL the model's plan names is crawled only when the topic's sources reach the web (issue 22 #12)."""

from __future__ import annotations

from pathlib import Path

from search_fakes import FakeSearchServer, Reply

from generator.config import LLMConfig
from generator.llm.offline import OfflineProvider
from generator.retrieval.feedback import Query
from generator.store import KBPaths
from generator.topic.crawl import Crawler
from generator.topic.research import ResearchContext, open_providers, search_all

PAGE = (
    "<html><head><title>Beacon</title></head><body><p>" + "market making spreads " * 60 + "</p></body></html>"
)


def _search(kb_root: Path, sources: list[str], url: str) -> None:
    (kb_root / "docs").mkdir(exist_ok=True)
    (kb_root / "docs" / "notes.md").write_text("# Market making\n\nQuotes on both sides.\n", encoding="utf-8")
    paths = KBPaths(kb_root)
    ctx = ResearchContext(
        paths, "mm", "Market making", OfflineProvider(LLMConfig()), open_providers(paths, sources)
    )
    ctx.crawler = Crawler(allow_loopback=True, delay=0.0, respect_robots=False)
    try:
        search_all(ctx, Query([url, "market", "making"]))
    finally:
        ctx.close()


def test_a_local_only_topic_never_fetches_a_url_from_its_plan(kb_root: Path) -> None:
    with FakeSearchServer() as server:
        server.route("/beacon", Reply(200, PAGE, content_type="text/html"))
        _search(kb_root, ["local:docs"], f"{server.url}/beacon")
        assert server.hits() == 0
        # the same plan with a web provider among the sources does crawl it
        _search(kb_root, ["local:docs", f"searxng:{server.url}"], f"{server.url}/beacon")
        assert server.hits("/beacon") == 1
