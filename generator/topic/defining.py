"""Which documents define a topic: those titled after it (or after one of the subjects a topic joins with
"and": "the question mark operator and the Try trait" is defined by "Try trait" too), and the one the
retrieval judge finds most about it. Every gate of the run keeps them (issue 30: a run "kept 1 of 7"
candidates and dropped the three proposals that define its subject, whose titles name the Try trait but
whose text writes the operator as `?`, never "question mark").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.words import tokens
from .judge import RelevanceJudge

# what joins two subjects in a topic's words
_JOIN = re.compile(r"\s*(?:,|;|\band\b|\bor\b|\bversus\b|\bvs\.?|&|/|与|和|及|或|、)\s*", re.I)


def subjects(topic: str) -> list[str]:
    """The topic itself, then each subject it joins ("A and B" → "A and B", "A", "B")."""
    parts = [p.strip() for p in _JOIN.split(topic) if p and p.strip()]
    return list(dict.fromkeys([topic.strip(), *(parts if len(parts) > 1 else [])]))


def concept_words(judge: RelevanceJudge, text: str) -> list[set[str]]:
    """Each concept of `text` as the set of its spellings' words (synonyms and the glossary's twins too)."""
    return [{w for form in t.forms for w in form} for t in judge.terms(text)]


def titled_after(title: str, topic: str, judge: RelevanceJudge) -> bool:
    """Whether a title names every concept of the topic, or of one of the subjects it joins."""
    words = set(tokens(title))
    for subject in subjects(topic):
        concepts = concept_words(judge, subject)
        if concepts and all(forms & words for forms in concepts):
            return True
    return False


def most_about(scored: Sequence[tuple[str, float | None]]) -> str:
    """The key scored highest (ties broken by the key, so a run is the same whatever the order); ''."""
    judged = [(score, key) for key, score in scored if score is not None]
    return max(judged)[1] if judged else ""
