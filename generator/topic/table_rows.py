"""Which rows of a table a report quotes: the rows that matter first, not the table's first rows. TDesign's and
antd's props tables are alphabetical, so their first rows (穿梭框's checkboxProps, checked, data) are seldom the
props a reader needs (value, the list it binds; 图片预览's images and visible). A row is central when it binds
the component's value, is required, lists the forms the component comes in, or is named by the rest of its
page (another row, a paragraph, an example) or names the subject itself; among equals the table's order holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .sentences import MAX_ITEMS, MAX_PASSAGE, list_parts, text_blocks

# the row binding the component's own value: Vue's bare `v-model` ("支持语法糖 v-model 或 v-model:value"),
# `modelValue` / `model-value`, "双向绑定"
_MODEL = re.compile(r"v-model(?![:\w-])|\bmodel-?value\b|双向绑定|支持\s*v-model\b", re.IGNORECASE)
# a row binding another value two ways ("支持语法糖 v-model:checked", Vue 2's `.sync`)
_BOUND = re.compile(r"v-model:\w|支持语法糖|\.sync\b", re.IGNORECASE)
# a row the component cannot go without: a 必传 / 必填 / required column saying yes
_REQUIRED = re.compile(
    r"(?:必传|必填|是否必填|是否必传|必选|required)\s*[:：]\s*(?:y|yes|是|true)\b|（必填）|\(required\)",
    re.IGNORECASE,
)
# a row listing the forms the component comes in ("可选项：line/plump/circle", Element's 可选值 column)
_CHOICES = re.compile(r"可选项|可选值|可选的值")
_WORD = re.compile(r"[A-Za-z][\w-]*")


def central_rows(rows: Sequence[str], page: str, subject: str, label: str, limit: int) -> tuple[str, ...]:
    """The rows of a table (`rows`, each "name：description（…）", in the table's order) a quote of at most
    `limit` characters with its `label` holds: the most central first (`row_weight`), the table's order among
    equals, at most MAX_ITEMS; a row that does not fit is passed over for the next. `page` is the text
    holding the table, `subject` what the report is about."""
    named = _page_names(page)
    words = [{_key(w) for w in _WORD.findall(row)} for row in rows]
    weights = [
        row_weight(row, named | _union(words[:n] + words[n + 1 :]), subject) for n, row in enumerate(rows)
    ]
    order = sorted(range(len(rows)), key=lambda n: -weights[n])
    kept: list[str] = []
    for n in order:
        if len(kept) >= MAX_ITEMS:
            break
        if not kept or len(" ".join([label, *kept, rows[n]])) <= limit:
            kept.append(rows[n])
    return tuple(kept)


def row_weight(row: str, named: frozenset[str], subject: str) -> int:
    """How central a table's row is: binding the component's value (4), required (3), binding another value
    (2), listing the forms it comes in, named (`named`: the words of the table's other rows and of the page
    outside its tables, as `_key` spells them), naming the subject (1 each)."""
    name, said = _parts(row)
    first = _WORD.search(name)
    key = _key(first.group(0)) if first else ""
    # Arco marks the binding in the name's cell ("width (v-model)：宽度"), TDesign in the description
    return (
        4 * bool(_MODEL.search(row))
        + 3 * bool(_REQUIRED.search(said))
        + 2 * bool(_BOUND.search(row) and not _MODEL.search(row))
        + bool(_CHOICES.search(said))
        + bool(key and key in named)
        + bool(subject and subject in said)
    )


def quote_limit(label: str, items: Sequence[str]) -> int:
    """The characters a table's quote may take: a passage's, or what the quote took when it took more."""
    return max(MAX_PASSAGE, len(" ".join([label, *items])))


def _parts(row: str) -> tuple[str, str]:
    """A row's name and what it says (documents/table.py writes "name：description（…）")."""
    at = min((n for n in (row.find("："), row.find(":")) if n >= 0), default=-1)
    return (row[:at], row[at + 1 :]) if at >= 0 else (row, "")


def _union(sets: Sequence[set[str]]) -> frozenset[str]:
    return frozenset().union(*sets)


def _key(word: str) -> str:
    """A prop's name as a page may spell it: `closeOnEscKeydown`, `close-on-esc-keydown`, `close_on_esc`."""
    return re.sub(r"[-_\s]", "", word).lower()


def _page_names(page: str) -> frozenset[str]:
    """The words a page's paragraphs and examples use, as prop names (`_key`); its lists (tables) left out."""
    prose = [block for block in text_blocks(page) if not list_parts(block)[1] and not block.startswith("#")]
    return frozenset(_key(word) for block in prose for word in _WORD.findall(block))
