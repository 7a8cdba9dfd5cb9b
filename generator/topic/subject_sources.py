"""Which stored documents are the subject's: those defining the topic, the folder pages heading them, those
in force among them (its own account), and how much of the topic a title names."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..retrieval.scoring import lead_of, tokens
from .defining import (
    built_on,
    cited_by_number,
    defines,
    most_about,
    named_as,
    names_topic,
    plan_subject,
    section_heads,
    titled_after,
    zh_subjects,
)
from .findings import Catalog
from .judge import RelevanceJudge
from .standing import inactive
from .workspace import RawSource


def subject_documents(catalog: Catalog, defining: Collection[str]) -> list[RawSource]:
    """The documents that are the subject's own account: those defining it that are in force, else all
    those defining it (a withdrawn proposal beside the one in force is part of its history, not its
    account)."""
    stating = [s for s in catalog.sources if s.id in defining]
    return [s for s in stating if not inactive(s)] or stating


def defining_sources(sources: Sequence[RawSource], judge: RelevanceJudge) -> set[str]:
    """Ids of the stored documents that define the topic (topic/defining.py): titled after it or one of the
    subjects it joins; without one, the one the retrieval judge found most about it, or the document that one
    builds on (`built_on`): "GEP-2907: TLS Configuration Placement and Terminology" names the
    BackendTLSPolicy of GEP-1897 throughout, which is the account of TLS from the gateway to the backend. A
    document a titled one cites by its number defines the topic beside it when its opening names the topic: it
    is where the subject was introduced. Its own headings then say which question a section answers."""
    titled = {s.id for s in sources if defines(s.title, s.text, judge.topic, judge)}
    for subject in [] if titled else zh_subjects(judge.topic):
        # no title names the question's own words too ("出码是怎么实现的，怎么使用出码功能") or the product
        # ("低代码引擎的插件…"): the pages titled after the thing asked about are its account ("出码模块设计",
        # "使用出码功能"; "插件扩展 - 面板扩展", "plugins - 插件 API"), never the most relevant page alone
        titled = {s.id for s in sources if titled_after(s.title, subject, judge)}
        if titled:
            break
    # …and the pages named as the asked subject, their collection and folders going without saying ("事务"
    # under orm/ for "Beego ORM 怎么使用事务？"), beside those, never in place of them
    subject = plan_subject(judge.topic)
    titled |= {s.id for s in sources if named_as(s.title, subject, s.collection, s.url)}
    best = most_about([(s.id, s.relevance) for s in sources])
    if not titled and not best:
        return titled
    documents, urls = [(s.id, s.title, s.text) for s in sources], [s.url for s in sources]
    if titled:
        # …and a document one of them cites by number that opens on the subject: the one introducing it ("This
        # proposal adds a new hash, Accounts Lattice Hash, …" in "Homomorphic Hashing of Account State", which
        # "Snapshots use Accounts Lattice Hash" cites as SIMD-215)
        text = {s.id: s.text for s in sources}
        cited = cited_by_number(documents, urls)
        return titled | {
            base
            for sid in sorted(titled)
            for base in cited[sid]
            if base not in titled and names_topic(lead_of(text[base]), judge.topic, judge)
        }
    foundations = built_on(documents, urls)
    chosen = next(iter(foundations[best]), best)
    # …and the page of the folder it is in, when its title names one of the topic's words: the section it
    # opens is the subject's ("数据绑定", binding/index.md, heads the judge's page on binding nested structs)
    return {chosen} | {head for head, pages in heads_naming(sources, judge).items() if chosen in pages}


def heads_naming(sources: Sequence[RawSource], judge: RelevanceJudge) -> dict[str, set[str]]:
    """The stored folder pages (`section_heads`) whose title names one of the topic's words, with the pages
    of their section."""
    titles = {s.id: set(tokens(s.title)) for s in sources}
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    return {
        head: pages
        for head, pages in section_heads([(s.id, s.url) for s in sources]).items()
        if pages and any(forms & titles[head] for forms in concepts)
    }


def title_share(title: str, terms: list[set[str]]) -> float:
    """How much of the topic a title names, in halves (a title naming half the topic's terms counts)."""
    words = set(tokens(title))
    share = sum(1 for forms in terms if forms & words) / max(1, len(terms))
    return 1.0 if share >= 0.99 else 0.5 if share >= 0.5 else 0.0
