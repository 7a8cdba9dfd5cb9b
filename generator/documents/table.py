"""A table's rows as sentences that read alone, for the stored text a report quotes: a row is its first cell
(what the row is about), then its description cell, then every other cell under its column's header —
antd-mobile's props table row `threshold | 触发刷新需要下拉多少距离，单位为 px | number | 60` reads
"threshold：触发刷新需要下拉多少距离，单位为 px（类型：number，默认值：60）。". A reference table (props, options,
CSS variables) is how a component is used and configured, and a row quoted without its header says neither
which value is the type nor which the default."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .prose import code_unmarked

# the column saying what the row's subject is or does: its words follow the subject directly
_DESCRIPTION = re.compile(
    r"^(?:说明|描述|含义|作用|介绍|备注|用途|解释|释义|描述信息|description|desc|meaning|explanation|details?"
    r"|notes?|summary|comments?|purpose|remarks?)$",
    re.IGNORECASE,
)
_HAN = re.compile(r"[\u3400-\u9fff]")
_EMPTY = frozenset({"", "-", "–", "—", "/", "n/a"})  # a cell saying the row has no value there
_CLOSING = re.compile(r"[\s.。;；,，:：]+$")


def row_sentences(rows: Sequence[Sequence[str]]) -> list[str]:
    """Each body row of a table (`rows`: the header row first) as one sentence that reads alone; a row with
    nothing beside its first cell is left out, unless the table has one column."""
    if len(rows) < 2:
        return []
    header = [_label(cell) for cell in rows[0]]
    described = next((n for n, name in enumerate(header) if n and _DESCRIPTION.match(name)), -1)
    chinese = bool(_HAN.search(" ".join(header)))
    found = []
    for row in rows[1:]:
        # as the stored prose: no code marks
        cells = [" ".join(code_unmarked(cell).split()) for cell in row]
        if not cells or _empty(cells[0]):
            continue
        said = _CLOSING.sub("", cells[described]) if 0 < described < len(cells) else ""
        values = [
            (header[n] if n < len(header) else "", cell)
            for n, cell in enumerate(cells[1:], start=1)
            if n != described and not _empty(cell)
        ]
        if said or values or len(header) == 1:
            found.append(_sentence(cells[0], said, values, chinese=chinese))
    return found


def _sentence(subject: str, said: str, values: list[tuple[str, str]], *, chinese: bool) -> str:
    colon, comma, stop = ("：", "，", "。") if chinese else (": ", "; ", ".")
    labelled = comma.join(f"{name}{colon}{value}" if name else value for name, value in values)
    aside = f"（{labelled}）" if chinese and labelled else f" ({labelled})" if labelled else ""
    subject = _CLOSING.sub("", subject) if not (said or aside) else subject
    return f"{subject}{colon}{said}{aside}{stop}" if said else f"{subject}{aside}{stop}"


def _label(cell: str) -> str:
    """A header cell's words: no emphasis or code-span marks."""
    return " ".join(cell.replace("`", "").replace("*", "").split())


def _empty(cell: str) -> bool:
    return cell.strip().lower() in _EMPTY
