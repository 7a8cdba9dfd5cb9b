"""The docs stage: the project's documentation read at the pinned revision (navigation.py says which files
and in what order), turned into an overview, the usage examples and one concept per navigation section,
each passage kept with its lines, each code name the docs use resolved to its definition."""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from itertools import accumulate, takewhile
from pathlib import Path, PurePosixPath

from generator.documents import Document, read_text, title_from_name
from generator.documents.comment import crate_doc, package_doc
from generator.documents.header import unordered
from generator.documents.included import api_names
from generator.documents.markdown import is_label
from generator.documents.model import Block, Section
from generator.documents.redirect import redirect_target
from generator.documents.standing import INACTIVE, page_standing
from generator.documents.template import is_template_name
from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite, flow_branches, ranked
from generator.repo.analyze.explained import docstrings, go_examples, module_docstring_passages
from generator.repo.docs.exampledirs import folder_examples, project_name
from generator.repo.docs.includes import Includes
from generator.repo.docs.model import DocConcept, DocPage, DocPassage, ProjectDocs, table_text
from generator.repo.docs.navigation import DOC_SUFFIXES, doc_files, read_navigation
from generator.repo.docs.release import release_passages, release_tag
from generator.repo.docs.specific import specific_symbols_first, titled_types
from generator.repo.docs.started import GETTING_STARTED, fold_started
from generator.repo.docs.substitutions import (
    rst_labels,
    rst_replacements,
    substitute,
    with_ref_titles,
    with_replacements,
)
from generator.repo.facts.apart import serving_tests
from generator.repo.facts.examples import called_names
from generator.repo.facts.extract import OnDemandFileFacts
from generator.repo.facts.ranking import TYPE_KINDS
from generator.repo.map.filetypes import WORD_ENDING_FOLDER, front_readme
from generator.repo.map.walk import read_or_none, read_source
from generator.repo.model import (
    CallGraphView,
    CallTree,
    CitedSymbol,
    Facts,
    FlowBranch,
    KeyType,
    RepoMap,
    Symbol,
)
from generator.repo.synthesize.readme import (
    NOTICE,
    RELEASE_HEADING,
    about_the_docs,
    describes_project,
    first_paragraph,
    tagline,
)
from generator.store import slugify
from generator.text.pointers import LEADING_INTO, without_lead_in
from generator.text.sentences import split_sentences

DOC_BYTES = 200_000  # a doc file larger than this is generated reference, not prose to quote
MAX_FILES = 400  # doc files read
MAX_CONCEPTS = 40
# a docs folder of fewer pages giving fewer than README_CONCEPTS concepts is no guide of its own (CLI11's
# Doxygen main page and examples list beside a 2,100-line README; thin docs folders beside READMEs of many
# sections in 8 mirrors): the README's sections are concepts too, first
THIN_DOCS = 4
SMALL_DOCS = 5  # … and a docs folder of this many side pages (go-plugin's internals and tutorials) too
REFERENCE_PAGES = 10  # sibling pages past the guide's cut, each a concept on its own, folded into one
ENTRY_PASSAGES = 3  # a folded reference's page (an API entry) quotes its opening section, this many blocks
MAX_ENTRIES = 400  # pages of one folded reference
PAGES_PER_CONCEPT = 12  # a docs section with more pages is split: one concept per sub-folder or page
PASSAGES_PER_PAGE = 80  # blocks a doc file sharing its concept quotes at most (fewer when it has many)
PASSAGES_PER_CONCEPT = 300  # shared by its pages; a page alone in its concept may quote all of them
LEAST_SHARE = 8  # passages a page of a crowded concept still quotes
CODE_LINES = 60  # a longer code block is not an example a page shows whole
FIRST_EXAMPLE_LINES = 120  # … unless it is the first example of a usage section
QUICK_START_LINES = 600  # … and the first of a "Quick Start" section is the first use whole, to this length
MAX_EXAMPLES = 8
INSTALL_PASSAGES = 8  # the install steps quote at most this many blocks of the project's install section …
MIN_STEP_WORDS = 4  # a shorter paragraph of an install section that installs nothing is a link left bare
INSTALL_BLOCKS = 3  # … and this many code blocks: more is a list of package managers, not a first step
EXPLAINING = 3  # paragraphs after an example that say what it did, quoted with it
INTRODUCTION_WORDS, INTRODUCTION_SENTENCES = 60, 3  # a paragraph before an example quoted whole up to these
FEW_EXAMPLES = 2  # a README showing fewer code examples leaves room for the package's Example tests
_PACKAGE_EXAMPLE = re.compile(r"^Example(?:_[a-z]\w*)?$")  # the package's own, not a type's or function's
OVERVIEW_PASSAGES = 4
DOCSTRING_PASSAGES = 60  # a page documenting code from its docstrings quotes this many of their blocks
DOCUMENTED = 16  # … from at most this many objects, four blocks each (a summary, its examples)
INTRO_PAGES = 4  # the docs' first pages, where an introduction follows a title or a table of contents alone
_INTRO_PAGE = re.compile(
    r"^(?:\d+[-_.])?(?:index|readme|intro\w*|overview|about|getting[-_ ]?started|get[-_ ]?started|quick[-_ ]?start)$",
    re.IGNORECASE,
)
FEATURE_ITEMS = 10  # an overview's list of what the project does shows this many of its items
TAGLINE_WORDS = 6  # the README's first overview paragraph may be this short; the others say more
CONCEPT_SYMBOLS = 8
CONCEPT_NAMED = 40  # symbols a concept's pages name, weighed for the CONCEPT_SYMBOLS it shows
_SETUP = frozenset({"__init__", "__new__", "__post_init__", "constructor"})  # setting up is not the work
MIN_PATH_CALLS = 3  # a shorter code path shows no working
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")  # an identifier's or a title's words
MAX_STARTS = 60  # a concept's functions and methods weighed as the start of its code path
TYPE_METHODS = 5  # main public methods shown under a class the docs name
MIN_WORDS = 6
LONG_PAGE_SECTIONS = 6  # a doc page of this many sections is a guide of its own, never merged with another
README_PASSAGES = 4  # a README section quoting fewer is a note, not a concept
TOC_ITEMS = 3  # list items in a row that are the document's own headings make a table of contents
README_CONCEPTS = 3  # a README with fewer such sections is an overview and examples, not a guide
# a README section of this many subsections and passages is a chapter: each subsection a concept (CLI11's
# "Usage": adding options, subcommands, configuration files, formatting, subclassing; loguru's "Take the tour")
CHAPTER_SUBSECTIONS = 5
CHAPTER_PASSAGES = 30
_CODE_HEADING = re.compile(r"[`(]|\w[.:#]\w")  # "`app.use(fn)`", "Router#get": an API entry, never a concept
MANUAL_PAGES = (
    3  # docs of this many pages may be one long page that is the manual (beside a changelog, an API)
)
PACKAGE_PASSAGES = 2  # a package README quoting fewer is a stub ("See the main README")
# a workspace member's own manifest: the folder holding one is a package
_MANIFESTS = frozenset(
    {"package.json", "Cargo.toml", "pyproject.toml", "setup.py", "go.mod", "composer.json"}
)
# what a tutorial or a usage section is called, in a heading and in a file name ("getting-started.md"),
# where a starter page also says "intro" or "basic"
_HOW_TO = r"getting[-_ ]?started|get[-_ ]?started|quick[-_ ]?start|tutorials?|usage|how[-_ ]to[-_ ]use|examples?|walk-?through|first[-_ ]steps"
# a section that teaches use step by step: its prose walks through code ("To start we'll define our package")
_HOW_TO_HEADING = re.compile(rf"\b(?:{_HOW_TO})\b", re.IGNORECASE)
# "basics" and "intro" as words of a page's name (`01-intro`, `the-basics`), never inside another word:
# kysely's `introspecting-relation-metadata`, graphql's "Introspection", redux's `BasicReducerStructure`
_STARTER = re.compile(
    rf"{_HOW_TO}|(?:^|[\W_\d])(?:basics?|intro(?:duction|ducing)?)(?:$|[\W_\d])|^start$", re.IGNORECASE
)
_RECIPES = re.compile(r"recipes?|cookbook", re.IGNORECASE)
# a page named as the user's guide (typeguard's and apscheduler's userguide.rst, huey's guide.rst, koa's
# guide.md): the docs' first walk through the project in use — never a migration or a contribution guide
_USER_GUIDE = re.compile(r"^(?:user[-_ ]?)?guide$", re.IGNORECASE)
# a section, or a page, titled as the place to start
_GETTING_STARTED = GETTING_STARTED
# a guide at the top of a repository without a docs folder: API.md, GUIDE.md, USAGE.md, docs.md …
_ROOT_GUIDE = re.compile(
    r"(?:api|guide|usage|docs?|documentation|tutorial|reference|manual|getting[-_]started)\.(?:md|mdx|rst)",
    re.IGNORECASE,
)
_NOT_OVERVIEW = re.compile(
    r"\b(?:sponsor\w*|backers?|donat\w+|licen[cs]ed? under|copyright|all rights reserved|code of conduct"
    # "pflag is available under the same style of BSD license", "offered under the Apache License 2.0"
    r"|(?:available|released|distributed|provided|published|offered) under\b[^.]{0,60}\blicen[cs]e"
    r"|contribut\w+|pull requests?|build status|release notes|changelog|use \S+ instead|deprecated"
    r"|star us|join (?:us|our)|discord|slack|twitter|newsletter|ha(?:s|ve) been released"
    r"|consider supporting|support(?:ing)? (?:this|the) project|tidelift|open ?collective|patreon|ko-?fi)\b",
    re.IGNORECASE,
)
_DEPRECATION_WORDS = re.compile(r"deprecated|use \S+ instead", re.IGNORECASE)
# a folder's README saying what the folder holds (pdoc's docs/README.md: "This directory contains the source
# code for the pdoc website"): about a folder, never what the project is
_ABOUT_FOLDER = re.compile(r"(?:this|the) (?:directory|folder|dir)\b", re.IGNORECASE)
# a section that is about the project's process, not about it: the whole heading says so ("Security
# Analyzers" is a feature; "Security" or "Security policy" is a notice)
_SKIPPED_HEADING = re.compile(
    r"^\W*(?:how to )?(?:licen[cs]es?|licensing|contribut\w*|sponsors?|backers|security|changelog|credits"
    # "Contribution to Documentation", "Contributing to existing KEEPs", "Code Contributors" (voluptuous, Kotlin
    # KEEP, graphql-wg, json-schema-spec, fiber, fastify)
    r"|contribut\w* to \w.*|(?:code|financial|emeritus|core) contributors|call for contributions.*"
    r"|authors|badges|(?:table of )?contents|citation|citing|acknowledg\w*|support|community|star history"
    r"|(?:special )?(?:thanks|thank you|shout-?outs?)"  # javalin's, vue-router's, x64dbg's "Special thanks"
    r"|indices and tables"  # the links sphinx-quickstart puts under an index.rst: genindex, modindex, search
    r"|contact(?: us)?)(?:\s+(?:policy|guide|guidelines|information|info|(?:and|&) \w+))?\W*$",
    re.IGNORECASE,
)
# how the project is kept and where to turn, beside what it is: fx's "Stability", libuv's "Versioning", vue's
# "Questions", retrofit's "Download", leveldb's "Documentation" (a pointer), mkdocstrings' "Used by"; a
# commercial offer ("Mockito for enterprise", "attrs for Enterprise", urllib3's "For Enterprise", jackson's
# "Enterprise support": Tidelift's subscription, in 14 mirrors' READMEs)
_POLICY_HEADING = re.compile(
    r"^\W*(?:(?:semantic )?versioning|(?:api )?stability|questions|downloads?|documentation|release policy"
    r"|(?:who(?:'s| is) )?us(?:ed|ing) (?:by|it)|users|adopters"
    # "Documentation & Help" (mitmproxy), "Documentation & Support" (django-rest-framework)
    r"|(?:\S+ )?for enterprise|(?:enterprise|commercial|professional|paid) support)"
    r"(?:\s+(?:policy|(?:and|&) \w+))?\W*$",
    re.IGNORECASE,
)
# other projects: who uses this one, and the ones beside it (zerolog's "Who uses zerolog" and "Related Projects",
# ajv's "Who uses Ajv", nlohmann/json's "Projects using JSON for Modern C++", httpie's "Alternatives")
_OTHER_PROJECTS = re.compile(
    r"^\W*(?:who uses\b.*|(?:other )?projects? using\b.*|related (?:projects|libraries|tools|packages|work)"
    r"|similar (?:projects|libraries|tools)|alternatives|see also)\W*$",
    re.IGNORECASE,
)
# a question a reader asks, answered for that reader ("What is it?" and "Why X?" say what the project is)
_FAQ_HEADING = re.compile(
    r"^\W*(?:is|are|can|could|do|does|did|will|should|how (?:do|can|should) (?:i|you|we))\b.*\?\W*$",
    re.IGNORECASE,
)
# how the project itself is worked on: a README section for contributors, not a part of the project
_README_PROCESS = re.compile(
    r"^\W*(?:(?:running )?(?:the )?tests?|testing|releas(?:e|ing)(?: process)?|roadmap|maintainers?)\W*$",
    re.IGNORECASE,
)
# the maintainers' own set-up: fsspec's "Develop" (a conda environment, `pip install -e`), boltons' and pyee's
# "Development" (tox runs) — never a use of the project, in the overview or in Getting started
_DEVELOPING = re.compile(
    r"^\W*(?:develop|development|developing|hacking|building(?: from source)?|(?:local )?development setup"
    r"|local development)\W*$",
    re.IGNORECASE,
)
# the project checking itself: its benchmarks, how to run its own tests; never a use of the project
_OWN_CHECKS = re.compile(
    r"^\W*(?:benchmark(?:s|ing)?|(?:running )?(?:the )?test suite|running (?:the )?tests?)\W*$", re.IGNORECASE
)
# README sections whose code is never a use of the project (a "Testing" section may show the project's test
# client, so _README_PROCESS is not among them)
_NO_USAGE = (_SKIPPED_HEADING, _OWN_CHECKS, _DEVELOPING)
# … nor is a Go API listing's entry, which godocdown and gomarkdoc write into READMEs under "Usage": a heading
# naming a declaration ("func  BackOffDelay", "func (Error) Unwrap", "type Option") over its signature
# (retry-go's Getting started showed five such signatures after its synopsis)
_DECLARATION_HEADING = re.compile(r"^(?:func|type)\s+(?:\([^)]*\)\s*)?[A-Za-z_]\w*(?:\[[^\]]*\])?\s*$")
# … nor is a block of benchmark results or of the machine they ran on, whatever its heading: fasthttp's "HTTP
# server performance comparison with net/http" (`go test -bench=…`, `15327 ns/op`), gnet's "Benchmarks on
# TechEmpower" ("28 HT Cores Intel(R) Xeon(R) Gold …") had been their Getting started's first examples
_BENCHMARK_OUTPUT = re.compile(
    r"\b(?:ns|allocs|B)/op\b|\b(?:requests|req|ops)/s(?:ec)?\b|\bGOMAXPROCS\b|\bIntel\(R\)|\bAMD EPYC\b"
    r"|\bgo test -bench\b",
    re.IGNORECASE,
)
_PROGRAM_LANGUAGES = frozenset(
    "python py pycon ipython javascript js jsx typescript ts tsx go golang rust rs java kotlin csharp cs c# c cpp c++ "
    "ruby rb php swift scala svelte vue".split()
)
# a docs folder named for a kind of page, not a subject: its pages are the subjects (Diátaxis' parts, a reference);
# or for holding the manual: Sphinx's source folder beside its build (omegaconf's docs/source/ beside docs/design/
# had been one concept, "OmegaConf", of usage, custom resolvers, structured configs, grammar …)
_INDEX_PAGE = re.compile(r"^(?:index|readme|_index)\.(?:md|mdx|markdown|rst)$", re.IGNORECASE)
_CATEGORY = re.compile(
    r"guides?|tutorials?|topics|how-?tos?|references?|api|concepts|core[-_]concepts|advanced|basics|essentials"
    r"|pages|content|source",
    re.IGNORECASE,
)
_GENERIC_TITLE = re.compile(
    r"(?:an? )?(?:overview|introduction|intro|index|readme|about|summary)", re.IGNORECASE
)
# the title sphinx-quickstart writes on a docs' front page ("Welcome to dogpile.cache's documentation!",
# "DeepDiff 8.6.1 documentation!"): the project's name in boilerplate, stale with its version
_QUICKSTART_TITLE = re.compile(
    r"(?i)(?:welcome to (?:the )?(?P<welcomed>.+?)(?:['’]s)?|(?P<versioned>.+?) v?\d+(?:\.\d+)+\S*) documentation\W*"
)
_ABOUT_HEADING = re.compile(
    r"^\W*(?:why\b|what\b|about\b|overview|introduction|intro\b|description|summary|motivation"
    r"|(?:basic |core |key |main )?concepts\W*$)",
    re.IGNORECASE,
)
_FEATURES_HEADING = re.compile(r"^\W*(?:(?:key|main|core) )?(?:features|highlights|capabilities)\b", re.I)
_FEATURES_ONLY = re.compile(r"^\W*(?:(?:key|main|core) )?(?:features|highlights|capabilities)\W*$", re.I)
# … and a section asking why one would use it, which lists what it does (consola's "Why Consola?": "Easy to use",
# "Fancy output with fallback …", "Pluggable reporters" …)
_WHY_IT = re.compile(r"^\W*why (?:use |choose |pick )?[\w.-]+(?: [\w.-]+)?\?\W*$", re.I)
_NOT_PACKAGES = frozenset({"index", "readme", "overview", "intro", "introduction", "docs"})
# tests, samples and docs define `Person` and `Order` too: never the definition a doc means
# Go packages that document no library: tests' data, examples, internals, commands and generated code
_NOT_GO_LIBRARY = re.compile(r"(?:^|/)(?:testdata|_?examples?|internal|cmd|vendor|third_party)/")
_NOT_LIBRARY = re.compile(
    WORD_ENDING_FOLDER + r"(?:tests?|specs?|__tests__|examples?|samples?|demos?|benchmarks?|docs?)/"
    # … and a test beside the code it tests: traefik's Docker, Kv, Knative and Ingress guide entries linked
    # `TestDynConfBuilder_build`, `Test_buildConfiguration` from pkg/provider/*/…_test.go
    r"|(?:^|/)(?:test_[^/]*\.py|conftest\.py|[^/]*_test\.\w+|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?)$",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`([A-Za-z_](?:[\w.]|::)*)(?:\(\))?`")
_QUALIFIED = re.compile(r"\.|::")  # `koanf.Provider`, `serde_json::Value`, `log::Level`
_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)


def read_project_docs(
    root: Path, repo_map: RepoMap, facts: Facts, linker: Linker, redactor: Redactor | None = None
) -> ProjectDocs:
    """The project's docs as records: the README and the docs folder, each file read once (secrets the
    redactor knows are masked before anything is quoted)."""
    # a docs page that is a symbolic link to another doc file of the repository (copier's docs/index.md, the
    # docs' "Overview", is ../README.md) is that file where the navigation lists it
    files = doc_files(repo_map)
    linked = _linked_docs(root, repo_map, files)
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
        [*(text for p, text in texts.items() if p.endswith(".rst")), *_sphinx_extras(root, repo_map, folder)]
    )
    documents = {
        p: _document_of(
            with_replacements(text, replacements) if p.endswith(".rst") else text,
            p,
            linker,
            redactor,
            navigation.substitutions,
            includes,
            labels,
        )
        for p, text in texts.items()
    }
    for path, title in navigation.titles().items():  # the nav's name for a page is the one shown
        if path in documents:
            documents[path] = replace(documents[path], title=title)
    # a page assembling others says nothing they do not (`_assembles_pages`), and shows no fragment of its own
    assembled = {p for p in documents if _assembles_pages(p, documents)}
    # a fragment another page shows whole is no page of its own
    shown_within = _included_whole({p: d for p, d in documents.items() if p not in assembled})
    # … nor is a docs page that only shows the README (diskcache's index.rst: the overview and the examples
    # read the README already), nor one for the maintainers; the README it shows still introduces the docs
    # (… or is a link to the README: copier's docs/index.md)
    readme_linked = {readme} & {linked[p] for p in navigation.order if p in linked}
    readme_pages = {p for p in in_order if p in readme_linked or _readme_only(documents.get(p), readme)}
    readme_intro = [documents[p] for p in in_order[:INTRO_PAGES] if p in readme_pages][:1]
    in_order = tuple(
        p
        for p in in_order
        if p not in shown_within
        and p not in readme_pages
        and p not in assembled
        and not _moved(documents.get(p))
        and not _for_maintainers(p, documents.get(p))
        and not is_template_name(
            p
        )  # a blank to copy (omegaconf's docs/design/TEMPLATE.md, "Title"): no concept
    )
    names = SymbolNames(facts, linker, _qualifiers(root, repo_map), root)
    sections = navigation.sections()
    concepts = concepts_of([documents[p] for p in in_order if p in documents], folder, names, sections)
    crates = _rust_crate_docs(root, repo_map, linker, redactor)
    # without a docs folder, the guides at the top (joi's 4,500-line API.md) are the docs, read like a README
    guides = (
        []
        if folder
        else [
            d
            for p in files
            if _ROOT_GUIDE.fullmatch(p)
            and (d := _read(root, p, linker, redactor, navigation.substitutions, includes))
        ]
        + _go_package_docs(root, repo_map, linker, redactor)
        + crates
    )
    # … and so are a monorepo's package READMEs, each the docs of its package
    packages = (
        [] if folder else _package_readmes(root, files, repo_map, documents.get(readme), linker, redactor)
    )
    # a docs folder that is one long page (the whole manual in docs/index.md) is read like a README
    manual = _one_page_manual([documents[p] for p in in_order if p in documents])
    if manual is not None and len(concepts) < README_CONCEPTS:
        concepts = readme_concepts(manual, names) or concepts
    thin = len(in_order) < THIN_DOCS and len(concepts) < README_CONCEPTS  # a page or two, not a guide
    if folder and (thin or (manual is None and len(in_order) <= SMALL_DOCS)):  # … or a few side pages
        concepts = _beside(readme_concepts(documents.get(readme), names), concepts)
    if not concepts:
        concepts = _distinct(
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
        if p in documents and _is_starter(p, readme, documents[p].title) and _in_force(documents[p])
    ]
    # a guide's own usage sections first (doc.go's "Usage"), then the README's and the starter pages' code
    # … then a "Getting started" section of another docs page (sqlite-utils' Python API page opens with one)
    started = [
        _sections_headed(documents[p], _GETTING_STARTED)
        for p in in_order
        if p in documents and not _is_starter(p, readme) and documents[p] is not manual
    ]
    examples = usage_examples(
        [
            *(_sections_headed(d, _STARTER) for d in (*guides, *([manual] if manual else []))),
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
    if not folder and sum(_shows_code(p) for p in examples) < FEW_EXAMPLES:
        shown = sum(p.kind == "code" for p in examples)
        examples += folder_examples(root, repo_map, redactor, MAX_EXAMPLES - shown, project_name(root))
    if not any(_shows_code(p) for p in examples):
        # a project whose README shows no use and which keeps no examples teaches by its docs pages' code:
        # hapi's API.md (`const server = Hapi.server({ port: 80 })`), beaker's sessions and caching pages
        read = {id(d) for d in starters}  # … whose examples are in already
        teaching = [*guides, *(documents[p] for p in in_order if p in documents)]
        examples += usage_examples(d for d in teaching if _in_force(d) and id(d) not in read)
    install = install_steps(
        [documents[p] for p in [readme, *in_order] if p in documents and _in_force(documents[p])] + guides
    )
    intro = _introduction(
        [documents[p] for p in in_order[:INTRO_PAGES] if p in documents],
        ordered=bool(navigation.listed),
        folder=posixpath.commonpath([posixpath.dirname(p) for p in in_order]) if in_order else folder,
    )
    intro = readme_intro + intro  # the first page showing the README introduces first, as it did as a page
    release = release_passages(
        root, documents.get(readme) if readme else None, {f.path for f in repo_map.files}
    )
    # the docs' own getting-started page is the first use shown whole: on Getting started, not again in the guide
    folded = fold_started(concepts, examples, readme, lambda h: bool(install) and _under_install([h]))
    concepts, examples = list(folded.concepts), list(folded.examples)
    return ProjectDocs(
        root=folder,
        files=len(documents) + len(guides),
        # docs opening with the README read it as their first page: whole, past its first example
        overview=overview(documents.get(readme), intro or guides[:1], whole=bool(readme_intro)),
        examples=tuple(examples),
        install=tuple(install),
        release=release,
        tag=release_tag(root, release),
        example_symbols=tuple(names.resolve(_names_in(examples, names), methods=True)),
        concepts=tuple(concepts),
        started=folded.page,
        readme=first_paragraph(documents[readme]) if readme in documents else None,
    )


def _linked_docs(root: Path, repo_map: RepoMap, files: Collection[str]) -> dict[str, str]:
    """Each doc file that is a symbolic link to another doc file of the repository, with that file's path:
    the link's own text, read and never followed, resolved within the tree; a link leading out of the
    repository, or to anything but a doc file the map read, is none."""
    docs = set(files)
    found: dict[str, str] = {}
    for skipped in repo_map.skipped:
        if not skipped.reason.startswith("symlink") or not skipped.path.lower().endswith(DOC_SUFFIXES):
            continue
        try:
            link = os.readlink(root / skipped.path)
        except OSError:
            continue
        if link.startswith(("/", "\\")) or "\\" in link:
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(skipped.path), link))
        if target in docs and not target.startswith("../"):
            found[skipped.path] = target
    return found


# a page for the project's maintainers, by its name: tablib's and diskcache's development.rst, dynaconf's
# maintainers-manual.md
_MAINTAINERS_PAGE = re.compile(r"maintain\w*(?:[-_]\w+)?", re.IGNORECASE)
_DEVELOPMENT_PAGE = re.compile(r"development|developing|hacking", re.IGNORECASE)
_CONTRIBUTING = re.compile(
    r"pull request|contribut|\bgit clone\b|\btox\b|test suite|\bissue tracker", re.IGNORECASE
)


_SPHINX_EXTRAS = re.compile(r"(?:^|/)(?:conf\.py|[^/]+\.inc)$")


def _sphinx_extras(root: Path, repo_map: RepoMap, folder: str) -> list[str]:
    """The texts a Sphinx build reads beside its pages: `conf.py` (its `rst_epilog`) and the `.inc` files
    pages include (watchdog's `global.rst.inc`)."""
    if not folder:
        return []
    paths = [
        f.path for f in repo_map.files if f.path.startswith(folder + "/") and _SPHINX_EXTRAS.search(f.path)
    ]
    return [text for p in paths[:50] if (text := read_or_none(root, p, max_bytes=DOC_BYTES)) is not None]


def _for_maintainers(path: str, document: Document | None) -> bool:
    """Whether a docs page is for the project's maintainers: named so, or named for development and saying
    how to work on the project (its pull requests, contributors, test suite) — a users' "Development
    server" page says none of that."""
    stem = PurePosixPath(path).stem
    if _MAINTAINERS_PAGE.fullmatch(stem):
        return True
    if document is None or not _DEVELOPMENT_PAGE.fullmatch(stem):
        return False
    said = " ".join(block.text for _, block in document.blocks())
    return len(_CONTRIBUTING.findall(said)) >= 2


def _skipped(section: Section) -> bool:
    """Whether a section is under a heading no page quotes (licence, contributing, contents …)."""
    return any(_SKIPPED_HEADING.search(h) for h in section.path)


def _readme_only(document: Document | None, readme: str) -> bool:
    """Whether every block of a docs page a guide would quote is the README's, included (`.. include::
    ../README.rst`): bleach's and vcrpy's index.rst add only a "Contents" toctree and sphinx-quickstart's
    "Indices and tables", and their guide opened with a page titled "index" repeating the overview."""
    origins = (
        {b.origin for s, b in document.blocks() if not _skipped(s)}
        if document is not None and readme
        else set()
    )
    return origins == {readme}


def _moved(document: Document | None) -> bool:
    """Whether a docs page only says where its content went (dayjs' docs/en/*.md: "The documents are moved
    to https://day.js.org."; litestar's "This page has moved to …"): a redirect, never a guide page."""
    blocks = [b for _, b in document.blocks()] if document is not None else []
    return (
        0 < len(blocks) <= 2
        and all(b.kind == "paragraph" for b in blocks)  # a page showing code or a list says something
        and bool(redirect_target("\n".join(b.text for b in blocks)))
    )


def _assembles_pages(path: str, documents: Mapping[str, Document]) -> bool:
    """Whether every block of a docs page is another docs page's, included: a page that assembles the
    others (pendulum's docs/index.md is seventeen `{!docs/….md!}` lines) says nothing they do not."""
    document = documents.get(path)
    origins = {block.origin for _, block in document.blocks()} if document is not None else set()
    return len(origins) > 1 and all(o and o != path and o in documents for o in origins)


def _included_whole(documents: Mapping[str, Document]) -> set[str]:
    """The docs fragments another page includes whole — files without a heading of their own (peewee's
    pool-snippet.rst, cerberus' includes/) —: their text is read where it is shown. A page with a title
    stays a page (huey's django.rst, shown in contrib.rst under no heading of its own there), and so does
    one another includes only a part of (svcs' why.md quoting its index between two markers)."""
    found: set[str] = set()
    for path, document in documents.items():
        spans: dict[str, list[Block]] = {}
        for _, block in document.blocks():
            if block.origin and block.origin != path and block.origin in documents:
                spans.setdefault(block.origin, []).append(block)
        for origin, shown in spans.items():
            if any(section.heading for section in documents[origin].sections):
                continue
            own = [b for _, b in documents[origin].blocks()]
            if (
                own
                and min(b.start for b in shown) <= own[0].start
                and max(b.end for b in shown) >= own[-1].end
            ):
                found.add(origin)
    return found


def _one_page_manual(pages: Sequence[Document]) -> Document | None:
    """The docs page holding more than half of the docs' lines under at least `README_CONCEPTS` headings of
    its own, among at most `MANUAL_PAGES` (pydantic-settings' 3,600-line docs/index.md, gin's docs/doc.md);
    None when the docs are divided into pages."""
    lines = {p.origin: max((s.end for s in p.sections), default=0) for p in pages}
    if (
        not pages
        or len(pages) > MANUAL_PAGES
        or not (longest := max(pages, key=lambda p: lines[p.origin])).sections
    ):
        return None
    top = _top_level(longest.sections)
    headings = {s.path[top - 1] for s in longest.sections if len(s.path) >= top}
    if lines[longest.origin] * 2 <= sum(lines.values()) or len(headings) < README_CONCEPTS:
        return None
    return longest


def answers_a_question(heading: str) -> bool:
    """Whether a section answers a reader's question of the FAQ kind ("Does Guzzle require cURL?", "How do
    I debug?"); "What is it?" and "Why X?" say what the project is."""
    return _FAQ_HEADING.match(heading) is not None


def _shows_code(passage: DocPassage) -> bool:
    """A usage example in a programming language, not shell commands (an unnamed block is either: commands
    when each of its lines runs a tool)."""
    if passage.kind != "code":
        return False
    if passage.language == "":
        return not _install_only(_ENV_PREFIX.sub("", passage.text))
    return passage.language.lower() not in _SHELL


def _introduction(first: Sequence[Document], *, ordered: bool = True, folder: str = "") -> list[Document]:
    """The docs' introduction: their first page, or, when that says nothing in prose (valtio's
    `introduction.mdx` is a title alone, rich's `index.rst` a toctree), the next page named as one
    (`getting-started`, `introduction`, `overview`); none when it is no longer in force. Unless the docs'
    navigation `ordered` the pages, the first is only first by name (axum's src/docs/ of fragments its
    crate docs include opens with `debugging_handler_type_errors.md`): only a page named as one introduces —
    a page that is its folder's index goes by the folder's name (valibot's `(advanced)/async-validation/
    index.mdx`), but for the docs folder's own index."""
    saying = [
        d
        for n, d in enumerate(first)
        if ((n == 0 and ordered) or _INTRO_PAGE.match(_page_name(d.origin, folder)))
        and any(_says(b) for _, b in d.blocks())
    ]
    return [saying[0]] if saying and _in_force(saying[0]) else []


def _page_name(path: str, folder: str) -> str:
    """A docs page's name: its file's, or its folder's for the index of a folder below `folder`, the one all
    the docs pages are in (watchdog's docs/source/index.rst is the docs' own index)."""
    page = PurePosixPath(path)
    if page.stem.lower() in ("index", "readme") and str(page.parent) not in (folder or ".", "."):
        return page.parent.name
    return page.stem


def _says(block: Block) -> bool:
    return block.kind == "paragraph" and len(block.text.split()) >= MIN_WORDS


def _read(
    root: Path,
    path: str,
    linker: Linker,
    redactor: Redactor | None,
    subs: Mapping[str, str],
    includes: Includes | None = None,
    labels: Mapping[str, str] | None = None,
) -> Document | None:
    """A docs file as a document (`_document_of`); None when it cannot be read."""
    text = read_or_none(root, path, max_bytes=DOC_BYTES)
    return None if text is None else _document_of(text, path, linker, redactor, subs, includes, labels)


def _document_of(
    text: str,
    path: str,
    linker: Linker,
    redactor: Redactor | None,
    subs: Mapping[str, str],
    includes: Includes | None = None,
    labels: Mapping[str, str] | None = None,
) -> Document:
    """A docs file's text as a document, with what the docs build puts in it from elsewhere (substitutions,
    the titles of the sections its `:ref:` roles name)."""
    text = with_ref_titles(substitute(text, subs), labels or {})
    if redactor is not None:
        text = redactor.redact(text)[0]
    document = read_text(
        text, name=path, origin=path, revision=linker.revision, includes=includes is not None
    )
    if includes is not None:
        document = includes.expand(document)
    standing = page_standing(text, document.status)
    return replace(document, status=standing) if standing else document


_README_NAMES = ("README.md", "README.rst", "README.markdown", "README.txt", "README")


def folder_readme_opening(root: Path, folder: str, paths: Collection[str], redactor: Redactor | None) -> str:
    """The first paragraph of a folder's own README (OpenHands' openhands/README.md: "This directory contains
    the core components of OpenHands."): what the folder is, in its maintainers' words; '' when it has none.
    `paths`: the repository's mapped files."""
    readme = next((f"{folder}/{n}" for n in _README_NAMES if f"{folder}/{n}" in paths), "")
    if not folder or not readme:
        return ""
    text = read_or_none(root, readme, max_bytes=DOC_BYTES) or ""
    if redactor is not None:
        text = redactor.redact(text)[0]
    opening = [p for p in passages(read_text(text, name=readme, origin=readme)) if p.kind == "paragraph"]
    return opening[0].text if opening else ""


def _package_readmes(
    root: Path,
    files: Sequence[str],
    repo_map: RepoMap,
    readme: Document | None,
    linker: Linker,
    redactor: Redactor | None,
) -> list[Document]:
    """The READMEs of a monorepo's packages (a workspace's members: a folder below the root holding its own
    manifest, `packages/server-renderer/package.json`, `crates/x/Cargo.toml`), each the docs of its package,
    for a repository without a docs folder; never one that repeats the front README (puppeteer's packages
    publish it again), one inside another package, or one of an example, a test or a fixture."""
    manifests = {
        str(PurePosixPath(f.path).parent) for f in repo_map.files if PurePosixPath(f.path).name in _MANIFESTS
    }
    front = {p.text for p in passages(readme)} if readme is not None else set()
    found = []
    for path in files:
        folder = str(PurePosixPath(path).parent)
        if (
            PurePosixPath(path).stem.lower() != "readme"
            or folder == "."
            or folder not in manifests
            or _NOT_LIBRARY.search(path)
            # a package inside another (a playground's project template) is that package's material
            or any(str(above) in manifests for above in PurePosixPath(folder).parents if str(above) != ".")
        ):
            continue
        name, private = _package_json(root, folder)
        document = None if private else _read(root, path, linker, redactor, {})
        quoted = {p.text for p in passages(document)} if document is not None else set()
        if document is None or len(quoted) < PACKAGE_PASSAGES or len(quoted & front) * 2 >= len(quoted):
            continue
        if _GENERIC_TITLE.fullmatch(document.title.strip()):  # "README": the package's name says which
            document = replace(document, title=name or _humane(folder))
        found.append(document)
    return found


def _package_json(root: Path, folder: str) -> tuple[str, bool]:
    """(name, private) of the npm package in `folder` ("", False without a readable package.json): a
    private one is a workspace's playground or test bed, never published, no part a user meets."""
    try:
        manifest = json.loads(read_source(root, f"{folder}/package.json", max_bytes=DOC_BYTES))
    except (DeepkbError, ValueError):
        return "", False
    if not isinstance(manifest, dict):
        return "", False
    name = manifest.get("name")
    return (name if isinstance(name, str) else ""), manifest.get("private") is True


def package_concepts(documents: Sequence[Document], names: SymbolNames) -> list[DocConcept]:
    """One concept per package README, named by its title (`@vue/server-renderer`), its code symbols looked
    for in its package's folder first."""
    concepts = []
    for document in documents:
        quoted = passages(document)
        title = document.title or _humane(str(PurePosixPath(document.origin).parent))
        page = DocPage(document.origin, title, tuple(quoted))
        concepts.append(_concept(title, [page], names, str(PurePosixPath(document.origin).parent)))
    return concepts


def _go_package_docs(
    root: Path, repo_map: RepoMap, linker: Linker, redactor: Redactor | None
) -> list[Document]:
    """The doc comment of the Go package nearest the root, when it documents the package (doc.go's usage,
    formats and options, as pkg.go.dev shows them): a guide for a repository without a docs folder. The
    longest at the shallowest depth; never a test, example, internal or command package's, nor a sub-package's
    when the root is a package (its doc is that package's, never the project's: koanf's k8smount provider,
    lipgloss' compat layer)."""
    by_depth: dict[int, list[str]] = {}
    for entry in repo_map.files:
        if (
            entry.language == "go"
            and not entry.path.endswith("_test.go")
            and not _NOT_GO_LIBRARY.search(entry.path)
        ):
            by_depth.setdefault(entry.path.count("/"), []).append(entry.path)
    # the files of one depth are read only when none nearer the root has one
    for depth in [0] if 0 in by_depth else sorted(by_depth):
        found: list[tuple[int, Document]] = []
        for path in by_depth[depth]:
            text = read_or_none(root, path, max_bytes=DOC_BYTES) or ""
            package, markdown = package_doc(redactor.redact(text)[0] if redactor is not None else text)
            if markdown:
                document = read_text(
                    markdown, name=path, origin=path, revision=linker.revision, markup="markdown"
                )
                document = replace(document, title=f"Package {package}", sections=_go_code(document.sections))
                found.append((len(markdown.strip()), document))
        if found:
            return [max(found, key=lambda item: item[0])[1]]
    return []


def _rust_crate_docs(
    root: Path, repo_map: RepoMap, linker: Linker, redactor: Redactor | None
) -> list[Document]:
    """The `//!` documentation of the Rust crate nearest the root (`src/lib.rs`, else `src/main.rs`), which
    docs.rs shows as the crate's front page (log's usage, its implementations, writing a logger, its
    feature flags): a guide for a repository without a docs folder. The longest at the shallowest depth;
    never an example's, a test's, a benchmark's or a vendored crate's."""
    by_depth: dict[int, list[str]] = {}
    for entry in repo_map.files:
        if _CRATE_ROOT.search(entry.path) and not _NOT_RUST_LIBRARY.search(entry.path):
            by_depth.setdefault(entry.path.count("/"), []).append(entry.path)
    for depth in sorted(by_depth):
        found: list[tuple[int, Document]] = []
        for path in by_depth[depth]:
            text = read_or_none(root, path, max_bytes=DOC_BYTES) or ""
            comment = crate_doc(redactor.redact(text)[0] if redactor is not None else text)
            if comment is not None:
                document = read_text(
                    comment.text, name=path, origin=path, revision=linker.revision, markup="markdown"
                )
                title = f"Crate {_crate_name(root, path)}"
                found.append((len(comment.text.strip()), replace(comment.at_source(document), title=title)))
        if found:
            return [max(found, key=lambda item: item[0])[1]]
    return []


_CRATE_ROOT = re.compile(r"(?:^|/)src/(?:lib|main)\.rs$")
_NOT_RUST_LIBRARY = re.compile(r"(?:^|/)(?:examples?|tests?|benches|fuzz|vendor(?:ed)?|third_party)/")
_CRATE_NAME = re.compile(r"^\[package\][^\[]*?^name\s*=\s*[\"']([\w-]+)[\"']", re.MULTILINE | re.DOTALL)


def _crate_name(root: Path, path: str) -> str:
    """The crate's name, as its `Cargo.toml` declares it; else its folder's."""
    crate = PurePosixPath(path).parent.parent
    manifest = read_or_none(root, str(crate / "Cargo.toml"), max_bytes=DOC_BYTES) or ""
    match = _CRATE_NAME.search(manifest)
    return match.group(1) if match else (crate.name or root.name)


def go_package_examples(root: Path, facts: Facts, redactor: Redactor | None) -> list[DocPassage]:
    """The `Example` functions of the tests of the Go library packages nearest the root that have any (`go
    test` runs them; pkg.go.dev shows them as the package's examples): the package's own (`Example`,
    `Example_basicConfiguration`) first, then its types' and functions' (`ExampleRetry`), each whole."""
    by_depth: dict[int, set[str]] = {}
    for path in facts.files:
        if path.endswith("_test.go") and not _NOT_GO_LIBRARY.search(path):
            by_depth.setdefault(path.count("/"), set()).add(path.rpartition("/")[0] or ".")
    for depth in sorted(by_depth):
        found = sorted(
            (e for folder in by_depth[depth] for e in go_examples(root, facts, folder)), key=lambda e: e.path
        )
        if found:
            found = [
                replace(e, text=redactor.redact(e.text)[0]) if redactor is not None else e for e in found
            ]
            return sorted(found, key=lambda e: not _PACKAGE_EXAMPLE.match(e.heading))
    return []


def _go_code(sections: Sequence[Section]) -> tuple[Section, ...]:
    """A Go doc comment's code blocks are Go."""
    return tuple(
        replace(
            section,
            blocks=tuple(
                replace(b, language="go") if b.kind == "code" and not b.language else b
                for b in section.blocks
            ),
        )
        for section in sections
    )


def _sections_headed(document: Document, heading: re.Pattern[str]) -> Document:
    """Only the sections of `document` under a heading `heading` finds: a guide's that introduce the project
    or show its use (`_STARTER`: "Introduction", "General Usage" — an API reference's every example is no
    getting-started page), another docs page's "Getting started" (`_GETTING_STARTED`)."""
    starting = [s for s in document.sections if any(heading.search(h) for h in s.path)]
    return replace(document, sections=tuple(starting))


def _in_force(document: Document) -> bool:
    return document.status not in INACTIVE


def _is_starter(path: str, readme: str, title: str = "") -> bool:
    """The README, a getting-started or usage page (`quickstart.md`, `01-intro.md`), one titled so (h3's and
    nitro's `1.guide/0.index.md` "Getting Started", vue-router's `guide/index.md`), the user's guide
    (`userguide.rst`), or a page of recipes (okio's docs/recipes.md, huey's, structlog's, cattrs' recipes,
    dramatiq's and alembic's cookbook): each shows the project in use."""
    named = unordered(PurePosixPath(path).stem)
    return path == readme or bool(
        _STARTER.search(named)
        or _RECIPES.search(named)
        or _USER_GUIDE.match(named)
        or _GETTING_STARTED.match(title)
    )


# --------------------------------------------------------------------------- passages


def passages(document: Document, limit: int = PASSAGES_PER_PAGE) -> list[DocPassage]:
    """The blocks a page quotes from `document`, in order: prose, list items, whole code blocks, tables;
    nothing from licence, contributing or sponsor sections; no fragment too short to say anything. A page
    of more than `limit` keeps every section's opening rather than its first sections whole (`_spread`)."""
    return _spread(_quotable(document), limit)


def _quotable(document: Document) -> list[tuple[int, DocPassage]]:
    """Every block of `document` worth quoting, each with its place in its section (0 for the section's
    first); a lead-in ending in a colon, or a question, shares its place with the block it introduces. What
    a lead-in announces is quoted however short ("Namespace: `options.animations[animation]`", a command, a
    setting's name): the page would otherwise promise it and go on without it; so is the answer to a
    question, asked in a heading or a paragraph ("Does code coverage work with snapshot testing?" — "Yes,
    as well as with any other test.")."""
    found: list[tuple[int, DocPassage]] = []
    current = None
    place = 0
    listed = 0  # the place of the list being quoted: its first item's
    last = -1  # the block last quoted
    announced = False  # the blocks just quoted end in a lead-in: what follows is what it announces
    labelled = False  # the block just quoted labels the code below it (a content tab's title)
    repeated = {h for h, n in Counter(s.heading for s in document.sections).items() if n > 1}
    blocks = list(document.blocks())
    contents = _table_of_contents(document, blocks)
    for at, (section, block) in enumerate(blocks):
        if _skipped(section) or at in contents:
            continue
        announced = announced and section is current or section is not current and _asks(section.heading)
        if api_names(block):  # an object documented from its docstring: the page's code, not its words
            continue
        labels = _labels_code(blocks, at)
        worthy = _worth_quoting(block.kind, block.text, block.lead) or _leads_into_list(blocks, at) or labels
        worthy = worthy or _introduced_code(blocks, at)
        worthy = worthy and not _leads_into_long_code(blocks, at)
        if not worthy and not (announced and _announced_line(block.kind, block.text)):
            announced = False
            continue
        if section is not current:
            current, place = section, 0
        elif not (_asks(found[-1][1].text, ":") or labelled):
            place += 1
        # a list is read whole or not at all: its items stand at its first item's place (its lead-in's),
        # while what follows the list still counts each item as a step down its section
        listed = listed if _continues_list(blocks, last, at) else place
        announced = _asks(block.text, ":") if worthy else True  # a run of announced lines
        labelled = labels
        last = at
        found.append(
            (
                listed if block.kind == "item" else place,
                DocPassage(
                    block.origin or document.origin,
                    block.start,
                    block.end,
                    block.kind,
                    table_text(block.rows) if block.kind == "table" and block.rows else block.text,
                    _shown_heading(section.heading, section.path, repeated),
                    block.language,
                    document.origin if block.origin else "",
                ),
            )
        )
    return found


def _continues_list(blocks: Sequence[tuple[Section, Block]], last: int, at: int) -> bool:
    """Whether block `at` is a further item of the list whose item `last` was quoted before it (the items
    between, if any, too short to quote)."""
    return 0 <= last < at and all(
        blocks[i][1].kind == "item" and blocks[i][0] is blocks[at][0] for i in range(last, at + 1)
    )


def _table_of_contents(document: Document, blocks: Sequence[tuple[Section, Block]]) -> set[int]:
    """The blocks of the lists that are a table of the document's own headings, under no "Contents" heading
    (kingpin's MarkdownTOC list "Overview", "Features", "User-visible changes between v1 and v2" … was a
    guide page of its own): at least `TOC_ITEMS` list items in a row, each one of its headings. A list a
    lead-in announces is the author's ("Sanic comes with three fallback exception handlers:" HTML, Text, JSON,
    each then a section): it stays, or the lead-in would promise nothing."""
    headings = {_bare(s.heading) for s in document.sections}
    runs: list[list[int]] = []
    for at, (section, block) in enumerate(blocks):
        if block.kind != "item" or _bare(block.text) not in headings:
            continue
        if runs and runs[-1][-1] == at - 1 and blocks[at - 1][0] is section:
            runs[-1].append(at)
        else:
            runs.append([at])
    return {at for run in runs if len(run) >= TOC_ITEMS and not _announced_list(blocks, run[0]) for at in run}


def _announced_list(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether the list holding item `at` follows a lead-in ending in a colon in its section."""
    section = blocks[at][0]
    while at > 0 and blocks[at][1].kind == "item" and blocks[at - 1][0] is section:
        at -= 1
    return blocks[at][1].kind == "paragraph" and blocks[at][1].text.rstrip().endswith(":")


def _without_contents(document: Document) -> Document:
    """The document without its tables of contents (`_table_of_contents`)."""
    blocks = list(document.blocks())
    contents = {id(blocks[at][1]) for at in _table_of_contents(document, blocks)}
    if not contents:
        return document
    sections = tuple(
        replace(s, blocks=tuple(b for b in s.blocks if id(b) not in contents)) for s in document.sections
    )
    return replace(document, sections=sections)


def _leads_into_list(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is a short lead-in ("It supports:") to the list right below it in its section: a
    list is quoted with the line that says what it lists."""
    section, block = blocks[at]
    if block.kind != "paragraph" or not block.text.rstrip().endswith(":") or at + 1 >= len(blocks):
        return False
    below, following = blocks[at + 1]
    return below is section and following.kind == "item" and any(ch.isalnum() for ch in block.text)


def _leads_into_long_code(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is a lead-in ending in a colon to a code block right below it too long to quote: it
    would promise what the page does not show (mistune's "Here is a list of available renderer functions
    …:" over a 67-line listing; 53 such lead-ins in 24 of the mirrored projects' docs)."""
    section, block = blocks[at]
    if block.kind != "paragraph" or not block.text.rstrip().endswith(":") or at + 1 >= len(blocks):
        return False
    below, following = blocks[at + 1]
    if below is not section or following.kind != "code":
        return False
    return not (_worth_quoting("code", following.text) or _introduced_code(blocks, at + 1))


def _introduced_code(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is code a paragraph right above it introduces, of at most `FIRST_EXAMPLE_LINES`:
    the sentence keeps what it announces, shown whole (grpc-gateway's tutorial "We also need to add and
    serve the gRPC-Gateway mux in our `main.go` file." over its 69-line `main.go`)."""
    section, block = blocks[at]
    if block.kind != "code" or not at or not block.text.strip():
        return False
    above, before = blocks[at - 1]
    return above is section and before.kind == "paragraph" and block.text.count("\n") < FIRST_EXAMPLE_LINES


def _labels_code(blocks: Sequence[tuple[Section, Block]], at: int) -> bool:
    """Whether block `at` is a label of a few words ("macOS/Linux", a content tab's title) over the code right
    below it in its section: the code is quoted with it, or two tabs' code would read as one."""
    section, block = blocks[at]
    if block.kind != "paragraph" or not is_label(block.text) or at + 1 >= len(blocks):
        return False
    below, following = blocks[at + 1]
    return below is section and following.kind == "code"


def _asks(text: str, also: str = "") -> bool:
    """Whether a text asks a question (or ends in `also`): what follows it answers."""
    return text.rstrip().endswith(("?", "？", *also))


def _announced_line(kind: str, text: str) -> bool:
    """A short paragraph a lead-in announced is worth quoting when it says anything at all."""
    return kind == "paragraph" and any(ch.isalnum() for ch in text) and not _NOT_OVERVIEW.search(text)


def _shown_heading(heading: str, path: Sequence[str], repeated: set[str]) -> str:
    """A section's heading as a page shows it. One its page repeats ("Tokens" under each of graphrag's
    prompts, "Example" under each of a tool's settings) is named with the heading above it ("Local Search ›
    Tokens"): alone, the page would run the repeats together under one "Tokens" and lose whose they are."""
    if heading in repeated and len(path) > 1 and path[-2]:
        return f"{path[-2]} › {heading}"
    return heading


def _spread(found: Sequence[tuple[int, DocPassage]], limit: int) -> list[DocPassage]:
    """At most `limit` of a page's passages, in the page's order: every section's first passage before any
    section's second, and so on, so that a long page cut to fit keeps each of its sections (mermaid's usage
    page had lost its API and its syntax check after the first thirty blocks). A lead-in whose block did not
    fit is left out with it."""
    costs = _costs(found)
    if sum(costs) <= limit:
        return [p for _, p in found]
    chosen: set[int] = set()
    counted = 0
    for i in sorted(range(len(found)), key=lambda i: (found[i][0], i)):
        if counted >= limit:
            break
        chosen.add(i)
        counted += costs[i]
    return [
        p
        for i, (_, p) in enumerate(found)
        if i in chosen and not (p.text.rstrip().endswith(":") and i + 1 < len(found) and i + 1 not in chosen)
    ]


def _costs(found: Sequence[tuple[int, DocPassage]]) -> list[int]:
    """What each passage costs of a page's budget: a short lead-in ("It supports:") comes with its list and
    costs nothing, and a list costs its first item (its further items stand at the first one's place,
    `_quotable`): omegaconf's six built-in resolvers had been cut to the first, each item counted as a
    passage of its own, and counting them would push other sections' passages out."""
    return passage_costs([p for _, p in found])


def passage_costs(quoted: Sequence[DocPassage]) -> list[int]:
    """What each of a page's passages costs of a budget (`_costs`)."""
    return [
        0 if _short_lead_in(p) or i > 0 and _further_item(quoted[i - 1], p) else 1
        for i, p in enumerate(quoted)
    ]


def within(quoted: Sequence[DocPassage], limit: int) -> tuple[DocPassage, ...]:
    """The first of `quoted` that together cost at most `limit` (`passage_costs`): a list is taken whole."""
    spent = list(accumulate(passage_costs(quoted)))
    taken = [p for p, total in zip(quoted, spent, strict=True) if total <= limit]
    if len(taken) < len(quoted) and taken and taken[-1].text.rstrip().endswith(":"):
        taken.pop()  # a lead-in goes with what it introduces
    return tuple(taken)


def _further_item(previous: DocPassage, passage: DocPassage) -> bool:
    """Whether `passage` goes on the list `previous` is an item of: an item under the same heading."""
    return passage.kind == previous.kind == "item" and (passage.path, passage.heading) == (
        previous.path,
        previous.heading,
    )


def _short_lead_in(passage: DocPassage) -> bool:
    return (
        passage.kind == "paragraph"
        and passage.text.rstrip().endswith(":")
        and len(passage.text.split()) < MIN_WORDS
    )


def _shares(sizes: Sequence[int], total: int = PASSAGES_PER_CONCEPT) -> list[int]:
    """How many passages each page of a concept quotes, `total` in all: an equal share, at most
    PASSAGES_PER_PAGE and at least LEAST_SHARE; a page with fewer leaves the rest to the longer ones. A page
    alone in its concept has the whole budget (mermaid's flowchart syntax, 271 blocks, had lost its links,
    subgraphs and interaction sections at 80)."""
    most = PASSAGES_PER_PAGE if len(sizes) > 1 else total
    shares = [0] * len(sizes)
    left = total
    for pending, i in enumerate(sorted(range(len(sizes)), key=lambda i: sizes[i])):
        shares[i] = min(sizes[i], most, max(LEAST_SHARE, left // (len(sizes) - pending)))
        left -= shares[i]
    return shares


def _worth_quoting(kind: str, text: str, lead: str = "") -> bool:
    """Whether a block says enough to quote: a code block a page can show whole, a paragraph or table of a
    few words. A list item may be a word when a lead-in announces the list ("Viper uses the following
    precedence:" then "flag", "env", "config"): dropping the short ones would leave the list wrong."""
    if kind == "code":
        return 0 < text.count("\n") + 1 <= CODE_LINES and bool(text.strip())
    words = len(text.split())
    if kind == "table":
        return words >= MIN_WORDS
    if kind == "item" and lead.rstrip().endswith(":"):
        return any(ch.isalnum() for ch in text) and not _notice(text)
    return words >= (3 if kind == "item" else MIN_WORDS) and not _NOT_OVERVIEW.search(text)


def _notice(text: str) -> bool:
    """Whether an item a lead-in announces is a notice (a sponsor, a licence, a contribution), not content.
    That something is deprecated is content in a list the docs announce: omegaconf's built-in resolvers
    include "oc.deprecated: Deprecate a key in your config"."""
    return any(not _DEPRECATION_WORDS.fullmatch(m.group()) for m in _NOT_OVERVIEW.finditer(text))


def overview(
    readme: Document | None, intro: Sequence[Document], whole: bool = False
) -> tuple[DocPassage, ...]:
    """What the project is and why: the README's opening prose (before its first code example) and the
    docs' introduction page's, whole paragraphs only; never a lead-in to what it does not show (a paragraph
    ending in ':') or how to install it. The README's first such paragraph may be short: a tagline centred
    under its logo ("A light-weight module that brings Fetch API to Node.js")."""
    found: list[DocPassage] = [t for t in [_tagline(readme)] if t is not None] if readme is not None else []
    openings: set[str] = {_opening(t.text) for t in found}  # a README and an introduction page often agree
    for document in {id(d): d for d in (readme, *intro) if d is not None}.values():
        # … the docs' own first page when that is the README (`whole`): its sections past the first example
        # say what the project is too (copier's "Basic concepts": templates, questionnaires, projects)
        past = whole and document is readme
        installing = {b.start for s, b in document.blocks() if _under_install(s.path)}
        teaching = {b.start for s, b in document.blocks() if any(_HOW_TO_HEADING.search(h) for h in s.path)}
        news = {b.start for s, b in document.blocks() if any(RELEASE_HEADING.search(h) for h in s.path)}
        asides = {b.start for s, b in document.blocks() if any(_aside(h) for h in s.path)}
        heading_one = next((s.heading for s in document.sections if s.level == 1), "")
        # every passage in order: a long README cut to fit a page (`_spread`) keeps only its sections'
        # first passages, and its opening section is what the project is (tqdm's 1,500-line README had
        # only its badge row left of it, and read as the name's etymology)
        quoted = [p for _, p in _quotable(document)]
        # the first example ends the opening, even one too long to quote (grape's 74-line "Basic Usage")
        long = [
            b.start for _, b in document.blocks() if b.kind == "code" and not _worth_quoting(b.kind, b.text)
        ]
        shown = [p.start for p in quoted if p.kind == "code"]
        # the README's opening statement: its tagline, else the first paragraph saying what the project is
        opened = next(
            (
                n
                for n, p in enumerate(quoted)
                if found and p.start == found[0].start and p.kind == "paragraph"
            ),
            -1,
        )
        example = min((at for at in (*long, *shown) if at not in installing), default=None)
        for at, passage in enumerate(quoted):
            if example is not None and passage.start >= example:  # how to get it is not how to use it
                if not past:
                    break
                if passage.start in teaching or passage.start in installing:
                    continue
            if document is readme and at == opened:  # the list right under the README's opening statement
                found += _opening_list(quoted, at)
            if listed := _feature_list(quoted, at, heading_one, openings):
                found += listed
                openings.add(_opening(passage.text))
            else:
                passage = _without_lead_in(passage, heading_one)
                opening = _opening(passage.text)
                if (
                    passage.kind == "paragraph"
                    and passage.start not in teaching
                    and passage.start not in news
                    and passage.start not in asides
                    and not NOTICE.match(passage.text)  # "NOTE: Starting with version 0.9 …": an aside
                    and not _ABOUT_FOLDER.match(passage.text)
                    and describes_project(
                        _stated(passage.text) if document is readme and not found else passage.text,
                        steps=True,
                    )
                    and passage.start not in installing
                    and len(passage.text.split())
                    >= (TAGLINE_WORDS if document is readme and not found else 10)
                    and opening not in openings
                ):
                    found.append(passage)
                    openings.add(opening)
                    if document is readme and len(found) == 1:
                        found += _opening_list(quoted, at)
            if sum(p.kind != "item" for p in found) >= OVERVIEW_PASSAGES:
                return _with_features(tuple(found), readme)
    return _with_features(tuple(found), readme)


def _opening_list(quoted: Sequence[DocPassage], at: int) -> list[DocPassage]:
    """The list right under the README's opening statement, which goes on saying what the project does
    (copier's "A library and CLI app for rendering project templates." then "Works with local paths and Git
    URLs", "… can dynamically replace values in any kind of text file", "… not overwriting existing files
    unless instructed to do so"); [] when no list of described items follows it there."""
    if (
        quoted[at].text.rstrip().endswith((":", "："))
    ):  # a lead-in: its list is a feature list (`_feature_list`)
        return []
    items = list(takewhile(lambda p: p.kind == "item" and p.heading == quoted[at].heading, quoted[at + 1 :]))
    if any(_NOT_OVERVIEW.search(p.text) for p in items):
        return []
    described = sum(len(p.text.split()) >= 3 for p in items)
    return items[:FEATURE_ITEMS] if len(items) >= 2 and described == len(items) else []


def _stated(text: str) -> str:
    """The README's first paragraph as a statement: it often stands under the logo unpunctuated, like a
    tagline ("Promise based HTTP client for the browser and node.js", "Simple yet flexible JavaScript
    charting for designers & developers") — one sentence of prose, never a row of links or badges
    ("Deutsch | Español", "What's new • Documentation", "PyPI Pythons CI ReadTheDocs")."""
    flat = " ".join(text.split())
    prose = _FUNCTION_WORD.search(flat) and not _LINK_ROW.search(flat) and len(split_sentences(flat)) == 1
    return f"{flat}." if prose and flat[-1:].isalnum() else text


_FUNCTION_WORD = re.compile(r"\b(?:for|of|the|an?|to|and|by|with|in|on|that|from)\b")
_LINK_ROW = re.compile(r"[|•·👉📖]")


def _with_features(found: tuple[DocPassage, ...], readme: Document | None) -> tuple[DocPassage, ...]:
    """An overview with the README's features list after it when it holds no list of what the project does."""
    if readme is not None and not any(p.kind == "item" for p in found):
        return (*found, *_features_section(readme))
    return found


def _as_lead_in(heading: str) -> str:
    """A heading leading into its list: "Features:"; a question asks it already ("Why Consola?")."""
    flat = " ".join(heading.split()).rstrip(":")
    return flat if flat.endswith("?") else f"{flat}:"


def _features_section(readme: Document) -> list[DocPassage]:
    """The first list of the README's "Features" section wherever it stands (httpx, express, hono and
    pdoc list what they do after their first example, where the overview stops reading), headed by the
    paragraph leading into it or else by the heading as its lead-in ("Features:"); [] when there is none."""
    for section in readme.sections:
        features = _FEATURES_ONLY.match(section.heading) or _WHY_IT.match(section.heading)
        if not features or any(_aside(h) for h in section.path):
            continue
        first = next((n for n, b in enumerate(section.blocks) if b.kind == "item"), None)
        if first is None or (not _FEATURES_ONLY.match(section.heading) and first > 0):
            continue  # … a "Why X?" section only when its list is all it says (viper's says it in prose first)
        lead = section.blocks[first].lead
        items = [
            DocPassage(readme.origin, b.start, b.end, "item", b.text, section.heading)
            for b in takewhile(lambda b: b.kind == "item", section.blocks[first:])
            if b.lead == lead and not _NOT_OVERVIEW.search(b.text)
        ][:FEATURE_ITEMS]
        before = section.blocks[first - 1] if first else None
        if before is not None and before.kind == "paragraph" and before.text.rstrip().endswith((":", "：")):
            head = DocPassage(
                readme.origin, before.start, before.end, "paragraph", before.text, section.heading
            )
        else:
            head = DocPassage(
                readme.origin,
                section.start,
                section.start,
                "paragraph",
                _as_lead_in(section.heading),
                section.heading,
            )
        return [head, *items] if len(items) >= 2 else []
    return []


def _aside(heading: str) -> bool:
    """A README section beside what the project is: its process (licence, contributing, roadmap), its
    policies (versioning, stability), where to ask or download, a pointer to its documentation, who uses it,
    a reader's question of the FAQ kind ("Is svelte.dev down?", "How do I submit a JEP?")."""
    return _process(heading) or any(
        p.match(heading) for p in (_POLICY_HEADING, _FAQ_HEADING, _OTHER_PROJECTS)
    )


def _feature_list(quoted: Sequence[DocPassage], at: int, title: str, openings: set[str]) -> list[DocPassage]:
    """The lead-in at `at` and the list it announces, when the README's opening or its about/features
    section says what the project does in a list ("It supports:" then CSS and XPath, JMESPath, regular
    expressions; "AnyIO offers the following functionality:" then task groups, networking, threads …): the
    list is what the project is, kept as items, at most FEATURE_ITEMS of them; [] otherwise."""
    lead = quoted[at]
    if lead.kind != "paragraph" or not lead.text.rstrip().endswith(":") or _NOT_OVERVIEW.search(lead.text):
        return []
    if about_the_docs(lead.text):  # "The documentation for Fastify is split into two categories:"
        return []
    if lead.heading not in ("", title) and not _ABOUT_HEADING.search(lead.heading):
        if not _FEATURES_HEADING.search(lead.heading):
            return []
    if _opening(lead.text) in openings:
        return []
    items: list[DocPassage] = []
    for passage in quoted[at + 1 :]:
        if passage.kind != "item" or passage.heading != lead.heading or _NOT_OVERVIEW.search(passage.text):
            break
        items.append(passage)
    described = sum(
        len(item.text.split()) >= 2 for item in items
    )  # not a list of links ("Roadmap", "Releases")
    return [lead, *items[:FEATURE_ITEMS]] if len(items) >= 2 and described * 2 >= len(items) else []


def _tagline(readme: Document) -> DocPassage | None:
    """The README's opening quote, else its title or the heading under a bare title when that is a
    sentence saying what the project is ("Kong is a command-line parser for Go")."""
    block = tagline(readme)
    text = " ".join(block.text.split()) if block is not None else ""
    if block is None or _NOT_OVERVIEW.search(text):
        return None
    return DocPassage(readme.origin, block.start, block.end, "paragraph", text)


def _without_lead_in(passage: DocPassage, title: str) -> DocPassage:
    """A paragraph whose last sentence leads into a list ("It supports:") or sends the reader to the docs
    says what the project is before it: that much is quoted, the lead-in to what the overview does not show
    and the pointer are not. Only where a README says what the project is (its opening, "Why use Viper?",
    "About"): elsewhere the sentences before a lead-in prepare it ("There are myriads of JSON libraries out
    there. Our class had these goals:")."""
    opening = passage.heading in ("", title) or _ABOUT_HEADING.search(passage.heading)
    if passage.kind != "paragraph" or not opening:
        return passage
    parts = split_sentences(passage.text)
    if len(parts) > 1 and about_the_docs(parts[-1]):
        # … nor the closing pointer to the docs: restify's "… for building REST APIs. For full details, see
        # http://restify.com" (unpunctuated, it had left the overview empty), caffeine's "For more details, see
        # our user's guide …"
        passage = replace(passage, text=" ".join(parts[:-1]))
    if not passage.text.rstrip().endswith(LEADING_INTO):
        return passage
    text = without_lead_in(passage.text)
    if text.rstrip().endswith(":") and len(split_sentences(text)) == 1 and _says_what(text, title):
        # sinatra's one sentence, "Sinatra is a DSL for … effort:", pytest-xdist's "The pytest-xdist plugin
        # extends pytest with … execution::", then code
        text = text.rstrip().rstrip(":") + "."
    return replace(passage, text=text)


# a sentence saying what something is ("Sinatra is a DSL for …")
_STATES_WHAT = re.compile(r"^(?!(?:there|here)\b)\S+(?:\s\S+){0,3}\s(?:is|are)\s(?:an?|the)\s", re.IGNORECASE)


def _says_what(sentence: str, title: str) -> bool:
    """Whether a sentence says what the project is or does: "X is a …", or the project's name among its
    first words as its subject ("The pytest-xdist plugin extends pytest …")."""
    opening = [w.strip("`*_\"'").lower() for w in sentence.split()[:4]]
    return bool(_STATES_WHAT.search(sentence)) or bool(title) and title.strip().lower() in opening


def _opening(text: str) -> str:
    """A paragraph's first sentence, folded to its words (markup and punctuation left out: msgspec's docs say
    "a `lightweight library`" where its README says "a lightweight library"), to tell a paragraph that says
    again what another said."""
    first = split_sentences(text)[:1]
    # … a Go package's doc says it as "Package negroni is …" where the README says "Negroni is …"
    return " ".join(re.findall(r"\w+", first[0].lower())).removeprefix("package ") if first else ""


def usage_examples(documents: Iterable[Document]) -> list[DocPassage]:
    """The code blocks of the README and the getting-started pages, whole, each with the sentence that
    introduces it (the block's `lead`), shell-only install lines left out. A numbered walk-through the
    budget stops in is read on to its last step, one example a step: grpc-gateway's "Usage" steps 1 to 6,
    whose step 5 writes the entrypoint the steps before it lead to."""
    found: list[DocPassage] = []
    seen: set[str] = set()
    for document in documents:
        for section, n, block in _numbered_blocks(document):
            if not _usage_example(section, block, first=not found) or block.text in seen:
                continue
            seen.add(block.text)
            found += _example_passages(document, section, n)
            if sum(p.kind == "code" for p in found) >= MAX_EXAMPLES:
                return found + _rest_of_walkthrough(document, section, seen)
    return found


# a walk-through's step: "1.Define your gRPC service", "5. Write an entrypoint", "Step 2: Create a table"
_STEP_HEADING = re.compile(r"^\W*(?:step\s*)?\d{1,2}(?:\.\d{1,2})*(?:[.):]|\s)", re.IGNORECASE)


def _usage_example(section: Section, block: Block, *, first: bool) -> bool:
    """Whether a block is code a usage example shows: whole, not output, a badge, a declaration's signature,
    an install line, or under a section about the project's process."""
    if block.kind != "code" or any(p.search(h) for p in _NO_USAGE for h in section.path):
        return False
    if _DECLARATION_HEADING.match(" ".join(section.heading.split())):
        return False
    if _BENCHMARK_OUTPUT.search(block.text) or _program_output(block) or _badge_markup(block.text):
        return False
    if not _shown_whole(block, section.path, first=first or _quick_start(section, block)):
        return False
    return not (_install_only(block.text) or _installing(section.path, block.language))


def _example_passages(document: Document, section: Section, n: int) -> list[DocPassage]:
    """The example at `n` with its lead, a content tab's label over it, and the paragraphs saying what it did."""
    block = section.blocks[n]
    found: list[DocPassage] = []
    if lead := _example_lead(document, section, n):
        found.append(lead)
    if n and (label := section.blocks[n - 1]).kind == "paragraph" and is_label(label.text):
        if lead is None or lead.text != label.text:  # a content tab's title, under what opens the tabs
            found.append(
                DocPassage(document.origin, label.start, label.end, "paragraph", label.text, section.heading)
            )
    found.append(
        DocPassage(
            block.origin or document.origin,
            block.start,
            block.end,
            "code",
            block.text,
            section.heading,
            block.language,
            document.origin if block.origin else "",
        )
    )
    found += [
        DocPassage(document.origin, b.start, b.end, "paragraph", b.text, section.heading)
        for b in _explaining(section.blocks, n)
    ]
    return found


def _rest_of_walkthrough(document: Document, at: Section, seen: set[str]) -> list[DocPassage]:
    """The first example of each numbered step after section `at` in the walk-through it is a step of (the
    sections under the heading its numbered steps stand under); [] when `at` is no step."""
    steps = [n for n, heading in enumerate(at.path) if _STEP_HEADING.match(heading)]
    if not steps:
        return []
    root = at.path[: steps[0]]
    sections = list(document.sections)
    after = next(n for n, section in enumerate(sections) if section is at) + 1
    found: list[DocPassage] = []
    for section in sections[after:]:
        if section.path[: len(root)] != root or len(section.path) <= len(root):
            break
        if not _STEP_HEADING.match(section.heading):
            continue
        for n, block in enumerate(section.blocks):
            if _usage_example(section, block, first=False) and block.text not in seen:
                seen.add(block.text)
                found += _example_passages(document, section, n)
                break
    return found


# a line a program printed: a log line (a timestamp, a level: gunicorn's "2013-06-29 06:26:55 [20682] [INFO]
# Handling signal: hup", fastify's `{"level":30,"time":…}`, zinx's "2023/03/09 18:39:49 [INFO]…") or a start-up
# banner's block letters (zinx's, dynaconf's "██████╗"); never a file tree's `├──`
_OUTPUT_LINE = re.compile(
    r"^\s*(?:\d{4}[-/]\d\d[-/]\d\d|\d\d:\d\d:\d\d|\[?(?:INFO|DEBUG|WARN(?:ING)?|ERROR|TRACE|FATAL)\]"
    r"|(?:time|level|ts)=|\{\"(?:level|time|msg|ts)\"|.*[█▀▄▓░╗╔╝╚═║])"
)
_OUTPUT_LANGUAGES = frozenset(
    {"", "bash", "sh", "shell", "console", "text", "txt", "log", "plaintext", "output"}
)
# a block this much of whose lines a program printed shows a run, not how to use it (zinx's start-up output is
# half log lines, half the settings it prints): a command never looks like a log line
OUTPUT_SHARE, OUTPUT_LINES = 0.4, 3


def _program_output(block: Block) -> bool:
    """A shell or plain block that is what a program printed, not what to type: zinx's README shows its
    server's banner and start-up log under "Zinx-Server" (the example before it is the code)."""
    if block.language.lower() not in _OUTPUT_LANGUAGES:
        return False
    lines = [line for line in block.text.splitlines() if line.strip()]
    printed = sum(bool(_OUTPUT_LINE.match(line)) for line in lines)
    return printed >= OUTPUT_LINES and printed >= OUTPUT_SHARE * len(lines)


def _shown_whole(block: Block, path: Sequence[str], *, first: bool) -> bool:
    """Whether an example is short enough to show whole; the first one under a usage heading may run
    longer: it is the example the project chose to teach with (grape's 74-line "Basic Usage", bull's,
    transitions' "Quickstart"), and its smaller neighbours only make sense after it."""
    if _worth_quoting("code", block.text):
        return True
    lines = block.text.count("\n") + 1
    if first and _GETTING_STARTED.match(path[-1] if path else ""):
        return lines <= QUICK_START_LINES
    return first and lines <= FIRST_EXAMPLE_LINES and any(_HOW_TO_HEADING.search(h) for h in path)


def _quick_start(section: Section, block: Block) -> bool:
    """Whether a block is the first code of a section headed "Quick Start" or "Getting started": the first
    use the project shows whole, wherever it stands and however long (ormar's README opens its 430-line
    Quick Start script after a partial migrations snippet: `OrmarConfig`, two models, `create_all`,
    `Author.objects.create`, `Book.objects.get`)."""
    if not _GETTING_STARTED.match(section.heading):
        return False
    return block is next((b for b in section.blocks if b.kind == "code"), None)


def _example_lead(document: Document, section: Section, n: int) -> DocPassage | None:
    """What introduces the example at `n`: the short paragraph right before it, whole ("As an alternative
    to `Parser.parse`, you can decorate your view with `use_args`. The parsed arguments will be injected
    …": its last sentence alone drops what the example shows), cited at its own lines; else the block's
    lead sentence, cited at the example's; None for a lead of fewer than three words."""
    block = section.blocks[n]
    if not block.lead or len(block.lead.split()) < 3:
        return None
    before = section.blocks[n - 1] if n else None
    if (
        before is not None
        and before.kind == "paragraph"
        and " ".join(before.text.split()).endswith(" ".join(block.lead.split()))
        and len(before.text.split()) <= INTRODUCTION_WORDS
        and len(split_sentences(before.text)) <= INTRODUCTION_SENTENCES
    ):
        return DocPassage(document.origin, before.start, before.end, "lead", before.text, section.heading)
    return DocPassage(
        block.origin or document.origin,
        block.start,
        block.end,
        "lead",
        block.lead,
        section.heading,
        page=document.origin if block.origin else "",
    )


def _numbered_blocks(document: Document) -> Iterator[tuple[Section, int, Block]]:
    """Every block with its section and its place among the section's blocks."""
    for section in document.sections:
        for n, block in enumerate(section.blocks):
            yield section, n, block


def _explaining(blocks: Sequence[Block], n: int) -> list[Block]:
    """The paragraphs right after the example at `n` that say what it did (swr's "In this example, the React
    Hook `useSWR` accepts a `key` and a `fetcher` function."), at most `EXPLAINING` of them, up to the next
    block that is not one; the last left out when code follows it, being that code's lead."""
    after = list(takewhile(lambda b: b.kind == "paragraph", blocks[n + 1 :]))
    if n + 1 + len(after) < len(blocks) and blocks[n + 1 + len(after)].kind == "code":
        after = after[:-1]
    return [b for b in after[:EXPLAINING] if _worth_quoting(b.kind, b.text) and not NOTICE.match(b.text)]


# a line that installs, fetches or builds the project: a package manager's or git's command, or any `install`
_INSTALL_LINE = re.compile(
    r"(?:sudo\s+)?(?:(?:pip3?|pipx|uv|npm|yarn|pnpm|bun|go|cargo|dotnet|brew|apt|apt-get|port|pacman|"
    r"xbps-install|nix-shell|nix-env|pkg|eopkg|choco|scoop|winget|snap|dnf|yum|zypper|apk|gem|composer|conda|"
    r"mamba|git|cd|docker|npx|mkdir|\./gradlew|gradlew|gradle|mvn|\./mvnw|mvnw|cmake|make|meson|ninja|bazel|sbt)"
    r"\b|\S+\s+(?:\S+\s+)?install\b)"  # a build too: mockito's `./gradlew build`, libuv's `cmake ..`, `make`
)
# a build file's dependency on the project: Maven's `<dependency>` and its coordinates, a Gradle
# `implementation("io.javalin:javalin:7.2.3")`, an sbt `libraryDependencies += …` (gson, jsoup, moshi,
# javapoet, commons-cli, jackson-core and javalin show them first in their READMEs)
_DEPENDENCY_LINE = re.compile(
    r"</?(?:dependenc(?:y|ies)|groupId|artifactId|version|scope|type|classifier|optional)>"
    r"|(?:implementation|api|compile|compileOnly|runtimeOnly|testImplementation|annotationProcessor|kapt|ksp)"
    r"\s*[(\"']|dependencies\s*\{|\}$|libraryDependencies\s*\+\+?="
)
_INSTALL_HEADING = re.compile(r"\binstall(?:s|ing|ation)?\b", re.IGNORECASE)
_SHELL = frozenset(
    {"", "bash", "sh", "shell", "console", "zsh", "fish", "powershell", "ps1", "pwsh", "bat", "cmd"}
)
_ENV_PREFIX = re.compile(
    r"^[ \t]*(?:[A-Z_][A-Z0-9_]*=\S*[ \t]+)+", re.MULTILINE
)  # `RUST_LOG=debug cargo run`
_COMMENT_LINE = re.compile(r"^(?:#|//|rem\b|::)", re.IGNORECASE)
_CONTINUED = re.compile(r"[ \t]*(?:\\|`|\^)[ \t]*\r?\n")  # a shell's, PowerShell's, cmd's line continuation


def _process(heading: str) -> bool:
    """A README section about the project's process (licence, contributing, developing, its own tests and
    benchmarks), not a part of the project."""
    return any(p.search(heading) for p in (*_NO_USAGE, _README_PROCESS))


def _installing(path: Sequence[str], language: str) -> bool:
    """A shell block under an "Installation" heading: setting up a package source, then installing."""
    return language.lower() in _SHELL and _under_install(path)


def _under_install(path: Sequence[str]) -> bool:
    """Whether a section stands under an "Installation" heading, at any depth ("macOS" under it too)."""
    return any(_INSTALL_HEADING.search(heading) for heading in path)


def _install_only(code: str) -> bool:
    """Whether a code block only installs, fetches or builds the project (comment lines aside): one per
    package manager is a list of ways in, not an example of use. A command continued over lines is one line
    (grpc-gateway's `go install \\` and the four packages after it)."""
    code = _CONTINUED.sub(" ", code)
    lines = [ln.strip().removeprefix("$").strip() for ln in code.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not _COMMENT_LINE.match(ln)]
    return bool(lines) and (
        all(_INSTALL_LINE.match(ln) for ln in lines) or all(_DEPENDENCY_LINE.match(ln) for ln in lines)
    )


# a line of image markup: a badge to paste into one's own README (copier's "Show your support": the badge as
# Markdown, as reST with its options, as HTML) is no use of the project
_IMAGE_LINE = re.compile(
    r"^\s*(?:\[?!\[[^\]]*\]\([^)]*\)\]?(?:\([^)]*\))?|\.\. (?:image|figure|\|[^|]+\| image)::.*"
    r"|:(?:target|alt|width|height|align|scale):.*|(?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*</a>)?|</?(?:a|p|div)\b[^>]*>)\s*$",
    re.IGNORECASE,
)
# a docs page titled as the way to install the project ("Installation", "Installing mise", "Install") — never a
# command's reference page (mise's docs/cli/install.md is "`mise install`")
_INSTALL_TITLE = re.compile(r"^\W*install(?:ation|ing)?\b", re.IGNORECASE)
_SPAN = re.compile(r"`([^`\n]+)`")
_INSTALL_KINDS = frozenset({"paragraph", "item", "code"})


def _badge_markup(code: str) -> bool:
    """Whether a code block is only image markup: a badge or a logo to copy, not code that uses the project."""
    lines = [line for line in code.splitlines() if line.strip()]
    return bool(lines) and all(_IMAGE_LINE.match(line) for line in lines)


def install_steps(documents: Iterable[Document]) -> list[DocPassage]:
    """How to install the project, in its own words: the first install section of the README or of a docs
    page in the docs' order (a page titled "Installation" whole), with its requirement lines and its first
    install blocks — copier's "Install Python 3.10 or newer", `pipx install copier`, `brew install copier`;
    expr's `go get github.com/expr-lang/expr`; ky's `npm install ky` —, each cited at its lines; [] when no
    document says how to install it."""
    for document in documents:
        part = _install_part(document)
        if not part.sections and _INSTALL_TITLE.match(document.title):
            part = document  # a page titled so under no such heading (its title in its front matter)
        if found := _install_passages(part):
            return found
    return []


def _install_part(document: Document) -> Document:
    """The first section of `document` under an "Install"/"Installation" heading, with its subsections
    (copier's "Homebrew formula" under "Installation")."""
    sections = list(document.sections)
    first = next((n for n, s in enumerate(sections) if _under_install(s.path[-1:])), len(sections))
    heading = sections[first].path[-1] if first < len(sections) else ""
    part = takewhile(lambda s: heading in s.path, sections[first:])
    return replace(document, sections=tuple(part))


def _install_passages(document: Document) -> list[DocPassage]:
    """The blocks of an install section up to its last that installs (a command, or a code span holding
    one), within `INSTALL_PASSAGES` and `INSTALL_BLOCKS`; notes, quotes and images left out."""
    found: list[DocPassage] = []
    blocks: list[Block] = []  # the code blocks that count against INSTALL_BLOCKS
    # an install page of alternatives, one a subsection: one that installs nothing (ko's release download and
    # its provenance check, a CI step) spends no room the package managers after it need
    top = document.sections[0].path if document.sections else ()
    installing = {id(s) for s, b in document.blocks() if _installs_block(b)}
    for section, block in document.blocks():
        if _skipped(section) or block.kind not in _INSTALL_KINDS or not block.text.strip():
            continue
        if len(section.path) > len(top) and id(section) not in installing:
            continue
        if _bare_link(block):
            continue  # "More info here" under a package manager's command: a link, no step
        if block.kind == "code" and (_badge_markup(block.text) or _program_output(block)):
            continue
        if block.kind != "code" and (NOTICE.match(block.text) or not any(ch.isalnum() for ch in block.text)):
            continue
        if len(found) >= INSTALL_PASSAGES or len(blocks) >= INSTALL_BLOCKS:
            break
        # … a one-line command under its own subsection is one way in of a menu, each labelled: ko's Homebrew,
        # MacPorts, Scoop, then `go install` — only the passages' room bounds them
        if block.kind == "code" and not (len(section.path) > len(top) and "\n" not in block.text.strip()):
            blocks.append(block)
        found.append(
            DocPassage(
                block.origin or document.origin,
                block.start,
                block.end,
                block.kind,
                block.text,
                section.heading,
                block.language,
                document.origin if block.origin else "",
            )
        )
    last = max((n for n, p in enumerate(found) if _installs(p)), default=-1)
    return found[: last + 1]


def _installs(passage: DocPassage) -> bool:
    """Whether a passage installs the project: a code block of install commands, or prose whose code span is
    one (copier's "To use as a library: `pip install copier`")."""
    return _installs_text(passage.kind, passage.text)


def _bare_link(block: Block) -> bool:
    """A paragraph of a few words that neither installs nor leads into what follows ("Start Traefik:")."""
    text = block.text.strip()
    short = len(text.split()) < MIN_STEP_WORDS and not text.endswith((":", "："))
    return block.kind == "paragraph" and short and not _installs_block(block)


def _installs_block(block: Block) -> bool:
    return _installs_text(block.kind, block.text)


def _installs_text(kind: str, text: str) -> bool:
    if kind == "code":
        return _install_only(text)
    return any(_INSTALL_LINE.match(span.strip().removeprefix("$").strip()) for span in _SPAN.findall(text))


# --------------------------------------------------------------------------- concepts


def concepts_of(
    documents: Sequence[Document], folder: str, names: SymbolNames, sections: dict[str, str] | None = None
) -> list[DocConcept]:
    """One concept per top-level section of the docs (a folder under the docs root), or per page for the
    pages at the root; in the docs' order. A folder of more pages than a concept holds is divided by the
    sections its navigation gives (`sections`: page → section), else by its sub-folders. A page the
    navigation puts under another page (docs-builder `children`) joins that page's concept wherever it is."""
    sections = sections or {}
    paths = {document.origin for document in documents}
    folder = _pages_root(paths, folder)
    groups: dict[str, list[Document]] = {}
    for document in documents:
        key = _group_of(document.origin, folder)
        parent = sections.get(document.origin, "")
        if key == PurePosixPath(document.origin).name and parent in paths:
            key = parent  # a page at the docs root under a parent page: that page's concept
        groups.setdefault(key, []).append(document)
    groups, folded = _fold_references(_long_pages_apart(_split_large(groups, folder, sections)))
    concepts: list[DocConcept] = []
    references = 0  # folded references, listed past the cut
    for key, members in groups.items():
        if key not in folded and len(concepts) - references >= MAX_CONCEPTS:
            continue
        quotable = [_quotable(d) if _in_force(d) else [] for d in members]
        if key in folded:
            pages = [_page(d, _entry(q)) for d, q in zip(members, quotable, strict=True)][:MAX_ENTRIES]
        else:
            shares = _shares([len(q) for q in quotable])
            pages = [_page(d, _spread(q, n)) for d, q, n in zip(members, quotable, shares, strict=True)]
        pages = [p for p in pages if p.passages or p.standing or p.api][
            : MAX_ENTRIES if key in folded else PAGES_PER_CONCEPT
        ]
        if pages:
            package = "" if PurePosixPath(key).stem.lower() in _NOT_PACKAGES else key
            concepts.append(_concept(_concept_name(key, pages), pages, names, package))
            references += key in folded
    return concepts


def _page(document: Document, quoted: Sequence[DocPassage]) -> DocPage:
    """A doc file as a concept page lists it, with the passages it quotes and the code objects it documents
    from their docstrings; one no longer in force is listed, labelled, and not quoted."""
    title = document.title or _humane(document.origin)
    if not _in_force(document):
        return DocPage(document.origin, title, (), standing=document.status)
    return DocPage(document.origin, title, tuple(quoted), api=_api(document))


def _api(document: Document) -> tuple[tuple[str, int], ...]:
    found = {name: block.start for _, block in document.blocks() for name in api_names(block)}
    return tuple(found.items())


def readme_concepts(readme: Document | None, names: SymbolNames) -> list[DocConcept]:
    """A project without a docs folder documents itself in its README: one concept per top-level section
    that explains something (at least `README_PASSAGES` passages, or fewer with an example in code; never
    installing, licence or process),
    when the README has at least `README_CONCEPTS` of them; else none, and the README is only the overview
    and the examples. A README whose manual stands under one heading ("The non-quickstart", "Usage",
    "Examples" holding most of its lines) has that section's sub-sections as its concepts, when its
    top-level sections alone are too few."""
    if readme is None:
        return []
    readme = _without_contents(readme)  # its parts are read apart: a table of its headings would not show
    top = _top_level(readme.sections)
    concepts = _section_concepts(readme, readme.sections, top, names)
    if len(concepts) < README_CONCEPTS and (manual := _manual(readme.sections, top)):
        inner = _section_concepts(readme, manual, top + 1, names)
        if len(inner) >= README_CONCEPTS:
            concepts = [c for c in concepts if c.name != manual[0].path[top - 1]] + inner
    if len(concepts) > MAX_CONCEPTS:  # chapters divided past the guide's cut: whole, so none is lost
        whole = _section_concepts(readme, readme.sections, top, names, chapters=False)
        concepts = whole if len(whole) >= README_CONCEPTS else concepts
    return concepts[:MAX_CONCEPTS] if len(concepts) >= README_CONCEPTS else []


def _top_level(sections: Sequence[Section]) -> int:
    """The heading level a document's parts stand at: 2, one level down from the title, when one title
    holds them all; else 1."""
    return 2 if len({s.path[0] for s in sections if s.path}) == 1 else 1


def _section_concepts(
    readme: Document, sections: Sequence[Section], top: int, names: SymbolNames, *, chapters: bool = True
) -> list[DocConcept]:
    """One concept per heading at level `top` of `sections` that explains something (with `chapters`, one per
    sub-section of a chapter)."""
    concepts = []
    for heading in dict.fromkeys(s.path[top - 1] for s in sections if len(s.path) >= top):
        if (
            _process(heading)
            or _under_install([heading])
            or _OTHER_PROJECTS.match(heading)
            or _POLICY_HEADING.match(heading)
            or RELEASE_HEADING.search(heading)
        ):
            continue
        part = tuple(s for s in sections if len(s.path) >= top and s.path[top - 1] == heading)
        if _bare(heading) == _bare(readme.title.split()[-1] if readme.title else "") and part[0].level == 1:
            # … nor the title again (rustdoc's "# Serde JSON" opening the crate docs "Crate serde_json"); a
            # page without one is titled by its first heading, which is its first part (hapi's API.md,
            # "## Server": 2,700 lines of the server's API, had been no concept)
            continue
        quoted = tuple(passages(replace(readme, sections=part)))
        chapter = _chapter(readme, part, top) if chapters and len(quoted) >= CHAPTER_PASSAGES else []
        for name, chapter_part in chapter or [(heading, part)]:
            quoted = tuple(passages(replace(readme, sections=chapter_part))) if chapter else quoted
            if len(quoted) >= README_PASSAGES or _shows_a_feature(name, quoted):
                concepts.append(_concept(name, [DocPage(readme.origin, name, quoted)], names, ""))
    return concepts


def _manual(sections: Sequence[Section], top: int) -> tuple[Section, ...]:
    """The sections under the top-level heading that holds most of the README's lines (more than half)
    in at least three sub-sections; () when no heading does."""
    lines: Counter[str] = Counter()
    for s in sections:
        if len(s.path) >= top:
            lines[s.path[top - 1]] += s.end - s.start + 1
    if not lines:
        return ()
    heading, held = lines.most_common(1)[0]
    part = tuple(s for s in sections if len(s.path) >= top and s.path[top - 1] == heading)
    inner = {s.path[top] for s in part if len(s.path) > top}
    return part if held * 2 > sum(lines.values()) and len(inner) >= README_CONCEPTS else ()


def _bare(name: str) -> str:
    """A name's letters and digits, lower case: "Serde JSON" and "serde_json" are one name."""
    return re.sub(r"[\W_]+", "", name).lower()


def _distinct(concepts: Sequence[DocConcept]) -> list[DocConcept]:
    """The concepts without a later one named like an earlier (a crate's docs repeating its README's
    sections: serde_json's, anyhow's)."""
    kept: dict[str, DocConcept] = {}
    for concept in concepts:
        kept.setdefault(_bare(concept.name), concept)
    return list(kept.values())


def _chapter(readme: Document, part: Sequence[Section], top: int) -> list[tuple[str, tuple[Section, ...]]]:
    """The subsections of a README section that is a chapter (at least CHAPTER_SUBSECTIONS, most of them named
    in words rather than code), each with the sections under it; [] for a section that is one concept. The
    section's own opening is a page of its own, named after it, when it says as much as a concept; else it
    goes with the first subsection (machinery's "Configuration" opening — `config.NewFromEnvironment()`, the
    `Config` struct — had been the start of a page called "Lock", python-tabulate's "Library usage" that of
    "Headers")."""
    names = list(dict.fromkeys(s.path[top] for s in part if len(s.path) > top and not _process(s.path[top])))
    worded = [n for n in names if not _CODE_HEADING.search(n)]
    if len(names) < CHAPTER_SUBSECTIONS or len(worded) * 2 < len(names):
        return []
    grouped = [(n, tuple(s for s in part if len(s.path) > top and s.path[top] == n)) for n in names]
    opening = tuple(s for s in part if len(s.path) == top)
    said = passages(replace(readme, sections=opening))
    # … unless the overview quotes it: kingpin's and voluptuous' READMEs are one chapter under their title
    if len(said) >= README_PASSAGES and not {p.start for p in said} & {p.start for p in overview(readme, ())}:
        return [(part[0].path[top - 1], opening), *grouped]
    return [(grouped[0][0], opening + grouped[0][1]), *grouped[1:]]


def _beside(first: Sequence[DocConcept], then: Sequence[DocConcept]) -> list[DocConcept]:
    """The concepts of `first`, then those of `then` not named alike, at most MAX_CONCEPTS."""
    named = {c.slug for c in first}
    return [*first, *(c for c in then if c.slug not in named)][:MAX_CONCEPTS]


def _shows_a_feature(heading: str, quoted: Sequence[DocPassage]) -> bool:
    """A short README section that says what a feature does and shows it in code (logrus' "Default
    Fields", kong's "Positional arguments"): a concept however short, where a short section of prose alone
    ("News", "Useful resources") is a note, and a short introduction or usage section is the overview's and
    Getting started's."""
    if _ABOUT_HEADING.search(heading) or _HOW_TO_HEADING.search(heading):
        return False
    code = [p for p in quoted if p.kind == "code"]
    return len(quoted) >= 2 and bool(code) and len(code) < len(quoted)


def _concept(name: str, pages: Sequence[DocPage], names: SymbolNames, package: str) -> DocConcept:
    """A concept named `name` made of `pages`, with the code symbols they name (in `package` first)."""
    documented = [cited for page in pages for dotted, _ in page.api for cited in names.documented(dotted)]
    # what the page's examples call through the project's packages comes as its package names it (`expr.Patch`)
    used = _names_in((p for page in pages for p in page.passages), names)
    titled = [_camel(h) for page in pages for h in (page.title, *(p.heading for p in page.passages))]
    resolved = names.resolve([*used, *titled], package=package)
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
            or any(_in_folder(s.path, home) for home in homes)
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
    said = {s.name for s in documented} | {
        s.name for s in (names.resolve([*used, *titled]) if package else resolved)
    }
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


# a member read as an attribute, never called: a Python property (`@property`, `@cached_property`, a setter),
# a JavaScript/TypeScript accessor (`get status()`, `static get x()`)
_GETTER = re.compile(
    r"^\s*(?:@(?:\w+\.)*(?:property|cached_property|getter|setter|deleter)\b"
    r"|(?:(?:public|private|protected|static|override)\s+)*[gs]et\s+[\w$#]+\s*\()"
)


def _getters(graph: CallGraphView, path: str, members: Sequence[Symbol]) -> set[str]:
    """The members of a type that are read as attributes, never called (their first line, decorators
    included, says so): no concept's code starts at one — anyio's task page opened its code on
    `TaskHandle.status`, a property whose branches reach the backend, not on how a task is started."""
    lines = graph.lines(path) if members else []
    return {m.name for m in members if 0 < m.start <= len(lines) and _GETTER.match(lines[m.start - 1])}


def _split_large(
    groups: dict[str, list[Document]], folder: str, sections: dict[str, str]
) -> dict[str, list[Document]]:
    """A section with more pages than a concept page holds becomes one concept per navigation section its
    pages are in (a page in none stands alone), else one per sub-folder (or page at its top), in the same
    order, folder by folder down until each holds few enough."""
    split: dict[str, list[Document]] = {}
    for key, members in groups.items():
        if len(members) <= PAGES_PER_CONCEPT:
            split[key] = members
            continue
        inner: dict[str, list[Document]] = {}
        for document in members:
            below = _group_of(document.origin, f"{folder}/{key}" if folder else key)
            inner.setdefault(f"{key}/{below}", []).append(document)
        by_section = _by_section(members, sections)
        if by_section is not None and len(by_section) < len(inner):
            split.update(by_section)  # a section of more pages than a concept holds lists its first ones
        else:
            split.update(_split_large(inner, folder, sections))
    return split


def _fold_references(groups: dict[str, list[Document]]) -> tuple[dict[str, list[Document]], set[str]]:
    """More concepts than a guide lists, by REFERENCE_PAGES or more (nlohmann/json's API reference, a page per
    function, 150 of them, was cut after "diff"): pages are folded into reference concepts, each in the place
    of its folder's first folded page, each page quoting its opening (`_entry`), listed past the cut. What is
    folded is chosen by what the pages are, not where they stand: first a folder's entries, its pages too
    short to be guides of their own, the folder with most first, wherever it is (x64dbg's one-line
    arithmetic commands had filled the guide before its breakpoint and memory commands; mermaid's one-
    paragraph config functions stood before its diagram syntax guides); then, guides of their own only when
    no folder holds that many entries, the folder with most loses its entries and then its last guides, as
    many as the guide is over (material-components-android's 45 component guides and mermaid's syntax
    guides had all been cut to their openings). A few pages over leave the cut as it is (Chart.js, four samples past it). The folded
    folders' keys are returned with the groups."""
    folded: set[str] = set()
    while True:
        listed = [k for k in groups if k not in folded]
        over = len(listed) - MAX_CONCEPTS
        if over < REFERENCE_PAGES:
            return groups, folded
        singles = [k for k in listed if len(groups[k]) == 1]
        entries = Counter(_folder(groups[k][0]) for k in singles if not _guide(groups[k][0]))
        folder, count = entries.most_common(1)[0] if entries else ("", 0)
        if count >= REFERENCE_PAGES:
            chosen = {k for k in singles if _folder(groups[k][0]) == folder and not _guide(groups[k][0])}
        else:  # its entries (a stub page "yet to be completed") before its last guides
            folder = Counter(_folder(groups[k][0]) for k in singles).most_common(1)[0][0]
            pages = [k for k in singles if _folder(groups[k][0]) == folder]
            short = [k for k in pages if not _guide(groups[k][0])][:over]
            guides = [k for k in pages if k not in short]
            chosen = {*short, *guides[len(guides) - (over - len(short)) :]}
        merged: dict[str, list[Document]] = {}
        for key, members in groups.items():
            merged.setdefault(folder if key in chosen else key, []).extend(members)
        groups = merged
        folded.add(folder)


def _guide(document: Document) -> bool:
    """Whether a doc page is a guide of its own (LONG_PAGE_SECTIONS sections with something in them)."""
    return sum(1 for s in document.sections if s.blocks) >= LONG_PAGE_SECTIONS


def _folder(document: Document) -> str:
    return PurePosixPath(document.origin).parent.as_posix()


def _entry(found: Sequence[tuple[int, DocPassage]]) -> list[DocPassage]:
    """An entry of a folded reference: the first blocks of its first section that has any (what the entry
    is, its signature), a lead-in kept only with what it introduces."""
    passages = [p for _, p in found if p.heading == found[0][1].heading] if found else []
    shown = passages[:ENTRY_PASSAGES]
    return shown[:-1] if shown and shown[-1].text.rstrip().endswith(":") else shown


def _long_pages_apart(groups: dict[str, list[Document]]) -> dict[str, list[Document]]:
    """A section most of whose pages are guides of their own (LONG_PAGE_SECTIONS sections or more) is a
    category, one concept per page: loguru's docs/resources/ holds a migration guide, a troubleshooting FAQ
    and a book of recipes, three subjects, not one "Resources"; okhttp's features/ (calls, caching,
    connections, interceptors …) and knex's guide/ (query builder, schema builder, transactions,
    migrations …) had each been one concept. A section opened by an index page that names it, or calls
    itself an introduction (Chart.js' "Radial Axes" and its linear axis), is one subject, its pages
    together; an index page about a subject of its own (knex's guide/index.md, "Installation") opens none.
    Where only most of its pages are guides, a category is divided only while the guide has room
    (MAX_CONCEPTS), the first ones first: dividing one never pushes other concepts past the cut (Chart.js'
    configuration pages, trpc's React hooks). A folder named for a kind of page (guides/, tutorial/, topics/,
    reference/, api/, advanced/) is a category whatever its pages' length: superstruct's six short guides
    (validating, coercing, refining, handling errors …) had been one concept called "Guides"."""
    room = MAX_CONCEPTS - len(groups)
    apart: dict[str, list[Document]] = {}
    for key, members in groups.items():
        guides = sum(1 for d in members if _guide(d))
        name = PurePosixPath(key).name  # a folder's, or a navigation section's ("Basics": the author's group)
        in_folder = all(name in PurePosixPath(d.origin).parent.parts for d in members)
        named = in_folder and (
            _CATEGORY.fullmatch(unordered(name)) is not None or _lists_its_pages(key, members)
        )
        long = len(members) > 1 and (named or guides >= 2 and not _opened(key, members))
        if long and guides < len(members):
            long = (named or guides * 2 > len(members)) and len(members) - 1 <= room
            room -= len(members) - 1 if long else 0
        for document in members:
            if long and named and _landing(key, document):
                continue  # the category's landing page: the pages it lists say it (websockets' howto/index.rst)
            apart.setdefault(document.origin if long else key, []).append(document)
    return apart


def _lists_its_pages(key: str, members: Sequence[Document]) -> bool:
    """Whether a folder's front page is a title over nothing of its own: the site lists the folder's pages
    there (a just-the-docs parent page, `has_children: true`: grpc-gateway's mapping/index.md over nine
    pages on marshalers, OpenAPI output, binary uploads …), so the folder is a category of subjects."""
    return any(
        _INDEX_PAGE.match(PurePosixPath(d.origin).name)
        and PurePosixPath(d.origin).parent.name == PurePosixPath(key).name
        and not any(b.text.strip() for _, b in d.blocks())
        for d in members
    )


def _landing(key: str, document: Document) -> bool:
    """Whether a page is its folder's landing page: an index page titled generically or by the folder's name
    ("How-to guides" over howto/); an index about a subject of its own ("Installation") is none."""
    squashed = re.sub(r"\W", "", document.title.lower())
    folder = re.sub(r"\W", "", unordered(PurePosixPath(key).name).lower())
    return unordered(PurePosixPath(document.origin).stem).lower() in _NOT_PACKAGES and (
        folder in squashed or _opened(key, [document])
    )


def _opened(key: str, members: Sequence[Document]) -> bool:
    """Whether a section's index page opens it as one subject: its title is generic ("Introduction",
    "Overview") or shares a word with the section's name ("Radial Axes" over radial/)."""
    named = {w[:4] for w in _WORDS.findall(_humane(key).lower()) if len(w) > 2}
    return any(
        unordered(PurePosixPath(d.origin).stem).lower() in _NOT_PACKAGES
        and (
            _GENERIC_TITLE.fullmatch(d.title.strip()) is not None
            or bool(named & {w[:4] for w in _WORDS.findall(d.title.lower()) if len(w) > 2})
        )
        for d in members
    )


def _by_section(members: Sequence[Document], sections: dict[str, str]) -> dict[str, list[Document]] | None:
    """The pages by the navigation section each is in (keyed by it), a page in none on its own; None when
    no section holds two of them. A named section (an mkdocs nav heading) of more pages than a concept
    holds is a category of concepts ("Features"), not one: its pages stay on their own; a page's children
    stay under it."""
    paths = {document.origin for document in members}
    sizes = Counter(sections.get(document.origin, "") for document in members)
    grouped: dict[str, list[Document]] = {}
    for document in members:
        section = sections.get(document.origin, "")
        if section not in paths and sizes[section] > PAGES_PER_CONCEPT:
            section = ""
        grouped.setdefault(section or document.origin, []).append(document)
    return grouped if any(len(pages) > 1 for pages in grouped.values()) else None


def _pages_root(paths: Collection[str], folder: str) -> str:
    """The folder the docs' pages all stand in, below `folder` (Sphinx's `docs/source/` beside its build
    files: trio, rich, dramatiq, tenacity, libuv), else `folder`: each of its top-level parts is a concept,
    never the whole manual one."""
    if len(paths) < 2 or not folder:
        return folder
    common = posixpath.commonpath([posixpath.dirname(p) for p in paths])
    return common if common.startswith(folder + "/") else folder


def _group_of(path: str, folder: str) -> str:
    rel = PurePosixPath(path[len(folder) + 1 :] if folder else path)
    return rel.parts[0] if len(rel.parts) > 1 else str(rel)


def _concept_name(key: str, pages: Sequence[DocPage]) -> str:
    """A single page's title; a folder's index page title, else the folder's name made readable. A front
    page titled by sphinx-quickstart's boilerplate is "About" the project it names."""
    first = pages[0]
    if boilerplate := _QUICKSTART_TITLE.fullmatch(first.title.strip()):
        return f"About {(boilerplate['welcomed'] or boilerplate['versioned']).strip()}"
    generic = _GENERIC_TITLE.fullmatch(first.title.strip())
    if len(pages) > 1 and generic:  # a folder's "Overview" page: the folder names the concept
        return _humane(key)
    named = first.title == title_from_name(PurePosixPath(first.path).stem)  # no title of its own
    if (
        len(pages) == 1 and generic and named and "/" in key
    ):  # a folder's index on its own: the folder names it
        return _humane(PurePosixPath(key).parent.as_posix())
    if len(pages) == 1 or first.path == key:  # a page on its own, or the page that opens its section
        return first.title or _humane(key)
    if PurePosixPath(first.path).stem.lower() in ("index", "readme", "overview", "intro"):
        return first.title or _humane(key)
    return _humane(key)


def _humane(path: str) -> str:
    name = unordered(PurePosixPath(path).name)  # Nuxt Content's `10.runtimes` is "runtimes", never "10"
    stem = PurePosixPath(name).stem if "." in name else name
    words = re.sub(r"^\d+[-_.]", "", stem).replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else path


# --------------------------------------------------------------------------- code names


def _camel(heading: str) -> str:
    """A heading as the class name code would give it: "Global Search" → "GlobalSearch"."""
    words = re.findall(r"[A-Za-z0-9]+", heading)
    return "".join(w if w.isupper() else w[:1].upper() + w[1:] for w in words) if 1 < len(words) <= 4 else ""


def _names_in(found: Iterable[DocPassage], symbols: SymbolNames | None = None) -> list[str]:
    """Code names the passages use: `Name` spans in prose, names called in program code blocks (not shell
    or config); first use first. With `symbols`, a call qualified by the project's own package comes as
    written (`expr.Patch`, `ast.Patch`: two definitions of `Patch`, each the one its package names), and a
    name only ever called on another package the project imports (`reflect.TypeOf`, `fmt.Errorf`,
    `time.sleep`) is that package's, never the project's definition of the name."""
    names: list[str] = []
    for passage in found:
        if passage.kind == "code":
            if passage.language.lower() in _PROGRAM_LANGUAGES:
                called = called_names(passage.text, "example.py", through_class=True)
                # a method called on what a call returns (`fx.New(…).Run()`) is a method, never a type or
                # function another package defines under that name (fxevent's `Run` event)
                if symbols is not None:
                    held = _held_results(passage.text, symbols.qualifiers)
                    on_results = _called_on_results(passage.text, symbols.qualifiers, held)
                    # a method called on a variable holding a result (`a.Run()`) stays where it is called
                    on_held = {n for n in on_results if _called_on(passage.text, n, held)}
                    names += [f".{name}" for name in on_results - on_held]
                    called = [
                        _held_method(passage.text, n, held) if n in on_held else n
                        for n in called
                        if n not in on_results - on_held
                    ]
                    names += symbols.qualified_calls(passage.text)
                    theirs = symbols.foreign_calls(passage.text)
                    called = [name for name in called if name not in theirs]
                names += called
        else:
            names += [
                m.rsplit(".", 1)[-1] if m.count(".") > 1 else m for m in _CODE_SPAN.findall(passage.text)
            ]
    return list(dict.fromkeys(names))


# a method called on what a call returns: `.Run(` of `fx.New(…).Run()`
_ON_RESULT = re.compile(r"\)\s*\.\s*([A-Za-z_]\w*)\s*\(")
_CALLED_THROUGH = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)\.[A-Za-z_]\w*\s*$")
# a variable given what a call through a package returns, at a line's start: `app := fx.New(`, `app, err :=
# pkg.Open(`, `>>> markdown = griffe.load(`
_HELD_RESULT = re.compile(
    r"(?m)^[ \t]*(?:>>>[ \t]*)?(?:var[ \t]+)?([A-Za-z_]\w*)(?:[ \t]*,[ \t]*\w+)*[ \t]*:?=[ \t]*"
    r"([a-z_][a-z0-9_]*)\.[A-Za-z_]\w*[ \t]*\("
)


def _held_results(code: str, packages: Collection[str]) -> dict[str, str]:
    """The variables `code` gives what a function of one of `packages` returns, each with that function as
    called (`app := fx.New(` → {"app": "fx.New"}); a variable given two functions' results is neither's."""
    given: dict[str, set[str]] = {}
    for m in _HELD_RESULT.finditer(code):
        if m[2] in packages and m[1] not in packages:
            call = re.sub(r"\s+", "", code[m.start(2) : m.end()]).rstrip("(")
            given.setdefault(m[1], set()).add(call)
    return {variable: next(iter(calls)) if len(calls) == 1 else "" for variable, calls in given.items()}


def _held_method(code: str, name: str, held: Mapping[str, str]) -> str:
    """The method `name` as `_names_in` gives it: through the function whose result holds it
    (`expr.Compile().Node`: the Node of what Compile returns) when every variable it is called on holds
    one function's result, else by its name alone (`.Node`)."""
    made = {held[v] for v in held if _called_on(code, name, [v])}
    return f"{made.pop()}().{name}" if len(made) == 1 and "" not in made else f".{name}"


def _called_on(code: str, name: str, held: Collection[str]) -> bool:
    """Whether `code` calls `name` on one of the variables `held`."""
    return any(re.search(rf"(?<![\w.]){re.escape(v)}\s*\.\s*{re.escape(name)}\s*\(", code) for v in held)


def _called_on_results(code: str, packages: Collection[str], held: Collection[str] = ()) -> set[str]:
    """The names `code` calls only on what a function of one of `packages` returns (`fx.New(…).Run()`:
    the App's `Run`; `).Run()` alone, a snippet cut from inside that call), or on a variable given it
    (`app := fx.New(…)` then `app.Run()`, `cowsay = griffe.load("cowsay")` then `cowsay.as_json()`), never
    bare nor through another name; `held`: those variables (`_held_results`)."""
    found = set()
    for match in _ON_RESULT.finditer(code):
        opening = _opened_at(code, match.start())
        through = _CALLED_THROUGH.search(code, 0, opening) if opening >= 0 else None
        if opening < 0 or (through is not None and through.group(1) in packages):
            found.add(match.group(1))
    for variable in held:
        found.update(re.findall(rf"(?<![\w.]){re.escape(variable)}\s*\.\s*([A-Za-z_]\w*)\s*\(", code))
    return {n for n in found if _only_on_results(code, n, held)}


def _only_on_results(code: str, name: str, held: Collection[str]) -> bool:
    """Whether every call of `name` in `code` is made on what a call returns or on a variable of `held`."""
    for call in re.finditer(rf"(?<!\w){re.escape(name)}\s*\(", code):
        before = code[: call.start()]
        if re.search(r"\)\s*\.\s*$", before):
            continue
        through = re.search(r"(?<![\w.])([A-Za-z_]\w*)\s*\.\s*$", before)
        if through is None or through.group(1) not in held:
            return False
    return True


def _opened_at(code: str, closing: int) -> int:
    """Where the parenthesis closed at `closing` opens; -1 when it does not."""
    depth = 0
    for at in range(closing, -1, -1):
        depth += {")": 1, "(": -1}.get(code[at], 0)
        if depth == 0:
            return at
    return -1


# a call through a package (or a module, or a variable): `expr.Patch(`, `ast.IntegerNode{`, `time.sleep(`
_PACKAGE_CALL = re.compile(r"(?<![\w.$])([a-z_][a-z0-9_]*)\.([A-Za-z_]\w*)\s*[({]")


def _called_packages(pages: Sequence[DocPage], names: SymbolNames) -> set[str]:
    """The folders of the project's Go packages the pages' Go code calls through (`fx.New` → the root, "");
    none when it calls through none."""
    code = [
        p.text for page in pages for p in page.passages if p.kind == "code" and p.language.lower() == "go"
    ]
    return {
        names.qualifiers[owner]
        for text in code
        for owner, _ in _package_calls(text)
        if owner in names.qualifiers
    }


def _package_calls(code: str) -> list[tuple[str, str]]:
    """Each call in `code` through a lower-case name, as (that name, the name called)."""
    return [(m.group(1), m.group(2)) for m in _PACKAGE_CALL.finditer(code)]


def _qualifiers(root: Path, repo_map: RepoMap) -> dict[str, str]:
    """The names docs qualify the project's own code with (`koanf.Provider`, `serde_json::Value`,
    `plugin.ClientConfig`, zerolog's `log.Info`), each with the folder it names: its folders' names, and its
    crate's or npm package's, its root Go package's and its own folder's, which name the root ("")."""
    found = {
        part.replace("-", "_"): part for f in repo_map.files for part in PurePosixPath(f.path).parts[:-1]
    }
    go = next((f.path for f in repo_map.files if f.language == "go" and "/" not in f.path), "")
    package = _GO_PACKAGE.search(read_or_none(root, go, max_bytes=DOC_BYTES) or "") if go else None
    for name in (root.name, project_name(root), package.group(1) if package else ""):
        if name:
            found[name.replace("-", "_")] = ""
    return found


# method names every language's library gives (a list's `append`, a map's `items`, a promise's `then`): an
# example calling one is not calling the project's method of that name
_COMMON_METHODS = frozenset(
    "append extend insert remove items keys values update clear copy index count split strip join format "
    "replace lower upper encode decode startswith endswith close flush write read readline open start stop "
    "send recv call apply bind then catch finally push shift slice splice concat filter reduce forEach "
    "toString valueOf getTime sleep sort reverse search match parse "
    # Go's standard interfaces' methods, which every Go type may have (io.Closer, fmt.Stringer, error …)
    "Close String Error Write Flush Unwrap Format".split()
)


def _distinctive_method(name: str) -> bool:
    """Whether a method's own name is long and rare enough that an example calling it means the project's."""
    return len(name) >= 5 and name not in _COMMON_METHODS and not name.startswith("_")


# a Go function's first result after its parameters, the package it comes from aside: `) (*vm.Program, error)`
_GO_RESULT = re.compile(r"\)\s*\(?\s*(?:\*|\[\])*(?:[a-z]\w*\.)?([A-Za-z_]\w*)\s*(?:[,)]|$)")
# a method named through its class (`OmegaConf.create`): the class's own, else the one of the method's name
_THROUGH_CLASS = re.compile(r"[A-Z]\w*\.[A-Za-z_]\w*")


class SymbolNames:
    """Definitions by the names docs use for them: `Session`, `Session.send`, `send`; a name qualified by
    the project's own package (`koanf.Provider`, `serde_json::Value`) is the name it qualifies."""

    def __init__(
        self,
        facts: Facts,
        linker: Linker,
        qualifiers: Mapping[str, str] | None = None,
        root: Path | None = None,
    ) -> None:
        self.linker = linker
        self.root = root  # where a Go function's declaration is read for its result type (`_result_type`)
        self.facts = facts
        self.qualifiers = qualifiers or {}
        self.by_name: dict[str, list[tuple[str, Symbol]]] = {}
        self.by_method: dict[str, list[tuple[str, Symbol]]] = {}  # a method's own name → its methods
        # code only the tests use (expr's internal/spew): `fmt.Print` in an example is never spew's `Print`
        self.serving = serving_tests(facts)
        for path, file_facts in facts.files.items():
            # a file read on demand (a test the shards do not show) stays unread: docs never name its code
            if isinstance(file_facts, OnDemandFileFacts) or _NOT_LIBRARY.search(path) or path in self.serving:
                continue
            for symbol in file_facts.symbols:
                if symbol.public and not symbol.stub:
                    self.by_name.setdefault(symbol.name, []).append((path, symbol))
                    if symbol.parent:
                        self.by_method.setdefault(symbol.short_name, []).append((path, symbol))

    def resolve(
        self, names: Iterable[str], package: str = "", methods: bool = False, dotted: bool = False
    ) -> list[CitedSymbol]:
        """Each name's one definition (a name several files define equally is left out: ambiguous), then
        the key symbols of the code package named like the concept (`docs/query/` → `…/query/`). With
        `methods`, a name nothing else goes by is the one method of that name (an example's
        `now.in_timezone('UTC')`: `DateTime.in_timezone`), when it is distinctive enough to be it. `dotted`:
        the names come from full dotted paths (an autodoc marker names the module), never bare words."""
        found = []
        for name in names:
            if "()." in name:  # a method of what a function returns (`_held_method`): that type's
                made, _, name = name.rpartition("().")
                # a name every Go type may have (`String`, `Close`) is the type's own no more than by name
                typed = self._method_of(made, name) if name not in _COMMON_METHODS else None
                if typed is not None:
                    found.append(cite(typed[1], typed[0], self.linker))
                    # … and the type it gives back (`node := program.Node()`: an ast.Node)
                    given = self.by_name.get(self._result_type(*typed), [])
                    if len(given) == 1 and given[0][1].kind in TYPE_KINDS:
                        found.append(cite(given[0][1], given[0][0], self.linker))
                    continue
                name = f".{name}"
            if name.startswith("."):  # a method called on a result (`_called_on_results`): the one so named
                named = self.by_method.get(name[1:], [])
                if len(named) == 1 and name[1:] not in _COMMON_METHODS:
                    found.append(cite(named[0][1], named[0][0], self.linker))
                continue
            name, home = (name, None) if name in self.by_name else self.unqualified(name)
            member = home is None and name not in self.by_name and bool(_THROUGH_CLASS.fullmatch(name))
            if member:
                name = name.rpartition(".")[2]  # a method its class inherits, or a class not the project's
            candidates = self.by_name.get(name, [])
            # … a member of it, never a module's function of that name (ko's template field `Git.Tag`)
            if member:
                candidates = [c for c in candidates if not _module_function(c[1])]
            if not candidates and methods and _distinctive_method(name):
                named = self.by_method.get(name, [])
                candidates = named if len(named) == 1 else []  # two methods of the name: either is a guess
            inside = [c for c in candidates if home is not None and _in_folder(c[0], home)]
            # the package named: `koanf.Provider` is the root's, not `file.Provider`
            candidates = inside or candidates
            # a bare name of two letters is too often a word; one defined in the package qualifying it is not
            # (`fx.In`), one defined elsewhere still is
            best = _best(candidates, self.facts) if len(name) > 2 or inside else None
            if best is not None and home is None and not dotted and self._a_method_more_likely(name, *best):
                continue
            if best is not None:
                found.append(cite(best[1], best[0], self.linker))
        if package:
            found += [
                cite(r.symbol, r.path, self.linker) for r in ranked(self.package_files(package), self.facts)
            ]
        return list({s.name: s for s in found}.values())

    def _a_method_more_likely(self, name: str, path: str, symbol: Symbol) -> bool:
        """Whether a bare `name` the docs use stands for the project's methods so named rather than for the
        module function `symbol` its package keeps to itself: ormar's Methods and Signals pages say
        `update()` of a model or a queryset, never `ormar/queryset/utils.py`'s dict-merging `update`, which
        no `__init__` re-exports."""
        if not (_module_function(symbol) and path.endswith(".py") and name in self.by_method):
            return False
        fact = self.facts.files.get(path)
        return fact is not None and name not in fact.exports and name not in fact.api_names

    def _method_of(self, function: str, method: str) -> tuple[str, Symbol] | None:
        """The method `method` of the one type `function` (`expr.Compile`, `griffe.GriffeLoader`) makes or
        returns (a class is its own; a Go function's first result, `*vm.Program` → `Program`); None when
        that type is unknown or defines no such method, or several types are so named."""
        name, home = self.unqualified(function)
        defined = [c for c in self.by_name.get(name, []) if home is None or _in_folder(c[0], home)]
        if len(defined) != 1:
            return None
        path, symbol = defined[0]
        made = symbol.name if symbol.kind in TYPE_KINDS else self._result_type(path, symbol)
        methods = [m for m in self.by_method.get(method, []) if m[1].parent == made]
        return methods[0] if made and len(methods) == 1 else None

    def _result_type(self, path: str, function: Symbol) -> str:
        """The type a Go function returns first (`func Compile(…) (*vm.Program, error)` → "Program"), read
        from its declaration; '' for another language or a result that names no type."""
        if not path.endswith(".go") or self.root is None:
            return ""
        fact = self.facts.files.get(path)
        if fact is not None and (own := fact.results.get(function.name)):
            return own
        source = read_or_none(self.root, path) or ""
        declaration = "\n".join(source.splitlines()[function.start - 1 : function.end])
        result = _GO_RESULT.search(declaration.partition("{")[0])
        return result.group(1) if result is not None else ""

    def qualified_calls(self, code: str) -> list[str]:
        """The calls in `code` through one of the project's own packages, as written: `expr.Patch`."""
        return [f"{owner}.{name}" for owner, name in _package_calls(code) if owner in self.qualifiers]

    def foreign_calls(self, code: str) -> set[str]:
        """The names `code` calls only through another package the project's code imports (`reflect.TypeOf`,
        `fmt.Errorf`): never called bare, nor on anything else."""
        calls = _package_calls(code)
        theirs = {name for owner, name in calls if owner in self.foreign}
        elsewhere = {name for owner, name in calls if owner not in self.foreign}
        return {
            name for name in theirs - elsewhere if not re.search(rf"(?<![\w.]){re.escape(name)}\s*\(", code)
        }

    @cached_property
    def foreign(self) -> frozenset[str]:
        """The names of the packages the project's code imports that are not its own (`reflect`, `fmt`,
        `time`): what a Go import path or a Python module ends or starts with."""
        found = set()
        for file_facts in self.facts.files.values():
            if isinstance(file_facts, OnDemandFileFacts):
                continue
            for target in file_facts.imports:
                target = target.strip("\"'` ")
                if not target or target.startswith((".", "/")):
                    continue
                name = target.rsplit("/", 1)[-1] if "/" in target else target.split(".", 1)[0]
                if name.isidentifier():
                    found.add(name)
        return frozenset(found - set(self.qualifiers))

    def unqualified(self, name: str) -> tuple[str, str | None]:
        """`name` without the project's own package names before it, and the folder the last of them names
        (`koanf.Provider` → `Provider` at the root, `serde_json::Map::get` → `Map.get`); (name, None) when
        nothing qualifies it."""
        parts, home = _QUALIFIED.split(name), None
        while len(parts) > 1 and parts[0] in self.qualifiers:
            parts, home = parts[1:], self.qualifiers[parts[0]]
        return (".".join(parts), home) if home is not None else (name, None)

    def documented(self, dotted: str) -> list[CitedSymbol]:
        """The definitions a page's autodoc or mkdocstrings object stands for: `packaging.version.Version` is
        `Version`, `anyio.abc.TaskGroup.start_soon` is `TaskGroup.start_soon`, a module (`packaging.version`)
        its own public definitions, best first (read on demand when no shard holds the module)."""
        parts = dotted.split(".")
        upper = next((i for i, part in enumerate(parts) if part[:1].isupper()), len(parts) - 1)
        if named := self.resolve([".".join(parts[upper:])], dotted=True):
            return named
        module = self.module_file(dotted)
        return (
            [cite(r.symbol, r.path, self.linker) for r in ranked([module], self.facts) if r.symbol.public]
            if module
            else []
        )

    def module_file(self, dotted: str) -> str:
        """The one library file a dotted module name (`packaging.version`) stands for; '' when none or several."""
        module = dotted.replace(".", "/")
        ends = (f"{module}.py", f"{module}/__init__.py")
        files = [p for p in self.facts.files if p.endswith(ends) and not _NOT_LIBRARY.search(p)]
        return files[0] if len(files) == 1 else ""

    def key_type(self, cited: CitedSymbol) -> KeyType:
        """A class the docs name with its first public methods (constructors and dunders left out)."""
        file_facts = self.facts.files.get(cited.path)
        methods = [
            m
            for m in (file_facts.symbols if file_facts is not None else ())
            if m.parent == cited.name
            and m.public
            and not m.stub
            and not m.short_name.startswith("_")
            and m.short_name not in ("constructor", "init", "New")
        ]
        return KeyType(cited, tuple(cite(m, cited.path, self.linker) for m in methods[:TYPE_METHODS]))

    def code_path(self, symbols: Sequence[CitedSymbol]) -> tuple[FlowBranch, ...]:
        """The code that does what a concept's docs explain: the call tree (calltree.py) from the one of its
        functions and its classes' methods that leads to the most code, in the module most of its symbols are
        defined in when one holds two or more; () without a call graph or calls."""
        graph = self.facts.calls
        if graph is None:
            return ()
        homes = Counter(cited.path for cited in symbols)
        home, held = homes.most_common(1)[0] if homes else ("", 0)
        if held >= 2:  # the module most of them are in is where the concept's work is done …
            found = self._code_path(graph, [cited for cited in symbols if cited.path == home])
            if found or held == len(symbols):
                return found
        return self._code_path(graph, symbols)  # … unless no path starts there (field types, not the work)

    def _code_path(self, graph: CallGraphView, symbols: Sequence[CitedSymbol]) -> tuple[FlowBranch, ...]:
        starts: list[tuple[str, str]] = []
        for cited in symbols:
            if cited.kind in TYPE_KINDS:
                file_facts = self.facts.files.get(cited.path)
                members = [
                    m
                    for m in (file_facts.symbols if file_facts is not None else ())
                    if m.parent == cited.name and m.kind == "method"
                ]
                getters = _getters(graph, cited.path, members)
                starts += [(cited.path, m.name) for m in members if m.name not in getters]
            elif cited.kind in ("function", "method"):
                starts.append((cited.path, cited.name))
        tree = graph.tree_from(starts[:MAX_STARTS])
        if _hops(tree) < MIN_PATH_CALLS or tree[0].edge.caller.rsplit(".", 1)[-1] in _SETUP:
            return ()  # one call, or a constructor's: nothing a reader learns the working of
        return tuple(flow_branches(tree, self.linker))

    def package_files(self, key: str) -> list[str]:
        """Source files under a folder named like the docs section (plural or singular), tests left out; a
        package's own folder (`packages/server-renderer`), when `key` is one, whatever its name."""
        own = [
            path
            for path in self.folders.get("", ())
            if "/" in key and path.startswith(key + "/") and not _NOT_LIBRARY.search(path[len(key) :])
        ]
        if own:
            return own
        stem = PurePosixPath(key).stem.lower().replace("-", "_")
        wanted = {stem, stem.rstrip("s"), stem + "s"} - {""}
        return list(dict.fromkeys(path for name in sorted(wanted) for path in self.folders.get(name, ())))

    @cached_property
    def folders(self) -> dict[str, list[str]]:
        """Each folder name (lower case) → the library files under a folder of that name, in facts order."""
        found: dict[str, list[str]] = {}
        for path, file_facts in self.facts.files.items():
            if isinstance(file_facts, OnDemandFileFacts) or _NOT_LIBRARY.search(path) or path in self.serving:
                continue
            found.setdefault("", []).append(path)  # every library file, for a package's own folder
            for part in dict.fromkeys(p.lower() for p in PurePosixPath(path).parts[:-1]):
                found.setdefault(part, []).append(path)
        return found


def _in_folder(path: str, folder: str) -> bool:
    """Whether a file is in the package `folder` names: one of that name, or the root ("": the top, or a
    crate's `src/`)."""
    parent = PurePosixPath(path).parent
    return parent.name == folder if folder else str(parent) in (".", "src")


def _module_function(symbol: Symbol) -> bool:
    return symbol.kind == "function" and not symbol.parent


def _hops(tree: Sequence[CallTree]) -> int:
    return sum(1 + _hops(branch.below) for branch in tree)


def _best(candidates: list[tuple[str, Symbol]], facts: Facts) -> tuple[str, Symbol] | None:
    """The definition a reader means: the only one (a Rust type, not its `impl` blocks), or the one
    class/top-level definition outside tests; of several, the one the package's top level re-exports
    (redis-py's `Redis` in redis/client.py, not redis/asyncio/client.py's; falcon's `App`, not falcon.asgi's):
    what `import redis; redis.Redis()` names."""
    real = [c for c in candidates if not _NOT_LIBRARY.search(c[0])]
    # a Rust type and its `impl` blocks share its name: the type is what the docs name
    real = [c for c in real if c[1].kind != "impl"] or real
    if len(real) == 1:
        return real[0]
    top = [c for c in real if not c[1].parent]
    if len(top) == 1:
        return top[0]
    exported = [c for c in top if c[1].name in facts.files[c[0]].api_names]
    return exported[0] if len(exported) == 1 else None
