"""The page named after a question's subject is stored and opens its report, and a neighbour's page saying who
governs the subject is no definition of it (issue 30 item 3; session 40's held-out datapackage-spec and
beego-zh: "Where can a Data Package keep its data…" never stored standard/data-package.mdx and opened from
overview/governance.md's "The Data Package Standard is governed by a working group…")."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from topic_fakes import component_page, offline

from generator.sources.base import SearchHit, SearchProvider
from generator.store import KBPaths
from generator.topic.defining import defines, named_as, opens_with_subject
from generator.topic.judge import RelevanceJudge
from generator.topic.research import ResearchContext, seed_research
from generator.topic.subject_sources import defining_sources
from generator.topic.workspace import list_raw_sources

TOPIC = (
    "Where can a Crate Bundle keep its data: local files, URLs, several files or inline in the descriptor?"
)

BUNDLE = (
    "# Crate Bundle\n\nA Crate Bundle is a simple container format for describing a coherent collection of data "
    "in a single bundle.\n\n## Resources\n\nWhat the bundle holds can be provided as resources placed beside "
    "its manifest, as remote resources referenced by address, or written into the manifest itself.\n"
    # …and, as a specification's page does, a long account of its other properties
    + "".join(
        f"\n## {name.title()}\n\nThe {name} property is a string naming the bundle's {name}; a publisher sets "
        f"it once, and a registry shows the {name} beside the bundle's title and version.\n"
        for name in (
            "name",
            "id",
            "licenses",
            "title",
            "description",
            "homepage",
            "image",
            "version",
            "created",
        )
    )
)
GOVERNANCE = (
    "# Governance\n\nThe Crate Bundle Standard is governed by a working group made of community members. The "
    "group meets every month; several members keep the local files of each meeting.\n"
)
# recipes for crate bundles, as every page of a collection named after its subject is, naming the question's
# other words far more often than the page of the subject does
SHELVES = [
    "cellar",
    "attic",
    "garage",
    "harbour",
    "orchard",
    "quarry",
    "meadow",
    "canyon",
    "lagoon",
    "glacier",
]
NEIGHBOURS = {
    f"{shelf}.md": (
        f"# Crate Bundle {shelf.title()} Recipe\n\nThe {shelf} recipe keeps a crate bundle's data in local "
        f"files, URLs and inline in the descriptor. In the {shelf}, local files sit beside the crate bundle's "
        "descriptor; URLs point at remote files; several files are concatenated; inline data lives in the "
        f"descriptor, so the {shelf}'s local files, URLs and inline data stay together in one crate bundle.\n"
    )
    for shelf in SHELVES
}


def test_a_sentence_saying_who_governs_the_subject_does_not_open_on_it() -> None:
    assert not opens_with_subject(GOVERNANCE.split("\n\n", 1)[1], "Crate Bundle")
    assert not opens_with_subject("Crate Bundle 由社区工作组维护，每月开会一次。", "Crate Bundle")
    # what the subject is or does still opens on it
    assert opens_with_subject("A Crate Bundle is a simple container format for data.", "Crate Bundle")
    assert opens_with_subject(
        "The Crate Bundle Standard is a format for data and its metadata.", "Crate Bundle"
    )


def test_a_page_named_as_the_subject_defines_it_whatever_the_question_asks() -> None:
    judge = RelevanceJudge(TOPIC)
    assert defines("Crate Bundle", "A Crate Bundle is a container.", TOPIC, judge)
    assert not defines("Governance", GOVERNANCE.split("\n\n", 1)[1], TOPIC, judge)
    # in a collection named after the subject, the page titled with its whole name is still its page
    assert named_as("Crate Bundle", "Crate Bundle", "crate bundle")
    # a page's folder says what its title leaves unsaid: "事务" under orm/ is the page of "Beego ORM 事务"
    assert named_as("事务", "Beego ORM 事务", "beego", "local:docs/orm/transaction.md")
    assert not named_as("事务", "Beego ORM 事务", "beego", "local:docs/web/transaction.md")
    assert not named_as("ORM 使用", "Beego ORM 事务", "beego", "local:docs/orm/README.md")


class Shelf:
    """A search back end ranking by the words a page shares with the query, a page titled with the query
    first; it gives `limit` hits, as every provider does."""

    def __init__(self, pages: dict[str, str]) -> None:
        self.pages = pages

    def search(self, text: str, limit: int = 8) -> list[SearchHit]:
        words = set(re.findall(r"\w+", text.lower()))

        def rank(name: str) -> tuple[int, int]:
            title = self.pages[name].split("\n", 1)[0].strip("# ").lower()
            return (-(title == text.lower()), -len(words & set(re.findall(r"\w+", self.pages[name].lower()))))

        return [
            SearchHit(
                url=f"https://bundles.example/{name}",
                title=self.pages[name].split("\n", 1)[0].strip("# "),
                content=self.pages[name],
                source="shelf",
            )
            for name in sorted(self.pages, key=rank)[:limit]
        ]


def test_the_seed_stores_the_page_named_as_the_subject_the_question_s_words_never_find(kb_root: Path) -> None:
    pages = {"bundle": BUNDLE, "governance": GOVERNANCE, **NEIGHBOURS}
    shelf: dict[str, SearchProvider] = {"shelf": Shelf(pages)}  # type: ignore[dict-item]
    ctx = ResearchContext(KBPaths(kb_root), "bundle", TOPIC, offline(), shelf, crawl=False)
    assert "bundle" not in [hit.url.rsplit("/", 1)[1] for hit in Shelf(pages).search(TOPIC)]
    stored = seed_research(ctx).sources
    titles = {raw.id: raw.title for raw in list_raw_sources(KBPaths(kb_root), "bundle")}
    titles = [titles[sid] for sid in stored]
    assert titles[0] == "Crate Bundle"
    assert "Governance" not in titles[:1]


def test_pages_named_as_the_subject_add_to_those_titled_after_the_question() -> None:
    # gin-zh's "Gin 的中间件是怎么执行的？怎么写自定义中间件": "中间件" (middleware/index.md) is named as the subject, and
    # "使用中间件" / "自定义中间件" stay the account beside it; beego's "事务" under orm/ is "Beego ORM 事务"'s page
    topic = "Gin 的中间件是怎么执行的？怎么写自定义中间件"
    pages = [
        component_page(
            "local-i",
            "docs/middleware/index.md",
            "中间件",
            "# 中间件\n\nGin 中的中间件提供了一种处理请求的方式。\n",
        ),
        component_page("local-u", "docs/middleware/using-middleware.md", "使用中间件", USING),
        component_page("local-c", "docs/middleware/custom-middleware.md", "自定义中间件", CUSTOM),
    ]
    pages = [replace(page, collection="gin") for page in pages]
    defining = defining_sources(pages, RelevanceJudge(topic, collection="gin"))
    assert {"local-i", "local-c"} <= defining
    orm = [
        replace(component_page("local-o", "docs/orm/orm.md", "Orm 增删改查", ORM), collection="beego"),
        replace(
            component_page("local-t", "docs/orm/transaction.md", "事务", TRANSACTION),
            collection="beego",
            relevance=0.5,
        ),  # orm.md names the question's "ORM" and "使用": the search judged it the more relevant
    ]
    assert defining_sources(orm, RelevanceJudge("Beego ORM 怎么使用事务？", collection="beego")) == {
        "local-t"
    }


USING = "# 使用中间件\n\n执行顺序：中间件函数按注册顺序执行。当中间件调用 c.Next() 时，它将控制权传递给下一个中间件。\n"
CUSTOM = (
    "# 自定义中间件\n\nGin 中间件是一个返回 gin.HandlerFunc 的函数。自定义中间件可以在请求前后执行逻辑。\n"
)
ORM = "# Orm 增删改查\n\n使用主键来更新数据。如果你没有指定 cols 参数，那么所有的列都会被更新。\n"
TRANSACTION = (
    "# 事务\n\nORM 操作事务，支持两种范式。一种通过闭包的方式，由 Beego 本身来管理事务的生命周期。\n"
)
