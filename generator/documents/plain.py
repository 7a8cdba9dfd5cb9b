"""A document as the plain prose an analyst may quote: one block a paragraph, blank-line separated (a
sentence boundary for the sentence splitter). With `structure`, headings (`## Heading`) and code blocks
(fenced) stay too: the whole text of a stored source, whose examples are often the answer. A list that a
paragraph introduces ("This includes the following artifacts:") stays one block with it, an item a line
(`- item`): its items read differently apart from it, and an item naming a file or a symbol
(`config.json: contains configuration data.`) is part of what the paragraph says. A list right under its
heading is introduced by the heading: it stays one block, the heading its lead-in line ("Main goals:"). A table
is its rows, each a sentence under its columns' headers (`table.row_sentences`), listed under its section's
heading the same way: "**属性：**" then "- threshold：触发刷新需要下拉多少距离，单位为 px（类型：number，默认值：60）。"."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from .markdown import drop_admonitions as without_admonitions
from .model import Block, Document, Section
from .prose import code_unmarked, defined_field, is_index_line, is_symbol_paragraph
from .table import row_sentences

_LANGUAGE = re.compile(r"[^\w+-]")
_HAN = re.compile(r"[\u3400-\u9fff]")
# an item opening with its own run-in label, then what it says: a record's row under its field's heading
# ("Type: `String`"), or a labelled point ("Unification of abstract const expressions: This RFC performs…")
_LABELLED_ITEM = re.compile(r"^[*_`]*[^\s:：.!?。！？][^:：.!?。！？\n]{0,59}[*_`]*\s*[:：]\s*\S")


def plain_prose(doc: Document, *, structure: bool = False, tables: bool = True) -> str:
    """The document's prose blocks (paragraphs, items, quotes, and each table a list of its rows as
    sentences, `table.row_sentences`), with `structure` its headings and code blocks too; symbol listings
    left out, and tables too without `tables` (a page deepkb generated lists files and symbols in its tables).
    Plain text and PDFs have no markup to tell a listing by: their paragraphs are kept as they are."""
    if doc.markup in ("text", "pdf"):
        return "\n\n".join(block.text for _, block in doc.blocks())
    if not structure:
        kept = (t for section in doc.sections for t in _section_prose(section, code=False, tables=tables))
        return "\n\n".join(dict.fromkeys(kept))  # a page repeating its lead paragraph says it once
    return "\n\n".join(_structured(doc, tables))


def markup_prose(
    text: str,
    markup: str = "markdown",
    *,
    drop_admonitions: bool = False,
    structure: bool = False,
    tables: bool = True,
) -> str:
    """`plain_prose` of a text in `markup`; plain text is returned as it is. HTML and PDF arrive as the
    text already extracted from them (Markdown and plain text)."""
    from . import read_text

    if markup in ("text", "pdf"):
        return text.strip()
    markup = "markdown" if markup == "html" else markup
    if drop_admonitions:
        text = without_admonitions(text)
    return plain_prose(read_text(text, name="", markup=markup), structure=structure, tables=tables)


def section_prose(section: Section) -> str:
    """A section's prose blocks, blank-line separated (no heading or code): a table is its rows, each a
    sentence that reads alone, as the stored text holds it (a component page of props tables says what it
    is about in its rows' words: "折叠方向", "验证码的长度")."""
    return "\n\n".join(text for block in section.blocks for text in _prose(block) or _rows(block))


def _rows(block: Block) -> list[str]:
    return ["\n".join(row_sentences(block.rows))] if block.kind == "table" and block.rows else []


def _structured(doc: Document, tables: bool) -> Iterator[str]:
    for section in doc.sections:
        if section.heading:
            yield f"{'#' * section.level} {section.heading}"
        yield from _section_prose(section, code=True, tables=tables)


def _section_prose(section: Section, *, code: bool, tables: bool = True) -> Iterator[str]:
    """`_section_blocks`; a section under a heading that they leave empty keeps its list items (links, names:
    "- https://example.org/spec/"): its heading would stand over nothing its author wrote. A code index's
    entries still go."""
    said = list(_section_blocks(section, code=code, tables=tables))
    items = [(0, block) for block in section.blocks if block.kind == "item" and not is_index_line(block.text)]
    if said or not section.heading or not items:
        yield from said
        return
    yield _list_text([], items, heading=section.heading)


def _section_blocks(section: Section, *, code: bool, tables: bool = True) -> Iterator[str]:
    """A section's blocks as stored text: each paragraph on its own, a list with the paragraph that
    introduces it (a list right under the heading: with the heading as its lead-in), symbol listings left
    out; with `code`, code blocks fenced; with `tables`, each table its rows as a list under the heading's
    label."""
    blocks = section.blocks
    n = 0
    while n < len(blocks):
        block = blocks[n]
        headed = headed_list(section) if n == 0 else []
        if headed:  # a symbol listing's rows are left out, as a paragraph of one would be
            n += len(headed)
            kept = [(depth, item) for depth, item in headed if not is_symbol_paragraph(item.text)]
            yield from ([_list_text([], kept, heading=section.heading)] if kept else [])
            continue
        items = listed_after(blocks, n)
        if items:
            lead = [block] if block.kind == "paragraph" else []
            if lead and _goes_on_after_code(blocks, n + 1 + len(items), block.text):
                # steps split by their examples: the lead-in and the first steps are no whole list to quote
                yield from (_cleaned(piece) for piece in _written(block))
                yield _list_text([], items)
            else:
                yield _list_text(lead, items)
            n += len(lead) + len(items)
            continue
        if block.kind == "code" and code:
            yield _fenced(block)
        elif block.kind == "table" and tables and (rows := row_sentences(block.rows)):
            # each row a sentence under its columns' headers, which reads alone, listed under the heading's label
            label = [lead_in_line(section.heading)] if section.heading else []
            yield "\n".join([*label, *(f"- {row}" for row in rows)])
        else:  # a lead-in to a quote or an example is kept, link and all: it says what follows is
            # ("the text currently reads:"), and so is a field's definition line: it names what follows
            leads = block.kind == "paragraph" and (_leads_into(blocks, n) or bool(defined_field(block.text)))
            yield from (
                _cleaned(piece) for piece in _written(block) if leads or not is_symbol_paragraph(piece)
            )
        n += 1


def _goes_on_after_code(blocks: Sequence[Block], n: int, lead: str) -> bool:
    """Whether the list `lead` introduces goes on after the code block(s) from `n` written outside it (no item
    introduces them): a step's example stands unindented between its items ("1. 运行dtm", its commands, "2. 运行
    例子"). An example indented in its item is the item's (its lead), and the list reads on around it."""
    first = n
    while n < len(blocks) and blocks[n].kind == "code" and not blocks[n].lead:
        n += 1
    return first < n < len(blocks) and blocks[n].kind == "item" and blocks[n].lead == lead


def _leads_into(blocks: Sequence[Block], n: int) -> bool:
    """Whether paragraph `n` ends in a colon and a quote or a code block follows it."""
    after = blocks[n + 1] if n + 1 < len(blocks) else None
    return (
        blocks[n].text.rstrip().endswith((":", "："))
        and after is not None
        and after.kind in ("quote", "code")
    )


def listed_after(blocks: Sequence[Block], n: int) -> list[tuple[int, Block]]:
    """The list items (with their nesting depth) of the list paragraph `n` introduces: the items right after
    it that name it as their lead, or name an item of the same list (a nested list). When block `n` is
    itself an item of a list introduced earlier (a code block inside an item interrupted it), the items of
    that list from it on. [] for any other block, and for a list no paragraph introduces (right under its
    heading): its items are paragraphs of their own."""
    first = blocks[n]
    if first.kind == "paragraph":
        depth_of, rest = {first.text: -1}, blocks[n + 1 :]
    elif first.kind == "item" and first.lead:
        depth_of, rest = {first.lead: -1}, blocks[n:]
    else:
        return []
    found: list[tuple[int, Block]] = []
    for block in rest:
        if block.kind != "item" or block.lead not in depth_of:
            break
        depth = depth_of[block.lead] + 1
        depth_of.setdefault(block.text, depth)
        found.append((depth, block))
    return found


def headed_list(section: Section) -> list[tuple[int, Block]]:
    """The items (with their nesting depth) of the list a section opens with, right under its heading, no
    paragraph introducing it: the heading does ("## Main goals of this proposal", then "- Zero cost…");
    [] when the section opens otherwise or has no heading."""
    blocks = section.blocks
    if not section.heading or not blocks or blocks[0].kind != "item" or blocks[0].lead:
        return []
    depth_of = {blocks[0].text: 0}
    found = [(0, blocks[0])]
    for block in blocks[1:]:
        nested = block.lead in depth_of  # an item of a list nested in one of the list's items
        if block.kind != "item" or block.lead and not nested:
            break
        depth = depth_of[block.lead] + 1 if nested else 0
        depth_of.setdefault(block.text, depth)
        found.append((depth, block))
    top = [item.text for depth, item in found if depth == 0]
    labelled = sum(1 for text in top if _LABELLED_ITEM.match(text))
    if labelled >= 2 and 2 * labelled >= len(top):
        return []  # each item names itself ("- Type: String", "- Ordering and default parameters: Do…")
    return found


def _list_text(lead: list[Block], items: list[tuple[int, Block]], heading: str = "") -> str:
    """A list as one block: the paragraph introducing it (or its `heading` as a lead-in line), then a
    `- item` line per item (two spaces more per level of nesting)."""
    lines = [" ".join(_prose(block)) for block in lead] or ([lead_in_line(heading)] if heading else [])
    lines += [f"{'  ' * depth}- {' '.join(_prose(item))}" for depth, item in items if _prose(item)]
    return "\n".join(lines)


def _prose(block: Block) -> list[str]:
    """A block's prose: each paragraph of a quote or an item on its own, code spans without their backticks."""
    return [_cleaned(piece) for piece in _written(block)]


def _written(block: Block) -> list[str]:
    """A block's prose as Markdown writes it, code spans in backticks: each paragraph of a quote or an item."""
    if block.kind in ("code", "table"):
        return []
    return [piece for piece in block.text.split("\n\n") if _cleaned(piece)]


def _cleaned(piece: str) -> str:
    """A paragraph's text on one line, code spans without their backticks."""
    return " ".join(code_unmarked(piece).split())


def _fenced(block: Block) -> str:
    """A code block as a fenced block, its empty lines empty as written (one holding spaces only, as an example
    indented under a list item does, too): a copied example runs. Readers of the stored text read the block as
    one paragraph however many empty lines it holds (`text.paragraphs`)."""
    fence = "`" * max([3, *(len(run) + 1 for run in re.findall(r"`+", block.text))])
    code = "\n".join(line if line.strip() else "" for line in block.text.split("\n"))
    return f"{fence}{_LANGUAGE.sub('', block.language)[:20]}\n{code}\n{fence}"


def lead_in_line(heading: str) -> str:
    """A heading as the lead-in of the list right under it, a bold label: "**Main goals:**", "**主要目标：**"
    (a Chinese heading takes the full-width colon). The quoting layer (topic/sentences.py) reads such a label
    as the list's name, which needs no sentence before it."""
    text = " ".join(heading.replace("*", "").split()).rstrip(":：")
    return f"**{text}{'：' if _HAN.search(text[-1:]) else ':'}**"
