"""A fake far side for search providers and the crawler: one HTTP server on 127.0.0.1 in a thread.

It speaks every provider's documented wire format, can be scripted to fail first (429 with retry-after,
500, bad JSON, slow), and records every request. Reuse it from any test:

    from search_fakes import FakeSearchServer, Reply, Doc, payload, fast_retry

    with FakeSearchServer() as server:
        # Without scripting, each provider's path answers DEFAULT_DOCS in that provider's shape:
        #   GET  /api/query              arXiv Atom feed
        #   GET  /graph/v1/paper/search  Semantic Scholar {"total", "data": [...]}
        #   GET  /w/api.php              MediaWiki generator=search + extracts
        #   POST /search                 Tavily {"results"} (or Exa's shape when the body has "numResults")
        #   GET  /search                 SearXNG {"results"}
        #   GET  /res/v1/web/search      Brave {"web": {"results"}}
        server.route("/api/query", payload("arxiv", [Doc("Title", "https://arxiv.org/abs/1", "Abstract")]))
        server.script("/search", Reply(429, headers={"retry-after": "1"}))  # once, then the route/default
        server.route("/page", Reply(200, "<html>…</html>", content_type="text/html"))  # any page for crawl
        waits: list[float] = []
        provider = create_search_provider("tavily", base_url=server.url, retry=fast_retry(waits))
        ...
        server.hits("/search")      # how many requests reached that path
        server.requests[-1].json    # the last request's decoded JSON body (also .headers, .query, .body)

`route` sets a path's lasting answer; `script` queues one-shot answers consumed before it. A path with
neither and no provider default answers 404. `Reply(body=dict|list)` is sent as JSON; `delay` sleeps first; `chunked` omits content-length.
`tiny_pdf(text)` makes a one-page PDF for corpora and crawl tests. `FakeSearchServer(tls=context)` serves
HTTPS with a server-side SSLContext (see tests/test_ssrf.py for a self-signed certificate made with openssl).
"""

from __future__ import annotations

import io
import json
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from generator.http import RetryPolicy


@dataclass
class Reply:
    status: int = 200
    body: Any = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = None
    delay: float = 0.0
    chunked: bool = False  # send without content-length, in chunked transfer encoding

    def encoded(self) -> tuple[bytes, str]:
        if isinstance(self.body, dict | list):
            return json.dumps(self.body).encode(), self.content_type or "application/json"
        if isinstance(self.body, str):
            return self.body.encode(), self.content_type or "text/plain; charset=utf-8"
        return bytes(self.body), self.content_type or "application/octet-stream"


@dataclass
class Doc:
    title: str
    url: str
    content: str
    authors: tuple[str, ...] = ("Ada Lovelace",)
    published: str = "2024-01-15"


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


DEFAULT_DOCS = [
    Doc(
        "Retrieval-augmented generation survey",
        "https://example.org/rag",
        "RAG combines retrieval with generation.",
    ),
    Doc("BM25 ranking explained", "https://example.org/bm25", "BM25 scores documents by term frequency."),
]


def fast_retry(waits: list[float] | None = None, attempts: int = 3, max_wait: float = 2.0) -> RetryPolicy:
    """A retry policy that never sleeps; the waits it would have slept are appended to `waits`."""
    record = waits.append if waits is not None else (lambda _seconds: None)
    return RetryPolicy(attempts=attempts, backoff=0.0, max_wait=max_wait, sleep=record)


def payload(provider: str, docs: list[Doc]) -> Reply:
    """A 200 reply carrying `docs` in `provider`'s documented response shape."""
    return _BUILDERS[provider](docs)


def _arxiv(docs: list[Doc]) -> Reply:
    entries = "".join(
        f"""<entry><id>{escape(d.url)}</id><title>{escape(d.title)}</title><summary>{escape(d.content)}</summary>
<published>{d.published}T00:00:00Z</published>{"".join(f"<author><name>{escape(a)}</name></author>" for a in d.authors)}
<link href="{escape(d.url)}" rel="alternate" type="text/html"/><link title="pdf" href="{escape(d.url)}.pdf" rel="related"/>
<arxiv:doi>10.0000/{i}</arxiv:doi><category term="cs.IR"/></entry>"""
        for i, d in enumerate(docs)
    )
    feed = f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"
 xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><title>arXiv Query</title>
<opensearch:totalResults>{len(docs)}</opensearch:totalResults>{entries}</feed>"""
    return Reply(200, feed, content_type="application/atom+xml; charset=utf-8")


def _semantic_scholar(docs: list[Doc]) -> Reply:
    data = [
        {
            "paperId": f"p{i}",
            "title": d.title,
            "abstract": d.content,
            "url": d.url,
            "year": int(d.published[:4]),
            "publicationDate": d.published,
            "venue": "SIGIR",
            "citationCount": 10 * i,
            "externalIds": {"DOI": f"10.1/{i}"},
            "authors": [{"authorId": str(j), "name": a} for j, a in enumerate(d.authors)],
        }
        for i, d in enumerate(docs)
    ]
    return Reply(200, {"total": len(data), "offset": 0, "data": data})


def _wikipedia(docs: list[Doc]) -> Reply:
    pages = [
        {"pageid": 100 + i, "ns": 0, "title": d.title, "index": i + 1, "extract": d.content, "fullurl": d.url}
        for i, d in enumerate(docs)
    ]
    return Reply(200, {"batchcomplete": True, "query": {"pages": list(reversed(pages))}})


def _tavily(docs: list[Doc]) -> Reply:
    results = [
        {"title": d.title, "url": d.url, "content": d.content, "score": 0.9 - i / 10}
        for i, d in enumerate(docs)
    ]
    return Reply(200, {"query": "q", "answer": None, "results": results, "response_time": 0.1})


def _exa(docs: list[Doc]) -> Reply:
    results = [
        {
            "id": d.url,
            "url": d.url,
            "title": d.title,
            "text": d.content,
            "score": 0.5,
            "author": d.authors[0],
            "publishedDate": d.published + "T00:00:00.000Z",
        }
        for d in docs
    ]
    return Reply(200, {"requestId": "r1", "results": results})


def _brave(docs: list[Doc]) -> Reply:
    results = [
        {
            "title": d.title,
            "url": d.url,
            "description": f"<strong>{escape(d.content)}</strong>",
            "page_age": d.published,
        }
        for d in docs
    ]
    return Reply(
        200, {"type": "search", "query": {"original": "q"}, "web": {"type": "search", "results": results}}
    )


def _searxng(docs: list[Doc]) -> Reply:
    results = [
        {"url": d.url, "title": d.title, "content": d.content, "engine": "duckduckgo", "score": 1.0}
        for d in docs
    ]
    return Reply(200, {"query": "q", "number_of_results": len(results), "results": results})


_BUILDERS: dict[str, Callable[[list[Doc]], Reply]] = {
    "arxiv": _arxiv,
    "semantic_scholar": _semantic_scholar,
    "wikipedia": _wikipedia,
    "tavily": _tavily,
    "exa": _exa,
    "brave": _brave,
    "searxng": _searxng,
}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hung up early (byte cap, timeout) is part of the test, not a failure


_DEFAULT_PATHS = {
    ("GET", "/api/query"): "arxiv",
    ("GET", "/graph/v1/paper/search"): "semantic_scholar",
    ("GET", "/w/api.php"): "wikipedia",
    ("GET", "/res/v1/web/search"): "brave",
    ("GET", "/search"): "searxng",
    ("POST", "/search"): "tavily",
}


class FakeSearchServer:
    """See the module docstring. Use as a context manager; `url` is `http://127.0.0.1:PORT`."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[Recorded] = []
        self.scheme = "https" if tls else "http"
        self._routes: dict[str, Reply] = {}
        self._scripts: dict[str, list[Reply]] = {}
        self._lock = threading.Lock()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler_class())
        if tls:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def __enter__(self) -> FakeSearchServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def route(self, path: str, reply: Reply) -> None:
        self._routes[path] = reply

    def script(self, path: str, *replies: Reply) -> None:
        with self._lock:
            self._scripts.setdefault(path, []).extend(replies)

    def hits(self, path: str | None = None) -> int:
        return sum(1 for r in self.requests if path is None or r.path == path)

    def _answer(self, record: Recorded) -> Reply:
        with self._lock:
            self.requests.append(record)
            queue = self._scripts.get(record.path)
            if queue:
                return queue.pop(0)
        if record.path in self._routes:
            return self._routes[record.path]
        provider = _DEFAULT_PATHS.get((record.method, record.path))
        if provider == "tavily" and isinstance(record.json, dict) and "numResults" in record.json:
            provider = "exa"
        return payload(provider, DEFAULT_DOCS) if provider else Reply(404, "not found")

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                parts = urlsplit(self.path)
                record = Recorded(
                    self.command,
                    parts.path,
                    parse_qs(parts.query, keep_blank_values=True),
                    {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length) if length else b"",
                )
                reply = fake._answer(record)
                if reply.delay:
                    time.sleep(reply.delay)
                body, content_type = reply.encoded()
                self.send_response(reply.status)
                self.send_header("content-type", content_type)
                if reply.chunked:
                    self.send_header("transfer-encoding", "chunked")
                else:
                    self.send_header("content-length", str(len(body)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if not reply.chunked:
                    self.wfile.write(body)
                    return
                for start in range(0, len(body), 4096):
                    piece = body[start : start + 4096]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.write(b"0\r\n\r\n")

            do_GET = do_POST = _handle

            def log_message(self, *args: object) -> None:
                pass

        return Handler


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF with `text`, written by hand (pypdf reads it back)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()
