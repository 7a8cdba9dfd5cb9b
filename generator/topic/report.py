"""REPORT: write `processed/analysis.md`, `output/report.md`, the landing `index.md` and `sources.md`.

Every claim is escaped text followed by citations `[n]` that link to the raw source's page. The writer checks
each citation against the raw sources on disk before the page is saved; one that does not resolve is removed
and counted in the page's frontmatter (`unresolved_citations`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..site.templates import render_template
from ..site.text import Markdown, md_escape
from .analyze import Analysis, Catalog, Claim
from .plan import Plan
from .processing import render_spec
from .state import TopicMeta
from .workspace import Workspace, link_or_text, write_markdown

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "report": "Report",
        "analysis": "Analysis",
        "sources": "Sources",
        "summary": "Summary",
        "references": "References",
        "figures": "Figures",
        "themes": "Themes",
        "entities": "Entities",
        "notes": "Notes",
        "no_findings": "No stored source addresses this question yet.",
        "considered": "Sources considered",
        "confidence": "confidence",
        "name": "Name",
        "type": "Type",
        "mentions": "Mentions",
        "title": "Title",
        "source": "Source",
        "original": "Original",
        "value": "Value",
        "figure": "Figure",
        "status": "Status",
        "progress": "Steps",
        "updated": "Updated",
        "contents": "Contents",
        "no_sources": "No sources stored yet.",
        "offline_title": "Produced offline",
        "offline_note": "Written without a language model: every sentence is quoted from the cited source.",
    },
    "zh": {
        "report": "报告",
        "analysis": "分析",
        "sources": "来源",
        "summary": "摘要",
        "references": "参考文献",
        "figures": "数据",
        "themes": "主题",
        "entities": "实体",
        "notes": "说明",
        "no_findings": "尚无已存储的来源回答此问题。",
        "considered": "参考的来源",
        "confidence": "置信度",
        "name": "名称",
        "type": "类型",
        "mentions": "提及次数",
        "title": "标题",
        "source": "来源",
        "original": "原始链接",
        "value": "数值",
        "figure": "指标",
        "status": "状态",
        "progress": "步骤",
        "updated": "更新",
        "contents": "目录",
        "no_sources": "尚未存储来源。",
        "offline_title": "离线生成",
        "offline_note": "未使用语言模型撰写：每个句子都摘自所引用的来源。",
    },
}

_CITATION = re.compile(r"\[\\\[(\d+)\\\]\]\(((?:\.\./)?raw/([A-Za-z0-9_.-]+)\.md)\)")


def strings(lang: str) -> dict[str, str]:
    return STRINGS.get(lang, STRINGS["en"])


@dataclass
class PageContext:
    """What every topic page needs: the workspace, its meta and plan, and the citable sources."""

    ws: Workspace
    meta: TopicMeta
    plan: Plan
    catalog: Catalog
    offline: bool
    tags: list[str]
    keywords: list[str] = field(default_factory=list)  # the key phrases behind the tags, as written

    @property
    def t(self) -> dict[str, Markdown]:
        """deepkb's own labels in the topic's language: trusted text, output as it is."""
        return {key: Markdown(value) for key, value in strings(self.meta.options.lang).items()}


def cite(catalog: Catalog, source_id: str, prefix: str = "../") -> Markdown:
    number = catalog.number_of.get(source_id)
    return Markdown(f"[\\[{number}\\]]({prefix}raw/{source_id}.md)" if number else "")


def render_claim(claim: Claim, catalog: Catalog) -> Markdown:
    return Markdown(f"{md_escape(claim.text)} {''.join(cite(catalog, s) for s in claim.sources)}".strip())


def check_citations(text: str, ws: Workspace, catalog: Catalog) -> tuple[str, int]:
    """Remove every citation whose raw source page is missing or whose number does not match; count them."""
    unresolved = 0

    def keep(match: re.Match[str]) -> str:
        nonlocal unresolved
        number, source_id = int(match.group(1)), match.group(3)
        if catalog.number_of.get(source_id) == number and (ws.raw_dir / f"{source_id}.md").is_file():
            return match.group(0)
        unresolved += 1
        return ""

    return _CITATION.sub(keep, text), unresolved


def citations_in(text: str) -> list[tuple[int, str]]:
    """(number, raw source id) of every citation link in a page."""
    return [(int(m.group(1)), m.group(3)) for m in _CITATION.finditer(text)]


# --------------------------------------------------------------------------- pages


_TAG_LIKE = re.compile(r"<[^>]{0,200}>")


def one_line(text: str, limit: int = 200) -> str:
    """A frontmatter description: one line, tag-like runs removed (the site also sanitizes frontmatter),
    cut at a word boundary with an ellipsis when it is too long."""
    line = " ".join(_TAG_LIKE.sub(" ", text).split())
    if len(line) <= limit:
        return line
    return line[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _frontmatter(ctx: PageContext, title: str, description: str, **extra: Any) -> dict[str, Any]:
    return {
        "title": title,
        "description": one_line(description),
        "tags": ctx.tags,
        "keywords": ctx.keywords,  # original spellings: the knowledge index lists them as tag variants
        "generated": ctx.meta.updated_at[:10],
        "provider": ctx.meta.provider,
        "topic": ctx.meta.topic,
        "topic_id": ctx.meta.id,
        "lang": ctx.meta.options.lang,
        **extra,
    }


def _figures(ctx: PageContext) -> list[dict[str, str]]:
    t = ctx.t
    return [
        {
            "title": s.title,
            "markdown": Markdown(
                render_spec(
                    s.result,
                    lambda sid: cite(ctx.catalog, sid),
                    headers=(t["figure"], t["value"], t["source"]),
                )
            ),
        }
        for s in ctx.plan.steps
        if s.step_type == "processing" and s.result
    ]


def write_analysis(ctx: PageContext, analysis: Analysis, aggregated: dict[str, Any]) -> int:
    """`processed/analysis.md`; returns how many citations did not resolve."""
    sections = [
        {
            "question": s.question,
            "claims": [render_claim(c, ctx.catalog) for c in s.claims],
            "considered": [cite(ctx.catalog, i) for i in s.considered],
        }
        for s in analysis.sections
    ]
    clusters = [
        {**c, "cites": [cite(ctx.catalog, i) for i in c.get("items", [])]}
        for c in aggregated.get("clusters", [])
    ]
    body = render_template(
        "topic_analysis.md.j2",
        {
            "t": ctx.t,
            "offline": ctx.offline,
            "topic": ctx.meta.topic,
            "sections": sections,
            "figures": _figures(ctx),
            "clusters": clusters,
            "entities": aggregated.get("entities", []),
            "aggregation_note": aggregated.get("note", ""),
            "notes": analysis.notes,
        },
    )
    body, broken = check_citations(body, ctx.ws, ctx.catalog)
    unresolved = analysis.unresolved + broken
    meta = _frontmatter(
        ctx,
        f"{ctx.t['analysis']}: {ctx.meta.topic}",
        f"{ctx.t['analysis']}: {ctx.meta.topic}",
        method=analysis.method,
        unresolved_citations=unresolved,
        unsupported_claims=analysis.unsupported,
    )
    write_markdown(ctx.ws.analysis_file, meta, body)
    return unresolved


def write_report(ctx: PageContext, analysis: Analysis) -> int:
    """`output/report.md`; returns how many citations did not resolve."""
    sections = [
        {"question": s.question, "claims": [render_claim(c, ctx.catalog) for c in s.claims]}
        for s in analysis.sections
    ]
    leads = _leads(analysis)
    cited = analysis.cited()
    references = [
        {
            "n": ctx.catalog.number_of[i],
            "title": ctx.catalog.by_id[i].title,
            "page": Markdown(f"../raw/{i}.md"),
            "original": link_or_text(ctx.catalog.by_id[i].url),
        }
        for i in sorted(cited, key=lambda i: ctx.catalog.number_of[i])
    ]
    body = render_template(
        "topic_report.md.j2",
        {
            "t": ctx.t,
            "offline": ctx.offline,
            "topic": ctx.meta.topic,
            "summary": [render_claim(c, ctx.catalog) for c in leads],
            "sections": sections,
            "figures": _figures(ctx),
            "references": references,
        },
    )
    body, broken = check_citations(body, ctx.ws, ctx.catalog)
    description = leads[0].text if leads else ctx.meta.topic
    unresolved = analysis.unresolved + broken
    meta = _frontmatter(
        ctx,
        ctx.meta.topic,
        description,
        sources_cited=len(cited),
        unresolved_citations=unresolved,
        unsupported_claims=analysis.unsupported,
        sub_questions=[s.question for s in analysis.sections],
    )
    write_markdown(ctx.ws.report_file, meta, body)
    return unresolved


def _leads(analysis: Analysis, limit: int = 5) -> list[Claim]:
    """The summary: the best not-yet-used claim of each section, no sentence twice."""
    leads: list[Claim] = []
    for section in analysis.sections:
        fresh = next((c for c in section.claims if all(c.text != lead.text for lead in leads)), None)
        if fresh:
            leads.append(fresh)
    return leads[:limit]


def _source_rows(ctx: PageContext) -> list[dict[str, Any]]:
    return [
        {
            "n": n,
            "title": s.title,
            "page": Markdown(s.page),
            "source": s.source,
            "original": link_or_text(s.url),
        }
        for n, s in enumerate(ctx.catalog.sources, 1)
    ]


def write_landing(ctx: PageContext, findings: Analysis | None) -> None:
    """The topic's landing page (status, summary, links) and its full sources list."""
    summary = summary_lines(findings, ctx.catalog)
    rows = _source_rows(ctx)
    common = {"t": ctx.t, "offline": ctx.offline, "topic": ctx.meta.topic, "sources": rows}
    write_markdown(
        ctx.ws.sources_file,
        _frontmatter(ctx, f"{ctx.t['sources']}: {ctx.meta.topic}", f"{len(rows)} raw sources"),
        render_template("topic_sources.md.j2", common),
    )
    body = render_template(
        "topic_index.md.j2",
        {
            **common,
            "status": ctx.meta.status,
            "completed": ctx.meta.progress.completed_tasks,
            "total": ctx.meta.progress.total_tasks,
            "updated": ctx.meta.updated_at,
            "summary": summary,
            "warnings": ctx.meta.warnings[:10],
            "has_report": ctx.ws.report_file.is_file(),
            "has_analysis": ctx.ws.analysis_file.is_file(),
        },
    )
    description = _landing_description(ctx, findings)
    write_markdown(
        ctx.ws.index_file,
        _frontmatter(ctx, ctx.meta.topic, description, status=ctx.meta.status, sources_count=len(rows)),
        body,
    )


def _landing_description(ctx: PageContext, findings: Analysis | None) -> str:
    """The first summary sentence (plain text, as quoted), else what the page is about."""
    leads = _leads(findings) if findings else []
    if leads:
        return leads[0].text
    return f"Topic research on {ctx.meta.topic} ({ctx.meta.status})"


def summary_lines(analysis: Analysis | None, catalog: Catalog, prefix: str = "") -> list[str]:
    """The landing page's summary: the lead claim of each section, cited relative to the topic folder."""
    if analysis is None:
        return []
    claims = _leads(analysis)
    return [
        Markdown(f"{md_escape(c.text)} {''.join(cite(catalog, i, prefix) for i in c.sources)}".strip())
        for c in claims
    ]
