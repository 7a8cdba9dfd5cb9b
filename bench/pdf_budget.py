"""A hostile PDF against the document reader's budget (issue #32, item 4): forty pages sharing one content
stream that inflates to 2 MB, about 12 KB on disk.

    .venv/bin/python bench/pdf_budget.py [--inflated BYTES] [--unbounded-pages N]

Prints the file's size, the CPU seconds pypdf takes to extract N of its pages one by one (what deepkb did
before: every page parsed the whole shared stream again; the full figure is that times 40 / N), and the
CPU seconds and decompressed bytes of `generator.documents.read_bytes` under its default budget.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "tests"))

from pypdf import PdfReader  # noqa: E402
from test_documents_pdf import PAGES, shared_stream_pdf  # noqa: E402

from generator.documents import Budget, read_bytes  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inflated", type=int, default=2_000_000)
    parser.add_argument("--unbounded-pages", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = shared_stream_pdf(Path(tmp) / "hostile.pdf", args.inflated)
    start = time.process_time()
    pages = PdfReader(io.BytesIO(data)).pages
    for page in list(pages)[: args.unbounded_pages]:
        page.extract_text()
    per_page = (time.process_time() - start) / args.unbounded_pages
    budget = Budget()
    start = time.process_time()
    doc = read_bytes(data, name="hostile.pdf", budget=budget)
    read = time.process_time() - start
    print(
        f"file {len(data) / 1024:.1f} KB, {PAGES} pages, shared stream {args.inflated / 1e6:.1f} MB inflated"
    )
    print(
        f"before (every page parsed): {per_page:.2f} s CPU per page → ~{per_page * PAGES:.0f} s for {PAGES}"
    )
    print(
        f"read_bytes, default budget: {read:.2f} s CPU, {budget.used_bytes / 1e6:.2f} MB decompressed, "
        f"{sum(1 for _ in doc.blocks())} block(s)"
    )


if __name__ == "__main__":
    main()
