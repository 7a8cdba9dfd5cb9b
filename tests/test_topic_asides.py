"""A passage is taken for what its sentence does, not only for its words (issue 30): a note or caveat
("Note: We have seen failures…"), an instruction to the reader ("安装 … 插件"), a pointer to where an
implementation is found, and a sentence on how small a change is never say what the subject is or how it
works."""

from __future__ import annotations

from topic_fakes import offline

from generator.topic import workspace as wsp
from generator.topic.analyze import analyze
from generator.topic.findings import Catalog
from generator.topic.plan import Plan, Step

FROBNICATORS = (
    "# Frobnicators\n\n"
    "Note: frobnicators have failed on Windows, where the frobnicator cache ends up in a confused state.\n\n"
    "A frobnicator is a build step that rewrites the cache of a project before each test run.\n\n"
    "## How frobnicators work\n\n"
    "A reference implementation of the frobnicator can be found in frob.py.\n\n"
    "The changes to the frobnicator cache are fairly simple, and not directly related to the build.\n\n"
    "The frobnicator reads each cache entry, rewrites its key with the project's hash and writes the entry "
    "back before the test run starts.\n"
)


def _sections(question: str, facet: str) -> tuple[str, str]:
    source = wsp.RawSource(
        "local-f",
        "local",
        "local:frobnicators.md",
        "Frobnicators",
        "t",
        FROBNICATORS,
        kind="local",
        relevance=0.9,
    )
    plan = Plan(
        topic="frobnicators",
        sub_queries=[question],
        steps=[Step(id="s1", title=facet, question=question, facet=facet)],
    )
    analysis = analyze(offline(), plan, Catalog([source]), lang="en")
    opening = analysis.definition.text if analysis.definition else ""
    return opening, " ".join(c.text for s in analysis.sections for c in s.claims)


def test_a_note_does_not_say_what_the_subject_is() -> None:
    opening, said = _sections("What are frobnicators?", "what")
    assert opening.startswith("A frobnicator is a build step")
    assert "confused state" not in said


def test_a_pointer_and_a_note_on_the_size_of_a_change_do_not_say_how_it_works() -> None:
    _, said = _sections("How do frobnicators work?", "how")
    assert "rewrites its key" in said
    assert "can be found in frob.py" not in said
    assert "fairly simple" not in said
