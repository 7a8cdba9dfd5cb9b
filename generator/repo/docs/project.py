"""The docs stage: the project's documentation read at the pinned revision (navigation.py says which files and
in what order), turned into an overview, the install steps, the usage examples and one concept per navigation
section, each passage kept with its lines, each code name the docs use resolved to its definition. The modules
beside this one each read one part; this one says which documents each part reads."""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from pathlib import Path

from generator.documents import Document
from generator.documents.template import is_template_name
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.docs.codeblocks import shows_code
from generator.repo.docs.codenames import names_in
from generator.repo.docs.concept import CONCEPT_SYMBOLS, MAX_CONCEPTS, with_code_paths, with_docstrings
from generator.repo.docs.exampledirs import folder_examples, project_name
from generator.repo.docs.folder_concepts import concepts_of
from generator.repo.docs.headings import under_install
from generator.repo.docs.includes import Includes
from generator.repo.docs.install import install_steps
from generator.repo.docs.model import ProjectDocs
from generator.repo.docs.navigation import doc_files, read_navigation
from generator.repo.docs.overview import overview
from generator.repo.docs.packages import (
    go_package_docs,
    go_package_examples,
    package_readmes,
    rust_crate_docs,
)
from generator.repo.docs.page_roles import (
    STARTER,
    assembles_pages,
    for_maintainers,
    included_whole,
    introduction,
    is_starter,
    moved,
    one_page_manual,
    readme_only,
)
from generator.repo.docs.passages import in_force
from generator.repo.docs.reading import DOC_BYTES, document_of, linked_docs, read_doc, sphinx_extras
from generator.repo.docs.readme_concepts import (
    README_CONCEPTS,
    beside,
    distinct,
    package_concepts,
    readme_concepts,
)
from generator.repo.docs.release import prerelease_tag, release_passages, release_tag, release_tags
from generator.repo.docs.specific import specific_symbols_first
from generator.repo.docs.started import GETTING_STARTED, fold_started
from generator.repo.docs.substitutions import rst_labels, rst_replacements, with_replacements
from generator.repo.docs.symbolnames import SymbolNames, package_qualifiers
from generator.repo.docs.usage import MAX_EXAMPLES, usage_examples
from generator.repo.facts.forked import map_files
from generator.repo.map.filetypes import front_readme
from generator.repo.map.walk import read_or_none
from generator.repo.model import Facts, RepoMap
from generator.repo.synthesize.readme import first_paragraph

MAX_FILES = 400  # doc files read
PARALLEL_DOC_BYTES = 300_000  # docs text from which its pages are read by a pool of processes (forked.py)
# a docs folder of fewer pages giving fewer than README_CONCEPTS concepts is no guide of its own (CLI11's
# Doxygen main page and examples list beside a 2,100-line README; thin docs folders beside READMEs of many
# sections in 8 mirrors): the README's sections are concepts too, first
THIN_DOCS = 4
SMALL_DOCS = 5  # … and a docs folder of this many side pages (go-plugin's internals and tutorials) too
FEW_EXAMPLES = 2  # a README showing fewer code examples leaves room for the package's Example tests
INTRO_PAGES = 4  # the docs' first pages, where an introduction follows a title or a table of contents alone
# a guide at the top of a repository without a docs folder: API.md, GUIDE.md, USAGE.md, docs.md …
_ROOT_GUIDE = re.compile(
    r"(?:api|guide|usage|docs?|documentation|tutorial|reference|manual|getting[-_]started)\.(?:md|mdx|rst)",
    re.IGNORECASE,
)


def read_project_docs(
    root: Path, repo_map: RepoMap, facts: Facts, linker: Linker, redactor: Redactor | None = None
) -> ProjectDocs:
    """The project's docs as records: the README and the docs folder, each file read once (secrets the
    redactor knows are masked before anything is quoted)."""
    # a docs page that is a symbolic link to another doc file of the repository (copier's docs/index.md, the
    # docs' "Overview", is ../README.md) is that file where the navigation lists it
    files = doc_files(repo_map)
    linked = linked_docs(root, repo_map, files)
    navigation = read_navigation(root, [*files, *linked])
    folder = navigation.docs
    in_order = tuple(dict.fromkeys(linked.get(p, p) for p in navigation.order[:MAX_FILES]))
    readme = front_readme(files, repo_map.links)
    includes = Includes(
        root, frozenset(f.path for f in repo_map.files), folder, redactor, navigation.snippet_bases
    )
    # each page read once: the Sphinx labels of every reST page first, for the `:ref:`s of all of them
    texts = {
        p: text
        for p in dict.fromkeys([readme, *in_order])
        if p and (text := read_or_none(root, p, max_bytes=DOC_BYTES)) is not None
    }
    labels = rst_labels(text for p, text in texts.items() if p.endswith(".rst"))
    replacements = rst_replacements(
        [*(text for p, text in texts.items() if p.endswith(".rst")), *sphinx_extras(root, repo_map, folder)]
    )

    def read_page(path: str) -> Document | str:
        text = texts[path]
        if path.endswith(".rst"):
            text = with_replacements(text, replacements)
        try:
            return document_of(text, path, linker, redactor, navigation.substitutions, includes, labels)
        except Exception as error:  # one page deepkb cannot read costs that page, not the run
            return f"{type(error).__name__}: {error}"

    # each page is read on its own: a large docs folder's pages by a pool of forked processes
    paths = list(texts)
    size = sum(map(len, texts.values()))
    pages = dict(zip(paths, map_files(read_page, paths, size, PARALLEL_DOC_BYTES), strict=True))
    documents = {p: d for p, d in pages.items() if isinstance(d, Document)}
    unreadable = tuple((p, d) for p, d in pages.items() if isinstance(d, str))
    for path, title in navigation.titles().items():  # the nav's name for a page is the one shown
        if path in documents:
            documents[path] = replace(documents[path], title=title)
    # a page assembling others says nothing they do not (`assembles_pages`), and shows no fragment of its own
    assembled = {p for p in documents if assembles_pages(p, documents)}
    # a fragment another page shows whole is no page of its own
    shown_within = included_whole({p: d for p, d in documents.items() if p not in assembled})
    # … nor is a docs page that only shows the README (diskcache's index.rst: the overview and the examples
    # read the README already), nor one for the maintainers; the README it shows still introduces the docs
    # (… or is a link to the README: copier's docs/index.md)
    readme_linked = {readme} & {linked[p] for p in navigation.order if p in linked}
    readme_pages = {p for p in in_order if p in readme_linked or readme_only(documents.get(p), readme)}
    readme_intro = [documents[p] for p in in_order[:INTRO_PAGES] if p in readme_pages][:1]
    in_order = tuple(
        p
        for p in in_order
        if p not in shown_within
        and p not in readme_pages
        and p not in assembled
        and not moved(documents.get(p))
        and not for_maintainers(p, documents.get(p))
        and not is_template_name(
            p
        )  # a blank to copy (omegaconf's docs/design/TEMPLATE.md, "Title"): no concept
    )
    names = SymbolNames(facts, linker, package_qualifiers(root, repo_map), root)
    sections = navigation.sections()
    concepts = concepts_of([documents[p] for p in in_order if p in documents], folder, names, sections)
    crates = rust_crate_docs(root, repo_map, linker, redactor)
    # without a docs folder, the guides at the top (joi's 4,500-line API.md) are the docs, read like a README
    guides = (
        []
        if folder
        else [
            d
            for p in files
            if _ROOT_GUIDE.fullmatch(p)
            and (d := read_doc(root, p, linker, redactor, navigation.substitutions, includes))
        ]
        + go_package_docs(root, repo_map, linker, redactor)
        + crates
    )
    # … and so are a monorepo's package READMEs, each the docs of its package
    packages = (
        [] if folder else package_readmes(root, files, repo_map, documents.get(readme), linker, redactor)
    )
    # a docs folder that is one long page (the whole manual in docs/index.md) is read like a README
    manual = one_page_manual([documents[p] for p in in_order if p in documents])
    if manual is not None and len(concepts) < README_CONCEPTS:
        concepts = readme_concepts(manual, names) or concepts
    thin = len(in_order) < THIN_DOCS and len(concepts) < README_CONCEPTS  # a page or two, not a guide
    if folder and (thin or (manual is None and len(in_order) <= SMALL_DOCS)):  # … or a few side pages
        concepts = beside(readme_concepts(documents.get(readme), names), concepts)
    if not concepts:
        concepts = distinct(
            [
                *(c for d in (documents.get(readme), *guides) for c in readme_concepts(d, names)),
                *package_concepts(packages, names),
            ]
        )[:MAX_CONCEPTS]
    concepts = with_code_paths(with_docstrings(concepts, names, root, redactor), names)
    concepts = specific_symbols_first(concepts, CONCEPT_SYMBOLS)
    starters = [
        documents[p]
        for p in [readme, *in_order]
        if p in documents and is_starter(p, readme, documents[p].title) and in_force(documents[p])
    ]
    # a guide's own usage sections first (doc.go's "Usage"), then the README's and the starter pages' code
    # … then a "Getting started" section of another docs page (sqlite-utils' Python API page opens with one)
    started = [
        _sections_headed(documents[p], GETTING_STARTED)
        for p in in_order
        if p in documents and not is_starter(p, readme) and documents[p] is not manual
    ]
    examples = usage_examples(
        [
            *(_sections_headed(d, STARTER) for d in (*guides, *([manual] if manual else []))),
            *starters,
            *started,
        ]
    )
    if sum(p.kind == "code" for p in examples) < FEW_EXAMPLES:
        # a Rust crate's front page on docs.rs is its `//!` doc: its code is the usage a README without any
        # leaves to it (indicatif's `ProgressBar::new(1000)`, axum's "Example" beside its docs folder)
        examples += usage_examples(crates)[: MAX_EXAMPLES - sum(p.kind == "code" for p in examples)]
    if not folder and sum(p.kind == "code" for p in examples) < FEW_EXAMPLES:
        examples += go_package_examples(root, facts, redactor)[: MAX_EXAMPLES - len(examples)]
    # commands that run or install the project (mini-redis's `cargo run`, express's `npm install`) show no use
    if not folder and sum(shows_code(p) for p in examples) < FEW_EXAMPLES:
        shown = sum(p.kind == "code" for p in examples)
        examples += folder_examples(root, repo_map, redactor, MAX_EXAMPLES - shown, project_name(root))
    if not any(shows_code(p) for p in examples):
        # a project whose README shows no use and which keeps no examples teaches by its docs pages' code:
        # hapi's API.md (`const server = Hapi.server({ port: 80 })`), beaker's sessions and caching pages
        read = {id(d) for d in starters}  # … whose examples are in already
        teaching = [*guides, *(documents[p] for p in in_order if p in documents)]
        examples += usage_examples(d for d in teaching if in_force(d) and id(d) not in read)
    install = install_steps(
        [documents[p] for p in [readme, *in_order] if p in documents and in_force(documents[p])] + guides
    )
    intro = introduction(
        [documents[p] for p in in_order[:INTRO_PAGES] if p in documents],
        ordered=bool(navigation.listed),
        folder=posixpath.commonpath([posixpath.dirname(p) for p in in_order]) if in_order else folder,
    )
    intro = readme_intro + intro  # the first page showing the README introduces first, as it did as a page
    tags = release_tags(root)
    release = release_passages(
        root, documents.get(readme) if readme else None, {f.path for f in repo_map.files}, tags
    )
    # the docs' own getting-started page is the first use shown whole: on Getting started, not again in the guide
    folded = fold_started(concepts, examples, readme, lambda h: bool(install) and under_install([h]))
    concepts, examples = list(folded.concepts), list(folded.examples)
    return ProjectDocs(
        root=folder,
        files=len(documents) + len(guides),
        # docs opening with the README read it as their first page: whole, past its first example
        overview=overview(documents.get(readme), intro or guides[:1], whole=bool(readme_intro)),
        examples=tuple(examples),
        install=tuple(install),
        release=release,
        tag=release_tag(root, release, tags),
        prerelease=prerelease_tag(root, release, tags),
        example_symbols=tuple(names.resolve(names_in(examples, names), methods=True)),
        concepts=tuple(concepts),
        started=folded.page,
        readme=first_paragraph(documents[readme]) if readme in documents else None,
        unreadable=unreadable,
    )


def _sections_headed(document: Document, heading: re.Pattern[str]) -> Document:
    """Only the sections of `document` under a heading `heading` finds: a guide's that introduce the project
    or show its use (`STARTER`: "Introduction", "General Usage" — an API reference's every example is no
    getting-started page), another docs page's "Getting started" (`GETTING_STARTED`)."""
    starting = [s for s in document.sections if any(heading.search(h) for h in s.path)]
    return replace(document, sections=tuple(starting))
