"""The local search ranks a collection's pages by the words that tell them apart: not by the product name
every page may repeat (the home page's title, sources/local.py `collection_words`), nor by Chinese function
words (的, 在, 和, 怎么)."""

from __future__ import annotations

from pathlib import Path

from generator.sources.base import create_search_provider
from generator.sources.local import LocalProvider, fts_query


def _search(docs: Path, tmp_path: Path, query: str) -> list[str]:
    provider = create_search_provider(f"local:{docs}", cache_dir=tmp_path / "cache")
    assert isinstance(provider, LocalProvider)
    return [hit.extra["path"] for hit in provider.search(query, limit=5)]


def _tmagic(tmp_path: Path) -> Path:
    """Shaped like tmagic-editor's docs: the home page titled by the product, API pages that repeat its name,
    and a short guide page titled 数据源 that never writes it."""
    docs = tmp_path / "docs"
    (docs / "api").mkdir(parents=True)
    (docs / "guide").mkdir()
    (docs / "index.md").write_text(
        "---\ntitle: tmagic-editor\n---\n\n可视化低代码编辑器。\n", encoding="utf-8"
    )
    for n in range(6):
        (docs / "api" / f"props{n}.md").write_text(
            f"# Editor组件 props {n}\n\n"
            + "tmagic-editor 的组件在编辑器中使用，tmagic-editor 可以添加配置，tmagic-editor 会显示它。\n\n"
            * 3
            + "数据源的配置见 tmagic-editor 的说明。\n",
            encoding="utf-8",
        )
    (docs / "guide" / "data-source.md").write_text(
        "# 数据源\n\n编辑器左侧数据源面板添加数据源，默认提供两种基础数据源：静态数据与 HTTP 数据源。\n\n"
        "## 在组件中使用\n\n表单类型 data-source-input 是数据源模板输入框。\n",
        encoding="utf-8",
    )
    return docs


def test_the_product_name_does_not_rank_the_pages(tmp_path: Path) -> None:
    """tmagic-zh: "tmagic-editor 的数据源怎么添加和在组件中使用？" ranked guide/advanced/data-source.md eleventh,
    below pages that repeat "tmagic-editor", so the report quoted api/editor/props.md throughout."""
    paths = _search(_tmagic(tmp_path), tmp_path, "tmagic-editor 的数据源怎么添加和在组件中使用？")
    assert paths[0] == "guide/data-source.md"


def test_a_query_of_the_name_alone_still_searches_by_it(tmp_path: Path) -> None:
    paths = _search(_tmagic(tmp_path), tmp_path, "tmagic-editor")
    assert paths and "guide/data-source.md" not in paths


def test_chinese_function_words_are_not_searched() -> None:
    terms = fts_query("Apollo 的灰度发布怎么用？").split(" OR ")
    assert '"灰度"' in terms and '"发布"' in terms
    assert not {'"的"', '"怎么"'} & set(terms)


def test_a_question_matching_only_chinese_adverbs_finds_nothing(tmp_path: Path) -> None:
    """Apollo's off-topic question "红烧肉怎么做才不油腻？" (how to cook braised pork) found configuration pages
    through 才 and 不 alone, and became a report from three unrelated pages."""
    assert fts_query("红烧肉怎么做才不油腻？").split(" OR ") == fts_query("红烧肉油腻").split(" OR ")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "release.md").write_text(
        "# 发布\n\n配置不生效时才需要重新发布，灰度规则也不会丢失。\n", encoding="utf-8"
    )
    assert _search(docs, tmp_path, "红烧肉怎么做才不油腻？") == []
