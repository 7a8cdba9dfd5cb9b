"""Each sub-question's candidate passages, best first: those treating its facet and those naming its
words, from the sources that may answer it, the subject's own account first, each reading right alone."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..retrieval.scoring import tokens
from ..text.sentences import sentences as split_all
from .account import account_examples, building_on, defining_passages, names_most, own_pages, subject_first
from .asked_sections import part_answers
from .aspect_candidates import aspect_candidates, aspect_sections
from .aspects import aspect_words
from .candidate import Candidate
from .defining import asked_words, grammar_subject, plan_subject, sources_about, titled_as
from .findings import Catalog
from .heading_facets import FRAMING_FACETS
from .judge import RelevanceJudge
from .part_candidates import part_candidates
from .passage_headings import promoting, stranded_in_entry
from .plan import Plan
from .section_candidates import (
    SECTION_FACET,
    SECTION_FACET_HITS,
    section_candidate,
    section_candidates,
    subject_sections,
    treating_candidates,
)
from .section_tree import SectionPassage, text_sections
from .sentences import clean, leans_back, list_parts, list_quote, points_ahead
from .standing import inactive, usable_for
from .subject_sources import defining_sources, subject_documents
from .word_candidates import candidates, labelled_facets
from .workspace import RawSource


def facet_of(plan: Plan, question: str) -> str:
    """The facet of the outline a sub-question asks about ("what", "how", "current"…; '' when unknown)."""
    return next((s.facet for s in plan.steps if s.question == question and s.facet), "")


# the words documents state a limit in, rarely "limitation" itself: "cannot", "is not supported", "仅适用于
# 开发模式" (only in development mode), "无法" (cannot)
LIMIT_CUES = frozenset(tokens("cannot unsupported restriction restricted limited 仅 无法 不支持 限制"))


# the one word a passage names an alternative by: the question's other words say nothing of one ("it is
# considered meaningful", "the rejection threshold", "a randomness value compared with the threshold")
ALTERNATIVE_CUES = frozenset(tokens("alternative 替代"))


def passage_pools(
    plan: Plan,
    catalog: Catalog,
    questions: list[tuple[str, str, list[str]]],
    judge: RelevanceJudge,
    *,
    said: frozenset[str] = frozenset(),
    defining: Sequence[str] = (),  # ids of the documents defining the topic (defining_sources)
    opening: str = "",  # id of the document the report opens from (`definition`)
) -> dict[str, list[Candidate]]:
    """Each sub-question's candidate passages, best first, from the sources that may answer its facet
    (a section's opening passages counted after the sentences `said` already, the definition's). The
    subject's own account answers first (`subject_first`): the documents titled as the subject, else (for
    every facet but what it is) the defining document the report opens from ("new version of context" for
    上下文, beside "lazy context propagation", whose motivation is its own)."""
    # the topic's words in every spelling the judge knows: "selection" in "Requirements for Proposer Selection"
    # is the topic's "choose", no word of that section's own to keep the question as written from quoting
    topic_words = set(tokens(plan.topic)) | {
        w for t in judge.terms(plan.topic) for form in t.forms for w in form
    }
    facets = {q: set(tokens(focus)) - topic_words for q, focus, _ in questions}
    aspects = [q for q, _, _ in questions if facet_of(plan, q) == "aspect"]
    facets |= {q: aspect_words(q, aspects) for q in aspects}  # the aspect's own words are in the topic too
    facets |= {q: facets[q] | LIMIT_CUES for q, _, _ in questions if facet_of(plan, q) == "limits"}
    facets |= {q: set(ALTERNATIVE_CUES) for q, _, _ in questions if facet_of(plan, q) == "alternatives"}
    strongest = max((s.relevance or 0.0 for s in catalog.sources), default=0.0)
    titled = set(defining) or defining_sources(catalog.sources, judge)
    about = sources_about([(s.id, s.title, s.text) for s in catalog.sources], judge, titled)
    named = {s.id for s in subject_documents(catalog, titled) if titled_as(s.title, plan_subject(plan.topic))}
    account = named or ({opening} & titled)  # the subject's own account
    subject = plan_subject(plan.topic)
    extending = building_on(catalog.sources, account, subject)
    speaks_for = account if named else names_most(account, catalog.sources, judge)
    written = asked_words(plan.topic)
    # what the topic asks of its subject beyond naming it ("upgraded", "version" of Matrix rooms): a usage or
    # how-it-works section answers the question as written only when its passage names all of it
    # …and never of the words the question's grammar sets in its subject's phrase, where the corpus names the
    # subject shorter ("updated Kubeflow release process schedule a release…" → release process)
    subject_concepts = set(tokens(subject)) | set(tokens(grammar_subject(plan.topic)))
    asked = [
        forms
        for forms in ({w for form in t.forms for w in form} for t in judge.terms(plan.topic))
        if not forms & subject_concepts
    ]
    pools = {}
    for question, focus, ids in questions:
        facet = facet_of(plan, question)
        usable = usable_for(facet, catalog.sources, about, titled, plan.topic)
        pools[question] = candidates(
            [catalog.by_id[i] for i in ids if usable(catalog.by_id[i])],
            focus=focus,
            judge=judge,
            facet=facets[question],
            reserved=set().union(*(f for q, f in facets.items() if q != question)) - facets[question],
            strongest=strongest,
            facet_name=facet,
            section=question.split("：")[-1] if facet == "section" else "",
            stored=catalog.sources,
        )
        answering = [s for s in catalog.sources if usable(s) or _states_own_standing(s, facet, titled)]
        treated = _once(
            candidate
            for answered in _section_facets_of(facet, question)
            for candidate in section_candidates(
                answering,
                answered,
                judge,
                stored=catalog.sources,
                said=said,
                account=speaks_for,
                opening=opening,
                shown_first=answered == "use" and answered != facet,
            )
            if answered == facet or _names_asked(candidate, asked)
        )
        if question in aspects:
            own = [s for s in catalog.sources if usable(s)]
            treated = [
                *aspect_sections(own, facets[question], judge, said),
                *aspect_candidates(own, facets[question], judge),
            ]
        elif question == plan.topic.strip() and written:
            # the question as written is answered by the defining pages' sections doing what it asks too
            # ("##### 3、权限校验" with its StpUtil.checkPermission code for "Sa-Token 怎么做权限校验"), after the
            # passages treating it as a whole
            treated = [
                *treated,
                *aspect_sections([s for s in catalog.sources if usable(s)], written, judge, said),
            ]
        if question == plan.topic.strip() and not asks_how(question) and enumerates(question):
            # the question as written lists what it asks of the subject ("local files, URLs, several files or
            # inline"): a list of the defining pages naming most of it answers first, wherever it stands
            # ("The data included in the package can be provided as:" and its three ways in the Introduction),
            # in place of the property definitions naming none of it ("The name is a simple name or identifier…")
            listing = listing_asked([catalog.by_id[i] for i in sorted(titled)], asked, said)
            listed = {c.text for c in listing}
            treated = [
                *listing,
                *(c for c in treated if c.text not in listed and not (listing and _names_none(c, asked))),
            ]
        if facet == "how":
            treated = [*subject_sections([catalog.by_id[i] for i in sorted(account)], judge, said), *treated]
        quoted = {c.text for c in treated}
        pools[question] = subject_first(
            [*treated, *(c for c in pools[question] if c.text not in quoted)],
            facet,
            # what the subject is: only a document titled as it speaks for it alone ("Overview" says what
            # baggage is beside "Baggage API", which says what its API does)
            named if facet == "what" else account,
            plan_subject(plan.topic),
            extending=extending,
        )
        if question == plan.topic.strip():
            # a topic asking two questions is answered part by part, where the sections treat each part: the
            # rows describing the methods it names stand in another document than the subject's account
            parts = part_candidates(
                plan.topic,
                answering,
                [s for s in catalog.sources if usable(s)],
                judge,
                stored=catalog.sources,
                said=said,
                account=speaks_for,
                opening=opening,
            )
            pools[question] = [*pools[question], *(replace(c, fallback=True) for c in parts)]
            # each thing it asks is answered by the section of the defining documents in force treating it
            # ("how are its trading fee and auction slot decided": "#### 4. Continuous Auction Mechanism"),
            # beside the passages answering it whole (`allocate`)
            own = [catalog.by_id[i] for i in sorted(titled) if usable(catalog.by_id[i])]
            pools[question] = [
                *part_answers(plan.topic, [s for s in own if not inactive(s)] or own, said),
                *pools[question],
            ]
        # a quote must read right alone: one leaning on what it leaves out ("…this mode of use") is not quoted
        alone = [
            c
            for c in pools[question]
            if reads_alone(c)
            and not stranded_in_entry(c.text, catalog.by_id[c.source].text, subject)
            and not promoting(c.text, catalog.by_id[c.source].text)
        ]
        if not alone and SECTION_FACET.get(facet, facet) in FRAMING_FACETS:
            # the one section on why, limits or alternatives opens leaning on its heading: it answers
            alone = [c for c in pools[question] if c.treats][:1]
        pools[question] = alone
        if facet == "use" or facet == "topic" and asks_how(question):
            # when nothing else says how it is used, the examples the subject's own pages show (hooks.md's
            # "代码示例：" and its BeforeCreate, not create.md's aside on default values), then those of the
            # sections saying how it works show it used ("…通过 FrontMatter 指定它的分组及分组顺序，比如：" and the
            # FrontMatter, where the page's one usage-titled section is a table)
            concepts = [{w for form in t.forms for w in form} for t in judge.terms(subject)]
            shown = account_examples(own_pages(catalog.sources, speaks_for, titled), said, concepts)
            shown += (
                treating_candidates(
                    answering,
                    "how",
                    judge,
                    stored=catalog.sources,
                    said=said,
                    account=speaks_for,
                    shown=True,
                    opening=opening,
                )
                if facet == "use"
                else []
            )
            shown = [
                c for c in shown if reads_alone(c) and not promoting(c.text, catalog.by_id[c.source].text)
            ]
            # with passages of its own they come after them, for a section the others leave empty (`allocate`)
            pools[question] = [*alone, *(replace(c, fallback=True) for c in shown)] if alone else shown
        if facet == "what" and opening:
            throughout = {
                i
                for i in named
                if "what" not in labelled_facets(catalog.by_id[i].text, catalog.by_id[i].title)
            }
            pools[question] = defining_passages(pools[question], plan_subject(plan.topic), throughout)
            # what it is, the documents defining it say: another document's section named after it is about
            # it in that document's frame ("插件" in a guide to testing: the plugins a test installs)
            pools[question] = [c for c in pools[question] if c.source in titled]
    return pools


def listing_asked(
    sources: Sequence[RawSource], asked: Sequence[set[str]], said: frozenset[str] = frozenset()
) -> list[Candidate]:
    """The lists of `sources` (the defining documents) whose lead-in and items name at least two and at least
    half the concepts a question asks of its subject (`asked`), each quoted whole with its lead-in (a blank line
    between them too), those naming more first, then in document order."""
    found: list[tuple[int, int, str, SectionPassage]] = []
    for source in sources:
        for section in text_sections(source.text):
            blocks = section.blocks
            for n, block in enumerate(blocks):
                lead, items = list_parts(block)
                if not items and lead.rstrip().endswith((":", "：")) and n + 1 < len(blocks):
                    below, listed = list_parts(blocks[n + 1])
                    block = f"{block}\n{blocks[n + 1]}" if listed and not below.strip() else block
                quote = list_quote(block)
                if quote is None or said.intersection(quote.parts):
                    continue
                words = set(tokens(" ".join(quote.parts)))
                named = sum(bool(forms & words) for forms in asked)
                if named >= 2 and 2 * named >= len(asked):
                    passage = SectionPassage(quote.text, quote.parts, section.heading, items=quote.items)
                    found.append((-named, len(found), source.id, passage))
    found.sort(key=lambda f: f[:2])
    return [
        section_candidate(passage, sid, SECTION_FACET_HITS, rank)
        for rank, (_, _, sid, passage) in enumerate(found)
    ]


# a question listing what it asks among ("local files, URLs, several files or inline", "文件、URL 或内联"): a
# comma, then the last term after "or" / "and"
_ENUMERATES = re.compile(r"[,，、][^,，、?？:：]+?(?:\s(?:or|and)\s|或|和|及)", re.IGNORECASE)


def enumerates(question: str) -> bool:
    """Whether a question lists the terms it asks among ("…: local files, URLs, several files or inline in the
    descriptor?"), not "How do deposit and withdrawal work…" nor "What happens to an ILP Prepare packet…"."""
    return _ENUMERATES.search(question) is not None


def _names_none(passage: Candidate, asked: Sequence[set[str]]) -> bool:
    """Whether a passage names none of the concepts the topic asks of its subject (`asked`)."""
    words = set(tokens(" ".join([passage.text, *passage.items])))
    return not any(forms & words for forms in asked)


def _names_asked(passage: Candidate, asked: Sequence[set[str]]) -> bool:
    """Whether a passage names every concept the topic asks of its subject (`asked`; none: it does): "When the
    client requests to upgrade a known room to a known version, the server:" for how Matrix rooms are upgraded
    to a new room version, not "Room versions are used to change properties of rooms…"."""
    words = set(tokens(passage.text))
    return all(forms & words for forms in asked)


def _once(found: Iterable[Candidate]) -> list[Candidate]:
    """Candidates without repeats, in order: a section both usage and how-it-works answer is quoted once."""
    seen: set[tuple[str, str, str]] = set()
    kept = []
    for candidate in found:
        key = (candidate.source, candidate.text, candidate.code)
        if key not in seen:
            seen.add(key)
            kept.append(candidate)
    return kept


def _section_facets_of(facet: str, question: str) -> tuple[str, ...]:
    """The facets whose sections answer a question: the topic asked as written how something is done ("Sa-Token
    如何踢人下线", "How are Matrix rooms upgraded to a new room version?") is answered where its documents show
    it done (usage sections, and the sections naming it that open on its example) and where they say how it is
    done (a specification's "Server behaviour": the server's upgrade steps), not where they say what it is;
    how it works in general the outline's own question answers from what the question as written leaves."""
    if facet == "topic" and asks_how(question):
        return ("use", "how")
    return (facet,)


# a question asking how a thing is done, not how it works ("How does X work?", "如何工作", "怎么实现") nor which to
# choose ("三种模式怎么选", "how to choose")
_ASKS_HOW = re.compile(
    r"^\W*how\s+(?:are|is|do|does|can|to|should|would|will)\b(?!\s+(?:i\s+|we\s+|you\s+)?cho)(?!.*\bwork)"
    r"|(?:如何|怎么|怎样)(?!选|工作|运作|运行|实现)",
    re.IGNORECASE,
)


def asks_how(question: str) -> bool:
    """Whether a question asks how a thing is done ("如何踢人下线", "How are rooms upgraded?"), not how it works
    ("How does X work on Aptos?": the outline's how-it-works question answers that), what it is or which of
    several to take ("怎么选")."""
    return _ASKS_HOW.search(question) is not None


def reads_alone(passage: Candidate) -> bool:
    """Whether a passage reads right alone: it leans on nothing it leaves out (`leans_back`), or it is a
    lead-in pointing at the example or list quoted with it ("Here is another example Dan mentioned on
    Twitter:"). A lead-in comes with what it introduces or is not quoted."""
    said = [clean(p) for p in split_all(passage.text)]
    if not (passage.code or passage.items) and any(p.endswith((":", "：")) for p in said):
        return False  # "使用file，即从本地文件加载：" without the example it introduces
    if not leans_back(passage.text):
        return True
    first = said[0] if said else ""
    return bool(passage.code or passage.items) and points_ahead(first)


def _states_own_standing(source: RawSource, facet: str, defining: set[str]) -> bool:
    """A defining document in force answers "current state" from its own status sections ("Implementation",
    "Specification changes during implementation"), however old it is: the state of its own subject."""
    return facet == "current" and source.id in defining and not inactive(source)
