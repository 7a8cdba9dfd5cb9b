"""A head start for `deepkb repo run PATH`: a forked parser process maps the folder and starts parsing it
while the run loads its configuration and its later stages.

Before the first file is parsed, a run spends about 0.2 s importing the pipeline and validating deepkb.yml,
and neither is needed to map a local folder and parse it: the map takes only `repo.max_file_bytes`, assumed
here to be its default. So the command forks a parser process first (this module imports only the map and
the parsers), which maps the folder, decides the chunks of work and parses from the front; this process
imports what the run needs meanwhile, then takes the map (`repo_map`, waiting for it if need be) and parses
from the back (parsing.py's `MappedParse`). The pipeline takes all that over only when the validated
configuration and the folder the run settles on are what was assumed (`matches`), and cancels it otherwise.
Nothing is written and nothing but the folder is read; a source that is not a local folder, or that the
checks refuse, gets no head start, and a map the forked process could not make is made again by the run,
which reports what is wrong in its usual place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.facts.languages import SUPPORTED
from generator.repo.facts.mentions import read_readme_facts
from generator.repo.facts.parsing import MappedParse, StartedParse, start_mapped_parse
from generator.repo.model import RepoMap
from generator.store import KBPaths

DEFAULT_MAX_FILE_BYTES = 1_000_000
"""`repo.max_file_bytes` when deepkb.yml does not set it (config.py's default)."""
MAP_KEEP_BYTES = 32_000_000
"""File bytes held from map to facts: a second read saved, memory bounded."""


class HeadStart:
    """A local folder being mapped, with the default file size limit, and parsed by a forked parser process
    (`repo_map` and `parse` wait for its map the first time they are asked for)."""

    def __init__(
        self, root: Path, exclude: list[str], max_file_bytes: int, redactor: Redactor, mapped: MappedParse
    ) -> None:
        self.root, self.exclude, self.max_file_bytes, self.redactor = root, exclude, max_file_bytes, redactor
        self.mapped = mapped

    @property
    def repo_map(self) -> RepoMap | None:
        """The folder's map (None: the forked process could not map it; the run maps it and says why)."""
        return self.mapped.taken()[0]

    @property
    def parse(self) -> StartedParse | None:
        """The parse to finish here (None: this process parses the whole map)."""
        return self.mapped.taken()[1]

    def matches(self, root: Path, exclude: Sequence[str], max_file_bytes: int) -> bool:
        """Whether the run would have mapped and parsed exactly this."""
        return (
            root.resolve() == self.root
            and list(exclude) == self.exclude
            and max_file_bytes == self.max_file_bytes
            and self.repo_map is not None
        )

    def cancel(self) -> None:
        self.mapped.cancel()

    def __enter__(self) -> HeadStart:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.cancel()  # taken over (a no-op then) or not: no parser process outlives the run


def head_start(paths: KBPaths, source: str) -> HeadStart | None:
    """Start mapping and parsing `source` in a forked process, when it is an existing local folder; else
    None (also when no process may be forked: the run maps and parses it in its place)."""
    from generator.repo.checkout.clone import parse_source

    try:
        repo_source = parse_source(source, paths.root)
    except (DeepkbError, OSError):
        return None  # the run meets it again and reports it, with its hint
    if repo_source.kind != "local":
        return None
    root = Path(repo_source.location).resolve()
    if not root.is_dir():
        return None  # the run says what is wrong with it
    exclude = kb_output_dirs(paths, root)
    redactor = Redactor.from_environ()
    mapped = start_mapped_parse(
        root,
        lambda: map_folder(root, DEFAULT_MAX_FILE_BYTES, exclude),
        max_file_bytes=DEFAULT_MAX_FILE_BYTES,
        redactor=redactor,
        # the README's facts, read over there while this process does the rest of the facts
        after=lambda repo_map: read_readme_facts(root, repo_map, redactor),
    )
    return HeadStart(root, exclude, DEFAULT_MAX_FILE_BYTES, redactor, mapped) if mapped is not None else None


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
