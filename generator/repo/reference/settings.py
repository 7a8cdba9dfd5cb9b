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
_OVERRIDABLE = re.compile(
    r"^[ \t]*#[ \t]*ifndef[ \t]+([A-Za-z_]\w*)[ \t]*(?://[^\n]*|/\*[^\n]*?\*/)?[ \t]*\n"
    r"[ \t]*#[ \t]*define[ \t]+\1[ \t]+([^\n]*?)[ \t]*(?://[^\n]*|/\*[^\n]*?\*/)?[ \t]*$",
    re.MULTILINE,
)
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
    lines = text.splitlines()
    found = []
    for match in _OVERRIDABLE.finditer(text):
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
