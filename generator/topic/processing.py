"""The processing role: tables and charts from a validated declarative spec, over numbers found in the sources.

Every row of a spec (kind, title, unit, rows of label, value, source, quote) must cite a stored source in
which the number is a measured quantity, not an identifier, version or year, or it is dropped and counted.
Model-written code is never run: the model only fills in a spec, which the page layer renders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from pydantic import BaseModel, Field, ValidationError

from ..errors import ProviderError
from ..jsontypes import StoredObject
from ..llm.base import Prompt, Provider
from ..llm.structured import complete_json
from ..llm.window import context_window, fit_entries
from ..retrieval.scoring import Fields
from ..summarize import rank_sentences
from ..text.sentences import split_sentences
from ..text.words import STOPWORDS
from . import bounds
from .defining import about_subject
from .dispatch import StepOutcome
from .judge import RelevanceJudge
from .plan import Step
from .sentences import is_changelog, quotable
from .topic_point import point_shares, sentence_statistics
from .workspace import RawSource

MAX_ROWS = 12
FIGURE_POINT = 0.3  # share of the best figure sentence's topic weight a figure's sentence must carry


class Row(BaseModel):
    label: bounds.Label
    value: float = Field(allow_inf_nan=False)  # NaN, Infinity and 1e400 are no figure: the spec is refused
    source: str = Field(min_length=1, max_length=200)
    unit: bounds.Unit = ""  # this row's own unit, when rows differ
    quote: bounds.Quote = ""  # the sentence that states the figure


class RowData(TypedDict):
    """A row as the offline processor writes it, before ChartSpec validates it like a model's."""

    label: str
    value: float
    unit: str
    source: str
    quote: str


class ChartSpec(BaseModel):
    kind: Literal["table", "pie", "bar"] = "table"
    title: bounds.Label
    unit: bounds.Unit = ""
    rows: list[Row] = Field(min_length=1, max_length=40)
    rejected: int = 0  # rows dropped because their number is not a measured quantity in their source


def number_in_text(value: float, text: str) -> bool:
    """Does `text` state this number (1234 also as 1,234; 12.0 as 12)?"""
    plain = text.replace(",", "")
    forms = {f"{value:g}", f"{value:.1f}", f"{value:.2f}"} if value != int(value) else {str(int(value))}
    return any(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d]|\.\d)", plain) for f in forms)


def measured_in(value: float, text: str) -> str | None:
    """The sentence of `text` where `value` is a measured quantity (a unit or a count of things), or None
    when the text states it only as an identifier, a version, a year or a section number."""
    for sentence in split_sentences(text):
        if any(abs(f.value - value) < 1e-9 for f in measured_figures(sentence)):
            return " ".join(sentence.split())
    return None


def validate_spec(data: Any, sources: dict[str, RawSource]) -> tuple[ChartSpec | None, list[str]]:
    """The spec with only the rows whose number is a measured quantity in their cited source's text."""
    try:
        spec = ChartSpec.model_validate(_trimmed(data))
    except ValidationError as exc:
        return None, [f"spec rejected: {exc.errors()[0]['msg']}"]
    notes, rows = [], []
    for row in spec.rows:
        source = sources.get(row.source)
        quote = measured_in(row.value, source.text) if source else None
        if source is None:
            notes.append(f"dropped '{row.label}': cites unknown source '{row.source}'")
        elif not number_in_text(row.value, source.text):
            notes.append(f"dropped '{row.label}': {row.value:g} does not appear in {row.source}")
        elif quote is None:
            notes.append(f"dropped '{row.label}': {row.value:g} is not a measured quantity in {row.source}")
        else:
            rows.append(row.model_copy(update={"quote": row.quote or quote[:600]}))
    rejected = spec.rejected + len(spec.rows) - len(rows)
    if not rows:
        return None, [*notes, "no row survived validation"]
    if spec.kind == "pie" and any(r.value < 0 for r in rows):
        spec.kind = "table"  # a pie of negative numbers is meaningless
    return spec.model_copy(update={"rows": rows[:MAX_ROWS], "rejected": rejected}), notes


def _trimmed(data: Any) -> Any:
    """A model's spec with at most 40 rows (the text fields trim themselves: topic/bounds.py)."""
    if isinstance(data, dict) and isinstance(data.get("rows"), list):
        return {**data, "rows": data["rows"][:40]}
    return data


# --------------------------------------------------------------------------- what counts as a figure

_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?!\d|[.,]\d)")
# seed: figures are quantities with a unit; these are the units and multipliers we recognise after a number
_UNIT = re.compile(
    r"""\s?(%|percent\b|per\ cent\b|×|x\b|times\b|-?fold\b
    |[µu]s\b|ns\b|ms\b|milliseconds?\b|microseconds?\b|seconds?\b|secs?\b|s\b|minutes?\b|mins?\b|hours?\b|h\b|days?\b|weeks?\b
    |[kKMGT]i?B\b|bytes?\b|bits?\b|[kMG]?Hz\b|[kMG]?bps\b|qps\b|rps\b|ops/s\b|req(?:uests)?/s\b|fps\b
    |k\b|K\b|M\b|million\b|billion\b|thousand\b|dollars?\b|USD\b|€|kg\b|km\b|cm\b|mm\b|m\b)""",
    re.VERBOSE,
)
_CURRENCY = re.compile(r"[$€£]\s?$")
_COUNTED = re.compile(r"\s(?:[a-z][a-z-]+\s)?([a-z][a-z-]{2,}s)\b")  # "40 packages", "3 worker threads"
# a number right after one of these words names something (PEP 484, section 3, version 2), it measures nothing
_IDENTIFIER_WORD = re.compile(
    r"""(?:\b(?:pep|peps|rfc|issue|issues|bug|bpo|gh|pr|section|sections|chapter|version|versions|release|python
    |figure|fig|table|step|item|line|lines|page|pages|no|nr|number|id|appendix|part|level|phase|stage|option
    |example|rule|article|clause|paragraph|type|class|mode|port|iso|utf|http|ipv|draft|revision|rev|build|patch
    |sprint|milestone)|[#§])\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_NAME_BEFORE = re.compile(r"\b[A-Z][\w+-]*\s$")  # "Django 4 apps": a product and its version
_YEAR = re.compile(r"^(?:1[89]|20)\d{2}$")
_NOT_COUNTS = frozenset({"years", "versions", "releases", "sections", "peps", "issues", "items", "steps"})


@dataclass(frozen=True)
class Figure:
    value: float
    unit: str
    label: str  # the clause of the sentence that says what the number measures


def measured_figures(sentence: str) -> list[Figure]:
    """Numbers the sentence states as measured quantities: with a unit (%, ms, MB, ×, …), a currency, or as a
    count of things ("40 packages"). Identifiers, versions, years, section and document numbers are not."""
    found = []
    for match in _NUMBER.finditer(sentence):
        text, before, after = match.group(1), sentence[: match.start()], sentence[match.end() :]
        if "." in text.replace(",", "") and text.count(".") > 1 or re.match(r"\.\d", after):
            continue  # 3.11.2: a version
        if after[:1].isalnum() and not _UNIT.match(after):
            continue  # 2nd, 64bit-like names, x86: part of a word
        unit = _unit_after(after) or ("$" if _CURRENCY.search(before) else "")
        if unit == "count" and "." in text:
            continue  # "3.1 things" counts nothing: a count is a whole number
        if not unit or _identifier_before(before, unit) or _subject_number(before, after, unit):
            continue
        if _YEAR.match(text) and unit in ("", "count"):
            continue  # a year is a date, not a figure
        value = float(text.replace(",", ""))
        found.append(Figure(value, "" if unit == "count" else unit, _clause(sentence, match.start())))
    return found


def _unit_after(after: str) -> str:
    unit = _UNIT.match(after)
    if unit:
        return unit.group(1).strip()
    counted = _COUNTED.match(after)
    if counted and counted.group(1).lower() not in _NOT_COUNTS | STOPWORDS:
        return "count"
    return ""


def _identifier_before(before: str, unit: str) -> bool:
    if before.endswith(("(", "[", "-", "_", "/", ".", "v", "V")):
        return True  # f(1), item-3, a/2, v2: an argument or a name
    if _IDENTIFIER_WORD.search(before):
        return True
    return unit == "count" and bool(_NAME_BEFORE.search(before))


_VERB_AFTER = re.compile(r"\s+[a-z]+ed\s")


def _subject_number(before: str, after: str, unit: str) -> bool:
    """A number opening its sentence and followed by a verb names the subject ("557 added dataclasses…": a
    document number); "40 compressed files" inside a sentence still counts."""
    return unit == "count" and not before.strip() and bool(_VERB_AFTER.match(after))


def _clause(sentence: str, at: int) -> str:
    """The clause around position `at`: what the number is about, in the source's own words."""
    start = max(sentence.rfind(sep, 0, at) for sep in (", ", "; ", ": ", " (", " – ", " — "))
    ends = [i for sep in (", ", "; ", ". ", " (", " – ", " — ") if (i := sentence.find(sep, at)) >= 0]
    clause = sentence[start + 1 if start >= 0 else 0 : min(ends) if ends else len(sentence)]
    return " ".join(clause.split()).strip(" ,;:.()–—")[:120] or " ".join(sentence.split())[:120]


# --------------------------------------------------------------------------- building a spec


def lexical_spec(step: Step, sources: list[RawSource]) -> StoredObject | None:
    """Offline: the measured figures in the sentences most relevant to the step, each labelled by its clause.
    Only sentences on the topic's point count (topic_point.point_shares), and never a changelog's. When some
    stored documents are about the topic (titled after it, or opening with it), only theirs: "Augmented
    Assignments" counting "13 new bytecodes" is no figure of assignment expressions."""
    topic = RelevanceJudge(step.search_text())
    sources = [s for s in sources if about_subject(s.title, s.text, topic.topic, topic)] or sources
    found = [
        (source, " ".join(r.text.split()))
        for source in sources
        if not is_changelog(source.title, source.url)
        for r in rank_sentences(source.text, focus=step.search_text())[:8]
        if measured_figures(r.text) and quotable(" ".join(r.text.split()))
    ]
    if not found:
        return None
    judge = RelevanceJudge(step.search_text())
    # how rare each word is in everything stored, not only in these sentences
    sentence_statistics(judge, sources)
    verdicts = judge.judge([(f"{s.id}#{n}", Fields("", "", text)) for n, (s, text) in enumerate(found)], "")
    rows: list[RowData] = []
    # a source already judged relevant may state a figure while naming only part of the topic
    shares = point_shares(judge, [v.topic for v in verdicts], share=FIGURE_POINT)
    for (source, sentence), on_point in zip(found, shares, strict=True):
        if not on_point:
            continue
        for figure in measured_figures(sentence):
            if all(
                (r["value"], r["unit"].rstrip("s"), r["source"])
                != (figure.value, figure.unit.rstrip("s"), source.id)
                for r in rows
            ):
                # one source stating a quantity thrice: one row
                rows.append(
                    RowData(
                        label=figure.label[:120],
                        value=figure.value,
                        unit=figure.unit,
                        source=source.id,
                        quote=sentence[:600],
                    )
                )
    if not rows:
        return None
    return {"kind": "table", "title": step.title[:120], "unit": "", "rows": rows[:MAX_ROWS]}


def model_spec(
    provider: Provider, step: Step, sources: list[RawSource]
) -> tuple[StoredObject | None, list[str]]:
    lines = [
        f"[{s.id}] {r.text}"
        for s in sources
        for r in rank_sentences(s.text, focus=step.search_text())[:6]
        if measured_figures(r.text)
    ]
    if not lines:
        return None, ["no sentence with a number"]

    def ask(count: int) -> Prompt:
        return Prompt(
            user=f"Task: {step.title}\n{step.description}\n\nSentences with figures (source id in brackets):\n"
            + "\n".join(lines[:count])
            + '\n\nReply JSON: {"kind": "table"|"pie"|"bar", "title": ..., "unit": ..., "rows": [{"label": ..., '
            '"value": number, "unit": ..., "source": source id}]}. Use only numbers stated in the sentences.',
            system="You turn figures from sources into a chart specification. Never write code.",
            max_tokens=1500,
            json_mode=True,
            stage="processing",
        )

    prompt = fit_entries(ask, min(len(lines), 60), context_window(provider, "processing"))
    try:
        spec, notes = complete_json(provider, prompt, ChartSpec)
    except ProviderError as exc:
        return None, [exc.line()]
    return (spec.model_dump() if spec else None), notes


def process_step(provider: Provider, step: Step, sources: list[RawSource]) -> StepOutcome:
    """Build, validate and keep the step's spec (rendered later with the report's citation numbers)."""
    by_id = {s.id: s for s in sources}
    notes: list[str] = []
    data = None
    if not provider.offline:
        data, notes = model_spec(provider, step, sources)
    spec, problems = validate_spec(data, by_id) if data else (None, [])
    if spec is None:
        fallback = lexical_spec(step, sources)
        spec, more = (
            validate_spec(fallback, by_id) if fallback else (None, ["no figures found in the sources"])
        )
        problems += more
    result = spec.model_dump() if spec else None
    return StepOutcome(
        "done",
        sources=sorted({r.source for r in spec.rows}) if spec else [],
        notes=[*notes, *problems][:20],
        result=result,
    )
