"""A concept of the docs made from its pages: the code symbols they name, the docstrings of the objects they
document, the code path that does what they explain."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath

from generator.documents.header import unordered
from generator.redact import Redactor
from generator.repo.analyze.explained import docstrings, module_docstring_passages
from generator.repo.docs.codenames import names_in
from generator.repo.docs.model import DocConcept, DocPage, DocPassage
from generator.repo.docs.specific import titled_types
from generator.repo.docs.symbolnames import SymbolNames, in_package_folder, package_calls
from generator.repo.facts.ranking import TYPE_KINDS
from generator.repo.model import CitedSymbol
from generator.store import slugify

MAX_CONCEPTS = 40
DOCSTRING_PASSAGES = 60  # a page documenting code from its docstrings quotes this many of their blocks
DOCUMENTED = 16  # … from at most this many objects, four blocks each (a summary, its examples)
CONCEPT_SYMBOLS = 8
CONCEPT_NAMED = 40  # symbols a concept's pages name, weighed for the CONCEPT_SYMBOLS it shows
GENERIC_TITLE = re.compile(
    r"(?:an? )?(?:overview|introduction|intro|index|readme|about|summary)", re.IGNORECASE
)


def doc_concept(name: str, pages: Sequence[DocPage], names: SymbolNames, package: str) -> DocConcept:
    """A concept named `name` made of `pages`, with the code symbols they name (in `package` first)."""
    documented = [cited for page in pages for dotted, _ in page.api for cited in names.documented(dotted)]
    # what the page's examples call through the project's packages comes as its package names it (`expr.Patch`)
    used = names_in((p for page in pages for p in page.passages), names)
    titled = [_camel(h) for page in pages for h in (page.title, *(p.heading for p in page.passages))]
    named = names.resolve([*used, *titled])
    # … then the key symbols of the code package named like the concept
    resolved = (
        list({(s.path, s.name): s for s in [*named, *names.package_code(package)]}.values())
        if package
        else named
    )
    # Go code names another package's code only through that package: a name of a package the pages' code
    # never calls through is not what they mean (fx's Value Groups, calling `fx.…` only, say "function `Run`"
    # of the user's own, not fxevent's `Run` event)
    homes = _called_packages(pages, names)
    if homes:
        # … the method of what one of those calls returns aside (`program.Node()`, `program` given
        # `expr.Compile`'s *vm.Program: Program.Node)
        made = {(s.path, s.name) for s in names.resolve([n for n in used if "()." in n])}
        resolved = [
            s
            for s in resolved
            if not s.path.endswith(".go")
            or any(in_package_folder(s.path, home) for home in homes)
            or (s.path, s.name) in made
        ]
    # … and a name two packages define, each called through its own (`ast.Patch`, `expr.Patch`), is both
    through = [cited for name in used if "." in name for cited in names.resolve([name])]
    symbols = [
        each
        for cited in {s.name: s for s in [*documented, *resolved]}.values()
        for each in [cited, *(t for t in through if t.name == cited.name and t.path != cited.path)]
    ]
    symbols = list({(s.path, s.name): s for s in symbols}.values())[:CONCEPT_NAMED]
    types = tuple(names.key_type(s) for s in symbols if s.kind in TYPE_KINDS)
    name = name.rstrip(" :：") or name  # pond's "## Features:" is the concept "Features"
    # the first stand for the concept until every concept is known (`specific_symbols_first`); what the
    # pages name apart from the key code of the package named like them
    said = {s.name for s in documented} | {s.name for s in (named if package else resolved)}
    return DocConcept(
        name,
        slugify(name, max_len=50),
        tuple(pages),
        tuple(symbols[:CONCEPT_SYMBOLS]),
        types,
        named=tuple(s for s in symbols if s.name in said),
        package_code=tuple(s for s in symbols if s.name not in said),
    )


def with_docstrings(
    concepts: Sequence[DocConcept], names: SymbolNames, root: Path, redactor: Redactor | None
) -> list[DocConcept]:
    """Each concept whose pages document code from its docstrings (autodoc, mkdocstrings) with those
    docstrings quoted on the page that names them, after its own words, at most DOCSTRING_PASSAGES in all:
    the built docs show them there (humanize's "Number" page is only `::: humanize.number`)."""
    found = []
    for concept in concepts:
        pages = []
        for page in concept.pages:
            if page.api:
                page = replace(page, passages=_in_place(page, names, root, redactor))
            pages.append(page)
        found.append(replace(concept, pages=tuple(pages)))
    return found


def _in_place(
    page: DocPage, names: SymbolNames, root: Path, redactor: Redactor | None
) -> tuple[DocPassage, ...]:
    """The page's passages with each documented object's docstrings where its marker stands (httpx's
    `::: httpx.request` under "Helper Functions", not after the page's last section)."""
    # an object its own marker names stands there, not where a module documented whole lists it too
    # (boltons' cacheutils page: `.. automodule::` above, `.. autofunction:: boltons.cacheutils.cached` below)
    modules = {dotted: names.module_file(dotted) for dotted, _ in page.api}  # "" for an object's marker
    placed: dict[tuple[str, str], tuple[int, CitedSymbol, bool]] = {}
    for dotted, line in page.api:
        whole = bool(modules[dotted])
        for cited in names.documented(dotted):
            key = (cited.path, cited.name)
            if key not in placed or (placed[key][2] and not whole):
                placed[key] = (line, cited, whole)
    marked = [(line, cited) for line, cited, _ in placed.values()][:DOCUMENTED]
    said = docstrings([cited for _, cited in marked], root, names.facts, redactor, per_symbol=4)
    at = {cited.name: line for line, cited in marked}
    for dotted, line in page.api:  # a module documented whole opens with its own docstring
        if module := modules[dotted]:
            said[:0] = [
                replace(p, heading=dotted, page=page.path)  # the module's own words: quoted in the page
                for p in module_docstring_passages(module, root, redactor)[:4]
            ]
            at[dotted] = line
    pending = sorted(said[:DOCSTRING_PASSAGES], key=lambda p: at.get(p.heading, 0))  # stable: in their order
    found: list[DocPassage] = []
    line = 0
    for passage in page.passages:
        line = line if passage.page else passage.start  # included code stands where the block before it does
        while pending and at.get(pending[0].heading, 0) < line:
            found.append(pending.pop(0))
        found.append(passage)
    return (*found, *pending)


def with_code_paths(concepts: Sequence[DocConcept], names: SymbolNames) -> list[DocConcept]:
    """Each concept with the code that does it (`SymbolNames.code_path`), started from the types its name
    names ("Tables" → `Table`, "Console Protocol" → `Console`); else (none, or no path from them) from the
    symbols its own docs name and no other concept's do: `Route` and `Starlette`, in every page's examples, say nothing of templates; a
    concept naming only shared symbols has no code path rather than a wrong one."""
    named = Counter(s.name for concept in concepts for s in concept.symbols)
    return [
        replace(
            concept,
            flow=(
                names.code_path(titled_types(concept))
                or names.code_path([s for s in concept.symbols if named[s.name] == 1])
            ),
        )
        for concept in concepts
    ]


def humane(path: str) -> str:
    name = unordered(PurePosixPath(path).name)  # Nuxt Content's `10.runtimes` is "runtimes", never "10"
    stem = PurePosixPath(name).stem if "." in name else name
    words = re.sub(r"^\d+[-_.]", "", stem).replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else path


def _camel(heading: str) -> str:
    """A heading as the class name code would give it: "Global Search" → "GlobalSearch"."""
    words = re.findall(r"[A-Za-z0-9]+", heading)
    return "".join(w if w.isupper() else w[:1].upper() + w[1:] for w in words) if 1 < len(words) <= 4 else ""


def _called_packages(pages: Sequence[DocPage], names: SymbolNames) -> set[str]:
    """The folders of the project's Go packages the pages' Go code calls through (`fx.New` → the root, "");
    none when it calls through none."""
    code = [
        p.text for page in pages for p in page.passages if p.kind == "code" and p.language.lower() == "go"
    ]
    return {
        names.qualifiers[owner]
        for text in code
        for owner, _ in package_calls(text)
        if owner in names.qualifiers
    }
