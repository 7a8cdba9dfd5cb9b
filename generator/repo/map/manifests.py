"""Which repository a folder's build manifests say its code comes from: package.json's `repository` and
`homepage`, pyproject.toml's `[project.urls]`, Cargo.toml's `[package]` links. A folder carrying a licence
of its own is another project's code (`filetypes.separate_work`) unless its manifest names the same
repository as the root's: OpenHands' VS Code extension (its own MIT licence and package.json, beside a
Python root) says `all-hands-ai/OpenHands`; jsonschema's json/ says `json-schema-org/JSON-Schema-Test-Suite`.
Manifests are parsed as data, never run.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from generator.store import read_regular

MAX_MANIFEST_BYTES = 512_000
# a repository's address as manifests write it: https://github.com/o/n(.git), git@github.com:o/n,
# git+https://…, github:o/n; owner and name are kept, lower case
_HOSTED = re.compile(
    r"(?:(?:github|gitlab)\.com|bitbucket\.org)[/:]([\w.-]+)/([\w.-]+)|^(?:github|gitlab|bitbucket):([\w.-]+)/([\w.-]+)",
    re.IGNORECASE,
)
_SHORTHAND = re.compile(r"^([\w.-]+)/([\w.-]+)$")  # npm's "owner/name" for a GitHub repository
_PYPROJECT_LINKS = ("repository", "homepage", "source", "source code", "code", "github")


def declared_repositories(folder: Path, names: Collection[str]) -> frozenset[str]:
    """The repositories ("owner/name", lower case) the manifests among `names` in `folder` name as their
    source; empty when none is readable or none names one."""
    found: set[str] = set()
    for name, links in (
        ("package.json", _package_json_links),
        ("pyproject.toml", _pyproject_links),
        ("Cargo.toml", _cargo_links),
    ):
        if name in names:
            found.update(_slugs(links(_parsed(folder / name))))
    return frozenset(found)


def _parsed(path: Path) -> Any:
    try:
        text = read_regular(path, MAX_MANIFEST_BYTES).decode("utf-8")
        return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):  # JSONDecodeError and TOMLDecodeError are ValueErrors
        return None


def _package_json_links(data: Any) -> list[Any]:
    if not isinstance(data, dict):
        return []
    repository = data.get("repository")
    url = repository.get("url") if isinstance(repository, dict) else repository
    if isinstance(url, str) and _SHORTHAND.match(url):
        url = f"github:{url}"
    return [url, data.get("homepage")]


def _pyproject_links(data: Any) -> list[Any]:
    if not isinstance(data, dict):
        return []
    project, tool = data.get("project"), data.get("tool")
    urls = project.get("urls") if isinstance(project, dict) else None
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    links = [v for k, v in urls.items() if k.lower() in _PYPROJECT_LINKS] if isinstance(urls, dict) else []
    if isinstance(poetry, dict):
        links += [poetry.get("repository"), poetry.get("homepage")]
    return links


def _cargo_links(data: Any) -> list[Any]:
    package = data.get("package") if isinstance(data, dict) else None
    return [package.get("repository"), package.get("homepage")] if isinstance(package, dict) else []


def _slugs(links: Iterable[Any]) -> set[str]:
    found = set()
    for link in links:
        match = _HOSTED.search(link) if isinstance(link, str) else None
        if match is not None:
            owner, name = (
                (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
            )
            found.add(f"{owner}/{name.removesuffix('.git')}".lower())
    return found
