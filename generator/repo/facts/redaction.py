"""Redaction of what the facts stage reads from one file: its docstrings and its module doc.

Docstrings are repository text that reaches prompts and pages, so they are redacted as each file is read.
"""

from __future__ import annotations

from dataclasses import replace

from generator.redact import Redactor
from generator.repo.facts.extracted import Extracted
from generator.repo.model import Symbol

DOC_SEPARATOR = "\n\n\x1f\n\n"  # between a file's docstrings, redacted in one pass


def redact_extracted(extracted: Extracted, redactor: Redactor) -> Extracted:
    """One file's reading with its docstrings and module doc redacted (its imports are shown and redacted
    by imports.show_imports, once per distinct import a process meets)."""
    extracted.symbols = redact_symbols(extracted.symbols, redactor)
    extracted.doc = redactor.redact(extracted.doc)[0] if extracted.doc else ""
    return extracted


def redact_symbols(symbols: list[Symbol], redactor: Redactor) -> list[Symbol]:
    """Docstrings redacted in one pass per file (one call per docstring cost more than reading them)."""
    documented = [s for s in symbols if s.doc_source]
    if not documented:
        return symbols
    text, count = redactor.redact(DOC_SEPARATOR.join(s.doc_source for s in documented))
    if not count:
        return symbols
    joined = text.split(DOC_SEPARATOR)
    if len(joined) != len(documented):  # a rule matched across the separator: one at a time
        joined = [redactor.redact(s.doc_source)[0] for s in documented]
    redacted = {id(s): text for s, text in zip(documented, joined, strict=True)}
    return [
        replace(s, doc_source=redacted[id(s)]) if id(s) in redacted and redacted[id(s)] != s.doc_source else s
        for s in symbols
    ]
