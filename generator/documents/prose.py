"""Prose or symbols: whether a block says something a reader can be told as a finding, or lists paths,
identifiers and markup."""

from __future__ import annotations

import re

from ..cjk import is_cjk

SYMBOL_RATIO = 0.5  # below this share of ordinary words a block is a symbol listing, not prose
_ENTRY_HEAD = re.compile(r"^(.{1,160}?)(?:\s[—–-]\s|:\s)")
# a word, a number, a name written in two or three capitalised parts ("CloudEvents", "OpenTelemetry",
# "JavaScript"): a product's name is a word of the sentence, not an identifier of code; or a word in capitals
# ("**NOTE: OBSOLETE**", "API"): a constant's name joins its words with "_" and stays a symbol
_WORDLIKE = re.compile(
    r"[(\[\"'“‘«]*(?:[A-Za-z][a-z]*(?:[-'’][A-Za-z][a-z]*)*|(?:[A-Z][a-z]+){2,3}|[A-Z]{2,}s?|\d+(?:[.,]\d+)*%?)"
    r"[)\]\"'”’»]*[.,;:!?…]*[)\]\"'”’»]*"
)
_CJK_OR_MARK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff，。、；：？！（）“”]")
# a design document's number heading its title, as another document names it ("SE-0316: Global Actors
# introduced…", "A50: gRPC xDS Outlier Detection Support is a spec…"): a document named, not a symbol
_DOCUMENT_NUMBER = re.compile(r"[A-Z]{1,5}-?\d{1,5}")
_ALNUM = re.compile(r"\w")
# a field's definition line in a specification ("`verifier.id` _string (TypeURI), required_", as text
# "verifier.id string (TypeURI), required"): the name of what the paragraphs after it describe
_FIELD_DEFINITION = re.compile(
    r"^[`*]*(?P<name>[A-Za-z_$@][\w.$@\[\]-]*)[`*]* [\w ()\[\]<>/.,>-]{1,80}?,\s*(?:required|optional)[_*]*\s*$",
    re.IGNORECASE,
)


def code_unmarked(written: str) -> str:
    """Text as Markdown writes it with its code spans' backticks dropped, the code read as words; a span of
    spaces only (a separator's default: "headerJoin: `` ` ` `` by default") shown quoted, `" "`, where dropping
    its backticks would leave nothing to read."""
    return _CODE_SPAN.sub(_span_words, written).replace("`", "")


def _span_words(span: re.Match[str]) -> str:
    code = span.group(0).strip("`")
    return f'"{code}"' if code and code.isspace() else code


def defined_field(line: str) -> str:
    """The field a specification's definition line names ("verifier object, required" → "verifier"), else ''."""
    found = _FIELD_DEFINITION.match(" ".join(line.split()))
    return found["name"] if found else ""


def is_symbol_entry(block: str) -> bool:
    """A block that is mostly symbols and paths, or an entry whose term is one (`name (function) path:1-9 —
    what it does`, an API listing): neither says anything a report can quote as a finding."""
    if prose_ratio(block) < SYMBOL_RATIO:
        return True
    head = _ENTRY_HEAD.match(block)
    if head is None or _DOCUMENT_NUMBER.fullmatch(head.group(1)):
        return False
    return prose_ratio(head.group(1)) < SYMBOL_RATIO


# a code span in a paragraph as Markdown writes it: "欢迎使用命令行工具快速体验：`npx @alilc/lowcode-code-generator …`"
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
# the weighed characters of prose a sentence around a code span needs to say something of its own: four Han
# characters' or about five English words' worth, more than a listing line's "(function)" or "Files:"
MIN_SPAN_PROSE = 24


def is_symbol_paragraph(written: str) -> bool:
    """`is_symbol_entry` of a paragraph as Markdown writes it, code spans in backticks: a sentence that quotes
    a command or a name in a code span ("欢迎使用命令行工具快速体验：`npx @alilc/lowcode-code-generator -i
    example-schema.json -o generated -s icejs3`") is prose when its words outside the spans are, though the
    command's characters outweigh them; a listing line (`` `a.b` (function) `x.py:1-9` ``) stays a symbol."""
    plain = " ".join(written.replace("`", "").split())
    if not is_symbol_entry(plain):
        return False
    if is_glossed_term(written):
        return (
            False  # a term and what it is, as its author wrote it: a config key, an option, a labelled link
        )
    head = _ENTRY_HEAD.match(plain)
    if head is not None and prose_ratio(head.group(1)) < SYMBOL_RATIO:
        return True  # an entry whose term is a symbol: a listing line
    spans = _CODE_SPAN.findall(written)
    outside = " ".join(_CODE_SPAN.sub(" ", written).split())
    if not spans or prose_ratio(outside) < SYMBOL_RATIO:
        return True
    return _weight(outside) < MIN_SPAN_PROSE


# a term, then ": " (or "：", " — ") and what it is: "`dataSource`: `zero` or `random` …", "默认值: `{…}`"
_GLOSS_HEAD = re.compile(r"^(.{1,80}?)(?:\s[—–-]\s|:\s|\s?：\s*)(?=\S)")
# what marks a term as deepkb's own code index entry, not an author's: a kind in brackets or a file's lines
_INDEX_TERM = re.compile(
    r"\((?:function|method|class|module|constant|variable|attribute|property)\)|\S\.\w+:\d+"
)
_MARKUP = re.compile(r"[<>{}=]")
# the weighed characters of prose a symbol's gloss needs: four Han characters' or two or three English
# words' worth ("zk所属路径", "Invalid transaction flags set"); a type or a version after the colon is none
MIN_GLOSS = 12


def is_index_line(written: str) -> bool:
    """A code index's entry, as deepkb's own pages list symbols: a kind in brackets or a file's lines."""
    return _INDEX_TERM.search(written) is not None


def is_glossed_term(written: str) -> bool:
    """Whether a paragraph or item as Markdown writes it is a term and what it is, as an author's reference
    writes one: a label in words and its value, code or a link as it may be ("默认值: `{ "apscheduler.timezone":
    "Asia/Shanghai" }`", "Java: https://github.com/apache/apisix-java-plugin-runner"), or an option's,
    field's or code's name and sentences saying what it does ("`dataSource`: `zero` or `random` … The
    `random` source only works with the `complete` method", "`out_dir`: 指定项目生成路径"). A code index
    line naming a kind or a file's lines ("`a.b` (function) `x.py:1-9` — …") is no author's term."""
    head = _GLOSS_HEAD.match(written)
    if head is None or is_index_line(written):
        return False
    term = " ".join(head.group(1).replace("`", "").split())
    if _MARKUP.search(
        term
    ):  # a tag's or an expression's text ("<demo-block type="form" :config="[{ type: …")
        return False
    if _DOCUMENT_NUMBER.fullmatch(term) or prose_ratio(term) >= SYMBOL_RATIO:
        return True
    gloss = " ".join(_CODE_SPAN.sub(" ", written[head.end() :]).split())
    return prose_ratio(gloss) >= SYMBOL_RATIO and _weight(gloss) >= MIN_GLOSS


# A Han character weighs what three Latin letters do: a Chinese word is one to three characters (most often
# two) where an English word is about five letters, so a Chinese sentence naming an API ("要设置拦截器，我们使用
# 从 @nestjs/common 包导入的 @UseInterceptors() 装饰器。", 0.41 counted by characters) reads as its English twin
# would (0.67), and a symbol listing with a Chinese word in it stays one
HAN_WEIGHT = 3


def prose_ratio(sentence: str) -> float:
    """Share of a sentence's characters that sit in ordinary words or numbers (CJK characters count as words,
    each at HAN_WEIGHT): paths, identifiers and markup are not something a reader can be told as a finding."""
    good = total = 0
    for token in sentence.split():
        if not _ALNUM.search(token):
            continue  # a dash or a bullet alone is punctuation, not a symbol
        weight = len(token) + (HAN_WEIGHT - 1) * sum(1 for ch in token if is_cjk(ch))
        total += weight
        if _WORDLIKE.fullmatch(token):
            good += weight
        else:
            good += _written_words(token)
    return good / total if total else 0.0


def _weight(text: str) -> int:
    """A text's weighed characters, as `prose_ratio` counts them (each CJK character HAN_WEIGHT)."""
    return sum(
        len(token) + (HAN_WEIGHT - 1) * sum(1 for ch in token if is_cjk(ch))
        for token in text.split()
        if _ALNUM.search(token)
    )


def _written_words(token: str) -> int:
    """The weighed characters of a token that read as words: its CJK characters and Chinese marks, and each
    Latin word written against them without a space ("格式书写时，Front-matter"): a name in a Chinese sentence."""
    marks = _CJK_OR_MARK.findall(token)
    if not marks:
        return 0
    han = sum(1 for mark in marks if is_cjk(mark))
    latin = sum(len(part) for part in _CJK_OR_MARK.split(token) if _WORDLIKE.fullmatch(part))
    return len(marks) + (HAN_WEIGHT - 1) * han + latin
