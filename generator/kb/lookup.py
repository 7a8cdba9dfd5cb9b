"""The parts of `_index.json` a search needs (titles, tags, tag variants), copied into the search database,
so that a query reads only the rows it uses; refreshed when the index file's mtime or size changes."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from typing import Any

from ..store import KBPaths
from .index import index_path, load_index

TABLES = (
    "CREATE TABLE entries(id TEXT PRIMARY KEY, title TEXT, description TEXT, url TEXT, path TEXT)",
    "CREATE TABLE tags(tag TEXT, id TEXT)",
    "CREATE INDEX tags_by_tag ON tags(tag)",
    "CREATE TABLE variants(tag TEXT, variant TEXT)",
    "CREATE INDEX variants_by_tag ON variants(tag)",
)


def sync_lookup(conn: sqlite3.Connection, paths: KBPaths, *, rebuild: bool = False) -> None:
    """Copy `_index.json` into the tables when it changed since the last copy (call inside a transaction)."""
    try:
        info = os.stat(index_path(paths))
        stamp = f"{info.st_mtime_ns}:{info.st_size}"
    except OSError:
        stamp = "none"
    row = conn.execute("SELECT value FROM meta WHERE key = 'index'").fetchone()
    if row and row[0] == stamp and not rebuild:
        return
    index = load_index(paths)
    for table in ("entries", "tags", "variants"):
        conn.execute(f"DELETE FROM {table}")
    conn.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)", _entries(index))
    conn.executemany(
        "INSERT INTO tags VALUES (?, ?)",
        [(tag, i) for tag, ids in index.get("tag_index", {}).items() for i in ids],
    )
    conn.executemany(
        "INSERT INTO variants VALUES (?, ?)",
        [(tag, v) for tag, seen in index.get("tag_variants", {}).items() for v in seen],
    )
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('index', ?)", (stamp,))


def _entries(index: dict[str, Any]) -> Iterable[tuple[str, ...]]:
    """(id, title, description, url, path) of every entry; a repository or topic wins over a source."""
    for group in ("sources", "topics"):
        for entry_id, entry in (index.get(group) or {}).items():
            if isinstance(entry, dict):
                yield (
                    str(entry_id),
                    *(str(entry.get(k) or "") for k in ("title", "description", "url", "path")),
                )


class Lookup:
    """Reads the copied index through one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def variants(self, tag: str) -> list[str]:
        rows = self.conn.execute("SELECT variant FROM variants WHERE tag = ? ORDER BY variant", (tag,))
        return [row[0] for row in rows]

    def ids(self, tag: str) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT id FROM tags WHERE tag = ? ORDER BY id", (tag,))]

    def entries(self, ids: Iterable[str]) -> dict[str, dict[str, str]]:
        wanted = list(dict.fromkeys(ids))
        found: dict[str, dict[str, str]] = {}
        for start in range(0, len(wanted), 500):  # SQLite's limit on bound parameters
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(
                f"SELECT id, title, description, url, path FROM entries WHERE id IN ({marks})", chunk
            ):
                found[row[0]] = {"title": row[1], "description": row[2], "url": row[3], "path": row[4]}
        return found
