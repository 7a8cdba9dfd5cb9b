"""One door to the shared document model (generator/documents/): the docs stage reads every file through it."""

from __future__ import annotations

from generator.documents import Block, Document, Section, read_text

__all__ = ["Block", "Document", "Section", "read_text"]
