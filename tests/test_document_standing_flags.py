"""A document's standing shows wherever it is cited (issue 30, item 2; session 42's held-out hand check showed
a status in 0 of 4 reports that needed one): front matter flags (IRCv3's `work-in-progress: true`,
Interledger's `deprecated: 0027-interledger-protocol-4`), a page opening on "This is an unfinished draft" or
"Deprecated, please see …" (CometBFT) are read, and the citation of such a page carries its status in the
report's language."""

from __future__ import annotations

from generator.documents import read_text
from generator.documents.standing import opening_status, page_standing
from generator.site.pages.topic import claim_markdown
from generator.site.pages.topic_standing import inactive_labels
from generator.text.topic_labels import LABELS
from generator.topic import workspace as wsp
from generator.topic.findings import Catalog, Claim
from generator.topic.standing import inactive

CHATHISTORY = (
    "---\ntitle: IRCv3 `chathistory` Extension\nlayout: spec\nwork-in-progress: true\n---\n"
    "# chathistory\n\nThis specification defines the `draft/chathistory` capability, which lets a client "
    "request the messages a server has stored for a target.\n"
)


def test_front_matter_flags_state_the_status() -> None:
    """IRCv3 marks 13 of its 50 pages `work-in-progress: true`; Interledger's deprecated/ pages say
    `deprecated: true` or name their successor (`deprecated: 0027-interledger-protocol-4`); all read as no
    status. A number or FINAL (Interledger's `draft: 10`, the draft's revision) and a false flag state none."""
    page = "---\ntitle: A page\n{}\n---\n# A page\n\nText.\n"
    for flag, word in [
        ("work-in-progress: true", "work_in_progress"),
        ("wip: yes", "work_in_progress"),
        ("draft: true", "draft"),
        ("experimental: true", "experimental"),
        ("deprecated: true", "deprecated"),
        ("deprecated: 0027-interledger-protocol-4", "deprecated"),
        ('deprecated: "This mechanism has been deemed unsafe."', "deprecated"),
        ("draft: 10", ""),
        ("draft: FINAL", ""),
        ("work-in-progress: false", ""),
        ("deprecated: false", ""),
    ]:
        assert read_text(page.format(flag), name="page.md").status == word, flag
    # a stated status comes first: `status: final` beside a flag
    assert read_text(page.format("status: final\ndraft: true"), name="page.md").status == "final"
    chathistory = read_text(CHATHISTORY, name="chathistory.md")
    assert chathistory.status == "work_in_progress" and page_standing(CHATHISTORY, chathistory.status)


def test_a_page_opening_on_an_unfinished_draft_or_a_pointer_elsewhere_states_its_standing() -> None:
    """CometBFT's light-client pages: "> Warning: This is the beginning of an unfinished draft. Don't continue
    reading!", "# ***This an unfinished draft. Comments are welcome!***", "This is a work in progress.",
    "Deprecated, please see [light-client](…)", "Deprecated see [core/state.md](…)"."""
    for opening, word in [
        ("> Warning: This is the beginning of an unfinished draft. Don't continue reading!\n", "draft"),
        ("# ***This an unfinished draft. Comments are welcome!***\n", "draft"),
        ("# Fork detection\n\nThis is a work in progress.\n", "work_in_progress"),
        ("Deprecated, please see [light-client](../../light-client/README.md).\n", "deprecated"),
        ("Deprecated see [core/state.md](../core/state.md)\n", "deprecated"),
        ("# State\n\nThe state holds the deprecated `Version` field; see the encoding.\n", ""),
        ("# Drafts\n\nThis is a draft of the block, as the proposer sends it.\n", ""),
    ]:
        assert opening_status(opening) == word, opening


def test_a_work_in_progress_page_is_labelled_where_it_is_quoted() -> None:
    """The CHATHISTORY report never said its specification is a draft: the citation now carries it, in the
    report's language."""
    status = read_text(CHATHISTORY, name="chathistory.md").status
    source = wsp.RawSource(
        "chr", "local", "local:extensions/chathistory.md", "chathistory", "t", CHATHISTORY, kind="local",
        status=status,
    )  # fmt: skip
    assert inactive(source)
    catalog = Catalog([source])
    claim = Claim("This specification defines the `draft/chathistory` capability.", ["chr"])
    for lang, label in [("en", "(work in progress)"), ("zh", "(草案)")]:
        marks = inactive_labels(catalog, LABELS[lang])
        assert label in claim_markdown(claim, {"chr": 1}, labels=marks)
