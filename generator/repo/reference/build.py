"""The reference stage: from the pinned checkout's source modules and the facts, the options a user sets
(environment variables, config classes, the keyword arguments of the public entries), the main records with
their fields ranked by how many modules use them, and the extension points (base classes a subclass
completes, protocols, interfaces, registries); with the passages of the project's docs about configuring and
extending it."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite
from generator.repo.docs.model import DocPage, DocPassage, ProjectDocs
from generator.repo.docs.passages import within
from generator.repo.facts.apart import serving_tests
from generator.repo.facts.declared import PyClass, PyField, PyModule
from generator.repo.facts.examples import called_names
from generator.repo.facts.imports import JS_LANGUAGES
from generator.repo.facts.native import NATIVE, type_name
from generator.repo.facts.prose import summary
from generator.repo.facts.pydeclarations import (
    PLAIN_CLASS_USES,
    candidate_spans,
    method_arguments,
    read_module,
    record_bases,
)
from generator.repo.map.filetypes import WORD_ENDING_FOLDER, in_go_command, is_context_file
from generator.repo.map.walk import read_or_none
from generator.repo.model import Citation, CitedSymbol, Facts, FileFacts, RepoMap, Symbol
from generator.repo.plan.subsystems import core_modules
from generator.repo.reference import builders, flags, settings, spans
from generator.repo.reference.commands import command_folders
from generator.repo.reference.csharp import CsField, csharp_fields
from generator.repo.reference.dict_defaults import defaults_dicts, fill_defaults
from generator.repo.reference.jvm import jvm_fields
from generator.repo.reference.model import Extension, FieldLine, Option, Record, Reference
from generator.repo.reference.modelled import FIELD_BASE, FIELD_TYPE, MAX_FIELD_TYPES, MODEL_BASE, doc_models
from generator.repo.reference.plugins import (
    PLUGGED,
    PLUGIN_INTERFACE,
    doc_words,
    go_asserted,
    go_taken,
    hook_marked,
    how_to,
    interface_signatures,
    pluggy_hooks,
    plugin_interfaces,
)
from generator.repo.reference.public import EXTENDING, PublicFace
from generator.repo.reference.traits import native_extensions
from generator.repo.reference.viper import Instances, file_viper_env, package_viper_env, viper_instances

LANGUAGES = frozenset(
    {"python", "go", "javascript", "typescript", "c", "cpp", "rust", "java", "kotlin", "csharp"}
)
JVM = frozenset({"java", "kotlin"})
SOURCE_BYTES = 500_000  # a larger module is generated code, not where options are declared
MAX_RECORDS, MAX_EXTENSIONS, MAX_ENTRIES, MAX_OPTIONS = 20, 15, 6, 60
MIN_CLASS_FIELDS = 2  # a TypeScript class declaring fewer public fields holds behaviour, not data
METHOD_SETTINGS = 3  # keyword arguments that make a method the examples call a place settings are given
MAX_FLAGS = 40
MAX_SETTINGS = 40  # build settings (CMake options, Cargo features, overridable macros)
MANIFEST_DEPTH = 1  # folders below the root whose CMakeLists.txt or Cargo.toml declare the build's settings
FIELD_DOC_CHARS = 200  # what a field is, in a table cell: its comment's first sentence or two
FLAG = "command-line flag"
MAX_REGISTRIES, MAX_DOC_PASSAGES, DOC_PAGES = 8, 24, 3
MAX_USERS_RECORDS = 10  # the model bases and field types the docs' models use, ahead of the other records
MAX_PLUGGED = 24  # plugin hooks and interfaces shown, whatever room the rest leaves (gqlgen has 17)
TAUGHT = "base class the docs subclass"
_CALLABLES = frozenset({"function", "method"})
HAND_ON_HOPS = 3  # a hook handed on this many times in its file still plugs in (redcon's ListenAndServe)
DOC_WEIGHT = 5  # a record the docs name counts as much as one imported by two or three modules
_TS_DECLARATIONS = re.compile(r"\.d\.[cm]?ts$")  # a Python stub beside its module would repeat its records
_BUILDER = re.compile(r"Builder$")
SETTER = "setting of"  # an option a builder's chainable setter sets: `setting of ThreadPoolBuilder`
MAKER = "option of"  # a Go functional option: `option of NewPool`
MAX_BUILDERS = 4
_SETTINGS = re.compile(r"(?:Config|Configuration|Settings|Options|Opts|Conf|Params)$")
# a Go or TypeScript record of one thing's options, named in the singular: gws' ServerOption and ClientOption,
# zinx's HeartBeatOption, karmada's CommandInitOption (a class called Option alone is click's parameter)
_OPTION_STRUCT = re.compile(r"(?<=[a-z])Option$")
_REGISTRY = re.compile(
    r"(?:register\w*|add_(?:hook|plugin|middleware|handler|listener|filter|extension)s?"
    r"|use|hookimpl|hookspec|add(?:Hook|Plugin|Middleware|Handler|Listener|Filter|Extension)s?"
    r"|Register\w*|Use|AddHook\w*)"
)
_NOT_LIBRARY = re.compile(
    WORD_ENDING_FOLDER
    + r"(?:tests?|specs?|__tests__|examples?|samples?|demos?|benchmarks?|benches|docs?|scripts?)/"
    r"|(?:^|/)build\.rs$",  # Cargo's benchmarks folder and build script: what building reads, not a user
    re.IGNORECASE,
)
_DOC_SPAN = re.compile(r"`~?([A-Za-z_][\w.]*)(?:\(\))?`")
_DOC_BASE = re.compile(r"^\s*class\s+\w+\(\s*([A-Za-z_][\w.]*)", re.MULTILINE)
_ERROR = re.compile(r"(?:Error|Exception|Warning|Exit|Abort)$")
# … a crate's "Feature flags" / "Cargo features" (log, axum, libsql, mdBook): the build options a user sets
_CONFIG_DOC = re.compile(
    r"config|setting|environment|\benv\b|feature[-_ ]?flags|(?:cargo|crate|optional) features", re.IGNORECASE
)
# … and, after those, a page on the options a user passes (guzzle's "Request Options", bullmq's repeat options)
_OPTIONS_DOC = re.compile(r"options\b", re.IGNORECASE)
# "extended" qualifies something else (funcy's "Extended function semantics": what its functions take)
_EXTEND_DOC = re.compile(rf"{EXTENDING.pattern}|plugin", re.IGNORECASE)


@dataclass
class _Found:
    """What the modules declare, gathered over all of them before anything is ranked."""

    options: list[Option] = field(default_factory=list)
    flags: list[Option] = field(default_factory=list)
    settings: list[Option] = field(default_factory=list)  # build settings: CMake, Cargo, macros
    records: list[tuple[Record, bool]] = field(default_factory=list)  # (record, is a config class)
    extensions: list[Extension] = field(default_factory=list)
    # classes whose constructor raises NotImplementedError: namespaces of static methods, never instantiated
    sealed: set[str] = field(default_factory=set)
    signatures: dict[tuple[str, str], tuple[PyField, ...]] = field(default_factory=dict)  # (path, name)
    record_bases: dict[str, str] = field(default_factory=dict)  # pydeclarations.record_bases
    takes: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # a registry's parameter types
    setters: list[tuple[str, builders.Setter]] = field(default_factory=list)  # (path, a builder's setter)
    # a Go option type → the functions taking `...` it
    takers: dict[str, list[str]] = field(default_factory=dict)
    makers: list[tuple[str, builders.Setter, str]] = field(
        default_factory=list
    )  # (path, function, type made)
    # a Go package (its folder) → what its exported functions and methods return, and what it takes (their
    # parameters, its structs' fields, its function types)
    go_returns: dict[str, list[str]] = field(default_factory=dict)
    go_takes: dict[str, list[str]] = field(default_factory=dict)
    vipers: dict[str, Instances] = field(
        default_factory=dict
    )  # a Go file → what it tells each viper instance
    # plugin systems: the types a Go `Add…`/`Register…`/`Use…` function takes; each Go function's type
    # assertions with the words of its body; the functions marked as a pluggy hook (spec or implementation)
    go_taken: set[str] = field(default_factory=set)
    go_asserted: list[tuple[set[str], set[str]]] = field(default_factory=list)
    hooked: set[tuple[str, str]] = field(default_factory=set)


def read_reference(
    root: Path,
    repo_map: RepoMap,
    facts: Facts,
    linker: Linker,
    docs: ProjectDocs | None = None,
    redactor: Redactor | None = None,
) -> Reference:
    """The repository's configuration, data model and extension points, each cited at the revision."""
    found = _Found()
    found.record_bases = record_bases(facts.files.values())
    referenced = _field_references(facts)
    for path in library_modules(repo_map, facts):
        text = read_or_none(root, path, max_bytes=SOURCE_BYTES)
        if text is not None:
            handed = facts.declarations.get(path)
            _gather(
                found, path, text, facts.files[path], linker, redactor, facts.base_uses, referenced, handed
            )
    for path, name, default, line in package_viper_env(found.vipers):
        cited = linker.check(path, line)
        found.options.append(Option(name, "environment variable", _clean(default, redactor), "", cited))
    found.settings[:0] = build_settings(root, repo_map, linker, redactor)
    named = _doc_names(docs)
    face = PublicFace(facts, docs)
    records = _users_first(
        root, facts, docs, linker, redactor, _rank(found.records, named, facts), found.record_bases
    )
    extension_docs = doc_passages(docs, _EXTEND_DOC, showing=face.teaches_extending)
    taught = doc_subclassed(
        extension_docs, facts, linker, {e.symbol.name for e in found.extensions}, found.sealed
    )
    overridden, shown = doc_overridden(
        docs, facts, linker, {e.symbol.name for e in [*found.extensions, *taught]}
    )
    taught += overridden
    extension_docs += tuple(p for p in shown if p not in extension_docs)[
        : max(MAX_DOC_PASSAGES - len(extension_docs), 0)
    ]
    called = quick_start_calls(docs, facts)
    first = {name: at for at, name in enumerate(called)}  # the place of each in the examples
    _called_methods(found, root, facts, docs)
    chained = example_calls(docs)
    built = _dedupe(builder_options(found, first, chained, linker, redactor))
    built += _dedupe(functional_options(found, first, linker, redactor))
    entries = _dedupe(found.options + entry_options(found, facts, linker, redactor, first, face))[
        :MAX_OPTIONS
    ]
    # a builder whose setters the examples chain, though its own name is never resolved, comes first too
    setters = Counter(o.kind.rsplit(" ", 1)[-1] for o in built if o.name in chained)
    called += [owner for owner, count in setters.items() if count >= builders.MIN_SETTERS]
    return Reference(
        options=tuple(
            built
            + entries
            + _dedupe(_commands_named(found.flags, command_folders(root, {f.path for f in repo_map.files})))[
                :MAX_FLAGS
            ]
            + _dedupe(found.settings)[:MAX_SETTINGS]
        ),
        started=tuple(name for name in called if name in _owners(built + entries, found.records)),
        settings=_field_docs(root, facts, tuple(r for r, settings in records if settings), redactor, linker),
        records=_field_docs(
            root,
            facts,
            tuple(r for r, settings in records if not settings and not _operations_only(r))[:MAX_RECORDS],
            redactor,
            linker,
        ),
        extensions=tuple(
            _rank_extensions(
                taught
                + [e for e in _hooks_only(_plugged(root, found, docs, linker), found) if _met(e, face)]
                + _taking(face.registries(_not_hooked(registries(facts, linker), found), linker), found),
                named,
            )
        ),
        config_docs=doc_passages(docs, _CONFIG_DOC, _OPTIONS_DOC),
        extension_docs=extension_docs,
    )


def _users_first(
    root: Path,
    facts: Facts,
    docs: ProjectDocs | None,
    linker: Linker,
    redactor: Redactor | None,
    records: list[tuple[Record, bool]],
    inherited: Mapping[str, str] | None = None,
) -> list[tuple[Record, bool]]:
    """The project's classes the docs' models are made of first (modelled.py): the base they subclass, then
    the field types they declare, most used first; each a record already, else with the keyword arguments
    a model gives it (`Varchar(length=100)`; piccolo's `Table` takes its settings as class keywords,
    `class Band(Table, tablename="bands")`, in `__init_subclass__`). A settings class stays where it is."""
    bases, types = doc_models(_code_passages(docs))
    wanted = [name for name, _ in bases.most_common()]
    wanted += [name for name, _ in types.most_common() if name not in bases][: MAX_FIELD_TYPES * 2]
    classes = {symbol.name: (path, symbol) for path, symbol in _unique_classes(facts, set(wanted))}
    # the base most of the field types extend (piccolo's `Column`: null, primary_key, unique, index …) comes
    # after the model's base: what every field of a model takes
    shared = Counter(
        b.rsplit(".", 1)[-1] for name in types if name in classes for b in set(classes[name][1].bases)
    )
    common = [b for b, count in shared.most_common(1) if count >= 2 and b not in classes]
    if common and (defined := _unique_classes(facts, set(common))):
        classes[common[0]] = defined[0]
        at = next((i for i, name in enumerate(wanted) if name not in bases), len(wanted))
        wanted.insert(at, common[0])
    kept = {r.symbol.name: (r, s) for r, s in records}
    first: list[tuple[Record, bool]] = []
    for name in wanted:
        if name not in classes or len(first) >= MAX_USERS_RECORDS:
            continue
        path, symbol = classes[name]
        found = kept.get(name)
        if found is not None and found[0].symbol.path == path:
            if not found[1]:
                first.append(found)
            continue
        text = read_or_none(root, path, max_bytes=SOURCE_BYTES)
        # a model base's annotated attributes are fields of the kind its subclasses declare: beanie's
        # `Document` stands on pydantic through another package's `LazyModel`
        as_record = {**(inherited or {}), **{_base(b): "pydantic model" for b in symbol.bases}}
        arguments = (
            _model_arguments(text, symbol, as_record if name in bases else inherited)
            if text is not None and not _ERROR.search(name)
            else ()
        )
        if arguments:
            kind = MODEL_BASE if name in bases else FIELD_TYPE if name in types else FIELD_BASE
            fields = tuple(_field_line(f, path, linker, redactor) for f in arguments)
            uses = facts.files[path].name_uses.get(name, 0)
            first.append((Record(cite(symbol, path, linker), kind, fields, uses), False))
    chosen = {(r.symbol.path, r.symbol.name) for r, _ in first}
    return first + [(r, s) for r, s in records if (r.symbol.path, r.symbol.name) not in chosen]


def _code_passages(docs: ProjectDocs | None) -> list[DocPassage]:
    if docs is None:
        return []
    return [*docs.examples, *(p for c in docs.concepts for page in c.pages for p in page.passages)]


def _model_arguments(
    text: str, symbol: Symbol, inherited: Mapping[str, str] | None = None
) -> tuple[PyField, ...]:
    """The public keyword arguments a class's constructor takes (its `__new__`'s: ormar's `Integer(minimum=…)`),
    else those of its `__init_subclass__`; else, a record by what it inherits, its declared fields (beanie's
    `Document`: id, revision_id)."""
    for method in ("__init__", "__new__", "__init_subclass__"):
        arguments = method_arguments(text, symbol.start, symbol.end, method)
        if public := tuple(a for a in arguments if not a.name.startswith("_")):
            return public
    module = read_module(text, [(symbol.start, symbol.end)], inherited=inherited)
    declared = next((c for c in module.classes if c.name == symbol.name), None) if module else None
    return tuple(f for f in declared.fields if not f.name.startswith("_")) if declared else ()


def _plugged(root: Path, found: _Found, docs: ProjectDocs | None, linker: Linker) -> list[Extension]:
    """The extension points, a Go interface a plugin is passed in as or asserted to marked as a plugin's; the
    first plugin point of each file with the docs page that explains its hooks."""
    interfaces = {e.symbol.name for e in found.extensions if e.kind == "interface"}
    plugged = plugin_interfaces(found.go_taken, interfaces, found.go_asserted)
    marked = [
        replace(e, kind=PLUGIN_INTERFACE)
        if e.kind == "interface" and e.symbol.path.endswith(".go") and e.symbol.name in plugged
        else e
        for e in found.extensions
    ]
    guided: set[str] = set()
    pages = doc_words(root, docs) if any(e.kind in PLUGGED for e in marked) else []
    for at, extension in enumerate(marked):
        if extension.kind in PLUGGED and extension.symbol.path not in guided:
            guided.add(extension.symbol.path)
            names = [
                name
                for e in marked
                if e.symbol.path == extension.symbol.path and e.kind in PLUGGED
                for name in (e.symbol.name, *(h.name for h in e.hooks))
            ]
            marked[at] = replace(extension, guide=how_to(pages, names, linker))
    return marked


def _met(extension: Extension, face: PublicFace) -> bool:
    """A plugin system's hooks are what its users implement, wherever they are declared."""
    return extension.kind in PLUGGED or face.extension(extension)


def _not_hooked(registered: list[Extension], found: _Found) -> list[Extension]:
    """No function a plugin system calls (`@hookimpl`) or declares (`@hookspec`) takes anything in, whatever
    its name: datasette's `register_output_renderer` implementations listed as registries."""
    return [e for e in registered if (e.symbol.path, e.symbol.name) not in found.hooked]


def _operations_only(record: Record) -> bool:
    """An interface whose every member is a function (mermaid's ArchitectureDB: clear, getNodes, addEdge …)
    is a set of operations, not data a newcomer reads field by field: no place on the Data model page. A
    registry that takes one still shows it."""
    return all("=>" in f.type for f in record.fields)


def _beside(folder: PurePosixPath, code: set[PurePosixPath]) -> bool:
    """A folder of the code, or its `types` folder (svelte's compiler/types/, Chart.js' src/types/)."""
    return folder in code or (folder.name in {"types", "typings"} and folder.parent in code)


def library_modules(repo_map: RepoMap, facts: Facts) -> list[str]:
    """The source modules of the languages read here: no tests, examples, docs or scripts; with the
    declaration files written beside them or in their `types` folder (svelte's internal/client/types.d.ts,
    where its signals' fields are declared beside the runtime that uses them; its compiler/types/ with
    CompileOptions), never a folder of declarations alone (a build's generated types/index.d.ts), nor code
    only the tests use (facts/apart.py: expr's copies of testify, spew and difflib)."""
    languages = {f.path: f.language for f in repo_map.files}
    serving = serving_tests(facts)
    core = core_modules(repo_map)
    folders = {PurePosixPath(p).parent for p in core}
    beside = [
        f.path
        for f in repo_map.files
        if _TS_DECLARATIONS.search(f.path)
        and not is_context_file(f.path)
        and _beside(PurePosixPath(f.path).parent, folders)
    ]
    return [
        p
        for p in dict.fromkeys(core + beside)
        if languages.get(p) in LANGUAGES
        and p in facts.files
        and not (_NOT_LIBRARY.search(p) and not in_go_command(p))
        and p not in serving
    ]


def _gather(
    found: _Found,
    path: str,
    text: str,
    facts: FileFacts,
    linker: Linker,
    redactor: Redactor | None,
    subclasses: Mapping[str, int],
    referenced: Mapping[str, int] | None = None,
    handed: PyModule | None = None,
) -> None:
    referenced = referenced or {}
    found.flags += flag_options(path, text, facts.language, linker, redactor)
    lines = text.splitlines()
    for symbol in _registry_symbols(facts.symbols):
        found.takes[(path, symbol.name)] = spans.parameter_types(lines[symbol.start - 1 : symbol.end])
    found.setters += [(path, s) for s in builders.chainable_setters(lines, facts.symbols, facts.language)]
    for taker, option in builders.option_takers(text, facts.language):
        found.takers.setdefault(option, []).append(taker)
    found.makers += [
        (path, f, made) for f, made in builders.option_makers(text, facts.symbols, facts.language)
    ]
    for prefix, line in spans.env_prefixes(text, facts.symbols):
        found.options.append(Option(f"{prefix}*", "environment variable", citation=linker.check(path, line)))
    if facts.language == "python":
        if hooks := pluggy_hooks(path, text, facts.symbols, linker):
            found.extensions.append(hooks)
        found.hooked |= {
            (path, s.name) for s in facts.symbols if s.kind in _CALLABLES and hook_marked(lines, s)
        }
        _gather_python(found, path, text, facts, linker, redactor, subclasses, handed)
        return
    for name, line in spans.env_reads(text, facts.language):
        found.options.append(Option(name, "environment variable", citation=linker.check(path, line)))
    if facts.language == "go" and (instances := viper_instances(text, facts.symbols)):
        found.vipers[path] = instances
        for name, default, line in file_viper_env(instances):
            cited = linker.check(path, line)
            found.options.append(Option(name, "environment variable", _clean(default, redactor), "", cited))
    if facts.language in JVM:
        _gather_jvm(found, path, lines, facts, linker, subclasses, redactor)
        return
    if facts.language == "csharp":
        _type_extensions(found, path, lines, facts, linker, subclasses)
        _csharp_records(found, path, lines, facts, linker, redactor)
        return
    if facts.language in NATIVE:
        _gather_native(found, path, lines, facts, linker, redactor, referenced)
        found.extensions += native_extensions(path, lines, facts.symbols, facts.language, linker, subclasses)
        found.settings += (
            [_setting(s, path, linker, redactor) for s in settings.overridable_macros(text)]
            if facts.language != "rust"
            else []
        )
        return
    if facts.language == "go":
        found.extensions += _hook_setters(path, lines, facts, linker)
        found.go_taken |= go_taken(lines)
        found.go_asserted += go_asserted(lines, facts.symbols)
        returns, takes = spans.go_signature_types(text)
        found.go_returns.setdefault(posixpath.dirname(path), []).extend(returns)
        found.go_takes.setdefault(posixpath.dirname(path), []).extend(takes)
    if any(s.kind in _RECORD_KINDS or _typed_class(s, facts) for s in facts.symbols):
        _gather_types(found, path, lines, facts, linker, subclasses, redactor)
    if facts.language in JS_LANGUAGES:
        found.extensions += _emitted_events(path, text, facts, linker)
        _settings_classes(found, path, lines, facts, linker)
        _jsdoc_settings(found, path, lines, facts, linker, redactor)


def _hooks_only(extensions: list[Extension], found: _Found) -> list[Extension]:
    """The extension points without a Go package's handles: an interface its exported functions and methods
    return and nothing of it takes is what a user is handed, never what a user implements — pond's `Pool`
    (`NewPool` returns it), `TaskGroup`, `ResultTask`; negroni's `ResponseWriter` (`NewResponseWriter`).
    negroni's `Handler`, which `Use` takes, stays."""
    kept = []
    for extension in extensions:
        folder = posixpath.dirname(extension.symbol.path)
        name = re.compile(rf"(?<![\w.]){re.escape(extension.symbol.name)}\b")  # never `http.Handler`
        handle = (
            extension.kind == "interface"
            and extension.symbol.path.endswith(".go")
            and any(name.search(r) for r in found.go_returns.get(folder, ()))
            and not any(name.search(t) for t in found.go_takes.get(folder, ()))
        )
        if not handle:
            kept.append(extension)
    return kept


def _gather_python(
    found: _Found,
    path: str,
    text: str,
    facts: FileFacts,
    linker: Linker,
    redactor: Redactor | None,
    subclasses: Mapping[str, int],
    handed: PyModule | None = None,
) -> None:
    """The module's options, records and extension points, from what the facts stage read of it
    (`handed`), else from its text."""
    inherited = found.record_bases
    module = (
        handed
        if handed is not None
        else read_module(text, candidate_spans(text, facts, inherited), inherited=inherited)
    )
    if module is None:
        return
    reads = [*module.env, *(read for declared in module.classes for read in declared.env)]
    for read in reads:
        default = _clean(read.default, redactor)
        found.options.append(
            Option(read.name, "environment variable", default, "", linker.check(path, read.line))
        )
    _drop_named_prefixes(found, path, {read.name for read in reads})
    symbols = {s.name: s for s in facts.symbols}
    kept_apart = defaults_dicts(text) if module.classes else ()
    for declared in module.classes:
        symbol = symbols.get(declared.name)
        if symbol is None or not symbol.public:
            continue
        cited = cite(symbol, path, linker)
        uses = facts.name_uses.get(declared.name, 0)
        declared_fields = declared.fields if declared.record else declared.attributes
        # a plain class is a record of the data model when several modules use it and it holds some state
        plain = uses >= PLAIN_CLASS_USES and len(declared.attributes) >= 2 and not _is_error(declared)
        if declared.record and declared.fields or plain:
            declared_fields = fill_defaults(declared.name, declared_fields, kept_apart)
            fields = tuple(_field_line(f, path, linker, redactor) for f in declared_fields)
            record = Record(cited, declared.record or "class", fields, uses)
            found.records.append((record, bool(_SETTINGS.search(declared.name))))
        if any(m.name in _CONSTRUCTORS for m in declared.hooks):
            found.sealed.add(declared.name)
        extension = python_extension(declared, cited, path, facts, linker)
        extended = subclasses.get(declared.name, 0)
        if extension is not None and (extended or declared.abstract or not _derived(declared)):
            found.extensions.append(replace(extension, subclasses=extended))
    errors = {declared.name for declared in module.classes if _is_error(declared)}
    for name, arguments in module.signatures:
        if name not in errors:  # an exception's arguments (redis-py's `ConnectionError`) set no option
            found.signatures[(path, name)] = arguments


def _drop_named_prefixes(found: _Found, path: str, names: set[str]) -> None:
    """A prefix row (`APP_*`, from a settings class's `env_prefix="APP_"`) says nothing its variables, listed
    whole from the same module, do not."""
    found.options = [
        option
        for option in found.options
        if not (
            option.name.endswith("_*")
            and option.citation is not None
            and option.citation.path == path
            and any(name.startswith(option.name[:-1]) for name in names)
        )
    ]


def flag_options(
    path: str, text: str, language: str, linker: Linker, redactor: Redactor | None
) -> list[Option]:
    """The command-line flags the module declares (click, typer, argparse, cobra, Go's flag, commander),
    each at the line that declares it, grouped by the command it belongs to."""
    return [
        Option(
            flag.name,
            f"{FLAG} of {flag.command}" if flag.command else FLAG,
            _clean(flag.default, redactor),
            "",
            linker.check(path, flag.line),
            _clean(flag.help, redactor),
        )
        for flag in flags.cli_flags(text, language)
    ]


def _is_error(declared: PyClass) -> bool:
    """An exception carries a message, not the program's data."""
    return any(_ERROR.search(name) for name in (declared.name, *declared.bases))


# bases every class may name: a class naming only these derives from nothing of a library's
_ROOT_BASES = frozenset({"object", "Generic", "ABC", "Protocol"})
# a constructor raising NotImplementedError forbids making one (omegaconf's `OmegaConf`: "Use one of the
# static construction functions"), which no subclass provides
_CONSTRUCTORS = frozenset({"__init__", "__new__"})


def _derived(declared: PyClass) -> bool:
    """Whether a class extends another: raising NotImplementedError in what it inherits (omegaconf's
    `GrammarVisitor.aggregateResult`, `InterpolationResultNode.__deepcopy__`) switches it off, unless some
    class extends it in turn."""
    return any(_base(b) not in _ROOT_BASES for b in declared.bases)


def python_extension(
    declared: PyClass, cited: CitedSymbol, path: str, facts: FileFacts, linker: Linker
) -> Extension | None:
    """A class a user completes: its abstract (or NotImplementedError) methods; a protocol: its methods."""
    protocol = any(b.rsplit(".", 1)[-1] == "Protocol" for b in declared.bases)
    completed = [m for m in declared.hooks if m.name not in _CONSTRUCTORS]
    methods = completed or (declared.methods if protocol else [])
    if not methods:
        return None
    kind = "protocol" if protocol else "abstract base class" if declared.abstract else "base class"
    symbols = {s.name: s for s in facts.symbols if s.parent == declared.name}
    hooks = tuple(
        cite(symbols[name], path, linker)
        if (name := f"{declared.name}.{m.name}") in symbols
        else CitedSymbol(name, "method", path, "", linker.check(path, m.start, m.end))
        for m in methods
    )
    return Extension(cited, kind, hooks)


def _hook_setters(path: str, lines: list[str], facts: FileFacts, linker: Linker) -> list[Extension]:
    """Go functions that keep a function the caller passes (melody's `HandleMessage(fn)`, colly's
    `OnHTML(selector, f)`), or hand it on to one in their file that does (redcon's `ServeMux.HandleFunc` to
    `Handle`, `ListenAndServe` to `NewServerNetwork`): where a user's code plugs in, as a registry is. A
    method of an unexported type is none a user calls."""
    taking = {}
    for symbol in facts.symbols:
        if symbol.kind in {"function", "method"} and not symbol.stub:
            body = lines[symbol.start - 1 : symbol.end]
            if names := spans.go_callback_parameters(body):
                taking[symbol] = (body, names)
    keeping = {s for s, (body, names) in taking.items() if spans.go_stored_callbacks(body, names)}
    for _ in range(HAND_ON_HOPS):
        kept = {s.short_name for s in keeping}
        keeping |= {s for s, (body, names) in taking.items() if spans.go_passed_on(body, names) & kept}
    return [
        Extension(cite(symbol, path, linker), "registry")
        for symbol in facts.symbols
        if symbol in keeping and symbol.public and not symbol.parent[:1].islower()
    ]


# a module whose classes emit events: Node's EventEmitter (`require('events')`, `node:events`) or a twin of it
_EMITTER = re.compile(
    r"\bEventEmitter\b|require\(\s*['\"](?:node:)?events['\"]\s*\)|from\s+['\"](?:node:)?events['\"]"
    r"|['\"]eventemitter[23]?['\"]|\bextends\s+\w*Emitter\b"
)
# `this.emit('worker created', name)`: an event named by a literal, emitted by the object itself
_EMITS = re.compile(r"\b(?:this|self)\.emit\(\s*(['\"])([^'\"\n]{1,60})\1")  # `\s*`: a line break too
MIN_EVENTS = 2  # one event alone ('error') is no set of hooks a page lists


def _emitted_events(path: str, text: str, facts: FileFacts, linker: Linker) -> list[Extension]:
    """JavaScript classes that emit events (bree's `this.emit('worker created', name)`, bull's `completed`,
    p-queue's `active`): each event is where a user's code hooks in, with `.on(event, listener)`; listed with
    the line that first emits it. The class owns the method emitting it: a class's, or a prototype method of
    a constructor function (bull's `Queue.prototype.run = function …` after `util.inherits(Queue,
    EventEmitter)`)."""
    if not _EMITTER.search(text):
        return []
    owners = {s.parent for s in facts.symbols if s.parent}
    classes = {
        s.name: s
        for s in facts.symbols
        if s.public and not s.parent and (s.kind == "class" or s.kind == "function" and s.name in owners)
    }
    bodies = [s for s in facts.symbols if s.kind in {"function", "method", "class"}]
    events: dict[str, dict[str, int]] = {}
    for found in _EMITS.finditer(text):
        number = text.count("\n", 0, found.start()) + 1
        inner = max((s for s in bodies if s.start <= number <= s.end), key=lambda s: s.start, default=None)
        owner = (inner.parent or inner.name) if inner is not None else ""
        if owner in classes:
            events.setdefault(owner, {}).setdefault(found.group(2), number)
    return [
        Extension(
            cite(classes[owner], path, linker),
            "event emitter",
            tuple(
                CitedSymbol(event, "event", path, citation=linker.check(path, line))
                for event, line in emitted.items()
            ),
        )
        for owner, emitted in events.items()
        if len(emitted) >= MIN_EVENTS
    ]


def _gather_types(
    found: _Found,
    path: str,
    lines: list[str],
    facts: FileFacts,
    linker: Linker,
    subclasses: Mapping[str, int],
    redactor: Redactor | None = None,
) -> None:
    """Go structs, TypeScript interfaces and object types (`type RetryOptions = {…}`) as records, Go
    interfaces as extension points."""
    defaults = spans.go_defaults(lines) if facts.language == "go" else {}
    for symbol in facts.symbols:
        if (
            not symbol.public
            or symbol.parent
            or not (symbol.kind in _RECORD_KINDS or _typed_class(symbol, facts))
        ):
            continue
        body = lines[symbol.start - 1 : symbol.end]
        if symbol.kind == "type" and not _OBJECT_TYPE.search(body[0] if body else ""):
            continue  # an alias or a union: no fields of its own
        cited = cite(symbol, path, linker)
        if symbol.kind == "interface" and facts.language == "go":
            hooks = tuple(
                CitedSymbol(
                    f"{symbol.name}.{name}", "method", path, "", linker.check(path, symbol.start + at - 1)
                )
                for name, at in spans.interface_methods(body)
            )
            if hooks:
                methods = spans.interface_methods(body)
                found.extensions.append(
                    Extension(
                        cited,
                        "interface",
                        hooks,
                        subclasses.get(symbol.name, 0),
                        signatures=interface_signatures(body, [at for _, at in methods]),
                    )
                )
            continue
        declared = spans.struct_fields(body, facts.language)
        given = defaults.get(symbol.name, {})
        if (
            symbol.kind == "class"
        ):  # a class field's initial value is its default: immer's `autoFreeze_ = true`
            initial = {n: _initialized(kind) for n, kind, _ in declared}
            given = {n: value for n, (_, value) in initial.items() if value}
            declared = [(n, initial[n][0], at) for n, _, at in declared]
        of_settings = bool(_SETTINGS.search(symbol.name) or _OPTION_STRUCT.search(symbol.name))
        fields = tuple(
            _declared_field(name, kind, body, at, linker.check(path, symbol.start + at - 1), redactor, given)
            for name, kind, at in declared
            # a Go settings struct's unexported field (gws' `config *Config`) is none a user sets
            if not (of_settings and facts.language == "go" and name[:1].islower())
            and not (symbol.kind == "class" and name.startswith("_"))  # a class's own state, not its data
        )
        if len(fields) >= (MIN_CLASS_FIELDS if symbol.kind == "class" else 1):
            record = Record(cited, symbol.kind, fields, facts.name_uses.get(symbol.name, 0))
            found.records.append((record, of_settings))


def _initialized(kind: str) -> tuple[str, str]:
    """A class field's declared type and initial value (`boolean = true`)."""
    declared, _, value = kind.partition(" = ")
    return declared, value


def _typed_class(symbol: Symbol, facts: FileFacts) -> bool:
    """A TypeScript class declaring its fields (MIN_CLASS_FIELDS at least, none of its `_private` state) is a
    record of the data model, as a plain Python class is: superstruct's `Struct` (type, schema, coercer,
    validator, refiner, entries), which every struct is made of, was on no page. An error class carries a
    message, not data."""
    return (
        symbol.kind == "class"
        and facts.language == "typescript"
        and not any(_ERROR.search(name) for name in (symbol.name, *symbol.bases))
    )


def _declared_field(
    name: str,
    kind: str,
    body: list[str],
    at: int,
    citation: Citation | None,
    redactor: Redactor | None,
    given: Mapping[str, str] | None = None,
) -> FieldLine:
    """A struct's or interface's field with what its comment says (echo's `// AllowOrigins determines the
    value of the Access-Control-Allow-Origin response header.`) and the default the comment states, else
    the one its package's defaults literal gives it (`given`: `spans.go_defaults`)."""
    said, default = spans.field_comment(body, at)
    default = default or (given or {}).get(name, "")
    return FieldLine(name, kind, _clean(default, redactor), citation, _field_doc(said, redactor))


def _field_line(
    declared: PyField | CsField, path: str, linker: Linker, redactor: Redactor | None
) -> FieldLine:
    """A Python or C# field as its record lists it: name, type, default and what its doc says, cited."""
    return FieldLine(
        declared.name,
        declared.type,
        _clean(declared.default, redactor),
        linker.check(path, declared.line),
        _field_doc(declared.doc, redactor),
    )


def _field_doc(said: str, redactor: Redactor | None) -> str:
    """What a field's comment or docstring says it is, a sentence or two fit for a table cell."""
    return _clean(summary(said, limit=FIELD_DOC_CHARS, sections=False), redactor)


def _settings_classes(found: _Found, path: str, lines: list[str], facts: FileFacts, linker: Linker) -> None:
    """A JavaScript or TypeScript settings class (got's `class Options`) whose options are accessor pairs,
    `get retry(): Partial<RetryOptions>` and `set retry(value)`: each option a field, typed by its getter."""
    for symbol in facts.symbols:
        if symbol.kind != "class" or not symbol.public or symbol.parent or not _SETTINGS.search(symbol.name):
            continue
        accessors: dict[str, list[Symbol]] = {}
        for member in facts.symbols:
            if member.parent == symbol.name and member.kind == "property" and member.public:
                accessors.setdefault(member.short_name, []).append(member)
        fields = []
        for name, pair in accessors.items():
            getters = [
                (m, g)
                for m in pair
                if (g := _GETTER.match(lines[m.start - 1] if m.start <= len(lines) else ""))
            ]
            if len(pair) < 2 or not getters:
                continue  # read-only: the class reports it, a user does not set it
            member, getter = getters[0]
            fields.append(FieldLine(name, getter.group(1).strip(), "", linker.check(path, member.start)))
        if fields:
            record = Record(
                cite(symbol, path, linker), symbol.kind, tuple(fields), facts.name_uses.get(symbol.name, 0)
            )
            found.records.append((record, True))


def _jsdoc_settings(
    found: _Found, path: str, lines: list[str], facts: FileFacts, linker: Linker, redactor: Redactor | None
) -> None:
    """The options object a public JavaScript function or class documents property by property in its JSDoc
    (restify's `createServer`: `@param {Boolean} [options.strictNext=false] - Throws error when next() is
    called more than once`; ws' `WebSocketServer`, 20 of them): its settings, each with its default."""
    for symbol in facts.symbols:
        if not symbol.public or symbol.kind not in ("function", "class") and not symbol.exported:
            continue  # a method's options object (`Router.mount(opts)`) is the machinery's, not a user's
        documented = spans.jsdoc_options(lines, symbol.start)
        if not documented:
            continue
        fields = tuple(
            FieldLine(
                name, kind, _clean(default, redactor), linker.check(path, line), _field_doc(doc, redactor)
            )
            for name, kind, default, line, doc in documented
        )
        record = Record(cite(symbol, path, linker), "options", fields, facts.name_uses.get(symbol.name, 0))
        found.records.append((record, True))
    _read_options(found, path, lines, facts, linker, redactor)


def _read_options(
    found: _Found, path: str, lines: list[str], facts: FileFacts, linker: Linker, redactor: Redactor | None
) -> None:
    """The options a public JavaScript function or class constructor reads off its options object when its
    JSDoc does not list them (morgan's `format`, `immediate`, `skip`, `buffer`, `stream`: `opts.skip || false`;
    62 of the mirrors read an options object so): its settings, each with the default it falls back to and
    the line that first reads it."""
    documented = {r.symbol.name for r, _ in found.records if r.symbol.path == path and r.kind == "options"}
    classes = {s.name: s for s in facts.symbols if s.kind == "class" and s.public}
    for symbol in facts.symbols:
        owner = classes.get(symbol.parent) if symbol.short_name == "constructor" else None
        if owner is None and not (symbol.kind == "function" and symbol.public and not symbol.parent):
            continue
        shown = owner or symbol
        if shown.name in documented:
            continue
        fields = tuple(
            FieldLine(
                name,
                "",
                _clean(default, redactor),
                linker.check(path, symbol.start + at - 1),
                _clean(doc, redactor),
            )
            for name, default, at, doc in spans.js_option_reads(lines[symbol.start - 1 : symbol.end])
        )
        if fields:
            record = Record(cite(shown, path, linker), "options", fields, facts.name_uses.get(shown.name, 0))
            found.records.append((record, True))


_ABSTRACT = re.compile(r"\babstract\b")
_DATA_CLASS = re.compile(r"\bdata\s+class\b")
# an interface member with a body of its own, or none of an implementation's business
_NOT_A_HOOK = re.compile(r"\b(?:default|static|private)\b|\bfun\b.*\{|\bfun\b.*\)\s*(?::[^=(]*)?=")


def _gather_jvm(
    found: _Found,
    path: str,
    lines: list[str],
    facts: FileFacts,
    linker: Linker,
    subclasses: Mapping[str, int],
    redactor: Redactor | None,
) -> None:
    """Java and Kotlin interfaces and abstract classes as extension points (`_type_extensions`); their
    classes and records with the fields they declare as records (`_jvm_records`)."""
    _type_extensions(found, path, lines, facts, linker, subclasses)
    _jvm_records(found, path, lines, facts, linker, redactor)


def _type_extensions(
    found: _Found,
    path: str,
    lines: list[str],
    facts: FileFacts,
    linker: Linker,
    subclasses: Mapping[str, int],
) -> None:
    """Java, Kotlin and C# interfaces (okio's `Source`, gson's `JsonSerializer`, serilog's `ILogEventSink`)
    and abstract classes (gson's `TypeAdapter`, Polly's `ResilienceStrategy`) as extension points, each with
    the methods an implementation provides: an interface's own (not its `default` or `static` ones), an
    abstract class's `abstract` ones."""
    for symbol in facts.symbols:
        head = _header(lines, symbol)
        if symbol.kind not in {"interface", "class"} or not symbol.public or _ERROR.search(symbol.short_name):
            continue
        if symbol.kind == "class" and not _ABSTRACT.search(head):
            continue
        hooks = tuple(
            cite(member, path, linker)
            for member in facts.symbols
            if member.parent == symbol.name
            and member.kind == "method"
            and 0 < member.start <= len(lines)
            and (
                _ABSTRACT.search(lines[member.start - 1])
                if symbol.kind == "class"
                else not _NOT_A_HOOK.search(lines[member.start - 1])
            )
        )
        if hooks:
            kind = "interface" if symbol.kind == "interface" else "abstract base class"
            uses = subclasses.get(symbol.short_name, 0)
            found.extensions.append(Extension(cite(symbol, path, linker), kind, hooks, uses))


_DECLARES = re.compile(r"\b(?:class|interface|record|struct|object)\b")
HEADER_LINES = 8  # attribute or annotation lines a type's declaration may start with


def _header(lines: list[str], symbol: Symbol) -> str:
    """The line that declares `symbol`'s type: its first, unless attributes or annotations open the span
    (C#'s `[UnconditionalSuppressMessage(…)]` above `public abstract class …`)."""
    span = lines[max(symbol.start - 1, 0) : min(symbol.start - 1 + HEADER_LINES, symbol.end, len(lines))]
    return next((line for line in span if _DECLARES.search(line)), span[0] if span else "")


def _csharp_records(
    found: _Found, path: str, lines: list[str], facts: FileFacts, linker: Linker, redactor: Redactor | None
) -> None:
    """C# classes, structs and records with the public properties and fields they declare (csharp.py) as
    records, each field with what its `<summary>` says and the default its `<value>` states: a record with
    one field or more, a class or struct with two or more; an options class (`RetryStrategyOptions`) is a
    settings record."""
    for symbol in facts.symbols:
        if symbol.kind not in {"class", "record", "struct"} or not symbol.public:
            continue
        if _ERROR.search(symbol.short_name):
            continue
        members = [m for m in facts.symbols if m.parent == symbol.name]
        declared = csharp_fields(lines, symbol, members)
        if len(declared) < (1 if symbol.kind == "record" else 2):
            continue
        fields = tuple(_field_line(f, path, linker, redactor) for f in declared)
        uses = facts.name_uses.get(symbol.name, facts.name_uses.get(symbol.short_name, 0))
        record = Record(cite(symbol, path, linker), symbol.kind, fields, uses)
        found.records.append((record, bool(_SETTINGS.search(symbol.short_name))))


def _jvm_records(
    found: _Found, path: str, lines: list[str], facts: FileFacts, linker: Linker, redactor: Redactor | None
) -> None:
    """Java classes and records, Kotlin classes with the fields they declare (jvm.py) as records: a Java
    record or a Kotlin data class with one field or more, any other class with two or more."""
    for symbol in facts.symbols:
        head = _header(lines, symbol)
        if symbol.kind not in {"class", "record"} or not symbol.public or _ERROR.search(symbol.short_name):
            continue
        members = [m for m in facts.symbols if m.parent == symbol.name]
        declared = jvm_fields(lines, symbol, members, facts.language)
        data = symbol.kind == "record" or bool(_DATA_CLASS.search(head))
        if len(declared) < (1 if data else 2):
            continue
        body = lines[symbol.start - 1 : symbol.end]
        fields = tuple(
            replace(field, default=field.default or _clean(default, redactor))
            for name, kind, default, at in declared
            if (
                field := _declared_field(
                    name, kind, body, at - symbol.start + 1, linker.check(path, at), redactor
                )
            )
        )
        kind = "data class" if _DATA_CLASS.search(head) else symbol.kind
        uses = facts.name_uses.get(symbol.name, facts.name_uses.get(symbol.short_name, 0))
        record = Record(cite(symbol, path, linker), kind, fields, uses)
        found.records.append((record, bool(_SETTINGS.search(symbol.short_name))))


def _gather_native(
    found: _Found,
    path: str,
    lines: list[str],
    facts: FileFacts,
    linker: Linker,
    redactor: Redactor | None,
    referenced: Mapping[str, int],
) -> None:
    """C and C++ structs, unions, classes and typedef'd structs, Rust structs and enums, with the fields
    the facts read (an enum's variants, typed by their payload) and what each field's comment says; a Rust
    type's derive attributes name its kind (`struct deriving Serialize, Deserialize`)."""
    types = {s.name for s in facts.symbols if s.kind in _NATIVE_RECORDS}
    for symbol in facts.symbols:
        declared = facts.fields.get(symbol.name)
        if not declared or symbol.kind not in _NATIVE_RECORDS or not symbol.public or symbol.parent in types:
            continue
        if _ERROR.search(symbol.short_name):
            continue  # an error enum carries a failure, not the program's data (as a Python exception)
        # its doc, its lines' citations and what each field's comment says are read once the records are
        # ranked (`_field_docs`): a large C code base declares tens of thousands of fields, and the page
        # shows MAX_RECORDS types; until then a field's citation holds its line alone
        fields = tuple(
            FieldLine(name, kind, "", Citation(path, line, line, ""))
            for name, kind, line in declared
            if symbol.start <= line <= symbol.end  # a type defined twice (`#ifdef` branches): this one's
        )
        if not fields:
            continue
        uses = referenced.get(symbol.short_name, 0)
        cited = CitedSymbol(symbol.name, symbol.kind, path, "", Citation(path, symbol.start, symbol.end, ""))
        record = Record(cited, _native_kind(symbol.kind, lines, symbol.start), fields, uses)
        found.records.append((record, bool(_SETTINGS.search(symbol.short_name))))


_NATIVE_RECORDS = frozenset({"struct", "class", "enum", "union", "type"})
ATTRIBUTE_LINES = 30  # lines above a Rust type read for its derive attributes


def _field_docs(
    root: Path, facts: Facts, records: tuple[Record, ...], redactor: Redactor | None, linker: Linker
) -> tuple[Record, ...]:
    """The C, C++ and Rust records shown, cited, each field with what its comment says and the default it
    states (the other languages' records are read with theirs)."""
    texts: dict[str, list[str] | None] = {}
    shown = []
    for record in records:
        symbol = record.symbol
        fact = facts.files.get(symbol.path)
        if fact is None or fact.language not in NATIVE or symbol.citation is None:
            shown.append(record)
            continue
        if symbol.path not in texts:
            text = read_or_none(root, symbol.path, max_bytes=SOURCE_BYTES)
            texts[symbol.path] = text.splitlines() if text is not None else None
        lines = texts[symbol.path]
        start, end = symbol.citation.start, symbol.citation.end
        if lines is None:
            shown.append(record)
            continue
        body = lines[start - 1 : end]
        fields = tuple(
            _declared_field(
                f.name,
                f.type,
                body,
                f.citation.start - start + 1,
                linker.check(symbol.path, f.citation.start),
                redactor,
            )
            if f.citation is not None and start <= f.citation.start <= end
            else f
            for f in record.fields
        )
        if fact.language == "rust":  # a field's `///` comment sits above its attributes (`#[arg(long)]`)
            fields = tuple(
                replace(f, doc=_field_doc(flags.rust_doc(body, f.citation.start - start + 1), redactor))
                if not f.doc and f.citation is not None
                else f
                for f in fields
            )
        defined = next((s for s in fact.symbols if s.name == symbol.name and s.start == start), None)
        cited = cite(defined, symbol.path, linker) if defined is not None else symbol
        shown.append(replace(record, symbol=cited, fields=fields))
    return tuple(shown)


_DERIVE = re.compile(r"#\[derive\(([^)]*)\)\]")
_PLAIN_DERIVES = frozenset(
    {"Debug", "Clone", "Copy", "PartialEq", "Eq", "Hash", "PartialOrd", "Ord", "Default"}
)


def _native_kind(kind: str, lines: list[str], start: int) -> str:
    """A Rust type's kind with what its derive attributes add beyond the everyday traits: `struct deriving
    Parser` (clap's command-line arguments), `struct deriving Serialize, Deserialize`."""
    derives: list[str] = []
    index = start - 2
    # its attributes and doc comment, up to the item before it (an attribute may span lines: `#[command(`)
    while index >= max(0, start - 2 - ATTRIBUTE_LINES):
        text = lines[index].strip()
        if not text or text.endswith(("}", ";")):
            break
        for listed in _DERIVE.findall(text):
            derives += [d.strip().rsplit("::", 1)[-1] for d in listed.split(",") if d.strip()]
        index -= 1
    shown = [d for d in dict.fromkeys(derives) if d not in _PLAIN_DERIVES]
    return f"{kind} deriving {', '.join(shown)}" if shown else kind


def _field_references(facts: Facts) -> dict[str, int]:
    """How many C, C++ and Rust modules declare a field of each type (`redisContext.reader` in hiredis.h
    names redisReader): which records the others are built from."""
    counted: dict[str, set[str]] = {}
    for path, fact in facts.files.items():
        for owner, declared in fact.fields.items():
            for _, written, _ in declared:
                name = type_name(written, element=True)
                if name and name != owner.rsplit(".", 1)[-1]:
                    counted.setdefault(name, set()).add(path)
    return {name: len(paths) for name, paths in counted.items()}


def build_settings(root: Path, repo_map: RepoMap, linker: Linker, redactor: Redactor | None) -> list[Option]:
    """The CMake options and Cargo features the build's manifests declare, at the root or one folder
    below it (a workspace's crates), never a test's or an example's."""
    readers = {"CMakeLists.txt": settings.cmake_options, "Cargo.toml": settings.cargo_features}
    found: list[Option] = []
    for entry in repo_map.files:
        name = PurePosixPath(entry.path)
        reader = readers.get(name.name)  # the name first: the folder test is asked of manifests only
        if reader is None or len(name.parts) > MANIFEST_DEPTH + 1 or _NOT_LIBRARY.search(entry.path):
            continue
        text = read_or_none(root, entry.path, max_bytes=SOURCE_BYTES)
        if text is not None:
            found += [_setting(s, entry.path, linker, redactor) for s in reader(text)]
    return found


def _setting(setting: settings.Setting, path: str, linker: Linker, redactor: Redactor | None) -> Option:
    return Option(
        setting.name,
        setting.kind,
        _clean(setting.default, redactor),
        "",
        linker.check(path, setting.line),
        _clean(setting.help, redactor),
    )


# a getter's first line with its return type: `get retry(): Partial<RetryOptions> {`
_GETTER = re.compile(r"^\s*(?:public\s+)?get\s+[\w$]+\s*\(\s*\)\s*:\s*(.+?)\s*\{?\s*$")
_RECORD_KINDS = frozenset({"struct", "interface", "type"})
# the first line of a TypeScript object type: `export type RetryOptions = {`, `type Hooks<T> = {`
_OBJECT_TYPE = re.compile(r"\btype\s+[\w$]+(?:<[^=]*>)?\s*=\s*\{\s*$")


def entry_options(
    found: _Found,
    facts: Facts,
    linker: Linker,
    redactor: Redactor | None = None,
    first: Mapping[str, int] | None = None,
    face: PublicFace | None = None,
) -> list[Option]:
    """The keyword arguments (with defaults) of the names the package's top level re-exports: what a user
    passes to its main classes and functions; and of the methods the project's own examples call on them
    (dogpile.cache's `region.configure(…)`, whose backend, expiration time and arguments are its whole
    set-up). What the examples call first (dataset's `connect` before its `Table`), then the most imported
    entries. With `face`, of the classes and functions the docs call, when they call some (`PublicFace`)."""
    first = first or {}
    entries = [
        (facts.files[path].name_uses.get(name, 0), path, name, arguments)
        for (path, name), arguments in found.signatures.items()
        if arguments
        and (name in facts.files[path].api_names or name in facts.files[path].exports or "." in name)
        and _sets_up(facts.files[path], name, arguments, name in first)
    ]
    if face is not None:
        built = face.built_by_docs(e[2] for e in entries if "." not in e[2])
        entries = [e for e in entries if "." in e[2] or e[2] in built or e[2] in first]
    # of two entries one name (redis-py's `Redis` and its asyncio twin), the one the package's top exports
    top = {(path, name) for _, path, name, _ in entries if name in facts.files[path].api_names}
    entries = [e for e in entries if (e[1], e[2]) in top or all(name != e[2] for _, name in top)]
    entries.sort(key=lambda e: (first.get(e[2], len(first)), -e[0], -len(e[3]), e[1], e[2]))
    # the methods come beside the entries, not in their place: sanic's `route` options and its `Config`'s
    kept = {(e[1], e[2]) for e in [e for e in entries if "." not in e[2]][:MAX_ENTRIES]}
    return [
        Option(
            a.name,
            f"argument of {name}",
            a.default,
            a.type,
            linker.check(path, a.line),
            _field_doc(a.doc, redactor),
        )
        for _, path, name, arguments in entries
        if "." in name or (path, name) in kept
        for a in arguments
    ]


def _sets_up(file: FileFacts, name: str, arguments: Sequence[PyField], called: bool = False) -> bool:
    """Whether an entry's optional arguments are what a user sets it up with: a class's (its constructor's,
    cachetools' `LRUCache(maxsize, getsizeof=None)`), or a function's taking several (dataset's `connect(url,
    schema=None, engine_kwargs=None, …)`). The one or two a function takes are an operation's, as of a method
    (METHOD_SETTINGS): funcy's `some(pred, seq=EMPTY)`, more-itertools' `nth(iterable, n, default=None)` — a
    function library's Configuration page had listed its functions' arguments. Unless they can be given by
    name only and the examples call it: anyio's `run(func, *args, backend="asyncio", backend_options=None)`
    is how a program chooses its event loop."""
    if "." in name or len(arguments) >= METHOD_SETTINGS:
        return True
    if called and any(a.keyword_only for a in arguments):
        return True
    return any(s.name == name and s.kind == "class" for s in file.symbols)


def _called_methods(found: _Found, root: Path, facts: Facts, docs: ProjectDocs | None) -> None:
    """The keyword arguments of the Python methods the project's examples call (`Region.configure`), read
    from their class (a class no page showed was never parsed for them), when they take several: one
    optional argument (aiocache's `delete(key, namespace=None)`) is an operation's, not a set-up's."""
    for cited in docs.example_symbols if docs is not None else ():
        owner, _, method = cited.name.rpartition(".")
        if (
            not owner
            or "." in owner
            or method.startswith("_")
            or (cited.path, cited.name) in found.signatures
        ):
            continue
        file = facts.files.get(cited.path)
        if file is None or file.language != "python":
            continue
        declared = next((s for s in file.symbols if s.name == owner and s.kind == "class"), None)
        text = read_or_none(root, cited.path, max_bytes=SOURCE_BYTES) if declared is not None else None
        arguments = method_arguments(text, declared.start, declared.end, method) if declared and text else ()
        if len(arguments) >= METHOD_SETTINGS:
            found.signatures[(cited.path, cited.name)] = arguments


def quick_start_calls(docs: ProjectDocs | None, facts: Facts) -> list[str]:
    """What the project's own examples call, in the order they first do, each with the type a called method
    belongs to (`Caffeine.newBuilder` names Caffeine): the entries whose settings a newcomer meets first. A
    function counts when the package's top level defines or re-exports it (dataset's `connect`, anyio's
    `run`; not a `run` of a submodule that an example's `app.run()` was resolved to), a class unless the
    examples call others of its kind (tortoise's `IntField`, `TextField`: the fields of the user's own model,
    not an entry) and it is no options class."""
    if docs is None:
        return []
    bases = {  # read from the examples' own classes' files: a test file the shards do not show stays unread
        s.name: s.bases
        for cited in docs.example_symbols
        if cited.kind == "class" and cited.path in facts.files
        for s in facts.files[cited.path].symbols
        if s.name == cited.name
    }
    kinds = Counter(
        _base(b) for s in docs.example_symbols if s.kind == "class" for b in bases.get(s.name, ())
    )
    names = []
    for cited in docs.example_symbols:
        file = facts.files.get(cited.path)
        exported = file is not None and cited.name in file.api_names  # anyio's `run`, re-exported at its top
        if cited.kind == "function" and not _top_level(cited.path) and not exported:
            continue
        family = any(kinds[_base(b)] > 1 for b in bases.get(cited.name, ()))
        if cited.kind == "class" and family and not _SETTINGS.search(cited.name):
            continue  # … though several options classes (Polly's strategies' `…StrategyOptions`) are
        names += [cited.name.rsplit(".", 1)[0], cited.name]
    return list(dict.fromkeys(names))


def _base(written: str) -> str:
    """A base class as a plain name: `fields.Field[int]` → Field, `Base<T>` → Base."""
    return re.split(r"[\[<(]", written, maxsplit=1)[0].rsplit(".", 1)[-1].strip()


def _top_level(path: str) -> bool:
    """A module at the root, or a top-level package's `__init__.py`."""
    parts = PurePosixPath(path).parts
    return len(parts) == 1 or (len(parts) == 2 and parts[1] == "__init__.py")


def example_calls(docs: ProjectDocs | None) -> frozenset[str]:
    """The names the examples' code calls as written, resolved or not (`maximumSize` in
    `Caffeine.newBuilder().maximumSize(10_000)`)."""
    if docs is None:
        return frozenset()
    return frozenset(n for p in docs.examples if p.kind == "code" for n in called_names(p.text, "example.py"))


def builder_options(
    found: _Found,
    first: Mapping[str, int],
    chained: frozenset[str],
    linker: Linker,
    redactor: Redactor | None,
) -> list[Option]:
    """The chainable setters of the builders a user configures: those of the types the examples call first
    (rust-threadpool's `Builder`), then of those whose setters the examples chain (caffeine's `Caffeine`),
    then of the types named as builders or settings (rayon's `ThreadPoolBuilder`), the most setters first,
    MAX_BUILDERS of them; a type that merely returns itself (a linked list's `Node`) is none."""
    owners: dict[tuple[str, str], list[builders.Setter]] = {}
    for path, setter in found.setters:
        owners.setdefault((path, setter.method.parent), []).append(setter)
    ranked = sorted(
        (rank, -len(setters), path, owner)
        for (path, owner), setters in owners.items()
        if (rank := _builder_rank(owner, setters, first, chained)) is not None
    )
    # of two builders one name (env_logger's `Builder` and its env_filter crate's), the first: their rows
    # had shared one table, the second's setters of the same names dropped and its `parse` left among the
    # first's as if it were one of them
    first_of: dict[str, str] = {}
    for _, _, path, owner in ranked:
        first_of.setdefault(owner, path)
    shown = list(first_of.items())[:MAX_BUILDERS]
    return [
        _setter_option(s, f"{SETTER} {owner}", path, linker, redactor)
        for owner, path in shown
        for s in owners[(path, owner)]
    ]


def _setter_option(
    setter: builders.Setter, kind: str, path: str, linker: Linker, redactor: Redactor | None
) -> Option:
    """A setter (or an option function) as an option: its name, what it takes and what its doc says."""
    method = setter.method
    return Option(
        method.short_name,
        kind,
        "",
        setter.takes,
        linker.check(path, method.start, method.end),
        _field_doc(method.doc_source, redactor),
    )


def functional_options(
    found: _Found, first: Mapping[str, int], linker: Linker, redactor: Redactor | None
) -> list[Option]:
    """Go's functional options: the exported functions that make a value of a type an exported function
    takes as its trailing `...Option` (ants' `WithPreAlloc` for `NewPool(size, ...Option)`, robfig/cron's
    `WithSeconds` for `New`, kong's `Name` for `New`), each under the taker the examples call first."""
    made: dict[str, list[tuple[str, builders.Setter]]] = {}
    for path, function, option in found.makers:
        if option in found.takers and function.method.name not in found.takers[option]:
            made.setdefault(option, []).append((path, function))
    options = []
    for option, functions in made.items():
        if len(functions) < builders.MIN_SETTERS:
            continue
        entry = min(found.takers[option], key=lambda name: (first.get(name, len(first)), name))
        options += [_setter_option(f, f"{MAKER} {entry}", path, linker, redactor) for path, f in functions]
    return options


def _builder_rank(
    owner: str, setters: list[builders.Setter], first: Mapping[str, int], chained: frozenset[str]
) -> tuple[int, int, int] | None:
    """Where a builder stands: the examples call it (first what they call first), chain its setters, or
    it is named as a builder; of two of one name, the one whose setters the examples chain leads."""
    used = sum(s.method.short_name in chained for s in setters)
    if owner in first:
        return 0, first[owner], -used
    if used >= builders.MIN_SETTERS:
        return 1, 0, -used
    named = _BUILDER.search(owner.rsplit(".", 1)[-1]) or _SETTINGS.search(owner.rsplit(".", 1)[-1])
    return (2, 0, 0) if named else None


def _owners(options: Iterable[Option], records: Iterable[tuple[Record, bool]]) -> set[str]:
    """The entries with settings: `argument of connect` → connect, `setting of Builder` → Builder, and the
    settings classes."""
    return {o.kind.rsplit(" ", 1)[-1] for o in options} | {
        r.symbol.name for r, settings in records if settings
    }


def doc_subclassed(
    passages: Iterable[DocPassage],
    facts: Facts,
    linker: Linker,
    known: set[str],
    sealed: Collection[str] = (),
) -> list[Extension]:
    """The classes the docs' how-to subclasses (`class AliasedGroup(click.Group)`) or names with methods to
    override (`Group.get_command`), with those methods: a base class by the docs' own word. A `sealed`
    class's methods are static, called through it (omegaconf's `OmegaConf.register_resolver()`), not
    overridden."""
    texts = [p.text for p in passages]
    spans = {name.rsplit(".", 1)[-1] for text in texts for name in _DOC_SPAN.findall(text)}
    subclassed = {base.rsplit(".", 1)[-1] for text in texts for base in _DOC_BASE.findall(text)}
    spans_of = {
        name.rsplit(".", 2)[-2]: name for text in texts for name in _DOC_SPAN.findall(text) if name.count(".")
    }
    found = []
    for path, symbol in _unique_classes(facts, subclassed | set(spans_of)):
        if symbol.name in known or (symbol.name in sealed and symbol.name not in subclassed):
            continue
        methods = [
            s
            for s in facts.files[path].symbols
            if s.parent == symbol.name and s.short_name in spans and s.public
        ]
        if methods or symbol.name in subclassed:
            hooks = tuple(cite(m, path, linker) for m in methods)
            found.append(Extension(cite(symbol, path, linker), TAUGHT, hooks))
    return found


# a class a docs example defines on a base (`class JSONDisk(diskcache.Disk):`) and the methods it defines
_DOC_CLASS = re.compile(r"^([ \t]*)class\s+\w+\(\s*([A-Za-z_][\w.]*)[^\n]*:[ \t]*$", re.MULTILINE)
_DOC_DEF = re.compile(r"^[ \t]+(?:async\s+)?def\s+(\w+)", re.MULTILINE)
# a doctest's prompts (`>>> class MyCache(LRUCache):`, `...     def popitem(self):`): cachetools', peewee's and
# Django REST framework's docs subclass in doctests
_DOCTEST_PROMPT = re.compile(r"^([ \t]*)(?:>>>|\.\.\.)(?: |$)", re.MULTILINE)


def doc_overridden(
    docs: ProjectDocs | None, facts: Facts, linker: Linker, known: set[str]
) -> tuple[list[Extension], list[DocPassage]]:
    """The project's classes a docs example, wherever it stands, subclasses to override their methods
    (diskcache's tutorial section "Disk": `class JSONDisk(diskcache.Disk)` defining `put` and `get`), with
    those methods; and the examples, each after the paragraph leading into it. A subclass that only declares
    fields (`class Person(Model)`) extends nothing."""
    passages = [p for c in docs.concepts for page in c.pages for p in page.passages] if docs else []
    overrides: dict[str, set[str]] = {}
    # each example: the bases it subclasses, and the passages showing it
    examples: list[tuple[set[str], list[DocPassage]]] = []
    for at, passage in enumerate(passages):
        found = _overrides(passage.text) if passage.kind == "code" else {}
        for base, names in found.items():
            overrides.setdefault(base, set()).update(names)
        if found:
            lead = passages[at - 1] if at and passages[at - 1].kind == "paragraph" else None
            shown = [p for p in (lead, passage) if p is not None and p.heading == passage.heading]
            examples.append((set(found), shown))
    extensions, kept = [], set()
    for path, symbol in _unique_classes(facts, set(overrides)):
        methods = [
            m
            for m in facts.files[path].symbols
            if m.parent == symbol.name and m.short_name in overrides[symbol.short_name] and m.public
        ]
        if methods and symbol.name not in known:
            hooks = tuple(cite(m, path, linker) for m in methods)
            extensions.append(Extension(cite(symbol, path, linker), TAUGHT, hooks))
            kept.add(symbol.short_name)
    return extensions, [p for bases, shown in examples if bases & kept for p in shown]


def _overrides(code: str) -> dict[str, set[str]]:
    """Base class name (its last part) → the public methods a code block's subclasses of it define (in a
    doctest, as the prompts leave it)."""
    found: dict[str, set[str]] = {}
    code = _DOCTEST_PROMPT.sub(r"\1", code)
    for match in _DOC_CLASS.finditer(code):
        margin = len(match.group(1).expandtabs())
        body = []
        for line in code[match.end() :].split("\n")[1:]:
            if line.strip() and len(line.expandtabs()) - len(line.lstrip()) <= margin:
                break
            body.append(line)
        # `__init__`, `__str__` and a private helper are the subclass's own, not what the base asks of it
        names = {n for n in _DOC_DEF.findall("\n".join(body)) if not n.startswith("_")}
        if names:
            found.setdefault(match.group(2).rsplit(".", 1)[-1], set()).update(names)
    return found


def _unique_classes(facts: Facts, names: set[str]) -> list[tuple[str, Symbol]]:
    """Each of `names` that one library module defines as a class (a name defined twice is ambiguous; a
    test's own type, `fooTest`'s `type Handler struct` in a `_test.go`, is no second definition: a test,
    like a test folder, is no library module)."""
    by_name: dict[str, list[tuple[str, Symbol]]] = {}
    serving = serving_tests(facts) if names else frozenset()
    for path, file_facts in facts.files.items():
        if not names or _NOT_LIBRARY.search(path) or path in serving or is_context_file(path):
            continue
        for symbol in file_facts.symbols:
            if symbol.kind == "class" and not symbol.parent and symbol.name in names and symbol.public:
                by_name.setdefault(symbol.name, []).append((path, symbol))
    return [defined[0] for defined in by_name.values() if len(defined) == 1]


def registries(facts: Facts, linker: Linker) -> list[Extension]:
    """Functions that register a plugin, hook, handler or middleware (`register`, `use`, `add_hook`…),
    each saying whether it is deprecated by its doc or its own body's warning (omegaconf's
    `register_new_resolver` warns "register_new_resolver() is deprecated")."""
    found = []
    serving = serving_tests(facts)
    for path, file_facts in facts.files.items():
        # a test's own helper (fx's example_test.go `Register`, mounting the example's handler) registers nothing
        if _NOT_LIBRARY.search(path) or path.startswith(".") or path in serving or is_context_file(path):
            continue
        for symbol in _registry_symbols(file_facts.symbols):
            cited = cite(symbol, path, linker)
            if facts.calls is not None and facts.calls.deprecated((path, symbol.name)):
                cited = replace(cited, deprecated=True)
            found.append(Extension(cited, "registry"))
    return found[: MAX_REGISTRIES * 4]


def _taking(registered: list[Extension], found: _Found) -> list[Extension]:
    """Each registry with the records its parameters are typed as (a name two modules define is neither):
    what a plugin passed to it is made of, field by field. A configuration class is the settings it reads,
    not the shape of what it registers (OpenHands' register_custom_agents takes the whole OpenHandsConfig)."""
    defined: dict[str, list[Record]] = {}
    settings = set()
    for record, is_settings in found.records:
        defined.setdefault(record.symbol.name, []).append(record)
        if is_settings:
            settings.add(record.symbol.name)
    return [
        replace(
            e,
            takes=tuple(
                defined[name][0]
                for name in dict.fromkeys(found.takes.get((e.symbol.path, e.symbol.name), []))
                if len(defined.get(name, ())) == 1 and name not in settings
            ),
        )
        for e in registered
    ]


def _registry_symbols(symbols: Iterable[Symbol]) -> Iterable[Symbol]:
    return (
        s
        for s in symbols
        if s.public and not s.stub and s.kind in {"function", "method"} and _REGISTRY.fullmatch(s.short_name)
    )


def doc_passages(
    docs: ProjectDocs | None, *about: re.Pattern[str], showing: Callable[[DocPage], bool] | None = None
) -> tuple[DocPassage, ...]:
    """The passages of the doc pages about the subject, in the docs' order: the pages whose file name says
    so first (`environment_variables.md`), then those whose title does; a later pattern's pages after an
    earlier one's. `showing`: what a page must show to be about it."""
    if docs is None:
        return ()
    pages = [p for c in docs.concepts for p in c.pages if showing is None or showing(p)]
    chosen = []
    for pattern in about:
        chosen += [p for p in pages if pattern.search(PurePosixPath(p.path).stem)]
        chosen += [p for p in pages if pattern.search(p.title)]
    unique = list({p.path: p for p in chosen}.values())[:DOC_PAGES]
    return within([passage for page in unique for passage in page.passages], MAX_DOC_PASSAGES)


# a Go composite literal of a type (`redis.NewClient(&redis.Options{`, `koanf.Conf{`, `plugin.ClientConfig{`):
# the value a user fills in, though no example calls it
_LITERAL = re.compile(r"(?:&|\b)(?:[a-z]\w*\.)([A-Z]\w*)\{")


def _doc_names(docs: ProjectDocs | None) -> frozenset[str]:
    if docs is None:
        return frozenset()
    filled = [m for p in docs.examples if p.kind == "code" for m in _LITERAL.findall(p.text)]
    return frozenset(
        [s.name for c in docs.concepts for s in c.symbols] + [s.name for s in docs.example_symbols] + filled
    )


def _rank(
    records: list[tuple[Record, bool]], named: frozenset[str], facts: Facts | None = None
) -> list[tuple[Record, bool]]:
    """The most central first: modules that import it, a mention in the docs, then how much it holds; a
    twin folded into the one of its name the package's top level exports, else the first."""
    unique = {(r.symbol.path, r.symbol.name): (r, s) for r, s in records}
    ranked = sorted(unique.values(), key=lambda rs: (-_centrality(rs[0], named), rs[0].symbol.name))
    return _fold_twins(ranked, facts)


def _fold_twins(ranked: list[tuple[Record, bool]], facts: Facts | None = None) -> list[tuple[Record, bool]]:
    """Records of one name with mostly the same fields shown once: redis-py defines `Redis`, `Pipeline`,
    `ConnectionPool`, `Lock` … in redis/ and again in redis/asyncio/, and its Data model page gave each
    twice, eight pairs in its first twenty; the one `import redis` gives keeps the others' files. Records
    that share a name only (fiber's `Config` of each middleware, each in a package of its own) stay apart."""

    def preferred(record: Record) -> tuple[bool, int]:
        """Exported by the package's top level; else nearer its root (redis/client.py's `Pipeline`)."""
        fact = facts.files.get(record.symbol.path) if facts is not None else None
        return fact is not None and record.symbol.name in fact.api_names, -record.symbol.path.count("/")

    kept: list[tuple[Record, bool]] = []
    for record, of_settings in ranked:
        names = {f.name for f in record.fields}
        at = next(
            (
                i
                for i, (other, was) in enumerate(kept)
                if other.symbol.name == record.symbol.name
                and was == of_settings
                and _nested(record.symbol.path, other.symbol.path)
                and _alike(names, other)
            ),
            None,
        )
        if at is None:
            kept.append((record, of_settings))
            continue
        first = kept[at][0]
        if preferred(record) > preferred(first):  # the twin users import leads in its place
            first, record = replace(record, twins=first.twins), first
        kept[at] = (replace(first, twins=(*first.twins, record.symbol.path)), of_settings)
    return kept


def _nested(one: str, other: str) -> bool:
    """Whether one file is the other with folders put into its path: a twin package inside the package
    (redis/asyncio/client.py beside redis/client.py, redis/asyncio/multidb/config.py beside
    redis/multidb/config.py, falcon/asgi/request.py), not a sibling package's file of the same name (fiber's
    middleware/csrf/config.go and middleware/session/config.go are two middlewares)."""
    short, long = sorted((PurePosixPath(one).parts, PurePosixPath(other).parts), key=len)
    if len(short) == len(long) or short[-1] != long[-1]:
        return False
    rest = iter(long)
    return all(part in rest for part in short)  # short's parts, in order, among long's


def _alike(names: set[str], other: Record) -> bool:
    """Whether two records' fields are mostly the same: two or more shared, and at least half of all the
    fields either has (fiber's middleware `Config`s share `Next` and little else: etag's `Next, Weak` is no
    twin of compress's `Next, Level`)."""
    theirs = {f.name for f in other.fields}
    shared = len(names & theirs)
    return shared >= 2 and 2 * shared >= len(names | theirs)


def _centrality(record: Record, named: frozenset[str]) -> int:
    return 2 * record.uses + (DOC_WEIGHT if record.symbol.name in named else 0) + min(len(record.fields), 8)


def _rank_extensions(extensions: list[Extension], named: frozenset[str]) -> list[Extension]:
    """A plugin system's hooks first (in their file's order), then the classes the docs subclass, those the
    docs name, those most extended; the registries after them. Plugin points have room of their own: gqlgen's
    seven plugin interfaces had lost their places to `Marshaler` and a test server's interface."""
    classes = sorted(
        (e for e in extensions if e.kind != "registry"),
        key=lambda e: (
            (False, False, False, 0, 0, e.symbol.path, str(_line(e.symbol)).zfill(8))
            if e.kind in PLUGGED
            else (
                True,
                e.kind != TAUGHT,
                e.symbol.name not in named,
                -e.subclasses,
                -len(e.hooks),
                e.symbol.path,
                e.symbol.name,
            )
        ),
    )
    first: dict[str, Extension] = {}
    for extension in classes:  # a type defined once per build tag is shown once
        first.setdefault(extension.symbol.name, extension)
    classes = list(first.values())
    # a registry by its name (`Use`) that keeps the function it takes is one registry
    registered = list(
        {(e.symbol.path, e.symbol.name): e for e in extensions if e.kind == "registry"}.values()
    )
    registered.sort(key=lambda e: (e.symbol.name not in named, e.symbol.path, e.symbol.name))
    plugged = sum(1 for e in classes if e.kind in PLUGGED)
    room = max(MAX_EXTENSIONS - min(len(registered), MAX_REGISTRIES), min(plugged, MAX_PLUGGED))
    return classes[:room] + registered[:MAX_REGISTRIES]


def _line(symbol: CitedSymbol) -> int:
    return symbol.citation.start if symbol.citation else 0


def _commands_named(found: list[Option], commands: Mapping[str, str]) -> list[Option]:
    """Flags under the command the project installs their module's folder as (`taskiq worker`), else the
    parser or function declaring them; one parser variable's name (argparse's `parser`) in two modules is
    two commands, each named with its module: their flags never merge into one table."""
    modules: dict[str, set[str]] = {}
    for option in found:
        modules.setdefault(option.kind, set()).add(option.citation.path if option.citation else "")
    named: list[Option] = []
    for option in found:
        path = option.citation.path if option.citation else ""
        if command := commands.get(posixpath.dirname(path)):
            option = replace(option, kind=f"{FLAG} of {command}")
        elif len(modules[option.kind]) > 1 and option.kind != FLAG and path:
            option = replace(option, kind=f"{option.kind} in {path}")
        named.append(option)
    return named


def _dedupe(options: list[Option]) -> list[Option]:
    """One row per (name, kind): the first place a variable is read."""
    first: dict[tuple[str, str], Option] = {}
    for option in options:
        first.setdefault((option.name, option.kind), option)
    return list(first.values())


def _clean(value: str, redactor: Redactor | None) -> str:
    return redactor.redact(value)[0] if redactor is not None and value else value
