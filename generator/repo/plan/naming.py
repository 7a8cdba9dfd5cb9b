"""Subsystem names from the concept their modules share: the sub-package's own name, else the noun phrase
the modules' docstrings say they hold ("transport adapters"), else the word the modules' names share
("completions"), else what the most important module is about. One short noun phrase, never a list of file
names.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import PurePosixPath

from generator.repo.facts.ranking import TYPE_KINDS, key_symbols
from generator.repo.model import Facts

# module names that say where code lives, not what it does; the package or the main class names it instead
GENERIC = frozenset(
    "index main init mod lib src utils util helpers helper common misc core base internal pkg cmd package"
    " source impl compat typing types version globals constants const exceptions errors error warnings".split()
)
# folder names that are only containers: a sub-package called this is named after its modules instead
_CONTAINER = frozenset("src lib pkg internal impl source main index mod package packages vendor".split())
_PLATFORM = re.compile(
    r"windows|win|notwin|linux|darwin|unix|posix|wasm|js|bsd|freebsd|openbsd|solaris|plan|amd|arm|go|nt"
)
# a numeronym (i18n, l10n, k8s, a11y) is one word: its letters alone ("i", "n") say nothing
_WORD = re.compile(r"[A-Za-z]\d+[a-z]{1,2}(?![a-z])|[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# initialisms written in capitals in prose, whatever case the identifier used
_ACRONYMS = frozenset(
    "ai api ascii asgi ast cdn cli css csv db dns dom gc gui html http https id io ipc json jwt kb llm ml nlp"
    " orm pdf rpc sdk smtp sql ssh ssl svg tcp tls toml tty ui uri url utf uuid vm wsgi xml yaml".split()
)
# what a module of a generic name holds, as a maintainer says it: the last resort for a group's name
_GENERIC_KIND = {
    **dict.fromkeys(("utils", "util", "helpers", "helper", "common", "misc"), "utilities"),
    **dict.fromkeys(("core", "base"), "core"),
    **dict.fromkeys(("exceptions", "errors", "error"), "errors"),
}
# modules of helpers, shims, aliases and errors; unlike `core` or `index`, their main type is not the concept
_SHIMS = GENERIC - {
    "core",
    "base",
    "main",
    "index",
    "init",
    "mod",
    "lib",
    "src",
    "pkg",
    "cmd",
    "package",
    "source",
} | {"tools"}  # a module of helpers named so (pino's lib/tools.js), not what a subsystem does; a folder of
# tools (an agent's) still names one, GENERIC leaving it out
_ERRORS = frozenset({"exceptions", "exception", "errors", "error", "warnings"})
TERM_WORDS = 3  # a type named in more words than this is too particular to name what a module is about
# "This module contains the transport adapters that …": the noun phrase after the verb is the concept
_HOLDS = re.compile(
    r"\b(?:contains?|provides?|implements?|defines?|holds?|houses?)\s+(?:the\s+|an?\s+|all\s+(?:the\s+)?|our\s+)?"
    r"((?:[a-z][a-z-]+\s+){0,2}[a-z][a-z-]+)",
    re.IGNORECASE,
)
# words a docstring's noun phrase may not contain: articles, pronouns, vague adjectives and verbs' leftovers
_NOT_CONCEPT = frozenset(
    "a an the this that these those its their our your it all some any various several many most more misc"
    " main primary basic common general useful simple other additional extra different specific certain"
    " objects object things stuff code functions function methods classes class module modules logic"
    " implementation implementations support helpers helper utilities utility tools which used use uses"
    " for of to in on by with and or from as is are be"
    # … nor a preposition the phrase goes on with: hug's "Defines the method decorators at the core of …"
    " at into within over under between through via per across".split()
)


def subsystem_names(
    groups: Sequence[Sequence[str]], facts: Facts, folders: Sequence[str] = (), taken: Sequence[str] = ()
) -> list[str]:
    """A distinct name per group of modules, none of them one of `taken` (the pinned subsystems');
    `folders[i]` is the sub-package group i is ("" when it is a community of modules in one flat package)."""
    names: list[str] = []
    for i, files in enumerate(groups):
        folder = folders[i] if i < len(folders) else ""
        choices = [
            folder_name(folder),
            command_name(files, facts),
            home_folder_name(files, groups),
            core_name(files, facts),
            *concept_names(files, facts, groups),
        ]
        choices = [c for c in dict.fromkeys(choices) if c]
        used = {n.lower() for n in [*taken, *names]}
        name = next((c for c in choices if c.lower() not in used), "")
        if not name:
            base = choices[0] if choices else package_name(files)
            name = base if base.lower() not in used else f"{base} in {common_folder(files) or 'the root'}"
            if name.lower() in used:
                name = f"{base} ({i + 1})"
        names.append(name)
    return names


# the module a program starts in: Go's main.go, Python's __main__.py or cli.py
_PROGRAM_MODULES = frozenset({"main", "__main__", "cli"})


def command_name(files: Sequence[str], facts: Facts) -> str:
    """ "Command line" for a group led by the module a program starts in (an entry point named `main.go`,
    `__main__.py` or `cli.py`): its other modules are what the command does, and naming the group after one
    of them ("Gitlab" for a markdown reader's command) misnames it."""
    lead = files[0] if files else ""
    fact = facts.files.get(lead)
    stem = PurePosixPath(lead).name.split(".")[0]
    return "Command line" if fact is not None and fact.is_entry_point and stem in _PROGRAM_MODULES else ""


def root_door(files: Sequence[str], facts: Facts) -> str:
    """The `__init__.py` of the project's top Python package (one no package above holds) among `files`;
    '' when none is there."""
    for path in files:
        folder, _, name = path.rpartition("/")
        parent = posixpath.dirname(folder)
        if name == "__init__.py" and folder and posixpath.join(parent, "__init__.py") not in facts.files:
            return path
    return ""


def core_name(files: Sequence[str], facts: Facts) -> str:
    """ "Core" for a group holding the top package's `__init__.py` and mostly modules beside it, when that file
    is not most of the group's code: the package's door and what it re-exports are the project's core, not
    the concept of its weightiest module (taskiq's kicker, message and result had been "Serialization", after
    serialization.py). A door holding most of the code (tenacity's `Retrying`) names the group itself."""
    door = root_door(files, facts)
    beside = [p for p in files if p != door and posixpath.dirname(p) == posixpath.dirname(door)]
    if not door or 2 * len(beside) < len(files) - 1:
        return ""  # griffe's door beside modules of its _internal/ folder: they name their own concept
    return "Core" if _holding_most(files, facts) != door else ""


def home_folder_name(files: Sequence[str], groups: Sequence[Sequence[str]]) -> str:
    """The name of the folder most of a community's modules live in, when no other group has a module
    there: marktext's menu actions and commands are "Menu actions" (src/main/menu/actions), not "Paragraph"
    after one of its files. A folder its parent only qualifies ("actions") is named with its parent."""
    home = _home_folder(files)
    others = [path for other in groups if list(other) != list(files) for path in other]
    if not home or any(path.startswith(f"{home}/") for path in others):
        return ""  # the project's own package folder ("src/FluentValidation") names no one part of it
    parts = [folder_words(p) for p in PurePosixPath(home).parts]
    if not parts or set(parts[-1]) <= _CONTAINER | GENERIC:
        return ""
    # a word the other groups' folders use too names the project ("graphrag" beside graphrag-llm), not a part
    elsewhere = {w for other in groups if list(other) != list(files) for w in words_of(_home_folder(other))}
    words = parts[-1]
    if set(words) & elsewhere:
        return ""
    parent = parts[-2] if len(parts) > 1 else []
    if len(words) == 1 and len(parent) == 1 and not set(parent) <= _CONTAINER | GENERIC | elsewhere:
        words = parent + words  # "menu/actions" → "Menu actions"
    return phrase(dict.fromkeys(words))


def _home_folder(files: Sequence[str]) -> str:
    """The deepest folder holding more than half of `files` ("" for none but the root)."""
    counts: Counter[str] = Counter()
    for path in files:
        for parent in PurePosixPath(path).parents:
            if str(parent) != ".":
                counts[str(parent)] += 1
    held = [folder for folder, count in counts.items() if count * 2 > len(files)]
    return max(held, key=lambda f: (f.count("/"), f), default="")


# a folder name a maintainer abbreviates, as the same maintainer says it in prose: apispec's ext/ holds its
# marshmallow plugin, dynaconf's and tortoise's contrib/ their Flask, Django, FastAPI … integrations
_SAID = {
    "util": "utilities",
    "utils": "utilities",
    "ext": "extensions",
    "exts": "extensions",
    "contrib": "integrations",
}


# a package named with its number (pgx's pgproto3, gunicorn's http2, oauth2): the number is part of the name,
# unlike a version or platform suffix (v2, go1, py3)
_NUMBERED = re.compile(r"_?([a-z]{2,})(\d+)")
_NOT_NUMBERED = frozenset({"go", "py", "python", "node", "version", "ver", "api"})


def folder_words(name: str) -> list[str]:
    """A folder name's words, each keeping the number that is part of it: grpc-gateway's
    protoc-gen-openapiv2 is "protoc gen openapiv2" (it had been "openapiv", beside protoc-gen-openapiv3)."""
    words: list[str] = []
    for token in re.split(r"[-_.\s]+", name):
        numbered = _NUMBERED.fullmatch(token.lower())
        keeps = numbered is not None and numbered.group(1) not in _NOT_NUMBERED
        words += [token.lower()] if keeps else words_of(token)
    return words


def folder_name(folder: str) -> str:
    """A sub-package's own name as a maintainer writes it ("_transports" → "Transports", "json" → "JSON",
    "ext" → "Extensions", "pgproto3" → "Pgproto3", "protoc-gen-openapiv2" → "Protoc gen openapiv2"); "" for a container folder (`src`, `internal`) that names
    no concept."""
    words = folder_words(PurePosixPath(folder).name) if folder else []
    if not words or set(words) <= _CONTAINER:
        return ""
    return phrase([_SAID[words[0]]] if len(words) == 1 and words[0] in _SAID else words)


def concept_names(files: Sequence[str], facts: Facts, groups: Sequence[Sequence[str]] = ()) -> list[str]:
    """Candidate names for a community of modules, best first: the word their names share, then per
    module what its docstring says it holds or what it is about (its name or its main type), the module
    with the most important symbol first (the one the subsystem's key symbols come from)."""
    # a helper or shim module's main type ("URLPattern" in _utils.py) names the subsystem last, and so does a
    # private helper package's (asynq's internal/timeutil beside processor.go)
    ordered = sorted(by_symbol_weight(files, facts), key=lambda p: (says_where_not_what(p), is_private(p)))
    ordered = _most_code_first(ordered, facts)
    own = [t for path in ordered for t in (docstring_concept(path, facts), module_term(path, facts))]
    kinds = [_GENERIC_KIND.get(n, "") for n in (_stem_name(path) for path in ordered)]
    shared = shared_word(files, groups, lead=ordered[0] if ordered else "")
    heaviest = _holding_most(files, facts)
    if shared and heaviest and shared.split()[0] not in _term_of(heaviest).split():
        # bree's job-builder.js, job-utils.js and job-validator.js share "job", but index.js, holding its
        # `Bree` scheduler, is most of the code: the word of a lesser part names no group before it does
        first = [docstring_concept(heaviest, facts), module_term(heaviest, facts)]
        return [phrase(t.split()) for t in dict.fromkeys([*first, shared, *own, *kinds]) if t]
    return [phrase(t.split()) for t in [shared, *own, *kinds] if t]


def _holding_most(files: Sequence[str], facts: Facts) -> str:
    """The module holding more than half of the group's code ("" when none does)."""
    code = {path: _code_lines(path, facts) for path in files}
    path, lines = max(code.items(), key=lambda item: item[1], default=("", 0))
    return path if 2 * lines > sum(code.values()) else ""


def docstring_concept(path: str, facts: Facts) -> str:
    """The concept a module's docstring says it holds, when the module's own name or symbols use a word of
    it: "This module contains the transport adapters …" in adapters.py → "transport adapters"."""
    fact = facts.files.get(path)
    match = _HOLDS.search(fact.doc) if fact and fact.doc else None
    if match is None:
        return ""
    words = []
    for word in match.group(1).lower().split():
        if word in _NOT_CONCEPT:
            break
        words.append(word)
    if not words:
        return ""
    grounded = set(name_words(PurePosixPath(path).name.split(".")[0]))
    grounded |= {w for s in fact.symbols if not s.parent for w in words_of(s.name)} if fact else set()
    return " ".join(words) if any(_stem(w) in {_stem(g) for g in grounded} for w in words) else ""


def shared_word(files: Sequence[str], groups: Sequence[Sequence[str]] = (), lead: str = "") -> str:
    """A word in the names of most of the modules (`zsh_completions.go`, `fish_completions.go` →
    "completions") that the other groups' module names do not share. Shared by only half of them, it
    must be in the `lead` module's name too: tenacity's before.py and before_sleep.py beside wait.py, its
    lead, named the group "Before"."""
    if len(files) < 2:
        return ""
    counts = Counter(w for path in files for w in set(name_words(PurePosixPath(path).name.split(".")[0])))
    elsewhere = Counter(
        w
        for group in groups
        if list(group) != list(files)
        for path in group
        for w in set(name_words(PurePosixPath(path).name.split(".")[0]))
    )
    shared = {
        word
        for word, count in counts.items()
        if count * 2 >= len(files) and count >= 2 and word not in GENERIC and elsewhere[word] < count
    }
    if lead:
        led = set(name_words(PurePosixPath(lead).name.split(".")[0]))
        shared = {w for w in shared if w in led or counts[w] * 2 > len(files)}
    # the shared words in the order a name writes them: terminal_check_bsd.go → "terminal check"
    for path in files:
        words = [w for w in name_words(PurePosixPath(path).name.split(".")[0]) if w in shared]
        if words:
            return " ".join(dict.fromkeys(words))
    return ""


def is_private(path: str) -> bool:
    """Whether a module or package (a folder ending in "/") lies under an `internal` folder: Go's packages
    that only their parent tree may import, and the same convention elsewhere (`_internal`)."""
    return any(part in ("internal", "_internal") for part in path.rstrip("/").split("/")[:-1])


def says_where_not_what(path: str) -> bool:
    """A module whose name says where code lives or what shim it is (`utils.py`, `compat.py`,
    `exceptions.py`, `__init__.py`), not what a subsystem does."""
    return set(name_words(PurePosixPath(path).name.split(".")[0])) <= _SHIMS


# the file in which a package says what it is: Python's __init__.py, Go's doc.go, Rust's mod.rs or lib.rs,
# Java's package-info.java; the first three speak for the modules nested below them too
PACKAGE_DOC_FILES = ("__init__.py", "doc.go", "mod.rs", "lib.rs", "package-info.java")
_NESTING_DOC_FILES = frozenset({"__init__.py", "mod.rs", "lib.rs"})


def speaks_for_more(path: str, files: Collection[str], facts: Facts) -> bool:
    """Whether `path` is where a package says what it is (`PACKAGE_DOC_FILES`) and `files` hold no more than
    half of that package's other modules: its words are the whole package's, not the part's beside it in one
    subsystem. hug's `hug/__init__.py` ("Everyone needs a hug every once in a while. Even API developers.")
    had described the subsystem of its decorators, negroni's doc.go ("Package negroni is an idiomatic approach
    to web middleware in Go.") the one of its Logger."""
    folder, _, name = path.rpartition("/")
    if name not in PACKAGE_DOC_FILES:
        return False
    prefix = f"{folder}/" if folder else ""
    nested = name in _NESTING_DOC_FILES
    package = [
        p
        for p in facts.files
        if p != path and p.startswith(prefix) and (nested or "/" not in p[len(prefix) :])
    ]
    return bool(package) and 2 * sum(p in files for p in package) <= len(package)


def module_term(path: str, facts: Facts) -> str:
    """What a module is about, in words: its name, else its main type's ("" for a module of helpers, which
    names nothing)."""
    words = name_words(PurePosixPath(path).name.split(".")[0])
    if words and not set(words) <= GENERIC:
        return " ".join(words)
    if set(words) & _ERRORS:
        return ""  # a module of errors: its main type is one error, which names no subsystem
    for entry in key_symbols(facts, path):
        symbol = entry.symbol
        words = words_of(symbol.name)
        if (
            symbol.kind in TYPE_KINDS
            and not symbol.parent
            and 0 < len(words) <= TERM_WORDS  # "MixedAnnotatedAndDefaultStyleError" names no subsystem
            and not set(words) <= GENERIC
        ):
            return " ".join(words)
    return ""  # a package's entry module re-exports what the others do: it names nothing itself


def by_symbol_weight(files: Sequence[str], facts: Facts) -> list[str]:
    """The modules ordered by their most important symbol (the facts' ranking: exported, used, large),
    in their given order where none has one."""

    def best(path: str) -> float:
        top = key_symbols(facts, path, limit=1)
        return top[0].score if top else float("-inf")  # below a module whose best is a private helper

    return sorted(files, key=lambda path: -best(path))


def _most_code_first(ordered: Sequence[str], facts: Facts) -> list[str]:
    """`ordered` with the modules of the term holding most of the group's code first, when the term of the
    module `ordered` leads with (its heaviest symbol) holds less than a share `DWARFED` of that: gnet's
    engine, event loops and connections were "Client" after client_*.go (a widely used exported type; 507
    lines, where connection_*.go hold 1,295), fasthttp's client group "Args"
    after args.go (663 lines beside client.go's 3,353). A module's term is its name's words, build
    suffixes dropped (`connection_linux.go` and `connection_unix.go` are one term)."""
    if len(ordered) < 2:
        return list(ordered)
    code: Counter[str] = Counter()
    for path in ordered:
        term = _term_of(path)
        if not set(term.split()) & _SHIMS:  # … never a helper's or a shim's (watchdog's pythoncapi_compat.h)
            code[term] += _code_lines(path, facts)
    lead = _term_of(ordered[0])
    biggest, most = max(code.items(), key=lambda item: item[1], default=("", 0))
    if not biggest or biggest == lead or code[lead] > most * DWARFED:
        return list(ordered)
    return sorted(ordered, key=lambda path: _term_of(path) != biggest)  # stable: by weight within each


DWARFED = 0.5  # a lead module's term holding under half the code of another term's modules names no group


def _term_of(path: str) -> str:
    return " ".join(name_words(PurePosixPath(path).name.split(".")[0]))


def _code_lines(path: str, facts: Facts) -> int:
    """How much code a module holds: the lines its definitions span (a Go method lies outside its type's)."""
    fact = facts.files.get(path)
    lines, reached = 0, 0
    for symbol in sorted(fact.symbols if fact else (), key=lambda s: s.start):
        if symbol.end > reached:
            lines += symbol.end - max(symbol.start - 1, reached)
            reached = symbol.end
    return lines


def words_of(identifier: str) -> list[str]:
    """`_HTTPClient` → ["http", "client"], `shell_completion` → ["shell", "completion"]; version numbers
    and single letters ("V2", "go1_16") say nothing and are dropped."""
    return [w.lower() for w in _WORD.findall(identifier) if len(w) > 1 and not w.isdigit()]


def name_words(file_name: str) -> list[str]:
    """The words of a module's name without the platform and version suffixes that select a build
    (`command_win.go`, `viper_go1_16.go`, `watch_wasm.go`): they say where it runs, not what it does."""
    words = words_of(file_name)
    while len(words) > 1 and _PLATFORM.fullmatch(words[-1]):
        words.pop()
    return words


def phrase(words: Iterable[str]) -> str:
    """Words as a name: initialisms in capitals, the first word capitalised ("json tag" → "JSON tag")."""
    parts = [_cased(w.lower()) for w in words]
    if not parts:
        return ""
    return parts[0][:1].upper() + parts[0][1:] + "".join(f" {p}" for p in parts[1:])


def _cased(word: str) -> str:
    """An initialism in capitals, its plural too ("urls" → "URLs"); any other word as it is."""
    if word in _ACRONYMS:
        return word.upper()
    if (numbered := _NUMBERED.fullmatch(word)) and numbered.group(1) in _ACRONYMS:
        return word.upper()  # "http2" → "HTTP2"
    if word.endswith("s") and word[:-1] in _ACRONYMS:
        return word[:-1].upper() + "s"
    return word


def common_folder(files: Sequence[str]) -> str:
    return posixpath.commonpath([str(PurePosixPath(p).parent) for p in files]) if files else ""


def package_name(files: Sequence[str]) -> str:
    """The package a group of entry modules belongs to, when none of its modules names anything."""
    for path in files:
        words = words_of(PurePosixPath(path).parent.name)
        if words:
            return phrase(words) + " package"
    return "Top-level modules"


def part_namer(facts: Facts) -> Callable[[str, Sequence[str]], str]:
    """Names the parts of a shard split for size after their own modules: "Core: client"."""

    def name(shard: str, files: Sequence[str]) -> str:
        names = concept_names(files, facts)
        part = names[0] if names else package_name(files)
        return f"{shard}: {part if part[:2].isupper() else part[:1].lower() + part[1:]}"

    return name


def _stem_name(path: str) -> str:
    words = name_words(PurePosixPath(path).name.split(".")[0])
    return words[0] if len(words) == 1 else ""


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word
