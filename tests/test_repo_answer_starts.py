"""Where an answer page starts on questions nobody tuned on (issue 29 item 5): at the function of the code
proper where the asked process begins — every verb of the question and what it acts on counted, word forms
read as the code spells them — never at an error type, a website's script or a command-line handler sharing
the question's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.repo.analyze.citations import Linker
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.languages import SUPPORTED
from generator.repo.facts.runtime import only_sets
from generator.repo.map.walk import map_repository
from generator.repo.model import Answer
from generator.repo.plan.focus import request_terms
from generator.repo.plan.subsystems import core_modules
from generator.repo.synthesize.answer import answer_request
from generator.repo.synthesize.asked import (
    Process,
    asked_process,
    asked_terms,
    builds,
    code_names,
    read_question,
)
from generator.site.pages.repo import _answer_step
from generator.site.pages.repo_diagrams import flow_markdown


def answer_of(tmp_path: Path, files: dict[str, str], question: str) -> Answer:
    """The answer to `question` in a repository of `files`, from its facts."""
    root = tmp_path / "repo"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    repo_map = map_repository(root, keep_languages=SUPPORTED, keep_bytes=10_000_000)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "0" * 40, None)
    return answer_request(question, core_modules(repo_map), facts, linker)


def start_of(tmp_path: Path, files: dict[str, str], question: str) -> str:
    """The symbol the answer to `question` starts at, in a repository of `files`."""
    return answer_of(tmp_path, files, question).symbols[0].name


CHART = {
    "chart/__init__.py": '"""Charts."""\n',
    "chart/core.py": (
        '"""The chart."""\n\n\n'
        "class Chart:\n"
        '    """A chart on a canvas."""\n\n'
        "    def update(self) -> None:\n"
        '        """Recompute the scales and datasets, then render them."""\n'
        "        self._update_layout()\n"
        "        self.render()\n\n"
        "    def _update_layout(self) -> None:\n"
        '        """Update the layout of the chart: its boxes are updated."""\n'
        "        self.boxes = 1\n\n"
        "    def render(self) -> None:\n"
        '        """Render the chart."""\n'
        "        self.draw()\n\n"
        "    def draw(self) -> None:\n"
        '        """Draw the chart\'s layers."""\n'
        "        self._draw_datasets()\n\n"
        "    def _draw_datasets(self) -> None:\n"
        '        """Draw each dataset of the chart: the datasets are drawn in order."""\n'
        "        for layer in range(3):\n"
        "            self._draw_dataset(layer)\n\n"
        "    def _draw_dataset(self, layer: int) -> None:\n"
        '        """Draw one dataset of the chart, drawn on its layer."""\n'
        "        print(layer)\n"
    ),
    # other things updated and drawn, so neither verb is rare
    "chart/legend.py": (
        '"""The legend."""\n\n\n'
        "class Legend:\n"
        '    """A legend."""\n\n'
        "    def update(self) -> None:\n"
        '        """Update the legend\'s items."""\n\n'
        "    def draw(self) -> None:\n"
        '        """Draw the legend."""\n'
    ),
    "chart/scale.py": (
        '"""A scale."""\n\n\n'
        "class Scale:\n"
        '    """A scale."""\n\n'
        "    def update(self) -> None:\n"
        '        """Update the scale\'s ticks."""\n\n'
        "    def draw_ticks(self) -> None:\n"
        '        """Draw the ticks."""\n'
    ),
}


def test_every_verb_of_the_question_counts_not_only_its_last(tmp_path: Path) -> None:
    """ "Updated and drawn": the start updates and leads to the drawing; weighing "drawn" alone started at a
    helper named for drawing twice over."""
    assert start_of(tmp_path, CHART, "How is a chart updated and drawn?") == "Chart.update"


def test_the_process_is_its_verbs_and_what_they_act_on() -> None:
    def process(question: str) -> Process:
        return asked_process(question, request_terms(question))

    assert process("How is a prepared request sent over the connection?") == Process(
        ("sent",), ("prepared", "request")
    )
    assert process("How is a chart updated and drawn?") == Process(("updated", "drawn"), ("chart",))
    assert process("How is the index built from input documents?") == Process(("built",), ("index",))
    # an active question names what does it: its subject
    assert process("How does the router find the handler for a path?") == Process(
        ("find",), ("handler",), ("router",)
    )
    assert process("How does the agent controller run a step?") == Process(
        ("run",), ("step",), ("agent", "controller")
    )
    assert process("How does the client follow redirects?") == Process(
        ("follow",), ("redirects",), ("client",)
    )
    # a light verb names no process: what the thing becomes does
    assert process("How is a decorated function turned into a click command?") == Process(
        (), ("decorated", "function", "click", "command")
    )
    assert process("What is a session?") == Process()


SHOP = {
    "shop/__init__.py": '"""A shop."""\n',
    "shop/orders.py": (
        '"""Orders."""\n\n'
        "from shop.stock import reserve_items\n\n\n"
        "def place_order(items: list[str]) -> int:\n"
        '    """Place an order: reserve its items and charge for them."""\n'
        "    reserve_items(items)\n"
        "    return len(items)\n"
    ),
    "shop/stock.py": '"""Stock."""\n\n\ndef reserve_items(items: list[str]) -> None:\n    """Reserve items."""\n',
}
# each shares every word of the question, more of them than the code placing an order does
DECOYS = {
    "error type": {
        "shop/errors.py": (
            '"""Errors."""\n\n\n'
            "class OrderError(Exception):\n"
            '    """An order placed from a cart twice."""\n\n'
            "    def place_order(self) -> dict[str, str]:\n"
            '        """The error of an order placed from a cart, serialized."""\n'
            '        return {"order": "placed"}\n'
        )
    },
    "website script": {
        "website/worker.py": (
            '"""The website\'s worker."""\n\n\n'
            "def place_order(cart: str) -> str:\n"
            '    """Place an order from the cart on the website."""\n'
            "    return cart\n"
        )
    },
    "record": {
        "shop/models.py": (
            '"""Records."""\n\n'
            "from dataclasses import dataclass\n\n\n"
            "@dataclass\n"
            "class PlacedOrder:\n"
            '    """An order once placed from a cart: its items."""\n\n'
            "    items: list[str]\n"
        )
    },
    "record's method": {
        "shop/status.py": (
            '"""Order states."""\n\n'
            "from enum import Enum\n\n"
            "from shop.stock import reserve_items\n\n\n"
            "class OrderState(Enum):\n"
            '    """The states of an order placed from a cart."""\n\n'
            "    PLACED = 1\n\n"
            "    def place_order_from_cart(self, items: list[str]) -> str:\n"
            '        """An order placed from a cart, named."""\n'
            "        reserve_items(items)\n"
            '        return "placed"\n'
        )
    },
    "vendored code": {
        "vendors/orders.py": (
            '"""Another project\'s orders."""\n\n'
            "from shop.stock import reserve_items\n\n\n"
            "def place_order_from_cart(cart: list[str]) -> str:\n"
            '    """Place an order from a cart."""\n'
            "    reserve_items(cart)\n"
            '    return "placed"\n'
        )
    },
}


@pytest.mark.parametrize("decoy", sorted(DECOYS))
def test_an_error_type_a_record_or_a_website_script_is_never_the_start(tmp_path: Path, decoy: str) -> None:
    files = {**SHOP, **DECOYS[decoy]}
    assert start_of(tmp_path, files, "How is an order placed from a cart?") == "place_order"
    found = answer_of(tmp_path, files, "How is an order placed from a cart?")
    assert found.symbols[0].path == "shop/orders.py"


RESPONSES = {
    "web/__init__.py": '"""A web framework."""\n',
    "web/app.py": (
        '"""The application."""\n\n\n'
        "def respond(body: str) -> bytes:\n"
        '    """Write the body out to the socket."""\n'
        "    return body.encode()\n\n\n"
        "def handle(path: str) -> str:\n"
        '    """Handle a request for a path."""\n'
        "    return path\n"
    ),
}


def test_a_noun_finds_the_verb_the_code_is_named_for(tmp_path: Path) -> None:
    """ "response" is `respond` (a noun in -nse, its verb in -nd): Snowball keeps the two apart."""
    assert start_of(tmp_path, RESPONSES, "How is a response produced?") == "respond"


NAMED = {
    "package.json": '{"name": "res", "main": "lib/response.js"}\n',
    "lib/response.js": (
        "var res = module.exports = {};\n\n"
        "/**\n * Send a response.\n */\n"
        "res.send = function send(body) {\n"
        "  this.end(body);\n"
        "  return this;\n"
        "};\n\n"
        "/**\n * Set the response body to JSON and its content type, then send the body.\n */\n"
        "res.json = function json(obj) {\n"
        "  var body = JSON.stringify(obj);\n"
        "  return this.send(body);\n"
        "};\n\n"
        "/**\n * End the response.\n */\n"
        "res.end = function end(chunk) {\n"
        "  return chunk;\n"
        "};\n"
    ),
}


def test_a_question_naming_a_symbol_starts_there(tmp_path: Path) -> None:
    assert code_names("How does res.send set the body?") == {"res.send"}
    assert code_names("How is parse_args called by parseOptions?") == {"parse_args", "parseOptions"}
    # `res.json` answers more of the question's words and leads to `res.send`: the question asks about the latter
    assert start_of(tmp_path, NAMED, "How does res.send set the response body?") == "res.send"


PIPELINE = {
    "index/__init__.py": '"""Indexing."""\n',
    "index/api.py": (
        '"""The indexing API."""\n\n'
        "from index.factory import PipelineFactory\n\n\n"
        "def build_index(config: str) -> list[str]:\n"
        '    """Build the index: run the pipeline\'s workflows in order."""\n'
        "    pipeline = PipelineFactory.create_pipeline(config)\n"
        "    return [workflow(config) for workflow in pipeline]\n"
    ),
    "index/factory.py": (
        '"""Pipelines of workflows."""\n\n\n'
        "class PipelineFactory:\n"
        '    """Registered workflows."""\n\n'
        "    workflows: dict = {}\n\n"
        "    @classmethod\n"
        "    def register_all(cls, workflows: dict) -> None:\n"
        '        """Register workflows by name."""\n'
        "        for name, workflow in workflows.items():\n"
        "            cls.register(name, workflow)\n\n"
        "    @classmethod\n"
        "    def register(cls, name: str, workflow: object) -> None:\n"
        '        """Register one workflow."""\n'
        "        cls.workflows[name] = workflow\n\n"
        "    @classmethod\n"
        "    def create_pipeline(cls, config: str) -> list:\n"
        '        """The pipeline\'s workflows."""\n'
        "        return list(cls.workflows.values())\n"
    ),
    "index/workflows/__init__.py": (
        '"""The built-in workflows, registered at import."""\n\n'
        "from index.factory import PipelineFactory\n"
        "from index.workflows.load_documents import run_workflow as run_load_documents\n\n"
        'PipelineFactory.register_all({"load_input_documents": run_load_documents})\n'
    ),
    "index/workflows/load_documents.py": (
        '"""Loading the input."""\n\n\n'
        "def run_workflow(config: str) -> str:\n"
        '    """Run the workflow."""\n'
        "    return load_input_documents(config)\n\n\n"
        "def load_input_documents(config: str) -> str:\n"
        '    """Load the input documents: every input document read."""\n'
        "    return config\n"
    ),
}


def test_a_start_reaches_what_a_registry_calls(tmp_path: Path) -> None:
    """The process begins at `build_index`, which reaches the input documents only through the workflows
    registered with the factory: a registry's lookup calls what was registered with it."""
    found = answer_of(tmp_path, PIPELINE, "How is the index built from input documents?")
    assert [step.symbol.name for step in found.steps] == [
        "build_index",
        "PipelineFactory.create_pipeline",
        "run_workflow",
        "load_input_documents",
    ]
    # the registry's lookup hands the workflow on; it is no call of it
    assert [step.handed for step in found.steps] == [False, False, True, False]


CALLBACK = {
    "package.json": '{"name": "diagrams", "main": "lib/render.js"}\n',
    "lib/render.js": (
        "/**\n * Render a diagram: queue its writers and run them.\n */\n"
        "function renderDiagram(text) {\n"
        "  const queue = [];\n"
        "  queue.push(writeSvg);\n"
        "  return queue.map((writer) => writer(text));\n"
        "}\n\n"
        "/**\n * Write the SVG markup of the diagram.\n */\n"
        "function writeSvg(diagram) {\n"
        "  return '<svg>' + diagram + '</svg>';\n"
        "}\n\n"
        "/**\n * Render a diagram's title, rendered once per diagram in bold.\n */\n"
        "function renderDiagramTitle(title) {\n"
        "  return title;\n"
        "}\n\n"
        "module.exports = { renderDiagram, renderDiagramTitle };\n"
    ),
}


def test_a_function_handed_over_as_a_callback_is_a_step(tmp_path: Path) -> None:
    """`renderDiagram` never calls `writeSvg`: it hands it to a queue that does. The reference is an edge,
    so the start leads to the SVG the question asks about, past a decoy matching the question as well."""
    found = answer_of(tmp_path, CALLBACK, "How is a diagram rendered to SVG?")
    assert [step.symbol.name for step in found.steps] == ["renderDiagram", "writeSvg"]
    assert found.steps[1].handed
    assert "(handed over by `renderDiagram` at" in _answer_step(found.steps[1])
    assert flow_markdown(found.path)[1][0].startswith("`renderDiagram` hands over `writeSvg`")


ROUTER = {
    "web/__init__.py": '"""A web framework."""\n',
    "web/routing.py": (
        '"""Routing."""\n\n\n'
        "class Route:\n"
        '    """A route: a path and the endpoint that handles it."""\n\n'
        "    def __init__(self, path, endpoint):\n"
        "        self.path = path\n"
        "        self.endpoint = request_response(endpoint)\n\n"
        "    def matches(self, scope):\n"
        '        """Whether the route matches the path: find the route path of the request."""\n'
        "        return get_route_path(scope) == self.path\n\n"
        "    def handle(self, scope):\n"
        '        """Handle the request with the endpoint."""\n'
        "        return self.endpoint(scope)\n\n\n"
        "class WebSocketRoute:\n"
        '    """A websocket route."""\n\n'
        "    def __init__(self, path, endpoint):\n"
        "        self.path = path\n"
        "        self.endpoint = endpoint\n\n"
        "    def matches(self, scope):\n"
        '        """Whether the websocket route matches the path."""\n'
        "        return get_route_path(scope) == self.path\n\n"
        "    def handle(self, scope):\n"
        '        """Handle the websocket session."""\n'
        "        return self.endpoint(scope)\n\n\n"
        "class Router:\n"
        '    """The routes of an application."""\n\n'
        "    def __init__(self):\n"
        "        self.routes = []\n\n"
        "    def add_route(self, path, endpoint):\n"
        "        self.routes.append(Route(path, endpoint))\n\n"
        "    def add_websocket_route(self, path, endpoint):\n"
        "        self.routes.append(WebSocketRoute(path, endpoint))\n\n"
        "    def app(self, scope):\n"
        '        """Send the request to its route."""\n'
        "        for route in self.routes:\n"
        "            if route.matches(scope):\n"
        "                return route.handle(scope)\n"
        "        return None\n\n\n"
        "def get_route_path(scope):\n"
        '    """The route path of a scope."""\n'
        '    return scope["path"]\n\n\n'
        "def request_response(func):\n"
        '    """Wrap a function as a request handler."""\n'
        "    return func\n"
    ),
}


def test_the_start_reaches_the_matches_its_loop_calls_on_each_route(tmp_path: Path) -> None:
    """`Router.app` calls `route.matches()` on each element of `self.routes`, and no type names them: the
    calls reach the `matches` and `handle` methods of the classes stored there (inferred), so the router's
    loop is where finding the route begins — not a route's constructor, which reaches a request handler's
    wrapper, nor `get_route_path`, named for getting (finding's family) but reaching nothing else asked."""
    found = answer_of(tmp_path, ROUTER, "How does the router find the route that handles a request?")
    assert found.symbols[0].name == "Router.app"
    steps = {step.symbol.name: step for step in found.steps[1:]}
    assert {"Route.matches", "Route.handle", "get_route_path"} <= steps.keys()
    assert steps["Route.matches"].inferred and not steps["get_route_path"].inferred
    assert "on an element of a collection, so inferred)" in _answer_step(steps["Route.matches"])


REPORTS = {
    "reports/__init__.py": '"""Reports."""\n',
    "reports/export.py": (
        '"""Exporting reports."""\n\n\n'
        "def export_report_to_pdf_options(report):\n"
        '    """The options a report is exported to PDF with."""\n'
        "    return {}\n\n\n"
        "def export(report):\n"
        '    """Export a report."""\n'
        "    pages = layout_pdf_pages(report)\n"
        "    return write_pdf(pages)\n\n\n"
        "def layout_pdf_pages(report):\n"
        '    """Lay the pages out."""\n'
        "    return [report]\n\n\n"
        "def write_pdf(pages):\n"
        '    """Write the pages."""\n'
        "    return bytes(len(pages))\n"
    ),
    "reports/charts.py": (
        '"""Charts."""\n\n\n'
        "def export_chart(chart):\n"
        '    """Export a chart."""\n'
        "    return chart\n\n\n"
        "def report_title(report):\n"
        '    """A report\'s title."""\n'
        "    return report\n"
    ),
}


def test_a_start_reaching_no_other_match_is_weak_however_well_named(tmp_path: Path) -> None:
    """`export_report_to_pdf_options` is named after every word of the question and reaches nothing; `export`
    reaches the PDF's layout and writing: its call tree holds more of the code that answers."""
    found = answer_of(tmp_path, REPORTS, "How is a report exported to PDF?")
    assert [step.symbol.name for step in found.steps] == ["export", "layout_pdf_pages", "write_pdf"]


SETTINGS = {
    "conf/__init__.py": '"""Configuration."""\n',
    "conf/settings.py": (
        '"""Settings."""\n\n\n'
        "class Settings:\n"
        '    """Layers of settings."""\n\n'
        "    def __init__(self):\n"
        "        self.layers = [{}]\n\n"
        "    def get(self, key):\n"
        '        """The value of a key."""\n'
        "        return self._search(key)\n\n"
        "    def _search(self, key):\n"
        '        """Search each layer for the key."""\n'
        "        return next((layer[key] for layer in self.layers if key in layer), None)\n\n\n"
        "def looks_like_path(value):\n"
        '    """Whether a setting value looks like a path."""\n'
        '    return "/" in value\n'
    ),
}


def test_a_verb_and_up_are_the_one_word_the_code_spells(tmp_path: Path) -> None:
    """ "Looked up" is a lookup, whose family is `get` and `search`; it is not `looks_like_path`."""
    assert asked_terms("How is a setting value looked up?") == (
        ["setting", "value", "lookup"],
        Process(("lookup",), ("setting", "value")),
    )
    found = answer_of(tmp_path, SETTINGS, "How is a setting value looked up?")
    assert [step.symbol.name for step in found.steps] == ["Settings.get", "Settings._search"]


SESSION = {
    "chat/__init__.py": '"""Chat."""\n',
    "chat/session.py": (
        '"""A chat session."""\n\n\n'
        "class Session:\n"
        '    """A session over one connection."""\n\n'
        "    def __init__(self, url):\n"
        "        self.connection = open_connection(url)\n"
        "        self.send('hello')\n\n"
        "    def send(self, message):\n"
        '        """Send a message."""\n'
        "        self.connection.append(frame_message(message))\n\n\n"
        "def open_connection(url):\n"
        '    """Open a connection to the server."""\n'
        "    return []\n\n\n"
        "def frame_message(message):\n"
        '    """Frame a message to be sent."""\n'
        "    return message\n"
    ),
}


def test_a_constructor_starts_only_what_makes_a_thing(tmp_path: Path) -> None:
    """`Session.__init__` opens the connection and sends a greeting: its calls reach more of "send a message
    over the connection" than `Session.send` does, but it sets a session up. A constructor starts the answer
    only when the question asks how the thing is made."""
    assert builds(asked_terms("How is a session created?")[1])
    assert builds(asked_terms("How is the index built from input documents?")[1])
    assert not builds(asked_terms("How does a session send a message over the connection?")[1])
    sent = answer_of(tmp_path, SESSION, "How does a session send a message over the connection?")
    assert [step.symbol.name for step in sent.steps] == ["Session.send", "frame_message"]
    created = answer_of(tmp_path / "made", SESSION, "How is a session created?")
    assert created.symbols[0].name == "Session.__init__"


STORE = {
    "README.md": "# Store\n\n```python\nfrom store import Client\n\nclient = Client()\nclient.get_value('key')\n```\n",
    "store/__init__.py": '"""A key-value store."""\nfrom store.client import Client\n\n__all__ = ["Client"]\n',
    "store/client.py": (
        '"""The client."""\n\n\n'
        "class Client:\n"
        '    """A client of the store."""\n\n'
        "    def get_value(self, key):\n"
        '        """The value of a key."""\n'
        "        return _dispatch(key)\n\n\n"
        "def _dispatch(key):\n"
        "    return _get_value(key)\n\n\n"
        "def _get_value(key):\n"
        '    """The value of a key."""\n'
        "    return _search_cache(key) or _search_remote(key)\n\n\n"
        "def _search_cache(key):\n"
        '    """Look a key\'s value up in the cache."""\n'
        "    return None\n\n\n"
        "def _search_remote(key):\n"
        '    """Look a key\'s value up in the remote store."""\n'
        "    return None\n"
    ),
}


def test_the_librarys_entry_starts_before_the_helper_it_leads_to(tmp_path: Path) -> None:
    """`_get_value` reaches the lookups one call nearer than `Client.get_value`, which the README calls and
    which matches the question as well: the process a user starts begins at the library's entry."""
    found = answer_of(tmp_path, STORE, "How is the value of a key looked up?")
    assert [step.symbol.name for step in found.steps][:3] == ["Client.get_value", "_dispatch", "_get_value"]


ROUTES = {
    "web/__init__.py": '"""A web framework."""\n',
    "web/routes.py": (
        '"""Routes."""\n'
        "\n"
        "\n"
        "class Route:\n"
        '    """A path pattern."""\n'
        "\n"
        "    def match(self, request):\n"
        '        """Whether it fits."""\n'
        "        return compare_path(request)\n"
        "\n"
        "\n"
        "class Router:\n"
        '    """Routes."""\n'
        "\n"
        "    def __init__(self):\n"
        "        self.route = Route()\n"
        "\n"
        "    def dispatch(self, request):\n"
        '        """Send a request to the route that matches it."""\n'
        "        return self.route.match(request)\n"
        "\n"
        "\n"
        "def compare_path(request):\n"
        '    """Compare the path of a request."""\n'
        "    return request\n"
    ),
}


def test_the_subject_doing_the_verb_starts_the_answer(tmp_path: Path) -> None:
    """ "How does a route match a request?" asks what a route does: `Route.match` starts the answer, not
    `Router.dispatch`, which sends a request to the route that matches it and so reaches more of the
    question's words."""
    process = asked_terms("How does a route match a request?")[1]
    assert process.subject == ("route",)
    found = answer_of(tmp_path, ROUTES, "How does a route match a request?")
    assert [step.symbol.name for step in found.steps] == ["Route.match", "compare_path"]


def test_a_folder_naming_a_word_of_the_question_counts_for_its_code(tmp_path: Path) -> None:
    """uvicorn: "How does the server handle an incoming HTTP request?" — `protocols/http/h11.py` and
    `protocols/chat/ws.py` each have a `handle_events` that reads the request; the folder says which
    one is HTTP's."""
    handler = (
        "class {cls}:\n"
        '    def handle_events(self):\n        """Handle the events of an incoming request."""\n'
        "        return self.run_app()\n\n"
        '    def run_app(self):\n        """Run the app for the request."""\n        return 1\n'
    )
    files = {
        "srv/__init__.py": "",
        "srv/protocols/__init__.py": "",
        "srv/protocols/chat/__init__.py": "",
        "srv/protocols/chat/ws.py": handler.format(cls="SocketProtocol"),
        "srv/protocols/http/__init__.py": "",
        "srv/protocols/http/h11.py": handler.format(cls="H11Protocol"),
    }
    question = "How does the server handle an incoming HTTP request?"
    assert start_of(tmp_path, files, question) == "H11Protocol.handle_events"


RETRIES = {
    "package.json": '{"name": "fetcher", "main": "source/index.js"}\n',
    "source/request.js": (
        "import {calculateRetryDelay} from './delay.js';\nimport {publishRetry} from './events.js';\n\n"
        "export class Request {\n"
        "  /** Send the request over the connection. */\n"
        "  send() {\n"
        "    return this.connection.write(this.body);\n"
        "  }\n\n"
        "  /** The request failed: retry it after a delay while retries are left, else give up. */\n"
        "  _beforeError(error) {\n"
        "    const delay = calculateRetryDelay(this.retryCount, error);\n"
        "    if (delay > 0) {\n"
        "      this.retryCount += 1;\n"
        "      publishRetry(this, delay);\n"
        "      return this.send();\n"
        "    }\n"
        "    return this.destroy(error);\n"
        "  }\n"
        "}\n"
    ),
    "source/events.js": (
        "/** Tell the listeners. */\n"
        "export function publishRetry(request, delay) {\n"
        "  return [request, delay];\n"
        "}\n"
    ),
    "source/delay.js": (
        "/** How long to wait before the next attempt. */\n"
        "export function calculateRetryDelay(count, error) {\n"
        "  return count < 2 ? 100 : 0;\n"
        "}\n"
    ),
}


def test_a_method_named_for_the_error_it_handles_may_start(tmp_path: Path) -> None:
    """got's `Request._beforeError` is where a failed request is retried: a method named for the error it
    handles belongs to no error type, and its calls lead to the retry."""
    assert (
        start_of(tmp_path, RETRIES, "How does the client retry a failed request?") == "Request._beforeError"
    )


HANDSHAKE = {
    "go.mod": "module example.com/ws\n\ngo 1.21\n",
    "types.go": (
        "package ws\n\n"
        "// HandshakeError describes an error with the handshake from the peer.\n"
        "type HandshakeError struct {\n\tmessage string\n}\n"
    ),
    "errors.go": (
        "package ws\n\n"
        "// Error checks the peer's handshake again: the handshake from the peer is checked, then each\n"
        "// handshake header from the peer is checked.\n"
        "func (e HandshakeError) Error() string { return Handshake(e.message) + checkHandshake(e.message) }\n"
    ),
    "server.go": (
        "package ws\n\n"
        "// Handshake checks the handshake headers from the peer.\n"
        "func Handshake(headers string) string {\n\treturn checkHandshake(headers)\n}\n\n"
        "// checkHandshake checks one handshake header.\n"
        "func checkHandshake(h string) string { return h }\n"
    ),
}


def test_an_error_types_method_never_starts_though_its_type_is_in_another_file(tmp_path: Path) -> None:
    assert start_of(tmp_path, HANDSHAKE, "How is the handshake from the peer checked?") == "Handshake"


WRAPPED = {
    "README.md": "# codec\n\n```python\nfrom codec import Codec\n\nvalue = Codec().decode(data)\n```\n",
    "codec/__init__.py": '"""Decode input data."""\n\nfrom codec.core import Codec\n\n__all__ = ["Codec"]\n',
    "codec/core.py": (
        '"""The codec."""\n\n'
        "import json\n\n\n"
        "class Codec:\n"
        '    """Decodes and checks input data."""\n\n'
        "    def decode_text(self, text: str) -> dict:\n"
        '        """Decode input data from a JSON text: the text is parsed, then the data decoded and\n'
        '        checked like the input data of `decode`."""\n'
        "        return self.decode(json.loads(text))\n\n"
        "    def decode(self, data: dict) -> dict:\n"
        '        """Decode the data and check it."""\n'
        "        return self._check(self._convert(data))\n\n"
        "    def _convert(self, data: dict) -> dict:\n"
        '        """Convert each field of the data."""\n'
        "        return dict(data)\n\n"
        "    def _check(self, data: dict) -> dict:\n"
        '        """Check the converted data."""\n'
        "        return data\n"
    ),
}


def test_a_wrapper_handing_the_process_to_the_documented_entry_gives_way_to_it(tmp_path: Path) -> None:
    """marshmallow's `Schema.loads` decodes JSON and calls `Schema.load`, the README's entry: the process a
    user starts begins at the entry, however much more of the question the wrapper's docstring names."""
    question = "How does a codec decode and check input data?"
    assert start_of(tmp_path, WRAPPED, question) == "Codec.decode"


COMPILER = {
    "tmpl/__init__.py": '"""Templates."""\n',
    "tmpl/env.py": (
        '"""The environment."""\n\n'
        "from tmpl.codegen import generate\n"
        "from tmpl.parser import parse\n\n\n"
        "class Environment:\n"
        '    """Where templates live."""\n\n'
        "    def compile(self, text: str) -> str:\n"
        '        """Compile it into Python code."""\n'
        "        return generate(parse(text))\n"
    ),
    "tmpl/parser.py": (
        '"""The parser."""\n\n\n'
        "def parse(text: str) -> list[str]:\n"
        '    """Parse the text into a tree."""\n'
        "    return text.split()\n"
    ),
    "tmpl/codegen.py": (
        '"""Code generation."""\n\n\n'
        "def generate(tree: list[str]) -> str:\n"
        '    """Generate the code of a tree."""\n'
        '    return "\\n".join(tree)\n'
    ),
    "tmpl/loaders.py": (
        '"""Loaders."""\n\n'
        "from tmpl.env import Environment\n\n\n"
        "class Loader:\n"
        '    """Finds templates by name."""\n\n'
        "    def load(self, env: Environment, name: str) -> str:\n"
        '        """A template by its name."""\n'
        "        text = self.get_template_source(name)\n"
        "        return env.compile(text)\n\n"
        "    def get_template_source(self, name: str) -> str:\n"
        '        """Read the named template\'s source file."""\n'
        "        return name\n"
    ),
}


def test_a_caller_that_only_uses_the_process_gives_way_to_where_it_is_done(tmp_path: Path) -> None:
    """jinja's `BaseLoader.load` reaches what compiles a template and what reads its source, so its call tree
    answers more of the question than `Environment.compile`'s; but it names none of it: it uses the
    compiling, which begins where the code is named for the asked verb."""
    question = "How is a template's source compiled into Python code?"
    assert start_of(tmp_path, COMPILER, question) == "Environment.compile"


GROUPS = {
    "go.mod": "module example.com/web\n\ngo 1.21\n",
    "group.go": (
        "package web\n\n"
        "// RouterGroup groups the routes of the router under a prefix.\n"
        "type RouterGroup struct {\n\tprefix string\n\ttree   *node\n}\n\n"
        "// GET registers a handler for GET requests to a path of the router.\n"
        "func (g *RouterGroup) GET(path string, handler string) {\n\tg.tree.addRoute(g.prefix+path, handler)\n}\n"
    ),
    "tree.go": (
        "package web\n\n"
        "// node is one segment of the router's path tree.\n"
        "type node struct {\n\tpath    string\n\thandler string\n\tchild   *node\n}\n\n"
        "// addRoute adds a path and its handler to the tree.\n"
        "func (n *node) addRoute(path string, handler string) {\n\tn.path, n.handler = path, handler\n}\n\n"
        "// findHandler finds the handler registered for a path.\n"
        "func (n *node) findHandler(path string) string {\n"
        '\tif found := n.nodeFor(path); found != nil {\n\t\treturn found.handler\n\t}\n\treturn ""\n}\n\n'
        "// nodeFor walks the tree to the node of a path.\n"
        "func (n *node) nodeFor(path string) *node {\n"
        "\tfor n != nil && n.path != path {\n\t\tn = n.child\n\t}\n\treturn n\n}\n"
    ),
    "engine.go": (
        "package web\n\n"
        "// Engine serves requests with the router.\n"
        "type Engine struct {\n\tRouterGroup\n}\n\n"
        "// ServeHTTP answers one request: the router finds the handler for its path, then runs it.\n"
        "func (e *Engine) ServeHTTP(path string) string {\n\treturn e.tree.findHandler(path)\n}\n"
    ),
}


def test_only_the_verbs_own_word_makes_the_subject_do_it(tmp_path: Path) -> None:
    """gin's `RouterGroup.GET` registers a route: "get" is of the family of "find", but the router group's
    HTTP method does not find the handler; the code named for finding it does."""
    assert (
        start_of(tmp_path, GROUPS, "How does the router find the handler for a path?") == "node.findHandler"
    )


SERVE = {
    "web/__init__.py": '"""A web framework."""\n',
    "web/routing.py": (
        '"""Routes and the router."""\n\n\n'
        "class Route:\n"
        '    """A path pattern and its callback."""\n\n'
        "    def __init__(self, callback):\n"
        "        self.callback = callback\n\n"
        "    def call(self, **args):\n"
        '        """Call the route\'s callback with the arguments taken from the path."""\n'
        "        return self.callback(**args)\n\n\n"
        "class Router:\n"
        '    """The routes of an application."""\n\n'
        "    def __init__(self):\n"
        "        self.routes = [Route(print)]\n\n"
        "    def match(self, environ):\n"
        '        """The route matching an incoming request\'s path, and the arguments taken from it."""\n'
        "        return self.routes[0], {}\n"
    ),
    "web/app.py": (
        '"""The application."""\n\n'
        "from web.routing import Route, Router\n\n\n"
        "class App:\n"
        '    """A WSGI application."""\n\n'
        "    def __init__(self):\n"
        "        self.router = Router()\n\n"
        "    def __call__(self, environ):\n"
        "        return self._handle(environ)\n\n"
        "    def _handle(self, environ):\n"
        "        route, args = self.router.match(environ)\n"
        "        return Route.call(route, **args)\n"
    ),
}


def test_the_function_joining_the_matches_starts_though_no_word_names_it(tmp_path: Path) -> None:
    """`Route.call` is named for the question's callback being called and `Router.match` for the request being
    matched; `App._handle`, named for neither, calls both: the process asked about, both its parts, begins
    there, not at the route's call that ends it."""
    found = answer_of(
        tmp_path, SERVE, "How does an incoming request get matched to a route and its callback called?"
    )
    assert [step.symbol.name for step in found.steps] == ["App._handle", "Router.match", "Route.call"]


CLIENT = {
    "cli/__init__.py": '"""A command-line HTTP client."""\n',
    "cli/client.py": (
        '"""Requests from the command line."""\n\n\n'
        "def main(args):\n"
        '    """Run the command line program."""\n'
        "    return collect_messages(args)\n\n\n"
        "def collect_messages(args):\n"
        "    kwargs = make_request_kwargs(args)\n"
        "    session = build_requests_session(args)\n"
        "    return session, kwargs\n\n\n"
        "def make_request_kwargs(args):\n"
        '    """The keyword arguments of the request, taken from the command line arguments."""\n'
        "    return {'url': args.url, 'headers': make_headers(args)}\n\n\n"
        "def make_headers(args):\n"
        '    """The headers of the request, from the command line arguments."""\n'
        "    return {}\n\n\n"
        "def build_requests_session(args):\n"
        '    """Build the session that sends the requests, its adapters mounted."""\n'
        "    session = object()\n"
        "    mount_adapters(session)\n"
        "    return session\n\n\n"
        "def mount_adapters(session):\n"
        '    """Mount the HTTP adapters on a session."""\n'
        "    return session\n"
    ),
}


def test_a_function_joining_the_matches_is_no_caller_of_the_process_for_another_purpose(
    tmp_path: Path,
) -> None:
    """`collect_messages` answers nothing itself and reaches `build_requests_session`, named for the asked
    verb: a caller of that process for another purpose would give way to it, but one calling the request's
    arguments and the session together is where the asked process's parts are joined."""
    found = answer_of(tmp_path, CLIENT, "How is the HTTP request built from the command line arguments?")
    assert found.steps[0].symbol.name == "collect_messages"


def _go_steps(count: int) -> str:
    return "".join(f"\tstep{i} := {i}\n\t_ = step{i}\n" for i in range(count))


# a Go worker pool: `Start` writes the pool's settings and starts each worker, whose `start` runs its loop
# in a goroutine; the loop fetches jobs and runs them — the process asked about begins there
GO_POOL = {
    "go.mod": "module example.com/jobs\n\ngo 1.21\n",
    "README.md": "# jobs\n\n```go\npool := jobs.NewWorkerPool(10)\npool.Start()\n```\n",
    "pool.go": (
        "package jobs\n\n// WorkerPool runs jobs with workers.\ntype WorkerPool struct {\n\tworkers []*worker\n}\n\n"
        "// NewWorkerPool makes a pool of workers.\n"
        "func NewWorkerPool(n int) *WorkerPool {\n\treturn &WorkerPool{}\n}\n\n"
        "// Start starts the pool's workers, which fetch and run jobs.\n"
        "func (wp *WorkerPool) Start() {\n\twp.writeSettings()\n"
        "\tfor _, w := range wp.workers {\n\t\tw.start()\n\t}\n}\n\n"
        f"func (wp *WorkerPool) writeSettings() {{\n{_go_steps(10)}}}\n"
    ),
    "worker.go": (
        "package jobs\n\ntype worker struct {\n\tstop chan bool\n}\n\n"
        "func (w *worker) start() {\n\tgo w.loop()\n}\n\n"
        "func (w *worker) loop() {\n\tfor {\n\t\tjob := w.fetchJob()\n\t\tw.runJob(job)\n\t}\n}\n\n"
        f'func (w *worker) fetchJob() string {{\n{_go_steps(12)}\treturn ""\n}}\n\n'
        f"func (w *worker) runJob(job string) {{\n{_go_steps(12)}}}\n"
    ),
}


def test_an_answer_starts_in_the_loop_the_set_up_spawns_not_at_the_start_call(tmp_path: Path) -> None:
    assert start_of(tmp_path, GO_POOL, "How does the worker pool fetch jobs and run them?") == "worker.loop"


# an asyncio worker: `run` creates the task of its `main` loop and waits; `main` polls the queue and runs
# each job (arq's shape)
ASYNC_WORKER = {
    "README.md": "# tasks\n\n```python\nfrom tasks import Worker\nWorker(functions).run()\n```\n",
    "tasks/__init__.py": "from .worker import Worker\n\n__all__ = ['Worker']\n",
    "tasks/worker.py": (
        "import asyncio\n\n\nclass Worker:\n"
        "    def __init__(self, functions):\n        self.functions = functions\n"
        "        self.loop = asyncio.get_event_loop()\n\n"
        '    def run(self):\n        """Run the worker: poll the queue and run jobs."""\n'
        "        self.main_task = self.loop.create_task(self.main())\n"
        "        self.loop.run_until_complete(self.main_task)\n\n"
        "    async def main(self):\n        while True:\n            await self.poll_jobs()\n\n"
        "    async def poll_jobs(self):\n"
        + "".join(f"        step{i} = {i}\n" for i in range(12))
        + "        for job_id in await self.queued_jobs():\n            await self.run_job(job_id)\n\n"
        "    async def queued_jobs(self):\n        return []\n\n"
        "    async def run_job(self, job_id):\n"
        + "".join(f"        step{i} = {i}\n" for i in range(12))
        + "        return job_id\n"
    ),
}


def test_an_answer_starts_in_the_task_the_run_call_creates(tmp_path: Path) -> None:
    start = start_of(tmp_path, ASYNC_WORKER, "How does the worker poll queued jobs and run them?")
    assert start in {"Worker.main", "Worker.poll_jobs"}


# the same pool in JavaScript: the worker's loop runs from a timer's callback, a closure whose body calls it
# (bull's `process.nextTick(() => {…})`, agenda's `setInterval(() => this.process(), …)`)
JS_POOL = {
    "package.json": '{"name": "jobs", "main": "index.js"}\n',
    "README.md": "# jobs\n\n```js\nconst pool = new WorkerPool(10)\npool.start()\n```\n",
    "index.js": (
        "const { Worker } = require('./worker')\n\n"
        "/** Runs jobs with workers. */\nclass WorkerPool {\n"
        "  /** Start the pool's workers, which fetch and run jobs. */\n"
        "  constructor() {\n    this.worker = new Worker()\n  }\n\n"
        "  start() {\n    this.writeSettings()\n    this.worker.start()\n  }\n\n"
        "  writeSettings() {\n" + "".join(f"    this.setting{i} = {i}\n" for i in range(10)) + "  }\n}\n\n"
        "module.exports = { WorkerPool }\n"
    ),
    "worker.js": (
        "class Worker {\n"
        "  start() {\n    process.nextTick(() => {\n      this.loop()\n    })\n  }\n\n"
        "  loop() {\n    const job = this.fetchJob()\n    this.runJob(job)\n    this.start()\n  }\n\n"
        "  fetchJob() {\n"
        + "".join(f"    const step{i} = {i}\n" for i in range(12))
        + "    return ''\n  }\n\n"
        "  runJob(job) {\n"
        + "".join(f"    const step{i} = {i}\n" for i in range(12))
        + "    return job\n  }\n}\n\n"
        "module.exports = { Worker }\n"
    ),
}


def test_an_answer_starts_in_the_loop_a_js_timer_runs_not_at_the_start_call(tmp_path: Path) -> None:
    assert start_of(tmp_path, JS_POOL, "How does the worker pool fetch jobs and run them?") == "Worker.loop"


def test_an_answer_starts_in_the_loop_a_spawned_closure_calls(tmp_path: Path) -> None:
    """`go func() { w.loop() }()`: the closure's body runs in the goroutine, as `go w.loop()` does."""
    files = {
        **GO_POOL,
        "worker.go": GO_POOL["worker.go"].replace("\tgo w.loop()\n", "\tgo func() {\n\t\tw.loop()\n\t}()\n"),
    }
    assert start_of(tmp_path, files, "How does the worker pool fetch jobs and run them?") == "worker.loop"


# a Go client: `Dial` starts the connection's read loop in a goroutine; it reads each frame off the socket
# and hands it down through the demultiplexer to the channel's delivery handler (amqp091-go's, lapin's
# shape); `Publish` writes a frame on the user's call
GO_CLIENT = {
    "go.mod": "module example.com/amqp\n\ngo 1.21\n",
    "README.md": "# amqp\n\n```go\nconn := amqp.Dial(url)\nconn.Consume(queue, handler)\n```\n",
    "conn.go": (
        'package amqp\n\nimport "net"\n\n// Connection is a client\'s connection to the broker.\n'
        "type Connection struct {\n\tsock net.Conn\n\tconsumers map[string]func(string)\n}\n\n"
        "// Dial connects to the broker.\nfunc Dial(url string) *Connection {\n"
        "\tc := &Connection{}\n\tgo c.reader()\n\treturn c\n}\n\n"
        "func (c *Connection) reader() {\n\tbuf := make([]byte, 4096)\n\tfor {\n"
        "\t\tn, _ := c.sock.Read(buf)\n\t\tc.demux(buf[:n])\n\t}\n}\n\n"
        "func (c *Connection) demux(frame []byte) {\n\tc.dispatch(string(frame))\n}\n\n"
        "func (c *Connection) dispatch(body string) {\n\tc.route(body)\n}\n\n"
        "func (c *Connection) route(body string) {\n\tc.forward(body)\n}\n\n"
        "func (c *Connection) forward(body string) {\n\tc.handleDelivery(body)\n}\n\n"
        "// handleDelivery hands a message the broker delivers to the consumer's handler.\n"
        "func (c *Connection) handleDelivery(body string) {\n"
        + _go_steps(8)
        + "\tfor _, handler := range c.consumers {\n\t\thandler(body)\n\t}\n}\n\n"
        "// Consume registers the handler a delivered message is given to.\n"
        "func (c *Connection) Consume(queue string, handler func(string)) {\n"
        "\tc.consumers[queue] = handler\n}\n\n"
        "// Publish sends a message to the broker.\nfunc (c *Connection) Publish(body string) {\n"
        "\tc.writeFrame(body)\n}\n\n"
        f"func (c *Connection) writeFrame(body string) {{\n{_go_steps(8)}\tc.sock.Write([]byte(body))\n}}\n"
    ),
}


def test_what_arrives_over_a_connection_is_answered_from_the_read_loop(tmp_path: Path) -> None:
    """A delivery comes in where the client reads the socket, in the loop it spawns, not at the handler
    its words name; a message sent on the user's call still starts at the call."""
    delivered = "How is a message delivered by the broker handed to my consumer's handler?"
    steps = [s.name for s in answer_of(tmp_path, GO_CLIENT, delivered).symbols]
    # …and its steps are the calls handing what it read down to the handler, however many
    assert steps[:6] == [f"Connection.{n}" for n in ("reader", "demux", "dispatch", "route", "forward")] + [
        "Connection.handleDelivery"
    ]
    assert start_of(tmp_path / "sent", GO_CLIENT, "How does Publish send a message?") == "Connection.Publish"


def test_a_spawned_loop_reading_nothing_is_no_way_in(tmp_path: Path) -> None:
    """A goroutine that only writes (a flusher) is no reader: what arrives is not handled there."""
    files = {**GO_CLIENT, "conn.go": GO_CLIENT["conn.go"].replace("c.sock.Read(buf)", "len(buf), 0")}
    delivered = "How is a message delivered by the broker handed to my consumer's handler?"
    assert start_of(tmp_path, files, delivered) == "Connection.handleDelivery"


# jsonrpc2's and py-amqp's shape: the user's `call` sends a request and waits for its reply; the reply comes
# in where the connection reads the socket (`read_loop`, which a user's `start` runs), and a handler named
# for the question's words hands it on
RPC = {
    "rpc/__init__.py": '"""An RPC client."""\n',
    "rpc/conn.py": (
        '"""A connection to the server."""\n\n\n'
        "class Conn:\n"
        '    """A connection: calls go out, replies come in."""\n\n'
        "    def call(self, method):\n"
        '        """Make a call: dispatch it, then wait for its reply."""\n'
        "        self.dispatch_call(method)\n        return self.wait(method)\n\n"
        "    def dispatch_call(self, method):\n"
        '        """Send the call\'s request message to the server."""\n'
        + "".join(f"        step{i} = {i}\n" for i in range(8))
        + "        self.sock.sendall(method)\n\n"
        "    def wait(self, method):\n"
        '        """Block until the waiting call\'s incoming reply message is routed to it by the handler."""\n'
        + "".join(f"        step{i} = {i}\n" for i in range(8))
        + "        return self.replies.pop(method)\n\n"
        "    def read_loop(self):\n"
        "        while True:\n            data = self.sock.recv(4096)\n            self.dispatch(data)\n\n"
        "    def dispatch(self, data):\n"
        + "".join(f"        step{i} = {i}\n" for i in range(8))
        + "        self.replies[data] = data\n"
    ),
}


def test_what_arrives_is_answered_where_it_is_read_not_at_a_call_reading_nothing(tmp_path: Path) -> None:
    """An incoming message starts its answer at code that reads what comes in (here, or through its calls),
    not at the user's `call`, which sends and waits on what another function stores; a question about
    what goes out still starts at the call."""
    incoming = "How is an incoming message read and routed to the handler or to the waiting call?"
    assert start_of(tmp_path, RPC, incoming) in {"Conn.read_loop", "Conn.dispatch"}
    assert (
        start_of(tmp_path / "out", RPC, "How does call send a request and wait for the reply?") == "Conn.call"
    )


# ureq's and log4rs' shape: a module's unit tests, in a file its parent declares for tests only
# (`#[cfg(test)] mod test;`) or inline (`#[cfg(test)] mod tests { … }`), are named after the process too
REDIRECTS = {
    "Cargo.toml": '[package]\nname = "fetch"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod transport;\n\npub fn get(url: &str) -> String {\n    transport::send(url)\n}\n",
    "src/transport/mod.rs": (
        "#[cfg(test)]\nmod test;\n\n"
        "pub fn send(url: &str) -> String {\n    follow_redirects(url.to_string(), 0)\n}\n\n"
        "/// Follow a redirect to the Location header.\n"
        "fn follow_redirects(url: String, count: u32) -> String {\n"
        "    if count > 3 {\n        return url;\n    }\n"
        '    follow_redirects(format!("{}/next", url), count + 1)\n}\n\n'
        "#[cfg(test)]\nmod tests {\n"
        "    /// Follow a redirect: the redirect is followed to its Location.\n"
        "    #[test]\n    fn redirect_follow_location() {\n"
        '        assert_eq!(super::send("a"), "a");\n    }\n}\n'
    ),
    "src/transport/test.rs": (
        "/// A redirect is followed to the Location header, then not followed again.\n"
        '#[test]\nfn redirect_follow_no_follow() {\n    assert_eq!(super::send("a"), "a");\n}\n\n'
        '#[test]\nfn follow_redirect_location_header() {\n    assert_eq!(super::send("b"), "b");\n}\n'
    ),
}


def test_a_rust_modules_unit_tests_never_start_nor_join_an_answer(tmp_path: Path) -> None:
    """ureq's "How does ureq follow a redirect?" started at `test.redirect_no_follow` in
    `src/unversioned/transport/test.rs` (declared `#[cfg(feature = "_test")] mod test;`), and log4rs' record
    question named `tests.log`, a unit test: tests exercise the process, they do not run it."""
    answer = answer_of(tmp_path, REDIRECTS, "How does a redirect follow the Location header?")
    names = [symbol.name for symbol in answer.symbols]
    assert names[0] == "follow_redirects"
    assert not any(name.startswith(("test.", "tests.", "redirect_", "follow_redirect_")) for name in names)


# attohttpc's and minreq's shape: a builder's option (`follow_redirects(mut self, …) -> Self`) is named for
# the process, but only keeps the choice; the request's send loop reads it and follows each redirect
BUILDER = {
    "Cargo.toml": '[package]\nname = "fetch"\nversion = "0.1.0"\n',
    "src/lib.rs": (
        "pub struct Settings {\n    pub follow_redirects: bool,\n}\n\n"
        "pub struct RequestBuilder {\n    settings: Settings,\n}\n\n"
        "impl RequestBuilder {\n"
        "    /// Sets whether to follow redirects to their Location.\n"
        "    pub fn follow_redirects(mut self, follow_redirects: bool) -> Self {\n"
        "        self.settings.follow_redirects = follow_redirects;\n        self\n    }\n\n"
        "    /// Sends the request.\n"
        "    pub fn send(self) -> String {\n"
        '        let mut url = String::from("/");\n'
        "        while self.settings.follow_redirects && url.len() < 8 {\n"
        "            url = redirect_url(&url);\n        }\n        url\n    }\n}\n\n"
        "/// The URL a redirect's Location header names.\n"
        "fn redirect_url(location: &str) -> String {\n"
        '    let mut next = location.to_string();\n    next.push_str("next/");\n    next\n}\n'
    ),
}


def test_a_setter_named_for_the_process_does_not_start_it(tmp_path: Path) -> None:
    """attohttpc's "How does the client follow a redirect?" started at `RequestBuilder.follow_redirects`,
    which only stores the choice (minreq's at `Request.with_follow_redirects`); unless the question names it."""
    asked = "How does the client follow a redirect to the Location it is given?"
    assert start_of(tmp_path, BUILDER, asked) == "redirect_url"
    named = "How does follow_redirects change what send does?"
    assert start_of(tmp_path / "named", BUILDER, named) == "RequestBuilder.follow_redirects"


@pytest.mark.parametrize(
    ("language", "own", "body", "setter"),
    [
        (
            "python",
            "self",
            ["def timeout(self, seconds):", '    """Set it."""', "    self._timeout = seconds"],
            True,
        ),
        ("python", "self", ["def json(self, v):", "    self.body = dumps(v)", "    return self"], True),
        ("go", "s", ["func (s *Sling) Base(u string) *Sling {", "\ts.rawURL = u", "\treturn s", "}"], True),
        ("javascript", "this", ["delay(ms) {", "  this._delay = ms;", "  return this;", "}"], True),
        (
            "rust",
            "self",
            ["fn proxy(mut self, p: Proxy) -> Self {", "    self.s.set_proxy(p);", "    self", "}"],
            True,
        ),
        # a forwarder hands back what another object's method returns: no choice kept
        (
            "rust",
            "self",
            ["fn read(&mut self, b: &mut [u8]) -> usize {", "    self.inner.read(b)", "}"],
            False,
        ),
        (
            "go",
            "c",
            ["func (c *Conn) Close() error {", "\tc.closed = true", "\treturn c.sock.Close()", "}"],
            False,
        ),
        (
            "python",
            "self",
            ["def send(self, data):", "    self.sock.sendall(data)", "    self.flush()"],
            False,
        ),
    ],
)
def test_a_setter_only_stores_into_its_receiver(
    language: str, own: str, body: list[str], setter: bool
) -> None:
    assert only_sets(language, own, body) is setter


def test_a_call_forwarded_to_a_fields_object_is_no_setter() -> None:
    body = ["def send(self, data):", "    self.sock.sendall(data)"]
    assert not only_sets("python", "self", body)
    assert only_sets("python", "self", ["def follow(self, on):", "    self.settings.set_follow(on)"])


# kue's shape: the question writes the call as a user does, on the instance (`job.save()`), while a factory
# (`createJob`) matches "job" and "make" as well and reaches the saving too
QUEUE = {
    "package.json": '{"name": "queue", "main": "lib/queue.js"}\n',
    "lib/queue.js": (
        "const Job = require('./job')\n\n"
        "/** Create a new job of the given type: make the job and return it. */\n"
        "function createJob(type, data) {\n  const job = new Job(type, data)\n  job.priority(0)\n"
        "  job.save(() => {})\n  return job\n}\n\n"
        "module.exports = { createJob }\n"
    ),
    "lib/job.js": (
        "class Job {\n"
        "  constructor(type, data) {\n    this.type = type\n    this.data = data\n  }\n\n"
        "  priority(level) {\n    this._priority = level\n    return this\n  }\n\n"
        "  /** Store the job in Redis and make it available. */\n"
        "  save(done) {\n    this.update(done)\n  }\n\n"
        "  update(done) {\n    this.state('inactive', done)\n  }\n\n"
        "  state(name, done) {\n    this._state = name\n    done()\n  }\n}\n\n"
        "module.exports = Job\n"
    ),
}


def test_a_method_written_on_its_instance_starts_the_answer(tmp_path: Path) -> None:
    """kue's "How does job.save() store a new job…?" started at the `createJob` factory: `job.save` is
    `Job.save` written as a user calls it."""
    asked = "How does job.save() store a new job and make it available to workers?"
    assert start_of(tmp_path, QUEUE, asked) == "Job.save"


# a store in Go (pogreb's, go-cache's shape): `DB.Get` and `DB.Put` are the user's calls, and the index and
# the log below them share the question's words
KV = {
    "go.mod": "module example.com/kv\n\ngo 1.21\n",
    "db.go": (
        "package kv\n\n// DB is a key-value store.\ntype DB struct {\n\tidx *index\n\tlog *datalog\n}\n\n"
        "// Get returns the value of a key.\nfunc (db *DB) Get(key string) string {\n"
        "\toff := db.idx.find(key)\n\treturn db.log.read(off)\n}\n\n"
        "// Put writes a key and its value.\nfunc (db *DB) Put(key string, value string) {\n"
        "\toff := db.log.write(key, value)\n\tdb.idx.add(key, off)\n}\n"
    ),
    "index.go": (
        "package kv\n\n// index maps keys to log offsets.\ntype index struct {\n\tslots map[string]int64\n}\n\n"
        "// find finds the key's slot in the index and its offset in the log.\n"
        "func (i *index) find(key string) int64 {\n\treturn i.slots[key]\n}\n\n"
        "// add adds the key's slot to the index.\nfunc (i *index) add(key string, off int64) {\n"
        "\ti.slots[key] = off\n}\n"
    ),
    "datalog.go": (
        "package kv\n\n// datalog is the log of values.\ntype datalog struct {\n\tdata []string\n}\n\n"
        "// read reads the value at an offset of the log.\nfunc (l *datalog) read(off int64) string {\n"
        "\treturn l.data[off]\n}\n\n"
        "// write writes a key and value to the log.\nfunc (l *datalog) write(key string, value string) int64 {\n"
        "\tl.data = append(l.data, value)\n\treturn int64(len(l.data) - 1)\n}\n"
    ),
}


def test_a_capitalized_word_naming_a_method_is_that_method(tmp_path: Path) -> None:
    assert read_question("How does Set on an LRU cache evict an item?").capitalized == {"Set"}
    # named in a clause describing what the process acts on: context, not where it begins
    assert not read_question("How is a delivery routed to the channel returned by Consume?").capitalized
    # "Get" is a stopword, yet written capitalized it names `DB.Get`, where the read begins
    question = "When a Get arrives for a key, how does the store find its slot in the index and read the value from the log?"
    assert start_of(tmp_path / "get", KV, question) == "DB.Get"
    question = "How does a Put write the value to the log and add the key's slot to the index?"
    assert start_of(tmp_path / "put", KV, question) == "DB.Put"
