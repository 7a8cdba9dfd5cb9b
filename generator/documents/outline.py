"""Blocks gathered under the headings they sit below: the one place a Section's path and span are made."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .model import Block, Section


@dataclass
class Outline:
    """Sections as a reader meets headings and blocks, in source order."""

    source: list[str] = field(default_factory=list)
    """The source's lines, when known: a block's span is trimmed of blank lines at its ends."""
    sections: list[Section] = field(default_factory=list)
    heading: str = ""
    level: int = 0
    start: int = 1
    path: tuple[str, ...] = ()
    blocks: list[Block] = field(default_factory=list)
    _stack: list[tuple[int, str]] = field(default_factory=list)

    @property
    def last(self) -> Block | None:
        """The block added last in the current section."""
        return self.blocks[-1] if self.blocks else None

    def open(self, heading: str, level: int, line: int) -> None:
        """A heading of `level` at `line`: the section before it ends on the line above."""
        if (
            self.source
        ):  # a rewrite that ran a line long (reST's unclosed literal block) never points past the end
            line = min(line, len(self.source))
        self._close(line - 1)
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, heading))
        self.heading, self.level, self.start = heading, level, line
        self.path = tuple(h for _, h in self._stack)

    def add(self, block: Block) -> None:
        if block.text.strip():
            self.blocks.append(self._trimmed(block))

    def _trimmed(self, block: Block) -> Block:
        start, end = block.start, min(block.end, len(self.source) or block.end)
        while self.source and end > start and not self.source[end - 1].strip():
            end -= 1
        while self.source and start < end and not self.source[start - 1].strip():
            start += 1
        return replace(block, start=start, end=end) if (start, end) != (block.start, block.end) else block

    def finish(self, last_line: int) -> tuple[Section, ...]:
        self._close(last_line)
        return tuple(self.sections)

    def _close(self, end: int) -> None:
        if self.heading or self.blocks:
            end = max(end, self.start, *(b.end for b in self.blocks))
            end = min(end, len(self.source)) if self.source else end
            while self.source and end > self.start and not self.source[end - 1].strip():
                end -= 1
            self.sections.append(
                Section(self.heading, self.path, self.level, self.start, end, tuple(self.blocks))
            )
        self.blocks = []
