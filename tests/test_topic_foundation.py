"""Which stored document defines a topic no title names whole: the most relevant one, or the document it builds
on (issue 30; a held-out report on TLS from the gateway to the backend was written from GEP-2907's terminology
and GEP-3155's mutual TLS, both naming GEP-1897's BackendTLSPolicy throughout, while GEP-1897 was stored)."""

from __future__ import annotations

from generator.topic import workspace as wsp
from generator.topic.definition import definition
from generator.topic.judge import RelevanceJudge
from generator.topic.subject_sources import defining_sources

TERMS = (
    "# GEP-2907: TLS Configuration Placement and Terminology\n\n"
    "## TLDR\n\nThis GEP aims to define high level TLS terminology and structure within Gateway API.\n\n"
    "## Backend TLS\n\nIn the Backend connection the Gateway acts as a client. If BackendTLSPolicy is "
    "defined for a Service, the Gateway must establish a TLS connection with the backend.\n"
)
POLICY = (
    "# GEP-1897: BackendTLSPolicy - Explicit Backend TLS Connection Configuration\n\n"
    "## TLDR\n\nThis document addresses conveying HTTPS from the Gateway dataplane to the backend "
    "(backend TLS termination).\n\n"
)
MUTUAL = (
    "# GEP-3155: Complete Backend mutual TLS Configuration\n\n"
    "## TLDR\n\nThis GEP adds the client certificate a Gateway presents to a backend, beside the "
    "BackendTLSPolicy that validates the backend's certificate.\n"
)


def _source(sid: str, path: str, title: str, text: str, relevance: float) -> wsp.RawSource:
    return wsp.RawSource(
        sid, "local", f"local:docs/{path}", title, "t", text, kind="local", relevance=relevance
    )


SOURCES = [
    _source(
        "local-t", "gep-2907/index.md", "GEP-2907: TLS Configuration Placement and Terminology", TERMS, 0.94
    ),
    _source(
        "local-p",
        "gep-1897/index.md",
        "GEP-1897: BackendTLSPolicy - Explicit Backend TLS Connection Configuration",
        POLICY,
        0.91,
    ),
    _source(
        "local-m", "gep-3155/index.md", "GEP-3155: Complete Backend mutual TLS Configuration", MUTUAL, 0.92
    ),
]


def test_an_untitled_topic_is_defined_by_the_document_the_most_relevant_one_builds_on() -> None:
    judge = RelevanceJudge("TLS from the gateway to the backend")
    assert defining_sources(SOURCES, judge) == {"local-p"}  # not the terminology GEP, most relevant
    opening = definition(SOURCES, judge, lambda s: True)
    assert opening is not None and opening.sources == ["local-p"]  # not the mutual TLS GEP, fewest words
    assert opening.text.startswith("This document addresses conveying HTTPS")


def test_a_document_is_built_on_when_named_by_its_coined_name_or_twice_by_its_number() -> None:
    from generator.topic.defining import built_on  # new in session 26

    def doc(sid: str, title: str, text: str) -> tuple[str, str, str]:
        return sid, title, text

    documents = [
        doc(
            "local-x",
            "Meta",
            "This RFC introduces extensions, an alternative to RFC#0105 and RFC#0105's stackpacks.",
        ),
        doc("local-d", "Meta", "Stackpacks, see RFC 0019. Both TLS 1.3 and RFC 19.5 are out of scope."),
        doc("local-s", "Meta", "Project descriptor."),
    ]
    urls = [
        "local:docs/0127-extension-layer.md",
        "local:docs/0105-dockerfiles.md",
        "local:docs/0019-project.md",
    ]
    found = built_on(documents, urls)
    assert found["local-x"] == ["local-d"]  # named twice by its number
    assert found["local-d"] == []  # one passing mention is no foundation ("RFC 19.5" is no number of it)
    assert built_on(documents)["local-x"] == []  # without urls, only titles name documents
    coined = [
        doc("local-m", "GEP-3155: Mutual", MUTUAL),
        doc("local-p", "GEP-1897: BackendTLSPolicy - X Y", POLICY),
    ]
    assert built_on(coined) == {"local-m": ["local-p"], "local-p": []}


# qiankun's docs/zh-CN (session 27's held-out miss): the API's page is titled with the API's name and opens
# with the topic itself, while an ecosystem overview only touches it
LOAD = (
    "# loadMicroApp\n\n手动加载微应用。这对于动态加载微应用或当微应用不与路由关联时很有用。\n\n"
    "## ⚠️ 重要注意事项\n\n手动加载的微应用需要手动卸载，否则会造成内存泄漏。\n"
)
ECOSYSTEM = (
    "# 生态系统\n\nqiankun 提供了丰富的 UI 绑定和工具生态系统，帮助你高效地构建和维护微前端应用。\n\n"
    "也可以手动加载微应用。\n"
)
GUARD_STUB = "# 接口：NavigationGuard\n\n导航守卫。详情可查阅导航守卫。\n"


def test_a_page_titled_with_the_api_name_and_opening_with_the_topic_defines_it() -> None:
    judge = RelevanceJudge("手动加载微应用")
    sources = [
        _source("local-l", "api/load-micro-app.md", "loadMicroApp", LOAD, 0.6),
        _source("local-e", "ecosystem/index.md", "生态系统", ECOSYSTEM, 0.9),
    ]
    assert defining_sources(sources, judge) == {"local-l"}  # not the more relevant overview
    opening = definition(sources, judge, lambda s: True)
    assert opening is not None and opening.sources == ["local-l"]
    assert opening.text.startswith("手动加载微应用。")


def test_an_opening_naming_the_topic_defines_it_only_when_it_says_more_than_a_pointer() -> None:
    from generator.topic.defining import opens_with_subject

    assert opens_with_subject(
        "# Lifecycles\n\n生命周期钩子允许您在微应用的不同阶段执行自定义逻辑。\n", "生命周期钩子"
    )
    assert not opens_with_subject(GUARD_STUB, "导航守卫")  # the name and a pointer onward
    assert not opens_with_subject("# 类型\n\n生命周期钩子的类型定义如下。\n", "生命周期钩子")  # its part
    assert opens_with_subject("# Safelist\n\nSafelist is an option listing classes.\n", "safelist")


def test_a_guide_naming_an_api_page_titled_with_the_api_name_alone_does_not_build_on_it() -> None:
    from generator.topic.defining import built_on

    # wujie's guide titled 预加载 links `preloadApp`'s reference page, pinia's 插件 `PiniaPlugin`'s: each guide
    # is the account of its topic, the reference entry only names an API it uses
    guide = (
        "local-g",
        "预加载",
        "预加载指的是在应用空闲的时候加载静态资源。\n\n详见 preloadApp 和 preloadApp 的 exec。\n",
    )
    api = ("local-a", "preloadApp", "预加载子应用。\n\n```js\npreloadApp({ name: 'a' })\n```\n")
    entry = ("local-i", "接口：DefineStoreOptionsInPlugin<Id, S>", "创建插件时可用的 options。\n")
    assert built_on([guide, api, entry], []) == {"local-g": [], "local-a": [], "local-i": []}
    coined = ("local-c", "GEP-3155: Mutual TLS", "This GEP adds a certificate beside the BackendTLSPolicy.\n")
    policy = (
        "local-p",
        "GEP-1897: BackendTLSPolicy - Explicit Backend TLS",
        "This document addresses TLS.\n",
    )
    assert built_on([coined, policy], [])["local-c"] == ["local-p"]  # a name coined before a dash still is


def test_a_chinese_question_no_title_names_whole_is_defined_by_the_pages_titled_after_its_head() -> None:
    # lowcode-engine's "低代码引擎的插件怎么开发和注册": no title names 低代码引擎 too, so the most relevant page, 物料扩展,
    # defined the report and every section quoted assets.json while 插件扩展 and "plugins - 插件 API" were stored
    sources = [
        _source("local-m", "material.md", "物料扩展", "# 物料扩展\n\n物料是页面搭建的原料。\n", 0.9),
        _source(
            "local-w",
            "pluginWidget.md",
            "插件扩展 - 面板扩展",
            "# 插件扩展\n\n## 插件简述\n\n插件功能赋予灵活性。\n",
            0.5,
        ),
        _source("local-a", "api/plugins.md", "plugins - 插件 API", "# plugins\n\n插件管理器。\n", 0.4),
    ]
    judge = RelevanceJudge("低代码引擎的插件怎么开发和注册")
    assert defining_sources(sources, judge) == {"local-w", "local-a"}
    assert defining_sources(sources, RelevanceJudge("低代码引擎怎么注册物料")) == {
        "local-m"
    }  # no 的: as before


def test_the_document_introducing_a_titled_subject_defines_it_beside_the_title() -> None:
    # SIMD-0220 is titled after the accounts lattice hash; SIMD-0215, which it names, introduced it
    snapshots = (
        "## Summary\n\nUse the Accounts Lattice Hash as the Snapshot Hash.\n\n## Motivation\n\nThis SIMD "
        "follows on from SIMD-215, and as established in SIMD-215, merkle-based hashing hinders scaling.\n"
    )
    homomorphic = (
        "## Summary\n\nThis proposal adds a new hash, Accounts Lattice Hash, that uses homomorphic hashing to "
        "maintain a hash of the total account state.\n\n## Alternatives Considered\n\n- Merkle Trees\n"
    )
    delta = "## Summary\n\nRemove the accounts delta hash from the bank hash. SIMD-215 and SIMD-215 again.\n"
    sources = [
        _source("local-s", "0220-snapshots.md", "Snapshots use Accounts Lattice Hash", snapshots, 0.9),
        _source(
            "local-h",
            "0215-accounts-lattice-hash.md",
            "Homomorphic Hashing of Account State",
            homomorphic,
            0.8,
        ),
        _source("local-d", "0223-removes-delta.md", "Remove Accounts Delta Hash", delta, 0.7),
        _source(
            "local-o", "0100-other.md", "Other Accounts Work", "## Summary\n\nSIMD-220 and SIMD-220.\n", 0.6
        ),
    ]
    judge = RelevanceJudge("What is the accounts lattice hash and what does it replace?")
    assert defining_sources(sources, judge) == {
        "local-s",
        "local-h",
    }  # not what builds on it, nor what it names


def test_a_specifications_synopsis_is_its_summary() -> None:
    # ICS-20 opens on "## Synopsis"; its report was defined by the first sentence of "### Data Structures"
    text = (
        "## Synopsis\n\nThis standard document specifies the state machine logic for the transfer of fungible "
        "tokens over an IBC channel. This logic constitutes a fungible token transfer bridge module.\n\n"
        "### Motivation\n\nUsers might wish to use an asset issued on one chain on another chain.\n\n"
        "## Technical Specification\n\n### Data Structures\n\nOnly one packet data type is required: "
        "FungibleTokenPacketData, which specifies the token's denomination and amount.\n"
    )
    source = _source(
        "local-f", "ics-020-fungible-token-transfer/README.md", "Fungible Token Transfer", text, 0.9
    )
    opening = definition([source], RelevanceJudge("How does fungible token transfer work?"), lambda s: True)
    assert opening is not None and opening.text.startswith(
        "This standard document specifies the state machine"
    )


def test_a_page_defining_a_chinese_question_says_what_it_is_in_its_lead_before_any_section() -> None:
    # kratos' config.md, titled "配置": "Kratos 配置是什么？" said "the stored sources do not answer" while the
    # page opens with what its config component is for; ant-design-vue's Table opens "展示行列数据。"
    config = (
        "# 配置\n\n微服务或者说云原生应用的配置最佳实践是将配置文件和应用代码分开管理，而是在服务运行时把配置文件挂载"
        "进去或者直接从配置中心加载。Kratos的config组件就是用来帮助应用从各种配置源加载配置。\n\n"
        "#### 设计理念\n\n##### 1.支持多种配置源\n\nKratos定义了标准化的Source和Watcher接口来适配各种配置源。\n\n"
        "##### 3.热更新\n\nKratos的config组件支持配置的热更新。\n"
    )
    sources = [_source("local-c", "component/config.md", "配置", config, 0.9)]
    opening = definition(sources, RelevanceJudge("Kratos 配置怎么加载和热更新"), lambda s: True)
    assert opening is not None and opening.text.startswith("微服务或者说云原生应用的配置最佳实践")
    assert "Kratos的config组件就是用来帮助应用从各种配置源加载配置。" in opening.text
    table = "# Table 表格\n\n展示行列数据。\n\n## 何时使用\n\n- 当有大量结构化的数据需要展现时；\n"
    sources = [_source("local-t", "table/index.zh-CN.md", "Table 表格", table, 0.9)]
    opening = definition(sources, RelevanceJudge("ant-design-vue Table 表格怎么排序和筛选"), lambda s: True)
    assert opening is not None and opening.text == "展示行列数据。"
    # a page opening with its first section has no lead to say it
    sectioned = "# 配置\n\n#### 设计理念\n\n配置文件和应用代码分开管理。\n"
    sources = [_source("local-s", "component/config.md", "配置", sectioned, 0.9)]
    assert definition(sources, RelevanceJudge("Kratos 配置怎么加载和热更新"), lambda s: True) is None


ERRORS = (
    "# 错误处理\n\nAPIs 响应错误时可以直接使用 errors 包中的 New 方法来声明一个 error。\n\n"
    "#### 错误码定义\n\n##### 错误定义\n\n在 proto 文件中用 enum ErrorReason 定义错误原因，并用 errors.default_code 设置"
    "缺省错误码：\n\n```protobuf\nenum ErrorReason {\n  option (errors.default_code) = 500;\n}\n```\n\n"
    "#### 错误处理\n\n当业务逻辑中需要响应错误时，可以通过使用 kratos errors 包中的 New 方法来响应错误。\n\n"
    "###### 错误断言\n\n通过 errors.Is 或者 FromError 取出的 Reason 和 Code 断言错误：\n\n"
    '```go\nif errors.Is(err, errors.BadRequest("USER_NAME_EMPTY", "")) {\n}\n```\n'
)


def test_an_aspect_a_chinese_question_asks_is_answered_from_the_section_treating_it() -> None:
    # kratos' "错误码怎么定义和判断": both sub-questions said "the stored sources do not answer" while errors.md has
    # "##### 错误定义" and "###### 错误断言"; a verb is named by the heading, or by the words its documents use
    from generator.topic.aspect_candidates import aspect_sections
    from generator.topic.aspects import aspect_words

    sources = [_source("local-e", "component/errors.md", "错误处理", ERRORS, 0.9)]
    judge = RelevanceJudge("Kratos 错误码怎么定义和判断")
    asked = ["Kratos 错误码怎么定义", "Kratos 错误码怎么判断"]
    defined = aspect_sections(sources, aspect_words(asked[0], asked), judge)
    assert defined and defined[0].text.startswith("在 proto 文件中用 enum ErrorReason 定义错误原因")
    assert "enum ErrorReason" in defined[0].code and defined[0].treats
    judged = aspect_sections(sources, aspect_words(asked[1], asked), judge)
    assert (
        judged
        and judged[0].text.startswith("通过 errors.Is 或者 FromError")
        and "errors.Is" in judged[0].code
    )
    # a section naming neither in its heading or first sentence is no answer to either
    assert not any("当业务逻辑中需要响应错误时" in c.text for c in [*defined, *judged])


TABLE = (
    "# Table 表格\n\n展示行列数据。\n\n## API\n\n### Column\n\n列描述数据对象，是 columns 中的一项，Column 使用相同的 API。\n\n"
    "**Column:**\n- align：设置列的对齐方式（类型：left | right | center，默认值：left）。\n"
    "- filters：表头的筛选菜单项（类型：object[]）。\n- onFilter：本地模式下，确定筛选的运行函数（类型：Function）。\n"
    "- sorter：排序函数，本地排序使用一个函数，需要服务端排序可设为 true（类型：Function | boolean）。\n"
    "- sortOrder：排序的受控属性（类型：boolean | string）。\n- width：列宽度（类型：string | number）。\n\n"
    "### 使用\n\n在 NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。\n\n例如：\n\n"
    "```go\nhttp.NewServer(http.Middleware(recovery.Recovery()))\n```\n"
)


def test_an_aspect_is_answered_by_the_reference_rows_and_the_short_statement_naming_it() -> None:
    # ant-design-vue's "Table 表格怎么排序和筛选": Column's sorter and onFilter rows were never offered; kratos'
    # "在 NewGRPCServer … 进行注册。" names too many identifiers to be quoted as a sentence, and was passed over
    from generator.topic.aspect_candidates import aspect_sections

    sources = [_source("local-t", "table/index.zh-CN.md", "Table 表格", TABLE, 0.9)]
    judge = RelevanceJudge("Table 表格怎么排序和注册")
    sorted_ = aspect_sections(sources, {"排序"}, judge)
    assert sorted_[0].text == "Column:" and [i.split("：")[0] for i in sorted_[0].items] == [
        "sorter",
        "sortOrder",
    ]
    filtered = aspect_sections(sources, {"筛选"}, judge)
    assert [i.split("：")[0] for i in filtered[0].items] == ["filters", "onFilter"]
    registered = aspect_sections(sources, {"注册"}, judge)
    assert registered[0].text.startswith("在 NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。")
    assert "recovery.Recovery()" in registered[0].code


FILTER = (
    "# Web 过滤器\n\n## 简单例子\n\n现在我们来看看 InsertFilter 的定义，各个参数的含义是：\n\n"
    "而 `opts` 对应三个选项：\n\n"
    "- `web.WithReturnOnOutput`: 设置 returnOnOutput 的值，如果在进行到此过滤之前已经有输出，是否不再继续执行此过滤器；\n"
    "- `web.WithResetParams`: 是否重置 filter 的参数，默认是 false；\n"
    "- `web.WithCaseSensitive`: 是否大小写敏感；\n"
)


def test_a_list_its_lead_in_counts_is_quoted_whole() -> None:
    # beego's "而 opts 对应三个选项：" was quoted with the two rows naming 过滤/filter and "(1 more not listed
    # here)": the reader was promised three options and saw two, web.WithCaseSensitive hidden
    from generator.documents.plain import markup_prose
    from generator.topic.aspect_candidates import aspect_sections

    stored = markup_prose(FILTER, structure=True)
    sources = [_source("local-f", "web/filter/README.md", "Web 过滤器", stored, 0.9)]
    found = aspect_sections(sources, {"过滤", "filter"}, RelevanceJudge("Beego 的过滤器怎么注册"))
    listed = next(c for c in found if c.items)
    assert [i.split(":")[0] for i in listed.items] == [
        "web.WithReturnOnOutput",
        "web.WithResetParams",
        "web.WithCaseSensitive",
    ]
    from generator.topic.sentences import announced_count, list_quote

    assert [announced_count(t) for t in ("It offers three options:", "它有很多个取值：", "**Rules:**")] == [
        3,
        0,
        0,
    ]
    # a counted opening list too long to quote whole is not cut to its first points
    long = "The design has three parts:\n\n" + "".join(f"- Part {n}: {'word ' * 150}\n" for n in range(3))
    assert list_quote(long, opening=True) is None


def test_a_short_statement_handing_its_matter_to_another_page_is_no_answer() -> None:
    # hertz' 中间件 report quoted "…通常会用到 RequestContext 相关操作，见 请求上下文。" (the whole of "#####
    # RequestContext 相关操作") as a short statement, and "…更多实现可以在 hertz-contrib 查找，其他中间件如有需求，可提
    # issue 告诉我们。": a pointer and an invitation to write to the maintainers say nothing of the subject
    from generator.topic.aspect_candidates import aspect_sections
    from generator.topic.openings import lead_paragraph

    page = (
        "# 中间件概览\n\n#### 服务端中间件\n\n##### 常用中间件\n\nHertz 提供了常用的 BasicAuth、CORS、JWT等中间件，"
        "更多实现可以在 hertz-contrib 查找，其他中间件如有需求，可提 issue 告诉我们。\n\n#### 注意\n\n##### "
        "RequestContext 相关操作\n\n在实现服务端中间件的时候通常会用到 RequestContext 相关操作，见 请求上下文。\n\n"
        "##### 中间件注册\n\n在实现服务端中间件的时候通过 h.Use 注册中间件。\n"
    )
    sources = [_source("local-m", "middleware/_index.md", "中间件概览", page, 0.9)]
    found = aspect_sections(sources, {"中间件"}, RelevanceJudge("Hertz 中间件怎么实现"))
    assert [c.text for c in found] == ["在实现服务端中间件的时候通过 h.Use 注册中间件。"]
    # a page's lead is the same short statement: a pointer there is no lead either
    assert (
        lead_paragraph(
            "# 中间件\n\n在实现服务端中间件的时候通常会用到 RequestContext 相关操作，见 请求上下文。\n"
        )
        == ""
    )


def test_two_sections_quote_their_own_rows_of_one_table() -> None:
    # the label "Column:" quoted for 怎么排序 kept the onFilter rows out of 怎么筛选: a table's label is no sentence
    # another passage may not say again, its rows are
    from generator.topic.allocation import allocate
    from generator.topic.candidate import Candidate

    label = "Column:"
    sort = ("sorter：排序函数（类型：Function）。", "sortOrder：排序的受控属性（类型：string）。")
    filters = (
        "filters：表头的筛选菜单项（类型：object[]）。",
        "onFilter：确定筛选的运行函数（类型：Function）。",
    )

    def rows(items: tuple[str, ...]) -> Candidate:
        return Candidate(label, "local-t", 2.0, 1.0, 0.0, (label, *items), treats=True, items=items)

    quoted = allocate({"排序": [rows(sort)], "筛选": [rows(filters)]})
    assert quoted["排序"][0].items == sort and quoted["筛选"][0].items == filters
    again = allocate({"排序": [rows(sort)], "筛选": [rows(sort)]})  # the same rows are quoted once
    assert sum(len(claims) for claims in again.values()) == 1


def test_a_verb_asked_is_found_in_the_word_its_documents_use_for_it() -> None:
    # kratos' "中间件怎么自定义": its page says "#### 定制中间件" for routing middleware by operation (selector)
    from generator.topic.aspect_candidates import aspect_sections
    from generator.topic.aspects import aspect_words

    page = (
        "# 概览\n\nKratos 内置了一系列的 middleware（中间件）用于处理 logging、 metrics 等通用场景。\n\n"
        "#### 定制中间件\n\n对特定路由定制中间件需要使用 selector，它按 operation 匹配而不是 HTTP 路由：\n\n"
        '```go\nselector.Server(recovery.Recovery()).Path("/hello.Update/UpdateUser").Build()\n```\n'
    )
    sources = [_source("local-m", "component/middleware/overview.md", "概览", page, 0.9)]
    asked = ["Kratos 中间件怎么注册", "Kratos 中间件怎么自定义"]
    found = aspect_sections(
        sources, aspect_words(asked[1], asked), RelevanceJudge("Kratos 中间件怎么注册和自定义")
    )
    assert found and "selector.Server" in found[0].code


WATCH = (
    "# watch\n\n::: tip\n函数执行数据观测\n:::\n\n让你能方便的观察到指定函数的调用情况。能观察到的范围为：`返回值`、`抛出异常`、`入参`，"
    "通过编写 OGNL 表达式进行对应变量的查看。\n\n## 参数说明\n\n| 参数名称 | 参数说明 |\n| --- | --- |\n| _express_ | 观察表达式 |\n\n"
    "## 使用参考\n\n### 观察函数调用返回时的参数、this 对象和返回值\n\n观察表达式，默认值是 params、target 和 returnObj：\n\n"
    "```bash\n$ watch demo.MathGame primeFactors -x 2\n```\n"
)
TT = (
    "# tt\n\n::: tip\n方法执行数据的时空隧道，记录下指定方法每次调用的入参和返回信息，并能对这些不同的时间下调用进行观测\n:::\n\n"
    "`watch` 虽然很方便和灵活，但需要提前想清楚观察表达式的拼写。\n"
)


def test_a_chinese_question_naming_a_command_is_about_that_command_and_its_page_defines_it() -> None:
    # arthas' "arthas watch 命令怎么观察方法的入参和返回值" was told from tt.md, whose one-line description uses the
    # question's words 入参和返回, while the page titled "# watch" was stored: the subject was the whole question
    from generator.topic.defining import plan_subject, zh_subjects

    topic = "arthas watch 命令怎么观察方法的入参和返回值"
    assert plan_subject(topic) == "arthas watch 命令"
    assert zh_subjects(topic) == ["arthas watch 命令", "watch"]
    # the project's own name before a kind names no one thing
    assert plan_subject("Semi 组件怎么配置多语言国际化") == "Semi 组件多语言国际化"
    sources = [
        _source("local-t", "tt.md", "tt", TT, 0.9),
        _source("local-w", "watch.md", "watch", WATCH, 0.6),
    ]
    judge = RelevanceJudge(topic)
    assert defining_sources(sources, judge) == {"local-w"}
    opening = definition(sources, judge, lambda s: True)
    assert opening is not None and opening.sources == ["local-w"]
    assert opening.text.startswith("让你能方便的观察到指定函数的调用情况")


JUR_AUTH = (
    "# 权限认证\n\n### 1、设计思路\n\n权限认证的最终目的在于：规定哪些用户可以访问哪些接口。\n\n"
    "### 2、获取当前账号权限码集合\n\n在进行具体的权限校验之前，你需要实现 StpInterface 接口：\n\n"
    "```java\npublic class StpInterfaceImpl implements StpInterface {}\n```\n\n"
    "### 3、权限校验\n\n然后就可以用以下 api 来鉴权了：\n\n"
    '```java\nStpUtil.checkPermission("user.add");\n```\n'
)


def test_the_question_as_written_is_answered_by_the_section_doing_what_it_asks() -> None:
    # sa-token's "Sa-Token 怎么做权限校验" and arthas' "…怎么观察方法的入参和返回值" said "the stored sources do not
    # answer" while the defining page has "### 3、权限校验" with StpUtil.checkPermission
    from generator.topic.aspect_candidates import aspect_sections
    from generator.topic.defining import asked_words

    topic = "Sa-Token 怎么做权限校验"
    assert asked_words(topic) == {"权限", "校验"}
    # 入 and 参 are no words alone
    assert asked_words("arthas watch 命令怎么观察方法的入参和返回值") == {"观察", "方法", "返回值"}
    assert asked_words("Kratos 中间件怎么注册和自定义") == set()  # its verbs are its aspects (topic_aspects)
    sources = [_source("local-j", "use/jur-auth.md", "权限认证", JUR_AUTH, 0.9)]
    found = aspect_sections(sources, asked_words(topic), RelevanceJudge(topic))
    # the heading naming more of what is asked first
    assert found and "checkPermission" in found[0].code


PEPPER = (
    "# AIP-81 - Pepper service for keyless accounts\n\n## Summary\n\nIn keyless accounts an end user needs a private "
    "blinding factor (pepper) as an input in the privacy-preserving account address derivation.\n\nThis AIP "
    "proposes a solution to manage pepper for the end users by deploying a public service that computes the "
    "pepper as a verifiable unpredictable function of some session data.\n\n## Motivation\n\nThis is a "
    "fundamental building block of keyless accounts infrastructure.\n"
)
KEYLESS = (
    "# AIP-61: Keyless accounts\n\n## Summary\n\nCurrently, the only way to secure your Aptos account is to protect "
    "the secret key associated with it.\n\nSpecifically, we enable keyless accounts on Aptos that are secured "
    "through the owner's existing OIDC account, rather than through a difficult-to-manage secret key.\n\n"
    "## Motivation\n\nSecret keys are often lost or stolen.\n"
)


def test_the_document_titled_as_the_subject_opens_the_report_over_one_naming_it_among_other_words() -> None:
    # aptos' "How do keyless accounts work on Aptos?" was "Defined by Pepper service for keyless accounts", the
    # more relevant AIP whose title holds the whole subject, while AIP-61 titled "Keyless accounts" was stored
    sources = [
        _source(
            "local-p",
            "aip-081-pepper-service-for-keyless-accounts.md",
            "Pepper service for keyless accounts",
            PEPPER,
            0.9,
        ),
        _source("local-k", "aip-061-keyless-accounts.md", "Keyless accounts", KEYLESS, 0.6),
    ]
    opening = definition(sources, RelevanceJudge("How do keyless accounts work on Aptos?"), lambda s: True)
    assert opening is not None and opening.sources == ["local-k"]
