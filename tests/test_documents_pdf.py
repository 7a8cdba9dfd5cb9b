"""A PDF is read under a budget: a content stream shared by many pages is read once, decompressed bytes are
counted across pages, and the run's deadline stops the reading (issue #32, item 4)."""

from __future__ import annotations

import zlib
from pathlib import Path

from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject, StreamObject

from generator import deadlines
from generator.documents import Budget, read_bytes

PAGES = 40


def shared_stream_pdf(path: Path, inflated: int) -> bytes:
    """PAGES pages whose /Contents is one Flate stream that inflates to about `inflated` bytes: a few
    words of text, then a long run of no-op graphics operators."""
    writer = PdfWriter()
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    body = b"BT /F1 12 Tf 72 720 Td (Shared words of every page) Tj ET\n"
    body += b"q Q\n" * ((inflated - len(body)) // 4)
    stream = DecodedStreamObject()
    stream.set_data(body)
    encoded = stream.flate_encode()
    content = writer._add_object(encoded)
    font_ref = writer._add_object(font)
    for _ in range(PAGES):
        page = writer.add_blank_page(width=612, height=792)
        page[NameObject("/Contents")] = content
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font_ref})}
        )
    with path.open("wb") as out:
        writer.write(out)
    assert isinstance(encoded, StreamObject) and len(zlib.compress(body)) < inflated // 50
    return path.read_bytes()


def test_a_stream_shared_by_forty_pages_is_decompressed_and_read_once(tmp_path: Path) -> None:
    data = shared_stream_pdf(tmp_path / "shared.pdf", 200_000)
    budget = Budget(max_bytes=1_000_000)
    doc = read_bytes(data, name="shared.pdf", budget=budget)
    texts = [b.text for _, b in doc.blocks()]
    assert texts == ["Shared words of every page"]
    assert 200_000 - 60 <= budget.used_bytes <= 200_000  # one stream counted, not forty


def test_decompressed_bytes_are_counted_across_pages_and_stop_the_reading(tmp_path: Path) -> None:
    data = shared_stream_pdf(tmp_path / "big.pdf", 200_000)
    budget = Budget(max_bytes=100_000)
    doc = read_bytes(data, name="big.pdf", budget=budget)
    assert list(doc.blocks()) == [] and budget.used_bytes == 0


def test_the_run_deadline_reaches_the_reader(tmp_path: Path) -> None:
    data = shared_stream_pdf(tmp_path / "late.pdf", 20_000)
    now = [0.0]
    with deadlines.run_deadline("topic", total=45, clock=lambda: now[0]):
        now[0] = 46.0  # the run is out of time before the document is read
        doc = read_bytes(data, name="late.pdf", budget=Budget())
    assert list(doc.blocks()) == []


def test_the_budget_own_time_limit_stops_between_pages(tmp_path: Path) -> None:
    data = shared_stream_pdf(tmp_path / "slow.pdf", 20_000)
    now = [0.0]
    budget = Budget(seconds=5, clock=lambda: now[0])
    budget.start()
    now[0] = 6.0
    assert list(read_bytes(data, name="slow.pdf", budget=budget).blocks()) == []
