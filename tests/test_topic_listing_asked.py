"""The question as written names what it asks of its subject ("local files, URLs, several files or inline"):
the defining page's list naming most of it answers the whole question before a property's definition."""

from __future__ import annotations

from generator.retrieval.scoring import tokens
from generator.topic import workspace as wsp
from generator.topic.findings import Catalog
from generator.topic.judge import RelevanceJudge
from generator.topic.passage_pools import enumerates, listing_asked, passage_pools
from generator.topic.plan import Plan, Step
from generator.topic.topic_point import sentence_statistics

BUNDLE = (
    "# Crate Bundle\n\nA simple container format for describing a coherent collection of data.\n\n"
    "## Introduction\n\nA Crate Bundle consists of:\n\n"
    "- Metadata that describes the structure and contents of the bundle\n"
    "- Resources such as data files that form the contents of the bundle\n\n"
    'The Crate Bundle metadata is stored in a "manifest". This manifest is what makes a collection of data a '
    "Crate Bundle.\n\n"
    "The data included in the bundle can be provided as:\n\n"
    "- Files bundled locally with the bundle manifest\n"
    "- Remote resources, referenced by URL\n"
    '- "Inline" data which is included directly in the manifest\n\n'
    "## Properties\n\n### name\n\nThe name is a simple name or identifier to be used for this bundle in relation "
    "to any registry in which this bundle will be deposited.\n\n"
    "### description\n\nA description of the bundle in CommonMark Markdown syntax. As any sequence of characters "
    "is a valid CommonMark document, a description is free text.\n"
)
RESOURCE = (
    "# Crate Resource\n\n## Descriptor\n\nA Crate Resource descriptor lists the properties of one resource "
    "of a bundle, each in its own entry.\n"
)
TOPIC = "Where can a Crate Bundle keep its data: local files, URLs, several files or inline in the manifest?"
PROVIDED = "The data included in the bundle can be provided as:"


def _sources() -> list[wsp.RawSource]:
    bundle = wsp.RawSource("local-b", "local", "local:bundle.md", "Crate Bundle", "t", BUNDLE, kind="local")
    resource = wsp.RawSource(
        "local-r", "local", "local:resource.md", "Crate Resource", "t", RESOURCE, kind="local"
    )
    return [bundle, resource]


def test_the_whole_question_is_answered_by_the_defining_list_naming_it() -> None:
    sources = _sources()
    judge = RelevanceJudge(TOPIC)
    sentence_statistics(judge, sources)
    plan = Plan(
        topic=TOPIC,
        sub_queries=[TOPIC],
        steps=[Step(id="s1", title="topic", question=TOPIC, facet="topic")],
    )
    said = frozenset({'The Crate Bundle metadata is stored in a "manifest".'})
    pool = passage_pools(
        plan,
        Catalog(sources),
        [(TOPIC, TOPIC, [s.id for s in sources])],
        judge,
        said=said,
        defining=["local-b"],
        opening="local-b",
    )
    first = pool[TOPIC][0]
    # main: "The name is a simple name or identifier…" (the `name` property), the list never a candidate
    assert (first.source, first.text) == ("local-b", PROVIDED)
    assert first.items == (
        "Files bundled locally with the bundle manifest",
        "Remote resources, referenced by URL",
        '"Inline" data which is included directly in the manifest',
    )
    # …and the properties' definitions, naming none of what is asked, answer other questions
    assert not [c for c in pool[TOPIC] if c.text.startswith(("The name is", "A description of"))]


def test_a_list_naming_less_than_half_the_question_is_not_picked() -> None:
    bundle = _sources()[0]
    concepts = [set(tokens(w)) for w in ("local", "files", "URLs", "several", "inline", "manifest")]
    assert [c.text for c in listing_asked([bundle], concepts)] == [PROVIDED]  # names 5 of 6
    # the same list names bundled and remote: 2 of 5 asked is no answer to the question, 2 of 4 is
    concepts = [set(tokens(w)) for w in ("bundled", "remote", "checksum", "licence", "author")]
    assert listing_asked([bundle], concepts) == []
    assert [c.text for c in listing_asked([bundle], concepts[:4])] == [PROVIDED]


def test_only_a_question_listing_its_terms_is_answered_by_a_list_naming_them() -> None:
    assert enumerates(TOPIC)
    assert enumerates("Which stores can it use: memory, file, redis or mysql?")
    # a "how it works" of two things, or what happens to one, is answered by the sections treating it
    assert not enumerates("How do deposit and withdrawal work in the Nervos DAO?")
    assert not enumerates(
        "What happens to an ILP Prepare packet as connectors forward it in Interledger Protocol v4?"
    )
