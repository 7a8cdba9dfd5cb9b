"""What `deepkb serve` adds to MkDocs' preview server: only requests addressed to it are answered, and what it
logs about a request is made inert.

A page on another site can make a reader's browser ask 127.0.0.1:8000 for anything (DNS rebinding reaches it
under the attacker's host name): a request whose Host header is not the address served on (or localhost /
127.0.0.1 / [::1] at its port, when it serves on a loopback address) is refused with 400. Request lines are
logged through `terminal.printable`, so a path cannot carry escape sequences to the terminal.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable
from typing import Any
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from ..terminal import printable

LIVERELOAD_LOGGER = "mkdocs.livereload"  # the logger MkDocs' preview server writes its request lines to
_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The Host header values a preview served on `host:port` answers (lower case)."""
    shown = f"[{host}]" if ":" in host else host
    names = {shown.lower()}
    if _is_loopback(host):
        names.update(_LOOPBACK_NAMES)
    hosts = {f"{name}:{port}" for name in names}
    return frozenset(hosts | (names if port == 80 else set()))


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() == "localhost"


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
