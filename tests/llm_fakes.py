"""Fake Anthropic and OpenAI-compatible servers on 127.0.0.1 that speak the real wire formats.

Use them to exercise the real provider code (SDK / httpx) without a network:

    from llm_fakes import FakeAnthropic, FakeOpenAI, Reply

    with FakeOpenAI(default="hello") as fake:                     # every request answers "hello"
        config = LLMConfig(provider="openai", base_url=fake.base_url)
        ...
        assert len(fake.requests) == 1
        assert fake.requests[0].prompt == "the user text"

    with FakeAnthropic() as fake:                                  # then point ANTHROPIC_BASE_URL at it
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        fake.queue(Reply.error(529), Reply.error(529), "ok")      # consumed in order, then the default

API (the same for both fakes):
- `Fake*(default=...)`: the reply once the queue is empty. A str (the model's text), a `Reply`, or a
  callable `(RecordedRequest) -> str | Reply` that computes the answer from the request, e.g.
  `default=lambda req: '{"title": "x"}' if "title" in req.prompt else "prose"`.
- `.queue(*replies)`: append scripted replies (str or `Reply`), consumed one per request.
- `.requests`: list of `RecordedRequest` (`.path`, `.headers` with lower-case names, `.json` parsed body,
  `.model`, `.system`, `.prompt` = the last user message's text, `.json_mode`).
- Also answers as an HTTP proxy would (absolute-form request lines), so `HTTP_PROXY` can point at it.
- `.base_url`: FakeAnthropic → "http://127.0.0.1:PORT" (the SDK appends /v1/messages);
  FakeOpenAI → "http://127.0.0.1:PORT/v1" (the client appends /chat/completions).
- `Reply(text=..., input_tokens=, output_tokens=)` a normal answer;
  `Reply.error(status, message=, retry_after=, headers=)` an error body in the provider's own shape;
  `Reply.hanging(seconds)` waits before answering (ended early when the server stops);
  `Reply.body(raw, status=200)` sends `raw` verbatim (malformed JSON, missing fields).
  `Reply.trickling(text, every=0.02)` sends a normal answer one byte at a time, `every` seconds apart.
  `headers={...}` adds response headers to any reply.
- Streaming: a request with `"stream": true` is answered with server-sent events in the provider's own shape
  (OpenAI `chat.completion.chunk`s with a usage chunk when `stream_options.include_usage`, Anthropic's
  message_start … message_stop), one event per token. `Reply.streaming(text, every=0.2, stall_after=n)`
  sends a token every `every` seconds and, with `stall_after`, goes silent after n tokens (the connection
  held open until the server stops).
- `FakeOpenAI(window=8192)` plays a local server (`.probes`: the paths asked about its window): prompt tokens (counted by `fake_token_count`, a rough
  BPE) plus `max_tokens` beyond the window are refused with llama-cpp-python's 400 body; `/props` and
  `/v1/models` tell the window (unless `advertise=False`); `one_at_a_time=True` serves one completion at a
  time like llama.cpp's single slot, `.peak_in_flight` recording how many were open at once.
- `.failures`: exceptions raised by a callable default (each answered with a 500 naming it), so a bug in a
  test's callable shows up instead of a silently dropped connection.
- Use as a context manager, or `start()` / `stop()` (e.g. in a pytest fixture with `yield`).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal, Self
from urllib.parse import urlsplit

_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
_OPENAI_ERROR_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 429: "rate_limit_exceeded"}


@dataclass
class Reply:
    """One scripted answer. Build errors, hangs and raw bodies with the class methods."""

    text: str = "ok"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    input_tokens: int = 11
    output_tokens: int = 7
    hang: float = 0.0
    raw: str | None = None
    error_message: str | None = None
    trickle: float = 0.0
    every: float = 0.0
    stall_after: int | None = None

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "",
        *,
        retry_after: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        extra = dict(headers or {})
        if retry_after is not None:
            extra["retry-after"] = retry_after
        return cls(status=status, error_message=message or f"fake error {status}", headers=extra)

    @classmethod
    def hanging(cls, seconds: float) -> Reply:
        return cls(hang=seconds)

    @classmethod
    def body(cls, raw: str, status: int = 200) -> Reply:
        return cls(raw=raw, status=status)

    @classmethod
    def trickling(cls, text: str = "ok", every: float = 0.02) -> Reply:
        return cls(text=text, trickle=every)

    @classmethod
    def streaming(cls, text: str, every: float = 0.2, stall_after: int | None = None) -> Reply:
        return cls(text=text, every=every, stall_after=stall_after)


_TOKEN = re.compile(r" ?[A-Za-z]{1,6}| ?\d{1,3}|\s+|[^\sA-Za-z\d]")


def fake_token_count(text: str) -> int:
    """Tokens as a BPE vocabulary roughly splits text: a word (with its leading space) per 6 letters, numbers
    in threes, a run of whitespace, each other character. Independent of deepkb's own estimate on purpose."""
    return len(_TOKEN.findall(text))


def stream_tokens(text: str) -> list[str]:
    """`text` in the pieces a model streams: a word with the whitespace after it."""
    return re.findall(r"\S+\s*|\s+", text)


@dataclass
class RecordedRequest:
    """What the client sent: path, headers (lower-case names) and the parsed JSON body."""

    path: str
    headers: dict[str, str]
    json: Any

    @property
    def model(self) -> str | None:
        return self.json.get("model") if isinstance(self.json, dict) else None

    @property
    def system(self) -> str | None:
        if not isinstance(self.json, dict):
            return None
        if "system" in self.json:
            return _text_of(self.json["system"])
        system = [m for m in self.json.get("messages", []) if m.get("role") == "system"]
        return _text_of(system[0]["content"]) if system else None

    @property
    def prompt(self) -> str:
        if not isinstance(self.json, dict):
            return ""
        users = [m for m in self.json.get("messages", []) if m.get("role") == "user"]
        return _text_of(users[-1]["content"]) if users else ""

    @property
    def streamed(self) -> bool:
        return isinstance(self.json, dict) and self.json.get("stream") is True

    @property
    def json_mode(self) -> bool:
        if not isinstance(self.json, dict):
            return False
        return self.json.get("response_format", {}).get("type") in (
            "json_object",
            "json_schema",
        ) or "JSON" in (self.system or "")

    @property
    def schema(self) -> dict[str, Any] | None:
        """The JSON Schema the request constrains its reply to: OpenAI's `response_format.json_schema.schema`,
        or the input_schema of the tool an Anthropic request forces."""
        if not isinstance(self.json, dict):
            return None
        response_format = self.json.get("response_format") or {}
        if response_format.get("type") == "json_schema":
            return response_format["json_schema"]["schema"]  # type: ignore[no-any-return]
        if "schema" in response_format:
            return response_format["schema"]  # type: ignore[no-any-return]
        forced = (self.json.get("tool_choice") or {}).get("name")
        tools = {tool["name"]: tool for tool in self.json.get("tools", [])}
        return tools[forced]["input_schema"] if forced in tools else None


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


DefaultReply = str | Reply | Callable[[RecordedRequest], "str | Reply"]


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that time out close the socket mid-reply; that is the test working, not a failure


class _FakeServer:
    path = ""

    def __init__(self, default: DefaultReply = "ok") -> None:
        self.default = default
        self.requests: list[RecordedRequest] = []
        self._queue: list[str | Reply] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _QuietServer(("127.0.0.1", 0), _handler_for(self))
        self._thread: threading.Thread | None = None
        self.failures: list[BaseException] = []

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def queue(self, *replies: str | Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def start(self) -> Self:
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.02},  # stop() waits at most one poll
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:  # shutdown() waits for serve_forever, which never ran otherwise
            self._server.shutdown()
            self._thread = None
        self._server.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            scripted = self._queue.pop(0) if self._queue else None
        reply = scripted if scripted is not None else self.default
        if callable(reply):
            reply = reply(request)
        return reply if isinstance(reply, Reply) else Reply(text=reply)

    def render(self, reply: Reply, request: RecordedRequest) -> dict[str, Any]:
        raise NotImplementedError

    def render_error(self, reply: Reply) -> dict[str, Any]:
        raise NotImplementedError

    def route(self, method: str, request: RecordedRequest) -> tuple[int, str, str] | None:
        """Other endpoints a subclass serves: (status, body, content type), or None for the main one."""
        return None

    def events(self, reply: Reply, request: RecordedRequest) -> list[tuple[str | None, Any]]:
        """A streamed answer as (event name, data) pairs, one per token in between; data None ends it."""
        raise NotImplementedError

    def serving(self) -> Any:
        """Held while one completion is served (a lock for a one-slot server)."""
        return _NoSlot()


class _NoSlot:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _handler_for(fake: _FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"null")
            except ValueError:
                body = None
            # a proxy is sent the absolute form (POST http://host/path): the fake serves both
            path = urlsplit(self.path).path
            request = RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            routed = fake.route("POST", request)
            if routed is not None:
                self._send(routed[0], routed[1], {"content-type": routed[2]})
                return
            if path != fake.path:
                self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}), {})
                return
            with fake.serving():
                self._answer(request)

        def _answer(self, request: RecordedRequest) -> None:
            try:
                reply = fake.next_reply(request)
            except Exception as exc:  # a bug in the test's callable: say so loudly
                fake.failures.append(exc)
                reply = Reply.error(500, f"fake server callable failed: {exc!r}")
            if reply.hang and fake._stopping.wait(reply.hang):
                return
            if reply.raw is not None:
                payload = reply.raw
            elif reply.status >= 400:
                payload = json.dumps(fake.render_error(reply))
            elif request.streamed:
                self._stream(fake.events(reply, request), reply)
                return
            else:
                payload = json.dumps(fake.render(reply, request))
            self._send(reply.status, payload, reply.headers, reply.trickle)

        def _stream(self, events: list[tuple[str | None, Any]], reply: Reply) -> None:
            """Server-sent events; with `every`, one token event at a time, going silent after `stall_after`."""
            chunks = [
                (f"event: {name}\n" if name else "")
                + f"data: {'[DONE]' if data is None else json.dumps(data)}\n\n"
                for name, data in events
            ]
            headers = {"content-type": "text/event-stream", "cache-control": "no-cache", **reply.headers}
            if not reply.every:
                self._send(200, "".join(chunks), headers, reply.trickle)
                return
            self.send_response(200)
            for name, value in {**headers, "transfer-encoding": "chunked"}.items():
                self.send_header(name, value)
            self.end_headers()
            tokens = 0
            for chunk in chunks:
                if '"text_delta"' in chunk or '"delta": {"content"' in chunk:
                    if reply.stall_after is not None and tokens >= reply.stall_after:
                        fake._stopping.wait(600)  # silent, connection held open, until the server stops
                        return
                    tokens += 1
                    if fake._stopping.wait(reply.every):
                        return
                data = chunk.encode()
                try:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                except OSError:
                    return
            try:
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                return

        def do_GET(self) -> None:
            request = RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, None)
            routed = fake.route("GET", request)
            if routed is None:
                routed = (
                    404,
                    json.dumps({"error": {"message": f"no route {self.path}"}}),
                    "application/json",
                )
            self._send(routed[0], routed[1], {"content-type": routed[2]})

        def _send(self, status: int, payload: str, headers: dict[str, str], trickle: float = 0.0) -> None:
            data = payload.encode()
            self.send_response(status)
            if "content-type" not in headers:
                self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if not trickle:
                self.wfile.write(data)
                return
            for index in range(len(data)):  # one byte at a time until done, stopped or hung up on
                if fake._stopping.wait(trickle):
                    return
                try:
                    self.wfile.write(data[index : index + 1])
                    self.wfile.flush()
                except OSError:
                    return

    return Handler


class FakeAnthropic(_FakeServer):
    """POST /v1/messages in the Messages API format.

    `prompt_cache=True` counts tokens from the request (about 4 characters a token) and plays the prompt
    cache: the text up to the last `cache_control` block, when at least `cache_min_tokens` long, is written
    on first sight (`cache_creation_input_tokens`) and read afterwards (`cache_read_input_tokens`); like the
    real API, `input_tokens` then counts only what follows the breakpoint.
    """

    path = "/v1/messages"

    def __init__(
        self, default: DefaultReply = "ok", *, prompt_cache: bool = False, cache_min_tokens: int = 1024
    ) -> None:
        super().__init__(default)
        self.prompt_cache = prompt_cache
        self.cache_min_tokens = cache_min_tokens
        self._cached_prefixes: set[str] = set()

    def render(self, reply: Reply, request: RecordedRequest) -> dict[str, Any]:
        return {
            "id": f"msg_fake{len(self.requests):04d}",
            "type": "message",
            "role": "assistant",
            "model": request.model or "claude-fake",
            "content": [_content_block(reply.text, request)],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": self.usage_for(reply, request),
        }

    def usage_for(self, reply: Reply, request: RecordedRequest) -> dict[str, int]:
        if not self.prompt_cache:
            return {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens}
        blocks = _blocks(request.json)
        total = sum(len(text) for text, _ in blocks) // 4
        marked = [i for i, (_, mark) in enumerate(blocks) if mark]
        prefix = "".join(text for text, _ in blocks[: marked[-1] + 1]) if marked else ""
        read = write = 0
        if len(prefix) // 4 >= self.cache_min_tokens:
            with self._lock:
                if prefix in self._cached_prefixes:
                    read = len(prefix) // 4
                else:
                    write = len(prefix) // 4
                    self._cached_prefixes.add(prefix)
        return {
            "input_tokens": total - read - write,
            "output_tokens": max(len(reply.text) // 4, 1),
            "cache_read_input_tokens": read,
            "cache_creation_input_tokens": write,
        }

    def events(self, reply: Reply, request: RecordedRequest) -> list[tuple[str | None, Any]]:
        message = self.render(reply, request)
        usage = message.pop("usage")
        message.update(content=[], stop_reason=None, usage={**usage, "output_tokens": 1})
        found: list[tuple[str | None, Any]] = [
            ("message_start", {"type": "message_start", "message": message}),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            ),
        ]
        for token in stream_tokens(reply.text):
            delta = {"type": "text_delta", "text": token}
            found.append(("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}))
        return [
            *found,
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": usage["output_tokens"]},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]

    def render_error(self, reply: Reply) -> dict[str, Any]:
        kind = _ANTHROPIC_ERROR_TYPES.get(reply.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": reply.error_message}}


def _content_block(text: str, request: RecordedRequest) -> dict[str, Any]:
    """A forced tool's call when the request forces one and the scripted text is a JSON object (the API
    sends the tool input as an object), else a text block."""
    forced = (request.json.get("tool_choice") or {}).get("name") if isinstance(request.json, dict) else None
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if forced and isinstance(data, dict):
        return {"type": "tool_use", "id": "toolu_fake", "name": forced, "input": data}
    return {"type": "text", "text": text}


def _blocks(body: Any) -> list[tuple[str, bool]]:
    """(text, has cache_control) of every system and message block, in prompt order."""
    if not isinstance(body, dict):
        return []
    parts: list[Any] = []
    system = body.get("system")
    parts.extend(system if isinstance(system, list) else [system] if system else [])
    for message in body.get("messages", []):
        content = message.get("content")
        parts.extend(content if isinstance(content, list) else [content])
    return [
        (part, False) if isinstance(part, str) else (part.get("text", ""), "cache_control" in part)
        for part in parts
        if isinstance(part, str | dict)
    ]


class FakeAnthropicBatches(FakeAnthropic):
    """FakeAnthropic plus the Message Batches API (POST /v1/messages/batches, GET …/{id}, GET …/{id}/results).

    - A batch stays `in_progress` for `polls_until_end` retrievals, then `ended` with a `results_url`.
    - Each request's result type comes from `outcome(RecordedRequest)`: "succeeded" (the message is the
      `default` reply, as for /v1/messages), "errored", "expired" or "canceled".
    - `.batches[id]` holds the created requests as RecordedRequest (path = custom_id, json = params);
      `.created` lists batch ids in order; `.retrievals[id]` counts polls. Synchronous calls land in
      `.requests` as with FakeAnthropic.
    """

    def __init__(
        self,
        default: DefaultReply = "ok",
        *,
        polls_until_end: int = 2,
        outcome: Callable[[RecordedRequest], str] = lambda request: "succeeded",
        prompt_cache: bool = False,
    ) -> None:
        super().__init__(default, prompt_cache=prompt_cache)
        self.polls_until_end = polls_until_end
        self.outcome = outcome
        self.batches: dict[str, list[RecordedRequest]] = {}
        self.created: list[str] = []
        self.retrievals: dict[str, int] = {}
        self._results: dict[str, str] = {}

    def route(self, method: str, request: RecordedRequest) -> tuple[int, str, str] | None:
        parts = request.path.split("?")[0].strip("/").split("/")
        if parts[:3] != ["v1", "messages", "batches"]:
            return None
        if method == "POST" and len(parts) == 3:
            return 200, json.dumps(self._create(request)), "application/json"
        if method == "GET" and len(parts) == 4 and parts[3] in self.batches:
            with self._lock:
                self.retrievals[parts[3]] = self.retrievals.get(parts[3], 0) + 1
            return 200, json.dumps(self._batch(parts[3])), "application/json"
        if method == "GET" and len(parts) == 5 and parts[4] == "results" and self._ended(parts[3]):
            return 200, self._jsonl(parts[3]), "application/binary"
        return (
            404,
            json.dumps({"type": "error", "error": {"type": "not_found_error", "message": "no batch"}}),
            "application/json",
        )

    def _create(self, request: RecordedRequest) -> dict[str, Any]:
        items = request.json.get("requests", []) if isinstance(request.json, dict) else []
        with self._lock:
            batch_id = f"msgbatch_fake{len(self.created) + 1:04d}"
            self.created.append(batch_id)
            self.batches[batch_id] = [RecordedRequest(i["custom_id"], {}, i["params"]) for i in items]
            self.retrievals[batch_id] = 0
        return self._batch(batch_id)

    def _ended(self, batch_id: str) -> bool:
        return batch_id in self.batches and self.retrievals.get(batch_id, 0) >= self.polls_until_end

    def _batch(self, batch_id: str) -> dict[str, Any]:
        ended = self._ended(batch_id)
        requests = self.batches[batch_id]
        counts = {
            "processing": 0 if ended else len(requests),
            "succeeded": 0,
            "errored": 0,
            "canceled": 0,
            "expired": 0,
        }
        if ended:
            for line in self._jsonl(batch_id).splitlines():
                counts[json.loads(line)["result"]["type"]] += 1
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": counts,
            "created_at": "2026-01-01T00:00:00Z",
            "expires_at": "2026-01-02T00:00:00Z",
            "ended_at": "2026-01-01T01:00:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.base_url}/v1/messages/batches/{batch_id}/results" if ended else None,
        }

    def _jsonl(self, batch_id: str) -> str:
        with self._lock:
            if batch_id in self._results:
                return self._results[batch_id]
        lines = [json.dumps({"custom_id": r.path, "result": self._result(r)}) for r in self.batches[batch_id]]
        with self._lock:
            return self._results.setdefault(batch_id, "\n".join(lines) + "\n")

    def _result(self, request: RecordedRequest) -> dict[str, Any]:
        kind = self.outcome(request)
        if kind == "succeeded":
            reply = self.default(request) if callable(self.default) else self.default
            reply = reply if isinstance(reply, Reply) else Reply(text=reply)
            return {"type": "succeeded", "message": self.render(reply, request)}
        if kind == "errored":
            error = {"type": "invalid_request_error", "message": "fake: this request was refused"}
            return {"type": "errored", "error": {"type": "error", "error": error}}
        return {"type": kind}


class FakeOpenAI(_FakeServer):
    """POST /v1/chat/completions in the OpenAI chat-completions format; optionally a local server's window,
    its `/props` and model listing, and its single slot.

    `schema_mode=False` plays a server without structured output: a response_format carrying a schema is
    answered 400 naming the field. `schema_mode="in_json_object"` plays llama-cpp-python's server (0.3): the
    `json_schema` type is answered 500 with its request validation error, a `json_object` that carries a
    `schema` is accepted."""

    path = "/v1/chat/completions"

    def __init__(
        self,
        default: DefaultReply = "ok",
        *,
        window: int | None = None,
        advertise: bool = True,
        one_at_a_time: bool = False,
        schema_mode: bool | Literal["in_json_object"] = True,
    ) -> None:
        super().__init__(default)
        self.window, self.advertise = window, advertise
        self.schema_mode = schema_mode
        self.refused: list[RecordedRequest] = []
        self.probes: list[str] = []  # paths asked about the model's window, in order
        self.in_flight = self.peak_in_flight = 0
        self._slot = threading.Lock() if one_at_a_time else None

    def schema_refusal(self, request: RecordedRequest) -> Reply | None:
        response_format = (
            request.json.get("response_format") if isinstance(request.json, dict) else None
        ) or {}
        typed = response_format.get("type") == "json_schema"
        if (typed and self.schema_mode is not True) or ("schema" in response_format and not self.schema_mode):
            with self._lock:
                self.requests.append(request)
            if self.schema_mode == "in_json_object":
                return Reply.error(500, "1 validation error: ('body', 'response_format', 'type')")
            return Reply.error(400, "response_format: this server has no structured output")
        return None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def serving(self) -> Any:
        return _Slot(self)

    def next_reply(self, request: RecordedRequest) -> Reply:
        refused = self.schema_refusal(request)
        if refused is not None:
            return refused
        asked = self.window and self.requested_tokens(request)
        if self.window and asked and asked > self.window:
            with self._lock:
                self.requests.append(request)
                self.refused.append(request)
            prompt = asked - self.completion_tokens(request)
            return Reply.error(
                400,
                f"This model's maximum context length is {self.window} tokens. However, you requested {asked} "
                f"tokens ({prompt} in the messages, {asked - prompt} in the completion). Please reduce the "
                "length of the messages or completion.",
            )
        return super().next_reply(request)

    @staticmethod
    def completion_tokens(request: RecordedRequest) -> int:
        body = request.json if isinstance(request.json, dict) else {}
        value = body.get("max_tokens") or body.get("max_completion_tokens") or 0
        return value if isinstance(value, int) else 0

    def requested_tokens(self, request: RecordedRequest) -> int:
        """The messages' tokens (with a few per message for the chat template) plus the completion asked for."""
        messages = request.json.get("messages", []) if isinstance(request.json, dict) else []
        text = sum(fake_token_count(_text_of(m.get("content"))) + 4 for m in messages if isinstance(m, dict))
        return text + self.completion_tokens(request)

    def route(self, method: str, request: RecordedRequest) -> tuple[int, str, str] | None:
        path = urlsplit(request.path).path
        if path not in ("/props", "/v1/models", "/api/show"):
            return None
        with self._lock:
            self.probes.append(path)
        if path == "/api/show" or not (
            self.window and self.advertise
        ):  # a llama.cpp server knows no /api/show
            return 404, json.dumps({"error": {"message": f"no route {path}"}}), "application/json"
        if path == "/props":
            body: dict[str, Any] = {"default_generation_settings": {"n_ctx": self.window}, "total_slots": 1}
        else:
            model = {
                "id": "fake-model",
                "object": "model",
                "owned_by": "llamacpp",
                "meta": {"n_ctx_train": 131_072},
            }
            body = {"object": "list", "data": [model]}
        return 200, json.dumps(body), "application/json"

    def events(self, reply: Reply, request: RecordedRequest) -> list[tuple[str | None, Any]]:
        head = {
            "id": f"chatcmpl-fake{len(self.requests):04d}",
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": request.model or "gpt-fake",
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> tuple[None, Any]:
            return None, {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        found = [chunk({"role": "assistant", "content": ""})]
        found += [chunk({"content": token}) for token in stream_tokens(reply.text)]
        found.append(chunk({}, "stop"))
        options = request.json.get("stream_options") if isinstance(request.json, dict) else None
        if isinstance(options, dict) and options.get("include_usage"):
            usage = self.render(reply, request)["usage"]
            found.append((None, {**head, "choices": [], "usage": usage}))
        return [*found, (None, None)]

    def render(self, reply: Reply, request: RecordedRequest) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-fake{len(self.requests):04d}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": request.model or "gpt-fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": reply.input_tokens,
                "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
            },
        }

    def render_error(self, reply: Reply) -> dict[str, Any]:
        kind = _OPENAI_ERROR_TYPES.get(reply.status, "server_error")
        return {"error": {"message": reply.error_message, "type": kind, "param": None, "code": None}}


class _Slot:
    """One completion served at a time when the fake has a single slot; counts how many were open at once."""

    def __init__(self, fake: FakeOpenAI) -> None:
        self.fake = fake

    def __enter__(self) -> None:
        with self.fake._lock:
            self.fake.in_flight += 1
            self.fake.peak_in_flight = max(self.fake.peak_in_flight, self.fake.in_flight)
        if self.fake._slot is not None:
            self.fake._slot.acquire()

    def __exit__(self, *exc: object) -> None:
        if self.fake._slot is not None:
            self.fake._slot.release()
        with self.fake._lock:
            self.fake.in_flight -= 1
