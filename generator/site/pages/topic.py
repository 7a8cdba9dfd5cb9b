"""Topic pages: the landing page, report, analysis and sources list of one topic, rendered from its records
(generator/topic/workspace.py) through the `topic_*.md.j2` templates and written through generator/store.py.

Every page opens with its content (that is what search shows); the offline notice comes after it. Citations
link to the raw source pages (generator/site/pages/topic_raw.py); the report numbers its references 1…n in
the order it cites them, and every other page of the topic (landing page, analysis, sources list) uses the
same numbers: the cited sources first, in that order, then the sources stored but not cited.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import store
from ...cjk import run_on
from ...jsontypes import JSONObject, JSONValue
from ...kb.index import entry_record, save_entry
from ...llm.base import model_label
from ...store import KBPaths
from ...topic import workspace as wsp
from ...topic.aggregated import Aggregation
from ...topic.findings import Analysis, Catalog, Claim
from ...topic.report import Report, ReportFigure
from ...topic.state import TopicMeta
from ...topic.verify import MIN_DISTINCT_SOURCES
from ..templates import render_template
from ..text import Markdown, code_block, md_escape, md_inline
from .topic_charts import render_spec
from .topic_labels import labels
from .topic_raw import link_or_text, write_raw_pages
from .topic_standing import defined_by, inactive_labels, standing

_TAG_LIKE = re.compile(r"<[^>]{0,200}>")
MAX_ENTITIES = 10  # an entity table longer than this is a list of every capitalised word, not a finding
MIN_MENTIONS = 3  # an entity named fewer times is incidental
MIN_ENTITIES = 3  # fewer entities than this tell a reader nothing a table is needed for


@dataclass(frozen=True)
class TopicPage:
    """What every page of one topic shares: its meta, its tags and the labels in its language."""

    ws: wsp.Workspace
    meta: TopicMeta
    tags: list[str]
    keywords: list[str]
    t: dict[str, Markdown] = field(default_factory=dict)

    @property
    def offline(self) -> bool:
        return self.meta.provider == "offline"

    @property
    def model(self) -> Markdown:
        """The model that wrote the analysis, as a page names it (a file path shows as its file name)."""
        name = model_label(self.meta.model) if not self.offline else ""
        return md_inline(name, limit=120) if name else Markdown("")

    @property
    def topic(self) -> Markdown:
        return md_inline(self.meta.topic, limit=300)


@dataclass(frozen=True)
class PageText:
    """A rendered page: its frontmatter and its markdown body."""

    meta: JSONObject
    body: str


@dataclass(frozen=True)
class Row:
    """One source in a sources table."""

    n: int
    title: str
    page: Markdown
    source: str
    original: Markdown
    standing: Markdown = Markdown("")


@dataclass(frozen=True)
class SectionView:
    question: str
    claims: list[Markdown]
    considered: list[Markdown] = field(default_factory=list)


@dataclass(frozen=True)
class ClusterView:
    label: str
    confidence: float
    cites: list[Markdown]


@dataclass(frozen=True)
class FigureView:
    title: str
    markdown: Markdown


@dataclass(frozen=True)
class Reference:
    n: int
    title: str
    page: Markdown
    original: Markdown
    standing: Markdown = Markdown("")


def publish_topic(paths: KBPaths, slug: str) -> None:
    """Render every page of the topic `slug` from its saved records (the pipeline's `publish`)."""
    meta = wsp.load_meta(paths, slug)
    if meta is None:
        return
    ws = wsp.Workspace(paths, slug)
    keywords = wsp.topic_keywords(paths, slug, meta.topic)
    page = TopicPage(ws, meta, wsp.topic_tags(keywords, paths), keywords, labels(meta.options.lang))
    catalog = Catalog(wsp.list_raw_sources(paths, slug))
    report = wsp.load_record(ws.report_record, Report) if meta.status != "no_sources" else None
    report = report if report is not None and report.has_findings else None
    findings = wsp.load_record(ws.findings_file, Analysis)
    write_raw_pages(paths, slug, catalog.sources, provider=meta.provider)
    numbered = Catalog(topic_order(report, catalog))  # one numbering on every page of the topic
    ended_empty = meta.status == "no_sources"
    _write_or_remove(ws.report_file, _report_page(page, report, catalog) if report else None, ended_empty)
    analysis = _analysis_page(page, findings, numbered) if report and findings else None
    _write_or_remove(ws.analysis_file, analysis, ended_empty)
    _write_sources(page, numbered)
    _write_landing(page, report, numbered)


def topic_order(report: Report | None, catalog: Catalog) -> list[wsp.RawSource]:
    """The topic's sources in citation order: the report's references (numbered 1…n by first citation),
    then the stored sources it does not cite, in the order they were found."""
    cited = [catalog.by_id[sid] for sid in (report.references if report else []) if sid in catalog.by_id]
    ids = {s.id for s in cited}
    return [*cited, *(s for s in catalog.sources if s.id not in ids)]


def _write_or_remove(path: Path, page: PageText | None, remove: bool) -> None:
    """Write the page; without one, a topic that ended without sources loses the old page (never left
    stale), while any other run (a failed refresh, a workspace older than its records) keeps it."""
    if page is not None:
        store.write_page(path, page.meta, page.body)
    elif remove:
        path.unlink(missing_ok=True)


# --------------------------------------------------------------------------- citations


def cite(number: int | None, source_id: str, prefix: str = "../") -> Markdown:
    return Markdown(f"[\\[{number}\\]]({prefix}raw/{store.slugify(source_id)}.md)" if number else "")


def claim_markdown(
    claim: Claim,
    numbers: dict[str, int],
    prefix: str = "../",
    labels: dict[str, Markdown] | None = None,
    *,
    code: bool = True,
    omitted: str = "",
) -> Markdown:
    """A quoted claim with its citations; a citation of a document no longer in force carries its status. A
    quote from another document than the subject's that speaks of itself opens with that document's title, a
    quote that does not say what it answers with what it does (a field's name, the question it answers)."""
    marks = "".join(
        f"{cite(numbers.get(s), s, prefix)}{f' ({labels[s]})' if labels and s in labels else ''}"
        for s in claim.sources
    )
    said = f"**{md_inline(claim.attributed)}:** " if claim.attributed else ""  # whose "this proposal"
    said += f"*{md_inline(claim.context)}* — " if claim.context else ""  # a field's name, a question
    quoted = Markdown(f"{said}{md_escape(run_on(claim.text))} {marks}".strip())
    if claim.items:  # the list the passage introduces, as the source lists it
        quoted = Markdown(f"{quoted}\n\n{item_list(claim.items)}")
    if claim.items and claim.omitted and omitted:  # its first items only: the page says how many are left
        quoted = Markdown(f"{quoted}\n\n*{md_escape(omitted.format(count=claim.omitted))}*")
    return (
        Markdown(f"{quoted}\n\n{code_block(claim.code, claim.language or 'text')}")
        if code and claim.code
        else quoted
    )


def described(claim: Claim) -> str:
    """A page's description from its summary's first claim: a list's label says nothing alone ("Countdown
    Props:"), so it is read with the list's first item."""
    return " ".join([claim.text, claim.items[0].strip()]) if claim.items else claim.text


def summary_paragraphs(claims: Sequence[Markdown]) -> list[Markdown]:
    """A summary's claims as paragraphs: a run of sentences is one paragraph; a passage quoted with its
    example (or list) closes the paragraph it ends, so what follows it opens a new one."""
    paragraphs: list[list[str]] = [[]]
    for claim in claims:
        paragraphs[-1].append(claim)
        if "\n" in claim:  # an example or list after the passage: the fence closes on its own line
            paragraphs.append([])
    return [Markdown(" ".join(p)) for p in paragraphs if p]


def item_list(items: Sequence[str]) -> Markdown:
    """Quoted list items as a Markdown list: an item starting with two more spaces is nested a level deeper
    (four columns of indentation, as Python-Markdown wants)."""
    lines = []
    for item in items:
        depth = (len(item) - len(item.lstrip(" "))) // 2
        lines.append(f"{'    ' * depth}- {md_escape(item.strip())}")
    return Markdown("\n".join(lines))


# --------------------------------------------------------------------------- pages


def _frontmatter(page: TopicPage, title: str, description: str, **extra: JSONValue) -> JSONObject:
    return {
        "title": title,
        "description": one_line(description),
        "tags": page.tags,
        "keywords": page.keywords,  # original spellings: the knowledge index lists them as tag variants
        "generated": page.meta.updated_at[:10],
        "provider": page.meta.provider,
        "topic": page.meta.topic,
        "topic_id": page.meta.id,
        "lang": page.meta.options.lang,
        **extra,
    }


def one_line(text: str, limit: int = 200) -> str:
    """A frontmatter description: one line, tag-like runs removed, cut at a word boundary."""
    line = " ".join(_TAG_LIKE.sub(" ", text).split())
    if len(line) <= limit:
        return line
    return line[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _kind_page(
    page: TopicPage, kind: str, context: Mapping[str, object], description: str, **extra: JSONValue
) -> PageText:
    """The topic's `kind` page (report, analysis, sources) from topic_<kind>.md.j2, titled "<topic> — <kind>"."""
    title = f"{page.meta.topic} — {page.t[kind]}"
    shared = {"t": page.t, "offline": page.offline, "model": page.model, "title": title}
    body = render_template(page.ws.paths, f"topic_{kind}.md.j2", {**shared, **context})
    return PageText(_frontmatter(page, title, description, **extra), body)


def _report_page(page: TopicPage, report: Report, catalog: Catalog) -> PageText:
    numbers = report.number_of()
    marks = inactive_labels(catalog, page.t)
    references = [
        Reference(
            n,
            catalog.by_id[sid].title,
            Markdown(f"../raw/{sid}.md"),
            link_or_text(catalog.by_id[sid].url),
            standing(catalog.by_id[sid], page.t),
        )
        for n, sid in enumerate(report.references, 1)
        if sid in catalog.by_id
    ]
    context = {
        "summary": summary_paragraphs(
            [
                claim_markdown(c, numbers, labels=marks, omitted=page.t["omitted_items"])
                for c in report.summary
            ]
        ),
        "sections": [
            SectionView(
                s.question,
                [claim_markdown(c, numbers, labels=marks, omitted=page.t["omitted_items"]) for c in s.claims],
            )
            for s in report.sections
        ],
        "figures": [view for f in report.figures if (view := _figure(page, f, numbers)) is not None],
        "references": references,
        "defined_by": _defined_by(report, catalog, page.t),
        "quotes_note": page.t["quotes_original"]
        if quotes_in_another_language(report, page.meta.options.lang)
        else "",
        "unverified": _unverified_note(page, report),
    }
    return _kind_page(
        page,
        "report",
        context,
        described(report.summary[0]) if report.summary else page.meta.topic,
        sources_cited=len(report.references),
        unresolved_citations=report.unresolved,
        unsupported_claims=report.unsupported,
        sub_questions=[s.question for s in report.sections],
    )


_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def quotes_in_another_language(report: Report, lang: str) -> bool:
    """Whether the report's quotes are mostly in another language than the one deepkb writes it in (English
    proposals quoted in a Chinese report): the page then says, in one line, that quotes stay as written. A
    list is read with its items: a props table's rows under "Countdown Props:" are Chinese."""
    claims = [*report.summary, *(c for s in report.sections for c in s.claims)]
    text = " ".join(part for c in claims for part in (c.text, *c.items))
    han, latin = len(_HAN.findall(text)), len(_LATIN_WORD.findall(text))
    return han < latin if lang == "zh" else han > latin


def _defined_by(report: Report, catalog: Catalog, t: dict[str, Markdown]) -> Markdown:
    """The summary's defining document with its standing: reference 1, the source of its first sentence."""
    first = report.summary[0].sources[0] if report.summary and report.summary[0].sources else ""
    if first not in catalog.by_id or report.references[:1] != [first]:
        return Markdown("")
    return defined_by(cite(1, first), catalog.by_id[first], t)


def _figure(page: TopicPage, figure: ReportFigure, numbers: dict[str, int]) -> FigureView | None:
    headers = (page.t["figure"], page.t["value"], page.t["source"])
    table = render_spec(figure.spec, lambda sid: cite(numbers.get(sid), sid), headers=headers)
    return None if table is None else FigureView(figure.title, table)


def _analysis_page(page: TopicPage, analysis: Analysis, catalog: Catalog) -> PageText:
    numbers = catalog.number_of
    marks = inactive_labels(catalog, page.t)
    sections = [
        SectionView(
            s.question,
            [claim_markdown(c, numbers, labels=marks, code=False) for c in s.claims],
            [cite(numbers.get(i), i) for i in s.considered if i in numbers],
        )
        for s in analysis.sections
    ]
    aggregated = wsp.load_record(page.ws.aggregated_file, Aggregation)
    clusters = [
        ClusterView(c.label, c.confidence, [cite(numbers.get(i), i) for i in c.items if i in numbers])
        for c in (aggregated.clusters if aggregated else [])
    ]
    lead = page.t["analysis_lead"].format(topic=page.topic, sources=len(catalog.sources))
    # the aggregation's and the analyst's notes are the operator's: the terminal and _meta.json have them
    context = {
        "lead": Markdown(lead),
        "sections": sections,
        "clusters": clusters,
        "entities": useful_entities(aggregated.entities if aggregated else []),
    }
    return _kind_page(
        page,
        "analysis",
        context,
        f"Findings per sub-question for {page.meta.topic}",
        method=analysis.method,
        unresolved_citations=analysis.unresolved,
        unsupported_claims=analysis.unsupported,
    )


def useful_entities(entities: list[Any]) -> list[Any]:
    """The entities worth a table: the most mentioned ones, named at least MIN_MENTIONS times, at most
    MAX_ENTITIES; none when fewer than MIN_ENTITIES qualify."""
    named = sorted((e for e in entities if e.mentions >= MIN_MENTIONS), key=lambda e: (-e.mentions, e.name))
    return named[:MAX_ENTITIES] if len(named) >= MIN_ENTITIES else []


def _source_rows(catalog: Catalog, t: dict[str, Markdown]) -> list[Row]:
    return [
        Row(n, s.title, Markdown(s.page), s.source, link_or_text(s.url), standing(s, t))
        for n, s in enumerate(catalog.sources, 1)
    ]


def _write_sources(page: TopicPage, catalog: Catalog) -> None:
    rows = _source_rows(catalog, page.t)
    lead = page.t["sources_lead"].format(topic=page.topic, count=len(rows))
    context = {"lead": Markdown(lead), "sources": rows}
    sources = _kind_page(page, "sources", context, f"{len(rows)} sources stored for {page.meta.topic}")
    store.write_page(page.ws.sources_file, sources.meta, sources.body)


def _write_landing(page: TopicPage, report: Report | None, catalog: Catalog) -> None:
    """The topic's landing page: the summary first, then its status, contents and sources."""
    meta = page.meta
    numbers = catalog.number_of  # the report's numbers: its references open the catalog, in order
    marks = inactive_labels(catalog, page.t)
    # the landing lists the summary's sentences without code: a lead-in without the example it introduces
    # ("…它接收 store 作为唯一参数：") is left out, unless it is all the summary has
    said = (
        [
            c
            for c in report.summary
            if not (c.code and c.text.endswith((":", "："))) or len(report.summary) == 1
        ]
        if report
        else []
    )
    omitted = page.t["omitted_items"]
    # the landing lists the summary's claims: a table's rows and their note stand inside its label's item
    summary = [
        Markdown(
            _INSIDE_ITEM.sub(
                "\n    ", claim_markdown(c, numbers, prefix="", labels=marks, code=False, omitted=omitted)
            )
        )
        for c in said
    ]
    lead, description = _landing_lead(page, report)
    body = render_template(
        page.ws.paths,
        "topic_index.md.j2",
        {
            "t": page.t,
            "offline": page.offline and bool(summary),
            "title": meta.topic,
            "lead": lead,
            "summary": summary,
            "status": _status_label(page),
            "completed": meta.progress.completed_tasks,
            "total": meta.progress.total_tasks,
            "updated": meta.updated_at,
            "has_report": page.ws.report_file.is_file(),
            "has_analysis": page.ws.analysis_file.is_file(),
            "sources": _source_rows(catalog, page.t),
        },
    )
    front = _frontmatter(
        page, meta.topic, description, status=meta.status, sources_count=len(catalog.sources)
    )
    store.write_page(page.ws.index_file, front, body)
    save_entry(page.ws.root, entry_record("topic", front))


_INSIDE_ITEM = re.compile(r"\n(?=[^\n])")


def _status_label(page: TopicPage) -> Markdown:
    """The run's status in the reader's words; an unverified report says how many sources answered it."""
    meta = page.meta
    label = page.t.get(f"run_{meta.status}")
    if label is None:
        return md_inline(meta.status)
    return Markdown(label.replace("{cited}", str(meta.verification.distinct_sources)))


def _unverified_note(page: TopicPage, report: Report) -> Markdown:
    """Why a published report did not pass verification, in the reader's words ('' when it passed): the
    report says so itself, not only its landing page, since a search or a link lands a reader on it. The
    questions without a cited answer are named when the report shows them as sections; those it leaves out
    (a heading borrowed from a document's outline under which nothing was quotable: "Toast 提示：普通提示")
    are counted, never named: the reader would look for them in vain."""
    meta = page.meta
    if meta.status != "unverified":
        return Markdown("")
    check, t = meta.verification, page.t
    reasons = []
    if check.distinct_sources < MIN_DISTINCT_SOURCES:
        reasons.append(
            t["unverified_sources"].format(cited=check.distinct_sources, want=MIN_DISTINCT_SOURCES)
        )
    shown = {section.question for section in report.sections}
    named = [q for q in check.uncovered if q in shown]
    if named:
        questions = t["question_separator"].join(md_inline(q, limit=200) for q in named)
        reasons.append(t["unverified_uncovered"].format(questions=questions))
    if len(named) < len(check.uncovered):
        reasons.append(t["unverified_unshown"].format(count=len(check.uncovered) - len(named)))
    if check.unresolved:
        reasons.append(t["unverified_unresolved"].format(count=check.unresolved))
    return Markdown(t["unverified_note"].format(reasons=t["list_separator"].join(reasons)))


def _landing_lead(page: TopicPage, report: Report | None) -> tuple[Markdown | None, str]:
    """The landing page's first paragraph when there is no summary to open with, and its description."""
    meta = page.meta
    if report is not None and report.summary:
        return None, described(report.summary[0])
    if meta.status == "no_sources":
        where = ", ".join(meta.options.sources)
        text = page.t["no_sources_lead"].format(
            topic=page.topic, seen=meta.stats.raw_items, where=md_inline(where)
        )
        plain = f"No usable source was found for {meta.topic}; no report is published."
        return Markdown(text), plain
    text = page.t["running_lead"].format(topic=page.topic, status=md_inline(meta.status))
    return Markdown(text), f"Research on {meta.topic} ({meta.status})"
