"""A long topic or a chatty model still makes a valid plan (issue 8 item 5): text is trimmed at the boundary."""

from __future__ import annotations

from generator.topic.plan import MAX_TITLE, PlanDraft, fit, heuristic_plan, plan_from_draft, validate_plan

LONG_TOPIC = (
    "How do distributed storage engines that replicate write-ahead logs across availability zones keep "
    "linearizable reads cheap while tolerating network partitions, clock skew, slow disks, noisy neighbours, "
    "rolling upgrades, schema migrations and operator mistakes without giving up throughput or tail latency"
)


def test_fit_cuts_at_a_word_and_says_so() -> None:
    assert fit("short title") == "short title"
    cut = fit("word " * 100, 50)
    assert len(cut) <= 50 and cut.endswith("…") and not cut.endswith(" …")
    assert fit("a\nmulti   line\ttitle") == "a multi line title"


def test_a_topic_of_280_plus_characters_makes_a_plan() -> None:
    assert len(LONG_TOPIC) > 280
    plan = heuristic_plan(LONG_TOPIC)
    assert plan.steps and all(len(s.title) <= MAX_TITLE and len(s.question) <= MAX_TITLE for s in plan.steps)
    validate_plan(plan.model_dump())  # what is saved reloads


def test_a_model_draft_with_long_titles_and_too_many_steps_is_trimmed() -> None:
    draft = PlanDraft.model_validate(
        {
            "sub_queries": [f"Question {n}: " + "why " * 120 for n in range(11)],
            "steps": [
                {"title": "Step " + "x" * 400, "question": "q " * 300, "query": "k " * 300} for _ in range(15)
            ],
        }
    )
    assert len(draft.sub_queries) == 8 and len(draft.steps) == 12
    plan = plan_from_draft(LONG_TOPIC, draft)
    assert len(plan.steps) == 12
    assert all(len(s.title) <= MAX_TITLE and len(s.query) <= MAX_TITLE for s in plan.steps)


def test_a_chinese_plan_titles_its_figures_in_chinese() -> None:
    """The no-model plan's figures step heads the report's figures table ("### Figures reported in the
    sources" under "## 数据"): a Chinese report over Chinese sources (vue-cli's 现代模式) or over English ones
    (tikv's coprocessor cache, `--lang zh`, whose page says deepkb writes its headings in Chinese) showed it in
    English."""
    zh = heuristic_plan("协处理器缓存", lang="zh").steps[-1]
    en = heuristic_plan("coprocessor cache").steps[-1]
    assert zh.step_type == en.step_type == "processing"
    assert zh.title == "来源中报告的数字"
    assert en.title == "Figures reported in the sources"


def test_a_question_topic_asks_about_the_subject_its_verb_follows() -> None:
    # after "a" the subject is one thing: the first word ending in a third person's "s" is its verb
    plan = heuristic_plan("how a beacon chain light client syncs using sync committees")
    assert plan.sub_queries[0] == "What is beacon chain light client?"
    assert (
        heuristic_plan("how a garbage collector finds roots").sub_queries[0] == "What is garbage collector?"
    )
    # a name ending in "s" is no verb, and a question without one keeps its key phrase
    assert heuristic_plan("how a bus works").sub_queries[0] == "What is bus?"
    assert heuristic_plan("How a Pod is scheduled").sub_queries[0] == "What is Pod?"
