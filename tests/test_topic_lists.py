"""A quoted list item comes with its lead-in (issue 30, item 5): the stored text keeps a list with the
paragraph that introduces it, and a report quotes the two together or neither."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from topic_fakes import config, entry, make_corpus, offline

from generator.app.topic_target import topic_target
from generator.documents.plain import markup_prose
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.topic.opening_passages import opening_passages
from generator.topic.pipeline import run_topic_research
from generator.topic.section_tree import text_sections
from generator.topic.sentences import code_examples, list_parts, list_quote
from generator.topic.source_quotes import quotes_of
from generator.topic.workspace import RawSource

BUNDLE = (
    "# Filesystem Bundle\n\n## Container Format\n\n"
    "This section defines a format for encoding a container as a *filesystem bundle*: a set of files "
    "organized in a certain way.\n\n"
    "The definition of a bundle is only concerned with how a container, and its configuration data, are "
    "stored on a local filesystem.\n\n"
    "A Standard Container bundle contains all the information needed to load and run a container.\n"
    "This includes the following artifacts:\n\n"
    "1. `config.json`: contains configuration data.\n"
    "    This REQUIRED file MUST reside in the root of the bundle directory.\n\n"
    "2. container's root filesystem: the directory referenced by `root.path`.\n\n"
    "When supplied, these artifacts MUST all be present in a single directory on the local filesystem.\n"
)


def test_the_stored_text_keeps_a_list_with_the_paragraph_that_introduces_it() -> None:
    stored = markup_prose(BUNDLE, structure=True)
    assert (
        "A Standard Container bundle contains all the information needed to load and run a container. "
        "This includes the following artifacts:\n"
        "- config.json: contains configuration data. This REQUIRED file MUST reside in the root of the "
        "bundle directory.\n"
        "- container's root filesystem: the directory referenced by root.path.\n\n"
        "When supplied"
    ) in stored  # the item naming a file is no symbol listing: it is what the paragraph lists
    nested = "Steps:\n\n- build the image:\n  - pull the base layer\n  - add the files\n- run it\n"
    assert markup_prose(nested, structure=True) == (
        "Steps:\n- build the image:\n  - pull the base layer\n  - add the files\n- run it"
    )
    # a list under a paragraph that says what it lists in whole sentences: one block with it too
    plain = "A cache keeps results.\n\n- first the key is hashed\n- then the entry is stored\n"
    assert markup_prose(plain, structure=True) == (
        "A cache keeps results.\n- first the key is hashed\n- then the entry is stored"
    )
    # a list right under its heading: one block, the heading its lead-in; symbol listings dropped
    listing = "## Keys\n\n- first the key is hashed\n- `a.b` (function) `x.py:1-9`\n"
    assert markup_prose(listing) == "**Keys:**\n- first the key is hashed"
    goals = "## Main goals\n\n* Zero cost for mount.\n* Easy-to-use API.\n  * typed\n\nMore text.\n"
    assert markup_prose(goals, structure=True) == (
        "## Main goals\n\n**Main goals:**\n- Zero cost for mount.\n- Easy-to-use API.\n  - typed\n\nMore text."
    )
    assert markup_prose("## 主要目标\n\n- 零成本。\n- 易用。\n") == "**主要目标：**\n- 零成本。\n- 易用。"
    # a record's fields under the field's heading stay rows, each read with its field (sentences.context_of)
    record = (
        "### tracestate\n\n- Type: `String`\n- Description: a list of pairs.\n- Constraints\n  - OPTIONAL\n"
    )
    assert markup_prose(record, structure=True).startswith(
        "### tracestate\n\nType: String\n\nDescription: a list of pairs."
    )
    # points that each open with their own run-in label stand alone as they did (an RFC's open questions)
    questions = (
        "## Unresolved questions\n\n- **Unification of abstract const expressions:** This RFC does not unify"
        " them.\n- **Ordering and default parameters:** Do all const parameters come last?\n"
    )
    assert markup_prose(questions).split("\n\n") == [
        "Unification of abstract const expressions: This RFC does not unify them.",
        "Ordering and default parameters: Do all const parameters come last?",
    ]
    # the rest of a list a code block interrupts is no paragraph of its own
    interrupted = "The options are:\n\n1. `as`:\n\n   ```\n   f(x) as y\n   ```\n\n   Reads well.\n"
    assert markup_prose(interrupted, structure=True) == (
        "The options are:\n- as:\n\n```\nf(x) as y\n```\n\n- Reads well."
    )


def test_a_list_is_quoted_whole_with_its_lead_in_or_not_at_all() -> None:
    block = markup_prose(BUNDLE, structure=True).split("\n\n")[4]
    lead, items = list_parts(block)
    assert lead.endswith("the following artifacts:") and len(items) == 2
    quote = list_quote(block)
    assert quote is not None and quote.text == lead and quote.items == items
    assert list_parts("Steps:\n- build:\n  - pull\n- run")[1] == ("build:", "  pull", "run")
    # a lead-in alone that points back at what it is not quoted with; one saying nothing ("Like this:")
    assert list_quote("The new one is very similar:\n- it has a name\n- it has a type") is None
    assert list_quote("Like this:\n- one thing\n- another thing") is None
    assert list_quote(
        "一些内置常量在所有情况下都可用：\n- MODE: 应用运行的模式。\n- DEV: 是否运行在开发环境。"
    )
    assert (
        list_quote("A long list follows here for the reader:\n" + "\n".join(f"- item {n}" for n in range(20)))
        is None
    )
    source = RawSource(
        id="s", source="local", url="local:bundle.md", title="Filesystem Bundle", fetched_at="", text=block
    )
    quotes = [q for q, _, _ in quotes_of(source, "bundle artifacts", {"bundl", "artifact", "file"})]
    assert [q.items for q in quotes] == [items]  # no item sentence ("This REQUIRED file…") alone
    # a list too long to quote whole: the sentence before its lead-in alone, never an item
    long = "Bundles hold what a runtime needs to start.\nThe files are:\n" + "\n".join(
        f"- file {n} holds the bundle data of part {n}." for n in range(20)
    )
    source = RawSource(id="t", source="local", url="local:b.md", title="Bundles", fetched_at="", text=long)
    quotes = [q.text for q, _, _ in quotes_of(source, "bundle files", {"bundl", "file"})]
    assert quotes == ["Bundles hold what a runtime needs to start."]


def test_a_section_opening_with_a_list_is_quoted_with_it() -> None:
    text = markup_prose(BUNDLE, structure=True)
    section = next(s for s in text_sections(text) if s.heading == "Container Format")
    passages = opening_passages(section, 3)
    assert passages[0].text.startswith("The definition of a bundle")  # "This section…" refers to its heading
    assert passages[1].items and passages[1].text.endswith("the following artifacts:")
    assert len(passages) == 2  # "When supplied, these artifacts MUST…" speaks of the list: not alone


def test_a_code_example_is_not_quoted_with_a_lead_in_pointing_back() -> None:
    text = (
        "## Proposal\n\nThe old declaration reads:\n\n```\ntype T = U\n```\n\n"
        "The new one is very similar:\n\n```\ntype T U\n```\n"
    )
    section = text_sections(text)[0]
    assert opening_passages(section, 2) == []  # "The new one" is the one its reader has not seen
    said = (
        "Go declares a new named type from another type with a type declaration. " + text.split("\n\n", 3)[3]
    )
    assert [q.code for q in code_examples(said)] == ["type T U"]  # quoted with what it compares with


def test_a_code_example_is_not_quoted_with_a_lead_in_naming_what_came_before_it() -> None:
    # Nervos DAO: "this transaction" is the one two examples up; quoted, the block header reads as the answer
    text = (
        "Here is the withdrawing transaction with its two inputs and one output.\n\n"
        'Assume this transaction is included in the following block:\n\n```json\n{"number": "0x105f"}\n```\n\n'
        'The following request creates a deposit cell with 8 bytes of zero data:\n\n```json\n{"data": "0x00"}\n```\n'
    )
    assert [q.code for q in code_examples(text)] == ['{"data": "0x00"}']


def test_a_list_whose_items_read_a_figure_above_is_not_quoted() -> None:
    # nervos 0044: the MMR figure is an image the report cannot show; its items speak of it
    block = (
        "Each sub merkle tree's root is a peak, and the peaks are bagged into the root. For example:\n"
        "- In the above 11 leaf MMR we have 3 peaks: 14, 17, 18.\n"
        "- In the above 12 leaf MMR we have 2 peaks: 14, 21."
    )
    assert list_quote(block) is None
    assert list_quote(block.replace("In the above", "In an")) is not None
    # cometbft's worked example: "the following" messages are the ones the item goes on to give
    example = (
        "Consider the median of the precommit timestamps in a commit of four validators:\n"
        "- We have the following Precommit messages in some Commit field: (p1, 100), (p2, 98).\n"
        "- The median value will be 98."
    )
    assert list_quote(example) is not None


def test_the_report_prints_a_quoted_list_under_its_lead_in(kb_root: Path) -> None:
    noise = {
        f"other{n}.md": f"# Runtime {n}\n\nThe runtime {n} starts processes and reports their state.\n"
        for n in range(4)
    }
    make_corpus(kb_root, {"bundle.md": BUNDLE, **noise}, folder="spec")
    paths = KBPaths(kb_root)
    result = run_topic_research(
        paths,
        config(),
        offline(),
        topic_target(paths, entry(topic="filesystem bundle", sources=["local:spec"], verify=False)),
        publish=publish_topic,
    )
    _, report = read_page(paths.topic_dir(result.slug) / "output" / "report.md")
    assert "This includes the following artifacts: [\\[1\\]]" in report
    assert "\n\n- config.json: contains configuration data." in report
    assert "\n- container's root filesystem:" in report
    # no item is quoted as a sentence of its own
    assert "\n\nThis REQUIRED file" not in report and "\n\ncontainer's root" not in report


def test_an_item_leading_into_a_nested_list_is_no_lead_out_of_the_list() -> None:
    nested = (
        "## Hooks\n\nFor POSIX platforms, the configuration structure supports hooks for custom actions.\n\n"
        "- hooks (object) MAY contain any of the following properties:\n    - prestart (array) of hooks\n"
    )
    [section] = text_sections(markup_prose(nested, structure=True))
    [passage] = opening_passages(section)
    assert passage.items == (
        "hooks (object) MAY contain any of the following properties:",
        "  prestart (array) of hooks",
    )
    examples = (
        "## Examples\n\nAvoid a nested if and remove one indentation level.\n\n- Current:\n\n  ```\n  if a:\n"
        "      if b:\n          run()\n  ```\n"
    )
    [section] = text_sections(markup_prose(examples, structure=True))
    assert opening_passages(section) == []  # about the example it leads into, which a quote leaves out


def test_a_chinese_lead_in_ending_in_a_full_width_colon_is_quoted_with_its_code_example() -> None:
    # Chinese docs end a lead-in with '：' (Pinia's "要对一个 store 进行单元测试，最重要的是创建一个 pinia 实例：",
    # Vue's and React's Chinese pages alike): the example is quoted with it, as after ':'
    text = (
        "## 对 store 进行单元测试\n\n要对一个 store 进行单元测试，最重要的是创建一个 pinia 实例：\n\n"
        "```js\nsetActivePinia(createPinia())\n```\n"
    )
    quotes = code_examples(text)
    assert [(q.text, q.code) for q in quotes] == [
        ("要对一个 store 进行单元测试，最重要的是创建一个 pinia 实例：", "setActivePinia(createPinia())")
    ]


def test_a_list_right_under_its_heading_is_quoted_with_the_heading_as_its_lead_in() -> None:
    # "## Main goals of this proposal" then "* Zero cost…": an item alone ("Easy-to-use API.") reads as a
    # claim of its own; with the heading it is one of the proposal's goals
    text = (
        "## Main goals of this proposal\n\n* Zero cost for initial mount, commit, and unmount.\n"
        "* Easy-to-use API.\n* Statically typable.\n"
    )
    block = markup_prose(text, structure=True).split("\n\n")[1]
    quote = list_quote(block)
    assert quote is not None and quote.text == "Main goals of this proposal:"
    assert quote.items == (
        "Zero cost for initial mount, commit, and unmount.",
        "Easy-to-use API.",
        "Statically typable.",
    )
    source = RawSource(
        id="g", source="local", url="local:goals.md", title="Context", fetched_at="", text=block
    )
    quotes = [q for q, _, _ in quotes_of(source, "goals of context", {"goal", "cost", "api"})]
    assert all(q.items for q in quotes)  # never an item alone
    # a paragraph's short lead-in still has to stand (a grammar production "ObjectTypeDefinition :" names no list)
    assert list_quote("ObjectTypeDefinition:\n- Description? type Name\n- type Name Directives") is None
    assert list_quote("**原因：**\n- 兼容 CommonJS 和 UMD。\n- 提高性能。") is not None


def test_a_sections_opening_list_is_quoted_whole_under_its_heading() -> None:
    # "This addresses the following use cases:" leans only on "## Motivation" and its document; its five use
    # cases run past a paragraph's length, and they are the section's answer: lead-in and list, whole
    items = [
        "There is a bug that is yet to be fixed in a transitive dependency in our project's tree. While awaiting "
        "the bugfix to be published, we wish to override any instances of the dependency with a known good one.",
        "A security vulnerability is identified in a transitive dependency, but we are not able to upgrade the "
        "direct dependency pulling it in. An override would allow us to address the security issue.",
        "There should only be a single copy of a given dependency in our tree, but the resolution will result in "
        "a duplicate due to version conflicts.",
        "There is a transitive dependency X that exhibits a bug only when used in a particular way by another "
        "dependency Y. We wish to replace that instance of X, but only when included in the graph of Y.",
        "A developer working on a breaking change to a library may wish to test it in several dependent projects "
        "at once within a workspace, which is tedious today.",
    ]
    text = "## Motivation\n\nThis addresses the following use cases:\n" + "".join(f"- {i}\n" for i in items)
    motivation = text_sections(text)[0]
    assert list_quote(motivation.blocks[0]) is None  # quoted elsewhere, it would lean on what is not quoted
    (passage,) = opening_passages(motivation, 2, past_lists=True)
    assert passage.text == "This addresses the following use cases:"
    assert list(passage.items) == items
    # only a section headed for the question opens on its own answer: a title section's "Authors:" list is none
    title = text_sections("# ZEP 3 - Variable chunking\n\nAuthors:\n- Martin Durant\n- Isaac Virshup\n")[0]
    assert opening_passages(title, 2, past_lists=True) == []


def test_what_the_subject_is_comes_with_the_list_of_its_parts_that_follows_its_first_paragraph() -> None:
    from generator.topic.section_candidates import _section_openings

    overview = text_sections(
        "## Overview\n\n"
        "Hooks are a mechanism whereby application developers can add arbitrary behavior to flag evaluation. "
        "They operate similarly to middleware in many web frameworks.\n\n"
        "Hooks add their logic at any of four specific stages of flag evaluation:\n"  # stored as one block
        "- before, immediately before flag evaluation\n- after, immediately after successful flag evaluation\n"
        "- error, immediately after an unsuccessful flag evaluation\n- finally, unconditionally after flag "
        "evaluation\n"
    )[0]
    first, stages = _section_openings(overview, 2, "what", frozenset())
    assert first.text.startswith("Hooks are a mechanism")
    assert stages.text == "Hooks add their logic at any of four specific stages of flag evaluation:"
    assert stages.items[0] == "before, immediately before flag evaluation"


def test_a_short_lead_in_naming_its_heading_opens_its_section_with_its_list() -> None:
    # Alpenglow's "### Voting" and "### Certificates" open on a lead-in too short to stand alone ("There are
    # five types of certificates:"); it names its heading, and the section's list was never quoted
    text = (
        "## Voting\n\nVoting proceeds in two rounds:\n"
        "- In the first round, validators vote either to notarize a specific block or skip the slot.\n"
        "- In the second round, validators vote finalize if they saw enough notarize votes.\n\n"
        "## Outputs\n\nThe run gives two files:\n- a report of every check it ran\n- a log of its steps\n"
    )
    voting, outputs = text_sections(text)
    (passage,) = opening_passages(voting, 1)
    assert passage.text == "Voting proceeds in two rounds:" and len(passage.items) == 2
    assert opening_passages(outputs, 1) == []  # a lead-in naming nothing of its heading still needs to stand


def test_steps_split_by_their_examples_are_no_list_to_quote_with_its_lead_in() -> None:
    # DTM's tutorials: "步骤如下：", "1. 运行dtm", its commands unindented (which end the list in Markdown), then
    # "2. 运行例子"; quoted, the lead-in and "运行dtm" read as the whole recipe
    from generator.documents import read_text

    steps = (
        "# 运行\n\n如果您想要完整运行一个成功的示例，步骤如下：\n1. 运行dtm\n```bash\ngo run main.go\n```\n\n"
        "2. 运行例子\n\n```bash\ngo run main.go http_msg\n```\n"
    )
    blocks = [b for _, b in read_text(steps, name="e-msg.md").blocks()]
    assert [(b.kind, b.lead) for b in blocks if b.kind == "item"] == [
        ("item", "如果您想要完整运行一个成功的示例，步骤如下："),
        ("item", "如果您想要完整运行一个成功的示例，步骤如下："),
    ]
    stored = markup_prose(steps, structure=True)
    assert "如果您想要完整运行一个成功的示例，步骤如下：\n\n- 运行dtm\n\n```bash" in stored
    assert all(list_quote(block) is None for block in stored.split("\n\n"))
    # a list after an example, numbered from 1, is a list of its own
    fresh = "Run:\n\n1. start\n\n```bash\nrun\n```\n\n1. stop the server now\n"
    assert [b.lead for _, b in read_text(fresh, name="a.md").blocks() if b.kind == "item"] == ["Run:", ""]


# interledger 0027 "**Differences from Previous Versions of ILP:**": four paragraphs, cut to fit MAX_OPENING_LIST
ILPV4_DIFFERENCES = (
    "**Differences from Previous Versions of ILP:**\n\n"
    "- Designed for Smaller, More Homogenous Packet Amounts - ILPv4 applies a number of simplifications by only "
    "supporting low-value packets. Larger amounts can be sent through higher-level protocols that implement "
    "chunked payments, but the core network is optimized for sending large volumes of small packets. This "
    "renders unnecessary some of the more complex features of previous versions like Liquidity Curves for "
    "expressing how exchange rates may vary depending on the packet amount. Lower-value packets also help to "
    "minimize connector risks.\n"
    "- Payment Channels, Not On-Ledger Escrow - Since ILPv4 is optimized for smaller packets, speed and cost are "
    "of greater importance than in previous versions. ILPv4 uses ledgers or payment channels for settling "
    "bilateral payment obligations but ILPv4 packets are sent just between connectors, rather than through the "
    "underlying ledgers themselves. This enables packet timeouts to be short, because they do not need to "
    "include the processing time of slower ledgers, which further reduces connector risks. See Why "
    "Unconditional Payment Channels for more details.\n"
    "- Forwarding, Not Delivery - ILPv4 connectors forward packets based on their local exchange rates, in "
    "contrast with the first version of ILP in which connectors would attempt to deliver a fixed destination "
    "amount. Now, instead of fixed destination amount delivery being built into the core protocol, senders may "
    "use higher-level protocols to indicate the minimum amount the receiver should accept for a given packet and "
    "receivers can reject packets with less than that. This significantly simplifies the connector behavior, "
    "because they do not need to maintain up-to-date price information on the entire rest of the network and "
    "can simply apply their local rate instead. If receivers want to receive no more than a certain amount, they "
    "can reject packets that go too far over the amount and senders can retry the packet with lower amounts.\n"
    "- Quoting is an Application Concern - Connectors are only responsible for forwarding ILP packets and do not "
    "need to implement a separate protocol for quoting. Applications can use test packets to determine the "
    "exchange rate of a particular path.\n"
)


def _naming(*concepts: set[str]) -> Callable[[str], int]:
    from generator.retrieval.scoring import tokens

    return lambda item: sum(bool(concept & set(tokens(item))) for concept in concepts)


def test_a_list_cut_to_fit_keeps_the_points_naming_the_question_in_the_lists_order() -> None:
    # asked what happens as connectors forward a packet, the report quoted ILPv4's first two differences
    # ("Designed for Smaller…", "Payment Channels…") and "(2 more not listed here)": the two naming connectors
    # forwarding were the ones left out
    first = list_quote(ILPV4_DIFFERENCES, opening=True)
    assert first is not None and [i.split(" - ")[0] for i in first.items] == [
        "Designed for Smaller, More Homogenous Packet Amounts",
        "Payment Channels, Not On-Ledger Escrow",
    ]
    naming = _naming({"connectors", "connector"}, {"forward", "forwarding"})
    named = list_quote(ILPV4_DIFFERENCES, opening=True, naming=naming)
    assert named is not None and [i.split(" - ")[0] for i in named.items] == [
        "Designed for Smaller, More Homogenous Packet Amounts",  # "connector risks": the room left
        "Forwarding, Not Delivery",
        "Quoting is an Application Concern",
    ]
    # naming nothing the list holds, it keeps its first points
    none = list_quote(ILPV4_DIFFERENCES, opening=True, naming=_naming({"mesh"}, {"routing"}))
    assert none is not None and none.items == first.items


_FRAMES = ["Close", "New Address", "Max Data", "Data Blocked", "Max Stream ID", "Stream ID Blocked", "Asset"]
_FRAMES += ["Stream Close", "Stream Money", "Stream Money Max", "Stream Money Blocked", "Stream Data"]
_FRAMES += ["Stream Data Max", "Stream Data Blocked"]
STREAM_FRAMES = "**Frame Types:**\n\n" + "".join(
    f"- 0x{n:02x}: Frame {name}.\n" for n, name in enumerate(_FRAMES)
)


def test_a_table_cut_to_fit_keeps_the_rows_naming_the_question_then_its_first_ones() -> None:
    # STREAM's frame types under their label: 14 rows, more than MAX_ITEMS; asked about data, the rows naming
    # it are kept (0x15 Stream Data Max, 0x16 Stream Data Blocked), the first ones filling the rest
    block = STREAM_FRAMES
    first = list_quote(block)
    assert first is not None and len(first.items) == 12 and "Stream Data Max" not in " ".join(first.items)
    named = list_quote(block, naming=_naming({"data"}))
    assert named is not None and len(named.items) == 12
    kept = [i.split(": Frame ")[1].rstrip(".") for i in named.items]
    assert kept[-3:] == ["Stream Data", "Stream Data Max", "Stream Data Blocked"]
    assert kept[:2] == ["Close", "New Address"] and "Stream Money Blocked" not in kept
