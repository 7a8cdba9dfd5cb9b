"""The bilingual glossary: Chinese technical and domain terms with their English twins, offline.

It expands queries across the two languages (套利 → arbitrage) and gives a Chinese tag its English twin's
tag; an unlisted compound is segmented (jieba) and translated word by word. The shipped table is
`glossary_zh_en.json`, extended by a "glossary" mapping in the knowledge base's `_synonyms.json`.
"""

from __future__ import annotations

import itertools
import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from .. import cjk
from ..errors import StoreError
from ..text.words import ZH_STOPWORDS

GLOSSARY_FILE = "glossary_zh_en.json"
COMBINATIONS = 4  # spellings of a compound translated word by word ("attribute wrapper", "property wrapper"…)


@dataclass
class Glossary:
    """Chinese term → English spellings (the first is canonical), and the reverse lookup."""

    zh_en: dict[str, list[str]]
    en_zh: dict[str, list[str]] = field(default_factory=dict, repr=False)
    longest: int = field(default=1, repr=False)

    def __post_init__(self) -> None:
        self.longest = max((len(zh) for zh in self.zh_en), default=1)
        for zh, spellings in self.zh_en.items():
            for english in spellings:
                self.en_zh.setdefault(english.lower(), []).append(zh)

    @classmethod
    def from_json(cls, table: Mapping[str, Any]) -> Glossary:
        """From a mapping of Chinese term → English term or list of English terms; StoreError when malformed."""
        if not isinstance(table, Mapping):
            raise StoreError("glossary: expected a mapping of Chinese terms to lists of English terms")
        entries: dict[str, list[str]] = {}
        for zh, english in table.items():
            spellings = [english] if isinstance(english, str) else english
            if not isinstance(spellings, list) or not all(isinstance(e, str) for e in spellings):
                raise StoreError(f"glossary: term {zh!r} must map to a list of English terms")
            cleaned = [" ".join(e.split()) for e in spellings if e.strip()]
            if cleaned:
                entries[_norm(str(zh))] = cleaned
        return cls(entries)

    def merged(self, extra: Mapping[str, Any]) -> Glossary:
        """This glossary with `extra`'s entries added; an entry in `extra` replaces the shipped one."""
        return Glossary({**self.zh_en, **Glossary.from_json(extra).zh_en})

    def english(self, term: str) -> list[str]:
        """English spellings of a Chinese term: its own entry, else its words translated one by one (only
        when every word is known: the canonical spellings first, then the others, at most COMBINATIONS);
        [] otherwise."""
        term = _norm(term)
        if term in self.zh_en:
            return list(self.zh_en[term])
        if not cjk.CJK_RUN.fullmatch(term):
            return []
        words = self.segment(term)
        if len(words) < 2 or not all(w in self.zh_en for w in words):
            return []
        spelled = itertools.product(*(self.zh_en[w] for w in words))
        return [" ".join(parts) for parts in itertools.islice(spelled, COMBINATIONS)]

    def compounds(self, run: str) -> list[str]:
        """A Han run cut into words (`segment`), with each compound of two known words and nothing else between
        particles kept whole: 必需的上下文属性 → 必需, 的, 上下文属性, which reads "context attributes", the
        name, where "context" and "attributes" alone are words every document of a specification uses. A
        longer run stays cut: word-by-word English of three words ("测试命令行应用") is seldom how English
        names the thing."""
        words = self.segment(run)
        out: list[str] = []
        group: list[str] = []
        for word in [*words, ""]:
            if word and word not in ZH_STOPWORDS:
                group.append(word)
                continue
            known = len(group) == 2 and all(w in self.zh_en for w in group)
            out.extend(["".join(group)] if known else group)
            out.extend([word] if word else [])
            group = []
        return out

    def segment(self, run: str) -> list[str]:
        """A Han run cut into words, the glossary's longest terms first (交易策略 stays whole where jieba
        would cut it), jieba for the stretches between them. A glossary term is matched over whole words as
        jieba cuts them, the way documents are read (`tokens`): 覆盖率 stays whole, where the glossary's 覆盖
        ("override") would leave 率 alone and no title named "测试覆盖率" would name its topic."""
        words: list[str] = []
        ends = set(itertools.accumulate(len(w) for w in cjk.words(run)))
        gap = ""
        i = 0
        while i < len(run):
            at_word = i == 0 or i in ends
            match = next(
                (
                    run[i:j]
                    for j in range(min(len(run), i + self.longest), i, -1)
                    if at_word and j in ends and run[i:j] in self.zh_en
                ),
                "",
            )
            if match and len(match) > 1:
                words.extend(cjk.words(gap) if gap else [])
                words.append(match)
                gap = ""
                i += len(match)
            else:
                gap += run[i]
                i += 1
        words.extend(cjk.words(gap) if gap else [])
        return words

    def chinese(self, term: str) -> list[str]:
        """Chinese twins of an English term (exact, case-insensitive)."""
        return list(self.en_zh.get(" ".join(term.lower().split()), []))

    def spellings(self, term: str) -> list[str]:
        """The term's twins in the other language (for query expansion)."""
        return self.english(term) if cjk.CJK_RUN.search(term) else self.chinese(term)


def _norm(term: str) -> str:
    return unicodedata.normalize("NFKC", term).strip()


@lru_cache(maxsize=1)
def default_glossary() -> Glossary:
    """The shipped glossary."""
    text = resources.files(__package__).joinpath(GLOSSARY_FILE).read_text(encoding="utf-8")
    return Glossary.from_json(json.loads(text)["zh_en"])
