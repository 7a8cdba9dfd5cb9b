"""`deepkb mcp` end to end with the MCP SDK's own client: over stdio (the server started as a process, as an
agent starts it) and streamable HTTP, against a knowledge base researched offline in the test."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from ask_kb import KB, build_kb
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from generator.kb.reader import MAX_TEXT, Reader
from generator.store import KBPaths

TOOLS = {"list_entries", "read_entry", "read_page", "read_record", "search_pages", "lookup_symbol", "ask"}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KB:
    return build_kb(tmp_path_factory.mktemp("mcp-kb"))


def _env() -> dict[str, str]:
    return {name: os.environ[name] for name in ("HOME", "DEEPKB_CACHE_DIR", "PATH") if name in os.environ}


def over_stdio(root: Path, script: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    """Start `deepkb --root ROOT mcp` as a process and run `script` in a client session with it."""

    async def main() -> Any:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "generator", "--root", str(root), "mcp"], env=_env()
        )
        with open(os.devnull, "w") as quiet:  # the server logs each refused call at INFO on stderr
            async with stdio_client(params, errlog=quiet) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await script(session)

    return anyio.run(main)


def payload(result: Any) -> Any:
    assert not result.is_error, result.content
    data = result.structured_content
    return data.get("result", data) if isinstance(data, dict) and set(data) == {"result"} else data


def error(result: Any) -> str:
    assert result.is_error
    return " ".join(c.text for c in result.content)


def test_the_sdk_client_reads_the_knowledge_base_over_stdio(kb: KB) -> None:
    async def script(session: ClientSession) -> dict[str, Any]:
        tools = await session.list_tools()
        out: dict[str, Any] = {"tools": tools.tools}
        out["entries"] = payload(await session.call_tool("list_entries", {}))
        out["repo"] = payload(await session.call_tool("read_entry", {"entry_id": "repo:acme/sample"}))
        shard = next(p for p in out["repo"]["pages"] if p.startswith("shards/"))
        out["page"] = payload(
            await session.call_tool("read_page", {"entry_id": "repo:acme/sample", "page": shard})
        )
        out["symbol"] = payload(await session.call_tool("lookup_symbol", {"name": "evaluate"}))
        out["method"] = payload(await session.call_tool("lookup_symbol", {"name": "SessionStore.load"}))
        out["search"] = payload(await session.call_tool("search_pages", {"query": "recursive descent"}))
        out["ask"] = payload(await session.call_tool("ask", {"question": "What does evaluate do?"}))
        out["ask_zh"] = payload(await session.call_tool("ask", {"question": "会话存储"}))
        out["nothing"] = payload(await session.call_tool("ask", {"question": "zzqx walrus"}))
        topic = "topic:how-calculators-evaluate-expressions"
        out["topic"] = payload(await session.call_tool("read_entry", {"entry_id": topic}))
        out["meta"] = payload(await session.call_tool("read_record", {"entry_id": topic, "name": "meta"}))
        # a corpus file (the KB's own pages can be sources of a topic too)
        source = next(s for s in out["topic"]["sources"] if "/local-" in s)
        out["source"] = payload(await session.call_tool("read_record", {"entry_id": source}))
        out["report"] = payload(
            await session.call_tool("read_page", {"entry_id": topic, "page": "output/report"})
        )
        return out

    out = over_stdio(kb.root, script)
    assert {tool.name for tool in out["tools"]} == TOOLS
    assert all(tool.annotations.read_only_hint for tool in out["tools"])
    ids = {entry["id"] for entry in out["entries"]["entries"]}
    assert ids == {"repo:acme/sample", "topic:how-calculators-evaluate-expressions"}
    assert "python" in out["entries"]["tags"]
    assert "index" in out["repo"]["pages"] and out["repo"]["records"] == ["entry"]
    assert "evaluate" in out["page"]["text"] and out["page"]["next_offset"] is None

    definition = out["symbol"]["definitions"][0]
    assert (
        definition["permalink"] == f"https://github.com/acme/sample/blob/{kb.revision}/sample/core.py#L6-L8"
    )
    assert (definition["path"], definition["line"], definition["kind"]) == ("sample/core.py", 6, "function")
    assert definition["page"].startswith("repos/acme/sample/shards/")
    assert definition["subsystem"] and " · " not in definition["subsystem"]  # the shard's subsystem name
    assert any(
        caller["entry"] == "repo:acme/sample" for caller in out["symbol"]["callers"]
    )  # used by the CLI
    assert out["method"]["definitions"][0]["name"] == "SessionStore.load"

    assert (
        out["search"][0]["id"].split(":")[0] in ("topic", "source")
        and "recursive" in out["search"][0]["snippet"].lower()
    )
    assert out["ask"]["answered"] and out["ask"]["passages"][0]["symbol"] == "evaluate"
    assert out["ask_zh"]["answered"] and "sample/sessions.py" in json.dumps(out["ask_zh"]["passages"][0])
    assert out["nothing"]["answered"] is False and out["nothing"]["passages"] == []
    assert out["meta"]["data"]["status"] == "completed"
    assert out["source"]["data"]["url"].startswith("local:corpus/")
    assert out["report"]["title"].endswith("report")


def test_inputs_that_name_files_or_leave_the_knowledge_base_are_refused(kb: KB, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    shutil.copytree(kb.root, root, symlinks=True)
    secret = tmp_path / "secret.md"
    secret.write_text("---\ntitle: secret\n---\nTOPSECRET\n", encoding="utf-8")
    shards = root / "site_src/repos/acme/sample/shards"
    (shards / "99_secret.md").symlink_to(secret)
    topic = root / "site_src/topics/how-calculators-evaluate-expressions"
    (topic / "plan.json").unlink()
    (topic / "plan.json").symlink_to(tmp_path / "plan.json")
    (tmp_path / "plan.json").write_text('{"secret": "TOPSECRET"}', encoding="utf-8")

    attempts = [
        ("read_page", {"entry_id": "repo:acme/sample", "page": "../../../_index"}),
        ("read_page", {"entry_id": "repo:acme/sample", "page": "/etc/passwd"}),
        ("read_page", {"entry_id": "repo:acme/sample", "page": "shards/99_secret"}),
        ("read_page", {"entry_id": "repo:../../etc", "page": "index"}),
        ("read_page", {"entry_id": "/etc/passwd", "page": "index"}),
        ("read_record", {"entry_id": "topic:how-calculators-evaluate-expressions", "name": "plan"}),
        ("read_entry", {"entry_id": "repo:acme/nothing"}),
        ("lookup_symbol", {"name": "evaluate; DROP TABLE symbols"}),
        ("read_page", {"entry_id": "repo:acme/sample", "offset": -1}),
        ("ask", {"question": ""}),
        ("search_pages", {"query": "x" * 501}),
    ]

    async def script(session: ClientSession) -> list[str]:
        return [error(await session.call_tool(name, args)) for name, args in attempts]

    messages = over_stdio(root, script)
    assert all("TOPSECRET" not in message for message in messages)
    assert "is not a page name" in messages[0] and "is not a page name" in messages[1]
    assert "has no page" in messages[2]  # a linked page is never indexed, so it is no page of the entry
    assert "is not an entry id" in messages[3] and "is not an entry id" in messages[4]
    assert "has no record 'plan'" in messages[5]  # a linked record is not one of the entry's records
    assert "no entry" in messages[6] and "is not a symbol name" in messages[7]
    assert all("validation error" in m.lower() for m in messages[8:])


def test_results_are_bounded(kb: KB, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    shutil.copytree(kb.root, root, symlinks=True)
    page = next((root / "site_src/repos/acme/sample/shards").glob("01_*.md"))
    page.write_text(page.read_text(encoding="utf-8") + "\nfiller text. " * 5000, encoding="utf-8")
    reader = Reader(KBPaths(root))
    first = reader.page("repo:acme/sample", f"shards/{page.stem}")
    assert len(first["text"]) == MAX_TEXT and first["next_offset"] == MAX_TEXT
    rest = reader.page("repo:acme/sample", f"shards/{page.stem}", first["next_offset"])
    assert first["text"] + rest["text"] == page.read_text(encoding="utf-8")[: 2 * MAX_TEXT]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server(kb: KB) -> Iterator[int]:
    port = _free_port()
    args = [sys.executable, "-m", "generator", "--root", str(kb.root), "mcp", "--transport", "http"]
    process = subprocess.Popen(
        [*args, "--port", str(port)], env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(300):  # until it listens (a Python start-up and an import of the SDK)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                assert process.poll() is None, "deepkb mcp --transport http exited"
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def test_http_answers_the_sdk_client_and_refuses_another_host(http_server: int) -> None:
    port = http_server
    url = f"http://127.0.0.1:{port}/mcp"
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    rebound = httpx.post(url, json=INITIALIZE, headers={**headers, "Host": f"attacker.example:{port}"})
    assert rebound.status_code == 421  # a page on another site reaching 127.0.0.1 by DNS rebinding
    foreign = httpx.post(url, json=INITIALIZE, headers={**headers, "Origin": "http://attacker.example"})
    assert foreign.status_code == 403

    async def main() -> Any:
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return payload(await session.call_tool("lookup_symbol", {"name": "Calculator"}))

    found = anyio.run(main)
    assert found["definitions"][0]["path"] == "sample/core.py"


def test_search_pages_lists_several_pages_of_one_entry_up_to_the_limit(kb: KB) -> None:
    # an agent lists the pages about a subject: not one hit per repository or topic
    from generator.kb.server import build_server

    server = build_server(KBPaths(kb.root))

    async def call() -> Any:
        return await server.call_tool("search_pages", {"query": "calculator", "limit": 5})

    pages = payload(anyio.run(call))
    assert len(pages) == 5
    topic = [p["path"] for p in pages if p["id"] == "topic:how-calculators-evaluate-expressions"]
    assert len(topic) >= 2 and len(set(topic)) == len(topic)
    assert all(p["path"].endswith(".md") and p["title"] for p in pages)
