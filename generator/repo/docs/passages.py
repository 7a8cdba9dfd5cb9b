"""The blocks a page quotes from a document: prose, list items, whole code blocks and tables worth quoting,
each lead-in kept with what it announces, and a long page cut to a budget section by section."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import accumulate

from generator.documents import Document
from generator.documents.included import api_names
from generator.documents.markdown import is_label
from generator.documents.model import Block, Section
from generator.documents.standing import INACTIVE
from generator.repo.docs.config_reference import ConfigOption, config_options
from generator.repo.docs.headings import HOW_TO_HEADING, skipped_section
from generator.repo.docs.model import DocPassage, table_text

PASSAGES_PER_PAGE = 80  # blocks a doc file sharing its concept quotes at most (fewer when it has many)
CODE_LINES = 60  # a longer code block is not an example a page shows whole
FIRST_EXAMPLE_LINES = 120  # … unless it is the first example of a usage section
MIN_WORDS = 6
TOC_ITEMS = 3  # list items in a row that are the document's own headings make a table of contents
NOT_OVERVIEW = re.compile(
    r"\b(?:sponsor\w*|backers?|donat\w+|licen[cs]ed? under|copyright|all rights reserved|code of conduct"
    # "pflag is available under the same style of BSD license", "offered under the Apache License 2.0"
    r"|(?:available|released|distributed|provided|published|offered) under\b[^.]{0,60}\blicen[cs]e"
    r"|contribut\w+|pull requests?|build status|release notes|changelog|use \S+ instead|deprecated"
    r"|star us|join (?:us|our)|discord|slack|twitter|newsletter|ha(?:s|ve) been released"
    r"|consider supporting|support(?:ing)? (?:this|the) project|tidelift|open ?collective|patreon|ko-?fi)\b",
    re.IGNORECASE,
)
_DEPRECATION_WORDS = re.compile(r"deprecated|use \S+ instead", re.IGNORECASE)


def in_force(document: Document) -> bool:
    """Whether a page still describes what is (no draft, superseded or deprecated status): one that does not
    is listed, never quoted."""
    return document.status not in INACTIVE


def passages(document: Document, limit: int = PASSAGES_PER_PAGE) -> list[DocPassage]:
    """The blocks a page quotes from `document`, in order: prose, list items, whole code blocks, tables;
    nothing from licence, contributing or sponsor sections; no fragment too short to say anything. A page
    of more than `limit` keeps every section's opening rather than its first sections whole (`spread`)."""
    return spread(quotable_passages(document), limit)


def quotable_passages(document: Document) -> list[tuple[int, DocPassage]]:
    """Every block of `document` worth quoting, each with its place in its section (0 for the section's
    first); a lead-in ending in a colon, or a question, shares its place with the block it introduces. What
    a lead-in announces is quoted however short ("Namespace: `options.animations[animation]`", a command, a
    setting's name): the page would otherwise promise it and go on without it; so is the answer to a
    question, asked in a heading or a paragraph ("Does code coverage work with snapshot testing?" — "Yes,
    as well as with any other test.")."""
    found: list[tuple[int, DocPassage]] = []
    current = None
    place = 0
    listed = 0  # the place of the list being quoted: its first item's
    last = -1  # the block last quoted
    announced = False  # the blocks just quoted end in a lead-in: what follows is what it announces
    labelled = False  # the block just quoted labels the code below it (a content tab's title)
    repeated = {h for h, n in Counter(s.heading for s in document.sections).items() if n > 1}
    blocks = list(document.blocks())
    contents = _table_of_contents(document, blocks)
    for at, (section, block) in enumerate(blocks):
        if skipped_section(section) or at in contents:
            continue
        announced = announced and section is current or section is not current and _asks(section.heading)
        if api_names(block):  # an object documented from its docstring: the page's code, not its words
            continue
        labels = _labels_code(blocks, at)
        # a commented configuration file too long to show whole is shown as its options
        reference = None if _introduced_code(blocks, at) else _options_passage(block)
        worthy = worth_quoting(block.kind, block.text, block.lead) or _leads_into_list(blocks, at) or labels
        worthy = worthy or reference is not None
        worthy = worthy or _introduced_code(blocks, at)
        worthy = worthy and not _leads_into_long_code(blocks, at)
        if not worthy and not (announced and _announced_line(block.kind, block.text)):
            announced = False
            continue
        if section is not current:
            current, place = section, 0
        elif not (_asks(found[-1][1].text, ":") or labelled):
            place += 1
        # a list is read whole or not at all: its items stand at its first item's place (its lead-in's),
        # while what follows the list still counts each item as a step down its section
        listed = listed if _continues_list(blocks, last, at) else place
        announced = _asks(block.text, ":") if worthy else True  # a run of announced lines
        labelled = labels
        last = at
        shown_heading = _shown_heading(section.heading, section.path, repeated)
        if reference is not None:
            origin = block.origin or document.origin
            found.append(
                (place, replace(reference, path=origin, heading=shown_heading, page=_page(document, block)))
            )
            continue
        found.append(
            (
                listed if block.kind == "item" else place,
                DocPassage(
                    block.origin or document.origin,
                    block.start,
                    block.end,
                    block.kind,
                    table_text(block.rows) if block.kind == "table" and block.rows else block.text,
                    shown_heading,
                    block.language,
                    _page(document, block),
                ),
            )
        )
    return found


def _page(document: Document, block: Block) -> str:
    """The doc file quoting `block` when the block is another file's, included (`DocPassage.page`)."""
    return document.origin if block.origin else ""


def _options_passage(block: Block) -> DocPassage | None:
    """A code block too long to show whole that is a commented configuration file, as the table of its options
    (nfpm's configuration.md: one 640-line `nfpm.yaml`, every option with a comment saying what it does, had
    been dropped for its length and with it the whole reference); None for any other block."""
    if block.kind != "code" or worth_quoting("code", block.text):
        return None
    count = block.text.count("\n") + 1
    # the reader says where the text starts; else a fence's text starts below it and an indented block's at it
    first = block.first or (block.start if block.end - block.start + 1 == count else block.start + 1)
    options = config_options(block.text, block.language, first)
    if not options:
        return None
    defaults = any(o.default for o in options)
    header = ("Option", "Example", *(("Default",) if defaults else ()), "What it does")
    rows = [(o.path, o.value, *((o.default,) if defaults else ()), _what_it_does(o)) for o in options]
    return DocPassage(
        "",
        block.start,
        block.end,
        "options",
        table_text([header, *rows]),
        language=block.language,
        lines=tuple(o.line for o in options),
    )


def _what_it_does(option: ConfigOption) -> str:
    """An option's comment, saying first when the example leaves the option commented out."""
    if not option.commented:
        return option.doc
    return f"Commented out in the example. {option.doc}".strip()


def _continues_list(blocks: Sequence[tuple[Section, Block]], last: int, at: int) -> bool:
    """Whether block `at` is a further item of the list whose item `last` was quoted before it (the items
    between, if any, too short to quote)."""
    return 0 <= last < at and all(
        blocks[i][1].kind == "item" and blocks[i][0] is blocks[at][0] for i in range(last, at + 1)
    )


def _table_of_contents(document: Document, blocks: Sequence[tuple[Section, Block]]) -> set[int]:
    """The blocks of the lists that are a table of the document's own headings, under no "Contents" heading
    (kingpin's MarkdownTOC list "Overview", "Features", "User-visible changes between v1 and v2" … was a
    guide page of its own): at least `TOC_ITEMS` list items in a row, each one of its headings. A list a
    lead-in announces is the author's ("Sanic comes with three fallback exception handlers:" HTML, Text, JSON,
    each then a section): it stays, or the lead-in would promise nothing."""
    headings = {bare_name(s.heading) for s in document.sections}
    runs: list[list[int]] = []
    for at, (section, block) in enumerate(blocks):
        if block.kind != "item" or bare_name(block.text) not in headings:
            continue
        if runs and runs[-1][-1] == at - 1 and blocks[at - 1][0] is section:
            runs[-1].append(at)
        else:
            runs.append([at])
    return {at for run in runs if len(run) >= TOC_ITEMS and not _announced_list(blocks, run[0]) for at in run}


def _announced_list(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether the list holding item `at` follows a lead-in ending in a colon in its section."""
    section = blocks[at][0]
    while at > 0 and blocks[at][1].kind == "item" and blocks[at - 1][0] is section:
        at -= 1
    return blocks[at][1].kind == "paragraph" and blocks[at][1].text.rstrip().endswith(":")


def without_contents(document: Document) -> Document:
    """The document without its tables of contents (`_table_of_contents`)."""
    blocks = list(document.blocks())
    contents = {id(blocks[at][1]) for at in _table_of_contents(document, blocks)}
    if not contents:
        return document
    sections = tuple(
        replace(s, blocks=tuple(b for b in s.blocks if id(b) not in contents)) for s in document.sections
    )
    return replace(document, sections=sections)


def _leads_into_list(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is a short lead-in ("It supports:") to the list right below it in its section: a
    list is quoted with the line that says what it lists."""
    section, block = blocks[at]
    if block.kind != "paragraph" or not block.text.rstrip().endswith(":") or at + 1 >= len(blocks):
        return False
    below, following = blocks[at + 1]
    return below is section and following.kind == "item" and any(ch.isalnum() for ch in block.text)


def _leads_into_long_code(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is a lead-in ending in a colon to a code block right below it too long to quote: it
    would promise what the page does not show (mistune's "Here is a list of available renderer functions
    …:" over a 67-line listing; 53 such lead-ins in 24 of the mirrored projects' docs)."""
    section, block = blocks[at]
    if block.kind != "paragraph" or not block.text.rstrip().endswith(":") or at + 1 >= len(blocks):
        return False
    below, following = blocks[at + 1]
    if below is not section or following.kind != "code":
        return False
    quoted = worth_quoting("code", following.text) or _introduced_code(blocks, at + 1)
    return not (quoted or _options_passage(following) is not None)


def _introduced_code(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is code a paragraph right above it introduces, of at most `FIRST_EXAMPLE_LINES`:
    the sentence keeps what it announces, shown whole (grpc-gateway's tutorial "We also need to add and
    serve the gRPC-Gateway mux in our `main.go` file." over its 69-line `main.go`). A section headed as an
    example ("## Example") introduces the code it opens with: huma's how-to pages show their 64- and
    75-line programs right under it (image-response.md:13-76, graceful-shutdown.md:15-89)."""
    section, block = blocks[at]
    if block.kind != "code" or not block.text.strip() or block.text.count("\n") >= FIRST_EXAMPLE_LINES:
        return False
    if not at or blocks[at - 1][0] is not section:  # the first block of its section
        return bool(HOW_TO_HEADING.search(section.heading))
    return blocks[at - 1][1].kind == "paragraph"


def _labels_code(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is a label of a few words ("macOS/Linux", a content tab's title) over the code right
    below it in its section: the code is quoted with it, or two tabs' code would read as one."""
    section, block = blocks[at]
    if block.kind != "paragraph" or not is_label(block.text) or at + 1 >= len(blocks):
        return False
    below, following = blocks[at + 1]
    return below is section and following.kind == "code"


def _asks(text: str, also: str = "") -> bool:
    """Whether a text asks a question (or ends in `also`): what follows it answers."""
    return text.rstrip().endswith(("?", "？", *also))


def _announced_line(kind: str, text: str) -> bool:
    """A short paragraph a lead-in announced is worth quoting when it says anything at all."""
    return kind == "paragraph" and any(ch.isalnum() for ch in text) and not NOT_OVERVIEW.search(text)


def _shown_heading(heading: str, path: Sequence[str], repeated: set[str]) -> str:
    """A section's heading as a page shows it. One its page repeats ("Tokens" under each of graphrag's
    prompts, "Example" under each of a tool's settings) is named with the heading above it ("Local Search ›
    Tokens"): alone, the page would run the repeats together under one "Tokens" and lose whose they are. One
    repeating the heading right above it (huma's "# Middleware" then "## Middleware {.hidden}") names the same
    part: "Middleware › Middleware" would say nothing more."""
    if heading in repeated and len(path) > 1 and path[-2] and path[-2] != heading:
        return f"{path[-2]} › {heading}"
    return heading


def spread(found: Sequence[tuple[int, DocPassage]], limit: int) -> list[DocPassage]:
    """At most `limit` of a page's passages, in the page's order: every section's first passage before any
    section's second, and so on, so that a long page cut to fit keeps each of its sections (mermaid's usage
    page had lost its API and its syntax check after the first thirty blocks). A lead-in whose block did not
    fit is left out with it."""
    costs = _costs(found)
    if sum(costs) <= limit:
        return [p for _, p in found]
    chosen: set[int] = set()
    counted = 0
    for i in sorted(range(len(found)), key=lambda i: (found[i][0], i)):
        if counted >= limit:
            break
        chosen.add(i)
        counted += costs[i]
    return [
        p
        for i, (_, p) in enumerate(found)
        if i in chosen and not (p.text.rstrip().endswith(":") and i + 1 < len(found) and i + 1 not in chosen)
    ]


def _costs(found: Sequence[tuple[int, DocPassage]]) -> list[int]:
    """What each passage costs of a page's budget: a short lead-in ("It supports:") comes with its list and
    costs nothing, and a list costs its first item (its further items stand at the first one's place,
    `quotable_passages`): omegaconf's six built-in resolvers had been cut to the first, each item counted as a
    passage of its own, and counting them would push other sections' passages out."""
    return passage_costs([p for _, p in found])


def passage_costs(quoted: Sequence[DocPassage]) -> list[int]:
    """What each of a page's passages costs of a budget (`_costs`)."""
    return [
        0 if _short_lead_in(p) or i > 0 and _further_item(quoted[i - 1], p) else 1
        for i, p in enumerate(quoted)
    ]


def within(quoted: Sequence[DocPassage], limit: int) -> tuple[DocPassage, ...]:
    """The first of `quoted` that together cost at most `limit` (`passage_costs`): a list is taken whole."""
    spent = list(accumulate(passage_costs(quoted)))
    taken = [p for p, total in zip(quoted, spent, strict=True) if total <= limit]
    if len(taken) < len(quoted) and taken and taken[-1].text.rstrip().endswith(":"):
        taken.pop()  # a lead-in goes with what it introduces
    return tuple(taken)


def _further_item(previous: DocPassage, passage: DocPassage) -> bool:
    """Whether `passage` goes on the list `previous` is an item of: an item under the same heading."""
    return passage.kind == previous.kind == "item" and (passage.path, passage.heading) == (
        previous.path,
        previous.heading,
    )


def _short_lead_in(passage: DocPassage) -> bool:
    return (
        passage.kind == "paragraph"
        and passage.text.rstrip().endswith(":")
        and len(passage.text.split()) < MIN_WORDS
    )


def worth_quoting(kind: str, text: str, lead: str = "") -> bool:
    """Whether a block says enough to quote: a code block a page can show whole, a paragraph or table of a
    few words. A list item may be a word when a lead-in announces the list ("Viper uses the following
    precedence:" then "flag", "env", "config"): dropping the short ones would leave the list wrong."""
    if kind == "code":
        return 0 < text.count("\n") + 1 <= CODE_LINES and bool(text.strip())
    words = len(text.split())
    if kind == "table":
        return words >= MIN_WORDS
    if kind == "item" and lead.rstrip().endswith(":"):
        return any(ch.isalnum() for ch in text) and not _notice(text)
    return words >= (3 if kind == "item" else MIN_WORDS) and not NOT_OVERVIEW.search(text)


def _notice(text: str) -> bool:
    """Whether an item a lead-in announces is a notice (a sponsor, a licence, a contribution), not content.
    That something is deprecated is content in a list the docs announce: omegaconf's built-in resolvers
    include "oc.deprecated: Deprecate a key in your config"."""
    return any(not _DEPRECATION_WORDS.fullmatch(m.group()) for m in NOT_OVERVIEW.finditer(text))


def bare_name(name: str) -> str:
    """A name's letters and digits, lower case: "Serde JSON" and "serde_json" are one name."""
    return re.sub(r"[\W_]+", "", name).lower()
