"""Redaction of what the facts stage reads from one file: its docstrings and its module doc.

Docstrings are repository text that reaches prompts and pages, so they are redacted as each file is read.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from generator.redact import Redactor
from generator.repo.facts.extracted import Extracted
from generator.repo.model import Symbol

DOC_SEPARATOR = "\n\n\x1f\n\n"  # between a file's docstrings, redacted in one pass
MEMO_SIZE = 2048  # docstrings whose verdict is kept (generated code repeats them across files)
MEMO_MAX_CHARS = 2000  # longer ones are judged afresh, so the memo holds at most MEMO_SIZE * 2000 characters


def redact_extracted(extracted: Extracted, redactor: Redactor) -> Extracted:
    """One file's reading with its docstrings and module doc redacted (its imports are shown and redacted
    by imports.show_imports, once per distinct import a process meets)."""
    extracted.symbols = redact_symbols(extracted.symbols, redactor)
    extracted.doc = redactor.redact(extracted.doc)[0] if extracted.doc else ""
    return extracted


def redact_symbols(symbols: list[Symbol], redactor: Redactor) -> list[Symbol]:
    """Docstrings redacted in one pass per file (one call per docstring cost more than reading them)."""
    documented = [s for s in symbols if s.doc_source]
    if not documented or all(_inert(redactor, s.doc_source) for s in documented):
        return symbols  # nothing to redact in any of them, nor in their join (`Redactor.inert`)
    joined = redactor.redact(DOC_SEPARATOR.join(s.doc_source for s in documented))[0].split(DOC_SEPARATOR)
    if len(joined) != len(documented):  # a rule matched across the separator: one at a time
        joined = [redactor.redact(s.doc_source)[0] for s in documented]
    redacted = {id(s): text for s, text in zip(documented, joined, strict=True)}
    return [
        replace(s, doc_source=redacted[id(s)]) if id(s) in redacted and redacted[id(s)] != s.doc_source else s
        for s in symbols
    ]


def _inert(redactor: Redactor, doc: str) -> bool:
    return _inert_kept(redactor, doc) if len(doc) <= MEMO_MAX_CHARS else redactor.inert(doc)


@functools.lru_cache(maxsize=MEMO_SIZE)
def _inert_kept(redactor: Redactor, doc: str) -> bool:
    return redactor.inert(doc)
