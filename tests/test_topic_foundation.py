"""Which stored document defines a topic no title names whole: the most relevant one, or the document it builds
on (issue 30; a held-out report on TLS from the gateway to the backend was written from GEP-2907's terminology
and GEP-3155's mutual TLS, both naming GEP-1897's BackendTLSPolicy throughout, while GEP-1897 was stored)."""

from __future__ import annotations

from generator.topic import workspace as wsp
from generator.topic.analyze import defining_sources, definition
from generator.topic.judge import RelevanceJudge

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
