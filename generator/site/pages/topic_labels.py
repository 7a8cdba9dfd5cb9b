"""deepkb's own words on topic pages, in the topic's language (trusted text: templates output it as it is)."""

from __future__ import annotations

from ...text.topic_labels import LABELS
from ..text import Markdown


def labels(lang: str) -> dict[str, Markdown]:
    return {key: Markdown(value) for key, value in LABELS.get(lang, LABELS["en"]).items()}
