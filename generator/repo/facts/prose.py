"""Docstrings and doc comments turned into clean prose: the summary sentence or two a page shows.

A docstring is cut to its description by docstring_parser (before its reST fields, Google and NumPy
sections) and read by the document model's doc-comment reader (generator/documents: titles, roles, literals,
emphasis, doctests and section headers handled there); its first prose paragraph is cut at a sentence end,
a list kept as one sentence after the line that announces it. Licence headers, build tags, editor
modelines, badges and install lines are not prose and are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

import docstring_parser

from generator.cjk import CJK_RUN
from generator.documents import Block, read_text
from generator.documents.docstring import cleandoc
from generator.documents.model import code_spans_as_text, is_docstring_section
from generator.text.pointers import points_elsewhere
from generator.text.sentences import sentence_ends

SUMMARY_CHARS = 320  # a summary is cut at the last sentence end before this
SHORT_ENOUGH = 140  # a first sentence shorter than this takes the second one with it
_END = ""  # no paragraph left (a gap in the prose is None)
LIST_MARK = "\x00list "  # marks a paragraph that was a list, between _prose_blocks and summary
HEAD_CHARS = 1000
SYMBOL_HEAD_CHARS = 600  # a summary comes from a docstring's first paragraphs: only this much is read

# paragraphs that are not prose about the code
_NOT_PROSE = re.compile(
    r"""(?ix)^\s*(?:
        copyright\b | \(c\)\s | ©
      | spdx-license-identifier | licensed\ under | this\ (?:file|program|library|software)\ is\ (?:free|part|distributed|licensed)
      | permission\ is\ hereby\ granted | all\ rights\ reserved | use\ of\ this\ source\ code\ is\ governed
      | see\ the\ license | see\ the\ (?:authors|contributors|notice)\ file | under\ the\ (?:mit|apache|bsd|gnu) | @license | license:
      | go:build | \+build\b | go:generate | nolint | -\*-\s | vim?:\s | coding[:=] | !/ | eslint | @ts-
      | frozen_string_literal: | (?:encoding|typed|warn_indent|shareable_constant_value):\ \S+\s*$
      | jshint | prettier-ignore | istanbul\ ignore | @flow\b | use\ strict
      | (?:pip|npm|yarn|pnpm|go|cargo|gem|poetry|uv)\ (?:install|get|add)\b
      | \$\ | >>>\ | \.\.\ \w+:: | \[!\[ | !\[ | <img | <a\ | <p\ | <div
      | author[s]?: | maintainer[s]?: | created\ (?:on|by)\b | @author | @file\b | @module\b
      | todo\b | fixme\b | xxx\b | deprecated\b
      | (?P<banner>[/*=\-~\#_+])(?P=banner){3,}   # a banner: "//////// PARSE ////////", "===== Section ====="
    )"""
)
# a line telling a coverage tool, linter or type checker what to skip, wherever it stands in a comment (pino's
# getCallerLocation: "Attempt to extract the user callsite (file:line:column)" over "/* istanbul ignore next */"
# read "… (file:line:column) istanbul ignore next."): never prose
_DIRECTIVE_LINE = re.compile(
    r"(?im)^[ \t]*(?:istanbul|c8|v8)[ \t]+ignore\b.*\n?|^[ \t]*(?:eslint-(?:disable|enable)|prettier-ignore"
    r"|@ts-(?:ignore|expect-error|nocheck)|jshint|jscs:|tslint:|nolint|noqa|pragma:[ \t]*no[ \t]+cover)\b.*\n?"
)
_LICENCE_LINE = re.compile(
    r"(?im)^\s*(?:copyright\b|\(c\)\s|©|spdx-license-identifier|all rights reserved|licensed (?:under|to)\b"
    r"|(?:mit|bsd|apache|gpl|isc|mpl)[\w\s.-]{0,20}licen[cs]ed?\b"
    r"|.*\b(?:apache|mozilla public|gnu (?:lesser |affero )?general public) licen[cs]e\b"
    r"|unless required by applicable law|.*without warranties or conditions|you may not use this file except)"
)
_URL_ONLY = re.compile(r"^\s*<?https?://\S+?>?\.?\s*$", re.IGNORECASE)
_REMARK = re.compile(r"(?:TODO|FIXME|XXX|HACK|NOTE|BUG)\b[:(]?")
_CONTRIBUTING = re.compile(r"(?i)\b(?:pull requests?|contribut\w+|code of conduct|bug reports?)\b")
# where the code came from, not what it does: "Ported from Goji's middleware, source: …", "based on the
# original work by Armon Dadgar in https://… (MIT licensed)"
_CREDIT = re.compile(
    r"(?i)\b(?:(?:ported|copied|borrowed|forked|vendored) from|^port of \S+ from|the original work\b"
    r"|^original(?:ly)? (?:source|code|implementation)\b"  # reselect's "Original source: https://github.com/…"
    r"|(?:adapted|derived) from \S+'s"
    r"|(?:derived|based) (?:from|on) (?:the )?(?:original )?(?:work|code|implementation) (?:by|of|from))\b"
)
_JSDOC_TAG = re.compile(r"(?m)^[ \t]*@\w+.*$")
_JSDOC_TAGS_BEGIN = re.compile(r"(?m)^@\w+")  # JSDoc: the description ends where the block tags begin
_PROSE_TAG = re.compile(r"(?m)^[ \t]*@(?:summary|description)\b[ \t]*")
_REST_FIELD = re.compile(
    r"^[ \t]*:(?:param|parameter|arg|argument|key|keyword|type|raises?|except|exception|returns?|rtype|"
    r"yields?|ytype|var|ivar|cvar|meta|since|deprecated|version)\b[^:`\n]*:",
    re.MULTILINE,
)
_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:!?])(?=\s|$)")
# what the document model reads differently from plain words: any markup but code spans and underscores
_NEEDS_READING = re.compile(
    r"[*<>\[\]|#\\=~^$@{}&]|:\w[\w.+-]*:|`_|::|:[ \t]*$|^[ \t]|^```|^-{3,}|^\s*(?:[-+•]|\d+[.)])\s"
    r"|(?i:copyright|licen[cs]e|\(c\))",
    re.M,
)
# anything that needs more than joining lines: markup, lists, fields, titles, licence words, doctests
_MARKUP = re.compile(
    r"[`*:_<>\[\]|#\\=~^>$@]|^\s*(?:[-+•]|\d+[.)])\s|^[ \t]*([-=~^\"'+.])\1{2,}[ \t]*$|(?i:copyright|licen[cs]e|\(c\))",
    re.M,
)  # … and a reST title's underline ("transitions.core" over "----------------"): a heading, not prose


# a module docstring's first line naming the module's file (hug's `"""hug/api.py`, websocket-client's
# `_app.py`): a title, not what the module does
_FILE_TITLE = re.compile(r"\A\s*[\w./-]+\.pyi?[ \t]*\r?\n")


def module_summary(text: str | None) -> str:
    """What a module's docstring says the module does: its summary, past a first line that only names the
    module's file."""
    return summary(_FILE_TITLE.sub("", text, count=1)) if text else ""


@lru_cache(maxsize=4096)
def summary(text: str | None, *, limit: int = SUMMARY_CHARS, sections: bool = True) -> str:
    """The first real paragraph of a docstring or doc comment, as one or two clean sentences.

    "" when nothing in it is prose (a licence header, a build tag, only parameters). The result never ends
    mid-sentence: it is cut at the last sentence end within `limit` (a single over-long sentence is cut at
    a word boundary and closed with "…"). `sections=False` skips docstring_parser: a symbol's docstring
    (thousands per repository) is read by the block rules alone, which stop at section headers too.
    """
    if not text or not text.strip():
        return ""
    head = _past_credit(_line_ends_sentence(_past_title(in_english(_DIRECTIVE_LINE.sub("", _head(text))))))
    plain = _plain_sentence(head)
    plain = plain if plain is not None else _code_span_sentence(head)
    if plain is not None:
        return _fit(_sentences(plain), limit)
    found = _prose_blocks(description(head) if sections else cleandoc(head.strip("\n")), keep_gaps=True)
    paragraph = next(found, _END)  # read lazily: the first prose paragraph is usually the answer
    while paragraph != _END:
        following = next(found, _END)
        if paragraph:
            if paragraph.endswith(":") and following and following.startswith(LIST_MARK):
                paragraph += " " + following.removeprefix(LIST_MARK)  # "Click in three points:" + list
                following = next(found, _END)
            said = paragraph.removeprefix(LIST_MARK).strip()
            sentences = [] if _URL_ONLY.match(said) else _sentences(said)  # a bare link says nothing
            if sentences:
                return _fit(sentences, limit)
        paragraph = following
    return ""


# a doc comment's title: a line of a few capitalized words, no sentence ("Node Cron", "Gunicorn Control
# Interface", "HTTP Request Parser")
_TITLE_WORD = r"[A-Z][\w-]*(?:\.[\w-]+)*"  # "Node.js", never a sentence's last word "Cached."
_TITLE_LINE = re.compile(
    rf"(?:{_TITLE_WORD}|[&/-])(?:[ \t]+(?:{_TITLE_WORD}|[&/-]|of|and|for|the)){{0,4}}[ \t]*"
)
_PARAGRAPHS = re.compile(r"\n[ \t]*(?:\*[ \t]*)?\n")


# a docstring whose lines are sentences without their stops (deepdiff's "Combines lists of hashes into one
# hash" over "This can be optimized in future."; OpenHands' "Deep copy of metrics" over "This serves as a
# snapshot …"): a line of words ending on none of .!?:;,- before a line opening on a word that only opens a
# sentence ends its sentence, as PEP 257's summary line does
_UNSTOPPED_LINE = re.compile(
    r"(?m)^([ \t]*\w[^\n]*\s[^\n]*[\w)`'\"])[ \t]*(?=\n[ \t]*(?:This|These|That|It|Its|The|If|When|Note|See|Also"
    r"|We|You|Returns?|Raises?|Used|Use|Can|May|Should|Will)\b)"
)


# … unless the line ends on a word a sentence goes on after ("Compute the total of" / "The values given.")
_GOES_ON = frozenset(
    "a an the of to in on at by for from with as and or but nor than that which who whose its their this these "
    "is are was were be been being has have had not".split()
)


def _line_ends_sentence(text: str) -> str:
    if "\n" not in text:
        return text

    def stop(line: re.Match[str]) -> str:
        last = line[1].rsplit(None, 1)[-1].lower()
        return line[0] if last in _GOES_ON else line[1] + "."

    return _UNSTOPPED_LINE.sub(stop, text)


def _past_credit(text: str) -> str:
    """A comment whose first line, a sentence of its own, credits where the code comes from (p-queue's "Port of
    lower_bound from https://…" over "Used to compute insertion index …"): the lines after it."""
    first, newline, rest = text.lstrip("\n").partition("\n")
    if newline and first.rstrip().endswith(".") and rest.strip() and rest.split("\n", 1)[0].strip():
        return rest if _aside(first) else text
    return text


def _past_title(text: str) -> str:
    """A doc comment that opens on its title and then says what the code does ("Node Cron", then "A flexible
    cron-based task scheduling system…"; gunicorn's "Gunicorn Control Interface", then "Provides a control
    socket server…"): the paragraph after the title. A title followed by no prose (a pointer: scrapy's "Scrapy
    Shell" over "See documentation in docs/topics/shell.rst", or a field list) stays the summary."""
    parts = _PARAGRAPHS.split(text.strip("\n"), maxsplit=1)
    if len(parts) < 2 or not _TITLE_LINE.fullmatch(parts[0].strip().lstrip("*").strip()):
        return text
    rest = parts[1].strip()
    opening = " ".join(rest.split("\n", 1)[0].lstrip("* ").split())
    if not opening[:1].isupper() or _NOT_PROSE.match(opening) or points_elsewhere(opening):
        return text
    return parts[1]


# a line of a doc comment in English words alone ("Configuration", "Size of the read buffer"): not code
_ENGLISH_LINE = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;:'’!?/()-]*")
_HAN_ASIDE = re.compile(r"\s*[(（][^()（）]*[\u3400-\u9fff][^()（）]*[)）]")  # "(开启网络服务)"
_LATIN = re.compile(r"[A-Za-z]{2,}")
# the English says as much as the Chinese with a word for every four Han characters (a word says two to four)
HAN_PER_WORD = 4
_NAME_ALONE = re.compile(r"[A-Za-z_]\w*")


def in_english(text: str) -> str:
    """A doc comment that says each thing twice, in Chinese and in English, as its English alone: gws writes
    "读缓冲区的大小" on one line and "Size of the read buffer" on the next (172 such pairs), zinx "Start the
    network service" then "(开启网络服务)". The pages are English; a comment in Chinese alone stays whole."""
    if not CJK_RUN.search(text):
        return text
    lines = [_HAN_ASIDE.sub("", line) for line in text.split("\n")]
    english = [line for line in lines if _LATIN.search(line) and _ENGLISH_LINE.fullmatch(line.strip())]
    # … when the English says as much: a Chinese comment with a line "Usage:" or "Deprecated" is Chinese
    if sum(len(_LATIN.findall(line)) for line in english) * HAN_PER_WORD < len(
        "".join(CJK_RUN.findall(text))
    ):
        return text
    # … less each line in Chinese, with a code name or two ("ReadN 精准地读取 len(data) 个字节"), and the name
    # alone that heads a Chinese line (gws' "ReadLoop", then "循环读取消息.", then "Read messages in a loop.")
    chinese = [sum(map(len, CJK_RUN.findall(line))) >= max(len(_LATIN.findall(line)), 1) for line in lines]
    return "\n".join(
        line
        for at, line in enumerate(lines)
        if not chinese[at]
        and not (at + 1 < len(lines) and chinese[at + 1] and _NAME_ALONE.fullmatch(line.strip()))
    )


def doc_head(text: str) -> str:
    """What a symbol keeps of its docstring for `summary` to read later: its head, trimmed (a symbol's
    summary comes from its first paragraph; tens of thousands of them are kept and redacted)."""
    return _head(text, SYMBOL_HEAD_CHARS).strip() if text else ""


def _head(text: str, limit: int = 0) -> str:
    """The part of a long docstring a summary can come from: its first paragraphs (examples, parameter
    lists and references further down cost time and never reach a summary)."""
    limit = limit or HEAD_CHARS
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit)
    return text[: cut if cut > 0 else limit]


def _aside(text: str) -> bool:
    """A paragraph about the project's people or the code's origin (a contribution note, a credit), not
    about what the code does."""
    return bool(_CONTRIBUTING.search(text) or _CREDIT.search(text))


def _plain_sentence(text: str) -> str | None:
    """A first paragraph without markup ("Return the sum of two\nnumbers."): the common case, read
    without parsing; None when it needs the full reading."""
    first = text.strip().split("\n\n", 1)[0]
    if _MARKUP.search(first) or _NOT_PROSE.match(first) or _aside(first):
        return None
    joined = _SPACES.sub(" ", first).strip()
    if not joined or len(joined) < 3:
        return None
    return joined if joined[-1] in ".!?" else joined + "."


def _code_span_sentence(text: str) -> str | None:
    """A first paragraph whose only markup is code spans (`name`) and underscores, read as the document
    model reads it (code spans keep their text) without parsing; None when it needs the full reading."""
    first = text.strip().split("\n\n", 1)[0]
    if _NEEDS_READING.search(first) or _NOT_PROSE.match(first) or _URL_ONLY.match(first):
        return None
    joined = _SPACE_BEFORE_STOP.sub(r"\1", _SPACES.sub(" ", first).strip())
    cleaned = _as_sentence(_plain(code_spans_as_text(joined)))
    if len(cleaned) < 3 or _NOT_PROSE.match(cleaned) or _aside(cleaned):
        return None
    return cleaned


def description(text: str) -> str:
    """The descriptive part of a docstring: everything before its parameter/return/example sections."""
    text = cleandoc(text.strip("\n"))
    if not _has_sections(text):
        return text
    try:
        parsed = docstring_parser.parse(text)
    except (docstring_parser.ParseError, ValueError, IndexError, AttributeError):
        return text
    if parsed.style == docstring_parser.DocstringStyle.REST:
        # the reST reader takes a wrapped line that starts with a role (":class:`Option`s or …") for a
        # field and drops the rest of the description: cut at the first real field instead
        field = _REST_FIELD.search(text)
        return text[: field.start()] if field else text
    parts = [parsed.short_description or "", parsed.long_description or ""]
    # docstring_parser ends the short description at the first line break; a wrapped sentence goes on
    joint = "\n\n" if parsed.blank_after_short_description else "\n"
    return joint.join(p for p in parts if p.strip())


def _tagged_prose(text: str) -> str:
    """The text of a doc comment's first `@summary` or `@description` tag, to the next tag: date-fns'
    functions open on `@name`, `@category`, then `@summary Format the date.`; hono's and svelte's on
    `@description`."""
    found = _PROSE_TAG.search(text)
    if found is None:
        return ""
    rest = text[found.end() :]
    following = _JSDOC_TAGS_BEGIN.search(rest)
    return rest[: following.start()] if following else rest


def _prose_blocks(text: str, *, keep_gaps: bool = False) -> Iterator[str | None]:
    """Each prose paragraph of a description, a list as one (starting with LIST_MARK); a block that is not
    prose (code, a doctest, a link, a banner) gives None when `keep_gaps`, so a reader knows what stood
    right below a paragraph. Nothing after a licence header is prose."""
    tags = _JSDOC_TAGS_BEGIN.search(text)  # a tag's value may run on ("@typedef {{\n  filter?: …\n}} Name")
    head = text[: tags.start()] if tags else text
    if tags and not head.strip():  # tags alone: what it documents may be said under @summary, @description
        head = _tagged_prose(text)
    lines = _JSDOC_TAG.sub("", head).split("\n")
    items: list[str] = []
    for section, block in read_text("\n".join(lines), name="", markup="docstring").blocks():
        source = lines[block.start - 1 : block.end]
        if any(_LICENCE_LINE.match(line) for line in source):
            return  # a licence header (even under the project's name): nothing after it is about the code
        if block.kind == "item" and not is_docstring_section(section.heading):
            items.append(_plain(block.plain).rstrip(".;, "))
            continue
        if items:
            listed = "; ".join(item for item in items if item)
            yield LIST_MARK + _as_sentence(listed[:1].upper() + listed[1:])
            items = []
        cleaned = _prose(block, source) if not is_docstring_section(section.heading) else ""
        if cleaned:
            yield cleaned
        elif keep_gaps:
            yield None
    if items:
        listed = "; ".join(item for item in items if item)
        yield LIST_MARK + _as_sentence(listed[:1].upper() + listed[1:])


def _prose(block: Block, source: list[str]) -> str:
    """A paragraph's text as a sentence, or "" for code, a modeline, a build tag, a bare link or boilerplate."""
    first = source[0] if source else ""
    if block.kind != "paragraph" or _NOT_PROSE.match(first) or _URL_ONLY.match(" ".join(source)):
        return ""
    if _drawn(source):
        return ""
    cleaned = _as_sentence(_plain(block.plain))
    return "" if _NOT_PROSE.match(cleaned) or _aside(cleaned) else cleaned


def _drawn(lines: list[str]) -> bool:
    """ASCII art: a logo drawn in underscores and bars (nlohmann/json's file headers) is mostly not letters."""
    marks = [ch for line in lines for ch in line if not ch.isspace()]
    return len(marks) >= 20 and sum(ch.isalnum() for ch in marks) < len(marks) / 2


def _plain(text: str) -> str:
    return _SPACES.sub(" ", text.replace("\\", "")).strip()


def _has_sections(text: str) -> bool:
    return ":param" in text or ":return" in text or ":raises" in text or "---\n" in text or ":\n" in text


def _as_sentence(item: str) -> str:
    item = item.removesuffix("::").strip()
    if not item:
        return ""
    return item if item[-1] in ".!?:;" else item + "."


def _sentences(paragraph: str) -> list[str]:
    sentences, start = [], 0
    for end in sentence_ends(paragraph):
        sentences.append(paragraph[start:end].strip())
        start = end
    tail = paragraph[start:].strip()
    if tail:
        sentences.append(tail if tail[-1] in ".!?:" else tail.rstrip(";,") + ".")  # _fit ends a ':' last
    return [s for s in sentences if len(s) > 1 and not _REMARK.match(s)]  # a TODO is not a description


def _fit(sentences: list[str], limit: int) -> str:
    if not sentences:
        return ""  # only remarks ("NOTE: these fields change at runtime."): nothing that describes
    first = sentences[0]
    if len(first) > limit:
        cut = first[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
        return cut + "…"
    chosen = [first]
    second = sentences[1] if len(sentences) > 1 else ""
    # a second sentence joins a short first one, unless it only announces what is not shown ("Usage:")
    if len(first) < SHORT_ENOUGH and second and not second.endswith(":") and len(first) + len(second) < limit:
        chosen.append(second)
    text = " ".join(chosen)
    if text.endswith(":"):
        text = text[:-1] + "."
    return text
