"""`deepkb ask "QUESTION"`: the passages of the knowledge base that answer it, each cited, and their pages."""

from __future__ import annotations

import click

from ..errors import UsageError
from ..kb.answer import Answer, answer_question
from ..kb.ask import MAX_QUESTION, Found
from ..kb.passages import Cite
from .app import App, echo_json, pass_app
from .knowledge import clean

NOT_ANSWERED = 4  # exit code of a question nothing in the knowledge base answers


@click.command()
@click.argument("question")
@click.option(
    "--limit", "-n", type=click.IntRange(1, 20), default=5, show_default=True, help="Most passages."
)
@click.option(
    "--offline", is_flag=True, help="Only the passages, even when a model is configured (no model call)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@pass_app
def ask(app: App, question: str, limit: int, offline: bool, as_json: bool) -> None:
    """Answer QUESTION from every repository and topic, with cited passages and the pages they are on."""
    if not question.strip():
        raise UsageError("the question is empty", hint='e.g. deepkb ask "how are sessions stored?"')
    if len(" ".join(question.split())) > MAX_QUESTION:
        raise UsageError(
            f"the question is {len(question)} characters long; at most {MAX_QUESTION} are read",
            hint="ask a shorter question",
        )
    if not app.paths.site_src.is_dir():
        raise UsageError(
            f"{app.paths.root} holds no knowledge base (no site_src/)", hint="pass --root or cd into it"
        )
    answer = answer_question(app.paths, question, None if offline else app.provider(), limit=limit)
    if as_json:
        echo_json(answer.to_json())
    else:
        _print(app, answer)
    if not answer.answered:
        raise click.exceptions.Exit(NOT_ANSWERED)


def _print(app: App, answer: Answer) -> None:
    if not answer.answered:
        app.console.print(
            f"Nothing in the knowledge base answers {clean(answer.question)!r}"
            f" (looked for: {clean(', '.join(answer.concepts)) or 'no content words'})."
        )
        return
    if answer.text:
        click.echo(clean(answer.text))
        dropped = f", {answer.citations_dropped} dropped" if answer.citations_dropped else ""
        click.echo(f"  ({answer.citations_checked} citations checked{dropped})")
        click.echo("")
    for number, found in enumerate(answer.found, 1):
        _print_found(number, found)
    click.echo("Pages:")
    for page in answer.pages:
        click.echo(f"  {clean(page.title)} — {page.page} ({page.entry})")


def _print_found(number: int, found: Found) -> None:
    where = (
        f"{clean(found.page_title)} › {clean(found.heading)}" if found.heading else clean(found.page_title)
    )
    click.echo(f"[{number}] {clean(found.text)}")
    for cite in found.cites[:3]:
        click.echo(f"    cite: {clean(cite_text(cite))}")
    click.echo(f"    from: {where} — {found.page}")


def cite_text(cite: Cite) -> str:
    """A citation as one line: its permalink, its `path:line`, or the stored source it quotes."""
    if cite.url and cite.path:
        return f"{cite.path}:{cite.line} {cite.url}"
    if cite.url:
        return f"{cite.label} {cite.url}" if cite.label != cite.url else cite.url
    if cite.path:
        return f"{cite.path}:{cite.line}"
    return f"{cite.label} (stored source {cite.page})"
