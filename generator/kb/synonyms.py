"""Synonym-canonical tags: every tag from every source passes through `canonical_tag()`.

The table is the shipped `default_synonyms.json` merged with the knowledge base's `site_src/_synonyms.json`.
A term is normalized (NFKC, trim, lowercase) and looked up as a variant, then singularized, then by its
Snowball stems; a Chinese term takes its English twin's tag (kb/glossary.py); an unknown term becomes its
singular slug. `trading`, `trades`, `Trading` and `交易` all end on `trade`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..cjk import CJK_RUN
from ..errors import StoreError
from ..store import KBPaths, read_json, slugify, write_json
from ..text.words import stem
from .glossary import Glossary, default_glossary

SYNONYMS_FILE = "_synonyms.json"
MAX_TAG_LEN = 60
_SEPARATORS = re.compile(r"[\s_\-/·・，,;；:：]+")


@dataclass(frozen=True)
class StemRule:
    """Replace `suffix` by `replace` when at least `min_stem` characters stay; identity rules are guards."""

    step: str
    suffix: str
    replace: str = ""
    min_stem: int = 0

    def apply(self, word: str) -> str | None:
        if not word.endswith(self.suffix) or len(word) - len(self.suffix) < self.min_stem:
            return None
        return word[: len(word) - len(self.suffix)] + self.replace


@dataclass
class Synonyms:
    """A loaded synonym table with its lookups built: variant key → canonical term."""

    normalization: dict[str, bool]
    stem_rules: list[StemRule]
    canonical: dict[str, list[str]]
    glossary: Glossary = field(default_factory=default_glossary, repr=False)
    exact: dict[str, str] = field(default_factory=dict, repr=False)
    stemmed: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        ambiguous: set[str] = set()
        for term, variants in self.canonical.items():
            for variant in [term, *variants]:
                self.exact.setdefault(self._key(variant), term)
                key = self.stem_key(variant)
                if self.stemmed.setdefault(key, term) != term:
                    ambiguous.add(key)
        for key in ambiguous:  # two groups meet on one stem: only exact spellings may pick between them
            self.stemmed.pop(key, None)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Synonyms:
        """Build from the `_synonyms.json` format; raises StoreError naming what is malformed."""
        norm = data.get("normalization", {})
        canonical = data.get("canonical", {})
        rules = data.get("stem_rules", [])
        if not isinstance(norm, dict) or not isinstance(canonical, dict) or not isinstance(rules, list):
            raise StoreError(
                "synonyms: normalization and canonical must be mappings, stem_rules a list",
                hint=f"compare {SYNONYMS_FILE} with the format in generator/kb/default_synonyms.json",
            )
        try:
            stem_rules = [StemRule(**rule) for rule in rules]
        except TypeError as exc:
            raise StoreError(
                f"synonyms: bad stem rule ({exc})", hint="each rule has step, suffix, replace, min_stem"
            ) from None
        groups = {
            str(term): [str(v) for v in variants]
            for term, variants in canonical.items()
            if isinstance(variants, list)
        }
        flags = {"lowercase": True, "singularize": True, "stem": True, "prefer_english": True}
        flags.update({str(k): bool(v) for k, v in norm.items()})
        glossary = default_glossary().merged(data.get("glossary") or {})
        return cls(normalization=flags, stem_rules=stem_rules, canonical=groups, glossary=glossary)

    # ----------------------------------------------------------------- normalization

    def words(self, term: str) -> list[str]:
        """The words of a term after NFKC, trim and (optionally) lowercase."""
        text = unicodedata.normalize("NFKC", term).strip()
        if self.normalization.get("lowercase", True):
            text = text.lower()
        return [word for word in _SEPARATORS.split(text) if word]

    def _key(self, term: str) -> str:
        return " ".join(self.words(term))

    def _apply(self, step: str, word: str) -> str:
        if CJK_RUN.search(word):  # Chinese has no inflections
            return word
        for rule in self.stem_rules:
            if rule.step == step:
                result = rule.apply(word)
                if result is not None:
                    return result
        return word

    def singular_words(self, term: str) -> list[str]:
        """Words with the head (last) word singularized: `neural networks` → `neural network`."""
        words = self.words(term)
        if words and self.normalization.get("singularize", True):
            words[-1] = self._apply("singularize", words[-1])
        return words

    def stem_key(self, term: str) -> str:
        """Every word singularized then stemmed; used only to match variants, never shown."""
        words = self.words(term)
        if self.normalization.get("singularize", True):
            words = [self._apply("singularize", w) for w in words]
        if self.normalization.get("stem", True):
            words = [w if CJK_RUN.search(w) else stem(w) for w in words]
        return " ".join(words)

    # ----------------------------------------------------------------- lookup

    def lookup(self, term: str) -> str | None:
        """The canonical term a variant belongs to, or None when neither the table nor (for a Chinese term)
        the glossary knows it. A Chinese term known only to the glossary gives its English twin's tag."""
        found = self.exact.get(self._key(term)) or self.exact.get(" ".join(self.singular_words(term)))
        if found is None and self.normalization.get("stem", True):
            found = self.stemmed.get(self.stem_key(term))
        if found is None and CJK_RUN.search(term):
            english = self.glossary.english(term)
            if english:
                found = self.lookup(english[0]) or slugify("-".join(self.singular_words(english[0])))
        return found

    def group(self, canonical: str) -> list[str]:
        """The canonical term followed by its variants (empty for a term the table does not list)."""
        if canonical not in self.canonical:
            return []
        return [canonical, *self.canonical[canonical]]

    def canonical_tag(self, term: str) -> str:
        found = self.lookup(term)
        if found is not None:
            if not self.normalization.get("prefer_english", True) and CJK_RUN.search(term):
                found = next((v for v in self.group(found) if CJK_RUN.search(v)), found)
            return slugify(found, max_len=MAX_TAG_LEN)
        return slugify("-".join(self.singular_words(term)), max_len=MAX_TAG_LEN) if self.words(term) else ""


# --------------------------------------------------------------------------- loading


@lru_cache(maxsize=1)
def default_synonyms_json() -> dict[str, Any]:
    """The shipped defaults, as the `_synonyms.json` format."""
    text = resources.files(__package__).joinpath("default_synonyms.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@lru_cache(maxsize=1)
def default_synonyms() -> Synonyms:
    return Synonyms.from_json(default_synonyms_json())


def merge_synonyms(base: Mapping[str, Any], user: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults extended by the user's table; a variant the user files under another term moves there."""
    merged: dict[str, Any] = {
        "normalization": {**base.get("normalization", {}), **user.get("normalization", {})},
        "stem_rules": list(user.get("stem_rules") or base.get("stem_rules", [])),
        "canonical": {term: list(variants) for term, variants in base.get("canonical", {}).items()},
        "glossary": {**(base.get("glossary") or {}), **(user.get("glossary") or {})},
    }
    user_canonical = user.get("canonical", {})
    if not isinstance(user_canonical, dict):
        raise StoreError(f"{SYNONYMS_FILE}: 'canonical' must map a term to a list of variants")
    for term, variants in user_canonical.items():
        if not isinstance(variants, list):
            raise StoreError(f"{SYNONYMS_FILE}: canonical term {term!r} must list its variants")
        claimed = {str(v).casefold() for v in variants} | {str(term).casefold()}
        for other, others in merged["canonical"].items():
            if other != term:
                merged["canonical"][other] = [v for v in others if v.casefold() not in claimed]
        current = merged["canonical"].get(term, [])
        merged["canonical"][term] = current + [str(v) for v in variants if v not in current]
    return merged


def load_synonyms(paths: KBPaths | None = None) -> Synonyms:
    """The shipped defaults merged with the knowledge base's `_synonyms.json` (created with the defaults)."""
    if paths is None:
        return default_synonyms()
    path = paths.site_src / SYNONYMS_FILE
    if not path.exists():
        if paths.site_src.is_dir():
            write_json(path, default_synonyms_json())
        return default_synonyms()
    stat = path.stat()
    return _load_file(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _load_file(path: Path, mtime_ns: int, size: int) -> Synonyms:
    # keyed on mtime and size so an edited file is re-read while repeated calls in one run are free
    user = read_json(path, default={})
    if not isinstance(user, dict):
        raise StoreError(f"{path}: must be a JSON object", hint="delete it to get the defaults back")
    return Synonyms.from_json(merge_synonyms(default_synonyms_json(), user))


def _as_synonyms(synonyms: Synonyms | Mapping[str, Any] | None) -> Synonyms:
    if synonyms is None:
        return default_synonyms()
    if isinstance(synonyms, Synonyms):
        return synonyms
    return Synonyms.from_json(merge_synonyms(default_synonyms_json(), synonyms))


def canonical_tag(term: str, synonyms: Synonyms | Mapping[str, Any] | None = None) -> str:
    """The one canonical, slug-safe tag for `term` ('' for a term with no letters or digits)."""
    tag = _as_synonyms(synonyms).canonical_tag(str(term))
    return "" if tag == "untitled" and "untitled" not in str(term).lower() else tag


def canonical_tags(
    terms: Iterable[Any] | None, synonyms: Synonyms | Mapping[str, Any] | None = None
) -> list[str]:
    """Canonical tags of `terms`: deduplicated, first-seen order kept, empties dropped. A phrase the table
    does not know whose words it knows each ("Rust async") gives their tags, so that it meets the topics
    that name them apart (rust, async ← 异步)."""
    table = _as_synonyms(synonyms)
    seen: dict[str, None] = {}
    for term in terms or []:
        if isinstance(term, str | int | float) and not isinstance(term, bool):
            seen.update(dict.fromkeys(tag for tag in _tags_of(str(term), table) if tag))
    return list(seen)


def _tags_of(term: str, table: Synonyms) -> list[str]:
    words = term.split()
    if len(words) > 1 and table.lookup(term) is None:
        known = [table.lookup(word) for word in words]
        if all(known):
            return [str(tag) for tag in known]
    return [canonical_tag(term, table)]
