"""Topic reports that read documents as documents (issue 30): the defining documents survive every gate, and
a facet of the outline is answered from the stored sections whose headings treat it."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import config, entry, make_corpus, offline

from generator.app.topic_target import topic_target
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.text.words import tokens
from generator.topic import workspace as wsp
from generator.topic.defining import subjects, titled_after
from generator.topic.facet_sections import treating
from generator.topic.headings import DELIVERY, aside_role
from generator.topic.judge import RelevanceJudge
from generator.topic.opening_passages import opening_passages
from generator.topic.pipeline import run_topic_research
from generator.topic.section_tree import text_sections
from generator.topic.sentences import context_of

# --------------------------------------------------------------------------- which documents define a topic


def test_a_topic_joining_two_subjects_is_defined_by_documents_titled_after_either() -> None:
    topic = "the question mark operator and the Try trait"
    assert subjects(topic) == [topic, "the question mark operator", "the Try trait"]
    judge = RelevanceJudge(topic)
    assert titled_after("Try trait v2", topic, judge)
    assert not titled_after("homogeneous try blocks", topic, judge)
    assert not titled_after("safe unsafe trait methods", topic, judge)
    assert titled_after("Const generics", "const generics", RelevanceJudge("const generics"))


# A proposal written as its authors write it: the operator is the early-return operator, never "question mark"
# (the sign itself is code, which the stored prose does not keep as words).
TRY_TRAIT = (
    "# Try trait\n\n## Summary\n\nIntroduce a trait `Try` for customizing the behavior of the early-return "
    "operator when applied to types other than `Result`.\n\n## Motivation\n\nThe early-return operator is "
    "very useful for working with `Result`, but it really applies to any sort of short-circuiting "
    "computation. Several crates copy the same early-return macro for their own types today.\n\n"
    "## Detailed design\n\nThe operator is desugared into a match on `Try::into_result`, returning early "
    "with `Try::from_error` when the value holds an error.\n"
)
BLOCKS = (
    "# Homogeneous try blocks\n\n## Summary\n\nTweak how the question mark operator behaves inside try blocks "
    "so that they need type annotations less often. The question mark operator of a try block takes its type "
    "from the block.\n"
)
# what makes "question mark" the rare, specific words of the topic, and "trait", "operator" and "try" common
NOISE = {
    f"noise{n}.md": f"# Pattern syntax {n}\n\nPatterns match values of a type with a trait bound and an "
    f"operator; the try rules of pattern {n} are settled by the trait.\n"
    for n in range(6)
}


def _research(kb_root: Path, topic: str, files: dict[str, str]) -> tuple[KBPaths, str]:
    make_corpus(kb_root, files, folder="rfcs")
    paths = KBPaths(kb_root)
    result = run_topic_research(
        paths,
        config(),
        offline(),
        topic_target(paths, entry(topic=topic, sources=["local:rfcs"], verify=False)),
        publish=publish_topic,
    )
    return paths, result.slug


def test_a_document_titled_after_the_subject_is_kept_though_its_text_writes_the_operator_as_a_sign(
    kb_root: Path,
) -> None:
    paths, slug = _research(
        kb_root,
        "the question mark operator and the Try trait",
        {"try-trait.md": TRY_TRAIT, "try-blocks.md": BLOCKS, **NOISE},
    )
    stored = {s.url.rsplit("/", 1)[-1]: s for s in wsp.list_raw_sources(paths, slug)}
    assert "try-trait.md" in stored  # its relevance never names "question mark": the title says what it is
    _, report = read_page(paths.topic_dir(slug) / "output" / "report.md")
    assert f"raw/{stored['try-trait.md'].id}.md" in report  # kept, and cited


# --------------------------------------------------------------------------- sections answer facets


def test_sections_are_cut_at_headings_outside_code() -> None:
    text = "Intro line.\n\n## Motivation\n\nWhy.\n\n```\n# not a heading\n```\n\n### Details\n\nMore."
    sections = text_sections(text)
    assert [(s.heading, s.level) for s in sections] == [("", 0), ("Motivation", 2), ("Details", 3)]
    assert sections[1].blocks == ("Why.", "```\n# not a heading\n```")


CONFIGURATION = (
    "# Configuration\n\n## POSIX-platform Mounts\n\nOn POSIX platforms the mounts field has extra options "
    "that every runtime must honour.\n\n## POSIX-platform Hooks\n\nFor POSIX platforms, the configuration "
    "structure supports hooks for configuring custom actions related to the lifecycle of the container.\n\n"
    "Hooks may contain any of the following properties:\n\nThe value of path must resolve in the runtime "
    "namespace.\n\n### Prestart\n\nThe prestart hooks are called as part of the create operation after the "
    "runtime environment has been created.\n\n### Poststop\n\nThe poststop hooks are called after the "
    "container is deleted but before the delete operation returns.\n\n## Annotations\n\nAnnotations hold "
    "arbitrary metadata for the container.\n"
)


def test_a_section_titled_after_the_subject_answers_what_it_is_and_its_subsections_how_it_works() -> None:
    judge = RelevanceJudge("POSIX platform hooks")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]

    def quoted(facet: str) -> list[str]:
        found = treating(CONFIGURATION, facet, concepts, tokens, own_headings=False, title="Configuration")
        return [p.text for section, limit in found for p in opening_passages(section, limit)]

    what = quoted("what")
    assert what and what[0].startswith("For POSIX platforms, the configuration structure supports hooks")
    # the lead-in ends the section's opening: the list it introduces reads differently alone
    assert not any("must resolve" in p for p in what)
    how = quoted("how")
    assert any(p.startswith("The prestart hooks are called") for p in how)
    assert any(p.startswith("The poststop hooks are called") for p in how)
    # "POSIX-platform Mounts" names the platform, not the hooks; "Annotations" names nothing of the topic
    assert not any("mounts" in p or "Annotations" in p for p in [*what, *how])


def test_in_a_larger_document_only_the_subjects_own_section_says_how_to_use_it() -> None:
    judge = RelevanceJudge("POSIX platform hooks")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    text = (
        '# Configuration\n\n## Specification version\n\n### Example\n\n```\n"ociVersion": "0.1.0"\n```\n\n'
        "## POSIX-platform Hooks\n\nFor POSIX platforms, the configuration supports hooks for custom actions.\n\n"
        '### Example\n\n```\n"hooks": {"poststop": []}\n```\n'
    )
    found = treating(text, "use", concepts, tokens, own_headings=True, title="Configuration")
    examples = [
        p.code for section, limit in found for p in opening_passages(section, limit, example_alone=True)
    ]
    assert examples == ['"hooks": {"poststop": []}']  # not the specification version's example


def test_a_facet_heading_answers_only_in_a_document_about_the_subject() -> None:
    judge = RelevanceJudge("const generics")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    text = "# Other\n\n## Motivation\n\nUsers want to write impls that are abstract over all array types.\n"
    assert list(treating(text, "motivation", concepts, tokens, own_headings=True, title="Const generics"))
    assert not list(treating(text, "motivation", concepts, tokens, own_headings=False, title="Other"))


def test_the_subsections_of_a_section_treating_a_facet_answer_it_too() -> None:
    judge = RelevanceJudge("soft memory limit")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    text = (
        "# Soft memory limit\n\n## Detailed design\n\n### Enforcement\n\nThe collector paces itself against "
        "the limit as the heap grows.\n\n#### Alternative approaches considered\n\n##### Enforcement\n\n"
        "A hard limit was considered, but it makes the program fail where a soft one only slows it down.\n\n"
        "### Telemetry\n\nA new metric reports the memory limit the runtime enforces.\n"
    )
    found = treating(text, "alternatives", concepts, tokens, own_headings=True, title="Soft memory limit")
    quoted = [p.text for section, limit in found for p in opening_passages(section, limit)]
    assert quoted == [
        "A hard limit was considered, but it makes the program fail where a soft one only slows it down."
    ]


def test_a_sections_opening_already_quoted_gives_way_to_its_next_passage() -> None:
    (section,) = text_sections(
        "## Design\n\nThe runtime reads the limit from the environment at start.\n\n"
        "The collector then paces itself so that the heap stays under the limit.\n"
    )
    said = frozenset({"The runtime reads the limit from the environment at start."})
    assert [p.text for p in opening_passages(section, 1, said=said)] == [
        "The collector then paces itself so that the heap stays under the limit."
    ]


def test_a_design_section_answers_from_its_opening_paragraph_or_not_at_all() -> None:
    # astropy's APE 14, "### High-level API": its opening paragraph points below ("(discussed below)") in its
    # middle and ends on a lead-in to four method stubs; the section had answered "how" with its third
    # paragraph, a detail of object order. Now its opening sentence, up to the one pointing elsewhere
    (section,) = text_sections(
        "### High-level API\n\nThe high-level API returns Astropy objects such as SkyCoord and Time from a pixel to "
        "world conversion. It is distinct from the implementation in the core package (discussed below), so "
        "others can implement it. The high-level API includes the following methods:\n\n"
        "```python\ndef pixel_to_world(self, *pixel_arrays):\n    pass\n```\n\n"
        "Since a single Astropy object might span two dimensions, we specify the order of the returned objects.\n"
    )
    assert [p.text for p in opening_passages(section, 1)] == [
        "The high-level API returns Astropy objects such as SkyCoord and Time from a pixel to world conversion."
    ]
    # an opening that cannot be quoted at all leaves the section without an answer, not with a later detail
    (section,) = text_sections(
        "### Low-level API\n\nThe low-level API (described below) works on plain arrays and strings.\n\n"
        "Note that arrays are any object following the buffer protocol rather than only NumPy arrays.\n"
    )
    assert opening_passages(section, 1) == []
    # a note that is no sentence does not open the section (NixOS RFC 62's "# Detailed design")
    (section,) = text_sections(
        "## Detailed design\n\n_In everything that follows, algorithms are written as pseudo-python snippets_\n\n"
        "The input-addressed designation comes from the way the output paths of a build are computed.\n"
    )
    assert [p.text for p in opening_passages(section, 1)] == [
        "The input-addressed designation comes from the way the output paths of a build are computed."
    ]


def test_a_one_word_section_is_no_answer() -> None:
    (section,) = [s for s in text_sections("## Unresolved questions\n\nNone.\n") if s.heading]
    assert opening_passages(section) == []


def test_a_proposals_own_sections_answer_its_facets_and_nothing_says_the_sources_do_not_answer(
    kb_root: Path,
) -> None:
    paths, slug = _research(kb_root, "the Try trait", {"try-trait.md": TRY_TRAIT, **NOISE})
    _, report = read_page(paths.topic_dir(slug) / "output" / "report.md")
    sections = dict(part.split("\n", 1) for part in report.split("\n## ")[1:])
    why = next(body for heading, body in sections.items() if heading.startswith("Why"))
    assert "really applies to any sort of short-circuiting computation" in why  # the Motivation section
    how = next(body for heading, body in sections.items() if heading.startswith("How do"))
    assert "desugared into a match" in how  # the Detailed design section
    assert "do not answer" not in report


# --------------------------------------------------------------------------- status and redirects


def test_a_document_stating_near_its_top_that_it_is_superseded_is_not_in_force() -> None:
    from generator.topic.standing import inactive, opening_status

    assert opening_status("This PEP has been superseded by PEP 634.") == "superseded"
    assert opening_status("Superseded by RFC 3058\n\nThe trait...") == "superseded"
    assert opening_status("本提案已被取代，请参阅新提案。") == "superseded"
    assert opening_status("The request is rejected if the header is missing.") == ""  # not of itself
    assert opening_status("该选项已弃用") == ""
    stub = wsp.RawSource("s1", "local", "local:d/a.md", "Hooks", "2026-01-01T00:00:00Z", "Draft text.")
    assert not inactive(stub)
    stub.status = "Draft"
    assert inactive(stub)  # a draft describes what may be, never how it works now


HOOKS_OLD = (
    "# Container hooks\n\nThis proposal has been superseded by the lifecycle hooks in Runtime and Lifecycle.\n\n"
    "Container hooks run a shell script named in the container hooks file before every container starts, "
    "and the container hooks file lists one script per line.\n"
)
STUB = "# Container lifecycle\n\nThis page has moved to Runtime and Lifecycle.\n"
RUNTIME = (
    "# Runtime and Lifecycle\n\n## Lifecycle\n\nThe container lifecycle describes the timeline of events "
    "that happen from when a container is created to when it ceases to exist.\n\n## Hooks\n\nContainer "
    "hooks are called by the runtime at fixed points of the container lifecycle, each hook with the "
    "container state on its standard input.\n"
)
FILLER = {
    f"filler{n}.md": f"# Image layout {n}\n\nAn image layout holds blobs and an index of manifests, "
    f"version {n}, for a registry to serve.\n"
    for n in range(4)
}


def test_a_redirect_stub_is_followed_to_the_document_it_points_at(kb_root: Path) -> None:
    paths, slug = _research(
        kb_root, "container lifecycle", {"lifecycle.md": STUB, "runtime.md": RUNTIME, **FILLER}
    )
    stored = {s.url.rsplit("/", 1)[-1] for s in wsp.list_raw_sources(paths, slug)}
    assert "runtime.md" in stored and "lifecycle.md" not in stored


def test_a_superseded_proposal_is_labelled_and_never_says_how_it_works(kb_root: Path) -> None:
    paths, slug = _research(
        kb_root, "container hooks", {"hooks-old.md": HOOKS_OLD, "runtime.md": RUNTIME, **FILLER}
    )
    stored = {s.url.rsplit("/", 1)[-1]: s for s in wsp.list_raw_sources(paths, slug)}
    assert "hooks-old.md" in stored
    _, report = read_page(paths.topic_dir(slug) / "output" / "report.md")
    sections = dict(part.split("\n", 1) for part in report.split("\n## ")[1:])
    how = next(body for heading, body in sections.items() if heading.startswith("How do"))
    assert f"raw/{stored['hooks-old.md'].id}.md" not in how
    old_cites = [line for line in report.splitlines() if f"raw/{stored['hooks-old.md'].id}.md)" in line]
    assert all("superseded" in line.lower() for line in old_cites)


GUIDE_ZH = (
    "# 服务端渲染\n\nVite 为服务端渲染提供了内建支持，本页介绍如何用它搭建一个应用。\n\n## 源码结构\n\n"
    "一个典型的服务端渲染应用应该有如下的源文件结构：\n\n```\n- src/entry-client.js\n- src/entry-server.js\n```\n\n"
    "## 设置开发服务器\n\n在开发服务器中，服务端入口通过 ssrLoadModule 加载，每次请求都会重新渲染整个页面。\n\n"
    "## 参考资料\n\n这里列出了一些相关的外部文章和示例项目，供读者进一步阅读和参考使用。\n"
)


def test_a_guide_whose_headings_name_no_facet_answers_how_it_works_section_by_section() -> None:
    from generator.topic.plan import DocumentOutline, heuristic_plan

    outline = DocumentOutline("服务端渲染", ("源码结构", "设置开发服务器", "示例项目"))
    plan = heuristic_plan("服务端渲染", lang="zh", outlines=[outline])
    assert "how" in [s.facet for s in plan.steps]  # asked though no heading says "design" or "原理"
    judge = RelevanceJudge("服务端渲染")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    found = treating(GUIDE_ZH, "how", concepts, tokens, own_headings=True, title="服务端渲染")
    passages = [p for section, limit in found for p in opening_passages(section, limit)]
    assert passages[0].text.endswith("源文件结构：") and "entry-server.js" in passages[0].code
    assert "ssrLoadModule" in passages[1].text
    assert len(passages) == 2  # "参考资料" frames the document; it says nothing about the subject
    # a document that only touches the subject lends none of its unlabelled sections (its own first heading is
    # its title: a heading titled after the subject would answer, now that 服务端 is read as one word)
    other = GUIDE_ZH.replace("# 服务端渲染\n", "# 其他\n", 1)
    assert not list(treating(other, "how", concepts, tokens, own_headings=False, title="其他"))


PEP = (
    "PEP: 9572\nTitle: Assignment Expressions\nAuthor: A. Author\nStatus: Final\nType: Standards Track\n"
    "Created: 28-Feb-2018\nPython-Version: 3.8\n\n\nAbstract\n========\n\nThis is a proposal for creating a way "
    "to assign to variables within an expression using the notation NAME := expr.\n\nRationale\n=========\n\n"
    "Naming the result of an expression is an important part of programming, allowing a descriptive name to "
    "be used in place of a longer expression, and permitting reuse.\n"
)


def test_the_summary_names_the_defining_document_with_its_status_and_the_release_it_targets(
    kb_root: Path,
) -> None:
    paths, slug = _research(kb_root, "assignment expressions", {"pep-9572.rst": PEP, **FILLER})
    _, report = read_page(paths.topic_dir(slug) / "output" / "report.md")
    summary = report.split("## Summary", 1)[1].split("\n## ", 1)[0]
    line = next(ln for ln in summary.splitlines() if ln.startswith("Defined by"))
    assert "Assignment Expressions" in line and "Python 3.8" in line and "2018-02-28" in line
    assert "Python 3.8" in report.split("## References", 1)[1]  # the reference shows it too


def test_a_chinese_report_over_english_sources_says_in_one_line_that_quotes_stay_english(
    kb_root: Path,
) -> None:
    from topic_fakes import CORPUS

    make_corpus(kb_root, CORPUS, folder="notes")
    paths = KBPaths(kb_root)
    for lang in ("zh", "en"):
        result = run_topic_research(
            paths,
            config(),
            offline(),
            topic_target(
                paths,
                entry(topic="vector databases", sources=["local:notes"], verify=False),
                lang=lang,
                refresh=True,
            ),
            publish=publish_topic,
        )
        _, report = read_page(paths.topic_dir(result.slug) / "output" / "report.md")
        notes = [line for line in report.splitlines() if "引文保留原文" in line]
        if lang == "zh":
            assert len(notes) == 1 and "## 摘要" in report
        else:
            assert notes == [] and "quotes keep their original language" not in report


def test_a_proposal_returned_for_revision_is_not_in_force_and_a_shipped_one_names_its_release() -> None:
    from generator.topic.standing import inactive, landed_in

    returned = wsp.RawSource("s1", "local", "local:d/a.md", "Metadata", "2026-01-01T00:00:00Z", "Text.")
    returned.status = "returned"
    assert inactive(returned)
    assert landed_in({"status": "**Implemented (Swift 5.4)**"}) == "Swift 5.4"
    assert landed_in({"status": "Implemented in Go 1.21"}) == "Go 1.21"
    assert landed_in({"status": "Accepted"}) == ""


def test_current_state_is_read_from_the_newest_documents_about_the_subject() -> None:
    """The newest stored document on const generics was an RFC on capturing generic parameters that names
    them in one passage: it is not the subject's current state; a newer document saying in its opening that
    it is about the subject is."""
    from generator.topic.defining import about_subject
    from generator.topic.judge import RelevanceJudge
    from generator.topic.standing import usable_for

    def source(sid: str, title: str, text: str, published: str) -> wsp.RawSource:
        raw = wsp.RawSource(sid, "local", f"local:d/{sid}.md", title, "2026-01-01T00:00:00Z", text)
        raw.published = published
        return raw

    sources = [
        source("def", "Const generics", "Allow types to be generic over constant values.", "2017-05-01"),
        source(
            "adt", "Const parameters in ADTs", "This RFC extends const generics to enums. More.", "2021-03-01"
        ),
        source(
            "cap",
            "Precise capturing",
            "This RFC adds use<..> syntax to say which lifetimes an opaque "
            "type captures. " * 9 + "\n\nA const generic parameter must be captured too.",
            "2024-06-01",
        ),
        source("old", "Fixed-size arrays", "Arrays of a constant length.", "2015-01-01"),
    ]
    judge = RelevanceJudge("const generics")
    about = {s.id for s in sources if about_subject(s.title, s.text, judge.topic, judge)}
    assert about == {"def", "adt"}
    usable = usable_for("current", sources, about)
    assert [s.id for s in sources if usable(s)] == ["adt"]
    assert [s.id for s in sources if usable_for("current", sources)(s)] == ["cap"]  # newest of all, unasked


def test_what_the_subject_is_and_how_it_works_are_told_by_documents_about_it() -> None:
    from generator.topic.standing import usable_for

    about = wsp.RawSource("a", "local", "local:d/a.md", "Const generics", "2026-01-01T00:00:00Z", "Text.")
    asm = wsp.RawSource("b", "local", "local:d/b.md", "asm const ptr", "2026-01-01T00:00:00Z", "Text.")
    for facet in ("what", "how"):
        usable = usable_for(facet, [about, asm], {"a"})
        assert usable(about) and not usable(asm)
    assert usable_for("alternatives", [about, asm], {"a"})(asm)  # another proposal may be an alternative
    assert usable_for("how", [about, asm], set())(asm)  # none says it is about the subject: all may answer


def test_the_defining_documents_are_about_the_subject_whatever_their_title_names() -> None:
    from generator.topic.defining import sources_about
    from generator.topic.judge import RelevanceJudge

    judge = RelevanceJudge("热模块替换 API")
    sources = [("hmr", "HMR API", "Vite 通过 import.meta.hot 暴露 HMR API。"), ("x", "其他", "其他内容。")]
    assert sources_about(sources, judge, {"hmr"}) == {"hmr"}
    assert sources_about(sources, judge, set()) == set()


def test_every_facet_comes_from_the_subjects_own_account_when_it_answers() -> None:
    # swift's "property wrappers": SE-0293 "Extend Property Wrappers to Function and Closure Parameters" is
    # titled after the subject too, but it says how parameters gain them; SE-0258 "Property Wrappers" is the
    # subject's own account, and its passages answer "what" alone when it has enough of them
    from dataclasses import replace

    from generator.topic.account import subject_first
    from generator.topic.candidate import Candidate
    from generator.topic.defining import titled_as

    assert titled_as("Property Wrappers", "property wrappers")
    assert titled_as("PEP 572: Assignment Expressions", "assignment expression")
    # a Chinese title's prefix ends at the full-width colon (Vue's "组合式 API：依赖注入")
    assert titled_as("组合式 API：依赖注入", "依赖注入")
    assert not titled_as("依赖注入的高级用法", "依赖注入")
    assert not titled_as("Extend Property Wrappers to Function and Closure Parameters", "property wrappers")

    def passage(text: str, source: str) -> Candidate:
        return Candidate(text, source, 1.0, 0.5, 0.1)

    pool = [passage("Parameters may carry a wrapper.", "se0293")]
    assert subject_first(pool, "what", {"se0258"}) == pool  # nothing of its own beside the definition
    pool.append(passage("A wrapper stores the value.", "se0258"))
    assert [c.source for c in subject_first(pool, "what", {"se0258"})] == ["se0258"]
    # every facet alike: a proposal extending the subject states its own change's motivation and plan
    # ("During the preview for Octane, we've encountered a few issues…" in "Tracked Properties Updates")
    # when the subject's own account has a section on the facet ("## Motivation")
    why = [
        passage("During the preview, we've encountered a few issues with tracked properties.", "rfc478"),
        passage("Native getters don't give Ember the information it needs to track changes.", "rfc410"),
    ]
    assert subject_first(why, "motivation", {"rfc410"}) == why  # no section of its own on it: all answer
    why.append(replace(passage("Tracked properties are simpler to learn.", "rfc410"), treats=True))
    # why it matters, its limits and alternatives: one passage of its own section states them; another
    # proposal's motivation is its own change's
    assert {c.source for c in subject_first(why, "motivation", {"rfc410"})} == {"rfc410"}
    assert {c.source for c in subject_first(why, "limits", {"rfc410"})} == {"rfc410"}
    # how it works: one passage of its own is thin ("Element Modifiers" adds a package to the blueprint, the
    # modifier manager it builds on is defined elsewhere)
    assert subject_first(why, "how", {"rfc410"}) == why
    why.append(replace(passage("Tracked properties need no dependency keys.", "rfc410"), treats=True))
    assert {c.source for c in subject_first(why, "how", {"rfc410"})} == {"rfc410"}
    assert subject_first(why, "motivation", set()) == why  # no document is the subject's own account


def test_the_subjects_own_sections_on_a_facet_answer_it_alone() -> None:
    # NixOS RFC 145 (doc-comments): its "# Design" says how doc-comments work; "For this RFC, we adopt
    # the following definitions:" names its words but defines terms, and is not quoted beside the design
    from dataclasses import replace

    from generator.topic.account import subject_first
    from generator.topic.candidate import Candidate

    def passage(text: str, treats: bool = False) -> Candidate:
        return replace(Candidate(text, "rfc145", 1.0, 0.5, 0.1), treats=treats)

    terms = passage("For this RFC, we adopt the following definitions: doc-comment, implementation comment.")
    design = [
        passage("A doc-comment starts with /** and ends with */.", treats=True),
        passage("The content of a doc-comment is CommonMark.", treats=True),
    ]
    assert subject_first([design[0], terms, design[1]], "how", {"rfc145"}) == design
    why = passage("Doc-comments are written in many formats across nixpkgs.", treats=True)
    assert subject_first([terms, why], "motivation", {"rfc145"}) == [why]
    # too few passages of its own sections: the account's other passages answer with them
    assert subject_first([design[0], terms], "how", {"rfc145"}) == [design[0], terms]


def test_a_section_under_the_rationale_answers_why_whatever_its_own_heading_names() -> None:
    # go's loopvar proposal: "### A decade of experience shows the cost of the current semantics" stands under
    # "## Rationale and Compatibility"; its "semantics" made it a "how" section, and "The current cures for
    # this problem are worse than the disease." answered "How does loop variable scoping work?"
    from generator.topic.headings import section_facets

    judge = RelevanceJudge("loop variable scoping")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    text = (
        "# Loop variable scoping\n\n## Proposal\n\nEach iteration of a loop gets its own copy of the loop "
        "variable.\n\n## Rationale and Compatibility\n\n### A decade of experience shows the cost of the "
        "current semantics\n\nSharing one variable across all iterations causes bugs in real programs.\n"
    )

    def answering(facet: str) -> list[str]:
        found = treating(text, facet, concepts, tokens, own_headings=True, title="Loop variable scoping")
        return [section.heading for section, _ in found]

    assert answering("how") == ["Proposal"]
    assert "A decade of experience shows the cost of the current semantics" in answering("motivation")
    # what a design gains answers why it matters: "performance" names no limit in a heading about benefits
    assert section_facets("What are the performance benefits of Server Components?") == {"motivation"}
    assert section_facets("Costs and benefits") == {"motivation", "limits"}
    assert section_facets("Drawbacks") == {"limits"}


def test_the_defining_document_the_report_opens_from_answers_each_facet_before_its_neighbours() -> None:
    # react's "上下文" (context): no document is titled as the subject; the report opens from "new version of
    # context", and "lazy context propagation" answered "why" with the motivation of its own change
    from generator.topic.analyze import analyze
    from generator.topic.findings import Catalog
    from generator.topic.plan import Plan, Step

    def source(sid: str, title: str, text: str) -> wsp.RawSource:
        return wsp.RawSource(
            sid, "local", f"local:text/{sid}.md", title, "2026-01-01T00:00:00Z", text, kind="local",
            relevance=0.9,
        )  # fmt: skip

    own = source(
        "new",
        "New version of context",
        "# New version of context\n\n## Summary\n\nIntroduce a new version of context that addresses "
        "existing limitations of the context API.\n\n## Motivation\n\nContext lets a component pass a value "
        "to its descendants without threading it through every level of props.\n\nThe legacy context API "
        "breaks when an intermediate component skips rendering with shouldComponentUpdate.\n",
    )
    lazy = source(
        "lazy",
        "Lazy context propagation",
        "# Lazy context propagation\n\n## Summary\n\nPropagate context changes lazily during rendering.\n\n"
        "## Motivation\n\nThe eager context propagation in place today walks every fiber when a context "
        "provider updates its value.\n",
    )
    questions = {"what": "What is context?", "motivation": "Why does context matter?"}
    plan = Plan(
        topic="context",
        sub_queries=list(questions.values()),
        steps=[
            Step(id=f, title=f, question=q, facet=f, sources=["new", "lazy"], status="done")
            for f, q in questions.items()
        ],
    )
    analysis = analyze(offline(), plan, Catalog([own, lazy]), lang="en")
    assert analysis.definition is not None and analysis.definition.sources == ["new"]
    why = next(s for s in analysis.sections if s.question.startswith("Why"))
    assert why.claims and {sid for c in why.claims for sid in c.sources} == {"new"}


def test_what_the_subject_is_comes_from_other_documents_only_where_they_open_on_it() -> None:
    # vue's 异步组件: the guide titled as the subject says no more than its definition, and "what" took the
    # Suspense page's "要了解 <Suspense> 所解决的问题…" and a glossary's "组件是 Vue 提供的…" beside the glossary's
    # own definition of the subject
    from generator.topic.account import opens_on, subject_first
    from generator.topic.candidate import Candidate

    def passage(text: str, source: str) -> Candidate:
        return Candidate(text, source, 1.0, 0.5, 0.1)

    pool = [
        passage("要了解 <Suspense> 所解决的问题，我们需要想象这样一种组件层级结构：", "suspense"),
        passage("异步组件是为另一个组件提供的包装器，来让被包装的组件可以进行懒加载。", "glossary"),
        passage("组件是 Vue 提供的将 UI 拆成较小部分的主要机制。", "glossary"),
    ]
    assert [c.text for c in subject_first(pool, "what", {"async"}, "异步组件")] == [pool[1].text]
    assert subject_first(pool, "what", set(), "异步组件") == pool  # no document is the subject's own account
    assert opens_on("An async component wraps another component.", "async components")
    assert opens_on("Async components are lazy.", "async component")
    assert not opens_on("Components are the main mechanism.", "async components")


def test_what_the_subject_is_beside_its_definition_comes_from_what_sections_or_sentences_naming_it() -> None:
    # pinia's 插件 and svelte's CSS custom properties: "what" was padded with a limit and a motivation
    from dataclasses import replace

    from generator.topic.account import defining_passages, opens_on
    from generator.topic.candidate import Candidate

    def passage(text: str, treats: bool = False) -> Candidate:
        return replace(Candidate(text, "doc", 1.0, 0.5, 0.1), treats=treats)

    pool = [
        passage("插件只会应用于在 pinia 传递给应用后创建的 store，否则它们不会生效。"),
        passage("插件可以为每个 store 添加新的属性和方法。"),
        passage("Theming components is currently too difficult."),
        passage("This RFC proposes an idiomatic way to pass styles to components for theming.", treats=True),
    ]
    assert [c.text for c in defining_passages(pool, "插件")] == [pool[1].text, pool[3].text]
    assert opens_on("插件只会应用于…", "插件") and not opens_on("插件只会应用于…", "插件", defining=True)
    assert [c.text for c in defining_passages(pool, "CSS custom properties")] == [pool[3].text]
    # a document titled as the subject says what it is throughout (vue's "依赖注入": "任何后代的组件树，无论层级有多深，
    # 都可以注入由父组件提供给整条链路的依赖。")
    assert defining_passages(pool, "CSS custom properties", {"doc"}) == pool


def test_a_summarys_subsections_say_how_it_works_not_what_it_is() -> None:
    # the Dapr crypto building block's "## Overview" opens on what it is; its "### Low-level APIs" and "### High-level
    # APIs" ("The high-level APIs at launch will only include support for encrypting and decrypting messages…")
    # are its design, which "What is the cryptography building block?" quoted beside the definition
    judge = RelevanceJudge("cryptography building block")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    text = (
        "# Crypto building block\n\n## Overview\n\nThis is a proposal for a new building block that lets "
        "developers encrypt and decrypt messages without handling keys.\n\n### High-level APIs\n\nThe high-level "
        "APIs at launch will only include support for encrypting and decrypting messages.\n\n## Design\n\n"
        "Components implement low-level primitives only.\n"
    )
    found = treating(text, "what", concepts, tokens, own_headings=True, title="Crypto building block")
    assert [section.heading for section, _ in found] == ["Overview"]


def test_a_lead_in_counting_its_points_in_paragraphs_is_quoted_with_the_first_of_them() -> None:
    # DEP 14's "Motivation" opens "…poses 2 main benefits:" then "Firstly, …" and "Secondly, …" paragraphs (EmberData's
    # "There are two motivations:", "First, …", "Second, …" too; 10 sections in 7 stored collections): the lead-in
    # alone is no sentence, so "Why do background workers matter?" quoted the section on alternatives instead
    text = (
        "# Background workers\n\n## Motivation\n\n"
        "Having a first-party interface for background workers poses 2 main benefits:\n\n"
        "Firstly, it lowers the barrier to entry for offloading computation to the background.\n\n"
        "Secondly, it allows third-party libraries to offload some of their execution.\n\n"
        "## Specification\n\nA backend is a class.\n"
    )
    [motivation] = [s for s in text_sections(text) if s.heading == "Motivation"]
    [passage] = opening_passages(motivation, 2, past_lists=True)
    assert passage.text == (
        "Having a first-party interface for background workers poses 2 main benefits: Firstly, it lowers the "
        "barrier to entry for offloading computation to the background. Secondly, it allows third-party "
        "libraries to offload some of their execution."
    )
    # a lead-in whose next paragraph counts nothing is not joined to it
    plain = text.replace("Firstly, it", "It").replace("Secondly, it", "It also")
    [motivation] = [s for s in text_sections(plain) if s.heading == "Motivation"]
    assert all("benefits:" not in p.text for p in opening_passages(motivation, 2, past_lists=True))


# cilium's CFP-22215 (session 26, held out): "##### Pros" and "##### Cons" under "#### Considered option: Define
# mesh-auth-mode via daemon config" answered why ("Pros: - Upper bound for auth connections / node is
# pre-defined") and how you work with it ("Cons: - More difficult to test"), the option never named. The document
# layer stores a list right under its heading with the heading as its label ("**Pros:**").
WEIGHED = (
    "# Mutual authentication\n\n## Motivation\n\nPods need to prove who they are to their peers.\n\n"
    "## Proposal\n\n### Overview\n\nThe agents authenticate peers out of band before traffic flows.\n\n"
    "#### Cons\n\n**Cons:**\n- The first packets of a connection are dropped until it is authenticated.\n\n"
    "### Key question: How to enable and configure mTLS mode\n\n"
    "#### Considered option: Define mesh-auth-mode via daemon config\n\n"
    "##### Pros\n\n**Pros:**\n- Upper bound for auth connections per node is pre-defined.\n\n"
    "##### Cons\n\n**Cons:**\n- More difficult to test.\n"
)


def test_pros_and_cons_weigh_the_section_they_stand_in() -> None:
    judge = RelevanceJudge("mutual authentication")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]

    def quoted(facet: str) -> list[str]:
        found = treating(WEIGHED, facet, concepts, tokens, own_headings=True, title="Mutual authentication")
        passages = [p for section, limit in found for p in opening_passages(section, limit, past_lists=True)]
        return [" ".join([p.text, *p.items]) for p in passages]

    assert not any("Upper bound" in p or "More difficult" in p for p in quoted("motivation") + quoted("use"))
    assert quoted("alternatives") == [
        "Pros: Upper bound for auth connections per node is pre-defined.",
        "Cons: More difficult to test.",
    ]
    # the design's own cons are its limits, not how it works
    dropped = "Cons: The first packets of a connection are dropped until it is authenticated."
    assert dropped in quoted("limits")
    assert dropped not in quoted("how")


def test_a_quote_from_an_option_names_the_option_it_weighs_or_belongs_to() -> None:
    # "Pros:" says nothing of what it weighs; thanos' query-path tenancy proposal: "#### Use a proxy to enforce
    # and identify tenants in queries." under "### Alternative solutions" opens "While this could work for some
    # of the features…", which names no proxy; "### ApplicationSet" (Argo CD) opens "One alternative is
    # ApplicationSet…", which names itself
    option = "Considered option: Define mesh-auth-mode via daemon config"
    assert (
        context_of(WEIGHED, "Pros:", ("Upper bound for auth connections per node is pre-defined.",)) == option
    )
    assert context_of(WEIGHED, "Cons:", ("More difficult to test.",)) == option
    assert (
        context_of(
            WEIGHED, "Cons:", ("The first packets of a connection are dropped until it is authenticated.",)
        )
        == ""
    )
    text = (
        "# Tenancy awareness in the query path\n\n## Alternatives\n\n### Alternative solutions\n\n"
        "#### Use a proxy to enforce and identify tenants in queries.\n\nWhile this could work for some of the "
        "features, it would have to be inserted in front of many different components.\n\n### ApplicationSet"
        "\n\nOne alternative is ApplicationSet, which automates the creation of Application resources.\n"
    )
    assert (
        context_of(
            text,
            "While this could work for some of the features, it would have to be inserted in front "
            "of many different components.",
        )
        == "Use a proxy to enforce and identify tenants in queries"
    )
    assert (
        context_of(
            text, "One alternative is ApplicationSet, which automates the creation of Application resources."
        )
        == ""
    )


KEP = (
    "# Lending limit\n\n## Proposal\n\nA ClusterQueue lends at most its lending limit to its cohort.\n\n"
    "### Risks and Mitigations\n\nA ClusterQueue may not borrow up to its limit while quota is reserved.\n\n"
    "## Design Details\n\nThe lending limit is a field of the resource quota.\n\n### Test Plan\n\n"
    "Unit tests cover the scheduler's quota accounting.\n\n#### Integration tests\n\nAn integration test "
    "admits a workload within the reserved quota.\n\n### Graduation Criteria\n\nThe field moves to beta after "
    "one release.\n\n### Upgrade / Downgrade Strategy\n\nA downgrade drops the field from stored objects.\n"
)


def test_a_templates_risks_are_limits_and_its_delivery_plan_answers_no_question() -> None:
    # a KEP-like template's "Risks and Mitigations", "Test Plan", "Graduation Criteria" and "Upgrade / Downgrade
    # Strategy" name no facet and stand under "## Proposal" / "## Design Details": Argo CD's server-side apply
    # answered "How does … work?" with its risks and its upgrade strategy (118 risks sections in 4 stored
    # collections, 114 test plans in 2, 27 upgrade strategies)
    judge = RelevanceJudge("lending limit")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]

    def quoted(facet: str) -> list[str]:
        found = treating(KEP, facet, concepts, tokens, own_headings=True, title="Lending limit")
        return [p.text for section, limit in found for p in opening_passages(section, limit)]

    assert quoted("how") == [
        "A ClusterQueue lends at most its lending limit to its cohort.",
        "The lending limit is a field of the resource quota.",
    ]
    assert quoted("limits") == ["A ClusterQueue may not borrow up to its limit while quota is reserved."]
    for facet in ("what", "motivation", "use", "alternatives", "current"):
        assert not any("test" in p or "beta" in p or "downgrade" in p for p in quoted(facet)), facet


def test_how_the_work_is_tested_answers_no_question_whatever_its_tests_are_called() -> None:
    # KubeVirt's proposals end their design on "## Functional Testing Approach" (27 of 45): "- Reliably distinguish
    # after a migration if it was pre- or post-copy" was quoted as how migration policies work; Tekton's TEPs
    # write a bare "## Testing"
    for heading in (
        "Functional Testing Approach",
        "## Unit Testing Approach",
        "Testing",
        "E2E test strategy",
    ):
        assert aside_role(heading) == DELIVERY, heading
    for heading in ("Testing in PRs", "Test pipeline overview", "Conformance tests"):
        assert aside_role(heading) != DELIVERY, heading  # what a design about tests itself designs


def test_a_sentence_pointing_at_the_example_after_it_is_quoted_with_it_or_not_at_all() -> None:
    # cilium's and thanos' "Example output from my mac looks like below." and "The shown values are the defaults."
    # point at the code block after them without a colon; quoted alone they speak of nothing shown (122 such
    # last sentences right above a block in 23 stored collections)
    text = (
        "# Hubble metrics\n\n## Proposal\n\nHubble exports flow metrics per namespace. Example output from my "
        'mac looks like below.\n\n```\nhubble_flows_processed_total{namespace="default"} 12\n```\n\n'
        "## Configuration\n\nThe shown values are the defaults.\n\n```yaml\nmetrics: [dns, drop]\n```\n"
    )
    proposal, config = [s for s in text_sections(text) if s.heading in ("Proposal", "Configuration")]
    [passage] = opening_passages(proposal)
    assert passage.text.endswith("looks like below.")
    assert passage.code.startswith("hubble_flows_processed_total")
    assert [p.text for p in opening_passages(config)] == []


LEP = (
    "# Filesystem trim\n\n## Summary\n\nLonghorn reclaims the space a filesystem frees with trim.\n\n"
    "## Proposal\n\n### User Experience In Detail\n\n1. Users enable the option for a volume.\n"
    "2. Users run fstrim on the mount point.\n\n### API changes\n\nThe engine forwards each unmap request to "
    "all its replicas, which punch holes in the removed snapshots.\n"
)


def test_a_users_steps_under_a_proposal_are_how_it_is_used_not_how_it_works() -> None:
    # a KEP-like template's "### User Experience In Detail" under "## Proposal" (longhorn 87 such sections,
    # tekton 56 "User Experience" under "## Proposal" or "## Design Evaluation") answered "How does filesystem
    # trim work?" with the user's steps in all three longhorn reports; the design is the section after it
    judge = RelevanceJudge("filesystem trim")
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]

    def quoted(facet: str) -> list[str]:
        found = treating(LEP, facet, concepts, tokens, own_headings=True, title="Filesystem trim")
        return [p.text for section, limit in found for p in opening_passages(section, limit)]

    assert not any("Users" in p for p in quoted("how"))
    assert any("punch holes" in p for p in quoted("how"))
    used = treating(LEP, "use", concepts, tokens, own_headings=True, title="Filesystem trim")
    assert [section.heading for section, _ in used] == ["User Experience In Detail"]


def test_a_chinese_lead_in_above_its_example_is_quoted_with_it_or_not_at_all() -> None:
    # lowcode-engine's setter.md:58 "例如我们需要在 NumberSetter 中配置 units 属性，可以在 asset.json 中声明。" ends
    # on a full stop and its JSON follows: the report (and its summary) quoted the sentence without it. A step's
    # caption with no sentence end ("将生成的代码写入到磁盘中 (也可以生成一个 zip 包)", step 5 of codeGeneration.md)
    # was quoted alone as how 出码 is used
    text = (
        "# 设置器扩展\n\n## 对高级功能的配置\n\n例如我们需要在 NumberSetter 中配置 units 属性，可以在 asset.json 中"
        '声明。\n\n```json\n"setter": { "componentName": "NumberSetter", "props": { "units": [] } }\n```\n\n'
        "## 服务端出码接入\n\n将生成的代码写入到磁盘中 (也可以生成一个 zip 包)\n\n```javascript\n"
        "await CodeGenerator.publishers.disk().publish({ project });\n```\n\n"
        "## 设置器类型\n\n每一个设置器对应一个值的类型。\n\n```json\n{}\n```\n\n"
        "## 使用\n\nLocaleProvider 使用了 React 的 context 上下文特性，你只需要在应用外围包裹一次即可全局生效\n\n"
        "```jsx\n<LocaleProvider locale={zh_CN} />\n```\n"
    )
    units, disk, kinds, wrap = [s for s in text_sections(text) if s.heading != "设置器扩展"]
    [passage] = opening_passages(units)
    assert passage.text.startswith("例如我们需要在 NumberSetter 中配置 units 属性")
    assert '"componentName": "NumberSetter"' in passage.code
    [step] = opening_passages(disk)
    assert step.code.startswith("await CodeGenerator.publishers.disk()")
    # a sentence saying something of its own above an example is quoted as before, without it
    assert [(p.text, p.code) for p in opening_passages(kinds)] == [("每一个设置器对应一个值的类型。", "")]
    # …but a statement whose full stop the page leaves out, naming what the example spells as code, is that
    # example's lead-in: "你只需要在应用外围包裹一次" is the `<LocaleProvider …/>` wrapping shown right after it
    [said] = opening_passages(wrap)
    assert said.text.startswith("LocaleProvider 使用了 React 的 context 上下文特性")
    assert said.code == "<LocaleProvider locale={zh_CN} />"
