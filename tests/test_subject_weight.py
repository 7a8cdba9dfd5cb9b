"""A question's subject outweighs its incidental words (retrieval/scoring.py `incidental`, topic/judge.py): a
word no candidate's title or links name ("线上", in production) and a word outside the subject the question
names ("Coin" it is compared with) weigh less than the words naming what is asked about."""

from __future__ import annotations

from generator.retrieval.scoring import Fields
from generator.topic.defining import compared_subject, plan_subject
from generator.topic.judge import RelevanceJudge

# arthas' pages as the local index hands them to the judge (sources/local.py): the introduction says the tool
# serves online diagnosis; retransform.md never writes 热更新, the link from mc.md to it does
README = Fields(
    title="简介",
    headings="背景\n使用场景",
    lead="Arthas 是一款线上监控诊断产品，通过全局视角实时查看应用的状态信息，无需修改代码，也无需重启服务器。",
    body="Arthas 是一款线上监控诊断产品，通过全局视角实时查看应用的状态信息，无需修改代码，也无需重启服务器。"
    "线上出现问题无法 debug，只能通过加日志再重新发布吗？线上遇到某个用户的数据处理有问题，但线上同样无法 debug。",
    context="arthas",
)
RETRANSFORM = Fields(
    title="retransform",
    headings="使用参考\n查看 retransform entry\n删除 retransform entry\n结合 jad/mc 命令使用\nretransform 的限制",
    lead="加载外部的 .class 文件，retransform jvm 已加载的类。",
    body="加载外部的 .class 文件，retransform jvm 已加载的类。结合 jad/mc 命令使用：先反编译出源代码，修改后用 mc"
    " 编译，再 retransform 加载新的字节码。retransform 的限制：不允许新增加 field/method，正在跑的函数没有退出不能生效。",
    anchor="编译生成 .class 文件之后，可以结合 retransform 命令实现热更新代码。",
    context="arthas",
)
JAD = Fields(
    title="jad",
    headings="参数说明\n使用参考",
    lead="反编译指定已加载类的源码。",
    body="反编译指定已加载类的源码，jad 把 JVM 中实际运行的 class 的 byte code 反编译成 java 代码，便于理解业务逻辑。",
    context="arthas",
)
IDEA = Fields(
    title="IDEA Plugin",
    headings="热更新\n帮助文档",
    lead="arthas idea plugin 支持热更新，生成 watch、trace 等命令。",
    body="arthas idea plugin 支持热更新，生成 watch、trace 等命令。",
    context="arthas",
)


def test_a_page_the_links_name_after_the_subject_outranks_one_naming_only_its_qualifier() -> None:
    topic = "arthas 如何热更新线上代码"
    judge = RelevanceJudge(topic)
    readme, retransform, *_ = judge.judge(
        [("README.md", README), ("retransform.md", RETRANSFORM), ("jad.md", JAD), ("idea-plugin.md", IDEA)],
        topic,
    )
    # 线上 only the introduction says: a rare word, yet it is how the code is updated, not what is updated
    assert retransform.topic.score > readme.topic.score
    assert retransform.topic.on_point
    assert retransform.topic.score >= judge.threshold()


def test_the_compared_thing_is_no_part_of_the_subject() -> None:
    topic = "What is the Aptos fungible asset standard and how does it differ from Coin?"
    assert plan_subject(topic) == "Aptos fungible asset standard"
    assert plan_subject("What is a span batch and how is it encoded?") == "span batch"
    assert compared_subject(topic) == "Aptos fungible asset standard"
    assert compared_subject("How does account abstraction work on Aptos?") == ""  # one question
    judge = RelevanceJudge(topic, subject=compared_subject(topic))
    coin = Fields(
        title="Coin Standard Improvements",
        headings="Summary\nMotivation",
        lead="This AIP improves the coin standard: coin transfers and coin store registration.",
        body="This AIP improves the coin standard: coin transfers and coin store registration. Coin is widely used.",
    )
    assets = Fields(
        title="Fungible Assets",
        headings="Summary\nMotivation\nSpecification",
        lead="A standard for fungible assets as objects: a fungible asset standard replacing the coin module.",
        body="A standard for fungible assets as objects. Fungible assets are stored in fungible stores.",
    )
    nft = Fields(
        title="Minting Standard for Digital Assets",
        headings="Summary",
        lead="A standard for minting digital assets, such as tokens; no coin is minted.",
        body="A standard for minting digital assets.",
    )
    coin_judged, assets_judged, _ = judge.judge([("013", coin), ("021", assets), ("072", nft)], topic)
    assert assets_judged.topic.score > coin_judged.topic.score
    # a page naming only the standard and the thing it is compared with is not about the fungible asset standard
    assert not coin_judged.topic.on_point


def test_a_word_several_pages_hold_stays_a_concept_however_they_are_titled() -> None:
    """Kratos' error page is titled 错误处理, and a heading elsewhere says "Kratos": 错误码, which several pages
    hold, is still what is asked about, and a page naming only "Kratos" is not about it."""
    topic = "Kratos 错误码怎么定义和判断"
    judge = RelevanceJudge(topic)
    errors = Fields(
        title="错误处理",
        headings="错误原因\n生成错误",
        lead="Kratos 的错误码可以通过 proto 定义，也可以用 errors.New 直接声明。",
        body="Kratos 的错误码可以通过 proto 定义。用 errors.Is 判断错误的原因。",
    )
    design = Fields(title="设计理念", headings="", body="Kratos 统一错误码，通过 Reason 判断错误。")
    index = Fields(title="简介", headings="", body="Kratos 是一套微服务框架，定义了统一的错误码。")
    http = Fields(
        title="HTTP", headings="Kratos HTTP\n配置", body="Kratos 的 HTTP 传输层，基于 gorilla/mux 实现路由。"
    )
    # pages of the collection that never say its name, as a multilingual site's do
    evaluation = Fields(title="评估", headings="评估指标", body="用评估集判断模型输出的好坏。")
    logging = Fields(title="日志", headings="日志级别", body="日志按级别输出到标准输出。")
    docs = {
        "errors": errors,
        "design": design,
        "index": index,
        "http": http,
        "eval": evaluation,
        "log": logging,
    }
    judged = dict(zip(docs, judge.judge(list(docs.items()), topic), strict=True))
    assert max(judged, key=lambda k: judged[k].topic.score) == "errors"
    terms = judge.terms(topic)
    assert not {terms[i].label for i in judge.stats.incidental(terms)}  # none is one page's word alone
    assert not judged["http"].topic.on_point
