"""Benchmark: offline topic research over a folder of documents, one run per query.

    .venv/bin/python bench/topic_retrieval.py CORPUS QUERIES.json [--quick]
    .venv/bin/python bench/topic_retrieval.py --make-corpus OUT     # assemble a public corpus locally

QUERIES.json is a list of {"query": "...", "expect": ["file.md", ...]} (expect is optional). For each query
it prints the documents kept as raw sources, the share of the report's citations that resolve to a stored
raw source, the recall of the expected documents, and the wall time. `--make-corpus` copies the long
descriptions (README text) of the packages installed in this venv — a public collection anyone can rebuild.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.config import Config, LLMConfig, TopicEntry  # noqa: E402
from generator.llm.base import create_provider  # noqa: E402
from generator.store import KBPaths, read_page  # noqa: E402
from generator.topic.pipeline import run_topic_research  # noqa: E402
from generator.topic.report import citations_in  # noqa: E402
from generator.topic.workspace import list_raw_sources  # noqa: E402


def make_corpus(out: Path, min_chars: int = 3000) -> int:
    """One `<package>.md` per installed distribution whose long description is at least `min_chars`."""
    import site

    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for base in site.getsitepackages():
        for metadata in sorted(Path(base).glob("*.dist-info/METADATA")):
            message = Parser().parsestr(metadata.read_text(encoding="utf-8", errors="replace"))
            body = message.get_payload()
            name = str(message.get("Name", metadata.parent.name)).lower()
            if isinstance(body, str) and len(body) >= min_chars and name != "deepkb":
                (out / f"{name}.md").write_text(
                    f"# {message.get('Summary') or name}\n\n{body}", encoding="utf-8"
                )
                count += 1
    return count


@dataclass
class QueryRun:
    kept: list[str]  # file names of the documents stored as raw sources
    citations: int
    resolved_share: float
    seconds: float
    status: str


def run_query(corpus: Path, query: str, *, quick: bool) -> QueryRun:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DEEPKB_CACHE_DIR"] = str(Path(tmp) / "cache")
        paths = KBPaths(Path(tmp) / "kb")
        entry = TopicEntry(topic=query, sources=[f"local:{corpus.resolve()}"])
        started = time.perf_counter()
        result = run_topic_research(
            paths,
            Config(),
            create_provider("offline", LLMConfig()),
            entry,
            quick=quick,
            console=_quiet_console(),
        )
        seconds = time.perf_counter() - started
        raw = list_raw_sources(paths, result.slug)
        report_file = paths.topic_dir(result.slug) / "output" / "report.md"
        cited = citations_in(read_page(report_file)[1]) if report_file.is_file() else []
        raw_dir = paths.topic_dir(result.slug) / "raw"
        resolved = sum(1 for _, sid in cited if (raw_dir / f"{sid}.md").is_file())
        return QueryRun(
            kept=sorted({r.url.rsplit("/", 1)[-1] for r in raw}),
            citations=len(cited),
            resolved_share=resolved / len(cited) if cited else 0.0,
            seconds=seconds,
            status=result.status,
        )


def _quiet_console():  # type: ignore[no-untyped-def]
    from rich.console import Console

    return Console(file=open(os.devnull, "w"), highlight=False)  # noqa: SIM115


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("queries", nargs="?", type=Path)
    parser.add_argument("--quick", action="store_true", help="3 facets, no verification, no parallel steps")
    parser.add_argument("--make-corpus", type=Path, metavar="OUT")
    args = parser.parse_args(argv)
    if args.make_corpus:
        print(f"{make_corpus(args.make_corpus)} documents written to {args.make_corpus}")
        return 0
    if not args.corpus or not args.queries:
        parser.error("CORPUS and QUERIES.json are required")
    queries = json.loads(args.queries.read_text(encoding="utf-8"))
    docs = len([p for p in args.corpus.rglob("*") if p.is_file()])
    print(f"corpus: {args.corpus} ({docs} files) · {len(queries)} queries · offline · quick={args.quick}\n")
    seconds, recalls, resolved = 0.0, [], []
    for item in queries:
        row = run_query(args.corpus, item["query"], quick=args.quick)
        expect = set(item.get("expect", []))
        recall = len(expect & set(row.kept)) / len(expect) if expect else None
        seconds += row.seconds
        resolved.append(row.resolved_share)
        if recall is not None:
            recalls.append(recall)
        print(f"query: {item['query']!r}  [{row.status}]")
        print(f"  kept {len(row.kept)} sources: {', '.join(row.kept)}")
        recall_text = f"{recall:.0%}" if recall is not None else "n/a"
        print(
            f"  citations {row.citations}, resolving {row.resolved_share:.0%} · expected-doc recall "
            f"{recall_text} · {row.seconds:.2f}s\n"
        )
    print(
        f"mean citation resolution {sum(resolved) / max(1, len(resolved)):.0%} · mean expected-doc recall "
        f"{(sum(recalls) / len(recalls)) if recalls else 0:.0%} · total {seconds:.1f}s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
