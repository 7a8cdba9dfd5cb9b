"""Synonym-canonical tags: inflections and Chinese variants land on one tag; users extend the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.errors import StoreError
from generator.kb.synonyms import (
    Synonyms,
    canonical_tag,
    canonical_tags,
    default_synonyms_json,
    load_synonyms,
)
from generator.store import KBPaths, write_json


@pytest.mark.parametrize(
    "term", ["trade", "trading", "trades", "Trading", "TRADED", " trader ", "交易", "ｔｒａｄｅｓ"]
)
def test_trade_variants_end_on_trade(term: str) -> None:
    assert canonical_tag(term) == "trade"


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("机器学习", "machine-learning"),
        ("Machine Learning", "machine-learning"),
        ("machine_learning", "machine-learning"),
        ("数据库", "database"),
        ("Databases", "database"),
        ("LLMs", "large-language-model"),
        ("Large Language Models", "large-language-model"),
        ("神经网络", "neural-network"),
        ("C++", "cpp"),
    ],
)
def test_shipped_defaults_map_variants(term: str, expected: str) -> None:
    assert canonical_tag(term) == expected


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("strategies", "strategy"),  # ies → y
        ("Boxes", "box"),  # xes → x
        ("classes", "class"),  # sses → ss
        ("analysis", "analysis"),  # guard: -is is not a plural
        ("status", "status"),  # guard: -us
        ("news", "news"),  # guard rule
        ("GitHub Actions", "github-action"),  # only the head word is singularized
        ("蛋白酶体", "蛋白酶体"),  # Chinese that neither the table nor the glossary knows stays itself
    ],
)
def test_unknown_terms_are_singular_slugs(term: str, expected: str) -> None:
    assert canonical_tag(term) == expected


def test_tags_are_slug_safe_and_bounded() -> None:
    tag = canonical_tag("<img src=x onerror=alert(1)>")
    assert tag == "img-src-x-onerror-alert-1"
    assert canonical_tag("../../etc/passwd") == "etc-passwd"
    assert len(canonical_tag("word " * 50)) <= 60
    assert canonical_tag("   ") == "" and canonical_tag("!!!") == ""


def test_canonical_tags_dedupes_keeps_order_drops_empties() -> None:
    terms = ["Trading", "Python", "交易", "", None, "trades", "py", "!!", 3]
    assert canonical_tags(terms) == ["trade", "python", "3"]


def test_stem_rules_come_from_the_table() -> None:
    table = default_synonyms_json()
    no_stem = {**table, "normalization": {**table["normalization"], "stem": False}}
    synonyms = Synonyms.from_json(no_stem)
    # without stemming `trades` still singularizes onto `trade`, while the stem-only match is gone
    assert canonical_tag("trades", synonyms) == "trade"
    assert canonical_tag("traded", synonyms) == "traded"


def test_prefer_english_off_keeps_chinese_tags_chinese() -> None:
    table = default_synonyms_json()
    synonyms = Synonyms.from_json(
        {**table, "normalization": {**table["normalization"], "prefer_english": False}}
    )
    assert canonical_tag("买卖", synonyms) == "交易"
    assert canonical_tag("trading", synonyms) == "trade"


def test_first_load_writes_defaults_into_the_kb(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    paths.site_src.mkdir()
    load_synonyms(paths)
    written = json.loads((paths.site_src / "_synonyms.json").read_text(encoding="utf-8"))
    assert set(written) == {"normalization", "stem_rules", "canonical"}
    assert set(written["normalization"]) == {"lowercase", "singularize", "stem", "prefer_english"}
    assert "交易" in written["canonical"]["trade"]


def test_user_extension_via_kb_synonyms_file(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    user = default_synonyms_json()
    user = {
        **user,
        "canonical": {**user["canonical"], "quantum-computing": ["quantum computers", "量子计算"]},
    }
    user["canonical"]["backtest"] = ["back-testing", "回测", "trading simulation"]
    write_json(paths.site_src / "_synonyms.json", user)
    synonyms = load_synonyms(paths)
    assert canonical_tag("量子计算", synonyms) == "quantum-computing"
    assert canonical_tag("Quantum Computer", synonyms) == "quantum-computing"
    assert canonical_tag("回测", synonyms) == "backtest"
    assert canonical_tag("trading", synonyms) == "trade"  # the defaults are still there


def test_user_may_move_a_variant_to_another_term(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    write_json(paths.site_src / "_synonyms.json", {"canonical": {"market": ["trading", "markets"]}})
    synonyms = load_synonyms(paths)
    assert canonical_tag("trading", synonyms) == "market"
    assert canonical_tag("交易", synonyms) == "trade"


def test_broken_user_file_is_one_clear_error(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    paths.site_src.mkdir()
    (paths.site_src / "_synonyms.json").write_text('{"canonical": ["not", "a", "mapping"]}', encoding="utf-8")
    with pytest.raises(StoreError, match="canonical"):
        load_synonyms(paths)
