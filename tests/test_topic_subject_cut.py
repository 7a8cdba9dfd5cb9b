"""The subject a question is about is a noun phrase: never a verb phrase, trailing punctuation, a conjunction or
a second clause (issue 30; bench/heldout_s42_check.md "What failed" item 2, bench/subjects.py)."""

from __future__ import annotations

from generator.topic.defining import named_as, plan_subject, titled_as
from generator.topic.plan import heuristic_plan


def test_an_english_subject_ends_before_the_comma_of_a_second_question() -> None:
    # "What is IRCv3 message tags,?" was the heading
    topic = "What are IRCv3 message tags, and what limits apply to client-only tags?"
    assert plan_subject(topic) == "IRCv3 message tags"
    assert heuristic_plan(topic).sub_queries[0] == "What are IRCv3 message tags?"
    assert plan_subject("What is a span batch, and how is it encoded?") == "span batch"


def test_what_a_name_does_something_to_ends_where_a_preposition_says_how_or_to_what() -> None:
    # "What does existing cloud resource without managing or deleting it involve?" was the heading
    observe = "How can Crossplane observe an existing cloud resource without managing or deleting it?"
    assert plan_subject(observe) == "existing cloud resource"
    publish = "How does Crossplane publish connection details to external secret stores such as Vault?"
    assert plan_subject(publish) == "connection details"
    assert plan_subject("How does CometBFT choose the block proposer for each round?") == "block proposer"


def test_a_name_in_code_the_question_gives_its_kind_is_the_subject() -> None:
    # "IRC client fetch message history": "with" was read as the verb after the subject
    topic = "How does an IRC client fetch message history with the CHATHISTORY command?"
    assert plan_subject(topic) == "CHATHISTORY"
    assert plan_subject("How does a client change its realname with the SETNAME command?") == "SETNAME"
    assert plan_subject(
        "How does the since field of a CKB transaction input restrict when it can be committed?"
    ) == (
        "since field"  # a plain word is no name in code
    )


def test_a_title_naming_a_thing_in_code_and_its_kind_is_titled_after_it() -> None:
    # IRCv3 specifies CHATHISTORY in extensions/chathistory.md and batches/chathistory.md; the batch type's page
    # was never stored (recall 50 %)
    assert named_as(
        "chathistory Batch Type", "CHATHISTORY", "ircv3-spec", "local:docs/batches/chathistory.md"
    )
    assert named_as(
        "chathistory Extension", "CHATHISTORY", "ircv3-spec", "local:docs/extensions/chathistory.md"
    )
    assert titled_as("setname Extension", "SETNAME")
    assert not titled_as("chathistory Extension Pagination Rules", "CHATHISTORY")  # more than its kind
    assert not titled_as("monitor Extension", "monitor")  # a plain word: "Extension" may say what it is about


def test_a_question_asking_how_someone_does_something_asks_about_what_it_is_done_to() -> None:
    assert plan_subject("How do I set up two-factor authentication for a GitLab account?") == (
        "two-factor authentication"
    )
    assert plan_subject("What is the best way to prune an apple tree in winter?") == "apple tree"
    assert plan_subject("How do I center a div with CSS grid?") == "div"
    question = (
        "What do PrepareProposal and ProcessProposal do in ABCI 2.0 and what must an application guarantee?"
    )
    assert plan_subject(question) == "PrepareProposal and ProcessProposal"


def test_a_chinese_subject_keeps_no_second_verb_phrase_and_no_conjunction() -> None:
    # "MyBatis-Flex 配置多数据源并在运行时切换数据源" (tags with "并"), "…是做什么的，怎么为模型配置"
    assert plan_subject("MyBatis-Flex 怎么配置多数据源并在运行时切换数据源？") == "MyBatis-Flex 多数据源"
    assert plan_subject("Spring Boot 怎么配置多数据源") == "Spring Boot 多数据源"
    assert (
        plan_subject("OpenCompass 的 Meta Template 是做什么的，怎么为模型配置？")
        == "OpenCompass 的 Meta Template"
    )
    assert plan_subject("React 的 useEffect 清理函数什么时候执行") == "React 的 useEffect 清理函数"
    plan = heuristic_plan("MyBatis-Flex 怎么配置多数据源并在运行时切换数据源？", lang="zh")
    assert plan.sub_queries[0] == "MyBatis-Flex 多数据源是什么？"


def test_a_chinese_verb_saying_little_of_its_own_is_no_part_of_the_subject() -> None:
    assert plan_subject("Sa-Token 怎么做权限校验") == "Sa-Token 权限校验"
    assert plan_subject("Django 的 ORM 怎么做数据库迁移") == "Django 的 ORM 数据库迁移"
    assert plan_subject("arthas 怎么生成火焰图") == "arthas 火焰图"
    # 把 names what the verb after it acts on: "Gin 把请求参数绑定到结构体并校验" was the subject
    assert plan_subject("Gin 怎么把请求参数绑定到结构体并校验") == "Gin 请求参数绑定"


def test_a_chinese_place_and_purpose_around_what_is_used_are_no_part_of_it() -> None:
    # "在 OpenCompass 里大模型作为评判器（LLM Judge）来评估回答" was the subject
    topic = "在 OpenCompass 里怎么用大模型作为评判器（LLM Judge）来评估回答？"
    assert plan_subject(topic) == "OpenCompass 大模型作为评判器（LLM Judge）"
    assert plan_subject("Excel 里怎么用 VLOOKUP 跨表查找数据？") == "Excel VLOOKUP"
