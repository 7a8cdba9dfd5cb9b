"""Which command a module's flags belong to, by the name the project installs it under: pyproject's
`[project.scripts]` and its entry-point groups (taskiq's `taskiq_cli` group: `worker = "taskiq.cli.worker.cmd:
WorkerCMD"` is `taskiq worker`). A module in the folder of a command's module declares that command's flags."""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Collection
from pathlib import Path

from generator.repo.map.walk import read_or_none

MANIFEST_BYTES = 200_000
_TARGET = re.compile(r"([A-Za-z_][\w.]*)(?::[\w.]+)?")


def command_folders(root: Path, paths: Collection[str]) -> dict[str, str]:
    """Each folder holding a command's module → the command ("taskiq worker"); {} without a pyproject."""
    try:
        project = tomllib.loads(read_or_none(root, "pyproject.toml", max_bytes=MANIFEST_BYTES) or "")
    except tomllib.TOMLDecodeError:
        return {}
    project = project.get("project", {})
    scripts = _entries(project.get("scripts"))
    groups = project.get("entry-points", {})
    # a group of subcommands is named for the one script that runs them (`taskiq_cli` for `taskiq`)
    commands = list(scripts.items())
    for group, table in groups.items() if isinstance(groups, dict) else ():
        owner = next((s for s in scripts if len(scripts) == 1 and group.startswith(s)), "")
        commands += [(f"{owner} {name}".strip(), target) for name, target in _entries(table).items()]
    folders: dict[str, str] = {}
    for command, module in commands:
        if folder := _folder(module, paths):
            folders.setdefault(folder, command)
    return folders


def _entries(table: object) -> dict[str, str]:
    """A table's names → the module each names (`taskiq.cli.worker.cmd` of `"taskiq.cli.worker.cmd:WorkerCMD"`)."""
    if not isinstance(table, dict):
        return {}
    return {
        str(name): found.group(1)
        for name, value in table.items()
        if isinstance(value, str) and (found := _TARGET.fullmatch(value.strip()))
    }


def _folder(module: str, paths: Collection[str]) -> str:
    """The folder of the repository file `module` names (a src/ layout too), "" when none holds it."""
    rel = module.replace(".", "/")
    for path in paths:
        if path in (f"{rel}.py", f"src/{rel}.py"):
            return posixpath.dirname(path)
    return ""
