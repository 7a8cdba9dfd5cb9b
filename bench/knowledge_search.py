"""`deepkb knowledge search` at scale: p50/p95 of a query over N stored sources (English and Chinese).

    .venv/bin/python bench/knowledge_search.py [N] [--queries Q] [--keep DIR]

Writes N raw sources (default 10,000) in 100-source topics through the real writers (store.write_page,
kb/index.update_index), one topic in four in Chinese. The text is synthetic but has real word statistics:
English sentences are drawn from the prose of the Python standard library's docstrings and comments,
Chinese words from jieba's dictionary by their frequency; each topic mixes its own domain terms in. Indexes them once (the
first search's cost, printed apart), then times Q searches (default 200; English, Chinese, tag and
no-hit queries) through `generator.kb.search.search`, the function the command calls, in this process.
Prints figures beside the anchor (p95 ≤ 50 ms); the last line is JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from generator.kb.index import update_index  # noqa: E402
from generator.kb.search import search, sync_search_db  # noqa: E402
from generator.store import KBPaths, write_json, write_page  # noqa: E402

ANCHOR_MS = 50.0
PER_TOPIC = 100
EN_WORDS = (
    "vector database index embedding query latency throughput replication consensus raft leader follower "
    "storage engine compaction cache eviction memory allocator garbage collector compiler parser token "
    "syntax tree optimizer register allocation market maker spread inventory volatility order book "
    "liquidity exchange protocol network packet congestion window kernel scheduler thread process lock "
    "transaction isolation snapshot serializable benchmark recall precision neural network gradient "
    "training inference quantization attention transformer retrieval ranking search engine crawler"
).split()
ZH_WORDS = (
    "向量 数据库 索引 嵌入 查询 延迟 吞吐量 复制 共识 领导者 存储 引擎 压缩 缓存 淘汰 内存 分配器 "
    "垃圾 回收 编译器 解析器 语法树 优化器 寄存器 分配 做市商 价差 库存 波动率 订单簿 流动性 交易所 "
    "协议 网络 拥塞 窗口 内核 调度器 线程 进程 事务 隔离 快照 基准 召回率 精度 神经网络 梯度 训练 推理 量化 注意力 检索 排序 搜索引擎"
).split()
QUERIES_EN = [
    "vector index",
    "raft leader election",
    "market maker spread",
    "garbage collector",
    "kernel scheduler",
]
QUERIES_ZH = ["向量数据库", "做市商", "垃圾回收", "神经网络训练", "搜索引擎"]
QUERIES_OTHER = ["benchmark", "zzyzx nothing matches", "transformer attention quantization"]


class Prose:
    """Sentences with real word statistics, plus a topic's domain terms."""

    def __init__(self) -> None:
        self.english = english_sentences()
        words, counts = chinese_words()
        self.zh_words = words
        self.zh_cumulative = list(itertools.accumulate(counts))

    def sentence(self, rng: random.Random, chinese: bool, terms: list[str]) -> str:
        if chinese:
            picked = rng.choices(self.zh_words, cum_weights=self.zh_cumulative, k=rng.randint(10, 20))
            if rng.random() < 0.4:
                picked.insert(rng.randrange(len(picked)), rng.choice(terms))
            return "".join(picked) + "。"
        text = rng.choice(self.english)
        if rng.random() < 0.4:
            words = text.split()
            words.insert(rng.randrange(len(words)), rng.choice(terms))
            text = " ".join(words)
        return text


def english_sentences(limit: int = 30_000) -> list[str]:
    """Prose lines of the standard library's docstrings and comments (six words or more, letters only)."""
    found: list[str] = []
    for source in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        for line in source.read_text(encoding="utf-8", errors="replace").splitlines():
            text = line.strip().lstrip("#").strip()
            if len(text.split()) >= 6 and re.fullmatch(r"[A-Za-z ,.;:'()-]+", text):
                found.append(text)
        if len(found) >= limit:
            break
    return found


def chinese_words() -> tuple[list[str], list[int]]:
    """jieba's dictionary: word → frequency."""
    import jieba

    words, counts = [], []
    with open(Path(jieba.__file__).parent / "dict.txt", encoding="utf-8") as handle:
        for line in handle:
            word, count, *_ = line.split()
            words.append(word)
            counts.append(int(count))
    return words, counts


def write_corpus(paths: KBPaths, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    prose = Prose()
    for t in range(max(count // PER_TOPIC, 1)):
        chinese = t % 4 == 3
        terms = rng.sample(ZH_WORDS if chinese else EN_WORDS, 6)
        slug, tags = f"topic-{t:04d}", terms[:3]
        folder = paths.topic_dir(slug)
        write_json(
            folder / "_meta.json",
            {"topic": slug, "status": "completed", "updated_at": "2026-11-01T00:00:00Z"},
        )
        write_page(
            folder / "index.md", {"title": " ".join(tags), "tags": tags}, prose.sentence(rng, chinese, terms)
        )
        for s in range(min(PER_TOPIC, count - t * PER_TOPIC)):
            body = "\n\n".join(
                (" " if not chinese else "").join(prose.sentence(rng, chinese, terms) for _ in range(5))
                for _ in range(4)
            )
            meta = {
                "title": " ".join(rng.sample(terms, 2) + rng.sample(prose.english, 1)[0].split()[:3])
                if not chinese
                else "".join(rng.sample(terms, 3)),
                "url": f"https://example.org/{slug}/{s}",
                "source": "local",
                "fetched_at": "2026-11-01T00:00:00Z",
                "tags": tags,
            }
            write_page(folder / "raw" / f"src-{s:03d}.md", meta, body)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(round(q * (len(ordered) - 1))), len(ordered) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("count", nargs="?", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--keep", type=Path, default=None, help="build (or reuse) the corpus in DIR")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deepkb-ksearch-") as tmp:
        root = args.keep or Path(tmp)
        paths = KBPaths(root)
        if not (paths.site_src / "_index.json").is_file():
            started = time.perf_counter()
            write_corpus(paths, args.count)
            update_index(paths)
            print(f"wrote {args.count:,} sources in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        sync_search_db(paths)
        index_s = time.perf_counter() - started
        queries = (QUERIES_EN + QUERIES_ZH + QUERIES_OTHER) * (args.queries // 13 + 1)
        timings, hits = [], 0
        for query in queries[: args.queries]:
            started = time.perf_counter()
            results = search(paths, query, limit=10)
            timings.append((time.perf_counter() - started) * 1000)
            hits += bool(results)
        p50, p95 = statistics.median(timings), percentile(timings, 0.95)
        print(f"first indexing: {index_s:.1f} s for {args.count:,} sources")
        print(
            f"search p50 {p50:.1f} ms, p95 {p95:.1f} ms (anchor: p95 ≤ {ANCHOR_MS:.0f} ms); {hits}/{len(timings)} with results"
        )
        print(
            json.dumps(
                {
                    "sources": args.count,
                    "queries": len(timings),
                    "p50_ms": round(p50, 2),
                    "p95_ms": round(p95, 2),
                    "anchor_p95_ms": ANCHOR_MS,
                    "first_index_s": round(index_s, 2),
                }
            )
        )


if __name__ == "__main__":
    main()
