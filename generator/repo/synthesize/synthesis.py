"""Stage 9, synthesize: the shard pages and the repository's index.md, rendered from templates.

Pages are written through the store (atomic, skipped when unchanged); every value in them comes from saved
drafts and the pinned checkout, so the same inputs give byte-identical pages.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import store
from generator.errors import DeepkbError, ProviderError, ResearchError
from generator.llm.base import Prompt, Provider
from generator.repo.analyze.draft import render_analysis
from generator.repo.model import Facts, RepoMap, Shard, ShardAnalysis, ShardPlan
from generator.repo.run.session import fingerprint
from generator.repo.run.study import RepoResult, Study, shard_page_name
from generator.repo.synthesize import mermaid
from generator.site.templates import render_template
from generator.site.text import Markdown
from generator.summarize import summarize

SYNTHESIS_VERSION = 1
SKIPPED_EXAMPLES = 5  # paths listed per skip reason on the index page

_NOT_TAGS = frozenset({"text", "other", "markdown", "rst", "json", "yaml", "toml", "ini", "csv", "xml"})


@dataclass
class IndexInfo:
    """What the index page says about the run besides the shards themselves."""

    title: str
    label: str  # owner/name
    source: str
    revision: str
    revision_date: str
    provider: str
    model: str
    offline: bool
    request: str | None = None
    plan: ShardPlan | None = None
    focus: dict[str, Any] | None = None
    summary: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)


def canonical(terms: Sequence[str]) -> list[str]:
    """Canonical tags via the knowledge base's synonym table."""
    from generator.kb.synonyms import canonical_tags

    return list(canonical_tags([t for t in terms if t]))


def language_tags(repo_map: RepoMap, paths: Sequence[str] | None = None, limit: int = 4) -> list[str]:
    wanted = set(paths) if paths is not None else None
    counts: Counter[str] = Counter()
    for entry in repo_map.files:
        if (wanted is None or entry.path in wanted) and entry.language not in _NOT_TAGS:
            counts[entry.language] += entry.lines
    return [lang for lang, _ in counts.most_common(limit)]


def write_shard_page(directory: Path, analysis: ShardAnalysis, info: IndexInfo) -> str:
    """Write shards/NN_<slug>.md and return its name."""
    name = shard_page_name(analysis)
    meta = {
        "title": f"{info.label}: {analysis.shard.name}",
        "description": analysis.summary or f"Analysis of {analysis.shard.name} in {info.label}",
        "tags": analysis.tags,
        "generated": analysis.generated,
        "provider": analysis.provider,
        "model": analysis.model,
        "source": info.source,
        "revision": info.revision,
        "shard": analysis.index,
        "files": list(analysis.shard.files),
        "citations_valid": analysis.citations_valid,
        "citations_dropped": analysis.citations_dropped,
    }
    body = render_template(
        "shard.md.j2",
        {
            "title": analysis.shard.name,
            "offline": analysis.provider == "offline",
            "summary": analysis.summary,
            "repo_label": info.label,
            "rationale": analysis.shard.rationale,
            "body": Markdown(analysis.body),
            "citations_dropped": analysis.citations_dropped,
        },
    )
    store.write_page(store.safe_join(directory, "shards", name), meta, body)
    return name


def remove_stale_pages(directory: Path, keep: set[str]) -> None:
    """Shard pages of an earlier plan (or of a shard that failed this time) must not linger as if current."""
    shards = directory / "shards"
    if not shards.is_dir():
        return
    for page in shards.glob("*.md"):
        if page.name not in keep and re.fullmatch(r"\d{2}_[^/]+\.md", page.name):
            page.unlink()


def write_index(
    directory: Path,
    info: IndexInfo,
    analyses: Sequence[ShardAnalysis],
    repo_map: RepoMap,
    facts: Facts,
) -> None:
    landed = [a for a in analyses if a.status == "ok"]
    failed = [a for a in analyses if a.status != "ok"]
    pages = [f"shards/{shard_page_name(a)}" for a in landed]
    meta = {
        "title": info.title,
        "description": _description(info, landed),
        "tags": canonical(["repository", *language_tags(repo_map)]),
        "generated": max((a.generated for a in landed), default=info.revision_date[:10]),
        "provider": info.provider,
        "model": info.model,
        "source": info.source,
        "revision": info.revision,
        "revision_date": info.revision_date,
        "shards": pages,
        "failed_shards": [a.shard.name for a in failed],
        "planner": info.plan.planner if info.plan else "heuristic",
        "tokens": info.tokens,
        "citations_dropped": sum(a.citations_dropped for a in landed),
    }
    store.write_page(
        directory / "index.md",
        meta,
        render_template("repo_index.md.j2", _index_context(info, analyses, repo_map, facts)),
    )


def _description(info: IndexInfo, landed: Sequence[ShardAnalysis]) -> str:
    lead = info.summary[0] if info.summary else ""
    text = f"Research of {info.label} at {info.revision[:10] or 'its working tree'}: {len(landed)} shards. {lead}"
    return " ".join(text.split())[:300]


def _index_context(
    info: IndexInfo, analyses: Sequence[ShardAnalysis], repo_map: RepoMap, facts: Facts
) -> dict[str, Any]:
    landed = [a for a in analyses if a.status == "ok"]
    plan_note = info.plan.note if info.plan else ""
    planner = _planner_line(info)
    return {
        "title": info.title,
        "offline": info.offline,
        "request": info.request,
        "source": info.source,
        "revision_short": info.revision[:12] or "working tree",
        "revision_date": info.revision_date,
        "summary": info.summary or ["No README or module documentation was found to summarize."],
        "shards": [
            {
                "name": a.shard.name,
                "page": Markdown(f"shards/{shard_page_name(a)}"),
                "summary": a.summary,
                "files": len(a.shard.files),
            }
            for a in landed
        ],
        "failed": [
            {"name": a.shard.name, "reason": a.error or "unknown error", "files": list(a.shard.files)}
            for a in analyses
            if a.status != "ok"
        ],
        "diagram": shard_diagram(landed, facts),
        "languages": [{"name": k, **v} for k, v in repo_map.languages().items()][:12],
        "planner": planner,
        "planner_note": plan_note,
        "focus": info.focus,
        "skipped": skipped_counts(repo_map),
    }


def _planner_line(info: IndexInfo) -> str:
    if info.plan and info.plan.planner == "llm":
        line = "The language model proposed the shards"
    else:
        line = "The shards were grouped from the dependency graph (package directories joined by imports, most important first)"
    kept = (info.focus or {}).get("kept") or []
    if kept:
        line += f", choosing among the {len(kept)} files the focus step retrieved"
    return line + "."


def shard_diagram(landed: Sequence[ShardAnalysis], facts: Facts) -> str:
    """Shards as nodes, an arrow where a file of one imports a file of another; "" with fewer than 2 shards."""
    if len(landed) < 2:
        return ""
    owner = {path: i for i, a in enumerate(landed) for path in a.shard.files}
    edges = set()
    for path, i in owner.items():
        fact = facts.files.get(path)
        for target in fact.depends_on if fact else []:
            if target in owner and owner[target] != i:
                edges.add((i, owner[target]))
    return mermaid.fenced(mermaid.flowchart([a.shard.name for a in landed], sorted(edges)))


def skipped_counts(repo_map: RepoMap) -> list[dict[str, Any]]:
    """What the map left out, counted by reason ("too large (2.1 MB)" counts as "too large"), with the first
    few paths of each reason so a reader can see which files were left out."""
    by_reason: dict[str, list[str]] = {}
    for s in repo_map.skipped:
        by_reason.setdefault(re.sub(r"\s*\(.*\)$", "", s.reason) or "other", []).append(s.path)
    counts = Counter({reason: len(paths) for reason, paths in by_reason.items()})
    return [
        {"reason": reason, "count": n, "examples": by_reason[reason][:SKIPPED_EXAMPLES]}
        for reason, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def repo_summary(readme: str, facts: Facts, request: str | None) -> list[str]:
    """Extractive summary from the README, else the most important modules' documentation."""
    text = readme
    if len(text.split()) < 30:
        docs = [f.doc for f in sorted(facts.files.values(), key=lambda f: -f.importance) if f.doc][:12]
        text = (text + "\n\n" + "\n\n".join(docs)).strip()
    sentences = summarize(text, sentences=4, focus=request or "") if text else []
    return list(dict.fromkeys(sentences))  # the README's first paragraph is often also a module's doc


# --------------------------------------------------------------------------- the stage


def synthesize(study: Study, provider: Provider, outcomes: dict[int, Any]) -> RepoResult:
    """Write the landed shards' pages and the index; failed shards are listed, never given a page."""
    analyses = [
        build_analysis(study, index, shard, outcomes.get(index, ResearchError("not analyzed")))
        for index, shard in enumerate(study.plan.shards, 1)
    ]
    landed = [a for a in analyses if a.status == "ok"]
    info = index_info(study, provider, landed)
    directory = study.harvest_dir
    written = {write_shard_page(directory, a, info) for a in landed}
    remove_stale_pages(directory, written)
    write_index(directory, info, analyses, study.repo_map, study.facts)
    usage = {
        "llm_calls": provider.usage.calls,
        "cache_hits": provider.usage.cache_hits,
        "input_tokens": info.tokens.get("input", 0),
        "output_tokens": info.tokens.get("output", 0),
    }
    return RepoResult(study, analyses, info.summary, info.provider, info.model, usage)


def build_analysis(study: Study, index: int, shard: Shard, outcome: Any) -> ShardAnalysis:
    if isinstance(outcome, BaseException):
        reason = (
            outcome.line() if isinstance(outcome, DeepkbError) else f"{type(outcome).__name__}: {outcome}"
        )
        return ShardAnalysis(index, shard, "", "", "", status="failed", error=reason)
    analysis = render_analysis(index, shard, outcome["draft"], study.ctx)
    analysis.slug = shard_page_name(analysis)[:-3]
    analysis.generated = outcome["generated"]
    analysis.provider = outcome.get("provider", "")
    analysis.model = analysis.model or outcome.get("model", "")
    analysis.tags = canonical(["repository", *language_tags(study.repo_map, shard.files)])
    return analysis


def index_info(study: Study, provider: Provider, landed: list[ShardAnalysis]) -> IndexInfo:
    tokens = {
        "input": study.plan_tokens.get("input", 0) + sum(a.input_tokens for a in landed),
        "output": study.plan_tokens.get("output", 0) + sum(a.output_tokens for a in landed),
    }
    summary, summary_tokens = overall_summary(study, provider, landed)
    tokens = {k: v + summary_tokens.get(k, 0) for k, v in tokens.items()}
    source = study.source
    return IndexInfo(
        title=f"Research Analysis: {source.name}",
        label=study.label,
        source=source.web_url or (source.location if source.kind == "url" else study.label),
        revision=study.checkout.revision,
        revision_date=study.checkout.revision_date,
        provider=provider.name,
        model=provider.model_for("analyze"),
        offline=provider.offline,
        request=study.request,
        plan=study.plan,
        focus=study.focus.trace if study.focus else None,
        summary=summary,
        tokens=tokens,
    )


def overall_summary(
    study: Study, provider: Provider, landed: Sequence[ShardAnalysis]
) -> tuple[list[str], dict[str, int]]:
    """The model's summary of the shard summaries (saved; re-asked only when they change), else extractive."""
    extractive = [
        study.ctx.redactor.redact(s)[0] for s in repo_summary(study.ctx.readme, study.facts, study.request)
    ]
    if provider.offline or not landed:
        return extractive, {}
    shards = [f"- {a.shard.name}: {a.summary}" for a in landed]
    readme = study.ctx.readme[:4000]
    key = fingerprint(
        "synthesis",
        SYNTHESIS_VERSION,
        study.request,
        shards,
        readme,
        provider.name,
        provider.model_for("synthesize"),
    )
    saved = study.cache.load_stage("synthesis", key)
    if saved is not None:
        return list(saved["summary"]), dict(saved["tokens"])
    ask = f"The research request was: {study.request}\nAnswer it directly.\n\n" if study.request else ""
    prompt = Prompt(
        user=(
            f"{ask}Repository: {study.label}\nREADME (excerpt):\n{readme}\n\nSubsystems and what each does:\n"
            + "\n".join(shards)
            + "\n\nWrite a summary of the whole repository in 3 to 5 sentences, as plain prose paragraphs."
        ),
        system="You summarize software repositories for a knowledge base. Plain prose only: no markdown, no HTML.",
        max_tokens=600,
        stage="synthesize",
    )
    try:
        answer = provider.complete(prompt)
    except ProviderError:
        return extractive, {}  # the shards landed; a missing summary must not fail the run
    text, _ = study.ctx.redactor.redact(answer.text)
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n") if p.strip()][:4] or extractive
    tokens = {"input": answer.input_tokens, "output": answer.output_tokens}
    study.cache.save_stage("synthesis", key, {"summary": paragraphs, "tokens": tokens})
    return paragraphs, tokens
