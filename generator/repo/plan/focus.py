"""Focus: when the operator asks a question, find the files that answer it (synthesize/questions.py).

Iterative retrieval (generator/retrieval/feedback.py) over the repository's files: dispatch by the request's keywords
plus the repository's own terminology (its symbol names), evaluate each candidate 0–1 with a reason (the
LLM as judge, or the lexical judge offline), refine, at most 3 cycles. The answer is looked for in the files
kept, and the trace is shown on the question's page.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from generator.errors import ProviderAuthError, ProviderError
from generator.llm.base import Prompt, Provider
from generator.llm.structured import complete_json
from generator.llm.window import context_window, fit_entries
from generator.redact import Redactor
from generator.repo.map.walk import read_or_none
from generator.repo.model import Facts, FocusResult, RepoMap
from generator.repo.plan.subsystems import is_context
from generator.retrieval.feedback import Judged, Query, iterative_retrieval, lexical_relevance
from generator.retrieval.scoring import CorpusStats
from generator.text.words import content_words, shares_stem, tokens

CANDIDATES_PER_CYCLE = 30
MIN_FOCUS_FILES = 3
MAX_FOCUS_FILES = 40
_HEAD_CHARS = 3000  # how much of a file the judge sees
_IDENT_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
NAME_SHARE = 0.6  # of a file's score that comes from the question's words naming its symbols or path
CONTEXT_FACTOR = 0.5  # tests, docs and build files: about the code, so below it
# licences, CI and repository metadata never answer a question about the code
NEVER_RANKED = re.compile(
    r"(^|/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS|CHANGELOG|CHANGES|HISTORY|CODE_OF_CONDUCT|CONTRIBUTING)"
    r"([.\-_][^/]*)?$|(^|/)\.(github|gitlab|circleci|travis|gitea)(/|\.ya?ml$)|(^|/)\.gitlab-ci\.yml$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Candidate:
    path: str
    text: str  # path words, symbols, doc and the file's head: what the judge reads
    vocabulary: str  # path words, symbol names and doc: where refinement finds new terms (no code noise)
    names: frozenset[str] = frozenset()  # the words of its path and symbol names, lower case
    context: bool = False  # a test, doc, example or build file: ranked below the code it describes
    words: tuple[str, ...] = ()  # the stemmed words of `text`, as relevance reads them


class _Score(BaseModel):
    path: str
    score: float = Field(ge=0, le=1)
    reason: str = Field(default="", max_length=400)


class RelevanceReply(BaseModel):
    scores: list[_Score]


def focus_files(
    provider: Provider,
    root: Path,
    repo_map: RepoMap,
    facts: Facts,
    request: str,
    redactor: Redactor,
    *,
    max_bytes: int = 1_000_000,
) -> FocusResult:
    """Retrieve the files relevant to `request`; the trace records every cycle's terms, scores and reasons."""
    candidates = {
        e.path: _candidate(root, e.path, facts, redactor, max_bytes)
        for e in repo_map.files
        if not NEVER_RANKED.search(e.path)
    }
    stats = CorpusStats()
    for path, candidate in candidates.items():
        stats.add(path, {"body": list(candidate.words)})
    judge = (
        _model_judge(provider, request, stats)
        if not provider.offline
        else lambda query, items: [Judged(c.path, c, *relevance(query.terms, c, stats)) for c in items]
    )
    result = iterative_retrieval(
        initial_terms(request, facts, candidates),
        dispatch=lambda query: dispatch(query, candidates, stats),
        key=lambda c: c.path,
        evaluate=judge,
        text_of=lambda c: c.vocabulary,
    )
    trace = result.trace()
    kept = [j.key for j in result.kept][:MAX_FOCUS_FILES]
    if len(kept) < MIN_FOCUS_FILES:
        trace["stopped_because"] = (
            f"{trace['stopped_because']}; too few relevant files, so every source module was searched"
        )
        kept = []
    trace["kept"] = kept
    return FocusResult(kept, trace)


def request_terms(request: str) -> list[str]:
    """The question's content words, in order, once each."""
    return list(dict.fromkeys(content_words(request)))


def initial_terms(
    request: str, facts: Facts, candidates: Mapping[str, Candidate] | None = None, extra: int = 4
) -> list[str]:
    """The request's discriminating keywords plus the repository's symbol names that share a stem with them."""
    words = request_terms(request)
    if candidates:
        words = discriminating(words, candidates)
    wanted = [w for w in words if len(w) >= 4]
    vocabulary: Counter[str] = Counter()
    for fact in facts.files.values():
        for symbol in fact.symbols:
            name = symbol.name.rsplit(".", 1)[-1]
            if name.startswith("_") or len(name) < 4:
                continue  # private helpers are not the repository's vocabulary
            parts = [p.lower() for p in _IDENT_PARTS.findall(name) if len(p) >= 4]
            if any(shares_stem(w, parts) for w in wanted):
                vocabulary[name] += 1
    terminology = [name for name, _ in sorted(vocabulary.items(), key=lambda kv: (-kv[1], kv[0]))]
    return words + [t for t in terminology if t.lower() not in words][:extra]


def discriminating(
    words: list[str], candidates: Mapping[str, Candidate], max_share: float = 0.3
) -> list[str]:
    """Drop words found in most files that name nothing in the code: they match everything and rank nothing.
    A frequent word the code is named after ("option" in a library with an `Option` class) is the question's
    domain and stays."""
    if len(candidates) < 8:
        return words
    seen: Counter[str] = Counter()
    wanted = set(words)
    named: set[str] = set()
    for candidate in candidates.values():
        seen.update(wanted & set(content_words(candidate.text)))
        named |= {w for w in wanted if shares_stem(w, candidate.names)}
    kept = [w for w in words if w in named or seen[w] <= max_share * len(candidates)]
    return kept or words


def _candidate(root: Path, path: str, facts: Facts, redactor: Redactor, max_bytes: int) -> Candidate:
    fact = facts.files.get(path)
    symbols = " ".join(s.name for s in fact.symbols) if fact else ""
    doc = fact.doc if fact else ""
    # refused or unreadable: judged on its name and facts only
    head = (read_or_none(root, path, max_bytes=max_bytes) or "")[:_HEAD_CHARS]
    words = " ".join(_IDENT_PARTS.findall(str(Path(path).with_suffix(""))))
    split = " ".join(" ".join(_IDENT_PARTS.findall(word)) for word in symbols.split())  # getUser → get User
    vocabulary, _ = redactor.redact(f"{words}\n{symbols}\n{split}\n{doc}")
    text, _ = redactor.redact(f"{path}\n{vocabulary}\n{head}")
    names = frozenset(w.lower() for w in _IDENT_PARTS.findall(f"{words} {symbols}"))
    return Candidate(path, text, vocabulary, names, is_context(path), tuple(tokens(text)))


def relevance(
    terms: Sequence[str], candidate: Candidate, stats: CorpusStats | None = None
) -> tuple[float, str]:
    """Lexical relevance (BM25 over the repository's candidates) with symbol-name matches ranked above
    prose, and context files below code."""
    score, reason = lexical_relevance(terms, candidate.text, stats, words=candidate.words)
    wanted = [w for t in terms for w in content_words(t)]
    if score > 0 and wanted:
        named = sum(1 for w in wanted if shares_stem(w, candidate.names)) / len(wanted)
        score = NAME_SHARE * named + (1 - NAME_SHARE) * score
        if named:
            reason += "; named in its symbols or path"
    if candidate.context:
        score, reason = score * CONTEXT_FACTOR, reason + "; a test, doc or build file"
    return round(score, 3), reason


def dispatch(query: Query, candidates: dict[str, Candidate], stats: CorpusStats) -> list[Candidate]:
    """The candidates that mention any query term, best lexical match first, at most 30 per cycle."""
    scored = []
    for path, candidate in candidates.items():
        if path in query.excludes:
            continue
        score, _ = relevance(query.terms, candidate, stats)
        if score > 0:
            scored.append((score, path))
    scored.sort(key=lambda sp: (-sp[0], sp[1]))
    return [candidates[path] for _, path in scored[:CANDIDATES_PER_CYCLE]]


def _model_judge(provider: Provider, request: str, stats: CorpusStats) -> Any:
    def judge(query: Query, items: Sequence[Candidate]) -> list[Judged[Candidate]]:
        def ask(count: int) -> Prompt:
            listing = "\n\n".join(f"### {c.path}\n{c.text[:600]}" for c in items[:count])
            return Prompt(
                user=(
                    f"Research request: {request}\nSearch terms: {', '.join(query.terms)}\n\n"
                    "Rate how relevant each file below is to the request, from 0 (unrelated) to 1 (central), "
                    "with a one-sentence reason.\n"
                    'Answer with JSON only: {"scores": [{"path": "…", "score": 0.0, "reason": "…"}]}\n\n'
                    f"{listing}"
                )[:24_000],
                system="You judge which source files answer a research question about a repository.",
                max_tokens=2048,
                stage="focus",
            )

        # files left out to fit the model's window are judged lexically, like those it skips
        prompt = fit_entries(ask, len(items), context_window(provider, "focus"))
        try:
            reply, _notes = complete_json(provider, prompt, RelevanceReply)
        except ProviderAuthError:
            raise
        except ProviderError:
            reply = None
        given = {s.path: s for s in reply.scores} if reply else {}
        judged = []
        for c in items:
            if c.path in given:
                judged.append(Judged(c.path, c, given[c.path].score, given[c.path].reason))
            else:  # the model skipped it (or answered nothing usable): the lexical judge decides
                score, reason = relevance(query.terms, c, stats)
                judged.append(Judged(c.path, c, score, f"lexical: {reason}"))
        return judged

    return judge
