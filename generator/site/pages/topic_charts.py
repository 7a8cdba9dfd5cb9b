"""Figures on topic pages: a validated chart spec (generator/topic/processing.py) as a markdown table, plus a
mermaid chart for pie and bar specs. Labels are data: escaped in the table, reduced to plain characters in
the chart (mermaid renders them with a script in the browser)."""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import ValidationError

from ...jsontypes import StoredObject
from ...topic.processing import ChartSpec
from ..text import Markdown, code_block, md_inline

Cite = Callable[[str], Markdown]  # raw source id → its citation link, or "" when it does not resolve


def render_spec(spec_data: StoredObject, cite: Cite, *, headers: tuple[str, str, str]) -> Markdown | None:
    """The figure's table (and chart), or None when its stored spec does not validate (a report record
    holding a non-finite value from before the schema refused one): that figure is left out."""
    try:
        spec = ChartSpec.model_validate(spec_data)
    except ValidationError:
        return None
    head = f"| {headers[0]} | {headers[1]} | {headers[2]} |\n|---|---:|---|"
    rows = [
        f"| {md_inline(r.label, 120)} | {_value(r.value, r.unit or spec.unit)} | {cite(r.source)} |"
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
    return Markdown("\n\n".join(parts))


def _value(value: float, unit: str) -> Markdown:
    """1000000 as 1,000,000 (never 1e+06), fractions as written; "12 ms", "95%", "$400"."""
    number = f"{int(value):,}" if value == int(value) else f"{value:g}"
    if unit == "$":
        return md_inline(f"${number}")
    joined = unit in ("%", "×", "x") or not unit
    return md_inline(f"{number}{unit}" if joined else f"{number} {unit}", 40)


def _mermaid_label(text: str) -> str:
    return re.sub(r"[^\w .,%+-]", " ", text, flags=re.UNICODE).strip()[:40] or "item"
