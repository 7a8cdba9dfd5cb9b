"""Build settings a user of a C, C++ or Rust project chooses, read from the text that declares them (never
run): CMake's `option(NAME "help" ON)`, a Cargo manifest's `[features]` (the default ones marked), and a
macro a build may define before a header sets its default (`#ifndef CJSON_NESTING_LIMIT` / `#define
CJSON_NESTING_LIMIT 1000`). Each keeps its default and help as written and the line that declares it."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

CMAKE = "CMake option"
CARGO = "Cargo feature"
MACRO = "compile-time setting"
_CMAKE_OPTION = re.compile(
    r"^[ \t]*option\s*\(\s*([A-Za-z_]\w*)\s+\"([^\"\n]*)\"\s*([^)\s]*)\s*\)", re.M | re.I
)
# a default a build may override: `#ifndef NAME` with `#define NAME value` right under it (an include
# guard defines no value)
# (led by its literal `#`, which Python's scan finds fast; that it opens its line is checked apart)
_OVERRIDABLE = re.compile(
    r"#[ \t]*ifndef[ \t]+([A-Za-z_]\w*)[ \t]*(?://[^\n]*|/\*[^\n]*?\*/)?[ \t]*\n"
    r"[ \t]*#[ \t]*define[ \t]+\1[ \t]+([^\n]*?)[ \t]*(?://[^\n]*|/\*[^\n]*?\*/)?[ \t]*$",
    re.MULTILINE,
)
# a setting's default is a number (an expression of numbers: `(1<<30)`, `-2000`) or a string; a macro
# defined as an expression of names or over several lines is a portability shim, not a setting
_SETTING_VALUE = re.compile(r'"[^"\n]*"|(?=[^\n]*\d)[-+~()\s\dxXa-fA-FuUlL.*/<>|&]+')
_COMMENT_ABOVE = re.compile(r"^\s*(?://+|/?\*+/?|#)\s?")
MAX_HELP = 200


@dataclass(frozen=True)
class Setting:
    """One build setting: its name, kind (CMAKE, CARGO, MACRO), default and help as written, its line."""

    name: str
    kind: str
    default: str
    help: str
    line: int


def cmake_options(text: str) -> list[Setting]:
    """The `option()` calls of a CMakeLists.txt."""
    if "option" not in text.lower():
        return []
    return [
        Setting(m.group(1), CMAKE, m.group(3), m.group(2).strip(), _line(text, m.start()))
        for m in _CMAKE_OPTION.finditer(text)
    ]


def cargo_features(text: str) -> list[Setting]:
    """The features a Cargo.toml declares, each with what it enables; the default ones marked on."""
    if "[features]" not in text:
        return []
    try:
        features = tomllib.loads(text).get("features", {})
    except tomllib.TOMLDecodeError:
        return []
    if not isinstance(features, dict):
        return []
    defaults = set(features.get("default", []) or [])
    start = text.find("[features]")
    found = []
    for name, enables in features.items():
        if name == "default" or not isinstance(enables, list):
            continue
        at = re.compile(rf"^[ \t]*\"?{re.escape(name)}\"?[ \t]*=", re.MULTILINE).search(text, start)
        listed = ", ".join(str(e) for e in enables)
        help_text = f"enables {listed}" if listed else ""
        found.append(
            Setting(
                name,
                CARGO,
                "on" if name in defaults else "off",
                help_text,
                _line(text, at.start()) if at else 1,
            )
        )
    return found


def overridable_macros(text: str) -> list[Setting]:
    """The macros a header gives a default only when the build has not defined them, with the comment
    right above the `#ifndef`."""
    if "#ifndef" not in text and "# ifndef" not in text:
        return []
    lines: list[str] | None = None
    found = []
    for match in _OVERRIDABLE.finditer(text):
        opened = text.rfind("\n", 0, match.start()) + 1
        if text[opened : match.start()].strip():
            continue  # `#ifndef` inside a line is no directive
        if not _SETTING_VALUE.fullmatch(match.group(2).strip()):
            continue  # a portability shim (`#define LOCKABLE THREAD_ANNOTATION_ATTRIBUTE__(lockable)`)
        lines = lines if lines is not None else text.splitlines()
        line = _line(text, match.start())
        found.append(
            Setting(match.group(1), MACRO, match.group(2).strip(), _comment_above(lines, line), line)
        )
    return found


def _comment_above(lines: list[str], line: int) -> str:
    said: list[str] = []
    index = line - 2
    while index >= 0 and lines[index].strip().startswith(("//", "/*", "*")):
        said.append(_COMMENT_ABOVE.sub("", lines[index].strip()).removesuffix("*/").strip())
        index -= 1
    return " ".join(" ".join(reversed(said)).split())[:MAX_HELP]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
