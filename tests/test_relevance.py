"""Relevance: field-weighted scoring against the topic and its sub-questions, and the adaptive threshold."""

from __future__ import annotations

from generator.retrieval.judge import KEEP_RATIO, RelevanceJudge
from generator.retrieval.scoring import FLOOR, Fields, keep_threshold

ABOUT = Fields(
    title="How to capture warnings",
    headings="Controlling warnings\nAsserting warnings with the warns function\nRecording warnings",
    body="Warnings raised during a test are captured. " * 8 + "Use the warns function to assert a warning.",
)
PASSING = Fields(
    title="Changelog",
    headings="Version 7.1\nBug fixes\nImprovements",
    body="Fixed a crash in the collector. " * 30
    + "A deprecation warning is now shown once. "
    + "Faster startup. " * 30,
)
UNRELATED = Fields(
    title="Deploying with gunicorn",
    headings="Running\nBinding externally",
    body="Gunicorn is a WSGI server. Bind it to an address. " * 10,
)


def _judge(topic: str, docs: dict[str, Fields], question: str = "") -> dict[str, float]:
    judge = RelevanceJudge(topic)
    verdicts = judge.judge(list(docs.items()), question or topic)
    return {key: v.topic.score for key, v in zip(docs, verdicts, strict=True)}


def test_a_document_about_the_topic_outranks_a_passing_mention() -> None:
    scores = _judge("capturing warnings", {"about": ABOUT, "passing": PASSING, "unrelated": UNRELATED})
    assert scores["about"] > 0.6
    assert scores["passing"] < scores["about"] / 2
    assert scores["unrelated"] == 0.0


def test_the_threshold_adapts_to_the_best_score_of_the_run() -> None:
    judge = RelevanceJudge("capturing warnings")
    assert judge.threshold() == FLOOR  # nothing seen yet: the floor alone
    judge.judge([("about", ABOUT), ("passing", PASSING)], "capturing warnings")
    strong = judge.threshold()
    assert strong > FLOOR and strong == keep_threshold(judge.best, ratio=KEEP_RATIO)
    # a weak run: its best document is below the floor, so nothing is kept
    weak = RelevanceJudge("capturing warnings")
    [verdict] = weak.judge([("passing", PASSING)], "capturing warnings")
    assert verdict.topic.score < weak.threshold()


def test_reasons_say_where_the_terms_were_found() -> None:
    judge = RelevanceJudge("capturing warnings")
    [verdict] = judge.judge([("about", ABOUT)], "capturing warnings")
    assert any(r.startswith("title names") for r in verdict.topic.reasons)
    [none] = judge.judge([("u", UNRELATED)], "capturing warnings")
    assert none.topic.reasons == ("none of the question's terms appear",)


def test_facet_words_alone_do_not_make_a_source_relevant() -> None:
    limits = Fields(
        title="Limits", headings="Benefits and limits", body="The benefits and limits of a limit. " * 5
    )
    scores = _judge(
        "capturing warnings", {"limits": limits, "about": ABOUT}, "What are the benefits and limits?"
    )
    assert scores["limits"] == 0.0


def test_a_chinese_topic_matches_english_documents_through_the_glossary() -> None:
    parametrize = Fields(
        title="How to parametrize fixtures and test functions",
        headings="pytest.mark.parametrize: parametrizing test functions",
        body="Parametrizing tests runs one test function with several argument sets. " * 4,
    )
    scores = _judge("参数化测试", {"p": parametrize, "u": UNRELATED})
    assert scores["p"] > 0.6 and scores["u"] == 0.0


def test_relevance_to_each_sub_question_is_remembered() -> None:
    judge = RelevanceJudge("capturing warnings")
    judge.judge([("about", ABOUT)], "How are warnings asserted with warns?")
    judge.judge([("about", ABOUT)], "What did version 7.1 fix?")
    served = judge.questions_served("about")
    assert set(served) == {"How are warnings asserted with warns?", "What did version 7.1 fix?"}
    assert served["How are warnings asserted with warns?"] > served["What did version 7.1 fix?"]


def test_a_natural_break_splits_documents_about_it_from_those_mentioning_it() -> None:
    from generator.retrieval.scoring import natural_break

    about, mentions = [0.9, 0.86, 0.8], [0.55, 0.5, 0.48, 0.45, 0.41]
    assert natural_break(about + mentions) == 0.8  # keep the three above the widest drop
    assert natural_break([0.9, 0.5]) == 0.0  # too few scores to read a distribution from
    assert natural_break([0.9, 0.85, 0.8, 0.76, 0.72, 0.69, 0.65]) == 0.0  # no wide drop: no break
