"""A docs site's home page says what the project is in its front matter, not its body: VitePress's
`layout: home` gives a `hero` (the name, a line of text, a tagline) and `features` (each a title and its
details) — pinia's "The intuitive store for Vue.js", go-task's "A fast, cross-platform build tool inspired by
Make". Read as data (bounded YAML, nothing constructed from a tag), they are a paragraph and a list on the
front matter's own lines."""

from __future__ import annotations

import re

from ..config import load_bounded_yaml
from ..errors import ConfigError
from .model import Block

_HOME = re.compile(r"(?m)^(?:hero|features):")
MAX_FEATURES = 12
MAX_TEXT = 300  # characters of one value: a sentence, not a page


def home_blocks(frontmatter: str) -> tuple[Block, ...]:
    """The hero as a paragraph and the features as items, each on the line its value starts (the front
    matter's first line is the document's second); () for any other page."""
    if not _HOME.search(frontmatter):
        return ()
    try:
        data = load_bounded_yaml(frontmatter, "a home page's front matter")
    except ConfigError:
        return ()
    if not isinstance(data, dict):
        return ()
    lines = frontmatter.split("\n")
    found: list[Block] = []
    hero = data.get("hero")
    if isinstance(hero, dict):
        name, text, tagline = (_said(hero.get(key)) for key in ("name", "text", "tagline"))
        sentence = ": ".join(part for part in (name, _stop(text)) if part)
        said = " ".join(part for part in (_stop(sentence), _stop(tagline)) if part)
        if said and (text or tagline):
            line = _line_of(lines, tagline or text)
            found.append(Block("paragraph", said, line, line))
    features = data.get("features")
    items = [f for f in features if isinstance(f, dict)][:MAX_FEATURES] if isinstance(features, list) else []
    for feature in items:
        title, details = _said(feature.get("title")), _said(feature.get("details"))
        if title and details:
            line = _line_of(lines, details)
            found.append(Block("item", f"{title}: {_stop(details)}", line, line, lead="Features:"))
    return tuple(found)


def _said(value: object) -> str:
    return " ".join(value.split())[:MAX_TEXT] if isinstance(value, str) else ""


def _stop(text: str) -> str:
    return text if not text or text[-1] in ".!?。！？" else f"{text}."


def _line_of(lines: list[str], value: str) -> int:
    """The document line a value starts on: the first front matter line holding its first words."""
    words = " ".join(value.split()[:4])
    index = next((n for n, line in enumerate(lines) if words and words in " ".join(line.split())), 0)
    return index + 2
