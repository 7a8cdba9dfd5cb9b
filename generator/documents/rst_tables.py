"""reST's table directives, `list-table` and `csv-table`, as the Markdown table the reST reader writes in
their place: Sphinx docs list options and settings in them as often as in grid or simple tables, and the
docs build renders them as tables. Their cells are read as data (the `csv` module), never run."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable

from .markdown import directive_options

TABLE_DIRECTIVES = frozenset({"list-table", "csv-table"})
# a list-table row opens with "* -", each further cell with "-" two columns in, under the first
_ROW = re.compile(r"^\*\s+-(?:\s+|$)(.*)$")
_CELL = re.compile(r"^  -(?:\s+|$)(.*)$")
_OPTION = re.compile(r"^\s*:[\w-]+:(?:\s|$)")


def table_directive(name: str, body: list[str], inline: Callable[[str], str]) -> list[str]:
    """The Markdown lines of a `list-table` or `csv-table` directive's `body` (its options, then its rows),
    each cell's markup through `inline`: a header (the `:header:` option, else the first `:header-rows:`
    rows) over a delimiter row and the other rows; without a header each row is a list item of its cells
    joined by " — ", as a simple table without one is. [] when there is nothing to show (a table read from a
    `:file:`)."""
    options = directive_options([line for line in body if line.strip()])
    data = _after_options(body)
    rows = _csv_rows(data, options) if name == "csv-table" else _list_rows(data)
    if "file" in options or "url" in options or not rows:
        return []
    named = _csv_rows([options["header"]], {}) if options.get("header") else []
    heads = 0 if named else int(options.get("header-rows", "0") or 0)
    header, rows = (named[0], rows) if named else (rows[0], rows[1:]) if heads else ([], rows)
    cells = [[_cell(inline, cell) for cell in row] for row in rows]
    if not header:
        return [f"- {' — '.join(c for c in row if c)}" for row in cells if any(row)]
    width = max(len(header), *(len(row) for row in cells)) if cells else len(header)
    lines = [[_cell(inline, cell) for cell in header], ["---"] * width, *cells]
    return ["| " + " | ".join([*line, *[""] * (width - len(line))]) + " |" for line in lines]


def _cell(inline: Callable[[str], str], text: str) -> str:
    return inline(" ".join(text.split())).replace("|", "\\|")


def _after_options(body: list[str]) -> list[str]:
    """A directive's body past the `:name: value` lines opening it."""
    lines = list(body)
    while lines and (not lines[0].strip() or _OPTION.match(lines[0])):
        lines.pop(0)
    return lines


def _list_rows(body: list[str]) -> list[list[str]]:
    """A list-table's rows: each "* -" line opens a row, each "-" two columns in a cell, other lines go on
    with the cell above them."""
    text = [line.rstrip() for line in body if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in text), default=0)
    rows: list[list[str]] = []
    for line in (line[indent:] for line in text):
        if row := _ROW.match(line):
            rows.append([row.group(1)])
        elif rows and (cell := _CELL.match(line)):
            rows[-1].append(cell.group(1))
        elif rows:
            rows[-1][-1] = f"{rows[-1][-1]} {line.strip()}".strip()
    return rows


def _csv_rows(data: list[str], options: dict[str, str]) -> list[list[str]]:
    delimiter = {"tab": "\t", "space": " "}.get(
        options.get("delim", ","), options.get("delim", ",")[:1] or ","
    )
    lines = [line.strip() for line in data if line.strip()]
    return [list(row) for row in csv.reader(lines, delimiter=delimiter, skipinitialspace=True)]
