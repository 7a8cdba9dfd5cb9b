"""Stage 9, synthesize: the shard analyses and the repository synthesis, as records.

Every value comes from saved drafts, the facts and the pinned checkout, so the same inputs give the same
records; the page layer (generator/site/pages/repo.py) renders and writes them.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from generator.errors import ProviderError, ResearchError, error_line
from generator.kb.synonyms import canonical_tags
from generator.llm.base import Prompt, Provider
from generator.repo.analyze.citations import check_citations
from generator.repo.analyze.describe import (
    cite,
    first_sentence,
    flow_branches,
    flow_hops,
    key_functions,
    key_types,
    lead,
    module_lines,
    opening_sentence,
)
from generator.repo.analyze.draft import repeats_itself, shard_purpose, split_model_summary
from generator.repo.analyze.explained import EXPLAINED_FUNCTIONS, explain
from generator.repo.checkout.history import file_history
from generator.repo.docs.model import DocConcept
from generator.repo.docs.packages import folder_readme_opening
from generator.repo.facts.calltree import main_line
from generator.repo.facts.named_commands import named_commands
from generator.repo.map.filetypes import context_folders
from generator.repo.map.walk import read_or_none
from generator.repo.model import (
    CommandLine,
    Facts,
    ModelDraft,
    ModuleLine,
    RepoMap,
    RepoSynthesis,
    Shard,
    ShardAnalysis,
    ShardDraft,
)
from generator.repo.plan.naming import (
    PACKAGE_DOC_FILES,
    name_words,
    phrase,
    root_door,
    says_where_not_what,
    speaks_for_more,
)
from generator.repo.plan.subsystems import core_modules, rank_files
from generator.repo.run.session import fingerprint
from generator.repo.run.study import RepoResult, Study, shard_slug
from generator.repo.synthesize.architecture import catalogue, link_subsystems, place_modules, subsystem_edges
from generator.repo.synthesize.concepts import write_concepts
from generator.repo.synthesize.doc_links import shard_concepts
from generator.repo.synthesize.flowdocs import flow_passages
from generator.repo.synthesize.notes import corrections_digest
from generator.repo.synthesize.questions import answer_questions
from generator.text.sentences import merged_alike, says_something

Outcome = ShardDraft | BaseException
"""What analyzing a shard gave: its draft, or the exception it failed with."""

SYNTHESIS_VERSION = 2
HISTORY_ROWS = 10
SUMMARY_CHARS = 200  # a subsystem's one sentence on the index, never cut
_LIST_MARK = re.compile(r"^(?:\d{1,2}[.)]|[-*+•])\s+")
ALIKE_MODULES = 3  # modules saying one sentence with a word changed speak for their subsystem
MAIN_SYMBOLS = 3  # a subsystem's main symbols: the first documented one describes it when nothing else does
# an example (an assignment, a call, a prompt) or a reference (a comment opening with a link, as Chart.js',
# mermaid's and got's do) is not what a symbol is
_NOT_PROSE = re.compile(r"^[\w.]+\s*(?:=|\()|^[>$]|^(?:see:?\s+)?<?https?://", re.IGNORECASE)
# a maintainer's note about the code, not what it is: "This file generate by script, don't modify it", "We are
# using arrow functions …", "… TODO remove any"
_NOTE = re.compile(
    r"^(?:we|i|note|nb)\b|\b(?:todo|fixme|xxx|hack)\b|\bgenerated?\b.{0,20}\bby\b|\b(?:do not|don'?t)\s+(?:edit|modify|use)\b"
    # a stability notice: jotai's "Internal functions (subject to change without notice)", "For internal
    # use only", requests' and pinia's "not part of the public API"
    r"|\bsubject to change\b|\binternal use\b|\bnot (?:a )?part of the public api\b",
    re.IGNORECASE,
)
_NOT_TAGS = frozenset({"text", "other", "markdown", "rst", "json", "yaml", "toml", "ini", "csv", "xml"})


def synthesize(study: Study, provider: Provider, outcomes: Mapping[int, Outcome]) -> RepoResult:
    """The landed shards' analyses and the index's record; failed shards are listed, never described."""
    modules = core_modules(study.repo_map)
    analyses = [
        build_analysis(study, index, shard, outcomes.get(index, ResearchError("not analyzed")))
        for index, shard in enumerate(study.plan.shards, 1)
    ]
    graph = study.facts.calls
    landed = [a for a in analyses if a.status == "ok"]
    # calls out of each shard's main module add the borders imports cannot show (a Go package's files
    # share one import path)
    main = [shard.files[0] for shard in study.plan.shards if shard.files]
    calls = graph.edges(main) if graph is not None else []
    shards = [(a.index, tuple(a.shard.files)) for a in landed]
    placement = place_modules(modules, shards, study.facts, study.repo_map)
    tree = graph.tree(modules) if graph is not None else []  # entry point → where the work is done
    chain = main_line(tree)
    edges = subsystem_edges(placement, study.facts, calls, chain)
    link_subsystems(landed, edges)
    synthesis = repo_synthesis(study, provider, analyses, modules)
    synthesis.architecture = edges
    synthesis.catalogue = catalogue(placement, landed, study.facts, study.repo_map, study.ctx.linker)
    synthesis.modules_present = len(modules)
    synthesis.main_flow = flow_hops(chain, study.ctx.linker)
    synthesis.flow_tree = flow_branches(tree, study.ctx.linker)
    synthesis.flow_docs = flow_passages(synthesis.flow_tree, study.docs)
    # then what the examples call on what the entry returns: fx's `App.Run` after `New`
    synthesis.then_tree = flow_branches(graph.then(tree) if graph is not None else [], study.ctx.linker)
    synthesis.then_docs = flow_passages(synthesis.then_tree, study.docs)
    synthesis.shard_concepts = shard_concepts(study.docs.concepts if study.docs else (), landed)
    synthesis.answers = answer_questions(study, provider)
    synthesis.concept_texts = write_concepts(study, provider)
    synthesis.program, synthesis.commands = command_lines(study)
    synthesis.notes = study.target.notes
    synthesis.corrections = corrections_digest(study.target.entry, study.target.notes)
    usage = {
        "llm_calls": provider.usage.calls,
        "cache_hits": provider.usage.cache_hits,
        "input_tokens": synthesis.tokens.get("input", 0),
        "output_tokens": synthesis.tokens.get("output", 0),
    }
    return RepoResult(study, synthesis, usage)


def build_analysis(study: Study, index: int, shard: Shard, outcome: Outcome) -> ShardAnalysis:
    """A shard's record from its draft and the facts; a failure becomes a failed record with its reason."""
    if isinstance(outcome, BaseException):
        return ShardAnalysis(index, shard, "", "", status="failed", error=error_line(outcome))
    ctx, facts = study.ctx, study.facts
    draft = outcome.draft
    # the shard's own flow, drawn as the index draws the repository's: a call tree from its entry point
    tree = facts.calls.tree(shard.files) if facts.calls is not None else []
    types = key_types(shard.files, facts, ctx.linker)
    functions = key_functions(shard.files, facts, ctx.linker)
    analysis = ShardAnalysis(
        index,
        shard,
        shard_slug(index, shard),
        "",
        key_types=types,
        functions=functions,
        explained=explain(
            [t.symbol for t in types] + functions[:EXPLAINED_FUNCTIONS], ctx.root, facts, ctx.redactor
        ),
        flow=flow_hops(main_line(tree), ctx.linker),
        flow_tree=flow_branches(tree, ctx.linker),
        files=module_lines(shard.files, study.repo_map, facts, ctx.linker),
        imports=[
            (path, target)
            for path in shard.files
            for target in (facts.files[path].depends_on if path in facts.files else [])
            if target in shard.files and target != path
        ],
        generated=outcome.generated,
        fallback=outcome.fallback,
        rejected=outcome.rejected,
        provider=outcome.provider,
        model=(draft.model if isinstance(draft, ModelDraft) else "") or outcome.model,
        tags=canonical(["repository", *language_tags(study.repo_map, shard.files)]),
    )
    if isinstance(draft, ModelDraft):
        said, text = split_model_summary(draft.text)
        # model text is bounded here: one sentence, or its first 300 characters when it never ends
        summary = first_sentence(said, SUMMARY_CHARS * 2) or said[:SUMMARY_CHARS]
        valid, dropped = check_citations(text, ctx.linker)
        analysis.model_text, analysis.truncated = text, draft.truncated
        analysis.input_note = draft.input_note
        analysis.purpose = [ctx.redactor.redact(s)[0] for s in shard_purpose(shard, facts)]
        analysis.input_tokens, analysis.output_tokens = draft.input_tokens, draft.output_tokens
        analysis.citations_valid, analysis.citations_dropped = len(valid), dropped
    else:
        analysis.purpose = list(draft.purpose)
        summary = ""
        analysis.model = "offline-extractive"
    own = package_doc(shard, study.plan.shards, facts) or readme_doc(study, shard) or _sole_shard_doc(study)
    own = own or core_doc(shard, facts, study.ctx.readme)
    central = _central(analysis, facts)
    if central is not None and not central.purpose and analysis.top_symbols and own not in analysis.purpose:
        # its main module says nothing of itself: its package's own words, the symbol it is named after, or
        # what it defines, say more than a neighbour's docstring
        said = own or _named_symbol_says(analysis) or _main_symbol_says(analysis)
        analysis.purpose.insert(0, said or _defines(analysis) + ".")
    # citations_valid counts the model's own checked citations: deepkb's links to the facts are not its work
    said, titled = docs_say(analysis, study.docs.concepts if study.docs is not None else ())
    analysis.summary = " ".join(
        (summary or _offline_summary(analysis, own, said, titled, facts=facts)).split()
    )
    return analysis


# a sentence opening with a request, a notice, an impersonal "it" or a pointer to the page itself says how to
# use a part or what the page is, not what the part is: websockets' Trio page "Please provide feedback in GitHub
# issues about the API …", quart's "It is not recommended to run Quart directly …"
_ASIDE = re.compile(
    r"^(?:please|note|nb|it\s+is|it's|let's|here|for\s+(?:some|more|example|instance)"
    r"|this\s+(?:page|section|guide|document|chapter))\b",
    re.IGNORECASE,
)


def docs_say(analysis: ShardAnalysis, concepts: Sequence[DocConcept]) -> tuple[str, bool]:
    """What the project's docs say the subsystem is, and whether the concept it comes from is titled after
    the subsystem (its name starts with the subsystem's: "Configuration" for "Config", "Response and Decoders"
    for "Response"): the opening sentence of the concept named like it ("Requests" and its docs page
    "Requests", or a page whose file is: `seqs.rst` for "Seqs"), else of one whose name holds the
    subsystem's and that leads with its main symbol or with a symbol of its files ("Rich Text" for "Text", "Pretty Printing" for "Pretty"), else of one that leads with
    its main symbol, when that sentence names one of its symbols (a migration guide mentioning `Handler`
    further on opens with "First and foremost, …"), and is no aside (`_ASIDE`); ('', False) when none is."""
    name = analysis.shard.name.lower().rstrip("s")
    top = analysis.top_symbols[0].name if analysis.top_symbols else ""
    # … or whose page is the module's namesake (funcy's docs/seqs.rst, "Sequences", for its Seqs)
    named = [
        c
        for c in concepts
        if c.name.lower().rstrip("s") == name
        or any(PurePosixPath(page.path).stem.lower().rstrip("s") == name for page in c.pages)
    ]
    led = [c for c in concepts if top and c.symbols and c.symbols[0].name == top]
    within = [c for c in concepts if c.symbols and c.symbols[0].path in analysis.shard.files]
    holding = [c for c in [*led, *(c for c in within if c not in led)] if name in _name_words(c.name)]
    symbols = {symbol.name.rpartition(".")[2] for symbol in analysis.top_symbols}
    for concept in named or [*holding, *led]:
        said = [p.text for page in concept.pages for p in page.passages if p.kind == "paragraph"]
        sentence = opening_sentence(said[:1], SUMMARY_CHARS)
        if (
            sentence
            and not _ASIDE.match(sentence)
            and (concept in named or concept in holding or symbols & set(re.findall(r"\w+", sentence)))
        ):
            return sentence, concept.name.lower().startswith(name)
    return "", False


def _name_words(name: str) -> set[str]:
    return {word.rstrip("s") for word in re.findall(r"\w+", name.lower())}


def own_folder(shard: Shard, shards: Sequence[Shard]) -> str:
    """The folder a shard's files share when no other shard's files are in it ('' otherwise): the
    sub-package it stands for. A flat package divided into several shards is none of theirs."""
    folders = {posixpath.dirname(path) for path in shard.files}
    folder = posixpath.commonpath(sorted(folders)) if folders else ""
    others = [path for other in shards if other is not shard for path in other.files]
    return "" if not folder or any(path.startswith(f"{folder}/") for path in others) else folder


def readme_doc(study: Study, shard: Shard) -> str:
    """The opening of the README of the folder a shard stands for (`own_folder`), or of the nearest folder
    above it that holds no other shard's files (a crate's README above its src/), when it fits a table cell
    whole; never a lead-in to what it does not quote (mitmproxy's web/README.md: "There are two
    components:")."""
    folder = own_folder(shard, study.plan.shards)
    others = [path for other in study.plan.shards if other is not shard for path in other.files]
    paths = {entry.path for entry in study.repo_map.files} if folder else set()
    while folder and not any(path.startswith(f"{folder}/") for path in others):
        said = folder_readme_opening(study.ctx.root, folder, paths, study.ctx.redactor)
        if said:
            stated = says_something(said, words=4) and not said.rstrip().endswith(":")
            return lead(said, SUMMARY_CHARS) if stated else ""
        folder = posixpath.dirname(folder)
    return ""


def core_doc(shard: Shard, facts: Facts, readme: str) -> str:
    """What the top package says it is (its `__init__.py` docstring), else the README's opening, for the
    subsystem named its core (`core_name`): taskiq's core was "ExceptionRepr: Serializable exception model for
    pydantic v2.", one class's docstring, where its package says "Distributed task manager."; '' otherwise."""
    door = facts.files.get(root_door(shard.files, facts)) if shard.name == "Core" else None
    for said in (door.doc if door is not None else "", readme if door is not None else ""):
        if says_something(said) and not said.rstrip().endswith(":"):
            return lead(said, SUMMARY_CHARS)
    return ""


def _sole_shard_doc(study: Study) -> str:
    """What the README's first paragraph says the project is, when one subsystem holds all of its code: that
    subsystem is the project. morgan's (index.js alone) had been described by its `compile` helper's doc
    comment, "Compile a format string into a function.", not "HTTP request logger middleware for node.js"."""
    said = study.ctx.readme
    if len(study.plan.shards) != 1 or not says_something(said, words=4) or said.rstrip().endswith(":"):
        return ""
    return lead(said, SUMMARY_CHARS)


def package_doc(shard: Shard, shards: Sequence[Shard], facts: Facts) -> str:
    """What the sub-package a shard stands for says it is (its `__init__.py` docstring, its `doc.go`), when
    the shard's files share a folder no other shard's files are in; '' otherwise. A flat package divided
    into several shards is not described by the package's docstring: that speaks for all of them."""
    folder = own_folder(shard, shards)
    if not folder:
        return _go_package_doc(shard, shards, facts)
    for name in PACKAGE_DOC_FILES:
        fact = facts.files.get(f"{folder}/{name}")
        if fact is not None and says_something(fact.doc, words=4):
            return lead(fact.doc, SUMMARY_CHARS)
    return ""


def _go_package_doc(shard: Shard, shards: Sequence[Shard], facts: Facts) -> str:
    """The `doc.go` of the Go package most of a shard's Go files are in, when no other shard has a file in
    that folder: a Go package is its folder alone, so the shard that holds it (with the commands and
    internal packages it pulls in) is what the package says it is. bbolt's root package ("Package bbolt
    implements a low-level key/value store…") was described by a guide's sentence about `NextSequence()`;
    the planner leaves `doc.go` out of the shard, as it imports nothing. '' otherwise."""
    folders = Counter(posixpath.dirname(p) for p in shard.files if p.endswith(".go"))
    if not folders:
        return ""
    home, count = folders.most_common(1)[0]
    if 2 * count <= sum(folders.values()) or any(
        posixpath.dirname(p) == home for other in shards if other is not shard for p in other.files
    ):
        return ""
    fact = facts.files.get(posixpath.join(home, "doc.go"))
    return lead(fact.doc, SUMMARY_CHARS) if fact is not None and says_something(fact.doc, words=4) else ""


def _offline_summary(
    analysis: ShardAnalysis,
    own: str = "",
    docs: str = "",
    titled: bool = True,
    *,
    facts: Facts | None = None,
) -> str:
    """What the sub-package the subsystem stands for says it is (`own`: `package_doc`), else what most of its
    modules say with one word changed (`_kind_says`), else what its central module (the most important one
    that is no shim, helper or errors module) says it is for, else the package's documentation file (Go's
    `doc.go`), else what the project's docs say of it (`docs`: `docs_say`) from a page `titled` after it, when
    that fits a table cell; else what its own symbols' doc comments say (`_named_symbol_says`,
    `_main_symbol_says`), then the opening of a docs page titled otherwise, else what the subsystem defines. A
    neighbour's docstring ("Handlers for Content-Encoding.") misnames it, and so does the opening of a page on
    something else that mentions it: bleach's sanitizer was "If you upgrade to html5lib 1.1+, you may get
    deprecation warnings …" from its migration page, watermill's Message "Delaying events or commands is a
    common use case …" from "Delayed Messages", sanic's app "Sanic Extensions can be configured …"."""
    central = _central(analysis, facts)
    doc_files = [
        f.purpose
        for f in analysis.files
        if PurePosixPath(f.path).stem == "doc" and f.purpose and not _package_says(f.path, analysis, facts)
    ]
    code = [_named_symbol_says(analysis), _main_symbol_says(analysis)]
    for said in [
        own,
        _kind_says(analysis),
        central.purpose if central else "",
        *doc_files,
        *([docs, *code] if titled else [*code, docs]),
    ]:
        if said and len(said) <= SUMMARY_CHARS and not _NOTE.search(said):
            return said
    if analysis.top_symbols:
        return _defines(analysis) + "."
    count = len(analysis.shard.files)
    return f"{count} module{'s' if count != 1 else ''}: " + ", ".join(analysis.shard.files) + "."


def _kind_says(analysis: ShardAnalysis) -> str:
    """The sentence most of the subsystem's modules say with one word changed, once (`merged_alike`), when at
    least three do: cattrs' preconf/ is "Preconfigured converters for msgspec, bson, orjson and tomlkit.", not
    its `wrap` helper's "Wrap a `Converter` `__init__` in a type-safe way."; '' otherwise."""
    said = [f.purpose for f in analysis.files if f.purpose]
    merged = max(merged_alike(said), key=lambda pair: pair[1], default=("", 0))
    return merged[0] if merged[1] >= ALIKE_MODULES and 2 * merged[1] >= len(said) else ""


def _central(analysis: ShardAnalysis, facts: Facts | None = None) -> ModuleLine | None:
    """The module the shard is named after ("File sink": `_file_sink.py`), else its most important module
    that says what it does by its name (not `compat.py`): a group of several modules is described by the
    one its name speaks of, not by a neighbour's docstring (loguru's "File sink" was "Frequencies: …"), nor
    by the package's own file when the shard holds only part of the package (`speaks_for_more`)."""
    named = _named_module(analysis)
    files = [f for f in analysis.files if not _package_says(f.path, analysis, facts)]
    return (
        next((f for f in files if f.path == named), None)
        or next((f for f in files if not says_where_not_what(f.path)), None)
        or next(iter(files), None)
    )


def _package_says(path: str, analysis: ShardAnalysis, facts: Facts | None) -> bool:
    return facts is not None and speaks_for_more(path, analysis.shard.files, facts)


def _named_module(analysis: ShardAnalysis) -> str:
    """The path of the shard's module whose name is the shard's ('' when none is)."""
    wanted = analysis.shard.name.lower()
    return next(
        (
            p
            for p in analysis.shard.files
            if phrase(name_words(PurePosixPath(p).name.split(".")[0])).lower() == wanted
        ),
        "",
    )


def _named_symbol_says(analysis: ShardAnalysis) -> str:
    """What the doc comment of the symbol a subsystem is named after says it is (echo's "Context":
    "Context represents the context of the current HTTP request."); '' when no main symbol is its name."""
    name = analysis.shard.name.lower().replace(" ", "")
    symbol = next((s for s in analysis.top_symbols if s.name.lower() == name), None)
    return first_sentence(symbol.doc, SUMMARY_CHARS) if symbol is not None and symbol.doc else ""


def _main_symbol_says(analysis: ShardAnalysis) -> str:
    """What the first documented of the subsystem's main symbols says it is, named first when its sentence
    does not start with its name ("Client: An HTTP client, with connection pooling …"), so one member's
    sentence is never passed off as the whole group's; '' when none of them has a doc comment that reads
    as a sentence (an example line such as `url = httpx.URL(…)` does not)."""
    named = _named_module(analysis)
    primary = [s for s in analysis.top_symbols if not s.secondary]
    # the module the subsystem is named after speaks first: a neighbour's symbol misdescribes the group
    for symbol in [*[s for s in primary if s.path == named][:MAIN_SYMBOLS], *primary[:MAIN_SYMBOLS]]:
        name = symbol.name.rpartition(".")[2]
        sentence = first_sentence(symbol.doc, SUMMARY_CHARS - len(name) - 2) if symbol.doc else ""
        if not says_something(sentence, words=4) or _NOT_PROSE.match(sentence) or _NOTE.search(sentence):
            continue
        # the sentence starts capitalised: Go's unexported `cmSketch` opens "CmSketch is a Count-Min sketch"
        opening = [word.strip(",:`'") for word in sentence.split()[:3]]
        named_first = name in opening or opening[:1] == [name[:1].upper() + name[1:]]
        return sentence if named_first else f"{name}: {sentence}"  # "A Value is either a flag …"
    return ""


def _defines(analysis: ShardAnalysis) -> str:
    """ "Defines A, B and C": a name two of them share is told apart by its folder ("json.Codec"), as a
    group of sibling packages each with its own `Codec` read "Defines Codec, Codec and Codec"."""
    top = analysis.top_symbols[:3]
    shared = {s.name for s in top if sum(t.name == s.name for t in top) > 1}
    names = [f"{_folder_name(s.path)}.{s.name}" if s.name in shared else s.name for s in top]
    return "Defines " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


def _folder_name(path: str) -> str:
    parent = PurePosixPath(path).parent
    return parent.name or PurePosixPath(path).stem


def canonical(terms: Sequence[str]) -> list[str]:
    """Canonical tags via the knowledge base's synonym table."""
    return list(canonical_tags([t for t in terms if t]))


def language_tags(repo_map: RepoMap, paths: Sequence[str] | None = None, limit: int = 4) -> list[str]:
    wanted = set(paths) if paths is not None else None
    counts: Counter[str] = Counter()
    for entry in repo_map.files:
        if (wanted is None or entry.path in wanted) and entry.language not in _NOT_TAGS:
            counts[entry.language] += entry.lines
    return [lang for lang, _ in counts.most_common(limit)]


# --------------------------------------------------------------------------- the index's record


def repo_synthesis(
    study: Study, provider: Provider, analyses: list[ShardAnalysis], modules: Sequence[str]
) -> RepoSynthesis:
    """The index's record; `modules`: the repository's core modules (`core_modules`)."""
    landed = [a for a in analyses if a.status == "ok"]
    tokens = {
        "input": study.plan_tokens.get("input", 0) + sum(a.input_tokens for a in landed),
        "output": study.plan_tokens.get("output", 0) + sum(a.output_tokens for a in landed),
    }
    summary, summary_tokens, summary_by = overall_summary(study, provider, landed, modules)
    source, checkout = study.source, study.checkout
    web = source.web_url or ""
    history = file_history(study.checkout.path, modules)  # renames followed
    return RepoSynthesis(
        title=source.name,
        label=study.label,
        source=web or (source.location if source.kind == "url" else study.label),
        source_url=web,
        revision=checkout.revision,
        revision_url=f"{web}/commit/{checkout.revision}" if web and checkout.revision else "",
        revision_date=checkout.revision_date,
        git=checkout.git,
        provider=provider.name,
        model=provider.model_for("analyze"),
        offline=provider.offline,
        analyses=analyses,
        overview=study.ctx.readme,
        summary=summary,
        summary_by=summary_by,
        history=list(history.counts.items())[:HISTORY_ROWS],
        history_window=history.window,
        languages=study.repo_map.languages(),
        skipped=list(study.repo_map.skipped),
        context=context_folders(f.path for f in study.repo_map.files),
        planner=study.plan.planner,
        planner_note=study.plan.note,
        tokens={k: v + summary_tokens.get(k, 0) for k, v in tokens.items()},
    )


def command_lines(study: Study) -> tuple[str, list[CommandLine]]:
    """The program's name and its commands, each with the symbol that runs it, cited."""
    root = study.checkout.path
    program, commands = named_commands(lambda path: read_or_none(root, path), study.facts.files)
    return program, [
        CommandLine(c.name, c.help, cite(c.symbol, c.path, study.ctx.linker, described=False))
        for c in commands
    ]


def overall_summary(
    study: Study, provider: Provider, landed: Sequence[ShardAnalysis], modules: Sequence[str]
) -> tuple[list[str], dict[str, int], str]:
    """The model's summary of the shard summaries (saved; re-asked only when they change) and the model that
    wrote it; offline, or when the model's answer is no summary (empty, looping, no sentence), the most
    important modules' first sentences when the README gave no paragraph."""
    if provider.offline or not any(a.model_text for a in landed):
        # a model that analysed no shard (each fell back to the offline page) does not summarize them either
        return offline_summary(study, modules), {}, ""
    shards = [f"- {a.shard.name}: {a.summary}" for a in landed]
    readme = study.ctx.readme[:4000]
    model = provider.model_for("synthesize")
    key = fingerprint("synthesis", SYNTHESIS_VERSION, shards, readme, provider.name, model)
    saved = study.cache.load_stage("synthesis", key)
    if saved is not None:
        return list(saved["summary"]), dict(saved["tokens"]), str(saved.get("model") or model)
    prompt = Prompt(
        user=(
            f"Repository: {study.label}\nREADME (first paragraph):\n{readme}\n\n"
            "Subsystems and what each does:\n"
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
        return offline_summary(study, modules), {}, ""  # the shards landed: a missing summary fails nothing
    text, _ = study.ctx.redactor.redact(answer.text)
    # a list marker a model starts its prose with ("1. The shop …") is not part of the sentence
    paragraphs = [_LIST_MARK.sub("", " ".join(p.split())) for p in text.split("\n\n") if says_something(p)][
        :4
    ]
    tokens = {"input": answer.input_tokens, "output": answer.output_tokens}
    if not paragraphs or repeats_itself(text) or not mentions_the_repository(paragraphs, study, landed):
        return offline_summary(study, modules), tokens, ""  # not saved: the next run asks again
    study.cache.save_stage("synthesis", key, {"summary": paragraphs, "tokens": tokens, "model": answer.model})
    return paragraphs, tokens, answer.model


def mentions_the_repository(paragraphs: Sequence[str], study: Study, landed: Sequence[ShardAnalysis]) -> bool:
    """Whether a model's summary names anything of this repository (its name, a subsystem's, a key symbol or
    module of one): a summary that could be about any code ("This is a bit of code from the docs") is not one."""
    names = [study.source.name, *(a.shard.name for a in landed)]
    names += [s.name.rsplit(".", 1)[-1] for a in landed for s in a.top_symbols[:5]]
    names += [PurePosixPath(path).stem for a in landed for path in a.shard.files[:5]]
    terms = {word.lower() for name in names for word in re.findall(r"[^\W\d_]{4,}", name)}
    said = {word.lower() for word in re.findall(r"[^\W\d_]{4,}", " ".join(paragraphs))}
    return bool(terms & said)


def offline_summary(study: Study, modules: Sequence[str]) -> list[str]:
    """The most important modules' first sentences, when the README gave no paragraph to lead with."""
    if study.ctx.readme:
        return []
    ranked = rank_files(modules, study.facts, study.repo_map)
    docs = [first_sentence(study.facts.files[p].doc) for p in ranked[:6] if p in study.facts.files]
    return list(dict.fromkeys(d for d in docs if d and not _CREDIT.search(d)))[:3]


# a module's comment crediting the code it comes from: consola's color.ts, "Based on
# https://github.com/jorgebucaran/colorette Read LICENSE file for more information …", had become the index's
# opening line — where the code comes from and under what licence, never what the project is
_CREDIT = re.compile(
    r"^(?:based on|adapted from|ported from|forked from|derived from|taken from|inspired by)\b"
    r"|\blicen[cs]e(?:d| file)?\b|\bcopyright\b|\(c\)\s*\d{4}",
    re.IGNORECASE,
)
