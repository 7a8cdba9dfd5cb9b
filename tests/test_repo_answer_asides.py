"""Where an answer page does not start (issue 29 item 5): at code beside the asked process that shares its
words — a symbol the question names only as context ("the sinks added with `logger.add`"), a registration
beside a lookup, a devtools or tracing helper, a function that makes an error or logs, an asynchronous twin,
a shim kept for older callers, a getter the process merely reads — and how a question's clauses are read."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_repo_answer_starts import SHOP, start_of

from generator.repo.model import Symbol
from generator.repo.plan.focus import request_terms
from generator.repo.synthesize.aside import logs, makes_error
from generator.repo.synthesize.asked import Process, asked_process, asked_terms, code_names


def process(question: str) -> Process:
    return asked_process(question, request_terms(question))


def test_and_with_a_word_taking_an_object_joins_a_second_verb() -> None:
    """ "validate a value *and report* errors": report is a verb of the process, not what validating acts
    on; a noun closing a list stays an object."""
    assert process("How does a schema validate a value and report errors?") == Process(
        ("validate", "report"), ("value", "errors"), ("schema",)
    )
    assert process("How does a log call run the hooks and write the formatted entry?") == Process(
        ("run", "write"), ("hooks", "formatted", "entry"), ("log", "call")
    )
    assert process("How does the router find the handler and middleware for a path?") == Process(
        ("find",), ("handler", "middleware"), ("router",)
    )


def test_get_with_a_participle_is_a_passive() -> None:
    """ "does a function *get called*": the subject is what the process acts on, the participle its verb."""
    assert process("How does a decorated function get called again after it fails?") == Process(
        ("called",), ("decorated", "function")
    )
    assert process("How does a logged message get checked against the level and written by the core?") == (
        Process(("checked", "written"), ("logged", "message"))
    )


def test_a_clause_describing_the_object_is_not_what_the_process_acts_on() -> None:
    assert process("How does a log message reach the sinks added with a handler?").objects == ("sinks",)
    assert process("How does set notify the components that use the store?").objects == ("components",)
    # a light verb with "into": what the thing becomes is the object, as in a passive question
    assert process("How does immer turn the changes into a new immutable state?").objects == (
        "changes",
        "immutable",
        "state",
    )


def test_a_symbol_named_in_a_clause_is_context() -> None:
    """The words of `logger.add` and the clause's participle are not the question's: it asks how a message
    reaches the sinks, not how sinks are added; a symbol the process itself is named for stays asked."""
    question = "How does a log message reach the sinks added with logger.add?"
    assert asked_terms(question)[0] == ["log", "message", "reach", "sinks"]
    assert code_names(question) == set()
    assert code_names("How does res.send set the response body?") == {"res.send"}
    assert code_names("How is a value validated by validate_value?") == {"validate_value"}


def test_a_preposition_or_conjunction_is_no_word_of_the_question() -> None:
    assert "after" not in asked_terms("How does a decorated function get called again after it fails?")[0]


SINKS = {
    "logs/__init__.py": '"""Logging to sinks."""\n',
    "logs/logger.py": (
        '"""The logger."""\n\n'
        "from logs.handler import Handler\n\n\n"
        "class Logger:\n"
        '    """Logs messages to sinks."""\n\n'
        "    def __init__(self) -> None:\n"
        "        self.handlers: list[Handler] = []\n\n"
        "    def add(self, sink: str) -> int:\n"
        '        """Configure a sink for the logger: a handler writing each logged message to the sink.\n'
        '        The sinks added with `logger.add` are where a log message arrives."""\n'
        "        handler = Handler(sink)\n"
        "        handler.open_sink()\n"
        "        self.handlers.append(handler)\n"
        "        return len(self.handlers)\n\n"
        "    def info(self, message: str) -> None:\n"
        '        """Log a message at the info level."""\n'
        "        self._log(message)\n\n"
        "    def _log(self, message: str) -> None:\n"
        '        """Build the record of a message and hand it to each handler."""\n'
        "        for handler in self.handlers:\n"
        "            handler.emit(message)\n"
    ),
    "logs/handler.py": (
        '"""Handlers."""\n\n\n'
        "class Handler:\n"
        '    """Writes messages to one sink."""\n\n'
        "    def __init__(self, sink: str) -> None:\n"
        "        self.sink = sink\n\n"
        "    def open_sink(self) -> None:\n"
        '        """Open the sink a logged message is written to."""\n'
        "        self.sink = self.sink.strip()\n\n"
        "    def emit(self, message: str) -> None:\n"
        '        """Format the message and write it to the sink."""\n'
        "        print(self.sink, message)\n"
    ),
}


def test_the_symbol_a_clause_names_neither_starts_nor_is_walked_through(tmp_path: Path) -> None:
    """loguru: "the sinks added with `logger.add`" describes the sinks; the message reaches them through
    `Logger._log`, not through the method that configured them."""
    question = "How does a log message reach the sinks added with logger.add?"
    assert start_of(tmp_path, SINKS, question) == "Logger._log"


# each shares more of "How is an order placed from a cart?" than `place_order` and calls on as it does
ASIDE = {
    "devtools helper": {
        "shop/devtools.py": (
            '"""Developer tools."""\n\n'
            "from shop.stock import reserve_items\n\n\n"
            "def order_placed_from_cart(cart: list[str]) -> str:\n"
            '    """The name of the order placed from a cart, shown to a developer."""\n'
            "    reserve_items(cart)\n"
            '    return "placed"\n'
        )
    },
    "error maker": {
        "shop/failures.py": (
            '"""Failures."""\n\n'
            "from shop.stock import reserve_items\n\n\n"
            "def create_error_for_order_placed_from_cart(cart: list[str]) -> str:\n"
            '    """The error of an order placed from a cart."""\n'
            "    reserve_items(cart)\n"
            '    return "placed"\n'
        )
    },
    "registration": {
        "shop/catalog.py": (
            '"""The catalog."""\n\n'
            "from shop.stock import reserve_items\n\n\n"
            "def place_order_from_cart(cart: list[str]) -> str:\n"
            '    """Registers an order handler: an order placed from a cart is passed to it."""\n'
            "    reserve_items(cart)\n"
            '    return "placed"\n'
        )
    },
    "logging helper": {
        "shop/audit.py": (
            '"""Audit."""\n\n'
            "from shop.stock import reserve_items\n\n\n"
            "def log_order_placed_from_cart(cart: list[str]) -> str:\n"
            '    """An order placed from a cart, logged."""\n'
            "    reserve_items(cart)\n"
            '    return "placed"\n'
        )
    },
    "asynchronous twin": {
        "shop/aio.py": (
            '"""Orders, asynchronously."""\n\n'
            "from shop.stock import reserve_items\n\n\n"
            "async def place_order_from_cart(cart: list[str]) -> str:\n"
            '    """Place an order from a cart."""\n'
            "    reserve_items(cart)\n"
            '    return "placed"\n'
        )
    },
    "compatibility shim": {
        "shop/compat.py": (
            '"""Older callers."""\n\n'
            "from shop.stock import reserve_items\n\n\n"
            "def place_order_from_cart(cart: list[str]) -> str:\n"
            '    """Backward compatibility wrapper: place an order from a cart."""\n'
            "    reserve_items(cart)\n"
            '    return "placed"\n'
        )
    },
}


@pytest.mark.parametrize("decoy", sorted(ASIDE))
def test_code_beside_the_process_sharing_its_words_does_not_start_it(tmp_path: Path, decoy: str) -> None:
    assert (
        start_of(tmp_path, {**SHOP, **ASIDE[decoy]}, "How is an order placed from a cart?") == "place_order"
    )


def test_code_beside_the_process_starts_when_the_question_asks_for_it(tmp_path: Path) -> None:
    files = {**SHOP, **ASIDE["asynchronous twin"]}
    question = "How is an order placed from a cart asynchronously?"
    assert start_of(tmp_path, files, question) == "place_order_from_cart"


ROUTER = {
    "go.mod": "module example.com/web\n\ngo 1.21\n",
    "table.go": (
        "package web\n\n"
        "// Table lists what was registered.\n"
        "type Table []string\n\n"
        "// FindHandlerByPath finds the handler path of a registered route, for a request path.\n"
        "func (t Table) FindHandlerByPath(path string) string {\n\treturn path\n}\n"
    ),
    "router.go": (
        "package web\n\n"
        "// Router serves requests.\n"
        "type Router struct {\n\troot *node\n}\n\n"
        "// node is one segment of the path tree.\n"
        "type node struct {\n\tchild   *node\n\thandler string\n\tpath    string\n}\n\n"
        "// Route walks the tree for a request.\n"
        "func (r *Router) Route(path string) string {\n"
        "\tn := r.root.findStatic(path)\n\tif n == nil {\n\t\tn = r.root.findChild(path)\n\t}\n"
        "\treturn n.handlerOf(path)\n}\n\n"
        "// findChild finds the child node.\n"
        "func (n *node) findChild(path string) *node {\n\treturn n.findStatic(path)\n}\n\n"
        "// findStatic finds the static child of an incoming request's path.\n"
        "func (n *node) findStatic(path string) *node {\n\treturn n.child\n}\n\n"
        "// handlerOf the node for a request path.\n"
        "func (n *node) handlerOf(path string) string {\n\treturn n.handler\n}\n"
    ),
    "serve.go": (
        "package web\n\n"
        "// Serve answers an incoming request for a path.\n"
        "func (r *Router) Serve(path string) string {\n"
        "\tif r.root.findChild(path) == nil {\n\t\treturn r.root.handlerOf(path)\n\t}\n\treturn r.Route(path)\n}\n\n"
        "// Wrap wraps the router into a handler function.\n"
        'func Wrap(r *Router) string {\n\treturn r.Serve("/")\n}\n'
    ),
}


def test_a_caller_answering_more_than_every_well_named_match_may_start(tmp_path: Path) -> None:
    """echo: `Routes.FindByMethodPath` (here `Table.FindHandlerByPath`) is named for finding a route by its
    path and answers most of the question alone, but finds nothing for a request; `DefaultRouter.Route` names
    little of it, and its calls answer more of the question than any match's do: the lookup begins there, not
    in a caller further up reaching it (echo's `WrapHandler`, here `Wrap`)."""
    question = "How does the router find the handler for an incoming request path?"
    assert start_of(tmp_path, ROUTER, question) == "Router.Route"


HOOKS = {
    "README.md": "# hooks\n\n```python\nresult = outcome.collected_results()\n```\n",
    "hooks/__init__.py": '"""Hooks."""\n',
    "hooks/calls.py": (
        '"""Calling hooks."""\n\n'
        "from hooks.result import Outcome\n\n\n"
        "def call_hooks(impls: list[str]) -> list[str]:\n"
        '    """Call each hook implementation and collect their results."""\n'
        "    results = [run_impl(impl) for impl in impls]\n"
        "    return Outcome(results).collected_results()\n\n\n"
        "def run_impl(impl: str) -> str:\n"
        '    """Run one hook implementation and collect its result."""\n'
        "    return impl\n"
    ),
    "hooks/result.py": (
        '"""Results."""\n\n\n'
        "class Outcome:\n"
        '    """The results of calling hooks."""\n\n'
        "    def __init__(self, results: list[str]) -> None:\n"
        "        self.results = results\n\n"
        "    def collected_results(self) -> list[str]:\n"
        '        """The results collected from the hook implementations called."""\n'
        "        return self.results\n"
    ),
}


def test_a_start_hands_on_only_to_an_entry_the_process_goes_on_through(tmp_path: Path) -> None:
    """pluggy: the call loop reads the collected results with the README's `collected_results` (pluggy's
    `Result.get_result`); a getter it merely uses is not where the process a user starts begins."""
    question = "How are the hook implementations called and their results collected?"
    assert start_of(tmp_path, HOOKS, question) == "call_hooks"


def test_a_function_named_only_for_an_error_makes_one() -> None:
    """joi's annotate.js `error` (the error of a failed validation) and `$_createError` report a failure;
    got's `Request._beforeError` handles one and may start."""
    assert makes_error(Symbol("error", "function", 1, 3))
    assert makes_error(Symbol("Base.$_createError", "method", 1, 3, parent="Base"))
    assert not makes_error(Symbol("Request._beforeError", "method", 1, 3, parent="Request"))
    assert not makes_error(Symbol("validate", "function", 1, 3))


def test_a_function_named_for_logging_is_aside_only_when_the_question_asks_nothing_of_logging() -> None:
    """tenacity's `before_sleep_log` reports on retrying; structlog's `_proxy_to_logger` is where a log call
    goes, and a question about a log call ("log", "logged") asks for it, whatever form of the word it takes."""
    proxy = Symbol("BoundLoggerBase._proxy_to_logger", "method", 1, 3, parent="BoundLoggerBase")
    assert not logs(proxy, ["log", "call", "run", "processors"])
    assert not logs(proxy, ["logged", "message"])
    assert logs(proxy, ["retry", "failed", "call"])
    assert logs(Symbol("before_sleep_log", "function", 1, 3), ["function", "called", "again"])
    assert not logs(Symbol("Logger.log", "method", 1, 3, parent="Logger"), ["log", "message"])


WRAPPER = {
    "package.json": '{"name": "schema", "main": "lib/index.js"}\n',
    "lib/index.js": "'use strict';\n\nconst Base = require('./base');\n\nmodule.exports = { Base };\n",
    "lib/base.js": (
        "'use strict';\n\n"
        "const Validator = require('./validator');\n\n"
        "class Base {\n"
        "    // Validate a value against the schema and report its errors.\n"
        "    $_validate(value) {\n"
        "        return Validator.validate(value, this);\n"
        "    }\n"
        "}\n\n"
        "module.exports = Base;\n"
    ),
    "lib/validator.js": (
        "'use strict';\n\n"
        "const internals = {};\n\n"
        "// Validate the value: run each rule of the schema, then report the errors.\n"
        "exports.validate = function (value, schema) {\n"
        "    const errors = internals.rules(schema).filter((rule) => rule !== value);\n"
        "    errors.sort();\n"
        "    return internals.report(errors);\n"
        "};\n\n"
        "// The rules of a schema.\n"
        "internals.rules = function (schema) {\n"
        "    return [String(schema)];\n"
        "};\n\n"
        "// Report the errors of a value.\n"
        "internals.report = function (errors) {\n"
        "    return errors;\n"
        "};\n"
    ),
}


def test_a_thin_wrapper_gives_way_to_the_public_match_it_hands_the_process_to(tmp_path: Path) -> None:
    """joi's `$_validate` is one line calling `validate`, which validates: its call tree answers more of the
    question only by holding the other's."""
    question = "How does a schema validate a value and report errors?"
    assert start_of(tmp_path, WRAPPER, question) == "validate"


BODY = {
    "fetch/__init__.py": '"""Fetching."""\n',
    "fetch/body.py": (
        '"""Bodies."""\n\n'
        "import json\n\n\n"
        "class Body:\n"
        '    """A response body."""\n\n'
        "    def __init__(self, chunks: list[bytes], size: int) -> None:\n"
        "        self.chunks, self.size = chunks, size\n\n"
        "    def text(self) -> str:\n"
        '        """Read the response body into text."""\n'
        "        return self._consume().decode()\n\n"
        "    def _consume(self) -> bytes:\n"
        '        """Each chunk read, up to the size limit."""\n'
        "        data = b''.join(self.chunks)\n"
        "        return data[: self.size]\n\n"
        "    def as_json(self) -> object:\n"
        '        """The body as JSON."""\n'
        "        return json.loads(self.text())\n"
    ),
}


def test_a_caller_reaching_the_best_match_only_uses_the_process(tmp_path: Path) -> None:
    """node-fetch's `Body.json` reads the body with `Body.text` and parses it: its call tree answers more of
    the question only by holding `Body.text`'s, which is where reading the body into text begins."""
    question = "How is a response body read into text?"
    assert start_of(tmp_path, BODY, question) == "Body.text"


def test_up_to_is_no_particle() -> None:
    """ "looked up" is a `lookup`; "read into text *up to* its limit" reads, it does not "textup"."""
    assert "textup" not in asked_terms("How is a body read into text up to its size limit?")[0]
    assert "lookup" in asked_terms("How is a configuration value looked up?")[0]


def test_a_name_written_as_a_call_is_code() -> None:
    """`send()` is the question's name for where the process begins, however plain the word (websocket-client's
    "How does send() frame…", paho-mqtt's and MQTT.js' "How does publish() …")."""
    assert code_names("How does send() frame and mask a message before writing it to the socket?") == {"send"}
    assert code_names("How does res.send() set the response body?") == {"res.send"}
    # a call in a clause saying where the process ends is no start
    assert (
        code_names("How does a message the server delivers reach the callback I passed to subscribe()?")
        == set()
    )


SOCKET = {
    "wsock/__init__.py": '"""A WebSocket client."""\n',
    "wsock/frames.py": (
        '"""Frames on the wire."""\n\n\n'
        "class Frame:\n"
        '    """One frame: its opcode and its payload."""\n\n'
        "    @staticmethod\n"
        "    def create_frame(data: bytes) -> 'Frame':\n"
        '        """A frame holding `data`."""\n'
        "        return Frame()\n\n"
        "    def format(self) -> bytes:\n"
        '        """The frame\'s bytes."""\n'
        "        return b''\n\n\n"
        "class FrameBuffer:\n"
        '    """Reads frames from the socket."""\n\n'
        "    def recv_frame(self) -> Frame:\n"
        '        """Read a frame from the socket: its header, its mask and its masked message."""\n'
        "        self.recv_header()\n"
        "        self.recv_mask()\n"
        "        return Frame()\n\n"
        "    def recv_header(self) -> None:\n"
        '        """Read the frame header from the socket."""\n\n'
        "    def has_mask(self) -> bool:\n"
        '        """Whether the frame is masked."""\n'
        "        return True\n\n"
        "    def needs_mask(self) -> bool:\n"
        '        """Whether the mask is still to read."""\n'
        "        return self.has_mask()\n\n"
        "    def recv_mask(self) -> None:\n"
        '        """Read the frame mask from the socket."""\n'
        "        if self.needs_mask():\n"
        "            self.recv_header()\n"
    ),
    "wsock/urls.py": (
        '"""Addresses."""\n\n\n'
        "def parse_url(url: str) -> tuple[str, int]:\n"
        '        """The host and port of `url`."""\n'
        "        return url, 80\n\n\n"
        "def is_secure(url: str) -> bool:\n"
        '        """Whether `url` is wss."""\n'
        "        return url.startswith('wss')\n\n\n"
        "def default_port(secure: bool) -> int:\n"
        '        """The port of a scheme."""\n'
        "        return 443 if secure else 80\n"
    ),
    "wsock/core.py": (
        '"""The connection."""\n\n'
        "from wsock.frames import Frame, FrameBuffer\n\n\n"
        "class WebSocket:\n"
        '    """A connection to a WebSocket server."""\n\n'
        "    def send(self, data: bytes) -> int:\n"
        '        """Send a message."""\n'
        "        frame = Frame.create_frame(data)\n"
        "        return self.send_frame(frame)\n\n"
        "    def send_frame(self, frame) -> int:\n"
        '        """Write a frame to the socket."""\n'
        "        return len(frame.format())\n\n"
        "    def send_text(self, text: str) -> int:\n"
        '        """Send a text message."""\n'
        "        return self.send(text.encode())\n\n"
        "    def send_binary(self, data: bytes) -> int:\n"
        '        """Send a binary message."""\n'
        "        return self.send(data)\n\n"
        "    def send_close(self) -> int:\n"
        '        """Send a close frame."""\n'
        "        return self.send(b'')\n\n"
        "    def recv(self) -> Frame:\n"
        '        """Receive a message."""\n'
        "        return FrameBuffer().recv_frame()\n"
    ),
}


def test_a_question_naming_a_call_starts_there(tmp_path: Path) -> None:
    """websocket-client: "How does send() frame and mask a message…?" started at the reader's `recv_frame`,
    whose words (frame, mask, socket) the question shares; `send()` is where the asked process begins."""
    question = "How does send() frame and mask a message before writing it to the socket?"
    assert start_of(tmp_path, SOCKET, question) == "WebSocket.send"
