"""A report section is built from the subject's own account first (issue 30): the account's parts titled
after the subject say how it works; another document answers only where it speaks of the subject (naming it,
in a section titled after it), never with its own design; and a quote reads right alone."""

from __future__ import annotations

from dataclasses import replace

from topic_fakes import offline

from generator.topic import workspace as wsp
from generator.topic.account import subject_first
from generator.topic.analyze import analyze
from generator.topic.candidate import Candidate
from generator.topic.findings import Catalog
from generator.topic.judge import RelevanceJudge
from generator.topic.plan import Plan, Step
from generator.topic.section_candidates import subject_sections
from generator.topic.sentences import leans_back

ACCOUNT = (
    "# Context parameters\n\n"
    "## Abstract\n\n"
    "Context parameters let a function declare values it receives implicitly from its caller's scope.\n\n"
    "## Declarations with context parameters\n\n"
    "Function and property declarations get support for context parameters. Context parameters are declared "
    "with the context keyword followed by a list of parameters, each of the form name: Type.\n\n"
    "## Use cases\n\n"
    "### Context parameters as scopes\n\n"
    "A logger passed down through many layers of calls is a typical context parameter.\n\n"
    "## Technical design\n\n"
    "### Syntax\n\n"
    "The grammar gains a context modifier that may appear before any other modifier of a declaration.\n"
)
OTHER = (
    "# Suspend functions with a coroutine context parameter\n\n"
    "## Proposal\n\n"
    "The compiler passes the coroutine context of a suspend function as an implicit context parameter, "
    "so that a suspend function body reads it without a call to coroutineContext.\n\n"
    "## Context parameters in suspend functions\n\n"
    "Context parameters of a suspend function are resolved like those of any other function, before the "
    "coroutine context parameter is added.\n"
)


def _source(sid: str, title: str, text: str) -> wsp.RawSource:
    return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)


def _plan(topic: str, facets: dict[str, str]) -> Plan:
    return Plan(
        topic=topic,
        sub_queries=list(facets),
        steps=[Step(id=f"s{n}", title=f, question=q, facet=f) for n, (q, f) in enumerate(facets.items())],
    )


def test_how_the_subject_works_opens_from_its_own_part_titled_after_it() -> None:
    account = _source("local-a", "Context parameters", ACCOUNT)
    found = subject_sections([account], RelevanceJudge("context parameters"))
    assert [c.text for c in found] == [
        "Function and property declarations get support for context parameters. Context parameters are "
        "declared with the context keyword followed by a list of parameters, each of the form name: Type."
    ]  # not "### Context parameters as scopes", a use case under "## Use cases"
    how = "How do context parameters work?"
    [section] = analyze(
        offline(), _plan("context parameters", {how: "how"}), Catalog([account]), lang="en"
    ).sections
    assert section.claims[0].text.startswith("Function and property declarations get support")


def test_another_documents_design_never_answers_how_the_subject_works_its_section_on_the_subject_does() -> (
    None
):
    account = _source("local-a", "Context parameters", ACCOUNT)
    other = _source("local-o", "Suspend functions with a coroutine context parameter", OTHER)
    how = "How do context parameters work?"
    [section] = analyze(
        offline(), _plan("context parameters", {how: "how"}), Catalog([account, other]), lang="en"
    ).sections
    quoted = " ".join(c.text for c in section.claims)
    assert "The compiler passes the coroutine context" not in quoted  # the other proposal's own design
    assert all(c.sources in (["local-a"], ["local-o"]) for c in section.claims)


def test_a_proposal_building_on_the_subject_answers_only_in_its_section_on_the_subject() -> None:
    def passage(text: str, source: str, under: bool = False) -> Candidate:
        return replace(Candidate(text, source, 1.0, 0.5, 0.1), treats=True, under_subject=under)

    theirs = passage(
        "Since the main goal is suspend properties, we could just allow suspend properties.", "o"
    )
    named_elsewhere = passage("Context parameters could be modelled as implicit value parameters.", "o")
    named_there = passage("Context parameters could be modelled as implicit value parameters.", "o", True)
    own = replace(passage("Context receivers were dropped.", "s"), treats=False)  # not a section on it
    pool = [theirs, named_elsewhere, named_there, own]
    for facet in ("alternatives", "how", "use", "motivation"):
        chosen = subject_first(pool, facet, {"s"}, "context parameters", extending={"o"})
        assert chosen == [named_there, own]
    # a document not titled after the subject tells how it works with the mechanism it describes, and why
    # it matters only where it names it
    assert subject_first(pool, "how", {"s"}, "context parameters") == pool
    assert subject_first(pool, "motivation", {"s"}, "context parameters") == [
        named_elsewhere,
        named_there,
        own,
    ]
    assert subject_first(pool, "how", set(), "context parameters") == pool  # no account: all may answer


def test_a_quote_leaning_on_what_it_leaves_out_is_not_quoted() -> None:
    assert leans_back("Context parameters lift two of the main restrictions of this mode of use:")
    assert leans_back("To address this deficiency, this document proposes vocabularies as a concept.")
    assert leans_back("In the end, all issues above are about one and the same thing.")
    assert leans_back("This approach would not work for classes.")
    # what the sentence names itself, the document speaking of itself, and "above" a number stand alone
    assert not leans_back("Inline classes create wrappers for a value, and such wrappers are fully inlined.")
    assert not leans_back("This is an updated proposal for KEEP-259, formerly known as context receivers.")
    assert not leans_back("The proposal in this document adds vocabularies to the core specification.")
    assert not leans_back("A request above 10 MB is rejected by the server.")
    assert not leans_back("At this point, properties with context parameters may not use delegation.")
    # a design document naming its own kind ("This JEP", "This ADR") is the document quoted
    assert not leans_back("This JEP introduces kernel subshells to allow for concurrent shell requests.")
    assert not leans_back("This ADR records how database migrations are run.")
    assert leans_back("This HTTP header carries the trace's state.")


def test_a_section_leaning_on_what_it_leaves_out_quotes_the_next_passage_instead() -> None:
    text = (
        "# Stores\n\n## Summary\n\nA store holds a value and tells its subscribers when it changes.\n\n"
        "## Motivation\n\n"
        "Components sharing state pass it through every layer of the tree in between.\n\n"
        "## Drawbacks\n\n"
        "Because this approach uses subscriptions, every reader must unsubscribe when it is destroyed.\n\n"
        "A store read outside a component must be unsubscribed by hand, or it leaks.\n"
    )
    source = _source("local-s", "Stores", text)
    limits = "What are the limits of stores?"
    [section] = analyze(offline(), _plan("stores", {limits: "limits"}), Catalog([source]), lang="en").sections
    assert [c.text for c in section.claims] == [
        "A store read outside a component must be unsubscribed by hand, or it leaks."
    ]


def test_the_one_section_on_alternatives_answers_though_its_opening_leans_on_its_heading() -> None:
    text = (
        "# Database Migrations\n\n## Context\n\nSchemas change as an application grows.\n\n"
        "### Prior Art\n\nSeveral systems to do this already exist. The best known is probably Rails' Active "
        "Record Migrations, which makes schema changes to a relational database.\n\n"
        "## Decision\n\nEach migration is an entity in the config.\n"
    )
    source = _source("local-m", "Database Migrations", text)
    alternatives = "What alternatives to database migrations were considered?"
    plan = _plan("database migrations", {alternatives: "alternatives"})
    [section] = analyze(offline(), plan, Catalog([source]), lang="en").sections
    assert [c.text for c in section.claims] == [
        "Several systems to do this already exist. The best known is probably Rails' Active Record Migrations, "
        "which makes schema changes to a relational database."
    ]


def test_a_headings_html_comment_is_no_word_of_it() -> None:
    from generator.documents.header import clean_heading
    from generator.documents.plain import markup_prose

    assert clean_heading("Decision Drivers <!-- optional -->") == "Decision Drivers"
    assert clean_heading("Outline <!-- omit in toc -->") == "Outline"
    text = markup_prose("## Decision Drivers <!-- optional -->\n\n- speed\n- safety\n", structure=True)
    assert "<!--" not in text and "**Decision Drivers:**" in text


def test_a_passage_leaning_on_the_paragraph_before_it_is_quoted_with_it() -> None:
    from generator.topic.source_quotes import quotes_of

    text = (
        "# Stores\n\n## Detailed design\n\n"
        "A store keeps its value in a plain object that any module can import.\n\n"
        "Because these plain objects hold no functions, a store can be serialized on the server.\n"
    )
    found = [q.text for q, _, _ in quotes_of(_source("local-s", "Stores", text), "store", {"store"})]
    assert (
        "A store keeps its value in a plain object that any module can import. Because these plain objects "
        "hold no functions, a store can be serialized on the server."
    ) in found
    assert (
        "Because these plain objects hold no functions, a store can be serialized on the server." not in found
    )


def test_a_document_the_account_builds_on_may_tell_how_the_subject_works_one_building_on_it_may_not() -> None:
    from generator.topic.account import building_on

    account = _source(
        "local-a",
        "Element modifiers",
        "# Element modifiers\n\n## Motivation\n\nThis RFC builds on top of low-level primitives introduced in "
        'RFC #373 "Element Modifier Manager".\n',
    )
    managers = _source("local-m", "Element Modifier Managers", "# Element Modifier Managers\n\nManagers.\n")
    render = _source("local-r", "Render element modifiers", "# Render element modifiers\n\nThree of them.\n")
    guide = _source("local-g", "Glimmer components", "# Glimmer components\n\nComponents.\n")
    sources = [account, managers, render, guide]
    assert building_on(sources, {"local-a"}, "element modifiers") == {"local-r"}
    assert building_on(sources, set(), "element modifiers") == set()


def test_a_lead_in_pointing_at_its_example_and_the_subject_named_as_this_api_read_alone() -> None:
    from generator.topic.passage_pools import reads_alone

    example = replace(
        Candidate("Here is another example Dan mentioned on Twitter:", "s", 1.0, 0.5, 0.1), code="x"
    )
    assert reads_alone(example)
    assert not reads_alone(replace(example, code=""))  # a pointer at nothing quoted
    assert not leans_back("This API increases the surface area of React slightly, for the benefit it brings.")


def test_a_list_that_only_points_elsewhere_is_no_passage() -> None:
    from generator.topic.sentences import list_quote

    # a list of links or of other documents' numbers and titles says where to read on, nothing of the subject
    assert list_quote("**Related Proposals:**\n- A9: Server-side Connection Management") is None
    assert (
        list_quote(
            "**GitHub Issues:**\n- Master issue by Johan Mabille on the steps towards supporting the Debug "
            "Adapter Protocol in Jupyter: https://github.com/jupyter/jupyter_client/issues/446"
        )
        is None
    )
    assert list_quote("This builds on earlier gRFCs:\n- gRFC A27: xDS-based Global Load Balancing") is None
    # where the implementations live (ICS-20's "## Example Implementations")
    assert (
        list_quote(
            "Example Implementations:\n- Implementation of ICS 20 in Go can be found in ibc-go repository.\n"
            "- Implementation of ICS 20 in Rust can be found in ibc-rs repository.",
            opening=True,  # right under "## Example Implementations", whose label it repeats
        )
        is None
    )
    # a list saying something, a link in one item or not, is quoted with its label
    quote = list_quote("**Drawbacks:**\n- It adds a keyword.\n- Tools must learn it, see https://x.example/z")
    assert quote is not None and quote.items == (
        "It adds a keyword.",
        "Tools must learn it, see https://x.example/z",
    )


CONTENT_ADDRESSED = (
    "# Content-addressed paths\n\n"
    "## Summary\n\n"
    "Content-addressed derivations have output paths computed from the content of their build output "
    "instead of from their inputs.\n\n"
    "## Motivation\n\n"
    "Having a content-adressed store makes early cutoff possible: a rebuild that yields the same output "
    "stops the rebuild of everything depending on it.\n\n"
    "## Detailed design\n\n"
    "The store records a realisation for each output that maps the output id to its path.\n\n"
    "### Resolved derivations\n\n"
    "A derivation whose inputs are replaced by their realised paths is its resolved form.\n\n"
    "## Drawbacks\n\n"
    "**Drawbacks:**\n"  # as stored: a list right under its heading is led in by the heading
    "- The caching model of the store needs some modifications.\n"
    "- Nothing enforces which derivations may safely be marked content-addressed.\n\n"
    "## Alternatives\n\n"
    "An intensional store is another proposal with the same end-goal, changing the whole model at once.\n"
)


def test_the_defining_document_titled_in_other_words_answers_why_limits_and_alternatives() -> None:
    # its title does not name the subject's second word, and a part of its design does ("### Resolved
    # derivations"): it is still the subject's own account, not a document about something larger whose
    # motivation is another subject's
    account = replace(_source("local-c", "Content-addressed paths", CONTENT_ADDRESSED), relevance=0.9)
    other = replace(
        _source(
            "local-o",
            "Release schedule",
            "# Release schedule\n\n## Motivation\n\nReleases happen twice a year.\n\n"
            "## Content-addressed derivations\n\nThe release notes list content-addressed derivations "
            "among experimental features.\n",
        ),
        relevance=0.3,
    )
    why, limits, alternatives = (
        "Why content-addressed derivations?",
        "What are the limits of content-addressed derivations?",
        "What alternatives to content-addressed derivations were weighed?",
    )
    plan = _plan(
        "content-addressed derivations", {why: "motivation", limits: "limits", alternatives: "alternatives"}
    )
    sections = analyze(offline(), plan, Catalog([account, other]), lang="en").sections
    quoted = {s.question: " ".join(" ".join([c.text, *c.items]) for c in s.claims) for s in sections}
    assert "early cutoff" in quoted[why]
    assert "Releases happen twice a year" not in quoted[why]  # the release schedule's own motivation
    assert "caching model" in quoted[limits]
    assert "same end-goal" in quoted[alternatives]


def test_an_account_whose_title_names_none_of_the_subject_stays_a_larger_document() -> None:
    from generator.retrieval.scoring import tokens
    from generator.topic.facet_sections import treating

    concepts = [{"posix"}, {"platform"}, {"hook"}]
    configuration = (
        "# Configuration\n\n## Motivation\n\nA container needs one file saying how to run it.\n\n"
        "## POSIX-platform Hooks\n\nHooks run commands at points of the container's lifecycle.\n"
    )
    why = [
        s.heading
        for s, _ in treating(
            configuration,
            "motivation",
            concepts,
            tokens,
            own_headings=True,
            title="Configuration",
            account=True,
        )
    ]
    assert why == []  # the configuration file's own motivation, not the hooks'
    hooks = configuration.replace("# Configuration", "# Platform hooks")
    why = [
        s.heading
        for s, _ in treating(
            hooks, "motivation", concepts, tokens, own_headings=True, title="Platform hooks", account=True
        )
    ]
    assert why == ["Motivation"]  # titled with part of the subject's name: the subject's own account


def test_a_proposal_building_on_a_subject_another_title_names_better_is_not_its_account() -> None:
    from generator.topic.account import names_most

    judge = RelevanceJudge("async/await syntax")
    trait = _source("local-t", "async fn in trait", "# async fn in trait\n\nAsync fns in traits.\n")
    syntax = _source("local-s", "async await", "# async await\n\nAsync and await syntax.\n")
    assert names_most({"local-t"}, [trait, syntax], judge) == set()  # builds on "async await"
    assert names_most({"local-s"}, [trait, syntax], judge) == {"local-s"}
    paths = _source("local-c", "Content-addressed paths", CONTENT_ADDRESSED)
    assert names_most({"local-c"}, [paths], RelevanceJudge("content-addressed derivations")) == {"local-c"}


TASK_BUILDER = (
    "# Task builder\n\n"
    "# Motivation\n\n"
    "Tasks need a builder with low-allocation generated code.\n\n"
    "# Detailed design\n\n"
    "We add support for tasks along the lines of TaskBuilder.fs. This supports\n"
    "- The standard computation expression features for imperative code\n"
    "- let! and return! on task values\n\n"
    "## Feature: Respecting Zero methods in computation expressions\n\n"
    "```fsharp\nbuilder.Zero()\n```\n"
)


def test_the_account_titled_with_part_of_the_subject_says_how_it_works_in_its_design_section() -> None:
    # "Task builder" names one word of "task computation expressions", and a section of it names the others: its
    # "# Detailed design" is still how the subject works, opened by its lead-in with the list it breaks into
    from generator.retrieval.scoring import tokens
    from generator.topic.facet_sections import treating
    from generator.topic.opening_passages import opening_passages

    concepts = [{"task"}, {"computation"}, {"expression"}]
    how = [
        (section, limit)
        for section, limit in treating(
            TASK_BUILDER, "how", concepts, tokens, own_headings=True, title="Task builder", account=True
        )
    ]
    assert [s.heading for s, _ in how][:1] == ["Detailed design"]
    opening = opening_passages(how[0][0], how[0][1])[0]
    assert opening.text == "We add support for tasks along the lines of TaskBuilder.fs. This supports"
    assert opening.items[1] == "let! and return! on task values"


def test_a_design_section_opening_on_the_model_it_replaces_is_quoted_after_it() -> None:
    from generator.topic.opening_passages import opening_passages
    from generator.topic.section_tree import text_sections

    design = next(
        s
        for s in text_sections(
            "# Content-addressed paths\n\n## Detailed design\n\n"
            "When it comes to computing output paths, the current Nix model, known as the input-addressed "
            "model, works as follows:\n"
            "- An expression is evaluated to a derivation\n"
            "- The output paths are computed from a hash of the derivation\n\n"
            "The input-addressed designation comes from the way the output paths are computed from the inputs "
            "of the build.\n\n"
            "The idea behind the content-addressed model is that rather than deriving these output paths from "
            "the inputs of the build, we derive them from the output.\n"
        )
        if s.heading == "Detailed design"
    )
    # the model it replaces is passed over; the paragraph leaning on the one before it is quoted with it
    (passage,) = opening_passages(design, 1)
    assert passage.text.startswith("The input-addressed designation comes from")
    assert passage.text.endswith("we derive them from the output.")


def test_a_comment_in_a_code_block_is_never_quoted_as_a_sentence() -> None:
    """mpx's provide/inject page: "使用 Symbol 创建唯一注入名，或再结合命名空间 export const InjectionKeys = {…} // 4."
    was quoted as a sentence of the page — a comment of its example, after an empty line of the block."""
    from generator.documents import read_text
    from generator.documents.plain import plain_prose
    from generator.topic.source_quotes import quotes_of

    markdown = (
        "# 依赖注入\n\n## 避免注入名冲突\n\n推荐在一个单独的文件中导出注入名，统一注入名的命名和管理规范。\n\n"
        "```ts\n// 1. 使用枚举类型管理注入名\nexport const InjectionKeys = { user: 'user' }\n\n"
        "// 3. 使用 Symbol 创建唯一注入名，或再结合命名空间\nexport const InjectionKeys = { user: Symbol('user') }\n"
        "    \n// 4. 自行实现类似 Symbol 的注入名\nexport const createInjectionKey = (module, key) => key\n```\n"
    )
    text = plain_prose(read_text(markdown, name="provide-inject.md"), structure=True)
    found = [q.text for q, _, _ in quotes_of(_source("local-p", "依赖注入", text), "注入名", {"注入"})]
    assert any(quote.startswith("推荐在一个单独的文件中导出注入名") for quote in found)
    assert not [quote for quote in found if "InjectionKeys" in quote or "Symbol" in quote]


USAGE_ZH = (
    "# 使用出码功能\n\n"
    "## 出码简述\n\n"
    "所谓出码，即将低代码编排出的 schema 进行解析并转换成最终可执行的代码的过程。\n\n"
    "## 如何使用\n\n"
    "### 在服务端出码\n\n"
    "将生成的代码写入到磁盘中，也可以生成一个 zip 包。\n"
)
DESIGN_ZH = (
    "# 出码模块设计\n\n"
    "本篇主要讲解了出码模块实现的基本思路与一些概念。\n\n"
    "## 出码流程详解\n\n"
    "### 协议解析\n\n"
    "协议解析主要是将输入的 schema 解析成更适合出码模块内部使用的数据结构的过程。\n\n"
    "### 后置优化\n\n"
    "后置优化目前主要是用 prettier 这个代码格式化工具格式化生成的文件。\n"
)


def test_a_chinese_questions_subject_titles_its_account_and_a_page_on_its_design_says_how_it_works() -> None:
    # lowcode-engine's "出码是怎么实现的，怎么使用出码功能": no title names 实现 and 功能 too, so only the most relevant
    # page, 使用出码功能, defined the report, and 出码模块设计 read as a proposal building on it: "出码如何工作？" said
    # "已存储的来源没有回答这个问题" while its 协议解析 … 后置优化 were stored
    from generator.topic.account import building_on
    from generator.topic.subject_sources import defining_sources

    usage = replace(_source("local-u", "使用出码功能", USAGE_ZH), relevance=0.76)
    design = replace(_source("local-d", "出码模块设计", DESIGN_ZH), relevance=0.69)
    topic = "出码是怎么实现的，怎么使用出码功能"
    assert defining_sources([usage, design], RelevanceJudge(topic)) == {"local-u", "local-d"}
    assert building_on([usage, design], {"local-u"}, "出码") == set()  # its design, not a change to it
    how = "出码如何工作？"
    [section] = analyze(offline(), _plan(topic, {how: "how"}), Catalog([usage, design]), lang="zh").sections
    assert section.claims and section.claims[0].text.startswith("协议解析主要是")
    assert section.claims[0].sources == ["local-d"]


FORM_ZH = (
    "# Form 表单\n\n"
    "## 代码演示\n\n"
    "### 使用 Form.Slot 放置自定义组件\n\n"
    "当你的自定义组件需要与 Field 组件保持同样的布局样式时，你可以通过 Form.Slot 放置你的自定义组件。\n\n"
    "### 导出 Label、ErrorMessage 使用\n\n"
    "如果你需要 Form.Label、Form.ErrorMessage 模块自行组合使用，可以从 Form 中导出。\n\n"
    "### 配置初始值与校验规则\n\n"
    "你可以通过 rules 为每个 Field 表单控件配置校验规则，Form 内部的校验库基于 async-validator。\n\n"
    "### 静默校验\n\n"
    "当你需要获取校验结果但不想触发 UI 更新时，可以通过 formApi.validate({ silent: true }) 实现。\n"
)


def test_the_sections_naming_what_the_title_leaves_out_of_the_subject_say_how_it_is_used_first() -> None:
    # semi-design's "Semi Form 表单校验怎么做": "如何使用" quoted the sections headed 使用 (Form.Slot, Label and
    # ErrorMessage), none on validation, while "配置初始值与校验规则" and "静默校验" were stored: the title "Form
    # 表单" names 表单 of 表单校验, and those headings name 校验
    from generator.text.words import tokens
    from generator.topic.section_tree import text_sections
    from generator.topic.subject_headings import completing_headings

    judge = RelevanceJudge("Semi Form 表单校验怎么做")
    forms = [t.forms for t in judge.terms(judge.topic)]
    completing = completing_headings(text_sections(FORM_ZH), forms, tokens, "Form 表单")
    assert [s.heading for s in completing] == ["配置初始值与校验规则", "静默校验"]
    assert completing_headings(text_sections(FORM_ZH), forms, tokens, "Form 表单校验") == []  # named whole
    page = _source("local-f", "Form 表单", FORM_ZH)
    use = "如何使用Semi Form 表单校验？"
    plan = _plan("Semi Form 表单校验怎么做", {use: "use"})
    [section] = analyze(offline(), plan, Catalog([page]), lang="zh").sections
    assert section.claims[0].text.startswith("你可以通过 rules 为每个 Field 表单控件配置校验规则")
