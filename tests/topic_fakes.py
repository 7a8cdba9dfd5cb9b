"""Corpora and helpers shared by the topic-research tests (the topic engineer owns this module)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import markdown

from generator.config import Config, LLMConfig, TopicEntry
from generator.documents.plain import markup_prose
from generator.llm.base import Provider, create_provider
from generator.sources.base import SearchHit, SearchProvider, create_search_provider, register
from generator.store import KBPaths, read_page
from generator.topic.plan import Plan, Step
from generator.topic.workspace import RawSource

TOPIC = "vector databases"

CORPUS: dict[str, str] = {
    "overview.md": "# Vector databases\n\nA vector database stores embeddings and answers nearest-neighbour "
    "queries over them. Vector databases index high-dimensional vectors produced by embedding models.\n\n"
    "Typical uses of vector databases include semantic search, recommendation and retrieval for language models.\n",
    "how.md": "# How vector search works\n\nMost vector databases use approximate nearest neighbour indexes such as "
    "HNSW graphs or IVF partitions. HNSW builds a layered graph that is searched greedily from the top layer.\n\n"
    "In vector databases product quantization compresses vectors so that 1,000,000 embeddings fit in about "
    "64 MB of memory.\n",
    "compare.md": "# Comparison\n\nCompared with a relational database, a vector database trades exact answers for "
    "speed. Alternatives to a dedicated vector database include the pgvector extension for PostgreSQL and "
    "libraries such as FAISS.\n\nIn one benchmark FAISS answered 95% of queries correctly at 12 ms latency.\n",
    "state.md": "# Current state\n\nThe current state of vector databases is a crowded market with open source "
    "and hosted offerings. Recent developments in vector databases include hybrid search that combines BM25 "
    "with vectors.\n\nLimitations of vector databases are memory cost and the difficulty of updating indexes.\n",
    "unrelated.md": "# Gardening\n\nTomatoes need sun and regular watering. Compost improves the soil of a garden.\n",
}

HOSTILE = (
    "# Vector databases <script>alert('x')</script>\n\n"
    "Vector databases are fast <img src=x onerror=alert(1)> and popular for semantic search today.\n\n"
    'Read [the vector databases guide](javascript:alert(2)) or <a href="javascript:alert(3)">click</a> '
    'for vector databases details.\n\n<iframe src="https://evil.example"></iframe>\n'
)


def make_corpus(root: Path, files: dict[str, str] | None = None, folder: str = "docs") -> Path:
    target = root / folder
    target.mkdir(parents=True, exist_ok=True)
    for name, text in (files or CORPUS).items():
        (target / name).write_text(text, encoding="utf-8")
    return target


def offline_report(root: Path, files: dict[str, str], topic: str) -> str:
    """The report offline research over `files` (a local docs folder, no verification) writes for `topic`."""
    from generator.app.topic_target import topic_target
    from generator.site.pages.topic import publish_topic
    from generator.topic.pipeline import run_topic_research

    make_corpus(root, files, folder="docs")
    paths = KBPaths(root)
    target = topic_target(paths, entry(topic=topic, sources=["local:docs"], verify=False))
    result = run_topic_research(paths, config(), offline(), target, publish=publish_topic)
    return read_page(paths.topic_dir(result.slug) / "output" / "report.md")[1]


def offline() -> Provider:
    return create_provider("offline", LLMConfig())


def openai_provider(base_url: str) -> Provider:
    return create_provider("openai", LLMConfig(provider="openai", base_url=base_url, max_retries=0))


def entry(topic: str = TOPIC, sources: list[str] | None = None, **extra: Any) -> TopicEntry:
    return TopicEntry(topic=topic, sources=sources or ["local:docs"], **extra)


def config() -> Config:
    return Config()


def topic_dir(root: Path, slug: str = "vector-databases") -> Path:
    return KBPaths(root).topic_dir(slug)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- a search back end that dies


class KillSwitch:
    """Counts searches per query and raises (like a killed process) once `after` searches have run."""

    def __init__(self) -> None:
        self.after: int | None = None
        self.queries: list[str] = []

    def hit(self, query: str) -> None:
        if self.after is not None and len(self.queries) >= self.after:
            raise RuntimeError("killed mid-crawl")
        self.queries.append(query)


SWITCH = KillSwitch()


@register
class KillableLocal(SearchProvider):
    """`killable:PATH` — the local provider behind the kill switch (the test's far side)."""

    name: ClassVar[str] = "killable"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        SWITCH.hit(query)
        inner = create_search_provider(f"local:{self.option}", root=self.root, cache_dir=self.cache_dir)
        return inner.search(query, limit=limit)


# --------------------------------------------------------------------------- HTML checks


class LiveHTML(HTMLParser):
    """Collects what would be live in a browser: script/iframe elements, on* handlers, javascript: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "iframe", "object", "embed"):
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{tag}[{name}]")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"{tag}[{name}={value}]")


def live_html(page: Path) -> list[str]:
    _, body = read_page(page)
    parser = LiveHTML()
    parser.feed(markdown.markdown(body, extensions=["tables", "admonition"]))
    return parser.problems


def facet_plan(topic: str, questions: dict[str, str]) -> Plan:
    """A plan asking each of `questions` (question → its facet) of `topic`, one step each."""
    return Plan(
        topic=topic,
        sub_queries=list(questions),
        steps=[Step(id=f"s{n}", title=f, question=q, facet=f) for n, (q, f) in enumerate(questions.items())],
    )


def component_page(sid: str, path: str, title: str, markdown_text: str) -> RawSource:
    """A stored local docs page (`path` in the corpus), its text read as the local search stores it."""
    return RawSource(
        sid,
        "local",
        f"local:{path}",
        title,
        "t",
        markup_prose(markdown_text, structure=True),
        kind="local",
        relevance=0.9,
    )


def zh_report_on(kb_root: Path, name: str, page: str, topic: str) -> tuple[Path, dict[str, Any], str]:
    """An offline Chinese report on `topic` over a corpus of one component page (`name`) beside four pages
    on nothing in particular: the topic's folder, the report's front matter and its text."""
    from generator.app.topic_target import topic_target
    from generator.site.pages.topic import publish_topic
    from generator.topic.pipeline import run_topic_research

    others = {f"page{n}.md": f"# 组件 {n}\n\n第 {n} 个组件用来展示一段文字和一张图片。\n" for n in range(4)}
    make_corpus(kb_root, {name: page, **others})
    paths = KBPaths(kb_root)
    target = topic_target(paths, entry(topic=topic, verify=False, lang="zh"))
    result = run_topic_research(paths, config(), offline(), target, publish=publish_topic)
    folder = paths.topic_dir(result.slug)
    meta, report = read_page(folder / "output" / "report.md")
    return folder, meta, report
