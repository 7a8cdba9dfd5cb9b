"""A caveat is a page's limits wherever it sits: a paragraph or a list opening on its label ("**特别说明**：",
"注意：", "Warning:", GitHub's `> [!WARNING]`), under a heading that names no limits. The outline asks for
them when a top document marks one, without a section of the document's own giving way."""

from __future__ import annotations

from generator.documents.plain import markup_prose
from generator.topic import workspace as wsp
from generator.topic.judge import RelevanceJudge
from generator.topic.limits import states_caveat, states_own_limit
from generator.topic.plan import DocumentOutline, outline_questions
from generator.topic.section_candidates import section_candidates

# arthas's watch.md: the caveats stand in a labelled list under "## 参数说明", after a paragraph of links
WATCH = (
    "# watch\n\n让你能方便的观察到指定函数的调用情况。能观察到的范围为：返回值、抛出异常、入参。\n\n"
    "## 参数说明\n\nwatch 的参数比较多，主要是因为它能在 4 个不同的场景观察对象\n\n"
    "观察的维度也比较多，主要体现在参数 advice 的数据结构上。请参考表达式核心变量中关于该节点的描述。\n\n"
    "- 特殊用法请参考：[issue 71](https://github.com/alibaba/arthas/issues/71)\n"
    "- OGNL 表达式官网：[guide](https://commons.apache.org/ognl/language-guide.html)\n\n"
    "**特别说明**：\n\n"
    "- 4 个观察事件点 `-b`、`-e`、`-s` 默认关闭，`-f` 默认打开\n"
    "- 这里要注意`函数入参`和`函数出参`的区别，除了 `-b` 事件点 `params` 代表函数入参外，其余事件都代表函数出参\n"
    "- 当使用 `-b` 时，由于观察事件点是在函数调用前，此时返回值或异常均不存在\n\n"
    "## 使用参考\n\n### 观察异常信息\n\n```bash\n$ watch demo.MathGame primeFactors -e -x 2\n```\n"
)


def _source(sid: str, title: str, text: str) -> wsp.RawSource:
    return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)


def test_a_labelled_caveat_list_answers_the_limits_of_its_page() -> None:
    source = _source("local-w", "watch", markup_prose(WATCH, structure=True))
    judge = RelevanceJudge("arthas watch 命令")
    [limits] = section_candidates([source], "limits", judge, stored=[source])
    assert limits.text.startswith("特别说明：")
    assert "当使用 -b 时，由于观察事件点是在函数调用前，此时返回值或异常均不存在" in limits.items


def test_a_caveat_is_marked_by_its_label_a_remark_only_when_it_states_a_limit() -> None:
    assert states_caveat("注意：定制中间件是通过 operation 匹配，并不是 http 本身的路由！")
    assert states_caveat("**注意事项**：\n- 不要在中间件中阻塞")
    assert states_caveat("Warning: Do not run the migration twice.")  # `> [!WARNING]` as stored
    assert states_own_limit("Caveat: the cache is per process.")
    assert states_caveat("Note: a renamed key cannot be read by older clients.")
    assert not states_caveat("Note: the examples below use the default port.")
    assert not states_caveat("提示：更多示例见下一节。")
    assert not states_caveat("本节介绍如何注意代码风格。")
    # profiler.md's caveats under "## 配置 include/exclude 来过滤数据", "## 生成 jfr 格式结果", "## ctimer事件"
    assert states_caveat(
        "注意--include/--exclude只支持在stopaction或者带有-d/--duration参数的startaction中指定，否则不生效。"
    )
    assert states_caveat("注意，jfr 只支持在 start时配置。如果是在stop时指定，则不会生效。")
    assert states_caveat("请注意，ctimer 事件目前仅在 Linux 上支持，不支持 macOS。")
    assert not states_caveat("注意力机制是模型的核心。")
    assert states_caveat("Note that a renamed key cannot be read by older clients.")
    assert not states_caveat("Note that the examples use the default port.")


def test_a_top_documents_caveat_asks_its_limits_and_no_section_gives_way() -> None:
    # kratos-zh's middleware page: "注意: 定制中间件是通过 operation 匹配…" under no heading on limits; its
    # "内置中间件" section stays a question of the outline
    headings = ("内置中间件", "生效顺序", "使用中间件", "自定义中间件", "定制中间件")
    plain = DocumentOutline("中间件", headings)
    marked = DocumentOutline("中间件", headings, caveats=True)
    before = outline_questions("Kratos 中间件", [plain], lang="zh")
    after = outline_questions("Kratos 中间件", [marked], lang="zh")
    assert [facet for facet, _, _ in before] == ["what", "use", "section", "section"]
    assert [facet for facet, _, _ in after] == ["what", "use", "limits", "section", "section"]
    assert [q for facet, q, _ in after if facet == "section"] == [
        "Kratos 中间件：内置中间件",
        "Kratos 中间件：自定义中间件",
    ]
