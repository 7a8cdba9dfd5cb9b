"""A passage quoted in its place reads right: a step with its code, a back reference with what it refers to or
not at all, a warning's banner with its warning or not at all, a pointer to another page or a figure's caption
not at all (generator/text/pointers.py, generator/topic/sentences.py). The sentences are the seen corpora's."""

from __future__ import annotations

from generator.text.pointers import needs_antecedent, points_elsewhere
from generator.topic.sentences import (
    code_examples,
    lead_in_stands,
    list_quote,
    quotable,
    quote_at,
    speaks_for_itself,
)

_FENCE = "```"


def _with_code(lead_in: str, code: str) -> str:
    return f"{lead_in}\n\n{_FENCE}bash\n{code}\n{_FENCE}\n"


def test_a_step_opening_on_then_is_quoted_with_the_code_it_introduces() -> None:
    # OpenCompass llm_judge.md:42 — the step that answers "how do I point the judge at a model service"
    text = _with_code(
        "然后，你可以通过以下命令设置相关评估服务的环境变量，并对模型进行评估：",
        "export OC_JUDGE_MODEL=Qwen/Qwen2.5-32B-Instruct\nexport OC_JUDGE_API_BASE=http://localhost:4000/v1",
    )
    [quote] = code_examples(text, stated=True)
    assert quote.text.startswith("然后，你可以通过以下命令") and "OC_JUDGE_MODEL" in quote.code
    # Goravel validation.md:139 and Beego session/README.md:178: the next step of a walk-through, and its code
    for lead_in in ("然后可以使用 `Info` 方法获取路由信息：", "接着在你的入口函数中初始化数据："):
        assert len(code_examples(_with_code(lead_in, "x := 1"), stated=True)) == 1, lead_in
    assert code_examples(_with_code("Next, register the middleware on the router:", "r.Use(m)"), stated=True)


def test_a_step_still_leaning_on_what_came_before_is_not_quoted() -> None:
    # "这些配置" are the ones a paragraph before wrote
    text = _with_code("然后，这些配置会在应用启动时被读取：", "app.Boot()")
    assert code_examples(text, stated=True) == []


def test_a_demonstrative_mid_sentence_refers_back() -> None:
    # OpenCompass llm_judge.md:50, under the `export` block setting the three variables
    warned = "注意，默认情况下，OpenCompass会使用这三个环境变量，但如果你使用了基于配置文件的方式配置评估服务，这三个环境变量将不会生效。"
    assert needs_antecedent(warned)
    assert quote_at([warned], 0) is None
    # Sa-Token and DTM: "上述" and "这个" naming what the paragraphs before said
    assert needs_antecedent("不仅是 Nginx，所有包含路由转发的地方都有可能导致上述丢失 uri 的现象。")
    assert needs_antecedent("对于通过上述两条内容的PR，dtm的人员将会尽快给您反馈。")
    assert needs_antecedent("为此，我们可以据此配置模型。")
    # …and with the sentence naming it before, it is quoted with that sentence
    before = "OpenCompass 的评判器从三个环境变量读取模型名、密钥和服务地址。"
    quote = quote_at([before, warned], 1)
    assert quote is not None and quote.parts == (before, warned)


def test_a_demonstrative_naming_what_its_sentence_named_first_stands() -> None:
    assert not needs_antecedent("我们定义了两个字段，这两个字段都是必填的。")
    assert not needs_antecedent("例如 `TypeEnum.TYPE1` 保存到数据库的内容为 `TYPE1` 这个字符串。")
    assert not needs_antecedent("下面这个例子展示了如何定义一个任务。")
    # a lead-in's demonstrative names what the code after it shows (DTM's two-phase message page)
    assert not needs_antecedent("二阶段消息完成上述任务的核心代码如下所示:")
    assert not needs_antecedent("GORM允许用户通过实现这些接口 `BeforeSave`, `AfterSave`来自定义钩子。")
    # past its opening words a sentence has named what it refers to (MyBatis-Flex logic-delete.md)
    assert not needs_antecedent(
        "在某些场景下，我们可能希望数据库存入的逻辑删除中的值并非 0 和 1，比如可能是 true 和 false 等，那么，我们可以通过配置"
        " FlexGlobalConfig 来修改这个默认值。"
    )


def test_a_pointer_handing_a_wish_to_another_page_and_a_caption_point_elsewhere() -> None:
    # OpenCompass llm_judge.md:396, Beego's template docs
    assert points_elsewhere(
        "如果希望了解通用LLM评判器，请参考examples目录中的eval_llm_judge.py文件，该示例展示了如何使用LLM评判器评估数学问题。"
    )
    assert points_elsewhere("如果您想要修改为其它符号，可以参考 模板标签。")
    # OpenCompass meta_template.md, Sa-Token's interceptor page: a figure's caption without its figure
    assert points_elsewhere(
        "下图展示了在 2-shot learning 的情况下，数据从数据集中经过 prompt template 的过程。"
    )
    assert points_elsewhere("如上图所示，拦截器将拦截除登录以外的所以请求，并进行一道前置审核。")
    # not advice that says itself, nor a lead-in quoted with what follows, nor 上图 inside a word
    assert not points_elsewhere("如果 attach 不上目标进程，可以查看日志。")
    assert not points_elsewhere("如果你还没安装环境，请参考：")
    assert not points_elsewhere("地图上图标很多。")


def test_a_warning_banner_alone_says_nothing() -> None:
    # MyBatis-Flex multi-tenancy.md:63 stands above the warning it announces; Nervos' "**Note:**" above its list
    for banner in ("注意！注意！注意！", "注意！", "Note:", "**重要**"):
        assert not speaks_for_itself(banner), banner
    assert speaks_for_itself("注意：该函数支持从表单中获取值，且不支持获取文件值。")


def test_a_lead_in_naming_what_its_list_gives_the_parts_of_stands() -> None:
    # datapackage-spec's Introduction, crossplane's Composition Functions beta design, BIDS' modality pages
    for lead_in in (
        "A Data Package consists of:",
        "The `observed` object consists of:",
        "Currently supported image types include:",
    ):
        assert lead_in_stands((), lead_in), lead_in
    items = (
        "Metadata that describes the structure and contents of the package",
        "Resources such as data files",
    )
    quote = list_quote("A Data Package consists of:\n" + "".join(f"- {item}\n" for item in items))
    assert quote is not None and quote.parts == ("A Data Package consists of:", *items)
    # "Examples include:" names nothing; "This folder contains:" leans on what came before
    assert not lead_in_stands((), "Examples include:")
    assert not lead_in_stands((), "This folder contains:")


def test_a_sentence_pointing_at_the_code_after_it_is_quoted_with_that_code_or_not_at_all() -> None:
    # MyBatis-Flex multi-datasource.md:308 above its `addDataSource` code; Hertz's middleware page above its own
    for lead_in, code in (
        (
            "在多租户等某些场景下，我们可能需要用到动态的添加新的数据源，此时可以通过如下的方式进行添加。",
            'flexDataSource.addDataSource("newKey", newDataSource);',
        ),
        (
            "服务端中间件会按定义的先后顺序依次执行，如果想快速终止中间件调用，可以使用以下方法。",
            "ctx.Abort()",
        ),
    ):
        assert not quotable(lead_in), lead_in
        [quote] = code_examples(_with_code(lead_in, code), stated=True)
        assert quote.text == lead_in and quote.code == code


def test_a_sentence_going_on_from_what_the_page_said_above_refers_back() -> None:
    # DTM's barrier page; Sa-Token's "前面所说" the same way
    assert needs_antecedent("上面分析了Try和Cancel的执行时间没有重叠的情况下，能够解决空补偿和悬挂问题。")
    assert needs_antecedent("开发者使用子事务屏障之后，前面所说的各种异常全部被妥善处理。")
    assert not needs_antecedent("你可以在路由上面添加一个过滤器。")


def test_a_warning_banner_is_quoted_with_the_warning_after_it_or_not_at_all() -> None:
    from generator.topic.opening_passages import caveat_passages
    from generator.topic.section_tree import TextSection

    # MyBatis-Flex multi-tenancy.md:63–65: the banner, then the paragraph it warns of
    warning = "在整个应用中，应该只有一个 TenantFactory 实例，然后再通过其 getTenantIds() 方法里去获取当前的租户 ID。"
    section = TextSection(
        "## 多租户", 2, ("TenantFactory 返回当前的租户 ID。", "注意！注意！注意！", warning)
    )
    [passage] = caveat_passages(section)
    assert passage.parts[-1] == warning and passage.text.startswith("注意！")
    # a banner over code it cannot be quoted with is quoted not at all
    assert (
        caveat_passages(
            TextSection(
                "## 多租户", 2, ("**注意！**", "```java\nTenantManager.ignoreTenantCondition();\n```")
            )
        )
        == []
    )
