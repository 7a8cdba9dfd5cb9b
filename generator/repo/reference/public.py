"""What a user of the package meets: the code its reference pages may show.

The Configuration and Extension points pages list a package's constructors and the classes a user completes.
Every class with keyword arguments or abstract methods is a candidate, and most of a library's are its own
machinery: ormar's Configuration listed `OrderAction`, `QuerySet(filter_clauses=…)` and `FilterQuery`, which
no user builds, and its Extension points the query-building ABCs and relation helpers of its internals. What a
package curates as its API (a Python top level that re-exports names; a Go module's packages outside
`internal/`) and what its docs call are what a user meets."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property
from pathlib import PurePosixPath

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite
from generator.repo.docs.model import DocPage, DocPassage, ProjectDocs
from generator.repo.facts.examples import called_names
from generator.repo.facts.extract import OnDemandFileFacts
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import Facts, Symbol
from generator.repo.reference.model import Extension

# a Go package under `internal/` cannot be imported from outside its module (the go command enforces it)
_GO_INTERNAL = re.compile(r"(?:^|/)internal/")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_CALLABLE = frozenset({"function", "method"})
# words that make a docs page an extension how-to by themselves; "plugin" alone may be another tool's
# (ormar's docs/plugin.md is PyCharm's)
EXTENDING = re.compile(
    r"extend(?!ed)|extension|hook|middleware|custom|subclass|adapter|backend|transport", re.IGNORECASE
)


class PublicFace:
    """The names a package's users can reach and the ones its docs call."""

    def __init__(self, facts: Facts, docs: ProjectDocs | None) -> None:
        self.facts = facts
        # a Python project whose top-level package re-exports names says which are its API
        self.curated = any(f.api_names for p, f in facts.files.items() if p.endswith(".py"))
        self.docs_call = docs_calls(docs)
        self.docs_say = frozenset(w for p in _passages(docs) for w in _IDENTIFIER.findall(p.text))

    def reachable(self, path: str, name: str) -> bool:
        """Whether a user can reach the top-level `name` defined in `path`: re-exported by the package's top
        when the package curates its API (ormar's `OrmarConfig`, not `ormar.queryset.actions.OrderAction`
        nor `FilterQuery` of `ormar.queryset`), outside a Go module's `internal/` packages (ko's SPDX
        structs in internal/sbom/)."""
        if path.endswith(".go"):
            return not _GO_INTERNAL.search(path)
        if path.endswith(".py") and self.curated:
            fact = self.facts.files.get(path)
            return fact is not None and name in fact.api_names
        return True

    def teaches_extending(self, page: DocPage) -> bool:
        """Whether a docs page its name or title ties to extending is about extending the project: its name
        says so in words only extending uses (traefik's "Extend Traefik"), or it shows code or names the
        project's (cachekit's "subclass `Store`"); ormar's docs/plugin.md, on installing a PyCharm plugin,
        does neither."""
        if EXTENDING.search(f"{PurePosixPath(page.path).stem} {page.title}"):
            return True
        spans = (
            w for p in page.passages for span in _CODE_SPAN.findall(p.text) for w in _IDENTIFIER.findall(span)
        )
        return any(p.kind == "code" for p in page.passages) or any(w in self.defined for w in spans)

    @cached_property
    def defined(self) -> frozenset[str]:
        """The names the project's code defines, a method's by its own name too."""
        return frozenset(
            name
            for fact in self.facts.files.values()
            if not isinstance(fact, OnDemandFileFacts)
            for s in fact.symbols
            for name in (s.name, s.short_name)
        )

    def built_by_docs(self, names: Iterable[str]) -> set[str]:
        """Those of `names` the docs' code calls by name (`OrmarConfig(…)`, `ForeignKey(…)`); every one when
        the docs call none of them, since docs that show no construction say nothing of which matter."""
        names = set(names)
        called = names & self.docs_call
        return called if called else names

    def extension(self, extension: Extension) -> bool:
        """Whether an extension point is one a user completes or registers with: one the user can reach, or
        one the docs name anywhere (ormar's encryption page: "subclass `ormar.fields.EncryptBackend`";
        taskiq's "subclass the TaskiqSerializer class"); a method, one of a class the user can reach or
        one the docs call (fx's `lc.Append(…)` of internal/lifecycle's `Lifecycle`)."""
        return self._meets(extension.symbol.path, extension.symbol.name)

    def _meets(self, path: str, name: str) -> bool:
        owner, _, member = name.rpartition(".")
        if owner:
            return member in self.docs_call or self.reachable(path, owner)
        return name in self.docs_say or self.reachable(path, name)

    def registries(self, found: Iterable[Extension], linker: Linker) -> list[Extension]:
        """The registries a user meets: each one the user can reach, and in place of one the user cannot,
        the functions the user can reach that hand straight on to it — beanie's internal `register_action`
        is met as the decorators `before_event` and `after_event`, re-exported, whose one call it is."""
        met: list[Extension] = []
        for extension in found:
            if self.extension(extension):
                met.append(extension)
                continue
            faces = self._handing_on(extension.symbol.path, extension.symbol.name)
            met += [Extension(cite(symbol, path, linker), extension.kind) for path, symbol in faces]
        return met

    def _handing_on(self, path: str, name: str) -> list[tuple[str, Symbol]]:
        """The public functions and methods a user meets whose only call into the project is `name` of
        `path`: a wrapper, unlike an entry that registers along the way (beanie's `init_beanie`)."""
        calls = self.facts.calls
        if calls is None:
            return []
        edges = [*calls.edges([path]), *calls.edges([path], incoming=True)]
        callers = {
            (e.caller_path, e.caller)
            for e in edges
            if e.callee_path == path and e.callee == name and e.caller and not e.handed
        }
        faces = []
        for caller_path, caller in sorted(callers):
            made = {(e.callee_path, e.callee) for e in calls.calls_of(caller_path, {caller})}
            fact = self.facts.files.get(caller_path)
            if made != {(path, name)} or fact is None or is_context_file(caller_path):
                continue
            symbol = next((s for s in fact.symbols if s.name == caller), None)
            if symbol is not None and symbol.public and symbol.kind in _CALLABLE:
                if self._meets(caller_path, caller):
                    faces.append((caller_path, symbol))
        return faces


def docs_calls(docs: ProjectDocs | None) -> frozenset[str]:
    """The names the docs' code calls: the examples' and every guide page's."""
    return frozenset(
        n for p in _passages(docs) if p.kind == "code" for n in called_names(p.text, "example.py")
    )


def _passages(docs: ProjectDocs | None) -> list[DocPassage]:
    if docs is None:
        return []
    return [*docs.examples, *(p for c in docs.concepts for page in c.pages for p in page.passages)]
