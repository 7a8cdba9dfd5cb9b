"""What a Python module declares for its users, as records: its record classes with their fields, base
classes and protocols with the methods a subclass provides, the environment variables it reads and the
keyword arguments of its top-level functions. The facts stage reads them from the syntax tree it parses for
the calls (pydeclarations.py) and hands them to the reference stage, which parses no module again."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PyField:
    name: str
    type: str
    default: str
    line: int
    doc: str = ""  # its attribute docstring or pydantic `description=` (untrusted)
    keyword_only: bool = False  # an argument a caller can give by its name only (after `*` or `*args`)


@dataclass(frozen=True)
class PyMethod:
    name: str
    start: int
    end: int


@dataclass(frozen=True)
class EnvRead:
    name: str
    default: str
    line: int


@dataclass(frozen=True)
class PyClass:
    name: str
    start: int
    end: int
    bases: tuple[str, ...]
    record: str = ""  # the kind of record it is ("dataclass", "pydantic model", …), "" when it is none
    fields: tuple[PyField, ...] = ()
    hooks: tuple[PyMethod, ...] = ()  # abstract, or raising NotImplementedError
    methods: tuple[PyMethod, ...] = ()  # public ones (what a protocol asks for)
    abstract: bool = False  # ABC, ABCMeta or an abstract method
    attributes: tuple[PyField, ...] = ()  # what `__init__` sets on `self` (a plain class)
    env: tuple[EnvRead, ...] = ()  # the variables a settings class's fields are read from


@dataclass(frozen=True)
class PyModule:
    classes: tuple[PyClass, ...] = ()
    env: tuple[EnvRead, ...] = ()
    signatures: tuple[tuple[str, tuple[PyField, ...]], ...] = ()  # keyword arguments with defaults, by name
