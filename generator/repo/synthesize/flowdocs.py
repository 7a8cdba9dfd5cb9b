"""What the project's docs say about its main flow: the doc passages that name two or more of the flow's
symbols in the order the flow calls them ("`wsgi_app` … `full_dispatch_request` … `dispatch_request`"), so
a page can show the docs' account of a lifecycle beside the call tree, each cited to the doc file's lines.

A symbol counts as named when the passage writes it as code: in a code span, dotted (`app.wsgi_app`), called
(`wsgi_app()`), or as an identifier no prose word looks like (`full_dispatch_request`, `handleRequest`); a
short English word (`send`, `get`) in plain text is not the symbol, nor a builtin's name written bare
(`print(…)`) a method of that name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from generator.repo.docs.model import ProjectDocs
from generator.repo.facts.pycalls import BUILTINS
from generator.repo.model import DocPassage, FlowBranch, FlowPassage, depth_first
from generator.text.pointers import without_lead_in

MOST = 3  # passages shown
PROSE_KINDS = frozenset({"paragraph", "item", "quote"})  # what describes a flow (code blocks show usage)
MIN_NAME = 3  # shorter names are never matched
_CODE_SPAN = re.compile(r"`([^`]+)`")
_WORD = re.compile(r"[A-Za-z_][\w.]*(?:\(\))?")


def flow_passages(tree: Sequence[FlowBranch], docs: ProjectDocs | None) -> list[FlowPassage]:
    """Up to MOST passages of the docs naming ≥2 of the flow's symbols in call order, those naming most
    first (then in the docs' order); each passage once."""
    if docs is None or not tree:
        return []
    order = _flow_order(tree)
    found: list[tuple[int, int, FlowPassage]] = []
    seen: set[tuple[str, int]] = set()
    for position, passage in enumerate(_passages(docs)):
        if passage.kind not in PROSE_KINDS or (passage.path, passage.start) in seen:
            continue
        seen.add((passage.path, passage.start))
        names = _named_in_order(passage.text, order)
        if len(names) >= 2:
            shown = replace(passage, text=without_lead_in(passage.text))
            found.append((-len(names), position, FlowPassage(shown, names)))
    return [item for _, _, item in sorted(found, key=lambda f: (f[0], f[1]))[:MOST]]


def _flow_order(tree: Sequence[FlowBranch]) -> dict[str, tuple[int, str]]:
    """Each short name of the flow (root first, then depth first) → (its rank, the name as the flow says it)."""
    order: dict[str, tuple[int, str]] = {}
    hops = depth_first(tree)
    for name in [hops[0].caller, *(hop.callee for hop in hops)] if hops else []:
        _note(order, name)
    return order


def _note(order: dict[str, tuple[int, str]], name: str) -> None:
    short = name.rsplit(".", 1)[-1]
    if len(short) >= MIN_NAME and short not in order:
        order[short] = (len(order), name)


def _passages(docs: ProjectDocs) -> Iterable[DocPassage]:
    yield from docs.overview
    for concept in docs.concepts:
        for page in concept.pages:
            yield from page.passages


def _named_in_order(text: str, order: dict[str, tuple[int, str]]) -> tuple[str, ...]:
    """The flow's symbols the text names as code, each once, when their first mentions follow the flow."""
    ranks: list[int] = []
    names: list[str] = []
    for word in _code_words(text):
        short = word.removesuffix("()").rsplit(".", 1)[-1]
        if short == word.removesuffix("()") and short in BUILTINS and "." in order.get(short, (0, ""))[1]:
            continue  # `print(…)` is the builtin, not the flow's `ErrorInterceptor.print`
        if short in order and order[short][1] not in names:
            ranks.append(order[short][0])
            names.append(order[short][1])
    return tuple(names) if ranks == sorted(ranks) else ()


def _code_words(text: str) -> Iterable[str]:
    """The identifiers written as code, in text order: code spans' words, and outside them the dotted,
    called, snake_case or camelCase ones."""
    for index, part in enumerate(_CODE_SPAN.split(text)):
        for match in _WORD.finditer(part):
            word = match.group(0).rstrip(".")
            if index % 2 or _looks_like_code(word):
                yield word


def _looks_like_code(word: str) -> bool:
    bare = word.removesuffix("()")
    inner = bare.strip("_")
    return (
        word.endswith("()")
        or ("." in bare.strip(".") and not bare.endswith("."))
        or "_" in inner
        or bool(re.search(r"[a-z][A-Z]", bare))
    )
