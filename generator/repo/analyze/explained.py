"""What a key type's or function's own doc comment explains past its first sentence (issue 29 items 2 and
6): a repository without a docs folder often explains its concepts in the comments on its types — a pool's
comment says its goroutines start lazily and that `Wait` must be called; puppeteer's `Page` says what a page
is and shows one in an `@example`. The pages showed only the first sentence. Here the whole comment is read
again from the source at the pinned revision (the facts keep only its head; `documents.comment` finds and
cleans it), for the few types and functions a page shows: its further paragraphs, its examples (`@example`,
`>>>` doctests, fenced or indented code) and, for Go, the package's `Example<Name>` test functions, each
block cited at its own lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from generator.documents import Document, read_text
from generator.documents.comment import Comment, doc_comment, module_docstring
from generator.documents.model import Block, Section, is_docstring_section
from generator.redact import Redactor
from generator.repo.map.walk import read_or_none
from generator.repo.model import CitedSymbol, DocPassage, Explained, Facts, Symbol
from generator.text.sentences import sentences

EXPLAINED_FUNCTIONS = 4  # a page's key functions whose comments are read again (all its key types are)
PASSAGES = 8  # blocks shown of one type's comment past its summary
CODE_LINES = 40  # a longer example is not shown whole
COMMENT_LINES = 80  # the lines of a comment read for its passages
MIN_WORDS = 5
_GO_EXAMPLE = re.compile(r"^func (Example\w*)\(\)\s*\{")
_CODE_LANGUAGE = {
    "python": "python",
    "go": "go",
    "typescript": "ts",
    "javascript": "js",
    "java": "java",
    "kotlin": "kotlin",
}


def explain(
    symbols: Sequence[CitedSymbol], root: Path, facts: Facts, redactor: Redactor | None = None
) -> list[Explained]:
    """What each of `symbols` (a page's key types, then its key functions) explains of itself past the
    summary the page shows: the ones whose comment says more, in their order; a sentence several comments
    repeat ("The configuration methods (With*) will panic …") is shown under the first."""
    said = {_said(s) for cited in symbols for s in sentences(cited.doc)}  # the summaries the page shows
    explained = []
    for cited, symbol, language, found in _comments(symbols, root, facts, shown=True):
        if language == "go" and not symbol.parent:
            found += _examples_of(root, facts, cited.path, symbol.name)
        found = [_redacted(p, redactor) for p in _unsaid(found, said)]
        if found:
            explained.append(Explained(cited, tuple(found)))
    return explained


def docstrings(
    symbols: Sequence[CitedSymbol],
    root: Path,
    facts: Facts,
    redactor: Redactor | None = None,
    per_symbol: int = PASSAGES,
) -> list[DocPassage]:
    """The doc comments of `symbols` whole, summary first, each block at its own lines and headed by the
    symbol's name: what a docs page that documents them from their docstrings (Sphinx's autodoc,
    mkdocstrings) shows in its place."""
    return [
        replace(_redacted(p, redactor), heading=cited.name)
        for cited, _, _, found in _comments(symbols, root, facts, shown=False)
        for p in found[:per_symbol]
    ]


def module_docstring_passages(path: str, root: Path, redactor: Redactor | None = None) -> list[DocPassage]:
    """A Python module's own docstring whole, each block at its lines: what Sphinx's `automodule` and
    mkdocstrings' `::: package.module` show above the module's members."""
    text = _text(root, path, {})
    comment = module_docstring(text.split("\n")) if text else None
    if comment is None:
        return []
    document = read_text(_head(comment.text), name=path, origin=path, markup=comment.markup)
    return [_redacted(p, redactor) for p in _passages(document, comment, None, "python")]


def _comments(
    symbols: Sequence[CitedSymbol], root: Path, facts: Facts, *, shown: bool
) -> Iterator[tuple[CitedSymbol, Symbol, str, list[DocPassage]]]:
    """Each symbol found in the facts with its language and its own comment's passages: past the summary
    the page shows (`shown`: the symbol's `doc`), else whole. Each file is read once."""
    texts: dict[str, str] = {}
    for cited in symbols:
        symbol = _symbol(facts, cited.path, cited.name)
        language = facts.files[cited.path].language if cited.path in facts.files else ""
        text = _text(root, cited.path, texts)
        if symbol is not None and text:
            yield (
                cited,
                symbol,
                language,
                own_comment(text, symbol, language, cited.path, cited.doc if shown else None),
            )


def _unsaid(found: Sequence[DocPassage], said: set[str]) -> list[DocPassage]:
    """The passages with the sentences the page already says left out ("If a field conflicts with a
    standard field …" in both formatters' comments), each dropped when nothing new is left; `said` grows."""
    kept = []
    for passage in found:
        if passage.kind == "code":
            new = passage.text if _said(passage.text) not in said else ""
            said.add(_said(passage.text))
        else:
            parts = [s for s in sentences(passage.text) if _said(s) not in said]
            said.update(_said(s) for s in parts)
            new = " ".join(parts)
        if new.strip():
            kept.append(replace(passage, text=new) if new != passage.text else passage)
    return kept


def _said(text: str) -> str:
    return " ".join(text.lower().split())


def _symbol(facts: Facts, path: str, name: str) -> Symbol | None:
    file_facts = facts.files.get(path)
    found = [s for s in (file_facts.symbols if file_facts is not None else ()) if s.name == name]
    return found[0] if found else None


def _text(root: Path, path: str, texts: dict[str, str]) -> str:
    if path not in texts:
        texts[path] = read_or_none(root, path) or ""
    return texts[path]


def _redacted(passage: DocPassage, redactor: Redactor | None) -> DocPassage:
    """The passage with the secrets the redactor knows masked: only what a page shows is redacted, not the
    whole file it was found in."""
    return replace(passage, text=redactor.redact(passage.text)[0]) if redactor is not None else passage


# --------------------------------------------------------------------------- the comment


def own_comment(
    text: str, symbol: Symbol, language: str, path: str, shown: str | None = ""
) -> list[DocPassage]:
    """The blocks of `symbol`'s doc comment past what the page already shows of it (`shown`, its summary: the
    first paragraph, or its opening sentences when the paragraph goes on; None: the page shows none of it),
    parameter and return sections left out, at most PASSAGES, each at its source lines."""
    comment = doc_comment(text.split("\n"), symbol.start, symbol.end, language)
    if comment is None:
        return []
    document = read_text(_head(comment.text), name=path, origin=path, markup=comment.markup)
    return _passages(document, comment, shown, _CODE_LANGUAGE.get(language, ""))


def _passages(document: Document, comment: Comment, shown: str | None, language: str) -> list[DocPassage]:
    """The comment's blocks as passages at their source lines, its summary's sentences left out, at most
    PASSAGES; an unlabelled code block is in the source's `language`."""
    passages: list[DocPassage] = []
    summary_seen = False
    for section, block in document.blocks():
        if _describes_a_piece(section, block):
            continue
        summary = not summary_seen and block.kind == "paragraph"
        summary_seen = summary_seen or summary
        if summary and shown is not None:  # the first paragraph is the summary the page shows already …
            block = replace(block, text=_past(block.text, shown))  # … but for the sentences it goes on with
        if not (
            _worth(block.kind, block.text)
            or (block.kind == "item" and block.lead.rstrip().endswith(":"))
            or (summary and shown is None and block.text.strip())  # a short summary is still the summary
        ):
            continue
        start, end = comment.span(block)
        shown_as = block.language or (language if block.kind == "code" else "")
        passages.append(
            DocPassage(document.origin, start, end, block.kind, block.text, section.heading, shown_as)
        )
        if len(passages) >= PASSAGES:
            break
    return passages


def _describes_a_piece(section: Section, block: Block) -> bool:
    """A block of a parameter, return or raises section: it describes a piece, never the whole (code there is
    an example all the same)."""
    return (
        bool(section.heading)
        and is_docstring_section(section.heading)
        and "example" not in section.heading.lower()
        and block.kind != "code"
    )


def _head(body: str) -> str:
    """The comment's first COMMENT_LINES lines, cut at a blank line: PASSAGES blocks come from its head, and
    a Python essay of a docstring costs its reading whole."""
    lines = body.split("\n")
    if len(lines) <= COMMENT_LINES:
        return body
    cut = next((i for i in range(COMMENT_LINES, 0, -1) if not lines[i].strip()), COMMENT_LINES)
    return "\n".join(lines[:cut])


def _past(paragraph: str, shown: str) -> str:
    """What `paragraph` says after the sentences a page shows of it ("" when it shows them all)."""
    words = paragraph.split()
    seen = shown.rstrip("…").split()
    # a summary may stop a line its comment left unstopped ("… into one hash" / "This can …": prose.summary)
    if not seen or [w.rstrip(".") for w in words[: len(seen)]] != [w.rstrip(".") for w in seen]:
        return ""
    rest = " ".join(words[len(seen) :])
    if not seen[-1].endswith((".", "!", "?", ":")):  # the summary was cut mid-sentence: its end is not news
        rest = rest.partition(". ")[2]
    return rest


def _worth(kind: str, text: str) -> bool:
    if kind == "code":
        return 0 < text.count("\n") + 1 <= CODE_LINES
    return len(text.split()) >= (3 if kind == "item" else MIN_WORDS)


# --------------------------------------------------------------------------- Go examples


def go_examples(root: Path, facts: Facts, folder: str) -> list[DocPassage]:
    """The `Example…` functions of the tests of the Go package in `folder` ("." at the root), each whole at
    its test file's lines (`go test` runs them; pkg.go.dev shows `Example<Name>` and `Example<Name>_<suffix>`
    under the type or function `Name`), read once per run and kept on the facts."""
    if folder not in facts.go_examples:
        tests = sorted(
            p for p in facts.files if p.endswith("_test.go") and (p.rpartition("/")[0] or ".") == folder
        )
        facts.go_examples[folder] = [
            example
            for test in tests
            if "func Example" in (text := _text(root, test, {}))
            for example in _examples_in(text.split("\n"), test)
        ]
    return facts.go_examples[folder]


def _examples_of(root: Path, facts: Facts, path: str, name: str) -> list[DocPassage]:
    """The examples of `name`, defined in `path`, at most two."""
    own = f"Example{name}"
    found = go_examples(root, facts, path.rpartition("/")[0] or ".")
    return [e for e in found if e.heading == own or _suffixed(e.heading, own)][:2]


def _suffixed(heading: str, own: str) -> bool:
    """`ExamplePool_withErrors` for `ExamplePool`: its suffix starts lower case, as `go vet` asks."""
    rest = heading[len(own) :]
    return heading.startswith(own) and len(rest) > 1 and rest[0] == "_" and rest[1].islower()


def _examples_in(lines: Sequence[str], path: str) -> list[DocPassage]:
    """The Go `Example…` functions of a test file's `lines`, each whole (at most CODE_LINES lines), at its
    lines."""
    found = []
    for index, line in enumerate(lines):
        match = _GO_EXAMPLE.match(line)
        if not match:
            continue
        end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("}")), None)
        if end is None or end - index > CODE_LINES:
            continue
        body = "\n".join(lines[index : end + 1])
        found.append(DocPassage(path, index + 1, end + 1, "code", body, match.group(1), "go"))
    return found
