"""PLANNING: decompose a topic into sub-questions and a plan of research/processing steps (`plan.json`).

The outline comes from the sources: the section headings of the documents a first search finds most about
the topic (motivation, specification, usage, limitations, rejected ideas…) say which questions they answer,
and the plan asks those, after "What is X?". The model's plan sees the same outlines and is JSON checked
against a schema and repaired once (llm/structured.py); without a model, or when the reply stays unusable,
the heuristic plan asks the outline's questions (with no outline found: what it is / how it works / benefits
and limits / alternatives / current state). A plan edited by the user during `--review-plan` is validated
before it is used.
"""

from __future__ import annotations

import graphlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from .. import cjk
from ..errors import UsageError
from ..jsontypes import StoredObject
from ..llm.base import Prompt, Provider
from ..llm.structured import complete_json
from ..text.topic_labels import LABELS
from ..text.words import ZH_STOPWORDS, content_words, stem, tokens
from .bounds import cut
from .defining import asked_subject, joined, plan_subject, topic_aspects
from .headings import (
    FACETS,
    decision_record,
    design_proposal,
    facet_words,
    heading_facets,
    outline_heading_facets,
    unnumbered,
)
from .keyphrases import is_plural, topic_phrases
from .outline import MIN_KEPT, question_problem

StepStatus = Literal["pending", "done", "failed"]
STEP_TYPES = ("research", "processing")
MAX_TITLE = 300  # a step's title, question and query; longer text (a long topic, a chatty model) is trimmed
MAX_SUB_QUERIES = 8
MAX_STEPS = 12


def fit(text: str, limit: int = MAX_TITLE) -> str:
    """`text` on one line, cut at a word boundary to at most `limit` characters (an ellipsis says so)."""
    return str(cut(" ".join(str(text).split()), limit=limit))


# a topic of any length, or a model's long step title, must make a plan, not a traceback
OneLine = Annotated[str, BeforeValidator(lambda value: fit(value) if isinstance(value, str) else value)]


class Step(BaseModel):
    """One unit of work. `question` is the sub-question it answers; `query` is what gets searched."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    title: OneLine = Field(min_length=1, max_length=300)
    description: str = ""
    step_type: str = "research"  # research | processing; anything else is routed to research with a warning
    depends_on: list[str] = Field(default_factory=list)
    question: OneLine = ""
    query: OneLine = ""
    status: StepStatus = "pending"
    sources: list[str] = Field(default_factory=list)  # raw source ids this step stored or reused
    notes: list[str] = Field(default_factory=list)
    result: StoredObject | None = None  # processing: the validated table/chart spec
    supplementary: bool = False  # added by verification
    facet: str = (
        ""  # what the sub-question asks about: what, how, use, motivation, limits, alternatives, current
    )

    def search_text(self) -> str:
        return self.query or self.question or self.title


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    topic: str
    sub_queries: list[str] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    has_enough_context: bool = True  # False asks the dispatcher to re-plan once the steps are done
    iteration: int = 1
    origin: str = "heuristic"  # heuristic | llm | edited
    notes: list[str] = Field(default_factory=list)

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.id == step_id)

    def done_count(self) -> int:
        return sum(1 for s in self.steps if s.status != "pending")


# --------------------------------------------------------------------------- validation


def validate_plan(data: Any, *, where: str = "plan.json") -> Plan:
    """A usable Plan from JSON data, or one UsageError line naming the problem."""
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise UsageError(
            f"{where}: '{key}': {first['msg']}", hint="fix the file and run resume again"
        ) from None
    ids = [s.id for s in plan.steps]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise UsageError(f"{where}: duplicate step id '{duplicates[0]}'", hint="give every step its own id")
    for step in plan.steps:
        for dep in step.depends_on:
            if dep not in ids:
                raise UsageError(f"{where}: step '{step.id}' depends on unknown step '{dep}'")
            if dep == step.id:
                raise UsageError(f"{where}: step '{step.id}' depends on itself")
    try:
        graphlib.TopologicalSorter({s.id: s.depends_on for s in plan.steps}).prepare()
    except graphlib.CycleError as exc:  # its cycle runs from dependency to dependent: turned around
        cycle = " → ".join(reversed(exc.args[1]))
        raise UsageError(f"{where}: dependency cycle {cycle}", hint="remove one of the depends_on") from None
    return plan


# --------------------------------------------------------------------------- heuristic plan

# (facet, question about X, words added to the search query). X is the topic itself when the topic names a
# subject ("vector databases"), or the topic's key phrase when the topic is already a question or a sentence
# ("How deepkb keeps a knowledge base fresh" → X = "deepkb"); {is}/{does} agree with X.
_FACETS = {
    "en": [
        ("what", "What {is} {x}?", "overview definition purpose"),
        ("how", "How {does} {x} work?", "how works design mechanism process steps"),
        (
            "limits",
            "What are the benefits and limits of {x}?",
            "benefits limits limitations drawbacks trade-offs",
        ),
        (
            "comparison",
            "How {does} {x} compare with alternatives?",
            "compared alternatives versus differs instead",
        ),
        ("current", "What is the current state of {x}?", "current state recent developments status"),
    ],
    "zh": [
        ("what", "{x}是什么？", "overview definition 定义 概念"),
        ("how", "{x}如何工作？", "how works design mechanism 原理 机制"),
        ("limits", "{x}有哪些优点与局限？", "benefits limitations 优点 局限"),
        ("comparison", "{x}与其他方案相比如何？", "comparison alternatives 比较 替代"),
        ("current", "{x}的现状如何？", "current state recent developments 现状 进展"),
    ],
}


_CJK = re.compile(r"[\u3400-\u9fff]")


def keyphrases(text: str, limit: int = 5) -> list[str]:
    """The distinct content words of a text, in order (what search queries are built from)."""
    seen: list[str] = []
    for word in content_words(text):
        if word not in seen:
            seen.append(word)
    return seen[:limit]


def query_words(topic: str) -> str:
    """The topic's words for a search query; Chinese keeps its phrases whole (single characters match
    everything), the search providers segment them."""
    if _CJK.search(topic):
        return " ".join(topic_phrases(topic, in_topic_order=True, limit=8)) or topic
    return " ".join(keyphrases(topic)) or topic


def facet_questions(topic: str, *, lang: str = "en", quick: bool = False) -> list[tuple[str, str, str]]:
    """(facet, sub-question, query) for the heuristic plan. A topic that is itself a question is asked as
    written first; the facets then ask about its key phrase, never in words that fit any topic."""
    subject = plan_subject(topic)
    table = _FACETS.get(lang, _FACETS["en"])
    words = query_words(topic)
    asked = asked_as_written(topic)
    if len(asked) > 1:  # the topic says which aspects it asks about: no template of generic facets too
        table = table[:1]
    plural = is_plural(subject)
    generic = []
    for facet, question, extra in table if subject else []:
        if lang == "zh":
            text = _ask(question, subject, lang)
        else:
            text = question.format(
                x=subject, **{"is": "are" if plural else "is", "does": "do" if plural else "does"}
            )
        if not _same_question(text, topic):  # "向量数据库如何工作" already asks how it works
            generic.append((facet, text, f"{words} {extra}"))
    return definition_first(asked, generic)[: 3 if quick else 5]


def definition_first(
    asked: list[tuple[str, str, str]], facets: list[tuple[str, str, str]]
) -> list[tuple[str, str, str]]:
    """The outline in reading order: what the subject is, then the questions the topic asks as written, then
    the other facets (a report on "How X keeps Y fresh" says what X is before how it keeps anything)."""
    what = [q for q in facets if q[0] == "what"]
    named = {facet for facet, _, _ in asked}
    return [*what, *asked, *(q for q in facets if q[0] != "what" and q[0] not in named)]


def asked_as_written(topic: str) -> list[tuple[str, str, str]]:
    """(facet, sub-question, query) for a topic that is itself a question: asked as written, or once per
    aspect it joins ("How X keeps Y trustworthy and fresh" asks how X keeps Y trustworthy, and fresh);
    [] for a topic that names a subject."""
    if not asked_subject(topic):
        return []
    aspects = topic_aspects(topic)
    if not aspects:
        return [(asked_facet(topic), topic.strip(), query_words(topic))]
    return [("aspect", aspect, query_words(aspect)) for aspect in aspects]


# what a Chinese question asks by its verb: "表单联动怎么实现" how it works, "FormDialog 怎么用" how it is used
_ZH_ASKED_FACETS = (
    ("use", re.compile(r"(?:怎么|如何|怎样)(?:使用|用|调用|配置|设置)")),
    ("how", re.compile(r"(?:怎么|如何|怎样)(?:实现|工作|运作|运行)|原理")),
)


# and an English one: "How does Alpenglow consensus work?" asks how it works, and was answered as what
# Alpenglow is while its proposal's "## Detailed Design / ### Voting / ### Certificates" stood unused
_EN_ASKED_FACETS = (
    (
        "use",
        re.compile(
            r"^how\s+(?:do|can|should)\s+(?:you|i|we|one)\s+(?:use|configure)\b|^how\s+to\s+use\b", re.I
        ),
    ),
    ("how", re.compile(r"^how\s+(?:does|do|did)\s+.+\s+(?:work|operate|function)\s*[?？]?\s*$", re.I)),
)


def asked_facet(topic: str) -> str:
    """The facet a topic asked as a question names by its verb ("use", "how"), else "topic" (answered as
    what the subject is): its section takes that facet's place in the outline, which asks it once."""
    asking = (*_ZH_ASKED_FACETS, *_EN_ASKED_FACETS)
    return next((facet for facet, verb in asking if verb.search(topic.strip())), "topic")


@dataclass(frozen=True)
class DocumentOutline:
    """What a first search says a top document is about: its title, its own section headings, its status."""

    title: str
    headings: tuple[str, ...] = ()
    status: str = ""
    date: str = ""
    caveats: bool = False  # it marks a caveat ("注意：…", "特别说明：" and its points) outside any heading
    # its "Implementation" headings whose sections say how its design works (implementation_sections.py)
    designs: tuple[str, ...] = ()


# The outline's facets, in report order: "what" is always asked; the others only when a top document has a
# section the heading table (headings.py) maps to one (or, for "current", when the documents are dated and one
# states its status: a date alone says when a proposal was written, not where its subject stands, and "What is
# the current state of soft memory limit?" went unanswered).


_OUTLINE_QUESTIONS = {
    "en": {
        "what": ("What {is} {x}?", "definition purpose"),
        "motivation": ("Why {does} {x} matter?", "motivation rationale problem"),
        "how": ("How {does} {x} work?", "specification design how works"),
        "use": ("How do you work with {x}?", "usage example how to"),
        "limits": ("What are the limits of {x}?", "limitations caveats drawbacks"),
        "alternatives": ("What alternatives to {x} were considered?", "alternatives rejected ideas compared"),
        "current": ("What is the current state of {x}?", "current status recent changes"),
    },
    "zh": {
        "what": ("{x}是什么？", "definition purpose 定义"),
        "motivation": ("{x}为什么重要？", "motivation rationale 动机"),
        "how": ("{x}如何工作？", "specification design 原理 机制"),
        "use": ("如何使用{x}？", "usage example 用法 示例"),
        "limits": ("{x}有哪些局限？", "limitations caveats 局限"),
        "alternatives": ("{x}有哪些替代方案？", "alternatives rejected 替代 比较"),
        "current": ("{x}的现状如何？", "current status 现状 进展"),
    },
}
MIN_DATED = 2  # documents stating a date: with this many, "current state" is asked of the newest


def outline_facets(outlines: Sequence[DocumentOutline], topic: str = "") -> dict[str, list[str]]:
    """Facet → the top documents' headings that answer it, in report order ("what" always first). Only the
    sections of the documents on the topic say which questions their sources answer (`lends_facets`), and
    a document's own title, a section number and a frame ("References") say none."""
    found: dict[str, list[str]] = {"what": []}
    sections = [
        (
            o,
            [h for h in map(unnumbered, map(facet_words, o.headings)) if h.strip() != o.title.strip()],
            {unnumbered(facet_words(h)) for h in o.designs},
        )
        for n, o in enumerate(outlines)
        if lends_facets(n, o, topic)
    ]
    # the analyst reads them by the same table
    named = [
        (h, {"how"} if h in designs else facets)
        for o, headings, designs in sections
        for h, facets in zip(
            headings,
            outline_heading_facets(
                headings, record=decision_record(o.headings), proposal=design_proposal(o.headings)
            ),
            strict=True,
        )
        if not _BACK_MATTER.match(h.strip())
    ]
    for facet in FACETS[1:]:
        headings = [h for h, facets in named if facet in facets]
        if headings:
            found[facet] = list(dict.fromkeys(headings))
    if sum(1 for o in outlines if o.date) >= MIN_DATED and any(o.status for o in outlines):
        found.setdefault("current", [])
    return found


def lends_facets(n: int, outline: DocumentOutline, topic: str) -> bool:
    """Whether the n-th top document's sections may add questions to the outline: the first found always,
    another when its title names every content word of the topic. The primer of a specification has a
    "Prior Art" section, which says nothing of the specification's HTTP binding ("CloudEvents over HTTP")."""
    if n == 0 or not topic:
        return True
    return set(tokens(topic)) <= set(tokens(outline.title))


def body_headings(outline: DocumentOutline) -> list[str]:
    """A document's headings that name no facet and do not frame it ("Setting up the dev server", "源码结构")."""
    return [h for h in outline.headings if not heading_facets(h) and not _FRAME_HEADING.match(h.strip())]


def outline_questions(
    topic: str, outlines: Sequence[DocumentOutline], *, lang: str = "en", quick: bool = False
) -> list[tuple[str, str, str]]:
    """(facet, sub-question, query) from the outlines of the top documents: "What is X?", the facets their
    headings answer, then, while the outline is short, the top documents' own sections about the topic
    ("Subscribing to Signals"). A topic that is itself a question is asked as written first. [] when there
    is no outline (the template plan then asks)."""
    subject = plan_subject(topic)
    facets = outline_facets(outlines, topic)
    sections = topic_sections(topic, outlines)
    if len(sections) < 2 and any(len(body_headings(o)) >= 2 for o in outlines):
        # a guide says how its subject works section by section, under any name ("源码结构", "设置开发服务器")
        facets.setdefault("how", [])
        facets = {facet: facets[facet] for facet in FACETS if facet in facets}
    if not subject or len(facets) + len(sections) < 2:
        return []
    # a top document's caveats are its limits though no heading names them: asked past the sections the
    # outline fills up to, so that no section of the document's own gives way to them ("内置中间件")
    cautioned = "limits" not in facets and any(
        o.caveats for n, o in enumerate(outlines) if lends_facets(n, o, topic)
    )
    if cautioned:
        facets["limits"] = []
        facets = {facet: facets[facet] for facet in FACETS if facet in facets}
    table = _OUTLINE_QUESTIONS.get(lang, _OUTLINE_QUESTIONS["en"])
    words = query_words(topic)
    generic = []
    for facet in facets:  # searched with the facet's words: a heading's own words would narrow retrieval
        question, extra = table[facet]
        text = _ask(question, subject, lang)
        if not _same_question(text, topic):
            generic.append((facet, text, " ".join(filter(None, [words, extra]))))
    written = asked_as_written(topic)
    asked = definition_first(written, generic)
    # the aspects a topic asks by name ("Kratos 中间件怎么注册和自定义": 注册, 自定义) are one question of the
    # outline: the facets and sections after them keep their places (its limits, its "内置中间件")
    beyond = max(0, len(written) - 1)
    room = int(cautioned and any(facet == "limits" for facet, _, _ in generic))  # the caveats' question
    fill = OUTLINE_SIZE + beyond + room
    for heading in sections[: max(0, fill - len(asked))]:
        text = heading if lang == "en" else f"{subject}：{heading}"
        asked.append(
            ("section", text, " ".join(dict.fromkeys([*words.split(), *query_words(heading).split()])))
        )
    return asked[: (3 if quick else 6 + room) + beyond]


OUTLINE_SIZE = 4  # sub-questions the outline fills up to with the top documents' own sections
# headings that frame a document rather than say anything about its subject
_FRAME_HEADING = re.compile(
    r"^(?:abstract|summary|introduction|overview|contents|table of contents|references?|footnotes?|notes?"
    r"|copyright|licen[cs]e|acknowledg\w*|credits|see also|further reading|resources|links|appendix\b.*"
    r"|changelog|changes|version history|faq|conclusions?|discussion|todo|open issues)$",
    re.I,
)


# a document's back matter and furniture: "References" lists other documents, it is no reference section
_BACK_MATTER = re.compile(
    r"^(?:contents|table of contents|references?|footnotes?|copyright|licen[cs]e|acknowledg\w*|credits"
    r"|see also|further reading|resources|links)$",
    re.I,
)
_WORDY_HEADING = re.compile(r"[^\W\d_][\w'’&,:/ -]*", re.UNICODE)


def topic_sections(topic: str, outlines: Sequence[DocumentOutline]) -> list[str]:
    """The top documents' own section headings that name one of the topic's content words (and answer none
    of the outline's facets): what those documents say about the topic, section by section. Only a document
    titled after the topic (half its words, or the first found) lends its sections: "The Root Command" of
    "Complex Applications" is no question of "testing command line applications"."""
    topic_words = _heading_words(topic)
    found: list[tuple[bool, str]] = []
    for n, outline in enumerate(outlines):
        titled = _heading_words(outline.title) & topic_words
        if n and 2 * len(titled) < len(topic_words):
            continue
        for heading in map(unnumbered, outline.headings):
            words = _heading_words(heading)
            if heading_facets(heading) or _FRAME_HEADING.match(heading.strip()) or not words & topic_words:
                continue
            if not _WORDY_HEADING.fullmatch(heading.strip()):
                continue  # "@pytest.mark.parametrize", "get_app()": a name, not a section a reader asks about
            if words == topic_words or _same_question(heading, outline.title):
                continue  # the topic's or the document's own name again: no question of its own
            found.append((not words < topic_words, fit(heading, 120)))
    # a section named by part of the topic is where a document treats it ("Sampling" of "Tracing SDK" for
    # trace sampling, "Lifecycle" and "Operations" for container lifecycle and runtime operations): first
    return list(dict.fromkeys(heading for _, heading in sorted(found, key=lambda item: item[0])))


def _heading_words(text: str) -> set[str]:
    """The words a heading shares with the topic: English without a plural's "s", Chinese as words (jieba),
    never as single characters ("设置开发服务器", setting up the dev server, shares 服务 with 服务端渲染 and
    is no section about server-side rendering)."""
    found: set[str] = set()
    for piece in re.split(f"({cjk.CJK_RUN.pattern})", text):
        if cjk.CJK_RUN.fullmatch(piece):
            found.update(w for w in cjk.words(piece) if w not in ZH_STOPWORDS)
        else:
            found.update(stem(w) for w in content_words(piece))
    return found


def _ask(question: str, subject: str, lang: str) -> str:
    """The facet question about `subject`, agreeing with it: "What are data classes?", and for an activity
    ("uploading files") "What does uploading files involve?"."""
    if lang == "en" and subject.split()[0].lower().endswith("ing") and len(subject.split()[0]) > 4:
        question = _ACTIVITY.get(question, question)
        return question.format(x=subject, **{"is": "is", "does": "does"})
    if lang == "zh":  # "如何使用 Kratos 中间件？", "低代码引擎自定义设置器 Setter 是什么？"
        before, _, after = question.partition("{x}")
        return joined(joined(before, subject), after) if subject else question.format(x=subject)
    plural = is_plural(subject)
    return question.format(x=subject, **{"is": "are" if plural else "is", "does": "do" if plural else "does"})


# an activity is not a thing: it is not "used" and does not "work", it is done
_ACTIVITY = {
    "What {is} {x}?": "What does {x} involve?",
    "How do you work with {x}?": "How is {x} done?",
    "Why {does} {x} matter?": "Why does {x} matter?",
    "How {does} {x} work?": "How does {x} work?",
}


def outline_context(outlines: Sequence[DocumentOutline]) -> str:
    """The outlines as the planner model reads them: one document a line, its headings after its title."""
    lines = []
    for o in outlines:
        standing = ", ".join(filter(None, [o.status, o.date]))
        lines.append(f"- {o.title}{f' ({standing})' if standing else ''}: {' | '.join(o.headings[:20])}")
    return "\n".join(lines)


def _same_question(a: str, b: str) -> bool:
    def key(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    return key(a) == key(b)


def heuristic_plan(
    topic: str, *, lang: str = "en", quick: bool = False, outlines: Sequence[DocumentOutline] = ()
) -> Plan:
    """The no-model plan: one research step per sub-question of the sources' outline (else of the template),
    then one processing step over their sources."""
    asked = outline_questions(topic, outlines, lang=lang, quick=quick) or facet_questions(
        topic, lang=lang, quick=quick
    )
    steps = [
        Step(
            id=f"s{n}",
            title=question,
            description=f"Search for material on the '{facet}' facet of the topic.",
            question=question,
            query=query,
            facet=facet,
        )
        for n, (facet, question, query) in enumerate(asked, 1)
    ]
    if not steps:  # a topic with no key phrase at all ("how does it work?") is researched as written
        steps = [Step(id="s1", title=topic, question=topic, query=topic)]
    steps.append(
        Step(
            id=f"s{len(steps) + 1}",
            title=LABELS.get(lang, LABELS["en"])["figures_step"],  # the heading of the report's figures
            description="Tabulate the numbers the sources report about the topic.",
            step_type="processing",
            depends_on=[s.id for s in steps],
            query=query_words(topic),
        )
    )
    return Plan(topic=topic, sub_queries=[s.question for s in steps if s.question], steps=steps)


# --------------------------------------------------------------------------- model plan


class StepDraft(BaseModel):
    id: str | None = None
    title: OneLine = Field(min_length=3)
    description: str = ""
    step_type: Literal["research", "processing"] = "research"
    depends_on: list[str] = Field(default_factory=list)
    question: OneLine = ""
    query: OneLine = ""
    facet: str = Field(default="", max_length=40)


class PlanDraft(BaseModel):
    """What the planner model must return."""

    sub_queries: list[str] = Field(min_length=1, max_length=MAX_SUB_QUERIES)
    steps: list[StepDraft] = Field(min_length=1, max_length=MAX_STEPS)
    has_enough_context: bool = True

    @field_validator("sub_queries", mode="before")
    @classmethod
    def _trim_questions(cls, value: Any) -> Any:
        # a model that asks too much is cut to the plan's size rather than thrown away
        if isinstance(value, list):
            return [fit(q) if isinstance(q, str) else q for q in value[:MAX_SUB_QUERIES]]
        return value

    @field_validator("steps", mode="before")
    @classmethod
    def _trim_steps(cls, value: Any) -> Any:
        return value[:MAX_STEPS] if isinstance(value, list) else value


PLAN_SYSTEM = (
    "You are the planner of a research team. Decompose the topic into sub-questions and a plan of steps. "
    "Research steps search for sources; processing steps compute tables or charts from numbers found by "
    "research steps and depend on them. Reply with JSON only."
)


def plan_prompt(topic: str, *, lang: str, quick: bool, context: str = "", outline: str = "") -> Prompt:
    limit = 3 if quick else 6
    found = (
        "\nThe documents a first search found most about the topic, with their own section headings (ask "
        "what they answer: what it is first, then their motivation, specification, usage, limits, rejected "
        f"ideas; a rejected or superseded one never says how it works):\n{outline[:3000]}\n"
        if outline
        else ""
    )
    user = (
        f"Topic: {topic}\nLanguage of the sub-questions: {lang}\n{found}"
        f'Return JSON: {{"sub_queries": [...], "steps": [{{"id": "s1", "title": ..., "description": ..., '
        f'"step_type": "research"|"processing", "depends_on": [step ids], "question": one of sub_queries, '
        f'"query": search keywords, "facet": "what"|"motivation"|"how"|"use"|"limits"|"alternatives"|"current"}}], '
        f'"has_enough_context": true|false}}. At most {limit} research steps.'
    )
    if context:
        user += f"\n\nWhat the previous steps found (plan only what is still missing):\n{context[:4000]}"
    return Prompt(user=user, system=PLAN_SYSTEM, max_tokens=2000, json_mode=True, stage="plan")


def model_plan(
    provider: Provider, topic: str, *, lang: str, quick: bool, outline: str = ""
) -> tuple[Plan | None, list[str]]:
    """Ask the model for a plan; (None, notes) when its reply is unusable even after one repair."""
    prompt = plan_prompt(topic, lang=lang, quick=quick, outline=outline)
    draft, notes = complete_json(provider, prompt, PlanDraft)
    if draft is None:
        return None, notes
    try:
        return plan_from_draft(topic, draft), notes
    except UsageError as exc:
        return None, [*notes, f"model plan rejected: {exc.message}"]


def plan_from_draft(topic: str, draft: PlanDraft, *, prefix: str = "s", start: int = 1) -> Plan:
    ids = [f"{prefix}{n}" for n in range(start, start + len(draft.steps))]
    given = {d.id: ids[i] for i, d in enumerate(draft.steps) if d.id}
    steps = []
    for i, d in enumerate(draft.steps):
        deps = [given.get(dep, dep) for dep in d.depends_on]
        steps.append(
            Step(
                id=ids[i],
                title=d.title,
                description=d.description,
                step_type=d.step_type,
                depends_on=[dep for dep in deps if dep in ids[:i]],
                question=d.question or d.title,
                query=d.query or d.question or d.title,
                facet=d.facet if d.facet in FACETS else "",
            )
        )
    plan = Plan(
        topic=topic,
        sub_queries=draft.sub_queries,
        steps=steps,
        has_enough_context=draft.has_enough_context,
        origin="llm",
    )
    return validate_plan(plan.model_dump(), where="model plan")


def make_plan(
    provider: Provider, topic: str, *, lang: str, quick: bool, outlines: Sequence[DocumentOutline] = ()
) -> Plan:
    """The model's plan when it gives a usable one, else the heuristic plan (the notes say why); both read
    the outlines of the documents a first search found."""
    if provider.offline:
        return heuristic_plan(topic, lang=lang, quick=quick, outlines=outlines)
    plan, notes = model_plan(provider, topic, lang=lang, quick=quick, outline=outline_context(outlines))
    if plan is not None:
        plan, refused = checked_outline(plan, lang=lang)
        notes = [*notes, *refused]
    if plan is None:
        fallback = heuristic_plan(topic, lang=lang, quick=quick, outlines=outlines)
        fallback.notes = [*notes, "used the heuristic plan"]
        return fallback
    plan.notes = notes
    return plan


def checked_outline(plan: Plan, *, lang: str, keep: int = MIN_KEPT) -> tuple[Plan | None, list[str]]:
    """The model's plan without the research steps whose question cannot head a section (topic/outline.py),
    and notes naming each one refused; None when fewer than `keep` research steps are left (the caller then
    takes the outline from the sources)."""
    notes, dropped = [], set()
    for step in plan.steps:
        if step.step_type == "processing":
            continue
        problem = question_problem(step.question, plan.topic, lang)
        if problem:
            notes.append(f"model outline: refused {fit(step.question, 80)!r} ({problem})")
            dropped.add(step.id)
    asked = {s.question for s in plan.steps if s.id not in dropped and s.step_type != "processing"}
    steps = [s for s in plan.steps if s.id not in dropped]
    for step in steps:
        step.depends_on = [d for d in step.depends_on if d not in dropped]
    steps = [s for s in steps if s.step_type != "processing" or s.depends_on or not dropped]
    if sum(1 for s in steps if s.step_type != "processing") < keep:
        return None, [
            *notes,
            "model outline: too few usable questions left; the outline comes from the sources",
        ]
    questions = [q for q in plan.sub_queries if q in asked] or list(dict.fromkeys(asked))
    return plan.model_copy(update={"steps": steps, "sub_queries": questions}), notes


def replan(provider: Provider, plan: Plan, context: str, *, lang: str, quick: bool) -> None:
    """Append the model's follow-up steps (the dispatcher's re-plan). Without usable ones the plan is final."""
    plan.iteration += 1
    if provider.offline:
        plan.has_enough_context = True
        return

    prompt = plan_prompt(plan.topic, lang=lang, quick=quick, context=context)
    draft, notes = complete_json(provider, prompt, PlanDraft)
    plan.notes.extend(notes)
    plan.has_enough_context = True
    if draft is None:
        return
    try:
        extra = plan_from_draft(plan.topic, draft, prefix=f"r{plan.iteration}-")
    except UsageError as exc:
        plan.notes.append(f"re-plan rejected: {exc.message}")
        return
    checked, refused = checked_outline(extra, lang=lang, keep=1)
    plan.notes.extend(refused)
    if checked is None:
        return
    extra = checked
    plan.steps.extend(extra.steps)
    plan.sub_queries.extend(q for q in extra.sub_queries if q not in plan.sub_queries)
    plan.has_enough_context = draft.has_enough_context
