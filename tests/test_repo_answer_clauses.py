"""Where an answer starts when the question's clauses are read right (issue 29 item 5): the process is the
main clause's, however the question opens; a second verb after the first one's complement is asked too; a
participle describing what the process acts on is not its verb; and the start is chosen for the process as a
whole — a method of what the question says does it, not a helper doing one of its verbs, nor a variant
named for a case the question does not ask."""

from __future__ import annotations

from pathlib import Path

from test_repo_answer_starts import start_of
from test_repo_answer_steps import _Graph as Graph

from generator.repo.model import Symbol
from generator.repo.plan.focus import request_terms
from generator.repo.synthesize.answer import plain_siblings
from generator.repo.synthesize.answer_steps import AnswerWalk
from generator.repo.synthesize.asked import Asked, Process, asked_process, main_clause, read_question


def process(question: str) -> Process:
    return asked_process(question, request_terms(question))


def test_a_clause_leading_up_to_how_leaves_the_process_to_the_main_clause() -> None:
    """ "When a task raises an exception, how is it retried…?" parsed no process at all: the question did not
    begin with "how"."""
    assert main_clause("When a request fails, how is it retried?") == "how is it retried?"
    assert main_clause("How is a job run?") == "How is a job run?"
    assert process("When a request fails, how is it retried?").verbs == ("retried",)
    assert process("When the server answers with a redirect, how does the client follow it?") == Process(
        ("follow",), (), ("client",)
    )
    # an adverb closes a passive's participle as a preposition does
    assert process("If a decorated function raises an exception, how is it called again?").verbs == (
        "called",
    )


def test_a_question_is_read_once_into_its_words_process_and_names() -> None:
    assert read_question("When a sink is added with `logger.add`, how is a message written to it?") == Asked(
        ("sink", "message", "written"),
        Process(("written",), ("message",)),
        frozenset(),
        frozenset({"logger.add"}),
        triggered=True,  # the clause leading up to "how" says when the process runs
    )
    assert read_question("How does res.send set the body?").written == {"res.send"}


def test_a_second_verb_after_the_first_verbs_complement_is_asked_too() -> None:
    assert process("How does the router match a request to a route and call its handler?").verbs == (
        "match",
        "call",
    )
    assert process("How does the engine find the handler for a request path and call it?").verbs == (
        "find",
        "call",
    )
    # a noun phrase after "and" is no verb, nor is what a question's other clause asks
    assert process("How does a route match the path of a request and its method?").verbs == ("match",)
    assert process("How does fetch follow a redirect, and which headers does it drop?").verbs == ("follow",)
    assert process("How is a job run when its timer fires and the pool has room?").verbs == ("run",)


def test_a_participle_describing_what_the_process_acts_on_is_not_its_verb() -> None:
    """ "the plugins registered with use loaded": "registered with use" says which plugins; "loaded" is the
    process."""
    assert process("How are the plugins registered with use loaded one after another?") == Process(
        ("loaded",), ("plugins",)
    )
    assert process("How are the sinks added with add written to for each message?") == Process(
        ("written",), ("sinks",)
    )
    # a participle in the verb's own complement describes that complement ("the interval set with Retry")
    assert process("How is a job retried after the interval set with Retry?").verbs == ("retried",)
    assert process("How is the index built from input documents?").verbs == ("built",)


ROUTER = {
    "web/__init__.py": '"""A web framework."""\n',
    "web/router.py": (
        '"""The router."""\n\n\n'
        "class Router:\n"
        '    """Routes requests to the middleware of their routes."""\n\n'
        "    def __init__(self):\n"
        "        self.routes = []\n\n"
        "    def match(self, path):\n"
        '        """Match a request path to the routes registered for it."""\n'
        "        return [route for route in self.routes if route.path == path]\n\n"
        "    def dispatch(self, request):\n"
        '        """The router\'s middleware function."""\n'
        "        matched = self.match(request.path)\n"
        "        return run_middleware(matched, request)\n\n\n"
        "def run_middleware(routes, request):\n"
        '    """Run the middleware stack of each route in turn."""\n'
        "    for route in routes:\n"
        "        route.stack(request)\n"
    ),
}


def test_the_subject_doing_one_of_two_asked_verbs_is_a_step_not_the_start(tmp_path: Path) -> None:
    """ "How does the router match … and run their middleware?": `Router.match` is the router matching, half
    of what is asked; the process begins where the match and the middleware are both done."""
    question = "How does the router match a request to its routes and run their middleware?"
    assert start_of(tmp_path, ROUTER, question) == "Router.dispatch"
    # asked one verb, the subject doing it starts
    assert start_of(tmp_path / "one", ROUTER, "How does the router match a request?") == "Router.match"


def node(name: str) -> tuple[str, str]:
    return ("engine.go", name)


def test_a_method_of_the_questions_subject_keeps_the_start_from_a_helper_named_for_the_verb() -> None:
    """gin's `Engine.handleHTTPRequest` answers "how does the engine find the handler for a path and call
    it?" by calling the tree's `findCaseInsensitivePath` and the handler; named for neither verb, it was
    taken for a caller of the finding for another purpose, and the start went down to the finder."""
    calls = {
        "Engine.handle": ["node.findHandler", "Context.next"],
        "node.findHandler": ["node.walk"],
        "node.walk": [],
        "Context.next": [],
    }
    answered = {  # "engine", "find", "handler", "call"
        node("Engine.handle"): (1.0, 0.0, 0.0, 0.0),
        node("node.findHandler"): (0.0, 3.0, 3.0, 0.0),
        node("node.walk"): (0.0, 0.0, 1.0, 0.0),
        node("Context.next"): (0.0, 0.0, 0.0, 1.0),
    }

    def walk(subject: set[tuple[str, str]]) -> AnswerWalk:
        return AnswerWalk(
            Graph(calls),
            answered,
            {name: 10 for name in answered},
            verbed={node("node.findHandler")},
            subject=subject,
        )

    start, eligible = node("Engine.handle"), list(answered)
    assert walk(set()).begun_below(start, 6.0, eligible) == node("node.findHandler")
    assert walk({start}).begun_below(start, 6.0, eligible) == start


def test_a_variant_named_for_a_case_the_question_does_not_ask_gives_way_to_the_plain_method() -> None:
    """urllib3's `read_chunked` reaches more of "how is a gzip-compressed body decompressed as it is read?"
    than `read` by handling chunks as well; pluggy's `call_extra` likewise beside `__call__`."""

    def method(name: str) -> Symbol:
        return Symbol(name, "method", 1, 9, parent=name.split(".")[0])

    symbols = {
        node(name): method(name)
        for name in ("Response.read", "Response.read1", "Response.read_chunked", "Response.read_gzip")
    }
    terms = ["gzip", "body", "decompressed", "read"]
    # `read` before `read1` (the shortest name); a variant named for an asked word is none (`read_gzip`)
    assert plain_siblings(symbols, terms) == {node("Response.read_chunked"): node("Response.read")}
    calls = {
        "Response.read_chunked": ["Response._decode", "Response._update_chunk_length"],
        "Response.read": ["Response._decode"],
        "Response._decode": [],
        "Response._update_chunk_length": [],
    }
    answered = {node(name): (1.0, 1.0) for name in calls}

    def start(calls: dict[str, list[str]]) -> tuple[str, str]:
        walk = AnswerWalk(
            Graph(calls),
            answered,
            {name: 10 for name in answered},
            plain={node("Response.read_chunked"): node("Response.read")},
        )
        return walk.unvaried(node("Response.read_chunked"))

    assert start(calls) == node("Response.read")
    # a variant the plain method calls is its implementation, not another case
    assert start({**calls, "Response.read": ["Response.read_chunked"]}) == node("Response.read_chunked")
