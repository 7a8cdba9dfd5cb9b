"""The passages answering an aspect a question-topic asks of its subject (topic/aspects.py): the sections of
its defining documents treating it, and the passages naming the aspect's words."""

from __future__ import annotations

from collections.abc import Sequence

from ..documents.prose import prose_ratio
from ..retrieval.scoring import tokens
from ..text.sentences import sentences as split_all
from .candidate import Candidate
from .judge import RelevanceJudge
from .opening_passages import opening_passages
from .openings import subtitle
from .section_candidates import SECTION_FACET_HITS, section_candidate
from .section_tree import SectionPassage, TextSection, text_sections, with_example_below
from .sentences import (
    CODE_FENCE,
    MAX_CODE,
    MAX_ITEMS,
    announced_count,
    clean,
    is_changelog,
    items_read_alone,
    list_parts,
)
from .source_quotes import quotes_of
from .subject_sources import defining_sources
from .workspace import RawSource


def aspect_candidates(
    sources: Sequence[RawSource], words: set[str], judge: RelevanceJudge
) -> list[Candidate]:
    """The passages naming an aspect's words ("refresh", "sanitized") in the stored documents (topic/
    aspects.py): a document kept for the subject of a question-topic says how its subject achieves the quality
    asked for, though the passage names none of the topic's other words. The documents about the subject
    first, the others weighed by their relevance."""
    about = defining_sources(sources, judge)
    strongest = max((s.relevance or 0.0 for s in sources), default=0.0)
    found = []
    for source in sources:
        if is_changelog(source.title, source.url):
            continue
        own = source.id in about or strongest <= 0
        weight = 1.0 if own else (source.relevance or 0.0) / strongest
        for quote, centrality, _ in quotes_of(source, " ".join(words), words):
            hits = len(words & set(tokens(quote.text))) * prose_ratio(quote.text)
            parts = quote.parts if len(quote.parts) > 1 else ()
            found.append(
                Candidate(
                    quote.text, source.id, hits, 1.0, centrality, parts, weight, quote.code, items=quote.items
                )
            )
    return sorted(found, key=lambda c: -c.relevance)


def aspect_sections(
    sources: Sequence[RawSource], words: set[str], judge: RelevanceJudge, said: frozenset[str] = frozenset()
) -> list[Candidate]:
    """The sections of the documents defining the subject that treat an aspect asked of it: a section whose
    heading names one of the aspect's words ("##### 错误定义" for "Kratos 错误码怎么定义", "###### 错误断言" for
    …怎么判断), then one whose first sentence does ("#### 使用中间件": "在 NewGRPCServer 和 NewHTTPServer 中通过
    ServerOption 进行注册。" for …怎么注册), each quoted from its opening with its example. A passage naming
    the word elsewhere ("Middleware 注册的顺序") says something else of it. A list cut to fit keeps the items
    naming the aspect's words first (STREAM's "5.3. Frames:" asked how it sends data: 0x15 Stream Data Max)."""
    about = defining_sources(sources, judge)

    def naming_aspect(item: str) -> int:  # a list cut to fit keeps the items naming the aspect
        return len(words & set(tokens(item)))

    # (not titled, words of the aspect the heading names, section order, source, passage)
    found: list[tuple[bool, int, int, str, SectionPassage]] = []
    for source in sources:
        if source.id not in about or is_changelog(source.title, source.url):
            continue
        sections = text_sections(source.text)
        for order, section in enumerate(with_example_below(sections, n) for n in range(len(sections))):
            entries = _entries_naming(section, words)
            first = split_all(clean(section.blocks[0]))[:1] if section.blocks else []
            naming = len(words & set(tokens(section.heading)))
            titled = naming > 0
            if not section.heading or not (titled or entries or words & set(tokens(" ".join(first)))):
                continue
            passages = entries or opening_passages(
                section, ASPECT_PASSAGES, example_alone=True, said=said, naming=naming_aspect
            )
            for passage in passages or _statement_shown(section, said):
                found.append((not titled, -naming, order, source.id, passage))
    # "怎么注册" asks to be shown how: an example, then a reference's rows naming it, each in document order; a
    # heading naming more of what is asked first ("3、权限校验" before "2、获取当前账号权限码集合")
    found.sort(key=lambda f: (f[0], f[1], not f[4].code, -len(f[4].items), f[2]))
    return [
        section_candidate(passage, sid, SECTION_FACET_HITS, rank)
        for rank, (_, _, _, sid, passage) in enumerate(found)
    ]


ASPECT_PASSAGES = 2  # passages quoted from a section treating an aspect


def _entries_naming(section: TextSection, words: set[str]) -> list[SectionPassage]:
    """The rows of a section's reference list that name an aspect's words, under the list's label: of Table's
    "Column:" rows, "sorter：排序函数…" and "sortOrder：…" for 怎么排序, "onFilter：…筛选的运行函数" for 怎么筛选.
    Each row reads alone (`items_read_alone`), so those naming it are quoted without the rest."""
    found = []
    for block in section.blocks:
        lead, items = list_parts(block)
        label = lead.strip().strip("*").strip()
        if not items or not items_read_alone(label, items):
            continue
        named = tuple(item for item in items if words & set(tokens(item)))[:MAX_ITEMS]
        if named and announced_count(label) == len(items) <= MAX_ITEMS:
            named = tuple(items)  # "而 opts 对应三个选项：" promises three: quoting two hides the third
        if named:
            found.append(SectionPassage(label, (label, *named), section.heading, items=named))
    return found


def _statement_shown(section: TextSection, said: frozenset[str]) -> list[SectionPassage]:
    """A section opening on one short statement naming what it shows by its identifiers ("在 NewGRPCServer
    和 NewHTTPServer 中通过 ServerOption 进行注册。", too few ordinary words to be quoted elsewhere) and then
    showing it ("例如：" and the code): the statement, with the example when only a lead-in stands between."""
    first = subtitle(section.blocks[0]) if section.blocks else ""
    if not first or first in said:
        return []
    blocks = section.blocks[: STATED_SCAN + 1]
    shown = [
        fence.group(2).strip("\n")
        for before, block in zip(blocks, blocks[1:], strict=False)
        if (fence := CODE_FENCE.match(block)) and before.rstrip().endswith((":", "："))
    ]
    code = shown[0] if shown and len(shown[0]) <= MAX_CODE else ""
    return [SectionPassage(first, (first,), section.heading, code)]


STATED_SCAN = 4  # blocks of a section read for the example its opening statement is shown by
