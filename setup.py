"""The wheel carries the repository's top-level `templates/` and `mkdocs.yml` as package data.

They stay where a reader of the repository expects them; at build time they are copied into
`generator/site/defaults/`, where an installed deepkb finds them (generator/site/defaults.py). An editable
install reads them from the checkout instead. Everything else about the package is in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
TEMPLATES = sorted(path.relative_to(HERE).as_posix() for path in (HERE / "templates").glob("*.j2"))
DEFAULTS = ["mkdocs.yml", *TEMPLATES]
PACKAGED = Path("generator", "site", "defaults")


class BuildWithDefaults(build_py):
    """build_py, plus the default templates and MkDocs configuration copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        if not TEMPLATES:
            raise FileNotFoundError(f"no page templates in {HERE / 'templates'}: the wheel would not run")
        for name in DEFAULTS:
            target = Path(self.build_lib) / PACKAGED / name
            self.mkpath(str(target.parent))
            self.copy_file(str(HERE / name), str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        ours = [] if self.editable_mode else [str(Path(self.build_lib) / PACKAGED / n) for n in DEFAULTS]
        return [*super().get_outputs(include_bytecode), *ours]


setup(cmdclass={"build_py": BuildWithDefaults})
