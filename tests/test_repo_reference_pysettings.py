"""Environment variables a pydantic-settings class reads: `SettingsConfigDict(env_prefix="SHOP_")` and a field
`port: int = 8000` read `SHOP_PORT`, a name written nowhere whole, so the Configuration page listed the class's
fields and an unhelpful `SHOP_*` but not the variables a user sets."""

from __future__ import annotations

import re
from pathlib import Path

from repo_output_fakes import make_project, offline_setup
from repo_source_fixture import write_tree

from generator.app.targets import repo_target
from generator.repo.analyze.citations import Linker
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.pydeclarations import read_module
from generator.repo.map.walk import map_repository
from generator.repo.reference.build import read_reference
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

_LINK = re.compile(r"\]\(https://[^)]*\)")

SETTINGS = '''"""The shop's settings."""

from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Where the shop listens and what it talks to."""

    model_config: SettingsConfigDict = SettingsConfigDict(env_prefix="SHOP_", env_file=".env")

    host: str = "127.0.0.1"
    port: int = 8000
    redis_url: str = Field("redis://localhost", validation_alias="REDIS_URL")
    debug: bool = False


class LegacySettings(BaseSettings):
    """pydantic 1's shape."""

    timeout: float = 2.5
    token: str = Field("", env="LEGACY_TOKEN")

    class Config:
        env_prefix = "old_"


class Order(BaseModel):
    """An order: a model, no settings."""

    total: int = 0
'''


def test_a_settings_class_names_each_field_as_a_variable() -> None:
    module = read_module(SETTINGS)
    assert module is not None
    env = {c.name: [(r.name, r.default) for r in c.env] for c in module.classes}
    assert env["Settings"] == [
        ("SHOP_HOST", "'127.0.0.1'"),
        ("SHOP_PORT", "8000"),
        ("REDIS_URL", "'redis://localhost'"),
        ("SHOP_DEBUG", "False"),
    ]
    assert env["LegacySettings"] == [("OLD_TIMEOUT", "2.5"), ("LEGACY_TOKEN", "''")]
    assert env["Order"] == []  # a model's fields are read from no environment
    lines = SETTINGS.splitlines()
    port = next(r for c in module.classes for r in c.env if r.name == "SHOP_PORT")
    assert lines[port.line - 1].strip() == "port: int = 8000"


def test_the_configuration_page_lists_a_settings_class_s_variables(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[project]\nname = "shop"\nversion = "1.0"\n',
        "shop/__init__.py": '"""The shop."""\n\nfrom shop.settings import Settings\n\n__all__ = ["Settings"]\n',
        "shop/settings.py": SETTINGS,
    }
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    page = _LINK.sub("]", read_page(result.study.harvest_dir / "reference" / "configuration.md")[1])
    table = page.split("## Environment variables")[1].split("\n## ")[0]
    assert "| `SHOP_PORT` | `8000` |" in table and "| `REDIS_URL` | `'redis://localhost'` |" in table
    assert "`OLD_TIMEOUT`" in table and "`LEGACY_TOKEN`" in table
    assert "SHOP_*" not in table  # its variables are listed whole
    assert "TOTAL" not in table


def test_a_settings_class_on_the_projects_own_pydantic_settings_is_a_settings_record(tmp_path: Path) -> None:
    """beanie's shape: `ItemSettings(BaseModel)` in one module, `DocumentSettings(ItemSettings)` adding the
    document's own settings in another module that never names pydantic: both are pydantic models on the
    Configuration page, the subclass with the fields it adds (it had been on no page)."""
    root = write_tree(
        tmp_path / "repo",
        {
            "odm/__init__.py": "from odm.document import Document\n\n__all__ = ['Document']\n",
            "odm/base.py": (
                "from pydantic import BaseModel\n\n\nclass ItemSettings(BaseModel):\n"
                "    name: str | None = None\n    use_cache: bool = False\n"
            ),
            "odm/document.py": (
                "from odm.base import ItemSettings\n\n\nclass DocumentSettings(ItemSettings):\n"
                "    use_revision: bool = False\n    keep_nulls: bool = True\n\n\n"
                "class Document:\n    settings: DocumentSettings\n\n"
                "    def insert(self):\n        return self.settings.use_revision\n"
            ),
        },
    )
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/odm")
    reference = read_reference(root, repo_map, extract_facts(root, repo_map), linker)
    settings = {r.symbol.name: (r.kind, [f.name for f in r.fields]) for r in reference.settings}
    assert settings["DocumentSettings"] == ("pydantic model", ["use_revision", "keep_nulls"])
    assert settings["ItemSettings"] == ("pydantic model", ["name", "use_cache"])
