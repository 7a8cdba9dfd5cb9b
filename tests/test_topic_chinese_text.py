"""Chinese text in a topic report as Chinese writes it (issue 30 items 6 and 7)."""

from __future__ import annotations

from generator.site.pages.topic import claim_markdown
from generator.topic.analyze import Claim


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
