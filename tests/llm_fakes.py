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
- `.failures`: exceptions raised by a callable default (each answered with a 500 naming it), so a bug in a
  test's callable shows up instead of a silently dropped connection.
- Use as a context manager, or `start()` / `stop()` (e.g. in a pytest fixture with `yield`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
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
    def json_mode(self) -> bool:
        if not isinstance(self.json, dict):
            return False
        return self.json.get("response_format", {}).get("type") == "json_object" or "JSON" in (
            self.system or ""
        )


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
            if path != fake.path:
                self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}), {})
                return
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
            else:
                payload = json.dumps(fake.render(reply, request))
            self._send(reply.status, payload, reply.headers, reply.trickle)

        def _send(self, status: int, payload: str, headers: dict[str, str], trickle: float = 0.0) -> None:
            data = payload.encode()
            self.send_response(status)
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
    """POST /v1/messages in the Messages API format."""

    path = "/v1/messages"

    def render(self, reply: Reply, request: RecordedRequest) -> dict[str, Any]:
        return {
            "id": f"msg_fake{len(self.requests):04d}",
            "type": "message",
            "role": "assistant",
            "model": request.model or "claude-fake",
            "content": [{"type": "text", "text": reply.text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }

    def render_error(self, reply: Reply) -> dict[str, Any]:
        kind = _ANTHROPIC_ERROR_TYPES.get(reply.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": reply.error_message}}


class FakeOpenAI(_FakeServer):
    """POST /v1/chat/completions in the OpenAI chat-completions format."""

    path = "/v1/chat/completions"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

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
