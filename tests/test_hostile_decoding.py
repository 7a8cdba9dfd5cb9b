"""Issue 22 #7: compressed answers are decoded a bounded piece at a time, wherever bodies are read.

3.5 KB of `Content-Encoding: gzip, gzip` drove the crawler to 4.1 GB and the OpenAI-compatible client to
6.4 GB: httpx decodes a whole wire chunk through every layer before the size cap is checked. A fake server
on 127.0.0.1 sends the bombs; the memory a read takes is measured with tracemalloc (allocations, not time).
"""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import Callable, Iterator

import pytest
from search_fakes import FakeSearchServer, Reply, fast_retry

from generator.errors import ProviderResponseError
from generator.http import get_json, post_json
from generator.topic.crawl import Crawler, FetchRefused

CAP = 1_000_000
"""The size cap of every read below; the bombs decode to 100 times as much."""


def gzip_of_zeros(size: int) -> bytes:
    """A gzip member of `size` zero bytes, built without holding them (≈ 1 KB per MB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    parts = [packer.compress(block) for _ in range(size >> 20)]
    return b"".join(parts) + packer.flush()


BOMB = gzip_of_zeros(100 * CAP)


def peak_memory(read: Callable[[], object]) -> int:
    """The most memory Python held at once while `read` ran (it must raise one of the expected errors)."""
    tracemalloc.start()
    try:
        with pytest.raises((ProviderResponseError, FetchRefused)):
            read()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture
def server() -> Iterator[FakeSearchServer]:
    with FakeSearchServer() as fake:
        fake.route("/robots.txt", Reply(200, "User-agent: *\n"))
        yield fake


def crawl(url: str) -> object:
    with Crawler(allow_loopback=True, delay=0, max_bytes=CAP) as crawler:
        return crawler.fetch(url)


def search(url: str) -> object:
    return get_json(url, provider="searxng", retry=fast_retry(), max_body=CAP)


@pytest.mark.parametrize("read", [crawl, search], ids=["crawler", "model and search calls"])
def test_a_gzip_bomb_stops_at_the_cap_without_decoding_a_whole_chunk(
    server: FakeSearchServer, read: Callable[[str], object]
) -> None:
    server.route("/bomb", Reply(200, BOMB, headers={"content-encoding": "gzip"}, content_type="text/html"))
    assert peak_memory(lambda: read(f"{server.url}/bomb")) < 8 * CAP  # 64 MB and more before


@pytest.mark.parametrize("read", [crawl, search], ids=["crawler", "model and search calls"])
@pytest.mark.parametrize("encoding", ["gzip, gzip", "gzip,identity,deflate", "br", "x-custom"])
def test_stacked_or_unknown_encodings_are_refused(
    server: FakeSearchServer, read: Callable[[str], object], encoding: str
) -> None:
    body = gzip.compress(gzip.compress(b"<p>" + b"0" * 100_000 + b"</p>"))
    server.route(
        "/stacked", Reply(200, body, headers={"content-encoding": encoding}, content_type="text/html")
    )
    with pytest.raises((ProviderResponseError, FetchRefused), match="Content-Encoding .* is refused"):
        read(f"{server.url}/stacked")


def test_the_openai_compatible_client_path_decodes_the_same_way(server: FakeSearchServer) -> None:
    stacked = gzip.compress(gzip_of_zeros(10 * CAP))
    server.route("/v1/chat/completions", Reply(200, stacked, headers={"content-encoding": "gzip, gzip"}))
    with pytest.raises(ProviderResponseError, match="stacked Content-Encoding 'gzip, gzip' is refused"):
        post_json(f"{server.url}/v1/chat/completions", {"model": "m"}, provider="openai", retry=fast_retry())


@pytest.mark.parametrize("header", [True, False], ids=["zlib deflate", "raw deflate"])
def test_one_layer_of_gzip_or_deflate_still_reads(server: FakeSearchServer, header: bool) -> None:
    page = (
        b"<html><head><title>Packed</title></head><body><p>"
        + b"Readable text. " * 5000
        + b"</p></body></html>"
    )
    deflated = zlib.compress(page) if header else zlib.compress(page)[2:-4]
    server.route(
        "/deflate", Reply(200, deflated, headers={"content-encoding": "deflate"}, content_type="text/html")
    )
    server.route(
        "/gzip",
        Reply(200, gzip.compress(page), headers={"content-encoding": "GZIP"}, content_type="text/html"),
    )
    with Crawler(allow_loopback=True, delay=0) as crawler:
        for path in ("/deflate", "/gzip"):
            fetched = crawler.fetch(f"{server.url}{path}")
            assert fetched.title == "Packed" and fetched.plain_text.count("Readable text.") == 5000
    packed = gzip.compress(b'{"results": []}')
    for broken, problem in [(packed[:10] + b"\xff" * 20, "is corrupt"), (packed[:-12], "ends before")]:
        server.route("/broken", Reply(200, broken, headers={"content-encoding": "gzip"}))
        with pytest.raises(ProviderResponseError, match=f"gzip body {problem}"):
            search(f"{server.url}/broken")
