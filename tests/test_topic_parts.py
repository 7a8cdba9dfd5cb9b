"""A topic asking two questions is answered part by part, and a how-to question by its subject's own examples
(issue 30: seven sections said "the stored sources do not answer" while their page was cited or stored)."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import config, entry, make_corpus, offline

from generator.app.topic_target import topic_target
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.topic import workspace as wsp
from generator.topic.account import account_examples
from generator.topic.allocation import allocate
from generator.topic.candidate import Candidate
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.opening_passages import opening_passages
from generator.topic.part_candidates import rows_defining
from generator.topic.parts import part_facets, part_words, question_parts
from generator.topic.pipeline import run_topic_research
from generator.topic.plan import Plan, Step
from generator.topic.report import build_report
from generator.topic.section_examples import own_examples
from generator.topic.section_tree import text_sections, with_example_below
from generator.topic.sentences import with_lead_ins


def test_a_topic_asking_two_questions_is_cut_into_them_each_with_the_facets_that_answer_it() -> None:
    snap = "What are Snap Deals and how do they put data into committed capacity sectors?"
    assert question_parts(snap) == [
        "What are Snap Deals",
        "how do they put data into committed capacity sectors",
    ]
    # how the thing does it is told where its design is; how a reader does it is shown in use first
    assert [part_facets(p) for p in question_parts(snap)] == [("what",), ("how",)]
    assert part_facets("how to configure the retry policy") == ("use", "how")
    preload = "GORM 怎么预加载关联数据？Preload 和 Joins 有什么区别"
    first, second = question_parts(preload)
    assert (first, second) == ("GORM 怎么预加载关联数据", "Preload 和 Joins 有什么区别")
    assert part_facets(first) == ("use", "how") and part_facets(second) == ("alternatives",)
    assert part_words(second, preload) == {"preload", "join"}  # what it compares, not "区别" nor the subject
    assert part_facets("Session 有什么用") == ("what",)
    assert question_parts("Gin 服务怎么优雅关闭") == []
    assert question_parts("How does Fast Finality (F3) work in Filecoin?") == []


def test_a_lead_in_closing_its_section_is_quoted_with_the_example_opening_its_subsection() -> None:
    text = (
        "#### Joins 预加载\n\nPreload loads the association data in a separate query, Join Preload will loads "
        "association data using left join, for example:\n\n##### Generics API\n\n```go\n"
        'db.Joins("Company").Find(&users)\n```\n\n#### 预加载全部\n\nclause.Associations works too.\n'
    )
    sections = text_sections(text)
    joins = with_example_below(sections, 0)
    assert joins.heading == "Joins 预加载" and joins.blocks[-1].startswith("```go")
    # a section whose paragraph ends on a full stop, or whose next section is no subsection, is left as it is
    assert with_example_below(sections, 1) == sections[1]
    assert with_example_below(sections, 2) == sections[2]


def test_a_sections_examples_are_quoted_with_their_captions_a_bare_one_named_by_the_heading() -> None:
    text = (
        "##### 创建对象\n\n创建时可用的 hook\n\n```go\nBeforeSave\nBeforeCreate\n```\n\n代码示例：\n\n```go\n"
        "func (u *User) BeforeCreate(tx *gorm.DB) (err error) {\n  return\n}\n```\n\n"
        "注意 在 GORM 中保存、删除操作会默认运行在事务上。\n"
    )
    (section,) = [s for s in text_sections(text) if s.heading]
    shown = own_examples(section)
    assert [(p.text, p.code.split("\n")[0]) for p in shown] == [
        ("创建时可用的 hook:", "BeforeSave"),
        ("创建对象:", "func (u *User) BeforeCreate(tx *gorm.DB) (err error) {"),
    ]


MRI = (
    "# Magnetic Resonance Imaging\n\n#### Task imaging data\n\n###### fMRI task information\n\n"
    "See Common metadata fields for a list of additional terms.\n\nExample:\n\n"
    '```JSON\n{"TaskName": "N Back"}\n```\n\n##### Multipart (split) DWI schemes\n\nJSON example:\n\n'
    '```JSON\n{"MultipartID": "dwi_1"}\n```\n\n#### Fieldmap data\n\n##### B0 fieldmaps\n\n'
    "###### Using IntendedFor metadata\n\nFieldmap data MAY be linked to the scans it was acquired for.\n\n"
    'JSON example:\n\n```JSON\n{"IntendedFor": "bids::sub-01/func/sub-01_bold.nii.gz"}\n```\n\n'
    '##### B1 fieldmaps\n\nExample:\n\n```JSON\n{"FlipAngle": 60}\n```\n'
)


def test_a_page_about_something_larger_shows_the_subject_in_its_own_section_under_its_heading() -> None:
    # BIDS' "How are B0 fieldmaps stored…" quoted "fMRI task information:" (the heading standing in for a bare
    # "Example:") and "JSON example:" over the MRI page's first examples, none of them a fieldmap
    concepts = [{"b0"}, {"fieldmap"}]
    found = account_examples([_source("local-mri", "Magnetic Resonance Imaging", MRI)], frozenset(), concepts)
    # "JSON example:" names only its notation: the heading says what the example is
    assert [(c.text, c.code) for c in found] == [
        ("Using IntendedFor metadata:", '{"IntendedFor": "bids::sub-01/func/sub-01_bold.nii.gz"}')
    ]
    # a page titled after the subject shows it throughout ("创建对象:" on GORM's hooks page)
    titled = account_examples([_source("local-b0", "B0 fieldmaps", MRI)], frozenset(), concepts)
    assert [c.text for c in titled][:2] == ["fMRI task information:", "Multipart (split) DWI schemes:"]


def test_a_caption_line_is_no_statement_and_no_paragraph_a_lead_in_ends() -> None:
    # BIDS Inheritance quoted "Example 1: Demonstration of inheritance principle Contents of file
    # task-rest_bold.json:" and the first of the example's two files, the title and the lead-in run together
    text = (
        "##### Examples\n\nExample 1: Demonstration of inheritance principle\n\nContents of file "
        'task-rest_bold.json:\n\n```JSON\n{"EchoTime": 0.040}\n```\n\nContents of file '
        'sub-01_task-rest_acq-longtr_bold.json:\n\n```JSON\n{"RepetitionTime": 3.0}\n```\n'
    )
    (section,) = [s for s in text_sections(text) if s.heading]
    assert not [p.text for p in opening_passages(section, 2, example_alone=True) if "Example 1" in p.text]
    # a Chinese sentence missing its full stop runs on its commas: a statement still (hertz' "##### 完整示例")
    unstopped = "##### 完整示例\n\n```go\nc.Use(MyMiddleware)\n```\n\n中间件可能执行不止一次，比如发生跳转等，需要考虑幂等性\n"
    (complete,) = [s for s in text_sections(unstopped) if s.heading]
    assert [p.text for p in opening_passages(complete, 2)] == [
        "中间件可能执行不止一次，比如发生跳转等，需要考虑幂等性"
    ]
    assert with_lead_ins(["Example 1: Demonstration of inheritance principle", "For example:"]) == [
        "Example 1: Demonstration of inheritance principle",
        "For example:",
    ]


def _source(sid: str, title: str, text: str) -> wsp.RawSource:
    return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)


def test_the_rows_describing_the_methods_a_question_names_answer_what_they_do() -> None:
    concepts = _source(
        "local-c",
        "Overview and basic concepts",
        "# Overview and basic concepts\n\n##### Consensus/block execution methods\n\nThe first time a new "
        "blockchain is started, CometBFT calls InitChain.\n- InitChain: This method initializes the blockchain.\n"
        "- PrepareProposal: It allows the block proposer to perform application-dependent work in a block.\n"
        "- ProcessProposal: It allows a validator to perform application-dependent work in a proposed block.\n",
    )
    calls = _source(
        "local-e",
        "Expected behavior",
        "# Expected behavior\n\n## Call sequences\n\nIn a round:\n- PrepareProposal will be called once.\n",
    )
    (found,) = rows_defining([concepts, calls], {"prepareproposal", "processproposal"})
    assert found.source == "local-c" and found.text == "Consensus/block execution methods:"
    assert [row.split(":")[0] for row in found.items] == ["PrepareProposal", "ProcessProposal"]
    assert rows_defining([concepts], set()) == []


def test_an_empty_section_takes_its_own_examples_before_a_passage_naming_none_of_its_facet() -> None:
    # GORM's Hook "怎么用" quoted create.md's aside "一个可行的替代方案是通过钩子方法来设置默认字段" while hooks.md's
    # BeforeCreate example waited as a fallback that only a section left empty takes
    aside = Candidate("一个可行的替代方案是通过钩子方法来设置默认字段", "local-create", 0.0, 0.9, 0.0)
    example = Candidate(
        "创建对象:",
        "local-hooks",
        2.0,
        1.0,
        0.0,
        code="func (u *User) BeforeCreate(tx *gorm.DB)",
        treats=True,
    )
    chosen = allocate(
        {"GORM 的 Hook 钩子方法怎么用": [aside, Candidate(**{**vars(example), "fallback": True})]}
    )
    assert [c.text for c in chosen["GORM 的 Hook 钩子方法怎么用"]] == ["创建对象:"]


def test_the_question_as_written_left_empty_by_its_own_passages_is_answered_part_by_part() -> None:
    # Snap Deals: the one passage found for the whole question ("Since 90+% of sectors…") went to "Why", and the
    # section said the stored sources do not answer while "How do Snap Deals work?" quoted the update protocol
    topic = "What are Snap Deals and how do they put data into committed capacity sectors?"
    why = Candidate("Since 90+% of sectors are CC sectors, updating them helps.", "local-s", 1.0, 0.8, 0.0)
    protocol = Candidate(
        "One-messages Update Protocol:", "local-s", 2.0, 1.0, 0.0, treats=True, items=("a", "b")
    )
    hashing = Candidate(
        "The sector nodes are split into HashShards segments.", "local-s", 2.0, 0.9, 0.0, treats=True
    )
    part = Candidate(**{**vars(protocol), "fallback": True})
    whole = Candidate(**{**vars(why), "facet_hits": 0.0})  # it names none of what the whole question asks
    pools = {
        topic: [whole, part],
        "Why do Snap Deals matter?": [why],
        "How do Snap Deals work?": [protocol, hashing],
    }
    chosen = allocate(pools, first={topic})
    assert [c.text for c in chosen[topic]] == [protocol.text]
    assert [c.text for c in chosen["How do Snap Deals work?"]] == [hashing.text]
    # …and a question its own passages answer keeps them (NI-PoRep's "This proposal presents…removes PreCommit")
    own = Candidate("This proposal removes PreCommit when onboarding sectors.", "local-n", 0.0, 0.3, 0.0)
    chosen = allocate({topic: [own, part], "How do Snap Deals work?": [protocol]}, first={topic})
    assert [c.text for c in chosen[topic]] == [own.text]


def test_the_summary_quotes_the_first_answer_rather_than_saying_the_sources_do_not_answer() -> None:
    # GORM Preload: every passage a lead-in with its code, no definition, and the summary said the stored
    # sources do not answer above two Preload examples
    source = _source(
        "local-p", "预加载", "# 预加载\n\nGORM允许使用 Preload通过多个SQL中来直接加载关系, 例如：\n"
    )
    shown = Claim(
        "GORM允许使用 Preload通过多个SQL中来直接加载关系, 例如：", [source.id], 1.0, 'db.Preload("Orders")'
    )
    question = "GORM 怎么预加载关联数据？Preload 和 Joins 有什么区别"
    plan = Plan(
        topic=question,
        sub_queries=["GORM 预加载关联数据是什么？", question],
        steps=[
            Step(id="s1", title="what", question="GORM 预加载关联数据是什么？", facet="what"),
            Step(id="s2", title="topic", question=question, facet="topic"),
        ],
    )
    analysis = Analysis(sections=[Section("GORM 预加载关联数据是什么？", []), Section(question, [shown])])
    report = build_report(plan, analysis, Catalog([source]))
    assert [(c.text, c.code) for c in report.summary] == [(shown.text, shown.code)]


PRELOAD = (
    "---\ntitle: 预加载\n---\n\n#### 预加载示例\n\nGORM允许使用 Preload通过多个SQL中来直接加载关系, 例如：\n\n"
    '##### Traditional API\n\n```go\n// Preload Orders when find users\ndb.Preload("Orders").Find(&users)\n'
    "// SELECT * FROM users;\n// SELECT * FROM orders WHERE user_id IN (1,2,3,4);\n```\n\n#### Joins 预加载\n\n"
    "Preload loads the association data in a separate query, Join Preload will loads association data using "
    "left join, for example:\n\n##### Traditional API\n\n```go\n"
    'db.Joins("Company").Joins("Manager").First(&user, 1)\n```\n\n'
    "NOTE Join Preload works with one-to-one relation, e.g: has one, belongs to\n\n#### 预加载全部\n\n"
    "clause.Associations can work with Preload similar like Select when creating/updating, you can use it to "
    "Preload all associations, for example:\n\n```go\ndb.Preload(clause.Associations).Find(&users)\n```\n"
)
# other pages of the same docs, so that "预加载" and "Joins" are rare words of the collection and its topic
OTHERS = {
    f"page{n}.md": f"---\ntitle: 查询 {n}\n---\n\n#### 条件\n\nGORM 提供了 First、Take、Last 方法，以便从数据库中检索"
    f"单个对象 {n}。当查询数据库时它添加了 LIMIT 1 条件。\n\n```go\ndb.First(&user)\n```\n"
    for n in range(5)
}


def test_a_topic_asking_two_questions_quotes_the_section_naming_its_second_part(kb_root: Path) -> None:
    make_corpus(kb_root, {"preload.md": PRELOAD, **OTHERS}, folder="docs")
    paths = KBPaths(kb_root)
    topic = "GORM 怎么预加载关联数据？Preload 和 Joins 有什么区别"
    result = run_topic_research(
        paths,
        config(),
        offline(),
        topic_target(paths, entry(topic=topic, sources=["local:docs"], verify=False, lang="zh")),
        publish=publish_topic,
    )
    _, report = read_page(paths.topic_dir(result.slug) / "output" / "report.md")
    sections = dict(part.split("\n", 1) for part in report.split("\n## ")[1:])
    assert any(heading.startswith(topic) for heading in sections)
    # the second part is answered by the section naming it, with the example its subsection opens on
    (joins,) = [body for body in sections.values() if "Join Preload will loads association data" in body]
    assert 'db.Joins("Company")' in joins
    # what preloading is, from the page's lead-in and the example its first subsection shows, also in the summary
    what = sections["GORM 预加载关联数据是什么？"]
    assert (
        what.startswith("\nGORM允许使用 Preload通过多个SQL中来直接加载关系")
        and 'db.Preload("Orders")' in what
    )
    assert "没有回答" not in sections["摘要"]
