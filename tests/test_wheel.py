"""deepkb installs and runs from a wheel, and a knowledge base's own templates/ override the shipped ones.

The wheel is built the way a release is (sdist first, then the wheel from the unpacked sdist), installed
without dependencies into a fresh venv that borrows this venv's installed libraries through a .pth file (no
index is needed), and run from an empty folder: research of a small git repository and a local corpus,
then the site build. Python 3.11's own pip (what `python3 -m venv` installs) and this venv's pip each
install it once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_build_e2e import make_kb

from generator.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{args}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def _source_files() -> list[str]:
    """The checkout's files as the next commit would hold them (tracked or new, never ignored ones)."""
    listed = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    return [rel for rel in listed.split("\0")[:-1] if (ROOT / rel).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built from its sdist with this venv's setuptools."""
    source = tmp_path_factory.mktemp("source")
    for rel in _source_files():
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        (source / rel).write_bytes((ROOT / rel).read_bytes())
    dist = tmp_path_factory.mktemp("dist")
    backend = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    sdist = dist / _run(sys.executable, "-c", backend, dist, cwd=source).strip().splitlines()[-1]
    with tarfile.open(sdist) as archive:
        archive.extractall(dist, filter="data")
    unpacked = dist / sdist.name.removesuffix(".tar.gz")
    pip = (sys.executable, "-m", "pip")
    _run(*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", dist, unpacked)
    (built,) = dist.glob("deepkb-*.whl")
    return built


def test_the_wheel_holds_the_package_its_data_and_the_defaults(wheel: Path) -> None:
    """Every file of the package (modules, assets, JSON data) plus templates/ and mkdocs.yml as defaults."""
    tracked = _source_files()
    expected = {rel for rel in tracked if rel.startswith("generator/")}
    expected |= {f"generator/site/defaults/{rel}" for rel in tracked if rel.startswith("templates/")}
    expected.add("generator/site/defaults/mkdocs.yml")
    with zipfile.ZipFile(wheel) as archive:
        packaged = {name for name in archive.namelist() if not name.startswith("deepkb-")}
        entry_points = archive.read(f"{wheel.name.split('-py3')[0]}.dist-info/entry_points.txt").decode()
    assert packaged == expected
    assert "deepkb = generator.cli:main" in entry_points
    assert "deepkb-sanitize = generator.site.plugin:SanitizePlugin" in entry_points


def _venv_borrowing_our_libraries(folder: Path, *, with_pip: bool) -> Path:
    """A fresh venv whose site-packages ends with this venv's: the wheel's dependencies, not deepkb itself
    (this venv's editable deepkb is reached through a .pth file there, which a borrowed folder's .pth files
    never run)."""
    _run(sys.executable, "-m", "venv", *([] if with_pip else ["--without-pip"]), folder)
    python = folder / "bin" / "python"
    own = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip())
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (own / "zz-borrowed-libraries.pth").write_text("".join(f"{p}\n" for p in sorted(ours)), encoding="utf-8")
    return python


def _pip_version(python: Path) -> str:
    return _run(python, "-m", "pip", "--version").split()[1]


@pytest.mark.parametrize("pip", ["python-own", "current"])
def test_the_installed_wheel_researches_and_builds_a_site_from_an_empty_folder(
    wheel: Path, tmp_path: Path, pip: str
) -> None:
    venv = tmp_path / "venv"
    python = _venv_borrowing_our_libraries(venv, with_pip=pip == "python-own")
    if pip == "python-own":
        installer: tuple[str | Path, ...] = (python, "-m", "pip")
        assert (
            _pip_version(python) == _run(python, "-c", "import ensurepip; print(ensurepip.version())").strip()
        )
    else:
        installer = (sys.executable, "-m", "pip", "--python", python)
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))}
    # a suite run with PYTHONPATH at a checkout would import that checkout, and its pip would take the checkout's
    # deepkb.egg-info (an editable install's) for deepkb installed already and leave the venv without it
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a run that may write bytecode still leaves the package as is
    _run(*installer, "install", "--no-deps", "--no-index", "-q", wheel, env=env)
    # run outside this checkout: `python -c` would find its generator/ in the current folder
    probe = "import generator; print(generator.__file__)"
    package = Path(_run(python, "-c", probe, cwd=tmp_path, env=env)).parent
    assert package.is_relative_to(venv)  # deepkb from the wheel, not from this checkout

    kb = make_kb(tmp_path)
    _run(venv / "bin" / "deepkb", "build", cwd=kb, env=env)

    shipped = package / "site" / "defaults"
    with zipfile.ZipFile(wheel) as archive:
        packaged = {n for n in archive.namelist() if n.startswith("generator/site/defaults/")}
    assert {
        f"generator/site/defaults/{p.relative_to(shipped).as_posix()}"
        for p in shipped.rglob("*")
        if p.is_file()
    } == packaged

    assert sorted(p.name for p in kb.iterdir()) == ["corpus", "deepkb.yml", "site", "site_src"]  # no copies
    site = kb / "site"
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "sample" in home
    assert (site / "repos" / "acme" / "sample" / "index.html").is_file()
    assert list((site / "repos" / "acme" / "sample" / "shards").glob("*/index.html"))
    (topic,) = (p for p in (site / "topics").iterdir() if p.is_dir())
    assert (topic / "index.html").is_file() and (topic / "sources" / "index.html").is_file()
    assert (site / "tags" / "index.html").is_file()
    assert (site / "assets" / "javascripts" / "vendor" / "mermaid" / "mermaid.min.js").is_file()
    assert (site / "assets" / "stylesheets" / "deepkb" / "deepkb.css").is_file()
    assert (site / "pagefind").is_dir()  # the deepkb-site plugin of the shipped mkdocs.yml ran

    # `deepkb init` finds its files in the installed package
    _run(venv / "bin" / "deepkb", "init", tmp_path / "mine", cwd=tmp_path, env=env)
    made = {
        p.relative_to(tmp_path / "mine").as_posix() for p in (tmp_path / "mine").rglob("*") if p.is_file()
    }
    assert made == {"deepkb.yml", ".gitignore", ".github/workflows/deepkb.yml"}


def test_a_knowledge_base_template_overrides_the_shipped_one_of_the_same_name(
    kb_root: Path, tmp_path: Path
) -> None:
    """As mkdocs' custom_dir: the knowledge base's templates/home.md.j2 wins, every other page is deepkb's."""
    (kb_root / "templates").mkdir()
    (kb_root / "templates" / "home.md.j2").write_text(
        "# Our own front page\n\n{{ counts.repos }} repositories, [all tags]({{ links.tags }}).\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 0, result.output
    home = (kb_root / "site_src" / "index.md").read_text(encoding="utf-8")
    assert "# Our own front page\n\n0 repositories, [all tags](tags/index.md)." in home
    assert "# Tags" in (kb_root / "site_src" / "tags" / "index.md").read_text(encoding="utf-8")
    assert "Our own front page" in (kb_root / "site" / "index.html").read_text(encoding="utf-8")

    other = tmp_path / "other"  # the next root in this process has no templates/: deepkb's home page again
    other.mkdir()
    assert CliRunner().invoke(cli, ["--root", str(other), "site"]).exit_code == 0
    assert "| Repositories | Topics |" in (other / "site_src" / "index.md").read_text(encoding="utf-8")
