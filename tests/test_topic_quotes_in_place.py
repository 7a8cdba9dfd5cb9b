"""A quoted passage reads the same in the report as in its document (issue 30): it is quoted under the facet
its sections treat, a quote from another document speaking of "this PEP" names that document, a sentence
about an example is not quoted without it, and "current state" is answered by the defining document's header.
"""

from __future__ import annotations

from topic_fakes import offline

from generator.topic.analyze import analyze
from generator.topic.findings import Catalog
from generator.topic.heading_facets import path_facets
from generator.topic.headings import section_facets
from generator.topic.plan import heuristic_plan
from generator.topic.sentences import list_quote, needs_antecedent, places, points_elsewhere
from generator.topic.standing import proposals_only, usable_for
from generator.topic.workspace import RawSource


def _source(sid: str, title: str, text: str, status: str = "", relevance: float = 0.9) -> RawSource:
    return RawSource(
        sid, "local", f"local:peps/{sid}.md", title, "2026-01-01T00:00:00Z", text,
        kind="local", relevance=relevance, status=status, published="2018-02-28", landed="Python 3.8",
    )  # fmt: skip


SUBJECT = (
    "# Assignment Expressions\n\n## Abstract\n\nThis is a proposal for creating a way to assign to variables "
    "within an expression using the notation NAME := expr.\n\n## Specification\n\nA named expression binds "
    "the value of the expression to the target name in the current scope.\n\n## Rejected alternative proposals"
    "\n\n### Special-casing conditional statements\n\nOne of the most popular use cases of assignment "
    "expressions is if and while statements, which a statement-only spelling would serve.\n"
)
OTHER = (
    "# Augmented assignment operators\n\n## Abstract\n\nThis PEP allows augmented assignment expressions "
    "such as x += 1 to be used as expressions wherever assignment expressions are allowed.\n"
)


def test_a_passage_under_a_section_of_another_facet_stays_there() -> None:
    text = "# Doc\n\n## Rejected alternative proposals\n\n### Special-casing\n\nOne popular spelling was rejected.\n"
    sentences = ["One popular spelling was rejected."]
    [path] = [place.headings for place in places(text, sentences)]
    assert path == ("Doc", "Rejected alternative proposals", "Special-casing")
    assert path_facets(path) == {"alternatives"}
    # nor when its own heading names another facet: SE-0258's "### Kotlin-like `by` syntax" under
    # "## Alternatives considered" was quoted under "How do property wrappers work?"
    assert path_facets(("Property Wrappers", "Alternatives considered", "Kotlin-like `by` syntax")) == {
        "alternatives"
    }
    assert path_facets(("Property Wrappers", "Detailed design", "Kotlin-like `by` syntax")) == {"how"}
    assert section_facets("Rejected alternative proposals") == {"alternatives"}  # not "how" for "proposal"
    assert section_facets("Additional restrictions") == {"limits"}
    # a comment line in a code block is no heading
    code = "## Usage\n\n```\n# a comment\nx = 1\n```\n\nThe value is bound in the current scope.\n"
    assert [p.headings for p in places(code, ["The value is bound in the current scope."])] == [("Usage",)]


def test_a_withdrawn_proposal_does_not_answer_how_beside_the_defining_one_in_force() -> None:
    subject = _source("s", "Assignment Expressions", SUBJECT, "final", relevance=0.93)
    other = _source("o", "Augmented Assignment Expressions", OTHER, "withdrawn", relevance=0.95)
    assert proposals_only([subject, other])  # the withdrawn one scored highest…
    assert not proposals_only([subject, other], defining={"s"})  # …but the subject's own is in force
    assert not usable_for("how", [subject, other], defining={"s"})(other)


def test_another_documents_self_reference_is_attributed_and_the_header_states_the_current_state() -> None:
    # the subject's document is titled after it but is not titled as it, so the other proposal answers too (a
    # document titled "Assignment Expressions" alone would answer "what" itself: `account.subject_first`)
    subject = _source("s", "Assignment Expressions in Python", SUBJECT, "final", relevance=0.93)
    other = _source("o", "Augmented assignment operators", OTHER, "final", relevance=0.9)
    plan = heuristic_plan("assignment expressions")
    for step in plan.steps:
        step.sources, step.status = ["s", "o"], "done"
    analysis = analyze(offline(), plan, Catalog([subject, other]), lang="en")
    claims = {c.text: c for s in analysis.sections for c in s.claims}
    theirs = [c for c in claims.values() if c.sources == ["o"]]
    assert all(c.attributed == "Augmented assignment operators" for c in theirs)
    # quoted anywhere (a section is no longer padded with it here), "This PEP" is its own document's
    from generator.topic.findings import Claim
    from generator.topic.section_claims import attribute

    passage = Claim("This PEP allows augmented assignment expressions such as x += 1 to be used.", ["o"])
    [quoted] = attribute([passage], Catalog([subject, other]), ["s"])
    assert quoted.attributed == "Augmented assignment operators"
    titled_as = _source("s", "Assignment Expressions", SUBJECT, "final", relevance=0.93)
    own = analyze(offline(), plan, Catalog([titled_as, other]), lang="en")
    assert not any(
        c.sources == ["o"] for s in own.sections if s.question.startswith("What are") for c in s.claims
    )
    assert all(
        not c.attributed for c in claims.values() if c.sources == ["s"]
    )  # "this is a proposal": its own
    current = next(s for s in analysis.sections if "current state" in s.question)
    assert current.claims[0].header and current.claims[0].text.startswith(
        "Assignment Expressions in Python — final"
    )
    how = next(s for s in analysis.sections if s.question.startswith("How do"))
    assert not any("popular use cases" in c.text for c in how.claims)  # a rejected alternative's passage


def test_sentences_pointing_elsewhere_or_back_are_not_quoted_alone() -> None:
    assert needs_antecedent("Conversely, assignment expressions do not support multiple targets.")
    assert needs_antecedent("As an example, consider the generator that results from the expression.")
    assert needs_antecedent("On all other platforms, this field is REQUIRED.")
    assert not needs_antecedent("In Python 3.8, this PEP adds the walrus operator to the language grammar.")
    assert not needs_antecedent("When the runner fails, it retries the request after a short delay.")
    # a noun phrase naming what was said before it, wherever it stands (go's loopvar and soft memory limit,
    # ember's tracked properties, react's server components)
    for sentence in (
        "The current cures for this problem are worse than the disease.",
        "Fortunately, we have a strategy for mitigating some of this frustration.",
        "Each of these approaches delivers some of the benefits of this proposal.",
        "One way to do so would be to define the memory limit in terms of heap object bytes.",
        "The second is that most heaps will have an inflated size.",
        # the rest of a sentence said before it, or the next step of a walk-through (svelte, pinia)
        "...we create a new writable value store:",
        "More broadly, the same technique will work with existing state management libraries.",
        "For one thing, they're not actually declarations.",
        "上述一切功能都有类型支持，所以你永远不需要使用 any。",
        "除此之外，你肯定也会使用 ref()，以便在不同的读取中共享相同的值。",
    ):
        assert needs_antecedent(sentence), sentence
    assert not needs_antecedent("If you want to emit a signal, you can do so by calling the send method.")
    assert points_elsewhere(
        "Below are a number of alternative syntaxes, which have been rejected in favour of the one given above."
    )
    assert points_elsewhere("Our strategy is to release only the call graph builder (see Figure 2) first.")
    # a pointer after an opening clause (swift's "## Examples" of property wrappers opened on it)
    assert points_elsewhere("Before describing the detailed design, here are some more examples of wrappers.")
    assert points_elsewhere("As described in the previous section, you can disable the warning for marks.")
    assert needs_antecedent("In this example, monkeypatch.setattr is used to patch Path.home for the test.")
    assert not points_elsewhere("The := operator groups more tightly than a comma in all positions.")
    # further reading by other words (design documents, RFCs, evolution proposals, schema specs)
    assert points_elsewhere("For additional usage samples, checkout the proof of concepts.")
    assert points_elsewhere("For a complete list of keywords, refer to the vocabulary document.")
    assert points_elsewhere("For detailed semantics, please see the reference.")
    assert not points_elsewhere("For other platforms, the default is five seconds.")
    # a caption ending on a full stop, its example not quoted with it
    assert points_elsewhere(
        "In an ASP.NET Core endpoint, usage of specific RateLimiters will look like the following."
    )
    assert points_elsewhere("The grammar is as follows.")
    # what the document's own places say (otel's specification, go's proposals)
    for pointer in (
        "For each of the above aspects, we want sampling decisions to be made in a consistent manner.",
        "All the above functionalities operate solely on the context API.",
        "The functions described here are one way to approach interacting with the Baggage.",
        "If the language supports implicit Context (see here), the API SHOULD provide it.",
        "The conversion function described in this section is the result of an impedance mismatch.",
        "The most common programs that break are buggy tests (see the fixes buggy code section below).",
        "For details about encoding sampling information, see Tracestate handling.",
        "To address the issues above, AutoFDO is a more recent approach.",
        "The first version of the code that performs profile-guided inlining is available here.",
        "The article Codebase Refactoring (with help from Go) presents the background for this change in detail.",
    ):
        assert points_elsewhere(pointer), pointer
    assert not points_elsewhere("As noted above, the new semantics may allocate in a loop.")  # says it itself
    assert not points_elsewhere("Here the sampler reads the threshold from the trace state.")
    assert not points_elsewhere("A span is kept when its randomness is at the threshold or above it.")
    assert not points_elsewhere("The collector drops spans with a value above the threshold.")
    assert not points_elsewhere("Memory use stays within the limit above which the collector runs.")
    assert not points_elsewhere("This document proposes a new option for tuning the garbage collector.")


def test_a_sentence_right_after_an_example_speaking_of_it_is_not_quoted_without_it() -> None:
    text = (
        "## Examples\n\nReading a file line by line until the end works with a loop:\n\n```\nwhile line := "
        "f.readline():\n    print(line)\n```\n\nCalling readline in the while condition makes the code more "
        "compact without making it harder to understand.\n\nAssignment expressions keep the loop condition and "
        "the binding of the line in one place.\n"
    )
    source = _source("s", "Assignment Expressions", text, "final")
    from generator.topic.source_quotes import quotes_of

    quoted = [q.text for q, _, _ in quotes_of(source, "assignment expressions", {"assign", "loop", "line"})]
    assert not any(q.startswith("Calling readline") for q in quoted)
    assert any(q.startswith("Assignment expressions keep") for q in quoted)


def test_a_limit_is_found_in_the_words_documents_state_it_in() -> None:
    text = (
        "# Dependency pre-bundling\n\nDependency pre-bundling converts dependencies shipped as CommonJS into "
        "native modules when the dev server starts.\n\n## Detailed design\n\nThe dev server scans the source "
        "files for bare imports and bundles each dependency it finds into one module.\n\n## Caching\n\n"
        "Dependency pre-bundling cannot run during "
        "production builds, where the bundler handles dependencies itself.\n"
    )
    plan = heuristic_plan("dependency pre-bundling")
    for step in plan.steps:
        step.sources, step.status = ["s"], "done"
    analysis = analyze(offline(), plan, Catalog([_source("s", "Dependency pre-bundling", text)]), lang="en")
    limits = next(s for s in analysis.sections if "limits" in s.question)
    assert [c.text for c in limits.claims] == [
        "Dependency pre-bundling cannot run during production builds, where the bundler handles dependencies itself."
    ]


def test_the_work_a_change_asks_for_is_not_how_the_thing_works() -> None:
    from generator.topic.sentences import speaks_of_now

    for plan in (
        "The gc compiler needs to be updated to parse the new syntax and to apply the type checking rules.",
        "Other parts of the Go ecosystem will need to be updated to understand the new loop semantics.",
        "The necessary changes to ember-cli are relatively small since we only need to add the dependency.",
        "The implementation is small and already done.",
        "Goimports should need no updating.",
        "Currently our optimizations have been tested on Linux only.",
    ):
        assert speaks_of_now(plan), plan
    for design in (
        "The new type declaration syntax type T1 = T2 declares T1 as a type alias for T2.",
        "A tracked property needs no dependency keys: reading it while computing a value records it.",
        "The update function receives the pending state and returns the next one.",
    ):
        assert not speaks_of_now(design), design


def test_an_example_of_how_things_are_done_without_the_subject_is_not_quoted_as_its_use() -> None:
    # react's 服务器组件: "如果不使用服务器组件，通常会在客户端通过一个 Effect 来获取静态数据：" and its code answered "how
    # do you use server components?" with the way they replace
    from generator.topic.opening_passages import opening_passages
    from generator.topic.section_tree import text_sections
    from generator.topic.sentences import code_examples

    text = (
        "## Usage\n\n如果不使用服务器组件，通常会在客户端通过一个 Effect 来获取静态数据：\n\n```js\nuseEffect(() => "
        "{ fetch('/api/page') });\n```\n\n使用服务器组件，可以在渲染时直接读取数据，然后把结果发给浏览器：\n\n"
        "```js\nasync function Page() { const page = await db.read(); }\n```\n"
    )
    english = (
        "Without context, you would pass the theme through every level of props:\n\n```js\n<Toolbar theme="
        "{theme} />\n```\n\nWith context, a component reads the theme from the nearest provider above it:\n\n"
        "```js\nconst theme = useContext(ThemeContext);\n```\n"
    )
    assert [q.text for q in code_examples(english)] == [
        "With context, a component reads the theme from the nearest provider above it:"
    ]
    (section,) = [s for s in text_sections(text) if s.heading]
    assert [p.text for p in opening_passages(section, 2)] == [
        "使用服务器组件，可以在渲染时直接读取数据，然后把结果发给浏览器："
    ]


def test_a_paragraph_ending_on_an_announcement_is_quoted_without_it() -> None:
    """ "There are two main reasons to introduce this API in the BCL." announces the subsections after it: a
    paragraph is quoted up to it, and alone it is no passage."""
    from generator.text.pointers import announces
    from generator.topic.opening_passages import opening_passages
    from generator.topic.section_tree import text_sections

    assert announces("There are several alternative options for the VLA syntax.")
    assert not announces("There are two ways to do it: a and b.")
    text = (
        "# Rate limits\n\n## Usage\n\nThere are two main reasons to introduce this API in the BCL.\n\n"
        "## Design\n\nThe limiter hands out leases for permits. There are two kinds of leases.\n"
    )
    sections = {s.heading: s for s in text_sections(text)}
    assert opening_passages(sections["Usage"]) == []
    [passage] = opening_passages(sections["Design"])
    assert passage.text == "The limiter hands out leases for permits."


def test_a_pointer_or_a_table_of_contents_is_never_an_answer() -> None:
    # gin-zh's "另请参阅：" and "本节内容：" lead into lists of links, gorm-zh's "完整列表, 参考 …" points at one
    for sentence in (
        "另请参阅：",
        "**本节内容：**",
        "完整列表, 参考 GORM Finisher API。",
        "See also:",
        "In this section:",
    ):
        assert points_elsewhere(sentence), sentence
    # …nor is its list of links quoted with it, bold as the docs site writes it
    assert list_quote("**另请参阅：**\n- 错误处理中间件\n- 使用中间件") is None
    assert (
        list_quote(
            "**本节内容：**\n- 自定义 HTTP 配置 -- 微调底层 HTTP 服务器\n- 优雅重启或停止 -- 不中断地关闭"
        )
        is None
    )
    assert list_quote("**主要目标：**\n- 让中间件可以组合使用\n- 让中间件可以中止请求") is not None
    # a lead-in to what its own page shows is quoted with it
    for sentence in ("本节介绍 Gin 的中间件：", "完整的例子如下：", "The following options are supported:"):
        assert not points_elsewhere(sentence), sentence
