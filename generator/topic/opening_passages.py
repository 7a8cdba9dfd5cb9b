"""The passages opening a section: its first quotable paragraphs whole, a lead-in with its list or
example, an example under its heading; and the caveats a section on limits states."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.pointers import announces, continues
from ..text.sentences import sentences as split_all
from .heading_facets import FRAMING_FACETS
from .headings import section_facets, unnumbered
from .limits import states_caveat
from .section_examples import example_after, example_caption, opening_example, shown_examples
from .section_tree import HEADING_LINE, HEADING_MARKUP, SectionPassage, TextSection, prose_block
from .sentences import (
    _FENCE,
    _SENTENCE_END,
    MAX_PASSAGE,
    RUN_IN_LABEL,
    Naming,
    caption_line,
    clean,
    corrects,
    introduces_old_state,
    is_banner,
    is_question,
    lead_in_stands,
    leads_out_of_list,
    leans_back,
    list_parts,
    list_quote,
    naming_shown,
    points_ahead,
    points_at_shown,
    quotable,
    speaks_of_shown_code,
    with_lead_ins,
)

# the label line a list right under its heading carries ("**Non-goals:**"): the heading, not a lead-in
_HEADING_LABEL = re.compile(r"^\*\*[^*\n]+[:：]\*\*$")


PASSAGES_PER_SECTION = 2  # a section's opening paragraphs: what it says first is what it is about


def caveat_passages(section: TextSection, said: frozenset[str] = frozenset()) -> list[SectionPassage]:
    """A section's caveats as passages, wherever they stand in it: a paragraph opening on "注意：" or
    "Warning:", or a caveat's label with its points ("特别说明：" and its five points after a paragraph of links
    under "## 参数说明"), the list quoted whole with its label, as a section's own answer is."""
    found = []
    for block in _paragraphs_going_on(section.blocks):
        if not states_caveat(block):
            continue
        listed = list_quote(block, opening=True)
        lead, items = list_parts(block)
        if listed is not None:
            passage = SectionPassage(listed.text, listed.parts, section.heading, items=listed.items)
        elif not items and len(lead) <= MAX_PASSAGE:
            parts = tuple(clean(p) for p in split_all(lead))
            passage = SectionPassage(" ".join(parts), parts, section.heading)
        else:
            continue
        if passage.parts and not said.intersection(passage.parts) and not is_banner(passage.text):
            found.append(passage)  # a banner with no warning after it is quoted not at all
    return found


def opening_passages(
    section: TextSection,
    limit: int = PASSAGES_PER_SECTION,
    *,
    example_alone: bool = False,
    said: frozenset[str] = frozenset(),
    past_lists: bool = False,
    on_heading: bool = False,
    shown_first: bool = False,
    naming: Naming | None = None,
) -> list[SectionPassage]:
    """The first `limit` quotable passages of a section: a prose paragraph whole, or a paragraph that
    introduces a code example ("…like this:") with the example. A paragraph opening with a reference back
    ("This…") is not quoted: what it refers to is not quoted with it — except, with `on_heading`, the
    section's first paragraph, which can lean only on its heading and its document's subject ("Several
    systems to do this already exist." under "### Prior Art"). With `example_alone`, a section that
    is only an example ("### Example" holding a configuration) is quoted as its example under its heading.
    A passage repeating a sentence `said` already (the report's definition) does not count: the section's
    next passage is quoted in its place. With `past_lists`, a list a lead-in introduces does not end the
    opening: the paragraph after it is the section's next passage (why, limits and alternatives live in their
    own sections only; a design section's lead-in introduces its algorithm, and what follows it is a note).
    The first block of a section on why, limits or alternatives, a lead-in with its list, is the section's own
    answer: it may lean on the heading ("This addresses the following use cases:" under "## Motivation") and
    is quoted whole up to MAX_OPENING_LIST. Outside why, limits and alternatives, a lead-in and list telling the model a design
    replaces ("the current Nix model … works (roughly) as follows:") is passed over. A list cut to fit keeps
    the items `naming` the question first (sentences.py `list_quote`)."""
    found = _prose_openings(section, limit, said, past_lists, on_heading, naming)
    example = opening_example(section.blocks) if shown_first else ""
    if example and not any(p.code == example for p in found):
        # a section opening on its example, asked how a thing is done: the example under its heading first
        # ("### 2、踢人下线" and its `StpUtil.kickout(10001)` calls; "### 3、权限校验", "然后就可以用以下 api 来鉴权了" and
        # its StpUtil.checkPermission calls), then what the section says after it
        lead = _standing_lead(section.blocks)
        if lead:  # "Memory Compiler/内存编译器，编译.java文件生成.class。" above `mc /tmp/Test.java` under "## 使用参考"
            shown = SectionPassage(" ".join(lead), lead, section.heading, example)
            return [shown, *[p for p in found if p.parts != lead][:limit]]
        caption = unnumbered(" ".join(HEADING_MARKUP.sub(" ", section.heading).split())).rstrip(":：")
        if caption:
            shown = SectionPassage(f"{caption}:", (f"{caption}:",), section.heading, example)
            return [shown, *found[:limit]]  # the example takes no place of the prose after it
    if not found and example_alone:
        example = example_after(["", *section.blocks], 0)
        caption = unnumbered(" ".join(HEADING_MARKUP.sub(" ", section.heading).split()))
        if not example and section.blocks and example_caption(section.blocks[0]):
            example, caption = example_after(list(section.blocks), 0), example_caption(section.blocks[0])
        caption = caption.rstrip(":：")  # "### Full Manifest:" is one label
        if example and caption:
            found.append(SectionPassage(f"{caption}:", (f"{caption}:",), section.heading, example))
    if not found and example_alone:
        # a usage section opening on its example's caption, which leans on the heading and may close on a
        # full stop ("通过 v-model 来绑定当前页码。" above the example under "### 基础用法"): its answer
        found = shown_examples(section, said, opening=True)
    return found


def _standing_lead(blocks: Sequence[str]) -> tuple[str, ...]:
    """The one-line paragraph a section opens on above its example, when its sentences stand alone (a
    statement of what the example does, not "然后就可以用以下 api 来鉴权了" nor a caveat): the example's lead-in in place of
    the heading, which may be a bare label ("使用参考"); () for none."""
    if not blocks or _FENCE.match(blocks[0]) or not opening_example(blocks):
        return ()
    parts = tuple(clean(p) for p in split_all(blocks[0]))
    if not parts or leans_back(parts[0]) or not all(quotable(p) and not is_question(p) for p in parts):
        return ()
    if states_caveat(" ".join(parts)):
        return ()  # "注意，jfr 只支持在 start时配置。" warns of the example, it does not say what it shows
    return parts


def _prose_openings(
    section: TextSection,
    limit: int,
    quoted: frozenset[str] = frozenset(),
    past_lists: bool = False,
    on_heading: bool = False,
    naming: Naming | None = None,
) -> list[SectionPassage]:
    found: list[SectionPassage] = []
    blocks = _paragraphs_going_on(section.blocks)
    skip = -1  # the list a lead-in introduced
    # a section headed for why, limits or alternatives opens on its own answer ("## Motivation": "This addresses
    # the following use cases:"); a document's title section opening on "Authors:" and its list does not
    headed = past_lists and bool(section_facets(section.heading) & FRAMING_FACETS)
    # the paragraph a section on what the subject is, how it works or how it is used opens with: the section
    # answers from there or not at all (a later paragraph is a detail: "Explicitly not covered in this
    # specification is…" after a pixel convention's opening); why, limits and alternatives read on
    first = -1 if past_lists else _opening_index(blocks, quoted)
    for n, block in enumerate(blocks):
        if len(found) >= limit:
            break
        if n == skip or block.startswith(("```", "~~~", "|")):
            continue
        if n > first >= 0 and not found:
            break  # its opening paragraph could not be quoted
        if n and introduces_old_state(blocks[n - 1]):
            continue  # "the text currently reads:": what the design replaces
        if not past_lists and introduces_old_state(list_parts(block)[0]) and list_parts(block)[1]:
            continue  # "the current Nix model … works (roughly) as follows:" and its list: the model the design
            # replaces (why it is replaced is motivation, which quotes it)
        # an opening lead-in naming its heading ("Voting proceeds in two rounds:" under "### Voting") leans on
        # it as a heading on why or limits does: it is the section's own introduction of its list
        opening = n == 0 and (headed or _names_heading(block, section.heading))
        listed = list_quote(block, opening=opening, naming=naming)
        if listed is not None and quoted.intersection(listed.parts):
            continue
        if listed is not None:  # a list with the paragraph that introduces it, whole
            found.append(SectionPassage(listed.text, listed.parts, section.heading, items=listed.items))
            continue
        lead, items = list_parts(block)  # a list too long to quote: what its paragraph says before it
        parts = tuple(clean(p) for p in split_all(lead))
        if parts and not items and len(" ".join(parts)) > MAX_PASSAGE:
            parts = _opening_run(parts)  # a long paragraph: its opening sentences say what it is about
        if not parts or len(" ".join(parts)) > MAX_PASSAGE:
            continue
        leaning = leans_back(parts[0]) and not (on_heading and n == 0 and not continues(parts[0]))
        if leaning and not (len(parts) == 1 and points_ahead(parts[0])):
            continue  # "This example shows…:" points at the example quoted with it, nothing before
        if quoted.intersection(parts):
            continue  # quoted already
        if n and blocks[n - 1].startswith(("```", "~~~")) and speaks_of_shown_code(parts[0]):
            continue  # "…make the code more compact": about the example before it
        if leads_out_of_list(items) and not (past_lists and _HEADING_LABEL.match(lead.strip())):
            break  # it leads into worked examples ("- Current:", code): about them, quoted with none
        if leads_out_of_list(items):
            continue  # a list under its heading's label ("**Non-goals:**"): the section goes on after it
        # a last sentence pointing at the example after it ("Example output from my mac looks like below.")
        # introduces it as a colon would: quoted with it or not at all
        shown = not items and n + 1 < len(blocks) and _FENCE.match(blocks[n + 1]) is not None
        ends_in_lead = parts[-1].endswith((":", "：")) or (
            shown and points_at_shown(parts[-1], blocks[n + 1])
        )
        # a lead-in inside the paragraph right above an example ("使用file，即从本地文件加载：" and what the
        # example's path may name) introduces the example too: the paragraph is quoted whole with it
        head, tail = ("", "") if ends_in_lead or not shown else _inner_lead(lead)
        code = example_after(blocks, n) if (ends_in_lead or head) and not items else ""
        if code and head:
            named = tuple(naming_shown(clean(p), code) for p in split_all(head))
            stated = tuple(naming_shown(clean(p), code) for p in split_all(tail))
            stands = lead_in_stands(named[:-1], named[-1], on_heading=on_heading and n == 0)
            if stands and _quotes(stated, opening=n == first) and not introduces_old_state(block):
                found.append(SectionPassage(" ".join(parts), parts, section.heading, code))
            continue
        if code and introduces_old_state(block):
            continue  # an example of how things are done without the design
        if not ends_in_lead and not items and caption_line(lead):
            continue  # a caption line alone ("Example 1: Demonstration of inheritance principle") is no statement
        said = parts[:-1] if ends_in_lead else parts
        if not code and not items:  # a paragraph is quoted from its start up to a sentence that cannot be
            said = _quotable_run(said)  # ("For more information, see the namespaces(7) man page.")
            if n == first:  # an opening paragraph, up to one in its middle
                said = _quotable_opening(said)
        prose = not said or _quotes(said, opening=n == first)  # a lead-in alone introduces its example
        if code:  # the lead-in is quoted with its example; alone it must say something itself
            # …naming what the example shows in its own spelling ("通过 ServerOption 进行注册")
            named = tuple(naming_shown(p, code) for p in parts)
            prose = not said or _quotes(named[:-1], opening=n == first)
            if prose and lead_in_stands(named[:-1], named[-1], on_heading=on_heading and n == 0):
                found.append(SectionPassage(" ".join(parts), parts, section.heading, code))
            elif n == first and _quotes(opened := _quotable_opening(_quotable_run(said)), opening=True):
                # the opening says what the section is about without its example
                found.append(SectionPassage(" ".join(opened), opened, section.heading))
        elif said and prose:
            found.append(SectionPassage(" ".join(said), said, section.heading))
        if ends_in_lead and not code:
            # what follows is the list it introduces: its items read differently alone. After the list, the
            # section goes on ("## Non-goals": "1. Accounting for memory outside the runtime, such as:", its
            # list, then why that is out of scope); without a list, what follows is what it introduced
            if items and past_lists:
                continue
            if past_lists and n + 1 < len(blocks) and _only_list(blocks[n + 1]):
                skip = n + 1
                continue
            break
    return found


def _inner_lead(lead: str) -> tuple[str, str]:
    """A paragraph cut after its one lead-in before its last words (the lead-in, then what it says of the
    example after the paragraph), or ("", ""): a line ending in a colon, or a full-width colon the stored text
    joined to the next line with a space ("使用file，即从本地文件加载： 这里的path就是…"; Chinese runs on after
    "：" without one)."""
    text = lead.strip()
    cuts = [m.end() for m in _INNER_LEAD.finditer(text)]
    if len(cuts) != 1:
        return "", ""
    return text[: cuts[0]].strip(), text[cuts[0] :].strip()


_INNER_LEAD = re.compile(r"[:：][ \t]*\n|：[ \t]+(?=\S)")


def _names_heading(block: str, heading: str) -> bool:
    """Whether a block's lead-in before its list names a word of the section's heading."""
    named = {w.lower() for w in _WORD.findall(heading) if len(w) > 3}
    return bool(named & {w.lower() for w in _WORD.findall(list_parts(block)[0])})


_WORD = re.compile(r"[A-Za-z][A-Za-z-]+")


def _paragraphs_going_on(blocks: Sequence[str]) -> list[str]:
    """A section's blocks with each prose paragraph that leans on the one before it ("The idea behind the
    “content-addressed” model is that rather than deriving these output paths from the inputs…") joined to
    that paragraph ("The “input-addressed” designation comes from the way the output paths are computed…"),
    when both are plain prose and fit MAX_PASSAGE together: quoted in order, the two read as written; apart,
    the second speaks of what its quote leaves out."""
    joined: list[str] = []
    counting = False  # the last block joined is a lead-in with the points it counts so far
    for block in with_lead_ins(blocks):  # "例如：" after a paragraph ends it, introducing the code after it
        before = joined[-1] if joined else ""
        going_on = bool(before) and _plain_paragraph(before) and _plain_paragraph(block) and leans_back(block)
        # "注意！注意！注意！" above the paragraph it warns of (MyBatis-Flex's multi-tenancy page): one caveat
        going_on = going_on or bool(before) and is_banner(before) and _plain_paragraph(block)
        # a lead-in counting its points in paragraphs of their own ("…poses 2 main benefits:", "Firstly, it
        # lowers the barrier…", "Secondly, …"): alone it is no sentence, and each point leans on it
        first = (
            _leads_into_points(before) and _FIRST_POINT.match(block) is not None and _plain_paragraph(block)
        )
        point = counting and _NEXT_POINT.match(block) is not None and _plain_paragraph(block)
        if (going_on or first or point) and len(" ".join([*before.split(), *block.split()])) <= MAX_PASSAGE:
            joined[-1] = f"{before}\n{block}"
            counting = first or point
            continue
        counting = False
        joined.append(block)
    return joined


# the points a lead-in counts, each a paragraph: the first ("Firstly, …", "First, …"), then the next ones
_FIRST_POINT = re.compile(r"^(?:first(?:ly)?|first of all)\b,?\s", re.I)


_NEXT_POINT = re.compile(r"^(?:second(?:ly)?|third(?:ly)?|fourth(?:ly)?|finally|lastly)\b,?\s", re.I)


def _leads_into_points(block: str) -> bool:
    """A paragraph of prose ending as a lead-in (a colon), with no list or example after it in its block."""
    text = block.strip()
    return (
        text.endswith((":", "："))
        and not HEADING_LINE.match(text)
        and not text.startswith(("```", "~~~", "|"))
        and not list_parts(text)[1]
    )


def _plain_paragraph(block: str) -> bool:
    """A paragraph of prose: no heading, code, table or list, and no lead-in to what follows it."""
    text = block.strip()
    return bool(text) and not (
        HEADING_LINE.match(text)
        or text.startswith(("```", "~~~", "|"))
        or list_parts(text)[1]
        or text.endswith((":", "："))
    )


def _opening_run(parts: tuple[str, ...]) -> tuple[str, ...]:
    """A long paragraph's opening sentences, as many as fit MAX_PASSAGE (at least two, ending on a full
    stop): "Whether a particular loop is buggy depends on whether…" opens the section on why static analysis
    is no alternative; the rest of the paragraph is its evidence."""
    kept: list[str] = []
    for part in parts:
        if len(" ".join([*kept, part])) > MAX_PASSAGE:
            break
        kept.append(part)
    while kept and not kept[-1].endswith((".", "。")):
        kept.pop()  # never end on a lead-in or a question
    return tuple(kept) if len(kept) >= 2 else ()


def _opening_index(blocks: Sequence[str], quoted: frozenset[str]) -> int:
    """The index of a section's opening paragraph (-1: none): its first prose block, past one the report
    quotes already (its definition), a note that is no sentence, one leaning on the heading, a lead-in to an
    example, and the model a design replaces ("the text currently reads:" and what it introduces)."""
    for n, block in enumerate(blocks):
        lead, items = list_parts(block)
        if not prose_block(block) or (n and introduces_old_state(blocks[n - 1])):
            continue
        parts = [clean(p) for p in split_all(lead)]
        if not items and parts and not (_SENTENCE_END.search(parts[-1]) or parts[-1].endswith((":", "："))):
            continue  # a note or caption ("_In everything that follows, … pseudo-python snippets_")
        introduces = lead.rstrip().endswith((":", "："))
        if (items or introduces) and introduces_old_state(lead):
            continue  # "Without context, you would pass the theme through every level of props:"
        shown = n + 1 < len(blocks) and _FENCE.match(blocks[n + 1]) is not None
        if (
            introduces
            and not items
            and shown
            and not _quotes(_quotable_opening(tuple(parts[:-1])), opening=True)
        ):
            continue  # a lead-in to an example ("For example, a simple task:"): the section shows, it opens later
        if quoted.intersection(parts) or (parts and leans_back(parts[0])):
            continue  # a paragraph leaning on the heading ("This section defines…") prefaces the opening
        return n
    return -1


def _quotes(parts: tuple[str, ...], *, opening: bool = False) -> bool:
    """Whether sentences can be quoted as they stand: none a question, and not all run-in labels ("None."
    under "Unresolved questions" says nothing quoted alone). In a section's `opening`, a sentence too short
    to quote alone reads with the one it leads into (`_reads_on`)."""
    return (
        bool(parts)
        and all(_reads_on(parts, i) if opening else _quotable(parts[i]) for i in range(len(parts)))
        and not is_question(parts[-1])
        and not all(RUN_IN_LABEL.match(p) for p in parts)
    )


def _quotable(sentence: str) -> bool:
    return quotable(sentence) or bool(RUN_IN_LABEL.match(sentence))


def _reads_on(parts: tuple[str, ...], i: int) -> bool:
    """Whether sentence `i` of a paragraph can be quoted there: alone, or as a short sentence leading into the
    next ("We propose a "sharded" repodata format. It works by splitting the repodata into multiple files…")."""
    if _said_there(parts, i):
        return True
    return i + 1 < len(parts) and quotable(parts[i + 1]) and quotable(f"{parts[i]} {parts[i + 1]}")


def _quotable_opening(parts: tuple[str, ...]) -> tuple[str, ...]:
    """An opening paragraph's sentences up to the first that cannot be quoted, when they end on a full stop:
    what the section says first ("The exact choice of which value represents the "edge" of a pixel is
    arbitrary… However, the API this APE proposes opts to use a single choice…") stands without the sentence
    citing a paper after it."""
    n = next((i for i in range(len(parts)) if not _reads_on(parts, i)), len(parts))
    if n == len(parts):
        return parts
    kept = _quotable_run(parts[:n])
    return kept if kept and kept[-1].endswith((".", "。")) else parts


def _only_list(block: str) -> bool:
    lead, items = list_parts(block)
    return bool(items) and not lead.strip()


def _quotable_run(parts: tuple[str, ...]) -> tuple[str, ...]:
    """A paragraph's sentences without a tail of sentences that cannot be quoted (a pointer to a man page,
    a link left alone, an announcement of what follows): what it says before that stands on its own. A sentence that cannot be quoted in the
    middle of what it says leaves the paragraph whole (and unquoted): its argument goes on after it."""
    n = len(parts)
    while n and (not _said_there(parts, n - 1) or announces(parts[n - 1])):
        n -= 1  # …or a tail announcing what the next paragraphs say ("There are two main reasons to…")
    return parts[:n]


def _said_there(parts: tuple[str, ...], i: int) -> bool:
    """Whether sentence `i` of a paragraph can be quoted with the sentences before it: quotable (or a run-in
    label), or a short correction of a quotable one ("…they don't become instantly available. Instead, they
    enter an unbonding queue.")."""
    return _quotable(parts[i]) or (i > 0 and corrects(parts[i]) and quotable(parts[i - 1]))
