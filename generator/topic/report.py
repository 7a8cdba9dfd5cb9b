"""REPORT: the report as a record, built from the findings: a summary, one section per sub-question, the
figures, and the references numbered 1…n in the order they are first cited.

A citation naming no stored source is dropped and counted, and a claim left without one is dropped, so the
references have no gaps by construction (tests/report_quality.py measures that anyway).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import ClassVar

from pydantic import ValidationError

from ..jsontypes import StoredObject
from ..retrieval.scoring import tokens
from ..text.pointers import is_question
from ..text.sentences import split_sentences
from .findings import Analysis, Catalog, Claim
from .plan import Plan, Step
from .processing import ChartSpec
from .sentences import (
    code_examples,
    code_language,
    items_read_alone,
    listed_items,
    table_rows_of,
    text_blocks,
)
from .standing import inactive, proposals_only
from .table_rows import central_rows, quote_limit

SUMMARY_SENTENCES = 5
# the sections whose lead a summary states first, after the definition: the question as asked, how it works
ASKED_FIRST = ("topic", "how")
SUMMARY_ROWS = 3  # a table opening a summary: its most central rows, the rest stand in the section quoting it


@dataclass
class ReportSection:
    question: str
    claims: list[Claim] = field(default_factory=list)


@dataclass
class ReportFigure:
    title: str
    spec: StoredObject  # a validated processing.ChartSpec


@dataclass
class Report:
    topic: str
    summary: list[Claim]
    sections: list[ReportSection]
    figures: list[ReportFigure]
    references: list[str]  # raw source ids: reference n is references[n - 1]
    unresolved: int = 0  # citations dropped because they named no stored source
    unsupported: int = 0  # claims dropped because none of their citations resolved
    method: str = "extractive"
    VERSION: ClassVar[int] = 1  # `processed/report.json`: bump when the shape changes
    version: int = VERSION

    @property
    def has_findings(self) -> bool:
        return any(s.claims for s in self.sections)

    def number_of(self) -> dict[str, int]:
        return {sid: n for n, sid in enumerate(self.references, 1)}

    def covered(self) -> list[str]:
        """The sub-questions that have at least one cited claim."""
        return [s.question for s in self.sections if any(c.sources for c in s.claims)]


def build_report(plan: Plan, analysis: Analysis, catalog: Catalog) -> Report:
    """The report of `analysis`, with every citation resolved against `catalog` and numbered."""
    report = Report(
        topic=plan.topic,
        summary=[],
        sections=[],
        figures=[],
        references=[],
        unresolved=analysis.unresolved,
        unsupported=analysis.unsupported,
        method=analysis.method,
    )
    borrowed = {s.question for s in plan.steps if s.facet == "section"}
    resolved = [
        (
            section.question,
            [_central(c, catalog, plan.topic) for c in _resolved(section.claims, catalog, report)],
        )
        for section in analysis.sections
    ]
    # the topic asked as written ("how a beacon chain light client syncs…") is answered by the sections of
    # its top document asked after it ("Light client initialization", "Light client state updates"): left
    # empty because they quote its answer part by part, it is no question the stored sources do not answer
    in_parts = any(claims for question, claims in resolved if question in borrowed)
    asked = {s.question for s in plan.steps if s.facet == "topic"} if in_parts else set()
    for question, claims in resolved:
        if claims or question not in borrowed | asked:
            report.sections.append(ReportSection(question, claims))
        # a heading borrowed from a top document's outline ("内置常量") under which nothing quotable is stored
        # (a symbol listing) asks nothing the reader asked: left out, not printed as "not answered"
    # a summary leads with what is in force, unless proposals not in force are all the subject has
    only = proposals_only(catalog.sources, analysis.defining)
    in_force = [
        ReportSection(s.question, [c for c in s.claims if only or not _only_inactive(c, catalog)])
        for s in report.sections
    ]
    # a definition quoted with the list or example its summary introduces opens the "what" section; the
    # summary's run of sentences opens with the sections' leads instead
    opening = [analysis.definition] if analysis.definition and _leads(analysis.definition) else []
    # …and says how it works in its design section's own words, when the definition does not
    opening += [analysis.mechanism] if opening and analysis.mechanism and _leads(analysis.mechanism) else []
    first = {plan.topic} | {s.question for s in plan.steps if s.facet in ASKED_FIRST}
    own = {*analysis.defining, *(analysis.definition.sources if analysis.definition else [])}
    report.summary = leads(
        in_force,
        opening=_resolved(opening, catalog, report),
        asked=first,
        defining=own,
        asking=_asking(plan.topic, own, catalog),
    )
    if report.summary and not own.intersection(sid for c in report.summary for sid in c.sources):
        # no summary sentence quotes the defining document: it opens with that document's definition, its list
        # with it ("Hertz 支持优雅退出，优雅退出过程如下：" and the steps), never with a page that only touches it
        report.summary = [*_resolved(_defining_opening(analysis), catalog, report), *report.summary]
    if not report.summary and analysis.definition:
        # a subject its defining document only shows ("…displays them at the end of the session:" and the
        # test it runs), with no sentence of its own anywhere: the summary is that lead-in with its example
        report.summary = _resolved([analysis.definition], catalog, report)[:1]
    if not report.summary:
        report.summary = table_lead(in_force, analysis.defining)
    if not report.summary:
        report.summary = leads([ReportSection(s.question, said_before_shown(s.claims)) for s in in_force])
    if not report.summary:
        # every passage a lead-in with its example ("GORM允许使用 Preload通过多个SQL中来直接加载关系, 例如：" and the
        # Preload calls): the first of them, whole, never "the stored sources do not answer" above sections
        # that answer (a list leaning on its lead-in is no summary: `table_lead`)
        report.summary = next(([c] for s in in_force for c in s.claims if c.code), [])
    report.summary = shown(report.summary, analysis.definition, catalog, report.sections)
    report.summary = [_in_language(_told(c, catalog), catalog) for c in report.summary]
    for told in report.sections:
        told.claims = [_in_language(_told(c, catalog), catalog) for c in told.claims]
    report.figures = _figures(plan, catalog)
    cited = [sid for c in report.summary for sid in c.sources]
    cited += [sid for s in report.sections for c in s.claims for sid in c.sources]
    cited += [row.source for f in report.figures for row in ChartSpec.model_validate(f.spec).rows]
    report.references = list(dict.fromkeys(cited))
    return report


def shown(
    summary: list[Claim], definition: Claim | None, catalog: Catalog, sections: list[ReportSection]
) -> list[Claim]:
    """The summary with the first example the defining document shows, quoted with the paragraph that
    introduces it: the API or setting a page is about is often named only there ("Vuex 的插件就是一个函数，它
    接收 store 作为唯一参数：" and the plugin; "您只需一条命令即可将网站部署到服务器上。" and `$ hexo
    deploy`). It takes the place of that paragraph, or of its opening sentences, when the summary already
    quotes them, else closes the summary; left out when the definition is itself shown by an example or a section quotes that code."""
    source = catalog.by_id.get(definition.sources[0]) if definition and definition.sources else None
    if not summary or source is None or definition is None or definition.code:
        return summary
    example = next(iter(code_examples(_from_definition(source.text, definition.text), stated=True)), None)
    if example is None or any(c.code.strip() == example.code.strip() for s in sections for c in s.claims):
        return summary
    claim = Claim(example.text, [source.id], definition.score, example.code)
    # the paragraph introducing it may open with a summary sentence ("Vuex 的 store 接受 plugins 选项，…"):
    # quoted whole with its example in that sentence's place, said once
    at = next((n for n, c in enumerate(summary) if example.text.startswith(c.text)), None)
    if at is not None:
        return [*summary[:at], claim, *summary[at + 1 :]]
    # a summary passage closing on that paragraph ("…在 Go 中有多种方式实现这一点。我们可以使用 fvbock/endless
    # 来替换默认的 ListenAndServe。…"): it keeps what it says before it, the example its paragraph, said once
    for n, said in enumerate(summary):
        kept = _before(said.text, example.text) if source.id in said.sources else None
        if kept:
            return [*summary[:n], replace(said, text=kept), claim, *summary[n + 1 :]]
    return [*summary, claim]


def _before(text: str, closing: str) -> str | None:
    """`text` as written up to the run of its last sentences that is `closing` (spaces aside); None when it
    does not close on whole sentences that are it, or is nothing else."""
    said = split_sentences(text)
    wanted = "".join(closing.split())
    if not any("".join("".join(said[k:]).split()) == wanted for k in range(1, len(said))):
        return None
    cut, left = len(text), len(wanted)
    while left:  # back over the closing sentences' characters, spaces aside
        cut -= 1
        left -= not text[cut].isspace()
    return text[:cut].rstrip() or None


_HEADING = re.compile(r"^(#{1,6})\s")


def _from_definition(text: str, definition: str) -> str:
    """The part of a document a definition quoted from it speaks for: from the paragraph that opens with it
    to the end of the document when it stands in the document's opening or first section (the page is about
    the subject), else to the end of its section (a FAQ's answer speaks for its subject, the FAQ's other
    answers do not). '' when it is not found."""
    blocks = text_blocks(text)
    start = "".join(definition.split())[:16]  # spaces aside: sentences are quoted joined by one
    at = next((n for n, b in enumerate(blocks) if start and start in "".join(b.split())), None)
    if at is None:
        return ""
    levels = [(n, len(m.group(1))) for n, b in enumerate(blocks) if (m := _HEADING.match(b))]
    under = [level for n, level in levels if n < at and level > 1]
    if (
        len(under) <= 1
    ):  # the document's opening, or its first section ("## Summary"): the page is its subject
        return "\n\n".join(blocks[at:])
    end = next((n for n, level in levels if n > at and level <= under[-1]), len(blocks))
    return "\n\n".join(blocks[at:end])


def _only_inactive(claim: Claim, catalog: Catalog) -> bool:
    """A claim only documents no longer in force support (a rejected proposal): never a summary lead."""
    return all(inactive(catalog.by_id[sid]) for sid in claim.sources if sid in catalog.by_id)


def _resolved(claims: list[Claim], catalog: Catalog, report: Report) -> list[Claim]:
    kept = []
    for claim in claims:
        sources = [sid for sid in claim.sources if sid in catalog.by_id]
        report.unresolved += len(claim.sources) - len(sources)
        if sources:
            kept.append(replace(claim, sources=sources))
        else:
            report.unsupported += 1
    return kept


def leads(
    sections: list[ReportSection],
    limit: int = SUMMARY_SENTENCES,
    opening: list[Claim] | None = None,
    asked: Collection[str] = (),
    defining: Collection[str] = (),
    asking: Collection[str] = (),
) -> list[Claim]:
    """The summary: the definition taken from the defining document and how it works there (`opening`, always
    stated), then the lead claim of each section, those of the sections `asked` quoting a `defining` document
    first (the question as the reader wrote it and how the subject works, in its own document's words:
    F3's "It does so by leveraging GossiPBFT…" before the consensus it extends), each group the
    best-answering first, until it holds about `limit` sentences (the summary is the one place a passage
    may repeat). Given the words the topic `asking` is made of, the lead of a section not `asked` (why, limits,
    state) naming none of them is no summary sentence: "请注意，修改系统参数可能会影响搜索功能的性能…", quoted as a limit
    of Apollo's 灰度发布, warns of something else."""
    # a passage introducing a code example or a list ends on its lead-in ("…like this:"): not a summary
    # sentence
    # sentence; nor is one quoted from another document than the subject's speaking of "this proposal"
    first = [
        (s.question in asked and bool(set(c.sources) & set(defining)), c)
        for s in sections
        if (c := next((c for c in s.claims if _leads(c)), None))
        and (s.question in asked or not asking or bool(set(asking) & set(tokens(c.text))))
    ]
    ranked = [c for _, c in sorted(first, key=lambda pair: (not pair[0], -pair[1].score))]
    said = {c.text for c in opening or []}
    summary: list[Claim] = list(opening or [])  # the definition and how it works are always stated
    for claim in (c for c in ranked if c.text not in said):
        if summary and sum(len(split_sentences(c.text)) for c in summary) >= limit:
            break  # passages are whole paragraphs: the summary stops at about `limit` sentences
        summary.append(claim)
    return summary


def _asking(topic: str, defining: Collection[str], catalog: Catalog) -> set[str]:
    """The words naming what the topic asks about: its own and its defining documents' titles' ("procedure" of
    "Widget Selection Procedure", which its sentences call "The procedure")."""
    titles = " ".join(catalog.by_id[sid].title for sid in defining if sid in catalog.by_id)
    return topic_words(topic) | topic_words(titles)


def topic_words(topic: str) -> set[str]:
    """The words of what a topic asks ("apollo", "灰度", "发布" of "Apollo 的灰度发布怎么用？"); a word of one letter
    or one Han character names too much."""
    return {w for w in tokens(topic) if len(w) > 1}


def table_lead(sections: list[ReportSection], defining: list[str]) -> list[Claim]:
    """The summary of a subject whose sections quote nothing but tables (a component page of props tables:
    Naive UI's 倒计时 had only "Countdown Props:" and its rows): the best table's label and most central rows (`_central`), from
    the defining document when one quotes a table. Each row names what it is about, so it reads alone."""
    tables = [
        c
        for s in sections
        for c in s.claims
        if c.items and not c.attributed and items_read_alone(c.text, c.items)
    ]
    best = max(tables, key=lambda c: (bool(set(c.sources) & set(defining)), c.score), default=None)
    return [replace(best, items=best.items[:SUMMARY_ROWS])] if best else []


def _central(claim: Claim, catalog: Catalog, subject: str) -> Claim:
    """A table's rows quoted by the rows that matter, the most central first (`table_rows`): the analyst quoted
    the first rows that fit one passage, and an alphabetical props table left 穿梭框's value and 图片预览's
    images and visible among the rows not listed. Rows chosen from anywhere in the table are kept."""
    source = catalog.by_id.get(claim.sources[0]) if claim.items else None
    if source is None or not items_read_alone(claim.text, claim.items):
        return claim
    rows = table_rows_of(source.text, claim.items)
    if not rows or rows[: len(claim.items)] != tuple(item.strip() for item in claim.items):
        return claim  # rows the analyst chose for the question they answer ("sorter：…" for 怎么排序) stay
    limit = quote_limit(claim.text, claim.items)
    return replace(claim, items=central_rows(rows, source.text, subject, claim.text, limit))


def _told(claim: Claim, catalog: Catalog) -> Claim:
    """A list quoted from its first items says how many it leaves out (Naive UI's "Split Props:" quoted 10
    of its 16 rows as if they were all)."""
    source = catalog.by_id.get(claim.sources[0]) if claim.items else None
    whole = listed_items(source.text, claim.items) if source is not None else 0
    return replace(claim, omitted=max(0, whole - len(claim.items)))


def _in_language(claim: Claim, catalog: Catalog) -> Claim:
    """A quoted example in the language its source's fence declares: gin's middleware example fenced ```go is
    quoted as Go, not as plain text."""
    stored = (catalog.by_id[sid].text for sid in claim.sources if sid in catalog.by_id) if claim.code else ()
    language = next((found for text in stored if (found := code_language(text, claim.code))), "")
    return replace(claim, language=language) if language else claim


def said_before_shown(claims: list[Claim]) -> list[Claim]:
    """The passages introducing a code example, each as the sentences it says before its lead-in ("在
    NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。" before "例如：" and the code): what a summary
    of a subject its sources only show at work can lead with."""
    found = []
    for claim in claims:
        said = split_sentences(claim.text) if claim.code and not claim.items else []
        if said and said[-1].rstrip().endswith((":", "：")):
            said.pop()
        if said:
            found.append(replace(claim, text=" ".join(said), code=""))
    return found


def _defining_opening(analysis: Analysis) -> list[Claim]:
    """The definition, when it is quoted from a document defining the topic; [] otherwise."""
    definition = analysis.definition
    return [definition] if definition and set(definition.sources) & set(analysis.defining) else []


def _leads(claim: Claim) -> bool:
    """Whether a claim can stand in the summary's run of statements: no code, list, attribution or header, and
    not opening on a question or a prompt to the author (a proposal template's, kept under "## Specification":
    "How will we solve the problem? Describe in detail…")."""
    said = split_sentences(claim.text)
    return (
        not claim.code
        and not claim.items
        and not claim.attributed
        and not claim.header
        and not claim.context
        and not (said and (is_question(said[0]) or _PROMPT.match(said[0])))
    )


# a proposal template's prompt to its author, kept in a document ("Explain why you submitted this proposal
# specifically over alternative solutions.", "Describe the impetus for this change."): no statement of the subject
_PROMPT = re.compile(
    r"^(?:explain|describe|summari[sz]e|discuss|outline|elaborate|justify|express\s+here)\b", re.IGNORECASE
)


def refused_figures(plan: Plan) -> list[str]:
    """Titles of processing steps whose stored spec no longer validates (e.g. a NaN value in a plan.json
    written before the schema refused non-finite numbers): the report leaves them out."""
    return [
        step.title
        for step in plan.steps
        if step.step_type == "processing" and step.result and _stored_spec(step) is None
    ]


def _stored_spec(step: Step) -> ChartSpec | None:
    if step.step_type != "processing" or not step.result:
        return None
    try:
        return ChartSpec.model_validate(step.result)
    except ValidationError:
        return None


def _figures(plan: Plan, catalog: Catalog) -> list[ReportFigure]:
    """The processing steps' validated specs, keeping only rows whose source is still stored."""
    figures = []
    for step in plan.steps:
        spec = _stored_spec(step)
        if spec is None:
            continue
        rows = [r for r in spec.rows if r.source in catalog.by_id]
        if rows:
            figures.append(ReportFigure(step.title, spec.model_copy(update={"rows": rows}).model_dump()))
    return figures
