"""A plugin system is the first extension point a reader meets: datasette's 42 pluggy hookspecs and gqlgen's
plugin interfaces (`api.AddPlugin(p plugin.Plugin)`, then `p.(plugin.ConfigMutator)`) were on no Extension
points page, which showed `Marshaler` and a test server's interface instead, and listed datasette's hook
implementations (`@hookimpl def register_output_renderer`) as registries."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

PLUGGY = {
    "README.md": "# tables\n\nTables serves a SQLite database as a website, extended by plugins.\n",
    "pyproject.toml": '[project]\nname = "tables"\nversion = "1.0"\n',
    "tables/__init__.py": (
        "from tables.app import Renderer\nfrom tables.hookspecs import hookimpl\n"
        "from tables.plugins import register_plugin\n\n"
        "__all__ = ['Renderer', 'hookimpl', 'register_plugin']\n"
    ),
    "tables/hookspecs.py": (
        "from pluggy import HookimplMarker\nfrom pluggy import HookspecMarker\n\n"
        'hookspec = HookspecMarker("tables")\nhookimpl = HookimplMarker("tables")\n\n\n'
        "@hookspec\ndef startup(app):\n"
        '    """Fires directly after the app first starts running"""\n\n\n'
        "@hookspec(firstresult=True)\ndef render_cell(row, value, column, table, app):\n"
        '    """Customize rendering of HTML table cell values"""\n\n\n'
        "@hookspec\ndef register_output_renderer(app):\n"
        '    """Register a renderer to output data in a different format"""\n'
    ),
    "tables/blob_renderer.py": (
        "from tables import hookimpl\n\n\n"
        "def render_blob(rows):\n    return b''.join(rows)\n\n\n"
        "@hookimpl\ndef register_output_renderer():\n"
        '    return {"extension": "blob", "render": render_blob}\n'
    ),
    "tables/plugins.py": (
        "import pluggy\n\nfrom tables import hookspecs\n\n"
        'pm = pluggy.PluginManager("tables")\npm.add_hookspecs(hookspecs)\n\n\n'
        "def register_plugin(plugin):\n"
        '    """Registers a plugin module with the plugin manager."""\n'
        "    pm.register(plugin)\n"
    ),
    "tables/app.py": (
        "from tables.plugins import pm\n\n\nclass Renderer:\n"
        '    """A way of writing rows out."""\n\n'
        "    def render(self, rows):\n        raise NotImplementedError\n\n\n"
        "class App:\n    def start(self):\n        pm.hook.startup(app=self)\n"
    ),
    "docs/plugin_hooks.md": (
        "# Plugin hooks\n\nA plugin implements one or more of these hooks.\n\n"
        "## startup(app)\n\nRuns when the app starts.\n\n"
        "## render_cell(row, value, column, table, app)\n\nLets a plugin render a cell.\n\n"
        "## register_output_renderer(app)\n\nAdds an output format: a plugin's `register_output_renderer` "
        "returns its extension and its render function.\n"
    ),
}


def _extension_points(tmp_path: Path, name: str, files: dict[str, str]) -> str:
    root = make_project(tmp_path / name, files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    return read_page(result.study.harvest_dir / "reference" / "extension-points.md")[1]


def test_a_pluggy_hook_specification_comes_first_with_each_hook_and_the_docs_how_to(tmp_path: Path) -> None:
    page = _extension_points(tmp_path, "tables", PLUGGY)
    hooks = page.split("## Plugin hooks in `tables/hookspecs.py`", 1)[1].split("\n## ", 1)[0]
    assert "specifies (3)" in hooks
    assert "[`render_cell(row, value, column, table, app)`]" in hooks
    assert "Customize rendering of HTML table cell values." in hooks
    assert hooks.index("`startup(app)`") < hooks.index("`render_cell(") < hooks.index("`register_output")
    assert "The docs explain them in [`Plugin hooks`]" in hooks and "(`docs/plugin_hooks.md`)" in hooks
    assert page.index("\n## Plugin hooks in") < page.index("\n## `Renderer`")  # ahead of the base classes
    # a hook's implementation (`@hookimpl`) or specification takes nothing in; the plugin manager's does
    registries = page.split("## Registries", 1)[1]
    assert "[`register_plugin`]" in registries
    assert "register_output_renderer" not in registries


GO_PLUGINS = {
    "README.md": "# gen\n\nGen generates Go code from a schema; plugins change what it writes.\n",
    "go.mod": "module example.com/gen\n\ngo 1.21\n",
    "plugin/plugin.go": (
        "// Package plugin is the plugin API.\npackage plugin\n\n"
        "// Plugin is what every plugin is.\ntype Plugin interface {\n\tName() string\n}\n\n"
        "// ConfigMutator changes the config before code is generated.\n"
        "type ConfigMutator interface {\n\tMutateConfig(cfg *Config) error\n}\n\n"
        "// CodeGenerator writes files of its own.\n"
        "type CodeGenerator interface {\n\tGenerateCode(data *Data) error\n}\n\n"
        "// Config is what gen reads.\ntype Config struct {\n\tSchema string\n\tOut    string\n}\n\n"
        "// Data is what code is generated from.\ntype Data struct {\n\tTypes []string\n}\n"
    ),
    "api/option.go": (
        'package api\n\nimport "example.com/gen/plugin"\n\n'
        "// Option changes how Generate runs.\ntype Option func(plugins *[]plugin.Plugin)\n\n"
        "// AddPlugin adds a plugin to those Generate runs.\n"
        "func AddPlugin(p plugin.Plugin) Option {\n"
        "\treturn func(plugins *[]plugin.Plugin) {\n\t\t*plugins = append(*plugins, p)\n\t}\n}\n"
    ),
    "api/generate.go": (
        'package api\n\nimport "example.com/gen/plugin"\n\n'
        "// Generate runs every plugin over the config.\n"
        "func Generate(cfg *plugin.Config, options ...Option) error {\n"
        "\tplugins := []plugin.Plugin{}\n"
        "\tfor _, o := range options {\n\t\to(&plugins)\n\t}\n"
        "\tfor _, p := range plugins {\n"
        "\t\tif mut, ok := p.(plugin.ConfigMutator); ok {\n"
        "\t\t\tif err := mut.MutateConfig(cfg); err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t}\n"
        "\t}\n"
        "\tdata := &plugin.Data{}\n"
        "\tfor _, p := range plugins {\n"
        "\t\tif gen, ok := p.(plugin.CodeGenerator); ok {\n"
        "\t\t\tif err := gen.GenerateCode(data); err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t}\n"
        "\t}\n\treturn nil\n}\n"
    ),
    "value/value.go": (
        "package value\n\n// Marshaler writes a value out.\ntype Marshaler interface {\n"
        "\tMarshalValue() string\n}\n\n"
        "// Write writes any value.\nfunc Write(v any) string {\n"
        '\tif m, ok := v.(Marshaler); ok {\n\t\treturn m.MarshalValue()\n\t}\n\treturn ""\n}\n'
    ),
    "value/types.go": (
        "package value\n\n"
        'type Int int\n\nfunc (i Int) MarshalValue() string { return "int" }\n\n'
        'type Str string\n\nfunc (s Str) MarshalValue() string { return "str" }\n\n'
        'type Bool bool\n\nfunc (b Bool) MarshalValue() string { return "bool" }\n'
    ),
    "docs/plugins.md": (
        "# How to write plugins\n\nPass your plugin to `api.Generate` with `api.AddPlugin`.\n\n"
        "- MutateConfig: lets a plugin change the config before code is generated.\n"
        "- GenerateCode: lets a plugin write a file of its own.\n"
    ),
}


def test_go_interfaces_a_plugin_is_taken_as_or_asserted_to_come_first(tmp_path: Path) -> None:
    page = _extension_points(tmp_path, "gen", GO_PLUGINS)
    assert page.split("\n## `", 1)[1].startswith("Plugin`")  # in their file's order, ahead of the rest
    assert (
        page.index("\n## `Plugin`") < page.index("\n## `ConfigMutator`") < page.index("\n## `CodeGenerator`")
    )
    mutator = page.split("## `ConfigMutator`", 1)[1].split("\n## ", 1)[0]
    assert "*plugin interface* in `plugin/plugin.go`" in mutator
    assert "[`MutateConfig(cfg *Config) error`]" in mutator
    plugin = page.split("## `Plugin`", 1)[1].split("\n## ", 1)[0]
    assert "The docs explain them in [`How to write plugins`]" in plugin
    # an interface asserted on any value, with no plugin in sight, is no plugin's: after them, if at all
    if "## `Marshaler`" in page:
        marshaler = page.split("## `Marshaler`", 1)[1].split("\n## ", 1)[0]
        assert page.index("## `Marshaler`") > page.index("## `CodeGenerator`")
        assert "*plugin interface*" not in marshaler


ORM = {
    "README.md": "# orm\n\nOrm maps Python classes to database tables.\n",
    "pyproject.toml": '[project]\nname = "orm"\nversion = "1.0"\n',
    "orm/__init__.py": (
        "from orm.table import Table\nfrom orm.columns import Integer, Varchar\n\n"
        "__all__ = ['Integer', 'Table', 'Varchar']\n"
    ),
    "orm/table.py": (
        "class Table:\n"
        '    """A database table; an instance is a row."""\n\n'
        "    def __init_subclass__(cls, tablename: str = '', schema: str = 'public', _internal=None):\n"
        '        """Sets the table up.\n\n        :param tablename: The name of the table in the database.\n'
        '        """\n        cls._meta = (tablename, schema)\n\n'
        "    def __init__(self, _data=None, **kwargs):\n        self._data = _data\n"
    ),
    "orm/columns.py": (
        "class Column:\n"
        '    """What every column is."""\n\n'
        "    def __init__(self, null: bool = False, primary_key: bool = False, **kwargs):\n"
        "        self._meta = (null, primary_key)\n\n\n"
        "class Varchar(Column):\n"
        '    """A string of at most `length` characters."""\n\n'
        "    def __init__(self, length: int = 255, default: str = '', **kwargs):\n"
        "        self.length = length\n        super().__init__(**kwargs)\n\n\n"
        "class Integer(Column):\n"
        '    """A whole number."""\n\n'
        "    def __init__(self, default: int = 0, **kwargs):\n        super().__init__(**kwargs)\n"
    ),
    "orm/query.py": (
        "from orm.table import Table\n\n\n"
        "class Query:\n    def __init__(self, table: Table, where: str = ''):\n"
        "        self.table = table\n        self.where = where\n"
    ),
    "orm/engine.py": (
        "from orm.query import Query\n\n\n"
        "class Result:\n    def __init__(self, query: Query, rows: list):\n"
        "        self.query = query\n        self.rows = rows\n"
    ),
    "docs/tables.md": (
        "# Tables\n\nA table is a class:\n\n```python\nfrom orm import Table, Varchar, Integer\n\n\n"
        "class Band(Table):\n    name = Varchar(length=100)\n    popularity = Integer()\n\n\n"
        "class Concert(Table, tablename='concerts'):\n    band = Varchar()\n    venue = Varchar()\n```\n"
    ),
}


def test_the_classes_the_docs_models_are_made_of_open_the_data_model(tmp_path: Path) -> None:
    """piccolo's `Table` (its settings are `__init_subclass__`'s class keywords) and `Column` (its `__init__`
    sets `_meta` alone) were on no Data model page: a plain class counts only with two attributes set."""
    root = make_project(tmp_path / "orm", ORM)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    model = read_page(result.study.harvest_dir / "reference" / "data-model.md")[1]
    headings = [line for line in model.splitlines() if line.startswith("## `")]
    assert headings[:4] == ["## `Table`", "## `Column`", "## `Varchar`", "## `Integer`"]
    table = model.split("## `Table`", 1)[1].split("\n## ", 1)[0]
    assert "*model base the docs subclass*" in table
    assert "`tablename`" in table and "The name of the table in the database." in table
    assert "`_internal`" not in table
    varchar = model.split("## `Varchar`", 1)[1].split("\n## ", 1)[0]
    assert "*field type in the docs' models*" in varchar and "`length`" in varchar and "`255`" in varchar
    column = model.split("## `Column`", 1)[1].split("\n## ", 1)[0]  # what every field type takes
    assert "*base of the field types*" in column and "`primary_key`" in column


def test_a_model_base_standing_on_another_package_shows_its_declared_fields(tmp_path: Path) -> None:
    """beanie's `Document` is a pydantic model through lazy_model's `LazyModel`, which the repository does not
    hold: it has no keyword arguments of its own, and its fields (id, revision_id) are what every document has."""
    files = {
        "README.md": "# odm\n\nOdm keeps Python objects in a document database.\n",
        "pyproject.toml": '[project]\nname = "odm"\nversion = "1.0"\n',
        "odm/__init__.py": "from odm.documents import Document\n\n__all__ = ['Document']\n",
        "odm/documents.py": (
            "from lazy_model import LazyModel\n\n\nclass Document(LazyModel):\n"
            '    """A document of a collection."""\n\n'
            "    id: int | None = None\n    revision_id: str | None = None\n    _state: dict = {}\n\n"
            "    async def insert(self):\n        return self\n"
        ),
        "docs/documents.md": (
            "# Documents\n\n```python\nfrom odm import Document\n\n\nclass Product(Document):\n"
            "    name: str\n    price: float\n```\n"
        ),
    }
    root = make_project(tmp_path / "odm", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    model = read_page(result.study.harvest_dir / "reference" / "data-model.md")[1]
    document = model.split("## `Document`", 1)[1].split("\n## ", 1)[0]
    assert "*model base the docs subclass*" in document
    assert "[`id`]" in document and "[`revision_id`]" in document and "_state" not in document
