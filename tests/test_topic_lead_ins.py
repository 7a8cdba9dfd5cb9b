"""A lead-in comes with what it introduces or is not quoted (issue 30, "Passages in context"): a bare "例如：" /
"For example:" after a paragraph hands that paragraph over to the example after it; a lead-in inside a
paragraph right above an example is quoted with it; a lead-in quoted without its example or list, or a
sentence opening on "或者" (or), is not quoted; a long nested list is quoted by its points; a summary of a subject its sources only show at work leads
with what its example passages say before their lead-ins (kratos-zh middleware overview, config, errors)."""

from __future__ import annotations

from generator.topic import workspace as wsp
from generator.topic.candidate import Candidate
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.opening_passages import opening_passages
from generator.topic.passage_pools import reads_alone
from generator.topic.plan import Plan, Step
from generator.topic.report import build_report
from generator.topic.section_tree import text_sections
from generator.topic.sentences import code_examples, leans_back, listed_items
from generator.topic.source_quotes import quotes_of

REGISTER = (
    "var opts = []http.ServerOption{\n    http.Middleware(recovery.Recovery()),\n}\nhttp.NewServer(opts...)"
)
USING = (
    "# 概览\n\n#### 使用中间件\n\n在 NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。\n\n例如：\n\n"
    f"```go\n{REGISTER}\n```\n"
)
LOADING = (
    "# 配置\n\n##### 1.初始化配置源\n\n使用file，即从本地文件加载： 这里的path就是配置文件的路径，这里也可以填写一个目录名，"
    "这样会将整个目录中的所有文件进行解析加载。\n\n```go\nc := config.New(config.WithSource(file.NewSource(path)))\n```\n"
)


def _section(text: str, heading: str):  # type: ignore[no-untyped-def]
    return next(s for s in text_sections(text) if s.heading == heading)


def test_a_bare_lead_in_hands_the_paragraph_before_it_over_to_the_example() -> None:
    # "例如：" says nothing alone; the registration sentence above it is the section's answer, with the code
    found = opening_passages(_section(USING, "使用中间件"), 2, example_alone=True)
    assert [p.text for p in found] == [
        "在 NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。 例如："
    ]
    assert found[0].code == REGISTER
    # …the same in English, wherever a text's examples are read
    text = f"Register the middleware when you create the server.\n\nFor example:\n\n```go\n{REGISTER}\n```\n"
    shown = code_examples(text)
    assert [(q.text, q.code) for q in shown] == [
        ("Register the middleware when you create the server. For example:", REGISTER)
    ]


def test_a_lead_in_inside_a_paragraph_above_an_example_is_quoted_with_it() -> None:
    found = opening_passages(_section(LOADING, "1.初始化配置源"), 1, example_alone=True)
    assert len(found) == 1 and found[0].text.startswith("使用file，即从本地文件加载：")
    assert found[0].code == "c := config.New(config.WithSource(file.NewSource(path)))"


def test_a_lead_in_without_what_it_introduces_and_an_or_are_not_quoted_alone() -> None:
    stranded = Candidate(
        "The helper runs once per host. Configure it on the command line:", "s", 1.0, 1.0, 0.0
    )
    assert not reads_alone(stranded)
    assert reads_alone(Candidate("The helper runs once per host.", "s", 1.0, 1.0, 0.0))
    assert leans_back("或者在项目根目录使用Makefile指令生成错误代码。")


def test_a_summary_of_a_subject_only_shown_leads_with_what_its_examples_say_first() -> None:
    source = wsp.RawSource("local-m", "local", "local:m.md", "概览", "t", USING, kind="local", relevance=0.9)
    shown = Claim(
        "在 NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。 例如：",
        [source.id],
        1.0,
        code=REGISTER,
    )
    plan = Plan(
        topic="中间件",
        sub_queries=["如何使用中间件？"],
        steps=[Step(id="s1", title="use", question="如何使用中间件？", facet="use")],
    )
    report = build_report(plan, Analysis(sections=[Section("如何使用中间件？", [shown])]), Catalog([source]))
    assert [(c.text, c.code) for c in report.summary] == [
        ("在 NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。", "")
    ]
    assert report.sections[0].claims[0].code == REGISTER  # the section keeps the example


ENCODING = (
    "# Span-batches\n\n#### Span batch format\n\n"
    "Standard bitlists, in the context of span-batches, are encoded as big-endian integers, left-padded with "
    "zeroes to the next multiple of 8 bits.\n\nWhere:\n"
    "- prefix = rel_timestamp ++ l1_origin_num ++ parent_check ++ l1_origin_check\n"
    + "".join(f"  - prefix_field_{n}: a uvarint field of the prefix.\n" for n in range(8))
    + "- payload = block_count ++ origin_bits ++ block_tx_counts ++ txs:\n"
    + "".join(f"  - payload_field_{n}: a uvarint field of the payload.\n" for n in range(8))
    + "- txs = contract_creation_bits ++ y_parity_bits ++ tx_sigs\n"
)
POINTS = (
    "prefix = rel_timestamp ++ l1_origin_num ++ parent_check ++ l1_origin_check",
    "payload = block_count ++ origin_bits ++ block_tx_counts ++ txs",
    "txs = contract_creation_bits ++ y_parity_bits ++ tx_sigs",
)


def test_a_bare_lead_ins_long_nested_list_is_quoted_by_its_points_with_the_paragraph_before() -> None:
    # optimism's span-batches: "Where:" and its 27 items (3 points, 24 fields) were never quoted, so the
    # encoding was left unsaid while the bitlist sentence above it was quoted alone
    source = wsp.RawSource("local-s", "local", "local:s.md", "Span-batches", "t", ENCODING, kind="local")
    quotes = [q for q, _, _ in quotes_of(source, "span batch encoding", {"span", "batch", "bitlists"})]
    listed = [q for q in quotes if q.items]
    assert [(q.text, q.items) for q in listed] == [
        (
            "Standard bitlists, in the context of span-batches, are encoded as big-endian integers, left-padded "
            "with zeroes to the next multiple of 8 bits. Where:",
            POINTS,
        )
    ]
    assert listed_items(ENCODING, POINTS) == 19  # the report says how many it leaves out
    assert all(not q.text.startswith("Standard bitlists") for q in quotes if not q.items)
