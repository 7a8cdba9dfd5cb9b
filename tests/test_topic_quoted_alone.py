"""A passage quoted reads right alone: "What is X?" opens on what the subject's own section says of it, a
label over what follows it is never a list of its own, and a summary sentence names what the topic asks."""

from __future__ import annotations

from generator.retrieval.scoring import tokens
from generator.topic.findings import Claim
from generator.topic.report import ReportSection, leads, topic_words
from generator.topic.sentences import list_quote
from generator.topic.subject_headings import subject_opening

# Apollo's user guide (docs/zh/portal/apollo-user-guide.md, shortened): the guide to 灰度发布 says what it gives
# first; the step of its walk-through titled "灰度发布" opens on the state the walk-through has reached
GUIDE = """# 名词解释

Apollo 的用户使用指南。

# 五、灰度发布使用指南

通过灰度发布功能，可以实现：
- 对于一些对程序有比较大影响的配置，可以先在一个或者多个实例生效，观察一段时间没问题后再全量发布配置。
- 对于一些需要调优的配置参数，可以通过灰度发布功能来实现A/B测试。

## 5.1 创建灰度

首先点击application namespace右上角的`创建灰度`按钮。

## 5.5 灰度发布

配置规则已经生效，不过灰度配置还没有发布。切换到`配置`Tab。
"""


def _concepts(subject: str) -> list[set[str]]:
    return [{w} for w in tokens(subject)]  # 灰度 · 发布, each a concept of its own, as the run's terms are


def test_what_the_subject_is_comes_from_the_passage_spelling_it_in_its_guide() -> None:
    said = subject_opening(GUIDE, _concepts("灰度发布"), tokens, "名词解释", ["灰度发布"])
    assert said is not None
    assert said.text == "通过灰度发布功能，可以实现："
    assert said.items[0].startswith("对于一些对程序有比较大影响的配置")


def test_without_the_subject_spelled_the_first_section_titled_after_it_still_answers() -> None:
    said = subject_opening(GUIDE, _concepts("灰度发布"), tokens, "名词解释")
    assert said is not None and said.text.startswith("配置规则已经生效")


def test_a_lone_label_under_a_lead_in_is_no_list_to_quote() -> None:
    # Harbor's Non-Blocking GC proposal: each component a label with its paragraph under it
    assert list_quote("The components of a OCI artifact:\n- Configuration file", opening=True) is None
    assert list_quote("API:\n- Delete Blob", opening=True) is None
    assert list_quote("两阶段提交协议的演变：\n- 二阶段-回滚", opening=True) is None
    # a list of one point that says something is quoted with its lead-in, as a list of labels is
    one = list_quote("The basic flow is:\n- Mark the GC candidates in GC job.", opening=True)
    assert one is not None and one.items == ("Mark the GC candidates in GC job.",)
    two = list_quote("The components of a OCI artifact:\n- Configuration file\n- Layers", opening=True)
    assert two is not None and two.items == ("Configuration file", "Layers")


def test_a_summary_sentence_names_what_the_topic_asks() -> None:
    topic = "Apollo 的灰度发布怎么用？"
    definition = Claim("通过灰度发布功能，可以先在一个或者多个实例生效。", ["guide"], 1.0)
    step = Claim("与主版本的值和灰度版本已发布的值对比，确认将要发布的灰度配置。", ["guide"], 0.8)
    warning = Claim(
        "请注意，修改系统参数可能会影响搜索功能的性能，因此在修改之前应该进行充分的测试。", ["guide"], 0.9
    )
    sections = [ReportSection("怎么用？", [step]), ReportSection("有哪些局限？", [warning])]
    summary = leads(sections, opening=[definition], asking=topic_words(topic))
    assert summary == [definition, step]
    assert leads(sections, opening=[definition]) == [definition, warning, step]
    # the question as asked is answered in its own words, naming the topic's or not ("我们提供了一系列的 filter")
    asked = leads(sections, opening=[definition], asked={"有哪些局限？"}, asking=topic_words(topic))
    assert asked == [definition, warning, step]
