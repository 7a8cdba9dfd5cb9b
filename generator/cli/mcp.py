"""`deepkb mcp`: serve the knowledge base read-only to MCP clients, over stdio (default) or streamable HTTP."""

from __future__ import annotations

import click

from ..errors import UsageError
from ..kb.server import serve_http, serve_stdio
from .app import App, pass_app


@click.command()
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio for a client that starts the server; http (streamable HTTP at /mcp) for one that connects.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP: address to bind.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP: port.")
@pass_app
def mcp(app: App, transport: str, host: str, port: int) -> None:
    """Serve the knowledge base read-only to MCP clients (coding agents), over stdio or HTTP."""
    if not app.paths.site_src.is_dir():
        raise UsageError(
            f"{app.paths.root} holds no knowledge base (no site_src/)", hint="pass --root or cd into it"
        )
    if transport == "stdio":
        serve_stdio(app.paths)  # stdout carries the protocol: nothing else is printed there
        return
    app.console.print(f"MCP server on [bold]http://{host}:{port}/mcp[/bold] (read-only) — Ctrl+C stops.")
    serve_http(app.paths, host, port)
