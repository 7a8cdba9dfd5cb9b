"""A docs code block that is a commented configuration file read as the configuration reference it is: each
option's key path, the value the example gives it, what its comment says and the default the comment names,
at the line of the key (nfpm's configuration.md is one 640-line commented `nfpm.yaml`, every option there).
An option the example leaves commented out (gqlgen's `# worker_limit: 1000` under "# Optional: Maximum number of
goroutines…") is an option too, marked as such: a reader looks for exactly those."""

from __future__ import annotations

import re
from dataclasses import dataclass

CONFIG_LANGUAGES = frozenset({"yaml", "yml"})
MIN_OPTIONS = 8  # commented keys that make a block a reference rather than an example with a few notes
MIN_SHARE = 0.3  # … and the share of its keys they are
VALUE_CHARS = 60  # a longer example value is cut

_KEY = re.compile(
    r"^(?P<indent>\s*)(?P<dash>-\s+)?(?P<key>[A-Za-z_][\w.-]*|\"[^\"]+\"|'[^']+')\s*:(?:\s+(?P<value>.*))?$"
)
_ITEM = re.compile(r"^(?P<indent>\s*)-\s+(?P<value>.+)$")
_COMMENT = re.compile(r"^\s*#\s?(?P<text>.*)$")
_BLOCK_SCALARS = frozenset({"|", ">", "|-", ">-", "|+", ">+"})
_TRAILING_COMMENT = re.compile(r"\s+#.*$")
# a commented-out key: `# dir: graph`, `#   ID:`; its key starts lowercase ("# Optional: turn on…" and
# "# Default: false" are prose) and its value is one token ("# note: this is how…" is prose)
_COMMENTED_KEY = re.compile(r"^(?P<indent>\s*)# ?(?P<line>\s*[a-z_][\w-]*\s*:(?:\s+.*)?)$")
_ONE_TOKEN = re.compile(r"""^(?:|"[^"]*"|'[^']*'|\[[^\]]*\]|\{[^}]*\}|[^\s"'\[{]+)$""")
_PROSE_KEYS = frozenset(
    {"note", "notes", "example", "examples", "see", "tip", "warning", "todo", "default", "eg", "ie"}
)
# "Default is `semver`", "Defaults to "debsign"", "Default: 0o002 (will remove …)", "(defaults to transparent)";
# not "Default is extracted from `version`" nor "defaults to package name": a word that goes on is no value
_DEFAULT = re.compile(
    r"\bdefaults?(?:\s+(?:is|to)|:)\s+"
    r"(?:`(?P<code>[^`]+)`|\"(?P<quoted>[^\"]+)\"|(?P<plain>[^\s,;()\"`]+?)(?=\)|[.,;]?(?:\s*$|\s+\(|\s+(?-i:[A-Z]))))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ConfigOption:
    """One option of a commented configuration block."""

    path: str  # "deb.signature.key_file"; an entry of a list is "contents[]"
    value: str  # as the example writes it ("" for a mapping)
    doc: str  # its comment, joined into one line ("" when it has none)
    default: str  # what the comment names as its default ("" when it names none)
    line: int  # 1-based line of the key in the block's file
    commented: bool = False  # the example leaves it commented out


@dataclass
class _Open:
    """An option being read: the value of a list or of a list entry grows with the lines below it."""

    path: str
    value: list[str]
    doc: str
    line: int
    commented: bool = False


def config_options(text: str, language: str, first_line: int) -> tuple[ConfigOption, ...]:
    """The options of a code block that is a commented configuration reference, in the block's order; none
    when it is not one (another language, or fewer than `MIN_OPTIONS` keys carrying a comment).
    `first_line` is the file line of the block's first line."""
    if language.lower() not in CONFIG_LANGUAGES:
        return ()
    found = _read(text.splitlines(), first_line)
    keys = sum(1 for o in found if not o.path.endswith("[]"))
    commented = sum(1 for o in found if o.doc)
    if commented < MIN_OPTIONS or commented < MIN_SHARE * max(keys, 1):
        return ()
    return tuple(found)


def _read(lines: list[str], first_line: int) -> list[ConfigOption]:
    found: list[_Open] = []
    stack: list[tuple[int, str]] = []  # (column, name) of the keys and list entries above the line
    comment: list[str] = []
    literal = -1  # the column of a key whose value is a block of text (`body: |-`): its lines are no keys
    for at, line in enumerate(lines):
        if literal >= 0 and (not line.strip() or len(line) - len(line.lstrip()) > literal):
            continue
        literal = -1
        if not line.strip():
            comment = []
            continue
        commented = _commented_key(line)
        if commented is None and (remark := _COMMENT.match(line)):
            comment.append(remark.group("text").strip())
            continue
        key = _KEY.match(commented or line)
        item = _ITEM.match(line) if not key else None
        matched = key or item
        if matched is None:
            comment = []
            continue
        indent = len(matched.group("indent"))
        dashed = bool(key.group("dash")) if key else True
        while stack and stack[-1][0] >= indent:
            stack.pop()
        doc = _joined(comment)
        comment = []
        if dashed:
            parent = _path(stack)
            stack.append((indent, "[]"))
            holder = _holder(found, parent)
            if item:  # a scalar entry: one more value of its list
                if holder is not None:
                    holder.value.append(_scalar(item.group("value")))
                continue
            # an entry: its keys are its example value; shown when its comment says what it is for
            found.append(_Open(f"{parent}[]", [], doc, first_line + at))
        assert key is not None
        name = key.group("key").strip("\"'")
        column = indent + (len(key.group("dash")) if key.group("dash") else 0)
        value = _scalar(key.group("value") or "")
        if _TRAILING_COMMENT.sub("", key.group("value") or "").strip() in _BLOCK_SCALARS:
            literal = column
        entry = _entry(found, stack)
        if entry is not None and (dashed or not doc):  # a key of a list entry: part of the entry's example
            if value:
                entry.value.append(f"{name}: {value}")
        else:
            path = _path([*stack, (column, name)])
            doc = doc or _trailing_comment(key.group("value") or "")
            found.append(_Open(path, [value] if value else [], doc, first_line + at, commented is not None))
        stack.append((column, name))
    return [_closed(o) for o in found if o.doc or (o.value and not o.path.endswith("[]"))]


def _commented_key(line: str) -> str | None:
    """`line` as the key it comments out, at the column of its `#` (`  # dir: graph` → `  dir: graph`);
    None for a comment that is prose."""
    found = _COMMENTED_KEY.match(line)
    if found is None:
        return None
    uncommented = found.group("indent") + found.group("line")
    key = _KEY.match(uncommented)
    if key is None or key.group("key").lower().replace(".", "") in _PROSE_KEYS:
        return None
    value = _TRAILING_COMMENT.sub("", key.group("value") or "").strip()
    return uncommented if _ONE_TOKEN.match(value) else None


def _path(stack: list[tuple[int, str]]) -> str:
    parts: list[str] = []
    for _, name in stack:
        if name == "[]" and parts:
            parts[-1] += "[]"
        else:  # a list at the top is "[]"
            parts.append(name)
    return ".".join(parts)


def _holder(found: list[_Open], path: str) -> _Open | None:
    """The option a list entry under `path` adds to: the list's own key, read last."""
    for option in reversed(found):
        if option.path == path:
            return option
    return None


def _entry(found: list[_Open], stack: list[tuple[int, str]]) -> _Open | None:
    """The commented list entry the key right below belongs to, when it is within one."""
    if not any(name == "[]" for _, name in stack):
        return None
    last = max(i for i, (_, name) in enumerate(stack) if name == "[]")
    entry = _path(stack[: last + 1])
    for option in reversed(found):
        if option.path == entry:
            return option
        if not option.path.startswith(entry):
            return None
    return None


def _scalar(value: str) -> str:
    value = _TRAILING_COMMENT.sub("", value).strip()
    return value if value not in _BLOCK_SCALARS else ""


def _trailing_comment(value: str) -> str:
    """The remark after a key's value (`layout: single-file # Only other option is "follow-schema"`)."""
    remark = _TRAILING_COMMENT.search(value)
    return remark.group(0).strip().lstrip("#").strip() if remark else ""


def _joined(comment: list[str]) -> str:
    return " ".join(line for line in comment if line)


def _closed(option: _Open) -> ConfigOption:
    value = ", ".join(option.value)
    if len(value) > VALUE_CHARS:
        value = value[: VALUE_CHARS - 1].rstrip(", ") + "…"
    default = _DEFAULT.search(option.doc)
    return ConfigOption(
        option.path,
        value,
        option.doc,
        next(g for g in default.groups() if g) if default else "",
        option.line,
        option.commented,
    )
