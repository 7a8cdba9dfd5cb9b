"""Response bodies decoded by deepkb itself, one bounded piece at a time, so that a size cap holds for the
decoded bytes as they are produced.

httpx decodes each wire chunk whole, through every layer of a stacked `Content-Encoding`: a few kilobytes
of gzip inside gzip become gigabytes before a caller sees the first chunk. Here the wire bytes are read raw
and inflated in pieces of at most `PIECE` bytes; one layer of gzip or deflate is decoded, anything else
(stacked, br, zstd, unknown) is refused.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

import httpx

PIECE = 64 * 1024
"""The most decoded bytes produced between two size checks of the caller."""
_WINDOW_BITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


class EncodingRefused(ValueError):
    """A body deepkb does not decode: stacked or unknown content codings, or corrupt compressed data."""


def content_codings(header: str) -> list[str]:
    """The codings a `Content-Encoding` value applies, in order, without `identity`."""
    codings = (part.strip().lower() for part in header.split(","))
    return [coding for coding in codings if coding and coding != "identity"]


def iter_decoded(response: httpx.Response) -> Iterator[bytes]:
    """The body of a streamed `response`, decoded, in pieces of at most `PIECE` bytes when compressed."""
    try:
        content = response.content
    except httpx.ResponseNotRead:
        pass
    else:  # a response built from bytes in memory (a mock transport's) was read, and decoded, already
        yield content
        return
    codings = content_codings(response.headers.get("content-encoding", ""))
    if not codings:
        yield from response.iter_raw()
        return
    if len(codings) > 1:
        raise EncodingRefused(f"stacked Content-Encoding '{', '.join(codings)}' is refused")
    if codings[0] not in _WINDOW_BITS:
        raise EncodingRefused(f"Content-Encoding '{codings[0][:40]}' is refused (gzip and deflate are read)")
    yield from _inflate(response.iter_raw(), codings[0])


def _inflate(raw: Iterable[bytes], coding: str) -> Iterator[bytes]:
    decompressor = zlib.decompressobj(_WINDOW_BITS[coding])
    started = False
    for chunk in raw:
        data, full = chunk, False
        while (data or full) and not decompressor.eof:
            try:
                piece = decompressor.decompress(data, PIECE)
            except zlib.error as exc:
                if coding == "deflate" and not started:  # some servers send raw deflate without its header
                    decompressor, started = zlib.decompressobj(-zlib.MAX_WBITS), True
                    continue
                raise EncodingRefused(f"the {coding} body is corrupt: {exc}") from None
            started = True
            data = decompressor.unconsumed_tail
            full = len(piece) == PIECE  # zlib may hold more output although the input is used up
            if piece:
                yield piece
    if started and not decompressor.eof:
        raise EncodingRefused(f"the {coding} body ends before its compressed data does")
    tail = decompressor.flush()
    if tail:
        yield tail
