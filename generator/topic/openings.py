"""How a document opens: its abstract, its lead, the paragraph stating its subject, quoted as far as they
can be quoted whole, with the list or example a lead-in introduces."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..cjk import is_cjk
from ..documents.prose import prose_ratio
from ..retrieval.scoring import tokens
from ..text.paragraphs import paragraphs
from ..text.pointers import points_elsewhere, states_purpose_within
from ..text.sentences import sentences as split_all
from .passage_headings import stranded_in_entry
from .sentences import (
    MAX_PASSAGE,
    RUN_IN_LABEL,
    Quote,
    clean,
    code_examples,
    is_question,
    leans_back,
    list_parts,
    list_quote,
    quotable,
    speaks_for_itself,
    stands_aside,
    text_blocks,
)
from .stating_parts import ASIDE, STATING_PARTS, outside_alternatives, stating_parts

OPENING_SCAN = 8  # paragraphs of the defining document searched for its opening


# a document's own summary of itself: the paragraph under one of these headings opens it
_ABSTRACT = re.compile(
    r"^#{1,6}\s*(?:abstract|summary|synopsis|overview|introduction|description|tl;?dr|概述|摘要|简介)\b", re.I
)


_HEADING = re.compile(r"^#{1,6}\s")


def listed_opening(text: str, passage: str) -> Quote | None:
    """The list quote (`list_quote`) of the block whose lead-in `passage` opens and leaves its last words
    off, the list's lead-in among them; None when no block's lead-in goes on from `passage` into a list."""
    said = " ".join(passage.split())
    for block in text_blocks(text):
        lead, items = list_parts(block)
        whole = " ".join(clean(p) for p in split_all(lead))
        if items and whole != said and whole.startswith(said):
            return list_quote(block)
    return None


def lead_paragraph(text: str) -> str:
    """A document's lead: the prose under its title before its first section heading, from its first paragraph
    as far as it can be quoted whole (`whole_abstract`); '' when the document opens with a section, a list or
    an example, or with a pointer elsewhere."""
    blocks = [b.strip() for b in paragraphs(outside_alternatives(text)) if b.strip()]
    n = 1 if blocks and _TITLE.match(blocks[0]) else 0
    if n >= len(blocks) or _HEADING.match(blocks[n]):
        return ""
    lead = whole_abstract(blocks[n:], _opening_at(blocks, n)) or subtitle(blocks[n])
    return "" if not lead or points_elsewhere(lead) else lead


def subtitle(block: str) -> str:
    """A lead that is one short statement under the title, too short to be quoted as a sentence elsewhere
    ("展示行列数据。" under "# Table 表格"): the page's own line on what its subject does; '' for anything else."""
    parts = [clean(p) for p in split_all(block)]
    if len(parts) != 1 or not parts[0].endswith(("。", ".")) or is_question(parts[0]):
        return ""
    if not speaks_for_itself(parts[0]):
        return ""  # "在实现服务端中间件的时候通常会用到 RequestContext 相关操作，见 请求上下文。" hands it elsewhere
    words = sum(1 for ch in parts[0] if is_cjk(ch)) + len(re.findall(r"[A-Za-z]+", parts[0]))
    return parts[0] if words >= SUBTITLE_WORDS and prose_ratio(parts[0]) >= STATED_PROSE else ""


SUBTITLE_WORDS = 4  # a Han character or a Latin word each: "展示行列数据。" says something, "概览。" does not


STATED_PROSE = 0.5  # a short statement may name more identifiers than a sentence quoted anywhere (MIN_PROSE)


def document_opening(
    text: str,
    topic: set[str] | list[set[str]],
    *,
    titled: bool = True,
    name: str = "",
) -> str:
    """A document's abstract (the paragraph under an "Abstract"/"Summary"/"Introduction" heading, in a
    document titled after the topic), else its first prose paragraph naming the topic: one of its words, or,
    given a list of word sets (each concept's spellings), one word of every set; '' when none of its first
    paragraphs can be quoted whole. A document titled after the topic opens from where it states its
    subject (`stated_opening`), not from its problem statement."""
    text = outside_alternatives(text)  # an option the document weighed says nothing of what it is
    blocks = [b.strip() for b in paragraphs(text)]
    words = set().union(*topic) if isinstance(topic, list) else topic
    stated = stated_opening(blocks, words, name) if titled and words else ""
    if stated:
        return stated
    start = next((n + 1 for n, b in enumerate(blocks[:40]) if _ABSTRACT.match(b)), 0)
    # a document about the subject says what it is outside its motivation, limits and open questions ("Currently,
    # the protocol only supports explicit bound buckets." under "## Motivation" is the problem, not the subject):
    # there first, then anywhere
    aside = {n for n, part in enumerate(stating_parts(blocks)) if part == ASIDE} if titled else set()
    scanned = [n for n in range(start, len(blocks)) if not _HEADING.match(blocks[n])][:OPENING_SCAN]
    scanned.sort(key=lambda n: n in aside)
    openings = [
        p
        for p in (_opening_at(blocks, n, name) for n in scanned)
        if p and not stranded_in_entry(p, text, name) and not stands_aside(p)
    ]
    concepts = topic if isinstance(topic, list) else [topic]
    naming = [p for p in openings if all(forms & set(tokens(p)) for forms in concepts)]
    if start and titled:
        return whole_abstract(blocks[start:], (openings or [""])[0])
    return (naming or [""])[0]


def stated_opening(
    blocks: list[str], topic: set[str], name: str = "", parts: Sequence[str] = STATING_PARTS
) -> str:
    """The opening of a document titled after the subject from where it states the subject: its lead under
    the title, else its summary section, else its design section ("## Proposal", "## Proposed
    Enhancement"), each from its first paragraph whose first sentence names the topic (one of its words) —
    never its problem statement, which says what the world lacks, not what the subject is: a "## Problem"
    or "## Motivation" section, or a summary opening "Currently, there is no performant way to create
    wrapper for a value…" before "We propose to support identityless inline classes…", or "Today, when Cluster
    API deletes a Machine it drains the corresponding Node…" before "…, and thus we propose a new
    `MachineDrainRule` CRD…" (`states_purpose_within`: in a clause after its opening phrase). A lead or summary
    is quoted whole from that paragraph on (`whole_abstract`); '' when no part names the topic. `parts` are
    the parts read, in order."""
    found = stating_parts(blocks)
    title = _TITLE.match(blocks[0]) if blocks else None
    for wanted in parts:
        scanned = [i for i, part in enumerate(found) if part == wanted][:OPENING_SCAN]
        # the paragraph where the document states its purpose ("This document proposes…") before the problem
        # it sets out first ("PyTorch is a framework that…")
        for n in sorted(scanned, key=lambda i: not states_purpose_within(blocks[i])):
            passage = _opening_at(blocks, n, name)
            first = split_all(passage)[0] if passage else ""
            # a Chinese lead leaving its subject unsaid is said of the title it stands under ("# SafeArea 安全区",
            # then "在全面屏下提供自适应的边距调整。"), as a description in front matter is
            unsaid = wanted == "lead" and n == scanned[0] and title is not None and _of_title(first, title[1])
            if passage and not stands_aside(passage) and (topic & set(tokens(first)) or unsaid):
                return passage if wanted == "design" else whole_abstract(blocks[n:], passage)
    return ""


_TITLE = re.compile(r"^#\s+(.+?)\s*#*$")


def _of_title(sentence: str, title: str) -> bool:
    """Whether a Chinese sentence names no word of the document's title: the title is its subject."""
    return bool(sentence) and is_cjk(sentence[0]) and not set(tokens(sentence)) & set(tokens(title))


_LABELLED_LIST = re.compile(r"^\*\*[^*\n]+[:：]\*\*\n- ")  # a list under its heading, the heading its label


def abstract_unit(text: str) -> Quote | None:
    """A document's abstract quoted as the block it is when that block introduces a list or a code example
    ("This RFC proposes a replacement for the existing Store class that satisfies the following goals:" with
    its goals; "…using CSS custom properties:" with its example): its lead-in alone is no sentence, and the
    paragraph after it belongs to the next section (the motivation's background, "In Svelte 1, we introduced
    the Store class…"), which says what the subject replaces, not what it is. None when the abstract opens
    with prose, or its block cannot be quoted whole. A document opening with a list right under its title
    (stored with its heading as the list's label: "**OCI Image Layout Specification:**" and "- The OCI Image
    Layout is the directory structure for…") opens with that list as its abstract."""
    blocks = [b.strip() for b in text_blocks(text) if b.strip()]
    start = next((n + 1 for n, b in enumerate(blocks[:40]) if _ABSTRACT.match(b)), 0)
    titled = len(blocks) > 1 and blocks[0].startswith("# ") and _LABELLED_LIST.match(blocks[1]) is not None
    if not start and titled:
        return list_quote(blocks[1])
    if not start or start >= len(blocks) or _HEADING.match(blocks[start]):
        return None
    first = blocks[start]
    if list_parts(first)[1]:
        return list_quote(first)
    if first.endswith((":", "：")) and start + 1 < len(blocks):
        return next(iter(code_examples(f"{first}\n\n{blocks[start + 1]}")), None)
    return None


def lead_example(text: str) -> Quote | None:
    """A document's lead under its title quoted with the code example it introduces: a page that opens by
    showing its subject ("Starting from version 3.1, pytest now automatically catches warnings during test
    execution and displays them at the end of the session:" and the test it runs; "你可以通过将
    `window.$docsify` 定义为一个对象来配置 Docsify：" and the object) has no opening sentence that stands
    alone, and its lead-in alone is no sentence. None when the lead is prose that stands alone or introduces
    no example."""
    blocks = text_blocks(text)
    # under its title, or under the heading of the section it opens on ("#### 预加载示例": "GORM允许使用 Preload通过
    # 多个SQL中来直接加载关系, 例如：" and, past "##### Generics API", its Preload calls)
    lead = next((n for n, block in enumerate(blocks) if not _HEADING.match(block)), len(blocks))
    titled = bool(blocks) and blocks[0].startswith("# ")
    if len(blocks) < lead + 2 or lead > int(titled) + 1:  # deeper than its first section: not its lead
        return None
    return next(iter(code_examples("\n\n".join(blocks[lead : lead + 3]))), None)


def lead_list(text: str) -> Quote | None:
    """A document's lead under its title quoted with the list it introduces: a page titled after its subject
    that opens "Formily 的表单校验使用了…@formily/validator 校验引擎，校验主要分两种场景：" says what it is with
    the two scenarios, and its lead-in alone is no sentence. None when the lead is prose that stands alone or
    introduces no list."""
    blocks = text_blocks(text)
    lead = 1 if blocks and blocks[0].startswith("# ") else 0
    if len(blocks) <= lead or _HEADING.match(blocks[lead]):
        return None
    if list_parts(blocks[lead])[1]:  # stored as one block, its lead-in with the list
        return list_quote(blocks[lead])
    if len(blocks) > lead + 1 and list_parts(blocks[lead + 1])[1]:
        return list_quote(f"{blocks[lead]}\n{blocks[lead + 1]}")
    return None


def whole_abstract(blocks: list[str], first: str) -> str:
    """A document's abstract as far as it can be quoted whole: its `first` passage, then the paragraphs that
    follow it under the same heading ("This option comes in two flavors: `SetMemoryLimit` and
    `GOMEMLIMIT`."), each read after the one before it, up to MAX_PASSAGE; it stops at a paragraph that
    cannot be quoted whole."""
    if not blocks or not first or first != opening_passage(blocks[0]):
        return first
    if blocks[0].rstrip().endswith((":", "：")) or list_parts(blocks[0])[1]:
        return first  # its lead-in, left off, introduces what follows: that is no more of the abstract
    kept = [first]
    for block in blocks[1:]:
        if _HEADING.match(block) or block.startswith(("```", "~~~", "|")) or list_parts(block)[1]:
            break  # a list is quoted with its lead-in, never run into the abstract's sentences
        parts = [clean(p) for p in split_all(block)]
        if not parts or not all(quotable(p) and not is_question(p) for p in parts):
            break
        if len(" ".join([*kept, *parts])) > MAX_PASSAGE:
            break
        kept.extend(parts)
    return " ".join(kept)


def _opening_at(blocks: list[str], n: int, name: str = "") -> str:
    """The opening passage of block `n` (`opening_passage`); when its first sentence leans on the paragraph
    before it ("To address this deficiency, this document proposes vocabularies…"), both paragraphs
    together, so the quote carries what it refers to: the paragraph before must be prose of the same
    section, and the two must fit MAX_PASSAGE."""
    own = opening_passage(blocks[n], name)
    if own or n == 0 or not blocks[n].strip() or not leans_back(blocks[n]):
        return own
    before = blocks[n - 1]
    if _HEADING.match(before) or before.startswith(("```", "~~~", "|")) or list_parts(before)[1]:
        return ""
    lead = opening_passage(before, name)
    if not lead or lead != " ".join(clean(p) for p in split_all(before)):
        return ""  # the paragraph before is not quoted whole
    joined = opening_passage(f"{before}\n{blocks[n]}", name)
    return joined if len(joined) > len(lead) else ""


def opening_passage(block: str, name: str = "") -> str:
    """A paragraph's opening run of whole prose sentences (the paragraph itself when it is short and prose
    throughout; its lead-in to a list or an example left off), else ''. A sentence opening with `name`, a
    name written in lower case ("deepkb turns…", "pip installs…"), is whole, not a fragment; a paragraph opening
    with `name` alone, as a subtitle ("手动加载微应用。这对于动态加载微应用…很有用。"), is quoted with the
    sentence after it, which speaks of that name."""
    kept: list[str] = []
    for part in (clean(p) for p in split_all(list_parts(block)[0])):  # a list's lead-in ends the run
        fits = len(" ".join([*kept, part])) <= MAX_PASSAGE
        judged = part[:1].upper() + part[1:] if name and part.startswith(name) else part
        alone = not kept and _named_alone(part, name)
        if not fits or not (quotable(judged) or alone or RUN_IN_LABEL.match(part)) or is_question(part):
            break
        kept.append(part)
    subtitled = bool(kept) and _named_alone(kept[0], name)
    said = [p for p in kept[subtitled:] if not RUN_IN_LABEL.match(p)]
    if not said or (leans_back(said[0]) and not subtitled):
        return ""
    return " ".join(kept)


def _named_alone(sentence: str, name: str) -> bool:
    return bool(name) and sentence.rstrip("。.!！ ") == name
