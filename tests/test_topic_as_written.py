"""The reader's own question chooses first (issue 30, item 1; session 38's Matrix room upgrades): the passage
answering the topic as written goes to its section, not to the outline's "How does it work?" that would also
take it."""

from __future__ import annotations

from test_topic_how_to import UPGRADES, VERSIONS
from topic_fakes import facet_plan, offline

from generator.topic import workspace as wsp
from generator.topic.allocation import allocate
from generator.topic.analyze import analyze
from generator.topic.candidate import Candidate
from generator.topic.findings import Catalog


def test_the_question_as_written_takes_the_passage_answering_it_first() -> None:
    # stored as the document reader gives it: the lead-in with its items
    stored = UPGRADES.replace("server:\n\n1. ", "server:\n- ")
    for n in (2, 3, 4):
        stored = stored.replace(f"\n{n}. ", "\n- ")
    upgrades = wsp.RawSource(
        "local-u", "local", "local:upgrades.md", "Room Upgrades", "t", stored, kind="local"
    )
    versions = wsp.RawSource(
        "local-v", "local", "local:rooms.md", "Room Versions", "t", VERSIONS, kind="local"
    )
    topic = "How are Quill rooms upgraded to a new room version?"
    plan = facet_plan(
        topic, {"What are Quill rooms?": "what", topic: "topic", "How do Quill rooms work?": "how"}
    )
    sections = analyze(offline(), plan, Catalog([upgrades, versions]), lang="en").sections
    asked = next(s for s in sections if s.question == topic)
    works = next(s for s in sections if s.question == "How do Quill rooms work?")
    steps = "When the client requests to upgrade a known room to a known version, the server:"
    quoted = {c.text: c for c in asked.claims}
    assert steps in quoted, [c.text for s in sections for c in s.claims]
    assert (
        quoted[steps].items[0] == "Checks that the user has permission to send tombstone events in the room."
    )
    assert steps not in [c.text for c in works.claims]  # quoted once


def test_the_question_as_written_chooses_before_a_scarcer_section() -> None:
    # Matrix's "How do Matrix rooms work?" had fewer passages and took the server's upgrade steps, which the
    # question as written ("How are Matrix rooms upgraded…?") then quoted no more
    steps = Candidate(
        "When the client requests to upgrade a known room to a known version, the server:",
        "local-u",
        2.0,
        1.0,
        0.0,
        treats=True,
        items=("Checks that the user has permission to send tombstone events in the room.",),
    )
    stable = Candidate(
        "Clients should not ask room administrators to upgrade their rooms if the room is running a stable version.",
        "local-v",
        1.0,
        0.6,
        0.0,
    )
    kept = Candidate("Servers keep the old room readable after the upgrade.", "local-u", 1.0, 0.5, 0.0)
    topic = "How are Quill rooms upgraded to a new room version?"
    pools = {topic: [steps, stable, kept], "How do Quill rooms work?": [steps, kept]}
    assert allocate(pools)[topic][0].text != steps.text  # the scarcer section chose first
    chosen = allocate(pools, first={topic})
    assert chosen[topic][0].text == steps.text
    assert steps.text not in [c.text for c in chosen["How do Quill rooms work?"]]
