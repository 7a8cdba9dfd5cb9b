"""The examples a section shows: the one it opens on, each with the paragraph or the caption line
introducing it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .headings import unnumbered
from .section_tree import HEADING_MARKUP, SectionPassage, TextSection, prose_block
from .sentences import _FENCE, _SENTENCE_END, MAX_CODE, code_examples, example_goes_on, list_parts


def opening_example(blocks: Sequence[str]) -> str:
    """The example a section opens on: its first block, or the one after a one-line lead-in that cannot be quoted
    alone ("然后就可以用以下 api 来鉴权了", leaning on the section before it); '' for none."""
    if blocks and _FENCE.match(blocks[0]):
        return example_after(["", *blocks], 0)
    lead = blocks[0].strip() if blocks else ""
    if "\n" in lead or len(lead) > MAX_CAPTION or not prose_block(lead) or list_parts(lead)[1]:
        return ""
    return example_after(list(blocks), 0)


def shown_examples(
    section: TextSection, said: frozenset[str] = frozenset(), *, opening: bool = False
) -> list[SectionPassage]:
    """The examples a section shows, each with the paragraph that introduces it (`code_examples`, `stated`),
    none repeating a sentence `said` already. With `opening`, only the example its first paragraph
    introduces, which may lean on the heading as a section's opening does."""
    blocks = section.blocks[:2] if opening else section.blocks
    if opening and blocks and list_parts(blocks[0])[1]:
        return []  # a list's last item ("- 类型：") introduces nothing the caption says
    shown = code_examples("\n\n".join(blocks), stated=True, on_heading=opening)
    return [
        SectionPassage(q.text, q.parts, section.heading, q.code)
        for q in shown
        if not said.intersection(q.parts)
    ]


# a caption saying only that an example follows ("代码示例：", "例如：", "Example:"), or in which notation ("JSON
# example:", "YAML 示例：")
_BARE_CAPTION = re.compile(
    r"(?:[A-Za-z]+\s*)?(?:代码)?(?:示例|例子|范例|样例|例如|比如|举例)|(?:[A-Za-z]+\s+)?examples?|for\s+example|e\.g\.",
    re.IGNORECASE,
)


def own_examples(section: TextSection, said: frozenset[str] = frozenset()) -> list[SectionPassage]:
    """Every example a section shows, each with what introduces it: a caption line right above it ("创建时可用的
    hook" above the order GORM calls its hooks in), or a paragraph (`shown_examples`: "…考虑使用 http.Server 内置的
    Shutdown() 方法进行优雅关闭。" above the server it shuts down), in the section's order."""
    blocks = list(section.blocks)
    found = []
    for n, block in enumerate(blocks[:-1]):
        caption = example_caption(block).rstrip(":：")
        if _BARE_CAPTION.fullmatch(caption):  # "代码示例：" names nothing: the section's heading does
            caption = unnumbered(" ".join(HEADING_MARKUP.sub(" ", section.heading).split())).rstrip(":：")
        code = example_after(blocks, n) if caption and caption not in said else ""
        if code:
            found.append((n, SectionPassage(f"{caption}:", (f"{caption}:",), section.heading, code)))
    captioned = {p.code for _, p in found}
    for passage in shown_examples(section, said):
        if passage.code not in captioned:
            at = next((n for n, b in enumerate(blocks) if passage.code and passage.code in b), len(blocks))
            found.append((at, passage))
    return [passage for _, passage in sorted(found, key=lambda f: f[0])]


MAX_CAPTION = 160  # characters: a longer line is a paragraph, not a name for the example under it


def example_caption(block: str) -> str:
    """The caption a section's first block gives the example right under it, or '': one line of words closing
    on no sentence's end, as a bold label is stored ("**Automatic rolling updates and scale-in strategy …**"
    above a VirtualMachinePool under KubeVirt's "## VMPool API Examples")."""
    line = block.strip()
    if (
        "\n" in line
        or len(line) > MAX_CAPTION
        or _SENTENCE_END.search(line)
        or not _CAPTION_START.match(line)
    ):
        return ""
    return line


_CAPTION_START = re.compile(r"^[^\W\d_]")  # words, not a list, a table, a quote or markup


def example_after(blocks: list[str], n: int) -> str:
    """The fenced example right after block `n`, when there is one short enough to quote."""
    if n + 1 >= len(blocks):
        return ""
    fence = _FENCE.match(blocks[n + 1])
    if fence is None or len(fence.group(2)) > MAX_CODE or example_goes_on(blocks, n + 1):
        return ""  # …or half a worked example: its caption and first part show no rule at work
    return fence.group(2).strip("\n")
