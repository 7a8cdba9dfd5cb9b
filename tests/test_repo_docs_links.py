"""Which code a guide page links: the definition its docs mean, and the code the page is about first."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project

from generator.repo.analyze.citations import Linker
from generator.repo.docs.model import ProjectDocs
from generator.repo.docs.project import read_project_docs
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository


def _docs_of(root: Path) -> ProjectDocs:
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tinyorm")
    return read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)


TINYORM = {
    "README.md": "# tinyorm\n\nTinyorm is a small async ORM mapping rows to models.\n",
    "tinyorm/__init__.py": "from .model import Model\nfrom .queryset import QuerySet\nfrom .signals import merge\n",
    "tinyorm/model.py": (
        "class Model:\n    async def update(self, **kwargs):\n        return self\n\n"
        "    async def save(self):\n        return self\n"
    ),
    "tinyorm/queryset.py": "class QuerySet:\n    async def update(self, **kwargs):\n        return 0\n",
    # a helper the package keeps to itself, named like the models' method
    "tinyorm/utils.py": "def update(current, updating):\n    current.update(updating)\n    return current\n",
    "tinyorm/signals.py": "def merge(first, second):\n    return first\n",
}


def test_a_bare_name_is_not_a_private_helper_named_like_the_project_s_methods(tmp_path: Path) -> None:
    """ormar's Methods and Signals pages say `update()` of a model: they linked `update` in
    ormar/queryset/utils.py, a dict-merging helper no `__init__` re-exports. A function the package exports
    under the name stays linked (`merge`); one only a class not the project's goes through (ko's template
    field `Git.Tag`) is no module's function either (kind/write.go's `Tag`)."""
    files = {
        **TINYORM,
        "docs/methods.md": (
            "# Methods\n\nCall `update()` on a `Model` to write the changed fields; a `QuerySet` updates"
            " many rows.\n\nSignals are merged with `merge` when two senders connect.\n\n"
            "A template may name `Env.merge` of the build environment.\n"
        ),
        "docs/queries.md": "# Queries\n\nA `QuerySet` filters the rows of one model.\n",
    }
    docs = _docs_of(make_project(tmp_path / "tinyorm", files))
    methods = next(c for c in docs.concepts if c.name == "Methods")
    linked = [(s.name, s.path) for s in methods.symbols]
    assert ("update", "tinyorm/utils.py") not in linked
    assert ("merge", "tinyorm/signals.py") in linked
    assert ("Model", "tinyorm/model.py") in linked


def test_a_member_of_a_class_not_the_project_s_is_no_module_function(tmp_path: Path) -> None:
    """ko's Configuration page tabulates the template field `Git.Tag`: it was linked to the kind
    publisher's `func Tag` (pkg/publish/kind/write.go:48), which the page never means."""
    files = {
        "README.md": "# tinyko\n\nTinyko builds container images from Go code.\n",
        "go.mod": "module example.com/tinyko\n",
        "main.go": "package main\n\n// Main runs the tool.\nfunc main() {}\n",
        "docs/configuration.md": (
            "# Configuration\n\nBuild flags may be templated.\n\n| Field | Meaning |\n| --- | --- |\n"
            "| `Git.Tag` | The current git tag |\n| `Env` | The environment |\n"
        ),
        "docs/publishing.md": "# Publishing\n\nImages are pushed to a registry.\n",
        "pkg/publish/kind/write.go": (
            "package kind\n\n// Tag adds a tag to an image already loaded.\nfunc Tag(src, dest string) error {\n"
            "\treturn nil\n}\n"
        ),
    }
    docs = _docs_of(make_project(tmp_path / "tinyko", files))
    configuration = next(c for c in docs.concepts if c.name == "Configuration")
    assert "Tag" not in [s.name for s in configuration.symbols]


SHARED = "`Config`, `Database`, `Model`, `Integer`, `String`, `Boolean`, `Float` and `ForeignKey`"


def test_a_guide_page_links_its_own_subject_before_what_every_page_names(tmp_path: Path) -> None:
    """ormar's every guide page opened its "In the code" on `OrmarConfig`, `Integer`, `String` — the
    symbols every example sets up — and the Signals page spent its eight links on them, never reaching
    `receiver` or `pre_save`. What the page's name names comes first, then what few pages name, then
    what every page does."""
    fields = "\n".join(f"class {name}:\n    pass\n" for name in ("Integer", "String", "Boolean", "Float"))
    files = {
        "README.md": "# tinyorm\n\nTinyorm is a small async ORM mapping rows to models.\n",
        "tinyorm/__init__.py": (
            "from .config import Config, Database\nfrom .model import Model, ForeignKey\n"
            "from .fields import Integer, String, Boolean, Float\n"
            "from .signals import Signal, receiver, pre_save\nfrom .queryset import QuerySet\n"
        ),
        "tinyorm/config.py": "class Config:\n    pass\n\n\nclass Database:\n    pass\n",
        "tinyorm/model.py": "class Model:\n    pass\n\n\nclass ForeignKey:\n    pass\n",
        "tinyorm/fields.py": fields,
        "tinyorm/queryset.py": "class QuerySet:\n    pass\n",
        "tinyorm/signals.py": (
            "class Signal:\n    pass\n\n\ndef receiver(signal, senders):\n    return signal\n\n\n"
            "def pre_save(senders):\n    return senders\n"
        ),
        **{
            f"docs/{page}.md": f"# {page.title()}\n\nEvery model here uses {SHARED}.\n\n{said}\n"
            for page, said in {
                "models": "A `Model` maps one table of the database to a class.",
                "fields": "Fields are columns of the table.",
                "queries": "A `QuerySet` filters the rows of one table and orders them.",
                "signals": "A `Signal` calls each `receiver` registered, `pre_save` before a row is written.",
            }.items()
        },
    }
    docs = _docs_of(make_project(tmp_path / "tinyorm", files))
    signals = [s.name for s in next(c for c in docs.concepts if c.name == "Signals").symbols]
    assert signals[:3] == ["Signal", "receiver", "pre_save"]
    assert "Config" in signals and len(signals) == 8  # the shared come after, as many as there is room for
    queries = [s.name for s in next(c for c in docs.concepts if c.name == "Queries").symbols]
    assert queries[0] == "QuerySet"
    models = [s.name for s in next(c for c in docs.concepts if c.name == "Models").symbols]
    assert models[0] == "Model"  # named by every page, but the page is about it


def test_a_docs_page_deepkb_cannot_read_costs_that_page_not_the_run(tmp_path: Path, monkeypatch) -> None:
    """datasette's docs/authentication.rst made the reST reader raise IndexError (fixed since, e4b92342); the
    exception left the docs stage and the whole repository run exited 1 with no page. A page whose reading
    fails is left out and named with its error; the others are read."""
    import generator.repo.docs.project as project

    files = {
        **TINYORM,
        "docs/index.md": "# Guide\n\nStart with `Model`.\n",
        "docs/models.md": "# Models\n\nA `Model` maps a row.\n",
        "docs/broken.md": "# Broken\n\nThis page trips the reader.\n",
    }
    root = make_project(tmp_path, files)
    whole = _docs_of(root)
    reading = project.document_of

    def trips(text: str, path: str, *args: object, **kwargs: object):
        if path.endswith("broken.md"):
            raise IndexError("list index out of range")
        return reading(text, path, *args, **kwargs)

    monkeypatch.setattr(project, "document_of", trips)
    docs = _docs_of(root)
    assert docs.unreadable == (("docs/broken.md", "IndexError: list index out of range"),)
    assert whole.unreadable == () and docs.files == whole.files - 1 >= 2
