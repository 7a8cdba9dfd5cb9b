"""What `deepkb serve` adds to MkDocs' preview server: only requests addressed to it are answered, and what it
logs about a request is made inert.

A page on another site can make a reader's browser ask 127.0.0.1:8000 for anything (DNS rebinding reaches it
under the attacker's host name): a request whose Host header is not the address served on (or localhost /
127.0.0.1 / [::1] at its port, when it serves on a loopback address) is refused with 400. Request lines are
logged through `terminal.printable`, so a path cannot carry escape sequences to the terminal.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from ..netguard import allowed_hosts
from ..terminal import printable

LIVERELOAD_LOGGER = "mkdocs.livereload"  # the logger MkDocs' preview server writes its request lines to


def host_guard(app: WSGIApplication, hosts: frozenset[str]) -> WSGIApplication:
    """`app`, answering 400 to a request whose Host header is not one of `hosts`."""

    def guarded(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if str(environ.get("HTTP_HOST", "")).strip().lower() not in hosts:
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"400 Bad Request: this preview answers only requests addressed to it\n"]
        return app(environ, start_response)

    return guarded


class PrintableRecords(logging.Filter):
    """Makes each record's message inert (a request line holds whatever bytes the client sent)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = printable(record.getMessage()), None
        return True


def guard_preview(server: Any, host: str, port: int) -> Any:
    """Wrap a WSGI preview server's application in the Host check; returns the server (MkDocs' on_serve)."""
    server.set_app(host_guard(server.get_app(), allowed_hosts(host, port)))
    logger = logging.getLogger(LIVERELOAD_LOGGER)
    if not any(isinstance(f, PrintableRecords) for f in logger.filters):
        logger.addFilter(PrintableRecords())
    return server
