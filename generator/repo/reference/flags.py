"""Command-line flags declared in source, read from the text of the calls that declare them (never run):
click and typer options, argparse's `add_argument`, cobra/pflag and Go's `flag` package, commander's
`.option`, Rust clap (and structopt) derive attributes on a struct's fields (`#[arg(long, default_value_t =
6379)] port: u16`). Each flag keeps its default and help as written and the line that declares it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

CALL_CHARS = 2_000  # of one declaring call; a longer one is not a flag's declaration
# declaring calls read in one file: more is no command's options but a file built to make each read scan
# CALL_CHARS (20,000 unclosed `click.option(` took 16 s)
MAX_CALLS = 500
_PYTHON_CALL = re.compile(r"(?:\bclick\.option|\btyper\.Option|\.add_argument|(?<![\w.])option)\s*\(")
# what every declaring call holds, found far faster than _PYTHON_CALL's boundaries in a module that has none
_PYTHON_CALL_WORDS = re.compile(r"(?:option|Option|add_argument)\s*\(")
_PY_DECORATED = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)", re.MULTILINE)
_PY_PARSER = re.compile(r"(\w+)\.add_argument\s*\($")
_GO_CALL = re.compile(
    r"(?:(\w+)\.(?:Persistent)?Flags\(\)|\bflag|\bpflag)\.(\w+?)(Var)?(P)?\s*\(",
)
_COBRA_COMMAND = re.compile(r"(\w+)\s*:?=\s*&cobra\.Command\s*\{")
_COBRA_USE = re.compile(r"\bUse:\s*\"([\w.-]+)")
_GO_KINDS = frozenset(
    "Bool String Int Int8 Int16 Int32 Int64 Uint Uint8 Uint16 Uint32 Uint64 Float32 Float64 Duration "
    "StringSlice StringArray IntSlice BoolSlice StringToString Count IP IPNet BytesHex".split()
)
_JS_CALL = re.compile(r"\.(?:requiredOption|option)\s*\(\s*(['\"`])")
_FLAG_NAME = re.compile(r"^-{1,2}[A-Za-z0-9][\w-]*(?:/-{1,2}[A-Za-z0-9][\w-]*)?$")  # click's --x/--no-x
_COMMANDER_FLAGS = re.compile(r"(--?[A-Za-z0-9][\w-]*)")
_PY_DOCSTRING = re.compile(r"(\"\"\"|\'\'\')[\s\S]*?\1")
_PY_COMMENT = re.compile(r"(?m)^[ \t]*#.*$")
_C_COMMENT = re.compile(r"(?m)^[ \t]*//.*$|/\*[\s\S]*?\*/")
_LITERAL = r"""[rRbBuUfF]{0,2}("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)"""


@dataclass(frozen=True)
class Flag:
    """One command-line flag: `--name` as declared, its default and help as written, where it is declared,
    and the command (decorated function, parser or cobra command variable) it belongs to."""

    name: str
    default: str
    help: str
    line: int
    command: str = ""


def cli_flags(text: str, language: str) -> list[Flag]:
    """The flags `text` declares (none for a language not read here)."""
    if language == "python":
        return list(_python_flags(text))
    if language == "go":
        return list(_go_flags(text))
    if language in ("javascript", "typescript"):
        return list(_commander_flags(text))
    if language == "rust":
        return list(_clap_flags(text))
    return []


def _python_flags(text: str) -> Iterator[Flag]:
    if "option" not in text and "add_argument" not in text and "Option" not in text:
        return
    if _PYTHON_CALL_WORDS.search(text) is None:
        return
    for match in islice(_PYTHON_CALL.finditer(masked(text, _PY_DOCSTRING, _PY_COMMENT)), MAX_CALLS):
        arguments = call_arguments(text, match.end())
        if arguments is None:
            continue
        names = [s for a in arguments if "=" not in _head(a) and (s := string_value(a)) is not None]
        flags = [n for n in names if _FLAG_NAME.match(n)]
        if not flags:
            continue
        keywords = dict(_keyword(a) for a in arguments if "=" in _head(a))
        default = keywords.get("default", "")
        if match.group(0).startswith("typer") and names and not _FLAG_NAME.match(names[0]):
            default = arguments[0].strip()  # typer.Option("value", "--name"): the first argument
        help_text = string_value(keywords.get("help", "")) or ""
        yield Flag(
            _longest(flags), default, help_text, _line(text, match.start()), _python_command(text, match)
        )


def _python_command(text: str, match: re.Match[str]) -> str:
    """The decorated function a click option belongs to, or the parser an `add_argument` call is made on."""
    parser = _PY_PARSER.search(text[max(0, match.start() - 60) : match.end()])
    if parser is not None:
        return parser.group(1)
    if match.group(0).startswith(("click", "option")):
        decorated = _PY_DECORATED.search(text, match.end())
        return decorated.group(1) if decorated else ""
    return ""


def _go_flags(text: str) -> Iterator[Flag]:
    if "Flags()" not in text and "flag." not in text:
        return
    uses = _cobra_uses(text)
    for match in islice(_GO_CALL.finditer(masked(text, _C_COMMENT)), MAX_CALLS):
        command, kind, var, short = match.groups()
        if kind not in _GO_KINDS:
            continue
        arguments = call_arguments(text, match.end())
        if arguments is None:
            continue
        rest = arguments[1:] if var else arguments  # StringVar(&v, "name", …): the variable first
        if len(rest) < 2:
            continue
        name = string_value(rest[0])
        if not name:
            continue
        rest = rest[2:] if short else rest[1:]  # StringP("name", "n", …): the shorthand after the name
        default = rest[0].strip() if len(rest) >= 2 else ""
        help_text = string_value(rest[-1]) or "" if rest else ""
        yield Flag(
            f"--{name}", default, help_text, _line(text, match.start()), _go_command(text, command, uses)
        )


def _cobra_uses(text: str) -> dict[str, str]:
    """Each variable given a cobra command in `text`, with the command's name: the first word of its `Use`
    (`root := &cobra.Command{Use: "ko", …}` → "ko")."""
    found = {}
    starts = list(_COBRA_COMMAND.finditer(text))
    for at, start in enumerate(starts):
        end = starts[at + 1].start() if at + 1 < len(starts) else len(text)
        use = _COBRA_USE.search(text, start.end(), min(end, start.end() + CALL_CHARS))
        if use is not None:
            found[start.group(1)] = use.group(1)
    return found


def _go_command(text: str, variable: str | None, uses: dict[str, str]) -> str:
    """The command a Go flag belongs to: the one its cobra variable holds, by its `Use` name; none for a
    `*cobra.Command` parameter (ko's `AddPublishArg(cmd *cobra.Command, …)` adds its flags to every command
    that calls it, and `cmd` names none of them); else the variable."""
    if not variable:
        return ""
    if variable in uses:
        return uses[variable]
    if re.search(rf"[(,]\s*{re.escape(variable)}\s+\*cobra\.Command\b", text):
        return ""
    return variable


def _commander_flags(text: str) -> Iterator[Flag]:
    if "option(" not in text and "Option(" not in text:
        return
    for match in islice(_JS_CALL.finditer(masked(text, _C_COMMENT)), MAX_CALLS):
        arguments = call_arguments(text, match.end() - 1)
        if not arguments:
            continue
        declared = string_value(arguments[0]) or ""
        flags = _COMMANDER_FLAGS.findall(declared)
        if not flags:
            continue
        help_text = string_value(arguments[1]) or "" if len(arguments) > 1 else ""
        default = arguments[2].strip() if len(arguments) > 2 else ""
        yield Flag(_longest(flags), default, help_text, _line(text, match.start()))


_CLAP_ATTRIBUTE = re.compile(r"#\[(?:arg|clap|structopt)\s*\(")
# the field an attribute sits on: the first line after it declaring one (`pub port: Option<u16>,`)
_RUST_FIELD = re.compile(r"^[ \t]*(?:pub(?:\([^)\n]*\))?\s+)?([a-z_][a-z0-9_]*)\s*:(?!:)", re.MULTILINE)
_RUST_STRUCT = re.compile(r"\b(?:struct|enum)\s+([A-Za-z_]\w*)")
_RUST_DOC = re.compile(r"^[ \t]*///[ \t]?(.*)$")


def _clap_flags(text: str) -> Iterator[Flag]:
    """A clap `#[arg(…)]` (or `#[clap(…)]`, `#[structopt(…)]`) naming `long` or `short`: the flag is
    `--field-name` unless the attribute names it, its default `default_value(_t)`, its help `help` or
    the field's `///` doc comment. Positional arguments and subcommands are no flags."""
    if "#[arg" not in text and "#[clap" not in text and "#[structopt" not in text:
        return
    lines = text.splitlines()
    for match in islice(_CLAP_ATTRIBUTE.finditer(masked(text, _C_COMMENT)), MAX_CALLS):
        arguments = call_arguments(text, match.end())
        if not arguments:
            continue
        keywords = dict(_keyword(a) for a in arguments if "=" in _head(a))
        bare = {a.strip() for a in arguments if "=" not in _head(a)}
        if not ({"long", "short"} & (bare | set(keywords))) or {"subcommand", "flatten"} & bare:
            continue
        field = _RUST_FIELD.search(text, match.end())
        if field is None:
            continue
        long = string_value(keywords.get("long", "")) or field.group(1).replace("_", "-")
        short = string_value(keywords.get("short", "")) or ""
        name = f"--{long}" if "long" in bare | set(keywords) else f"-{short or field.group(1)[0]}"
        default = string_value(keywords.get("default_value", "")) or keywords.get("default_value_t", "")
        help_text = string_value(keywords.get("help", "")) or rust_doc(lines, _line(text, match.start()))
        owner = _RUST_STRUCT.findall(text, 0, match.start())
        yield Flag(name, default, help_text, _line(text, field.start()), owner[-1] if owner else "")


def rust_doc(lines: list[str], line: int) -> str:
    """The `///` comment above the attribute or field on `line` (attributes between them skipped)."""
    said: list[str] = []
    index = line - 2
    while index >= 0:
        text = lines[index].strip()
        doc = _RUST_DOC.match(lines[index])
        if doc is not None:
            said.append(doc.group(1))
        elif not text.startswith("#["):
            break
        index -= 1
    return " ".join(" ".join(reversed(said)).split())


def masked(text: str, *patterns: re.Pattern[str]) -> str:
    """`text` with what `patterns` match (docstrings, comments) blanked, line breaks and offsets kept: an
    example in a docstring declares no flag."""
    for pattern in patterns:
        text = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return text


def call_arguments(text: str, start: int) -> list[str] | None:
    """The top-level arguments of the call whose argument list starts at `start` (just after its `(`), as
    written; None when it does not close within CALL_CHARS."""
    arguments: list[str] = []
    depth, current, quote = 0, start, ""
    i = start
    end = min(len(text), start + CALL_CHARS)
    while i < end:
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                arguments.append(text[current:i])
                return [a.strip() for a in arguments if a.strip()]
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(text[current:i])
            current = i + 1
        elif char == "#" and text[i - 1 : i] in (" ", "\n", "\t"):
            newline = text.find("\n", i)
            i = end if newline < 0 else newline
            continue
        i += 1
    return None


def string_value(argument: str) -> str | None:
    """A string literal's text (implicitly joined literals joined), or None when `argument` is not one."""
    parts = re.findall(_LITERAL, argument)
    if not parts or re.sub(r"(?m)(?:#|//).*$", "", re.sub(_LITERAL, "", argument)).strip():
        return None  # something besides literals and comments: an expression
    return " ".join("".join(p[1:-1] for p in parts).split())


def _head(argument: str) -> str:
    """What comes before the argument's first string or bracket (`help=` of `help="a=b"`)."""
    return re.split(r"""["'`(\[{]""", argument, maxsplit=1)[0]


def _keyword(argument: str) -> tuple[str, str]:
    name, _, value = argument.partition("=")
    return name.strip(), " ".join(value.split())


def _longest(flags: list[str]) -> str:
    return max(flags, key=lambda f: (f.startswith("--"), len(f)))


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
