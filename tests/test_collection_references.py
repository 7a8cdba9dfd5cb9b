"""What a collection's other pages say of one: the heading a title-less fragment is included under titles it,
the links to a page (their text and sentence) are searched as its words, and the words naming the collection
ask nothing of a page (sources/local.py, documents/references.py, retrieval/scoring.py)."""

from __future__ import annotations

from pathlib import Path

from generator.documents import read_text
from generator.documents.references import INCLUDE, LINK, Reference, references
from generator.retrieval.scoring import Fields
from generator.sources.base import create_search_provider
from generator.topic.defining import titled_after
from generator.topic.judge import RelevanceJudge

FRAGMENT = (
    "\nThe room state *S′(E)* after an event *E* is defined in terms of the room state *S(E)* before *E*.\n\n"
    "#### Definitions\n\nThe algorithm uses the following definitions: power events, the unconflicted state"
    " map and the conflicted state set.\n"
)
VERSION = (
    "---\ntitle: Room Version {n}\n---\n\nThis room version builds on [version 1](/rooms/v1).\n\n"
    "## Server implementation components\n\n### State resolution\n\n{{{{% added-in v={n} %}}}}\n\n"
    '{{{{% rver-fragment name="v2-state-res" %}}}}\n\n### Redactions\n\nRedactions keep the event IDs.\n'
)


def _matrix(root: Path) -> Path:
    (root / "rooms" / "fragments").mkdir(parents=True)
    (root / "rooms" / "fragments" / "v2-state-res.md").write_text(FRAGMENT, encoding="utf-8")
    for n in (1, 2, 3):
        (root / "rooms" / f"v{n}.md").write_text(VERSION.format(n=n), encoding="utf-8")
    (root / "_index.md").write_text("# Matrix Specification\n\nMatrix rooms hold events.\n", encoding="utf-8")
    return root


def test_includes_name_their_heading_and_links_their_sentence() -> None:
    files = {"rooms/fragments/v2-state-res.md", "rooms/v1.md", "rooms/v2.md", "mc.md", "retransform.md"}
    made = references(VERSION.format(n=2), "rooms/v2.md", files)
    assert made == [
        Reference("rooms/v1.md", LINK, "version 1", "This room version builds on version 1."),
        Reference("rooms/fragments/v2-state-res.md", INCLUDE, "State resolution"),
    ]
    text = "# mc\n\n```bash\n[x](retransform.md)\n```\n\n编译生成`.class`文件之后，可以结合[retransform](retransform.md)命令实现热更新代码。注意，mc 命令有可能失败。\n"
    assert references(text, "mc.md", files) == [
        Reference(
            "retransform.md",
            LINK,
            "retransform",
            "编译生成 .class 文件之后，可以结合retransform命令实现热更新代码。",
        )
    ]
    # a site path the collection's folder leaves out ("/doc/…" served from site/docs/doc), an external link
    assert [r.target for r in references("[a](/doc/mc.html) [b](https://x.test/mc.md)", "x.md", files)] == [
        "mc.md"
    ]


def test_a_fragment_opening_on_prose_is_not_titled_by_its_part_heading() -> None:
    assert read_text(FRAGMENT, name="v2-state-res.md").title == "v2 state res"
    assert read_text("# Guide\n\nIntro.\n\n#### Details\n", name="g.md").title == "Guide"


def test_a_title_less_fragment_is_found_and_named_by_the_heading_it_is_included_under(tmp_path: Path) -> None:
    docs = _matrix(tmp_path / "docs")
    provider = create_search_provider(f"local:{docs}", cache_dir=tmp_path / "cache")
    hits = provider.search("state resolution", limit=5)
    assert hits[0].extra["path"] == "rooms/fragments/v2-state-res.md"
    assert hits[0].title == "State resolution"
    # the room version pages hold only the include under their heading: it names the fragment, not them
    version = next(h for h in provider.search("redactions", limit=5) if h.extra["path"] == "rooms/v2.md")
    assert version.extra["headings"] == ["Server implementation components", "Redactions"]
    # a new includer is picked up by the fragment, a removed one dropped (the fragment is indexed again)
    (docs / "rooms" / "v3.md").write_text(
        VERSION.format(n=3).replace("### State resolution", "### Resolving state")
    )
    for n in (1, 2):
        (docs / "rooms" / f"v{n}.md").unlink()
    provider._fresh_until = 0.0
    [hit] = [h for h in provider.search("state resolution", limit=5) if "v2-state-res" in h.extra["path"]]
    assert hit.title == "Resolving state"


def test_a_page_is_found_by_what_the_links_to_it_say(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "retransform.md").write_text(
        "# retransform\n\n加载外部的 .class 文件，retransform jvm 已加载的类。\n", encoding="utf-8"
    )
    (docs / "mc.md").write_text(
        "# mc\n\n编译生成 .class 文件之后，可以结合[retransform](retransform.md)命令实现热更新代码。\n",
        encoding="utf-8",
    )
    (docs / "jad.md").write_text("# jad\n\n反编译指定已加载类的源码。\n", encoding="utf-8")
    provider = create_search_provider(f"local:{docs}", cache_dir=tmp_path / "cache")
    hits = {h.extra["path"]: h for h in provider.search("热更新", limit=5)}
    assert "retransform.md" in hits
    assert "热更新" in hits["retransform.md"].extra["anchors"]


def test_the_words_naming_the_collection_ask_nothing_of_its_pages(tmp_path: Path) -> None:
    docs = _matrix(tmp_path / "docs")
    provider = create_search_provider(f"local:{docs}", cache_dir=tmp_path / "cache")
    [hit] = [
        h for h in provider.search("state resolution in Matrix", limit=5) if "v2-state-res" in h.extra["path"]
    ]
    assert hit.extra["collection_words"] == ["matrix"]  # the home page's title names it
    topic = "How does state resolution work in Matrix?"
    judge = RelevanceJudge(topic)
    fragment = Fields(title="State resolution", headings="", body=FRAGMENT)
    home = Fields(
        title="Matrix Specification", headings="", body="Matrix rooms hold events and state resolution."
    )
    bare, named = judge.judge([("f", fragment), ("h", home)], topic)
    judge = RelevanceJudge(topic)
    said = Fields(title=fragment.title, headings="", body=FRAGMENT, context="matrix")
    within, home_within = judge.judge(
        [("f", said), ("h", Fields(**{**home.__dict__, "context": "matrix"}))], topic
    )
    assert bare.topic.score < named.topic.score and within.topic.score > home_within.topic.score
    assert not titled_after("State resolution", topic, judge)
    assert titled_after("State resolution", topic, judge, collection="matrix")


def test_the_analysis_reads_the_topic_without_the_name_of_the_collection_its_sources_share(
    tmp_path: Path,
) -> None:
    from generator.sources.base import SearchHit
    from generator.store import KBPaths
    from generator.topic.analyze import collection_of
    from generator.topic.workspace import write_raw_source

    paths = KBPaths(tmp_path / "kb")
    stored = [
        write_raw_source(
            paths,
            "t",
            SearchHit(
                url=f"local:docs/{name}.md",
                title=name,
                content="采样生成火焰图。",
                source="local",
                kind="local",
                extra={"collection_words": words},
            ),
        )
        for name, words in (("profiler", ["arthas", "命令"]), ("commands", ["arthas"]))
    ]
    assert [s.collection for s in stored] == ["arthas 命令", "arthas"]
    assert collection_of(stored) == "arthas"
    topic = "arthas 怎么生成火焰图"
    assert "arthas" in [t.label for t in RelevanceJudge(topic).terms(topic)]
    assert "arthas" not in [t.label for t in RelevanceJudge(topic, collection="arthas").terms(topic)]
    # a source from no collection (the web) shares no name with the others
    web = write_raw_source(
        paths, "t", SearchHit(url="https://x.test/a", title="a", content="火焰图。", source="web")
    )
    assert collection_of([*stored, web]) == ""
