"""Knowledge bases for the site tests, written through the real store in the documented page layout.

`write_hostile_kb` fills site_src with pages whose frontmatter and bodies carry every injection the site must
neutralize; `write_shared_kb` adds to it what the other site tests read (reading paths, a diagram, edit links),
so that one `deepkb site` build serves them all; `write_topics` writes many plain topics; `write_index` writes
`_index.json` in the contract format. `LiveMarkup` parses built HTML and records anything that could run script.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import yaml

from generator.store import KBPaths, write_json, write_page

HOSTILE_TITLE = "</title><script>alert(1)</script>\n---\nevil: yes"
HOSTILE_DESCRIPTION = '"><script>alert(1)</script>'
HOSTILE_TAG = "<img src=x onerror=alert(1)>"
HOSTILE_BODY = """\
# Findings

<script>alert('body')</script>
<iframe src="https://evil.example/"></iframe>
<img src="x" onerror="alert(2)">
<a href="jav&#x09;ascript:alert(3)">tab link</a>
<div style="position:fixed" onmouseover="alert(4)">hover</div>

[click me](javascript:alert(5)) and [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==)

![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoNyk+) ![ok](https://example.org/ok.png)

Attribute injection (attr_list is on: Material's tags plugin enables it)
{: onclick="alert(8)" style="position:fixed" }

## Heading {: onmouseover="alert(10)" data-toc-label="<img src=x onerror=alert(11)>" }

[styled link](https://example.org/){: onclick="alert(12)" href="javascript:alert(13)" }

---
title: injected
tags: [pwned]
---

## Diagram

```mermaid
graph TD
  A[deepkb] --> B[site]
```

```python
def evaluate(text: str) -> float:
    return 1.0
```

!!! info "Produced offline"
    This page was produced by the offline analyst.

中文知识库的检索与交易策略研究。
"""

TOPIC_SLUG = "evil-topic"
REPO = ("acme", "evil")


def page_meta(title: str, description: str, tags: list[str], **extra: Any) -> dict[str, Any]:
    return {"title": title, "description": description, "tags": tags, "generated": "2026-11-20",
            "provider": "offline", **extra}  # fmt: skip


def write_hostile_kb(root: Path) -> dict[Path, dict[str, Any]]:
    """Hostile repo and topic workspaces plus the index; returns {page path: frontmatter written}."""
    paths = KBPaths(root)
    written: dict[Path, dict[str, Any]] = {}

    def put(path: Path, meta: dict[str, Any], body: str = HOSTILE_BODY) -> None:
        write_page(path, meta, body)
        written[path] = meta

    tags = [HOSTILE_TAG, "trade"]
    repo_dir = paths.repo_dir(*REPO)
    put(repo_dir / "index.md", page_meta(HOSTILE_TITLE, HOSTILE_DESCRIPTION, tags, source="https://x/acme/evil",
                                         revision="abc123", revision_date="2026-11-19", shards=1))  # fmt: skip
    put(repo_dir / "shards" / "01_core.md", page_meta("Shard <b>core</b>", "core", ["trade"], files=["a.py"]))
    topic = paths.topic_dir(TOPIC_SLUG)
    put(topic / "index.md", page_meta(HOSTILE_TITLE, HOSTILE_DESCRIPTION, tags, status="done", lang="zh"),
        body="# Topic\n\n- [Report](output/report.md)\n- [Analysis](processed/analysis.md)\n"
             "- [Source](raw/source-1a2b3c.md)\n\n" + HOSTILE_BODY)  # fmt: skip
    put(topic / "output" / "report.md", page_meta("Report", HOSTILE_DESCRIPTION, ["trade"]))
    put(topic / "processed" / "analysis.md", page_meta("Analysis", "analysis", ["trade"]))
    put(topic / "raw" / "source-1a2b3c.md", page_meta("Raw <script>", HOSTILE_DESCRIPTION, ["trade"],
                                                       url="https://example.org/a"))  # fmt: skip
    write_json(topic / "_meta.json", {"topic": "evil"})
    write_json(topic / "plan.json", {"steps": []})
    write_json(topic / "processed" / "aggregated.json", {"items": []})
    write_index(paths, {
        "repo:acme/evil": {"title": HOSTILE_TITLE, "kind": "repo", "status": "done", "tags": tags,
                           "path": "repos/acme/evil/index.md", "updated_at": "2026-11-19T10:00:00Z",
                           "summary": HOSTILE_DESCRIPTION},
        f"topic:{TOPIC_SLUG}": {"title": HOSTILE_TITLE, "kind": "topic", "status": "done", "tags": tags,
                                "path": f"topics/{TOPIC_SLUG}/index.md", "updated_at": "2026-11-20T10:00:00Z",
                                "summary": "<img src=x onerror=alert(9)>"},
    }, sources={
        "src:1a2b3c": {"title": "Raw <script>alert(1)</script>", "topic": f"topic:{TOPIC_SLUG}",
                       "path": f"topics/{TOPIC_SLUG}/raw/source-1a2b3c.md", "url": "javascript:alert(1)",
                       "tags": ["trade"]},
    }, variants={"trade": ["trading", "trades", "Trading", "交易"]})  # fmt: skip
    return written


SHARED_SITE_SETTINGS = {"repo_url": "https://github.com/acme/kb", "edit_uri": "edit/main/site_src/"}
DIAGRAM_PAGE = "```mermaid\ngraph TD\n  A --> B\n```\n"


def write_shared_kb(root: Path) -> dict[Path, dict[str, Any]]:
    """The hostile KB, two repositories' reading paths, a topic's reading path, a page with a diagram (topic
    `t`) and a deepkb.yml with edit links; returns the hostile pages' frontmatter as `write_hostile_kb` does."""
    written = write_hostile_kb(root)
    paths = KBPaths(root)
    write_repo_pages(paths, "acme", "webclient", ["sessions", "redirects", "cookies"])
    write_repo_pages(paths, "acme", "other", ["core", "cli"])
    topic = paths.topic_dir("widgets")
    write_page(topic / "index.md", {"title": "Widgets"}, "# Widgets\n\n[Report](output/report.md)\n")
    write_page(topic / "output" / "report.md", {"title": "Report: Widgets"}, "# Report\n")
    write_page(topic / "processed" / "analysis.md", {"title": "Analysis: Widgets"}, "# Analysis\n")
    write_page(topic / "sources.md", {"title": "Sources: Widgets"}, "# Sources\n\n[a](raw/a.md)\n")
    write_page(topic / "raw" / "a.md", {"title": "Raw source A"}, "# A\n")
    write_page(paths.topic_dir("t") / "index.md", {"title": "T"}, DIAGRAM_PAGE)
    (root / "deepkb.yml").write_text(yaml.safe_dump({"site": SHARED_SITE_SETTINGS}), encoding="utf-8")
    return written


def write_repo_pages(paths: KBPaths, owner: str, name: str, shards: list[str]) -> None:
    """A repository index linking its shard pages, each shard linking back."""
    folder = paths.site_src / "repos" / owner / name
    links = "".join(f"- [{s}](shards/{n:02d}_{s}.md)\n" for n, s in enumerate(shards, start=1))
    write_page(folder / "index.md", {"title": f"{owner}/{name}"}, f"# {name}\n\n{links}")
    for n, shard in enumerate(shards, start=1):
        write_page(
            folder / "shards" / f"{n:02d}_{shard}.md",
            {"title": f"{name} · {shard}"},
            f"# {shard}\n\n[Back](../index.md)\n",
        )


def write_index(
    paths: KBPaths,
    topics: dict[str, dict[str, Any]],
    sources: dict[str, dict[str, Any]] | None = None,
    variants: dict[str, list[str]] | None = None,
) -> None:
    """`_index.json` in the knowledge index's contract format, tag_index derived from the tags."""
    sources = sources or {}
    tag_index: dict[str, list[str]] = {}
    for key, item in [*topics.items(), *sources.items()]:
        for tag in item.get("tags", []):
            tag_index.setdefault(tag, []).append(key)
    write_json(paths.site_src / "_index.json", {
        "updated_at": "2026-11-20T10:00:00Z", "topics": topics, "sources": sources,
        "tag_index": tag_index, "tag_variants": variants or {},
    })  # fmt: skip


def write_topics(root: Path, count: int) -> dict[str, dict[str, Any]]:
    """`count` plain topics, each with a landing page and one raw source; returns their index entries."""
    paths = KBPaths(root)
    topics: dict[str, dict[str, Any]] = {}
    for n in range(count):
        slug = f"topic-{n:03d}"
        directory = paths.topic_dir(slug)
        tags = ["trade"] if n % 2 else ["search"]
        body = f"# Topic {n}\n\nSee the [source](raw/src-{n:03d}.md).\n"
        write_page(
            directory / "index.md", page_meta(f"Topic {n}", f"About topic {n}", tags, status="done"), body
        )
        write_page(
            directory / "raw" / f"src-{n:03d}.md", page_meta(f"Source {n}", "raw", tags), "Raw text.\n"
        )
        topics[f"topic:{slug}"] = {"title": f"Topic {n}", "kind": "topic", "status": "done", "tags": tags,
                                   "path": f"topics/{slug}/index.md", "summary": f"About topic {n}",
                                   "updated_at": f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}T00:00:{n % 60:02d}Z"}  # fmt: skip
    return topics


def topic_sources(count: int) -> dict[str, dict[str, Any]]:
    """Index entries of the raw source pages `write_topics(count)` wrote."""
    return {
        f"src:{n:03d}": {"title": f"Source {n}", "topic": f"topic:topic-{n:03d}", "url": f"https://example.org/{n}",
                         "path": f"topics/topic-{n:03d}/raw/src-{n:03d}.md", "tags": ["trade"] if n % 2 else ["search"]}
        for n in range(count)
    }  # fmt: skip


class LiveMarkup(HTMLParser):
    """Records scripts, event handlers, script URLs, frames and meta descriptions of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[dict[str, str]] = []
        self.inline_in_article: list[str] = []
        self.handlers: list[str] = []
        self.bad_urls: list[str] = []
        self.frames: list[str] = []
        self.descriptions: list[str] = []
        self.pre_classes: list[str] = []
        self.title_text = ""
        self._in_title = False
        self._article = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k.lower(): v or "" for k, v in attrs}
        self.handlers += [f"{tag}.{k}" for k in values if k.startswith("on")]
        for key in ("href", "src", "action", "formaction"):
            url = "".join(values.get(key, "").split()).lower()
            if url.startswith(("javascript:", "data:", "vbscript:")):
                self.bad_urls.append(f"{tag}.{key}={values[key]}")
        if tag in {"iframe", "object", "embed", "frame"}:
            self.frames.append(tag)
        if tag == "script":
            self.scripts.append(values)
            if self._article:
                self.inline_in_article.append(str(values))
        if tag == "meta" and values.get("name") == "description":
            self.descriptions.append(values.get("content", ""))
        if tag == "pre":
            self.pre_classes.append(values.get("class", ""))
        self._article += tag == "article"
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._article -= tag == "article" and self._article > 0
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_text += data


def parse_html(path: Path) -> LiveMarkup:
    parser = LiveMarkup()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser
