"""How a topic's pages show a source's standing: its stated status (in the topic's language, set in bold when
the document is no longer in force) and its date."""

from __future__ import annotations

from ...topic.analyze import Catalog
from ...topic.standing import date_key, inactive, standing_word
from ...topic.workspace import RawSource
from ..text import Markdown, md_inline


def standing(source: RawSource, t: dict[str, Markdown]) -> Markdown:
    """A source's stated status and date, as a reader sees them ("rejected · 2017-08-14"); '' when unstated.
    A status that says the document is no longer in force is set in bold."""
    word = standing_word(source)
    label = status_label(word, t) if word else ""
    if label and inactive(source):
        label = f"**{label}**"
    date = date_key(source.published)
    return Markdown(" · ".join(part for part in (label, md_inline(date) if date else "") if part))


def status_label(word: str, t: dict[str, Markdown]) -> Markdown:
    """A status word in the topic's language (the word as the source states it when there is no label)."""
    return t.get(f"status_{word}") or md_inline(word)


def inactive_labels(catalog: Catalog, t: dict[str, Markdown]) -> dict[str, Markdown]:
    """Source id → its status label, for the sources whose documents are no longer in force."""
    return {s.id: status_label(standing_word(s), t) for s in catalog.sources if inactive(s)}
