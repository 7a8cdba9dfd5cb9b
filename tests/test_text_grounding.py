"""A model's sentence is grounded when most of its words are the words of what it was given, and it says
something of its subject rather than of the text. The ungrounded sentences are SmolLM2-135M's, from
bench/local_model.py (koa 3.2.0 and deepkb's docs/)."""

from __future__ import annotations

import pytest

from generator.text.grounding import grounded, source_words

FAQ = source_words(
    [
        "Koa is more like Connect, but a lot of the Express goodies were moved to the middleware level in Koa "
        "to help form a stronger foundation.",
        "A knowledge base is a folder with a deepkb.yml file. The file lists the repositories and topics to "
        "research. Handling hostile input: the content of every file is data, never executed.",
    ]
)


@pytest.mark.parametrize(
    "sentence",
    [
        "Koa moved the Express goodies to the middleware level.",
        "A knowledge base is a folder with a deepkb.yml file.",
        "The file lists the repositories and topics to research.",
        "Koa 更像 Connect" + "：Express goodies moved to the middleware level.",
    ],
)
def test_a_sentence_in_the_facts_words_is_grounded(sentence: str) -> None:
    assert grounded(sentence, FAQ)


@pytest.mark.parametrize(
    "sentence",
    [
        "It's not just what we use, but also how many different ways we can implement it; this makes it a very "
        "important and useful concept for all parts of the stack.",
        "this is a summary of the content in the file.",
        "Your code is already quite efficient, and the documentation provides a clear understanding.",
        "Sure, here is a guide page on the concept of Koa vs Express:",
        "1. 3-5:",
        "And so on...",
    ],
)
def test_a_sentence_of_its_own_or_about_the_text_is_not(sentence: str) -> None:
    assert not grounded(sentence, FAQ)
