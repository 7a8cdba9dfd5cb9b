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
A corpus's search index is built by its first query and handed to the later ones, as a user builds it once
per collection: only a first query's seconds include reading every document.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
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
from generator.text.topic_labels import LABELS  # noqa: E402
from generator.topic.pipeline import run_topic_research  # noqa: E402
from generator.topic.workspace import unescape_body  # noqa: E402

WORK = Path(tempfile.gettempdir()) / "deepkb-bench-collections"
DOC_SUFFIXES = {".rst", ".md", ".txt", ".html", ".htm", ".pdf"}


# --------------------------------------------------------------------------- building a collection


def build_corpus(spec: dict[str, Any], work: Path = WORK) -> Path:
    """The docs folder of `spec['sdist']`'s source distribution (or of the git mirror `spec['git']` at
    `spec['commit']`), copied to `work/<name>/docs` once; with `spec['include']`, only the files it matches."""
    if "git" in spec:
        return _git_corpus(spec, work)
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
    hidden = [n for n in names if n.startswith(".") or n == "node_modules"]
    return hidden + [
        n for n in names if Path(folder, n).is_file() and Path(n).suffix.lower() not in DOC_SUFFIXES
    ]


MIRRORS = Path(os.environ.get("DEEPKB_MIRRORS", "/work/.mirror"))


def _git_corpus(spec: dict[str, Any], work: Path) -> Path:
    """A repository's docs folder at the labelled commit, from the bare mirror the `fetch` tool made
    (`/work/.mirror/<owner>+<name>/repo`); nothing is fetched from the network."""
    name = collection_name(spec)
    out = work / name / "docs"
    if out.is_dir() and any(out.rglob("*")):
        return out
    mirror = MIRRORS / str(spec["git"]).replace("/", "+") / "repo"
    clone = work / name / "clone"
    shutil.rmtree(clone, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(mirror), str(clone)], check=True)
    if "include" in spec:
        return _included_files(clone, spec, out)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", str(spec["commit"])], check=True)
    shutil.copytree(clone / spec["docs"], out, ignore=_not_documents)
    return out


def _included_files(clone: Path, spec: dict[str, Any], out: Path) -> Path:
    """Only the docs folder's files whose name or path inside it matches `spec['include']` (a glob such as
    '*.zh-CN.md' or '*/zhCN/*.md'), read
    blob by blob: a collection that is one language of a multilingual tree, from a mirror that may lack
    unrelated large files (a whole checkout would fail on them)."""
    git = ["git", "-C", str(clone)]
    listed = subprocess.run(
        [*git, "ls-tree", "-r", "--name-only", str(spec["commit"]), "--", str(spec["docs"])],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    pattern = str(spec["include"])
    inside = {n: Path(n).relative_to(str(spec["docs"])).as_posix() for n in listed}
    for name in (
        n for n in listed if fnmatch.fnmatch(Path(n).name, pattern) or fnmatch.fnmatch(inside[n], pattern)
    ):
        blob = subprocess.run([*git, "show", f"{spec['commit']}:{name}"], check=True, capture_output=True)
        target = out / Path(name).relative_to(str(spec["docs"]))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
    return out


def collection_name(spec: dict[str, Any]) -> str:
    return str(spec.get("name") or spec["sdist"])


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
    exit: int = 0  # what `deepkb topic run` would exit with (0 for a published report, unverified or not)
    text: str = ""  # the published report page, as markdown ('' without one)


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


def run_query(corpus: Path, query: str, *, lang: str, quick: bool, keep: Path | None = None) -> QueryRun:
    """One offline run of `query` over `corpus`, its pages published as `deepkb topic run` publishes them;
    with `keep`, the published report and its stored sources (`SLUG.raw/`) are copied there to be read by
    hand."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        os.environ["DEEPKB_CACHE_DIR"] = str(cache)
        _reuse_index(corpus, cache)
        paths = KBPaths(Path(tmp) / "kb")
        entry = TopicEntry(topic=query, sources=[f"local:{corpus.resolve()}"], lang=lang)  # type: ignore[arg-type]
        started = time.perf_counter()
        code = 0
        try:
            result = run_topic_research(
                paths,
                Config(),
                create_provider("offline", LLMConfig()),
                topic_target(paths, entry, quick=quick),
                console=_quiet(),
                publish=_publisher(),
            )
            status, slug = result.status, result.slug
        except DeepkbError as exc:  # no_sources and partial failures still carry the run's result
            code = exc.exit_code
            result = getattr(exc, "result", None)
            status, slug = (result.status, result.slug) if result else (f"error ({type(exc).__name__})", "")
        seconds = time.perf_counter() - started
        _keep_index(corpus, cache)
        page = paths.topic_dir(slug) / "output" / "report.md" if slug else None
        text = page.read_text(encoding="utf-8") if page and page.is_file() else ""
        if keep is not None and text:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"{slug}.md").write_text(text, encoding="utf-8")
            raw = paths.topic_dir(slug) / "raw"
            if raw.is_dir():  # the stored sources it quotes, to check a citation in its document
                shutil.copytree(raw, keep / f"{slug}.raw", dirs_exist_ok=True)
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
            exit=code,
            text=text,
        )


# the local search index of each corpus, as the first query of this process built it: a user builds it once
# per collection, and a later query finds it in the cache (750 reST documents: three quarters of a query)
_INDEXES: dict[Path, Path] = {}
_KEPT = tempfile.TemporaryDirectory(prefix="deepkb-bench-index-")


def _reuse_index(corpus: Path, cache: Path) -> None:
    """Give a fresh cache the corpus's index an earlier query built (its files unchanged: nothing is read)."""
    if corpus in _INDEXES:
        (cache / "search").mkdir(parents=True, exist_ok=True)
        shutil.copy2(_INDEXES[corpus], cache / "search" / _INDEXES[corpus].name)


def _keep_index(corpus: Path, cache: Path) -> None:
    built = sorted((cache / "search").glob("local-*.sqlite"))
    if corpus not in _INDEXES and len(built) == 1:
        kept = Path(_KEPT.name) / str(len(_INDEXES))
        kept.mkdir()
        _INDEXES[corpus] = Path(shutil.copy2(built[0], kept / built[0].name))


def _publisher():  # type: ignore[no-untyped-def]
    """The page layer's topic publisher (None in a deepkb too old to take one: figures then come from records)."""
    try:
        from generator.site.pages.topic import publish_topic
    except ImportError:
        return None
    return publish_topic


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


# --------------------------------------------------------------------------- what the report states

# the page layer's line for a section no stored passage answers (topic_labels.py, en and zh)
NO_ANSWER = ("The stored sources do not answer", "已存储的来源没有回答")


def facts_stated(text: str, facts: list[dict[str, Any]]) -> list[bool]:
    """For each labelled must-state fact, whether the report's text states it (one of its patterns, any case).
    Only what the report states counts (`stated_text`). The text is read as a reader sees it, without the
    page's markdown escapes ("/**" is written `/\\*\\*` on the page)."""
    body = unescape_body(stated_text(text))
    return [any(re.search(pattern, body, re.I | re.S) for pattern in fact["any"]) for fact in facts]


# what a report page holds besides its statements: its front matter (the planned sub-questions, keywords), its
# headings (the questions it asks), its notices ("…no cited passage answers 'What are the limits of X?'") and
# the "Defined by [1] Title" line; a title or a question naming a fact is not the report stating it
_DEFINED_BY = "|".join(re.escape(labels["defined_by"]) for labels in LABELS.values())
_NOT_STATED = re.compile(
    rf"\A---\n(?:.*\n)*?---\n|^#{{1,6}} .*$|^!!! .*\n(?:(?: {{4}}.*)?\n)*|^(?:{_DEFINED_BY}).*$", re.M
)


# a link states its text, never where it points: a fact pattern such as `\.\./` would match every
# citation `[\[1\]](../raw/…)`
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)")


def stated_text(text: str) -> str:
    """The sentences a report page states: without its references list, front matter, headings, notices and
    the line naming its defining documents."""
    body = re.split(r"^## (?:References|参考文献|参考资料)\s*$", text, flags=re.M)[0]
    return _LINK_TARGET.sub("]", _NOT_STATED.sub("", body))


def unanswered_sections(text: str) -> int:
    """Sections of the report that say the stored sources do not answer them."""
    return sum(text.count(line) for line in NO_ANSWER)


# --------------------------------------------------------------------------- the plain baseline

BASELINE_TOP = 5
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_HAN = re.compile(r"[\u3400-\u9fff]")


def _words(text: str) -> list[str]:
    """Lowercased words; Chinese cut into words by jieba (what any Chinese BM25 would do)."""
    if _HAN.search(text):
        import jieba

        text = " ".join(jieba.cut_for_search(text))
    return [w for w in _WORD.findall(text.lower()) if len(w) > 1 or _HAN.match(w)]


class WholeDocumentBM25:
    """Okapi BM25 over whole files, no fields, no feedback, no gates: the baseline the issue names."""

    def __init__(self, corpus: Path, k1: float = 1.2, b: float = 0.75) -> None:
        self.docs = {
            path.relative_to(corpus).as_posix(): _words(path.read_text(encoding="utf-8", errors="replace"))
            for path in sorted(corpus.rglob("*"))
            # the text files deepkb's local source reads (an included `*.mdx` collection too), PDFs aside
            if path.is_file() and path.suffix.lower() in (DOC_SUFFIXES | {".mdx", ".markdown"}) - {".pdf"}
        }
        self.k1, self.b = k1, b
        self.average = sum(len(w) for w in self.docs.values()) / max(1, len(self.docs))
        self.frequency: dict[str, int] = {}
        for words in self.docs.values():
            for word in set(words):
                self.frequency[word] = self.frequency.get(word, 0) + 1

    def top(self, query: str, n: int = BASELINE_TOP) -> list[str]:
        terms = set(_words(query))
        total = len(self.docs)
        scores = {}
        for name, words in self.docs.items():
            counts = {t: words.count(t) for t in terms}
            norm = self.k1 * (1 - self.b + self.b * len(words) / self.average)
            scores[name] = sum(
                math.log(1 + (total - self.frequency.get(t, 0) + 0.5) / (self.frequency.get(t, 0) + 0.5))
                * c
                * (self.k1 + 1)
                / (c + norm)
                for t, c in counts.items()
                if c
            )
        return sorted((d for d in scores if scores[d] > 0), key=lambda d: -scores[d])[:n]


# --------------------------------------------------------------------------- figures


@dataclass
class Totals:
    collection: str = ""
    cited: int = 0
    on_topic: int = 0
    recalls: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)  # whole-document BM25 top-5 recall, per query
    baseline_cited: int = 0
    baseline_on_topic: int = 0
    facts: list[int] = field(default_factory=list)  # must-state facts stated, per labelled query
    unanswered: int = 0  # "the stored sources do not answer" sections
    exits: list[int] = field(default_factory=list)  # exit status per answering query
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

    def add(self, other: Totals) -> None:
        for name, value in vars(other).items():
            if isinstance(value, (int, float, list)) and not isinstance(value, bool):
                setattr(self, name, getattr(self, name) + value)


def bench_collection(
    spec: dict[str, Any], corpus: Path, *, quick: bool, dev: Totals, heldout: Totals, keep: Path | None
) -> None:
    """Run every labelled query of a collection; held-out queries count in `heldout`, the others in `dev`."""
    docs = len([p for p in corpus.rglob("*") if p.is_file()])
    print(f"== {collection_name(spec)}: {corpus} ({docs} files) · offline · quick={quick}\n")
    baseline = WholeDocumentBM25(corpus)
    by_query: dict[str, float] = {}
    for item in spec["queries"]:
        totals = heldout if item.get("heldout") else dev
        lang = item.get("lang", "en")
        row = run_query(corpus, item["query"], lang=lang, quick=quick, keep=keep)
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
        top = baseline.top(item["query"])
        totals.baseline.append(len(expect & set(top)) / len(expect))
        totals.baseline_cited += len(top)
        totals.baseline_on_topic += len(relevant & set(top))
        stated = facts_stated(row.text, item.get("facts", []))
        if stated:
            totals.facts.append(sum(stated))
        unanswered = unanswered_sections(row.text)
        totals.unanswered += unanswered
        totals.exits.append(row.exit)
        totals.opens += row.opens in expect
        totals.answering_no_sources += row.status == "no_sources"
        by_query[item["query"]] = recall
        if lang != "en" or re.search(r"[\u4e00-\u9fff]", item["query"]):
            totals.cross_lingual.append(recall)
            if item.get("twin") in by_query:
                totals.twins.append((recall, by_query[item["twin"]]))
        off = ", ".join(c for c in row.cited if c not in relevant) or "none"
        missed = ", ".join(sorted(expect - set(row.kept))) or "none"
        held = " (held out)" if item.get("heldout") else ""
        print(f"query: {item['query']!r}{held}  [{row.status}, exit {row.exit}]  {row.seconds:.1f}s")
        print(f"  recall {recall:.0%} (missed: {missed}) · opens from {row.opens or '—'}")
        print(f"  BM25 top-{BASELINE_TOP}: {totals.baseline[-1]:.0%} ({', '.join(top) or 'nothing'})")
        print(f"  cited {len(row.cited)}, on topic {len(on_topic)} · off topic: {off}")
        if stated:
            missing = [f["fact"] for f, ok in zip(item["facts"], stated, strict=True) if not ok]
            print(f"  must-state facts {sum(stated)}/{len(stated)} (missing: {'; '.join(missing) or 'none'})")
        print(
            f"  'do not answer' sections {unanswered} · repeated sentences {row.repeated} · reference gaps"
            f" {row.gaps} · id figures {row.identifier_rows}"
        )
    for query in spec.get("irrelevant", []):
        row = run_query(corpus, query, lang="en", quick=quick)
        dev.irrelevant += 1
        dev.irrelevant_completed += row.status == "completed"
        print(f"irrelevant: {query!r}  [{row.status}] · {len(row.kept)} sources kept, {len(row.cited)} cited")
    print()


def _share(part: float, whole: float) -> str:
    return f"{part / whole:.0%}" if whole else "—"


def _mean(values: list[float]) -> str:
    return f"{sum(values) / len(values):.0%}" if values else "—"


def print_table(table: list[Totals]) -> None:
    """One row per collection (and its held-out queries apart), the tuned and held-out wholes, beside the
    plain BM25 baseline and the issue's goals."""
    dev, held = Totals(collection="all (not held out)"), Totals(collection="all held out")
    for t in table:
        (held if t.collection.endswith("held out") else dev).add(t)
    print(
        "| collection | recall | BM25 top-5 recall | precision | BM25 top-5 precision | facts ≥ 2/3 |"
        " facts | 'do not answer' | exit ≠ 0 | opens from defining doc | zh / en twin |"
        " answering → no_sources | irrelevant → completed | s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for t in [*table, dev, held]:
        zh = _mean([z for z, _ in t.twins])
        en = _mean([e for _, e in t.twins])
        print(
            f"| {t.collection} | {_mean(t.recalls)} | {_mean(t.baseline)}"
            f" | {_share(t.on_topic, t.cited)} ({t.on_topic}/{t.cited})"
            f" | {_share(t.baseline_on_topic, t.baseline_cited)}"
            f" | {sum(1 for f in t.facts if f >= 2)}/{len(t.facts)} | {sum(t.facts)}/{3 * len(t.facts)}"
            f" | {t.unanswered} | {sum(1 for e in t.exits if e)}/{len(t.exits)}"
            f" | {_share(t.opens, len(t.recalls))} | {zh} / {en} | {t.answering_no_sources}/{len(t.recalls)}"
            f" | {t.irrelevant_completed}/{t.irrelevant} | {t.seconds:.0f} |"
        )
    print(
        "goals: recall ≥ 80 % and above BM25 top-5 · precision ≥ 90 % · facts ≥ 2/3 on every topic ·"
        " 'do not answer' 0 · exit ≠ 0 none · answering → no_sources 0 · irrelevant → completed 0"
    )
    print(
        f"repeated sentences {dev.repeated + held.repeated} · reference gaps {dev.gaps + held.gaps} ·"
        f" identifier figure rows {dev.identifier_rows + held.identifier_rows} · figure rows rejected by the"
        f" page layer {dev.rejected_rows + held.rejected_rows}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("collections", nargs="+", type=Path, help="bench/collections/*.json")
    parser.add_argument("--corpus", type=Path, help="an unpacked docs folder (only with one collection)")
    parser.add_argument("--quick", action="store_true", help="3 facets, no verification, no parallel steps")
    parser.add_argument("--only", help="run only the queries whose text contains this")
    parser.add_argument("--keep", type=Path, help="copy every published report into this folder")
    args = parser.parse_args(argv)
    if args.corpus and len(args.collections) != 1:
        parser.error("--corpus goes with exactly one collection")
    table: list[Totals] = []
    for path in args.collections:
        spec = json.loads(path.read_text(encoding="utf-8"))
        if args.only:
            spec["queries"] = [q for q in spec["queries"] if args.only in q["query"]]
            spec["irrelevant"] = []
        corpus = args.corpus or build_corpus(spec)
        name = collection_name(spec)
        dev, held = Totals(collection=name), Totals(collection=f"{name} held out")
        bench_collection(spec, corpus, quick=args.quick, dev=dev, heldout=held, keep=args.keep)
        table += [t for t in (dev, held) if t.recalls or t.irrelevant]
    print_table(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
