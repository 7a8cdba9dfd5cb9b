"""The reference pages: Configuration (environment variables, config classes and the keyword arguments of
the public entries, each with its default and the line that reads it), Data model (the main records with
their fields, the most used first) and Extension points (abstract base classes with the methods a subclass
provides, protocols, registries), each row a permalink at the revision; no page without content."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.documents.comment import comment_text
from generator.repo.analyze.citations import Linker
from generator.repo.facts import pydeclarations
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import CitedSymbol
from generator.repo.reference import spans as reference_spans
from generator.repo.reference.build import read_reference
from generator.repo.reference.model import FieldLine, Record, Reference
from generator.repo.reference.spans import (
    env_reads,
    field_comment,
    go_defaults,
    interface_methods,
    jsdoc_options,
    struct_fields,
)
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.site.pages.repo_reference import configuration_page, data_model_page
from generator.store import read_page

BLOB = "https://github.com/acme/shop/blob/"
PROJECT = {
    "README.md": "# cachekit\n\nCachekit keeps computed values in pluggable stores.\n",
    "docs/plugins.md": (
        "# Writing a store plugin\n\nSubclass `Store` and implement `get` and `put`, then call `register` with"
        " your class.\n\nTo change how lookups work, subclass `Client` and override `Client.get`.\n"
    ),
    "cachekit/__init__.py": (
        '"""Cachekit."""\n\nfrom .client import Client\nfrom .settings import Settings\n\n'
        '__all__ = ["Client", "Settings"]\n'
    ),
    "cachekit/settings.py": (
        '"""Settings."""\n\nimport os\nfrom dataclasses import dataclass, field\n\n\n@dataclass(frozen=True)\n'
        'class Settings:\n    """How the cache behaves."""\n\n    ttl: int = 300\n'
        '    namespace: str = "default"\n    tags: list[str] = field(default_factory=list)\n\n\n'
        'def cache_dir() -> str:\n    return os.environ.get("CACHEKIT_DIR", "~/.cache/cachekit")\n'
    ),
    "cachekit/records.py": (
        '"""Records."""\n\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Entry:\n'
        '    """One cached value."""\n\n    key: str\n    value: bytes\n    expires: float | None = None\n'
        '    """When the entry stops being served, in seconds since the epoch."""\n'
    ),
    "cachekit/stores.py": (
        '"""Stores."""\n\nfrom abc import ABC, abstractmethod\n\nfrom .records import Entry\n\n_STORES = {}\n\n\n'
        'class Store(ABC):\n    """Where entries are kept."""\n\n    @abstractmethod\n'
        '    def get(self, key: str) -> Entry | None:\n        """The entry of `key`."""\n\n'
        '    @abstractmethod\n    def put(self, entry: Entry) -> None:\n        """Keep `entry`."""\n\n'
        "    def close(self) -> None:\n        return None\n\n\n"
        'def register(name: str, store: type) -> None:\n    """Make a store known by `name`."""\n'
        "    _STORES[name] = store\n"
    ),
    "cachekit/client.py": (
        '"""The client."""\n\nimport os\n\nfrom .records import Entry\nfrom .settings import Settings\n\n\n'
        'class Client:\n    """The cache a program uses."""\n\n'
        '    def __init__(self, store: str = "memory", *, timeout: float = 5.0, settings: Settings | None = None):\n'
        '        self.token = os.getenv("CACHEKIT_TOKEN")\n        self.store = store\n\n'
        "    def get(self, key: str) -> Entry | None:\n        return None\n"
    ),
}
PLAIN = {
    "README.md": "# plain\n\nA tiny tool.\n",
    "plain/__init__.py": '"""Plain."""\n',
    "plain/core.py": '"""Core."""\n\n\ndef add(a, b):\n    """Add."""\n    return a + b\n',
}


def _pages(tmp_path: Path, files: dict[str, str]) -> tuple[Path, str]:
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    target = repo_target(paths, config, str(root))
    result = run_repo_research(paths, config, provider, target, publish=publish_repo)
    return result.study.harvest_dir, result.synthesis.revision


def _configuration(tmp_path: Path, files: dict[str, str]) -> tuple[str, list[str]]:
    """The Configuration page of a repository made of `files`, and its section headings."""
    directory, _ = _pages(tmp_path, files)
    config = read_page(directory / "reference" / "configuration.md")[1]
    return config, [line for line in config.splitlines() if line.startswith("## ")]


def test_reference_pages_list_options_records_and_extension_points(tmp_path: Path) -> None:
    directory, revision = _pages(tmp_path, PROJECT)
    at = f"{BLOB}{revision}/cachekit"
    _, index = read_page(directory / "index.md")
    for name in ("configuration", "data-model", "extension-points"):
        assert f"(reference/{name}.md)" in index
    config = read_page(directory / "reference" / "configuration.md")[1]
    # an environment variable with its default and the line that reads it
    assert (
        f"| `CACHEKIT_DIR` | `'~/.cache/cachekit'` | [cachekit/settings.py:17]({at}/settings.py#L17) |"
        in config
    )
    assert f"| `CACHEKIT_TOKEN` | — | [cachekit/client.py:13]({at}/client.py#L13) |" in config
    # the config class's fields, and the keyword arguments of the entry the package exports
    assert f"| [`ttl`]({at}/settings.py#L11) | `int` | `300` |" in config
    assert f"| [`tags`]({at}/settings.py#L13) | `list[str]` | `list()` |" in config
    assert "## Arguments of `Client`" in config
    assert f"| `timeout` | `float` | `5.0` | [cachekit/client.py:12]({at}/client.py#L12) |" in config
    model = read_page(directory / "reference" / "data-model.md")[1]
    assert "## `Entry`" in model and "*dataclass* in `cachekit/records.py`" in model
    # an attribute docstring says what the field is
    assert "| Field | Type | Default | What it is |" in model
    assert (
        f"| [`expires`]({at}/records.py#L12) | float \\| None | `None` |"
        " When the entry stops being served, in seconds since the epoch. |" in model
    )
    assert f"| [`key`]({at}/records.py#L10) | `str` | — | — |" in model
    assert "## `Settings`" not in model  # a config class is on the Configuration page
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    assert "## How the docs say to extend it" in extend and "Subclass `Store` and implement" in extend
    assert "## `Store`" in extend and "*abstract base class*" in extend
    assert (
        f"- [`get`]({at}/stores.py#L13-L15) — The entry of key." in extend
        and f"- [`put`]({at}/stores.py#L17-L19)" in extend
    )
    assert "close" not in extend  # a method with a body is not one a subclass must provide
    # a class the docs' how-to subclasses, with the method it says to override
    assert "## `Client`" in extend and "*base class the docs subclass*" in extend
    assert f"- [`get`]({at}/client.py#L16-L17)" in extend
    assert extend.index("## `Client`") < extend.index("## `Store`")
    assert "## Registries" in extend and f"[`register`]({at}/stores.py#L25-L27)" in extend


def test_a_test_module_s_own_class_leaves_the_one_the_docs_subclass_unique(tmp_path: Path) -> None:
    """A test module beside the code (`cachekit/test_client.py`, a context file) defining a stand-in
    `Client` is no second library definition of `Client`: the docs' "subclass `Client`" still finds it."""
    stand_in = (
        "class Client:\n    def get(self, key):\n        return None\n\n\ndef test_get():\n    assert True\n"
    )
    directory, revision = _pages(tmp_path, {**PROJECT, "cachekit/test_client.py": stand_in})
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    assert "## `Client`" in extend and "*base class the docs subclass*" in extend
    assert f"- [`get`]({BLOB}{revision}/cachekit/client.py#L16-L17)" in extend


def test_what_a_docstring_says_of_each_argument_and_field_is_on_the_reference_pages(tmp_path: Path) -> None:
    """anyio's `fail_after` documents `:param shield:`, click's `Context` every argument, `TLSListener` its
    fields: the Configuration and Data model tables showed names, types and defaults and never what they are.
    reST fields, Google "Args:"/"Attributes:" and NumPy "Parameters" are read (parsed, never run). (A function
    with fewer than three optional arguments is no place settings are given: `fail_after` takes three here.)"""
    files = {
        "README.md": "# timing\n\nTiming runs work under deadlines.\n",
        "timing/__init__.py": (
            '"""Timing."""\n\nfrom .core import Deadline, fail_after\n\n__all__ = ["Deadline", "fail_after"]\n'
        ),
        "timing/core.py": (
            '"""Deadlines."""\n\nfrom dataclasses import dataclass\n\n\n'
            "def fail_after(\n    delay: float, shield: bool = False, reason: str | None = None, clock: str = 'wall'\n"
            ") -> None:\n"
            '    """\n    Raise when the block runs past `delay`.\n\n    :param delay: seconds allowed\n'
            "    :param shield: ``True`` to shield the scope from outside cancellation\n"
            '    :param reason: what the timeout error says\n    :param clock: the clock it reads\n    """\n\n\n'
            '@dataclass\nclass Deadline:\n    """A point in time work must end by.\n\n    Attributes:\n'
            '        when: the clock reading at which it expires\n    """\n\n    when: float\n    strict: bool = True\n'
        ),
    }
    directory, _ = _pages(tmp_path, files)
    config = read_page(directory / "reference" / "configuration.md")[1]
    assert "| Argument | Type | Default | What it is | Where |" in config
    assert "| `shield` | `bool` | `False` | True to shield the scope from outside cancellation. |" in config
    model = read_page(directory / "reference" / "data-model.md")[1]
    assert "| `float` | — | the clock reading at which it expires. |" in model
    assert "| `bool` | `True` | — |" in model  # `strict` is not documented


def test_a_repository_without_any_has_no_reference_pages(tmp_path: Path) -> None:
    directory, _ = _pages(tmp_path, PLAIN)
    _, index = read_page(directory / "index.md")
    assert "## Reference" not in index
    assert not (directory / "reference").exists() or not list((directory / "reference").glob("*.md"))


def test_a_base_class_raising_the_projects_own_not_implemented_error_is_an_extension_point(
    tmp_path: Path,
) -> None:
    """apispec's `BasePlugin` methods raise `PluginMethodNotImplementedError` (others a
    `NotImplementedException`): the one way its docs tell users to extend it had no Extension points page."""
    files = {
        "README.md": "# tinyspec\n\nTinyspec writes API specifications from the code of an application.\n",
        "tinyspec/__init__.py": '"""Tinyspec."""\n',
        "tinyspec/errors.py": "class PluginMethodNotImplementedError(NotImplementedError):\n    pass\n",
        "tinyspec/plugin.py": (
            "from . import errors\n\n\nclass BasePlugin:\n"
            "    def schema_helper(self, name, definition):\n        '''May return a definition.'''\n"
            "        raise errors.PluginMethodNotImplementedError\n\n    def path_helper(self, path):\n"
            "        raise NotImplementedException('path')\n\n    def done(self):\n        return None\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    assert "BasePlugin" in extend and "schema_helper" in extend and "path_helper" in extend
    assert "`done`" not in extend


def test_a_class_the_docs_subclass_to_override_its_methods_is_an_extension_point_wherever_they_do(
    tmp_path: Path,
) -> None:
    """diskcache's tutorial section "Disk" subclasses `diskcache.Disk` to override `put` and `get`, and
    tortoise's manager page `Manager.get_queryset`: neither page is named for extending, so neither had an
    Extension points page. A model declaring fields (and its own `__str__`) extends nothing."""
    files = {
        "README.md": "# tinycache\n\nTinycache keeps values on disk between the runs of a program.\n",
        "docs/tutorial.md": (
            "# Tutorial\n\n## Models\n\nDeclare what you keep:\n\n```python\nclass Person(tinycache.Model):\n"
            "    name = 'x'\n\n    def __str__(self):\n        return self.name\n```\n\n"
            "## Disk\n\nTo customize serialization, pass a `Disk` subclass to the cache:\n\n"
            "```python\nclass JSONDisk(tinycache.Disk):\n    def __init__(self, directory):\n"
            "        super().__init__(directory)\n\n    def put(self, key):\n        return super().put(key)\n"
            "\nwith Cache(disk=JSONDisk) as cache:\n    pass\n```\n"
        ),
        "tinycache/__init__.py": '"""Tinycache."""\n',
        "tinycache/core.py": (
            "class Disk:\n    '''Serializes keys and values.'''\n\n    def put(self, key):\n        '''Store a key.'''\n"
            "        return key\n\n    def get(self, key):\n        return key\n\n\nclass Model:\n"
            "    '''A record.'''\n\n    def __str__(self):\n        return ''\n\n    def save(self):\n        return self\n"
        ),
    }
    directory, revision = _pages(tmp_path, files)
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    assert "## `Disk`" in extend and "[`put`]" in extend and "[`get`]" not in extend  # what the docs override
    assert "`Model`" not in extend and "class Person" not in extend
    shown = extend.split("## How the docs say to extend it", 1)[1]
    assert shown.index("To customize serialization") < shown.index("class JSONDisk(tinycache.Disk):")
    assert f"{revision}/docs/tutorial.md#L" in shown


def test_a_doctest_subclassing_a_class_to_override_a_method_is_an_extension_point(tmp_path: Path) -> None:
    """cachetools' "Extending cache classes" subclasses `LRUCache` to override `popitem` in a doctest
    (`>>> class MyCache(LRUCache):` / `...     def popitem(self):`, as peewee's and Django REST framework's docs
    do): the prompts hid the class statement, and the project had no Extension points page."""
    files = {
        "README.md": "# tinycache\n\nTinycache keeps computed values.\n",
        "docs/extending.rst": (
            "Extending\n=========\n\nTo see what is evicted, override `popitem`::\n\n"
            "   >>> class MyCache(LRUCache):\n   ...     def popitem(self):\n"
            "   ...         return super().popitem()\n\n   >>> c = MyCache(maxsize=2)\n"
        ),
        "tinycache/__init__.py": '"""Tinycache."""\n\nfrom tinycache.core import LRUCache\n',
        "tinycache/core.py": (
            'class LRUCache:\n    """Least recently used."""\n\n    def popitem(self):\n'
            '        """Remove the least recently used item."""\n        return None\n'
        ),
    }
    directory, _ = _pages(tmp_path, files)
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    assert "## `LRUCache`" in extend and "[`popitem`]" in extend


def test_environment_variables_read_by_prefix_are_one_option(tmp_path: Path) -> None:
    """colly reads every `COLLY_*` variable through `const envVariablePrefix = "COLLY_"`, fsspec every
    `FSSPEC_*` through `key.startswith("FSSPEC_")` in a function reading os.environ: neither names a variable
    whole, so the page listed none. A WSGI request's keys read by prefix (`HTTP_`) are no such family."""
    from generator.repo.model import Symbol
    from generator.repo.reference.spans import env_prefixes

    go = 'package colly\n\nconst envVariablePrefix = "COLLY_"\n\nfunc parse() {\n\tfor _, e := range os.Environ() {}\n}\n'
    assert env_prefixes(go, [Symbol("parse", "function", 5, 7)]) == [("COLLY_", 3)]
    wsgi = 'def headers(environ):\n    return [k for k in environ if k.startswith("HTTP_")]\n'
    assert env_prefixes(wsgi, [Symbol("headers", "function", 1, 2)]) == []
    built = 'def create(req):\n    root = os.environ.get("SCRIPT_NAME", "")\n    key = "HTTP_" + req.name\n'
    assert env_prefixes(built, [Symbol("create", "function", 1, 3)]) == []
    files = {
        **PROJECT,
        "cachekit/env.py": (
            '"""Settings from the environment."""\n\nimport os\n\n\ndef from_env() -> dict:\n'
            '    """Every CACHEKIT_ variable, by its name after the prefix."""\n'
            '    return {k[9:].lower(): v for k, v in os.environ.items() if k.startswith("CACHEKIT_")}\n\n\n'
            "def headers(environ: dict) -> dict:\n"
            '    return {k: v for k, v in environ.items() if k.startswith("HTTP_")}\n'
        ),
    }
    directory, revision = _pages(tmp_path, files)
    config = read_page(directory / "reference" / "configuration.md")[1]
    assert f"| `CACHEKIT_*` | — | [cachekit/env.py:8]({BLOB}{revision}/cachekit/env.py#L8) |" in config
    assert "HTTP_" not in config


def test_python_module_declarations() -> None:
    module = pydeclarations.read_module(
        "import os\nfrom typing import Protocol, ClassVar\nimport attr\n\n"
        "class Hook(Protocol):\n    def run(self) -> None: ...\n    def _private(self): ...\n\n"
        "@attr.s\nclass Job:\n    name = attr.ib(default='x')\n    kind: ClassVar[str] = 'job'\n\n"
        "class Base:\n    def handle(self):\n        '''Handle.'''\n        raise NotImplementedError\n\n"
        "HOME = os.environ['HOME']\n"
        "class Console:\n    def __init__(self):\n        self._environ = os.environ\n"
        "        self.width = self._environ.get('COLUMNS', 80)\n"
        "        self.plain = 'NO_COLOR' in self._environ\n"
    )
    assert module is not None
    hook, job, base, _console = module.classes
    assert [m.name for m in hook.methods] == ["run"] and not hook.hooks
    assert job.record == "attrs class" and [(f.name, f.default) for f in job.fields] == [("name", "'x'")]
    assert [m.name for m in base.hooks] == ["handle"] and not base.abstract
    assert [(e.name, e.default, e.line) for e in module.env] == [  # in the module's order
        ("HOME", "", 19),
        ("COLUMNS", "80", 23),
        ("NO_COLOR", "", 24),
    ]
    # a WSGI request's environ is no environment: werkzeug's, gunicorn's and beaker's Configuration pages had
    # listed HTTP_RANGE, PATH_INFO and wsgi.input as environment variables; `environ` imported from os is
    wsgi = pydeclarations.read_module(
        "import os\n\n\ndef app(environ, start_response):\n"
        "    path = environ.get('PATH_INFO', '')\n    stream = environ['wsgi.input']\n"
        "    if 'HTTP_RANGE' in environ:\n        pass\n    return request.environ.get('HTTP_HOST')\n\n\n"
        "PIN = os.environ.get('TINY_DEBUG_PIN')\nFDS = os.environ.pop('TINY_FD', '')\n"
        "FRESH = 'TINY_PID' not in os.environ\n"
    )
    # (a variable taken out, `pop`, or tested for absence, `not in`, is read too: gunicorn's GUNICORN_FD)
    assert wsgi is not None and [e.name for e in wsgi.env] == ["TINY_DEBUG_PIN", "TINY_FD", "TINY_PID"]
    imported = pydeclarations.read_module("from os import environ\n\nDIR = environ.get('TINY_DIR', '/tmp')\n")
    assert imported is not None and [(e.name, e.default) for e in imported.env] == [("TINY_DIR", "'/tmp'")]
    assert pydeclarations.read_module("def broken(:\n") is None
    # only the spans asked for are parsed (a module that reads no environment variable is never parsed whole)
    spanned = pydeclarations.read_module(
        "class A:\n    x = 1\n\n\nclass B(Protocol):\n    def run(self): ...\n", [(4, 6)]
    )
    assert spanned is not None and [(c.name, c.start) for c in spanned.classes] == [("B", 5)]


def test_environ_imported_from_os_is_found_without_walking_the_whole_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the import of `environ` names it on its own line, so it is among the statements walked for the reads:
    # the rest of a large module is never walked to look for it
    walked: list[ast.AST] = []
    walk = ast.walk

    def spy(node: ast.AST) -> Any:
        walked.append(node)
        return walk(node)

    body = "".join(f"def f{n}(x):\n    return [y * 2 for y in x if y]\n\n\n" for n in range(50))
    text = (
        "def settings():\n    from os import (\n        path,\n        environ,\n    )\n\n"
        "    return environ.get('TINY_HOME', path.sep)\n\n\n" + body
    )
    monkeypatch.setattr(pydeclarations.ast, "walk", spy)
    module = pydeclarations.read_module(text)
    assert module is not None and [(e.name, e.default, e.line) for e in module.env] == [
        ("TINY_HOME", "path.sep", 7)
    ]
    assert not any(isinstance(node, ast.Module) for node in walked)
    # a parameter called environ is still no environment
    wsgi = pydeclarations.read_module("def app(environ):\n    return environ.get('PATH_INFO')\n" + body)
    assert wsgi is not None and wsgi.env == ()


def test_go_and_javascript_spans() -> None:
    struct = [
        "type Options struct {",
        '\tAddr string `json:"addr"`',
        "\tTimeout time.Duration // how long",
        "}",
    ]
    assert struct_fields(struct, "go") == [("Addr", "string", 2), ("Timeout", "time.Duration", 3)]
    assert struct_fields(["interface Opts {", "  port?: number;", "}"], "typescript") == [
        ("port", "number (optional)", 2)
    ]
    # a field's comment says what it is and may state its default (echo's CORSConfig, TSDoc's @default)
    cors = [
        "type CORSConfig struct {",
        "\t// Skipper defines a function to skip middleware.",
        "\tSkipper Skipper",
        "",
        "\t// AllowCredentials determines the value of the",
        "\t// Access-Control-Allow-Credentials response header.",
        "\t//",
        "\t// See also [MDN].",
        "\t//",
        "\t// Optional. Default value false, in which case the header is not set.",
        "\tAllowCredentials bool",
        "\tMaxAge int // MaxAge is how long a preflight is cached. Default: 0 - meaning not sent",
        "\tNoComment int",
        "}",
    ]
    assert [field_comment(cors, at) for _, _, at in struct_fields(cors, "go")] == [
        ("Skipper defines a function to skip middleware.", ""),
        (
            "AllowCredentials determines the value of the Access-Control-Allow-Credentials response header.",
            "false",
        ),
        ("MaxAge is how long a preflight is cached.", "0"),
        ("", ""),
    ]
    retry = [
        "type RetryOptions = {",
        "\t/**",
        "\tHow many times to retry.",
        "",
        "\t@default 2",
        "\t*/",
        "\tlimit: number;",
        "};",
    ]
    assert field_comment(retry, 7) == ("How many times to retry.", "2")
    coded = [
        "interface Options {",
        "  /** When true, connections are validated. @default `true` */",
        "  validate?: boolean",
        "  /**",
        "   * The keys kept.",
        "   * Defaults to `{ a, b }`, in which case both stay.",
        "   */",
        "  keys?: object",
        "}",
    ]
    assert field_comment(coded, 3) == ("When true, connections are validated.", "true")
    assert field_comment(coded, 8) == ("The keys kept.", "{ a, b }")
    linked = [
        "interface WebSocketClientOptions {",
        "  /**",
        "   * Controls what happens when the {@link signal} is aborted; see {@link Migrator | the migrator}.",
        "   * @default {@link exponentialBackoff}",
        "   */",
        "  retryDelayMs?: (attemptIndex: number) => number",
        "}",
    ]
    assert field_comment(linked, 6) == (
        "Controls what happens when the signal is aborted; see the migrator.",
        "exponentialBackoff",
    )
    assert interface_methods(["type Store interface {", "\tGet(key string) []byte", "}"]) == [("Get", 2)]
    assert env_reads('a := os.Getenv("APP_ADDR")\n', "go") == [("APP_ADDR", 1)]
    assert env_reads("x\nconst p = process.env.PORT || process.env['HOST']\n", "javascript") == [
        ("PORT", 2),
        ("HOST", 2),
    ]


def test_a_module_naming_no_environment_read_is_not_scanned_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # most Go and JS/TS modules read no variable: a substring test answers for them before the pattern does
    scanned: list[str] = []

    class Spy:
        def __init__(self, language: str) -> None:
            self.language, self.pattern = language, reference_spans._ENV[language]

        def finditer(self, text: str) -> Any:
            scanned.append(self.language)
            return self.pattern.finditer(text)

    monkeypatch.setattr(
        reference_spans, "_ENV", {language: Spy(language) for language in reference_spans._ENV}
    )
    assert env_reads("func main() {\n\tenv := config.Env()\n}\n", "go") == []
    assert env_reads("const env = options.env ?? 'production'\n", "typescript") == []
    assert env_reads("export const environment = { env: process.argv[2] }\n", "javascript") == []
    assert scanned == []
    assert env_reads('a := os.LookupEnv("APP_ADDR")\n', "go") == [("APP_ADDR", 1)]
    assert env_reads("const p = process.env.PORT\n", "typescript") == [("PORT", 1)]
    assert scanned == ["go", "typescript"]


def test_symbol_lines_read_doc_roles_and_links_on_every_repository_page() -> None:
    # one renderer of a docstring line for every repository page: a Sphinx role is its code, a link its text
    from generator.repo.model import CitedSymbol
    from generator.site.pages.repo_guide import symbol_line

    doc = "Wraps :class:`~pkg.options.Option` for the [Extension][markdown.Extension] API."
    line = symbol_line(CitedSymbol("Flag", "class", "pkg/flags.py", doc))
    assert line.endswith(" — Wraps `Option` for the Extension API.")


def test_braces_inside_a_code_span_are_code_not_a_myst_role() -> None:
    # svelte's docs: `name={name}` stays whole; a role stands right before a code span, outside it
    from generator.site.pages.repo_guide import prose

    text = "When they match (`name={name}`), write `{name}`; {func}`open` opens it."
    assert prose(text) == "When they match \\(`name={name}`\\), write `{name}`; `open` opens it."


def test_a_typescript_object_type_is_a_record_with_its_own_fields_only(tmp_path: Path) -> None:
    """got declares its options as `export type RetryOptions = {…}`: those are its configuration, read
    without the `@example` lines of a field's doc comment or a nested object's fields; a union is none."""
    files = {
        "README.md": "# fetchit\n\nFetchit sends HTTP requests for Node.js programs.\n",
        "package.json": '{"name": "fetchit", "main": "source/index.ts"}\n',
        "source/index.ts": "export {type RetryOptions, type Method} from './options.js';\n",
        "source/options.ts": (
            "export type Method = 'GET' | 'POST';\n\n"
            "/** How failed requests are retried. */\n"
            "export type RetryOptions = {\n"
            "\t/**\n\tHow many times.\n\n\t@example\n\t```\n\tretry: {\n\t\tlimit: 5\n\t}\n\t```\n\t*/\n"
            "\tlimit: number;\n"
            "\tbackoff?: {\n\t\tfactor: number;\n\t};\n"
            "\tmethods: Method[];\n"
            "};\n"
        ),
        "source/settings.ts": (
            "export class Options {\n"
            "\tprivate _retry = {};\n\n"
            "\t/** How failed requests are retried. */\n"
            "\tget retry(): Partial<RetryOptions> {\n\t\treturn this._retry;\n\t}\n\n"
            "\tset retry(value: Partial<RetryOptions>) {\n\t\tthis._retry = value;\n\t}\n\n"
            "\tget ready(): boolean {\n\t\treturn true;\n\t}\n"
            "}\n"
        ),
    }
    assert struct_fields(files["source/options.ts"].splitlines()[3:20], "typescript") == [
        ("limit", "number", 12),
        ("backoff", "{…} (optional)", 13),
        ("methods", "Method[]", 16),
    ]
    extending = ["export interface ChartConfig", "  extends Partial<Base> {", "  showTitle: boolean;", "}"]
    assert struct_fields(extending, "typescript") == [("showTitle", "boolean", 3)]  # its brace comes late
    directory, _ = _pages(tmp_path, files)
    config = read_page(directory / "reference" / "configuration.md")[1]
    assert "## `RetryOptions`" in config and "## `Method`" not in config
    retry = config.split("## `RetryOptions`", 1)[1].split("\n## ", 1)[0]
    assert "`limit`" in retry and "`retry`" not in retry and "`factor`" not in retry
    # a settings class's options are its accessor pairs, typed by the getter; a read-only one is not set
    options = config.split("## `Options`", 1)[1].split("\n## ", 1)[0]
    assert (
        "`retry`" in options
        and "<code>Partial&lt;RetryOptions&gt;</code>" in options
        and "`ready`" not in options
    )


def test_a_typescript_class_declaring_its_fields_is_a_record_of_the_data_model(tmp_path: Path) -> None:
    """superstruct's `Struct` class (type, schema, coercer, validator, refiner, entries), which every struct
    is made of, was on no page, and its `Failure` type lost its `type: string` field; a function-typed field
    whose parameters hold commas is a field too. A class's `_private` state, an error class and a class of
    one field are no records; a field's initial value is its default."""
    files = {
        "README.md": "# checkit\n\nCheckit validates data at runtime.\n",
        "package.json": '{"name": "checkit", "main": "src/index.ts"}\n',
        "src/index.ts": "export { Struct, Failure, CheckError, Counter } from './struct.js';\n",
        "src/struct.ts": (
            "export type Failure = {\n  value: any\n  type: string\n  message: string\n}\n\n"
            "/** `Struct` objects encapsulate the validation logic for a type of values. */\n"
            "export class Struct<T = unknown> {\n  type: string\n  strict: boolean = false\n"
            "  validator: (value: unknown, context: Context) => Iterable<Failure>\n"
            "  entries: (\n    value: unknown\n  ) => Iterable<[string, unknown]>\n  _cache: Map<string, T>\n\n"
            "  constructor(type: string) {\n    this.type = type\n    this._cache = new Map()\n  }\n}\n\n"
            "export class CheckError extends TypeError {\n  value: any\n  key: string\n}\n\n"
            "export class Counter {\n  count: number\n  _last: number\n}\n\n"
            "export type Context = { path: string[] }\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    model = read_page(directory / "reference" / "data-model.md")[1]
    failure = model.split("## `Failure`", 1)[1].split("\n## ", 1)[0]
    assert "[`type`]" in failure
    struct = model.split("## `Struct`", 1)[1].split("\n## ", 1)[0]
    assert "encapsulate the validation logic" in struct
    fields = [
        line.split("]", 1)[0].removeprefix("| [") for line in struct.splitlines() if line.startswith("| [")
    ]
    assert fields == ["`type`", "`strict`", "`validator`", "`entries`"]
    assert "| `boolean` | `false` |" in struct  # `strict: boolean = false`
    assert "## `CheckError`" not in model and "## `Counter`" not in model


def test_a_crate_s_feature_flags_section_is_what_its_docs_say_about_configuring_it() -> None:
    """log's "Crate Feature Flags", axum's and libsql's "Feature flags", mdBook's "Cargo features": the build
    options a user sets, quoted on the Configuration page; a README's "Features" (what it does) is not."""
    from generator.repo.docs.model import DocConcept, DocPage, DocPassage, ProjectDocs
    from generator.repo.reference.build import _CONFIG_DOC, doc_passages

    def concept(title: str, text: str) -> DocConcept:
        passage = DocPassage("src/lib.rs", 1, 1, "paragraph", text, title)
        return DocConcept(title, title.lower(), (DocPage("src/lib.rs", title, (passage,)),))

    docs = ProjectDocs(
        root="",
        files=1,
        concepts=(
            concept("Features", "Fast, small and safe."),
            concept("Crate Feature Flags", "max_level_info disables debug and trace logs at compile time."),
        ),
    )
    assert [p.text for p in doc_passages(docs, _CONFIG_DOC)] == [
        "max_level_info disables debug and trace logs at compile time."
    ]


def test_a_project_whose_options_are_hash_keys_has_a_configuration_page_from_its_docs(tmp_path: Path) -> None:
    """grape's README "Configuration" and guzzle's "Request Options" page say what a user sets, as keys of a
    hash or constants the code reads nowhere as a config class: no Configuration page had been written."""
    directory, _ = _pages(
        tmp_path,
        {
            **PLAIN,
            "docs/request-options.md": (
                "# Request Options\n\nYou can customize requests created by a client using request options.\n\n"
                "## timeout\n\nFloat describing the total timeout of the request in seconds; 0 waits for ever.\n"
            ),
        },
    )
    _, index = read_page(directory / "index.md")
    assert "[Configuration](reference/configuration.md)" in index
    _, page = read_page(directory / "reference" / "configuration.md")
    assert "Float describing the total timeout of the request in seconds" in page
    assert "the environment variables the code reads" not in page  # it reads none: the lead does not say so


def test_the_go_options_a_first_example_fills_come_first_on_the_configuration_page(tmp_path: Path) -> None:
    """go-redis' quick start fills `&redis.Options{Addr: …}` and go-plugin's `&plugin.ClientConfig{…}`: no
    example calls them, so they stood among dozens of option structs in alphabetical order (go-redis' at
    the 20th place of 49, after AutoPipelineOptions, ClusterOptions …)."""
    files = {
        "go.mod": "module example.com/tiny\n\ngo 1.21\n",
        "README.md": (
            "# tiny\n\nTiny is a client for the tiny protocol, with pooling and retries built in.\n\n"
            '## Quickstart\n\n```go\nrdb := tiny.NewClient(&tiny.Options{\n    Addr: "localhost:6379",\n})\n'
            "rdb.Ping(ctx)\n```\n"
        ),
        "client.go": (
            "package tiny\n\n// Client talks to a server.\ntype Client struct {\n\topt *Options\n}\n\n"
            "// NewClient returns a client.\nfunc NewClient(opt *Options) *Client { return &Client{opt: opt} }\n\n"
            "// Ping checks the server.\nfunc (c *Client) Ping(ctx any) error { return nil }\n"
        ),
        "options.go": (
            "package tiny\n\n// Options of a client.\ntype Options struct {\n\t// Addr is host:port.\n\tAddr string\n"
            "\t// DB is the database.\n\tDB int\n}\n"
        ),
        "cluster.go": (
            "package tiny\n\n// AutoPipelineOptions of batching.\ntype AutoPipelineOptions struct {\n"
            "\tMaxBatch int\n\tMaxDelay int\n\tMaxQueued int\n}\n\n"
            "// ClusterOptions of a cluster client.\ntype ClusterOptions struct {\n\tAddrs []string\n\tMaxRedirects int\n"
            "\tReadOnly bool\n}\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    config = read_page(directory / "reference" / "configuration.md")[1]
    headings = [line for line in config.splitlines() if line.startswith("## `")]
    assert headings[0] == "## `Options`" and "## `ClusterOptions`" in headings


def test_a_go_records_defaults_come_from_the_literal_its_package_names_for_defaults(tmp_path: Path) -> None:
    """bbolt's `var DefaultOptions = &Options{Timeout: 0, NoGrowSync: false, FreelistType: …}` (fiber's
    `ConfigDefault`, echo's `DefaultCSRFConfig`, bigcache's `DefaultConfig()`): the Options table showed "—"
    for every default. A comment stating a default still wins; a function literal is no default to show."""
    files = {
        "go.mod": "module example.com/tiny\n\ngo 1.21\n",
        "README.md": "# tiny\n\nTiny is an embedded key/value store kept in a single file on disk.\n",
        "db.go": (
            "package tiny\n\n// Options of a database.\ntype Options struct {\n\t// Timeout to wait for the lock.\n"
            "\tTimeout int\n\t// PageSize of the file. Default: 4096\n\tPageSize int\n\tReadOnly bool\n"
            "\tOnOpen func()\n}\n\n// DefaultOptions are used when none are given.\nvar DefaultOptions = &Options{\n"
            "\tTimeout:  30,\n\tPageSize: 8192,\n\tOnOpen: func() {\n\t\tprintln(1)\n\t},\n}\n\n"
            "// Open opens a database.\nfunc Open(path string, o *Options) error { return nil }\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    config = read_page(directory / "reference" / "configuration.md")[1]
    rows = {
        line.split("`")[1]: line.split("|")[3].strip()
        for line in config.splitlines()
        if line.startswith("| [`")
    }
    assert rows == {
        "Timeout": "`30`",
        "PageSize": "`4096`",
        "ReadOnly": "—",
        "OnOpen": "—",
    }  # the comment's 4096


def test_the_client_the_quick_start_calls_leads_though_its_async_twin_shares_its_name(tmp_path: Path) -> None:
    """redis-py defines `Redis` in redis/client.py and again in redis/asyncio/client.py (falcon its `App`,
    kombu its `Connection`, werkzeug its `Request`): the quick start's `redis.Redis(host=…)` named two
    definitions, was left out as ambiguous, and a tracing config class led the Configuration page, with an
    exception's `__init__` arguments (`ConnectionError`) listed as options before `Redis`'s."""
    client = (
        '"""The client."""\n\n\nclass Client:\n    """A connection to a kvlite server."""\n\n'
        '    def __init__(self, host: str = "localhost", port: int = 7000, timeout: float = 5.0):\n'
        "        self.host = host\n\n    def get(self, key: str) -> bytes:\n        return b''\n"
    )
    files = {
        "README.md": (
            "# kvlite\n\nKvlite is a client for the kvlite key-value server.\n\n## Quickstart\n\n"
            '```python\nimport kvlite\n\nc = kvlite.Client(host="db", port=7000)\nc.get("k")\n```\n'
        ),
        "kvlite/__init__.py": (
            '"""Kvlite."""\n\nfrom kvlite.client import Client\nfrom kvlite.errors import KvError\n'
            "from kvlite.tracing import TraceConfig\n"
        ),
        "kvlite/client.py": client,
        "kvlite/aio/__init__.py": '"""Asyncio."""\n\nfrom kvlite.aio.client import Client\n',
        "kvlite/aio/client.py": client.replace("def get", "async def get"),
        "kvlite/errors.py": (
            '"""Errors."""\n\n\nclass KvError(Exception):\n    """A failed command."""\n\n'
            '    def __init__(self, message: str = "", retry: bool = False):\n        super().__init__(message)\n'
        ),
        "kvlite/tracing.py": (
            '"""Tracing."""\n\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass TraceConfig:\n'
            '    """What the tracer records."""\n\n    commands: bool = True\n    payloads: bool = False\n'
        ),
    }
    config, headings = _configuration(tmp_path, files)
    assert headings[0] == "## Arguments of `Client`", headings
    assert "kvlite/client.py:7" in config and "kvlite/aio/client.py" not in config
    assert "KvError" not in config and "`retry`" not in config
    assert "## `TraceConfig`" in headings


def test_a_record_defined_again_with_the_same_fields_is_shown_once(tmp_path: Path) -> None:
    """redis-py's `Redis`, `Pipeline`, `ConnectionPool`, `Lock` … are defined in redis/ and again in
    redis/asyncio/ with the same fields: eight of the Data model page's first twenty sections were twins.
    A record sharing only its name (a `Config` of another shape) keeps a section of its own."""
    pool = (
        '"""Pools."""\n\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Pool:\n'
        '    """Connections kept open."""\n\n    size: int = 10\n    timeout: float = 5.0\n    host: str = "localhost"\n'
    )
    lock = (
        '"""Locks."""\n\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Lock:\n'
        '    """A lock held on the server."""\n\n    name: str = ""\n    timeout: float = 1.0\n'
    )
    files = {
        "README.md": "# kvlite\n\nKvlite is a client for the kvlite key-value server.\n",
        "kvlite/__init__.py": '"""Kvlite."""\n\nfrom kvlite.pool import Pool\n',
        "kvlite/pool.py": pool,
        "kvlite/aio/__init__.py": '"""Asyncio."""\n\nfrom kvlite.aio.pool import Pool\n',
        "kvlite/aio/pool.py": pool.replace("    host: str", "    loop: object = None\n    host: str"),
        "kvlite/stats.py": (
            '"""Stats."""\n\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Pool:\n'
            '    """A pool of counters."""\n\n    hits: int = 0\n    misses: int = 0\n'
        ),
        "kvlite/lock.py": lock,
        "kvlite/aio/lock.py": lock,
        "kvlite/guards/csrf/config.py": lock.replace("Lock", "Config").replace(
            "A lock held", "CSRF guarding"
        ),
        "kvlite/guards/session/config.py": lock.replace("Lock", "Config").replace("A lock held", "Sessions"),
        "kvlite/client.py": (
            '"""Client."""\n\nfrom kvlite.aio.pool import Pool as AioPool\nfrom kvlite.pool import Pool\n'
            "from kvlite.lock import Lock\nfrom kvlite.aio.lock import Lock as AioLock\n"
            "from kvlite.guards.csrf.config import Config\nfrom kvlite.guards.session.config import Config as S\n"
            "from kvlite.stats import Pool as Counters\n\n\ndef connect(pool: Pool, counters: Counters) -> None:\n"
            "    return None\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    model = read_page(directory / "reference" / "data-model.md")[1]
    headings = [line for line in model.splitlines() if line.startswith("## ")]
    assert sorted(headings) == [
        "## `Lock`",
        "## `Pool` in `kvlite/pool.py`",
        "## `Pool` in `kvlite/stats.py`",
    ]
    assert "Defined again, with mostly the same fields, in `kvlite/aio/pool.py`." in model
    assert "Defined again, with mostly the same fields, in `kvlite/aio/lock.py`." in model  # the nearer leads
    assert model.count("Defined again") == 2
    config = read_page(directory / "reference" / "configuration.md")[1]
    assert "## `Config` in `kvlite/guards/csrf/config.py`" in config  # two packages' own, alike or not
    assert "## `Config` in `kvlite/guards/session/config.py`" in config and "Defined again" not in config


# a record class whose decorator sits on the line above (its span starts there), a constant a page shows
# (`__all__`: a span that declares nothing), and a module read whole because it names the environment
HANDED = {
    **PROJECT,
    "cachekit/limits.py": (
        '"""Limits."""\n\nfrom dataclasses import dataclass\n\n__all__ = ["Limits", "DEFAULT"]\n\n'
        "DEFAULT = 3\n\n\n@dataclass(\n    frozen=True,\n)\nclass Limits:\n    size: int = DEFAULT\n"
    ),
}


def test_the_reference_parses_no_module_the_facts_stage_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What each Python module declares is read from the syntax tree the facts stage parsed for its calls:
    the reference stage parses none of them again, and finds what it found by parsing them itself."""
    root = make_project(tmp_path / "shop", HANDED)
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/shop")
    parsed: list[str] = []
    parse = ast.parse

    def counted(source: str, *args: object, **kwargs: object) -> ast.Module:
        parsed.append(source)
        return parse(source, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(ast, "parse", counted)
        handed = read_reference(root, repo_map, facts, linker)
    assert parsed == []
    assert {r.symbol.name for r in handed.records} >= {"Entry", "Limits"}
    assert {o.name for o in handed.options} >= {"CACHEKIT_DIR", "CACHEKIT_TOKEN"}
    assert read_reference(root, repo_map, replace(facts, declarations={}), linker) == handed


def test_declarations_from_the_facts_tree_are_those_parsed_alone() -> None:
    """A module read from the facts stage's tree declares what parsing its spans alone declares: also where
    `ast` and `str.splitlines` count its lines apart (a form feed, a carriage return) or `ast` refuses it
    whole (a byte-order mark), and for a span that is no statement of the tree."""
    body = "@dataclass\nclass A(Protocol):\n    x: int = 1\n    def run(self): ...\n\n\ndef go(a=1): ...\n"
    for text in (body, "\x0c" + body, body.replace("\n", "\r\n"), "\ufeff" + body, "import os\n" + body):
        tree = ast.parse(text.removeprefix("\ufeff"))
        for spans in ([(1, 4), (7, 7)], [(2, 4)], [(1, 3)], None):
            alone = pydeclarations.read_module(text, spans)
            assert pydeclarations.read_module(text, spans, tree) == alone, (text, spans)


def test_two_records_of_one_name_are_told_apart_by_their_files() -> None:
    """falcon's WSGI and ASGI `Request`, redis-py's `DatabaseConfig` and its asyncio twin: the Data model and
    Configuration pages had two sections headed `Request`, and a link to the name led to the first."""

    def record(name: str, path: str, field: str = "url") -> Record:
        return Record(CitedSymbol(name, "class", path), "dataclass", (FieldLine(field, "str", "", None),))

    twins = (record("Request", "falcon/request.py"), record("Request", "falcon/asgi/request.py", "scope"))
    linker = Linker({}, "r" * 40, "https://github.com/acme/web")
    page = data_model_page(
        Reference(records=(*twins, record("Response", "falcon/response.py"))), "a/web", linker
    )
    assert [str(p.heading) for p in page.parts] == [
        "`Request` in `falcon/request.py`",
        "`Request` in `falcon/asgi/request.py`",
        "`Response`",
    ]
    settings = configuration_page(Reference(settings=twins, started=("Request",)), "a/web", linker)
    assert [str(p.heading) for p in settings.parts] == [
        "`Request` in `falcon/request.py`",
        "`Request` in `falcon/asgi/request.py`",
    ]


def test_an_options_object_documented_in_jsdoc_is_the_entry_s_configuration(tmp_path: Path) -> None:
    """restify documents `createServer`'s options property by property (`@param {Boolean}
    [options.strictNext=false] - Throws error …`): it had no Configuration page at all. A method's options
    object (its router's `add(opts)`) is the machinery's."""
    server = (
        "'use strict';\n\n/**\n * Creates a server.\n *\n * @param {Object} [options] - an options object\n"
        ' * @param {String} [options.name="web"] - Name of the server.\n'
        " * @param {Boolean} [options.strictNext=false] - Throws error when next() is\n"
        " * called more than once.\n * @param {Object} [options.log] - A logger.\n * @returns {Server} server\n */\n"
        "function createServer(options) {\n    return new Server(options);\n}\n\n"
        "class Server {\n    /**\n     * @param {Object} opts - route\n     * @param {String} opts.name - name\n"
        "     * @param {String} opts.path - path\n     */\n    add(opts) {\n        return opts;\n    }\n}\n\n"
        "module.exports.createServer = createServer;\n"
    )
    directory, _ = _pages(
        tmp_path,
        {
            "README.md": "# web\n\nA REST framework.\n",
            "package.json": '{"name": "web"}\n',
            "lib/index.js": server,
        },
    )
    _, page = read_page(directory / "reference" / "configuration.md")
    assert "## `createServer`" in page
    assert '/lib/index.js#L7) | `String` | `"web"` | Name of the server. |' in page
    assert "#L8) | `Boolean` | `false` | Throws error when next\\(\\) is called more than once. |" in page
    assert "Server.add" not in page and "`path`" not in page
    assert spans_jsdoc_lines(server) == [("name", 7), ("strictNext", 8), ("log", 10)]
    # a default holding brackets of its own (hono's cors: `[options.allowHeaders=[]]`) is read whole
    cors = [
        "/**",
        " * @param {string[]} [options.allowMethods=['GET', 'HEAD']] - The methods.",
        " * @param {string[]} [options.allowHeaders=[]] - The headers.",
        " */",
        "export const cors = (options) => {",
    ]
    assert [(n, d, said) for n, _, d, _, said in jsdoc_options(cors, 5)] == [
        ("allowMethods", "['GET', 'HEAD']", "The methods."),
        ("allowHeaders", "[]", "The headers."),
    ]


def spans_jsdoc_lines(text: str) -> list[tuple[str, int]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines, 1) if line.startswith("function createServer"))
    return [(name, line) for name, _, _, line, _ in jsdoc_options(lines, start)]


def test_a_go_struct_of_one_thing_s_options_is_configuration_read_in_english(tmp_path: Path) -> None:
    """gws' `ServerOption` and `ClientOption` are what a user fills (`gws.NewUpgrader(&Handler{},
    &gws.ServerOption{…})`); named in the singular they were read as data, not settings, and each field's
    comment said it twice, in Chinese then in English. An unexported field is none a user sets."""
    option = (
        "package ws\n\n// ServerOption configures a server.\ntype ServerOption struct {\n"
        "\t// 配置\n\t// Configuration\n\tconfig *Config\n\n"
        "\t// 读缓冲区的大小\n\t// Size of the read buffer\n\tReadBufferSize int\n\n"
        "\t// 是否启用并行处理\n\t// Whether parallel processing is enabled\n\tParallelEnabled bool\n}\n\n"
        "type Config struct {\n\tsize int\n}\n\n"
        "// NewUpgrader makes an upgrader.\nfunc NewUpgrader(option *ServerOption) *Config {\n"
        "\treturn &Config{size: option.ReadBufferSize}\n}\n"
    )
    directory, _ = _pages(
        tmp_path,
        {"README.md": "# ws\n\nA WebSocket library.\n", "go.mod": "module ws\n", "option.go": option},
    )
    _, page = read_page(directory / "reference" / "configuration.md")
    assert "## `ServerOption`" in page
    assert "| `int` | — | Size of the read buffer. |" in page
    assert "| `bool` | — | Whether parallel processing is enabled. |" in page
    assert "`config`" not in page and "读" not in page


def test_an_unexported_go_defaults_value_gives_its_record_s_defaults() -> None:
    # machinery's `defaultCnf = &Config{…}`, thanos' `defaultMemcachedClientConfig`, kueue's `var defaultOptions`,
    # karmada's `func defaultJobInitOptions()`: their Configuration pages showed no default at all
    lines = [
        "var (",
        "\tdefaultCnf = &Config{",
        '\t\tBroker: "amqp://guest:guest@localhost:5672/",',
        "\t\tResultsExpireIn: 3600,",
        "\t}",
        ")",
        "",
        "func defaultJobInitOptions() *InitOptions {",
        "\treturn &InitOptions{",
        '\t\tNamespace: "karmada-system",',
        "\t}",
        "}",
    ]
    assert go_defaults(lines) == {
        "Config": {"Broker": '"amqp://guest:guest@localhost:5672/"', "ResultsExpireIn": "3600"},
        "InitOptions": {"Namespace": '"karmada-system"'},
    }


def test_a_go_record_s_constructor_or_init_gives_its_defaults() -> None:
    # paho.mqtt's `NewClientOptions()` and zinx's `init()` build the record a user adjusts, with the values it
    # starts from; a constructor's parameter is passed through and a value it computes is no default, and a
    # constructor of another record (`NewServer` building a `Config`) is not the record's
    lines = [
        "func NewClientOptions(broker string) *ClientOptions {",
        "\to := &ClientOptions{",
        "\t\tBroker: broker,",
        "\t\tKeepAlive: 30, // seconds",
        "\t\tPingTimeout: 10 * time.Second,",
        "\t\tStarted: time.Now().UnixNano(),",
        "\t}",
        "\treturn o",
        "}",
        "",
        "func init() {",
        "\tGlobalObject = &Config{",
        '\t\tName: "ZinxServerApp",',
        "\t\tMaxConn: 12000,",
        "\t}",
        "}",
        "",
        "func NewServer(name string) *Server {",
        "\tc := &Config{",
        "\t\tMaxConn: 1,",
        "\t}",
        "}",
    ]
    assert go_defaults(lines) == {
        "ClientOptions": {"KeepAlive": "30", "PingTimeout": "10 * time.Second"},
        "Config": {"Name": '"ZinxServerApp"', "MaxConn": "12000"},
    }


def test_a_go_function_keeping_the_function_it_is_passed_is_where_a_user_plugs_in(tmp_path: Path) -> None:
    """melody's `HandleMessage(fn func(*Session, []byte))` keeps `fn` in a field, redcon's `HandleFunc` in a
    map: where a user's code plugs in, listed with the registries. A function calling the one it is passed
    there and then (`View(fn)`) keeps nothing."""
    hub = (
        "package hub\n\n// Hub relays messages.\ntype Hub struct {\n\tonMessage func(string)\n"
        "\thandlers map[string]HandlerFunc\n}\n\n// HandlerFunc handles one command.\ntype HandlerFunc func(string)\n\n"
        "// HandleMessage sets the function called with each message.\n"
        "func (h *Hub) HandleMessage(fn func(msg string)) {\n\th.onMessage = fn\n}\n\n"
        "// Handle routes a command to a handler.\n"
        "func (h *Hub) Handle(command string, handler HandlerFunc) {\n\th.handlers[command] = handler\n}\n\n"
        "// HandleFunc routes a command to a function.\n"
        "func (h *Hub) HandleFunc(command string, handler func(string)) {\n"
        "\th.Handle(command, HandlerFunc(handler))\n}\n\n"
        "func (q *queue) Add(fn func(string)) {\n\tq.items = append(q.items, fn)\n}\n\n"
        '// View runs fn at once.\nfunc (h *Hub) View(fn func(string)) {\n\tfn("now")\n}\n'
    )
    directory, _ = _pages(
        tmp_path, {"README.md": "# hub\n\nA message hub.\n", "go.mod": "module hub\n", "hub.go": hub}
    )
    _, page = read_page(directory / "reference" / "extension-points.md")
    registries = page.split("## Registries", 1)[1]
    assert all(f"`Hub.{name}`" in registries for name in ("HandleMessage", "Handle", "HandleFunc"))
    # … nor is a function called there and then, or a method of an unexported type
    assert "`Hub.View`" not in page and "`queue.Add`" not in page


def test_the_options_a_javascript_entry_reads_are_its_configuration(tmp_path: Path) -> None:
    """morgan's `morgan(format, options)` documents only `[options]` and reads `opts.immediate`, `opts.skip ||
    false`, `opts.stream || process.stdout` off `var opts = options || {}`: it had no Configuration page. A
    class's constructor reads its config the same way (`const { root = 'jobs' } = config`); one property read
    off a parameter is a value, not options."""
    logger = (
        "'use strict'\n\n/**\n * Create a logger middleware.\n *\n * @param {Object} [options]\n */\n"
        "function logger (format, options) {\n  var opts = options || {}\n"
        "  var immediate = opts.immediate\n  var skip = opts.skip || false // skip nothing\n"
        "  var stream = opts.stream || process.stdout\n  return function (req) { stream.write(req.url) }\n}\n\n"
        "class Scheduler {\n  constructor (config) {\n    const { root = 'jobs', timeout } = config\n"
        "    this.interval = config.interval ?? 0\n  }\n}\n\n"
        "function pick (options) {\n  return options.name\n}\n\n"
        # p-retry's defaults, each set where it is missing: `options.retries ??= 10`
        "function retry (input, options = {}) {\n  options = {...options}\n  options.retries ??= 10\n"
        "  options.randomize ||= false\n  return input(options.retries, options.randomize)\n}\n\n"
        "module.exports = logger\nmodule.exports.Scheduler = Scheduler\nmodule.exports.pick = pick\n"
        "module.exports.retry = retry\n"
    )
    directory, _ = _pages(
        tmp_path,
        {
            "README.md": "# weblog\n\nA request logger.\n",
            "package.json": '{"name": "weblog"}\n',
            "index.js": logger,
        },
    )
    _, page = read_page(directory / "reference" / "configuration.md")
    assert "## `logger`" in page and "## `Scheduler`" in page and "`pick`" not in page
    assert "/index.js#L11) | `false` |" in page and "/index.js#L12) | `process.stdout` |" in page
    assert "/index.js#L18) | `'jobs'` |" in page and "/index.js#L19) | `0` |" in page
    assert "| Field | Default |" in page  # no Type column: JavaScript reads them untyped
    retry = page.split("## `retry`", 1)[1]
    assert "/index.js#L29) | `10` |" in retry and "/index.js#L30) | `false` |" in retry


def test_the_defaults_a_javascript_entry_spreads_its_options_over_are_its_configuration(
    tmp_path: Path,
) -> None:
    """bree's constructor sets `this.config = { logger: console, root: resolve('jobs'), timeout: 0, …, ...config }`
    with a comment above each key, then reads `this.config.timezone`: its Configuration page listed the seven
    keys it reads again, each without a default, and never the others. The defaults object is the list, each key
    with its value and its comment's first paragraph (not the example after it); bull's `obliterate` passes
    `{ force: false, count: 1000, ...opts }` on."""
    scheduler = (
        "const { resolve } = require('path')\n\nclass Scheduler {\n  constructor(config) {\n    this.config = {\n"
        "      // Set this to `false` to prevent requiring a root directory of jobs\n"
        "      root: resolve('jobs'),\n      // Default timeout for jobs\n      timeout: 0,\n"
        "      jobs: [],\n      //\n      // if you set this to `true`, a second arg is passed to log output\n"
        "      //\n      // logger.info('...', {\n      //   worker: {}\n      // });\n"
        "      //\n      outputMetadata: false,\n      ...config\n    };\n"
        "    if (this.config.timezone) this.zone = this.config.timezone\n  }\n}\n\n"
        "function obliterate(queue, opts) {\n  return queue.run({\n    force: false,\n    count: 1000,\n"
        "    ...opts\n  });\n}\n\nmodule.exports = Scheduler\nmodule.exports.obliterate = obliterate\n"
    )
    directory, _ = _pages(
        tmp_path,
        {
            "README.md": "# jobs\n\nA job scheduler.\n",
            "package.json": '{"name": "jobs"}\n',
            "index.js": scheduler,
        },
    )
    _, page = read_page(directory / "reference" / "configuration.md")
    scheduler_part = page.split("## `Scheduler`", 1)[1].split("## ", 1)[0]
    assert "/index.js#L7) | `resolve('jobs')` | Set this to `false` to prevent requiring" in scheduler_part
    assert "/index.js#L9) | `0` | Default timeout for jobs |" in scheduler_part
    assert "| `[]` | — |" in scheduler_part and "`timezone`" in scheduler_part
    assert "second arg is passed to log output |" in scheduler_part and "logger.info" not in scheduler_part
    obliterated = page.split("## `obliterate`", 1)[1]
    assert "| `false` |" in obliterated and "| `1000` |" in obliterated


def test_the_few_optional_arguments_of_a_library_function_are_no_configuration(tmp_path: Path) -> None:
    """funcy's Configuration page listed `some(pred, seq=EMPTY)`, `autocurry(func, n=EMPTY)`, `wraps(…,
    assigned=…, updated=…)` (more-itertools' `nth`, `first_true`, boltons' `namedtuple` likewise): what a call
    operates on, not what a user sets a library up with. A class's constructor arguments stay, however few
    (cachetools' `LRUCache(maxsize)`), as does a function taking several (`connect`'s)."""
    files = {
        "README.md": "# seqkit\n\nSeqkit is a set of small functions for sequences.\n",
        "seqkit/__init__.py": (
            '"""Seqkit."""\n\nfrom seqkit.seqs import first, nth, window, connect\nfrom seqkit.cache import Cache\n'
        ),
        "seqkit/seqs.py": (
            '"""Sequences."""\n\n\ndef first(seq, default=None):\n    """The first item."""\n'
            "    return next(iter(seq), default)\n\n\n"
            'def nth(seq, n, default=None, strict=False):\n    """The n-th item."""\n    return default\n\n\n'
            'def window(seq, size=2):\n    """Sliding windows."""\n    return []\n\n\n'
            'def connect(url, timeout=5.0, retries=3, pool_size=10):\n    """A connection to `url`."""\n'
            "    return url\n"
        ),
        "seqkit/cache.py": (
            '"""Caches."""\n\n\nclass Cache:\n    """Values kept in memory."""\n\n'
            "    def __init__(self, maxsize=128):\n        self.maxsize = maxsize\n"
        ),
    }
    config, headings = _configuration(tmp_path, files)
    assert "## Arguments of `connect`" in headings and "## Arguments of `Cache`" in headings, headings
    for function in ("first", "nth", "window"):
        assert f"## Arguments of `{function}`" not in headings, headings


def test_the_named_only_options_of_the_function_the_examples_start_with_are_configuration(
    tmp_path: Path,
) -> None:
    """anyio's Configuration page left out `run(func, *args, backend="asyncio", backend_options=None)`, how a
    program chooses its event loop: two optional arguments look like an operation's, and the examples' `run`
    was not counted, being defined in a submodule (`src/anyio/_core/_eventloop.py`) that the top package
    re-exports. Arguments a caller can give by name only, of a function the examples call and the top
    re-exports, are settings; a function the examples call with a positional optional one is not."""
    files = {
        "README.md": (
            "# loopkit\n\nLoopkit runs coroutines on an event loop.\n\n"
            "```python\nfrom loopkit import run, first\n\nasync def main():\n    return first([1])\n\n"
            "run(main)\n```\n"
        ),
        "src/loopkit/__init__.py": '"""Loopkit."""\n\nfrom ._core._loop import run\nfrom ._core._seqs import first\n',
        "src/loopkit/_core/__init__.py": "",
        "src/loopkit/_core/_loop.py": (
            '"""The event loop."""\n\n\ndef run(func, *args, backend="asyncio", backend_options=None):\n'
            '    """Run `func` on the event loop of `backend`."""\n    return func(*args)\n'
        ),
        "src/loopkit/_core/_seqs.py": (
            '"""Sequences."""\n\n\ndef first(seq, default=None):\n    """The first item."""\n'
            "    return next(iter(seq), default)\n"
        ),
    }
    config, headings = _configuration(tmp_path, files)
    assert headings[0] == "## Arguments of `run`", headings
    assert "`backend_options`" in config and "## Arguments of `first`" not in headings


def test_the_docs_how_to_for_extending_it_is_an_extension_points_page_of_its_own(tmp_path: Path) -> None:
    """bree installs a plugin with `Bree.extend(plugin, options)`, a name no registry goes by, and its README's
    "Plugins" section says so: the project had no Extension points page, though a Configuration page shows its
    docs alone. A page on "extended" something (funcy's `extended_fns.rst`, "Extended function semantics") is
    not about extending the project."""
    files = {
        "README.md": "# jobber\n\nJobber runs jobs on a schedule.\n",
        "docs/usage.md": (
            "# Usage\n\nCreate a scheduler with its jobs, then start it.\n\n```js\nconst Jobber ="
            " require('jobber');\nconst jobber = new Jobber({ jobs: ['report'] });\njobber.start();\n```\n"
        ),
        "docs/extended_jobs.md": (
            "# Extended job semantics\n\nA job given as a string is read as the name of a file in the jobs"
            " folder, and a job given as a function is run as it is.\n"
        ),
        "docs/plugins.md": (
            "# Plugins\n\nPlugins can be added to Jobber with one call, once each.\n\n"
            "```js\nJobber.extend(plugin, options);\n```\n\n"
            "A plugin is a function that receives the options and the `Jobber` class.\n"
        ),
        "package.json": '{"name": "jobber", "main": "src/index.js"}\n',
        "src/index.js": (
            "class Jobber {\n  constructor(config) {\n    this.jobs = config.jobs;\n  }\n\n"
            "  start() {\n    return this.jobs.length;\n  }\n}\n\n"
            "Jobber.extend = (plugin, options) => {\n  plugin(options, Jobber);\n  return Jobber;\n};\n\n"
            "module.exports = Jobber;\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    _, index = read_page(directory / "index.md")
    assert "(reference/extension-points.md)" in index
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    assert "## How the docs say to extend it" in extend
    assert "Jobber.extend(plugin, options);" in extend
    assert "Extended job semantics" not in extend and "jobs folder" not in extend


def test_the_events_a_javascript_class_emits_are_extension_points(tmp_path: Path) -> None:
    """bree's scheduler emits `worker created` and `worker deleted`, p-queue's `active`, `idle`, `empty`: what a
    user's code listens to with `.on(event, listener)`, the hooks of an event emitter, which the Extension
    points page never listed. A prototype method's events are its constructor's; one event alone (`error`)
    lists nothing."""
    files = {
        "README.md": "# jobber\n\nJobber runs jobs on a schedule.\n",
        "package.json": '{"name": "jobber", "main": "src/index.js"}\n',
        "src/index.js": (
            "import { EventEmitter } from 'node:events';\nimport util from 'util';\n\n"
            "export class Jobber extends EventEmitter {\n  run(name) {\n    this.emit('worker created', name);\n"
            "    this.emit(\n      'worker deleted',\n      name\n    );\n  }\n\n"
            "  stop() {\n    this.emit('worker created', 'again');\n  }\n}\n\n"
            "export function Timer(ms) {\n  EventEmitter.call(this);\n  this.ms = ms;\n}\n\n"
            "util.inherits(Timer, EventEmitter);\n\n"
            "Timer.prototype.tick = function () {\n  this.emit('tick', this.ms);\n  this.emit('done');\n};\n\n"
            "export class Quiet extends EventEmitter {\n  fail() {\n    this.emit('error', new Error('no'));\n  }\n}\n"
        ),
    }
    directory, revision = _pages(tmp_path, files)
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    at = f"{BLOB}{revision}/src/index.js"
    assert "## `Jobber`" in extend and "*event emitter* in `src/index.js`" in extend
    assert "with `.on(event, listener)`:" in extend
    assert f"- [`worker created`]({at}#L6)" in extend and f"- [`worker deleted`]({at}#L7)" in extend
    assert f"- [`tick`]({at}#L26)" in extend and f"- [`done`]({at}#L27)" in extend
    assert "## `Quiet`" not in extend


def test_a_go_interface_the_package_hands_out_and_never_takes_is_no_extension_point(tmp_path: Path) -> None:
    """pond's `Pool` (`NewPool` returns it), `TaskGroup` and `ResultTask`, and negroni's `ResponseWriter`
    (`NewResponseWriter`; `Before(func(ResponseWriter))` hands it to a callback) were extension points: a user
    is handed them and calls them, never implements them. An interface a function or a field takes from the
    user (negroni's `Handler`, taken by `Use`; `Formatter` in a struct's field) still is one."""
    pool = (
        'package pool\n\nimport "net/http"\n\n// Pool runs tasks.\ntype Pool interface {\n\tSubmit(task func())\n'
        "\tStop()\n}\n\n// ResponseWriter wraps a response.\ntype ResponseWriter interface {\n"
        "\thttp.ResponseWriter\n\tStatus() int\n}\n\n"
        "// Handler serves as middleware.\ntype Handler interface {\n\tServe(w ResponseWriter)\n}\n\n"
        "// Formatter prints a panic.\ntype Formatter interface {\n\tFormat(err any) string\n}\n\n"
        "// Recovery recovers from panics.\ntype Recovery struct {\n\tFormatter Formatter\n}\n\n"
        "type pool struct{}\n\nfunc (p *pool) Submit(task func()) {}\n\nfunc (p *pool) Stop() {}\n\n"
        "// NewPool makes a pool.\nfunc NewPool(size int) Pool {\n\treturn &pool{}\n}\n\n"
        "// NewResponseWriter wraps w.\nfunc NewResponseWriter(w http.ResponseWriter) ResponseWriter {\n"
        "\treturn nil\n}\n\n// Before calls f before the response.\nfunc Before(f func(ResponseWriter)) {}\n\n"
        "// Use adds a handler.\nfunc Use(h Handler) Handler {\n\treturn h\n}\n\n"
        "// Wrap adapts an http.Handler.\nfunc Wrap(h http.Handler) http.Handler {\n\treturn h\n}\n"
    )
    directory, _ = _pages(
        tmp_path,
        {
            "README.md": "# pool\n\nA worker pool.\n",
            "go.mod": "module example.com/pool\n\ngo 1.22\n",
            "pool.go": pool,
        },
    )
    _, page = read_page(directory / "reference" / "extension-points.md")
    assert "## `Handler`" in page and "## `Formatter`" in page
    assert "## `Pool`" not in page and "## `ResponseWriter`" not in page


def test_a_class_switching_off_what_it_inherits_or_forbidding_construction_is_no_extension_point(
    tmp_path: Path,
) -> None:
    """omegaconf's Extension points called `OmegaConf` a base class whose subclass provides `__init__` (its
    `__init__` raises NotImplementedError("Use one of the static construction functions"): a namespace of
    static methods), and offered `GrammarVisitor` (an ANTLR visitor raising NotImplementedError in the
    `aggregateResult` it inherits) and `InterpolationResultNode` (a node refusing `__deepcopy__`): classes
    nothing extends, switching off what they inherit. A root class raising it, or one the project extends,
    is still a base class."""
    files = {
        "README.md": "# tinyconf\n\nTinyconf is a hierarchical configuration system merging many sources.\n",
        "docs/extending.md": (
            "# Extending tinyconf\n\nYou can add resolvers by registering them with `TinyConf.register()`.\n"
        ),
        "tinyconf/__init__.py": '"""Tinyconf."""\n',
        "tinyconf/api.py": (
            "class TinyConf:\n    def __init__(self):\n"
            "        raise NotImplementedError('Use one of the static construction functions')\n\n"
            "    @staticmethod\n    def create(obj):\n        return obj\n\n"
            "    @staticmethod\n    def register(name, resolver):\n        return None\n"
        ),
        "tinyconf/nodes.py": (
            "from antlr4 import ParseTreeVisitor\n\n\nclass Node:\n    def value(self):\n"
            "        raise NotImplementedError\n\n\nclass ValueNode(Node):\n    def value(self):\n"
            "        return 1\n\n    def validate(self, x):\n        raise NotImplementedError\n\n\n"
            "class IntNode(ValueNode):\n    def validate(self, x):\n        return int(x)\n\n\n"
            "class ResultNode(ValueNode):\n    def validate(self, x):\n        return x\n\n"
            "    def __deepcopy__(self, memo):\n        raise NotImplementedError\n\n\n"
            "class Visitor(ParseTreeVisitor):\n    def aggregateResult(self, a, b):\n"
            "        raise NotImplementedError\n\n    def visitKey(self, ctx):\n        return ctx\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    assert "## `Node`" in extend and "## `ValueNode`" in extend
    assert "`TinyConf`*" not in extend and "## `TinyConf`" not in extend
    assert "ResultNode" not in extend and "Visitor" not in extend


def test_a_deprecated_registry_says_so_where_it_is_listed(tmp_path: Path) -> None:
    """omegaconf's Extension points listed `OmegaConf.register_new_resolver` as a registry with no word that
    its body warns "register_new_resolver() is deprecated … Use register_resolver() instead"."""
    files = {
        "README.md": "# tinyconf\n\nTinyconf is a hierarchical configuration system merging many sources.\n",
        "tinyconf/__init__.py": '"""Tinyconf."""\n',
        "tinyconf/resolvers.py": (
            "import warnings\n\n_RESOLVERS = {}\n\n\ndef register_resolver(name, resolver):\n"
            '    """Register a resolver."""\n    _RESOLVERS[name] = resolver\n\n\n'
            "def register_new_resolver(name, resolver):\n    warnings.warn(\n"
            '        "register_new_resolver() is deprecated. Use register_resolver() instead."\n    )\n'
            "    register_resolver(name, resolver)\n"
        ),
    }
    directory, _ = _pages(tmp_path, files)
    extend = read_page(directory / "reference" / "extension-points.md")[1]
    listed = {line.split("`")[1]: line for line in extend.splitlines() if line.startswith("- [`")}
    assert "(deprecated)" in listed["register_new_resolver"]
    assert "deprecated" not in listed["register_resolver"]


def test_an_environment_variable_named_by_a_module_constant_is_read() -> None:
    """omegaconf's _yaml.py reads `os.environ.get(_MAX_YAML_EXPANDED_NODES_ENV)`, the constant bound to
    "OMEGACONF_MAX_YAML_EXPANDED_NODES": its Configuration page's environment variables left it out. A name
    bound twice, or to no string, names none."""
    module = pydeclarations.read_module(
        "import os\n\n_ENV = 'TINY_MAX_NODES'\n_TWICE = 'TINY_A'\n_TWICE = 'TINY_B'\n_NUMBER = 3\n\n\n"
        "def limit():\n    value = os.environ.get(_ENV)\n    other = os.environ.get(_TWICE)\n"
        "    return os.environ[_NUMBER], os.getenv('TINY_PLAIN')\n"
    )
    assert module is not None and [e.name for e in module.env] == ["TINY_MAX_NODES", "TINY_PLAIN"]


def test_a_go_fields_kubebuilder_marker_gives_its_default_and_is_no_part_of_what_it_is() -> None:
    """chainsaw's `DefaultTimeouts` (`// +optional` / `// +kubebuilder:default:="30s"` over each field) and
    traefik's `+kubebuilder:default=minimal`: every Default was "—" and the markers ran on in the description
    ("… \\+optional \\+kubebuilder:default:="30s"."). traefik's "Default value is 3 seconds." reads 3 seconds."""
    lines = [
        "type DefaultTimeouts struct {",
        "\t// Assert defines the timeout for the assert operation",
        "\t// +optional",
        '\t// +kubebuilder:default:="30s"',
        '\tAssert metav1.Duration `json:"assert"`',
        "\t// TraceVerbosity defines the verbosity level of the tracing for this router.",
        "\t// +kubebuilder:validation:Enum=minimal;detailed",
        "\t// +kubebuilder:default=minimal",
        "\tTraceVerbosity string",
        "\t// ReadTimeout defines the timeout for socket read operations.",
        "\t// Default value is 3 seconds.",
        "\tReadTimeout string",
        "}",
    ]
    assert field_comment(lines, 5) == ("Assert defines the timeout for the assert operation", '"30s"')
    assert field_comment(lines, 9) == (
        "TraceVerbosity defines the verbosity level of the tracing for this router.",
        "minimal",
    )
    assert field_comment(lines, 12) == (
        "ReadTimeout defines the timeout for socket read operations.",
        "3 seconds",
    )


def test_go_marker_lines_are_no_part_of_a_doc_comment() -> None:
    # chainsaw's APIs shard was described "Projection can be any type. +k8s:deepcopy-gen=false
    # +kubebuilder:validation:XPreserveUnknownFields +kubebuilder:validation:Type:=""."; traefik's doc.go
    # "… version of the API. +groupName=traefik.io +groupGoName=Traefik."
    raw = (
        "// Projection can be any type.\n// +k8s:deepcopy-gen=false\n"
        '// +kubebuilder:validation:XPreserveUnknownFields\n// +kubebuilder:validation:Type:=""\n'
        "// A + B is kept, and so is +1.\n// +groupName=traefik.io\n"
    )
    assert comment_text(raw) == "Projection can be any type.\nA + B is kept, and so is +1."


def test_a_python_records_defaults_kept_apart_in_a_defaults_dict_are_its_defaults(tmp_path: Path) -> None:
    """commitizen's `Settings` TypedDict declares its fields only; `DEFAULT_SETTINGS: Settings = {"name":
    "cz_conventional_commits", …}` (commitizen/defaults.py:81) holds their values, and every Default was "—".
    The dict annotated with the record fills it, else an unannotated one named for defaults whose keys are
    most of the record's fields; a value running over many lines is not shown."""
    files = {
        "README.md": "# tinycz\n\nTinycz bumps a project's version from its commit messages.\n",
        "tinycz/__init__.py": '"""Tinycz."""\n\nfrom tinycz.defaults import Options, Settings\n',
        "tinycz/defaults.py": (
            '"""Defaults."""\n\nfrom typing import TypedDict\n\n\nclass Settings(TypedDict, total=False):\n'
            "    name: str\n    tag_format: str\n    prefixes: list[str]\n    encoding: str\n\n\n"
            "class Options(TypedDict, total=False):\n    retries: int\n    verbose: bool\n    colour: str\n\n\n"
            'DEFAULT_SETTINGS: Settings = {\n    "name": "cz_conventional_commits",\n    "tag_format": "$version",\n'
            '    "prefixes": [\n        "Merge",\n        "Revert",\n        "Pull request",\n        "fixup!",\n'
            '        "squash!",\n        "amend!",\n        "Bump version",\n    ],\n}\n\ndefaults = {"retries": 3, "verbose": False}\n'
        ),
    }
    directory, _ = _pages(tmp_path, files)
    page = read_page(directory / "reference" / "configuration.md")[1]
    rows = {
        line.split("`")[1]: line.split("|")[3].strip()
        for line in page.splitlines()
        if line.startswith("| [`")
    }
    assert rows == {
        "name": '`"cz_conventional_commits"`',
        "tag_format": '`"$version"`',
        "prefixes": "—",
        "encoding": "—",
        "retries": "`3`",
        "verbose": "`False`",
        "colour": "—",
    }


def test_the_flags_of_a_go_command_named_test_are_on_the_configuration_page(tmp_path: Path) -> None:
    # chainsaw's `chainsaw test` flags (pkg/commands/test/command.go:419-) were on no page: a folder named
    # test was no library folder, though its code is the command every user runs
    command = (
        'package test\n\nimport "github.com/spf13/cobra"\n\n// Command runs the tests.\n'
        'func Command() *cobra.Command {\n\tvar config string\n\tcmd := &cobra.Command{Use: "test"}\n'
        '\tcmd.Flags().StringVar(&config, "config", "", "Tinysaw configuration file")\n\treturn cmd\n}\n'
    )
    files = {
        "go.mod": "module example.com/tinysaw\n\ngo 1.22\n",
        "README.md": "# tinysaw\n\nTinysaw tests Kubernetes operators declaratively, step by step.\n",
        "main.go": (
            'package main\n\nimport "example.com/tinysaw/pkg/commands/test"\n\n'
            "func main() {\n\ttest.Command().Execute()\n}\n"
        ),
        "pkg/commands/test/command.go": command,
        "pkg/commands/test/command_test.go": "package test\n",
    }
    directory, _ = _pages(tmp_path, files)
    page = read_page(directory / "reference" / "configuration.md")[1]
    assert "Tinysaw configuration file" in page
