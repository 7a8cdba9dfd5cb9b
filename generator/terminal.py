"""What deepkb prints to a terminal: untrusted text (model output, topics, page titles, errors) made inert.

Text from a model, a web page or a repository can carry escape sequences that rewrite the terminal, bidi
overrides that make a line read differently from what it says, and lines a CI runner would take as workflow
commands. `printable` removes them; `generator.console.SafeConsole` applies it to every character it writes.
Markup is the call site's job (`rich.markup.escape`). This module imports nothing but `re`, so the one-line
error of any command costs no console library.
"""

from __future__ import annotations

import re

# ESC sequences whole (CSI, OSC up to BEL/ST, two-character escapes), then what is left of C0/DEL/C1 except
# \t and \n, then bidi embeddings/overrides/isolates (U+202A–U+202E, U+2066–U+2069).
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b.?"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


# A GitHub Actions runner reads a log line starting with `::name` (or the older `##[name]`) as a workflow
# command (`::add-mask::`, `::error::`, `::stop-commands::`): printed text gets a space between the two marks.
_WORKFLOW_COMMAND = re.compile(r"^(\s*)(:|#)(?=:|#\[)", re.MULTILINE)


def printable(text: str) -> str:
    """`text` without escape sequences, control characters (except tab and newline) or bidi overrides, and
    with no line that a CI runner would read as a workflow command."""
    text = _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", text))
    return _WORKFLOW_COMMAND.sub(r"\1\2 ", text) if ("::" in text or "##[" in text) else text
