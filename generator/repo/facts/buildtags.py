"""Go build constraints: whether a file is built only under a tag the default build never sets (`//go:build
gofuzz`, `ignore`, `tools`, `integration`). Such a file is a fuzz harness, a generator script or a tool's
import list, about the code rather than the code: no flow starts there, as none starts in a `_test.go`."""

from __future__ import annotations

import itertools
import re

# what a default build may set on some platform: operating systems, architectures, `unix`, `cgo`, the
# compilers, Go versions (https://pkg.go.dev/cmd/go#hdr-Build_constraints)
_PLATFORM = frozenset(
    {
        *"aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris"
        " wasip1 windows zos unix".split(),
        *"386 amd64 amd64p32 arm arm64 arm64be armbe loong64 mips mips64 mips64le mips64p32 mips64p32le mipsle"
        " ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm".split(),
        "cgo",
        "gc",
        "gccgo",
    }
)
_GO_VERSION = re.compile(r"^go1\.\d+$")
_TOKEN = re.compile(r"\s*(\(|\)|!|&&|\|\||[\w.]+)")
_OPERATORS = frozenset({"(", ")", "!", "&&", "||"})
MAX_PLATFORM_TAGS = 8  # tags of a platform tried in every combination; more, and the file is taken as built


def needs_tag(text: str) -> bool:
    """Whether the Go source `text` is built only with a tag the default build never sets: its `//go:build`
    line (else its `// +build` lines), read before the package clause, is false on every platform when each
    other tag is unset. A file for one platform (`//go:build windows`) is built by default there."""
    expression = _constraint(text)
    if not expression:
        return False
    tokens = _TOKEN.findall(expression)
    names = sorted({t for t in tokens if t not in _OPERATORS})
    platform = [n for n in names if n in _PLATFORM]
    if len(platform) > MAX_PLATFORM_TAGS:
        return False
    for values in itertools.product((False, True), repeat=len(platform)):
        tags = {n: bool(_GO_VERSION.match(n)) for n in names} | dict(zip(platform, values, strict=True))
        try:
            if _Evaluation(tokens, tags).expression():
                return False
        except ValueError:
            return False  # a constraint we cannot read: the file is taken as built
    return True


def _constraint(text: str) -> str:
    """The file's build constraint as one `//go:build` expression; '' without one."""
    plus: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("package ") or stripped == "package":
            break
        if stripped.startswith("//go:build "):
            return stripped.removeprefix("//go:build ")
        if stripped.startswith("// +build "):
            # `// +build a,b c`: a space is an or, a comma an and; several lines are and-ed
            options = stripped.removeprefix("// +build ").split()
            plus.append("(" + " || ".join("(" + o.replace(",", " && ") + ")" for o in options) + ")")
    return " && ".join(plus)


class _Evaluation:
    """A `//go:build` expression's value under `tags`: `||` of `&&` of `!` and parentheses."""

    def __init__(self, tokens: list[str], tags: dict[str, bool]) -> None:
        self.tokens, self.tags, self.at = tokens, tags, 0

    def expression(self) -> bool:
        value = self._or()
        if self.at != len(self.tokens):
            raise ValueError("trailing tokens")
        return value

    def _or(self) -> bool:
        value = self._and()
        while self._take("||"):
            value = self._and() or value
        return value

    def _and(self) -> bool:
        value = self._not()
        while self._take("&&"):
            value = self._not() and value
        return value

    def _not(self) -> bool:
        if self._take("!"):
            return not self._not()
        if self._take("("):
            value = self._or()
            if not self._take(")"):
                raise ValueError("unclosed parenthesis")
            return value
        if self.at >= len(self.tokens) or self.tokens[self.at] in _OPERATORS:
            raise ValueError("a tag expected")
        self.at += 1
        return self.tags[self.tokens[self.at - 1]]

    def _take(self, token: str) -> bool:
        if self.at < len(self.tokens) and self.tokens[self.at] == token:
            self.at += 1
            return True
        return False
