"""VERIFY: check the report record — every sub-question answered by cited claims, every citation naming a
stored raw source, a minimum number of distinct sources — and propose supplementary research steps for what
is missing. The pipeline loops back to research at most `MAX_VERIFY_ROUNDS` times, and stops earlier once a
round adds no source.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .plan import Plan, Step, query_words
from .report import Report
from .workspace import Workspace

MAX_VERIFY_ROUNDS = 2
MIN_DISTINCT_SOURCES = 3


@dataclass
class Verification:
    passed: bool
    uncovered: list[str] = field(default_factory=list)
    unresolved: int = 0
    distinct_sources: int = 0
    problems: list[str] = field(default_factory=list)


def verify_report(
    ws: Workspace, plan: Plan, report: Report | None, *, min_sources: int = MIN_DISTINCT_SOURCES
) -> Verification:
    """Check the report record against the plan's sub-questions and the stored sources."""
    if report is None:
        return Verification(False, list(plan.sub_queries), problems=["the report was not written"])
    unresolved = sum(
        1 for sid in report.references if not (ws.record_file(sid).is_file() or ws.raw_file(sid).is_file())
    )
    covered = set(report.covered())
    uncovered = [q for q in plan.sub_queries if q not in covered]
    distinct = len(report.references) - unresolved
    problems = [f"sub-question not covered: {q}" for q in uncovered]
    if unresolved:
        problems.append(f"{unresolved} citation(s) do not resolve to a stored source")
    if distinct < min_sources:
        problems.append(f"only {distinct} distinct source(s) cited (want at least {min_sources})")
    return Verification(not problems, uncovered, unresolved, distinct, problems)


def supplementary_steps(plan: Plan, result: Verification, round_no: int) -> list[Step]:
    """seed: add research for what verification found missing, with broader queries than the first pass."""
    topic_words = query_words(plan.topic)
    steps = [
        Step(
            id=f"v{round_no}-{n}",
            title=f"Supplementary research: {question}"[:300],
            question=question,
            description="Added by verification: the report did not cover this sub-question.",
            query=follow_up_query(topic_words, question),
            supplementary=True,
        )
        for n, question in enumerate(result.uncovered, 1)
    ]
    if result.distinct_sources < MIN_DISTINCT_SOURCES and not steps:
        question = plan.sub_queries[0] if plan.sub_queries else plan.topic
        steps.append(
            Step(
                id=f"v{round_no}-1",
                title="Supplementary research: more sources",
                question=question,
                description="Added by verification: too few distinct sources were cited.",
                query=topic_words or plan.topic,
                supplementary=True,
            )
        )
    known = {s.id for s in plan.steps}
    return [s for s in steps if s.id not in known]


def follow_up_query(topic_words: str, question: str) -> str:
    """The topic's words, then the question's own words, each once ("widgets gadgets work", never "widgets
    gadgets widgets gadgets work"); Chinese phrases stay whole (plan.query_words)."""
    first: dict[str, str] = {}  # lower-cased word → its first spelling
    for word in [*topic_words.split(), *query_words(question).split()[:4]]:
        first.setdefault(word.lower(), word)
    return " ".join(first.values())
