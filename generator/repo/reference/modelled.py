"""The classes a user's own models are made of, as the docs' examples write them: the base a model class
subclasses (piccolo's `class Band(Table):`, ormar's `class Album(ormar.Model):`) and the field types its
attributes are declared with (`name = Varchar(length=100)`, `id: int = ormar.Integer(primary_key=True)`,
beanie's `door: Link[Door]`). A newcomer writes these first, so the Data model page opens with them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from generator.repo.docs.model import DocPassage

MODEL_BASE = "model base the docs subclass"
FIELD_TYPE = "field type in the docs' models"
FIELD_BASE = "base of the field types"
MIN_DECLARED = 2  # a docs class declaring this many attributes is a model, not a subclass overriding methods
MAX_FIELD_TYPES = 8

_CLASS = re.compile(r"^([ \t]*)class\s+\w+\(\s*([A-Za-z_][\w.]*)[^\n]*:[ \t]*$", re.MULTILINE)
_PROMPT = re.compile(r"^([ \t]*)(?:>>>|\.\.\.)(?: |$)", re.MULTILINE)
# `name = Varchar(…)`, `id: int = ormar.Integer(…)`, `door: Link[Door]`, `price: Indexed(float)`
_ATTRIBUTE = re.compile(
    r"^(?P<name>[a-z_]\w*)\s*(?::\s*(?P<annotation>[^=#]+?))?\s*(?:=\s*(?P<value>[^#]*))?$"
)
_CALLED = re.compile(r"^([A-Za-z_][\w.]*)\s*\(")
_HEAD = re.compile(r"^([A-Za-z_][\w.]*)")


def doc_models(passages: Iterable[DocPassage]) -> tuple[Counter[str], Counter[str]]:
    """The bases the docs' model classes subclass and the field types their attributes are declared with
    (each by its last name part), by how many of the docs' classes use each."""
    bases: Counter[str] = Counter()
    types: Counter[str] = Counter()
    for passage in passages:
        if passage.kind != "code" or passage.language not in {"", "python", "py", "pycon", "python3"}:
            continue
        for base, used in _models(_PROMPT.sub(r"\1", passage.text)):
            bases[base] += 1
            types.update(used)
    return bases, types


def _models(code: str) -> Iterable[tuple[str, set[str]]]:
    """Each class of a code block that declares MIN_DECLARED attributes: its base, and the types its
    attributes are declared with."""
    for match in _CLASS.finditer(code):
        margin = len(match.group(1).expandtabs())
        declared = 0
        used: set[str] = set()
        inner: int | None = None
        for line in code[match.end() :].split("\n")[1:]:
            if not line.strip():
                continue
            indent = len(line.expandtabs()) - len(line.lstrip())
            if indent <= margin:
                break
            inner = indent if inner is None else inner
            if indent != inner:
                continue  # a method's body or a nested class's
            found = _ATTRIBUTE.match(line.strip())
            if found is None or not (found.group("annotation") or found.group("value")):
                continue
            declared += 1
            for part in (found.group("value"), found.group("annotation")):
                head = _CALLED.match(part.strip()) if part and part.strip() else None
                head = head or (
                    _HEAD.match(part.strip()) if part and found.group("annotation") == part else None
                )
                if head:
                    used.add(head.group(1).rsplit(".", 1)[-1])
        if declared >= MIN_DECLARED:
            yield match.group(2).rsplit(".", 1)[-1], used
