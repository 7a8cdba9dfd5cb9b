"""Relevance: field-weighted scoring against the topic and its sub-questions, and the adaptive threshold."""

from __future__ import annotations

from generator.retrieval.scoring import FLOOR, Fields, cut_words, keep_threshold
from generator.topic.judge import KEEP_RATIO, MIN_PHRASED, RelevanceJudge, name_phrases

ABOUT = Fields(
    title="How to capture warnings",
    headings="Controlling warnings\nAsserting warnings with the warns function\nRecording warnings",
    body="Warnings raised during a test are captured. " * 8 + "Use the warns function to assert a warning.",
)
PASSING = Fields(
    title="Changelog",
    headings="Version 7.1\nBug fixes\nImprovements",
    body="Fixed a crash in the collector. " * 30
    + "A deprecation warning is now shown once. "
    + "Faster startup. " * 30,
)
UNRELATED = Fields(
    title="Deploying with gunicorn",
    headings="Running\nBinding externally",
    body="Gunicorn is a WSGI server. Bind it to an address. " * 10,
)


def _judge(topic: str, docs: dict[str, Fields], question: str = "") -> dict[str, float]:
    judge = RelevanceJudge(topic)
    verdicts = judge.judge(list(docs.items()), question or topic)
    return {key: v.topic.score for key, v in zip(docs, verdicts, strict=True)}


def test_a_document_about_the_topic_outranks_a_passing_mention() -> None:
    scores = _judge("capturing warnings", {"about": ABOUT, "passing": PASSING, "unrelated": UNRELATED})
    assert scores["about"] > 0.6
    assert scores["passing"] < scores["about"] / 2
    assert scores["unrelated"] == 0.0


def test_an_api_named_as_a_compound_identifier_is_found_by_its_words() -> None:
    """ "rate limiting" finds a design naming only `RateLimiter`/`RateLimitLease`, "inference mode" one naming
    `InferenceMode`, as "foo bar" always found `foo_bar`: the engine reads a CamelCase name as its words too."""
    from generator.retrieval.scoring import names_phrase
    from generator.text.words import tokens

    assert {"rate", "limit"} <= set(tokens("The RateLimiter returns a RateLimitLease."))
    assert {"foo", "bar"} <= set(tokens("fooBar")) and {"http", "server"} <= set(tokens("HTTPServer"))
    design = Fields(
        title="Throttling",
        headings="Abstractions\nConcrete implementations",
        body="The main abstraction API will consist of the RateLimiter and the associated RateLimitLease. "
        * 4,
    )
    assert names_phrase(design, tuple(tokens("rate limit")))
    scores = _judge("rate limiting", {"design": design, "unrelated": UNRELATED})
    assert scores["design"] > 0.3 and scores["unrelated"] == 0.0


def test_the_threshold_adapts_to_the_best_score_of_the_run() -> None:
    judge = RelevanceJudge("capturing warnings")
    assert judge.threshold() == FLOOR  # nothing seen yet: the floor alone
    judge.judge([("about", ABOUT), ("passing", PASSING)], "capturing warnings")
    strong = judge.threshold()
    assert strong > FLOOR and strong == keep_threshold(judge.best, ratio=KEEP_RATIO)
    # a weak run: its best document is below the floor, so nothing is kept
    weak = RelevanceJudge("capturing warnings")
    [verdict] = weak.judge([("passing", PASSING)], "capturing warnings")
    assert verdict.topic.score < weak.threshold()


def test_reasons_say_where_the_terms_were_found() -> None:
    judge = RelevanceJudge("capturing warnings")
    [verdict] = judge.judge([("about", ABOUT)], "capturing warnings")
    assert any(r.startswith("title names") for r in verdict.topic.reasons)
    [none] = judge.judge([("u", UNRELATED)], "capturing warnings")
    assert none.topic.reasons == ("none of the question's terms appear",)


def test_facet_words_alone_do_not_make_a_source_relevant() -> None:
    limits = Fields(
        title="Limits", headings="Benefits and limits", body="The benefits and limits of a limit. " * 5
    )
    scores = _judge(
        "capturing warnings", {"limits": limits, "about": ABOUT}, "What are the benefits and limits?"
    )
    assert scores["limits"] == 0.0


def test_a_chinese_topic_matches_english_documents_through_the_glossary() -> None:
    parametrize = Fields(
        title="How to parametrize fixtures and test functions",
        headings="pytest.mark.parametrize: parametrizing test functions",
        body="Parametrizing tests runs one test function with several argument sets. " * 4,
    )
    scores = _judge("参数化测试", {"p": parametrize, "u": UNRELATED})
    assert scores["p"] > 0.6 and scores["u"] == 0.0


def test_relevance_to_each_sub_question_is_remembered() -> None:
    judge = RelevanceJudge("capturing warnings")
    judge.judge([("about", ABOUT)], "How are warnings asserted with warns?")
    judge.judge([("about", ABOUT)], "What did version 7.1 fix?")
    served = judge.questions_served("about")
    assert set(served) == {"How are warnings asserted with warns?", "What did version 7.1 fix?"}
    assert served["How are warnings asserted with warns?"] > served["What did version 7.1 fix?"]


def test_a_natural_break_splits_documents_about_it_from_those_mentioning_it() -> None:
    from generator.retrieval.scoring import natural_break

    about, mentions = [0.9, 0.86, 0.8], [0.55, 0.5, 0.48, 0.45, 0.41]
    assert natural_break(about + mentions) == 0.8  # keep the three above the widest drop
    assert natural_break([0.9, 0.5]) == 0.0  # too few scores to read a distribution from
    assert natural_break([0.9, 0.85, 0.8, 0.76, 0.72, 0.69, 0.65]) == 0.0  # no wide drop: no break


def test_the_best_document_standing_apart_is_no_natural_break() -> None:
    """The seed scores of "weak subjectivity period and checkpoint sync" over the Ethereum consensus specs:
    the phase 0 guide first, the Electra guide that changes its computation second. The widest drop is the
    one below the best, which kept the phase 0 guide alone; a break needs a group above it."""
    from generator.retrieval.scoring import natural_break

    seed = [0.902, 0.618, 0.549, 0.470, 0.364, 0.303, 0.290, 0.274]
    assert natural_break(seed, ratio=0.6) == 0.0  # no wide drop below the second: the share of the best keeps
    light_client = [0.824, 0.684, 0.603, 0.594, 0.583, 0.567, 0.518, 0.392, 0.341]
    assert natural_break(light_client, ratio=0.6) == 0.518  # the drop below the group, not below the best
    assert natural_break([0.9, 0.5, 0.45, 0.4, 0.35, 0.31], ratio=0.6) == 0.0  # one strong score


def test_a_store_s_document_frequencies_weigh_a_word_every_candidate_holds() -> None:
    """Candidates drawn from a store for a question all hold its words; the store's own counts say which
    word is rare, so it is not weighed down as if it were everywhere."""
    from generator.retrieval.scoring import CorpusStats, question_terms, score, spelled_term

    json_term, view_term = question_terms("json view")
    candidates = {"a": {"body": ["json", "view"]}, "b": {"body": ["json"]}, "c": {"body": ["json", "view"]}}
    alone = CorpusStats()
    counts = {json_term: 3, view_term: 400}
    store = CorpusStats(collection=lambda term: counts[term], collection_size=2000)
    for stats in (alone, store):
        for key, fields in candidates.items():
            stats.add(key, fields)
    assert alone.idf(json_term) < alone.idf(view_term)  # among the candidates "json" is everywhere
    assert store.idf(json_term) > store.idf(view_term)  # in the store it is the rare word
    assert (
        score(candidates["b"], [json_term, view_term], store).score
        > score(candidates["b"], [json_term, view_term], alone).score
    )
    assert spelled_term("json", ["JSON", "json data"]).forms == (("json",), ("json", "data"))


def test_a_field_scale_sets_how_length_counts() -> None:
    """Whole documents are read against a typical length of at least 300 body words; passages against the
    candidates' own, so a long passage naming a word once counts less than a short one."""
    from generator.retrieval.scoring import CorpusStats, FieldScale, question_terms, score

    terms = question_terms("cookies")
    short = {"body": ["cooki", "jar"]}
    long = {"body": ["cooki", *["word"] * 40]}
    passages = FieldScale(min_length={"body": 1.0}, length_norm={"body": 0.5}, weights={"body": 1.0})
    judged = {}
    for name, scale in (("documents", FieldScale()), ("passages", passages)):
        stats = CorpusStats(scale=scale)
        stats.add("short", short)
        stats.add("long", long)
        judged[name] = (score(short, terms, stats).score, score(long, terms, stats).score)
    assert judged["documents"][0] == judged["documents"][1]  # both far shorter than a document
    assert judged["passages"][0] > judged["passages"][1]


def test_a_facet_noun_naming_part_of_the_subject_counts() -> None:
    """ "type" in "type hints" is part of the name; ignored as a facet word, a PEP on "a length hint" outranked
    the one on type hints. "limits" in "the benefits and limits of …" still only names the aspect asked."""
    hints = Fields(
        title="Type hints",
        headings="Type hints for functions\nThe typing module",
        body="A type hint annotates a parameter with its expected type. " * 6,
    )
    length = Fields(
        title="A method for exposing a length hint",
        headings="Specification\nRationale",
        body="An iterator may expose a length hint so a list can preallocate. "
        + "The hint is only an estimate. " * 5
        + "The result has type int.",
    )
    judge = RelevanceJudge("type hints")
    assert [t.label for t in judge.terms("type hints")] == ["type", "hints"]
    assert [t.label for t in judge.terms("What are the benefits and limits of type hints?")] == [
        "type",
        "hints",
    ]
    assert [t.label for t in judge.terms("What is the current state of type hints?")] == ["type", "hints"]
    assert [t.label for t in judge.terms("soft memory limit")] == ["soft", "memory", "limit"]
    scores = _judge("type hints", {"hints": hints, "length": length})
    assert scores["length"] < scores["hints"] * KEEP_RATIO


def test_a_chinese_word_without_an_english_twin_does_not_count_against_an_english_document() -> None:
    """软内存限制 over English proposals: a word the glossary cannot translate is not held against a document
    that cannot contain it; a Chinese document is still judged on every word."""
    limit = Fields(
        title="Proposal: a soft memory limit",
        headings="Background\nDesign",
        body="The runtime keeps total memory use under a limit set by the operator. " * 4,
    )
    zh = Fields(title="内存限制", headings="", body="垃圾回收 内存 限制 " * 4)
    judge = RelevanceJudge("记忆体内存限制")  # 记忆体 is no glossary word
    assert "记忆体" in [t.label for t in judge.terms("记忆体内存限制")]
    english, chinese = judge.judge([("en", limit), ("zh", zh)], "记忆体内存限制")
    assert english.topic.named == 1.0 and english.topic.score > 0.6
    assert chinese.topic.named < 1.0 and "missing 记忆体" in chinese.topic.reasons  # it could have named it


def test_a_title_names_a_concept_only_by_a_whole_spelling() -> None:
    """ "type" in "type hints" is also spelled "type hint": a title with only "hint" does not name it, so a PEP
    on "a length hint" or "a built-in type" is not titled after type hints (and no gate had kept it)."""
    from generator.topic.defining import titled_after

    judge = RelevanceJudge("type hints")
    assert titled_after("Type Hints", "type hints", judge)
    assert titled_after("TypedDict: Type Hints for Dictionaries", "type hints", judge)
    assert not titled_after("A method for exposing a length hint", "type hints", judge)
    assert not titled_after("Add frozendict built-in type", "type hints", judge)


def test_a_one_word_subject_a_topic_joins_titles_only_a_document_named_that_alone() -> None:
    """tekton-teps' held-out "trusted resources signing and verification" opened from "Tekton Conformance
    Verification" (titled after its joined subject "verification") although TEP-0091 "Trusted Resources"
    was stored; a joined subject of several words still titles whatever names it ("Try trait")."""
    from generator.topic.defining import titled_after

    topic = "trusted resources signing and verification"
    judge = RelevanceJudge(topic)
    assert not titled_after("Tekton Conformance Verification", topic, judge)
    assert titled_after("Verification", topic, judge)
    assert titled_after("Trusted Resources Signing and Verification", topic, judge)
    rust = "the question mark operator and the Try trait"
    assert titled_after("RFC 3058: Try trait v2", rust, RelevanceJudge(rust))


def test_a_number_after_a_name_is_part_of_what_a_title_names() -> None:
    """ "EEP 49" was read as "eep", so every EEP was titled after it and the run cited seven others and not
    EEP 49 (erlang-eeps); "GHC 2024" named every GHC proposal. A name and its number are read as one word,
    however the document writes them ("EEP 0049", "GHC2024", "UTF-8" and "utf8")."""
    from generator.topic.defining import titled_after

    eep = RelevanceJudge("EEP 49")
    assert titled_after("EEP 49: Value-Based Error Handling Mechanisms", "EEP 49", eep)
    assert titled_after("eep 0049", "EEP 49", eep)
    assert not titled_after("EEP 43: Maps", "EEP 49", eep)
    assert titled_after("GHC2024", "GHC 2024", RelevanceJudge("GHC 2024"))
    assert not titled_after("GHC2021", "GHC 2024", RelevanceJudge("GHC 2024"))
    utf = RelevanceJudge("UTF-8 label names")
    assert titled_after("Support utf8 in label names", "UTF-8 label names", utf)
    assert not titled_after("Label names", "UTF-8 label names", utf)
    # a topic naming fewer parts of a version than the title: OAuth 2 is named by "OAuth 2.0", 3.12 is no 3.11
    assert titled_after("The OAuth 2.0 Authorization Framework", "OAuth 2", RelevanceJudge("OAuth 2"))
    python = RelevanceJudge("Python 3.12 release schedule")
    assert titled_after("Python 3.12 Release Schedule", "Python 3.12 release schedule", python)
    assert not titled_after("Python 3.11 Release Schedule", "Python 3.12 release schedule", python)
    scores = _judge(
        "EEP 49",
        {
            "eep49": Fields(
                title="EEP 49: Value-Based Error Handling",
                headings="Abstract",
                body="The maybe expression. " * 5,
            ),
            "eep43": Fields(title="EEP 43: Maps", headings="Abstract", body="Maps, as EEP 43 has them. " * 5),
        },
    )
    assert scores["eep49"] > 0.3 and scores["eep43"] == 0.0


# A specification and its extensions, as CloudEvents writes them: every extension says "REQUIRED" of its
# attributes, one is titled "Auth Context"; the specification names its version in its title and has the
# "Context Attributes" and "REQUIRED Attributes" sections.
SPEC = Fields(
    title="CloudEvents - Version 1.0.3-wip",
    headings="CloudEvents - Version 1.0.3-wip\nOverview\nContext Attributes\nREQUIRED Attributes\nid\nsource"
    "\nOPTIONAL Attributes\nExtension Context Attributes\nEvent Data",
    body="Every CloudEvent carries context attributes that describe the event. "
    + "The REQUIRED context attributes are id, source, specversion and type. " * 2
    + "Producers MAY add extension context attributes. The event data is the payload. " * 6,
)
AUTH = Fields(
    title="Auth Context",
    headings="Auth Context\nNotational Conventions\nAttributes\nauthtype\nauthid",
    body="This extension embeds information about the principal which triggered an occurrence. "
    + "authtype: REQUIRED. authid: OPTIONAL. Constraints: REQUIRED, MUST be a string. " * 3,
)
SDK = Fields(
    title="CloudEvents SDK Requirements",
    headings="CloudEvents SDK Requirements\nStatus\nTechnical Requirements\nSupported Protocols",
    body="An SDK is required to support the required protocols. Each requirement is required. " * 4
    + "It reads the event's context attributes. ",
)
EXTENSIONS = {
    f"ext{n}": Fields(
        title=f"{name} extension",
        headings=f"{name} extension\nAttributes\nConstraints",
        body=f"The {name} attribute. Type: String. Constraints: REQUIRED. A value is required. " * 3,
    )
    for n, name in enumerate(["Sequence", "Severity", "Expiry Time", "Recorded Time", "Partitioning"])
}


def test_a_translated_word_every_document_uses_does_not_decide_what_a_chinese_topic_is_about() -> None:
    """必需的上下文属性: 必需 becomes "required", which every extension says of every attribute, and the compound
    上下文属性 "context attributes", which the specification names: the rare term decides, so the
    specification ranks first, above the extension titled "Auth Context" (whose "context" and "Attributes"
    are two headings, not the phrase)."""
    judge = RelevanceJudge("必需的上下文属性")
    assert [t.label for t in judge.terms("必需的上下文属性")] == ["必需", "上下文属性"]
    docs = {"spec": SPEC, "auth": AUTH, "sdk": SDK, **EXTENSIONS}
    verdicts = dict(zip(docs, judge.judge(list(docs.items()), "必需的上下文属性"), strict=True))
    ranked = sorted(verdicts, key=lambda key: -verdicts[key].topic.score)
    assert ranked[0] == "spec"
    assert verdicts["spec"].topic.score > 2 * verdicts["auth"].topic.score
    assert max(verdicts[k].topic.score for k in EXTENSIONS) < verdicts["spec"].topic.score * KEEP_RATIO
    # "requirements" in a title counts for little: 必需 weighs its rarity alone, not half the mean
    assert verdicts["sdk"].topic.score < verdicts["spec"].topic.score * KEEP_RATIO


def test_a_specification_naming_its_version_in_its_title_is_no_release_note() -> None:
    """ "CloudEvents - Version 1.0.3" is which edition the specification is; "pytest-5.1.2", "py.test 2.0.1:
    bug fixes" and "Vite 7.0 is out!" announce a release, whose title and headings only list features."""
    from generator.retrieval.scoring import is_release_notes

    def note(title: str) -> bool:
        return is_release_notes(Fields(title=title, headings="Overview\nDesign", body=""))

    assert not note("CloudEvents - Version 1.0.3-wip")
    assert not note("Go 1.5 Bootstrap Plan")
    assert not note("Schema File Format 1.0.0")
    assert note("pytest-5.1.2") and note("py.test 2.0.1: bug fixes") and note("Vite 7.0 is out!")
    assert note("Changelog") and note("NumPy 1.22.0 Release Notes")
    spec = RelevanceJudge("context attributes").judge([("spec", SPEC)], "context attributes")[0]
    assert any(r.startswith("headings names") for r in spec.topic.reasons)


def test_a_phrase_is_not_read_across_two_headings() -> None:
    """ "Auth Context" then "Attributes" are two headings: together they do not name "context attributes"."""
    judge = RelevanceJudge("上下文属性")
    auth, spec = judge.judge([("auth", AUTH), ("spec", SPEC)], "上下文属性")
    assert not any(r.startswith("headings names") for r in auth.topic.reasons)
    assert any(r.startswith("headings names 上下文属性") for r in spec.topic.reasons)


def test_a_hyphenated_compound_is_one_concept() -> None:
    """ "non-lexical lifetimes": an RFC on "lexical syntax simplification" names "lexical", never the
    compound, and is not half about the topic; the NLL proposal names it."""
    judge = RelevanceJudge("non-lexical lifetimes")
    assert [t.label for t in judge.terms("non-lexical lifetimes")] == ["non-lexical", "lifetimes"]
    nll = Fields(
        title="nll",
        headings="Summary\nMotivation",
        body="Extend the borrow checker with non-lexical lifetimes, based on the control-flow graph. " * 3,
    )
    lexical = Fields(
        title="Lexical syntax simplification",
        headings="Summary\nLexical rules",
        body="Simplify the lexical grammar. Lexical tokens no longer carry lifetimes or other names. " * 3,
    )
    scores = _judge("non-lexical lifetimes", {"nll": nll, "lexical": lexical})
    assert scores["lexical"] < scores["nll"] * KEEP_RATIO
    assert [t.label for t in judge.terms("built-in types")] == ["built", "types"]


CONST_GENERICS = Fields(
    title="Const generics",
    headings="Summary\nDetailed design",
    body="Allow types to be generic over constant values: const generics, written `struct Foo<const N: usize>`.",
)
ASSOCIATED = Fields(
    title="Associated items",
    headings="Summary\nAssociated consts in generic code\nGeneric associated consts in array sizes",
    body="Traits gain associated types and consts. Generic code may use a const of the trait; a generic "
    "function constrains its associated types.",
)


def test_a_topic_s_adjacent_words_are_a_phrase_a_document_must_name() -> None:
    """ "const generics": an RFC on associated items names "const" and "generic" often, side by side in
    the other order and never as the name, so it is not on point; the RFC named after the topic is."""
    assert name_phrases("const generics") == ((("const", "generic"),),)
    assert (
        name_phrases("How does deepkb keep a knowledge base fresh?") == ()
    )  # a question's verbs name nothing
    judge = RelevanceJudge("const generics")
    others = [(f"cg{n}", CONST_GENERICS) for n in range(MIN_PHRASED)]  # the collection writes the name
    *_, about, passing = judge.judge([*others, ("assoc", ASSOCIATED)], "const generics")
    assert about.topic.on_point and about.topic.phrased
    assert not passing.topic.phrased and not passing.topic.on_point
    assert passing.topic.named == 1.0  # both words are there, only apart


def test_a_phrase_no_candidate_writes_asks_nothing() -> None:
    """The documents write the operator as `?`, never "question mark operator": that subject's phrase asks
    nothing of them, and a document naming its words is judged on them as before; so is a document of a
    topic joining two subjects that names one of them."""
    [verdict] = RelevanceJudge("question mark operator").judge([("try", TRY)], "question mark operator")
    assert verdict.topic.phrased and verdict.topic.on_point
    joined = RelevanceJudge("const generics and associated items")
    others = [(f"cg{n}", CONST_GENERICS) for n in range(MIN_PHRASED)]
    assert all(v.topic.phrased for v in joined.judge([*others, ("assoc", ASSOCIATED)], "x"))
    once = RelevanceJudge("const generics").judge([("cg", CONST_GENERICS), ("assoc", ASSOCIATED)], "x")
    assert all(v.topic.phrased for v in once)  # one document's wording is no name the collection uses


TRY = Fields(
    title="Trait-based exception handling",
    headings="Summary\nThe ? operator",
    body="The question of error handling: the `?` operator propagates an error, a mark of its early return.",
)


def test_a_chinese_document_reads_a_compound_topic_as_its_words() -> None:
    """路由配置 is 路由 and 配置 to a Chinese page, as "routing configuration" is two words to an English one:
    VitePress' routing page (titled 路由, saying 配置 paragraphs later) scored 0 when the compound was read as
    one phrase whose words had to stand side by side, and NestJS's 配置 page no more for 环境变量配置."""
    routing = Fields(
        title="路由",
        headings="路由\n基于文件的路由\n链接页面\n生成简洁的 URL",
        body="VitePress 使用基于文件的路由，这意味着生成的 HTML 页面是从源 Markdown 文件的目录结构映射而来的。"
        "链接页面时可以使用绝对路径和相对路径。生成简洁的 URL 需要服务器的支持。"
        "若要启用这一功能，请在站点中把 cleanUrls 设为 true，这一项写在配置文件里。",
    )
    theme = Fields(
        title="主题",
        headings="主题\n使用自定义主题",
        body="主题决定页面的外观。你可以在主题入口文件中导出一个对象来使用自定义主题。",
    )
    judge = RelevanceJudge("路由配置")
    verdicts = judge.judge([("routing", routing), ("theme", theme)], "路由配置")
    assert verdicts[0].topic.score >= FLOOR
    assert verdicts[0].topic.score > verdicts[1].topic.score


def test_a_latin_word_of_a_chinese_topic_is_not_cut_into_its_chinese_spelling() -> None:
    """ "API" in 热模块替换 API is the word the Chinese page writes ("HMR API"), not its glossary spelling 应用
    程序接口 cut in two: only a Chinese word of the question is read as its words."""
    api = next(t for t in RelevanceJudge("热模块替换 API").terms("热模块替换 API") if t.label == "api")
    fields = {"title": ["hmr", "api"], "body": ["手动", "hmr", "api", "主要", "用于", "框架"]}
    assert cut_words(fields, api) == (api.forms,)
    compound = RelevanceJudge("路由配置").terms("路由配置")[0]
    assert cut_words(fields, compound) == ((("路由",),), (("配置",),))


def test_a_chinese_question_s_which_when_and_should_ask_nothing_of_a_document() -> None:
    """哪个 "which", (什么)时候 "when" and 应该 "should" shape a Chinese question as their English twins do an
    English one: a page on the thing asked about never writes them. Read as the question's content words,
    they left such a page naming under half of the topic, off point and below the floor, and the run without
    a source (hertz-zh's network-library page for "…默认用哪个网络库？什么时候应该换成…")."""
    topic = "Tornado 默认用哪个事件循环？什么时候应该换成 uvloop"
    loop = Fields(
        title="事件循环",
        headings="事件循环\n使用方式\n事件循环选择",
        body="默认使用 asyncio 原生的事件循环，也可以改用 uvloop。"
        "uvloop 在连接多的场景下性能更好，asyncio 的事件循环则不需要额外安装。",
    )
    [verdict] = RelevanceJudge(topic).judge([("loop", loop)], topic)
    assert verdict.topic.on_point
    assert verdict.topic.score >= FLOOR
