"""How much work reading one untrusted document may take: seconds, and decompressed bytes counted across
its pages. The run's deadline (generator/deadlines.py) reaches it: a document is not read past it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import deadlines

PARSE_SECONDS = 15.0
PARSE_BYTES = 4 * 1024 * 1024  # decompressed content a PDF's text is read from (about 2 s of pypdf per MB)


@dataclass
class Budget:
    """A reader spends bytes as it decompresses and asks `exhausted()` before each step."""

    seconds: float = PARSE_SECONDS
    max_bytes: int = PARSE_BYTES
    clock: deadlines.Clock = field(default=time.monotonic, compare=False)
    used_bytes: int = 0
    started: float | None = None

    def start(self) -> None:
        if self.started is None:
            self.started = self.clock()

    def spend(self, size: int) -> bool:
        """Count `size` decompressed bytes; False (nothing counted) when they do not fit what is left."""
        if self.used_bytes + size > self.max_bytes:
            return False
        self.used_bytes += size
        return True

    def exhausted(self) -> str:
        """Why reading must stop now ("" while it may go on)."""
        self.start()
        run = deadlines.current()
        if run is not None and run.remaining() <= 0:
            return run.total_reason()
        if self.started is not None and self.clock() - self.started > self.seconds:
            return f"reading took longer than {self.seconds:g} s"
        if self.used_bytes >= self.max_bytes:
            return f"more than {self.max_bytes} decompressed bytes"
        return ""
