"""The unit a report quotes is the document's block (issue 30): a summary that introduces a list or an
example is the definition with them; a section's opening paragraph is quoted up to a pointer it ends on; and
what the subject is, a section says in its first paragraph only."""

from __future__ import annotations

from dataclasses import replace

from topic_fakes import offline

from generator.documents.plain import markup_prose
from generator.text.words import tokens
from generator.topic import workspace as wsp
from generator.topic.definition import definition
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.judge import RelevanceJudge
from generator.topic.opening_passages import opening_passages
from generator.topic.openings import abstract_unit
from generator.topic.plan import Plan, Step
from generator.topic.report import build_report
from generator.topic.section_candidates import section_candidates
from generator.topic.section_claims import header_claims
from generator.topic.section_tree import text_sections
from generator.topic.subject_headings import subject_opening

STORES = (
    "# Reactive stores\n\n## Summary\n\n"
    "This RFC proposes a replacement for the existing Store class that satisfies the following goals:\n"
    "- Allows any component to subscribe to multiple sources of data\n"
    "- Concise syntax that eliminates lifecycle boilerplate\n\n"
    "## Motivation\n\n"
    "In Svelte 1, we introduced the Store class, which provides a simple app-level state management "
    "solution.\n\n"
    "## Detailed design\n\nA store must have a subscribe method.\n"
)
THEMING = (
    "# Passing CSS custom properties to components\n\n## Summary\n\n"
    "This RFC proposes an idiomatic way to pass styles to components for the purposes of theming, using CSS "
    "custom properties:\n\n"
    '```html\n<Slider --rail-color="black" />\n```\n\n'
    "## Motivation\n\nTheming components is currently too difficult.\n"
)
LINUX = (
    "# Linux Container Configuration\n\n"
    "This document describes the schema for the Linux-specific section of the container configuration.\n\n"
    "## Namespaces\n\n"
    "A namespace wraps a global system resource in an abstraction that makes it appear to the processes "
    "within the namespace that they have their own isolated instance of the global resource. For more "
    "information, see the namespaces(7) man page.\n\n"
    "Namespaces are specified as an array of entries inside the namespaces root field.\n\n"
    "## Devices\n\nThe runtime creates the devices listed in the configuration.\n"
)


def _source(sid: str, title: str, text: str) -> wsp.RawSource:
    return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)


def test_a_summary_introducing_a_list_is_the_definition_with_its_list_not_the_motivation() -> None:
    unit = abstract_unit(STORES)
    assert unit is not None and unit.text.startswith("This RFC proposes a replacement")
    assert unit.items == (
        "Allows any component to subscribe to multiple sources of data",
        "Concise syntax that eliminates lifecycle boilerplate",
    )
    source = _source("local-s", "Reactive stores", STORES)
    opening = definition([source], RelevanceJudge("reactive stores"), lambda s: True)
    assert opening is not None and opening.items == unit.items
    assert "Svelte 1" not in opening.text  # the motivation's background says what it replaces


def test_a_summary_introducing_an_example_is_the_definition_with_its_example() -> None:
    unit = abstract_unit(THEMING)
    assert unit is not None and unit.text.endswith("using CSS custom properties:")
    assert unit.code == '<Slider --rail-color="black" />'
    assert (
        abstract_unit("# Title\n\n## Summary\n\nA store holds a value and tells its subscribers.\n") is None
    )


def test_a_definition_with_its_list_opens_its_section_and_the_summary_opens_with_whole_sentences() -> None:
    source = _source("local-s", "Reactive stores", STORES)
    listed = Claim(
        "This RFC proposes a replacement for the existing Store class:", [source.id], 1.0, items=("a",)
    )
    lead = Claim("A store must have a subscribe method.", [source.id], 0.5)
    plan = Plan(
        topic="reactive stores",
        sub_queries=["What are reactive stores?", "How do reactive stores work?"],
        steps=[
            Step(id="s1", title="what", question="What are reactive stores?", facet="what"),
            Step(id="s2", title="how", question="How do reactive stores work?", facet="how"),
        ],
    )
    sections = [
        Section("What are reactive stores?", [listed]),
        Section("How do reactive stores work?", [lead]),
    ]
    report = build_report(plan, Analysis(sections=sections, definition=listed), Catalog([source]))
    assert report.sections[0].claims[0].items == ("a",)
    # the summary is one run of sentences: a lead-in and its list would run into the next passage
    assert [c.text for c in report.summary] == [lead.text]


def test_a_sections_opening_paragraph_is_quoted_up_to_the_pointer_it_ends_on() -> None:
    [section] = [s for s in text_sections(LINUX) if s.heading == "Namespaces"]
    first = opening_passages(section, 1)[0]
    assert first.text.startswith("A namespace wraps a global system resource")
    assert first.text.endswith("instance of the global resource.")  # "For more information, see…" left off
    concepts = [set(tokens("linux")), set(tokens("namespaces"))]
    opening = subject_opening(LINUX, concepts, tokens, "Linux Container Configuration")
    assert opening is not None and opening.text == first.text


def test_a_pointer_in_the_middle_of_a_paragraph_leaves_it_unquoted() -> None:
    text = (
        "# Stores\n\n## Drawbacks\n\n"
        "People will recoil at first. For more information, see the namespaces(7) man page. "
        "The cost may outweigh the benefit for that reason.\n"
    )
    [section] = [s for s in text_sections(text) if s.heading == "Drawbacks"]
    assert opening_passages(section, 2) == []  # its argument goes on after the pointer


def test_what_a_subject_is_a_section_says_in_its_first_paragraph_only() -> None:
    source = _source("local-l", "Linux Container Configuration", LINUX)
    judge = RelevanceJudge("Linux namespaces")
    said = frozenset(
        [
            "A namespace wraps a global system resource in an abstraction that makes it appear to the processes "
            "within the namespace that they have their own isolated instance of the global resource."
        ]
    )
    what = section_candidates([source], "what", judge, stored=[source], said=said)
    assert not any(c.text.startswith("Namespaces are specified") for c in what)  # how it is specified
    how = section_candidates([source], "how", judge, stored=[source], said=said)
    assert any(c.text.startswith("Namespaces are specified") for c in how)


def test_what_a_subject_is_a_section_also_shows_in_its_example() -> None:
    text = (
        "# Tracked properties\n\n## Summary\n\n"
        "Tracked properties introduce a simpler system for tracking state change in Ember applications.\n\n"
        "This simple example shows a Person class with three tracked properties:\n\n"
        "```js\nclass Person {\n  @tracked firstName;\n}\n```\n\n"
        "Tracked properties are declared on classes only.\n"
    )
    source = _source("local-t", "Tracked properties", text)
    said = frozenset(
        ["Tracked properties introduce a simpler system for tracking state change in Ember applications."]
    )
    what = section_candidates(
        [source], "what", RelevanceJudge("tracked properties"), stored=[source], said=said
    )
    assert [c.text for c in what] == [
        "This simple example shows a Person class with three tracked properties:"
    ]


def test_a_passage_naming_none_of_the_facet_fills_an_empty_section_and_never_pads_one() -> None:
    from generator.topic.allocation import allocate
    from generator.topic.candidate import Candidate

    design = Candidate(
        "The forwardRef function returns a wrapper object React recognises.", "s1", 2.0, 1.0, 1.0
    )
    teach = Candidate(
        'Add a section to the "Refs and the DOM" documentation page about it.', "s1", 0.0, 1.0, 1.0
    )
    other = Candidate("Refs are forwarded to a descendant component.", "s1", 0.0, 1.0, 1.0)
    chosen = allocate({"How does ref forwarding work?": [design, teach], "What is ref forwarding?": [other]})
    assert [c.text for c in chosen["How does ref forwarding work?"]] == [design.text]
    assert [c.text for c in chosen["What is ref forwarding?"]] == [other.text]  # an empty section takes one


def test_a_sentence_opening_on_the_subjects_name_says_what_it_is_only_when_it_goes_on_with_it() -> None:
    from generator.topic.account import opens_on

    assert opens_on("Tracked properties introduce a simpler system.", "tracked properties", defining=True)
    assert opens_on("A modifier manager is an object.", "modifier managers", defining=True)
    assert not opens_on("Baggage names are any valid, non-empty UTF-8 strings.", "baggage", defining=True)
    assert opens_on("Baggage names are any valid, non-empty UTF-8 strings.", "baggage")  # it names it first
    # a glossary entry names it before a colon (ICS-27's "### Definitions" under its "## Synopsis")
    assert opens_on("Interchain Account: An account on a host chain.", "interchain accounts", defining=True)


BAGGAGE = (
    "# Baggage API\n\n## Overview\n\n"
    "Baggage is a set of application-defined properties associated with a distributed request.\n\n"
    "```\nbaggage.Set('a', 'B')\n```\n\n"
    "Baggage names are any valid, non-empty UTF-8 strings, and baggage values are strings too.\n\n"
    "## Operations\n\nThe Baggage API provides functions to get and set values.\n"
)


def test_a_document_saying_what_its_subject_is_in_a_section_is_quoted_from_that_section() -> None:
    from generator.topic.analyze import analyze

    source = _source("local-b", "Baggage API", BAGGAGE)
    what = "What is baggage?"  # asked alone: no other section takes the detail first
    plan = Plan(
        topic="baggage", sub_queries=[what], steps=[Step(id="s1", title="what", question=what, facet="what")]
    )
    [what] = analyze(offline(), plan, Catalog([source]), lang="en").sections
    assert [c.text for c in what.claims] == [
        "Baggage is a set of application-defined properties associated with a distributed request."
    ]


def test_what_the_subject_is_comes_from_the_documents_defining_it_not_another_documents_section_on_it() -> (
    None
):
    from generator.topic.analyze import analyze

    own = _source(
        "local-p",
        "Plugins: extending every store",  # titled after the subject, not as it
        "# Plugins: extending every store\n\nA plugin is a function that adds properties to every store.\n\n"
        "## Usage\n\nPlugins are added to the pinia instance with use().\n",
    )
    testing = _source(
        "local-t",
        "Testing stores",
        "# Testing stores\n\nStores are tested with a testing pinia.\n\n"
        "## Plugins\n\nThe plugins a test needs are passed to createTestingPinia() in its plugins option.\n",
    )
    what = "What are plugins?"
    plan = Plan(
        topic="plugins", sub_queries=[what], steps=[Step(id="s1", title="what", question=what, facet="what")]
    )
    [section] = analyze(offline(), plan, Catalog([own, testing]), lang="en").sections
    assert [c.sources for c in section.claims] == [["local-p"]]
    assert section.claims[0].text == "A plugin is a function that adds properties to every store."


def test_a_list_right_under_the_title_is_the_documents_abstract() -> None:
    from generator.documents.plain import markup_prose

    text = markup_prose(
        "# OCI Image Layout Specification\n\n"
        "- The OCI Image Layout is the directory structure for content-addressable blobs and references.\n"
        "- This layout MAY be used in a variety of different transport mechanisms.\n\n"
        "## Content\n\nThe image layout is as follows.\n",
        structure=True,
    )
    unit = abstract_unit(text)
    assert unit is not None and unit.items[0].startswith("The OCI Image Layout is the directory structure")
    source = _source("local-l", "OCI Image Layout Specification", text)
    opening = definition([source], RelevanceJudge("image layout"), lambda s: True)
    assert opening is not None and opening.items == unit.items


def test_a_definition_from_a_section_naming_the_subject_keeps_the_list_its_lead_in_introduces() -> None:
    # EEP 49's "Before choosing the maybe ... end expression, the following items needed consideration:"
    # opened the report without its four items
    text = (
        "# Error handling in Erlang\n\n## The maybe expression\n\nBefore choosing the maybe expression as "
        "the construct, the following items needed careful consideration:\n\n- what is the scope we need to "
        "cover\n- why choose the else keyword\n\n## Drawbacks\n\nThe new keyword might clash with atoms.\n"
    )
    source = _source("local-e", "Error handling in Erlang", markup_prose(text, structure=True))
    opening = definition([source], RelevanceJudge("maybe expression"), lambda s: True)
    assert opening is not None and opening.text.endswith("needed careful consideration:")
    assert opening.items == ("what is the scope we need to cover", "why choose the else keyword")


WARNINGS = (
    "# How to capture warnings\n\n"
    "Starting from version 3.1, pytest now automatically catches warnings during test execution and displays "
    "them at the end of the session:\n\n"
    "```python\nimport warnings\n\ndef test_one():\n    warnings.warn(UserWarning('api v1'))\n```\n\n"
    "## Controlling warnings\n\n"
    "This code sample shows how to treat any UserWarning category class of warning as an error:\n\n"
    "```\npytest -W error::UserWarning\n```\n"
)


def test_a_document_opening_by_showing_its_subject_is_the_definition_with_its_example() -> None:
    source = _source("local-w", "How to capture warnings", WARNINGS)
    opening = definition([source], RelevanceJudge("asserting and capturing warnings"), lambda s: True)
    assert opening is not None and opening.text.startswith("Starting from version 3.1, pytest now")
    assert opening.code.startswith("import warnings")
    # a lead that stands alone is the opening itself, without the example after it
    alone = WARNINGS.replace("at the end of the session:", "at the end of the session.")
    source = _source("local-w", "How to capture warnings", alone)
    said = definition([source], RelevanceJudge("asserting and capturing warnings"), lambda s: True)
    assert said is not None and said.text.endswith("at the end of the session.") and not said.code


def test_a_subject_only_shown_by_its_example_is_summed_up_by_it_not_left_unanswered() -> None:
    # pytest's "asserting and capturing warnings": every passage stored is a lead-in with its code, so the
    # summary's run of sentences had none and said the stored sources do not answer
    source = _source("local-w", "How to capture warnings", WARNINGS)
    shown = Claim(
        "Starting from version 3.1, pytest now automatically catches warnings during test execution and "
        "displays them at the end of the session:",
        [source.id],
        1.0,
        "import warnings",
    )
    recipe = Claim("To ensure that no warnings are emitted, use:", [source.id], 0.5, "pytest -W error")
    plan = Plan(
        topic="capturing warnings",
        sub_queries=["What is capturing warnings?"],
        steps=[Step(id="s1", title="what", question="What is capturing warnings?", facet="what")],
    )
    analysis = Analysis(sections=[Section("What is capturing warnings?", [shown, recipe])], definition=shown)
    report = build_report(plan, analysis, Catalog([source]))
    assert [c.text for c in report.summary] == [shown.text] and report.summary[0].code == "import warnings"
    # a sentence of its own anywhere still opens the summary, the example left to its section
    said = Claim("pytest catches warnings during test execution.", [source.id], 0.4)
    analysis.sections[0].claims.append(said)
    assert [c.text for c in build_report(plan, analysis, Catalog([source])).summary] == [said.text]


def test_the_headers_answering_current_state_do_not_follow_the_order_sources_were_fetched_in() -> None:
    # erlang's maps report listed "EEP 43: Maps — final · 2013-04-04" first in one run and last in the next: the
    # catalog is in fetch order, which concurrent searches change
    def eep(sid: str, title: str, created: str) -> wsp.RawSource:
        text = f"# {title}\n\n## Abstract\n\nMaps are a data type.\n"
        return replace(_source(sid, title, text), status="final", published=created)

    maps = eep("local-c", "EEP 43: Maps", "2013-04-04")
    keys = eep("local-a", "EEP 52: Key expressions in map matching", "2020-01-28")
    comprehensions = eep("local-b", "EEP 58: Map comprehensions", "2021-09-14")
    defining = {s.id for s in (maps, keys, comprehensions)}
    for fetched in ([keys, comprehensions, maps], [comprehensions, maps, keys]):
        headers = header_claims(Catalog(fetched), defining, "en", first=maps.id)
        assert [c.sources for c in headers] == [
            [maps.id],
            [comprehensions.id],
            [keys.id],
        ]  # then newest first


LENDING = (
    "# Lending limit\n\n## Summary\n\nA lending limit reserves quota for a queue.\n\n## Design Details\n\n"
    "### Queue API\n\nModify Quota API object:\n\n```go\ntype Quota struct {\n"
    "\t// lendingLimit is the maximum amount of unused quota this queue can lend to its cohort.\n"
    '\t// If null, there is no lending limit.\n\tLendingLimit *Quantity `json:"lendingLimit"`\n}\n```\n'
)


def test_a_design_that_is_code_answers_how_with_the_lead_in_naming_what_it_changes() -> None:
    # Kueue's lending limit KEP: "## Design Details" > "### Kueue LendingLimit API" is "Modify ResourceQuota API
    # object:" and the Go struct whose comments define `lendingLimit`; "How does … work?" said "do not answer"
    # (11 such design sections in 10 stored collections: a short lead-in, then code with its comments)
    source = _source("local-l", "Lending limit", LENDING)
    judge = RelevanceJudge("lending limit")
    said = frozenset(["A lending limit reserves quota for a queue."])
    how = section_candidates([source], "how", judge, stored=[source], said=said)
    assert [(c.text, "lendingLimit is the maximum" in c.code) for c in how] == [
        ("Modify Quota API object:", True)
    ]
    # a design with a paragraph of its own answers from it, the lead-in never quoted alone: the short lead-in
    # after the paragraph hands it over to the code (`with_lead_ins`)
    prose = LENDING.replace(
        "### Queue API\n\n", "### Queue API\n\nA queue lends at most its lending limit.\n\n"
    )
    source = _source("local-l", "Lending limit", prose)
    how = section_candidates([source], "how", judge, stored=[source], said=said)
    assert [(c.text, "lendingLimit is the maximum" in c.code) for c in how] == [
        ("A queue lends at most its lending limit. Modify Quota API object:", True)
    ]


def test_a_section_headed_for_the_limits_by_name_answers_them_first() -> None:
    text = (
        "# RFC-1: Agile Coretime\n\n## Summary\n\nAgile Coretime sells coretime in bulk and instantly.\n\n"
        "## Performance, Ergonomics and Compatibility\n\nParachains already deployed must plan to migrate to "
        "the agile coretime market.\n\n## Testing, Security and Privacy\n\nRegular testing through unit tests "
        "and fuzzing SHOULD be conducted for agile coretime.\n\n## Drawbacks, Alternatives and Unknowns\n\n"
        "Unknowns include the economic and resource parameterisations of agile coretime:\n\n"
        "- The initial price of Bulk Coretime.\n- The fate of revenue collected.\n"
    )
    source = _source("local-c", "RFC-1: Agile Coretime", markup_prose(text, structure=True))
    judge = RelevanceJudge("Agile Coretime")
    limits = section_candidates([source], "limits", judge, stored=[source])
    assert limits[0].text.startswith("Unknowns include the economic")  # named for them, though written last
    assert [c.text[:12] for c in limits[1:]] == ["Parachains a", "Regular test"]  # the document's order
    assert max(limits, key=lambda c: c.relevance) is limits[0]


def test_a_section_on_limits_quotes_the_paragraphs_stating_one_first() -> None:
    # SIMD-0326: "## Security Considerations" opens on the proofs the design has; its limit is its third paragraph
    text = (
        "# Alpenglow\n\n## Summary\n\nAlpenglow replaces TowerBFT as the consensus protocol.\n\n"
        "## Security Considerations\n\nThe white paper provides proofs for safety and liveness.\n\n"
        "When instantiated with SHA256 for hashing, the desired security level of 128-bits is achieved.\n\n"
        "Alpenglow features a distinctive 20+20 security model. While it does not have the 33% byzantine "
        "security of two-round protocols, the 40% crash failure resilience is worth the tradeoff.\n"
    )
    source = _source("local-a", "Alpenglow", markup_prose(text, structure=True))
    judge = RelevanceJudge("Alpenglow consensus")
    limits = section_candidates([source], "limits", judge, stored=[source])
    assert limits[0].text.startswith("Alpenglow features a distinctive 20+20 security model.")
    assert [c.text[:16] for c in limits[1:]] == ["The white paper "]  # the section's opening after it


def test_what_a_design_leaves_alone_is_no_limit_of_it() -> None:
    # SIMD-0118's "## Security Considerations": "…it does not alter the economics of the reward system."
    text = (
        "# Partitioned Epoch Rewards\n\n## Summary\n\nPartitioned epoch rewards spread rewards over blocks.\n\n"
        "## Security Considerations\n\nWhile the proposed approach does impact and modify various components "
        "of the validators, it does not alter the economics of the reward system.\n\n"
        "Reward distribution relies on restricting any lamport debit until distribution is completed.\n\n"
        "## Drawbacks\n\nThe authors cannot see any potential impact on the stakers.\n"
    )
    source = _source("local-p", "Partitioned Epoch Rewards", markup_prose(text, structure=True))
    judge = RelevanceJudge("partitioned epoch rewards")
    limits = section_candidates([source], "limits", judge, stored=[source])
    assert [c.text[:24] for c in limits] == ["Reward distribution reli"]


def test_a_document_saying_what_it_does_not_handle_answers_its_limits() -> None:
    # ICS-20 states its limit under "##### Multi-chain notes", a heading naming no facet
    text = (
        "# Fungible Token Transfer\n\n## Synopsis\n\nFungible token transfer moves tokens between chains.\n\n"
        "## Technical Specification\n\n### Reasoning\n\nThis implementation preserves fungibility and supply.\n\n"
        "#### Multi-chain notes\n\nThis specification does not directly handle the diamond problem, where a "
        "user returns a token through another chain than it came by.\n\n"
        "A chain may keep a registry of the source chain of each denomination.\n\n"
        "#### Upgrades\n\nThis specification does not change how channels are opened.\n"
    )
    source = _source("local-f", "Fungible Token Transfer", markup_prose(text, structure=True))
    judge = RelevanceJudge("fungible token transfer")
    limits = section_candidates([source], "limits", judge, stored=[source])
    assert [c.text[:40] for c in limits] == ["This specification does not directly han"]


def test_a_long_opening_list_of_alternatives_is_quoted_by_its_first_points() -> None:
    # SIMD-0118's "## Alternatives Considered": a full-stop lead-in and four alternatives, each a paragraph
    approaches = [
        f"Alternative {n} keeps the epoch rewards in one block with {kind}. " + "It costs more time. " * 22
        for n, kind in enumerate(["a stake threshold", "native programs", "asynchronous steps", "sysvars"], 1)
    ]
    text = (
        "# Partitioned Epoch Rewards\n\n## Summary\n\nPartitioned epoch rewards spread rewards over blocks.\n\n"
        "## Alternatives Considered\n\nWe have discussed the following alternative approaches.\n\n"
        + "\n".join(f"{n}. {a}" for n, a in enumerate(approaches, 1))
        + "\n"
    )
    source = _source("local-p", "Partitioned Epoch Rewards", markup_prose(text, structure=True))
    judge = RelevanceJudge("partitioned epoch rewards")
    [alternatives] = section_candidates([source], "alternatives", judge, stored=[source])
    assert alternatives.text == "We have discussed the following alternative approaches."
    assert [i[:13] for i in alternatives.items] == ["Alternative 1", "Alternative 2", "Alternative 3"]


def test_a_withdrawn_draft_of_the_subject_is_stated_after_the_account_in_force() -> None:
    # SIMD-0015, withdrawn and superseded by SIMD-0118, was stored and never named: its status was invisible
    def simd(sid: str, status: str, created: str) -> wsp.RawSource:
        text = "# Partitioned Epoch Rewards Distribution\n\n## Summary\n\nRewards are spread over blocks.\n"
        title = "Partitioned Epoch Rewards Distribution"
        return replace(_source(sid, title, text), status=status, published=created)

    draft, account = simd("local-d", "withdrawn", "2023-03-02"), simd("local-a", "activated", "2024-02-16")
    headers = header_claims(Catalog([draft, account]), {draft.id, account.id}, "en", first=account.id)
    assert [c.text for c in headers] == [
        "Partitioned Epoch Rewards Distribution — activated · 2024-02-16",
        "Partitioned Epoch Rewards Distribution — withdrawn · 2023-03-02",
    ]
