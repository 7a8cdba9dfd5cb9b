"""The names a repository's README shows in its code: `requests.get(…)`, `app.listen(3000)`,
`@click.command()`. What the project's own front page demonstrates is what its maintainers consider the
entry points; the ranking of symbols gives those names weight. `readme_paragraph` reads the README's first
paragraph (the overview's), or the project's description when the README has none."""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt

from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.facts.description import project_description
from generator.repo.map.walk import read_source
from generator.repo.model import RepoMap
from generator.repo.synthesize.readme import first_paragraph

README_BYTES = 200_000
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
# words of the languages themselves, never a repository's symbol worth a bonus
_KEYWORDS = frozenset(
    "and are def class import from return const var let function new this self cls None True False null "
    "true false require await async for while with not the package func type struct interface pip npm "
    "install yarn print console log".split()
)


def readme_code_names(root: Path, repo_map: RepoMap) -> frozenset[str]:
    """Identifiers in the code blocks and inline code of the top-level README (empty when there is none)."""
    for entry in sorted(repo_map.files, key=lambda e: e.path):
        if "/" not in entry.path and entry.path.lower().startswith("readme"):
            try:
                text = read_source(root, entry.path, max_bytes=README_BYTES)
            except DeepkbError:
                return frozenset()
            return code_names(text) if entry.path.lower().endswith((".md", ".markdown")) else frozenset()
    return frozenset()


def code_names(markdown: str) -> frozenset[str]:
    """Identifiers inside fenced/indented code blocks and inline code spans of a markdown text."""
    found: set[str] = set()
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.type in {"fence", "code_block"}:
            found.update(_IDENTIFIER.findall(token.content))
        for child in token.children or ():
            if child.type == "code_inline":
                found.update(_IDENTIFIER.findall(child.content))
    return frozenset(found - _KEYWORDS)


def readme_paragraph(root: Path, repo_map: RepoMap, redactor: Redactor) -> str:
    """The README's first real paragraph, else the project's own description (its manifest's, or its Go
    package's doc comment), redacted; "" without any."""
    text = ""
    for entry in sorted(repo_map.files, key=lambda e: (len(e.path.split(".")), e.path)):
        if "/" not in entry.path and entry.path.lower().split(".")[0] == "readme":
            try:
                readme = read_source(root, entry.path, max_bytes=README_BYTES)[:50_000]
            except DeepkbError:
                break
            text = first_paragraph(readme, rst=entry.path.lower().endswith((".rst", ".txt")))
            break
    return redactor.redact(text or project_description(root, repo_map))[0]
