"""What kind of file a path is, from its name alone: its language, or why the map skips it unread.

Tables only; `map.py` walks the tree and sniffs content (NUL bytes, generated-file markers).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache

# fmt: off
IGNORED_DIRS = frozenset({
    ".git", ".hg", ".svn", "node_modules", "bower_components", "jspm_packages", "__pycache__", ".venv", "venv",
    ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".eggs", ".gradle", ".idea", ".vs",
    "vendor", "vendored", "_vendor", "third_party", "third-party", "thirdparty", "bundled", "dist", "build", "out",
    "target",
    ".next", ".nuxt", ".svelte-kit", ".cache", "coverage", "htmlcov", "site-packages", ".terraform", "Pods",
    "DerivedData",
})
LOCK_FILES = frozenset({
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "npm-shrinkwrap.json", "Cargo.lock", "poetry.lock",
    "Pipfile.lock", "uv.lock", "pdm.lock", "Gemfile.lock", "composer.lock", "go.sum", "mix.lock",
    "packages.lock.json", "flake.lock", "bun.lockb", "gradle.lockfile", "Podfile.lock", ".DS_Store",
})
MEDIA_SUFFIXES = frozenset(
    ".png .jpg .jpeg .gif .bmp .ico .icns .svg .webp .tif .tiff .psd .ai .eps .heic .avif "
    ".woff .woff2 .ttf .otf .eot .mp3 .mp4 .m4a .wav .ogg .oga .flac .webm .mov .avi .mkv .wmv .aac "
    ".zip .tar .gz .tgz .bz2 .xz .zst .7z .rar .jar .war .ear .whl .egg .deb .rpm .dmg .iso .apk "
    ".exe .dll .so .dylib .a .o .obj .lib .class .pyc .pyo .pyd .wasm .bin .dat .db .sqlite .sqlite3 "
    ".pdf .doc .docx .xls .xlsx .ppt .pptx .npy .npz .pkl .pickle .pt .onnx .h5 .parquet .lockb".split()
)
GENERATED_SUFFIXES = (
    ".min.js", ".min.css", ".min.mjs", ".js.map", ".css.map", ".bundle.js", ".chunk.js", "_pb2.py",
    "_pb2_grpc.py", ".pb.go", ".pb.cc", ".pb.h", ".g.dart", ".designer.cs",
)
# credentials files are never read, even when committed; redaction is the second net
SECRET_FILE_NAMES = frozenset({
    ".netrc", "_netrc", ".npmrc", ".pypirc", ".pgpass", ".git-credentials", ".htpasswd", "credentials",
    "credentials.json", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "secrets.yml", "secrets.yaml",
})
SECRET_FILE_SUFFIXES = (".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".gpg", ".asc")
SECRET_FILE_EXAMPLES = (".example", ".sample", ".template", ".dist", ".defaults")

LANGUAGE_BY_SUFFIX = {
    ".py": "python", ".pyi": "python", ".pyw": "python", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "javascript", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx", ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin",
    ".scala": "scala", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp",
    ".hh": "cpp", ".hxx": "cpp", ".cs": "csharp", ".rb": "ruby", ".php": "php", ".swift": "swift",
    ".m": "objc", ".mm": "objc", ".lua": "lua", ".pl": "perl", ".pm": "perl", ".r": "r",
    ".jl": "julia", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell", ".ml": "ocaml",
    ".clj": "clojure", ".dart": "dart", ".zig": "zig", ".nim": "nim", ".vue": "vue", ".svelte": "svelte",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".fish": "shell", ".ps1": "powershell",
    ".sql": "sql", ".html": "html", ".htm": "html", ".css": "css", ".scss": "css", ".sass": "css",
    ".less": "css", ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".rst": "rst",
    ".txt": "text", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".ini": "ini",
    ".cfg": "ini", ".xml": "xml", ".proto": "protobuf", ".graphql": "graphql", ".tf": "terraform",
    ".cmake": "cmake", ".gradle": "groovy", ".groovy": "groovy", ".ipynb": "json", ".csv": "csv",
}
LANGUAGE_BY_NAME = {
    "Makefile": "make", "makefile": "make", "GNUmakefile": "make", "Dockerfile": "dockerfile",
    "CMakeLists.txt": "cmake", "Rakefile": "ruby", "Gemfile": "ruby", "Jenkinsfile": "groovy",
    "BUILD": "starlark", "WORKSPACE": "starlark", "LICENSE": "text", "README": "text",
}
# fmt: on


def language_of(path: str) -> str:
    """The language of a file from its name and extension ("other" when unknown)."""
    name = posixpath.basename(path)
    if name in LANGUAGE_BY_NAME:
        return LANGUAGE_BY_NAME[name]
    if name.startswith("Dockerfile"):
        return "dockerfile"
    suffix = posixpath.splitext(name)[1]
    return LANGUAGE_BY_SUFFIX.get(suffix, LANGUAGE_BY_SUFFIX.get(suffix.lower(), "other"))


# an extensionless script's interpreter (`#!/usr/bin/env node` in needle's and bunyan's bin/): its language
SCRIPT_INTERPRETERS = {"node": "javascript", "nodejs": "javascript", "python": "python", "ruby": "ruby"}
_SHEBANG = re.compile(rb"#![ \t]*(?:/\S*/)?(?:env[ \t]+(?:-\S+[ \t]+)*)?([A-Za-z]+[0-9.]*)")


def script_language(path: str, head: bytes) -> str:
    """The language of a file with no extension from its `#!` line ("other" when none or not a language
    whose code is read)."""
    if "." in posixpath.basename(path):
        return "other"
    found = _SHEBANG.match(head)
    interpreter = found.group(1).decode("ascii").rstrip("0123456789.") if found else ""
    return SCRIPT_INTERPRETERS.get(interpreter, "other")


def ignored_dir(name: str) -> bool:
    """Folders the map never enters: VCS data, dependencies, caches, build outputs, vendored code."""
    return name in IGNORED_DIRS or name.endswith(".egg-info")


# a licence file of a folder's own: LICENSE, LICENCE.md, COPYING, LICENSE-MIT.txt, unrar's license.txt
LICENCE_FILE = re.compile(r"(?:licen[cs]e|copying)(?:[._-][\w.-]*)?", re.IGNORECASE)
# the files a project is built from, one per build system: a folder beside them is a package of its project
BUILD_MANIFESTS = frozenset(
    {
        "package.json",
        "Cargo.toml",
        "go.mod",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "CMakeLists.txt",
        "Makefile",
        "meson.build",
        "configure.ac",
        "premake5.lua",
        "Package.swift",
        "composer.json",
        "Gemfile",
        "mix.exs",
        "build.zig",
        "deno.json",
    }
)


def separate_work(folder: str, names: Collection[str], project_manifests: Collection[str]) -> bool:
    """A folder holding another project's work (vendored or bundled code: SumatraPDF's ext/mupdf, libsql's
    bundled SQLite3MultipleCiphers, typer's _click): it carries a licence file of its own and is built by
    none of the manifests the project's root is built by (a monorepo's package has its own licence too,
    beside its own package.json). `names`: the folder's file names. Never when the root has no manifest,
    nor inside docs or tests, where a page or a case about licences (docs/license.md) is no licence."""
    own = set(project_manifests)
    if not own or own & set(names) or _in_context_folder(folder.strip("/")):
        return False
    return any(LICENCE_FILE.fullmatch(n) for n in names)


# a header library's generated one-file copy of its include/ tree (nlohmann/json's single_include/nlohmann/json.hpp)
_SINGLE_INCLUDE = re.compile(r"(?:^|/)single[-_]include/", re.IGNORECASE)


def skip_reason_by_name(rel: str) -> str | None:
    """Why a file is skipped from its name alone, or None when its content decides."""
    name = rel.rsplit("/", 1)[-1]
    lower = name.lower()
    if name in LOCK_FILES or lower.endswith(".lock"):
        return "lock file"
    if _holds_secrets(lower):
        return "may hold secrets"
    if lower.endswith(GENERATED_SUFFIXES) or _SINGLE_INCLUDE.search(rel):
        return "generated or minified"
    if os.path.splitext(lower)[1] in MEDIA_SUFFIXES:
        return "binary or media"
    return None


def _holds_secrets(lower: str) -> bool:
    if lower.startswith(".env") and not lower.endswith(SECRET_FILE_EXAMPLES):
        return True
    return lower in SECRET_FILE_NAMES or lower.endswith(SECRET_FILE_SUFFIXES)


# what describes, tests, builds or ships the code rather than being it: context, not a source module. A folder
# anywhere on the path, or the file's own name (`$` as in a search: before a final newline too)
CONTEXT_FOLDER = re.compile(
    r"tests?|testing|testutils?|__tests__|spec|specs|docs?|docs?[_-][\w-]+|[\w-]*examples?|samples?|demos?|tutorials?|[\w-]*archetypes?"
    # a demo named for what it shows, as examples are (zinx's zinx_app_demo/, an MMO game server whose `main`
    # had become the main flow's door and a subsystem); a component called so (dumi's DumiDemo/) is code
    r"|[\w-]+[_-]demos?"
    # a package's private test suite, its helpers and its maintainers' tools: trio's src/trio/_tests/ (a "Tests"
    # subsystem), _core/_tests/ and _tools/ (whose code generator's flags were the Configuration page's
    # "Command-line flags"), pandas' _testing/, pip's _vendor/
    r"|_(?:tests?|testing|tools|scripts?|bench(?:marks?)?|examples?|vendor)"
    r"|benchmarks?|bench|benches|tests?[_-]?(?:helpers?|utils?|support|data)|[\w-]+[_-]tests?|__mocks__|mocks?"
    # a second test tier named by its kind after the word: dynaconf's tests_functional/, tests_integration/,
    # tests-e2e/, tests_benchmark/
    r"|tests[_-][\w-]+"
    r"|__fixtures__|qa|e2e"  # quality assurance and end-to-end suites (logstash's qa/)
    # performance suites: immer's perf-testing/ and __performance_tests__/
    r"|perf|perf[_-][\w-]+|[\w-]+[_-]testing|__\w+_tests?__|profiling"
    # .NET projects name their test and benchmark projects by a dotted suffix: FluentValidation.Tests,
    # Foo.UnitTests, Foo.Tests.Benchmarks, Foo.Specs
    r"|[\w-]+(?:\.[\w-]+)*\.(?:\w*tests?|specs?|benchmarks?)(?:\.[\w-]+)*"
    r"|fixtures?|scripts?|tools|release|ci|typings|\.[^/]+|vendor|third_party|node_modules|testdata"
    # the project's docs site, its generator's pages and components (jotai's Gatsby site, jest's and
    # prettier's Docusaurus, redux, immer, retrofit)
    r"|website"
    # Gradle's and Kotlin Multiplatform's test source sets beside src/main and src/commonMain: okio's
    # src/jvmTest and src/commonTest, mockito's src/testFixtures and src/androidTest, JMH benchmarks in src/jmh
    r"|(?-i:[a-z][a-zA-Z0-9]*Test|testFixtures|jmh)"
    # fuzzing harnesses: CLI11's fuzz/ was a subsystem ("Fuzz"), cJSON's fuzzing/, serde_json's and libsql's fuzz/
    r"|fuzz|fuzzing|fuzzers?|oss-fuzz"
    # a server the tests start, its generated resolvers and schemas their fixtures: gqlgen's codegen/testserver/
    # (131 of its code generator's 152 modules had been read as the generator) and graphql/handler/testserver/
    r"|testservers?",
    re.IGNORECASE,
)
CONTEXT_NAME = re.compile(
    r"(?:test[_-][^/]*|[^/]*_test\.\w+|[^/]*\.(test|spec)\.\w+|conftest\.py|setup\.py|noxfile\.py"
    # a JavaScript module's tests beside it, named `test` (date-fns' src/add/test.ts by src/add/index.ts,
    # 250 of them; p-retry's test.js); a Ruby `test.rb` is code (faraday's Test adapter)
    r"|test\.[cm]?[jt]sx?"
    # a tool's settings kept in a dotfile, in code or not: .prettierrc.cjs, .lintstagedrc.mjs, .babelrc.js
    r"|\.[^/]+"
    r"|fabfile\.py|tasks\.py|dodo\.py|[^/]*\.config\.[cm]?[jt]s|Gruntfile\.js|gulpfile\.js|Makefile"
    r"|Dockerfile|_version\.py|version\.py|__version__\.py|module-info\.java"
    # a test runner's or bundler's plug-in (immer's vitest-custom-reporter.ts)
    r"|(?:vitest|jest|karma|mocha|webpack|rollup|rolldown|tsup|babel|eslint)[-_][^/]*"
    # a test runner's or bundler's settings: karma.conf.js, webpack.mocha.js
    r"|[^/]*\.conf\.[cm]?[jt]s|(?:webpack|karma|rollup|gulp|grunt|babel)\.[^/]+\.[cm]?[jt]s)$",
    re.IGNORECASE,
)


# a folder's name up to a word that ends it (`unit-tests/`, `FluentValidation.Tests/`, `IntegrationTests/`): the
# word is the folder's kind only after a separator or a capital, never inside another word (`apispec/`,
# `_pytest/`, `mkdocs/`, `autodoc/`, `latest/` are code)
WORD_ENDING_FOLDER = r"(?:^|/)(?:[\w.-]*?(?:[._-]|(?-i:(?<=[a-z])(?=[A-Z]))))?"

# a build script at the top of the repository (OpenHands' build_vscode.py, wtforms' hatch_build.py hook, the
# PEPs' build.py); inside a package a module named so is code (graphrag's build_noun_graph.py)
ROOT_BUILD_SCRIPT = re.compile(r"(?:hatch_)?build(?:[_-][\w.-]*)?\.py$", re.IGNORECASE)
# a test runner's script at the top of the repository (huey's runtests.py, dramatiq's pytest-gevent.py); inside
# a package a module named so is code (anyio's pytest_plugin.py)
ROOT_TEST_RUNNER = re.compile(r"(?:run_?tests?|pytest[_-][\w.-]*)\.py$", re.IGNORECASE)


def in_go_internal(path: str) -> bool:
    """Whether a path is inside a Go `internal/` package: only the module holding it can import it, never a
    user of the library."""
    return path.startswith("internal/") or "/internal/" in path


@lru_cache(maxsize=65_536)
def is_context_file(path: str) -> bool:
    """A test, doc, example, benchmark, build or release script: about the code rather than the code."""
    folder, _, name = path.rpartition("/")
    if folder == "" and (ROOT_BUILD_SCRIPT.match(name) or ROOT_TEST_RUNNER.match(name)):
        return True
    if CONTEXT_NAME.match(name) is not None:
        return True
    return folder != "" and _in_context_folder(folder, name.endswith(".go"))


# the test suite's folder when it is the top-level `t/`: Perl's convention, kept by git (t/helper/test-*.c)
# and by celery and its libraries (kombu's t/unit/, t/integration/, t/mocks.py had been a "Mocks" subsystem);
# the benchmarks' when it is the top-level `performance/` (restana's against express, fastify and hapi had been
# a subsystem "Performance"; marshmallow's benchmark.py) — a `src/performance/` is the library's own; the
# integration suite's when it is the top-level `integration/`: gqlgen's (a test app, a Go server and the Node
# client that queries it, whose `main` had been the main flow and its PORT "the environment variables") and
# traefik's — deeper down it is code (Sa-Token's and mybatis-flex's solon/integration/ plug into a framework)
_TOP_CONTEXT_FOLDERS = frozenset({"t", "performance", "integration"})


# a Go command named for what it runs, in a folder of commands: chainsaw's pkg/commands/test/ (`chainsaw test`,
# the command every user runs: its flags, its config load, `runner.New(…).Run`), commands/create/test/,
# commands/migrate/kuttl/tests/, commands/docs/ — Go keeps a package's tests in its `_test.go` files, so such
# a folder's other files are the command's code, not the project's tests or docs
_COMMANDS_FOLDER = re.compile(r"commands?|cmds?|subcommands|cli", re.IGNORECASE)
_COMMAND_NAMED = re.compile(r"tests?|e2e|bench(?:marks?)?|docs?", re.IGNORECASE)


def context_folders(paths: Iterable[str]) -> list[tuple[str, int]]:
    """The folders read as context by their name (tests, docs, examples, scripts, tools …), each up to the part
    that makes it so, with how many files of `paths` it holds, the most first; a file that is context by its
    own name alone in a folder of code (`pkg/a_test.go`, `conftest.py`) is counted in none."""
    counts: dict[str, int] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        go = name.endswith(".go")
        if not folder or not _in_context_folder(folder, go):
            continue
        parts = folder.split("/")
        # the part naming it for every language first: a command's testdata/, not the command's folder
        at = next((n for n in range(len(parts)) if _in_context_folder("/".join(parts[: n + 1]), True)), None)
        if at is None:
            at = next((n for n in range(len(parts)) if _in_context_folder("/".join(parts[: n + 1]))), 0)
        where = "/".join(parts[: at + 1]) + "/"
        counts[where] = counts.get(where, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def in_go_command(path: str) -> bool:
    """Whether a Go file is code only as a command named for what it runs (pkg/commands/test/command.go): a
    folder name that elsewhere marks tests, docs or benchmarks."""
    folder = path.rpartition("/")[0]
    return path.endswith(".go") and _in_context_folder(folder) and not _in_context_folder(folder, True)


@lru_cache(maxsize=16_384)
def _in_context_folder(folder: str, go: bool = False) -> bool:
    # once per folder, not per file: every file of a folder asks the same
    parts = folder.split("/")
    if parts[0] in _TOP_CONTEXT_FOLDERS:
        return True
    commands = False
    for part in parts:
        if CONTEXT_FOLDER.fullmatch(part) and not (go and commands and _COMMAND_NAMED.fullmatch(part)):
            return True
        commands = commands or _COMMANDS_FOLDER.fullmatch(part) is not None
    return False


def front_readme(paths: Iterable[str], links: Mapping[str, str] | None = None) -> str:
    """The project's front page: the top-level README (`README`, `README.md`, `readme.rst`; never another
    language's `README_JA.md`), the one with the fewest suffixes first; "" when there is none. A README in
    `.github/` comes first, as GitHub shows it first: javalin's top-level one is for its developers ("If you
    are looking for the general readme, see .github/README.md"), FluentValidation has only that one. A
    top-level README that is a symbolic link (`links`: RepoMap.links) is the file it names, as GitHub shows
    that file: axum's and actix-web's name their main crate's README."""
    found = [p for p in paths if _is_front(p)] or [link for link in links or {} if _is_front(link)]
    best = min(found, key=lambda p: (not p.startswith(".github/"), p.count("."), p), default="")
    return (links or {}).get(best, best)


def _is_front(path: str) -> bool:
    return path.rpartition("/")[0] in ("", ".github") and _stem(path) == "readme"


def _stem(path: str) -> str:
    return path.rpartition("/")[2].lower().split(".")[0]
