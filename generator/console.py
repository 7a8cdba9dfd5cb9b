"""The console every command prints progress and results through: rich's, made safe for untrusted text.

Every character it writes passes `terminal.printable` (see that module for why); rich is imported only by
the commands that print through it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.errors import MarkupError
from rich.segment import Segment
from rich.text import Text

from .terminal import printable


class SafeConsole(Console):
    """A rich Console whose output never carries a control character that came from the printed text.

    It wraps lines only on a terminal: in a file or a CI log a one-line error stays one line (rich would
    otherwise wrap everything at 80 columns there)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_terminal:
            self.soft_wrap = True

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
