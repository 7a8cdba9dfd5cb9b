"""A Python record's defaults kept apart from it, in a module-level dict literal: commitizen's `Settings` is a
TypedDict of declarations only, its values in `DEFAULT_SETTINGS: Settings = {"name": "cz_conventional_commits",
…}` (commitizen/defaults.py:81), and every Default of its table was "—"."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

from generator.repo.facts.declared import PyField

# a module-level dict named for defaults, annotated with the record it fills or not: `DEFAULT_SETTINGS: Settings
# = {`, `defaults = {`, `DEFAULTS = dict(`
_DEFAULTS_DICT = re.compile(
    r"^(\w*default\w*)\s*(?::\s*([\w.]+))?\s*=\s*(?:\{|dict\()", re.IGNORECASE | re.MULTILINE
)
VALUE_CHARS = 60  # a longer value (a list over many lines) is not shown


@dataclass(frozen=True)
class DefaultsDict:
    """One module-level defaults dict: the record its annotation names ("" for none) and each key's value as
    written."""

    record: str
    values: dict[str, str] = field(default_factory=dict)


def defaults_dicts(text: str) -> tuple[DefaultsDict, ...]:
    """The module's dict literals named for defaults, with string keys; () when it has none (the module is
    parsed only then)."""
    if not _DEFAULTS_DICT.search(text):
        return ()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return ()
    found = []
    for statement in tree.body:
        target, value, annotation = _assigned(statement)
        if target is None or value is None or not re.search("default", target, re.IGNORECASE):
            continue
        pairs = _pairs(value)
        if pairs:
            values = {k: _written(v, text) for k, v in pairs}
            found.append(DefaultsDict(annotation, {k: v for k, v in values.items() if v}))
    return tuple(found)


def fill_defaults(name: str, fields: Sequence[PyField], found: Sequence[DefaultsDict]) -> tuple[PyField, ...]:
    """`fields` of the record `name`, each without a default given the one a defaults dict of its module holds:
    the dict annotated with the record, else one whose keys are at least half of the record's fields."""
    named = {f.name for f in fields}
    chosen = next((d for d in found if d.record.rpartition(".")[2] == name), None) or next(
        (d for d in found if not d.record and _covers(d.values, named)), None
    )
    if chosen is None:
        return tuple(fields)
    return tuple(
        f if f.default or f.name not in chosen.values else replace(f, default=chosen.values[f.name])
        for f in fields
    )


def _covers(keys: Collection[str], fields: Collection[str]) -> bool:
    return bool(fields) and 2 * len(set(keys) & set(fields)) >= len(fields)


def _assigned(statement: ast.stmt) -> tuple[str | None, ast.expr | None, str]:
    """A module-level assignment's one name, its value and its annotation ("" for none)."""
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id, statement.value, ast.unparse(statement.annotation)
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return (target.id, statement.value, "") if isinstance(target, ast.Name) else (None, None, "")
    return None, None, ""


def _pairs(value: ast.expr) -> list[tuple[str, ast.expr]]:
    """A dict literal's or `dict(…)` call's string keys with their values."""
    if isinstance(value, ast.Dict):
        return [
            (k.value, v)
            for k, v in zip(value.keys, value.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        ]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
        return [(k.arg, k.value) for k in value.keywords if k.arg is not None]
    return []


def _written(value: ast.expr, text: str) -> str:
    """A value as its source writes it, on one line; "" when it runs longer than VALUE_CHARS."""
    said = " ".join((ast.get_source_segment(text, value) or ast.unparse(value)).split())
    return said if len(said) <= VALUE_CHARS else ""
