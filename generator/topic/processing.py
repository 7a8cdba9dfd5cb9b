"""The processing role: tables and charts from a validated declarative spec, over numbers found in the sources.

A spec is data ({kind: table|pie|bar, title, unit, rows: [{label, value, source}]}). Every row must cite a
stored raw source whose text contains that number, or it is dropped. Model-written code is never executed:
the model may only fill in a spec, and deepkb renders it (markdown table, mermaid pie / xychart-beta).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from ..errors import ProviderError
from ..llm.base import Prompt, Provider
from ..site.text import code_block, md_inline
from ..summarize import content_words, rank_sentences
from .dispatch import StepOutcome
from .plan import Step
from .workspace import RawSource

MAX_ROWS = 12


class Row(BaseModel):
    label: str = Field(min_length=1, max_length=120)
    value: float
    source: str = Field(min_length=1)


class ChartSpec(BaseModel):
    kind: Literal["table", "pie", "bar"] = "table"
    title: str = Field(min_length=1, max_length=120)
    unit: str = Field(default="", max_length=20)
    rows: list[Row] = Field(min_length=1, max_length=40)


def number_in_text(value: float, text: str) -> bool:
    """Does `text` state this number (1234 also as 1,234; 12.0 as 12)?"""
    plain = text.replace(",", "")
    forms = {f"{value:g}", f"{value:.1f}", f"{value:.2f}"} if value != int(value) else {str(int(value))}
    return any(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d]|\.\d)", plain) for f in forms)


def validate_spec(data: Any, sources: dict[str, RawSource]) -> tuple[ChartSpec | None, list[str]]:
    """The spec with only the rows whose number appears in their cited source's text."""
    try:
        spec = ChartSpec.model_validate(data)
    except ValidationError as exc:
        return None, [f"spec rejected: {exc.errors()[0]['msg']}"]
    notes, rows = [], []
    for row in spec.rows:
        source = sources.get(row.source)
        if source is None:
            notes.append(f"dropped '{row.label}': cites unknown source '{row.source}'")
        elif not number_in_text(row.value, source.text):
            notes.append(f"dropped '{row.label}': {row.value:g} does not appear in {row.source}")
        else:
            rows.append(row)
    if not rows:
        return None, [*notes, "no row survived validation"]
    if spec.kind == "pie" and any(r.value < 0 for r in rows):
        spec.kind = "table"  # a pie of negative numbers is meaningless
    return spec.model_copy(update={"rows": rows[:MAX_ROWS]}), notes


# --------------------------------------------------------------------------- building a spec

_FIGURE = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(%|percent|ms|s|x|GB|MB|KB|k)?(?![\w.]\d)"
)
_YEAR = re.compile(r"^(?:19|20)\d{2}$")


def lexical_spec(step: Step, sources: list[RawSource]) -> dict[str, Any] | None:
    """Offline: the figures in the sentences most relevant to the step, each labelled by its context words."""
    rows: list[dict[str, Any]] = []
    for source in sources:
        for ranked in rank_sentences(source.text, focus=step.search_text())[:8]:
            row = _row_from_sentence(ranked.text, source.id)
            if row and all(r["label"] != row["label"] for r in rows):
                rows.append(row)
            if len(rows) >= MAX_ROWS:
                break
    if not rows:
        return None
    return {"kind": "table", "title": step.title, "unit": "", "rows": rows}


def _row_from_sentence(sentence: str, source_id: str) -> dict[str, Any] | None:
    for match in _FIGURE.finditer(sentence):
        number, unit = match.group(1), match.group(2) or ""
        if _YEAR.match(number) and not unit:
            continue  # a year is a date, not a figure
        if sentence[max(0, match.start() - 1) : match.start()] == "(" or (
            float(number.replace(",", "")) <= 1 and not unit
        ):
            continue  # "f(1)", "step 1": an argument or an ordinal, not a measurement
        before = content_words(sentence[: match.start()])[-4:]
        label = " ".join(before) or " ".join(content_words(sentence)[:4])
        if label:
            return {
                "label": f"{label} ({unit})" if unit else label,
                "value": float(number.replace(",", "")),
                "source": source_id,
            }
    return None


def model_spec(
    provider: Provider, step: Step, sources: list[RawSource]
) -> tuple[dict[str, Any] | None, list[str]]:
    from ..llm.structured import complete_json

    lines = [
        f"[{s.id}] {r.text}"
        for s in sources
        for r in rank_sentences(s.text, focus=step.search_text())[:6]
        if _FIGURE.search(r.text)
    ]
    if not lines:
        return None, ["no sentence with a number"]
    prompt = Prompt(
        user=f"Task: {step.title}\n{step.description}\n\nSentences with figures (source id in brackets):\n"
        + "\n".join(lines[:60])
        + '\n\nReply JSON: {"kind": "table"|"pie"|"bar", "title": ..., "unit": ..., "rows": [{"label": ..., '
        '"value": number, "source": source id}]}. Use only numbers stated in the sentences.',
        system="You turn figures from sources into a chart specification. Never write code.",
        max_tokens=1500,
        json_mode=True,
        stage="processing",
    )
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


# --------------------------------------------------------------------------- rendering

Cite = Callable[[str], str]  # raw source id → rendered citation ("[3]" link) or "" when unresolved


def render_spec(spec_data: dict[str, Any], cite: Cite, *, headers: tuple[str, str, str]) -> str:
    """A markdown table (always) plus a mermaid chart for pie/bar specs. Labels are escaped data."""
    spec = ChartSpec.model_validate(spec_data)
    head = f"| {headers[0]} | {headers[1]} | {headers[2]} |\n|---|---:|---|"
    rows = [
        f"| {md_inline(r.label, 120)} | {r.value:g}{md_inline(spec.unit, 20)} | {cite(r.source)} |"
        for r in spec.rows
    ]
    parts = [head + "\n" + "\n".join(rows)]
    if spec.kind == "pie":
        body = "\n".join(f'    "{_mermaid_label(r.label)}" : {r.value:g}' for r in spec.rows)
        parts.append(code_block(f"pie title {_mermaid_label(spec.title)}\n{body}", "mermaid"))
    elif spec.kind == "bar":
        labels = ", ".join(f'"{_mermaid_label(r.label)}"' for r in spec.rows)
        values = ", ".join(f"{r.value:g}" for r in spec.rows)
        chart = f'xychart-beta\n    title "{_mermaid_label(spec.title)}"\n    x-axis [{labels}]\n    bar [{values}]'
        parts.append(code_block(chart, "mermaid"))
    return "\n\n".join(parts)


def _mermaid_label(text: str) -> str:
    """Mermaid labels are rendered by a script in the browser: keep letters, digits and plain punctuation only."""
    return re.sub(r"[^\w .,%+-]", " ", text, flags=re.UNICODE).strip()[:40] or "item"
