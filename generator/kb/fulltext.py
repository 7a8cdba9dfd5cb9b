"""The full-text index both searches use (knowledge search, the `local` provider): SQLite FTS5 in the cache dir.

A database rebuilds when its schema version differs and re-reads only files whose mtime or size changed.
Chinese is segmented with jieba first, English porter-stemmed; a query is quoted words only, never FTS syntax.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .. import cjk
from ..errors import StoreError
from ..store import database_error, storage_error

TOKENIZE = "porter unicode61 remove_diacritics 2"
_WORD = re.compile(r"\w+", re.UNICODE)

Stamp = tuple[int, int]
"""A file as the index last saw it: (mtime_ns, size)."""


@dataclass(frozen=True)
class SyncCounts:
    """What one refresh of an index did, in files."""

    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0


@dataclass(frozen=True)
class FileChanges:
    """How the files on disk differ from the stamps the index holds."""

    changed: list[str] = field(default_factory=list)
    """The files to read again, new or changed, in the order they were listed."""
    added: int = 0
    updated: int = 0
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0


def stamp(info: os.stat_result) -> Stamp:
    return (info.st_mtime_ns, info.st_size)


def compare(known: Mapping[str, Stamp], found: Mapping[str, Stamp]) -> FileChanges:
    """Which of `found` are new or changed since `known`, and which of `known` are gone."""
    changed = [path for path, seen in found.items() if known.get(path) != seen]
    added = sum(1 for path in changed if path not in known)
    removed = [path for path in known if path not in found]
    return FileChanges(changed, added, len(changed) - added, removed, len(found) - len(changed))


def segment(text: str, *, for_index: bool = False) -> str:
    """Text with every Hanzi run split into words by jieba (search mode when indexing, for recall)."""
    return cjk.segment(text, search_mode=for_index)


def words(text: str, *, for_index: bool = False) -> list[str]:
    """The words FTS5 will see in `text`, after segmentation."""
    return _WORD.findall(segment(text, for_index=for_index))


def quoted(terms: Iterable[str]) -> str:
    """Terms as FTS5 strings, space-separated (all of them must match); quotes inside are doubled."""
    return " ".join('"' + term.replace('"', '""') + '"' for term in terms)


@contextmanager
def open_index(
    path: Path, version: str, schema: Iterable[str], *, hint: str = ""
) -> Iterator[sqlite3.Connection]:
    """A connection to the index at `path`, its tables (the `schema` statements) at `version`.

    A database error becomes a StoreError that names the file and how to start over (`hint`)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_error(path.parent, exc) from None
    try:
        with closing(sqlite3.connect(path, timeout=30)) as conn:
            _ensure_schema(conn, version, list(schema))
            yield conn
    except sqlite3.DatabaseError as exc:
        raise database_error(path, exc) or StoreError(
            f"search database {path}: {exc}", hint=hint or f"delete {path}; it is rebuilt on the next search"
        ) from None


def schema_version(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.OperationalError:  # no meta table yet: a new database
        return None
    return str(row[0]) if row else None


def _ensure_schema(conn: sqlite3.Connection, version: str, schema: list[str]) -> None:
    if schema_version(conn) == version:
        return
    conn.execute("BEGIN IMMEDIATE")  # one process (re)creates the tables; the others wait, then see them
    try:
        if schema_version(conn) != version:
            conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
            _drop_tables(conn)
            conn.execute("DELETE FROM meta")
            for statement in schema:
                conn.execute(statement)
            conn.execute("INSERT INTO meta VALUES ('schema', ?)", (version,))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


def _drop_tables(conn: sqlite3.Connection) -> None:
    """Every table but `meta`; virtual tables first, as dropping one drops its shadow tables."""
    for virtual in (True, False):
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'meta'"
            " AND (sql LIKE 'CREATE VIRTUAL TABLE%') = ?",
            (virtual,),
        ).fetchall()
        for (name,) in rows:
            conn.execute(f'DROP TABLE IF EXISTS "{name}"')
