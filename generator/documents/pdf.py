"""PDF read page by page under a Budget: each content stream (and form XObject) is decompressed and its
text extracted once, however many pages share it; reading stops when the budget or the run's deadline is
spent. A block's lines are lines of the extracted text, pages separated by a blank line."""

from __future__ import annotations

import io
import logging
from typing import Any

from .budget import Budget
from .model import Section
from .text import read_plain

log = logging.getLogger(__name__)
StreamKey = tuple[int, int]


def read_pdf(data: bytes, budget: Budget) -> tuple[str, tuple[Section, ...]]:
    """(metadata title, sections) of a PDF; an unreadable PDF gives ("", ())."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    budget.start()
    try:
        reader = PdfReader(io.BytesIO(data))
        meta = reader.metadata
        title = str(meta.title) if meta and meta.title else ""
        texts = _page_texts(reader.pages, budget)
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, AttributeError, RecursionError):
        return "", ()
    return title, read_plain("\n\n".join(texts))


def _page_texts(pages: Any, budget: Budget) -> list[str]:
    seen: set[StreamKey] = set()
    texts: list[str] = []
    for number, page in enumerate(pages, start=1):
        if reason := budget.exhausted():
            log.info("PDF read up to page %d: %s", number - 1, reason)
            break
        streams = _streams(page)
        fresh = {key: stream for key, stream in streams.items() if key not in seen}
        if streams and not fresh:
            continue  # every stream of this page was read already: the same text, said once
        if not budget.spend(sum(len(stream.get_data()) for stream in fresh.values())):
            log.info("PDF read up to page %d: its content is over the budget", number - 1)
            break
        seen.update(fresh)
        text = (page.extract_text() or "").strip()
        if text:
            texts.append(text)
    return texts


def _streams(page: Any) -> dict[StreamKey, Any]:
    """The page's content streams and form XObjects, keyed by object number (a direct one by its id)."""
    from pypdf.generic import ArrayObject, IndirectObject

    found: dict[StreamKey, Any] = {}

    def add(ref: Any) -> None:
        key = (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else (-id(ref), 0)
        found.setdefault(key, ref.get_object())

    contents = page.get("/Contents")
    for ref in contents if isinstance(contents, ArrayObject) else [contents] if contents is not None else []:
        add(ref)
    resources = page.get("/Resources")
    xobjects = resources.get_object().get("/XObject") if resources is not None else None
    for ref in xobjects.get_object().values() if xobjects is not None else []:
        if ref.get_object().get("/Subtype") == "/Form":
            add(ref)
    return found
