"""What deepkb prints to a terminal: untrusted text (model output, topics, page titles, errors) made inert.

Text from a model, a web page or a repository can carry escape sequences that clear the screen, retitle the
terminal or rewrite earlier lines, and bidi overrides that make a line read differently from what it says.
`printable` removes them; `SafeConsole` applies it to every character it writes, whatever the call site, and
keeps its own styling and cursor control (those are not in the text). Markup is the call site's job:
`rich.markup.escape` every untrusted piece put into a markup string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.errors import MarkupError
from rich.segment import Segment
from rich.text import Text

# ESC sequences whole (CSI, OSC up to BEL/ST, two-character escapes), then what is left of C0/DEL/C1 except
# \t and \n, then bidi embeddings/overrides/isolates (U+202A–U+202E, U+2066–U+2069).
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b.?"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` without escape sequences, control characters (except tab and newline) or bidi overrides."""
    return _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", text))


class SafeConsole(Console):
    """A rich Console whose output never carries a control character that came from the printed text."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        # Rich's own cursor moves are control segments and its colours live in styles, so cleaning the text
        # of every other segment removes exactly what the printed values brought in.
        return super()._render_buffer(
            segment if segment.control else Segment(printable(segment.text), segment.style)
            for segment in buffer
        )

    def print(self, *objects: Any, **options: Any) -> None:
        # whole sequences go before markup and highlighting split the text into segments
        objects = tuple(printable(o) if isinstance(o, str) else o for o in objects)
        try:
            super().print(*objects, **options)
        except MarkupError:  # a stray "[/x]" in untrusted text: print it as it is rather than crash the run
            super().print(*objects, **{**options, "markup": False})

    def rule(self, title: str | Text = "", **options: Any) -> None:
        # rule titles are a topic or a repository source: never markup
        super().rule(Text(printable(title)) if isinstance(title, str) else title, **options)
