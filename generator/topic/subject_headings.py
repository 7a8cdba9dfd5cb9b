"""The headings naming the topic's subject: a section titled after it, or after the whole of it, and that
section's opening in a document about something larger."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .heading_facets import path_facet_sets
from .headings import section_facets
from .opening_passages import opening_passages
from .section_tree import SectionPassage, TextSection, text_sections

WordsOf = Callable[[str], Iterable[str]]  # the run's tokenizer (relevance.tokens), so spellings match


def names_subject(heading: str, concepts: Sequence[set[str]], words_of: WordsOf, title: str = "") -> bool:
    """Whether a section is titled after the subject: its heading names one of the topic's concepts (any
    spelling) and, with the document's title, every one of them ("Namespaces" in "Linux Container
    Configuration" for "Linux namespaces"; not "POSIX-platform Mounts" for "POSIX platform hooks")."""
    heading_words, title_words = set(words_of(heading)), set(words_of(title))
    named = [bool(forms & heading_words) for forms in concepts]
    return any(named) and all(n or forms & title_words for n, forms in zip(named, concepts, strict=True))


def subject_headings(
    sections: Sequence[TextSection], concepts: Sequence[set[str]], words_of: WordsOf, title: str
) -> set[str]:
    """The headings of the sections titled after the subject in a document about something larger (its
    title does not name every concept of the subject): "POSIX-platform Hooks" in "Configuration"; none
    in a document titled after the subject. A section is read with the headings it stands under: an option
    an ADR weighed ("### `format` remains an annotation keyword" under "## Considered Options") is an
    alternative, not the subject's own section."""
    title_words = set(words_of(title))
    if not title or all(forms & title_words for forms in concepts):
        return set()
    return {
        s.heading
        for s, facets in zip(sections, path_facet_sets(sections, title), strict=True)
        if s.heading and not facets - {"what", "how"} and names_subject(s.heading, concepts, words_of, title)
    }


Forms = Sequence[Sequence[tuple[str, ...]]]  # per concept of a topic, its spellings, each as its words


def headings_naming_whole(
    sections: Sequence[TextSection], forms: Forms, words_of: WordsOf, title: str
) -> set[str]:
    """The headings naming the subject whole — every concept in one of its spellings, all its words ("表单验证")
    — in a document whose title names it only in part ("Form 表单" for 表单验证: a word of it, not all). That
    section is the subject's own: Element's form.md says what form validation is under "### 表单验证", and
    a report answered from "典型表单" and a W3C sentence quoted there."""

    title_words = set(words_of(title))
    in_part = any(set(form) & title_words for concept in forms for form in concept)
    if not title or not in_part or names_whole(title, forms, words_of):
        return set()
    return {s.heading for s in sections if s.heading and names_whole(s.heading, forms, words_of)}


def completing_headings(
    sections: Sequence[TextSection], forms: Forms, words_of: WordsOf, title: str
) -> list[TextSection]:
    """The sections whose heading names what the document's title leaves out of a concept of the subject it
    names in part: "配置初始值与校验规则", "自定义校验(Form 级别)" and "静默校验" in "Form 表单" for Semi Form
    表单校验 (the title names 表单 of 表单 · 校验, each heading 校验). In a page on something larger they are the
    subject's own sections, where "使用 Form.Slot 放置自定义组件" is only a usage of the page's component."""
    title_words = set(words_of(title))
    left = [
        set(form) - title_words
        for concept in forms
        if not any(set(form) <= title_words for form in concept)
        for form in concept
        if len(form) > 1 and set(form) & title_words
    ]
    if not title or not left:
        return []
    return [s for s in sections if s.heading and any(rest <= set(words_of(s.heading)) for rest in left)]


def section_opening(
    sections: Sequence[TextSection], headings: set[str], forms: Forms, words_of: WordsOf
) -> SectionPassage | None:
    """The first prose passage of the first section of `headings` that has one: the first naming the subject
    whole when one does ("Form 组件提供了表单验证的功能，…" after the design line "在防止用户犯错的前提下，尽可能让用户
    更早地发现并纠正错误。")."""
    for section in sections:
        if section.heading in headings:
            prose = [p for p in opening_passages(section) if not p.code]
            naming = [p for p in prose if names_whole(p.text, forms, words_of)]
            if prose:
                return (naming or prose)[0]
    return None


def names_whole(text: str, forms: Forms, words_of: WordsOf) -> bool:
    """Whether `text` names every concept of the subject whole: one of its spellings, every word of it."""
    words = set(words_of(text))
    return all(any(set(form) <= words for form in concept) for concept in forms)


def subject_opening(
    text: str, concepts: Sequence[set[str]], words_of: WordsOf, title: str = "", names: Sequence[str] = ()
) -> SectionPassage | None:
    """The first prose passage of the first section titled after the subject: what a document whose own
    title is about something larger ("Configuration") says the subject is. Given the subject's `names`, the
    first such passage spelling one of them comes first, from a guide to the subject too: Apollo's user guide
    says what 灰度发布 gives under "# 五、灰度发布使用指南" ("通过灰度发布功能，可以实现：" and its two points), while
    "## 5.5 灰度发布" opens on a step of its walk-through ("配置规则已经生效，不过灰度配置还没有发布。")."""
    first = None
    for section in text_sections(text):
        facets = section_facets(section.heading) if section.heading else set()
        if not section.heading or facets - {"what", "how", "use"}:
            continue
        if names_subject(section.heading, concepts, words_of, title):
            prose = [p for p in opening_passages(section) if not p.code]
            spelled = [p for p in prose if spells(p.text, names)]
            if spelled:
                return spelled[0]
            if prose and first is None and not facets - {"what", "how"}:
                first = prose[0]
    return first


def spells(text: str, names: Sequence[str]) -> bool:
    """Whether a passage writes one of the subject's names as it is spelled, case aside ("灰度发布" in
    "通过灰度发布功能，可以实现：", not in "不过灰度配置还没有发布")."""
    said = " ".join(text.split()).casefold()
    return any(name and " ".join(name.split()).casefold() in said for name in names)
