"""Stage 8, analyze one shard: a draft, the model's answer or the offline analyst's purpose sentences.

Drafts are what the incremental cache stores: they do not depend on the revision, so a shard whose files did
not change is described again with new permalinks without asking the model. The model is shown the same
facts the offline pages are built from (key types with their methods, module lines) beside the packed code.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from generator.config import RepoResearchConfig
from generator.errors import AnswerRejected, PromptTooLarge
from generator.llm.base import Completion, Prompt, Provider
from generator.llm.window import CHARS_PER_TOKEN, SAFETY_MARGIN, Window, context_window, measured
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker, check_citations
from generator.repo.analyze.describe import key_functions, key_types, sentences
from generator.repo.facts.calltree import main_line
from generator.repo.model import (
    ANALYZE_INPUT_CAP,
    ANALYZE_OUTPUT_TOKENS,
    PACK_CHAR_CAP,
    CallEdge,
    Citation,
    Facts,
    ModelDraft,
    OfflineDraft,
    RepoMap,
    Shard,
)
from generator.repo.pack.packer import PackedShard, pack_files
from generator.repo.plan.naming import says_where_not_what, speaks_for_more
from generator.repo.plan.subsystems import core_modules
from generator.text.sentences import merge_alike, says_something

Report = Callable[[str], None]
_SUMMARY_LINE = re.compile(r"^\s*\**summary\**\s*:\s*\**\s*(.+)$", re.IGNORECASE | re.MULTILINE)

SYSTEM_PROMPT = (
    "You are a senior software engineer writing a precise, grounded analysis of one subsystem of a repository "
    "for a knowledge base. Every claim about the code cites it as path:start-end (for example "
    "src/app.py:10-24), using the line numbers shown in the files. Cite only lines you were shown. "
    "Write markdown with headings, paragraphs and lists only: no HTML, no links, no images."
)


@dataclass(frozen=True)
class ShardContext:
    """What analyzing and rendering a shard needs to know about the repository at its pinned revision."""

    root: Path
    label: str  # owner/name
    repo_map: RepoMap
    facts: Facts
    linker: Linker
    options: RepoResearchConfig
    redactor: Redactor
    readme: str = ""  # the README's first real paragraph

    # what only a model's prompt needs is made the first time a prompt asks for it (never offline)
    @cached_property
    def overview(self) -> str:
        """`repository_overview`: what every shard's prompt shares (redacted)."""
        return repository_overview(self.readme, self.facts, self.redactor)

    @cached_property
    def flow(self) -> str:
        """`repository_flow`: the repository's entry points and main flow as prompt lines (redacted)."""
        return self.redactor.redact(repository_flow(self.facts, core_modules(self.repo_map)))[0]


# --------------------------------------------------------------------------- drafts


def draft_with_model(shard: Shard, ctx: ShardContext, provider: Provider, report: Report) -> ModelDraft:
    """Pack the shard (redacted, fitted to the model's window) and ask the model; the answer is untrusted
    text. PromptTooLarge, before anything is sent, when the shard does not fit even without its code."""
    report("packing")
    fitted, answer = _ask(shard, ctx, provider, report)
    text, _ = ctx.redactor.redact(answer.text)  # a model can echo what it was shown
    problem = answer_problem(text, ctx.linker)
    if problem:
        # nothing worth publishing: the pipeline falls back to the offline analyst's draft, with this reason
        raise AnswerRejected(f"the model's answer {problem}")
    return ModelDraft(
        text=text,
        model=answer.model,
        input_tokens=answer.input_tokens,
        output_tokens=answer.output_tokens,
        truncated=bool(fitted.cut),
        redactions=fitted.packed.redactions,
        input_note=fitted.cut,
    )


def _ask(
    shard: Shard, ctx: ShardContext, provider: Provider, report: Report
) -> tuple[FittedShard, Completion]:
    """The fitted prompt and the model's answer. A server that refuses the prompt and names a smaller window
    than deepkb assumed (its provider keeps that window for the run) is asked once more, fitted to it."""
    window = context_window(provider, "analyze")
    fitted = fit_shard(shard, ctx, window, _answer_tokens(provider, window))
    report("asking the model")
    try:
        return fitted, provider.complete(fitted.prompt)
    except PromptTooLarge:
        stated = context_window(provider, "analyze")
        if stated.tokens >= window.tokens:
            raise
    fitted = fit_shard(shard, ctx, stated, _answer_tokens(provider, stated))
    return fitted, provider.complete(fitted.prompt)


def _answer_tokens(provider: Provider, window: Window) -> int:
    return min(
        ANALYZE_OUTPUT_TOKENS, provider.config.max_output_tokens, max(MIN_OUTPUT_TOKENS, window.tokens // 4)
    )


MIN_OUTPUT_TOKENS = 1024
"""A shard's answer gets at least this many tokens (a quarter of the window when that is more)."""
MIN_CODE_CHARS = 1_500
"""Less packed code than this (a file's header and a few dozen lines) is not worth the model's call: the
shard is analysed offline instead."""


@dataclass(frozen=True)
class FittedShard:
    prompt: Prompt
    packed: PackedShard
    cut: str
    """What was left out to fit the window, as the page says it ("" when nothing was)."""


def fit_shard(shard: Shard, ctx: ShardContext, window: Window, output: int) -> FittedShard:
    """The shard's prompt within `window` with `output` tokens kept for the answer. The packed code shrinks
    first: function bodies are left out (repo.compress) when the whole pack does not fit, then the least
    important files; then the repository overview. PromptTooLarge when not even MIN_CODE_CHARS of code fit
    without the overview."""
    lines = ctx.overview.splitlines()
    for keep in dict.fromkeys((len(lines), len(lines) // 2, len(lines) // 4, 0)):
        overview = "\n".join(lines[:keep])
        found = _fit_code(shard, ctx, overview, window, output)
        if found is not None:
            prompt, packed, compressed = found
            note = _cut_note(shard, packed, compressed, keep < len(lines), window)
            return FittedShard(prompt, packed, note)
    raise PromptTooLarge(
        f"the shard's prompt does not fit the model's {window.tokens:,}-token window ({window.source}) "
        f"even with only {MIN_CODE_CHARS:,} characters of code and no overview; it was analysed offline",
        hint="serve the model with a larger window (llama.cpp: --ctx-size, Ollama: num_ctx) and set "
        "llm.context_window, or lower llm.max_output_tokens",
    )


def _fit_code(
    shard: Shard, ctx: ShardContext, overview: str, window: Window, output: int
) -> tuple[Prompt, PackedShard, bool] | None:
    """The prompt with as much packed code as fits beside `overview` (bodies left out when that keeps more
    of the shard), whether bodies were left out for it, or None when less than MIN_CODE_CHARS fit."""
    whole = _fit_pack(shard, ctx, overview, window, output, ctx.options.compress)
    if ctx.options.compress or (whole is not None and not whole[1].truncated):
        return None if whole is None else (*whole, False)
    outline = _fit_pack(shard, ctx, overview, window, output, True)
    if outline is not None:
        return (*outline, True)
    return None if whole is None else (*whole, False)


def _fit_pack(
    shard: Shard, ctx: ShardContext, overview: str, window: Window, output: int, compress: bool
) -> tuple[Prompt, PackedShard] | None:
    # the estimate is not linear in characters, so the cap is narrowed a few times towards what fits
    frame = _shard_prompt(shard, ctx, overview, "", output)
    spare = window.tokens - output - measured(frame)
    fixed = min(PACK_CHAR_CAP, ANALYZE_INPUT_CAP - len(frame.user) - len(SYSTEM_PROMPT))
    cap = min(fixed, int(spare / (1 + SAFETY_MARGIN) * CHARS_PER_TOKEN))
    shared = cap < fixed  # the window is what limits: every file's start rather than the first files whole
    for _ in range(6):
        if cap < MIN_CODE_CHARS:
            return None
        packed = _pack(shard, ctx, cap, compress, shared)
        prompt = _shard_prompt(shard, ctx, overview, packed.text, output)
        code_tokens = measured(prompt) - measured(frame)
        if code_tokens <= spare and packed.files_included:
            return prompt, packed
        cap = int(len(packed.text) * spare / max(code_tokens, 1) * 0.97)
    return None


def _pack(shard: Shard, ctx: ShardContext, cap: int, compress: bool, shared: bool) -> PackedShard:
    return pack_files(
        ctx.root,
        list(shard.files),
        ctx.facts,
        remove_comments=ctx.options.remove_comments,
        remove_empty_lines=ctx.options.remove_empty_lines,
        compress=compress,
        cap=cap,
        redactor=ctx.redactor,
        shared=shared,
    )


def _shard_prompt(shard: Shard, ctx: ShardContext, overview: str, packed: str, output: int) -> Prompt:
    return Prompt(
        user=_analysis_prompt(shard, ctx, overview, packed)[: ANALYZE_INPUT_CAP - len(SYSTEM_PROMPT)],
        system=SYSTEM_PROMPT,
        max_tokens=output,
        stage="analyze",
        # every shard of the repository starts with the same instructions and overview: cached (Anthropic)
        cache_prefix_chars=len(_shared_prefix(ctx, overview)),
    )


def _cut_note(shard: Shard, packed: PackedShard, compressed: bool, overview_cut: bool, window: Window) -> str:
    """What the page says about the model's input when part of it was left out to fit, else ""."""
    if not (packed.truncated or compressed or overview_cut):
        return ""
    seen, total = len(packed.files_included), len(shard.files)
    saw = f"The model saw {f'{seen} of {total}' if seen < total else f'all {total}'} files"
    cut = len(packed.files_cut)
    details = [
        "the last of them only in part" if packed.last_cut else "",
        f"{'each' if cut == seen else f'{cut} of them'} only in its first lines" if cut else "",
        "function bodies left out" if compressed else "",
        "a shortened overview of the repository" if overview_cut else "",
    ]
    said = ", ".join(d for d in details if d)
    return f"{saw}{' (' + said + ')' if said else ''}: its prompt was fitted to the model's {window.tokens:,}-token context window."


ENTRY_LINES = 5  # entry points named in every shard's prompt


def answer_problem(text: str, linker: Linker) -> str | None:
    """Why a shard analysis is not worth a page (a weak model's usual failures), or None when it is."""
    if not text.strip():
        return "was empty"
    if repeats_itself(text):
        return "repeats itself"
    valid, dropped = check_citations(text, linker)
    if not valid:
        cited = f" ({dropped} citation(s) named lines that do not exist)" if dropped else ""
        return f"cites no line of the repository{cited}"
    return None


def repeats_itself(text: str) -> bool:
    """A looping answer: most of its lines are copies of other lines, or the text compresses like a loop
    (prose compresses to about a third; a phrase repeated over and over to a tenth or less)."""
    lines = [" ".join(line.split()).lower() for line in text.splitlines() if len(line.split()) >= 3]
    if len(lines) >= 6 and len(set(lines)) < len(lines) / 2:
        return True
    data = text.encode()
    return len(data) >= 600 and len(zlib.compress(data, 9)) < len(data) / 8


OVERVIEW_CAP = 6_000  # characters of repository overview in every shard prompt (about 1,500 tokens)


def _shared_prefix(ctx: ShardContext, overview: str) -> str:
    """The part of every shard prompt of one repository that is the same: instructions, overview."""
    return (
        f"Repository: {ctx.label}\n\n"
        "Write the analysis of the subsystem named below in this shape:\n"
        "Summary: <one sentence saying what this subsystem does>\n"
        "## Purpose\n## How it works\n## Key components\n## Entry points and interfaces\n## Risks and notes\n"
        "Name the central classes and functions and how a call flows through them. Write whole sentences.\n\n"
        f"The repository at a glance (its modules, most important first):\n{overview}\n\n"
        + (
            f"Where a user enters the code, and the path a call takes from there:\n{ctx.flow}\n\n"
            if ctx.flow
            else ""
        )
    )


def _analysis_prompt(shard: Shard, ctx: ShardContext, overview: str, packed: str) -> str:
    why = f" Why these files belong together: {shard.rationale}" if shard.rationale else ""
    return (
        f"{_shared_prefix(ctx, overview)}Subsystem: {shard.name}.{why}\n\n"
        f"What static analysis found (cite these where you discuss them):\n{shard_facts(shard, ctx)}\n\n"
        f"Files (each line is prefixed with its line number):\n{packed}"
    )


def repository_overview(readme: str, facts: Facts, redactor: Redactor, cap: int = OVERVIEW_CAP) -> str:
    """The README's first paragraph and one line per module (path: first sentence of its documentation),
    most important first, within `cap` characters; redacted, since it goes to the model."""
    lines = [readme.strip()] if readme.strip() else []
    used = len(lines[0]) if lines else 0
    for fact in sorted(facts.files.values(), key=lambda f: (-f.importance, f.path)):
        doc = sentences(fact.doc, 1) if fact.doc else []
        line = f"- {fact.path}" + (f": {doc[0]}" if doc else "")
        if used + len(line) + 1 > cap:
            break
        lines.append(line)
        used += len(line) + 1
    return redactor.redact("\n".join(lines))[0]


def draft_offline(shard: Shard, ctx: ShardContext, report: Report) -> OfflineDraft:
    """The offline analyst's draft: the shard's purpose in its own files' words (the rest of its page is
    described from the facts at synthesis, for the model's drafts as well)."""
    report("reading facts")
    return OfflineDraft(tuple(ctx.redactor.redact(s)[0] for s in shard_purpose(shard, ctx.facts)))


def shard_purpose(shard: Shard, facts: Facts, limit: int = 3) -> list[str]:
    """Whole sentences from the module docstrings of the shard's own files, most important file first and
    shims, helpers and errors modules last (`compat.py`'s history says nothing of the subsystem), and never
    the package's own words when the shard holds only part of it (`speaks_for_more`); a sentence each module
    of a kind repeats with one word changed is said once (`merge_alike`: cattrs' preconf/ is "Preconfigured
    converters for msgspec, bson, orjson …", not three sentences one word apart)."""
    found: list[str] = []
    for path in sorted(shard.files, key=says_where_not_what):
        fact = None if speaks_for_more(path, shard.files, facts) else facts.files.get(path)
        for sentence in sentences(fact.doc, 2) if fact else []:
            if sentence not in found:
                found.append(sentence)
    return merge_alike(found)[:limit]


def shard_facts(shard: Shard, ctx: ShardContext) -> str:
    """The key types (with methods) and functions of the shard as lines for a prompt."""
    lines = []
    for entry in key_types(shard.files, ctx.facts, ctx.linker):
        methods = ", ".join(m.name.rsplit(".", 1)[-1] for m in entry.methods)
        where = _span(entry.symbol.citation)
        lines.append(
            f"- {entry.symbol.kind} {entry.symbol.name} ({where}): {entry.symbol.doc} methods: {methods}"
        )
    for symbol in key_functions(shard.files, ctx.facts, ctx.linker):
        lines.append(f"- {symbol.kind} {symbol.name} ({_span(symbol.citation)}): {symbol.doc}")
    chain = _main_line(ctx.facts, shard.files)
    if chain:
        lines += ["Main flow through these files (each call at its line):", flow_lines(chain)]
    return "\n".join(lines) or "- no public symbols found"


def repository_flow(facts: Facts, modules: Sequence[str]) -> str:
    """The repository's entry points (a maintainer's, else what the README's examples call) and its main
    flow, as prompt lines citing each symbol and call: what the model is told the offline pages show."""
    if facts.calls is None:
        return ""
    entries = facts.calls.entries(modules, limit=ENTRY_LINES)
    lines = [f"- entry point {name} ({path}:{_start(facts, path, name)})" for path, name in entries]
    chain = _main_line(facts, modules)
    if chain:
        lines += ["Main flow (each call at its line):", flow_lines(chain)]
    return "\n".join(lines)


def _main_line(facts: Facts, paths: Sequence[str]) -> list[CallEdge]:
    """The heaviest calls of the call tree from the entry point of `paths`: the flow the pages draw."""
    return main_line(facts.calls.tree(paths)) if facts.calls is not None else []


def flow_lines(chain: Sequence[CallEdge]) -> str:
    """A call chain as numbered lines: `1. get calls request (src/requests/api.py:73)`."""
    return "\n".join(
        f"{number}. {edge.caller or edge.caller_path} calls {edge.callee} ({edge.caller_path}:{edge.line})"
        for number, edge in enumerate(chain, 1)
    )


def _start(facts: Facts, path: str, name: str) -> int:
    fact = facts.files.get(path)
    return next((s.start for s in fact.symbols if s.name == name), 0) if fact is not None else 0


def _span(citation: Citation | None) -> str:
    return f"{citation.path}:{citation.start}-{citation.end}" if citation is not None else "?"


def split_model_summary(text: str) -> tuple[str, str]:
    """The model's "Summary: …" line and the rest of its analysis; "" when it wrote no such line or one that
    is no sentence ("1.", a heading), so the caller uses the offline summary, never a stray first line."""
    found = _SUMMARY_LINE.search(text)
    if not found:
        return "", text
    said = found.group(1).strip().replace("*", "")
    return (said if says_something(said) else ""), text[: found.start()] + text[found.end() :]
