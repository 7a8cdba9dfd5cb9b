"""A report quotes a code example in the language its source's fence declares (gin's ```go, arthas' ```bash),
so the site highlights it as its author marked it."""

from __future__ import annotations

from generator.site.pages.topic import claim_markdown
from generator.topic import workspace as wsp
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.plan import Plan, Step
from generator.topic.report import build_report
from generator.topic.sentences import code_language

STORED = (
    "编写一个记录延迟的中间件：\n\n"
    "```go\nfunc Logger() gin.HandlerFunc {\n  return func(c *gin.Context) {\n    t := time.Now()\n\n"
    "    c.Next()\n  }\n}\n```\n\n"
    "输出：\n\n```\nlatency 3ms\n```"
)


def test_a_fence_names_its_language_by_its_info_strings_first_word() -> None:
    assert code_language("Run:\n\n```{.python title=x}\nrun()\n```", "run()") == "python"
    assert code_language("Run:\n\n~~~ bash\n$ run\n~~~", "$ run") == "bash"
    assert code_language("Run:\n\n```\nrun()\n```", "run()") == ""
    assert code_language("Run:\n\n```go\nrun()\n```", "other()") == ""


def _quoted(claim: Claim, source: wsp.RawSource) -> Claim:
    question = "中间件如何工作？"
    plan = Plan(
        topic="中间件", sub_queries=[question], steps=[Step(id="s", title=question, question=question)]
    )
    report = build_report(plan, Analysis(sections=[Section(question, [claim])]), Catalog([source]))
    [quoted] = report.sections[0].claims
    return quoted


def test_a_report_quotes_an_example_in_the_language_its_source_fences_it_in() -> None:
    source = wsp.RawSource("local-m", "local", "local:m.md", "中间件", "t", STORED, kind="local")
    code = STORED[STORED.index("func Logger") : STORED.index("\n```\n\n输出")]
    quoted = _quoted(Claim("编写一个记录延迟的中间件：", [source.id], 1.0, code), source)
    assert quoted.language == "go"
    assert "\n```go\nfunc Logger()" in claim_markdown(quoted, {source.id: 1})
    # an example whose fence names no language is shown as text, as before
    plain = _quoted(Claim("输出：", [source.id], 1.0, "latency 3ms"), source)
    assert not plain.language and "\n```text\nlatency 3ms\n```" in claim_markdown(plain, {source.id: 1})
