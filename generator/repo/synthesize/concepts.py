"""Stage 9c, concept pages written by a model: each concept the docs present (repo/docs/) is explained from
what the offline page shows — its doc passages, in the docs' order, and its code facts (key types with
their methods, other symbols, the call path through them), each with its lines. The model's prose keeps
only the sentences grounded in what it was given, and code blocks copied from it (repo/synthesize/grounded.py);
the offline page stands in when most of it fails, nothing cited is left, or the call fails. Saved by the prompt's hash, so an unchanged concept costs no call.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from generator.errors import ProviderAuthError, ProviderError, ResearchError, error_line
from generator.llm.base import Prompt, Provider
from generator.llm.window import context_window, fit_entries
from generator.repo.docs.model import DocConcept
from generator.repo.model import Citation, ConceptText, DocPassage, KeyType, depth_first
from generator.repo.run.session import fingerprint
from generator.repo.run.study import Study
from generator.repo.synthesize.grounded import Fact, GivenLinker, checked_prose, given_linker

CONCEPT_VERSION = 2  # 2: sentences checked against the facts they cite (grounded.py)
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


def concept_prompt(study: Study, provider: Provider, concept: DocConcept) -> tuple[Prompt, GivenLinker]:
    """The prompt with as many of the concept's facts as fit the model's window (doc passages first, in
    the docs' order, then the code), and a Linker that knows only the lines those facts cite."""
    facts = concept_facts(concept)
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


def concept_facts(concept: DocConcept) -> list[Fact]:
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
    for number, hop in enumerate(depth_first(concept.flow), 1):  # the code path its page shows, call by call
        where = f" ({hop.citation.path}:{hop.citation.start})" if hop.citation else ""
        said = f"{number}. {hop.caller} calls {hop.callee}{where}"
        facts.append(Fact(said, (hop.citation,) if hop.citation else (), "calls"))
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
