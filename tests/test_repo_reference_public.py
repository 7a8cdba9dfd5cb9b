"""The reference pages show what a package's users meet: the constructors its docs call, the extension points
they can reach or the docs name, and the docs pages about extending the project itself."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project

from generator.repo.analyze.citations import Linker
from generator.repo.docs.project import read_project_docs
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.reference.build import read_reference
from generator.repo.reference.model import Reference


def _reference(root: Path) -> Reference:
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyorm")
    docs = read_project_docs(root, repo_map, facts, linker)
    return read_reference(root, repo_map, facts, linker, docs)


TINYORM = {
    "README.md": (
        "# tinyorm\n\nTinyorm is a small async ORM mapping rows to models.\n\n## Usage\n\n```python\n"
        "import tinyorm\n\nconfig = tinyorm.Config(database='sqlite://', tablename='albums')\n"
        "albums = await Album.objects.all()\n```\n"
    ),
    "tinyorm/__init__.py": (
        "from tinyorm.config import Config\nfrom tinyorm.queryset import QuerySet\n\n"
        '__all__ = ["Config", "QuerySet"]\n'
    ),
    "tinyorm/config.py": (
        "class Config:\n    def __init__(self, database=None, tablename=None, order_by=None):\n"
        "        self.database = database\n"
    ),
    # exported, but the library makes it (`Model.objects`): no user passes it `filters`
    "tinyorm/queryset.py": (
        "class QuerySet:\n    def __init__(self, model=None, filters=None, limit=None):\n        self.model = model\n\n"
        "    async def all(self):\n        return []\n"
    ),
    # query building's own base class, exported nowhere and named by no page
    "tinyorm/actions.py": (
        "from abc import ABC, abstractmethod\n\n\nclass Action(ABC):\n    @abstractmethod\n"
        "    def apply(self, query):\n        ...\n\n\nclass FilterAction(Action):\n"
        "    def apply(self, query):\n        return query\n"
    ),
    "tinyorm/fields/__init__.py": 'from tinyorm.fields.backends import Backend\n\n__all__ = ["Backend"]\n',
    "tinyorm/fields/backends.py": (
        "from abc import ABC, abstractmethod\n\n\nclass Backend(ABC):\n    @abstractmethod\n"
        "    def encrypt(self, value):\n        ...\n\n    @abstractmethod\n    def decrypt(self, value):\n"
        "        ...\n\n\nclass Fernet(Backend):\n    def encrypt(self, value):\n        return value\n\n"
        "    def decrypt(self, value):\n        return value\n"
    ),
    "tinyorm/helpers.py": (
        "def register_relation(model, field):\n    model.relations[field.name] = field\n    return model\n"
    ),
    "docs/models.md": (
        "# Models\n\nEach model keeps its table's settings in a `Config`:\n\n```python\n"
        "config = tinyorm.Config(database=database, tablename='albums', order_by=['name'])\n```\n"
    ),
    "docs/encryption.md": (
        "# Encryption\n\nA column may be stored encrypted by one of the bundled backends.\n\n"
        "To add your own backend, subclass `tinyorm.fields.Backend` and give it `encrypt` and `decrypt`.\n"
    ),
    "docs/plugin.md": (
        "# PyCharm plugin\n\nWhile tinyorm works with any IDE there is a PyCharm plugin that enhances the user"
        " experience for this IDE.\n\nYou can install the plugin for free from the plugin marketplace of the"
        " IDE's preferences.\n"
    ),
}


def test_configuration_lists_the_constructors_the_docs_call(tmp_path: Path) -> None:
    """ormar's Configuration listed the arguments of `OrderAction`, `QuerySet(filter_clauses=…)` and
    `FilterQuery`, which the library builds for itself: the docs build `OrmarConfig`, `ForeignKey`,
    `DatabaseConnection` and never those."""
    reference = _reference(make_project(tmp_path / "tinyorm", TINYORM))
    kinds = {o.kind for o in reference.options}
    assert "argument of Config" in kinds
    assert "argument of QuerySet" not in kinds


def test_extension_points_are_what_a_user_reaches_or_the_docs_name(tmp_path: Path) -> None:
    """ormar's Extension points gave docs/plugin.md (installing a PyCharm plugin) as "How the docs say to
    extend it", its query-building ABCs as extension points and six relation-building helpers as
    registries; the `EncryptBackend` its encryption page says to subclass is one."""
    reference = _reference(make_project(tmp_path / "tinyorm", TINYORM))
    names = {e.symbol.name for e in reference.extensions}
    assert "Backend" in names
    assert "Action" not in names and "register_relation" not in names
    assert not any(p.path == "docs/plugin.md" for p in reference.extension_docs)


def test_a_go_interface_under_internal_is_no_extension_point(tmp_path: Path) -> None:
    """grpc-gateway's `Generator` (internal/generator/) and fx's `Clock` (internal/fxclock/) were listed
    as interfaces a user implements: the go command lets no other module import an internal package."""
    files = {
        "README.md": "# tinygw\n\nTinygw serves gRPC services as REST.\n",
        "go.mod": "module example.com/tinygw\n",
        "runtime/handler.go": (
            "package runtime\n\n// Handler serves one route.\ntype Handler interface {\n\tServe(path string) error\n}\n"
        ),
        "internal/generator/generator.go": (
            "package generator\n\n// Generator writes code.\ntype Generator interface {\n\tGenerate() error\n}\n"
        ),
    }
    names = {e.symbol.name for e in _reference(make_project(tmp_path / "tinygw", files)).extensions}
    assert "Handler" in names and "Generator" not in names


def test_an_internal_registry_is_met_through_the_exported_functions_handing_on_to_it(tmp_path: Path) -> None:
    """beanie's `register_action` (odm/actions.py), exported nowhere, is what the decorators `before_event`
    and `after_event` of its top-level `__all__` return: its Extension points kept `UnionDoc.register_doc`
    alone, though the docs teach `@before_event(Insert)`. The decorators are the registry a user meets; an
    exported entry that also registers along the way (`init`) is none, nor is a private wrapper."""
    files = {
        "README.md": "# tinydoc\n\nTinydoc maps documents to classes.\n",
        "tinydoc/__init__.py": (
            "from tinydoc.actions import after_event, before_event\nfrom tinydoc.connect import init\n\n"
            '__all__ = ["after_event", "before_event", "init"]\n'
        ),
        "tinydoc/actions.py": (
            "def register_action(event_types, direction):\n    def decorator(f):\n"
            "        f.event_types = event_types\n        f.direction = direction\n        return f\n\n"
            "    return decorator\n\n\n"
            "def before_event(*args):\n    return register_action(args, 'before')\n\n\n"
            "def after_event(*args):\n    return register_action(args, 'after')\n\n\n"
            "def _on_save(*args):\n    return register_action(args, 'save')\n"
        ),
        "tinydoc/connect.py": (
            "from tinydoc.actions import register_action\n\n\ndef check(models):\n    return list(models)\n\n\n"
            "def init(models):\n    check(models)\n    return register_action(models, 'init')\n"
        ),
    }
    reference = _reference(make_project(tmp_path / "tinydoc", files))
    registries = sorted(e.symbol.name for e in reference.extensions if e.kind == "registry")
    assert registries == ["after_event", "before_event"]
