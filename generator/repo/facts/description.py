"""What a project says it is when its README gives no paragraph: the one-line description of its package
manifest (package.json, pyproject.toml, setup.cfg, Cargo.toml), else the doc comment of its top-level Go
package ("Package mux implements a request router and dispatcher.").
"""

from __future__ import annotations

import configparser
import json
import tomllib
from pathlib import Path
from typing import Any

from generator.documents.comment import package_comment
from generator.repo.facts.prose import summary
from generator.repo.map.walk import read_or_none
from generator.repo.model import RepoMap

MANIFEST_BYTES = 200_000
GO_HEAD_BYTES = 64_000
MIN_WORDS = 3  # consola's "Elegant Console Wrapper", its README's tagline too; "A library" says nothing


def project_description(root: Path, repo_map: RepoMap) -> str:
    """The manifest's description, else the top-level Go package's doc comment; "" without either."""
    top = {f.path for f in repo_map.files if "/" not in f.path}
    for name, read in _MANIFESTS:
        if name in top:
            text = _read(root, name)
            try:
                found = read(text) if text else ""
            except (ValueError, tomllib.TOMLDecodeError, configparser.Error):
                found = ""  # a broken manifest describes nothing
            if isinstance(found, str) and len(found.split()) >= MIN_WORDS:
                return _sentence(" ".join(found.split()))
    return go_package_doc(root, sorted(p for p in top if p.endswith(".go") and not p.endswith("_test.go")))


def go_package_doc(root: Path, go_files: list[str]) -> str:
    """The first two sentences of the `// Package x …` comment of a top-level Go file (doc.go first)."""
    for path in sorted(go_files, key=lambda p: (p != "doc.go", p)):
        comment = "\n".join(package_comment(_read(root, path, GO_HEAD_BYTES))[2])
        if comment.lstrip().startswith("Package "):
            return summary(comment)
    return ""


def _read(root: Path, path: str, limit: int = MANIFEST_BYTES) -> str:
    return read_or_none(root, path, max_bytes=limit) or ""


def _package_json(text: str) -> Any:
    return json.loads(text).get("description", "")


def _pyproject(text: str) -> Any:
    data = tomllib.loads(text)
    return data.get("project", {}).get("description") or data.get("tool", {}).get("poetry", {}).get(
        "description", ""
    )


def _setup_cfg(text: str) -> Any:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser.get("metadata", "description", fallback="")


def _cargo(text: str) -> Any:
    return tomllib.loads(text).get("package", {}).get("description", "")


_MANIFESTS = (
    ("package.json", _package_json),
    ("pyproject.toml", _pyproject),
    ("setup.cfg", _setup_cfg),
    ("Cargo.toml", _cargo),
)


def _sentence(text: str) -> str:
    return text if text[-1:] in ".!?" else f"{text}."
