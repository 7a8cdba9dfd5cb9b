"""A docs site's home page says what the project is in its front matter, not its body: VitePress's
`layout: home` gives a `hero` (the name, a line of text, a tagline) and `features` (each a title and its
details) — pinia's "The intuitive store for Vue.js", go-task's "A fast, cross-platform build tool inspired by
Make". Read as data (bounded YAML, nothing constructed from a tag), they are a paragraph and a list on the
front matter's own lines. Any page may say what it is about in its front matter's summary only: an Ant
Design component page opens on "## 何时使用" and says what Affix is in `description: 将页面元素钉在可视范围。`, a
Semi Design page what LocaleProvider is in `brief: 国际化组件，为 Semi 组件提供多语言支持`."""

from __future__ import annotations

import re

from ..cjk import is_cjk
from ..config import load_bounded_yaml
from ..errors import ConfigError
from ..text.sentences import sentences
from .header import SUBTITLE_CHARS, frontmatter_field
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


# a description written for a search engine ends by inviting the reader in: traefik's "… Read the technical
# documentation.", "Let us know if you're talking about Traefik"; it says nothing of the page
_INVITATION = re.compile(
    r"(?:read\s+(?:the|more|our)|check\s+out|let\s+us\s+know|visit|click)\b", re.IGNORECASE
)


def description_block(frontmatter: str, title: str = "") -> Block | None:
    """The front matter's summary (`description`, `summary`, `excerpt`, `brief`) as a paragraph on its own line, without the sentences inviting the
    reader to read on (None without one). A description leaving its subject unsaid, as Chinese does ("将页面元素
    钉在可视范围。" of Affix 固钉), is said of the page's `title`, as a home page's hero is of its name — so is one
    naming it only further on, in Chinese (Arco's "可一键返回顶部的按钮。" of 返回顶部 BackTop: a button, not a
    sentence)."""
    stated = " ".join(_summary(frontmatter).split())[:MAX_TEXT]
    said = " ".join(s for s in sentences(stated) if not _INVITATION.match(s))
    if not said:
        return None
    line = _line_of(frontmatter.split("\n"), said)
    words, lowered = [w.lower() for w in title.split()], said.lower()
    # Chinese names a description's subject first or leaves it unsaid: one naming it further on is a phrase
    chinese = is_cjk(said[:1])
    named = any(lowered.startswith(w) if chinese else w in lowered for w in words)
    if words and not named:
        said = f"{title}{'：' if is_cjk(said[:1]) else ': '}{said}"
    return Block("paragraph", _stop(said), line, line)


# the fields docs sites keep a page's summary in, the usual first: Docusaurus, VitePress, Hugo and MkDocs
# `description`, Hugo's `summary`, Jekyll's `excerpt`, Semi Design's `brief` ("国际化组件，为 Semi 组件提供多语言支持")
SUMMARY_FIELDS = ("description", "summary", "excerpt", "brief")


def _summary(frontmatter: str) -> str:
    """The page's summary its front matter states: the first summary field set, else a subtitle too long to
    be a name (a tagline; a short one joins the title, `header.SUBTITLE_CHARS`)."""
    stated = next((value for name in SUMMARY_FIELDS if (value := frontmatter_field(frontmatter, name))), "")
    subtitle = frontmatter_field(frontmatter, "subtitle")
    return stated or (subtitle if len(subtitle) > SUBTITLE_CHARS else "")


def _said(value: object) -> str:
    return " ".join(value.split())[:MAX_TEXT] if isinstance(value, str) else ""


def _stop(text: str) -> str:
    """`text` ending on a full stop: a Chinese one in Chinese ("…为 Semi 组件提供多语言支持。")."""
    if not text or text[-1] in ".!?。！？":
        return text
    return f"{text}{'。' if any(is_cjk(char) for char in text) else '.'}"


def _line_of(lines: list[str], value: str) -> int:
    """The document line a value starts on: the first front matter line holding its first words."""
    words = " ".join(value.split()[:4])
    index = next((n for n, line in enumerate(lines) if words and words in " ".join(line.split())), 0)
    return index + 2
