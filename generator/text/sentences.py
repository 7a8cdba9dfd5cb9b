"""Where sentences end, in English and in CJK text: the one splitter every summary, quote and lead uses.

A sentence ends at '.', '!' or '?' before a space, or at '。', '！', '？' (Chinese puts no space after
them); a blank line ends one too. An abbreviation ("e.g.", "i.e." however spelt: "eg.", "i. e."; "etc.", "vs.",
"cf.") or an initial ("J. Smith") does not end a sentence, nor does an ellipsis the sentence goes on after
("the `maybe ... end` block", "case ... of"): one ends a sentence only before a capital, a quote or the end of
the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..cjk import is_cjk

# "e.g." and "i.e." as authors write them: "eg." and "ie." without the inner stop, "e. g." and "i. e." with a
# space inside (the first stop of those is no end either)
_ABBREVIATION = (
    r"(?<!\b[eE]\.g)(?<!\b[iI]\.e)(?<!\b[eE]g)(?<!\b[iI]e)(?<!\b[eE]\. g)(?<!\b[iI]\. e)"
    r"(?<!\betc)(?<!\bvs)(?<!\bcf)(?<!\b[A-Z])(?!(?<=\b[eE])\. g\.|(?<=\b[iI])\. e\.)"
)
_END = re.compile(
    rf"{_ABBREVIATION}"
    r"(?:(?<!\.\.)[.!?](?=\s|$)|(?<=\.\.)\.(?=\s*$|\s+[A-Z\"“'‘]))|[。！？]|\n{2,}"
)
# A docstring's lead: code follows a period there ("Return x. x is…"), so it is cut only where the next
# sentence starts like one (a capital, a quote, a backtick or a bracket), abbreviations included.
_LEAD_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]+|[\u3400-\u9fff]")
_BLANKS = re.compile(r"[ \t]+")


def sentence_ends(text: str) -> list[int]:
    """The offset just past each sentence end of `text`."""
    return [match.end() for match in _END.finditer(text)]


def sentences(text: str) -> list[str]:
    """Every sentence of `text`, stripped, empty ones left out."""
    parts, start = [], 0
    for end in [*sentence_ends(text), len(text)]:
        parts.append(text[start:end].strip())
        start = end
    return [part for part in parts if part]


def split_sentences(text: str) -> list[str]:
    """The sentences of a prose text that say something: long enough, and holding a word."""
    return [s for s in sentences(_BLANKS.sub(" ", text)) if _long_enough(s) and _WORD.search(s)]


def says_something(text: str, words: int = 3) -> bool:
    """Whether `text` holds at least `words` words (a CJK character counts as one): a model's "1.", "[1.3]",
    "<bla bla" or a bare heading does not."""
    return len(_WORD.findall(text)) >= words


def _long_enough(sentence: str) -> bool:
    # a CJK character carries about a word, so short Chinese sentences still count
    return len(sentence) >= 12 or sum(1 for ch in sentence if is_cjk(ch)) >= 5


# The names of a docstring's sections (Google, NumPy): the one list the summary here and the document model's
# docstring reader (generator/documents) know them by.
DOCSTRING_SECTIONS = (
    r"args|arguments|parameters|params|keyword args|keyword arguments|other parameters|returns?|yields?|raises|"
    r"exceptions|examples?|example usage|usage|notes?|see also|attributes|methods|references|warnings?|todo"
)
# A docstring's section header (Google, NumPy and Sphinx styles): the summary ends before it, and a docstring
# that opens with one has no summary at all.
_SECTION = re.compile(
    rf"^\s*(?:{DOCSTRING_SECTIONS})\s*:?\s*$|^\s*:(?:param|returns?|raises?|rtype|type)\b", re.IGNORECASE
)
# An all-capitals label before the text ("ANALYSIS: findings per sub-question…"): a heading, not a sentence
_LABEL = re.compile(r"^[A-Z][A-Z0-9 _/&-]{2,40}:\s+(?=\S)")
# A docstring's bibliographic field (reST's docinfo, Sphinx's module options): `:author: …`, `:copyright: 2007
# Pallets`, `:module: watchdog.observers` say who wrote it and where it lives, never what it does; `:synopsis:`
# says what, in one line
_BIBLIOGRAPHIC = re.compile(
    r"^\s*:(?:(synopsis)|author|authors|moduleauthor|sectionauthor|copyright|license|licence|organization|"
    r"contact|address|version|revision|status|date|module|platform):(?:\s+(.*?))?\s*$",
    re.IGNORECASE,
)


def without_bibliography(lines: list[str]) -> list[str]:
    """A docstring's lines with its bibliographic fields blanked, line for line, and a `:synopsis:` field
    read as its text (a field's indented continuation goes with it)."""
    out: list[str] = []
    field = ""  # the field being read: "" outside one, "synopsis" or "other"
    for line in lines:
        match = _BIBLIOGRAPHIC.match(line)
        if match:
            field = "synopsis" if match.group(1) else "other"
            out.append((match.group(2) or "") if field == "synopsis" else "")
        elif field and line[:1].isspace() and line.strip():
            out.append(line.strip() if field == "synopsis" else "")
        else:
            field = ""
            out.append(line)
    return out


def docstring_summary(text: str, as_written: bool = False) -> str:
    """The part of a docstring that can summarize it: the text before its first section header (`Args:`,
    `Returns`, `:param x:`), without an all-capitals label in front; "" when it opens with a section.
    Sentence-cased ("return the …" → "Return the …") unless `as_written`: a doc's own sentence keeps its
    lower-case product name ("deepkb turns …")."""
    kept: list[str] = []
    for line in without_bibliography(text.strip().splitlines()):
        if _SECTION.match(line):
            break
        kept.append(line)
    summary = _LABEL.sub("", "\n".join(kept).strip(), count=1)
    return summary if as_written else summary[:1].upper() + summary[1:]


def lead_sentences(text: str, most: int = 0, as_written: bool = False) -> list[str]:
    """A docstring's leading sentences (its summary, `docstring_summary`), on one line each; with `most`, the
    last holds the rest of the summary."""
    summary = docstring_summary(text, as_written)
    return _LEAD_END.split(" ".join(summary.split()), maxsplit=max(most - 1, 0))


ALIKE_VALUES = 5  # values a merged sentence lists before saying how many more there are


def merge_alike(found: Sequence[str], most: int = ALIKE_VALUES) -> list[str]:
    """Sentences that differ in one word only, said once with that word's values listed, where the first of
    them stood: a module docstring per backend ("Preconfigured converters for msgspec.", "… for bson.") is
    "Preconfigured converters for msgspec and bson."; "Future types for the Buffer middleware." and "Error
    types …" are "Future and Error types for the Buffer middleware."."""
    return [said for said, _ in merged_alike(found, most)]


def merged_alike(found: Sequence[str], most: int = ALIKE_VALUES) -> list[tuple[str, int]]:
    """`merge_alike`'s sentences, each with how many of `found` it says."""
    groups: list[tuple[list[str], list[int], list[list[str]]]] = []  # (words, [slot] once two agree, members)
    for sentence in found:
        words = sentence.split()
        for template, slot, members in groups:
            if len(template) != len(words) or len(words) < 3:
                continue
            differ = [i for i, (a, b) in enumerate(zip(template, words, strict=True)) if a != b]
            if len(differ) == 1 and (not slot or slot == differ):
                slot[:] = differ
                members.append(words)
                break
        else:
            groups.append((words, [], [words]))
    return [(_said_once(template, slot, members, most), len(members)) for template, slot, members in groups]


def _said_once(template: list[str], slot: list[int], members: list[list[str]], most: int) -> str:
    if not slot:
        return " ".join(template)
    at = slot[0]
    first = template[at]
    tail = first[len(first.rstrip(".,;:!?")) :]  # the slot ends the sentence: its stop follows the list
    named = [m[at][: len(m[at]) - len(tail)] if tail and m[at].endswith(tail) else m[at] for m in members]
    if len(named) > most:
        named = [*named[:most], f"{len(named) - most} more"]
    listed = ", ".join(named[:-1]) + " and " + named[-1]
    return " ".join([*template[:at], listed + tail, *template[at + 1 :]])
