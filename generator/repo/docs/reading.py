"""One door to the document model: the shared `generator.documents` package when it is installed, else the
interim reader with the same shapes (interim.py)."""

from __future__ import annotations

try:
    from generator.documents import Block, Document, Section, read_text  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # until the shared document model lands on main
    from generator.repo.docs.interim import Block, Document, Section, read_text

__all__ = ["Block", "Document", "Section", "read_text"]
