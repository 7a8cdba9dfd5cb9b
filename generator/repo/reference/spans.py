"""Fields of Go structs and TypeScript interfaces, the methods of Go interfaces and the parameter types of a
function, read from the lines of their definitions (the facts give each definition's span), and environment
variables JavaScript and Go code reads."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import dropwhile, takewhile

from generator.documents.comment import GO_MARKER, comment_above, inline_tags
from generator.repo.facts.prose import in_english
from generator.repo.facts.tscalls import innermost
from generator.repo.model import Symbol

_GO_FIELD = re.compile(r"^\s*([A-Za-z_]\w*)\s+([^\s`/][^`/]*?)\s*(?:`[^`]*`)?\s*(?://.*)?$")
_GO_METHOD = re.compile(r"^\s*([A-Z]\w*)\s*\(")
_TS_FIELD = re.compile(r"^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)(\??)\s*:\s*([^;,]+?)\s*[;,]?\s*(?://.*)?$")
_ENV = {
    "go": re.compile(r"\bos\.(?:Getenv|LookupEnv)\(\s*\"([^\"\n]+)\"\s*\)"),
    "javascript": re.compile(r"\bprocess\.env(?:\.([A-Za-z_]\w*)|\[\s*['\"]([^'\"\n]+)['\"]\s*\])"),
}
_ENV["typescript"] = _ENV["javascript"]
# Rust `env::var("X")`, `std::env::var_os("X")`, `option_env!("X")`; C and C++ `getenv("X")`
_ENV["rust"] = re.compile(r"\b(?:env::var(?:_os)?\(|option_env!\()\s*\"([^\"\n]+)\"\s*\)")
_ENV["c"] = re.compile(r"\b(?:secure_)?getenv\s*\(\s*\"([^\"\n]+)\"\s*\)")
_ENV["cpp"] = _ENV["c"]
# an annotated parameter's type, through an array or a sequence of it: `loaders: LayoutLoaderDefinition[]`,
# `...diagrams: ExternalDiagramDefinition[]`, `plugin: Sequence[Plugin]`
_PARAM_TYPE = re.compile(
    r"[A-Za-z_$][\w$]*\??\s*:\s*(?:readonly\s+)?"
    r"(?:(?:Array|ReadonlyArray|Iterable|list|List|Sequence|tuple|Tuple)\s*[<\[]\s*)?([A-Z][\w$]*)"
)
SIGNATURE_LINES = 12  # a signature longer than this is not read past


def struct_fields(lines: list[str], language: str) -> list[tuple[str, str, int]]:
    """(name, type, 1-based offset in `lines`) of each field declared one to a line between the braces; in
    TypeScript only the outer braces' own fields, never a line of a doc comment (an `@example`'s
    `https: {`) or of a nested object's type."""
    if language != "go":
        return _ts_fields(lines)
    found = []
    for offset, line in enumerate(lines[1:-1], 2):
        match = _GO_FIELD.match(line)
        if match is not None and match.group(1) not in {"func", "return", "type"}:
            found.append((match.group(1), match.group(2).strip(), offset))
    return found


def _ts_fields(lines: list[str]) -> list[tuple[str, str, int]]:
    found = []
    depth, in_comment = 0, False
    opener = next((i for i, line in enumerate(lines[:-1]) if "{" in line), 0)  # `extends …` may come first
    for offset, line in enumerate(lines[opener + 1 : -1], opener + 2):
        text = line.strip()
        if in_comment or text.startswith("/*"):
            in_comment = "*/" not in text
            continue
        match = (_TS_FIELD.match(line) or _ts_function_field(line)) if depth == 0 else None
        if match is not None and match.group(1) != "return":  # a field may be named `type`
            kind = match.group(3).strip()
            optional = " (optional)" if match.group(2) else ""
            found.append((match.group(1), _OPENED.get(kind, kind) + optional, offset))
        # a nested object's or a multi-line function type's own lines are not fields (mermaid's
        # `injectUtils?: (` and its parameters, one a line)
        code = text.split("//", 1)[0]  # a trailing comment's "(e.g." opens nothing
        depth = max(0, depth + sum(code.count(c) for c in "{([") - sum(code.count(c) for c in "})]"))
    return found


_OPENED = {"{": "{…}", "(": "(…) => …", "[": "[…]"}  # a type that goes on over the next lines
# a field whose type holds commas within its parentheses: superstruct's `validator: (value: unknown, context:
# Context) => Iterable<Failure>`
_TS_FUNCTION_FIELD = re.compile(
    r"^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)(\??)\s*:\s*(\(.*?)\s*;?\s*(?://.*)?$"
)


def _ts_function_field(line: str) -> re.Match[str] | None:
    """A field typed by a function whose parameters, on its own line, hold commas."""
    match = _TS_FUNCTION_FIELD.match(line)
    if match is None:
        return None
    depth = 0
    for char in match.group(3).replace("=>", "  "):
        depth += (char in "(<[{") - (char in ")>]}")
        if depth < 0 or (depth == 0 and char == ","):
            return None
    return match if depth == 0 else None


# a default stated in a field's comment: echo's "Optional. Default value false", "Defaults to …", TSDoc's
# "@default []"
_STATED_DEFAULT = re.compile(
    r"(?:\bDefault values?(?:\s+(?:is|are)(?=\s))?|\bDefaults to|\bDefault:|@default)\s+(\S.*?)\s*$"
)
# where a stated default's value ends and its explanation starts: "false, in which case …", "0 - meaning …",
# "empty list. No domains …", "5 * MB (5,242,880 bytes)"
_VALUE_END = re.compile(r",\s|\s-\s|\.\s|\s\(")
# a default written as code (TSDoc's "@default `false`", "Defaults to `{ a, b }`."): the code span is the value
_CODE_VALUE = re.compile(r"^(`+)([^`]+)\1")
_COMMENT_MARK = re.compile(r"^\s*(?://+|/\*+|\*+/?|\*/)\s?")
# the default a Go marker gives a field, for the CRD its type generates: chainsaw's
# `+kubebuilder:default:="30s"`, traefik's `+kubebuilder:default=minimal`, a `+default=…`
_MARKER_DEFAULT = re.compile(r"^\+(?:kubebuilder:)?default(?::=|=)(\S.*)$")


# a package-level value of a record's defaults: `var DefaultOptions = &Options{`, fiber's `var ConfigDefault =
# Config{`, bigcache's `func DefaultConfig(…) Config {` … `return Config{`
# … unexported too: machinery's `defaultCnf = &Config{`, thanos' `defaultMemcachedClientConfig = …{`, kueue's
# `var defaultOptions = …Options{`, amqp091-go's `defaultURI = URI{`, karmada's `func defaultJobInitOptions()`
_GO_DEFAULTS_VAR = re.compile(r"^(?:var\s+)?\s*(\w*[Dd]efault\w*)\s*=\s*&?([A-Z]\w*)\{\s*$")
_GO_DEFAULTS_FUNC = re.compile(r"^func\s+(\w*[Dd]efault\w*)\s*\(")
_GO_RETURNED = re.compile(r"^\s*return\s+&?([A-Z]\w*)\{\s*$")
# …or the record's own constructor, or `init()`: melody's `func newConfig() *Config {` … `return &Config{`,
# paho.mqtt's `func NewClientOptions()` … `o := &ClientOptions{`, zinx's `func init() {` …
# `GlobalObject = &Config{`
_GO_CONSTRUCTOR = re.compile(r"^func\s+(?:[Nn]ew(\w+)|init)\s*\(")
_GO_BUILT = re.compile(r"^\s*(?:return\s+|[\w.]+\s*:?=\s*)&?([A-Z]\w*)\{\s*$")
_GO_KEYED = re.compile(r"^\s*([A-Z]\w*)\s*:\s*(.+?),?\s*$")  # its line's comment split off first
# a line's `//` comment, not a `//` inside a string ("amqp://guest@localhost:5672/"): an even number of quotes after
_GO_COMMENT = re.compile(r'//(?=(?:[^"`]*["`][^"`]*["`])*[^"`]*$)')
DEFAULT_CHARS = 60  # a default value longer than this (a function literal) is not shown
FUNCTION_LINES = 60  # a defaults function's literal is looked for this far into its body


def go_defaults(lines: list[str]) -> dict[str, dict[str, str]]:
    """The defaults a Go file gives its records' fields in a composite literal named for defaults (bbolt's
    `var DefaultOptions = &Options{Timeout: 0, …}`, fiber's `ConfigDefault`, echo's `DefaultCSRFConfig`,
    bigcache's `DefaultConfig()`), built by the record's own constructor (melody's `newConfig()`) or set up by
    `init()`: record name → field → value as written, one-line values only; of a constructor's or `init()`'s
    literal only the constants (never a parameter passed through or a value computed there)."""
    found: dict[str, dict[str, str]] = {}
    for at, line in enumerate(lines):
        start = _GO_DEFAULTS_VAR.match(line)
        if start is not None:
            found.setdefault(start.group(2), {}).update(_keyed_values(lines, at + 1))
            continue
        literal = _built_literal(lines, at)
        if literal is not None:
            opening, record, named = literal
            values = _keyed_values(lines, opening + 1)
            # a function's literal sets values it computes (`time.Now().UnixNano()`, `make(chan int)`, a
            # local's `pwd + "/log"`) beside the defaults: only the constants are a record's defaults, unless
            # the function is named for them
            found.setdefault(record, {}).update(
                (k, v) for k, v in values.items() if named or _GO_CONSTANT.fullmatch(v)
            )
    return found


# a Go constant expression: a literal, a named constant (`ServerModeTcp`, `time.Second`) or arithmetic of
# them (`10 * time.Second`, `1 << 20`); never a call, a composite, a local or a parameter
_GO_OPERAND = r"""(?:-?\d[\w.]*|"[^"\n]*"|`[^`\n]*`|'[^'\n]*'|true|false|nil|(?:[a-z]\w*\.)?[A-Z]\w*)"""
_GO_CONSTANT = re.compile(rf"{_GO_OPERAND}(?:\s*(?:[-+*/%|&^]|<<|>>)\s*{_GO_OPERAND})*")


def _built_literal(lines: list[str], at: int) -> tuple[int, str, bool] | None:
    """Where the function declared on line `at` builds its defaults: a defaults function's `return T{`, a
    constructor's literal of the record it is named for (`newConfig` → `Config{`) or `init()`'s; as (its
    line, the record, whether the function is named for defaults)."""
    line = lines[at]
    named = _GO_DEFAULTS_FUNC.match(line)
    built = None if named else _GO_CONSTRUCTOR.match(line)
    if named is None and built is None:
        return None
    pattern = _GO_RETURNED if named else _GO_BUILT
    for i in range(at + 1, min(at + FUNCTION_LINES, len(lines))):
        if lines[i].startswith("}"):
            return None  # the function ended without one
        if (match := pattern.match(lines[i])) is not None:
            record = match.group(1)
            if built is not None and built.group(1) and built.group(1).lower() != record.lower():
                return None  # a constructor's literal of another type than the one it is named for
            return i, record, built is None
    return None


def _keyed_values(lines: list[str], start: int) -> dict[str, str]:
    """`Field: value,` of the literal opening on the line before `start`, its own level only."""
    values: dict[str, str] = {}
    depth = 1
    for line in lines[start:]:
        code = _GO_COMMENT.split(line, maxsplit=1)[0]
        if depth == 1 and (keyed := _GO_KEYED.match(code)):
            value = keyed.group(2).strip()
            if value.count("{") == value.count("}") and value.count("(") == value.count(")"):
                if len(value) <= DEFAULT_CHARS:
                    values[keyed.group(1)] = value
        depth += code.count("{") - code.count("}")
        if depth <= 0:
            break
    return values


def field_comment(lines: list[str], offset: int) -> tuple[str, str]:
    """The comment of the field on line `offset` (1-based in `lines`): the `//` lines or the `/** … */` block
    right above it, else its own line's trailing `// …`, as (its first paragraph, the default it states).
    The paragraph stops at a blank line or a doc tag (`@example`) and leaves out the lines stating the
    default or that the field is optional; inline tags (`{@link Type}`) read as the words a reader sees."""
    above = comment_above(lines, offset - 2)[1]
    own = _trailing_comment(lines[offset - 1]) if not above else ""
    said = [_COMMENT_MARK.sub("", line.strip()).strip() for line in above] if above else [own.strip()]
    said = [line.removesuffix("*/").rstrip() for line in said]  # a one-line `/** Read version */`
    default, ended = "", False
    prose: list[str] = []
    for line in said:
        if GO_MARKER.match(line):  # never prose: a `+kubebuilder:default` one gives the default
            marked = _MARKER_DEFAULT.match(line)
            default = default or (marked.group(1) if marked else "")
            continue
        stated = _STATED_DEFAULT.search(line)
        if stated is not None and not default:
            code = _CODE_VALUE.match(stated.group(1))
            value = code.group(2).strip() if code else stated.group(1)
            default = value if code else _VALUE_END.split(value, maxsplit=1)[0].removesuffix(".")
        ended = ended or line.startswith("@") or (not line and bool(prose))
        said_before = line[: stated.start()].strip() if stated is not None else line
        if not ended and said_before not in {"", "Optional.", "Mandatory.", "Required."}:
            prose.append(said_before)
    # `{@link signal}` reads "signal"; a comment said in Chinese then in English (gws) reads in English
    text = inline_tags(" ".join(in_english("\n".join(prose)).split()))
    default = inline_tags(default)
    return text, "" if default.lower() == "none" else default


def _trailing_comment(line: str) -> str:
    """A field line's own comment after its code: `// …`, or a C `/* … */` closing the line (hiredis'
    `int type; /* REDIS_REPLY_* */`)."""
    if "//" in line:
        return line.partition("//")[2]
    if "/*" in line and line.rstrip().endswith("*/"):
        return line.partition("/*")[2].rstrip().removesuffix("*/")
    return ""


# a Go function's name and where its parameters open (past a method's receiver and type parameters)
_GO_SIGNATURE = re.compile(r"^func\s*(?:\([^)]*\)\s*)?\w+\s*(?:\[[^\]]*\])?\(")
# a parameter that is a function: `fn func(*Session, []byte)`, `handler HandlerFunc`, `cb OnEvictCallback`
_GO_FUNC_PARAM = re.compile(
    r"(?:^|,)\s*(\w+)\s+(?:func\s*\(|\*?(?:\w+\.)?\w*(?:Func|Handler|Callback|Hook)\b)"
)


def go_callback_parameters(lines: list[str]) -> list[str]:
    """The parameters of the Go function in `lines` that are functions: `fn func(*Session, []byte)`,
    `handler HandlerFunc`, `cb OnEvictCallback`."""
    signature = ""
    for line in lines[:SIGNATURE_LINES]:
        signature += line.split("//", 1)[0] + " "
        if line.rstrip().endswith("{"):
            break
    opened = _GO_SIGNATURE.match(signature)
    if opened is None:
        return []
    depth, at = 1, opened.end()
    while at < len(signature) and depth:
        depth += {"(": 1, ")": -1}.get(signature[at], 0)
        at += 1
    return [m.group(1) for m in _GO_FUNC_PARAM.finditer(signature[opened.end() : at - 1])]


def go_stored_callbacks(lines: list[str], names: Sequence[str]) -> list[str]:
    """Which of `names` (the function's function parameters) the Go function in `lines` keeps: assigned to a
    field or an entry (melody's `m.messageHandler = fn`, redcon's `m.handlers[command] = handler`), appended
    to one (`hs.handlers = append(hs.handlers, h)`) or set in a literal (`handler: handler,`) — a hook the
    caller plugs in, not a callback called there and then (`db.View(fn)`, `cache.ForEach(fn)`)."""
    body = "\n".join(lines[1:])
    return [
        name
        for name in names
        if re.search(
            rf"^\s*(?:[\w.]+\.\w+|\w+(?:\.\w+)*\[[^\]\n]*\])\s*=\s*(?:append\([^,\n]+,\s*)?(?:[\w.]+\()?{name}\b"
            rf"|^\s*\w+\s*:\s*(?:[\w.]+\()?{name}\b\)?,?\s*$",
            body,
            re.MULTILINE,
        )
    ]


def go_passed_on(lines: list[str], names: Sequence[str]) -> set[str]:
    """The functions and methods (by their last name) the Go function in `lines` hands one of `names` to:
    redcon's `HandleFunc` calls `m.Handle(command, HandlerFunc(handler))`."""
    body = "\n".join(lines[1:])
    return {
        call.group(1)
        for name in names
        # … as an argument, or wrapped in one (`HandlerFunc(handler)`)
        for call in re.finditer(rf"\b(\w+)\s*\((?:[^()\n]|\([^()\n]*\))*?(?:\(\s*)?\b{name}\b", body)
    }


# a JavaScript function's options parameter: `function morgan (format, options)`, `constructor(config)`,
# `(opts = {}) =>`
_JS_PARAMETERS = re.compile(r"^[^(]*?\(([^)]*)\)")
_JS_OPTIONS_NAME = re.compile(r"(?:^|,)\s*(options|opts|config|settings)\b\s*(?:=\s*\{\s*\})?\s*(?=,|$)")
# a local standing for it: morgan's `var opts = options || {}`, `const o = Object.assign({}, options)`
_JS_ALIAS = r"(?:var|let|const)\s+(\w+)\s*=\s*(?:{name}\s*(?:\|\||\?\?)\s*\{{\s*\}}|Object\.assign\(\s*\{{\s*\}}\s*,\s*{name}\s*\)|\{{\s*\.\.\.{name}\s*\}})"
_JS_VALUE = r"((?:'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|[\w$.]+(?:\([^()\n]*\))?|\[[^\]\n]*\]|\{\s*\})(?:\s*[-+*/]\s*[\w$.]+)*)"
MIN_OPTION_READS = 2  # one property read off a parameter is a value, not a set of options


def js_option_reads(lines: list[str]) -> list[tuple[str, str, int, str]]:
    """The options a JavaScript function takes in its options parameter, as (name, default, 1-based offset in
    `lines`, what its comment says): first the keys of an object of defaults the parameter is spread over
    (bree's `this.config = { logger: console, root: resolve('jobs'), …, ...config }`, each with the comment
    above it), then the properties the function reads off it with the default each falls back to
    (`opts.skip || false`, `options.port ?? 80`, `options.retries ??= 10`, `const { root = 'jobs' } = config`):
    morgan's `format`,
    `immediate`, `skip`, `buffer`, `stream`. Nothing when the function takes fewer than MIN_OPTION_READS."""
    signature = " ".join(line.strip() for line in lines[:SIGNATURE_LINES])
    parameters = _JS_PARAMETERS.match(signature)
    named = _JS_OPTIONS_NAME.search(parameters.group(1)) if parameters else None
    if named is None:
        return []
    body = "\n".join(lines[1:])
    names = {named.group(1)}
    names |= {m.group(1) for m in re.finditer(_JS_ALIAS.format(name=named.group(1)), body)}
    found: dict[str, tuple[str, int, str]] = {}
    for key, default, offset, doc, holder in _js_defaults(lines, named.group(1)):
        found.setdefault(key, (default, offset, doc))
        names.add(holder)
    either = "|".join(re.escape(name) for name in sorted(names))
    for offset, line in enumerate(lines[1:], 2):
        code = line.split("//", 1)[0]
        for read in re.finditer(rf"\b(?:{either})\.([A-Za-z_$][\w$]*)\b(?!\s*\()", code):
            # `opts.skip || false`, `options.port ?? 80`, and p-retry's `options.retries ??= 10`
            fallback = re.compile(rf"\s*(?:\|\||\?\?)=?\s*{_JS_VALUE}").match(code, read.end())
            default = fallback.group(1) if fallback else ""
            name = read.group(1)
            if name not in found or (default and not found[name][0]):
                kept = found.get(name, ("", offset, ""))
                found[name] = (default, kept[1], kept[2])
        destructured = re.search(rf"(?:var|let|const)\s*\{{([^}}]*)\}}\s*=\s*(?:{either})\b", code)
        for part in destructured.group(1).split(",") if destructured else ():
            key, _, default = part.partition("=")
            name = key.split(":", 1)[0].strip()
            if re.fullmatch(r"[A-Za-z_$][\w$]*", name) and name not in found:
                found[name] = (default.strip(), offset, "")
    if len(found) < MIN_OPTION_READS:
        return []
    return [(name, default, offset, doc) for name, (default, offset, doc) in found.items()]


# an object literal opening at the end of a line: assigned (`this.config = {`, `const opts = {`, holding it
# for later reads), passed (bull's `scripts.obliterate(this, {`) or returned
_JS_OBJECT_OPENS = re.compile(
    r"^\s*(?:((?:this\.)?[A-Za-z_$][\w$.]*|(?:var|let|const)\s+[A-Za-z_$][\w$]*)\s*=|.*[(,]|\s*return)\s*\{\s*$"
)
_JS_KEY = re.compile(r"""^\s*(?:([A-Za-z_$][\w$]*)|'([^'\n]+)'|"([^"\n]+)")\s*:\s*(.*?)\s*,?\s*$""")
OPTION_DOC_CHARS = 240  # a key's comment: what the option does, not an essay


def _first_paragraph(comment: list[str]) -> list[str]:
    """The lines of a comment's first paragraph: up to the first empty line after some text."""
    lines = list(dropwhile(lambda line: not line, comment))
    return list(takewhile(bool, lines))


def _js_defaults(lines: list[str], name: str) -> list[tuple[str, str, int, str, str]]:
    """(key, default, 1-based offset, comment, what holds it) for each key of an object literal spreading the
    options parameter `name` over defaults (`this.config = { timeout: 0, …, ...config }`, bull's
    `scripts.obliterate(this, { force: false, count: 1000, ...opts })`): a key's value is its default when it
    fits its line, the first paragraph of the `//` lines right above it says what it is."""
    found: list[tuple[str, str, int, str, str]] = []
    at = 1
    while at < len(lines):
        opened = _JS_OBJECT_OPENS.match(lines[at].split("//", 1)[0])
        if opened is None:
            at += 1
            continue
        holder = opened.group(1).split()[-1] if opened.group(1) else name
        keys: list[tuple[str, str, int, str, str]] = []
        comment: list[str] = []
        depth, spread, end = 1, False, at + 1
        while end < len(lines) and depth:
            line = lines[end]
            code = line.split("//", 1)[0]
            if depth == 1:
                stripped = line.strip()
                if stripped.startswith("//"):
                    # its first paragraph: an empty `//` line may set an example apart (bree's
                    # outputWorkerMetadata shows a `logger.info(…)` call after its sentence)
                    comment.append(stripped.lstrip("/ ").strip())
                elif re.match(rf"^\s*\.\.\.\s*{re.escape(name)}\b", code):
                    spread = True
                elif key := _JS_KEY.match(code):
                    value = key.group(4)
                    balanced = all(value.count(a) == value.count(b) for a, b in ("{}", "[]", "()"))
                    doc = " ".join(part for part in _first_paragraph(comment) if not part.startswith("<"))
                    keys.append(
                        (
                            key.group(1) or key.group(2) or key.group(3),
                            value if balanced else "",
                            end + 1,
                            doc[:OPTION_DOC_CHARS],
                            holder,
                        )
                    )
                    comment = []
                elif stripped:
                    comment = []
            depth += code.count("{") - code.count("}")
            end += 1
        if spread:
            found += keys
        at = end
    return found


def interface_methods(lines: list[str]) -> list[tuple[str, int]]:
    """(name, 1-based offset) of each method a Go interface declares."""
    return [(m.group(1), i) for i, line in enumerate(lines[1:-1], 2) if (m := _GO_METHOD.match(line))]


# an exported Go function or method (any receiver), up to its parameters' opening parenthesis
_GO_EXPORTED_FUNC = re.compile(r"^func\s+(?:\([^)]*\)\s*)?[A-Z]\w*\s*(?:\[[^\]]*\])?\(")
_GO_STRUCT_OPENS = re.compile(r"^type\s+\w+(?:\[[^\]]*\])?\s+struct\s*\{\s*$")
_GO_EXPORTED_FIELD = re.compile(r"^\s+[A-Z]\w*(?:\s*,\s*[A-Z]\w*)*\s+(\S.*?)\s*(?:`.*`)?\s*(?://.*)?$")
SIGNATURE_LINES = 6  # a Go signature wrapped over this many lines at most


def go_signature_types(text: str) -> tuple[list[str], list[str]]:
    """What a Go file's exported functions and methods return (their results, as written), and what it takes
    from a user: those functions' parameters and its structs' exported fields."""
    returns: list[str] = []
    takes: list[str] = []
    lines = text.splitlines()
    in_struct = False
    for at, line in enumerate(lines):
        if in_struct:
            if line.startswith("}"):
                in_struct = False
            elif field := _GO_EXPORTED_FIELD.match(line):
                takes.append(_CALLBACK_PARAMETERS.sub("func", field.group(1)))
            continue
        if _GO_STRUCT_OPENS.match(line):
            in_struct = True
            continue
        opening = _GO_EXPORTED_FUNC.match(line)
        if opening is None:
            continue
        signature = " ".join(lines[at : at + SIGNATURE_LINES])[opening.end() - 1 :]
        end = _closing(signature)
        # a callback's parameters are what the package hands the user's function (negroni's
        # `Before(func(ResponseWriter))`), never what it takes; what the callback returns, it takes
        takes.append(_CALLBACK_PARAMETERS.sub("func", signature[1:end]))
        returns.append(signature[end + 1 :].split("{", 1)[0])
    return returns, takes


def _closing(text: str) -> int:
    """Where the parenthesis opening `text` closes (its length when it does not)."""
    depth = 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return at
    return len(text)


_CALLBACK_PARAMETERS = re.compile(r"\bfunc\s*\((?:[^()]|\([^()]*\))*\)")


# what a module reading the environment must hold: a substring test is far faster than the patterns'
# leading word boundary over a module that reads none
_ENV_NEEDLES = {
    "go": ("os.Getenv(", "os.LookupEnv("),
    "javascript": ("process.env",),
    "typescript": ("process.env",),
    "rust": ("env::var", "option_env!"),
    "c": ("getenv",),
    "cpp": ("getenv",),
}


def env_reads(text: str, language: str) -> list[tuple[str, int]]:
    """(variable, line) of each environment variable named by a literal."""
    pattern = _ENV.get(language)
    if pattern is None:
        return []
    needles = _ENV_NEEDLES.get(language)
    if needles is not None and not any(needle in text for needle in needles):
        return []
    return [
        (next(g for g in match.groups() if g), text.count("\n", 0, match.start()) + 1)
        for match in pattern.finditer(text)
    ]


# a prefix naming a family of variables: an upper-case literal ending in "_" ("COLLY_", "FSSPEC_", "TF_VAR_")
_PREFIX = re.compile(r"""(["'`])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)\1""")
# …where the environment is read: a name of it joined to another word (`envVariablePrefix`, `env_prefix`,
# `getenv`, `ENV_PREFIX`; never a WSGI request's `environ` or falcon's `req.env`) on its line, or the process's
# environment read in its function
_ENV_NAME = re.compile(r"(?:[A-Za-z0-9]_?[Ee]nv|[Ee]nv_?[A-Z0-9]|[Ee]nv_[a-z])(?!iron)|\bENV_|_ENV\b")
_PROCESS_ENV = re.compile(
    r"\bos\.environ\b|\bos\.(?:Getenv|LookupEnv|Environ)\(|\bprocess\.env\b|\benv::vars?\(|\bgetenv\("
)


# a name tested for the prefix: Python's `startswith`, Go's `strings.HasPrefix`, JavaScript's `startsWith`
_PREFIX_TEST = re.compile(r"\b(?:startswith|HasPrefix|startsWith|starts_with)\(")


def env_prefixes(text: str, symbols: Sequence[Symbol]) -> list[tuple[str, int]]:
    """(prefix, line) of each family of environment variables the code reads by prefix: colly's `const
    envVariablePrefix = "COLLY_"`, fsspec's `key.startswith("FSSPEC_")` in a function reading `os.environ`,
    scrapy's `SCRAPY_` — none of them named whole by a literal, so a Configuration page listing literals alone
    never showed them. A key built with a prefix in a function that also reads the environment (gunicorn's WSGI
    `'HTTP_' + name`) is none, and neither is a prefix given by a lower-case name (tqdm's `envwrap("tqdm")`).
    `symbols` are the file's definitions, to find the function a literal is in."""
    if '_"' not in text and "_'" not in text and "_`" not in text:
        return []
    lines = text.splitlines()
    callers = sorted(symbols, key=lambda symbol: symbol.start)
    found: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        for match in _PREFIX.finditer(line):
            prefix = match.group(2)
            if len(prefix) < 3 or prefix in found:
                continue
            if (
                _ENV_NAME.search(line)
                or _PROCESS_ENV.search(line)
                or _tested_where_read(line, number, lines, callers)
            ):
                found[prefix] = number
    return list(found.items())


def _tested_where_read(line: str, number: int, lines: list[str], callers: list[Symbol]) -> bool:
    """Whether `line` tests a name for a prefix (`key.startswith("FSSPEC_")`, not a key built) inside a function
    that reads the process's environment."""
    if _PREFIX_TEST.search(line) is None:
        return False
    holder = innermost(callers, number)
    return (
        holder is not None
        and _PROCESS_ENV.search("\n".join(lines[holder.start - 1 : holder.end])) is not None
    )


def parameter_types(lines: list[str]) -> list[str]:
    """The type names a function's parameters are annotated with, in order, read from its first lines
    (`registerLayoutLoaders = (loaders: LayoutLoaderDefinition[]) =>` gives LayoutLoaderDefinition); only
    the parameter list, never the return type or the body."""
    head = " ".join(lines[:SIGNATURE_LINES])
    start = head.find("(")
    if start < 0:
        return []
    depth = 0
    for end, char in enumerate(head[start:], start):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return _PARAM_TYPE.findall(head[start + 1 : end])
    return []


# a JSDoc line documenting one property of an options parameter: `@param {Boolean} [options.onceNext=false] -
# Prevents calling next multiple times` (restify's createServer, ws' WebSocketServer, hono's middleware)
_JSDOC_OPTION = re.compile(
    r"^\s*\*?\s*@(?:param|arg|argument|property|prop)\s+(?:\{(?P<type>[^}]*)\}\s*)?"
    r"(?P<open>\[)?(?P<owner>[A-Za-z_$][\w$]*)\.(?P<name>[A-Za-z_$][\w$.]*)(?P<rest>.*)$"
)
_JSDOC_TAG_LINE = re.compile(r"^\s*\*?\s*@\w+")
_JSDOC_CLOSE = re.compile(r"^\s*\*/")
MIN_JSDOC_OPTIONS = 2  # one documented property is an argument's detail, several are the entry's settings


def jsdoc_options(lines: list[str], start: int) -> list[tuple[str, str, str, int, str]]:
    """The properties of an options object the JSDoc block above the definition at 1-based line `start`
    documents (`@param {T} [options.name=default] - what it does`, the description running on over the
    next untagged lines): (name, type, default, 1-based line, description), when there are several."""
    opening, block = comment_above(lines, start - 2)
    found: list[tuple[str, str, str, int, str]] = []
    for at, line in enumerate(block):
        match = _JSDOC_OPTION.match(line)
        if match is None:
            continue
        default, doc = _optional(match.group("rest")) if match.group("open") else ("", match.group("rest"))
        said = [doc.strip().removeprefix("-").strip()]
        for following in block[at + 1 :]:
            if _JSDOC_TAG_LINE.match(following) or _JSDOC_CLOSE.match(following):
                break
            said.append(following.strip().lstrip("*").strip())
        found.append(
            (
                match.group("name"),
                (match.group("type") or "").strip(),
                default,
                opening + at + 1,
                " ".join(said),
            )
        )
    return found if len(found) >= MIN_JSDOC_OPTIONS else []


def _optional(rest: str) -> tuple[str, str]:
    """What follows an optional JSDoc name (`=['GET', 'HEAD']] - The methods`): its default, read to the
    bracket closing the name whatever brackets the value holds, and the description after it."""
    default, depth = "", 0
    for at, char in enumerate(rest):
        if char == "]" and depth == 0:
            return default.strip().removeprefix("=").strip(), rest[at + 1 :]
        depth += char in "[({"
        depth -= char in ")]}"
        default += char
    return "", rest
