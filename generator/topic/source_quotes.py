"""The quotable passages of one source that name the topic, each with the centrality of its best sentence:
whole paragraphs where they are short enough, a list with its lead-in, a leaning passage with the
paragraph before it."""

from __future__ import annotations

from ..retrieval.scoring import tokens
from ..summarize import rank_sentences
from ..text.sentences import sentences as split_all
from ..text.sentences import split_sentences
from .sentences import (
    MAX_PASSAGE,
    Quote,
    clean,
    code_examples,
    introduces_old_state,
    is_question,
    leads_out_of_list,
    leans_back,
    list_parts,
    list_quote,
    paragraph_parts,
    passage_at,
    places,
    quotable,
    quote_at,
    speaks_of_shown_code,
    text_blocks,
    with_lead_ins,
)
from .workspace import RawSource

SCAN_PER_SOURCE = 40  # a source's sentences considered for a question: the best by focus-weighted centrality


def quotes_of(
    source: RawSource, focus: str, concepts: set[str]
) -> list[tuple[Quote, float, tuple[str, ...]]]:
    """The quotable passages of a source (whole paragraphs where they are short enough) that name one of the
    topic's concepts, with the centrality (generator/summarize.py) under `focus` of their best sentence; the
    most central first, at most SCAN_PER_SOURCE, each passage once. A list cut to fit keeps the items naming
    the concepts first (STREAM's frame types asked how it sends data: 0x15 Stream Data Max)."""
    sentences = split_sentences(source.text)
    placed = places(source.text, sentences)
    starts = frozenset(i for i, place in enumerate(placed) if place.opens)
    paragraphs = [place.paragraph for place in placed]
    central = {r.index: r.score for r in rank_sentences(source.text, focus=focus)}
    naming = [i for i, sentence in enumerate(sentences) if concepts & set(tokens(sentence))]
    naming.sort(key=lambda i: -central.get(i, 0.0))
    found: dict[tuple[str, ...], tuple[Quote, float, tuple[str, ...]]] = {}
    examples = {part: q for q in code_examples(source.text) for part in q.parts}  # by their sentences
    parts = {paragraph: paragraph_parts(paragraph) for paragraph in set(paragraphs)}

    def named(item: str) -> int:  # a list cut to fit keeps the items naming the concepts
        return len(concepts & set(tokens(item)))

    lists = {
        paragraph: list_quote(paragraph, naming=named) for paragraph in parts if list_parts(paragraph)[1]
    }
    blocks = text_blocks(source.text)
    before = {b: a for a, b in zip(blocks, blocks[1:], strict=False)}  # each block's block before it
    # a list under a bare lead-in ("Where:") is quoted with the paragraph before it, which it goes on from:
    # that paragraph's sentences and the list's are one passage
    handed: dict[str, Quote] = {}
    for lead, listed in zip(blocks, blocks[1:], strict=False):
        joined = with_lead_ins([lead, listed])
        if (
            len(joined) == 1
            and list_parts(listed)[1]
            and (quote := list_quote(joined[0], naming=named)) is not None
        ):
            handed |= {lead.strip(): quote, listed.strip(): quote}
    after_code = {b for a, b in zip(blocks, blocks[1:], strict=False) if a.startswith(("```", "~~~"))}
    replaced = {b for a, b in zip(blocks, blocks[1:], strict=False) if introduces_old_state(a)}
    for i in naming:
        if paragraphs[i].lstrip().startswith(("```", "~~~")):
            continue  # a comment in a code block ("// 3. 使用 Symbol 创建唯一注入名") is no sentence of the document
        if paragraphs[i].strip() in after_code and speaks_of_shown_code(sentences[i]):
            continue  # "…make the code more compact": the code it speaks of is not quoted with it
        if paragraphs[i].strip() in replaced:
            continue  # after "the text currently reads:": the state the document changes, not its design
        example = examples.get(clean(sentences[i]))
        if paragraphs[i].strip() in handed:
            quote = handed[paragraphs[i].strip()]
        elif paragraphs[i] in lists:
            quote = lists[paragraphs[i]] or _lead_sentence(sentences, i, starts, paragraphs[i])
        else:
            quote = example or passage_at(sentences, i, starts, parts[paragraphs[i]])
            if quote is not None and not example and leans_back(quote.text):
                quote = _with_paragraph_before(quote, paragraphs[i], before.get(paragraphs[i].strip(), ""))
        if quote is not None and quote.parts not in found:
            found[quote.parts] = (quote, central.get(i, 0.0), placed[i].headings)
    return list(found.values())[:SCAN_PER_SOURCE]


def _with_paragraph_before(quote: Quote, paragraph: str, before: str) -> Quote | None:
    """A passage leaning on what was said before it ("Because this approach uses custom properties, …")
    quoted with the paragraph before it, which says it: when the passage opens its paragraph, the paragraph
    before is prose of the same section quoted whole (not a heading, a list or code) and leans on nothing
    itself, and the two fit MAX_PASSAGE; else None: alone, it speaks of what the quote leaves out."""
    opens = " ".join(paragraph.split()).startswith(" ".join(quote.text.split()[:6]))
    if not opens or not before or before.startswith(("#", "```", "~~~", "|")) or list_parts(before)[1]:
        return None
    lead = paragraph_parts(before)
    if not lead or not all(quotable(p) for p in lead) or leans_back(lead[0]) or is_question(lead[-1]):
        return None
    text = " ".join([*lead, quote.text])
    return Quote(text, (*lead, *quote.parts), quote.index) if len(text) <= MAX_PASSAGE else None


def _lead_sentence(sentences: list[str], i: int, starts: frozenset[int], block: str) -> Quote | None:
    """Sentence `i` of a block holding a list that cannot be quoted whole: a sentence of the paragraph
    before the list's lead-in may be quoted as any other; the lead-in and the items never alone."""
    lead, items = list_parts(block)
    if leads_out_of_list(items):
        return None  # a paragraph leading into worked examples ("Avoid nested if…", then "- Current:") is about them
    said = [clean(p) for p in split_all(lead)]
    if said and said[-1].endswith((":", "：")):
        said.pop()  # the lead-in
    return quote_at(sentences, i, starts) if clean(sentences[i]) in said else None
