"""The dependency graph (dependencies.py): Python relative and absolute imports (each answer worked out once
per folder or per repository), `from pkg import Name` re-exports, a Go module and a tsconfig alias, and a
repository whose root is itself a package, whose import name only the whole repository's imports tell."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts

MIXED = {
    "pkg/__init__.py": 'from pkg.models import Model\nfrom .client import Client\n\n__all__ = ["Model", "Client"]\n',
    "pkg/models.py": "class Model:\n    pass\n",
    "pkg/client.py": "import json\nfrom .models import Model\nfrom . import errors\n\n\nclass Client:\n    pass\n",
    "pkg/errors.py": "class ApiError(Exception):\n    pass\n",
    "app.py": "import pkg.errors\nfrom pkg import Model, Client\n\nClient()\nModel()\n",
    "tools/report.py": "from ..pkg.models import Model\nfrom pkg import Client\nfrom .util import fmt\n",
    "tools/util.py": "def fmt():\n    pass\n",
    # the same relative imports from another folder name that folder's files
    "jobs/run.py": "from .util import fmt\nfrom .util import *\nfrom . import util\nfrom pkg import Client\n",
    "jobs/util.py": "def fmt():\n    pass\n",
    "svc/go.mod": "module example.com/svc\n\ngo 1.22\n",
    "svc/main.go": 'package main\n\nimport "example.com/svc/store"\n\nfunc main() { store.Get() }\n',
    "svc/store/store.go": "package store\n\nfunc Get() {}\n",
    "svc/store/store_test.go": "package store\n\nfunc TestGet() {}\n",
    "web/tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}\n',
    "web/src/main.ts": 'import { a } from "@/lib/a";\nimport b from "./b";\nimport x from "lodash";\n',
    "web/src/lib/a.ts": "export const a = 1;\n",
    "web/src/b.ts": "export default 2;\n",
}

# the root is the package `mylib` (the clone's folder name says nothing): its files import it by that name
ROOT_PACKAGE = {
    "__init__.py": "from mylib.core import Engine\n",
    "core.py": "from .sub.thing import Thing\n\n\nclass Engine:\n    pass\n",
    "sub/__init__.py": "",
    "sub/thing.py": "from mylib.core import Engine\nimport mylib.sub\n\n\nclass Thing:\n    pass\n",
    "cli.py": "import os\nfrom mylib import Engine\nfrom .core import Engine as E\n",
}


def facts_of(root: Path) -> Facts:
    return extract_facts(root, map_repository(root))


def test_imports_resolve_to_the_files_they_name(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", MIXED)
    files = facts_of(root).files
    assert files["app.py"].depends_on == ["pkg/__init__.py", "pkg/errors.py"]
    assert files["app.py"].names_from == {"pkg/__init__.py": ["Client", "Model"]}
    assert files["pkg/client.py"].depends_on == ["pkg/errors.py", "pkg/models.py"]
    assert files["pkg/client.py"].names_from == {"pkg/models.py": ["Model"]}  # `errors` names a file
    assert files["tools/report.py"].depends_on == ["pkg/__init__.py", "pkg/models.py", "tools/util.py"]
    assert files["jobs/run.py"].depends_on == ["jobs/util.py", "pkg/__init__.py"]
    # neither `*` nor a module is a name taken
    assert files["jobs/run.py"].names_from == {"jobs/util.py": ["fmt"], "pkg/__init__.py": ["Client"]}
    # re-exports followed to the defining module: `from pkg import Client` uses client.Client too
    assert files["pkg/client.py"].name_uses == {"Client": 4}  # pkg/__init__, app, tools/report, jobs/run
    assert files["pkg/models.py"].name_uses == {"Model": 4}  # and pkg/client
    # what the top package re-exports is its defining module's export and public API
    assert (files["pkg/models.py"].exports, files["pkg/models.py"].api_names) == (["Model"], ["Model"])
    assert (files["pkg/client.py"].exports, files["pkg/client.py"].api_names) == (["Client"], ["Client"])
    assert files["svc/main.go"].depends_on == ["svc/store/store.go"]
    assert files["web/src/main.ts"].depends_on == ["web/src/b.ts", "web/src/lib/a.ts"]


def test_a_root_package_is_resolved_by_the_name_its_files_import_it_by(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "mylib-checkout", ROOT_PACKAGE)
    files = facts_of(root).files
    assert files["sub/thing.py"].depends_on == ["core.py", "sub/__init__.py"]
    assert files["sub/thing.py"].names_from == {"core.py": ["Engine"]}
    assert files["cli.py"].depends_on == ["__init__.py", "core.py"]
    assert files["__init__.py"].depends_on == ["core.py"]
    assert files["core.py"].depends_on == ["sub/thing.py"]
    assert files["core.py"].name_uses == {"Engine": 3}
