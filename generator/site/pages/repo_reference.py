"""A repository's reference pages, from its `Reference` record: Configuration (the options a user sets,
their defaults and where each is read), Data model (the main records and their fields) and Extension points
(the base classes, protocols, interfaces and registries a user extends it through, with the docs' how-to).
A page is written only when it has content; rendered through templates/repo_reference.md.j2 and written
through the store."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator import store
from generator.repo.analyze.citations import Linker
from generator.repo.model import Citation, CitedSymbol, DocPassage
from generator.repo.reference.build import FLAG, MAKER, SETTER
from generator.repo.reference.model import Extension, FieldLine, Option, Record, Reference
from generator.repo.reference.plugins import HOOKS, PLUGGED, PLUGIN_INTERFACE
from generator.repo.reference.settings import CARGO, CMAKE, MACRO
from generator.site.pages.model_text import citation_markdown, code_link, inline_code
from generator.site.pages.repo_guide import (
    GuideSection,
    defined_in,
    prose,
    sections,
    symbol_line,
    symbol_name,
    write_side_page,
)
from generator.site.text import Markdown, md_inline, table_header, table_row
from generator.store import KBPaths

REFERENCE_DIR = "reference"
REFERENCE_TEMPLATE = "repo_reference.md.j2"
CONFIGURATION, DATA_MODEL, EXTENSIONS = "configuration", "data-model", "extension-points"
_VERBS = {
    "abstract base class": "A subclass provides",
    "base class": "A subclass provides",
    "base class the docs subclass": "The methods the docs say to override",
    "event emitter": "The events it emits, each where a user's code listens with `.on(event, listener)`",
}
TITLES = {CONFIGURATION: "Configuration", DATA_MODEL: "Data model", EXTENSIONS: "Extension points"}
# build settings, by kind: their section's heading and what its column of help holds
_BUILD = {
    CMAKE: ("CMake options", "Help"),
    CARGO: ("Cargo features", "What it enables"),
    MACRO: ("Compile-time settings (macros a build may define first)", "What its comment says"),
}


@dataclass(frozen=True)
class ReferencePart:
    """One section of a reference page: a heading, a line about it, a table and/or a list."""

    heading: Markdown
    intro: Markdown = Markdown("")
    header: Markdown = Markdown("")
    rows: tuple[Markdown, ...] = ()
    items: tuple[Markdown, ...] = ()


@dataclass(frozen=True)
class ReferencePage:
    """The context of templates/repo_reference.md.j2."""

    title: str
    lead: Markdown
    back_link: Markdown
    docs_heading: str
    doc_sections: list[GuideSection]
    parts: list[ReferencePart]


def reference_links(reference: Reference | None) -> list[Markdown]:
    """The index's links to the reference pages that have content, in reading order."""
    return [Markdown(f"[{TITLES[name]}]({REFERENCE_DIR}/{name}.md)") for name in _pages(reference)]


def _pages(reference: Reference | None) -> list[str]:
    if reference is None:
        return []
    present = {
        CONFIGURATION: reference.has_configuration,
        DATA_MODEL: bool(reference.records),
        EXTENSIONS: reference.has_extensions,
    }
    return [name for name, shown in present.items() if shown]


def write_reference_pages(
    paths: KBPaths, directory: Path, reference: Reference | None, label: str, linker: Linker
) -> None:
    """Write reference/<page>.md for each page with content; remove the ones this run has none for."""
    builders: dict[str, Callable[[Reference, str, Linker], ReferencePage]] = {
        CONFIGURATION: configuration_page,
        DATA_MODEL: data_model_page,
        EXTENSIONS: extensions_page,
    }
    written = _pages(reference)
    for name in written:
        assert reference is not None
        page = builders[name](reference, label, linker)
        path = store.safe_join(directory, REFERENCE_DIR, f"{name}.md")
        write_side_page(paths, path, REFERENCE_TEMPLATE, page, "reference", "the code at the pinned revision")
    store.remove_stale(
        directory / REFERENCE_DIR, {f"{n}.md" for n in written}, *(f"{n}.md" for n in builders)
    )


def configuration_page(reference: Reference, label: str, linker: Linker) -> ReferencePage:
    env = [o for o in reference.options if o.kind == "environment variable"]
    arguments: dict[str, list[Option]] = {}
    flags: dict[str, list[Option]] = {}
    built: dict[str, list[Option]] = {}
    for option in reference.options:
        if option.kind.startswith(FLAG):
            flags.setdefault(option.kind, []).append(option)
        elif option.kind in _BUILD:
            built.setdefault(option.kind, []).append(option)
        elif option.kind != "environment variable":
            arguments.setdefault(option.kind, []).append(option)
    # what the project's own examples call comes first: the settings a newcomer meets in its quick start
    records = list(reference.settings)
    parts = [part for name in reference.started for part in _started_parts(name, arguments, records)]
    parts += [_options_part(Markdown("Environment variables"), "Variable", env)] if env else []
    parts += [_flags_part(kind, options) for kind, options in flags.items()]
    parts += [_build_part(kind, built[kind]) for kind in _BUILD if kind in built]
    twins = _twins(reference.settings)
    parts += [_record_part(record, twins) for record in records]
    parts += [_entry_part(kind, options) for kind, options in arguments.items()]
    lead = (
        "The options a user sets: the environment variables the code reads"
        + (", its command-line flags" if flags else "")
        + (", the settings its build declares" if built else "")
        + (
            ", the settings its builders chain"
            if any(o.kind.startswith(SETTER) for o in reference.options)
            else ""
        )
        + (
            ", the options its functions make"
            if any(o.kind.startswith(MAKER) for o in reference.options)
            else ""
        )
        + ", the fields of its configuration classes and the keyword arguments of its public entries, each "
        "with its default and the line that reads or declares it."
        if parts
        else "The options a user sets, as the project's docs describe them (the code declares none this "
        "reading finds: no environment variables, flags or configuration classes)."
    )
    return _page(
        label,
        CONFIGURATION,
        lead,
        ("What the docs say about configuring it", reference.config_docs),
        parts,
        linker,
    )


def data_model_page(reference: Reference, label: str, linker: Linker) -> ReferencePage:
    twins = _twins(reference.records)
    return _page(
        label,
        DATA_MODEL,
        "The main records of the code, the ones named in the docs and used by the most modules first, each "
        "with its fields (name, type, default) linked to the lines that declare them.",
        ("", ()),
        [_record_part(record, twins) for record in reference.records],
        linker,
    )


def extensions_page(reference: Reference, label: str, linker: Linker) -> ReferencePage:
    classes = [e for e in reference.extensions if e.kind != "registry"]
    taking = [e for e in reference.extensions if e.kind == "registry" and e.takes]
    registries = [e for e in reference.extensions if e.kind == "registry" and not e.takes]
    parts = [_extension_part(e) for e in classes]
    parts += [_taking_part(e, record) for e in taking for record in e.takes]
    if registries:
        parts.append(
            ReferencePart(
                Markdown("Registries"),
                Markdown("Functions that take a plugin, hook, handler or middleware in:"),
                items=tuple(symbol_line(e.symbol) for e in registries),
            )
        )
    return _page(
        label,
        EXTENSIONS,
        "Where the code is meant to be extended: base classes whose methods a subclass provides, protocols "
        "and interfaces a user implements, and the functions that register plugins, hooks or middleware.",
        ("How the docs say to extend it", reference.extension_docs),
        parts,
        linker,
    )


def _page(
    label: str,
    name: str,
    lead: str,
    docs: tuple[str, Sequence[DocPassage]],
    parts: list[ReferencePart],
    linker: Linker,
) -> ReferencePage:
    heading, passages = docs
    return ReferencePage(
        title=f"{label.rsplit('/', 1)[-1]} · {TITLES[name]}",
        lead=Markdown(lead),
        back_link=Markdown(f"[← {md_inline(label)}](../index.md)"),
        docs_heading=heading,
        doc_sections=sections(passages, linker) if passages else [],
        parts=parts,
    )


def _options_part(heading: Markdown, column: str, options: Sequence[Option]) -> ReferencePart:
    """A table of options; environment variables have no declared type, so no Type column."""
    typed = any(o.type for o in options)
    said = any(o.help for o in options)  # a column for what each is, when the docstring says it
    columns = (column, "Type", "Default", "Where") if typed else (column, "Default", "Read at")
    if said:
        columns = (*columns[:-1], "What it is", columns[-1])
    rows = tuple(
        table_row(
            inline_code(o.name),
            *((_code(o.type),) if typed else ()),
            _code(o.default) if o.default else Markdown("—"),
            *((prose(o.help) if o.help else Markdown("—"),) if said else ()),
            _where(o.citation),
        )
        for o in options
    )
    return ReferencePart(heading, header=table_header(*columns), rows=rows)


def _started_parts(
    name: str, arguments: dict[str, list[Option]], records: list[Record]
) -> list[ReferencePart]:
    """The parts of an entry the examples call, taken out of those left for after: its settings class, its
    arguments, its builder's setters."""
    named = [record for record in records if record.symbol.name == name]
    records[:] = [record for record in records if record.symbol.name != name]
    twins = _twins(named)
    parts = [_record_part(record, twins) for record in named]
    kinds = [kind for kind in arguments if kind.rsplit(" ", 1)[-1] == name]
    return parts + [_entry_part(kind, arguments.pop(kind)) for kind in kinds]


def _entry_part(kind: str, options: Sequence[Option]) -> ReferencePart:
    """An entry's keyword arguments, or a builder's chainable setters (each with what it takes)."""
    if not kind.startswith((SETTER, MAKER)):
        heading = Markdown(f"Arguments of {inline_code(kind.removeprefix('argument of '))}")
        return _options_part(heading, "Argument", options)
    owner = inline_code(kind.removeprefix(SETTER).removeprefix(MAKER).strip())
    rows = _declared_rows(options, typed=True)
    if kind.startswith(MAKER):
        heading = Markdown(f"Options of {owner}")
        intro = Markdown(f"Each function returns an option to pass to {owner}, after its other arguments.")
    else:
        heading = Markdown(f"Settings of {owner}")
        intro = Markdown(
            f"Each returns the {owner} it is called on, so that settings chain before it is built."
        )
    return ReferencePart(
        heading, intro, table_header("Setting", "Takes", "What it sets", "Declared at"), rows
    )


def _flags_part(kind: str, options: Sequence[Option]) -> ReferencePart:
    """A command's flags: name, default and help as declared, and the line that declares each."""
    command = kind.removeprefix(FLAG).removeprefix(" of ")
    command, _, module = command.partition(" in ")  # a parser variable two modules name: with its module
    heading = Markdown(
        "Command-line flags"
        + (f" of {inline_code(command)}" if command else "")
        + (f" in {inline_code(module)}" if module else "")
    )
    header = table_header("Flag", "Default", "Help", "Declared at")
    return ReferencePart(heading, header=header, rows=_declared_rows(options))


def _build_part(kind: str, options: Sequence[Option]) -> ReferencePart:
    """A kind of build setting: name, default, what its declaration says, the line that declares each."""
    heading, said = _BUILD[kind]
    return ReferencePart(
        Markdown(heading),
        header=table_header("Setting", "Default", said, "Declared at"),
        rows=_declared_rows(options),
    )


def _declared_rows(options: Sequence[Option], typed: bool = False) -> tuple[Markdown, ...]:
    """One row per option: its name, default (a setter's: what it takes) and help as declared, and the line
    that declares it."""
    return tuple(
        table_row(
            inline_code(o.name),
            _code(shown) if (shown := o.type if typed else o.default) else Markdown("—"),
            prose(o.help) if o.help else Markdown("—"),
            _where(o.citation),
        )
        for o in options
    )


def _twins(records: Sequence[Record]) -> frozenset[str]:
    """The names two records on one page share (redis-py's `DatabaseConfig` and its asyncio twin, falcon's
    WSGI and ASGI `Request`): their headings name their files, or the reader meets one heading twice."""
    return frozenset(name for name, count in Counter(r.symbol.name for r in records).items() if count > 1)


def _record_part(record: Record, twins: frozenset[str] = frozenset()) -> ReferencePart:
    symbol = record.symbol
    used = f"; named by {record.uses} other modules" if record.uses > 1 else ""
    intro = Markdown(f"{symbol_name(symbol)} {defined_in(symbol, record.kind, used)}")
    if record.twins:
        files = ", ".join(inline_code(path) for path in record.twins)
        intro = Markdown(f"{intro}\n\nDefined again, with mostly the same fields, in {files}.")
    said = any(f.doc for f in record.fields)  # a column for what each field is, when comments say it
    typed = any(f.type for f in record.fields)  # the options a JavaScript function reads have no type
    heading = inline_code(symbol.name)
    return ReferencePart(
        Markdown(f"{heading} in {inline_code(symbol.path)}") if symbol.name in twins else heading,
        intro,
        table_header("Field", *(("Type",) if typed else ()), "Default", *(("What it is",) if said else ())),
        tuple(_field_row(f, said, typed) for f in record.fields),
    )


def _field_row(line: FieldLine, said: bool = False, typed: bool = True) -> Markdown:
    return table_row(
        code_link(line.name, line.citation.url if line.citation else ""),
        *((_code(line.type),) if typed else ()),
        _code(line.default) if line.default else Markdown("—"),
        *((prose(line.doc) if line.doc else Markdown("—"),) if said else ()),
    )


def _extension_part(extension: Extension) -> ReferencePart:
    if extension.kind in PLUGGED:
        return _plugin_part(extension)
    symbol = extension.symbol
    implemented = extension.kind in {
        "trait",
        "interface",
        "protocol",
        PLUGIN_INTERFACE,
    }  # a Rust type implements, never extends
    joins = "types implement it" if implemented else "classes extend it"
    extended = f"; {extension.subclasses} {joins}" if extension.subclasses > 1 else ""
    verb = _VERBS.get(extension.kind, "An implementation provides")
    intro = Markdown(f"{symbol_name(symbol)} {defined_in(symbol, extension.kind, extended)}\n\n{verb}:")
    return ReferencePart(
        inline_code(symbol.name),
        intro,
        items=tuple(_hook(h, whole=extension.kind == "event emitter") for h in extension.hooks),
    )


def _plugin_part(extension: Extension) -> ReferencePart:
    """A plugin system's hooks, each with its parameters as declared, and the docs page explaining them: a
    pluggy hook specification as one part (datasette's 42 hooks), a Go plugin interface as one part each."""
    symbol = extension.symbol
    guide = extension.guide
    explained = (
        f"\n\nThe docs explain them in {symbol_name(guide, guide.name)} ({inline_code(guide.path)})."
        if guide is not None
        else ""
    )
    if extension.kind == HOOKS:
        heading = Markdown(f"Plugin hooks in {inline_code(symbol.path)}")
        intro = Markdown(
            f"The hooks {inline_code(symbol.path)} specifies ({len(extension.hooks)}): a plugin implements one by "
            f"defining a function of its name, marked as the hook's implementation.{explained}"
        )
    else:
        heading = inline_code(symbol.name)
        extended = f"; {extension.subclasses} types implement it" if extension.subclasses > 1 else ""
        intro = Markdown(
            f"{symbol_name(symbol)} {defined_in(symbol, extension.kind, extended)}{explained}\n\n"
            "A plugin implements:"
        )
    signatures = extension.signatures if len(extension.signatures) == len(extension.hooks) else ()
    return ReferencePart(
        heading,
        intro,
        items=tuple(_hook(h, signatures[at] if signatures else "") for at, h in enumerate(extension.hooks)),
    )


def _taking_part(registry: Extension, record: Record) -> ReferencePart:
    """A registry and what it takes, field by field: what a plugin passed to it is made of (mermaid's
    `registerLayoutLoaders` takes a `LayoutLoaderDefinition`: its name, its loader, its algorithm)."""
    symbol = registry.symbol
    intro = Markdown(
        f"{symbol_name(symbol)} {defined_in(symbol)}\n\n"
        f"It takes {symbol_name(record.symbol)} ({md_inline(record.kind)}):"
    )
    part = _record_part(record)
    return ReferencePart(inline_code(symbol.name.rsplit(".", 1)[-1]), intro, part.header, part.rows)


def _hook(hook: CitedSymbol, parameters: str = "", *, whole: bool = False) -> Markdown:
    """A hook by its own name (a method's, without its class), or `whole` (an event's: `job.done`); with
    its `parameters` as declared when given."""
    doc = f" — {prose(hook.doc)}" if hook.doc else ""
    shown = hook.name if whole else hook.name.rsplit(".", 1)[-1]
    return Markdown(symbol_name(hook, shown + parameters) + doc)


def _where(citation: Citation | None) -> Markdown:
    return citation_markdown(citation) if citation else Markdown("—")


def _code(text: str) -> Markdown:
    return inline_code(text) if text else Markdown("")
