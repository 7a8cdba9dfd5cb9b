"""Extractive summarization: central sentences win, order is kept, nothing is invented."""

from __future__ import annotations

from generator.summarize import rank_sentences, summarize
from generator.text.sentences import split_sentences

TEXT = (
    "The parser reads tokens and builds a syntax tree. "
    "The weather was pleasant on the day the project started. "
    "Each syntax tree node is evaluated by the interpreter. "
    "The interpreter walks the syntax tree and evaluates each node. "
    "Lunch was served at noon."
)


def test_split_handles_english_and_chinese() -> None:
    parts = split_sentences("第一句话在这里说明问题。第二句话给出答案！ An English sentence follows here.")
    assert len(parts) == 3


def test_central_sentences_are_chosen_in_original_order() -> None:
    summary = summarize(TEXT, sentences=2)
    assert len(summary) == 2
    assert all(s in TEXT for s in summary)  # extractive: every line is a sentence of the input
    assert not any("Lunch" in s or "weather" in s for s in summary)
    assert TEXT.index(summary[0]) < TEXT.index(summary[1])


def test_focus_pulls_matching_sentences_up() -> None:
    plain = rank_sentences(TEXT)[0].text
    focused = rank_sentences(TEXT, focus="weather day project")[0].text
    assert "weather" in focused and plain != focused


def test_empty_and_tiny_input() -> None:
    assert summarize("") == []
    assert summarize("ok.") == []
