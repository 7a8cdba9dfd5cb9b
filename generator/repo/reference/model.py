"""The records the reference stage returns: the options a user sets, the main records with their fields,
and the points the code is extended at, each cited at the pinned revision. The page layer renders them."""

from __future__ import annotations

from dataclasses import dataclass

from generator.repo.model import Citation, CitedSymbol, DocPassage


@dataclass(frozen=True)
class FieldLine:
    """One field of a record (or one keyword argument): its name, type and default as written (or as its
    comment states it), and what its comment says it is."""

    name: str
    type: str = ""
    default: str = ""
    citation: Citation | None = None
    doc: str = ""  # what its comment says it is, a sentence or two (untrusted)


@dataclass(frozen=True)
class Option:
    """A setting a user gives: an environment variable, a config class's field, an entry's keyword argument,
    a command-line flag."""

    name: str
    kind: str  # "environment variable", "field of Config", "argument of Client", "command-line flag of serve"
    default: str = ""  # as written ("" when there is none: the caller must give it)
    type: str = ""
    citation: Citation | None = (
        None  # where it is read (the variable) or declared (a field, an argument, a flag)
    )
    help: str = ""  # a flag's help text as declared (untrusted)


@dataclass(frozen=True)
class Record:
    """A main record of the code (a dataclass, model, typed dict, struct) with its fields; `uses` is how many
    modules name it, which ranks it."""

    symbol: CitedSymbol
    kind: str  # "dataclass", "pydantic model", "TypedDict", "struct", …
    fields: tuple[FieldLine, ...]
    uses: int = 0
    twins: tuple[str, ...] = ()  # files defining a record of its name with mostly the same fields, folded in


@dataclass(frozen=True)
class Extension:
    """A point the code is extended at: a base class with the methods a subclass provides, a protocol or
    interface with its methods, or a registry function; `subclasses` counts the classes that extend it."""

    symbol: CitedSymbol
    kind: str  # "abstract base class", "protocol", "interface", "base class", "registry"
    hooks: tuple[CitedSymbol, ...] = ()
    subclasses: int = 0
    takes: tuple[Record, ...] = ()  # a registry's: the records what it registers is made of
    signatures: tuple[str, ...] = ()  # a plugin hook's parameters (and results), one per hook, as declared
    guide: CitedSymbol | None = None  # the docs page that explains a plugin system's hooks


@dataclass(frozen=True)
class Reference:
    """What the Configuration, Data model and Extension points pages show; an empty part has no page."""

    options: tuple[Option, ...] = ()
    settings: tuple[Record, ...] = ()  # config classes, their fields being options
    records: tuple[Record, ...] = ()
    extensions: tuple[Extension, ...] = ()
    config_docs: tuple[DocPassage, ...] = ()  # what the project's docs say about configuring it
    # what the project's own examples call that has settings (a function or class whose arguments are
    # options, a builder, a settings class), in the order the examples first call them: shown first
    started: tuple[str, ...] = ()
    extension_docs: tuple[DocPassage, ...] = ()  # the docs' own how-to for extending it

    @property
    def has_configuration(self) -> bool:
        """Options the code reads, or the docs' own pages on configuring it (grape's README "Configuration",
        guzzle's "Request Options": a project whose options are keys of a hash or constants)."""
        return bool(self.options or self.settings or self.config_docs)

    @property
    def has_extensions(self) -> bool:
        """Extension points the code declares, or the docs' own how-to for extending it (bree's README
        "Plugins": a plugin is installed with `Bree.extend(plugin, options)`, a name no registry goes by)."""
        return bool(self.extensions or self.extension_docs)
