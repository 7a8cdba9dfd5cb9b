"""The bilingual glossary: query expansion across languages and Chinese tags meeting their English twins."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from kb_fakes import add_topic

from generator.cli import cli
from generator.kb.glossary import Glossary, default_glossary
from generator.kb.index import update_index
from generator.kb.search import search
from generator.kb.synonyms import canonical_tag, canonical_tags, load_synonyms
from generator.store import KBPaths, write_json


def test_the_seed_examples_are_shipped() -> None:
    glossary = default_glossary()
    assert glossary.english("套利") == ["arbitrage"]
    assert glossary.english("交易")[0] == "trade"
    assert glossary.english("交易策略") == ["trading strategy"]
    assert glossary.english("进度条") == ["progress bar"]  # a terminal's widget, as click and tqdm name it
    assert "套利" in glossary.chinese("Arbitrage")
    assert len(glossary.zh_en) >= 300


def test_a_compound_is_translated_word_by_word_only_when_every_word_is_known() -> None:
    glossary = default_glossary()
    assert glossary.segment("套利交易策略") == ["套利", "交易策略"]  # the glossary's longest terms first
    assert glossary.english("套利交易策略") == ["arbitrage trading strategy"]
    assert glossary.english("蛋白酶体降解") == []  # not every word is known: no guess


def test_chinese_tags_meet_their_english_twins() -> None:
    assert canonical_tag("交易策略") == canonical_tag("trading strategies") == "trading-strategy"
    assert canonical_tag("套利") == canonical_tag("Arbitrage") == "arbitrage"
    assert canonical_tag("量化交易策略") == canonical_tag("quantitative trading strategy")
    assert canonical_tags(["交易策略", "Trading Strategy", "trading-strategies"]) == ["trading-strategy"]


def test_a_knowledge_base_extends_the_glossary(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    paths.site_src.mkdir(parents=True)
    write_json(paths.site_src / "_synonyms.json", {"canonical": {}, "glossary": {"蛋白酶体": ["proteasome"]}})
    synonyms = load_synonyms(paths)
    assert synonyms.canonical_tag("蛋白酶体") == "proteasome"
    assert synonyms.canonical_tag("套利") == "arbitrage"  # the shipped entries stay


def test_a_malformed_glossary_entry_is_named() -> None:
    try:
        Glossary.from_json({"套利": 3})
    except Exception as exc:  # StoreError: one line naming the term
        assert "套利" in str(exc)
    else:
        raise AssertionError("a malformed entry was accepted")


def test_knowledge_search_in_chinese_finds_english_sources(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    add_topic(
        paths,
        "price-gaps",
        topic="Price gaps between exchanges",
        tags=["exchange"],
        report="Traders buy on one exchange and sell on another.",
        sources={"Cross-exchange arbitrage": "Arbitrage closes the price gap between two venues."},
    )
    add_topic(paths, "compilers", topic="Compilers", tags=["compiler"], report="Register allocation.")
    update_index(paths)
    assert any("arbitrage" in r.title.lower() for r in search(paths, "套利"))
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "knowledge", "search", "套利", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows and all(not r["id"].startswith("topic:compilers") for r in rows)
    assert any(r["id"].startswith("source:price-gaps/") for r in rows)


def test_the_site_ships_the_glossary_ask_uses_with_the_knowledge_bases_own_terms(tmp_path: Path) -> None:
    from generator.site.pagefind import glossary_json

    shipped = json.loads(glossary_json(tmp_path))["zh_en"]
    assert shipped["中间件"] == ["middleware"] and shipped["知识库"] == ["knowledge base"]
    (tmp_path / "_synonyms.json").write_text(
        json.dumps({"glossary": {"珠算": ["abacus"], "中间件": ["middleware", "interceptor"]}}),
        encoding="utf-8",
    )
    own = json.loads(glossary_json(tmp_path))["zh_en"]
    assert own["珠算"] == ["abacus"] and own["中间件"] == ["middleware", "interceptor"]
    (tmp_path / "_synonyms.json").write_text("{broken", encoding="utf-8")
    assert json.loads(glossary_json(tmp_path))["zh_en"] == shipped  # a broken file leaves the shipped one


def test_a_two_word_compound_is_one_term_with_every_spelling() -> None:
    """上下文属性 reads "context attributes" (one concept), 属性包装器 "property wrapper" as well as
    "attribute wrapper"; a particle parts two words (必需的…), and a run of three words stays cut."""
    glossary = default_glossary()
    assert glossary.compounds("必需的上下文属性") == ["必需", "的", "上下文属性"]
    assert "property wrapper" in glossary.english("属性包装器")
    assert glossary.english("属性包装器")[0] == "attribute wrapper"  # the canonical spellings first
    assert glossary.compounds("测试命令行应用") == ["测试", "命令行", "应用"]
    assert glossary.compounds("上下文蛋白酶体") == glossary.segment("上下文蛋白酶体")  # an unknown word: cut


def test_propagation_is_a_term_so_context_propagation_reaches_english_specifications() -> None:
    """上下文传播 over an English specification: without 传播 no spelling was made, the search ran on 上下文
    (context) alone and found the Context API, never "Propagators API" nor "Context Propagation"."""
    glossary = default_glossary()
    assert glossary.english("上下文传播")[0] == "context propagation"
    assert "上下文传播" in glossary.compounds("上下文传播")


def test_a_glossary_term_never_cuts_a_word_as_documents_are_read() -> None:
    """覆盖 ("override") is a glossary term, 覆盖率 (coverage) a word: cutting 测试覆盖率 at the glossary's term
    left 率 alone, so no document titled "测试覆盖率" named the topic "测试覆盖率" (Vitest's guide, 113 of 1,287
    Chinese headings in five documentation sets: 自定义指令, 状态机, 代码覆盖率…)."""
    from generator.retrieval.scoring import tokens
    from generator.topic.defining import names_topic
    from generator.topic.judge import RelevanceJudge

    glossary = default_glossary()
    assert glossary.segment("测试覆盖率") == tokens("测试覆盖率")
    assert glossary.segment("套利交易策略") == ["套利", "交易策略"]  # a term jieba cuts stays whole
    for topic in ("测试覆盖率", "自定义指令", "状态机"):
        assert names_topic(topic, topic, RelevanceJudge(topic))
