"""A passage's role in its document, read from its heading chain and its first sentence: the sentence where a
document states its purpose is its definition; open questions answer only "limits" and history nothing of the
outline's questions; a heading written in bold is read by its words."""

from __future__ import annotations

from generator.text.pointers import states_purpose_within
from generator.text.words import tokens
from generator.topic.facet_sections import treating
from generator.topic.heading_facets import path_facets
from generator.topic.headings import is_status_heading, section_facets
from generator.topic.openings import document_opening
from generator.topic.stating_parts import stating_parts

PROPOSAL = """# Widget Versioning

Widgets is a framework that allows creating programs expressed with a set of widgets.

These widgets sometimes require changes, spread out across the program representation and its execution.

This document proposes a new compatibility policy based on widget versioning.

## Motivation

Programs break when a widget changes.
"""


def test_the_sentence_stating_the_documents_purpose_defines_the_subject_before_the_problem_it_sets_out() -> (
    None
):
    opening = document_opening(PROPOSAL, [{"widget"}, {"version"}], titled=True)
    assert opening.startswith("This document proposes a new compatibility policy based on widget versioning.")


DRAIN = """# Widget drain rules

## Summary

Today, when the controller deletes a widget it drains its node with hard-coded widget rules.

With recent changes, we can now control the widget drain, and thus we propose a new WidgetDrainRule to make
the rules configurable per widget.

## Motivation

Widgets need a drain order.
"""


def test_a_summary_opening_on_the_state_it_changes_defines_the_subject_where_it_says_what_it_proposes() -> (
    None
):
    # Cluster API's MachineDrainRule proposal opens its summary on how drain works today and proposes the CRD in
    # its next paragraph, in a clause ("…, and thus we propose a new `MachineDrainRule` CRD…")
    opening = document_opening(DRAIN, [{"widget"}, {"drain"}], titled=True)
    assert opening.startswith("With recent changes, we can now control the widget drain, and thus we propose")
    # an opening phrase leaning on what was said before it: Kotlin contracts' "To solve it, we propose to introduce
    # a new language mechanism, called Kotlin Contracts." after its summary's own definition
    assert not states_purpose_within("To solve it, we propose to introduce a new language mechanism.")
    assert not states_purpose_within("To address this, this proposal introduces the overflow affinities.")
    assert not states_purpose_within("Today, the controller drains the node. We can now propose nothing.")


def test_a_heading_written_in_bold_is_read_by_its_words() -> None:
    assert section_facets("**Summary**") == {"what"}
    assert section_facets("__Motivation__") == {"motivation"}
    blocks = ["# Title", "## **Summary**", "The summary says what it is.", "## **Motivation**", "Why."]
    assert stating_parts(blocks) == ["", "", "summary", "", "aside"]


def test_a_proposed_implementation_is_the_design_and_a_reference_implementation_is_not() -> None:
    assert section_facets("**Proposed Implementation**") == {"how"}
    assert section_facets("Suggested implementation") == {"how"}
    assert section_facets("Prototype implementation") == {"current"}


def test_a_designs_goals_say_why_it_is_made_so_not_how_it_works() -> None:
    # CEP 16 (sharded repodata): "### Design goals" lists "Speed: Fetching repodata MUST be very fast.", quoted under
    # "How does sharded repodata work?"; F# RFCs and KEEPs head the same lists "Design Principles"
    assert section_facets("Design goals") == {"motivation"}
    assert section_facets("### Key design principles") == {"motivation"}
    assert section_facets("Detailed design") == {"how"}
    assert "limits" in section_facets("Design goals and non-goals")  # the non-goals are limits, as before


def test_a_proposals_own_goals_say_why_and_its_bare_how_says_how_it_works() -> None:
    # Prometheus proposals head their sections "## Why", "## Goals", "## Non-Goals", "## How": created timestamps'
    # "Goals:" list answered "How do created timestamps work?", and "## How" (the zero injection) was no design
    # section; npm RFCs write "## How does it work?"
    assert section_facets("Goals") == {"motivation"}
    assert section_facets("## Objectives") == {"motivation"}
    assert "limits" in section_facets("Goals and Non-Goals")
    assert section_facets("Non-Goals") == {"limits"}
    assert section_facets("How") == {"how"}
    assert section_facets("How does it work?") == {"how"}
    assert section_facets("How to use") == {"use"}


def test_user_stories_under_a_proposal_say_why_not_how_it_works() -> None:
    # Flux RFCs and Tekton TEPs (a KEP-like template) hold "### User Stories" under "## Proposal": "As a cluster
    # administrator, I want to allow tenant A to pull OCI artifacts…" answered "How does multi-tenant workload
    # identity work?" three times (30 such sections in the two collections)
    for heading in ("User Stories", "### User Stories (optional)", "#### User Story 1"):
        assert section_facets(heading) == {"motivation"}, heading
    assert path_facets(("Workload Identity", "Proposal", "User Stories"), "Workload Identity") == {
        "motivation"
    }
    assert path_facets(("Workload Identity", "Proposal"), "Workload Identity") == {"how"}


def test_a_users_experience_in_detail_is_how_it_is_used() -> None:
    # longhorn's LEPs hold "### User Experience In Detail" under "## Proposal" (87), tekton's TEPs "### User
    # Experience" under "## Proposal" or "## Design Evaluation" (56): a user's steps, never the design
    for heading in ("User Experience In Detail", "### User Experience (optional)", "User experience"):
        assert section_facets(heading) == {"use"}, heading
    assert path_facets(("Filesystem trim", "Proposal", "User Experience In Detail"), "Filesystem trim") == {
        "use"
    }


def test_a_status_the_subject_reports_is_no_status_of_the_work() -> None:
    # the IPFS trustless gateway spec's "## Response Status Codes" ("### `404 Not Found`": "A Trustless Gateway MUST
    # return 404 Not Found when the root block … is not available") answered "What is its current state?"; gRPC,
    # OpenTelemetry and EIP documents head sections "Status Codes", "Status Code Mapping", "Exit status"
    for heading in (
        "Response Status Codes",
        "Status codes",
        "Status Code Mapping",
        "Exit status",
        "Status field",
    ):
        assert "current" not in section_facets(heading), heading
        assert not is_status_heading(heading), heading
    for heading in (
        "Status",
        "Current status",
        "Project status",
        "Implementation status",
        "Status and timeline",
    ):
        assert section_facets(heading) == {"current"}, heading


def test_open_questions_answer_only_limits_and_history_nothing_nor_do_their_subsections() -> None:
    for heading in (
        "Open Questions",
        "Unresolved questions",
        "**Open points**",
        "Future work",
        "未解决的问题",
    ):
        assert section_facets(heading) == {"open", "limits"}, heading
    assert section_facets("History") == {"history"}
    # the policy before the proposal, under "## History", is no limit of the proposal
    assert path_facets(
        ("Operator Versioning", "History", "Backwards Compatibility"), "Operator Versioning"
    ) == {"history"}
    # a design question left open is no design; what it leaves open is a limit
    assert path_facets(("Operator Versioning", "Open Questions", "Downgraders for FC")) == {"open", "limits"}
    assert section_facets("Drawbacks") == {"limits"}
    assert section_facets("Futures API") == set()
    # a section joining drawbacks and alternatives holds both; what stands under it is an alternative
    rfc = "# RFC-1: Agile Coretime\n\n## Drawbacks, Alternatives and Unknowns\n\nUnknowns include the initial price.\n"
    concepts = [{"agile"}, {"coretime"}]
    assert [s.heading for s, _ in treating(rfc, "limits", concepts, tokens, own_headings=True)] == [
        "Drawbacks, Alternatives and Unknowns"
    ]
    assert path_facets(("Drawbacks, Alternatives and Unknowns",)) == {"limits", "alternatives"}
    assert path_facets(("Drawbacks, Alternatives and Unknowns", "Leases kept")) == {"alternatives"}
    assert path_facets(("Alternatives", "Drawbacks")) == {"alternatives"}


def test_document_furniture_is_never_quoted() -> None:
    from generator.topic.sentences import list_quote, quotable

    # a table of contents, stored as a list under its heading's label, is where to read, not what is said
    assert list_quote("**Table of Contents:**\n- Overview\n- AutoNAT Protocol\n- RPC messages") is None
    assert list_quote("**Goals:**\n- Peers learn whether they are reachable\n- Dials stay cheap") is not None
    assert section_facets("Table of Contents") == set()
    # a sentence saying only which document this is says nothing of its subject
    assert not quotable("This is the specification of v2 of the p2p-circuit relay protocol.")
    assert quotable("This is the specification of the relay, which lets two peers talk through a third.")
    # nor one saying which other documents it presupposes (a specification's "Prerequisites")
    assert not quotable(
        "All terminology, constants, functions, and protocol mechanics defined in Fulu -- Beacon Chain and Fulu"
        " -- Data Availability Sampling Core are requisite for this document and used throughout."
    )
    assert not quotable(
        "This specification builds upon the specifications of previous upgrades, and assumes them as pre-requisite."
    )
    assert quotable("A node must custody at least four groups, a requisite for sampling to work at all.")


def test_a_section_opening_on_a_long_paragraph_is_quoted_from_its_opening_sentences() -> None:
    from generator.topic.opening_passages import opening_passages
    from generator.topic.section_tree import TextSection

    evidence = " ".join(
        f"Checker number {n} reported a false positive in a real code base." for n in range(20)
    )
    long = (
        "Analyzers cannot see where a pointer lands after the loop. Different tools approximate it. "
        + evidence
    )
    section = TextSection("Static analysis is not a viable alternative", 3, (long,))
    passages = opening_passages(section, 1)
    assert passages and passages[0].text.startswith(
        "Analyzers cannot see where a pointer lands after the loop."
    )
    assert len(passages[0].text) <= 900


def test_a_definition_is_looked_for_outside_the_motivation_first() -> None:
    text = (
        "# Exponential buckets for histograms\n\n## Motivation\n\n"
        "Currently, the histogram protocol only supports explicit bound buckets for histograms.\n\n"
        "## Design notes\n\nExponential buckets for histograms encode bounds with just a base and an exponent.\n"
    )
    opening = document_opening(text, [{"exponenti"}, {"bucket"}], titled=True)
    assert opening.startswith("Exponential buckets for histograms encode bounds")
    assert section_facets("Explanation") == {"how"}


def test_a_title_naming_the_subject_a_topic_states_a_purpose_of_opens_from_where_it_states_it() -> None:
    from generator.topic.definition import definition, purposed_subject
    from generator.topic.judge import RelevanceJudge
    from generator.topic.workspace import RawSource

    text = (
        "# RFC-0078: Merkleized Metadata\n\n## Summary\n\nTo interact with chains it is required to know how "
        "transactions are encoded, and wallets read the runtime's metadata for that.\n\nThis RFC proposes a way "
        "for offline wallets to leverage metadata. The design idea is that the metadata is chunked and the chunks "
        "are put into a merkle tree.\n"
    )
    source = RawSource(
        "m", "local", "local:docs/0078.md", "RFC-0078: Merkleized Metadata", "", text, kind="local"
    )
    topic = "merkleized metadata so offline wallets can verify transactions"
    assert purposed_subject(topic) == "merkleized metadata"
    opening = definition([source], RelevanceJudge(topic), lambda s: True)
    assert opening is not None and opening.text.startswith("This RFC proposes a way for offline wallets")
    assert purposed_subject("Agile Coretime: how Polkadot sells coretime") == "Agile Coretime"
    assert purposed_subject("migration to Python 3") == ""  # one word: "to" completes it
    assert purposed_subject("weak subjectivity period and checkpoint sync") == ""


def test_a_specifications_bare_considerations_are_its_limits() -> None:
    # ICS-4 UPGRADES.md: "### Considerations" — "…a channel upgrade handshake may never complete successfully…"
    assert section_facets("Considerations") == {"limits"}
    assert section_facets("Additional Considerations") == {"limits"}
    assert section_facets("Tree design considerations") == {"how"}  # the design, considered
    spec = (
        "# Upgrading Channels\n\n## Technical Specification\n\n### Upgrade Handshake\n\nThe handshake runs "
        "in four steps.\n\n### Considerations\n\nA channel upgrade may never complete if packets stay "
        "in flight.\n"
    )
    concepts = [{"channel"}, {"upgrade", "upgrades"}]
    assert [s.heading for s, _ in treating(spec, "limits", concepts, tokens, own_headings=True)] == [
        "Considerations"
    ]


KEYLESS = """# AIP-9: Widget accounts

## Summary

Currently, the only way to secure your widget account is to protect the secret key associated with it. In
reality, secret keys are often lost or stolen.

Specifically, we enable widget accounts that are secured through the owner's existing web account, rather than
through a difficult-to-manage secret key.

## Motivation

Keys get lost.
"""


def test_a_summary_saying_we_enable_or_this_proposal_provides_defines_the_subject_there() -> None:
    # Aptos' AIP-61 opens its summary on the problem, then "Specifically, we enable **keyless accounts** on
    # Aptos that are secured through the owner's existing **OIDC account**…"; FIP-0086's abstract says "This
    # proposal provides a mechanism for fast finality with the F3 component." after the problem it solves
    opening = document_opening(KEYLESS, [{"widget"}, {"account"}], titled=True)
    assert opening.startswith("Specifically, we enable widget accounts that are secured")
    assert states_purpose_within(
        "This proposal provides a mechanism for fast finality with the F3 component."
    )
    assert states_purpose_within("In this document, we describe an approach that relies on web accounts.")
    assert not states_purpose_within(
        "To do so, we introduce a new account type."
    )  # leans on what came before
