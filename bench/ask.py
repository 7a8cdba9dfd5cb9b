"""`deepkb ask` and the MCP tools over a knowledge base of real repositories and a real topic, at 10,000 sources.

    .venv/bin/python bench/ask.py [--keep DIR] [--sources N] [--rounds R]

Researches offline the repositories and the topic bench/ask_questions.json names (/work/refsrc sources; the
topic over a copy of a documentation folder), then asks each labelled question and counts those answered with
a correct citation in the top 3 (the labels were written before any run: see the JSON's `about`). Then adds
synthetic stored sources (bench/knowledge_search.py's writer: real word statistics, a quarter Chinese) up to
N (default 10,000) and asks again, and times `ask` (answer_question, what the command calls) and the MCP
server's `search_pages` and `lookup_symbol` tools (called in process through the SDK's MCPServer, input
validation included). Prints a table; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "bench"))

import anyio  # noqa: E402
from knowledge_search import percentile, write_corpus  # noqa: E402

from generator.kb.answer import answer_question  # noqa: E402
from generator.kb.index import load_index, update_index  # noqa: E402
from generator.kb.search import sync_search_db  # noqa: E402
from generator.kb.server import build_server  # noqa: E402
from generator.store import KBPaths  # noqa: E402

REFSRC = Path(os.environ.get("DEEPKB_REFSRC", "/work/refsrc"))  # checkouts named as the JSON names them
QUESTIONS = HERE / "bench" / "ask_questions.json"
ANCHOR_MS = 100.0
TOP = 3
SYMBOLS = ["Session", "HTTPAdapter", "Option", "echo", "url_for", "Flask.url_for", "AsyncClient", "Timeout",
           "RouterGroup", "Context.JSON", "render_template", "Blueprint", "jsonify", "SessionInterface",
           "zzqx_missing"]  # fmt: skip
SEARCHES = ["session cookies", "async client", "blueprint", "gunicorn", "文件上传", "会话", "timeout",
            "router group", "zzqx nothing"]  # fmt: skip


def deepkb(root: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["DEEPKB_PROVIDER"] = "offline"
    done = subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 3):  # 3: a topic ends `unverified`, its pages still written
        sys.exit(f"deepkb {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")


def build(root: Path, spec: dict[str, Any]) -> None:
    """Research the repositories and the topic offline (skipped for what `root` already holds)."""
    root.mkdir(parents=True, exist_ok=True)
    for repo in spec["repos"]:
        if not any((root / "site_src" / "repos").glob(f"*/{Path(repo).name}")):
            started = time.perf_counter()
            deepkb(root, "repo", "run", str(REFSRC / repo))
            print(f"researched {repo} in {time.perf_counter() - started:.0f} s", flush=True)
    corpus = root / "corpus"
    if "topic" not in spec or corpus.is_dir():
        return
    shutil.copytree(REFSRC / spec["topic"]["docs"], corpus)
    for title in spec["topic"]["titles"]:
        started = time.perf_counter()
        deepkb(root, "topic", "run", title, "--sources", "local:corpus", "--quick")
        print(f"researched the topic {title!r} in {time.perf_counter() - started:.0f} s", flush=True)


def correct(passage: dict[str, Any], expect: list[dict[str, Any]]) -> bool:
    for cite in passage["citations"]:
        for label in expect:
            if "source" in label and cite["url"].endswith("/" + label["source"]):
                return True
            if cite["path"] == label.get("path") and label.get("line", cite["line"]) == cite["line"]:
                return True
    return False


def quality(paths: KBPaths, questions: list[dict[str, Any]]) -> dict[str, Any]:
    rows = []
    for item in questions:
        answer = answer_question(paths, item["q"], None, limit=TOP).to_json()
        passages = answer["passages"]
        assert isinstance(passages, list)
        rank = next((i + 1 for i, p in enumerate(passages) if correct(p, item["expect"])), 0)
        rows.append({"q": item["q"], "lang": item["lang"], "rank": rank})
    by_lang = {
        lang: (
            sum(1 for r in rows if r["lang"] == lang and r["rank"]),
            sum(1 for r in rows if r["lang"] == lang),
        )
        for lang in ("en", "zh")
    }
    return {"rows": rows, "by_lang": by_lang, "answered": sum(1 for r in rows if r["rank"])}


def timings(paths: KBPaths, questions: list[str], rounds: int) -> dict[str, list[float]]:
    """Milliseconds per call of ask, and of the MCP search and symbol tools."""
    out: dict[str, list[float]] = {"ask": [], "mcp search_pages": [], "mcp lookup_symbol": []}
    for _ in range(rounds):
        for question in questions:
            started = time.perf_counter()
            answer_question(paths, question, None)
            out["ask"].append((time.perf_counter() - started) * 1000)
    server = build_server(paths)

    async def tools() -> None:
        for _ in range(rounds):
            for name, values, key in (
                ("search_pages", SEARCHES, "query"),
                ("lookup_symbol", SYMBOLS, "name"),
            ):
                for value in values:
                    started = time.perf_counter()
                    await server.call_tool(name, {key: value})
                    out[f"mcp {name}"].append((time.perf_counter() - started) * 1000)

    anyio.run(tools)
    return out


def table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", type=Path, default=None, help="build (or reuse) the knowledge base in DIR")
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--questions", type=Path, default=QUESTIONS, help="the labelled questions (JSON)")
    args = parser.parse_args()
    spec = json.loads(args.questions.read_text(encoding="utf-8"))
    questions = spec["questions"]
    with tempfile.TemporaryDirectory(prefix="deepkb-ask-") as tmp:
        root = args.keep or Path(tmp)
        os.environ.setdefault("DEEPKB_CACHE_DIR", str(root / ".cache" / "deepkb"))
        paths = KBPaths(root)
        build(root, spec)
        update_index(paths)
        sync_search_db(paths)
        real = len(load_index(paths)["sources"])
        before = quality(paths, questions)
        extra = max(args.sources - real, 0)
        if extra and not (paths.topics_dir / "topic-0000").is_dir():
            started = time.perf_counter()
            write_corpus(paths, -(-extra // 100) * 100)  # it writes whole topics of 100 sources
            update_index(paths)
            print(f"wrote {extra:,} synthetic sources in {time.perf_counter() - started:.0f} s", flush=True)
        started = time.perf_counter()
        sync_search_db(paths)
        print(f"indexed in {time.perf_counter() - started:.1f} s", flush=True)
        total = len(load_index(paths)["sources"])
        after = quality(paths, questions)
        measured = timings(paths, [q["q"] for q in questions], args.rounds)

    print()
    print(f"Questions (correct citation in the top {TOP}; rank shown, - when none), {total:,} sources:")
    rows = [("question", "lang", f"real only ({real} stored sources)", f"at {total:,} sources")]
    for one, two in zip(before["rows"], after["rows"], strict=True):
        rows.append((one["q"], one["lang"], str(one["rank"] or "-"), str(two["rank"] or "-")))
    print(table(rows))
    print()
    summary = [("measure", "value", "goal")]
    for label, result in (("real only", before), (f"at {total:,}", after)):
        share = result["answered"] / len(questions)
        en, zh = result["by_lang"]["en"], result["by_lang"]["zh"]
        summary.append(
            (f"answered, top {TOP} ({label})", f"{result['answered']}/{len(questions)} = {share:.0%} "
             f"(en {en[0]}/{en[1]}, zh {zh[0]}/{zh[1]})", "")
        )  # fmt: skip
    for name, values in measured.items():
        p50, p95 = statistics.median(values), percentile(values, 0.95)
        summary.append((f"{name} at {total:,} sources", f"p50 {p50:.1f} ms, p95 {p95:.1f} ms ({len(values)} calls)",
                        f"p95 ≤ {ANCHOR_MS:.0f} ms"))  # fmt: skip
    print(table(summary))
    print(
        json.dumps(
            {
                "questions": len(questions),
                "sources": total,
                "answered_top3_real": before["answered"],
                "answered_top3_at_scale": after["answered"],
                **{
                    f"{name.replace(' ', '_')}_p95_ms": round(percentile(values, 0.95), 2)
                    for name, values in measured.items()
                },
                "anchor_p95_ms": ANCHOR_MS,
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
