"""A facet of a topic's outline is answered by the stored sections whose heading path treats it, read by one
heading table for English and Chinese (issue 30 items 1 and 2): architecture decision records' headings, a
facet heading nested under another, the status a document states in bold header fields or its own "Status"
section."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import config, entry, make_corpus, offline

from generator.app.topic_target import topic_target
from generator.documents import read_text
from generator.documents.header import clean_heading
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.text.pointers import needs_antecedent
from generator.text.words import tokens
from generator.topic.facet_sections import treating
from generator.topic.headings import decision_record, section_facets
from generator.topic.judge import RelevanceJudge
from generator.topic.opening_passages import opening_passages
from generator.topic.openings import document_opening
from generator.topic.pipeline import run_topic_research
from generator.topic.plan import DocumentOutline, outline_facets
from generator.topic.section_tree import text_sections
from generator.topic.sentences import is_changelog

# --------------------------------------------------------------------------- one heading table


def test_a_proposal_templates_proposed_part_is_how_it_works() -> None:
    """The JEP template's "Proposed Enhancement" (the debugger protocol's design: its report asked for the
    "current state" instead of how it works), like "Proposed solution" and "Proposed design" elsewhere."""
    for heading in (
        "Proposed Enhancement",
        "Proposed solution",
        "Proposed API",
        "Proposed approach",
        "Proposal",
    ):
        assert "how" in section_facets(heading), heading


def test_decision_records_headings_name_the_facets_they_answer() -> None:
    assert section_facets("Context and Problem Statement") == {"motivation"}
    # "Context" says why in a decision record; in a specification it names a subject ("#### Context")
    assert section_facets("Context", record=True) == {"motivation"}
    assert section_facets("Context") == set()
    assert section_facets("Decision Drivers") == {"motivation"}
    assert section_facets("Decision") == {"how"}
    assert section_facets("Decision Outcome") == {"how"}
    assert section_facets("Considered Options") == {"alternatives"}
    assert section_facets("Status") == {"current"}
    assert section_facets("Negative Consequences <!-- optional -->") == {"limits"}
    # a heading naming the word in another sense names no facet
    assert section_facets("Context and classes") == set()


def test_a_context_section_says_why_only_in_a_decision_record() -> None:
    record = "# Use a queue\n\n## Context\n\nJobs are lost when the server restarts.\n\n## Decision\n\nUse a queue.\n"
    spec = "# Events\n\n## Attributes\n\n#### Context\n\nThe context of an event names its source.\n"
    assert decision_record(["Use a queue", "Context", "Decision"]) and not decision_record(["Attributes"])
    concepts = _concepts("queue")
    assert list(treating(record, "motivation", concepts, tokens, own_headings=True, title="Use a queue"))
    assert not list(treating(spec, "motivation", concepts, tokens, own_headings=True, title="Events"))
    outline = DocumentOutline("Events", ("Attributes", "Context"))
    assert "motivation" not in outline_facets([outline], "events")


def test_chinese_headings_name_the_same_facets() -> None:
    assert "motivation" in section_facets("为什么需要它")
    assert section_facets("实现原理") == {"how"}
    assert section_facets("注意事项") == {"limits"}
    assert section_facets("当前状态") == {"current"}
    assert section_facets("备选方案") == {"alternatives"}
    assert section_facets("组件状态") == set()  # a component's state, not the state of the work


def test_a_heading_of_readers_questions_or_weighing_another_thing_asks_limits_or_alternatives() -> None:
    """A page's "## 常见问题" / "## FAQ" / "## Troubleshooting" holds what goes wrong with its subject and what to
    take instead (antd-mobile's InfiniteScroll: "是否支持下拉刷新？" "不要配合 useDebounceFn 使用"); "与
    webpack-bundle-analyzer 的区别", "Difference from blocklist" and "## 如何选择" (umi's MFSU: normal or eager)
    weigh the subject against another. Neither question had been asked: no word of the table was in them."""
    for heading in (
        "常见问题",
        "🎯 常见问题",
        "FAQ",
        "Q & A",
        "Troubleshooting {/*troubleshooting*/}",
        "疑难解答",
    ):
        assert section_facets(heading) == {"questions", "limits"}, heading
    for heading in (
        "与 webpack-bundle-analyzer 的区别 {#diff-webpack-bundle-analyzer}",
        "和 `<Transition>` 的区别 {#differences-from-transition}",
        "Difference from blocklist",
        "How is UnoCSS Different from X?",
        "如何选择",
        "该选哪一个？{#which-to-choose}",
    ):
        assert section_facets(heading) == {"alternatives"}, heading
    for heading in (
        "Select 选择器",
        '`"use no memo"` 如何选择退出优化',
        "ref 和 state 的不同之处",
        "Different sizes",
    ):
        assert not section_facets(heading) & {"limits", "alternatives"}, heading  # a name, a choice inside it
    outline = DocumentOutline("InfiniteScroll 无限滚动", ("何时使用", "示例", "属性", "常见问题"))
    assert "limits" in outline_facets([outline], "无限滚动")


def test_a_proposals_api_section_is_its_design_and_a_component_pages_is_its_use() -> None:
    """Gateway API's GEPs (43 of 62) state their design under "## API" ("### Timeout values", "### GO", "### YAML")
    beside "## Goals", "## Non-Goals" and "## Alternatives"; Kueue's KEPs and KubeVirt's proposals under "### API" /
    "## API" in their design. Read as a component page's props tables, two of three GEP reports asked no "How does …
    work?" and HTTPRoute timeouts' quoted its conformance feature names there, not the two timeouts."""
    gep = (
        "# GEP-1742: HTTPRoute Timeouts\n\n## TLDR\n\nConfigure timeouts for HTTP routes.\n\n## Goals\n\n"
        "- Create some method to configure some timeouts.\n\n## Non-Goals\n\n- Every possible timeout.\n\n"
        "## API\n\nMost implementations can support simple client request timeouts on HTTPRoute rules.\n\n"
        "### Timeout values\n\nBoth timeout fields are Duration values; a zero-valued timeout disables it.\n\n"
        "## Alternatives\n\nTimeouts could be configured using policy attachments.\n"
    )
    concepts = _concepts("HTTPRoute timeouts")
    how = treating(gep, "how", concepts, tokens, own_headings=True, title="GEP-1742: HTTPRoute Timeouts")
    assert [s.heading for s, _ in how][:2] == ["API", "Timeout values"]
    headings = ("TLDR", "Goals", "Non-Goals", "Introduction", "API", "Timeout values", "Alternatives")
    assert "how" in outline_facets(
        [DocumentOutline("GEP-1742: HTTPRoute Timeouts", headings)], "HTTPRoute timeouts"
    )
    # a component page's "## API" is its props tables: how the component is used, never how it works
    page = (
        "# Affix 固钉\n\n## 何时使用\n\n当内容区域比较长时使用。\n\n## API\n\n"
        "| 参数 | 说明 |\n| --- | --- |\n| offsetTop | 距离窗口顶部 |\n"
    )
    for facet, headings_treating in (("use", ["API"]), ("how", [])):
        found = treating(page, facet, _concepts("固钉"), tokens, own_headings=True, title="Affix 固钉")
        assert [s.heading for s, _ in found] == headings_treating
    outline = outline_facets([DocumentOutline("Affix 固钉", ("何时使用", "代码演示", "API", "FAQ"))], "固钉")
    assert "use" in outline and "how" not in outline


def test_a_question_under_readers_questions_is_a_limit_never_why_the_subject_matters() -> None:
    """umi's i18n page: "## FAQ" > "### 为什么不直接使用 formatMessage 这个语法糖？" (it leaves React's life cycle,
    so switching the language re-renders nothing) had answered "为什么重要？"; it is a limit of the subject, and
    the outline, which reads the document's headings without their levels, asks no "why" for it either."""
    text = (
        "# 国际化\n\n## 切换语言\n\n国际化插件用 setLocale 切换语言，页面随之重新渲染。\n\n## FAQ\n\n"
        "### 为什么不直接使用 formatMessage 这个语法糖？\n\n虽然 formatMessage 直接使用起来会非常方便，但是它脱离了 React"
        " 的生命周期，切换国际化语言时无法触发 DOM 的重新渲染。\n"
    )
    concepts = _concepts("国际化")
    why = treating(text, "motivation", concepts, tokens, own_headings=True, title="国际化")
    limits = treating(text, "limits", concepts, tokens, own_headings=True, title="国际化")
    assert not [s.heading for s, _ in why]
    assert "为什么不直接使用 formatMessage 这个语法糖？" in [s.heading for s, _ in limits]
    outline = DocumentOutline("国际化", ("切换语言", "FAQ", "为什么不直接使用 formatMessage 这个语法糖？"))
    facets = outline_facets([outline], "国际化")
    assert "motivation" not in facets and "limits" in facets


def test_what_a_design_changes_is_no_history_of_the_work() -> None:
    assert section_facets("Changes from revision 1") == {"current"}
    for heading in (
        "Language changes",
        "Changes to the parser",
        "Determining Changes",
        "Changeset over files",
    ):
        assert "current" not in section_facets(heading), heading


def test_an_appendix_and_notational_conventions_say_nothing_of_how_it_works() -> None:
    text = (
        "# The retry policy\n\n## Conventions and Terminology\n\nAll conventions and terms used by the core "
        "specification also apply to this document.\n\n## Sending again\n\nA failed request is sent again "
        "after a pause that doubles each time.\n\n## %appendix% Change Log\n\nThe first draft was written in "
        "March and revised in May of the same year.\n"
    )
    found = treating(
        text, "how", _concepts("retry policy"), tokens, own_headings=True, title="The retry policy"
    )
    assert [section.heading for section, _ in found] == ["Sending again"]


def test_the_outline_asks_what_the_analyst_reads_with_the_same_table() -> None:
    outline = DocumentOutline(
        "Retry policy",
        ("Context and Problem Statement", "Considered Options", "Option 1", "Decision Outcome", "Status"),
    )
    assert list(outline_facets([outline], "retry policy")) == [
        "what",
        "motivation",
        "how",
        "alternatives",
        "current",
    ]


# --------------------------------------------------------------------------- the heading path

ADR = (
    "# `retry` as the default\n\n- Deciders: the maintainers\n- Date: 2024-11-02\n\n"
    "## Context and Problem Statement\n\nRequests that fail on a dropped connection are lost today, and every "
    "caller writes its own loop to send them again.\n\n"
    "## Considered Options\n\n### `retry` remains an opt-in policy\n\nThe primary downside is that most "
    "callers never opt in and keep losing requests.\n\n"
    "### `retry` becomes the default policy\n\nEvery request is sent again up to three times, with a "
    "growing pause between the attempts.\n\n"
    "## Decision Outcome\n\nThe retry policy becomes the default: every request is sent again up to three "
    "times unless the caller turns it off.\n\n## Status\n\nPROPOSED\n"
)


def _concepts(topic: str) -> list[set[str]]:
    judge = RelevanceJudge(topic)
    return [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]


def test_an_option_weighed_under_considered_options_does_not_make_the_record_about_something_larger() -> None:
    # the options' headings name every word of the topic; the title only its head word: read with the
    # heading above them they are alternatives, so the record is the subject's and its Context says why
    found = treating(
        ADR, "motivation", _concepts("retry policy"), tokens, own_headings=True, title="retry as the default"
    )
    quoted = [p.text for section, limit in found for p in opening_passages(section, limit)]
    assert quoted and quoted[0].startswith("Requests that fail on a dropped connection are lost today")


def test_a_facet_heading_nested_under_an_overview_answers_its_facet() -> None:
    text = (
        "# The retry policy\n\n## Overview\n\n### Problem Statement\n\nCallers lose requests on dropped "
        "connections.\n\n### Limitations\n\nThe problem of losing requests could apply to any request, but the "
        "policy only solves this problem for idempotent ones.\n\n## Change Description\n\nThe client gains a retry setting.\n"
    )
    found = treating(
        text, "limits", _concepts("retry policy"), tokens, own_headings=True, title="The retry policy"
    )
    quoted = [p.text for section, limit in found for p in opening_passages(section, limit)]
    assert quoted == [
        "The problem of losing requests could apply to any request, but the policy only solves this problem "
        "for idempotent ones."
    ]


def test_what_a_record_says_its_subject_is_never_comes_from_an_option_it_weighed() -> None:
    text = (
        "# Retry\n\n## Considered Options\n\n### Option 1\n\nThe retry policy could stay opt-in, which most "
        "callers never turn on.\n\n## Decision\n\nThe retry policy sends every request again up to three "
        "times.\n"
    )
    opening = document_opening(text, _concepts("retry policy"))
    assert opening == "The retry policy sends every request again up to three times."


def test_a_sentence_naming_its_own_antecedent_stands_alone() -> None:
    assert not needs_antecedent(
        "The problem of choosing a schema by a property's value could apply to any type, but the keyword "
        "only solves this problem for strings."
    )
    assert not needs_antecedent(
        "To let test authors log issues without failing the test, we provide a method for recording such issues:"
    )
    assert needs_antecedent("The current cures for this problem are worse than the disease.")
    assert needs_antecedent("These approaches work well.")


# --------------------------------------------------------------------------- status


def test_a_status_field_set_in_bold_is_read() -> None:
    keep = "# Context parameters\n\n* **Type**: Design proposal\n* **Status**: In progress\n\n## Abstract\n\nText.\n"
    assert read_text(keep, name="KEEP-0367.md").status == "in_progress"
    spec = "# Baggage API\n\n**Status**: [Stable](../document-status.md)\n\n## Overview\n\nText.\n"
    assert read_text(spec, name="api.md").status == "stable"


def test_a_records_own_status_section_states_its_status() -> None:
    assert read_text(ADR, name="adr-011.md").status == "proposed"
    superseded = "# Use X\n\n## Context\n\nWe need X.\n\n## Status\n\nSuperseded by [ADR-0009](adr-0009.md)\n"
    assert read_text(superseded, name="adr-005.md").status == "superseded"
    discussed = (
        "# Use X\n\n## Status\n\n" + "We discussed this for a long while and will decide it later. " * 3
    )
    assert read_text(discussed, name="adr-006.md").status == ""  # a paragraph about it states none


def test_a_templates_comment_is_no_word_of_a_heading() -> None:
    assert clean_heading("Positive Consequences <!-- optional -->") == "Positive Consequences"


def test_a_decision_record_answers_why_from_its_context_and_shows_its_status(kb_root: Path) -> None:
    noise = {
        f"note{n}.md": f"# Release note {n}\n\nRelease {n} changes the default timeout of a policy and the "
        f"logging of each request.\n"
        for n in range(5)
    }
    make_corpus(kb_root, {"adr-011-retry.md": ADR, **noise}, folder="adr")
    paths = KBPaths(kb_root)
    result = run_topic_research(
        paths,
        config(),
        offline(),
        topic_target(paths, entry(topic="retry policy", sources=["local:adr"], verify=False)),
        publish=publish_topic,
    )
    _, report = read_page(paths.topic_dir(result.slug) / "output" / "report.md")
    sections = dict(part.split("\n", 1) for part in report.split("\n## ")[1:])
    why = next(body for heading, body in sections.items() if heading.startswith("Why"))
    assert "lost today" in why  # the record's Context and Problem Statement
    assert "do not answer" not in report
    references = report.split("\n## References")[1]
    assert "proposed" in references  # the status its own Status section states


# --------------------------------------------------------------------------- text as its author wrote it


def test_a_short_html_page_keeps_its_headings_and_list_items() -> None:
    # trafilatura reads a page this short with its baseline extractor, which gives plain lines
    page = (
        "<html><body><h2>Why</h2><p>Reasons:</p><ul><li>It is fast.</li><li>It is small.</li></ul>"
        "</body></html>"
    )
    (section,) = read_text(page, name="why.html").sections
    assert section.heading == "Why"
    assert [(b.kind, b.text) for b in section.blocks] == [
        ("paragraph", "Reasons:"),
        ("item", "It is fast."),
        ("item", "It is small."),
    ]


def test_a_file_only_starting_with_history_is_no_change_history() -> None:
    # a guide to the router's history modes was skipped as a changelog: its topic ended with no sources
    assert not is_changelog("不同的历史模式", "local:docs/guide/essentials/history-mode.md")
    assert not is_changelog("HistoryState", "local:docs/api/interfaces/HistoryState.md")
    assert is_changelog("", "local:HISTORY.md") and is_changelog("", "local:docs/changelog.zh-CN.md")
    assert is_changelog("", "local:CHANGELOG-pre-5.md") and is_changelog("", "local:NEWS")


def test_a_chinese_sentence_opening_on_however_continues_the_one_before() -> None:
    assert needs_antecedent("不过，它在 SEO 中确实有不好的影响。")
    assert needs_antecedent("于是我们在服务器上添加一个简单的回退路由。")


def test_a_decision_record_saying_it_was_superseded_is_not_in_force() -> None:
    from generator.documents.standing import opening_status

    assert opening_status("This ADR has been superseded by ADR-0012.") == "superseded"
    assert opening_status("This decision was withdrawn after the vote.") == "withdrawn"
    assert opening_status("Note: this ADR supersedes some aspects of ADR-15.") == ""  # it is the newer one


def test_a_chinese_sentence_opening_on_a_name_in_lower_case_is_prose() -> None:
    from generator.topic.sentences import is_prose

    assert is_prose("exact 属性已被删除，因为不再存在要修复的警告，所以你应该能够安全地删除它。")
    assert not is_prose("the rest of a clause that was cut from a list item.")


def test_what_a_section_says_after_the_list_its_opening_introduces_is_quoted() -> None:
    text = (
        "# Retry policy\n\n## Non-goals\n\nThe policy does not cover requests made outside the client, such as:"
        "\n\n- requests a proxy sends on its own,\n- requests of another process.\n\nDealing with requests the "
        "client never sees is a hard problem that needs the help of every layer between the caller and the "
        "server.\n"
    )
    (section,) = [s for s in text_sections(text) if s.heading == "Non-goals"]
    assert [p.text for p in opening_passages(section, 2, past_lists=True)] == [
        "Dealing with requests the client never sees is a hard problem that needs the help of every layer "
        "between the caller and the server."
    ]
    # without a list after it, what follows a lead-in is what it introduced, and reads differently alone
    unlisted = text.replace("\n\n- requests", "\n\nrequests")
    (section,) = [s for s in text_sections(unlisted) if s.heading == "Non-goals"]
    assert opening_passages(section, 2, past_lists=True) == []
    # a design section's lead-in introduces its algorithm: what follows the list is a note on it
    (section,) = [s for s in text_sections(text) if s.heading == "Non-goals"]
    assert opening_passages(section, 2) == []


def test_a_list_under_its_headings_label_leading_out_of_itself_does_not_end_the_section() -> None:
    text = (
        "# Memory limit\n\n## Non-goals\n\n**Non-goals:**\n- Accounting for memory outside the runtime, such as:"
        "\n- memory of other processes.\n\nDealing with memory the runtime never allocated is a hard problem "
        "that needs a coordinated effort of every layer.\n"
    )
    (section,) = [s for s in text_sections(text) if s.heading == "Non-goals"]
    assert [p.text for p in opening_passages(section, 2, past_lists=True)] == [
        "Dealing with memory the runtime never allocated is a hard problem that needs a coordinated effort of "
        "every layer."
    ]


def test_a_guides_numbered_case_is_when_to_take_the_subject_and_its_scope_its_limits() -> None:
    # lowcode-engine's codeGeneration.md: "### 场景三：协议不能描述部分代码逻辑（协议功能不足或特别定制化的逻辑）" read as
    # a limit of 出码 (不足: the protocol's shortfall 出码 answers), and "## 出码的适用范围", whose paragraph says
    # "当然，出码也会存在一些限制：…保存即预览的效果。", as nothing: the report's "局限" quoted scenario 3
    from generator.topic.headings import section_facets

    case = "场景三：协议不能描述部分代码逻辑（协议功能不足或特别定制化的逻辑）"
    assert section_facets(case) == {"motivation"}
    assert section_facets("场景一：想要极致的打开速度，降低 LCP/FID") == {"motivation"}
    assert section_facets("出码的适用范围") == {"limits"}
    assert section_facets("场景化配置") == {"use"}  # no case: a usage
    assert section_facets("Scenario: prepublishing a new minor version") == {"use"}  # as before


def test_a_convention_for_what_the_reader_writes_is_no_specification_of_the_subject() -> None:
    # semi-design's Toast report answered "如何工作？" with "## 文案规范" ("保持简洁", "句尾不使用句号"): 规范 names a
    # specification ("协议规范"), and a component page's copy-writing rules specify nothing of the component
    from generator.topic.headings import section_facets

    for heading in ("文案规范", "命名规范", "Commit 提交规范"):
        assert "how" not in section_facets(heading), heading
    assert section_facets("协议规范") == {"how"}
    assert section_facets("1.4 协议版本号规范（A）") == {"how"}


def test_a_non_goal_heading_written_with_a_space_or_in_the_singular_names_the_limits() -> None:
    """Harbor's proposals write "## Non Goal" (6) and "## Non Goals" (4) beside "## Non-Goals" (27): what the
    design leaves out, its limits, however it is spelled; a heading weighing goals with non-goals is both."""
    for heading in ("Non Goal", "Non Goals", "Non-Goal", "Non-Goals", "Goals and Non Goals"):
        assert section_facets(heading) == {"limits"}, heading
    assert section_facets("Goals") == {"motivation"}
