"""The one set of rules for a sentence leaning on something outside itself (generator/text/pointers.py),
shared by topic quotes, a docs page's opening sentence and a README's summary paragraph."""

from __future__ import annotations

from generator.repo.analyze.describe import opening_sentence
from generator.repo.synthesize.readme import describes_project
from generator.text.pointers import continues, needs_antecedent, points_elsewhere


def test_a_pronoun_needs_what_came_before_but_only_a_connective_continues_it() -> None:
    # at the top of a page "This sample…" speaks of the page; "After that, …" still goes on from something
    assert needs_antecedent("This sample shows how to change the position of the chart legend.")
    assert not continues("This sample shows how to change the position of the chart legend.")
    assert continues("After that, we'll define the `Init` method.")
    assert needs_antecedent("Okay, so you already have learned some basics.")
    # "Similarly to X," and "In addition to X," name what they compare with
    assert not continues("Similarly to `<svelte:window>`, the element listens to events on `document`.")
    assert not needs_antecedent("In addition to `setContext`, Svelte exposes the `hasContext` function.")
    assert needs_antecedent("In addition, Svelte exposes the `hasContext` function.")
    # a relative clause written as its own sentence after an example (cerberus, httpx, go-plugin, loguru)
    assert continues("Which can be handy if your schema is changing through the life of the instance.")
    assert continues("Whereas exhaustive checks rely on `never` to represent the impossible case.")
    # an alternative to what was just shown: redux-saga's Introduction was described by "Alternatively, you may
    # use the provided UMD builds directly in the <script> tag of an HTML page." (after its npm command)
    assert continues("Alternatively, you may use the provided UMD builds directly in the `<script>` tag.")
    assert needs_antecedent(
        "相比之下，方法调用总是会在重渲染发生时再次执行函数。"
    )  # "by contrast": with what?


def test_a_chinese_sentence_naming_the_problem_above_needs_it() -> None:
    # "to solve the problem above, …" (Vuex's modules page): the problem is said in the paragraph before
    assert needs_antecedent("为了解决以上问题，Vuex 允许我们将 store 分割成模块（module）。")
    assert needs_antecedent("针对上述情况，我们提供了一个新的选项。")
    assert not needs_antecedent("Vuex 允许我们将 store 分割成模块（module）。")


def test_pointers_to_what_is_printed_elsewhere_or_to_further_reading() -> None:
    for sentence in (
        "The function above is exposed by the `got` main interface.",
        "The event handling flow is documented in the flowchart below.",
        "Use the following options to configure Uvicorn, when running from the command line.",
        "Here are a few ways you can help improve the codebase.",
        "For more info, see Passing state into functions.",
        "For performance tips, see Performance Tips.",  # immer's Pitfalls page had opened on it
        "For the list of supported dialects, please refer to the dialects page.",
        "Check out the runloop docs for more detail.",
        "See Capabilities & Constraints of Server and Client Components and Sharing Code Between Server and Client.",
    ):
        assert points_elsewhere(sentence), sentence
    for sentence in (
        "Starlette encourages a strict separation of configuration from code, following the twelve-factor pattern.",
        "Requests with a body larger than the limit above 10 MB are refused.",
        "This code of conduct applies to the project and all associated projects.",
        "For each request, the router sees whether a route matches.",
    ):
        assert not points_elsewhere(sentence), sentence


def test_a_docs_page_and_a_readme_use_the_shared_rules() -> None:
    # the old page rule took any "following" for a pointer, and a sentence opening "Here, …" for a statement
    assert opening_sentence(
        [
            "Starlette encourages a strict separation of configuration from code, following the twelve-factor pattern."
        ]
    ).startswith("Starlette encourages")
    assert opening_sentence(
        ["Here, `foo` is not available inside `failed`.", "HTML restricts where elements go."]
    ) == ("HTML restricts where elements go.")
    assert opening_sentence(["This page documents the command-line interface of the graphrag library."]) != ""
    # a README paragraph pointing at further reading is no summary of the project; one about its page neither
    assert not describes_project("Learn more at the Svelte website, or stop by the Discord chatroom.")
    assert not describes_project("Here are some examples to give you an idea how to use the class.")
    assert not describes_project("This document describes how to build the project from its sources.")
    assert describes_project("Svelte is a UI framework that uses a compiler to write concise components.")


def test_a_closing_lead_in_is_left_out_however_short() -> None:
    # one rule for the overview and the docs beside the flow: "It:" or "They are:" introduce a list the
    # passage is shown without (the overview's own rule kept a lead-in shorter than a sentence it counts)
    from generator.documents import read_text
    from generator.repo.docs.overview import overview
    from generator.text.pointers import without_lead_in

    said = "Agents give every run the repository's own knowledge and its guidelines for reviews."
    readme = read_text(f"# Agents\n\n{said} They are:\n\n- one\n- two\n", name="README.md")
    assert [p.text for p in overview(readme, [])] == [said]
    assert (
        without_lead_in("Here is a simple request to the server:")
        == "Here is a simple request to the server:"
    )
    assert without_lead_in(f"{said} Then run: Like this:") == said
    # a Chinese lead-in ends in a full-width colon
    assert (
        without_lead_in("插件是一个函数，它接收一个上下文对象。示例如下：")
        == "插件是一个函数，它接收一个上下文对象。"
    )


def test_a_design_document_naming_its_own_kind_names_what_this_is() -> None:
    # "This JEP/KEEP/gRFC/ADR …" opens a proposal's summary: the document quoted, as "This PEP…" is
    assert not needs_antecedent(
        "This JEP introduces kernel subshells to allow for concurrent shell requests."
    )
    assert not needs_antecedent("This KEEP proposes to support inline classes.")
    assert not needs_antecedent("This gRFC describes client-side keepalive.")
    assert not needs_antecedent("This ADR records how database migrations are run.")
    # a protocol's capitals are no document: "This HTTP header" speaks of one named before it
    assert needs_antecedent("This HTTP header carries the trace's state.")
    assert needs_antecedent("This TCP connection stays open.")


def test_a_pointer_inside_a_sentence_points_elsewhere() -> None:
    from generator.text.pointers import points_elsewhere

    assert points_elsewhere(
        "To prevent attacks like the one described in RFC 3489 (see excerpt below), implementations MUST NOT"
        " dial any other address."
    )
    assert points_elsewhere("A lint error can be generated, with instructions below to update the PR.")
    assert not points_elsewhere("The soft limit is kept below 10 MB of heap.")


def test_a_sentence_about_what_an_example_printed_points_elsewhere() -> None:
    # arthas' watch page, after a command and its output: quoted alone, "the result above" is missing
    from generator.topic.sentences import quotable

    for sentence in (
        "上面的结果里，说明函数被执行了两次，第一次结果是location=AtExceptionExit，说明函数抛出异常了，因此returnObj是 null",
        "对比前一个例子，返回值为空（事件点为函数执行前，因此获取不到返回值）",
        "看到上面的输出，即表示成功开启该功能；",
        "和上一个例子相比，多了参数。",
        "The previous output shows the parameters before the call.",
    ):
        assert points_elsewhere(sentence), sentence
        assert not quotable(sentence), sentence
    for sentence in (
        "前一个版本不支持该参数。",  # an earlier version, not an example
        "这项技术在业界史无前例。",
        "The cache returns the previous result when the key is unchanged.",
        "The last command of the script exits with its status.",
        "结果的输出顺序和事件发生的先后顺序一致。",
    ):
        assert not points_elsewhere(sentence), sentence


def test_a_chinese_clause_handing_its_subject_to_another_page_is_a_pointer() -> None:
    # Hertz's middleware page and DTM's guide: the sentence's point is the page it names, wherever the pointer stands
    for sentence in (
        "在实现服务端中间件的时候通常会用到 RequestContext 相关操作，见 请求上下文。",
        "一个服务端中间件即为一个 Handler，Handler 相关操作见 Handler。",
        "关于同步模式，可以参考事务选项中的等待事务结果",
        "TLS 相关的配置信息可参考 tls。",
    ):
        assert points_elsewhere(sentence), sentence
    # a statement adding where more is said keeps its statement; "关于 X，" opening a statement is no pointer
    for sentence in (
        "Hertz 支持优雅退出，详见 优雅退出。",
        "关于事务的超时，dtm 默认等待 10 秒。",
        "Hertz 提供了相关的中间件，可以按需引入。",
    ):
        assert not points_elsewhere(sentence), sentence


def test_a_tutorial_s_next_step_and_a_likewise_lean_on_what_came_before_in_chinese_as_in_english() -> None:
    # DTM's walk-throughs: "then write the business code", "by now the handlers are done", "likewise for SAGA"
    for sentence in (
        "然后编写核心业务代码，调整用户的账户余额",
        "到此各个子事务的处理函数已经OK了，然后是开启二阶段消息事务",
        "接下来我们注册路由。",
        "最后，启动服务即可。",
        "对于SAGA、二阶段消息，也是类似的机制。",
        "同理，客户端也可以注册中间件。",
    ):
        assert needs_antecedent(sentence), sentence
    assert needs_antecedent("Then write the business code that adjusts the balance.")
    for sentence in (
        "最后一个参数是超时时间。",  # "the last parameter", no step
        "子事务屏障技术可以自动处理空补偿、悬挂和幂等问题。",
        "SAGA 和 TCC 的屏障机制相同。",  # both sides named
    ):
        assert not needs_antecedent(sentence), sentence


def test_the_above_thing_is_what_is_printed_above() -> None:
    # nervos 0044 under its MMR figure: "In the above 11 leaf MMR, we have 3 peaks…"
    assert points_elsewhere("In the above 11 leaf MMR, we have 3 peaks marked as the fourth level.")
    assert points_elsewhere("The above-mentioned rules apply to every input.")
    assert not points_elsewhere("The fee rate is kept above 1000 shannons per kilobyte.")
    assert not points_elsewhere("A value at the threshold or above it passes.")


def test_a_bare_see_below_in_brackets_after_a_name_is_an_aside_not_a_pointer() -> None:
    # BIDS' fieldmap page: the sentence states what the two fields do, "(see below)" only says where the
    # approach it names is described; closing a sentence, it hands the sentence's point over
    from generator.topic.sentences import quotable

    sentence = (
        "B0FieldIdentifier and B0FieldSource duplicate the capabilities of the original IntendedFor approach"
        " (see below), while permitting more complex use cases."
    )
    assert not points_elsewhere(sentence)
    assert quotable(sentence)
    # a pointer the sentence's words hang on stays one
    assert points_elsewhere("The details are given in the appendix, see below.")
    assert points_elsewhere("Attacks like the one in RFC 3489 (see excerpt below) are prevented.")
    assert points_elsewhere("In the future we may support more types of profiles (see below).")


def test_a_conclusion_drawn_from_the_sentence_before_needs_it() -> None:
    # Nervos DAO, under the formula: quoted alone, the figure comes from nowhere
    assert needs_antecedent("200155259131 shannons is hence the maximum withdrawable capacity.")
    assert needs_antecedent("The total is therefore 12 bytes.")
    assert not needs_antecedent("The maximum withdrawable capacity is computed from the deposit's dao field.")
