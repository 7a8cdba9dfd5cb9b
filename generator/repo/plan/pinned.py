"""A maintainer's pinned subsystems (`subsystems:` on a repository in deepkb.yml): name → files or globs,
resolved against the map. Pinned shards come first and as named, offline and with a model alike; the planner
plans the rest. A pattern matching no file is a config error naming it, so a typo never silently drops a pin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase

from generator.errors import ConfigError
from generator.repo.model import RepoMap, Shard

_GLOB = frozenset("*?[")


def pinned_shards(pins: Mapping[str, Sequence[str]], repo_map: RepoMap) -> list[Shard]:
    """One shard per pinned subsystem, its files in the order its patterns match them; a file claimed by an
    earlier subsystem stays there. Raises ConfigError for a pattern that matches no mapped file."""
    paths = sorted(f.path for f in repo_map.files)
    taken: set[str] = set()
    shards = []
    for name, patterns in pins.items():
        files: list[str] = []
        for pattern in patterns:
            matched = matching(pattern, paths)
            if not matched:
                raise ConfigError(
                    f"deepkb.yml: subsystems: {name!r}: {pattern!r} matches no file of the repository",
                    hint="give paths relative to the repository root, e.g. src/pkg/module.py or src/pkg/*.py",
                )
            files += [p for p in matched if p not in taken and p not in files]
        taken.update(files)
        if files:
            rationale = "Pinned by the maintainer in deepkb.yml."
            shards.append(Shard(" ".join(name.split()), tuple(files), rationale, pinned=True))
    return shards


def matching(pattern: str, paths: Sequence[str]) -> list[str]:
    """The paths `pattern` names: a glob (`*` crosses folders), a file, or a folder and all below it."""
    pattern = pattern.strip().removeprefix("./").rstrip("/")
    if _GLOB & set(pattern):
        return [p for p in paths if fnmatchcase(p, pattern)]
    return [p for p in paths if p == pattern or p.startswith(f"{pattern}/")]
