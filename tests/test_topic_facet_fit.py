"""A section of a topic report quotes what answers its own facet (issue 30): a specification's numbered
sections are read by their words, a section in a document titled after the subject is not its definition
for naming a word of it, subsections stand in their parent's facet, an example comes with its lead-in, a
field's row with the field's name, and the state a proposal replaces is never quoted as its design."""

from __future__ import annotations

from topic_fakes import offline

from generator.documents.plain import markup_prose
from generator.site.pages.topic import claim_markdown
from generator.text.words import tokens
from generator.topic.analyze import analyze
from generator.topic.facet_sections import treating
from generator.topic.findings import Catalog, Claim
from generator.topic.heading_facets import path_facets
from generator.topic.headings import section_facets
from generator.topic.judge import RelevanceJudge
from generator.topic.opening_passages import opening_passages
from generator.topic.section_claims import in_context
from generator.topic.section_tree import text_sections
from generator.topic.sentences import context_of, needs_antecedent, quotable
from generator.topic.source_quotes import quotes_of
from generator.topic.topic_point import sentence_statistics
from generator.topic.word_candidates import candidates
from generator.topic.workspace import RawSource

# a protocol binding written as specifications are: numbered sections, examples introduced by "This example…:"
BINDING = (
    "# Pigeon Binding for Events\n\n## Abstract\n\nThe Pigeon Binding for Events defines how events are "
    "carried by pigeons.\n\n## 1. Introduction\n\nEvents is a definition of the structure of events. This "
    "specification defines how events are tied to a pigeon's leg.\n\n### 1.1. Relation to Pigeon\n\nThis "
    "specification does not constrain which pigeon carries an event or where it flies.\n\n## 2. Message "
    "Mapping\n\n### 2.1. Binary Content Mode\n\nThe binary content mode ties the event data to the leg as "
    "it is, with its attributes written on the ring.\n\n#### 2.1.1. Examples\n\nThis example shows the "
    "binary mode mapping of an event tied to a leg:\n\n```text\nring: ce-id 1234\nleg: application data\n"
    "```\n\n## 3. References\n\nThe postal rules of pigeon mail are described in the references below.\n"
)


def _concepts(topic: str) -> list[set[str]]:
    judge = RelevanceJudge(topic)
    return [{w for form in t.forms for w in form} for t in judge.terms(topic)]


def _quoted(text: str, facet: str, topic: str, title: str) -> list[tuple[str, str, str]]:
    found = treating(text, facet, _concepts(topic), tokens, own_headings=True, title=title)
    return [
        (section.heading, p.text, p.code)
        for section, limit in found
        for p in opening_passages(section, limit, example_alone=facet == "use")
    ]


def test_a_numbered_heading_is_read_by_its_words_and_a_frame_section_answers_nothing() -> None:
    assert section_facets("1. Introduction") == {"what"}
    assert section_facets("3.1.4. Examples") == {"use"}
    assert section_facets("4. References") == set()  # a list of references, not the "reference" level
    assert section_facets("Reference-level explanation") == {"how"}
    assert section_facets("Proposal: Less error-prone loops") == set()  # a proposal's title, not its design
    assert section_facets("Proposed solution") == {"how"}
    # what a design leaves for later is no part of it (SE-0258's "## Future Directions" answered "what"): a
    # limit, never how it works
    assert section_facets("Future Directions") == {"open", "limits"}
    assert "how" not in path_facets(
        ("Property Wrappers", "Future Directions", "Delegating to an existing property")
    )


def test_in_a_document_titled_after_the_subject_a_heading_naming_it_is_no_definition() -> None:
    title = "Pigeon Binding for Events"
    what = [heading for heading, _, _ in _quoted(BINDING, "what", "events over pigeon", title)]
    # the abstract and the introduction say what it is; "Relation to Pigeon" stands in the introduction
    assert what[:2] == ["Abstract", "1. Introduction"]
    assert "2. Message Mapping" not in what and "2.1. Binary Content Mode" not in what
    how = [heading for heading, _, _ in _quoted(BINDING, "how", "events over pigeon", title)]
    # sections naming no facet say how it works, unless the section they stand in names one
    assert "2.1. Binary Content Mode" in how
    assert not {"1.1. Relation to Pigeon", "3. References", "2.1.1. Examples"} & set(how)


def test_an_example_comes_with_the_sentence_that_introduces_it() -> None:
    (use,) = _quoted(BINDING, "use", "events over pigeon", "Pigeon Binding for Events")
    heading, text, code = use
    assert heading == "2.1.1. Examples"
    assert text == "This example shows the binary mode mapping of an event tied to a leg:"
    assert code.startswith("ring: ce-id 1234")
    # "This…" pointing at what follows it is no reference back; pointing at what came before it is
    assert needs_antecedent("This example shows the mapping:")
    (section,) = [
        s for s in text_sections("## Examples\n\nThis shows it again:\n\n```\nx\n```\n") if s.heading
    ]
    assert opening_passages(section, 2, example_alone=False) == []


def test_this_extension_is_the_document_that_says_it_and_a_products_name_is_a_word() -> None:
    opening = "This extension embeds context from W3C TraceContext into a CloudEvent."
    assert not needs_antecedent(opening)
    assert quotable(opening)  # "TraceContext", "CloudEvent": names, not identifiers of code
    assert not quotable("Call getValueFromCache with WidgetCache.sweep and cache_key_prefix() here.")


def _source(sid: str, title: str, text: str) -> RawSource:
    return RawSource(sid, "local", f"local:docs/{sid}.md", title, "2026-11-29T00:00:00Z", text, kind="local")


TRACING = (
    "# Tracing extension\n\nThis extension embeds a trace context into an event.\n\n## Attributes\n\n"
    "### traceparent\n\n- Type: String\n- Description: Contains a version, trace ID, span ID, and trace "
    "options as defined in section 3.2\n\n### tracestate\n\n- Type: String\n- Description: A comma-delimited list of key-value pairs "
    "that vendors add.\n"
)


def test_a_field_row_is_quoted_with_the_name_of_the_field_it_describes() -> None:
    text = markup_prose(TRACING, structure=True)
    row = "Description: A comma-delimited list of key-value pairs that vendors add."
    assert context_of(text, row) == "tracestate"
    assert context_of(text, "This extension embeds a trace context into an event.") == ""
    # a lead-in written alike under two operations is the one whose list is quoted (otel's context API)
    api = (
        "## Get value\n\nThe API MUST accept the following parameters:\n\n- The `Context`.\n- The key.\n\n"
        "## Detach Context\n\nThe API MUST accept the following parameters:\n\n- A `Token` that was returned "
        "by a previous call to attach a `Context`.\n"
    )
    lead = "The API MUST accept the following parameters:"
    token = ("A Token that was returned by a previous call to attach a Context.",)
    assert context_of(api, lead, token) == "Detach Context"
    assert context_of(api, lead, ("The Context.", "The key.")) == "Get value"
    run_in = "## Inlining implementation\n\nPrologue: Before inlining we walk over the call graph once.\n"
    assert context_of(run_in, "Prologue: Before inlining we walk over the call graph once.") == ""
    # a row is whole though it ends without a stop ("…as defined in section 3.2")
    assert quotable(
        "Description: Contains a version, trace ID, span ID, and trace options as defined in section 3.2"
    )
    assert not quotable("Step 1: Install it")
    source = _source("t1", "Tracing extension", text)
    (claim,) = in_context([Claim(row, ["t1"])], Catalog([source]))
    assert claim.context == "tracestate"
    assert claim_markdown(claim, {"t1": 1}).startswith("*tracestate* — Description: A comma-delimited")


def test_a_fields_description_is_quoted_with_the_field_its_definition_line_names() -> None:
    spec = (
        "# Verification summary\n\n## Fields\n\n`verifier` _object, required_\n\n> Identifies the entity "
        "that performed the verification.\n>\n> The identity MUST reflect the trust base that consumers care "
        "about.\n\n`verifier.id` _string ([TypeURI](field_types.md#typeuri)), required_\n\n> URI indicating the verifier's identity."
        "\n\n## Parsing rules\n\nConsumers MUST ignore unrecognized fields of the predicate.\n"
    )
    text = markup_prose(spec, structure=True)
    assert "verifier.id string (TypeURI), required" in text  # the line naming the field stays in the text
    trust = "The identity MUST reflect the trust base that consumers care about."
    assert context_of(text, trust) == "verifier"
    assert context_of(text, "URI indicating the verifier's identity.") == "verifier.id"
    assert context_of(text, "Consumers MUST ignore unrecognized fields of the predicate.") == ""


def test_a_passage_under_an_option_heading_is_quoted_with_the_option_it_weighs() -> None:
    text = (
        "# Install peer dependencies\n\n## Rationale and Alternatives\n\n### A: Leave it\n\nWe could keep "
        "not installing peer dependencies, and printing a warning about it.\n\n### D: Treat Like Optional "
        "Dependencies\n\nAll the problems of B, combined with the problems of C.\n\n## Implementation\n\n"
        "This is implemented in the tree builder and ships with version seven.\n"
    )
    assert context_of(text, "All the problems of B, combined with the problems of C.") == (
        "D: Treat Like Optional Dependencies"
    )
    leave = "We could keep not installing peer dependencies, and printing a warning about it."
    assert context_of(text, leave) == "A: Leave it"
    assert context_of(text, "This is implemented in the tree builder and ships with version seven.") == ""


def test_an_answer_is_quoted_with_the_question_the_paragraph_before_it_asks() -> None:
    text = (
        "# Inlining\n\n## Rationale\n\nThere are several design choices we have made.\n\n"
        "Why not inline every hot callee? Why introduce a budget?\n\nPrimary motivation is to control code "
        "growth while retaining good performance.\n"
    )
    answer = "Primary motivation is to control code growth while retaining good performance."
    assert context_of(text, answer) == "Why not inline every hot callee? Why introduce a budget?"
    assert context_of(text, "There are several design choices we have made.") == ""


LOOPS = (
    "# Proposal: Per-iteration loop variables\n\n## Proposal\n\n### Language Specification\n\n"
    "In <https://go.dev/ref/spec#For_clause>, the text currently reads:\n\n> Variables declared by the init "
    "statement of a loop are re-used in each iteration of the loop.\n\nThis would be replaced with:\n\n"
    "> Each iteration of a loop has its own separate declared loop variable.\n"
)


def test_the_text_a_proposal_replaces_is_never_quoted_as_its_design() -> None:
    text = markup_prose(LOOPS, structure=True)
    assert "the text currently reads:" in text  # the lead-in is kept, link and all: it says what follows is
    how = [quoted for _, quoted, _ in _quoted(text, "how", "loop variables", "Per-iteration loop variables")]
    assert not any("re-used" in q for q in how)
    source = _source("l1", "Per-iteration loop variables", text)
    found = [quote.text for quote, _, _ in quotes_of(source, "loop variables", {"loop", "variabl"})]
    assert any("own separate declared loop variable" in q for q in found)
    assert not any("re-used" in q for q in found)


def test_a_section_on_the_current_behaviour_is_background_not_the_design() -> None:
    assert section_facets("Current behaviour") == {"motivation"}
    assert section_facets("Status quo") == {"motivation"}
    assert section_facets("Implementation") == {"current"}


def test_a_passage_under_a_section_framing_the_design_answers_that_frame() -> None:
    # the go loopvar proposal's "### A decade of experience shows the cost of the current semantics" under
    # "## Rationale and Compatibility" was quoted under "How does loop variable scoping work?"
    rationale = (
        "Loops",
        "Rationale and Compatibility",
        "A decade of experience shows the cost of the semantics",
    )
    assert "how" not in path_facets(rationale) and "motivation" in path_facets(rationale)
    assert path_facets(("Loops", "Proposal", "Language Version Selection")) == {"how"}
    # the document's own title is no section of it ("Performance …" titles the whole document)
    assert path_facets(("Performance of loops", "Design"), "Performance of loops") == {"how"}


BUILDERS = (
    "# Result builders\n\n## Introduction\n\nThis proposal describes result builders, a new feature which "
    "allows certain functions to implicitly build up a result value from a sequence of components.\n\n"
    "## Detailed design\n\nA result builder type is a type that can be used as a result builder, which is "
    "to say, as an embedded domain-specific language for collecting partial results.\n\n## Type inference\n\n"
    "### Implicit memberwise initializer\n\nA result builder attribute can be placed on a stored property of "
    "a type, and result builders then apply to the memberwise initializer.\n\n### Platforms\n\nCurrently "
    "result builders have been tested with the Linux toolchain of the compiler only.\n"
)


def test_a_document_with_its_own_introduction_says_what_its_subject_is_there() -> None:
    from generator.topic.plan import heuristic_plan

    plan = heuristic_plan("result builders")
    for step in plan.steps:
        step.sources, step.status = ["b"], "done"
    source = RawSource(
        "b", "local", "local:docs/b.md", "Result builders", "2026-01-01T00:00:00Z", BUILDERS,
        kind="local", relevance=0.9,
    )  # fmt: skip
    analysis = analyze(offline(), plan, Catalog([source]), lang="en")
    what = next(s for s in analysis.sections if s.question.startswith("What are"))
    quoted = " ".join(c.text for c in what.claims)
    assert "This proposal describes result builders" in quoted
    # the memberwise initializer is a detail of the design, in a section naming no facet
    assert "memberwise initializer" not in quoted
    how = next(s for s in analysis.sections if s.question.startswith("How do"))
    assert any("result builder type is a type" in c.text for c in how.claims)
    # where the work stands at the time of writing is not how it works
    judge = RelevanceJudge("result builders")
    sentence_statistics(judge, [source])
    found = candidates(
        [source],
        focus="How do result builders work?",
        judge=judge,
        facet={"work"},
        reserved=set(),
        facet_name="how",
    )
    assert found and not any(c.text.startswith("Currently") for c in found)


def test_a_pointer_to_further_reading_is_not_quoted() -> None:
    assert not quotable("要了解更多信息，查看 指令 的文档。")
    assert not quotable("To learn more, see the documentation for directives in the reference.")
    assert not quotable("For more information on modifiers, refer to the guide on templates.")
    assert quotable(
        "Server components render ahead of time, before bundling, in an environment of their own."
    )


def test_a_document_saying_how_section_by_section_is_quoted_from_its_largest_sections_first() -> None:
    body = "The ring carries the attributes and the leg carries the data of the event in the binary mode. "
    text = (
        "# Pigeon Binding for Events\n\n## 1. Attribute Use\n\nThe binding defines no attribute of its own "
        "for events carried by pigeons.\n\n## 2. Message Mapping\n\n### 2.1. Binary Content Mode\n\n"
        f"{body * 3}\n\n{body * 4}\n\n### 2.2. Structured Content Mode\n\nThe structured mode ties the whole "
        f"event to the leg in an event format.\n\n{body * 3}\n"
    )
    how = [
        heading for heading, _, _ in _quoted(text, "how", "events over pigeon", "Pigeon Binding for Events")
    ]
    assert how.index("2.1. Binary Content Mode") < how.index("1. Attribute Use")
    assert how.index("2.2. Structured Content Mode") < how.index("1. Attribute Use")


def test_the_sections_treating_a_facet_answer_in_the_order_their_document_gives_them() -> None:
    from generator.topic.allocation import allocate
    from generator.topic.candidate import Candidate

    def treating_passage(text: str, rank: int) -> Candidate:
        return Candidate(text, "s", 2.0, 1.0 / (1.0 + 0.1 * rank), 0.0, treats=True)

    pool = [
        treating_passage("The binary content mode carries event data as the message body.", 0),
        treating_passage("The structured content mode carries event data and metadata in the body.", 1),
        treating_passage("The datacontenttype attribute is a media type expression.", 8),
        Candidate("Events travel as messages between parties of many kinds.", "s", 0.0, 0.2, 0.0),
    ]
    picked = allocate({"How does it work?": pool}, limit=2)["How does it work?"]
    # the weak passage found by its words sets no bar that would flatten the sections' order into a tie
    assert [c.text.split()[1] for c in picked] == ["binary", "structured"]


def test_a_passage_naming_its_operation_only_as_the_api_carries_the_heading_naming_it() -> None:
    text = (
        "# Context\n\n## Operations\n\n### Get current Context\n\nThe API MUST return the Context associated "
        "with the caller's current execution unit.\n\n### Overview of the design of contexts in this "
        "specification\n\nThe API is one of several ways a language can expose contexts to users.\n"
    )
    assert context_of(
        text, "The API MUST return the Context associated with the caller's current execution unit."
    ) == ("Get current Context")
    assert context_of(text, "The API is one of several ways a language can expose contexts to users.") == ""


def test_a_subsection_of_a_scenario_or_rationale_is_not_the_design() -> None:
    """ "#### Shared abstractions and implementation for the entire stack" under "## Scenarios and User
    Experience" is a scenario, "### Subtest semantics" under "## Rationale" a reason: neither states the
    design, whatever its own heading names; "### Abstractions" under "## Design" does."""
    from generator.topic.stating_parts import stating_parts

    blocks = [
        "# Rate limits",
        "Outages happen when activities exceed capacity.",
        "## Scenarios and User Experience",
        "#### Shared abstractions and implementation for the entire stack",
        "By introducing the new API in the BCL, we maximize the ability to share rate limiters.",
        "## Rationale",
        "### Subtest semantics",
        "Subtests run in their own goroutine.",
        "## Design",
        "### Abstractions",
        "The main abstraction API will consist of the RateLimiter and the associated RateLimitLease.",
    ]
    parts = dict(zip(blocks, stating_parts(blocks), strict=True))
    assert (
        parts["By introducing the new API in the BCL, we maximize the ability to share rate limiters."]
        == "aside"
    )
    assert parts["Subtests run in their own goroutine."] == "aside"
    assert parts[blocks[-1]] == "design"


def test_related_work_is_prior_art_and_scenarios_are_use() -> None:
    """ "## Related Work" (Dask's and Arrow's chunking beside a storage proposal; other RPC systems beside a
    gRPC design) weighs other approaches, it does not say how the subject works; "## Scenarios and User
    Experience" tells how it is used. "Related Proposals:" lists links and answers nothing."""
    assert section_facets("Related Work") == {"alternatives"}
    assert section_facets("5. Related work") == {"alternatives"}
    assert section_facets("Related Proposals") == set()
    assert section_facets("Scenarios and User Experience") == {"use"}


def test_a_faq_answer_is_quoted_with_the_question_its_heading_asks() -> None:
    text = (
        "# Data availability sampling\n\n## FAQs\n\n### Does having a lot of column subnets make the network "
        "unstable?\n\nNo, the number of subnets doesn't really matter. What matters is the number of nodes.\n\n"
        "The churn rate matters too.\n\n## Custody\n\nEach node custodies four groups.\n"
    )
    answer = "No, the number of subnets doesn't really matter."
    asked = "Does having a lot of column subnets make the network unstable?"
    assert context_of(text, answer) == asked
    source = _source("f1", "Data availability sampling", text)
    (claim,) = in_context([Claim(answer, ["f1"])], Catalog([source]))
    assert claim_markdown(claim, {"f1": 1}).startswith(f"*{asked}* — No, the number")
    # only the paragraph that opens the answer; a section headed by no question says nothing more
    assert context_of(text, "The churn rate matters too.") == ""
    assert context_of(text, "Each node custodies four groups.") == ""
    # the document's own title asks no FAQ's question
    assert context_of("# Why use sampling?\n\nSampling saves bandwidth.\n", "Sampling saves bandwidth.") == ""
