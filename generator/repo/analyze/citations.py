"""Grounding in the code: a `path:start-end` citation holds when the file exists at the pinned revision and
has those lines; a citation that holds gets a permalink. The page layer (generator/site/pages/model_text.py)
turns model prose into safe markdown with these checks; research only counts them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from generator.repo.model import Citation

_PATH = r"[\w][\w.\-/]*"
CITATION_RE = re.compile(
    rf"(?<![\w/.:\-])(?P<path>{_PATH}):(?P<start>\d{{1,7}})(?:-(?P<end>\d{{1,7}}))?(?![\w])"
)


@dataclass(frozen=True)
class Linker:
    """Checks citations against the repository's files and builds their links."""

    line_counts: Mapping[str, int]  # repository files (POSIX paths) → number of lines
    revision: str
    web_url: str | None = None  # https://github.com/<owner>/<repo> for GitHub remotes

    def check(self, path: str, start: int, end: int | None = None) -> Citation | None:
        """A Citation when `path` is a repository file and the lines exist in it, else None."""
        path = path.removeprefix("./")
        end = start if end is None else end
        lines = self.line_counts.get(path)
        if lines is None or not 1 <= start <= end <= max(lines, 1):
            return None
        return Citation(path, start, end, self.url(path, start, end))

    def url(self, path: str, start: int, end: int) -> str:
        """GitHub permalink at the pinned revision, or "" when the remote has no web view we know."""
        if not self.web_url or not self.revision:
            return ""
        anchor = f"#L{start}" if start == end else f"#L{start}-L{end}"
        return f"{self.web_url}/blob/{self.revision}/{quote(path)}{anchor}"

    def ref_url(self, ref: str) -> str:
        """The web view of a tag or branch's tree, or "" when the remote has none we know."""
        return f"{self.web_url}/tree/{quote(ref)}" if self.web_url else ""


def looks_like_file(path: str) -> bool:
    # "localhost:8080" or "step:2" are not citations; something with a directory or an extension is
    return "/" in path or bool(re.search(r"\.\w+$", path))


def check_citations(text: str, linker: Linker) -> tuple[list[Citation], int]:
    """The `path:start-end` citations in model text that hold at the pinned revision, and how many did not."""
    valid: list[Citation] = []
    dropped = 0
    for match in CITATION_RE.finditer(text):
        if not looks_like_file(match.group("path")):
            continue
        end = int(match.group("end")) if match.group("end") else None
        citation = linker.check(match.group("path"), int(match.group("start")), end)
        if citation is None:
            dropped += 1
        else:
            valid.append(citation)
    return valid, dropped
