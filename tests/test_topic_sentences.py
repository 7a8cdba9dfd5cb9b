"""What the offline analyst may quote, what counts as a figure, and how sentences are shared out to sections."""

from __future__ import annotations

import pytest
from report_quality import report_quality

from generator.text.sentences import split_sentences
from generator.topic.allocation import allocate
from generator.topic.candidate import Candidate
from generator.topic.findings import Claim
from generator.topic.judge import RelevanceJudge
from generator.topic.opening_passages import opening_passages
from generator.topic.processing import measured_figures
from generator.topic.report import Report, ReportSection
from generator.topic.section_tree import TextSection
from generator.topic.sentences import is_changelog, paragraph_parts, passage_at, quotable, quote_at
from generator.topic.word_candidates import candidates
from generator.topic.workspace import RawSource


@pytest.mark.parametrize(
    "sentence",
    [
        "This work would not have been possible without the help of many contributors.",
        "We thank the reviewers for their careful reading of the draft.",
        "Copyright (c) 2019 the project authors and contributors.",
        "This document has been placed in the public domain by its authors.",
        "[3] Smith et al. Fast approximate search over embeddings, 2019.",
        "Changed in version 3.2: the cache now expires entries after an hour.",
        "Task: Added support for Cythonized Celery tasks in the worker.",
        "Preserve ignore_result overrides across task retries (10958).",
        "Post-History: 12-Mar-2021, 30-Apr-2021 and later rounds of review.",
        "the application object creation has to be in the init.py file.",
        "If the task is not registered you can use ~@send_task to call it by name.",
        "How many times the current task has been retried.",
        "Defines the default policy when retrying publishing a task message after a connection loss.",
        "Used by for example Task.retry() to resend the task to the same destination queue.",
    ],
)
def test_debris_is_never_quoted(sentence: str) -> None:
    assert not quotable(sentence)


def test_whole_sentences_starting_like_fragments_are_kept() -> None:
    assert quotable("Sometimes the worker needs to retry a task after a failure happens.")
    assert quotable("Kubernetes schedules the pods onto nodes in the cluster for you.")
    assert quotable("Tasks are the building blocks of Celery applications everywhere.")
    from generator.topic.sentences import needs_antecedent

    assert needs_antecedent("Well, it stores them in memory when the files are small enough.")
    assert not needs_antecedent("No sentence is quoted twice anywhere in a report.")


def test_a_sentence_leaning_on_the_one_before_is_quoted_with_it_or_not_at_all() -> None:
    sentences = split_sentences(
        "A vector index groups similar embeddings into partitions for faster search. "
        "This keeps queries fast even when the collection grows to many millions of items. "
        "- see the list below. "
        "It also lowers the memory each query needs on the serving machines."
    )
    joined = quote_at(sentences, 1)
    assert joined is not None and joined.parts == (sentences[0], sentences[1])
    assert quote_at(sentences, 3) is None  # the sentence before it is debris: nothing to lean on
    alone = split_sentences("This PEP proposes a lock-free reference counting scheme for the interpreter.")
    assert quote_at(alone, 0) is not None and quote_at(alone, 0).parts == (alone[0],)  # type: ignore[union-attr]


def test_changelogs_are_recognised_by_title_or_file_name() -> None:
    assert is_changelog("Change history for Celery 2.2", "local:celery/history/changelog-2.2.rst")
    assert is_changelog("What's new in Celery 5.7", "local:celery/history/whatsnew-5.7.rst")
    assert is_changelog("Release notes", "https://example.org/docs/release-notes.html")
    assert not is_changelog("Tasks", "local:celery/userguide/tasks.rst")


@pytest.mark.parametrize(
    ("sentence", "figures"),
    [
        (
            "In one benchmark FAISS answered 95% of queries correctly at 12 ms latency.",
            [(95, "%"), (12, "ms")],
        ),
        ("Quantization fits 1,000,000 embeddings in about 64 MB of memory.", [(1_000_000, ""), (64, "MB")]),
        ("The new parser is 3x faster and saves $400 a month.", [(3, "x"), (400, "$")]),
        ("The cluster runs 40 workers behind 3 queues.", [(40, ""), (3, "")]),
        ("PEP 484 introduced type hints in 2014.", []),
        ("Python 3.12 is 5% faster than 3.11 on this benchmark.", [(5, "%")]),
        ("See section 3 and issue #1234 for details of version 2.0.", []),
        ("Django 4 apps were tested against release 2.1.3 in 2020.", []),
        ("The case 401403000 is similar to 484 in the table.", []),
        ("But since 3.1 this is no longer the case for anyone.", []),
    ],
)
def test_figures_are_measured_quantities_never_identifiers(
    sentence: str, figures: list[tuple[int, str]]
) -> None:
    assert [(f.value, f.unit) for f in measured_figures(sentence)] == [(float(v), u) for v, u in figures]


def _source(sid: str, text: str, title: str = "Guide", url: str = "") -> RawSource:
    return RawSource(sid, "local", url or f"local:docs/{sid}.md", title, "2026-01-01", text)


def test_changelog_sources_and_off_point_sentences_are_not_candidates() -> None:
    guide = _source(
        "guide",
        "Celery task retries happen when a task raises an error and calls retry with a countdown.\n\n"
        "Celery task queues are served by workers that poll the broker for new messages.\n\n"
        "A Celery task is a function registered with the application under its own name.",
    )
    history = _source(
        "history", "Celery task retries now honour the countdown given to the retry call.", "Change history"
    )
    pool = candidates(
        [guide, history], focus="Celery task retries", judge=RelevanceJudge("Celery task retries"), facet=set(),
        reserved=set(),
    )  # fmt: skip
    assert {c.source for c in pool} == {"guide"}
    assert [c.text for c in pool] == [guide.text.split("\n\n")[0]]  # only the paragraph naming retries


def test_no_sentence_is_quoted_in_two_sections_even_inside_a_joined_quote() -> None:
    first, second = "Vector indexes partition embeddings.", "This keeps vector search fast at scale."
    joined = Candidate(f"{first} {second}", "s1", 1.0, 0.5, 1.0, (first, second))
    alone = Candidate(first, "s1", 1.0, 0.4, 1.0)
    chosen = allocate({"How does it work?": [joined], "What is it?": [alone]})
    texts = [c.text for claims in chosen.values() for c in claims]
    assert texts == [joined.text]  # the lone first sentence is already quoted inside the joined one


def test_report_quality_counts_repeats_and_gaps() -> None:
    claim = Claim("Vector indexes partition embeddings.", ["a"])
    report = Report(
        topic="t",
        summary=[claim],
        sections=[ReportSection("q1", [claim]), ReportSection("q2", [claim, Claim("Other.", ["b"])])],
        figures=[],
        references=["a"],
    )
    quality = report_quality(report)
    assert quality["repeated_sentences"] == 1 and quality["reference_gaps"] == 1  # "b" has no reference


def test_summary_opens_with_the_best_answer_and_sources_about_the_topic_weigh_more() -> None:
    from generator.topic.report import leads

    weak, strong = (
        Claim("Celery can read Flask config.", ["a"], 0.2),
        Claim("Flask reads config.", ["b"], 0.9),
    )
    assert leads([ReportSection("q1", [weak]), ReportSection("q2", [strong])]) == [strong, weak]
    text = "Flask configuration is loaded from a Python file when the application starts up."
    about, aside = _source("config", text), _source("celery", text.replace("Python file", "Celery file"))
    about.relevance, aside.relevance = 0.8, 0.4
    judge = RelevanceJudge("Flask configuration")
    pool = candidates([aside, about], focus="Flask configuration", judge=judge, facet=set(), reserved=set())
    assert [c.source for c in pool] == ["config", "celery"]


def test_model_drafts_are_trimmed_at_the_boundary_not_refused() -> None:
    from generator.topic.model_claims import _SectionDraft
    from generator.topic.processing import ChartSpec

    chatty = "Vector indexes keep search fast. " * 60
    draft = _SectionDraft.model_validate({"claims": [{"text": chatty, "citations": [1]}]})
    assert len(draft.claims[0].text) <= 1200 and draft.claims[0].text.endswith("…")
    spec = ChartSpec.model_validate(
        {
            "title": "T" * 500,
            "unit": "milliseconds of latency",
            "rows": [{"label": "l " * 200, "value": 3, "source": "a"}],
        }
    )
    assert len(spec.title) <= 120 and len(spec.unit) <= 20 and len(spec.rows[0].label) <= 120


def test_no_antecedent_across_a_paragraph_and_a_dummy_it_stands_alone() -> None:
    from generator.topic.sentences import places

    text = (
        "Here we look up the name of a template in the config.\n\n"
        "This keeps the factory small and easy to test for everyone.\n\n"
        "It is preferable to create extensions without binding an app. It also makes testing easier in practice."
    )
    sentences = split_sentences(text)
    starts = frozenset(i for i, place in enumerate(places(text, sentences)) if place.opens)
    assert quote_at(sentences, 1, starts) is None  # "This…" opens its paragraph: nothing before it to lean on
    dummy = quote_at(sentences, 2, starts)
    assert dummy is not None and dummy.parts == (sentences[2],)
    leaning = quote_at(sentences, 3, starts)
    assert leaning is not None and leaning.parts == (sentences[2], sentences[3])


def test_a_passage_must_name_the_topics_most_specific_concept() -> None:
    from generator.topic.topic_point import sentence_statistics

    guide = _source(
        "guide",
        "Flask provides a test client that simulates requests to the application in every test.\n\n"
        "The flask command is installed by Flask, not your application, and finds your application itself.\n\n"
        "Every Flask application creates an instance of the Flask class with the name of its module.\n\n"
        "Flask extensions add functionality to your application as if Flask had it built in.",
    )
    judge = RelevanceJudge("How do I test a Flask application?")
    sentence_statistics(judge, [guide])
    pool = candidates(
        [guide], focus="How do I test a Flask application?", judge=judge, facet=set(), reserved=set()
    )
    assert [c.text for c in pool] == [guide.text.split("\n\n")[0]]


def test_a_concept_the_sources_titles_name_is_a_point_too() -> None:
    """The rarest topic word can be incidental ("organize"): a concept the stored sources' titles name, no more
    common than the topic's median concept, makes a passage on point as well."""
    from generator.retrieval.scoring import Fields, field_tokens
    from generator.topic.judge import RelevanceJudge
    from generator.topic.topic_point import point_shares

    judge = RelevanceJudge("How application factories organize a large app")
    passages = {
        "a": "Use application factories to create one app per configuration.",
        "b": "Teams organize code in packages.",
        "c": "An app serves requests.",
        "d": "Factories build apps.",  # "factories" is now more common than "organize"
    }
    for key, text in passages.items():
        judge.stats.add(key, field_tokens(Fields("", "", text)))
    found = [v.topic for v in judge.judge([(k, Fields("", "", t)) for k, t in passages.items()], judge.topic)]
    without = point_shares(judge, found, share=0.0)
    with_titles = point_shares(judge, found, share=0.0, titles=["Application Factories"])
    assert without[0] is False and with_titles[0] is True  # "factories" counts once a title names it
    assert with_titles[2] is False  # the common word "app" never does


def test_a_document_that_only_touches_the_topic_is_quoted_where_it_names_all_of_it() -> None:
    testing = RawSource(
        "testing", "local", "local:docs/testing.md", "Testing Click Applications", "t",
        "# Testing Click Applications\n\nThe testing module invokes command line applications and checks "
        "their output and exit code.\n\n## Usage\n\nThe runner for testing command line applications "
        "captures what they print to the terminal.", relevance=0.74,
    )  # fmt: skip
    packaging = RawSource(
        "briefcase", "local", "local:docs/briefcase.md", "Standalone Application with Briefcase", "t",
        "# Standalone Application with Briefcase\n\n## Usage\n\nSet console_app so that Briefcase treats the "
        "project as a command line application rather than a graphical application.\n\nTesting the command "
        "line application that Briefcase builds runs its test suite with the dev command.", relevance=0.59,
    )  # fmt: skip
    topic = "testing command line applications"
    pool = candidates(
        [testing, packaging], focus=f"{topic} usage example how to", judge=RelevanceJudge(topic),
        facet={"usag", "exampl"}, reserved=set(), facet_name="use",
    )  # fmt: skip
    quoted = {c.text: c for c in pool}
    assert not any("console_app" in text for text in quoted)  # shares "command line application" only
    packaged = [c for c in pool if c.source == "briefcase"]
    assert [c.text for c in packaged] == [packaging.text.split("\n\n")[-1]]  # names all of the topic
    # its "Usage" heading is about packaging: only the testing page's own "Usage" section earns the bonus
    assert packaged[0].facet_hits == 0
    assert any(c.source == "testing" and c.facet_hits > 0 for c in pool)


def test_a_document_not_titled_after_the_topic_opens_only_with_a_paragraph_naming_all_of_it() -> None:
    from generator.topic.definition import definition

    proposal = RawSource(
        "nep12", "local", "local:neps/nep-0012.rst", "Missing data and NA support", "t",
        "Missing data is marked with an NA value that propagates through arithmetic.", relevance=0.88,
        status="Deferred",
    )  # fmt: skip
    strings = RawSource(
        "nep55", "local", "local:neps/nep-0055.rst", "A variable-width string DType", "t",
        "We propose adding a new string data type where each item is an arbitrary length encoded string.",
        relevance=0.69,
    )  # fmt: skip
    active = lambda s: s.status != "Deferred"  # noqa: E731 — the deferred proposal may not say what it is
    judge = RelevanceJudge("missing data and NA support")
    assert definition([proposal, strings], judge, active) is None  # "data" alone does not define it
    strings.text += "\n\nThe string type supports missing data through an NA sentinel object of the user's."
    opening = definition([proposal, strings], RelevanceJudge("missing data and NA support"), active)
    assert opening is not None and opening.text.startswith("The string type supports missing data")


def test_a_document_about_the_topic_is_quoted_where_it_names_the_topics_point() -> None:
    testing = RawSource(
        "testing", "local", "local:docs/testing.md", "Testing Click Applications", "t",
        "The testing module invokes command line applications and checks their output and exit code.\n\n"
        "Each test gets its own temporary folder, so that no test leaks files into another test.",
        relevance=0.74,
    )  # fmt: skip
    aside = RawSource(
        "complex", "local", "local:docs/complex.md", "Complex Applications", "t",
        "A command line application keeps its state in a context object passed to every command.\n\n"
        "A group command holds the subcommands of the application and dispatches to one of them.\n\n"
        "Each command of the application reads its options from the command line before it runs.\n\n"
        "Each test gets its own temporary folder, so that no test leaks files into another test run.",
        relevance=0.6,
    )  # fmt: skip
    topic = "testing command line applications"
    pool = candidates(
        [testing, aside], focus=topic, judge=RelevanceJudge(topic), facet=set(), reserved=set()
    )  # fmt: skip
    quoted = {(c.source, c.text) for c in pool}
    assert ("testing", testing.text.split("\n\n")[1]) in quoted  # names only "test", on the page about it
    assert not any(source == "complex" for source, _ in quoted)


def test_a_sentence_opening_on_a_name_written_with_a_capital_inside_is_prose() -> None:
    """gRPC's proposals open "gRPC client library will …", the PEPs "iOS apps …", ember's RFCs "jQuery …": a
    word with a capital inside is a name, never a fragment's first word; a lower-case word still is."""
    from generator.topic.sentences import is_prose

    assert is_prose("gRPC client library will automatically retry failed RPCs according to a policy set.")
    assert is_prose("iOS apps can embed Python as a framework and call it from their Swift code.")
    assert not is_prose("and then the library will retry failed calls according to the service policy.")


def test_a_short_chinese_sentence_counts_its_latin_names_as_words() -> None:
    """Hexo's 一键部署 page opens "Hexo 提供快速、简便的部署策略。" and its tag plugins page "标签插件和
    Front-matter 中的标签不同。": eleven and ten Han characters, under the twelve a Chinese sentence needed,
    though each says as much as six English words (a Han character counts half a word, a Latin name one).
    Both openings were skipped and the report opened on a later, lesser sentence. A sentence saying less
    ("有效配置必须有 type 字段。", five words) is still too short to quote alone."""
    from generator.topic.sentences import is_prose

    assert is_prose("Hexo 提供快速、简便的部署策略。")
    assert is_prose("标签插件和 Front-matter 中的标签不同。")
    assert not is_prose("有效配置必须有 type 字段。")
    assert not is_prose("Hexo 很快。")


def test_a_sentence_the_next_one_corrects_is_quoted_with_it() -> None:
    paragraph = (
        "When a user decides to unbond their tokens, they don't become instantly available. Instead, they "
        "enter an unbonding queue. The following specification illustrates how the queue works."
    )
    parts = split_sentences(paragraph)
    quote = passage_at(parts, 0, frozenset({0}), paragraph_parts(paragraph))
    assert quote is not None
    assert quote.text.endswith(
        "they don't become instantly available. Instead, they enter an unbonding queue."
    )
    # a sentence no correction follows is quoted alone, and a correction in the next paragraph is not its own
    plain = "A user who unbonds their tokens waits for the unbonding period to end. They then withdraw them."
    assert passage_at(split_sentences(plain), 0, frozenset({0}), ()).text.startswith("A user who unbonds")
    assert passage_at(split_sentences(plain), 0, frozenset({0}), ()).parts == (
        "A user who unbonds their tokens waits for the unbonding period to end.",
    )
    split = split_sentences(paragraph)
    alone = passage_at(split, 0, frozenset({0, 1}), ())
    assert alone is not None and alone.parts == (split[0],)
    # a section opening on it quotes it with its correction too
    (opening,) = opening_passages(TextSection("Mechanism", 2, (paragraph,)))
    assert opening.text.endswith("Instead, they enter an unbonding queue.")


def test_a_packets_acknowledgement_is_no_thanks() -> None:
    # ICS-4 UPGRADES.md "### Considerations": the limit's second sentence was dropped as thanks
    assert quotable(
        "This can happen if the timeout value of a packet is too large, or an acknowledgement never arrives."
    )
    assert not quotable("We acknowledge the support of the Interchain Foundation for this work.")
    assert not quotable("The authors would like to acknowledge Alice and Bob for their reviews.")


def test_summary_states_how_the_asked_subject_works_in_its_own_document_before_better_scored_asides() -> None:
    # FIP-0086's summary quoted the consensus it extends ("Expected Consensus (EC) is the current mechanism…",
    # the "Why" section's lead, scored highest) where its own "It does so by leveraging GossiPBFT…" answers
    # the question asked
    from generator.topic.report import leads

    background = Claim("EC is the current mechanism by which participants agree on tipsets.", ["fip"], 0.9)
    how = Claim("It does so by leveraging GossiPBFT, a BFT consensus protocol.", ["fip"], 0.5)
    elsewhere = Claim("Another proposal also runs GossiPBFT in its own way.", ["other"], 0.7)
    sections = [
        ReportSection("Why does F3 matter?", [background]),
        ReportSection("How does F3 work?", [how]),
        ReportSection("How does F3 work?", [elsewhere]),
    ]
    summary = leads(sections, limit=2, asked={"How does F3 work?"}, defining={"fip"})
    assert summary == [how, background]  # a lead from another document is ranked by its score alone
