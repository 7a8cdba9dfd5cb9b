"""How a topic's pages show a source's standing: its stated status (in the topic's language, set in bold when
the document is no longer in force) and its date."""

from __future__ import annotations

from ...topic.findings import Catalog
from ...topic.standing import inactive, standing_word, stated_standing
from ...topic.workspace import RawSource
from ..text import Markdown, md_inline


def standing(source: RawSource, t: dict[str, Markdown]) -> Markdown:
    """A source's stated status and date, as a reader sees them ("rejected · 2017-08-14"); '' when unstated.
    A status that says the document is no longer in force is set in bold."""
    word = standing_word(source)
    label = status_label(word, t) if word else ""
    if label and inactive(source):
        label = f"**{label}**"
    _, landed, date = stated_standing(source, "")
    parts = (label, md_inline(landed) if landed else "", md_inline(date) if date else "")
    return Markdown(" · ".join(part for part in parts if part))


def defined_by(cite: Markdown, source: RawSource, t: dict[str, Markdown]) -> Markdown:
    """The line under a report's summary naming the document its definition comes from (`cite`: its
    citation), with its standing and the release it targets: what a reader came for ("Defined by [1]
    Assignment Expressions — final · Python 3.8 · 2018-02-28"); '' when the document states no standing."""
    stated = standing(source, t)
    if not stated:
        return Markdown("")
    return Markdown(f"{t['defined_by']} {cite} {md_inline(source.title)} — {stated}")


def status_label(word: str, t: dict[str, Markdown]) -> Markdown:
    """A status word in the topic's language (the word as the source states it when there is no label)."""
    return t.get(f"status_{word}") or md_inline(word)


def inactive_labels(catalog: Catalog, t: dict[str, Markdown]) -> dict[str, Markdown]:
    """Source id → its status label, for the sources whose documents are no longer in force."""
    return {s.id: status_label(standing_word(s), t) for s in catalog.sources if inactive(s)}
