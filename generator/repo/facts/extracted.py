"""The result of reading one source file for the facts stage, shared by the Python and tree-sitter readers."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.repo.model import Symbol


@dataclass
class Extracted:
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # raw targets, resolved later by imports.py
    doc: str = ""
    has_main: bool = False  # a main function / `if __name__ == "__main__"` block
    package: str = ""  # Go package name, Java package


def first_line(doc: str | None) -> str:
    """The first non-empty line of a docstring or comment, stripped."""
    for line in (doc or "").strip().splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""


def first_paragraph(doc: str | None) -> str:
    """The first paragraph of a docstring or comment, joined into one line."""
    paragraph = (doc or "").strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines())[:600]
