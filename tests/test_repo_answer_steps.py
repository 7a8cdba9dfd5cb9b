"""Answer pages that answer from where the asked process begins (issue 29 item 5): the doc section most about
the question as a whole, then the code from the symbol that starts the process, its steps in call order,
each cited; a helper or a class sharing the question's noun is not where the answer starts."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.model import CallEdge, Symbol
from generator.repo.plan.focus import request_terms
from generator.repo.run.pipeline import run_repo_research
from generator.repo.synthesize.answer import does
from generator.repo.synthesize.answer_steps import AnswerWalk
from generator.repo.synthesize.asked import asked_process
from generator.repo.synthesize.questions import answer_facts
from generator.site.pages.repo import publish_repo
from generator.store import read_page
from generator.text.words import base_form

LEDGER = {
    "README.md": "# Ledger\n\nLedger reads a shop's ledger and builds a report of its totals.\n",
    "ledger/__init__.py": '"""Ledgers and their reports."""\n',
    "ledger/pipeline.py": (
        '"""The report pipeline."""\n\n'
        "from ledger.stages import load_ledger, total_ledger, write_report\n\n\n"
        "def build_report(path: str) -> str:\n"
        '    """Build the report of a ledger: load it, total it, write it."""\n'
        "    rows = load_ledger(path)\n"
        "    total = total_ledger(rows)\n"
        "    return write_report(total)\n"
    ),
    "ledger/stages.py": (
        '"""The stages of a report."""\n\n\n'
        "def load_ledger(path: str) -> list[int]:\n"
        '    """Read the ledger\'s rows from `path`."""\n'
        "    return [1, 2]\n\n\n"
        "def total_ledger(rows: list[int]) -> int:\n"
        '    """Sum the ledger\'s rows."""\n'
        "    return sum(rows)\n\n\n"
        "def write_report(total: int) -> str:\n"
        '    """Write the report page with the total."""\n'
        '    return f"total {total}"\n'
    ),
    # the decoys: named after the question's noun ("report") many times, and building nothing
    "ledger/styles.py": (
        '"""How a report looks."""\n\n\n'
        "class ReportStyle:\n"
        '    """The colours of a report page: report title, report body and report footer."""\n\n'
        "    def report_title(self) -> str:\n"
        '        """The report\'s title colour."""\n'
        '        return "blue"\n\n'
        "    def report_footer(self) -> str:\n"
        '        """The report\'s footer colour."""\n'
        '        return "grey"\n'
    ),
    # a heading naming the question's nouns, and a page telling the process it asks about
    "docs/styles.md": (
        "# Report pages of the ledger\n\n"
        "A report page has a report title, a report body and a report footer. Each report part of the report "
        "has a colour, set in the report style.\n"
    ),
    "docs/pipeline.md": (
        "# The pipeline\n\n"
        "A report is built from a ledger in three stages. The pipeline loads the ledger, totals its rows and "
        "writes the report, in that order.\n\n"
        "Each stage hands its result to the next one.\n"
    ),
}
QUESTION = "How is a report built from the ledger?"


def test_the_answer_starts_where_the_process_begins_and_follows_its_calls(tmp_path: Path) -> None:
    root = make_project(tmp_path / "ledger", LEDGER)
    paths, config, provider = offline_setup(tmp_path / "kb")
    target = repo_target(paths, config, str(root), requests=QUESTION)
    result = run_repo_research(paths, config, provider, target, publish=publish_repo)
    answer = result.synthesis.answers[0]
    # the symbol that calls the others starts it, not the class named after the question's noun
    assert [s.symbol.name for s in answer.steps] == [
        "build_report",
        "load_ledger",
        "total_ledger",
        "write_report",
    ]
    assert [s.caller for s in answer.steps[1:]] == ["build_report"] * 3
    assert [s.call.start for s in answer.steps[1:] if s.call] == [8, 9, 10]  # the lines of the calls
    assert answer.symbols[0].name == "build_report"
    # a model writing the answer is told where the process starts, and reads the steps in that order
    facts = answer_facts(result.study, answer)
    assert "the process starts at build_report" in facts
    assert facts.index("- load_ledger") < facts.index("- total_ledger") < facts.index("- write_report")
    body = read_page(result.study.harvest_dir / "answers" / f"{answer.slug}.md")[1]
    revision = result.synthesis.revision
    # the docs' account comes from the page about the process, not the one repeating its noun
    assert "A report is built from a ledger in three stages." in body
    assert "report title, a report body" not in body
    steps = [
        body.index(f"[`{name}`]") for name in ("build_report", "load_ledger", "total_ledger", "write_report")
    ]
    assert steps == sorted(steps)  # in call order
    assert "1. Starts at **[`build_report`]" in body
    assert (
        f"(called by `build_report` at [ledger/pipeline.py:9](https://github.com/acme/shop/blob/{revision}/"
        in body
    )
    assert body.index("Where the code does it") < steps[0] < body.index("## Other code that matches")


def test_the_process_of_a_question_is_its_verb_not_its_nouns() -> None:
    def verbs(question: str) -> tuple[str, ...]:
        return asked_process(question, request_terms(question)).verbs

    assert verbs("How is a prepared request sent over the connection?") == ("sent",)
    assert verbs("How are command line options parsed?") == ("parsed",)
    assert verbs("How does the client follow redirects?") == ("follow",)
    assert verbs("How does the router find the handler for a path?") == ("find",)
    assert verbs("How does deepkb turn a repository into pages?") == ()  # a light verb says little
    assert verbs("What is a session?") == ()
    assert base_form("sent") == "send" and base_form("parsed") == "parsed"


def test_a_symbol_does_the_asked_verb_when_named_for_the_act_not_the_agent() -> None:
    def named(name: str, verb: str) -> bool:
        return does(Symbol(name, "function", 1, 2), verb)

    assert named("Command.parse_args", "parsed") and named("HTTPAdapter.send", "sent")
    assert named("Environment.compile", "compiled") and named("render", "rendered")
    assert not named("Command.make_parser", "parsed")  # the thing that parses, not the parsing
    assert not named("Compiler", "compiled") and not named("Renderer", "rendered")


class _Graph:
    """A call graph of one file's functions, each calling the ones listed against it."""

    def __init__(self, calls: dict[str, list[str]]) -> None:
        self.edges = calls

    def calls_of(self, path: str, callers: set[str]) -> list[CallEdge]:
        return [
            CallEdge(path, caller, path, callee, line)
            for caller in sorted(callers & self.edges.keys())
            for line, callee in enumerate(self.edges[caller], 1)
        ]


def _walk(
    calls: dict[str, list[str]], answered: dict[str, tuple[float, ...]], entries: set[str]
) -> AnswerWalk:
    node = {name: ("server.py", name) for name in calls}
    return AnswerWalk(
        _Graph(calls),
        {node[name]: shares for name, shares in answered.items()},
        {node[name]: 10 for name in answered},
        public={node[name] for name in entries},
        entries={node[name] for name in entries},
    )


def test_an_entry_the_start_itself_reaches_is_no_caller_above_it() -> None:
    """`send_response` reaches `handle_events` only through the completion callback that handles the next
    pipelined request; `handle_events` reaches `send_response` too (the app it runs sends the response): an
    entry the start leads to is below it, not where a user's process begins."""
    answered = {
        "handle_events": (3.0, 3.0, 0.0),  # "handle", "request": the loop handling an incoming request
        "parse_request": (0.0, 3.0, 0.0),
        "run_app": (0.0, 0.0, 3.0),  # "app"
        "send_response": (3.0, 3.0, 1.0),  # the documented entry, matching as well
    }
    calls = {
        "handle_events": ["parse_request", "run_app"],
        "run_app": ["send_response"],
        "send_response": ["on_response_complete"],
        "on_response_complete": ["handle_events"],
        "parse_request": [],
    }
    start = ("server.py", "handle_events")
    walk = _walk(calls, answered, {"send_response"})
    assert walk.entry_to(start, list(walk.matches)) == start
    # the same entry calling the loop without being reached from it is where the process begins
    calls["run_app"] = []
    walk = _walk(calls, answered, {"send_response"})
    assert walk.entry_to(start, list(walk.matches)) == ("server.py", "send_response")
