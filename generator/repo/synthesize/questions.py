"""Stage 9b, answer the questions asked of a repository (`--request`, deepkb.yml `request:`), each on a page of
its own (answers/<slug>.md) beside the general shard pages, which a question never changes.

Questions accumulate: the ones answered before are read back from their pages, so every run — a refresh
included — answers all of them again at the revision it pins. Per question: the focus step retrieves the
files that answer it (generator/repo/plan/focus.py), `answer_request` picks the symbols and the call path
from the facts, and a model (when there is one) writes the answer from those facts; its citations are
checked when the page is rendered, and the offline draft stands in when the model fails.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from generator import store
from generator.errors import (
    DeepkbError,
    ProviderAuthError,
    ProviderError,
    ResearchError,
    UsageError,
    error_line,
)
from generator.llm.base import Prompt, Provider
from generator.repo.docs.answers import doc_answer
from generator.repo.map.walk import read_or_none
from generator.repo.model import Answer, Citation, CitedSymbol, FocusResult
from generator.repo.plan.subsystems import core_modules, rank_files
from generator.repo.run.session import fingerprint
from generator.repo.run.study import Study
from generator.repo.synthesize.grounded import Fact, checked_prose, given_linker

ANSWER_VERSION = 2  # 2: the model's sentences checked against the facts (grounded.py)
MAX_QUESTION_CHARS = 500
SLUG_CHARS = 60
ANSWERS_DIR = "answers"
EXCERPT_LINES = 40  # of each answering symbol's definition, in the model's prompt
PROMPT_CHARS = 24_000
MAX_FILES = 12  # listed on the answer page


def asked(request: str | Sequence[str] | None) -> list[str]:
    """The questions of one run (a string or a list, as `--request` and deepkb.yml give them), whitespace
    folded, each once; an empty or overlong one is one clear error."""
    given = [request] if isinstance(request, str) else list(request or [])
    questions = []
    for text in given:
        question = " ".join(str(text).split())
        if not question:
            raise UsageError(
                "a request is empty", hint="ask a question, e.g. --request 'how are redirects handled?'"
            )
        if len(question) > MAX_QUESTION_CHARS:
            raise UsageError(
                f"a request is {len(question)} characters long; at most {MAX_QUESTION_CHARS} are allowed",
                hint="ask a shorter question",
            )
        questions.append(question)
    return list(dict.fromkeys(questions))


def stored_questions(repo_dir: Path) -> list[str]:
    """The questions whose answer pages a repository's folder holds (their frontmatter's `request`); a page
    that is not one of ours is left alone."""
    folder = repo_dir / ANSWERS_DIR
    if not folder.is_dir() or folder.is_symlink():
        return []
    found = []
    for page in sorted(folder.glob("*.md")):
        try:
            meta, _ = store.read_page(page)
        except DeepkbError:
            continue
        question = meta.get("request")
        if isinstance(question, str) and 0 < len(" ".join(question.split())) <= MAX_QUESTION_CHARS:
            found.append(" ".join(question.split()))
    return found


def answer_slugs(questions: Iterable[str]) -> dict[str, str]:
    """Each question's page name: its words as a slug, with a short hash when two questions share one (so a
    page keeps its name whatever else is asked later in another order)."""
    slugs = {q: store.slugify(q, max_len=SLUG_CHARS) for q in questions}
    taken: dict[str, int] = {}
    for slug in slugs.values():
        taken[slug] = taken.get(slug, 0) + 1
    return {
        q: slug
        if taken[slug] == 1
        else f"{slug[: SLUG_CHARS - 9]}-{hashlib.sha1(q.encode()).hexdigest()[:8]}"
        for q, slug in slugs.items()
    }


def answer_questions(study: Study, provider: Provider) -> list[Answer]:
    """Every question of the repository answered at the study's revision, in page-name order."""
    questions = list(dict.fromkeys([*stored_questions(study.harvest_dir), *study.questions]))
    slugs = answer_slugs(questions)
    answers = [answer_one(study, provider, question, slugs[question]) for question in questions]
    return sorted(answers, key=lambda a: a.slug)


def answer_one(study: Study, provider: Provider, question: str, slug: str) -> Answer:
    """One question: its focus, the symbols and call path from the facts, and the model's prose."""
    # the answer's retrieval loads the model-reply schemas (pydantic): only runs with a question need it
    from generator.repo.synthesize.answer import answer_request
    from generator.repo.synthesize.asked import read_question

    focus = focus_stage(study, provider, question)
    modules = core_modules(study.repo_map)
    # the files retrieval kept first; every source module may answer (where a process begins is often a
    # file whose words the question does not share: a pipeline calling the stages it names)
    ranked = list(dict.fromkeys([*rank_files(focus.files or modules, study.facts, study.repo_map), *modules]))
    found = answer_request(question, ranked, study.facts, study.ctx.linker)
    # the answering symbols' files, then the others retrieval kept
    files = tuple(
        dict.fromkeys(
            [*(s.path for s in found.symbols), *rank_files(focus.files, study.facts, study.repo_map)]
        )
    )
    offline = Answer(
        question,
        found.symbols,
        found.path,
        slug,
        files[:MAX_FILES],
        focus.trace,
        doc_passages=doc_answer(study.docs, question, verbs=read_question(question).process.verbs),
        steps=found.steps,
    )
    if provider.offline or not found.symbols:
        return offline
    try:
        text, model = model_answer(study, provider, offline)
    except ProviderAuthError:
        raise
    except (ProviderError, ResearchError) as exc:
        return replace(offline, fallback=error_line(exc))
    return replace(offline, model_text=text, provider=provider.name, model=model)


def focus_stage(study: Study, provider: Provider, question: str) -> FocusResult:
    """Retrieve the files that answer `question` (saved per question and revision for a model's judging)."""
    from generator.repo.plan.focus import focus_files

    files = sorted(f.path for f in study.repo_map.files)
    revision = study.checkout.revision
    key = fingerprint("focus", revision, question, provider.name, provider.model_for("focus"), files)
    stage = f"focus-{hashlib.sha1(question.encode()).hexdigest()[:12]}"
    saved = None if provider.offline else study.cache.load_stage(stage, key)
    if saved is not None:
        return FocusResult(list(saved["files"]), dict(saved["trace"]))
    options = study.config.repo
    result = focus_files(
        provider,
        study.checkout.path,
        study.repo_map,
        study.facts,
        question,
        study.ctx.redactor,
        max_bytes=options.max_file_bytes,
    )
    study.cache.save_stage(stage, key, {"files": result.files, "trace": result.trace})
    return result


def model_answer(study: Study, provider: Provider, draft: Answer) -> tuple[str, str]:
    """The model's answer, written from the facts the offline draft holds and the answering symbols' code
    (redacted), with only its sentences grounded in those facts (ResearchError when most are not); saved,
    so an unchanged question at an unchanged revision costs no call."""
    facts = answer_facts(study, draft)
    model = provider.model_for("answer")
    key = fingerprint("answer", ANSWER_VERSION, draft.request, facts, provider.name, model)
    stage = f"answer-{hashlib.sha1(draft.request.encode()).hexdigest()[:12]}"
    saved = study.cache.load_stage(stage, key)
    if saved is not None:
        return str(saved["text"]), str(saved["model"])
    prompt = Prompt(
        user=(
            f"Repository: {study.label}\nQuestion: {draft.request}\n\n{facts}\n\n"
            "Answer the question for a developer new to this code, in 2 to 4 short paragraphs or a numbered "
            "list that follows the call path in order. Name each symbol in backticks and cite it as "
            "path:start-end exactly as given above; cite nothing else. Plain markdown: no HTML, no links."
        )[:PROMPT_CHARS],
        system="You explain how a code base answers a question, using only the facts given. You never invent code.",
        max_tokens=1200,
        stage="answer",
    )
    reply = provider.complete(prompt)
    given = given_linker(study.ctx.linker, answer_fact_list(study, draft))
    text, _ = checked_prose(study.ctx.redactor.redact(reply.text)[0], given, study.ctx.linker, "answer")
    study.cache.save_stage(stage, key, {"text": text, "model": reply.model or model})
    return text, reply.model or model


def answer_facts(study: Study, draft: Answer) -> str:
    """The answer's facts as the model reads them: each symbol cited with its docstring and code, then the
    calls between them at their lines; first what the project's documentation says, cited to its lines."""
    lines = []
    if draft.doc_passages:
        lines.append("What the project's documentation says, in its order (cite it as path:start-end):")
        lines += [f"- {p.path}:{p.start}-{p.end}: {p.text}" for p in draft.doc_passages]
        lines.append("")
    lines.append(
        f"Symbols that answer it, in order: the process starts at {draft.steps[0].symbol.name}, then the calls "
        "it makes towards the rest, then other matches:"
        if draft.steps
        else "Symbols that answer it, in order:"
    )
    for symbol in draft.symbols:
        lines.append(f"- {symbol.name} ({symbol.kind}) at {_span(symbol)}: {symbol.doc}".rstrip(": "))
        code = excerpt(study, symbol)
        if code:
            lines.append("```\n" + code + "\n```")
    if draft.path:
        lines.append("\nCalls between them:")
        for hop in draft.path:
            at = f" at {hop.citation.path}:{hop.citation.start}" if hop.citation else ""
            lines.append(f"- {hop.caller} calls {hop.callee}{at}")
    return "\n".join(lines)


def answer_fact_list(study: Study, draft: Answer) -> list[Fact]:
    """The facts of `answer_facts` with the lines each lets the model cite."""
    facts = [
        Fact(f"{p.path}:{p.start}-{p.end}: {p.text}", (Citation(p.path, p.start, p.end, ""),), "docs")
        for p in draft.doc_passages
    ]
    facts += [
        Fact(f"{s.name} ({s.kind}): {s.doc}\n{excerpt(study, s)}", (s.citation,))
        for s in draft.symbols
        if s.citation is not None
    ]
    facts += [
        Fact(f"{hop.caller} calls {hop.callee}", (hop.citation,), "calls")
        for hop in draft.path
        if hop.citation is not None
    ]
    return facts


def _span(symbol: CitedSymbol) -> str:
    c = symbol.citation
    return f"{c.path}:{c.start}-{c.end}" if c else symbol.path


def excerpt(study: Study, symbol: CitedSymbol) -> str:
    """The first lines of the symbol's definition at the pinned revision, secrets redacted."""
    if symbol.citation is None:
        return ""
    text = read_or_none(study.checkout.path, symbol.path, max_bytes=study.config.repo.max_file_bytes) or ""
    start, end = symbol.citation.start, min(symbol.citation.end, symbol.citation.start + EXCERPT_LINES - 1)
    code = "\n".join(text.splitlines()[start - 1 : end])
    return study.ctx.redactor.redact(code)[0]
