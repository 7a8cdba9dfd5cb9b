"""A section that says it is no longer in force ("#### Legacy Semantics", a "# Migration" opening on
"NOTE: OBSOLETE") answers no question about how the subject works now, as a document no longer in force
does not (issue 30: status shows)."""

from __future__ import annotations

from topic_fakes import offline

from generator.topic import workspace as wsp
from generator.topic.analyze import analyze
from generator.topic.findings import Catalog
from generator.topic.plan import Plan, Step

WITHDRAWALS = (
    "# Withdrawals\n\n"
    "Withdrawals are cross domain transactions which are initiated on L2 and finalized on L1.\n\n"
    "## How withdrawals are proven\n\n"
    "Withdrawals are proven against output proposals submitted as a dispute game, and the proof is "
    "checked by the portal contract before any withdrawal is finalized.\n\n"
    "#### Legacy Semantics\n\n"
    "Withdrawals are proven against the output oracle, which holds every output proposed by a permissioned "
    "proposer key, and each withdrawal is finalized after seven days.\n"
)
TRANSITIONS = (
    "# Toolchain transitions\n\n"
    "A toolchain transition is a configuration change applied to the dependency on a toolchain.\n\n"
    "## Migration\n\n"
    "**NOTE: OBSOLETE**\n\n"
    "Toolchain transitions are migrated with a flag flipped on a flag day for every toolchain rule.\n\n"
    "## Migration plan\n\n"
    "Toolchain transitions are migrated rule by rule, each toolchain rule opting in with an attribute.\n"
)


def _source(sid: str, title: str, text: str) -> wsp.RawSource:
    return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)


def _answer(topic: str, question: str, source: wsp.RawSource) -> str:
    plan = Plan(
        topic=topic,
        sub_queries=[question],
        steps=[Step(id="s1", title="how", question=question, facet="how")],
    )
    sections = analyze(offline(), plan, Catalog([source]), lang="en").sections
    return " ".join(c.text for s in sections for c in s.claims)


def test_a_legacy_section_does_not_answer_how_the_subject_works() -> None:
    said = _answer(
        "withdrawals", "How are withdrawals proven?", _source("local-w", "Withdrawals", WITHDRAWALS)
    )
    assert "dispute game" in said
    assert "output oracle" not in said


def test_a_section_opening_on_an_obsolete_note_does_not_answer_how_the_subject_works() -> None:
    source = _source("local-t", "Toolchain transitions", TRANSITIONS)
    said = _answer("toolchain transitions", "How are toolchain transitions migrated?", source)
    assert "rule by rule" in said
    assert "flag day" not in said
