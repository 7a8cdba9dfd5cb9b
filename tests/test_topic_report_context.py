"""Reports that answer the question (issue 21): an outline from the top documents' own headings, a definition
from the defining document, whole passages quoted in context, sources labelled by their stated status and
date, and one citation numbering on every page of a topic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_checks import citations_in
from topic_fakes import config, entry, make_corpus, offline, read_json

from generator.app.topic_target import topic_target
from generator.errors import PartialFailure
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.text.sentences import split_sentences
from generator.topic import workspace as wsp
from generator.topic.analyze import analyze
from generator.topic.findings import Catalog
from generator.topic.pipeline import run_topic_research
from generator.topic.plan import DocumentOutline, heading_facets, heuristic_plan, outline_facets
from generator.topic.processing import measured_figures
from generator.topic.report import Report, build_report
from generator.topic.sentences import paragraph_parts, passage_at, places
from generator.topic.state import Options, TopicMeta

TEMPLATE = ("benefits and limits", "compare with alternatives")

PROPOSAL_HEADINGS = ("Abstract", "Motivation", "Specification", "Rejected Ideas", "Reference Implementation")


# --------------------------------------------------------------------------- the outline


def test_the_outline_asks_what_the_top_documents_answer() -> None:
    outlines = [
        DocumentOutline("Data Classes", PROPOSAL_HEADINGS, "Final", "2017-06-02"),
        DocumentOutline("Class decorators", ("Abstract", "Rationale", "Drawbacks"), "Final", "2004-06-05"),
    ]
    plan = heuristic_plan("data classes", outlines=outlines)
    facets = [s.facet for s in plan.steps if s.step_type == "research"]
    # "Drawbacks" of "Class decorators" are that proposal's: a document not titled after the topic lends none
    assert facets == ["what", "motivation", "how", "alternatives", "current"]
    titled = [*outlines, DocumentOutline("Data classes: frozen instances", ("Drawbacks",))]
    plan = heuristic_plan("data classes", outlines=titled)
    facets = [s.facet for s in plan.steps if s.step_type == "research"]
    assert facets == ["what", "motivation", "how", "limits", "alternatives", "current"]
    questions = " ".join(plan.sub_queries)
    assert "Why do data classes matter?" in plan.sub_queries
    assert not any(words in questions for words in TEMPLATE)  # no fixed template question
    alternatives = next(s for s in plan.steps if s.facet == "alternatives")
    assert "rejected" in alternatives.query.lower()  # searched with the facet's words


def test_dated_documents_stating_no_status_ask_no_current_state() -> None:
    """Two dated proposals, neither stating its status nor having a status section: nothing stored says where
    the subject stands, so "What is the current state of…?" is not asked (it went unanswered every time)."""
    dated = [
        DocumentOutline(
            "Proposal: Soft memory limit", ("Summary", "Motivation", "Detailed design"), "", "2021-09-15"
        ),
        DocumentOutline("GC pacer redesign", ("Background", "Design"), "", "2021-03-01"),
    ]
    assert "current" not in outline_facets(dated, "soft memory limit")
    stated = [DocumentOutline(o.title, o.headings, "Accepted", o.date) for o in dated]
    assert "current" in outline_facets(stated, "soft memory limit")


def test_only_a_section_on_the_topic_adds_a_question_to_the_outline() -> None:
    """A specification's HTTP binding, its primer and another binding: the primer's "Prior Art" and the
    other document's "opcuastatus" attribute, a title among the headings ("Lift all limitations on…") and a
    numbered frame ("4. References") ask nothing; the binding's "1.5. Security" asks for its limits."""
    outlines = [
        DocumentOutline(
            "HTTP Protocol Binding for CloudEvents - Version 1.0.3",
            (
                "HTTP Protocol Binding for CloudEvents - Version 1.0.3",
                "Abstract",
                "1. Introduction",
                "1.5. Security",
                "3. HTTP Message Mapping",
                "3.1. Binary Content Mode",
                "4. References",
            ),
        ),
        DocumentOutline("CloudEvents Primer", ("CloudEvents Primer", "History", "Design Goals", "Prior Art")),
        DocumentOutline("OPC UA", ("OPC UA", "Notational Conventions", "opcuastatus")),
        DocumentOutline("Lift all limitations on HTTP", ("Lift all limitations on HTTP", "Motivation")),
    ]
    plan = heuristic_plan("CloudEvents over HTTP", outlines=outlines)
    facets = [s.facet for s in plan.steps if s.step_type == "research"]
    assert facets[0] == "what" and "limits" in facets
    assert not {"alternatives", "current", "motivation"} & set(facets)
    assert "HTTP Message Mapping" in plan.sub_queries  # its own section, without its number
    assert heading_facets("opcuastatus") == set() and heading_facets("Status of this document") == {"current"}


def test_a_chinese_facet_word_counts_only_where_a_word_of_the_heading_begins() -> None:
    """Chinese writes no spaces: 自己实现状态队列 (implement the state queue yourself, a React guide's exercise)
    holds the characters of 现状 (current state) across two words and the status phrase 实现状态 before its
    head noun 队列; it is neither a status section nor one on how batching works (实现 alone, to implement,
    is no design word: 实现原理 and 实现细节 are). A facet word that begins a word still counts."""
    assert heading_facets("自己实现状态队列 {/*implement-the-state-queue-yourself*/}") == set()
    assert heading_facets("实现原理") == heading_facets("实现细节") == {"how"}
    assert heading_facets("实现状态") == {"current"} and heading_facets("现状与展望") == {"current"}
    assert heading_facets("注意事项") == {"limits"} and heading_facets("局限性") == {"limits"}
    assert heading_facets("与 Webpack 比较") == {"alternatives"}


def test_documents_without_answering_headings_keep_the_template_plan() -> None:
    plan = heuristic_plan("data classes", outlines=[DocumentOutline("Data Classes", ("Credits",))])
    assert any("benefits and limits" in q for q in plan.sub_queries)
    assert heuristic_plan("data classes").sub_queries == plan.sub_queries


def test_a_chinese_topic_gets_a_chinese_outline() -> None:
    outlines = [
        DocumentOutline("Async/await", ("Summary", "Motivation", "Guide-level explanation", "Drawbacks"))
    ]
    plan = heuristic_plan("异步编程", lang="zh", outlines=outlines)
    questions = [s.question for s in plan.steps if s.step_type == "research"]
    # "Guide-level explanation" is how to use it, for the outline as for the analyst (one heading table)
    assert questions == [
        "异步编程是什么？",
        "异步编程为什么重要？",
        "如何使用异步编程？",
        "异步编程有哪些局限？",
    ]


def test_a_chinese_section_is_searched_by_its_words_not_its_characters() -> None:
    """Vite's 依赖预构建 guide has a section 自动依赖搜寻 (automatic dependency discovery): its step searched
    "自 动 依 赖 搜", five characters each matching any page, where the topic itself is searched as words."""
    guide = DocumentOutline("依赖预构建", ("原因", "自动依赖搜寻", "Monorepo 和链接依赖", "缓存"))
    plan = heuristic_plan("依赖预构建", lang="zh", outlines=[guide])
    queries = {s.question: s.query for s in plan.steps if s.facet == "section"}
    assert queries["依赖预构建：自动依赖搜寻"] == "依赖预构建 自动依赖搜寻"
    assert queries["依赖预构建：Monorepo 和链接依赖"] == "依赖预构建 Monorepo 链接依赖"


def test_the_survey_reads_the_top_documents_headings_before_planning(kb_root: Path) -> None:
    make_corpus(
        kb_root,
        {
            "factories.md": "# Application factories\n\nAn application factory is a function that creates and "
            "configures the application object, so that tests can create instances with their own settings.\n\n"
            "## Motivation\n\nApplication factories let one process hold several application instances with "
            "different configurations.\n\n## Usage\n\nCall the application factory from your tests and from "
            "the command line to build a configured application each time.\n\n## Limitations\n\nAn "
            "application factory cannot hand the application object to modules at import time.\n",
            "cooking.md": "# Soup\n\nBoil the water, add the vegetables and simmer the soup for an hour.\n",
        },
    )
    topic = entry("application factories")
    try:
        run_topic_research(
            KBPaths(kb_root),
            config(),
            offline(),
            topic_target(KBPaths(kb_root), topic),
            publish=publish_topic,
        )
    except PartialFailure:
        pass  # one document cannot satisfy verification's three distinct sources: the plan is what is tested
    plan = read_json(KBPaths(kb_root).topic_dir("application-factories") / "plan.json")
    facets = [s["facet"] for s in plan["steps"] if s["step_type"] == "research" and not s["supplementary"]]
    assert facets == ["what", "motivation", "use", "limits"]


# --------------------------------------------------------------------------- passages in context


def _passage(text: str, sentence: str) -> str | None:
    sentences = split_sentences(text)
    index = next(i for i, s in enumerate(sentences) if s.startswith(sentence))
    placed = places(text, sentences)
    starts = frozenset(i for i, place in enumerate(placed) if place.opens)
    quote = passage_at(sentences, index, starts, paragraph_parts(placed[index].paragraph))
    return quote.text if quote else None


def test_a_paragraph_is_quoted_from_its_start_up_to_a_sentence_that_cannot_be_quoted() -> None:
    # react's ref forwarding RFC: the last sentence points back at "the above option"; the others still read
    # as the alternative they describe, from its name on
    text = (
        "# Alternatives\n\nAutomatically forward refs for stateless function components. React warns when a "
        "ref is attached to a function component, since there is no instance to reference. This approach would "
        "not let class components forward refs, so it would not be sufficient. It would also have the same "
        "depth limits as the above option.\n"
    )
    quote = _passage(text, "This approach would not")
    assert quote is not None and quote.startswith(
        "Automatically forward refs for stateless function components."
    )
    assert "above option" not in quote
    # nothing before the sentence asked for is quotable: it is quoted as before
    assert _passage(text, "It would also have") is None


def test_a_paragraph_too_long_to_quote_whole_is_never_split(monkeypatch: pytest.MonkeyPatch) -> None:
    # a PDF page or a web page can be one paragraph of thousands of sentences; analyze asks for its parts once,
    # and a paragraph that cannot be quoted whole is not split at all (splitting it per sentence was quadratic)
    from generator.topic import sentences as topic_sentences

    calls: list[str] = []
    real = topic_sentences.split_all
    monkeypatch.setattr(topic_sentences, "split_all", lambda text: calls.append(text) or real(text))
    long = " ".join(f"Vector databases keep embedding number {n} in an index." for n in range(400))
    assert paragraph_parts(long) == () and calls == []
    short = "Indexes are built once. Queries read them many times over."
    assert paragraph_parts(short) == ("Indexes are built once.", "Queries read them many times over.")


def test_a_short_paragraph_is_quoted_whole_with_its_run_in_label() -> None:
    text = (
        "Application factories are functions that build the application.\n\n"
        "Testing. You can have instances of the application with different settings to test every case. "
        "Each test gets a fresh application configured for exactly what it checks.\n\n"
        "Deployment is covered in another chapter of this guide for the curious reader."
    )
    assert _passage(text, "You can have instances") == (
        "Testing. You can have instances of the application with different settings to test every case. "
        "Each test gets a fresh application configured for exactly what it checks."
    )


def test_dangling_openings_and_questions_are_never_quoted_alone() -> None:
    text = (
        "Assignment expressions bind a name in the middle of an expression evaluation.\n\n"
        "I.e., it allows us to reuse the value computed in the condition of the loop body.\n\n"
        "Let's add a simple assignment expression to the loop that reads the lines of the file.\n\n"
        "Why would anyone want to bind a name inside an expression in the first place?\n\n"
        "In the following we provide some examples of assignment expressions in loops.\n\n"
        '"Assignment expressions in practice: a study of loops." In Proceedings of the Python Conference.\n\n'
        "Binding names inside comprehensions [1]_ was the most requested use of the new syntax."
    )
    assert _passage(text, "I.e., it allows") is None
    assert _passage(text, "Let's add") is None
    assert _passage(text, "Why would anyone") is None
    assert _passage(text, "In the following") is None
    assert _passage(text, '"Assignment expressions in practice') is None  # a bibliography entry
    assert _passage(text, "Binding names") == (
        "Binding names inside comprehensions was the most requested use of the new syntax."
    )


def test_a_document_number_opening_a_sentence_is_not_a_figure() -> None:
    assert measured_figures("557 added dataclasses to the Python stdlib.") == []
    assert [f.value for f in measured_figures("The standard library gained 12 new modules.")] == [12.0]


# --------------------------------------------------------------------------- definition, status, numbering

DEFINING = (
    "# Data Classes\n\n"
    "## Abstract\n\n"
    "This PEP describes an addition to the standard library called Data Classes. Data classes are normal "
    "classes whose special methods such as __init__ and __repr__ are generated from annotated class "
    "variables.\n\n"
    "## Specification\n\n"
    "The dataclass decorator examines the class to find fields, where a field is a class variable that has a "
    "type annotation. Data classes then generate the __init__ method from those fields in the order they "
    "are defined.\n\n"
    "## Usage\n\n"
    "A data class is declared by decorating a class whose fields carry type annotations:\n\n"
    "```python\n@dataclass\nclass InventoryItem:\n    name: str\n\n    unit_price: float = 0.0\n```\n"
)
REJECTED = (
    "# Class builders with records\n\n"
    "Data classes would be built by a record function that takes field names and returns a new class. "
    "Data classes made this way would generate their methods at call time from the names given.\n\n"
    "The record function was rejected because data classes need annotations that tools can read.\n"
)
NEWER = (
    "# Data class slots\n\n"
    "Data classes now accept a slots argument that generates a class with __slots__ for its fields. "
    "Data classes with slots use less memory and refuse unknown attributes.\n"
)


def _proposals(root: Path) -> tuple[KBPaths, str]:
    """A topic workspace holding three stored proposals with their stated dates and statuses (as the
    retrieval stage stores them), planned from their outlines."""
    paths, slug = KBPaths(root), "data-classes"
    ws = wsp.Workspace(paths, slug)
    stored = [
        ("local-aaaa000001", "Data Classes", DEFINING, "Final", "02-Jun-2017", 0.9),
        ("local-aaaa000002", "Class builders with records", REJECTED, "Rejected", "2016-01-10", 0.8),
        ("local-aaaa000003", "Data class slots", NEWER, "Accepted", "2021-03-01", 0.7),
    ]
    for n, (sid, title, text, status, date, relevance) in enumerate(stored):
        raw = wsp.RawSource(
            sid, "local", f"local:peps/{sid}.md", title, f"2026-01-01T00:00:0{n}Z", text,
            kind="local", relevance=relevance, status=status, published=date,
        )  # fmt: skip
        wsp.save_raw_source(ws, raw)
    outlines = [DocumentOutline("Data Classes", PROPOSAL_HEADINGS, "Final", "2017-06-02"),
                DocumentOutline("Data class slots", ("Specification", "Usage"), "Accepted", "2021-03-01")]  # fmt: skip
    plan = heuristic_plan("data classes", outlines=outlines)
    for step in plan.steps:
        step.sources, step.status = [sid for sid, *_ in stored], "done"
    wsp.save_plan(paths, slug, plan)
    catalog = Catalog(wsp.list_raw_sources(paths, slug))
    analysis = analyze(offline(), plan, catalog, lang="en")
    wsp.save_record(ws.findings_file, analysis)
    wsp.save_record(ws.report_record, build_report(plan, analysis, catalog))
    meta = TopicMeta(id=slug, topic="data classes", slug=slug, topic_key="data classes", options=Options())
    meta.status = "completed"
    meta.warnings = ["verify: round 2 found no new source; stopping"]
    wsp.save_meta(paths, meta)
    publish_topic(paths, slug)
    return paths, slug


def test_the_report_opens_with_the_defining_documents_abstract(kb_root: Path) -> None:
    paths, slug = _proposals(kb_root)
    report = wsp.load_record(paths.topic_dir(slug) / "processed" / "report.json", Report)
    assert report.summary[0].sources == ["local-aaaa000001"]
    assert report.summary[0].text.startswith("This PEP describes an addition to the standard library")
    what = report.sections[0]
    assert what.question == "What are data classes?" and what.claims[0].text == report.summary[0].text
    assert [s.question for s in report.sections][1] == "Why do data classes matter?"


def test_a_rejected_proposal_is_labelled_and_never_says_how_it_works(kb_root: Path) -> None:
    paths, slug = _proposals(kb_root)
    report = wsp.load_record(paths.topic_dir(slug) / "processed" / "report.json", Report)
    by_question = {s.question: s for s in report.sections}
    answering = [
        c for q in ("What are data classes?", "How do data classes work?") for c in by_question[q].claims
    ]
    assert answering and all("local-aaaa000002" not in c.sources for c in answering)
    header, *current = by_question["What is the current state of data classes?"].claims
    # what the defining document's header states, then the newest source's passages
    assert header.header and header.text == "Data Classes — final · 2017-06-02"
    assert current and all(c.sources == ["local-aaaa000003"] for c in current)
    _, page = read_page(paths.topic_dir(slug) / "output" / "report.md")
    rejected = [line for line in page.splitlines() if "Class builders with records" in line]
    if "local-aaaa000002" in report.references:
        assert rejected and "**rejected**" in rejected[0] and "2016-01-10" in rejected[0]
        assert re.search(r"local-aaaa000002\.md\) \(rejected\)", page)
    assert "2017-06-02" in page  # "02-Jun-2017" read as a date


def test_every_page_numbers_the_sources_alike_and_keeps_operator_notes_off(kb_root: Path) -> None:
    paths, slug = _proposals(kb_root)
    folder = paths.topic_dir(slug)
    _, report = read_page(folder / "output" / "report.md")
    numbered = {sid: n for n, sid in citations_in(report)}
    for name in ("index.md", "sources.md", "processed/analysis.md"):
        _, page = read_page(folder / name)
        for n, sid in citations_in(page):
            assert numbered.get(sid, n) == n, (name, sid)
        for n, sid in re.findall(r"^\| (\d+) \| \[[^\]]*\]\(raw/([\w-]+)\.md\)", page, re.M):
            assert numbered.get(sid, int(n)) == int(n), (name, sid)
    _, landing = read_page(folder / "index.md")
    assert "verify:" not in landing and "round 2" not in landing
    assert read_json(folder / "_meta.json")["warnings"] == ["verify: round 2 found no new source; stopping"]
    _, raw = read_page(folder / "raw" / "local-aaaa000002.md")
    assert "**rejected**" in raw


def test_a_short_outline_is_filled_with_the_top_documents_own_sections() -> None:
    outlines = [
        DocumentOutline(
            "Signals", ("Subscribing to Signals", "Creating Signals", "Core Signals", "Footnotes")
        ),
    ]
    plan = heuristic_plan("signals", outlines=outlines)
    questions = [s.question for s in plan.steps if s.step_type == "research"]
    assert questions == ["What are signals?", "Subscribing to Signals", "Creating Signals", "Core Signals"]
    assert {s.facet for s in plan.steps if s.step_type == "research"} == {"what", "section"}


def test_an_activity_is_asked_about_as_something_done() -> None:
    outlines = [DocumentOutline("File Uploads", ("Usage", "Security"))]
    questions = heuristic_plan("uploading files", outlines=outlines).sub_queries
    assert questions[:3] == [
        "What does uploading files involve?",
        "How is uploading files done?",
        "What are the limits of uploading files?",
    ]


def test_the_definition_comes_from_the_document_titled_after_the_topic() -> None:
    from generator.topic.definition import definition
    from generator.topic.judge import RelevanceJudge

    quickstart = wsp.RawSource(
        "local-q", "local", "local:quickstart.md", "Quickstart", "t", "The function returns the message we "
        "want to display in the browser of the user.\n\nYou can handle uploaded files with Flask easily.",
        kind="local", relevance=0.9,
    )  # fmt: skip
    uploads = wsp.RawSource(
        "local-u", "local", "local:uploads.md", "File Uploads", "t", "Ah yes, the good old problem of file "
        "uploads. The basic idea of file uploads is actually quite simple. It basically works like this:\n\n"
        "The application accesses the file from the files dictionary.",
        kind="local", relevance=0.7,
    )  # fmt: skip
    opening = definition([quickstart, uploads], RelevanceJudge("file uploads"), lambda s: True)
    assert opening is not None and opening.sources == ["local-u"]
    assert opening.text == (
        "Ah yes, the good old problem of file uploads. The basic idea of file uploads is actually quite simple."
    )  # the lead-in to what follows ("…like this:") is left off


def test_a_proposal_is_defined_from_where_it_states_its_subject_never_its_problem_statement() -> None:
    from generator.topic.definition import definition
    from generator.topic.judge import RelevanceJudge

    def proposal(sid: str, title: str, text: str) -> wsp.RawSource:
        return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)

    # a summary opening with what the world lacks: the definition starts at its paragraph naming the subject
    summary = proposal(
        "local-a",
        "Inline classes",
        "# Inline classes\n\n## Summary\n\nCurrently, there is no performant way "
        "to create wrapper for a value of a corresponding type.\n\nWe propose to support identityless inline "
        "classes that would allow to introduce wrappers for values without additional overhead.\n\n"
        "## Motivation\n\nWrappers are common.",
    )
    opening = definition([summary], RelevanceJudge("inline classes"), lambda s: True)
    assert opening is not None and opening.text == (
        "We propose to support identityless inline classes that would allow to introduce wrappers for values "
        "without additional overhead."
    )
    # no summary: a "## Problem" section says what the world needs; the design section says what it is
    problem = proposal(
        "local-b",
        "Jupyter debugger protocol",
        "# Jupyter debugger protocol\n\n## Problem\n\nJupyter users "
        "like to experiment in the notebook, but they often switch to an IDE to debug.\n\n## Proposed "
        "Enhancement\n\nWe propose to include the debugger messages into the Jupyter kernel protocol.",
    )
    opening = definition([problem], RelevanceJudge("Jupyter debugger protocol"), lambda s: True)
    assert opening is not None
    assert opening.text == "We propose to include the debugger messages into the Jupyter kernel protocol."


def test_of_two_proposals_titled_after_the_subject_the_one_the_other_builds_on_defines_it() -> None:
    from generator.topic.definition import definition
    from generator.topic.judge import RelevanceJudge

    base = wsp.RawSource(
        "local-a50", "local", "local:A50.md", "A50: gRPC xDS Outlier Detection Support", "t",
        "## Abstract\n\ngRPC will add support for the xDS Outlier Detection feature.", kind="local",
        relevance=0.6,
    )  # fmt: skip
    metrics = wsp.RawSource(
        "local-a91", "local", "local:A91.md", "A91: gRPC Metrics for Outlier Detection", "t",
        "## Abstract\n\nThis document proposes some new metrics for xDS Client Outlier Detection.\n\n"
        "## Background\n\nA50: gRPC xDS Outlier Detection Support is a spec for gRPC to support Outlier "
        "Detection.", kind="local", relevance=0.9,
    )  # fmt: skip
    opening = definition([metrics, base], RelevanceJudge("outlier detection"), lambda s: True)
    assert opening is not None and opening.sources == ["local-a50"]  # fewer other words in A91's title
    assert opening.text == "gRPC will add support for the xDS Outlier Detection feature."


def test_a_code_example_is_quoted_with_the_sentence_that_introduces_it(kb_root: Path) -> None:
    paths, slug = _proposals(kb_root)
    report = wsp.load_record(paths.topic_dir(slug) / "processed" / "report.json", Report)
    examples = [c for s in report.sections for c in s.claims if c.code]
    assert [c.text for c in examples] == [
        "A data class is declared by decorating a class whose fields carry type annotations:"
    ]
    assert (
        examples[0].code == "@dataclass\nclass InventoryItem:\n    name: str\n\n    unit_price: float = 0.0"
    )
    assert all(not c.code for c in report.summary)  # a lead-in never stands in the summary
    _, page = read_page(paths.topic_dir(slug) / "output" / "report.md")
    assert "carry type annotations: [\\[1\\]](../raw/local-aaaa000001.md)\n\n```python\n@dataclass\n" in page


def test_the_summary_stops_at_about_five_sentences_of_whole_passages() -> None:
    from generator.topic.findings import Claim
    from generator.topic.report import ReportSection, leads

    paragraph = (
        "Data classes generate methods for you. They read the annotations of the class. Fields keep order."
    )
    claims = [Claim(paragraph.replace("Data", f"Data{n}"), [f"s{n}"], 1.0 - n / 10) for n in range(4)]
    summary = leads([ReportSection(f"q{n}", [c]) for n, c in enumerate(claims)])
    assert summary == claims[:2]  # 3 sentences, then 6: the third passage would only lengthen it


def test_a_section_question_is_answered_from_the_section_it_is_named_after() -> None:
    from generator.topic.judge import RelevanceJudge
    from generator.topic.word_candidates import candidates

    text = (
        "# Signals\n\nSignals notify subscribers of events in the application, and subscribing to them is easy.\n\n"
        "## Sending Signals\n\nTo emit one, call the send method of the signal with the sender as argument.\n\n"
        "## Creating Signals\n\nA namespace creates signals of its own for your extension to use.\n\n"
        "A signal your extension creates can send events to any subscriber of the signals of that namespace."
    )
    source = wsp.RawSource("local-s", "local", "local:signals.md", "Signals", "t", text, kind="local")
    pool = candidates(
        [source], focus="signals and subscribing to them Sending Signals", judge=RelevanceJudge(
            "signals and subscribing to them"), facet={"send"}, reserved=set(), facet_name="section",
        section="Sending Signals",
    )  # fmt: skip
    assert pool[0].text == "To emit one, call the send method of the signal with the sender as argument."
    assert "A namespace creates signals" not in " ".join(c.text for c in pool)  # another section's passage
    assert all(
        "Sending Signals" not in c.text and "can send events" not in c.text for c in pool
    )  # even naming "send"


def test_the_model_planner_and_analyst_read_the_same_outlines_and_passages(kb_root: Path) -> None:
    import json as jsonlib

    from llm_fakes import FakeOpenAI, RecordedRequest
    from test_topic_llm import Team
    from topic_fakes import CORPUS, openai_provider

    prompts: dict[str, list[str]] = {"plan": [], "analyze": []}

    class Recording(Team):
        def __call__(self, req: RecordedRequest) -> str:
            system = req.system or ""
            role = "plan" if "planner" in system else "analyze" if "analyst" in system else ""
            if role:
                prompts[role].append(req.prompt)
            return super().__call__(req)

    files = dict(CORPUS)
    files["how.md"] = files["how.md"].replace(
        "# How vector search works", "# How vector search works\n\n## Design"
    )
    make_corpus(kb_root, files)
    with FakeOpenAI(default=Recording([jsonlib.dumps({"sub_queries": ["x"], "steps": "bad"})] * 2)) as fake:
        result = run_topic_research(
            KBPaths(kb_root),
            config(),
            openai_provider(fake.base_url),
            topic_target(KBPaths(kb_root), entry(), verify=False),
            publish=publish_topic,
        )
    assert result.status == "completed"
    assert (
        prompts["plan"] and "How vector search works" in prompts["plan"][0] and "Design" in prompts["plan"][0]
    )
    plan = read_json(KBPaths(kb_root).topic_dir("vector-databases") / "plan.json")
    assert plan["origin"] == "heuristic" and "how" in [
        s["facet"] for s in plan["steps"]
    ]  # the fallback's outline
    # the analyst reads whole paragraphs (two sentences quoted together), as the offline analyst would quote
    paragraph = (
        "A vector database stores embeddings and answers nearest-neighbour queries over them. Vector databases "
        "index high-dimensional vectors produced by embedding models."
    )
    assert any(paragraph in p for p in prompts["analyze"])


def test_only_a_document_titled_after_the_topic_lends_its_sections_to_the_outline() -> None:
    from generator.topic.plan import DocumentOutline, topic_sections

    outlines = [
        DocumentOutline("Testing Click Applications", ("Testing File Uploads", "File System Isolation")),
        DocumentOutline("Complex Applications", ("The Root Command", "The First Child Command")),
    ]
    found = topic_sections("testing command line applications", outlines)
    assert "Testing File Uploads" in found
    assert "The Root Command" not in found and "The First Child Command" not in found


def test_a_section_named_by_part_of_the_topic_is_asked_first() -> None:
    """The OpenTelemetry SDK's "Sampling" section is where the specification says how trace sampling works
    (IsRecording, the Sampled flag, the Sampler): a heading naming part of the topic is no repetition of its
    name but the section on it, asked before sections that merely share a word; "Tracing SDK" is titled
    after the topic through the stem of "tracing". A heading naming the whole topic is still not asked."""
    from generator.topic.plan import DocumentOutline, topic_sections

    outlines = [
        DocumentOutline(
            "TraceState: Probability Sampling", ("Overview", "Sampling Probability", "Sampling stages")
        ),
        DocumentOutline(
            "Tracing SDK", ("Tracing SDK", "Tracer Provider", "Sampling", "Sampler", "Span Limits")
        ),
    ]
    assert topic_sections("trace sampling", outlines) == [
        "Sampling",
        "Sampling Probability",
        "Sampling stages",
    ]
    runtime = DocumentOutline(
        "Runtime and Lifecycle", ("Runtime and Lifecycle", "State", "Lifecycle", "Operations")
    )
    assert topic_sections("container lifecycle and runtime operations", [runtime]) == [
        "Lifecycle",
        "Operations",
    ]
    assert topic_sections("runtime operations", [runtime]) == ["Operations"]
    assert topic_sections("signals", [DocumentOutline("Signals", ("Signals", "Core Signals"))]) == [
        "Core Signals"
    ]


def test_a_chinese_heading_shares_a_word_with_the_topic_not_a_character() -> None:
    """ "设置开发服务器" (setting up the dev server) shares the characters 服务 with 服务端渲染, no word: it is no
    section about server-side rendering. With fewer than two such sections, the guide's own sections say how
    its subject works, and "how" is asked."""
    from generator.topic.plan import DocumentOutline, outline_questions, topic_sections

    guide = DocumentOutline(
        "服务端渲染（SSR）", ("示例项目", "源码结构", "设置开发服务器", "预渲染 / SSG", "SSR 外部化")
    )
    assert topic_sections("服务端渲染", [guide]) == ["预渲染 / SSG"]
    facets = [facet for facet, _, _ in outline_questions("服务端渲染", [guide], lang="zh")]
    assert "how" in facets


def test_when_every_proposal_for_the_subject_was_deferred_they_answer_labelled_but_not_current_state() -> (
    None
):
    from generator.topic.standing import proposals_only, usable_for

    def raw(sid: str, status: str, relevance: float) -> wsp.RawSource:
        return wsp.RawSource(
            sid, "local", f"local:neps/{sid}.md", sid, "2026-01-01T00:00:00Z", "text",
            kind="local", relevance=relevance, status=status,
        )  # fmt: skip

    deferred = [raw("nep-12", "Deferred", 0.9), raw("nep-25", "Deferred", 0.8)]
    unrelated = raw("nep-55", "Final", 0.4)  # in force, but about something else
    sources = [*deferred, unrelated]
    assert proposals_only(sources)
    assert usable_for("what", sources)(deferred[0]) and usable_for("how", sources)(deferred[1])
    assert not usable_for("current", sources)(deferred[0])
    # a subject whose defining document is in force keeps its rejected alternatives out of "how it works"
    in_force = [raw("pep-557", "Final", 0.9), raw("pep-old", "Rejected", 0.8)]
    assert not proposals_only(in_force)
    assert not usable_for("how", in_force)(in_force[1]) and usable_for("how", in_force)(in_force[0])
