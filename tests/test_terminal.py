"""What deepkb prints: escape sequences, control characters and bidi overrides from untrusted text never reach
the terminal, and rich markup in untrusted text prints literally (issue 8, finding 9)."""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner
from topic_fakes import make_corpus

from generator.cli import cli
from generator.console import SafeConsole
from generator.repo.run.workers import Job, run_jobs
from generator.terminal import printable

CLEAR_SCREEN = "\x1b[2J\x1b[H"
RETITLE = "\x1b]0;pwned\x07"
RETITLE_ST = "\x1b]2;pwned\x1b\\"
BIDI = "\u202eevil\u202c"


def terminal() -> tuple[SafeConsole, io.StringIO]:
    out = io.StringIO()
    console = SafeConsole(file=out, force_terminal=True, color_system="standard", width=200, highlight=False)
    return console, out


def test_printable_strips_sequences_controls_and_bidi_but_keeps_text() -> None:
    hostile = f"a{CLEAR_SCREEN}b{RETITLE}c{RETITLE_ST}d\x9b31m{BIDI}\r\x08\x00e\tf\n中文 ✓"
    assert printable(hostile) == "abcd31mevile\tf\n中文 ✓"


def test_console_keeps_its_own_styles_and_drops_the_texts_escapes() -> None:
    console, out = terminal()
    console.print(f"[bold]step[/bold] {CLEAR_SCREEN}done{RETITLE}")
    written = out.getvalue()
    assert "\x1b[1m" in written  # our bold survives
    assert "\x1b[2J" not in written and "\x1b]0;" not in written and "pwned" not in written
    assert written.endswith("\x1b[0m done\n")


def test_rule_titles_and_stray_closing_tags_print_literally() -> None:
    console, out = terminal()
    console.rule("topic [bold]widgets[/bold]")
    console.print("warning: a title with [/b] in it")  # rich would raise MarkupError
    written = out.getvalue()
    assert "[bold]widgets[/bold]" in written and "[/b]" in written


def test_progress_lines_show_model_text_inert() -> None:
    console, out = terminal()
    label = f"[bold]Shard[/bold]{RETITLE}"

    def work(report):  # type: ignore[no-untyped-def]
        report(f"asking the model {CLEAR_SCREEN}[red]now[/red]")
        raise ValueError(f"model said {BIDI}{RETITLE_ST}")

    results = run_jobs([Job(1, label, work)], limit=1, console=console)
    assert isinstance(results[1], ValueError)
    written = out.getvalue()
    assert "[bold]Shard[/bold]" in written
    assert "\x1b]" not in written and "\x1b[2J" not in written and "\u202e" not in written


def test_progress_in_a_log_is_one_plain_line_per_job_as_it_ends() -> None:
    # a log or a pipe has nothing to redraw: each job's line is written once, its text inert
    out = io.StringIO()
    console = SafeConsole(file=out, force_terminal=False, width=200)
    label = f"[bold]Shard[/bold]{RETITLE}"

    def failing(report):  # type: ignore[no-untyped-def]
        raise ValueError(f"model said {BIDI}{CLEAR_SCREEN}[red]no[/red]")

    results = run_jobs(
        [Job(1, label, lambda report: 42), Job(2, "02 Other", failing)], limit=1, console=console
    )
    assert results[1] == 42 and isinstance(results[2], ValueError)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("  [bold]Shard[/bold]") and " done " in lines[0]
    assert lines[1].startswith("  02 Other failed: model said") and "[red]no[/red]" in lines[1]
    assert "\x1b" not in out.getvalue() and "\u202e" not in out.getvalue()


def test_cli_prints_a_hostile_topic_inert(kb_root: Path) -> None:
    make_corpus(kb_root)
    topic = f"[bold]vector[/bold] databases {RETITLE}{CLEAR_SCREEN}{BIDI}"
    result = CliRunner().invoke(
        cli, ["--root", str(kb_root), "topic", "run", topic, "--sources", "local:docs", "--quick"]
    )
    # the hostile words ("evil") are part of the topic, so the corpus may not answer it: either way, inert
    assert result.exit_code in (0, 1), result.output
    assert "[bold]vector[/bold] databases" in result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_error_lines_are_printable_and_one_line(tmp_path: Path) -> None:
    (tmp_path / "deepkb.yml").write_text(f"llm:\n  provider: 'x{RETITLE}\n\ny'\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "build"])
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert result.output.count("\n") == 1


def test_console_wraps_only_on_a_terminal() -> None:
    line = "Error: " + " ".join(f"word{i}" for i in range(40))  # ~280 characters
    into_file = io.StringIO()
    SafeConsole(file=into_file, force_terminal=False).print(line)
    assert into_file.getvalue() == line + "\n"
    on_terminal = io.StringIO()
    SafeConsole(file=on_terminal, force_terminal=True, width=80, color_system=None).print(line)
    assert on_terminal.getvalue().count("\n") > 1
