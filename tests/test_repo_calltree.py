"""The main flow as a call tree: from the entry point, the callees that lead to the most code, several where
the work branches, every hop cited; rendered as a nested list on the repository's index page."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import make_git_repo
from repo_source_fixture import write_tree

from generator.cli import cli
from generator.repo.facts.calltree import main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import CallTree

# a server whose entry point sets up its settings, logs a line, hands every job to a worker whose engine does
# the work, then configures logging through a module every other one imports (the most central one): a
# flow weighed by its hops' names and centrality ends in the logging helpers
SERVER = {
    "srv/__init__.py": ('"""A job server."""\nfrom .app import serve\nfrom .log import setup_logging\n'),
    "srv/app.py": (
        '"""The server\'s entry point."""\n'
        "from .worker import Worker\n"
        "from .settings import load_settings\n"
        "from .log import log, setup_logging\n"
        "\n"
        "\n"
        "def serve(port):\n"
        '    """Serve jobs on `port` until stopped."""\n'
        "    settings = load_settings(port)\n"
        "    worker = Worker(settings)\n"
        '    log("serving")\n'
        "    worker.run()\n"
        "    setup_logging(settings)\n"
        "\n"
    ),
    "srv/log.py": (
        '"""Logging for every module of the server."""\n'
        "import logging\n"
        "\n"
        "\n"
        "def setup_logging(settings):\n"
        '    """Configure the server\'s logging from its settings."""\n'
        '    level = settings.get("level", "INFO")\n'
        "    handler = make_handler(settings)\n"
        "    root = logging.getLogger()\n"
        "    root.addHandler(handler)\n"
        "    root.setLevel(level)\n"
        "    return root\n"
        "\n"
        "\n"
        "def make_handler(settings):\n"
        '    """A stream handler with the server\'s format."""\n'
        "    handler = logging.StreamHandler()\n"
        "    handler.setFormatter(make_formatter(settings))\n"
        '    handler.setLevel(settings.get("level", "INFO"))\n'
        "    return handler\n"
        "\n"
        "\n"
        "def make_formatter(settings):\n"
        '    """The server\'s log format."""\n'
        '    fmt = settings.get("format", "%(message)s")\n'
        "    return logging.Formatter(fmt)\n"
        "\n"
        "\n"
        "def log(message):\n"
        '    """Log one line."""\n'
        '    logging.getLogger("srv").info(message)\n'
    ),
    "srv/settings.py": (
        '"""Settings read from the environment."""\n'
        "from .log import log\n"
        "import os\n"
        "\n"
        "\n"
        "def load_settings(port):\n"
        '    """The server\'s settings for `port`."""\n'
        '    settings = {"port": port}\n'
        '    for key in ("level", "format", "workers", "queue"):\n'
        "        value = os.environ.get(key.upper())\n"
        "        if value is not None:\n"
        "            settings[key] = value\n"
        '    settings.setdefault("workers", 2)\n'
        '    settings.setdefault("queue", "jobs")\n'
        "    return parse_queue(settings)\n"
        "\n"
        "\n"
        "def parse_queue(settings):\n"
        '    """Split the queue names."""\n'
        '    names = str(settings["queue"]).split(",")\n'
        '    settings["queue"] = [name.strip() for name in names if name.strip()]\n'
        '    if not settings["queue"]:\n'
        '        settings["queue"] = ["jobs"]\n'
        '    settings["queues"] = len(settings["queue"])\n'
        '    settings["ready"] = True\n'
        "    return settings\n"
    ),
    "srv/worker.py": (
        '"""The worker that takes jobs off the queue."""\n'
        "from .log import log\n"
        "from .engine import process\n"
        "\n"
        "\n"
        "class Worker:\n"
        '    """Takes jobs off the queue and hands each to the engine."""\n'
        "\n"
        "    def __init__(self, settings):\n"
        "        self.settings = settings\n"
        "        self.done = []\n"
        "\n"
        "    def run(self):\n"
        '        """Take every job and dispatch it."""\n'
        '        for job in self.settings["queue"]:\n'
        "            self.dispatch(job)\n"
        "        return self.done\n"
        "\n"
        "    def dispatch(self, job):\n"
        '        """Process one job and keep its result."""\n'
        "        result = process(job, self.settings)\n"
        "        self.done.append(result)\n"
        "        return result\n"
    ),
    "srv/engine.py": (
        '"""The engine: where a job\'s work is done."""\nfrom .log import log\n\n\n'
        "def process(job, settings):\n"
        '    """Run one job through every stage and return its result."""\n'
        '    result = {"job": job}\n'
        + "".join(
            f'    result["stage{i}"] = len(str(job)) * {i} + settings.get("workers", 1)\n' for i in range(30)
        )
        + "    return store(result)\n\n\n"
        "def store(result):\n"
        '    """Keep the result."""\n'
        + "".join(f'    result["kept{i}"] = {i}\n' for i in range(12))
        + "    return result\n"
    ),
}


def names(tree: tuple[CallTree, ...] | list[CallTree]) -> list[str]:
    return [name for branch in tree for name in [branch.edge.callee, *names(branch.below)]]


def test_the_tree_reaches_the_workers_core_and_branches_where_the_work_does(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", SERVER)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert tree[0].edge.caller == "serve"
    # the main line: the worker's chain down to the engine, where the work is done
    assert [edge.callee for edge in main_line(tree)] == ["Worker.run", "Worker.dispatch", "process", "store"]
    # the work branches at the entry: settings are read beside the worker's run, first, as `serve` calls
    # them; the worker's run is the one the main line goes on through
    assert [branch.edge.callee for branch in tree] == ["load_settings", "Worker.run"]
    assert [branch.main for branch in tree] == [False, True]
    assert "parse_queue" in names(tree)
    # logging leads to little code and is a side path: not part of the flow
    assert not {"setup_logging", "make_handler", "log"} & set(names(tree))


def test_every_hop_of_the_tree_cites_its_callers_file_and_line(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", SERVER)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None

    def check(tree: tuple[CallTree, ...], caller: tuple[str, str]) -> None:
        for branch in tree:
            edge = branch.edge
            assert (edge.caller_path, edge.caller) == caller
            text = (root / edge.caller_path).read_text(encoding="utf-8").splitlines()[edge.line - 1]
            assert edge.callee.rsplit(".", 1)[-1] in text
            check(branch.below, (edge.callee_path, edge.callee))

    check(tuple(facts.calls.tree()), ("srv/app.py", "serve"))


def test_the_index_page_shows_the_call_tree_as_a_nested_cited_list(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "server", SERVER, origin="https://github.com/acme/server.git")
    kb = tmp_path / "kb"
    kb.mkdir()
    result = CliRunner().invoke(cli, ["--root", str(kb), "repo", "run", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    index = (kb / "site_src" / "repos" / "acme" / "server" / "index.md").read_text(encoding="utf-8")
    flow = index.split("### Main flow", 1)[1].split("\n## ", 1)[0]
    listed = [line for line in flow.splitlines() if line.lstrip().startswith("- ")]
    assert listed[0] == "- `serve`"
    # the calls in the order `serve` makes them: the branch reading settings, then the worker's run
    assert listed[1].startswith("    - calls `load_settings`")
    assert listed[2].startswith("        - calls `parse_queue`")
    assert listed[3].startswith("    - calls `Worker.run` — [")
    assert listed[4].startswith("        - calls `Worker.dispatch` — [")
    assert listed[5].startswith("            - calls `process` — [") and "srv/worker.py" in listed[5]
    assert "/blob/" in listed[5] and "#L21" in listed[5]
    assert "setup_logging" not in flow
    # the sequence diagram follows the tree's main line
    assert "participant p3 as process" in flow


def test_a_shard_page_shows_the_call_tree_from_its_own_entry_point(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "server", SERVER, origin="https://github.com/acme/server.git")
    kb = tmp_path / "kb"
    kb.mkdir()
    result = CliRunner().invoke(cli, ["--root", str(kb), "repo", "run", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    shards = sorted((kb / "site_src" / "repos" / "acme" / "server" / "shards").glob("*.md"))
    flows = {}
    for page in shards:
        body = page.read_text(encoding="utf-8")
        if "## How it flows" in body:
            flows[page.name] = body.split("## How it flows", 1)[1].split("\n## ", 1)[0]
    assert flows, "some shard page has a flow"
    for name, flow in flows.items():
        listed = [line for line in flow.splitlines() if line.lstrip().startswith("- ")]
        # the tree, rooted at the shard's entry: its calls nested under it, each cited
        assert listed[0].startswith("- `"), name
        assert listed[1].startswith("    - calls `") and "/blob/" in listed[1], name
        assert not any(line[:3].isdigit() or line.startswith("1. ") for line in flow.splitlines()), name


def _body(count: int) -> str:
    return "".join(f"    step{i} = {i}\n" for i in range(count))


# a tool whose entry point first builds a wide model (every helper calling three more) and then hands the
# input to an engine that does the work: grown depth first, the model's 39 helpers take every node
MODEL_THEN_WORK = {
    "tool/__init__.py": "from .main import main\n",
    "tool/main.py": (
        "from .model import build\nfrom .engine import run\n\n\n"
        "def main(args):\n    model = build(args)\n    return run(model, args)\n"
    ),
    "tool/model.py": (
        "def build(args):\n"
        + "".join(f"    part{a}(args)\n" for a in range(3))
        + "".join(
            f"\n\ndef part{a}(args):\n" + "".join(f"    piece{a}{b}(args)\n" for b in range(3))
            for a in range(3)
        )
        + "".join(
            f"\n\ndef piece{a}{b}(args):\n" + "".join(f"    bit{a}{b}{c}(args)\n" for c in range(3))
            for a in range(3)
            for b in range(3)
        )
        + "".join(
            f"\n\ndef bit{a}{b}{c}(args):\n{_body(5)}" for a in range(3) for b in range(3) for c in range(3)
        )
    ),
    "tool/engine.py": f"def run(model, args):\n    return evaluate(model)\n\n\ndef evaluate(model):\n{_body(70)}",
}


def test_the_tree_grows_best_first_so_a_wide_set_up_leaves_room_for_the_work(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", MODEL_THEN_WORK)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert [branch.edge.callee for branch in tree] == ["build", "run"]  # in rank order, the main line first
    work = tree[1]
    assert [branch.edge.callee for branch in work.below] == ["evaluate"]


# a client whose request hands the exchange to a transport leading to far more code than its retry policy:
# the policy, a tenth of the transport's code, is still a step of the work, drawn beside it
CLIENT = {
    "web/__init__.py": "from .client import request\n",
    "web/client.py": (
        "from .transport import send\nfrom .policy import should_retry\n\n\n"
        "def request(url):\n    response = send(url)\n    if should_retry(response):\n"
        "        response = send(url)\n    return response\n"
    ),
    "web/transport.py": (
        "def send(url):\n"
        + "".join(f"    stage{i}(url)\n" for i in range(6))
        + "".join(f"\n\ndef stage{i}(url):\n{_body(40)}" for i in range(6))
    ),
    "web/policy.py": f"def should_retry(response):\n{_body(25)}",
}


def test_a_step_with_a_tenth_of_the_heaviest_steps_code_is_a_branch_of_its_own(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", CLIENT)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert {branch.edge.callee for branch in tree} == {"send", "should_retry"}
    assert [branch.edge.callee for branch in tree if branch.main] == ["send"]


# a request that runs its hooks, retries the fetch, reads the response and runs its after-hooks: four steps
# of like weight, each drawn
STEP_NAMES = ["before_hooks", "retry", "read", "after_hooks"]
STEPS = {
    "fetcher/__init__.py": "from .core import request\n",
    "fetcher/core.py": (
        "def request(url):\n    before_hooks(url)\n    response = retry(url)\n    data = read(response)\n"
        "    return after_hooks(data)\n"
        + "".join(f"\n\ndef {name}(value):\n{_body(20 + i)}" for i, name in enumerate(STEP_NAMES))
    ),
}


def test_four_steps_of_like_weight_are_each_a_branch(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", STEPS)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert sorted(branch.edge.callee for branch in tree) == sorted(STEP_NAMES)


# a client call that first builds its options object (a class whose constructor merges them) and then
# fetches: the constructor leads to more code, yet the fetch is where the work goes on
BUILT_THEN_FETCHED = {
    "net/__init__.py": "from .client import call\n",
    "net/client.py": (
        "from .options import Options\nfrom .transport import fetch\n\n\n"
        "def call(url):\n    options = Options(url)\n    return fetch(url, options)\n"
    ),
    "net/options.py": (
        "class Options:\n    def __init__(self, url):\n        self.merged = merge(url)\n\n\n"
        f"def merge(url):\n{_body(60)}"
    ),
    "net/transport.py": f"def fetch(url, options):\n    return send(url)\n\n\ndef send(url):\n{_body(35)}",
}


# an event loop that runs its tasks, then closes its runner in a `finally:`: the close releases every resource
# the run used and leads to more code than the loop's own step, yet the loop is where the work goes on (trio's
# `unrolled_run` → `Runner.close` had opened its main flow)
RUN_THEN_CLOSE = {
    "loop/__init__.py": "from .core import run\n",
    "loop/core.py": (
        "from .runner import Runner\n\n\n"
        "def run(main):\n    runner = Runner()\n    try:\n        runner.step(main)\n    finally:\n"
        "        runner.close()\n"
    ),
    "loop/runner.py": (
        "class Runner:\n    def __init__(self):\n        self.tasks = []\n\n"
        "    def step(self, main):\n        return schedule(main)\n\n"
        "    def close(self):\n        return release(self)\n\n\n"
        f"def schedule(main):\n{_body(35)}\n\ndef release(runner):\n{_body(60)}"
    ),
}


# reselect's shape: the selector creator first gets its inputs, checking each with a long guard, then collects
# their results; the guard throws on bad input and hands nothing on
CHECKED_THEN_COLLECTED = {
    "package.json": '{"name": "selectors", "main": "src/index.js"}',
    "src/index.js": "export { createSelector } from './create'\n",
    "src/create.js": (
        "import { getDependencies, collectResults } from './utils'\n\n"
        "export function createSelector(...inputs) {\n  const deps = getDependencies(inputs)\n"
        "  return collectResults(deps)\n}\n"
    ),
    "src/utils.js": (
        "export function getDependencies(inputs) {\n  assertIsArrayOfFunctions(inputs)\n  return inputs\n}\n\n"
        "export function assertIsArrayOfFunctions(items) {\n"
        + "".join(f"  const check{i} = typeof items[{i}] === 'function'\n" for i in range(40))
        + "}\n\nexport function collectResults(deps) {\n  return runEach(deps)\n}\n\n"
        "function runEach(deps) {\n" + "".join(f"  const result{i} = deps[{i}]\n" for i in range(15)) + "}\n"
    ),
}


# superstruct's shape: the library's own API is a function named `assert`, which validates and hands on; a
# struct factory beside it leads to less code
VALIDATED = {
    "package.json": '{"name": "structs", "main": "src/index.js"}',
    "src/index.js": "export { Struct, object } from './struct'\n",
    "src/struct.js": (
        "export class Struct {\n  assert(value) {\n    return assert(value, this)\n  }\n}\n\n"
        "export function object(schema) {\n  return define(schema)\n}\n\n"
        "function define(schema) {\n"
        + "".join(f"  const field{i} = schema[{i}]\n" for i in range(12))
        + "}\n\n"
        "function assert(value, struct) {\n  return validate(value, struct)\n}\n\n"
        "function validate(value, struct) {\n  return run(value, struct)\n}\n\n"
        "function run(value, struct) {\n"
        + "".join(f"  const check{i} = struct[{i}] === value\n" for i in range(30))
        + "}\n"
    ),
}


def test_a_function_named_assert_alone_is_an_api_not_a_guard(tmp_path: Path) -> None:
    """superstruct's flow `Struct.assert → assert → validate → run` gave way to `object → define → …` when
    every call named for asserting became a side path: a bare `assert` is the library's own validating API,
    and the code it leads to is the work."""
    root = write_tree(tmp_path / "repo", VALIDATED)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    chain = main_line(facts.calls.tree())
    assert [chain[0].caller, *(edge.callee for edge in chain)] == [
        "Struct.assert",
        "assert",
        "validate",
        "run",
    ]


def test_an_argument_guard_is_no_part_of_the_work(tmp_path: Path) -> None:
    """reselect's flow went createSelectorCreator → getDependencies → assertIsArrayOfFunctions: the guard
    checking the input selectors outweighed the call collecting their results. A guard (`assert…`,
    `invariant`) throws on bad input and hands nothing on: it is a side path, like an error report."""
    root = write_tree(tmp_path / "repo", CHECKED_THEN_COLLECTED)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert [edge.callee for edge in main_line(facts.calls.tree())] == ["collectResults", "runEach"]


@pytest.mark.parametrize(
    ("files", "work", "beside"),
    [
        (BUILT_THEN_FETCHED, ["fetch", "send"], "Options"),  # a constructor ranks below what uses it
        (RUN_THEN_CLOSE, ["Runner.step", "schedule"], "Runner.close"),  # a close ranks below the work
    ],
)
def test_setting_up_and_closing_rank_below_the_work(
    tmp_path: Path, files: dict[str, str], work: list[str], beside: str
) -> None:
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert [edge.callee for edge in main_line(tree)] == work
    assert beside in [branch.edge.callee for branch in tree]  # still drawn, beside the work


def _go_body(name: str, lines: int) -> str:
    body = "".join(f"\tv = v*{i} + 1\n" for i in range(lines))
    return f"func {name}(v int) int {{\n{body}\treturn v\n}}\n"


# expr's `Compile`: the configuration, then the parser and checker, the optimizer (under a flag), the compiler
PIPELINE = {
    "go.mod": "module example.com/expr\n\ngo 1.22\n",
    "expr.go": (
        "package expr\n\nimport (\n"
        '\t"example.com/expr/checker"\n\t"example.com/expr/compiler"\n'
        '\t"example.com/expr/conf"\n\t"example.com/expr/optimizer"\n)\n\n'
        "// Compile parses, checks, optimizes and compiles the input.\n"
        "func Compile(input int, optimize bool) int {\n"
        "\tconfig := conf.CreateNew(input)\n\tconfig.Check(input)\n"
        "\ttree := checker.ParseCheck(config)\n"
        "\tif optimize {\n\t\ttree = optimizer.Optimize(tree)\n\t}\n"
        "\treturn compiler.Compile(tree)\n}\n"
    ),
    "conf/conf.go": "package conf\n\ntype Config struct{}\n\nfunc (c *Config) Check(v int) {}\n\n"
    + _go_body("CreateNew", 4).replace(") int {", ") int {", 1),
    "checker/checker.go": "package checker\n\n" + _go_body("ParseCheck", 60),
    "optimizer/optimizer.go": "package optimizer\n\n" + _go_body("Optimize", 3),
    "compiler/compiler.go": "package compiler\n\n"
    + _go_body("Compile", 5).replace("\treturn v\n", "\treturn emit(v)\n")
    + "\n"
    + _go_body("emit", 90),
}


def test_an_entry_running_stages_of_other_packages_branches_into_each_in_the_order_it_calls_them(
    tmp_path: Path,
) -> None:
    """expr's `Compile` runs `conf.CreateNew`, `checker.ParseCheck`, `optimizer.Optimize` and
    `compiler.Compile` in turn: its flow went down the compiler alone (the others weigh under BRANCH of it),
    skipping the parser, the checker and the optimizer. Functions of three packages or more that an entry
    calls are its stages: each is a branch, in the order the entry calls them, the heaviest still the main
    line the diagram draws; a method (`config.Check`) is no stage."""
    root = write_tree(tmp_path / "repo", PIPELINE)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree_from([("expr.go", "Compile")])
    assert [(b.edge.callee_path, b.edge.callee) for b in tree] == [
        ("conf/conf.go", "CreateNew"),
        ("checker/checker.go", "ParseCheck"),
        ("optimizer/optimizer.go", "Optimize"),
        ("compiler/compiler.go", "Compile"),
    ]
    assert [e.callee for e in main_line(tree)] == ["Compile", "emit"]


def test_an_entry_calling_into_fewer_packages_goes_on_through_its_heaviest_callee(tmp_path: Path) -> None:
    """Two packages are no pipeline: the main line goes on through the heaviest callee, the light ones left
    out."""
    files = {**PIPELINE, "expr.go": PIPELINE["expr.go"].replace("optimizer.Optimize", "compiler.Compile")}
    files["expr.go"] = files["expr.go"].replace("conf.CreateNew(input)", "&conf.Config{}")
    files["expr.go"] = files["expr.go"].replace('\t"example.com/expr/optimizer"\n', "")
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree_from([("expr.go", "Compile")])
    assert [b.edge.callee for b in tree if b.main] == ["Compile"]
    assert "ParseCheck" in [b.edge.callee for b in tree]


def _method_body(count: int) -> str:
    return "".join(f"        step{i} = {i}\n" for i in range(count))


# ormar's `QuerySet.get`: a chained call when given filters and the prefetching of related rows, each under a
# flag, beside the straight line every get runs — build the select, fetch the rows through the executor,
# make the models, check their count
QUERY_GET = {
    "orm/__init__.py": "from .queryset import QuerySet\n",
    "orm/queryset.py": (
        "from .sql import build_select\nfrom .prefetch import prefetch_related\n"
        "from .executor import QueryExecutor\n\n\n"
        "class QuerySet:\n"
        "    def __init__(self, database):\n        self.executor = QueryExecutor(database)\n\n"
        "    def get(self, **kwargs):\n"
        "        if kwargs:\n            return self.filter(**kwargs).get()\n"
        "        expr = build_select(self)\n"
        "        rows = self.executor.fetch_all(expr)\n"
        "        models = self._process_rows(rows)\n"
        "        if self.prefetch:\n            models = prefetch_related(models)\n"
        "        self._check_count(models)\n"
        "        return models[0]\n\n"
        f"    def filter(self, **kwargs):\n{_method_body(30)}        return self\n\n"
        f"    def _process_rows(self, rows):\n{_method_body(6)}        return rows\n\n"
        f"    def _check_count(self, models):\n{_method_body(3)}"
    ),
    "orm/executor.py": (
        "class QueryExecutor:\n    def __init__(self, database):\n        self.database = database\n\n"
        "    def fetch_all(self, expr):\n        return self.database.run(expr)\n"
    ),
    "orm/sql.py": (
        "def build_select(queryset):\n"
        + "".join(f"    join{i}(queryset)\n" for i in range(4))
        + "".join(f"\n\ndef join{i}(queryset):\n{_body(40)}" for i in range(4))
    ),
    "orm/prefetch.py": (
        "def prefetch_related(models):\n"
        + "".join(f"    load{i}(models)\n" for i in range(5))
        + "".join(f"\n\ndef load{i}(models):\n{_body(60)}" for i in range(5))
    ),
}


def test_an_option_under_a_flag_leaves_the_straight_line_every_call_runs_in_the_flow(tmp_path: Path) -> None:
    """ormar's `get` flow showed the select's building, the filtering (`if kwargs:`) and the prefetching (`if
    self._prefetch_related`), each leading to more code than fetching the rows, making the models and
    checking their count, which fell under BRANCH of the heaviest and were left out: the flow never reached
    the query's execution. The calls on the entry's straight line are the sequence a typical call runs and
    go before an option however much code it leads to; the heaviest of them is still the main line."""
    root = write_tree(tmp_path / "repo", QUERY_GET)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree_from([("orm/queryset.py", "QuerySet.get")])
    assert [b.edge.callee for b in tree] == [
        "build_select",
        "QueryExecutor.fetch_all",
        "QuerySet._process_rows",
        "QuerySet._check_count",
    ]
    assert [e.callee for e in main_line(tree)][:1] == ["build_select"]


# grpc-gateway's `ServeMux.ServeHTTP`: the pattern's match, the error handler of a malformed path, and the hand
# over to the matched handler, a few lines leading into the user's code
MUX = {
    "go.mod": "module example.com/mux\n\ngo 1.22\n",
    "mux.go": (
        "package mux\n\n// Mux routes requests.\ntype Mux struct{}\n\n"
        "// ServeHTTP serves one request.\n"
        "func (m *Mux) ServeHTTP(v int) int {\n\tp, err := match(v)\n"
        "\tif err != nil {\n\t\treturn respondMalformed(v)\n\t}\n\treturn m.handle(p)\n}\n\n"
        "func (m *Mux) handle(v int) int {\n\treturn v + 1\n}\n\n"
        "func match(v int) (int, error) {\n"
        + "".join(f"\tv = v*{i} + 1\n" for i in range(100))
        + "\treturn v, nil\n}\n\n"
        + _go_body("respondMalformed", 200)
    ),
}


def test_an_error_handler_leaves_the_straight_line_every_call_runs_in_the_flow(tmp_path: Path) -> None:
    """grpc-gateway's Runtime flow lost `handleHandler` (mux.go:542), the hand-over to the matched handler:
    the error handler answering a malformed path led to more code and took its place. A call in an error
    handler is off the straight line as an option is."""
    root = write_tree(tmp_path / "repo", MUX)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree_from([("mux.go", "Mux.ServeHTTP")])
    assert [b.edge.callee for b in tree] == ["match", "Mux.handle"]
    assert [b.edge.callee for b in tree if b.main] == ["match"]


def _py_body(lines: int) -> str:
    return "".join(f"    value = value * {i} + 1\n" for i in range(lines))


# a release tool: `release` reads the log, writes the version into files and tags it; reading the log and
# tagging go through `run`, the subprocess helper every git function and the hooks share, which leads to long
# process and decoding code of its own
SHARED_HELPER = {
    "tool/__init__.py": '"""A release tool."""\n',
    "tool/cli.py": (
        '"""The command line."""\n'
        "from .gitlog import read_log, tag\n"
        "from .files import write_version\n"
        "\n"
        "\n"
        "def release(value):\n"
        '    """Release the next version."""\n'
        "    commits = read_log(value)\n"
        "    write_version(commits)\n"
        "    tag(commits)\n"
        "\n"
    ),
    "tool/shell.py": (
        '"""Running a subprocess."""\n'
        "import subprocess\n"
        "\n"
        "\n"
        "def run(value):\n"
        '    """Run a command."""\n' + _py_body(6) + "    return _popen(value)\n"
        "\n"
        "\n"
        "def _popen(value):\n"
        '    """Open the process."""\n' + _py_body(40) + "    return _decode(subprocess.run(value))\n"
        "\n"
        "\n"
        "def _decode(value):\n"
        '    """Decode its output."""\n' + _py_body(40) + "    return value\n"
    ),
    "tool/gitlog.py": (
        '"""Git."""\n'
        "from .shell import run\n"
        "from .commits import parse_commits\n"
        "\n"
        "\n"
        "def read_log(value):\n"
        '    """The commits since the last tag."""\n' + _py_body(8) + "    return parse_commits(run(value))\n"
        "\n"
        "\n"
        + "".join(
            f'def {name}(value):\n    """git {name}."""\n    return run(value)\n\n\n'
            for name in ("tag", "add", "commit", "branch")
        )
    ),
    "tool/commits.py": (
        '"""Commits."""\n\n\ndef parse_commits(value):\n    """The commits of a log."""\n'
        + _py_body(20)
        + "    return value\n"
    ),
    "tool/hooks.py": (
        '"""Hooks."""\nfrom .shell import run\n\n\ndef run_hooks(value):\n    """Run the hooks."""\n'
        "    return run(value)\n"
    ),
    "tool/files.py": (
        '"""Version files."""\n'
        "\n"
        "\n"
        "def write_version(value):\n"
        '    """Write the version into the files."""\n' + _py_body(20) + "    return value\n"
    ),
}


def test_a_helper_shared_across_the_project_ends_the_flow(tmp_path: Path) -> None:
    """commitizen's flow went `get_commits → _get_log_as_str_list → cmd.run → _popen → _try_decode`, the
    subprocess helper that 18 functions of two files share: a shared helper is shown where it is called and
    the flow goes no further into it, and it weighs its own lines only, so the step reading the log goes on
    into parsing the commits and the caller's other steps are drawn beside it."""
    root = write_tree(tmp_path / "repo", SHARED_HELPER)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree()
    names = _names(tree)
    assert "run" in names
    assert "_popen" not in names and "_decode" not in names
    assert [edge.callee for edge in main_line(tree)] == ["read_log", "parse_commits"]
    assert [branch.edge.callee for branch in tree] == ["read_log", "write_version", "tag"]


def _names(tree: list[CallTree] | tuple[CallTree, ...]) -> list[str]:
    return [name for branch in tree for name in [branch.edge.callee, *_names(branch.below)]]
