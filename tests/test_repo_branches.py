"""A call is weighed by where it sits in its caller: the straight-line path counts whole; an error handler, a
warning branch or a branch a bare flag guards counts less, so a fallback leading to much code does not
become the main flow's next step."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.branches import ERROR, FLAG, STRAIGHT
from generator.repo.facts.calltree import main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository


def _big(name: str, lines: int) -> str:
    body = "".join(f"    value = value * {i} + 1\n" for i in range(lines))
    return f"def {name}(value):\n{body}    return value\n"


# a client whose send hands the request to its transport, and follows redirects when a flag asks: the
# redirect code is twice the transport's, a flow weighed by code alone goes there
CLIENT = {
    "net/__init__.py": '"""A client."""\nfrom .client import send\n',
    "net/client.py": (
        '"""The client."""\nimport warnings\n\nfrom .redirects import follow_redirects\n'
        "from .transport import transmit\nfrom .report import report_failure, warn_deprecated\n\n\n"
        "def send(request, allow_redirects=True, legacy=False):\n"
        '    """Send a request."""\n'
        "    if legacy:\n"
        "        warn_deprecated(request)\n"
        "    try:\n"
        "        response = transmit(request)\n"
        "    except OSError:\n"
        "        report_failure(request)\n"
        "        raise\n"
        "    if allow_redirects:\n"
        "        response = follow_redirects(response)\n"
        "    return response\n"
    ),
    "net/transport.py": '"""The transport."""\n\n\n' + _big("transmit", 30),
    "net/redirects.py": '"""Redirects."""\n\n\n' + _big("follow_redirects", 60),
    "net/report.py": '"""Failures."""\n\n\n'
    + _big("report_failure", 90)
    + "\n\n"
    + _big("warn_deprecated", 90),
}


def test_calls_carry_the_share_of_the_path_they_sit_on(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", CLIENT)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    shares = {e.callee: e.share for e in facts.calls.edges(["net/client.py"])}
    assert shares == {
        "warn_deprecated": FLAG,  # `if legacy:` — a flag
        "transmit": STRAIGHT,  # in a try body: the straight line
        "report_failure": ERROR,  # in an except handler
        "follow_redirects": FLAG,  # `if allow_redirects:`
    }


def test_the_flow_follows_the_straight_line_over_a_larger_fallback(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", CLIENT)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    line = main_line(facts.calls.tree())
    assert [e.callee for e in line][:1] == ["transmit"]


GO_SERVER = {
    "go.mod": "module example.com/srv\n\ngo 1.22\n",
    "srv.go": (
        "package srv\n\n"
        "type Engine struct {\n\tRedirectFixedPath bool\n}\n\n"
        "func (e *Engine) Handle(path string) error {\n"
        "\tif err := check(path); err != nil {\n"
        "\t\treturn explain(err)\n"
        "\t}\n"
        "\tif e.RedirectFixedPath && fixPath(path) {\n"
        "\t\treturn nil\n"
        "\t}\n"
        "\tserve(path)\n"
        "\treturn nil\n"
        "}\n\n"
        "func check(path string) error {\n\treturn nil\n}\n\n"
        "func explain(err error) error {\n\treturn err\n}\n\n"
        'func fixPath(path string) bool {\n\treturn path != ""\n}\n\n'
        "func serve(path string) {\n\t_ = path\n}\n"
    ),
}


def test_go_error_checks_and_flag_guarded_operands_are_side_paths(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", GO_SERVER)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    shares = {e.callee: e.share for e in facts.calls.edges(["srv.go"])}
    assert shares == {"check": STRAIGHT, "explain": ERROR, "fixPath": FLAG, "serve": STRAIGHT}


def test_a_javascript_catch_and_error_check_are_side_paths(tmp_path: Path) -> None:
    files = {
        "app.js": (
            "function fail(e) {\n  return e;\n}\n\nfunction work(x) {\n  return x;\n}\n\n"
            "function run(err, x, options) {\n"
            "  if (err) {\n    return fail(err);\n  }\n"
            "  try {\n    work(x);\n  } catch (e) {\n    fail(e);\n  }\n"
            "  if (options.verbose) {\n    work(options);\n  }\n"
            "}\n\nmodule.exports = { run };\n"
        )
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    shares = sorted((e.line, e.callee, e.share) for e in facts.calls.edges(["app.js"]))
    assert shares == [(11, "fail", ERROR), (14, "work", STRAIGHT), (16, "fail", ERROR), (19, "work", FLAG)]


def test_a_go_recovered_panic_s_handler_is_a_side_path_the_entry_does_not_reach(tmp_path: Path) -> None:
    """expr's `VM.Run` binds a recovered panic to the program's source in a deferred function (`if r :=
    recover(); r != nil { err = f.Bind(program.source) }`): that call was on the straight line, so `Run`
    "used" the `Source` its parser makes and was taken for the run-time call after `Compile`, whose flow
    then showed on no page. The handler is an error path: it weighs ERROR, and what an entry reaches (the
    objects it uses) leaves error handlers aside."""
    from generator.repo.facts.calltree import reached

    files = {
        "go.mod": "module example.com/vm\n\ngo 1.22\n",
        "vm.go": (
            "package vm\n\nfunc Run(code []int) (err error) {\n"
            "\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = bind(r)\n\t\t}\n\t}()\n"
            "\tif err := check(code); err != nil {\n\t\treturn explain(err)\n\t}\n"
            "\tstep(code)\n\treturn nil\n}\n\n"
            "func bind(r any) error {\n\treturn nil\n}\n\n"
            "func check(code []int) error {\n\treturn nil\n}\n\n"
            "func explain(err error) error {\n\treturn err\n}\n\n"
            "func step(code []int) {\n\t_ = code\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    shares = {e.callee: e.share for e in facts.calls.edges(["vm.go"])}
    assert shares == {"bind": ERROR, "check": STRAIGHT, "explain": ERROR, "step": STRAIGHT}
    assert {name for _, name in reached(facts.calls, facts.files, ("vm.go", "Run"))} == {
        "Run",
        "check",
        "step",
    }
