"""A head start for `deepkb repo run PATH`: map the folder and hand its files to the parser processes before
the run loads its configuration and its later stages.

Before the first file is parsed, a run spends about 0.2 s importing the pipeline and validating deepkb.yml,
and neither is needed to map a local folder and parse it: the map takes only `repo.max_file_bytes`, assumed
here to be its default. So the command starts the map and the parser processes first (this module imports
only the map and the parsers), and the pipeline takes the parse over while it imports what it needs — or
cancels it when the validated configuration, or the folder the run settles on, differs from what was assumed
(`matches`). Nothing is written and nothing but the folder is read; a source that is not a local folder, or
that the checks refuse, gets no head start, and the run reports it in its usual place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.facts.languages import SUPPORTED
from generator.repo.facts.parsing import StartedParse, start_parse
from generator.repo.model import RepoMap
from generator.store import KBPaths

DEFAULT_MAX_FILE_BYTES = 1_000_000
"""`repo.max_file_bytes` when deepkb.yml does not set it (config.py's default)."""
MAP_KEEP_BYTES = 32_000_000
"""File bytes held from map to facts: a second read saved, memory bounded."""


@dataclass
class HeadStart:
    """A local folder mapped with the default file size limit, its parse handed to the parser processes."""

    root: Path
    exclude: list[str]
    max_file_bytes: int
    repo_map: RepoMap
    redactor: Redactor
    parse: StartedParse | None  # None: the repository is small enough to parse in this process

    def matches(self, root: Path, exclude: Sequence[str], max_file_bytes: int) -> bool:
        """Whether the run would have mapped and parsed exactly this."""
        return (
            root.resolve() == self.root
            and list(exclude) == self.exclude
            and max_file_bytes == self.max_file_bytes
        )

    def cancel(self) -> None:
        if self.parse is not None:
            self.parse.cancel()

    def __enter__(self) -> HeadStart:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.cancel()  # taken over (a no-op then) or not: no parser process outlives the run


def head_start(paths: KBPaths, source: str) -> HeadStart | None:
    """Map `source` and start parsing it, when it is an existing local folder; else None."""
    from generator.repo.checkout.clone import parse_source

    try:
        repo_source = parse_source(source, paths.root)
    except (DeepkbError, OSError):
        return None  # the run meets it again and reports it, with its hint
    if repo_source.kind != "local":
        return None
    root = Path(repo_source.location).resolve()
    exclude = kb_output_dirs(paths, root)
    try:
        repo_map = map_folder(root, DEFAULT_MAX_FILE_BYTES, exclude)
    except (DeepkbError, OSError):
        return None  # an unreadable folder: the run meets it again and says so
    redactor = Redactor.from_environ()
    parse = start_parse(
        root,
        repo_map.files,
        max_file_bytes=DEFAULT_MAX_FILE_BYTES,
        contents=repo_map.contents,
        redactor=redactor,
    )
    return HeadStart(root, exclude, DEFAULT_MAX_FILE_BYTES, repo_map, redactor, parse)


def map_folder(root: Path, max_file_bytes: int, exclude: Sequence[str] = ()) -> RepoMap:
    """Stage 2's map of `root`, keeping the bytes of the files the facts stage parses, minus `exclude`."""
    from generator.repo.map.walk import map_repository

    repo_map = map_repository(
        root, max_file_bytes=max_file_bytes, keep_languages=SUPPORTED, keep_bytes=MAP_KEEP_BYTES
    )
    return _without(repo_map, exclude) if exclude else repo_map


def kb_output_dirs(paths: KBPaths, repo_root: Path) -> list[str]:
    """The knowledge base's own output folders that lie inside the repository being researched.

    A knowledge base that researches its own repository (`source: .`) must not study its pages, or every
    build would change the input of the next one.
    """
    inside = []
    root = repo_root.resolve()
    for folder in (paths.site_src, paths.site_dir, paths.cache_dir):
        try:
            inside.append(folder.resolve().relative_to(root).as_posix())
        except ValueError:
            continue
    return [rel for rel in inside if rel not in ("", ".")]


def _without(repo_map: RepoMap, prefixes: Sequence[str]) -> RepoMap:
    """The map minus the knowledge base's own output (not listed as skipped: it is not the subject)."""

    def excluded(path: str) -> bool:
        return any(path == p or path.startswith(p + "/") for p in prefixes)

    kept = [f for f in repo_map.files if not excluded(f.path)]
    skipped = [s for s in repo_map.skipped if not excluded(s.path)]
    return RepoMap(root=repo_map.root, files=kept, skipped=skipped, contents=repo_map.contents)
