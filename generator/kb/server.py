"""`deepkb mcp`: the knowledge base as an MCP server (the official SDK), read-only, over stdio or HTTP.

Seven tools, each reading through kb/reader.py (entry ids, never file paths; nothing outside site_src/),
kb/search.py or kb/ask.py; every input is checked by the SDK against its schema and by the reader against
the ids the knowledge base has. A tool never writes, fetches or runs anything, and `ask` is extractive: the
agent calling it has its own model. Over HTTP the server binds 127.0.0.1 and answers only requests whose Host
header names the address it serves (as `deepkb serve` does): a web page cannot reach it by DNS rebinding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ToolAnnotations
from pydantic import Field

from .. import __version__
from ..errors import DeepkbError
from ..netguard import allowed_hosts
from ..store import KBPaths
from .answer import AnswerPayload, answer_question
from .ask import MAX_QUESTION
from .reader import (
    EntryDetail,
    EntryList,
    PageHit,
    PageText,
    Reader,
    RecordPayload,
    SymbolLookup,
    lookup_symbol,
    page_hit,
)
from .search import search

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
INSTRUCTIONS = (
    "A deepkb knowledge base of researched repositories and topics. Start with list_entries, then "
    "read_entry for an entry's pages and records. search finds pages, ask finds cited passages, "
    "lookup_symbol finds where a symbol is defined (permalink at the pinned revision), its subsystem "
    "and its callers. Everything is read-only."
)

EntryId = Annotated[
    str, Field(min_length=6, max_length=200, description="repo:owner/name, topic:slug or source:slug/name")
]
Text = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION)]


def build_server(paths: KBPaths) -> MCPServer:
    """An MCP server whose tools read the knowledge base at `paths`."""
    reader = Reader(paths)
    server: MCPServer = MCPServer("deepkb", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(annotations=READ_ONLY)
    def list_entries(kind: Literal["all", "repo", "topic", "tag"] = "all") -> EntryList:
        """The repositories and topics (id, kind, title, description, tags), the tags with how many entries
        carry each, and how many stored sources there are."""
        return _guard(lambda: reader.entries(kind))

    @server.tool(annotations=READ_ONLY)
    def read_entry(entry_id: EntryId) -> EntryDetail:
        """One entry as the index lists it, with the names of its pages (for read_page), its records (for
        read_record) and, for a topic, its stored sources' ids."""
        return _guard(lambda: reader.entry(entry_id))

    @server.tool(annotations=READ_ONLY)
    def read_page(
        entry_id: EntryId,
        page: Annotated[str, Field(max_length=200, description="a page name from read_entry")] = "index",
        offset: Annotated[int, Field(ge=0, le=10_000_000)] = 0,
    ) -> PageText:
        """A page's markdown, 20,000 characters at a time (next_offset continues it)."""
        return _guard(lambda: reader.page(entry_id, page, offset))

    @server.tool(annotations=READ_ONLY)
    def read_record(
        entry_id: EntryId,
        name: Annotated[str, Field(max_length=40, description="a record name from read_entry")] = "",
    ) -> RecordPayload:
        """One of an entry's JSON records: a repository's or topic's entry record, a topic's run record
        (meta) and plan, a stored source's text and metadata (source)."""
        return _guard(lambda: reader.record(entry_id, name))

    @server.tool(annotations=READ_ONLY)
    def search_pages(query: Text, limit: Annotated[int, Field(ge=1, le=50)] = 10) -> list[PageHit]:
        """Pages that match the query (tags, synonyms and full text; English or Chinese), best first, several
        of one entry when several match: each with its entry's id, the page's title and path, and a snippet."""
        return _guard(lambda: [page_hit(r) for r in search(paths, query, limit=limit, per_entry=limit)])

    @server.tool(name="lookup_symbol", annotations=READ_ONLY)
    def lookup_symbol_tool(
        name: Annotated[
            str, Field(min_length=1, max_length=200, description="Flask, Flask.url_for, url_for")
        ],
        entry_id: Annotated[str, Field(max_length=200, description="only this repository")] = "",
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> SymbolLookup:
        """Where a symbol is defined (permalink at the pinned revision, file and line), its kind, the
        subsystem and page that describe it, and who calls or uses it."""
        return _guard(lambda: lookup_symbol(paths, name, entry_id, limit))

    @server.tool(annotations=READ_ONLY)
    def ask(question: Text, limit: Annotated[int, Field(ge=1, le=20)] = 5) -> AnswerPayload:
        """The passages of the knowledge base that answer the question (English or Chinese), best first, each
        with its citations (permalinks, file lines or stored sources) and page; `answered` is false when
        nothing does. Extractive: no model is called."""
        return _guard(lambda: answer_question(paths, question, None, limit).to_json())

    return server


Reply = TypeVar("Reply")


def _guard(call: Callable[[], Reply]) -> Reply:
    """A deepkb error (bad id, missing page) becomes the tool's error message, not a crash."""
    try:
        return call()
    except DeepkbError as exc:
        raise ToolError(exc.line()) from None


def http_security(host: str, port: int) -> TransportSecuritySettings:
    """Only requests addressed to this server: its Host names, and browser origins on them."""
    hosts = sorted(allowed_hosts(host, port))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{h}" for h in hosts],
    )


def serve_http(paths: KBPaths, host: str, port: int) -> None:
    """Serve streamable HTTP on host:port at /mcp until interrupted."""
    import anyio

    server = build_server(paths)
    anyio.run(
        lambda: server.run_streamable_http_async(
            host=host, port=port, transport_security=http_security(host, port)
        )
    )


def serve_stdio(paths: KBPaths) -> None:
    import anyio

    anyio.run(build_server(paths).run_stdio_async)
