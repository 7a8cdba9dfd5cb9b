"""Site build at scale: write N synthetic research pages through the real writers, build, print figures.

    .venv/bin/python bench/site_scale.py 1000 [--root DIR] [--keep]

N is the number of content pages: N/4 topics, each with a landing page, a report, an analysis and one raw
source, in the documented site_src layout, written with store.write_page; then the knowledge index
(generator.kb.index.update_index, when present), the listing pages (render_site) and the MkDocs build
(build_site, strict, Pagefind included). Then the built site is served on 127.0.0.1 and opened in Chromium
(Playwright, as the browser tests do): `search_query_kb` is what the browser fetched between pressing "/" on a
freshly opened page and the first result shown, for an English and a Chinese query (the larger is reported;
sizes as served by a server without compression, so an upper bound of what GitHub Pages sends).
The last line is JSON: {"pages", "build_s", "avg_page_kb", "search_index_mb", "search_query_kb", …}.
Targets (issue 5): build at 5,000 pages ≤ 6 × build at 1,000; average page ≤ 40 KB. Issue 12: a first search
result at 20,000 pages fetches ≤ 500 KB.
Measured 2026-11-25 (`site_scale.py 20000`, 2 cores shared with other jobs, 18.5 min in all): 20,133 pages,
search_query_kb 363 (en) / 356 (zh) in 14 requests, search index 14.4 MB in 20,213 files, build 626 s.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "tests"))

from generator.config import Config  # noqa: E402
from generator.site.build import build_site  # noqa: E402
from generator.site.render import render_site  # noqa: E402
from generator.store import KBPaths, write_json, write_page  # noqa: E402

TERMS = [
    ["trade", "trading", "trades", "交易"], ["search", "searching", "检索"], ["graph", "graphs"],
    ["database", "databases", "数据库"], ["compiler", "compilers"], ["network", "networking"],
    ["security", "安全"], ["parser", "parsing"], ["cache", "caching"], ["scheduler", "scheduling"],
    ["storage"], ["stream", "streaming"], ["kernel"], ["browser"], ["agent", "agents", "智能体"],
    ["retrieval"], ["embedding", "embeddings"], ["index", "indexing"], ["queue", "queues"], ["crypto"],
]  # fmt: skip
WORDS = ("data model pipeline shard index query latency throughput cache storage replica consensus "
         "scheduler parser token graph vector search ranking synonym canonical crawl report").split()  # fmt: skip


def paragraph(seed: int, sentences: int = 6) -> str:
    out = []
    for s in range(sentences):
        words = [WORDS[(seed * 7 + s * 3 + i * 5) % len(WORDS)] for i in range(14)]
        out.append(" ".join(words).capitalize() + ".")
    if seed % 3 == 0:
        out.append("中文知识库的检索与交易策略研究,以及数据库的索引结构。")
    return " ".join(out)


def body(seed: int, kind: str) -> str:
    parts = [f"# {kind.title()} {seed}\n"]
    for section in range(4):
        parts.append(f"## Section {section}\n\n{paragraph(seed + section)}\n")
    parts.append(
        "| Item | Value |\n|---|---|\n" + "".join(f"| {w} | {i} |\n" for i, w in enumerate(WORDS[:8]))
    )
    if seed % 5 == 0:
        parts.append("```mermaid\ngraph TD\n  A[plan] --> B[research]\n  B --> C[report]\n```\n")
    parts.append(f"```python\ndef step_{seed}(x):\n    return x * {seed}\n```\n")
    return "\n".join(parts)


def write_topic(paths: KBPaths, n: int) -> None:
    slug = f"topic-{n:05d}"
    folder = paths.topic_dir(slug)
    first = TERMS[n % len(TERMS)]
    tags = [first[n % len(first)], TERMS[(n * 3 + 1) % len(TERMS)][0]]
    date = f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}"
    source = f"src-{hashlib.sha1(slug.encode()).hexdigest()[:8]}"

    def meta(title: str, **extra: object) -> dict[str, object]:
        return {"title": title, "description": f"{title}: synthetic research", "tags": tags,
                "generated": date, "provider": "offline", **extra}  # fmt: skip

    landing = (f"# Topic {n}\n\n!!! info \"Produced offline\"\n    Synthetic page.\n\n{paragraph(n, 3)}\n\n"
               f"- [Report](output/report.md)\n- [Analysis](processed/analysis.md)\n\n"
               f"| Source | URL |\n|---|---|\n| [Source {n}](raw/{source}.md) | https://example.org/{n} |\n")  # fmt: skip
    write_page(folder / "index.md", meta(f"Topic {n}", status="completed"), landing)
    write_page(folder / "output" / "report.md", meta(f"Report {n}"), body(n, "report"))
    write_page(folder / "processed" / "analysis.md", meta(f"Analysis {n}"), body(n + 1, "analysis"))
    raw_meta = meta(f"Source {n}", url=f"https://example.org/{n}", fetched_at=date)
    write_page(folder / "raw" / f"{source}.md", raw_meta, body(n + 2, "source"))
    write_json(folder / "_meta.json", {"topic": f"Topic {n}", "status": "completed", "updated_at": date})


def update_index(paths: KBPaths) -> bool:
    try:
        from generator.kb.index import update_index as real_update
    except ImportError:
        return False
    real_update(paths)
    return True


def measure(root: Path, pages: int) -> dict[str, object]:
    paths = KBPaths(root)
    started = time.perf_counter()
    for n in range(max(1, pages // 4)):
        write_topic(paths, n)
    write_s = time.perf_counter() - started
    started = time.perf_counter()
    indexed = update_index(paths)
    render_site(paths, Config())
    render_s = time.perf_counter() - started
    started = time.perf_counter()
    site = build_site(paths, Config(), strict=True)
    build_s = time.perf_counter() - started
    html = [p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts]
    sizes = [p.stat().st_size for p in html]
    search_index = [p for p in (site / "pagefind").rglob("*") if p.is_file()]
    return {
        "pages": len(html),
        "build_s": round(build_s, 2),
        "avg_page_kb": round(sum(sizes) / len(sizes) / 1024, 1),
        "max_page_kb": round(max(sizes) / 1024, 1),
        "search_index_mb": round(sum(p.stat().st_size for p in search_index) / 1024 / 1024, 2),
        "search_index_files": len(search_index),
        "site_mb": round(sum(p.stat().st_size for p in site.rglob("*") if p.is_file()) / 1024 / 1024, 1),
        "write_s": round(write_s, 2),
        "index_and_render_s": round(render_s, 2),
        "indexed": indexed,
    }


CHROMIUM = Path("/usr/bin/chromium")
QUERIES = {"en": "retrieval", "zh": "数据库"}


def measure_search(site: Path, page: str = "topics/topic-00005/output/report/") -> dict[str, object]:
    """Bytes fetched from pressing "/" on a freshly opened page to the first result shown, per query."""
    if not CHROMIUM.is_file():
        return {"search_query_kb": None, "search_note": f"no browser at {CHROMIUM}"}
    from browser_kb import serve  # tests/: the same static server the browser tests use
    from playwright.sync_api import sync_playwright

    figures: dict[str, object] = {}
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        for lang, query in QUERIES.items():
            context = browser.new_context()
            tab = context.new_page()
            tab.goto(base + page, wait_until="networkidle")
            fetched: list[int] = []
            tab.on("requestfinished", lambda r, sink=fetched: sink.append(r.sizes()["responseBodySize"]))
            started = time.perf_counter()
            tab.keyboard.press("/")
            tab.locator("#deepkb-search input").fill(query)
            tab.wait_for_selector(".pagefind-ui__result-link", timeout=60000)
            figures[f"search_first_result_ms_{lang}"] = round((time.perf_counter() - started) * 1000)
            figures[f"search_query_kb_{lang}"] = round(sum(fetched) / 1024, 1)
            figures[f"search_requests_{lang}"] = len(fetched)
            context.close()
        browser.close()
    figures["search_query_kb"] = max(v for k, v in figures.items() if k.startswith("search_query_kb_"))  # type: ignore[type-var]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", type=int, help="content pages to write (N/4 topics × 4 pages)")
    parser.add_argument("--root", type=Path, default=None, help="knowledge-base root (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary knowledge base")
    args = parser.parse_args()
    root = args.root or Path(tempfile.mkdtemp(prefix="deepkb-bench-"))
    try:
        started = time.perf_counter()
        figures = measure(root, args.pages)
        figures.update(measure_search(root / "site"))
        figures["total_s"] = round(time.perf_counter() - started, 1)
    finally:
        if args.root is None and not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
