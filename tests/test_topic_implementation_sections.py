"""A design proposal's "## Implementation" section holding its design answers how the subject works, never
where the work stands; one listing where the work lives, or that there is none yet, is still the state of the
work."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import offline_report

from generator.text.words import tokens
from generator.topic.facet_sections import treating
from generator.topic.implementation_sections import design_headings
from generator.topic.plan import DocumentOutline, outline_facets
from generator.topic.section_tree import text_sections

INTERCEPTOR = (
    "When a user pushes an image to Harbor, the immutable tag handler in the interceptor checks whether the "
    "pushed tag already exists and is marked immutable; if it is, the push fails with the message that the "
    "image already exists and is immutable."
)
PROPOSAL = (
    "# Proposal: Support Immutable Tags\n\n"
    "## Abstract\n\nImmutable tags keep a tag pointing at the same image once it is pushed.\n\n"
    "## Background\n\nHarbor users can push an image with the same tag again, which overwrites the tag: the "
    "previous image becomes tagless and the tag can no longer be trusted to identify a release.\n\n"
    "## Proposal\n\nProject admins configure immutability with rules of tag filters, so that images with "
    "matching tags cannot be pushed again.\n\n"
    "## Non-Goals\n\nCustom permissions for configuring immutability for certain users are not supported.\n\n"
    "## Implementation\n\n"
    "### The Immutable Tag Rule\n\nThe model for the immutable tag rule:\n\n"
    "```go\ntype ImmutableRule struct {\n\tID        int64\n\tProjectID int64\n\tTagFilter string\n"
    "\tDisabled  bool\n}\n```\n\n"
    "The rules are stored in the immutable_tag_rule table, one row per project and tag filter, each of "
    "which can be disabled without being deleted.\n\n"
    f"### Apply the immutable tag rule\n\n{INTERCEPTOR}\n\n"
    "Because a retag pushes the image again, the same rules apply to retag operations.\n"
)
# a FIP's implementation section: where the work lives
STATUS = (
    "# FIP-0013: Aggregated proofs\n\n## Abstract\n\nAggregate many proofs into one.\n\n"
    "## Implementation\n\n"
    "* Cryptographic implementation is currently located on the `feat-ipp2` branch of the bellperson repo.\n"
    "* Actors changes are in progress here: https://github.com/filecoin-project/specs-actors/pull/1381\n"
)
OTHERS = {
    "replication.md": "# Replication\n\n## Overview\n\nReplication copies images between registries on a "
    "schedule or when an image is pushed.\n\n## Usage\n\nCreate a replication rule under Administration.\n",
    "gc.md": "# Garbage collection\n\n## Overview\n\nGarbage collection deletes blobs no manifest "
    "references.\n\n## Usage\n\nRun it from the Administration page or on a schedule.\n",
}


def test_an_implementation_section_holding_the_design_says_how_it_works() -> None:
    assert design_headings(PROPOSAL) == ("Implementation",)
    sections = [s.heading for s, _ in _treating(PROPOSAL, "how")]
    assert "The Immutable Tag Rule" in sections and "Apply the immutable tag rule" in sections
    assert not list(_treating(PROPOSAL, "current"))


def test_an_implementation_section_saying_where_the_work_lives_is_its_state() -> None:
    assert design_headings(STATUS) == ()
    assert design_headings("# X\n\n## Implementation\n\nTBA.\n") == ()
    assert [s.heading for s, _ in _treating(STATUS, "current")] == ["Implementation"]


def test_the_outline_asks_no_current_state_of_a_proposal_whose_implementation_is_its_design() -> None:
    headings = tuple(s.heading for s in text_sections(PROPOSAL) if s.heading)
    designed = DocumentOutline(
        "Proposal: Support Immutable Tags", headings, designs=design_headings(PROPOSAL)
    )
    facets = outline_facets([designed], "immutable tags")
    assert "current" not in facets and "Implementation" in facets["how"]
    assert "current" in outline_facets([DocumentOutline("Proposal: Support Immutable Tags", headings)])


def test_a_proposal_implementation_is_quoted_as_how_the_subject_works(kb_root: Path) -> None:
    report = offline_report(
        kb_root,
        {"immutable_tags.md": PROPOSAL, **OTHERS},
        "How do immutable tags stop a tag being overwritten?",
    )
    sections = dict(part.split("\n", 1) for part in report.split("\n## ")[1:])
    # main: "What is the current state of immutable tags?" quoted the interceptor, the design itself
    assert not any("current state" in heading for heading in sections)
    assert "immutable tag handler in the interceptor" in report


def _treating(text: str, facet: str) -> list:
    return list(
        treating(
            text,
            facet,
            [set(tokens("immutable tags"))],
            tokens,
            own_headings=True,
            title="Proposal: Support Immutable Tags",
            account=True,
        )
    )
