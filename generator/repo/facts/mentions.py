"""The names a repository's README shows in its code: `requests.get(…)`, `app.listen(3000)`,
`@click.command()`. What the project's own front page demonstrates is what its maintainers consider the
entry points; the ranking of symbols gives those names weight. `readme_paragraph` reads the README's first
paragraph (the overview's), or the project's description when the README has none."""

from __future__ import annotations

import re
from pathlib import Path

from generator.documents import read_text
from generator.redact import Redactor
from generator.repo.facts.description import project_description
from generator.repo.facts.examples import markdown_code
from generator.repo.map.filetypes import front_readme
from generator.repo.map.walk import read_or_none
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
    path, text = front_page(root, repo_map)
    return code_names(text) if path.lower().endswith((".md", ".markdown")) else frozenset()


def front_page(root: Path, repo_map: RepoMap) -> tuple[str, str]:
    """The top-level README's path and text ("" for either when there is none or it cannot be read)."""
    path = front_readme((f.path for f in repo_map.files), repo_map.links)
    return path, (read_or_none(root, path, max_bytes=README_BYTES) or "") if path else ""


def code_names(markdown: str) -> frozenset[str]:
    """Identifiers inside fenced/indented code blocks and inline code spans of a markdown text."""
    return frozenset(set(_IDENTIFIER.findall(markdown_code(markdown))) - _KEYWORDS)


def readme_paragraph(root: Path, repo_map: RepoMap, redactor: Redactor, said: str | None = None) -> str:
    """The README's first real paragraph (`said`, when the docs model read the README; else read here), else
    the project's own description (its manifest's, or its Go package's doc comment), redacted; "" without
    any."""
    if said is None:
        path, readme = front_page(root, repo_map)
        markup = "rst" if path.lower().endswith((".rst", ".txt")) else "markdown"
        said = first_paragraph(read_text(readme[:50_000], name=path, markup=markup)) if readme else ""
    return redactor.redact(said or project_description(root, repo_map))[0]
