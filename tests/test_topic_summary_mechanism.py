"""The summary states what a reader came for (issue 30, item 4): the defining document's own definition, then
how the subject works in its design section's words (CometBFT's proposer selection: "At its core, the proposer
selection procedure uses a weighted round-robin algorithm." under "## Basic Algorithm"), and never a template's
prompt ("How will we solve the problem? Describe in detail…")."""

from __future__ import annotations

from generator.topic import workspace as wsp
from generator.topic.definition import design_opening
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.headings import section_facets
from generator.topic.judge import RelevanceJudge
from generator.topic.plan import Plan, Step
from generator.topic.report import build_report

SELECTION = """# Widget Selection Procedure

This document specifies the Widget Selection Procedure that is used in the engine to choose a round widget.

## Requirements for Widget Selection

The procedure must be deterministic.

## Basic Algorithm

At its core, the widget selection procedure uses a weighted round-robin algorithm. Widgets move ahead by their
weight.
"""
DEFINED = "This document specifies the Widget Selection Procedure that is used in the engine to choose a round widget."
HOW = "At its core, the widget selection procedure uses a weighted round-robin algorithm."


def _source() -> wsp.RawSource:
    return wsp.RawSource(
        "local-w", "local", "local:w.md", "Widget Selection Procedure", "t", SELECTION, kind="local"
    )


def test_an_algorithm_section_states_how_the_subject_works() -> None:
    assert section_facets("Basic Algorithm") == {"how"}  # "basic" names no usage there
    assert section_facets("Basic usage") == {"use"}


def test_the_defining_documents_design_opening_is_how_the_subject_works() -> None:
    judge = RelevanceJudge("How does the engine choose the widget selection for each round?")
    mechanism = design_opening(Catalog([_source()]), Claim(DEFINED, ["local-w"], 1.0), judge)
    assert mechanism is not None and mechanism.text.startswith(HOW) and mechanism.sources == ["local-w"]
    # the definition already saying it: nothing more to state
    assert design_opening(Catalog([_source()]), Claim(f"{DEFINED} {HOW}", ["local-w"], 1.0), judge) is None


def test_the_summary_states_the_definition_then_how_it_works_then_the_sections_leads() -> None:
    question = "Why does widget selection matter?"
    why = Claim("The procedure must be deterministic.", ["local-w"], 0.9)
    prompt = Claim("How will we solve the problem? Describe in detail how it works.", ["local-w"], 0.95)
    told = Claim("Explain why you submitted this proposal over alternatives.", ["local-w"], 0.93)
    plan = Plan(
        topic="widget selection",
        sub_queries=[question, "How does widget selection work?"],
        steps=[
            Step(id="s1", title="why", question=question, facet="motivation"),
            Step(id="s2", title="how", question="How does widget selection work?", facet="how"),
        ],
    )
    analysis = Analysis(
        sections=[
            Section(question, [why]),
            Section("How does widget selection work?", [prompt]),
            Section("What are the alternatives?", [told]),
            Section(
                "What are the limits?", [Claim("Express here the ramifications of this.", ["local-w"], 0.92)]
            ),
        ],
        definition=Claim(DEFINED, ["local-w"], 1.0),
        mechanism=Claim(HOW, ["local-w"], 1.0),
        defining=["local-w"],
    )
    report = build_report(plan, analysis, Catalog([_source()]))
    # the template's prompts, a question and an instruction to the author, lead nothing though they scored best
    assert [c.text for c in report.summary] == [DEFINED, HOW, why.text]


def test_a_sentence_saying_where_its_document_describes_something_points_elsewhere() -> None:
    from generator.text.pointers import points_elsewhere

    # AIP-61's limits section opened "All the risk and drawbacks are described in the “Security, Liveness and
    # Privacy Considerations” section.", quoted as the summary's statement of its limits
    assert points_elsewhere(
        "All the risk and drawbacks are described in the “Security Considerations” section."
    )
    assert not points_elsewhere("The risk is covered by the deposit the provider puts down.")
