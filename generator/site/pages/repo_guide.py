"""Repository guide pages, from the project's own documentation (`ProjectDocs`): "Getting started" (the
project's examples, whole, then the code they call) and one page per concept its docs present (the docs'
passages in order, each a permalink into the doc file's lines, then the code that does it). Rendered
through templates/repo_guide.md.j2 and written through the store."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from generator import store
from generator.documents.header import title_from_name
from generator.documents.markdown import TASK_BOXES, is_label
from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import lead_in_statement, opening_sentence
from generator.repo.docs.headings import answers_a_question
from generator.repo.docs.model import DocConcept, DocPage, DocPassage, ProjectDocs, ReleaseTag, table_cells
from generator.repo.model import CitedSymbol, ConceptText
from generator.site.pages.model_text import citation_markdown, code_link, inline_code, render_model_markdown
from generator.site.pages.repo_diagrams import flow_tree_markdown
from generator.site.templates import render_record
from generator.site.text import Markdown, code_block, md_escape, md_inline, table_header, table_row
from generator.store import KBPaths
from generator.text.sentences import lead_sentences

GUIDE_DIR = "guide"
GUIDE_TEMPLATE = "repo_guide.md.j2"
STARTED = "getting-started"
LISTED_PAGES = 12  # a concept's doc pages named in its lead (a folded reference has a hundred)
ASKED = 3  # questions that tell a FAQ page in the guide's list
_TAB_NAME = re.compile(r"(?:[^\W_]|[.+#/() -]){1,40}")  # no markup: the box title is read as Markdown
_CONNECTIVES = frozenset("and then or now next finally first also but so after before once".split())
# words of a sentence, never of a tab's name: "The following snippet" … "is internally equivalent to", a
# sentence a code block splits in two (strawberry's permissions.md), are no tabs
_SENTENCE_WORDS = frozenset(
    "a an the is are was were be to of this that these those following below above as it".split()
)
TAB_GAP = 3  # lines from a tab's label to its code, and from that code to the next tab's label, at most
ITEM_WORDS = 6  # a list page's first item says what the page is about in this many words at least
_FAQ_TITLE = re.compile(r"\bF\.?A\.?Q|\bfrequently asked|\bquestions\b", re.IGNORECASE)
_DOC_LINK = re.compile(r"\[([^\]\n]+)\](?:\[[^\]\n]*\]|\([^)\n]*\))")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
# a Sphinx role (:class:`~pkg.Option`) or a MyST one ({func}`option`) names code: it reads as that code
_DOC_ROLE = re.compile(r"(?:\{[\w:.+-]+\}|:[\w.+-]+(?::[\w.+-]+)*:)$")
_ROLE_TARGET = re.compile(r"^(.*?)\s*<[^<>]*>$")


@dataclass(frozen=True)
class GuidePage:
    """The context of templates/repo_guide.md.j2."""

    title: str
    lead: Markdown
    back_link: Markdown
    sections: list[GuideSection]
    symbols_heading: str
    symbols: list[Markdown]
    written: Markdown = Markdown("")  # a model's prose, its citations checked and linked ("" offline)
    flow: Markdown = Markdown("")  # the code that does it: a call tree, every call cited ("" without one)
    subsystems: list[Markdown] = field(default_factory=list)  # the subsystem pages whose code it explains


@dataclass(frozen=True)
class GuideSection:
    """The passages of one doc file (or one heading of it), in order, with where they come from."""

    heading: str
    source: Markdown
    body: list[Markdown]
    level: int = 2  # 3 under its doc page's title, on a page folding several doc pages
    page_title: str = ""  # that title, a heading (level 2) of its own right above the page's first section


def guide_links(docs: ProjectDocs | None) -> list[Markdown]:
    """The index's list of guide pages, in the order a newcomer reads them."""
    if docs is None or docs.empty:
        return []
    started = docs.examples or docs.install
    links = [Markdown(f"[{started_title(docs)}]({GUIDE_DIR}/{STARTED}.md)")] if started else []
    links += [concept_line(i, c) for i, c in enumerate(docs.concepts, 1)]
    return links


def started_title(docs: ProjectDocs) -> str:
    """The examples page's name: "Getting started", or "Usage examples" when the docs have a page of that
    name of their own (zustand's learn/getting-started.md): two guide pages never share a name."""
    taken = {" ".join(c.name.lower().split()) for c in docs.concepts}
    return "Usage examples" if "getting started" in taken else "Getting started"


def _explains(name: str) -> str:
    """ "explains Routing", or of a question, "answers “How do I implement backpressure?”" (it had read
    "explains How do I implement backpressure?, in its own order")."""
    if name.rstrip().endswith(("?", "？")):
        return f"answers “{md_inline(name.strip())}”"
    return f"explains {md_inline(name)}"


def concept_line(index: int, concept: DocConcept, folder: str = GUIDE_DIR) -> Markdown:
    """[Concept](guide/NN_slug.md) — the docs' first sentence about it · its 2–3 central symbols; `folder`
    is the guide's, relative to the page the line is on."""
    link = f"[{md_inline(concept.name)}]({folder}/{guide_name(index, concept)})"
    retired = _retired(concept)
    if retired:  # every page of it says it is no longer in force
        link += f" ({md_inline(retired)})"
    # the docs' own sentence as its author wrote it: a lower-case product name stays lower-case
    # … never a documented object's docstring (an API page's first entry is not what the page is about)
    sentence = next((s for page in concept.pages if (s := _page_says(page))), "")
    parts: list[Markdown] = [prose(sentence)] if sentence else []
    if concept.symbols:
        parts.append(Markdown(", ".join(symbol_name(s) for s in concept.symbols[:3])))
    return Markdown(link + (" — " + " · ".join(parts) if parts else ""))


def _page_says(page: DocPage) -> str:
    """A doc page's first sentence of its own, never the answer to a reader's question ("No." under "Does
    Guzzle require cURL?"): a page of answers is told by its first questions; "" for a page of no prose."""
    said = [
        p
        for p in page.passages
        if p.kind == "paragraph"
        and (page.path in (p.path, p.page) or _titled_after(p.heading, page.title))
        and not _DISCLAIMER.match(p.heading)
    ]
    # … unless the page is that question (a README's FAQ, each question a concept: p-queue's "How do I
    # implement backpressure?" said only its question again)
    own = [p.text for p in said if not _answers(page.title, p.heading) or _same(p.heading, page.title)]
    own = _named_first(own, page.title)
    # a page opening with a lead-in to its example says what it is there ("The Environment is the central
    # configuration object:"), when no paragraph opens with a sentence of its own
    sentence = opening_sentence(own) or lead_in_statement(own[:1])
    asked = dict.fromkeys(" ".join(p.heading.split()) for p in said if _answers(page.title, p.heading))
    return sentence or " ".join(list(asked)[:ASKED]) or _first_item_says(page)


# a page titled by a code name: `weakMapMemoize`, `unstable_autotrackMemoize`, `Session.send`, `use_cache`
_CODE_TITLE = re.compile(r"^`?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*`?$")
_CODE_SHAPE = re.compile(r"[a-z][A-Z]|\w[_.]\w")  # camelCase, snake_case, a dotted name: no word
_NAMED_WITHIN = 3  # paragraphs of a page looked at for one opening with its name


def _named_first(paragraphs: list[str], title: str) -> list[str]:
    """An API page's paragraphs with the first opening on its own name first, when its first paragraph never
    names it: reselect's `weakMapMemoize` page opens by contrast ("lruMemoize has to be explicitly configured
    to have a cache size larger than 1 …"), then says "`weakMapMemoize` creates a tree of WeakMap-based cache
    nodes …". A first paragraph without a subject of its own ("Accepts one or more input selectors …") names
    nothing else and stays first unless a paragraph opens with the name."""
    name = title.strip().strip("`")
    if not _CODE_TITLE.match(title.strip()) or not (_CODE_SHAPE.search(name) or title.strip()[:1] == "`"):
        return paragraphs  # a word ("Usage", "Routing") opens many paragraphs without being their subject
    if not paragraphs or name.lower() in paragraphs[0].lower():
        return paragraphs
    opens = re.compile(rf"^(?:the\s+)?`?{re.escape(name)}`?(?![\w$])", re.IGNORECASE)
    named = next((p for p in paragraphs[1:_NAMED_WITHIN] if opens.match(p.lstrip())), None)
    return paragraphs if named is None else [named, *(p for p in paragraphs if p is not named)]


# a page's disclaimer says whose opinions or what caveats these are, never what the page is about: luxon's
# "Why does Luxon exist?" was described by its "## A disclaimer" ("I should clarify here that I'm just one of
# Moment's maintainers; …"), not by its Origin
_DISCLAIMER = re.compile(r"^\W*(?:an? |legal )?disclaimers?\b", re.IGNORECASE)


def _titled_after(documented: str, title: str) -> bool:
    """Whether a page is titled after the object whose docstring a passage quotes: it is that object's page,
    told by its words — dateutil's relativedelta.rst (`automodule:: dateutil.relativedelta`, a module without
    a docstring) is the `relativedelta` class's, "The relativedelta type is designed to be applied to …", not
    a line of its examples ("The logic for years is the same, even on leap years.")."""
    return documented.rpartition(".")[2].lower() == title.strip(" `").lower() != ""


def _same(heading: str, title: str) -> bool:
    return " ".join(heading.split()) == " ".join(title.split())


def _first_item_says(page: DocPage) -> str:
    """A page that is a list (gws' "Feature": `- [x] Event-driven API based on the Event interface, …`, a
    "Goals" or "Known issues" page) says what its first item does, as a sentence; "" for an item of a few
    words (a bare link, a name)."""
    item = next((p.text for p in page.passages if p.kind == "item" and page.path in (p.path, p.page)), "")
    text = " ".join(item.lstrip("".join(TASK_BOXES.values())).split())  # a task list's box says nothing
    if len(text.split()) < ITEM_WORDS:
        return ""
    first = lead_sentences(text, 1, as_written=True)[0]
    return first if first[-1:] in ".!?" else first.rstrip(",;:") + "."


def _answers(title: str, heading: str) -> bool:
    """Whether a section answers a reader's question: any question on a FAQ page ("Why am I getting an SSL
    verification error?"), one of the FAQ kind elsewhere ("How do I debug?", never "What is Egg?")."""
    return heading.rstrip().endswith("?") and (
        _FAQ_TITLE.search(title) is not None or answers_a_question(heading)
    )


def symbol_name(symbol: CitedSymbol, shown: str = "") -> Markdown:
    return code_link(shown or symbol.name, symbol.citation.url if symbol.citation else "")


def guide_name(index: int, concept: DocConcept) -> str:
    return f"{index:02d}_{concept.slug or 'concept'}.md"


def overview_markdown(docs: ProjectDocs | None, linker: Linker) -> list[Markdown]:
    """The docs' own opening paragraphs, each followed by its citation; a list the overview keeps (what the
    project does, after its lead-in) is one tight list, cited once with its lead-in."""
    found: list[Markdown] = []
    passages = list(docs.overview) if docs else []
    at = 0
    while at < len(passages):
        passage = passages[at]
        items = list(itertools.takewhile(lambda p: p.kind == "item", passages[at + 1 :]))
        if passage.kind != "paragraph" or not items or passage.path != items[-1].path:
            found.append(passage_markdown(passage, linker))
            at += 1
            continue
        spanned = replace(passage, end=items[-1].end)
        found.append(passage_markdown(spanned, linker))
        found.append(Markdown("\n".join(passage_markdown(item, linker, cite=False) for item in items)))
        at += 1 + len(items)
    return found


def release_markdown(docs: ProjectDocs | None, linker: Linker) -> list[Markdown]:
    """Where the project stands, one cited line each: "**Stability:** This library is `v1` …"."""
    found: list[Markdown] = []
    # a section's paragraphs in a row (fx's three on stability) are one line, cited once
    for (heading, path), run in itertools.groupby(
        docs.release if docs else (), lambda p: (p.heading, p.path)
    ):
        passages = list(run)
        citation = linker.check(path, passages[0].start, passages[-1].end)
        source = f" ({citation_markdown(citation)})" if citation else ""
        said = " ".join(prose(p.text) for p in passages)
        found.append(Markdown(f"- **{md_escape(heading)}:** {said}{source}"))
    if docs is not None and (tag := docs.tag) is not None:
        found.append(Markdown(f"- **Latest release:** {_tag_markdown(tag, linker)}"))
    if docs is not None and (tag := docs.prerelease) is not None:
        found.append(Markdown(f"- **Latest pre-release:** {_tag_markdown(tag, linker)}"))
    return found


def _tag_markdown(tag: ReleaseTag, linker: Linker) -> str:
    """ "`v2.30.0`, tagged 2026-08-04, 76 commits before the revision read", the tag linked to its tree."""
    name = f"`{tag.name}`"
    url = linker.ref_url(tag.name)
    shown = f"[{name}]({url})" if url else name
    since = (
        "the revision read"
        if not tag.since
        else f"{tag.since} commit{'s' * (tag.since != 1)} before the revision read"
    )
    return f"{shown}, tagged {tag.date} — {since}"


def write_guide_pages(
    paths: KBPaths,
    directory: Path,
    docs: ProjectDocs | None,
    label: str,
    linker: Linker,
    texts: Sequence[ConceptText] = (),
    subsystems: Mapping[int, list[Markdown]] | None = None,
) -> None:
    """Write guide/getting-started.md and guide/NN_<concept>.md (a model's prose where `texts`, in the
    concepts' order, has it for the concept; links to the subsystem pages whose code it explains where
    `subsystems`, by the concept's place, has them); remove the guide pages of an earlier run."""
    written: set[str] = set()
    if docs is not None and (docs.examples or docs.install):
        written.add(_write(paths, directory, f"{STARTED}.md", started_page(docs, label, linker)))
    for index, concept in enumerate(docs.concepts if docs else (), 1):
        # `texts` follow the concepts' order (two sections may share a name, never a place)
        text = texts[index - 1] if index <= len(texts) and texts[index - 1].slug == concept.slug else None
        guide = replace(
            concept_page(concept, label, linker, text), subsystems=(subsystems or {}).get(index, [])
        )
        written.add(_write(paths, directory, guide_name(index, concept), guide))
    store.remove_stale(directory / GUIDE_DIR, written, "[0-9][0-9]_*.md", f"{STARTED}.md")


def _write(paths: KBPaths, directory: Path, name: str, page: GuidePage) -> str:
    path = store.safe_join(directory, GUIDE_DIR, name)
    write_side_page(paths, path, GUIDE_TEMPLATE, page, "guide", "the project's own documentation")
    return name


def write_side_page(paths: KBPaths, path: Path, template: str, page: Any, kind: str, source: str) -> None:
    """A guide or reference page (`page`: its record, with a title) beside a repository's index: what it
    was written from (`source`), and its `kind` among the repository's tags."""
    meta = {"title": page.title, "description": f"{page.title}: from {source}", "tags": ["repository", kind]}
    store.write_page(path, meta, render_record(paths, template, page))


def started_page(docs: ProjectDocs, label: str, linker: Linker) -> GuidePage:
    """How to install the project (its own install section, first), then its usage examples."""
    installing = "How to install the project, then its" if docs.install else "The project's"
    walked, called = "", list(docs.example_symbols)
    if docs.started is not None:  # the docs' getting-started page, quoted whole: the code it names too
        walked = (
            f", its getting-started page {file_link(docs.started.pages[0].path, linker)} whole among them"
        )
        named = {s.name for s in called}
        called += [s for s in docs.started.symbols if s.name not in named]
    return GuidePage(
        title=f"{_short(label)} · {started_title(docs)}",
        lead=Markdown(
            f"{installing} own usage examples, whole and in the order its README and getting-started pages "
            f"give them{walked} (then its example tests, when those show little code); each links to the "
            "lines it comes from."
        ),
        back_link=Markdown(f"[← {md_inline(label)}](../index.md)"),
        sections=install_section(docs.install, linker) + sections(docs.examples, linker),
        symbols_heading="What the examples call",
        symbols=[symbol_line(s) for s in called],
        flow=flow_tree_markdown(docs.started.flow) if docs.started else Markdown(""),
    )


def concept_page(
    concept: DocConcept, label: str, linker: Linker, text: ConceptText | None = None
) -> GuidePage:
    """The model's prose about the concept when it wrote some worth publishing, else the docs' passages in
    their order; then the code that does it."""
    pages = ", ".join(
        file_link(p.path, linker) + (f" ({md_inline(p.standing)})" if p.standing else "")
        for p in concept.pages[:LISTED_PAGES]
    ) + (f" and {len(concept.pages) - LISTED_PAGES} more pages" if len(concept.pages) > LISTED_PAGES else "")
    written = render_model_markdown(text.text, linker).markdown if text and text.text else Markdown("")
    retired = _retired(concept)
    if retired and not written:
        lead = Markdown(
            f"The project's documentation marks {md_inline(concept.name)} as {md_inline(retired)}"
            f" ({', '.join(file_link(p.path, linker) for p in concept.pages)}): it"
            " says how this worked, not how it works now, so it is linked here and not quoted."
        )
    elif written:
        lead = Markdown(
            f"Written by {inline_code(text.model) if text and text.model else 'a model'} from the project's "
            f"documentation ({pages}) and the code below; every citation links to the lines it names."
        )
    else:
        lead = Markdown(
            f"How the project's documentation {_explains(concept.name)}, in its own order ({pages})."
            + (
                f" The model's page could not be used ({md_inline(text.fallback)})."
                if text and text.fallback
                else ""
            )
        )
    return GuidePage(
        title=f"{_short(label)} · {concept.name}",
        lead=lead,
        back_link=Markdown(f"[← {md_inline(label)}](../index.md)"),
        sections=[]
        if written
        else sections(
            [p for page in concept.pages for p in page.passages],
            linker,
            {p.path: p.title for p in concept.pages},
            {p.path: p.headline for p in concept.pages},
        ),
        symbols_heading="In the code",
        symbols=[symbol_line(s, _methods(concept).get(s.name, ())) for s in concept.symbols],
        written=written,
        flow=flow_tree_markdown(concept.flow),
    )


def _retired(concept: DocConcept) -> str:
    """The label of a concept all of whose doc pages say they are no longer in force ("obsolete"); ''."""
    labels = [page.standing for page in concept.pages]
    return labels[0] if labels and all(labels) else ""


def sections(
    found: Sequence[DocPassage],
    linker: Linker,
    titles: Mapping[str, str] | None = None,
    headlines: Mapping[str, str] | None = None,
) -> list[GuideSection]:
    """Consecutive passages of one file under one heading make one section; passages under no heading (a
    page titled by its front matter, as svelte's are) are headed by their page's title, else its file's name
    ("Quick start" for www/content/docs/quick-start.md: a path is no heading, the section's citation names it).
    On a page folding several doc pages (`titles` of more than one), each doc page is headed by its title and
    its sections sit one level down (gqlgen's eleven recipes had made one flat list of ~60 headings, recipe
    titles and their subsections alike); passages under a page's own level-1 heading (`headlines`) are the
    page's, headed by it."""
    titles, headlines = titles or {}, headlines or {}
    grouped: list[tuple[tuple[str, str], list[DocPassage]]] = []
    for passage in found:
        key = (passage.quoted_in, passage.heading)
        if grouped and grouped[-1][0] == key:
            grouped[-1][1].append(passage)
        else:
            grouped.append((key, [passage]))
    folded = len(titles) > 1 and len({path for (path, _), _ in grouped}) > 1
    shown: list[GuideSection] = []
    headed = ""  # the doc page whose title the last level-2 heading is
    for (path, heading), items in grouped:
        title = titles.get(path) or _file_heading(path)
        section = GuideSection(heading or title, _span_link(items, linker), _shown(items, linker))
        if folded and heading and heading not in (title, headlines.get(path)):
            section = replace(section, level=3, page_title="" if headed == path else title)
        headed = path if folded else ""
        shown.append(section)
    return shown


def _shown(items: Sequence[DocPassage], linker: Linker) -> list[Markdown]:
    """A section's passages as its body; a set of content tabs (sphinx-inline-tabs' `.. tab:: datasette.yaml`
    then `.. tab:: datasette.json`, each its label over its code) shows its first tab and folds the others,
    each under its label: the docs build shows one tab at a time, and every datasette configuration example
    had stood twice in full, under bare labels."""
    body = [passage_markdown(p, linker, cite=bool(p.page)) for p in items]
    for first, count in _tab_sets(items):
        for label in range(first + 2, first + 2 * count, 2):
            body[label + 1] = _folded(items[label].text, body[label + 1])
            body[label] = Markdown("")
    return [part for part in body if part]


def _tab_sets(items: Sequence[DocPassage]) -> list[tuple[int, int]]:
    """Where content tabs stand among a section's passages, each set as (its first label's place, its
    tabs): two or more labels (a few words, no sentence) each right over its code block, the next label right
    under the code before, all of different names."""
    sets: list[tuple[int, int]] = []
    at = 0
    while at < len(items):
        count = 0
        while _tab_at(items, at + 2 * count, items[at + 2 * count - 1] if count else None):
            count += 1
        labels = {items[at + 2 * k].text for k in range(count)}
        if count >= 2 and len(labels) == count:
            sets.append((at, count))
            at += 2 * count
        else:
            at += 1
    return sets


def _tab_at(items: Sequence[DocPassage], at: int, before: DocPassage | None) -> bool:
    """Whether a tab's label and its code stand at `at`, right under `before` (the code of the tab before)."""
    if at + 1 >= len(items):
        return False
    label, code = items[at], items[at + 1]
    return (
        label.kind == "paragraph"
        and _tab_label(label.text)
        and code.kind == "code"
        and label.path == code.path
        and 0 < code.start - label.end <= TAB_GAP
        and (before is None or (before.path == label.path and 0 < label.start - before.end <= TAB_GAP))
    )


def _tab_label(text: str) -> bool:
    """A tab's label: a name of a few words ("datasette.yaml", "JSON", "Docker Compose"), plain text, never a
    step of a walk-through (gqlgen's "and regenerate" then "then implement the resolvers", each over its
    code), never a piece of a sentence ("The following snippet" … "is internally equivalent to")."""
    words = text.lower().split()
    return (
        is_label(text)
        and bool(_TAB_NAME.fullmatch(text.strip()))
        and words[0] not in _CONNECTIVES
        and not _SENTENCE_WORDS.intersection(words)
    )


def _folded(label: str, body: Markdown) -> Markdown:
    """A tab after the first: a closed box titled by its label (plain text: `_TAB_NAME`), its content inside."""
    title = " ".join(label.split())
    inside = "\n".join(f"    {line}" if line else "" for line in body.split("\n"))
    return Markdown(f'??? tab "{title}"\n\n{inside}')


def _file_heading(path: str) -> str:
    """The heading a doc file's name gives it: its stem as words, or its folder's for an index page."""
    posix = PurePosixPath(path)
    stem = posix.parent.name if posix.stem.lower() in _INDEX_STEMS and posix.parent.name else posix.stem
    words = title_from_name(stem) or stem
    return words[:1].upper() + words[1:]


_INDEX_STEMS = frozenset({"index", "_index", "readme"})


def install_section(steps: Sequence[DocPassage], linker: Linker) -> list[GuideSection]:
    """The project's install steps as one "Install" section opening Getting started, cited at their lines
    (each passage at its own too when they come from more than one file)."""
    if not steps:
        return []
    one = len({p.quoted_in for p in steps}) == 1
    body = [passage_markdown(p, linker, cite=bool(p.page) or not one) for p in steps]
    headings = [p.heading for p in steps]
    if (
        len(set(headings)) > 1
    ):  # ways to install, one a subsection: each under its name ("Install using Homebrew")
        body = [
            Markdown(f"**{md_inline(h)}**\n\n{text}") if h and (not n or h != headings[n - 1]) else text
            for n, (h, text) in enumerate(zip(headings, body, strict=True))
        ]
    return [GuideSection("Install", _span_link(steps, linker), body)]


def passage_markdown(passage: DocPassage, linker: Linker, cite: bool = True) -> Markdown:
    """A passage as the docs wrote it: prose with its code spans, a list item, a whole code block with its
    language, a table's rows, a quote; with `cite`, followed by its permalink."""
    if passage.kind == "code":
        text: Markdown = code_block(passage.text, passage.language)
    elif passage.kind == "item":
        text = Markdown(f"- {prose(passage.text)}")
    elif passage.kind == "quote":  # each of its paragraphs and list items a paragraph of the quote
        text = Markdown(
            "\n>\n".join(f"> {prose(part)}" for part in passage.text.split("\n\n") if part.strip())
        )
    elif passage.kind == "table":
        text = table_markdown(passage.text)
    elif passage.kind == "options":
        text = options_markdown(passage, linker)
    else:
        text = prose(passage.text)
    if not cite:
        return text
    citation = linker.check(passage.path, passage.start, passage.end)
    source = f" ({citation_markdown(citation)})" if citation else ""
    shown_apart = passage.kind in {"code", "options"}
    return Markdown(f"{text}\n\n*Source:*{source}" if shown_apart else f"{text}{source}")


def options_markdown(passage: DocPassage, linker: Linker) -> Markdown:
    """A commented configuration block as the table of its options (config_reference.py): each option's key
    path linked to its line, the example's value and the default as code, the comment as prose."""
    header, *rows = table_cells(passage.text)
    body = []
    for row, line in zip(rows, passage.lines, strict=False):
        citation = linker.check(passage.path, line, line)
        path, *values, doc = row
        cells = [
            code_link(path, citation.url if citation else ""),
            *(inline_code(v) if v else "" for v in values),
        ]
        body.append(table_row(*cells, prose(doc)))
    return Markdown("\n".join([table_header(*header), *body]))


def table_markdown(text: str) -> Markdown:
    """A table as the docs wrote it (`table_text`: the header first): a table again, each cell read as
    prose; its rows as a list when the columns do not line up (a table written in HTML)."""
    rows = table_cells(text)
    if len(rows) < 2 or any(len(row) != len(rows[0]) for row in rows):
        return Markdown("\n".join(f"- {prose(' | '.join(row))}" for row in rows))
    header, *body = ([prose(cell) for cell in row] for row in rows)
    return Markdown("\n".join([table_header(*header), *(table_row(*cells) for cells in body)]))


def prose(text: str) -> Markdown:
    """One line of documentation: its `code` spans kept as inline code, markdown links outside them reduced to
    their text (a docstring's `[Extension][markdown.Extension]` reads "Extension"), everything else escaped."""
    parts = _CODE_SPAN.split(_links_as_text(" ".join(text.split())))
    for i in range(1, len(parts), 2):  # the odd parts are code spans; a role stands right before one
        if role := _DOC_ROLE.search(parts[i - 1]):
            parts[i - 1], parts[i] = parts[i - 1][: role.start()], _role_as_code(parts[i])
    return Markdown("".join(inline_code(p) if i % 2 else md_escape(p) for i, p in enumerate(parts) if p))


def _links_as_text(text: str) -> str:
    """Markdown links reduced to their text, outside code spans: code keeps its brackets (jest's
    `diffItems[i][0]`, logstash's `[client][ip]`, gunicorn's `environ['wsgi.early_hints'](headers)`)."""
    return _DOC_LINK.sub(lambda m: m.group(0) if text[: m.start()].count("`") % 2 else m.group(1), text)


def _role_as_code(text: str) -> str:
    """`{func}`option`` → `` `option` ``; `:class:`~pkg.Option`` → `` `Option` `` (Sphinx's `~` shows the last
    part), `:ref:`the title <target>`` → `` `the title` ``."""
    titled = _ROLE_TARGET.match(text)
    shown = (titled.group(1) if titled and titled.group(1) else text).lstrip("!")
    return shown[1:].rsplit(".", 1)[-1] if shown.startswith("~") else shown


def _methods(concept: DocConcept) -> dict[str, tuple[CitedSymbol, ...]]:
    return {t.symbol.name: t.methods for t in concept.types}


def defined_in(symbol: CitedSymbol, kind: str = "", said: str = "") -> Markdown:
    """What follows a symbol's name where a page lists it: *kind* in `path`, what else is `said` of it, then
    its doc's sentences."""
    doc = f" — {prose(symbol.doc)}" if symbol.doc else ""
    said += " (deprecated)" if symbol.deprecated else ""
    return Markdown(f"*{md_inline(kind or symbol.kind, 30)}* in {inline_code(symbol.path)}{said}{doc}")


def symbol_line(symbol: CitedSymbol, methods: Sequence[CitedSymbol] = ()) -> Markdown:
    """`name` (linked) *kind* in `path` — its doc; a class's main methods indented under it."""
    lines = [f"{symbol_name(symbol)} {defined_in(symbol)}"]
    for method in methods:
        short = method.name.rsplit(".", 1)[-1]
        lines.append(
            f"    - {symbol_name(method, short)}" + (f" — {prose(method.doc)}" if method.doc else "")
        )
    return Markdown("\n".join(lines))


def _span_link(items: Sequence[DocPassage], linker: Linker) -> Markdown:
    """The lines of the page the section quotes (code the page includes from another file is cited apart);
    the page's path when it quotes none of its own."""
    path = items[0].quoted_in
    own = [p for p in items if not p.page]
    citation = linker.check(path, min(p.start for p in own), max(p.end for p in own)) if own else None
    return citation_markdown(citation) if citation else inline_code(path)


def file_link(path: str, linker: Linker) -> Markdown:
    """A file's path, linked to the file at the revision (not to a line of it) when it has a web view."""
    citation = linker.check(path, 1)
    return code_link(path, citation.url.split("#", 1)[0] if citation else "")


def _short(label: str) -> str:
    return label.rsplit("/", 1)[-1]
