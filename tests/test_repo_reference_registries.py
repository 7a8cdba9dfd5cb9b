"""The Extension points page says what a registry takes: a function that registers plugins, typed by the
record a plugin is made of, is shown with that record's fields (mermaid's `registerLayoutLoaders` takes a
`LayoutLoaderDefinition`: name, loader, algorithm), so a reader knows what to write before reading the
code. A record's multi-line function type is one field, not its parameters. Declaration files written
beside the code are read for the data model."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup
from repo_source_fixture import write_tree

from generator.app.targets import repo_target
from generator.repo.analyze.citations import Linker
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.reference.build import registries
from generator.repo.reference.spans import field_comment, parameter_types, struct_fields
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

FILES = {
    "README.md": "# drawit\n\nDrawit turns diagram text into pictures, laid out by pluggable algorithms.\n",
    "package.json": '{"name": "drawit", "main": "src/index.ts"}\n',
    "src/index.ts": "export { registerLayouts, registerThemes } from './layout.js';\n",
    "src/layout.ts": (
        "export type LayoutLoader = () => Promise<unknown>;\n\n"
        "/** A layout algorithm a plugin brings. */\n"
        "export interface LayoutDefinition {\n"
        "  /** The name a diagram asks for. */\n"
        "  name: string;\n"
        "  /** Loads the algorithm when a diagram first needs it. */\n"
        "  loader: LayoutLoader;\n"
        "  algorithm?: string;\n"
        "}\n\n"
        "const layouts: Record<string, LayoutDefinition> = {};\n\n"
        "/** Makes layout algorithms known by their names. */\n"
        "export const registerLayouts = (definitions: LayoutDefinition[]) => {\n"
        "  for (const definition of definitions) {\n"
        "    layouts[definition.name] = definition;\n"
        "  }\n"
        "};\n\n"
        "export function registerThemes(names: string[]): void {\n"
        "  return;\n"
        "}\n\n"
        "export interface DrawOptions {\n  /** Width of the picture. */\n  width: number;\n}\n\n"
        "export function registerDefaults(options: DrawOptions): void {\n"
        "  return;\n"
        "}\n"
    ),
}


def test_parameter_types_are_read_from_the_parameter_list_only() -> None:
    assert parameter_types(["export const registerLayouts = (loaders: LayoutDefinition[]) => {"]) == [
        "LayoutDefinition"
    ]
    assert parameter_types(
        ["function registerAll(", "  ...diagrams: DiagramDefinition[],", "  options?: Options", "): Result {"]
    ) == ["DiagramDefinition", "Options"]
    python = "def register(self, plugins: Sequence[Plugin], name: str = '') -> Registration:"
    assert parameter_types([python]) == ["Plugin"]
    assert parameter_types(["export const VERSION = '1';"]) == []


def test_a_multi_line_function_type_is_one_field() -> None:
    lines = [
        "export interface DiagramDefinition {",
        "  db: DiagramDB;",
        "  injectUtils?: (",
        "    _log: Logger,",
        "    _setLogLevel: LevelSetter, // (deprecated",
        "  ) => void;",
        "  styles?: any;",
        "}",
    ]
    assert struct_fields(lines, "typescript") == [
        ("db", "DiagramDB", 2),
        ("injectUtils", "(…) => … (optional)", 3),
        ("styles", "any (optional)", 7),
    ]


def test_the_extension_points_page_shows_what_a_registry_takes(tmp_path: Path) -> None:
    root = make_project(tmp_path / "drawit", FILES)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    page = read_page(result.study.harvest_dir / "reference" / "extension-points.md")[1]
    part = page.split("## `registerLayouts`", 1)[1].split("\n## ", 1)[0]
    assert "Makes layout algorithms known by their names." in part
    assert "It takes [`LayoutDefinition`]" in part
    assert "`name`" in part and "`loader`" in part and "`algorithm`" in part
    assert "Loads the algorithm when a diagram first needs it." in part
    # a registry typed by no record of the code, or by a configuration class, stays in the plain list
    registries = page.split("## Registries", 1)[1]
    assert "## `registerThemes`" not in page and "[`registerThemes`]" in registries
    assert "## `registerDefaults`" not in page and "[`registerDefaults`]" in registries


def test_declarations_written_beside_the_code_give_the_data_model(tmp_path: Path) -> None:
    """svelte declares its signals' fields in src/internal/client/types.d.ts beside the JavaScript runtime
    that uses them, Chart.js its layout boxes in src/types/: they are its data model. A folder of
    declarations alone (a build's generated types/index.d.ts) is not read."""
    files = {
        "README.md": "# signals\n\nSignals keeps values and re-runs what reads them when they change.\n",
        "package.json": '{"name": "signals", "main": "src/runtime.js"}\n',
        "src/runtime.js": (
            "/** @param {import('./types').Value} signal */\n"
            "export function get(signal) {\n  return signal.v;\n}\n\n"
            "/** @param {import('./types').Value} signal */\n"
            "export function set(signal, value) {\n  signal.v = value;\n  signal.wv += 1;\n}\n"
        ),
        "src/types.d.ts": (
            "export interface Value {\n"
            "  /** Write version */\n  wv: number;\n"
            "  /** The latest value for this signal */\n  v: unknown;\n"
            "}\n"
        ),
        "src/types/layout.d.ts": (
            "export interface LayoutItem {\n  /** Higher weights sit further from the chart area. */\n"
            "  weight: number;\n}\n"
        ),
        "types/index.d.ts": "export interface Generated {\n  /** Emitted by the build. */\n  id: string;\n}\n",
    }
    assert field_comment(files["src/types.d.ts"].splitlines(), 3) == ("Write version", "")
    root = make_project(tmp_path / "signals", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    model = read_page(result.study.harvest_dir / "reference" / "data-model.md")[1]
    value = model.split("## `Value`", 1)[1].split("\n## ", 1)[0]
    assert "| Write version. |" in value and "| The latest value for this signal. |" in value
    assert "Higher weights sit further from the chart area." in model  # the code's own types/ folder
    assert "`Generated`" not in model


def test_an_interface_of_operations_only_is_no_record_of_the_data_model(tmp_path: Path) -> None:
    """mermaid's ArchitectureDB (clear, getNodes, addEdge …, every member a function) had opened its Data
    model page: operations, not data; a record with data fields stays."""
    files = {
        "README.md": "# boxes\n\nBoxes draws nodes and the edges between them as a picture.\n",
        "package.json": '{"name": "boxes", "main": "src/index.ts"}\n',
        "src/index.ts": "export { draw } from './draw.js';\nexport type { BoxesDB, Node } from './types.js';\n",
        "src/types.ts": (
            "export interface BoxesDB {\n  clear: () => void;\n  getNodes: () => Node[];\n"
            "  addEdge: (from: string, to: string) => void;\n}\n\n"
            "export interface Node {\n  /** What the reader sees in the box. */\n  label: string;\n"
            "  /** Called when the box is clicked. */\n  onClick?: () => void;\n}\n"
        ),
        "src/draw.ts": (
            "import type { BoxesDB, Node } from './types.js';\n\n"
            "export function draw(db: BoxesDB): Node[] {\n  return db.getNodes();\n}\n"
        ),
    }
    root = make_project(tmp_path / "boxes", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    model = read_page(result.study.harvest_dir / "reference" / "data-model.md")[1]
    assert "## `Node`" in model and "`BoxesDB`" not in model


def test_a_tests_own_register_helper_is_no_registry(tmp_path: Path) -> None:
    # fx's shape: example_test.go's `Register` mounts the example's handler; the package's `Use` registers
    root = write_tree(
        tmp_path / "repo",
        {
            "go.mod": "module example.com/web\n\ngo 1.21\n",
            "web.go": ("package web\n\n// Use registers a middleware.\nfunc Use(m func()) {\n\tm()\n}\n"),
            "example_test.go": (
                "package web_test\n\n// Register mounts our handler on the mux.\n"
                "func Register(mux string) {\n\t_ = mux\n}\n"
            ),
        },
    )
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/web")
    assert [(e.symbol.path, e.symbol.name) for e in registries(facts, linker)] == [("web.go", "Use")]
