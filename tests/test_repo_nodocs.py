"""A repository without a docs folder still explains itself (issue 29 items 1, 2 and 6): a key type's whole doc
comment past the first sentence the page shows, a monorepo's package READMEs, a README's short feature sections."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.analyze.citations import Linker
from generator.repo.analyze.explained import own_comment
from generator.repo.docs.project import read_project_docs
from generator.repo.docs.symbolnames import SymbolNames
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.prose import summary
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts, Symbol
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

POOL_GO = """package pool

// Pool is a pool of goroutines used to execute tasks concurrently.
//
// Tasks are submitted with Go(). Once all your tasks have been submitted, you
// must call Wait() to clean up any spawned goroutines.
//
// Goroutines are started lazily, so creating a new pool is cheap.
type Pool struct {
	limit int
}

// Go submits a task to be run in the pool.
func (p *Pool) Go(f func()) { f() }

// ErrorPool is a pool that runs tasks that may return an error.
//
// Goroutines are started lazily, so creating a new pool is cheap. Errors are collected and returned by Wait.
type ErrorPool struct {
	pool Pool
}

// Wait returns the errors of the tasks.
func (p *ErrorPool) Wait() error { return nil }

// Wait cleans up spawned goroutines.
func (p *Pool) Wait() {}

// New creates a new Pool.
func New() *Pool { return &Pool{} }
"""

SHOWN = "Pool is a pool of goroutines used to execute tasks concurrently."

POOL_TEST_GO = """package pool_test

import "fmt"

func ExamplePool() {
	p := pool.New()
	p.Go(func() { fmt.Println("conc") })
	p.Wait()
	// Output:
	// conc
}

func ExampleNew() {
	_ = pool.New()
}
"""

PAGE_TS = """import {EventEmitter} from './EventEmitter.js';

/**
 * Page provides methods to interact with a single tab.
 *
 * @remarks
 *
 * One Browser instance might have multiple Page instances, see {@link Browser.pages}.
 *
 * @example
 * This example opens a page:
 *
 * ```ts
 * const page = await browser.newPage();
 * await page.goto('https://example.com');
 * ```
 *
 * @param options - never shown: a parameter describes a piece, not the whole
 * @public
 */
export class Page extends EventEmitter {
  goto(url: string): void {}
}
"""

TRACKER_PY = '''class Tracker:
    """Track counts of named events.

    Every call to `add` increments one counter; counters are created on first use and never removed.

    .. versionadded:: 2.0
       A release note, not what the class does.

    Args:
        start: never shown (a parameter describes a piece, not the whole).

    Example::

        tracker = Tracker()
        tracker.add("hit")
    """

    def add(self, name):
        return name
'''


def _symbol(name: str, text: str, line: str) -> Symbol:
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines, 1) if ln.startswith(line))
    return Symbol(name, "class", start, len(lines))


def test_a_go_type_s_comment_past_its_summary_is_kept_with_its_lines() -> None:
    found = own_comment(POOL_GO, _symbol("Pool", POOL_GO, "type Pool"), "go", "pool/pool.go", SHOWN)
    texts = [p.text for p in found]
    assert texts[0].startswith("Tasks are submitted with Go(). Once all your tasks")
    assert texts[1] == "Goroutines are started lazily, so creating a new pool is cheap."
    assert (found[1].start, found[1].end) == (8, 8)  # cited at the comment's own line
    assert not any(t.startswith("Pool is a pool") for t in texts)  # the summary is shown already


def test_a_comment_whose_summary_stopped_its_first_line_still_shows_what_it_goes_on_to_say() -> None:
    # deepdiff's combine_hashes_lists: its summary stops the unstopped first line, and the page's "How they
    # work" had lost the lines past it, as the summary no longer matched the comment word for word
    text = (
        "def combine_hashes_lists(items, prefix):\n"
        '    """\n    Combines lists of hashes into one hash\n    This can be optimized in future.\n'
        "    It needs to work with both murmur3 hashes (int) and sha256 (str)\n"
        '    Although murmur3 is not used anymore.\n    """\n    return prefix\n'
    )
    symbol = Symbol("combine_hashes_lists", "function", 1, 8)
    shown = summary(text.split('"""')[1])
    assert shown == "Combines lists of hashes into one hash. This can be optimized in future."
    found = own_comment(text, symbol, "python", "deephash.py", shown)
    assert [p.text for p in found] == [
        "It needs to work with both murmur3 hashes (int) and sha256 (str) Although murmur3 is not used anymore."
    ]


def test_a_tsdoc_comment_keeps_its_remarks_and_example_and_drops_its_tags() -> None:
    found = own_comment(PAGE_TS, _symbol("Page", PAGE_TS, "export class"), "typescript", "src/Page.ts")
    texts = [p.text for p in found]
    assert texts[0].startswith("One Browser instance might have multiple Page instances, see ")
    assert "{@link" not in texts[0]  # an inline tag reads as the name it links
    code = next(p for p in found if p.kind == "code")
    assert code.text.startswith("const page = await browser.newPage();") and code.language == "ts"
    assert (code.start, code.end) == (14, 15)  # the example's own lines in the source
    assert not any("never shown" in t or "@public" in t for t in texts)


def test_a_jsdoc_comments_summary_and_description_tags_are_its_prose() -> None:
    """date-fns documents each function under `@summary` and `@description`, then `@example`s: the page
    quotes that prose and the examples, never `@category` or `@param`."""
    text = (
        "/**\n * @name format\n * @category Common Helpers\n * @summary Format the date.\n *\n"
        " * @description\n * Return the formatted date string in the given format.\n *\n"
        " * @param date - The original date\n *\n * @example\n * format(new Date(2014, 1, 11), 'MM/dd/yyyy')\n"
        " */\nexport function format(date: Date, pattern: string): string {\n  return pattern;\n}\n"
    )
    found = own_comment(text, _symbol("format", text, "export function"), "typescript", "src/format.ts")
    assert [(p.kind, p.text, p.start) for p in found] == [  # its summary is the symbol's line already
        ("paragraph", "Return the formatted date string in the given format.", 7),
        ("code", "format(new Date(2014, 1, 11), 'MM/dd/yyyy')", 12),
    ]


def test_a_jsdoc_examples_caption_is_its_title_and_its_fence_stays_code() -> None:
    """reselect's examples open with JSDoc's `<caption>Modern Use Case</caption>` above a ```ts fence: read
    as HTML, the caption swallowed the fence, and the example read as run-on prose ("interface RootState \\{
    items: …")."""
    text = (
        "/**\n * Memoizes by reference.\n *\n * @example\n * <caption>Modern Use Case</caption>\n * ```ts\n"
        " * import { lookup } from 'pkg'\n *\n * const found = lookup(items)\n * ```\n"
        " *\n * @example <caption>Old Use Case</caption>\n * lookup(old)\n"
        " */\nexport function lookup(items: string[]): string {\n  return items[0];\n}\n"
    )
    shown = "Memoizes by reference."
    found = own_comment(text, _symbol("lookup", text, "export function"), "typescript", "src/l.ts", shown)
    assert [(p.kind, p.text) for p in found if p.kind == "code"] == [
        ("code", "import { lookup } from 'pkg'\n\nconst found = lookup(items)"),
        ("code", "lookup(old)"),
    ]
    assert not any("caption" in p.text for p in found)


def test_a_one_paragraph_block_comment_is_cited_at_the_lines_holding_its_words() -> None:
    """ofetch's `withQuery`: a `/** … */` block of one paragraph is read as a document like any other, so its
    sentence is cited at its own line, not at the `/**` line above it."""
    text = (
        "const x = 1;\n\n/**\n * Returns the URL with the given query parameters. If a query parameter is"
        " undefined, it is omitted.\n */\nexport function withQuery(input: string): string {\n  return input;\n}\n"
    )
    shown = "Returns the URL with the given query parameters."
    found = own_comment(text, _symbol("withQuery", text, "export function"), "typescript", "u.ts", shown)
    assert [(p.start, p.end, p.text) for p in found] == [
        (4, 4, "If a query parameter is undefined, it is omitted.")
    ]


def test_a_python_docstring_keeps_its_explanation_and_example_not_its_fields_or_release_notes() -> None:
    found = own_comment(TRACKER_PY, _symbol("Tracker", TRACKER_PY, "class Tracker"), "python", "t.py")
    texts = [p.text for p in found]
    assert texts[0].startswith("Every call to `add` increments one counter")
    assert found[0].start == 4
    assert any(p.kind == "code" and p.text.startswith("tracker = Tracker()") for p in found)
    assert not any("release note" in t or "never shown" in t for t in texts)


def test_a_comment_s_blocks_are_cited_at_the_lines_the_reader_found_them_on() -> None:
    """Each block keeps the source lines the comment reader read it from, never looked up again by its
    words: a paragraph wrapped early, one opening with a reST role, and the paragraph after a Javadoc tag
    broken over two lines are all kept at their own lines."""
    text = (
        'class Client:\n    """An HTTP client.\n\n    The :class:`Client` keeps connections\n'
        "    open between requests.\n\n    Short first line\n    and then the rest of the paragraph goes on"
        ' here.\n    """\n'
    )
    found = own_comment(text, Symbol("Client", "class", 1, 9), "python", "c.py", "An HTTP client.")
    assert [(p.start, p.end, p.text) for p in found] == [
        (4, 5, "The `Client` keeps connections open between requests."),
        (7, 8, "Short first line and then the rest of the paragraph goes on here."),
    ]
    java = (
        "/**\n * Reads a document. See {@link\n * org.jsoup.Jsoup#parse(String) parse} for how it works.\n *\n"
        " * Another paragraph explains the connection pool in detail.\n */\npublic class Doc {}\n"
    )
    found = own_comment(java, Symbol("Doc", "class", 7, 7), "java", "D.java", "Reads a document.")
    assert [(p.start, p.end, p.text) for p in found] == [
        (2, 3, "See parse for how it works."),
        (5, 5, "Another paragraph explains the connection pool in detail."),
    ]


def test_a_shard_page_explains_its_key_types_and_functions_with_their_go_examples(tmp_path: Path) -> None:
    """A repository without a docs folder: the subsystem page shows what the type's own comment explains
    past its first sentence, and the `Example<Name>` test pkg.go.dev shows under each type and function,
    each cited."""
    files = {
        "README.md": "# pool\n\nA goroutine pool for Go programs that run many small tasks at once.\n",
        "go.mod": "module example.com/pool\n\ngo 1.21\n",
        "pool/pool.go": POOL_GO,
        "pool/pool_test.go": POOL_TEST_GO,
    }
    root = make_project(tmp_path / "pool", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    bodies = [read_page(p)[1] for p in (result.study.harvest_dir / "shards").glob("*.md")]
    body = next(b for b in bodies if "## How they work" in b)
    shown = body.split("## How they work", 1)[1]
    assert shown.count("Goroutines are started lazily, so creating a new pool is cheap.") == 1  # said once
    assert "Errors are collected and returned by Wait." in shown
    assert f"/blob/{result.synthesis.revision}/pool/pool.go#L8)" in shown
    assert "func ExamplePool() {" in shown and "pool/pool_test.go#L5-L11" in shown
    # a key function's example stands under it, never under the type
    assert shown.index("func ExamplePool()") < shown.index("### [`New`]") < shown.index("func ExampleNew()")


def test_a_monorepo_s_package_readmes_are_the_docs_of_their_packages(tmp_path: Path) -> None:
    """Without a docs folder, each workspace member's README (a folder with its own manifest) is a concept
    named by its title, or by the package's name when its title is "README", its code looked for in the
    package's folder; never a private package's (a playground), one inside another package (a project
    template), nor one repeating the front README (published again with each package)."""
    from generator.repo.docs.project import read_project_docs
    from generator.repo.facts.extract import extract_facts
    from generator.repo.map.walk import map_repository

    front = (
        "# kit\n\nKit builds small stores for web applications, kept in sync with the server.\n\n"
        "## Example\n\n```js\nimport { createStore } from 'kit'\nconst store = createStore()\n```\n"
    )
    store_readme = (
        "# Store internals\n\n## Subscriptions\n\nEvery store keeps its subscribers in insertion order and "
        "notifies them after each commit.\n\n## Commits\n\nA commit batches the changes of one tick into a "
        "single notification for every subscriber.\n"
    )
    files = {
        "README.md": front,
        "package.json": '{"name": "kit-monorepo", "private": true}\n',
        "packages/store/package.json": '{"name": "@kit/store"}\n',
        "packages/store/README.md": store_readme,
        "packages/store/src/store.ts": "export function createStore() {\n  return subscribe()\n}\n"
        "export function subscribe() {\n  return 1\n}\n",
        "packages/sync/package.json": '{"name": "@kit/sync"}\n',
        "packages/sync/README.md": "# README\n\nSync pushes every commit of a store to the server and "
        "replays the server's commits locally.\n\nConflicts are resolved by the server's clock, never the "
        "client's.\n",
        "packages/sync/src/sync.ts": "export function pushCommits() {\n  return 2\n}\n",
        "packages/kit/package.json": '{"name": "kit"}\n',
        "packages/kit/README.md": front,  # the front README, published again
        "packages/playground/package.json": '{"name": "playground", "private": true}\n',
        "packages/playground/README.md": store_readme.replace("Store internals", "Playground"),
        "packages/sync/template/package.json": '{"name": "template"}\n',
        "packages/sync/template/README.md": store_readme.replace("Store internals", "Template"),
    }
    root = make_project(tmp_path / "kit", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/kit")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    concepts = {c.name: c for c in docs.concepts}
    assert list(concepts) == ["Store internals", "@kit/sync"]
    store = concepts["Store internals"]
    assert [p.heading for p in store.pages[0].passages] == ["Subscriptions", "Commits"]
    assert {s.name for s in store.symbols} >= {"createStore", "subscribe"}
    assert all(s.path.startswith("packages/store/") for s in store.symbols)
    assert [s.name for s in concepts["@kit/sync"].symbols] == ["pushCommits"]
    with_docs = make_project(
        tmp_path / "with_docs",
        {**files, "docs/intro.md": "# Intro\n\nKit builds stores that stay in sync with the server.\n"},
    )
    repo_map = map_repository(with_docs)
    docs = read_project_docs(with_docs, repo_map, extract_facts(with_docs, repo_map), linker)
    assert not any(
        p.path.startswith("packages/") for c in docs.concepts for p in c.pages
    )  # the docs are the docs


def test_a_short_readme_section_that_shows_a_feature_in_code_is_a_concept() -> None:
    """logrus' "Default Fields", kong's "Positional arguments": a paragraph and an example are a concept
    however short; a short section of prose alone ("News") stays a note."""
    from generator.documents import read_text
    from generator.repo.docs.readme_concepts import readme_concepts

    long = "".join(
        f"## {name}\n\n"
        + "".join(f"The {name.lower()} part does thing number {i} for every caller.\n\n" for i in range(4))
        for name in ("Fields", "Hooks", "Formatters")
    )
    short = (
        "## Default Fields\n\nOften it is helpful to have fields always attached to log statements in an "
        "application.\n\n```go\nlog := logger.WithFields(fields)\n```\n\n"
        "## News\n\nVersion two was released last spring with many changes.\n\nRead the blog post about it "
        "for all the details.\n"
    )
    readme = read_text(f"# tinylog\n\n{long}{short}", name="README.md", origin="README.md")
    names = _no_names()
    assert [c.name for c in readme_concepts(readme, names)] == [
        "Fields",
        "Hooks",
        "Formatters",
        "Default Fields",
    ]


def test_a_readme_whose_manual_stands_under_one_heading_has_its_sub_sections_as_concepts() -> None:
    """transitions' 2,200-line README keeps its manual under "The non-quickstart", gorilla/mux's under
    "Examples", avvio's under "API": two or three top-level sections were too few for a guide, so the
    README was only an overview and examples. The sub-sections of the heading holding most lines are the
    concepts then; a README whose top-level sections are enough keeps them."""
    from generator.documents import read_text
    from generator.repo.docs.readme_concepts import readme_concepts

    def section(name: str, level: str = "###") -> str:
        return f"{level} {name}\n\n" + "".join(
            f"The {name.lower()} part does thing number {i} for every caller.\n\n" for i in range(4)
        )

    manual = "".join(section(n) for n in ("States", "Transitions", "Callbacks"))
    readme = read_text(
        f"# fsm\n\n{section('Quickstart', '##')}## The non-quickstart\n\n{manual}",
        name="README.md",
        origin="README.md",
    )
    assert [c.name for c in readme_concepts(readme, _no_names())] == [
        "Quickstart",
        "States",
        "Transitions",
        "Callbacks",
    ]
    enough = read_text(
        "# fsm\n\n" + "".join(section(n, "##") for n in ("One", "Two", "Three")) + f"## Guide\n\n{manual}",
        name="README.md",
        origin="README.md",
    )
    assert [c.name for c in readme_concepts(enough, _no_names())] == ["One", "Two", "Three", "Guide"]


def test_a_readme_chapter_divided_past_the_guides_cut_stays_whole() -> None:
    """sinatra's README: its "Views / Templates" and "Helpers" chapters divided into a page per sub-section
    gave 40 pages and cut "Command Line", "Rack Middleware" and the rest off the guide: whole chapters then."""
    from generator.documents import read_text
    from generator.repo.docs.concept import MAX_CONCEPTS
    from generator.repo.docs.readme_concepts import readme_concepts

    def section(name: str, level: str) -> str:
        return f"{level} {name}\n\n" + "".join(
            f"The {name.lower()} part does thing number {i} for every caller.\n\n" for i in range(4)
        )

    chapter = "".join(section(f"Helper {i}", "###") for i in range(MAX_CONCEPTS + 5))
    readme = read_text(
        f"# app\n\n{section('Routes', '##')}## Helpers\n\n{chapter}{section('Command Line', '##')}",
        name="README.md",
        origin="README.md",
    )
    assert [c.name for c in readme_concepts(readme, _no_names())] == ["Routes", "Helpers", "Command Line"]


def _no_names() -> SymbolNames:
    """Names of a repository without code: the concepts are the README's alone."""
    return SymbolNames(Facts(files={}), Linker({}, "r" * 40, "https://github.com/acme/tinylog"))


def test_a_go_repository_whose_readme_shows_no_code_starts_with_its_example_tests(tmp_path: Path) -> None:
    """cenkalti/backoff, echo: a README without code, and `Example…` functions in the tests that `go test`
    runs and pkg.go.dev shows: Getting started shows them whole, the package's own examples first, cited at
    the test file's lines; never an internal package's; not when the README shows its own code."""
    from generator.repo.docs.project import read_project_docs
    from generator.repo.facts.extract import extract_facts
    from generator.repo.map.walk import map_repository

    examples = (
        "package retry\n\nfunc ExampleRetry() { // nolint: govet\n\terr := Retry(op)\n\t_ = err\n}\n\n"
        "func Example_basic() {\n\tRetry(op)\n}\n"
    )
    files = {
        "README.md": "# retry\n\nRetry runs an operation again until it succeeds or its back-off gives up.\n",
        "go.mod": "module example.com/retry\n\ngo 1.21\n",
        "retry.go": "package retry\n\nfunc Retry(op func() error) error { return op() }\n",
        "example_test.go": examples,
        "internal/clock/example_test.go": "package clock\n\nfunc ExampleNow() {\n\tNow()\n}\n",
    }
    root = make_project(tmp_path / "retry", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/retry")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    code = [p for p in docs.examples if p.kind == "code"]
    assert [(p.heading, p.path, p.start, p.end) for p in code] == [
        ("Example_basic", "example_test.go", 8, 10),
        ("ExampleRetry", "example_test.go", 3, 6),
    ]
    assert code[0].language == "go" and code[1].text.startswith("func ExampleRetry() {")
    shown = "## Usage\n\n```go\nretry.Retry(op)\n```\n\nOr with a context:\n\n```go\nretry.RetryContext(ctx, op)\n```\n"
    files["README.md"] += shown
    root = make_project(tmp_path / "shown", files)
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert not any(p.path.endswith("_test.go") for p in docs.examples)


def test_a_one_paragraph_comment_keeps_the_sentences_past_the_shown_summary() -> None:
    every = (
        "package cron\n\n// Every returns a Schedule that activates once every duration.\n"
        "// Delays of less than a second are not supported (will round up to 1 second).\n"
        "func Every(d time.Duration) Schedule { return nil }\n"
    )
    shown = "Every returns a Schedule that activates once every duration."
    found = own_comment(every, _symbol("Every", every, "func Every"), "go", "every.go", shown)
    assert [(p.text, p.start, p.end) for p in found] == [
        ("Delays of less than a second are not supported (will round up to 1 second).", 3, 4)
    ]
    assert (
        own_comment(every, _symbol("Every", every, "func Every"), "go", "every.go", shown + " Delays") == []
    )


def test_an_examples_folder_shows_how_the_project_is_used_when_the_readme_shows_little(
    tmp_path: Path,
) -> None:
    """swr, express, polka, mini-redis: a README with one example or none and an examples/ folder. Each
    example is its main file whole (the one importing the project first, else index/main), led by what its
    README says it shows (not how to deploy it) or by the folder index's line for it; tooling, long files and
    a README's install steps are not examples."""
    files = {
        "package.json": '{"name": "tinyfetch", "version": "1.0.0"}\n',
        "README.md": (
            "# tinyfetch\n\nTinyfetch caches what a fetcher returns and revalidates it in the background.\n\n"
            "## Running\n\nStart the demo server with its logs on:\n\n```\nDEBUG=1 npm start --demo\n```\n"
        ),
        "src/index.js": "export function useFetch(key, fetcher) {\n  return fetcher(key)\n}\n",
        "examples/README.md": "# Examples\n\n- [cookies](./cookies) - Working with cookies in a handler\n",
        "examples/basic/README.md": (
            "# Basic\n\n## One-Click Deploy\n\nDeploy your own tinyfetch project today.\n\n"
            "## The Idea behind the Example\n\nShow a basic usage of tinyfetch in two different pages.\n"
        ),
        "examples/basic/libs/fetch.js": "export default function fetch(url) {\n  return window.fetch(url)\n}\n",
        "examples/basic/pages/index.js": (
            "import { useFetch } from 'tinyfetch'\nimport fetch from '../libs/fetch'\n\n"
            "export default function Index() {\n  return useFetch('/api/data', fetch)\n}\n"
        ),
        "examples/basic/next.config.js": "module.exports = {\n  reactStrictMode: true,\n}\n",
        "examples/cookies/index.js": "const app = require('../../')\n\napp.get('/', (req) => req.cookies)\napp.listen(3000)\n",
        "examples/cookies/users.js": "module.exports = [\n  'tobi',\n  'loki',\n]\n",
        "examples/long/index.js": "".join(f"console.log({n})\n" for n in range(80)),
    }
    root = make_project(tmp_path / "tinyfetch", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyfetch")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    # a README whose code only runs the project (mini-redis's `RUST_LOG=debug cargo run`) shows no use of it
    assert [(p.kind, p.path, p.heading) for p in docs.examples] == [
        ("lead", "README.md", "Running"),
        ("code", "README.md", "Running"),
        ("lead", "examples/basic/README.md", "basic"),
        ("code", "examples/basic/pages/index.js", "basic"),
        ("lead", "examples/README.md", "cookies"),
        ("code", "examples/cookies/index.js", "cookies"),
    ]
    assert docs.examples[2].text == "Show a basic usage of tinyfetch in two different pages."
    assert docs.examples[4].text == "Working with cookies in a handler"
    assert docs.examples[3].page == "examples/basic/README.md" and docs.examples[3].language == "javascript"
    assert "useFetch" in [s.name for s in docs.example_symbols]


def test_a_rust_crate_whose_readme_shows_no_code_starts_with_its_crate_docs_code(tmp_path: Path) -> None:
    """indicatif's README shows no code and its examples/ are long programs (the page opened on a 40-line
    `cargowrap`); axum's and actix-web's READMEs show none beside a docs folder, and they had no Getting
    started at all. docs.rs shows a crate's `//!` doc as its front page: its code is the usage, in its order,
    under whichever headings it has — before any examples/ program."""
    crate_doc = (
        "//! Bars for the terminal.\n//!\n//! # Progress Bars\n//!\n//! Bars are advanced by hand:\n//!\n"
        "//! ```rust\n//! let bar = Bar::new(10);\n//! bar.inc(1);\n//! ```\n//!\n"
        "//! # Iterators\n//!\n//! An iterator can carry a bar:\n//!\n//! ```rust\n"
        "//! for _ in (0..10).progress() {}\n//! ```\n\npub struct Bar;\n"
    )
    files = {
        "README.md": "# bar\n\nBar draws progress bars in a terminal, one or several at once.\n",
        "Cargo.toml": '[package]\nname = "bar"\n',
        "src/lib.rs": crate_doc,
        "examples/cargowrap.rs": "use bar::Bar;\n\nfn main() {\n    let b = Bar::new(3);\n    b.inc(1);\n}\n",
    }
    root = make_project(tmp_path / "bar", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/bar")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    code = [(p.path, p.heading, p.text) for p in docs.examples if p.kind == "code"]
    assert code == [
        ("src/lib.rs", "Progress Bars", "let bar = Bar::new(10);\nbar.inc(1);"),
        ("src/lib.rs", "Iterators", "for _ in (0..10).progress() {}"),
    ]
    files["docs/guide.md"] = "# Guide\n\nA bar counts up to its length and draws itself as it goes.\n"
    root = make_project(tmp_path / "with-docs", files)
    repo_map = map_repository(root)
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    assert [p.path for p in docs.examples if p.kind == "code"] == ["src/lib.rs", "src/lib.rs"]
