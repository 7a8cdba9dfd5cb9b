"""Stage 9c, concept pages written by a model: each concept the docs present (repo/docs/) is explained from
what the offline page shows — its doc passages, in the docs' order, and its code facts (key types with
their methods, other symbols, the call path through them), each with its lines. The model's prose keeps
only the sentences whose citations name lines it was given; the offline page stands in when nothing cited
is left or the call fails. Saved by the prompt's hash, so an unchanged concept costs no call.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from generator.errors import ProviderAuthError, ProviderError, ResearchError, error_line
from generator.llm.base import Prompt, Provider
from generator.llm.window import context_window, fit_entries
from generator.repo.analyze.citations import CITATION_RE, Linker, check_citations, looks_like_file
from generator.repo.analyze.describe import main_chain
from generator.repo.analyze.draft import repeats_itself
from generator.repo.docs.model import DocConcept
from generator.repo.model import Citation, ConceptText, DocPassage, KeyType
from generator.repo.run.session import fingerprint
from generator.repo.run.study import Study

CONCEPT_VERSION = 1
MODEL_CONCEPTS = 12
"""Concept pages a model writes in one run (the docs' first ones); the others keep their offline page."""
OUTPUT_TOKENS = 1_500
PASSAGE_CHARS = 1_200  # of one doc passage in the prompt (a code block's first lines)
STAGE = "concept"
SYSTEM_PROMPT = (
    "You write one page of a software project's guide for a developer new to it, from the project's "
    "documentation and the code facts you are given, never from memory. You never invent code, names or "
    "line numbers."
)
_MARKER = re.compile(r"^(\s*(?:[-*+]|\d{1,3}[.)])\s+|\s*#{1,6}\s+)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\[])")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


@dataclass(frozen=True)
class Fact:
    """One line (or block) of a concept's prompt and the lines it lets the model cite."""

    text: str
    spans: tuple[Citation, ...]
    part: str = "code"  # "docs", "code" or "calls": the prompt's section it is shown in


def write_concepts(study: Study, provider: Provider) -> list[ConceptText]:
    """The model's page for each of the docs' first MODEL_CONCEPTS concepts, in their order (none offline),
    written concurrently."""
    docs = study.docs
    if provider.offline or docs is None or not docs.concepts:
        return []
    concepts = docs.concepts[:MODEL_CONCEPTS]
    workers = max(1, min(study.config.llm.max_concurrent, len(concepts)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda c: write_concept(study, provider, c), concepts))


def write_concept(study: Study, provider: Provider, concept: DocConcept) -> ConceptText:
    """One concept's page: the saved one when its prompt is unchanged, else the model's (saved when used)."""
    try:
        prompt, given = concept_prompt(study, provider, concept)
    except ProviderError as exc:
        return ConceptText(concept.slug, fallback=error_line(exc))
    model = provider.model_for(STAGE)
    key = fingerprint("concept", CONCEPT_VERSION, prompt.system, prompt.user, provider.name, model)
    # two sections may share a name ("Getting started" twice): the first page tells them apart
    named = f"{concept.slug}\n{concept.pages[0].path if concept.pages else ''}"
    stage = f"concept-{hashlib.sha1(named.encode()).hexdigest()[:12]}"
    saved = study.cache.load_stage(stage, key)
    if saved is not None:
        return ConceptText(
            concept.slug, str(saved["text"]), str(saved["model"]), dropped=int(saved["dropped"])
        )
    try:
        reply = provider.complete(prompt)
        text, dropped = checked_prose(study.ctx.redactor.redact(reply.text)[0], given, study.ctx.linker)
    except ProviderAuthError:
        raise
    except (ProviderError, ResearchError) as exc:
        # not saved: the next run asks the model again for this concept
        return ConceptText(concept.slug, fallback=error_line(exc))
    used = reply.model or model
    study.cache.save_stage(stage, key, {"text": text, "model": used, "dropped": dropped})
    return ConceptText(concept.slug, text, used, dropped=dropped)


def concept_prompt(study: Study, provider: Provider, concept: DocConcept) -> tuple[Prompt, Linker]:
    """The prompt with as many of the concept's facts as fit the model's window (doc passages first, in
    the docs' order, then the code), and a Linker that knows only the lines those facts cite."""
    facts = concept_facts(study, concept)
    window = context_window(provider, STAGE)
    output = min(OUTPUT_TOKENS, provider.config.max_output_tokens)

    def build(count: int) -> Prompt:
        return Prompt(
            user=_prompt_text(study.label, concept, facts[:count]),
            system=SYSTEM_PROMPT,
            max_tokens=output,
            stage=STAGE,
        )

    prompt = fit_entries(build, len(facts), window)
    shown = [f for f in facts if f.text in prompt.user]
    return prompt, given_linker(study.ctx.linker, shown)


_HEADINGS = {
    "docs": "What the project's documentation says about it, in its order:",
    "code": "The code that implements it (each symbol at its lines):",
    "calls": "The call path through that code (each call at its line):",
}


def _prompt_text(label: str, concept: DocConcept, facts: Sequence[Fact]) -> str:
    parts = [
        "\n".join([_HEADINGS[part], *(f.text for f in facts if f.part == part)])
        for part in _HEADINGS
        if any(f.part == part for f in facts)
    ]
    return (
        f"Repository: {label}\nConcept: {concept.name}\n\n"
        + "\n\n".join(parts)
        + "\n\nWrite the guide page about this concept: what it is and how it works, following the "
        "documentation's order; the code that implements it (its key types, their main methods and the call "
        "path); where it is configured and how it is extended, when the facts say. Use short paragraphs, "
        "numbered steps and `##` headings. After every claim cite what it rests on as path:start-end exactly "
        "as given above (a doc passage or a symbol); a sentence citing anything else is removed. Plain "
        "markdown: no HTML, no links, no images."
    )


def concept_facts(study: Study, concept: DocConcept) -> list[Fact]:
    """The concept's facts as prompt entries, the first kept when the window is small: its key types with
    their methods and its other symbols, the call path through their files, then the doc passages in the
    docs' order (the prompt shows the passages first)."""
    typed = {t.symbol.name for t in concept.types}
    facts = [_type_fact(t) for t in concept.types]
    facts += [
        Fact(f"- {s.kind} {s.name} ({_span(s.citation)})" + (f": {s.doc}" if s.doc else ""), (s.citation,))
        for s in concept.symbols
        if s.name not in typed and s.citation is not None
    ]
    files = list(dict.fromkeys(s.path for s in concept.symbols))
    chain = main_chain(study.facts, files) if files else []
    for number, edge in enumerate(chain, 1):
        at = study.ctx.linker.check(edge.caller_path, edge.line)
        caller = edge.caller or edge.caller_path
        said = f"{number}. {caller} calls {edge.callee} ({edge.caller_path}:{edge.line})"
        facts.append(Fact(said, (at,) if at else (), "calls"))
    facts += [_passage_fact(p) for page in concept.pages for p in page.passages]
    return facts


def _passage_fact(passage: DocPassage) -> Fact:
    span = Citation(passage.path, passage.start, passage.end, "")
    where = _span(span)
    text = passage.text[:PASSAGE_CHARS]
    if passage.kind == "code":
        return Fact(f"- {where} ({passage.language or 'code'} example):\n```\n{text}\n```", (span,), "docs")
    return Fact(f"- {where}: {' '.join(text.split())}", (span,), "docs")


def _type_fact(entry: KeyType) -> Fact:
    symbol = entry.symbol
    lines = [
        f"- {symbol.kind} {symbol.name} ({_span(symbol.citation)})"
        + (f": {symbol.doc}" if symbol.doc else "")
    ]
    lines += [
        f"  - method {m.name.rsplit('.', 1)[-1]} ({_span(m.citation)})" + (f": {m.doc}" if m.doc else "")
        for m in entry.methods
        if m.citation is not None
    ]
    spans = tuple(c for c in (symbol.citation, *(m.citation for m in entry.methods)) if c is not None)
    return Fact("\n".join(lines), spans)


def _span(citation: Citation | None) -> str:
    return f"{citation.path}:{citation.start}-{citation.end}" if citation is not None else "?"


def given_linker(linker: Linker, facts: Sequence[Fact]) -> Linker:
    """A Linker that holds a citation only when it lies within lines one of `facts` cites."""
    return _GivenLinker(linker.line_counts, linker.revision, linker.web_url, _spans(facts))


def _spans(facts: Sequence[Fact]) -> dict[str, tuple[tuple[int, int], ...]]:
    found: dict[str, list[tuple[int, int]]] = {}
    for fact in facts:
        for span in fact.spans:
            found.setdefault(span.path, []).append((span.start, span.end))
    return {path: tuple(spans) for path, spans in found.items()}


@dataclass(frozen=True)
class _GivenLinker(Linker):
    given: dict[str, tuple[tuple[int, int], ...]] | None = None

    def check(self, path: str, start: int, end: int | None = None) -> Citation | None:
        citation = super().check(path, start, end)
        if citation is None:
            return None
        spans = (self.given or {}).get(citation.path, ())
        inside = any(a <= citation.start and citation.end <= b for a, b in spans)
        return citation if inside else None


def checked_prose(text: str, given: Linker, linker: Linker) -> tuple[str, int]:
    """The model's prose without the sentences that cite lines it was not given, and how many were left
    out; ResearchError when the prose is empty, loops, or cites none of the given lines."""
    if not text.strip():
        raise ResearchError("the model's page was empty")
    if repeats_itself(text):
        raise ResearchError("the model's page repeats itself")
    kept: list[str] = []
    dropped = 0
    fenced = False
    for line in text.replace("\r\n", "\n").split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or _FENCE.match(line):
            kept.append(line)
            continue
        cited, left_out = _keep_cited(line, given)
        dropped += left_out
        if cited is not None:
            kept.append(cited)
    prose = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()
    valid, _ = check_citations(prose, linker)
    if not valid:
        left = f" ({dropped} sentence(s) cited lines it was not given)" if dropped else ""
        raise ResearchError(f"the model's page cites none of the lines it was given{left}")
    return prose, dropped


def _keep_cited(line: str, given: Linker) -> tuple[str | None, int]:
    """`line` without its sentences that cite lines `given` does not hold (None when none is left)."""
    marker_match = _MARKER.match(line)
    marker = marker_match.group(1) if marker_match else ""
    sentences = _SENTENCE_END.split(line[len(marker) :])
    kept = [s for s in sentences if _cites_only_given(s, given)]
    if len(kept) == len(sentences):
        return line, 0
    return (marker + " ".join(kept) if kept else None), len(sentences) - len(kept)


def _cites_only_given(sentence: str, given: Linker) -> bool:
    for match in CITATION_RE.finditer(sentence):
        if not looks_like_file(match.group("path")):
            continue
        end = int(match.group("end")) if match.group("end") else None
        if given.check(match.group("path"), int(match.group("start")), end) is None:
            return False
    return True
