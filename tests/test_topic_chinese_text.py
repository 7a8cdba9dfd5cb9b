"""Chinese text in a topic report as Chinese writes it (issue 30 items 6 and 7)."""

from __future__ import annotations

from generator.site.pages.topic import claim_markdown
from generator.topic.findings import Claim


def test_a_chinese_quote_runs_its_sentences_on_as_chinese_writes_them() -> None:
    # quoted sentence by sentence and joined with spaces, vuex's "对象。 当应用…" read as a foreign text would
    claim = Claim(
        "由于使用单一状态树，应用的所有状态会集中到一个比较大的对象。 当应用变得非常复杂时，store 对象就有可能变得相当臃肿。",
        ["s"],
    )
    quoted = claim_markdown(claim, {"s": 1})
    assert "对象。当应用变得非常复杂时" in quoted and "臃肿。 [" in quoted  # the citation keeps its space
    latin = Claim("Stores hold state. They notify subscribers.", ["s"])
    assert "state. They notify" in claim_markdown(latin, {"s": 1})


# wujie's guide/preload.md (session 27's tuning miss): its paragraphs close without a full stop, as 123 of the
# 172 prose paragraphs of wujie's docs do, so the page titled 预加载 had no sentence to quote and was never cited
PRELOAD = (
    "# 预加载\n\n预加载能力可以极大的提升子应用打开的首屏时间\n\n## 预加载\n\n"
    "预加载指的是在应用空闲的时候requestIdleCallback将所需要的静态资源提前从网络中加载到内存中，详见preloadApp\n"
)
START = "# 快速上手\n\n非必须，由于preloadApp和startApp参数重复，可以通过setupApp来设置默认参数。\n"


def test_a_chinese_paragraph_closing_without_its_full_stop_is_a_sentence() -> None:
    from generator.topic import workspace as wsp
    from generator.topic.definition import definition
    from generator.topic.judge import RelevanceJudge
    from generator.topic.sentences import is_prose

    assert is_prose("预加载能力可以极大的提升子应用打开的首屏时间")
    assert not is_prose("CSS 冲突示例")  # a caption says too little to be a sentence
    assert not is_prose("预加载能力可以极大的提升子应用打开的首屏时间，")  # a clause running on
    sources = [
        wsp.RawSource(sid, "local", f"local:docs/{sid}.md", title, "t", text, kind="local", relevance=rel)
        for sid, title, text, rel in [
            ("local-p", "预加载", PRELOAD, 0.5),
            ("local-s", "快速上手", START, 0.9),
        ]
    ]
    opening = definition(sources, RelevanceJudge("预加载"), lambda s: True)
    assert opening is not None and opening.sources == ["local-p"]
    assert opening.text == "预加载能力可以极大的提升子应用打开的首屏时间"
