"""The wheel carries the repository's top-level `templates/` and `mkdocs.yml` as package data.

They stay where a reader of the repository expects them; at build time they are copied into
`generator/site/defaults/`, where an installed deepkb finds them (generator/site/defaults.py). An editable
install reads them from the checkout instead. Everything else about the package is in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DEFAULTS = ["mkdocs.yml", *sorted(path.name for path in (HERE / "templates").glob("*.j2"))]
PACKAGED = Path("generator", "site", "defaults")


def _source(name: str) -> Path:
    return HERE / name if name == "mkdocs.yml" else HERE / "templates" / name


def _packaged(name: str) -> Path:
    return PACKAGED / name if name == "mkdocs.yml" else PACKAGED / "templates" / name


class BuildWithDefaults(build_py):
    """build_py, plus the default templates and MkDocs configuration copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        if len(DEFAULTS) == 1:
            raise FileNotFoundError(f"no page templates in {HERE / 'templates'}: the wheel would not run")
        for name in DEFAULTS:
            target = Path(self.build_lib) / _packaged(name)
            self.mkpath(str(target.parent))
            self.copy_file(str(_source(name)), str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        ours = [] if self.editable_mode else [str(Path(self.build_lib) / _packaged(n)) for n in DEFAULTS]
        return [*super().get_outputs(include_bytecode), *ours]


setup(cmdclass={"build_py": BuildWithDefaults})
