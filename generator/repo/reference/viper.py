"""Environment variables Go code reads through spf13/viper: a key is never written whole in the code (ko's
`v.SetEnvPrefix("KO")` + `v.AutomaticEnv()` + `v.GetString("defaultBaseImage")` reads `KO_DEFAULTBASEIMAGE`),
so the literal `os.Getenv` reads alone missed them. Only keys of an instance the environment applies to are
variables: a key read from a file-only config is none."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from generator.repo.facts.tscalls import innermost
from generator.repo.model import Symbol

# the calls on a viper instance that matter here; `Get…` are its typed getters (GetString, GetStringSlice,
# GetDuration, GetStringMapString …), never a getter of a name (`GetEnvPrefix`)
_CALL = re.compile(
    r"(?<![\w.])(?P<receiver>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\."
    r"(?P<method>SetEnvPrefix|AutomaticEnv|SetEnvKeyReplacer|BindEnv|SetDefault"
    r"|Get(?:String|Bool|Int|Int32|Int64|Uint|Uint8|Uint16|Uint32|Uint64|Float64|Duration|Time|IntSlice"
    r"|StringSlice|StringMap|StringMapString|StringMapStringSlice|SizeInBytes)?)\("
)
_STRING = re.compile(r'^(?:"((?:[^"\\\n]|\\.)*)"|`([^`]*)`)$')
_CONSTANT = re.compile(r'^\s*(?:const\s+|var\s+)?([A-Za-z_]\w*)(?:\s+string)?\s*=\s*("[^"\n]*")\s*(?://.*)?$')
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")  # what a shell can set
ARGUMENT_LINES = 4  # a call's arguments are not read past this many lines below it


@dataclass
class _Instance:
    """What the code tells one viper instance: its prefix, key replacer, the keys it reads and defaults."""

    prefix: str | None = ""  # None: set by a value the code computes, so no name can be told
    prefixed: bool = False  # SetEnvPrefix was called
    automatic: bool = False
    replacements: list[tuple[str, str]] = field(default_factory=list)
    bound: dict[str, tuple[list[str], int]] = field(default_factory=dict)  # key → (explicit names, line)
    keys: dict[str, int] = field(default_factory=dict)  # key → first line reading it
    defaults: dict[str, tuple[str, int]] = field(default_factory=dict)  # key → (default as written, line)


Instances = dict[tuple[str, int], _Instance]  # (receiver, first line of its function or 0) → what it is told
_GLOBAL = ("viper", 0)  # the package's own instance, used as `viper.GetString(…)`


def viper_env(text: str, symbols: Sequence[Symbol]) -> list[tuple[str, str, int]]:
    """(variable, default as written, line) of each environment variable a viper instance of the file
    reads: with `AutomaticEnv()` every key it reads or gives a default (`SetDefault`), named `PREFIX_KEY`
    upper-cased with its `SetEnvKeyReplacer` applied; with `BindEnv("key")` that key, `BindEnv("key", "NAME")`
    the name given."""
    return viper_rows(viper_instances(text, symbols))


def viper_instances(text: str, symbols: Sequence[Symbol]) -> Instances:
    """What the file tells each viper instance. An instance is a receiver in its function when the function
    makes or takes it (`v := viper.New()`), else in the file (the package's global `viper`)."""
    if "spf13/viper" not in text:
        return {}
    lines = text.splitlines()
    constants = _constants(lines)
    callers = sorted(symbols, key=lambda symbol: symbol.start)
    instances: Instances = {}
    for number, line in enumerate(lines, 1):
        for match in _CALL.finditer(line):
            receiver = match.group("receiver")
            scope = _scope(receiver, number, lines, callers)
            rest = "\n".join([line[match.end() :], *lines[number : number + ARGUMENT_LINES]])
            arguments = _arguments(rest)
            instance = instances.setdefault((receiver, scope), _Instance())
            _told(instance, match.group("method"), arguments, constants, number)
    return instances


def file_viper_env(instances: Instances) -> list[tuple[str, str, int]]:
    """The rows a file tells whole: those of every instance but a global `viper` it does not set up itself,
    whose prefix may come from another file of its package (package_viper_env)."""
    return viper_rows({k: i for k, i in instances.items() if k != _GLOBAL or _sets_up(i)})


def package_viper_env(files: Mapping[str, Instances]) -> list[tuple[str, str, str, int]]:
    """(path, variable, default, line) of the keys the global `viper` reads in a file that does not set the
    environment up itself, set up in another file of its Go package (cobra's cmd/root.go `initConfig`:
    `viper.SetEnvPrefix("APP")`, `viper.AutomaticEnv()`; cmd/serve.go `viper.GetInt("port")` reads
    `APP_PORT`). With no setup in the package only `BindEnv` names a variable; with two different setups only
    the names `BindEnv` gives whole do."""
    packages: dict[str, list[tuple[str, _Instance]]] = {}
    for path, instances in files.items():
        if _GLOBAL in instances:
            packages.setdefault(posixpath.dirname(path), []).append((path, instances[_GLOBAL]))
    found = []
    for members in packages.values():
        setups = {_setup(i) for _, i in members if _sets_up(i)}
        shared = setups.pop() if len(setups) == 1 else (False, "" if not setups else None, False, ())
        prefixed, prefix, automatic, replacements = shared
        for path, instance in members:
            if _sets_up(instance):
                continue  # its own rows came with its file
            told = replace(
                instance,
                prefixed=prefixed,
                prefix=prefix,
                automatic=automatic,
                replacements=list(replacements),
            )
            found += [(path, name, default, line) for name, default, line in viper_rows({_GLOBAL: told})]
    return found


def _sets_up(instance: _Instance) -> bool:
    return instance.automatic or instance.prefixed or bool(instance.replacements)


def _setup(instance: _Instance) -> tuple[bool, str | None, bool, tuple[tuple[str, str], ...]]:
    return instance.prefixed, instance.prefix, instance.automatic, tuple(instance.replacements)


def viper_rows(instances: Instances) -> list[tuple[str, str, int]]:
    """(variable, default, line) of the variables the instances read, each named once."""
    found: dict[str, tuple[str, int]] = {}
    for instance in instances.values():
        for name, default, number in _variables(instance):
            found.setdefault(name, (default, number))
    return sorted(((n, d, line) for n, (d, line) in found.items()), key=lambda row: row[2])


def _told(
    instance: _Instance, method: str, arguments: list[str], constants: dict[str, str], line: int
) -> None:
    """Note what one call tells the instance."""
    first = _literal(arguments[0], constants) if arguments else None
    if method == "AutomaticEnv":
        instance.automatic = True
    elif method == "SetEnvPrefix":
        instance.prefixed = True
        instance.prefix = first  # cometbft's `viper.SetEnvPrefix(prefix)`: a caller's "CMT", unknown here
    elif method == "SetEnvKeyReplacer" and arguments:
        instance.replacements = _replacer(arguments[0], constants)
    elif first is None:
        return  # a key not written as a literal names no variable we can tell
    elif method == "BindEnv":
        names = [_literal(a, constants) for a in arguments[1:]]
        instance.bound.setdefault(first, ([n for n in names if n], line))
    elif method == "SetDefault" and len(arguments) > 1:
        value = arguments[1]
        instance.defaults.setdefault(first, (constants.get(value, value), line))
    elif method.startswith("Get"):
        instance.keys.setdefault(first, line)


def _variables(instance: _Instance) -> list[tuple[str, str, int]]:
    found = []
    for key, (names, line) in instance.bound.items():
        default = instance.defaults.get(key, ("", 0))[0]
        for name in names or ([_env_name(instance, key)] if instance.prefix is not None else []):
            found.append((name, default, instance.keys.get(key, line)))
    if instance.automatic and instance.prefix is not None:
        for key in dict.fromkeys([*instance.keys, *instance.defaults]):
            default, set_at = instance.defaults.get(key, ("", 0))
            found.append((_env_name(instance, key), default, instance.keys.get(key, set_at)))
    return [row for row in found if _ENV_NAME.match(row[0])]


def _env_name(instance: _Instance, key: str) -> str:
    """viper's own rule: the prefix and the key joined by "_", upper-cased, then the key replacer."""
    name = f"{instance.prefix}_{key}" if instance.prefix else key
    name = name.upper()
    for old, new in instance.replacements:
        name = name.replace(old, new)
    return name


def _replacer(argument: str, constants: dict[str, str]) -> list[tuple[str, str]]:
    """The pairs of `strings.NewReplacer(".", "_", "-", "_")`; none when they are not literals."""
    if not argument.startswith("strings.NewReplacer("):
        return []
    texts = [_literal(a, constants) for a in _arguments(argument[len("strings.NewReplacer(") :])]
    if any(t is None for t in texts) or len(texts) % 2:
        return []
    pairs = [t or "" for t in texts]
    return list(zip(pairs[::2], pairs[1::2], strict=True))


def _arguments(text: str) -> list[str]:
    """The top-level arguments of the call whose opening parenthesis `text` follows, stripped."""
    found, depth, start, quote = [], 0, 0, ""
    for at, char in enumerate(text):
        if quote:
            quote = "" if char == quote and text[at - 1] != "\\" else quote
        elif char in '"`':
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char == ")" or (char == "," and depth == 0):
            found.append(text[start:at].strip())
            if char == ")":
                return [a for a in found if a]
            start = at + 1
    return []  # the call does not close within the lines read


def _literal(argument: str, constants: dict[str, str]) -> str | None:
    """A string literal's value, or a constant's that holds one."""
    match = _STRING.match(constants.get(argument, argument))
    if match is None:
        return None
    return match.group(1) if match.group(1) is not None else match.group(2)


def _scope(receiver: str, number: int, lines: list[str], callers: list[Symbol]) -> int:
    """The first line of the function that makes or takes the instance, 0 for the file."""
    holder = innermost(callers, number)
    if holder is None or "." in receiver:
        return 0
    body = "\n".join(lines[holder.start - 1 : holder.end])
    made = re.search(rf"\b{re.escape(receiver)}\s*(?::=|=|\*viper\.Viper\b)", body)
    return holder.start if made is not None else 0


def _constants(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lines:
        match = _CONSTANT.match(line)
        if match is not None:
            found.setdefault(match.group(1), match.group(2))
    return found
