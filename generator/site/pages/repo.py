"""Repository pages: each shard's page and the repository's index, rendered from the research records
(`ShardAnalysis`, `RepoSynthesis`) through templates/shard.md.j2 and templates/repo_index.md.j2, and written
through the store. Links, tables and diagrams are built here from escaped parts; every other string reaches
the template as plain text, which the template environment escapes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator import store
from generator.documents.model import code_spans_as_text
from generator.kb.index import entry_record, save_entry
from generator.repo.analyze.citations import Linker
from generator.repo.docs.model import ProjectDocs
from generator.repo.model import (
    Answer,
    AnswerStep,
    CitedSymbol,
    CommandLine,
    Explained,
    FlowPassage,
    ModuleLine,
    RepoSynthesis,
    ShardAnalysis,
    SubsystemLink,
)
from generator.repo.reference.model import Reference
from generator.repo.run.study import RepoResult
from generator.repo.synthesize.questions import ANSWERS_DIR
from generator.site.pages.model_text import citation_markdown, code_link, inline_code, render_model_markdown
from generator.site.pages.repo_diagrams import (
    architecture_diagram,
    flow_markdown,
    flow_tree_markdown,
    hierarchy_diagram,
    neighbourhood_diagram,
)
from generator.site.pages.repo_guide import (
    GUIDE_DIR,
    concept_line,
    defined_in,
    file_link,
    guide_links,
    overview_markdown,
    passage_markdown,
    prose,
    release_markdown,
    write_guide_pages,
)
from generator.site.pages.repo_reference import reference_links, write_reference_pages
from generator.site.templates import render_record
from generator.site.text import Markdown, md_inline
from generator.store import KBPaths

from ...jsontypes import StoredObject
from ...llm.base import model_label

SHARD_TEMPLATE, INDEX_TEMPLATE, ANSWER_TEMPLATE = "shard.md.j2", "repo_index.md.j2", "repo_answer.md.j2"
SKIPPED_EXAMPLES = 5  # paths listed per skip reason on the index page
CONTEXT_ROWS = 8  # context folders listed on the index page, the most files first
DESCRIPTION_CHARS = 300  # the frontmatter description search results show


@dataclass(frozen=True)
class ShardPage:
    """The context of templates/shard.md.j2."""

    title: str
    offline: bool
    fallback: str  # why the offline analyst wrote this page in the model's place ("" when it did not)
    purpose: list[Markdown]
    back_link: Markdown
    rationale: Markdown
    docs: list[Markdown]  # the guide pages explaining this part, each with the docs' first sentence about it
    key_types: list[Markdown]
    explained: list[Markdown]  # what the key types' and functions' own comments explain, cited
    hierarchy: Markdown
    functions: list[Markdown]
    flow_diagram: Markdown
    flow_steps: list[Markdown]
    flow_tree: Markdown  # the shard's call tree as a nested list ("" without one: the steps are listed)
    depends_on: list[Markdown]
    used_by: list[Markdown]
    neighbourhood: Markdown
    analysis: Markdown
    written_by: str  # the model that wrote `analysis` ("" for the offline analyst)
    truncated: bool
    input_note: Markdown  # our own words (counts and the window), not the model's
    files: list[Markdown]
    citations_dropped: int


@dataclass(frozen=True)
class SubsystemRow:
    """A landed shard's row in the index's table of subsystems."""

    name: Markdown
    summary: Markdown
    symbols: Markdown


@dataclass(frozen=True)
class FailedShard:
    name: str
    reason: str
    files: str


@dataclass(frozen=True)
class CatalogueSection:
    """One subsystem's modules in the index's module catalogue."""

    name: str
    modules: list[Markdown]


@dataclass(frozen=True)
class HistoryRow:
    path: Markdown
    count: int


@dataclass(frozen=True)
class LanguageRow:
    name: str
    files: int
    lines: int


@dataclass(frozen=True)
class SkippedCount:
    """What the map left out for one reason: how many, and the first few paths."""

    reason: str
    count: int
    examples: str


@dataclass(frozen=True)
class IndexPage:
    """The context of templates/repo_index.md.j2."""

    title: str
    offline: bool
    overview: str
    summary: list[str]
    docs_overview: list[Markdown]  # the project's own opening paragraphs, each cited
    release: list[Markdown]  # where it stands: stability, latest release, requirements, each cited
    commands: list[Markdown]  # a command-line program's commands: `cz bump` — its help · what runs it
    guide: list[Markdown]  # links to the guide pages: getting started, then each concept the docs present
    reference: list[Markdown]  # links to the configuration, data model and extension points pages
    written_by: str  # the model that wrote the summary or any subsystem's analysis ("" when none did)
    source: Markdown
    revision: Markdown
    revision_date: str
    notes: Markdown  # the maintainer's, rendered safe ("" when there are none)
    questions: list[Markdown]  # links to the answer pages
    subsystems: list[SubsystemRow]
    failed: list[FailedShard]
    fallen_back: list[FailedShard]  # their pages were written by the offline analyst
    architecture: Markdown
    flow_diagram: Markdown
    flow_steps: list[Markdown]
    flow_tree: Markdown  # the main flow's call tree as a nested list ("" without one: the steps are listed)
    flow_docs: list[Markdown]  # the docs' passages telling the flow, each cited, with the steps it names
    # what the examples call next on what the flow's entry returns: "`App.Run` on what `New` returns"
    then_lead: Markdown
    then_tree: Markdown  # its call tree ("" without one)
    then_docs: list[Markdown]  # the docs' passages telling it
    catalogue: list[CatalogueSection]
    modules_catalogued: int
    modules_present: int
    planner: str
    planner_note: str
    history: list[HistoryRow]
    history_window: str
    languages: list[LanguageRow]
    skipped: list[SkippedCount]
    context: list[HistoryRow]  # the folders read as context by their name, with their files


@dataclass(frozen=True)
class AnswerPage:
    """The context of templates/repo_answer.md.j2."""

    title: str
    request: str
    back_link: Markdown
    revision: Markdown
    revision_date: str
    offline: bool
    fallback: str
    analysis: Markdown  # the model's answer, citations checked ("" for the offline draft)
    doc_steps: list[Markdown]  # what the project's docs say to it, in their order, each cited
    lead: Markdown  # the offline draft's opening sentence
    code_steps: list[Markdown]  # the code's answer from where the process begins, in call order, each cited
    symbols: list[Markdown]  # the other symbols matching the question (all of them without steps)
    diagram: Markdown
    steps: list[Markdown]
    files: list[Markdown]
    focus: StoredObject | None
    citations_dropped: int


# --------------------------------------------------------------------------- writing


def write_repo_pages(
    paths: KBPaths,
    directory: Path,
    synthesis: RepoSynthesis,
    linker: Linker,
    docs: ProjectDocs | None = None,
    reference: Reference | None = None,
) -> None:
    """Write the guide pages from the project's docs, the reference pages (configuration, data model,
    extension points), every landed shard's page, every question's answer page and the index; pages of an
    earlier plan are removed. Each folder is synced once, when all are written."""
    with store.folders_synced_once():
        _write_repo_pages(paths, directory, synthesis, linker, docs, reference)


def _write_repo_pages(
    paths: KBPaths,
    directory: Path,
    synthesis: RepoSynthesis,
    linker: Linker,
    docs: ProjectDocs | None,
    reference: Reference | None,
) -> None:
    write_guide_pages(
        paths,
        directory,
        docs,
        synthesis.label,
        linker,
        synthesis.concept_texts,
        concept_subsystems(synthesis),
    )
    write_reference_pages(paths, directory, reference, synthesis.label, linker)
    written = {write_shard_page(paths, directory, a, synthesis, linker, docs) for a in synthesis.landed}
    # shard pages of an earlier plan (or of a shard that failed this time) must not linger as if current
    store.remove_stale(directory / "shards", written, "[0-9][0-9]_*.md")
    answered = {write_answer_page(paths, directory, a, synthesis, linker) for a in synthesis.answers}
    store.remove_stale(
        directory / ANSWERS_DIR, answered
    )  # a page renamed when another question took its slug
    write_index(paths, directory, synthesis, linker, docs, reference)


def write_shard_page(
    paths: KBPaths,
    directory: Path,
    analysis: ShardAnalysis,
    synthesis: RepoSynthesis,
    linker: Linker,
    docs: ProjectDocs | None = None,
) -> str:
    """Write shards/NN_<slug>.md and return its name."""
    name = f"{analysis.slug}.md"
    meta = {
        "title": shard_title(synthesis, analysis),
        "description": whole_sentences(analysis.summary, DESCRIPTION_CHARS)
        or f"{analysis.shard.name} in {synthesis.label}",
        "tags": analysis.tags,
        "generated": analysis.generated,
        "provider": analysis.provider,
        "model": model_label(analysis.model),
        "source": synthesis.source,
        "revision": synthesis.revision,
        "shard": analysis.index,
        "files": list(analysis.shard.files),
        "citations_valid": analysis.citations_valid,
        "citations_dropped": analysis.citations_dropped,
    }
    if analysis.fallback:
        meta["fallback"] = analysis.fallback
    body = render_record(paths, SHARD_TEMPLATE, shard_page(analysis, synthesis, linker, docs))
    store.write_page(store.safe_join(directory, "shards", name), meta, body)
    return name


def shard_title(synthesis: RepoSynthesis, analysis: ShardAnalysis) -> str:
    """ "<repo> · <subsystem>": a search result says which repository it is about. The one subsystem named
    after the project, all of its code, is "<repo> · the code" (not "retry-go · retry-go"); one of several
    named so (OpenHands' openhands/ package) keeps its name."""
    repo = synthesis.label.rsplit("/", 1)[-1]
    whole = len(synthesis.analyses) == 1 and analysis.shard.name.lower() == repo.lower()
    return f"{repo} · {'the code' if whole else analysis.shard.name}"


def write_answer_page(
    paths: KBPaths, directory: Path, answer: Answer, synthesis: RepoSynthesis, linker: Linker
) -> str:
    """Write answers/<slug>.md and return its name. Its frontmatter's `request` is what the next run reads
    to answer the question again."""
    name = f"{answer.slug}.md"
    page = answer_page(answer, synthesis, linker)
    lead = answer.symbols[0].doc if answer.symbols else ""
    meta = {
        "title": page.title,
        "description": (whole_sentences(lead, DESCRIPTION_CHARS) if lead else "")
        or f"{answer.request} ({synthesis.label})",
        "tags": ["repository", "question"],
        "request": answer.request,
        "generated": synthesis.revision_date[:10],
        "provider": answer.provider,
        "model": model_label(answer.model or "offline-extractive"),
        "source": synthesis.source,
        "revision": synthesis.revision,
        "symbols": [s.name for s in answer.symbols],
        "citations_dropped": page.citations_dropped,
    }
    if answer.fallback:
        meta["fallback"] = answer.fallback
    body = render_record(paths, ANSWER_TEMPLATE, page)
    store.write_page(store.safe_join(directory, ANSWERS_DIR, name), meta, body)
    return name


def write_index(
    paths: KBPaths,
    directory: Path,
    synthesis: RepoSynthesis,
    linker: Linker,
    docs: ProjectDocs | None = None,
    reference: Reference | None = None,
) -> None:
    landed = synthesis.landed
    meta = {
        "title": synthesis.title,
        "description": _description(synthesis, docs),
        "tags": _index_tags(synthesis),
        "generated": max((a.generated for a in landed), default=synthesis.revision_date[:10]),
        "provider": synthesis.provider,
        "model": model_label(synthesis.model),
        "source": synthesis.source,
        "revision": synthesis.revision,
        "revision_date": synthesis.revision_date,
        "shards": [f"shards/{a.slug}.md" for a in landed],
        "failed_shards": [a.shard.name for a in synthesis.failed],
        "planner": synthesis.planner,
        "tokens": synthesis.tokens,
        "citations_dropped": sum(a.citations_dropped for a in landed),
    }
    if synthesis.corrections:
        meta["corrections"] = synthesis.corrections
    if synthesis.fallen_back:
        meta["fallback_shards"] = [a.shard.name for a in synthesis.fallen_back]
    if synthesis.answers:
        meta["answers"] = [f"{ANSWERS_DIR}/{a.slug}.md" for a in synthesis.answers]
        meta["questions"] = [a.request for a in synthesis.answers]
    body = render_record(paths, INDEX_TEMPLATE, index_page(synthesis, linker, docs, reference))
    store.write_page(directory / "index.md", meta, body)
    save_entry(directory, entry_record("repo", meta, shards=len(landed)))


def _index_tags(synthesis: RepoSynthesis) -> list[str]:
    return list(dict.fromkeys(t for a in synthesis.landed for t in a.tags)) or ["repository"]


def _description(synthesis: RepoSynthesis, docs: ProjectDocs | None = None) -> str:
    """What search and link previews say the project is: the README's first paragraph, else the first
    paragraph the page's overview quotes (a tagline centred in HTML, an opening that ends by leading into a
    list), else the summary — never a subsystem's docstring while the page opens with the project's own
    words (humanize's was "Activate, get and deactivate translations.")."""
    quoted = next((p.text for p in docs.overview if p.kind == "paragraph"), "") if docs else ""
    lead = synthesis.overview or quoted or (synthesis.summary[0] if synthesis.summary else "")
    text = lead or f"How {synthesis.label} is organised: {len(synthesis.landed)} subsystems."
    return whole_sentences(text.replace("`", ""), DESCRIPTION_CHARS)  # search shows it as plain text


def whole_sentences(text: str, limit: int) -> str:
    """As many whole sentences of `text` as fit in `limit` characters (the first one cut only when alone
    it is longer): a search result never ends mid-sentence when it need not."""
    kept = ""
    for sentence in re.split(r"(?<=[.!?])\s+", " ".join(text.split())):
        if len(kept) + len(sentence) + 1 > limit:
            break
        kept = f"{kept} {sentence}".strip()
    return kept or " ".join(text.split())[: limit - 1] + "…"


def shard_summary_lines(synthesis: RepoSynthesis) -> list[str]:
    """`[name](shards/NN_slug.md): summary` per landed shard, for `--json` output."""
    return [
        f"[{md_inline(a.shard.name)}](shards/{a.slug}.md): {md_inline(a.summary)}" for a in synthesis.landed
    ]


# --------------------------------------------------------------------------- the shard page


def shard_page(
    analysis: ShardAnalysis, synthesis: RepoSynthesis, linker: Linker, docs: ProjectDocs | None = None
) -> ShardPage:
    rendered = (
        render_model_markdown(analysis.model_text, linker, top_level=3) if analysis.model_text else None
    )
    diagram, steps = flow_markdown(analysis.flow)
    return ShardPage(
        title=shard_title(synthesis, analysis),
        offline=analysis.provider == "offline",
        fallback=analysis.fallback,
        purpose=[prose(s) for s in analysis.purpose or [analysis.summary]],
        back_link=Markdown(f"[← {md_inline(synthesis.label)}](../index.md)"),
        rationale=prose(analysis.shard.rationale),
        docs=[
            concept_line(place, docs.concepts[place - 1], f"../{GUIDE_DIR}")
            for place in synthesis.shard_concepts.get(analysis.index, [])
            if docs is not None and place <= len(docs.concepts)
        ],
        key_types=[type_item(t.symbol, t.methods) for t in analysis.key_types],
        explained=[explained_markdown(e, linker) for e in analysis.explained],
        hierarchy=hierarchy_diagram(analysis.key_types),
        functions=[symbol_item(s) for s in analysis.functions],
        flow_diagram=diagram,
        flow_steps=steps,
        flow_tree=flow_tree_markdown(analysis.flow_tree),
        depends_on=[subsystem_link(link) for link in analysis.depends_on],
        used_by=[subsystem_link(link) for link in analysis.used_by],
        neighbourhood=neighbourhood_diagram(analysis),
        analysis=rendered.markdown if rendered else Markdown(""),
        written_by=model_label(analysis.model) if analysis.model_text else "",
        truncated=analysis.truncated,
        input_note=Markdown(analysis.input_note),
        files=[module_item(m) for m in analysis.files],
        citations_dropped=analysis.citations_dropped,
    )


def concept_subsystems(synthesis: RepoSynthesis) -> dict[int, list[Markdown]]:
    """A concept's place (1-based) → links to the subsystem pages whose code it explains, from its guide page."""
    links: dict[int, list[Markdown]] = {}
    for analysis in synthesis.landed:
        for place in synthesis.shard_concepts.get(analysis.index, []):
            link = f"[{md_inline(analysis.shard.name)}](../shards/{analysis.slug}.md)"
            links.setdefault(place, []).append(Markdown(link))
    return links


def _index_writer(synthesis: RepoSynthesis) -> str:
    models = [synthesis.summary_by] + [a.model for a in synthesis.landed if a.model_text]
    return ", ".join(dict.fromkeys(model_label(m) for m in models if m))


def symbol_link(symbol: CitedSymbol, text: str | None = None) -> Markdown:
    """The symbol's name as inline code, linked to its definition when the citation holds."""
    shown = text or symbol.name
    if symbol.citation and not symbol.citation.url:
        span = f"{symbol.citation.path}:{symbol.citation.start}"
        return Markdown(f"{inline_code(shown)} ({inline_code(span)})")
    return code_link(shown, symbol.citation.url if symbol.citation else "")


def symbol_item(symbol: CitedSymbol, short: bool = False, strong: bool = False) -> Markdown:
    """`name` (linked) *kind* — its docstring's first sentence."""
    name = symbol.name.rsplit(".", 1)[-1] if short else symbol.name
    link = symbol_link(symbol, name)
    doc = f" — {prose(symbol.doc)}" if symbol.doc else ""
    return Markdown(f"{f'**{link}**' if strong else link} *{md_inline(symbol.kind, 20)}*{doc}")


def type_item(symbol: CitedSymbol, methods: Sequence[CitedSymbol]) -> Markdown:
    lines = [f"- {symbol_item(symbol, strong=True)}"]
    lines += [f"    - {symbol_item(m, short=True)}" for m in methods]
    return Markdown("\n".join(lines))


def explained_markdown(explained: Explained, linker: Linker) -> Markdown:
    """A symbol's heading, then what its own doc comment explains and shows, each block cited."""
    parts = [f"### {symbol_link(explained.symbol, explained.symbol.name)}"]
    parts += [passage_markdown(passage, linker) for passage in explained.passages]
    return Markdown("\n\n".join(parts))


def module_item(module: ModuleLine) -> Markdown:
    """`path` (linked) · N lines · what it is for · its main symbols."""
    link = code_link(module.path, module.citation.url if module.citation else "")
    parts = [f"{module.lines} lines"]
    if module.purpose:
        parts.append(prose(module.purpose))
    if module.symbols:
        parts.append(", ".join(symbol_link(s) for s in module.symbols))
    return Markdown(f"{link} — " + " · ".join(parts))


def subsystem_link(link: SubsystemLink) -> Markdown:
    uses = f": {', '.join(inline_code(u) for u in link.uses)}" if link.uses else ""
    return Markdown(f"[{md_inline(link.name)}]({link.slug}.md){uses}")


def _revision(synthesis: RepoSynthesis) -> Markdown:
    """The pinned commit, linked; a folder that is not a git repository (or has no commit yet) says so."""
    if synthesis.revision:
        return _link(synthesis.revision[:12], synthesis.revision_url, code=True)
    if not synthesis.git:
        return Markdown("none (not a git repository, so no permalinks)")
    return Markdown("none (no commit yet, so no permalinks)")


def answer_page(answer: Answer, synthesis: RepoSynthesis, linker: Linker) -> AnswerPage:
    rendered = render_model_markdown(answer.model_text, linker, top_level=3) if answer.model_text else None
    diagram, steps = flow_markdown(answer.path)
    return AnswerPage(
        title=answer_title(synthesis, answer),
        request=answer.request,
        back_link=Markdown(f"[← {md_inline(synthesis.label)}](../index.md)"),
        revision=_revision(synthesis),
        revision_date=synthesis.revision_date[:10],
        offline=answer.provider == "offline",
        fallback=answer.fallback,
        analysis=rendered.markdown if rendered else Markdown(""),
        doc_steps=[passage_markdown(p, linker) for p in answer.doc_passages],
        lead=_answer_lead(answer),
        code_steps=[_answer_step(step) for step in answer.steps],
        symbols=[
            _answer_item(s) for s in answer.symbols if s.name not in {t.symbol.name for t in answer.steps}
        ],
        diagram=diagram,
        steps=steps,
        files=[file_link(path, linker) for path in answer.files],
        focus=answer.focus,
        citations_dropped=rendered.dropped if rendered else 0,
    )


def answer_title(synthesis: RepoSynthesis, answer: Answer) -> str:
    """ "<repo> · <question>": a search result says which repository the question is about."""
    question = answer.request if len(answer.request) <= 90 else answer.request[:89] + "…"
    return f"{synthesis.label.rsplit('/', 1)[-1]} · {question}"


def _answer_lead(answer: Answer) -> Markdown:
    """The offline draft's opening: where the answer starts and what it reaches."""
    if not answer.symbols:
        return Markdown("")
    first = answer.symbols[0]
    where = inline_code(first.path)
    line = f"The answer starts at {symbol_link(first)} in {where}"
    callees = list(dict.fromkeys(h.callee for h in answer.path if h.caller == first.name))
    if callees:
        line += ", which calls " + ", ".join(inline_code(c) for c in callees[:4])
    if first.doc:
        line += f". {prose(first.doc)}"
    return Markdown(line.rstrip(".") + ".")


def _answer_step(step: AnswerStep) -> Markdown:
    """ "**`callee`** *kind* in `path` — its docstring — called by `caller` at path:line" ("handed over by" a
    caller passing it on or a registry's lookup; "…, so inferred" on an element of a collection, where no
    type names the callee; the start: "Starts at …")."""
    if not step.caller:
        return Markdown(f"Starts at **{symbol_link(step.symbol)}**, {defined_in(step.symbol)}")
    call = f" at {citation_markdown(step.call)}" if step.call else ""
    how = "handed over by" if step.handed else "called by"  # a callback or a registry's entry
    # a call on an element of a collection: the callee is the method of that name its elements may have
    guessed = " on an element of a collection, so inferred" if step.inferred else ""
    by = f" ({how} {inline_code(step.caller)}{call}{guessed})"
    return Markdown(
        f"{'then ' * (step.depth > 1)}**{symbol_link(step.symbol)}** {defined_in(step.symbol, said=by)}"
    )


def _answer_item(symbol: CitedSymbol) -> Markdown:
    """`name` (linked) *kind* in `path` — its docstring's sentences."""
    return Markdown(f"**{symbol_link(symbol)}** {defined_in(symbol)}")


def _question_link(answer: Answer) -> Markdown:
    first = f" — starts at {inline_code(answer.symbols[0].name)}" if answer.symbols else ""
    return Markdown(f"[{md_inline(answer.request)}]({ANSWERS_DIR}/{answer.slug}.md){first}")


def _overview_adds(overview: str, docs: ProjectDocs | None) -> bool:
    """The synthesis's overview is the README's opening: when the docs' cited opening paragraphs already say
    it, it is not said twice, once uncited (the docs' copy keeps its code spans: "`jsonschema` is …")."""
    text = " ".join(code_spans_as_text(overview).split())
    if not text:
        return False
    return not (docs and any(text in " ".join(code_spans_as_text(p.text).split()) for p in docs.overview))


def flow_passage_markdown(item: FlowPassage, linker: Linker) -> Markdown:
    """A doc passage telling the flow, quoted and cited, after the steps it names (`a` → `b`)."""
    steps = " → ".join(inline_code(name) for name in item.names)
    passage = replace(item.passage, kind="paragraph") if item.passage.kind == "item" else item.passage
    quoted = passage_markdown(passage, linker).replace("\n", "\n  ")  # an item quoted after the steps
    return Markdown(f"- {steps}: {quoted}")


def _then_lead(synthesis: RepoSynthesis) -> Markdown:
    """What the second tree is: the call the examples make on what the main flow's entry returns."""
    if not synthesis.then_tree or not synthesis.flow_tree:
        return Markdown("")
    entry, then = synthesis.flow_tree[0].hop.caller, synthesis.then_tree[0].hop.caller
    return Markdown(
        f"Then the usage examples call {inline_code(then)} on what {inline_code(entry)} returns; the calls it "
        "leads to, in the order they are made:"
    )


def index_page(
    synthesis: RepoSynthesis,
    linker: Linker,
    docs: ProjectDocs | None = None,
    reference: Reference | None = None,
) -> IndexPage:
    diagram, steps = flow_markdown(synthesis.main_flow)
    catalogued = sum(len(g.modules) for g in synthesis.catalogue)
    above = _said_above(synthesis, docs) if len(synthesis.landed) == 1 else ""
    return IndexPage(
        title=synthesis.title,
        offline=synthesis.offline,
        overview=prose(synthesis.overview) if _overview_adds(synthesis.overview, docs) else "",
        # the project's own opening paragraphs stand for the offline summary (made of the same README);
        # a model's summary is said after them
        summary=[prose(paragraph) for paragraph in synthesis.summary]
        if synthesis.summary_by or not (docs and docs.overview)
        else [],
        docs_overview=overview_markdown(docs, linker),
        release=release_markdown(docs, linker),
        commands=[command_item(synthesis.program, c) for c in synthesis.commands],
        guide=guide_links(docs),
        reference=reference_links(reference),
        written_by=_index_writer(synthesis),
        source=_link(synthesis.source, synthesis.source_url),
        revision=_revision(synthesis),
        revision_date=synthesis.revision_date[:10],
        notes=render_model_markdown(synthesis.notes, linker).markdown
        if synthesis.notes.strip()
        else Markdown(""),
        questions=[_question_link(a) for a in synthesis.answers],
        subsystems=[_subsystem_row(a, above) for a in synthesis.landed],
        failed=[
            FailedShard(a.shard.name, a.error or "unknown error", ", ".join(a.shard.files))
            for a in synthesis.failed
        ],
        fallen_back=[
            FailedShard(a.shard.name, a.fallback, ", ".join(a.shard.files)) for a in synthesis.fallen_back
        ],
        architecture=architecture_diagram(synthesis),
        flow_diagram=diagram,
        flow_steps=steps,
        flow_tree=flow_tree_markdown(synthesis.flow_tree),
        flow_docs=[flow_passage_markdown(item, linker) for item in synthesis.flow_docs],
        then_lead=_then_lead(synthesis),
        then_tree=flow_tree_markdown(synthesis.then_tree),
        then_docs=[flow_passage_markdown(item, linker) for item in synthesis.then_docs],
        catalogue=[
            CatalogueSection(g.name, [module_item(m) for m in g.modules]) for g in synthesis.catalogue
        ],
        modules_catalogued=catalogued,
        modules_present=synthesis.modules_present,
        planner=_planner_line(synthesis),
        planner_note=synthesis.planner_note,
        history=[HistoryRow(inline_code(p), n) for p, n in synthesis.history],
        history_window=synthesis.history_window,
        languages=[LanguageRow(k, v["files"], v["lines"]) for k, v in synthesis.languages.items()][:12],
        skipped=skipped_counts(synthesis),
        context=[HistoryRow(inline_code(p), n) for p, n in synthesis.context[:CONTEXT_ROWS]],
    )


def command_item(program: str, command: CommandLine) -> Markdown:
    """`cz bump` — Bump semantic version based on the git log. · runs `Bump`."""
    typed = inline_code(f"{program} {command.name}".strip())
    said = f" — {md_inline(command.help, 160)}" if command.help else ""
    return Markdown(f"{typed}{said} · runs {symbol_link(command.runs)}")


def _link(text: str, url: str, code: bool = False) -> Markdown:
    shown = inline_code(text) if code else md_inline(text)
    return Markdown(f"[{shown}]({url})") if url and url.startswith("https://") else shown


def _said_above(synthesis: RepoSynthesis, docs: ProjectDocs | None) -> str:
    """What the index says before its table of subsystems, flat: the overview, the summary, the docs' opening."""
    said = [synthesis.overview, *synthesis.summary, *(p.text for p in (docs.overview if docs else ()))]
    return " ".join(code_spans_as_text(" ".join(said)).split())


def _subsystem_row(analysis: ShardAnalysis, above: str = "") -> SubsystemRow:
    """A subsystem's row; the one subsystem (`above`: what the index says before the table), described as the
    README describes the project (morgan's index.js), says that it holds all of the code instead of saying
    the overview again."""
    symbols = analysis.top_symbols[:3]
    said = " ".join(code_spans_as_text(analysis.summary).split()).rstrip(".")
    count = len(analysis.shard.files)
    return SubsystemRow(
        name=Markdown(f"[{md_inline(analysis.shard.name)}](shards/{analysis.slug}.md)"),
        summary=prose(
            f"All of the project's code: {count} module{'s' if count != 1 else ''}, what the overview describes."
            if said and said in above
            else analysis.summary
        ),
        symbols=Markdown(", ".join(symbol_link(s) for s in symbols) or "—"),
    )


def _planner_line(synthesis: RepoSynthesis) -> str:
    if synthesis.planner == "llm":
        line = "The language model proposed the subsystems"
    else:
        line = (
            "The subsystems are communities of the dependency graph (imports, held together by packages),"
            " most important first"
        )
    return line + "."


def skipped_counts(synthesis: RepoSynthesis) -> list[SkippedCount]:
    """What the map left out, counted by reason ("too large (2.1 MB)" counts as "too large"), with the first
    few paths of each reason so a reader can see which files were left out."""
    by_reason: dict[str, list[str]] = {}
    for s in synthesis.skipped:
        by_reason.setdefault(re.sub(r"\s*\(.*\)$", "", s.reason) or "other", []).append(s.path)
    ordered = sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return [
        SkippedCount(reason, len(paths), ", ".join(paths[:SKIPPED_EXAMPLES])) for reason, paths in ordered
    ]


def publish_repo(result: RepoResult) -> None:
    """Render a repository research result's shard pages and index, and write them through the store."""
    study = result.study
    write_repo_pages(
        study.paths, study.harvest_dir, result.synthesis, study.ctx.linker, study.docs, study.reference
    )
