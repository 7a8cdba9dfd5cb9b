"""Stage 8, analyze one shard: a draft (the model's answer, or the offline analyst's facts), then its page body.

Drafts are what the incremental cache stores: they do not depend on the revision, so a shard whose files did
not change is re-rendered with new permalinks without asking the model again. Rendering checks citations,
escapes everything untrusted and validates diagrams.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.config import RepoResearchConfig
from generator.llm.base import Prompt, Provider
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker, citation_markdown, inline_code, render_model_markdown
from generator.repo.model import (
    ANALYZE_INPUT_CAP,
    ANALYZE_OUTPUT_TOKENS,
    PACK_CHAR_CAP,
    Facts,
    RepoMap,
    Shard,
    ShardAnalysis,
)
from generator.repo.synthesize import mermaid
from generator.site.text import md_escape, md_inline
from generator.summarize import summarize

Report = Callable[[str], None]
SYMBOLS_PER_FILE = 8
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
    readme: str = ""
    request: str | None = None
    history: dict[str, int] | None = None  # path → commits touching it (most-changed files)


# --------------------------------------------------------------------------- drafts


def markdown_prose(text: str) -> str:
    """The prose of a README: no code blocks, tables, HTML, badges or headings; list items become sentences."""
    kept: list[str] = []
    fenced = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if (
            fenced
            or line.startswith(("    ", "\t"))
            or stripped.startswith(("|", "<", "![", "[![", "#", "---", "==="))
        ):
            kept.append("")
            continue
        item = re.match(r"^(?:[-*+]|\d+[.)])\s+(.*)$", stripped)
        if item:
            stripped = item.group(1) if item.group(1).endswith((".", "!", "?", ":")) else item.group(1) + "."
        kept.append(stripped)
    prose = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", "\n".join(kept))  # [text](url) → text
    return re.sub(r"\*\*|__|`", "", prose)


def draft_with_model(shard: Shard, ctx: ShardContext, provider: Provider, report: Report) -> dict[str, Any]:
    """Pack the shard (redacted, capped) and ask the model; the answer is untrusted text."""
    from generator.repo.pack.packer import pack_files

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
    )
    answer = provider.complete(prompt)
    text, _ = ctx.redactor.redact(answer.text)  # a model can echo what it was shown
    return {
        "kind": "llm",
        "text": text,
        "model": answer.model,
        "input_tokens": answer.input_tokens,
        "output_tokens": answer.output_tokens,
        "truncated": packed.truncated,
        "redactions": packed.redactions,
    }


def _analysis_prompt(shard: Shard, ctx: ShardContext, packed: str) -> str:
    focus = (
        f"Research request: {ctx.request}\nShape the analysis around this request.\n\n" if ctx.request else ""
    )
    why = f" Why these files belong together: {shard.rationale}" if shard.rationale else ""
    return (
        f"{focus}Repository: {ctx.label}\nSubsystem: {shard.name}.{why}\n\n"
        "Write the analysis in this shape:\n"
        "Summary: <one sentence saying what this subsystem does>\n"
        "## Purpose\n## How it works\n## Key components\n## Entry points and interfaces\n## Risks and notes\n\n"
        f"Files (each line is prefixed with its line number):\n{packed}"
    )


def draft_offline(shard: Shard, ctx: ShardContext, report: Report) -> dict[str, Any]:
    """The offline analyst: purpose, files, key symbols, entry points, dependencies and churn, from facts."""
    report("reading facts")
    sizes = {f.path: f for f in ctx.repo_map.files}
    files = [_file_row(path, sizes, ctx.facts) for path in shard.files]
    draft = {
        "kind": "offline",
        "purpose": _purpose(shard, ctx),
        "files": files,
        "symbols": [s for path in shard.files for s in _symbols(path, ctx.facts)],
        "entry_points": [
            p for p in shard.files if p in ctx.facts.files and ctx.facts.files[p].is_entry_point
        ],
        "edges": _edges(shard, ctx.facts),
        "changes": [
            [path, count]
            for path, count in sorted((ctx.history or {}).items(), key=lambda pc: (-pc[1], pc[0]))
            if path in shard.files and count > 0
        ],
    }
    return _redact_strings(draft, ctx.redactor)


def _file_row(path: str, sizes: dict[str, Any], facts: Facts) -> dict[str, Any]:
    entry = sizes.get(path)
    fact = facts.files.get(path)
    return {
        "path": path,
        "language": entry.language if entry else "",
        "lines": entry.lines if entry else 0,
        "doc": (fact.doc.splitlines()[0][:200] if fact and fact.doc else ""),
    }


def _purpose(shard: Shard, ctx: ShardContext) -> list[str]:
    docs = "\n\n".join(
        ctx.facts.files[p].doc for p in shard.files if p in ctx.facts.files and ctx.facts.files[p].doc
    )
    focus = " ".join([shard.name, *(Path(p).stem for p in shard.files), ctx.request or ""])
    sentences = summarize(docs, sentences=3, focus=focus) if docs else []
    if len(sentences) < 2 and ctx.readme:
        sentences += [s for s in summarize(ctx.readme, sentences=2, focus=focus) if s not in sentences]
    return sentences[:4]


def _symbols(path: str, facts: Facts) -> list[dict[str, Any]]:
    fact = facts.files.get(path)
    if fact is None:
        return []
    public = [s for s in fact.symbols if s.public][:SYMBOLS_PER_FILE]
    return [
        {"path": path, "name": s.name, "kind": s.kind, "start": s.start, "end": s.end, "doc": s.doc[:200]}
        for s in public
    ]


def _edges(shard: Shard, facts: Facts) -> list[list[str]]:
    inside = set(shard.files)
    edges: list[list[str]] = []
    for path in shard.files:
        fact = facts.files.get(path)
        for target in fact.depends_on if fact else []:
            edges.append([path, target])
        edges += [[other, path] for other in facts.dependents(path) if other not in inside][:4]
    return edges


def _redact_strings(value: Any, redactor: Redactor) -> Any:
    if isinstance(value, str):
        return redactor.redact(value)[0]
    if isinstance(value, list):
        return [_redact_strings(v, redactor) for v in value]
    if isinstance(value, dict):
        return {k: _redact_strings(v, redactor) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------- rendering


def render_analysis(index: int, shard: Shard, draft: dict[str, Any], ctx: ShardContext) -> ShardAnalysis:
    """The shard page's body and one-line summary from a draft; citations checked, text escaped."""
    if draft.get("kind") == "llm":
        return _render_model(index, shard, draft, ctx)
    return _render_offline(index, shard, draft, ctx)


def _render_model(index: int, shard: Shard, draft: dict[str, Any], ctx: ShardContext) -> ShardAnalysis:
    text = str(draft.get("text", ""))
    found = _SUMMARY_LINE.search(text)
    summary = found.group(1).strip() if found else _first_sentence(text)
    if found:
        text = text[: found.start()] + text[found.end() :]
    rendered = render_model_markdown(text, ctx.linker)
    body: str = rendered.markdown
    if draft.get("truncated"):
        body += '\n!!! note "Input truncated"\n    The shard\'s files exceeded the input cap; the model saw only a part.\n'
    return ShardAnalysis(
        index=index,
        shard=shard,
        slug="",
        summary=" ".join(summary.replace("*", "").split())[:300],
        body=body,
        model=str(draft.get("model", "")),
        input_tokens=int(draft.get("input_tokens", 0)),
        output_tokens=int(draft.get("output_tokens", 0)),
        citations_valid=len(rendered.citations),
        citations_dropped=rendered.dropped,
    )


def _first_sentence(text: str) -> str:
    for line in text.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return re.split(r"(?<=[.!?])\s", line, maxsplit=1)[0]
    return ""


def _render_offline(index: int, shard: Shard, draft: dict[str, Any], ctx: ShardContext) -> ShardAnalysis:
    sections = [
        _section(
            "Purpose", "\n\n".join(md_escape(s) for s in draft["purpose"]) or "No module documentation found."
        ),
        _section("Files", _files_table(draft["files"], ctx.linker)),
        _section("Key symbols", _symbol_list(draft["symbols"], ctx.linker)),
        _section("Entry points", _entry_list(draft["entry_points"], ctx.linker)),
        _section("Dependencies", _dependency_diagram(shard, draft["edges"])),
        _section("Most-changed files", _changes_table(draft["changes"])),
    ]
    valid = sum(1 for s in draft["symbols"] if ctx.linker.check(s["path"], s["start"], s["end"]))
    names = ", ".join(Path(p).name for p in shard.files)
    summary = draft["purpose"][0] if draft["purpose"] else f"{len(shard.files)} files: {names}"
    return ShardAnalysis(
        index=index,
        shard=shard,
        slug="",
        summary=" ".join(summary.split())[:300],
        body="\n\n".join(s for s in sections if s) + "\n",
        model="offline-extractive",
        citations_valid=valid,
        citations_dropped=len(draft["symbols"]) - valid,
    )


def _section(title: str, content: str) -> str:
    return f"## {title}\n\n{content}" if content else ""


def _file_link(path: str, lines: int, linker: Linker) -> str:
    citation = linker.check(path, 1, max(lines, 1))
    return citation_markdown(citation, path) if citation else inline_code(path)


def _files_table(rows: list[dict[str, Any]], linker: Linker) -> str:
    out = ["| File | Language | Lines | About |", "| --- | --- | ---: | --- |"]
    for row in rows:
        link = _file_link(row["path"], row["lines"], linker)
        out.append(
            f"| {link} | {md_inline(row['language'])} | {row['lines']} | {md_inline(row['doc'], 160)} |"
        )
    return "\n".join(out)


def _symbol_list(symbols: list[dict[str, Any]], linker: Linker) -> str:
    out = []
    for s in symbols:
        citation = linker.check(s["path"], s["start"], s["end"])
        where = citation_markdown(citation) if citation else md_inline(s["path"])
        doc = f" — {md_inline(s['doc'], 160)}" if s["doc"] else ""
        out.append(f"- **{md_inline(s['name'], 80)}** ({md_inline(s['kind'], 20)}) {where}{doc}")
    return "\n".join(out) or "No public symbols were found in these files."


def _entry_list(paths: list[str], linker: Linker) -> str:
    links = [_file_link(p, linker.line_counts.get(p, 1), linker) for p in paths]
    return "\n".join(f"- {link}" for link in links) or "None of these files is an entry point."


def _dependency_diagram(shard: Shard, edges: list[list[str]]) -> str:
    if not edges:
        return "These files import nothing else from the repository, and nothing imports them."
    nodes = list(shard.files)
    for a, b in edges:
        for node in (a, b):
            if node not in nodes and len(nodes) < 16:
                nodes.append(node)
    index = {node: i for i, node in enumerate(nodes)}
    pairs = [(index[a], index[b]) for a, b in edges if a in index and b in index]
    source = mermaid.flowchart(nodes, pairs, highlight=range(len(shard.files)))
    return (
        mermaid.fenced(source)
        + "\n\nShard files are drawn with a thick border; arrows point at what a file imports."
    )


def _changes_table(changes: list[list[Any]]) -> str:
    if not changes:
        return ""
    rows = [f"| {inline_code(path)} | {count} |" for path, count in changes[:10]]
    return "\n".join(["| File | Commits |", "| --- | ---: |", *rows])
