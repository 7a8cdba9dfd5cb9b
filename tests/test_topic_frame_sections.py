"""A section framing its document ("#### Errata", "## Revision history") says what changed in the text, never
how the subject works: "Previous versions of this spec listed connection registration in the middle" is no
answer to how capability negotiation works during connection registration."""

from __future__ import annotations

from generator.topic.headings import frames_document, section_facets
from generator.topic.judge import RelevanceJudge
from generator.topic.topic_point import sentence_statistics
from generator.topic.word_candidates import candidates
from generator.topic.workspace import RawSource

SPEC = (
    "# Feature Negotiation\n\n#### What feature negotiation attempts to solve\n\nFeature negotiation lets "
    "clients and servers agree on protocol extensions.\n\n#### Connection registration\n\nUpon connecting, the "
    "client sends FEAT LS to start feature negotiation, and the server holds connection registration until "
    "the client sends FEAT END.\n\n#### The FEAT REQ subcommand\n\nThe client sends FEAT REQ to ask for "
    "features during negotiation; the server answers FEAT ACK or FEAT NAK.\n\n#### Errata\n\nPrevious versions "
    "of this spec listed connection registration in the middle. This section has been rewritten and placed "
    "near the front, now including examples of negotiating features during initial registration.\n\n"
    "Previous versions of this spec did not say how feature negotiation ends connection registration.\n"
)
QUESTION = "How does feature negotiation work during connection registration?"


def test_a_section_framing_its_document_answers_no_question() -> None:
    for heading in (
        "Errata",
        "#### Errata",
        "Revision history",
        "Change History",
        "更新日志",
        "4. References",
    ):
        assert frames_document(heading), heading
        assert section_facets(heading) == set()
    for heading in ("Connection registration", "Error handling", "Version negotiation", "History of the web"):
        assert not frames_document(heading), heading


def test_the_errata_of_a_specification_are_not_quoted() -> None:
    source = RawSource(
        "s", "local", "local:spec.md", "Feature Negotiation", "t", SPEC, kind="local", relevance=0.9
    )
    judge = RelevanceJudge(QUESTION)
    sentence_statistics(judge, [source])
    found = candidates([source], focus=QUESTION, judge=judge, facet=set(), reserved=set(), facet_name="topic")
    # main: "Previous versions of this spec listed connection registration in the middle…" among them
    assert found and not any(c.text.startswith("Previous versions") for c in found)
    assert any(c.text.startswith("The client sends FEAT REQ") for c in found)
