"""`deepkb init`: the files that make a folder a knowledge-base repository of one's own.

A commented deepkb.yml, a .gitignore for what a build makes again (.cache/, site/) and a nightly GitHub Actions
workflow that installs deepkb as a package, researches in a matrix of shards, merges, commits site_src/ and
publishes to Pages. Existing files are never overwritten: one of them already there refuses the whole init.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

from .. import __version__
from ..errors import UsageError

WORKFLOW = Path(".github", "workflows", "deepkb.yml")
# what each file of a new knowledge base is made from (package data beside this module)
FILES = {Path("deepkb.yml"): "deepkb.yml", Path(".gitignore"): "gitignore", WORKFLOW: "workflow.yml"}
# a pip requirement: a name with a version pin, or a git URL (no spaces, quotes or shell characters)
_INSTALL = re.compile(
    r"^(?:[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[\w,]+\])?(?:[=<>!~]=?[\w.*+!-]+(?:,[=<>!~]=?[\w.*+!-]+)*)?|git\+https://[\w.@:/%+~-]+)$"
)


@dataclass(frozen=True)
class Scaffold:
    """The files `init` wrote (relative to `root`) and the pip requirement the workflow installs."""

    root: Path
    files: tuple[Path, ...]
    install: str


def default_install() -> str:
    """What the workflow installs: the git URL and commit this deepkb was installed from (PEP 610), else
    this version from the package index."""
    try:
        direct = json.loads(metadata.distribution("deepkb").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        direct = {}
    vcs, url = direct.get("vcs_info") or {}, str(direct.get("url") or "")
    if vcs.get("vcs") == "git" and url.startswith("https://") and vcs.get("commit_id"):
        return f"git+{url}@{vcs['commit_id']}"
    return f"deepkb=={__version__}"


def check_install(install: str) -> str:
    """`install` when it is one pip requirement (pinned name or git+https URL); else one UsageError line."""
    if not _INSTALL.match(install):
        raise UsageError(
            f"--install {install!r} is not a package requirement",
            hint="e.g. deepkb==0.1.0 or git+https://github.com/OWNER/deepkb@COMMIT",
        )
    return install


def make_knowledge_base(root: Path, install: str) -> Scaffold:
    """Write the files of a new knowledge base into `root` (made when missing); refuses, writing nothing,
    when any of them exists."""
    check_install(install)
    existing = [name for name in FILES if (root / name).exists() or (root / name).is_symlink()]
    if existing:
        raise UsageError(
            f"{root / existing[0]} already exists: deepkb init writes only new files",
            hint="run it in an empty folder, or move the file away",
        )
    for name, source in FILES.items():
        text = resources.files(__package__).joinpath("files", source).read_text(encoding="utf-8")
        if name == WORKFLOW:
            text = text.replace("@DEEPKB_INSTALL@", json.dumps(install))  # a JSON string is a YAML string
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        with open(root / name, "x", encoding="utf-8") as out:  # "x": never over a file made meanwhile
            out.write(text)
    return Scaffold(root, tuple(FILES), install)
