"""Stage 8, analyze one shard: a draft, the model's answer or the offline analyst's purpose sentences.

Drafts are what the incremental cache stores: they do not depend on the revision, so a shard whose files did
not change is described again with new permalinks without asking the model. The model is shown the same
facts the offline pages are built from (key types with their methods, module lines) beside the packed code.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.config import RepoResearchConfig
from generator.errors import ResearchError
from generator.llm.base import Prompt, Provider
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker, check_citations
from generator.repo.analyze.describe import key_functions, key_types, sentences
from generator.repo.model import (
    ANALYZE_INPUT_CAP,
    ANALYZE_OUTPUT_TOKENS,
    PACK_CHAR_CAP,
    Citation,
    Facts,
    ModelDraft,
    OfflineDraft,
    RepoMap,
    Shard,
)
from generator.repo.pack.packer import pack_files
from generator.text.sentences import says_something

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
    request: str | None = None
    overview: str = ""  # `repository_overview`: what every shard's prompt shares (redacted)


# --------------------------------------------------------------------------- drafts


def draft_with_model(shard: Shard, ctx: ShardContext, provider: Provider, report: Report) -> ModelDraft:
    """Pack the shard (redacted, capped) and ask the model; the answer is untrusted text."""
    report("packing")
    frame = _analysis_prompt(shard, ctx, "")
    cap = min(PACK_CHAR_CAP, ANALYZE_INPUT_CAP - len(frame) - len(SYSTEM_PROMPT))
    packed = pack_files(
        ctx.root,
        list(shard.files),
        ctx.facts,
        remove_comments=ctx.options.remove_comments,
        remove_empty_lines=ctx.options.remove_empty_lines,
        compress=ctx.options.compress,
        cap=cap,
        redactor=ctx.redactor,
    )
    report("asking the model")
    prompt = Prompt(
        user=_analysis_prompt(shard, ctx, packed.text)[: ANALYZE_INPUT_CAP - len(SYSTEM_PROMPT)],
        system=SYSTEM_PROMPT,
        max_tokens=min(ANALYZE_OUTPUT_TOKENS, provider.config.max_output_tokens),
        stage="analyze",
        # every shard of the repository starts with the same instructions and overview: cached (Anthropic)
        cache_prefix_chars=len(_shared_prefix(ctx)),
    )
    answer = provider.complete(prompt)
    text, _ = ctx.redactor.redact(answer.text)  # a model can echo what it was shown
    problem = answer_problem(text, ctx.linker)
    if problem:
        # nothing worth publishing: the pipeline falls back to the offline analyst's draft, with this reason
        raise ResearchError(f"the model's answer {problem}")
    return ModelDraft(
        text=text,
        model=answer.model,
        input_tokens=answer.input_tokens,
        output_tokens=answer.output_tokens,
        truncated=packed.truncated,
        redactions=packed.redactions,
    )


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


def _shared_prefix(ctx: ShardContext) -> str:
    """The part of every shard prompt of one repository that is the same: request, instructions, overview."""
    focus = (
        f"Research request: {ctx.request}\nShape the analysis around this request.\n\n" if ctx.request else ""
    )
    return (
        f"{focus}Repository: {ctx.label}\n\n"
        "Write the analysis of the subsystem named below in this shape:\n"
        "Summary: <one sentence saying what this subsystem does>\n"
        "## Purpose\n## How it works\n## Key components\n## Entry points and interfaces\n## Risks and notes\n"
        "Name the central classes and functions and how a call flows through them. Write whole sentences.\n\n"
        f"The repository at a glance (its modules, most important first):\n{ctx.overview}\n\n"
    )


def _analysis_prompt(shard: Shard, ctx: ShardContext, packed: str) -> str:
    why = f" Why these files belong together: {shard.rationale}" if shard.rationale else ""
    return (
        f"{_shared_prefix(ctx)}Subsystem: {shard.name}.{why}\n\n"
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
    """Whole sentences from the module docstrings of the shard's own files, most important file first."""
    found: list[str] = []
    for path in shard.files:
        fact = facts.files.get(path)
        for sentence in sentences(fact.doc, 2) if fact else []:
            if sentence not in found:
                found.append(sentence)
    return found[:limit]


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
    return "\n".join(lines) or "- no public symbols found"


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
