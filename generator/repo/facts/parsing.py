"""Parse every source file of a map (parsing is the facts stage's cost): in this process, or for a large
repository in a pool of forked processes (forked.py).

The pass over every file is the languages' `outline` (for Python: no symbols); `parse_symbols` reads one
file's symbols when they are wanted. Each file is read through `read_source` (or taken from the bytes the map
kept) and parsed on its own: a file that cannot be read or parsed yields None and never stops the others.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.facts.extracted import Extracted
from generator.repo.facts.forked import map_files
from generator.repo.facts.imports import show_imports
from generator.repo.facts.languages import SUPPORTED, first_pass, symbols_of
from generator.repo.facts.redaction import redact_extracted
from generator.repo.map.walk import decode_text, read_source
from generator.repo.model import FileEntry, Symbol

T = TypeVar("T")


def parse_sources(
    root: Path,
    entries: Sequence[FileEntry],
    *,
    max_file_bytes: int,
    contents: Mapping[str, bytes] | None = None,
    redactor: Redactor | None = None,
) -> dict[str, Extracted | None]:
    """path → the outline of each file in a supported language (None when unreadable or unparsable), with
    symbols for the source modules (tests, examples and docs scripts are outlined only: languages.first_pass).

    `contents`: bytes the map already read, parsed instead of reading those files again. Given a
    `redactor`: docstrings and module docs come back redacted, and the imports shown as a reader writes
    them, redacted.
    """
    held = contents or {}
    languages = {entry.path: entry.language for entry in entries if entry.language in SUPPORTED}
    shown: dict[tuple[str, str], str] = {}  # each import's redacted display, kept by each process

    def parse(path: str) -> Extracted | None:
        reader = first_pass(languages[path], path)
        extracted = _read(root, path, languages[path], max_file_bytes, reader, held.get(path))
        if extracted is not None and redactor is not None:
            extracted = redact_extracted(extracted, redactor)
            show_imports(languages[path], extracted, redactor, shown)
        return extracted

    paths = list(languages)
    total = sum(entry.size for entry in entries if entry.path in languages)
    return dict(zip(paths, map_files(parse, paths, total), strict=True))


def parse_symbols(root: Path, path: str, language: str, max_bytes: int) -> list[Symbol] | None:
    """Only the symbols of one file (what the outline left for later), None when unreadable or unparsable."""
    return _read(root, path, language, max_bytes, symbols_of)


def _read(
    root: Path,
    path: str,
    language: str,
    max_bytes: int,
    reader: Callable[[str, str], T],
    data: bytes | None = None,
) -> T | None:
    try:
        if data is not None and len(data) <= max_bytes:
            text = decode_text(data)  # read by the map with read_source's checks
        else:
            text = read_source(root, path, max_bytes=max_bytes)
        with warnings.catch_warnings():  # invalid escapes in old code warn at parse time
            warnings.simplefilter("ignore")
            return reader(_parser_language(path, language, text), text)
    except (DeepkbError, SyntaxError, ValueError, RecursionError, MemoryError, UnicodeError):
        return None


_CPP_HEADER = re.compile(r"^\s*(?:class|namespace|template\s*<)\b|^\s*(?:public|private):", re.MULTILINE)


def _parser_language(path: str, language: str, text: str) -> str:
    # `.h` is shared by C and C++; a header with classes or namespaces is C++
    if language == "c" and path.endswith(".h") and _CPP_HEADER.search(text):
        return "cpp"
    return language
