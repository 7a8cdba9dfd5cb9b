"""Where the project's docs tell the main flow — a passage naming two or more of its symbols in the order
the flow calls them — the index shows that passage under the call tree, cited to the doc file's lines."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import make_git_repo
from test_repo_calltree import SERVER

from generator.cli import cli
from generator.repo.docs.model import DocConcept, DocPage, ProjectDocs
from generator.repo.model import DocPassage, FlowBranch, FlowHop
from generator.repo.synthesize.flowdocs import flow_passages


def _tree() -> list[FlowBranch]:
    hop = FlowHop
    dispatch = FlowBranch(
        hop("Worker.run", "Worker.dispatch"), (FlowBranch(hop("Worker.dispatch", "process")),)
    )
    return [FlowBranch(hop("serve", "Worker.run"), (dispatch,)), FlowBranch(hop("serve", "load_settings"))]


def _docs(*texts: str) -> ProjectDocs:
    passages = tuple(
        DocPassage("docs/how.md", 3 + 2 * i, 3 + 2 * i, "paragraph", t) for i, t in enumerate(texts)
    )
    return ProjectDocs(
        "docs", 1, concepts=(DocConcept("How", "how", (DocPage("docs/how.md", "How", passages),)),)
    )


def test_a_passage_naming_the_flows_symbols_in_order_tells_the_flow() -> None:
    docs = _docs(
        "The server's `serve` hands the queue to `Worker.run`, whose `dispatch()` calls `process` per job.",
        "Then `process` is what `serve` waits for.",  # named against the flow's order
        "Workers run and process jobs as they come.",  # prose words, not the symbols
        "Only `process` is named here.",  # one symbol is not a flow
    )
    found = flow_passages(_tree(), docs)
    assert [(f.passage.start, f.names) for f in found] == [
        (3, ("serve", "Worker.run", "Worker.dispatch", "process"))
    ]


def test_a_builtins_name_written_bare_is_the_builtin_not_the_flows_method_of_that_name() -> None:
    """loguru's recipe says `logger.debug(message, value)` is like `print(message.format(value))`: its
    `print` is Python's, not the flow's `ErrorInterceptor.print`; written with its owner it is the method."""
    tree = [
        FlowBranch(
            FlowHop("Logger.debug", "Logger._log"),
            (FlowBranch(FlowHop("Logger._log", "ErrorInterceptor.print")),),
        )
    ]
    bare = "Calling `logger.debug(message, value)` is like calling `print(message.format(value))`."
    owned = "`Logger.debug` hands a failing sink's error to `ErrorInterceptor.print()`."
    assert [f.names for f in flow_passages(tree, _docs(bare, owned))] == [
        ("Logger.debug", "ErrorInterceptor.print")
    ]


def test_a_passage_shown_without_its_code_drops_the_lead_in_to_it() -> None:
    docs = _docs(
        "The server's `serve` hands the queue to `Worker.run`, which runs each job. Here is a worker's log:"
    )
    [found] = flow_passages(_tree(), docs)
    assert found.passage.text == "The server's `serve` hands the queue to `Worker.run`, which runs each job."


def test_identifiers_outside_code_spans_count_when_they_look_like_code() -> None:
    tree = [
        FlowBranch(
            FlowHop("handle_request", "full_dispatch"),
            (FlowBranch(FlowHop("full_dispatch", "finalizeResponse")),),
        )
    ]
    docs = _docs("Each request enters handle_request, then full_dispatch() and finally finalizeResponse.")
    assert [f.names for f in flow_passages(tree, docs)] == [
        ("handle_request", "full_dispatch", "finalizeResponse")
    ]


def test_the_index_shows_what_the_docs_say_under_the_call_tree(tmp_path: Path) -> None:
    files = {
        **SERVER,
        "docs/index.md": "# The job server\n\nA server that runs jobs.\n",
        "docs/lifecycle.md": (
            "# Lifecycle of a job\n\n"
            "A job arrives on the queue.\n\n"
            "`serve` starts a `Worker`; its `Worker.run` takes each job off the queue and hands it to "
            "`process`, which runs every stage.\n"
        ),
    }
    root = make_git_repo(tmp_path / "server", files, origin="https://github.com/acme/server.git")
    kb = tmp_path / "kb"
    kb.mkdir()
    result = CliRunner().invoke(cli, ["--root", str(kb), "repo", "run", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    index = (kb / "site_src" / "repos" / "acme" / "server" / "index.md").read_text(encoding="utf-8")
    flow = index.split("### Main flow", 1)[1].split("\n## ", 1)[0]
    said = flow.split("What the docs say about this flow", 1)[1]
    item = next(line for line in said.splitlines() if line.startswith("- "))
    assert item.startswith("- `serve` → `Worker.run` → `process`: ")
    assert "takes each job off the queue" in item
    assert "/blob/" in item and "docs/lifecycle.md#L5" in item
    assert "A job arrives" not in said
