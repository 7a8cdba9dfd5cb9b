"""A large docs folder's pages are read by a pool of forked processes (facts/forked.py), into the same
documents, in the same order, as when this process reads them one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from repo_output_fakes import make_project

from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.docs import project
from generator.repo.docs.model import ProjectDocs
from generator.repo.facts import forked
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository

DOCS = {
    "README.md": "# tinyweb\n\nTinyweb routes requests to handlers and runs middleware around them.\n",
    "mkdocs.yml": "nav:\n  - Routing: routing.md\n  - Patterns: patterns.rst\n  - Deploy: deploy.md\n",
    "docs/routing.md": (
        "# Routing\n\nThe `Router` matches each request path in the order routes were added.\n\n"
        '```python\n--8<-- "examples/route.py"\n```\n'
    ),
    "docs/patterns.rst": (
        ".. |project| replace:: Tinyweb\n\nPatterns\n========\n\n"
        "|project| matches a pattern segment by segment.\n\n.. code-block:: python\n\n"
        "    router.add('/files/{path}', serve_file)\n"
    ),
    "docs/deploy.md": (
        "# Deploy\n\nA deployment runs `Router` behind one process per core, each serving its own port.\n\n"
        "```sh\nDEPLOY_TOKEN=deploy-token-value-99 tinyweb serve --port 8000\n```\n"
    ),
    "examples/route.py": "router = Router()\nrouter.add('/users/{id}', show_user)\n",
    "tinyweb/router.py": '"""Routes requests."""\n\n\nclass Router:\n    """Matches paths."""\n',
}


def _docs_of(root: Path) -> ProjectDocs:
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyweb")
    return project.read_project_docs(
        root, repo_map, extract_facts(root, repo_map), linker, Redactor.from_environ()
    )


def test_a_large_docs_folder_is_read_by_forked_processes_into_the_same_docs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEPLOY_TOKEN", "deploy-token-value-99")
    root = make_project(tmp_path / "tinyweb", DOCS)
    alone = _docs_of(root)
    pools: list[int] = []

    class CountedPool(forked.ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs: Any) -> None:
            pools.append(workers)
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(forked, "ProcessPoolExecutor", CountedPool)
    # two processes from the docs' own threshold on, whatever this machine's cores (the facts' is higher)
    monkeypatch.setattr(forked, "workers", lambda total, least: 2 if total >= least else 1)
    monkeypatch.setattr(project, "PARALLEL_DOC_BYTES", 100)
    pooled = _docs_of(root)
    assert pools == [2]  # the docs' pages, and no facts pass of this small repository
    assert repr(pooled) == repr(alone) and pooled == alone
    assert [c.name for c in pooled.concepts] == ["Routing", "Patterns", "Deploy"]
    shown = repr(pooled.concepts)
    assert "show_user" in shown and "Tinyweb matches" in shown  # the snippet included, the substitution made
    assert "[REDACTED:env]" in shown and "deploy-token-value-99" not in shown


def test_the_docs_threshold_is_the_docs_own() -> None:
    assert forked.workers(project.PARALLEL_DOC_BYTES - 1, project.PARALLEL_DOC_BYTES) == 1
    assert project.PARALLEL_DOC_BYTES < forked.PARALLEL_MIN_BYTES
