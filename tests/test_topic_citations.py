"""Citations that support their sentence and reports that state what a reader came for (issue 30): a quoted
passage reads the same in the report as in place (a lead-in before and with what it introduces, no sentence
about code printed elsewhere), the summary quotes the defining document's own summary, and an implementation
section never answers how the thing works."""

from __future__ import annotations

from generator.text.sentences import split_sentences
from generator.text.words import tokens
from generator.topic.facet_sections import treating
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.opening_passages import opening_passages
from generator.topic.openings import document_opening
from generator.topic.passage_pools import _states_own_standing
from generator.topic.plan import Plan, Step, heading_facets
from generator.topic.report import build_report
from generator.topic.section_claims import in_source_order
from generator.topic.section_tree import text_sections
from generator.topic.sentences import (
    code_examples,
    glossary_term,
    needs_antecedent,
    places,
    quotable,
    quote_at,
)
from generator.topic.workspace import RawSource

SECURITY = (
    "# Handling hostile input\n\n"
    "Every page is sanitized twice. Writers escape untrusted text before it enters a markdown page, and a\n"
    "plugin runs the rendered HTML through an allowlist sanitizer. Frontmatter fields are cleaned as well.\n\n"
    "Repository research refuses unsafe clone addresses before any git process starts.\n"
)


def _source(sid: str, text: str) -> RawSource:
    return RawSource(id=sid, source="local", url=f"local:docs/{sid}.md", title=sid, fetched_at="", text=text)


def test_a_lead_in_is_quoted_before_and_with_the_sentence_it_introduces() -> None:
    catalog = Catalog([_source("security", SECURITY), _source("other", "Another page says other things.")])
    writers = (
        "Writers escape untrusted text before it enters a markdown page, and a plugin runs the rendered HTML"
        " through an allowlist sanitizer."
    )
    claims = [
        Claim(writers, ["security"], 0.9),
        Claim(
            "Repository research refuses unsafe clone addresses before any git process starts.", ["security"]
        ),
        Claim("Another page says other things.", ["other"]),
        Claim("Every page is sanitized twice.", ["security"], 0.5),
    ]
    ordered = in_source_order(claims, catalog)
    assert [c.text for c in ordered] == [
        f"Every page is sanitized twice. {writers}",
        "Repository research refuses unsafe clone addresses before any git process starts.",
        "Another page says other things.",
    ]
    assert ordered[0].sources == ["security"] and ordered[0].score == 0.9
    # passages of one paragraph that do not follow each other keep their own citations, in the source's order
    frontmatter = Claim("Frontmatter fields are cleaned as well.", ["security"])
    apart = in_source_order([frontmatter, Claim("Every page is sanitized twice.", ["security"])], catalog)
    assert [c.text for c in apart] == [
        "Every page is sanitized twice.",
        "Frontmatter fields are cleaned as well.",
    ]


def test_a_sentence_about_code_printed_elsewhere_is_not_quoted_without_it() -> None:
    assert not quotable("上面的代码会在浏览器中抛出一个错误，因为浏览器不支持裸模块导入。")
    assert not quotable("The code above throws an error in the browser because bare imports fail.")
    assert not quotable("In the future we may support more types of profiles (see below).")
    assert not quotable("As shown above, the key is a number but it is parsed as a string by the loader.")
    # a discourse marker: the sentence says what it notes itself
    assert quotable(
        "As noted above, there is a potential for new allocations in programs with these semantics."
    )
    assert quotable(
        "Vite 3.0 以上版本默认在开发服务器中使用预构建的依赖项，以加快冷启动。"
    )  # "above" a version
    # a lead-in is quoted with the example it introduces
    text = "Bare module imports like the example below fail in the browser:\n\n```js\nimport 'my-dep'\n```\n"
    assert [q.code for q in code_examples(text)] == ["import 'my-dep'"]
    # what follows the example and speaks of it is not quoted on its own
    after = "Some text.\n\n```js\nimport 'my-dep'\n```\n\nThe code above throws an error in the browser."
    sentences = split_sentences(after)
    last = next(n for n, s in enumerate(sentences) if "code above" in s)
    starts = frozenset(i for i, place in enumerate(places(after, sentences)) if place.opens)
    assert quote_at(sentences, last, starts) is None


def test_a_proposal_saying_this_is_a_proposal_names_what_this_is() -> None:
    assert not needs_antecedent(
        "This is a proposal for creating a way to assign to variables within an expression."
    )
    assert not needs_antecedent("This is an informational PEP describing the release schedule of Python.")
    assert needs_antecedent("This is a problem for the borrow checker, which rejects the program.")


# --------------------------------------------------------------------------- what the report states

PROPOSAL = (
    "# Proposal: Soft heap limit\n\n## Summary\n\n"
    "This document proposes a new option for tuning the garbage collector by setting a soft limit on the "
    "total amount of memory that the runtime uses.\n\n"
    "This option comes in two flavors: a new function called SetHeapLimit and a HEAPLIMIT environment "
    "variable.\n\n"
    "It empowers users to:\n\n"
    "Better utilize the memory that they already have.\n\n"
    "## Motivation\n\nThe collector offers a single option today, and it is not enough for services.\n\n"
    "## Detailed design\n\nThe collector triggers when the total memory nears the limit.\n\n"
    "## Implementation\n\nThe change is implemented in the runtime today behind an experiment flag.\n"
)


def test_the_definition_quotes_the_defining_documents_summary_as_far_as_it_reads_whole() -> None:
    opening = document_opening(PROPOSAL, [{"heap"}, {"limit"}], titled=True)
    assert opening.startswith("This document proposes a new option")
    assert "SetHeapLimit and a HEAPLIMIT environment variable." in opening  # the key facts, in the summary
    assert "empowers" not in opening and "single option" not in opening  # a lead-in, the next section


def test_an_implementation_section_tells_the_state_of_the_work_not_how_it_works() -> None:
    assert heading_facets("Implementation") == {"current"}
    assert heading_facets("Reference Implementation") == {"current"}
    assert heading_facets("Timeline and Rollout") == {"current"}
    assert "how" in heading_facets("Implementation details") and "how" in heading_facets("Detailed design")
    concepts = [{"heap"}, {"limit"}]
    title = "Proposal: Soft heap limit"
    how = [s.heading for s, _ in treating(PROPOSAL, "how", concepts, tokens, own_headings=True, title=title)]
    assert how == ["Detailed design"]


def test_a_comparison_inside_the_design_is_no_alternative_considered() -> None:
    """ "X vs Y" compares two parts of the design, "Comparison traits" and "自定义比较函数" name comparing as
    the subject, and an anchor's "-vs-" is no word of the heading: none asks "what alternatives were
    considered?". A comparison with other work still does."""
    for heading in (
        "Module-level vs type-level docs",
        "Result versus Panic",
        "Comparison traits",
        "指定自定义比较函数",
        "Setting values {/*attributes-vs-properties*/}",
    ):
        assert "alternatives" not in heading_facets(heading), heading
    for heading in (
        "Comparison with other languages",
        "Compared to other approaches",
        "Rejected Ideas",
        "与 Webpack 比较",
        "Comparisons",
        "快速比较 {#quick-comparison}",
    ):
        assert "alternatives" in heading_facets(heading), heading


def test_a_borrowed_heading_nothing_answers_is_left_out_and_a_facet_says_it_is_not_answered() -> None:
    source = _source("env", "# Env\n\nVite exposes constants on a special object in every build of the app.")
    plan = Plan(
        topic="env",
        sub_queries=["What is env?", "env：内置常量", "What are the limits of env?"],
        steps=[
            Step(id="s1", title="what", question="What is env?", facet="what"),
            Step(id="s2", title="section", question="env：内置常量", facet="section"),
            Step(id="s3", title="limits", question="What are the limits of env?", facet="limits"),
        ],
    )
    claim = Claim("Vite exposes constants on a special object in every build of the app.", ["env"])
    analysis = Analysis(
        sections=[
            Section("What is env?", [claim]),
            Section("env：内置常量"),
            Section("What are the limits of env?"),
        ]
    )
    report = build_report(plan, analysis, Catalog([source]))
    assert [s.question for s in report.sections] == ["What is env?", "What are the limits of env?"]


def test_the_topic_asked_as_written_is_not_unanswered_when_the_sections_asked_after_it_answer_it() -> None:
    text = (
        "# Sync protocol\n\n## Light client initialization\n\nA light client keeps its state in a store.\n\n"
        "## Light client state updates\n\nEvery update is checked against the sync committee's signature.\n"
    )
    source = _source("sync", text)
    topic = "how a light client syncs using sync committees"
    init, updates = "Light client initialization", "Light client state updates"
    plan = Plan(
        topic=topic,
        sub_queries=["What is a light client?", topic, init, updates],
        steps=[
            Step(id="s1", title="what", question="What is a light client?", facet="what"),
            Step(id="s2", title="topic", question=topic, facet="topic"),
            Step(id="s3", title="init", question=init, facet="section"),
            Step(id="s4", title="updates", question=updates, facet="section"),
        ],
    )
    store = Claim("A light client keeps its state in a store.", ["sync"])
    check = Claim("Every update is checked against the sync committee's signature.", ["sync"])
    analysis = Analysis(sections=[Section(plan.sub_queries[0]), Section(topic), Section(init, [store])])
    analysis.sections.append(Section(updates, [check]))
    report = build_report(plan, analysis, Catalog([source]))
    # its sections quote its answer part by part: no "the stored sources do not answer" under its heading
    assert [s.question for s in report.sections] == ["What is a light client?", init, updates]
    # answered by none of them, the question stays, said to be unanswered
    empty = Analysis(sections=[Section(q) for q in plan.sub_queries])
    assert [s.question for s in build_report(plan, empty, Catalog([source])).sections] == [
        "What is a light client?",
        topic,
    ]


def test_an_example_section_answers_how_to_work_with_the_subject_with_its_example() -> None:
    config = (
        '# Configuration\n\n## <a name="configHooks" />POSIX-platform Hooks\n\n'
        "Hooks allow users to specify programs to run before or after various lifecycle events.\n\n"
        '### Example\n\n```json\n"hooks": {"poststart": [{"path": "/usr/bin/notify-start"}]}\n```\n'
    )
    example = next(s for s in text_sections(config) if s.heading == "Example")
    assert opening_passages(example) == []  # no prose to quote
    [passage] = opening_passages(example, example_alone=True)  # how to work with it: the example itself
    assert passage.text == "Example:" and "notify-start" in passage.code


def test_the_subsections_of_a_design_section_say_how_it_works() -> None:
    proposal = (
        "# Proposal: Extended forwards compatibility\n\n## Abstract\n\nOld toolchains never build new programs.\n\n"
        "## Proposal\n\nThe proposal has five parts:\n\n"
        "### The TOOLCHAIN environment variable\n\nThe TOOLCHAIN environment variable will control which "
        "toolchain runs when you run the go command.\n\n"
        "### Downloading distributions\n\nDistributions are downloaded like modules from the module proxy.\n\n"
        "## Rationale\n\nPeople believe the go line already selects the toolchain they build with.\n\n"
        "### Why not a separate file\n\nA separate file would be one more thing to keep in step.\n\n"
        "## Implementation\n\nThere is no working sketch of the current design at the moment.\n"
    )
    title = "Proposal: Extended forwards compatibility"
    concepts = [{"forward"}, {"compat"}]
    how = [s.heading for s, _ in treating(proposal, "how", concepts, tokens, own_headings=True, title=title)]
    assert how == ["Proposal", "The TOOLCHAIN environment variable", "Downloading distributions"]
    elsewhere = treating(proposal, "how", concepts, tokens, own_headings=False, title=title)
    assert [s.heading for s, _ in elsewhere] == []  # another document's design is its own subject's


def test_the_defining_documents_status_section_answers_its_current_state() -> None:
    doc = (
        PROPOSAL
        + "\n## Appendix: No Changes to Scope Semantics\n\nNothing about scoping semantics is changed here.\n"
    )
    concepts = [{"heap"}, {"limit"}]
    title = "Proposal: Soft heap limit"
    current = [
        s.heading for s, _ in treating(doc, "current", concepts, tokens, own_headings=True, title=title)
    ]
    assert current == ["Implementation"]
    source = _source("proposal", doc)
    assert _states_own_standing(source, "current", {"proposal"})  # however old: the state of its own subject
    assert not _states_own_standing(source, "how", {"proposal"}) and not _states_own_standing(
        source, "current", set()
    )
    withdrawn = RawSource(**{**vars(source), "status": "withdrawn"})
    assert not _states_own_standing(withdrawn, "current", {"proposal"})


def test_a_glossary_entry_defines_its_own_term_and_a_sentence_about_this_code_needs_it() -> None:
    entry = "Const parameter (generic const): A const which a type or function is abstract over."
    assert glossary_term(entry) == "Const parameter"
    assert glossary_term("Bundle: A directory structure that is written ahead of time.") == "Bundle"
    assert glossary_term("Unification of const expressions: This RFC performs the most minimal one.") == ""
    assert not quotable(
        "At first glance, this code appears quite similar to the code we saw before, and fails."
    )
    assert not quotable("If we attempt to compile this, we get an error (actually, we get multiple errors).")
    assert quotable(
        "Consider this example of a loop that walks down a linked list and borrows each node:"[:-1] + "."
    )


def test_a_paragraph_ending_on_an_open_e_g_is_quoted_with_its_example_or_not_at_all() -> None:
    # FS-1030 opens "Add anonymous records as a feature to F#, e.g." and its example; quoted alone it ends open
    text = "Add anonymous records as a feature to F#, e.g.\n\n```fsharp\nlet data = {| X = 1 |}\n```\n"
    (quote,) = code_examples(text)
    assert quote.text == "Add anonymous records as a feature to F#, e.g."
    assert quote.code == "let data = {| X = 1 |}"
    said = "In practice we envision suitable helper functions for the checks, such as\n\n```go\nfunc check(err error)\n```\n"
    assert [q.code for q in code_examples(said)] == ["func check(err error)"]
    assert not quotable("Add anonymous records as a feature to F#, e.g.")
    assert quotable("Anonymous records, e.g. {| X = 1 |}, need no type declaration before use.")
