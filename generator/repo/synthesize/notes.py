"""A maintainer's notes on a repository (deepkb.yml `notes: kb-notes/requests.md`): their own markdown, read
at every research of it, so a refresh never loses them; the page layer renders them as untrusted text.

The path is the config's, relative to the knowledge-base root, and must stay inside it: an absolute path, a
`..`, a hidden part (`.git/config`, `.env`, `.cache/…`: where tokens and credentials live) or a symbolic link
that leads out is refused, like a missing file, with one line. The text is redacted as repository text is
before anything reads it: a notes file is published.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path, PurePosixPath

from generator.config import RepoEntry
from generator.errors import ConfigError
from generator.redact import Redactor
from generator.repo.synthesize.questions import asked
from generator.store import KBPaths

MAX_NOTES_BYTES = 200_000


def entry_notes(paths: KBPaths, entry: RepoEntry | None) -> str:
    """The text of the notes file `entry` names ("" when it names none)."""
    return read_notes(paths.root, entry.notes) if entry is not None and entry.notes is not None else ""


def corrections_digest(entry: RepoEntry | None, notes: str) -> str:
    """A digest of what the maintainer set for the repository in deepkb.yml (questions, pinned subsystems,
    entry points, and `notes`, the text of its notes file); "" when nothing is set. Recorded with the pages,
    so `refresh` re-researches a repository whose corrections changed, not only one whose HEAD moved."""
    if entry is None:
        return ""
    said = {
        "request": asked(entry.request),
        "subsystems": entry.subsystems,
        "entry_points": entry.entry_points,
        "notes": notes,
    }
    if not any(said.values()):
        return ""
    return hashlib.sha256(json.dumps(said, sort_keys=True).encode()).hexdigest()[:16]


def read_notes(root: Path, relative: str) -> str:
    """The text of the notes file `relative` to the knowledge-base `root`, refused when it lies outside it."""
    where = f"deepkb.yml: repos: notes '{relative}'"
    hint = "give a markdown file inside the knowledge base, relative to its root (e.g. kb-notes/requests.md)"
    parts = PurePosixPath(relative.replace("\\", "/"))
    if not relative.strip() or parts.is_absolute() or Path(relative).is_absolute() or ".." in parts.parts:
        raise ConfigError(f"{where} must be a path inside the knowledge base", hint=hint)
    base = root.resolve()
    target = base.joinpath(*parts.parts)
    if not target.resolve().is_relative_to(base):
        raise ConfigError(f"{where} leads outside the knowledge base (a symbolic link)", hint=hint)
    if _hidden(parts.parts) or _hidden(target.resolve().relative_to(base).parts):
        raise ConfigError(f"{where} is in a hidden file or folder (.git, .env, .cache…)", hint=hint)
    if not target.is_file():
        raise ConfigError(f"{where}: no such file in {base}", hint="create it, or remove `notes:`")
    if target.stat().st_size > MAX_NOTES_BYTES:
        raise ConfigError(f"{where} is larger than {MAX_NOTES_BYTES // 1000} KB", hint="shorten it")
    return Redactor.from_environ().redact(target.read_text(encoding="utf-8", errors="replace"))[0]


def _hidden(parts: tuple[str, ...]) -> bool:
    return any(part.startswith(".") for part in parts)
