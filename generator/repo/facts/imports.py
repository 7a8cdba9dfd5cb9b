"""Import resolution for the facts stage: raw import targets → files inside the repository.

Works on paths only (an index built once from the map), never on the file system, so a hostile import
string can at most fail to resolve. One resolver per language family.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from generator.redact import Redactor
from generator.repo.facts.extracted import Extracted

JS_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
JS_LANGUAGES = {"javascript", "typescript", "tsx"}


@dataclass(frozen=True)
class JsAlias:
    """tsconfig/jsconfig module mapping for the files under `scope`: `paths` patterns and `baseUrl`."""

    scope: str  # folder holding the tsconfig ("" for the root)
    base: str  # baseUrl, relative to the repository root
    patterns: tuple[tuple[str, tuple[str, ...]], ...] = ()  # ("@/*", ("src/*",)), …

    def candidates(self, source: str, spec: str) -> list[str]:
        """Repository paths (without extension resolution) that `spec` may name, most specific first."""
        if self.scope and not source.startswith(self.scope + "/"):
            return []
        found: list[str] = []
        for pattern, targets in self.patterns:
            head, star, tail = pattern.partition("*")
            if star and spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(head) + len(tail):
                middle = spec[len(head) : len(spec) - len(tail)]
                found.extend(posixpath.join(self.base, t.replace("*", middle, 1)) for t in targets)
            elif not star and spec == pattern:
                found.extend(posixpath.join(self.base, t) for t in targets)
        found.append(posixpath.join(self.base, spec))
        return found


def parse_tsconfig(text: str, scope: str) -> JsAlias | None:
    """The module mapping of a tsconfig.json/jsconfig.json (JSON with comments and trailing commas)."""
    comment_or_string = r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*[\s\S]*?\*/'
    stripped = re.sub(comment_or_string, lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    try:
        data = json.loads(re.sub(r",(\s*[}\]])", r"\1", stripped))
    except ValueError:
        return None
    options = data.get("compilerOptions") if isinstance(data, dict) else None
    if not isinstance(options, dict) or ("baseUrl" not in options and "paths" not in options):
        return None
    base_url = options.get("baseUrl")
    base = posixpath.normpath(posixpath.join(scope, base_url if isinstance(base_url, str) else "."))
    if base.startswith(("..", "/")):
        return None
    paths = options.get("paths")
    paths = paths if isinstance(paths, dict) else {}
    patterns = tuple(
        (str(key), tuple(t for t in value if isinstance(t, str)))
        for key, value in paths.items()
        if isinstance(value, list)
    )
    return JsAlias(scope=scope, base="" if base == "." else base, patterns=patterns)


@dataclass(frozen=True)
class JsPackage:
    """A workspace package of a JS/TS monorepo: the `name` its siblings import it by, its folder, and the
    entry files its package.json names (`exports` ".", `module`, `main`, `types`), in that order."""

    name: str
    folder: str
    entries: tuple[str, ...] = ()

    def candidates(self, spec: str) -> list[str]:
        """Repository paths (without extension resolution) that `spec` names, or [] when it names another
        package. The bare name is its entry, else its source's index (a built entry such as dist/index.js
        is not in the repository), else its declarations (a .d.ts holds no code to follow); `name/sub` is
        the file under the package, or under its src/."""
        if spec == self.name:
            code = [e for e in self.entries if not e.endswith(".d.ts")]
            index = [posixpath.join(self.folder, "src/index"), posixpath.join(self.folder, "index")]
            return [*code, *index, *(e for e in self.entries if e.endswith(".d.ts"))]
        if spec.startswith(self.name + "/"):
            sub = spec[len(self.name) + 1 :]
            return [posixpath.join(self.folder, sub), posixpath.join(self.folder, "src", sub)]
        return []


def parse_package_json(text: str, folder: str) -> JsPackage | None:
    """The workspace package a package.json in `folder` declares; None without a name."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name:
        return None
    exports = data.get("exports")
    if isinstance(exports, dict) and any(str(key).startswith(".") for key in exports):
        exports = exports.get(".")  # subpath exports: the bare name is "." (or has no entry)
    entries = [*_export_targets(exports), *(data.get(key) for key in ("module", "main", "types", "typings"))]
    paths = (posixpath.normpath(posixpath.join(folder, e)) for e in entries if isinstance(e, str) and e)
    return JsPackage(name, folder, tuple(dict.fromkeys(p for p in paths if not p.startswith(("..", "/")))))


def _export_targets(exports: object) -> list[str]:
    """The file paths of an `exports` entry: a string, or conditions ({"types": …, "import": …}) nested."""
    if isinstance(exports, str):
        return [exports] if exports.startswith("./") else []
    if isinstance(exports, dict):
        return [t for value in exports.values() for t in _export_targets(value)]
    return []


def workspace_folders(globs: Iterable[str], folders: Iterable[str]) -> list[str]:
    """The folders (of package.json files) a workspace's package globs ("packages/*", "!**/test/**") name."""
    included = [g.removeprefix("./").rstrip("/") for g in globs if not g.startswith("!")]
    excluded = [g[1:].removeprefix("./").rstrip("/") for g in globs if g.startswith("!")]
    return [f for f in folders if _glob_any(f, included) and not _glob_any(f, excluded)]


def _glob_any(folder: str, globs: list[str]) -> bool:
    """Whether `folder` matches one glob: `*` stays within one path segment, `**` spans any."""
    depth = folder.count("/")
    return any(
        fnmatch.fnmatchcase(folder, glob) and ("**" in glob or glob.count("/") == depth) for glob in globs
    )


def display_import(language: str, raw: str) -> str:
    """Raw import as a reader would write it: 'pkg.mod', '.sibling.name', 'crate::a::b', '"x.h"'."""
    if language == "rust":
        return raw[4:] if raw.startswith("use:") else f"mod {raw[4:]}"
    if language in {"c", "cpp"}:
        target = raw.split(":", 1)[1]
        return f'"{target}"' if raw.startswith("quote:") else f"<{target}>"
    if language == "ruby":
        kind, _, target = raw.partition(":")
        return f"{'require_relative' if kind == 'relative' else 'require'} {target}"
    if language == "python" and ":" in raw:
        module, name = raw.split(":", 1)
        return f"{module}.{name}" if module and not module.endswith(".") else f"{module}{name}"
    return raw


def show_imports(
    language: str, extracted: Extracted, redactor: Redactor, shown: dict[tuple[str, str], str]
) -> None:
    """Set one reading's `shown_imports`: its raw import targets as a reader writes them (`display_import`),
    redacted, since import strings are repository text that reaches prompts and pages. `shown` keeps each
    string's answer (the same few thousand repeat across a repository's files): only new ones are redacted."""
    for raw in extracted.imports:
        if (language, raw) not in shown:
            shown[(language, raw)] = redactor.redact(display_import(language, raw))[0]
    extracted.shown_imports = [shown[(language, raw)] for raw in extracted.imports]


class ImportIndex:
    """Lookup tables over the repository's file paths, built once per run."""

    def __init__(
        self,
        paths: Iterable[str],
        go_modules: dict[str, str] | None = None,
        js_aliases: Sequence[JsAlias] = (),
        js_packages: Sequence[JsPackage] = (),
    ) -> None:
        self.paths = set(paths)
        self.python_modules = _python_module_index(self.paths)
        self.python_files = _python_file_index(self.paths)
        self.go_modules = go_modules or {}  # directory of go.mod → module path
        self._absolute: dict[str, list[str]] = {}
        self._relative: dict[str, dict[str, list[str]]] = {}  # folder → relative import → files
        self._relative_stems: dict[tuple[str, str], str] = {}  # (folder, ".mod") → the stem it names
        self.js_aliases = sorted(js_aliases, key=lambda a: -len(a.scope))  # innermost tsconfig first
        self.js_packages = sorted(js_packages, key=lambda p: -len(p.name))  # "@x/core-extra" before "@x/core"

    # the path tables only some languages read are built on first use (a Python repository needs neither)
    @cached_property
    def suffixes(self) -> dict[str, list[str]]:
        """Path ending ("foo/bar.h") → the files whose path ends so (C includes, Java classes, Ruby requires)."""
        found: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.paths):
            parts = path.split("/")
            for i in range(len(parts)):
                found["/".join(parts[i:])].append(path)
        return found

    @cached_property
    def dirs(self) -> dict[str, list[str]]:
        """Directory → the files directly in it (Go packages, Java `import a.b.*`)."""
        found: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.paths):
            found[posixpath.dirname(path)].append(path)
        return found

    def resolve(self, source: str, language: str, raw: str) -> list[str]:
        """Files inside the repository that `raw` (imported by `source`) refers to; [] when external."""
        if language == "python":
            return self.resolve_python(source.rpartition("/")[0], raw)  # its folder: posixpath.dirname
        if language in JS_LANGUAGES:
            return _only(self._js(source, raw))
        if language == "go":
            return self._go(raw)
        if language == "rust":
            return _only(self._rust(source, raw))
        if language == "java":
            return self._java(raw)
        if language == "kotlin":  # a Kotlin file imports Kotlin and Java classes alike
            return self._java(raw, (".kt", ".java"))
        if language in {"c", "cpp"}:
            return _only(self._c(source, raw))
        if language == "ruby":
            return _only(self._ruby(source, raw))
        return []

    def resolve_python(self, folder: str, raw: str) -> list[str]:
        """`resolve` for an import of a Python file in `folder` (one file at most): the same for every file of
        one folder (relative) or of the repository (absolute; the same few repeat across thousands of files)."""
        if raw.startswith("."):
            known = self._relative.setdefault(folder, {})
            hit = known.get(raw)
            if hit is None:
                hit = known[raw] = _only(self._python_relative(folder, raw))
            return hit
        hit = self._absolute.get(raw)
        if hit is None:
            hit = self._absolute[raw] = _only(self._python(raw))
        return hit

    def add_root_package(self, imports: Iterable[str]) -> str | None:
        """When the repository root is itself a package (it holds `__init__.py`), learn its import name.

        The name is not on disk (the clone folder may be called anything), so it is inferred from the
        absolute imports: the unresolved first component under which most imports resolve at the root.
        """
        if "__init__.py" not in self.paths:
            return None
        votes: dict[str, int] = defaultdict(int)
        for raw, count in Counter(imports).items():  # each distinct import once (they repeat)
            head, _, rest = raw.partition(".")
            module = rest.partition(":")[0]
            if rest and not raw.startswith(".") and head not in self.python_modules and module:
                if _prefixes(module)[-1] in self.python_modules:
                    votes[head] += count
        if not votes:
            return None
        name, count = max(sorted(votes.items()), key=lambda kv: kv[1])
        if count < 2:
            return None
        for module, path in list(self.python_modules.items()):
            if path.rsplit(".", 1)[0].removesuffix("/__init__").replace("/", ".") == module:
                self.python_modules.setdefault(f"{name}.{module}", path)
        self.python_modules.setdefault(name, "__init__.py")
        self._absolute.clear()
        return name

    # python: "pkg.mod", ".sibling:name", "..:name"
    def _python_relative(self, folder: str, raw: str) -> str | None:
        """The file a relative import (".sibling:name", "..:name") from a file in `folder` names: the
        submodule `name` of the module, else the module."""
        module, _, name = raw.partition(":")
        key = (folder, module)
        if key not in self._relative_stems:  # the module's stem, shared by every name taken from it
            self._relative_stems[key] = _relative_stem(folder, module)
        target = self._relative_stems[key]
        if name:
            hit = self._python_file(f"{target}/{name}".strip("/"))
            if hit:
                return hit
        return self._python_file(target.strip("/")) if target else None

    def _python(self, raw: str) -> str | None:
        """The file an absolute import ("pkg.mod", "pkg.mod:name") names: the longest known module."""
        module, _, name = raw.partition(":")
        for dotted in ([f"{module}.{name}"] if name else []) + _prefixes(module):
            hit = self.python_modules.get(dotted)
            if hit:
                return hit
        return None

    def _python_file(self, stem: str) -> str | None:
        return self.python_files.get(stem)

    def _js(self, source: str, raw: str) -> str | None:
        spec = raw.split("?")[0]
        if spec.startswith((".", "/")):
            return self._js_file(posixpath.join(posixpath.dirname(source), spec))
        for alias in self.js_aliases:  # tsconfig `paths`/`baseUrl`; otherwise a package from node_modules
            for stem in alias.candidates(source, spec):
                hit = self._js_file(stem)
                if hit:
                    return hit
        for package in self.js_packages:  # a sibling workspace package, imported by its name
            stems = package.candidates(spec)
            if stems:
                return next((hit for stem in stems if (hit := self._js_file(stem))), None)
        return None

    def _js_file(self, joined: str) -> str | None:
        target = posixpath.normpath(joined)
        if target.startswith(("..", "/")):
            return None
        stems = [target]
        if target.endswith((".js", ".jsx", ".mjs", ".cjs")):  # TS sources imported by their emitted name
            stems.append(target.rsplit(".", 1)[0])
        for stem in stems:
            for candidate in (
                stem,
                *(stem + ext for ext in JS_EXTENSIONS),
                *(f"{stem}/index{ext}" for ext in JS_EXTENSIONS),
            ):
                if candidate in self.paths:
                    return candidate
        return None

    def _go(self, raw: str) -> list[str]:
        for mod_dir, module in self.go_modules.items():
            if raw == module or raw.startswith(module + "/"):
                rel = raw[len(module) :].strip("/")
                directory = posixpath.join(mod_dir, rel) if mod_dir else rel
                return [
                    p
                    for p in self.dirs.get(directory, [])
                    if p.endswith(".go") and not p.endswith("_test.go")
                ]
        return []

    def _rust(self, source: str, raw: str) -> str | None:
        directory = posixpath.dirname(source)
        stem = posixpath.basename(source)[:-3] if source.endswith(".rs") else ""
        module_dir = directory if stem in {"mod", "lib", "main"} else posixpath.join(directory, stem)
        if raw.startswith("mod:"):
            name = raw[4:]
            return self._first([f"{module_dir}/{name}.rs", f"{module_dir}/{name}/mod.rs"])
        path = re.split(r"::\{|::\*", raw.removeprefix("use:"))[0].split("::")
        if not path:
            return None
        if path[0] == "crate":
            base = self._crate_src(source)
        elif path[0] == "self":
            base = module_dir
        elif path[0] == "super":
            base = posixpath.dirname(module_dir)
        else:
            return None
        parts = path[1:]
        for end in range(len(parts), 0, -1):
            stem_path = "/".join([base, *parts[:end]]) if base else "/".join(parts[:end])
            hit = self._first([f"{stem_path}.rs", f"{stem_path}/mod.rs"])
            if hit:
                return hit
        return None

    def _crate_src(self, source: str) -> str:
        parts = source.split("/")
        if "src" in parts:
            return "/".join(parts[: len(parts) - parts[::-1].index("src")])
        return posixpath.dirname(source)

    def _java(self, raw: str, suffixes: tuple[str, ...] = (".java",)) -> list[str]:
        dotted = raw.rstrip(".*").strip()
        if raw.endswith("*"):  # import a.b.*: every class of the package
            folder = dotted.replace(".", "/")
            return sorted(
                p
                for d, files in self.dirs.items()
                if d == folder or d.endswith("/" + folder)
                for p in files
                if p.endswith(suffixes)
            )
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):  # a.b.C.Inner → a/b/C.java
            hits = next(
                (h for suffix in suffixes if (h := self.suffixes.get("/".join(parts[:end]) + suffix))), None
            )
            if hits:
                return hits[:1]
        return []

    def _c(self, source: str, raw: str) -> str | None:
        kind, _, target = raw.partition(":")
        local = posixpath.normpath(posixpath.join(posixpath.dirname(source), target))
        if kind == "quote" and local in self.paths:
            return local
        if kind == "angle" and "/" not in target:
            return None  # <stdio.h>
        hits = self.suffixes.get(target.lstrip("./"), [])
        return min(hits, key=lambda p: (p.count("/"), p)) if hits else None

    def _ruby(self, source: str, raw: str) -> str | None:
        kind, _, target = raw.partition(":")
        target = target if target.endswith(".rb") else target + ".rb"
        if kind == "relative":
            local = posixpath.normpath(posixpath.join(posixpath.dirname(source), target))
            return local if local in self.paths else None
        hits = self.suffixes.get(target.lstrip("./"), [])  # `require "gem/x"` resolves through lib/
        return min(hits, key=lambda p: (not p.startswith("lib/"), p.count("/"), p)) if hits else None

    def _first(self, candidates: list[str]) -> str | None:
        return next((c for c in candidates if c in self.paths), None)


def _only(hit: str | None) -> list[str]:
    return [hit] if hit else []


def _relative_stem(folder: str, module: str) -> str:
    """The path stem a relative module (".sibling", "..pkg.mod", "..") names from a file in `folder`."""
    rest = module.lstrip(".")
    base = folder
    for _ in range(len(module) - len(rest) - 1):  # one folder up per dot after the first
        base = base.rpartition("/")[0]
    parts = rest.split(".")
    if "" in parts:  # ".." alone, or a stray dot
        parts = [p for p in parts if p]
    return "/".join([base, *parts]) if base else "/".join(parts)


def _prefixes(dotted: str) -> list[str]:
    parts = dotted.split(".")
    return [".".join(parts[:end]) for end in range(len(parts), 0, -1)]


def _python_module_index(paths: set[str]) -> dict[str, str]:
    """Dotted module name → file, for every source root (a folder that is not itself a package)."""
    index: dict[str, str] = {}
    packages = {p[: -len("/__init__.py")] for p in paths if p.endswith("/__init__.py")}
    starts: dict[str, int] = {}  # folder → where its modules' names start (the same for all of them)
    for path in sorted((p for p in paths if p.endswith((".py", ".pyi"))), key=lambda p: (p.count("/"), p)):
        parts = path.rsplit(".", 1)[0].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        # climb while the parent folder is a package; the first non-package folder is the source root
        start = len(parts) - 1
        if start > 0:
            folder = "/".join(parts[:start])
            if folder not in starts:
                while start > 0 and "/".join(parts[:start]) in packages:
                    start -= 1
                starts[folder] = start
            start = starts[folder]
        for begin in (start, 0) if start > 0 else (0,):
            name = ".".join(parts[begin:])
            if name and name not in index:
                index[name] = path
    return index


# a module stem's file, in the order Python prefers them: a module, a package, then their stubs
PYTHON_FILE_SUFFIXES = (".py", "/__init__.py", ".pyi", "/__init__.pyi")


def _python_file_index(paths: set[str]) -> dict[str, str]:
    """Module stem ("pkg/sessions", "pkg") → its file, the first of PYTHON_FILE_SUFFIXES present."""
    found: dict[str, tuple[int, str]] = {}
    for path in paths:
        if not path.endswith((".py", ".pyi")):
            continue
        for rank, suffix in enumerate(PYTHON_FILE_SUFFIXES):
            if path.endswith(suffix):
                stem = path[: -len(suffix)]
                if stem not in found or rank < found[stem][0]:
                    found[stem] = (rank, path)
    return {stem: path for stem, (_, path) in found.items()}
