"""Where a project stands, from its own files: the README's stability section, the latest release its
changelog heads, the manifests' status and requirements — each cited at its line on the index."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_source_fixture import write_tree

from generator.repo.analyze.citations import Linker
from generator.repo.docs.model import ProjectDocs
from generator.repo.docs.project import read_project_docs
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.site.pages.repo_guide import release_markdown

PROJECT = {
    "README.md": (
        "# tiny\n\nTiny routes requests to handlers.\n\n## Install\n\n```\npip install tiny\n```\n\n"
        "## Stability\n\nThis library is `v1` and follows SemVer strictly.\n\n"
        "No breaking changes will be made before `v2.0.0`.\n\n## Stargazers\n\nMany.\n"
    ),
    "CHANGELOG.md": (
        "# Changelog\n\n## Unreleased\n\n- Work in progress.\n\n"
        "## [1.4.0](https://example.com/compare/v1.3.0...v1.4.0) - 2025-05-13\n\n- Routing.\n\n"
        "## [1.3.0](https://example.com) - 2024-10-11\n"
    ),
    "pyproject.toml": (
        '[project]\nname = "tiny"\nversion = "1.4.0"\nrequires-python = ">=3.10"\nclassifiers = [\n'
        '    "Development Status :: 5 - Production/Stable",\n    "Programming Language :: Python",\n]\n'
    ),
    "tiny/__init__.py": '"""Tiny."""\n\n\ndef route(path):\n    """Route `path`."""\n    return path\n',
}


def _project(root: Path) -> tuple[ProjectDocs, Linker]:
    """The project's docs as a run reads them from `root`, and the linker citing their lines."""
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tiny")
    return read_project_docs(root, repo_map, extract_facts(root, repo_map), linker), linker


def test_the_overview_says_where_the_project_stands_from_its_own_files(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", PROJECT)
    docs, linker = _project(root)
    said = [(p.heading, p.text, p.path, p.start) for p in docs.release]
    assert said == [
        ("Stability", "This library is `v1` and follows SemVer strictly.", "README.md", 13),
        ("Stability", "No breaking changes will be made before `v2.0.0`.", "README.md", 15),
        ("Latest release", "1.4.0 - 2025-05-13", "CHANGELOG.md", 7),  # "Unreleased" is no release
        ("Version", "1.4.0", "pyproject.toml", 3),
        ("Development status", "Production/Stable", "pyproject.toml", 6),
        ("Requires", "Python `>=3.10`", "pyproject.toml", 4),
    ]
    lines = release_markdown(docs, linker)
    # the section's paragraphs in a row are one line, cited once
    assert lines[0].startswith("- **Stability:** This library is `v1` and follows SemVer strictly. No ")
    assert lines[0].endswith("/README.md#L13-L15))")
    assert lines[1] == (
        "- **Latest release:** 1.4.0 - 2025-05-13 "
        "([CHANGELOG.md:7](https://github.com/acme/tiny/blob/" + "r" * 40 + "/CHANGELOG.md#L7))"
    )


def test_a_package_semantic_release_publishes_states_no_version_of_its_file(tmp_path: Path) -> None:
    files = {
        "README.md": "# tiny\n\nTiny routes requests to handlers.\n",
        "package.json": (
            '{\n  "name": "tiny",\n  "version": "10.0.3-beta",\n  "engines": {\n    "node": ">=18"\n  },\n'
            '  "scripts": {\n    "release": "semantic-release"\n  }\n}\n'
        ),
        "index.js": "export function route(path) {\n  return path\n}\n",
    }
    root = write_tree(tmp_path / "repo", files)
    docs, linker = _project(root)
    assert [(p.heading, p.text, p.start) for p in docs.release] == [("Requires", "node `>=18`", 5)]


def test_a_project_whose_changelog_heads_no_release_stands_at_its_newest_release_tag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """taskiq's version comes from its git tags (versioningit) and grpc-gateway's is a Go module's: neither
    keeps a changelog, and their last releases (0.12.4, v2.30.0) were on no page. The newest tag the
    revision reaches that names a release is read, with its date (a newer pre-release is named beside it);
    one module's tag and a tag on a branch the revision never reached are passed over, and a changelog
    heading a release wins."""
    from conftest import git, make_git_repo

    from generator.repo.docs.model import ReleaseTag

    files = {
        "README.md": "# tiny\n\nTiny routes requests to handlers.\n",
        "tiny.py": "def route():\n    pass\n",
    }
    root = make_git_repo(tmp_path / "repo", files)
    git(root, "tag", "v1.2.0")
    git(root, "checkout", "-q", "-b", "next")
    (root / "tiny.py").write_text("def route():\n    return 1\n")
    git(root, "commit", "-q", "-am", "next")
    git(root, "tag", "v2.0.0")  # on a branch the revision read never reaches
    git(root, "checkout", "-q", "main")
    for n in (1, 2):  # a day apart, so the tags sort by date
        monkeypatch.setenv("GIT_COMMITTER_DATE", f"2030-01-{n + 10:02d}T12:00:00+00:00")
        (root / "tiny.py").write_text(f"def route():\n    return {n}\n")
        git(root, "commit", "-q", "-am", f"change {n}")
    git(root, "tag", "v1.3.0-rc1")
    git(root, "tag", "cmd/tiny/v1.3.0")
    docs, linker = _project(root)
    tagged = git(root, "log", "-1", "--format=%cs", "v1.2.0").strip()
    assert docs.tag == ReleaseTag("v1.2.0", tagged, 2)
    assert release_markdown(docs, linker)[-2:] == [
        f"- **Latest release:** [`v1.2.0`](https://github.com/acme/tiny/tree/v1.2.0), tagged {tagged}"
        " — 2 commits before the revision read",
        # the pre-release the revision is tagged is named beside it
        "- **Latest pre-release:** [`v1.3.0-rc1`](https://github.com/acme/tiny/tree/v1.3.0-rc1), tagged 2030-01-12"
        " — the revision read",
    ]

    (root / "CHANGELOG.md").write_text("# Changelog\n\n## 1.4.0 - 2025-05-13\n\n- Routing.\n")
    docs, _ = _project(root)
    assert docs.tag is None and [p.heading for p in docs.release] == ["Latest release"]


def test_a_revision_tagged_a_pre_release_newer_than_every_release_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """datasette's revision is tagged 1.0a37 (version.py says so), its last release 0.63.1 is 1,279 commits
    behind; the index said only "Latest release: 0.63.1 … 1279 commits before the revision read", as if
    nothing had come since. The newer pre-release is named beside it; an older one is not."""
    from conftest import git, make_git_repo

    from generator.repo.docs.model import ReleaseTag

    files = {
        "README.md": "# tiny\n\nTiny routes requests to handlers.\n",
        "tiny.py": "def route():\n    pass\n",
    }
    root = make_git_repo(tmp_path / "repo", files)
    git(root, "tag", "0.9a1")  # a pre-release before the release: passed over

    def commit(n: int) -> None:  # a tag's date is its commit's: one day apart, so they sort
        monkeypatch.setenv("GIT_COMMITTER_DATE", f"2030-01-{n + 10:02d}T12:00:00+00:00")
        (root / "tiny.py").write_text(f"def route():\n    return {n}\n")
        git(root, "commit", "-q", "-am", f"change {n}")

    commit(0)
    git(root, "tag", "0.63.1")
    for n in (1, 2, 3):
        commit(n)
        git(root, "tag", f"1.0a{n}")
    docs, linker = _project(root)
    tagged = git(root, "log", "-1", "--format=%cs", "1.0a3").strip()
    assert docs.tag is not None and docs.tag.name == "0.63.1" and docs.tag.since == 3
    assert docs.prerelease == ReleaseTag("1.0a3", tagged, 0)
    assert release_markdown(docs, linker)[-2:] == [
        "- **Latest release:** [`0.63.1`](https://github.com/acme/tiny/tree/0.63.1), tagged 2030-01-10"
        " — 3 commits before the revision read",
        f"- **Latest pre-release:** [`1.0a3`](https://github.com/acme/tiny/tree/1.0a3), tagged {tagged}"
        " — the revision read",
    ]
    commit(4)
    git(root, "tag", "1.0.0")  # a release newer than every pre-release: the pre-releases are history
    docs, _ = _project(root)
    assert docs.tag is not None and docs.tag.name == "1.0.0" and docs.prerelease is None


def test_a_poetry_project_stands_at_the_status_and_python_its_tool_poetry_table_declares(
    tmp_path: Path,
) -> None:
    files = {
        "README.md": "# tiny\n\nTiny routes requests to handlers.\n",
        # ormar's form: a [project] table naming the package alone, the rest kept where Poetry reads it
        "pyproject.toml": (
            '[project]\nname = "tiny"\n\n[tool.poetry]\nname = "tiny"\nversion = "0.24.0"\nclassifiers = [\n'
            '    "Development Status :: 4 - Beta",\n    "Programming Language :: Python :: 3.10",\n]\n\n'
            '[tool.poetry.dependencies]\npython = "^3.10.0"\npydantic = "^2.11.9"\n'
        ),
        "tiny/__init__.py": '"""Tiny."""\n',
    }
    root = write_tree(tmp_path / "repo", files)
    docs, linker = _project(root)
    assert [(p.heading, p.text, p.start) for p in docs.release] == [
        ("Version", "0.24.0", 6),
        ("Development status", "Beta", 8),
        ("Requires", "Python `^3.10.0`", 13),
    ]


def test_a_poetry_version_the_dynamic_versioning_plugin_writes_is_no_release(tmp_path: Path) -> None:
    files = {
        "README.md": "# tiny\n\nTiny routes requests to handlers.\n",
        "pyproject.toml": (
            '[tool.poetry]\nname = "tiny"\nversion = "0.0.0"\n\n[tool.poetry.dependencies]\npython = ">=3.9"\n\n'
            "[tool.poetry-dynamic-versioning]\nenable = true\n"
        ),
        "tiny/__init__.py": '"""Tiny."""\n',
    }
    root = write_tree(tmp_path / "repo", files)
    docs, linker = _project(root)
    assert [(p.heading, p.text, p.start) for p in docs.release] == [("Requires", "Python `>=3.9`", 6)]


def test_a_changelog_behind_the_stated_version_or_a_release_tag_names_no_latest_release(
    tmp_path: Path,
) -> None:
    """commitizen's CHANGELOG.md heads v4.13.9 (2026-02-25) while pyproject.toml states 4.17.0 and the tag
    v4.17.0 is there: its index said "Latest release: v4.13.9" beside "Version: 4.17.0". A changelog heading
    an older release than the manifest or a tag is no longer kept; the release shown is the tag's."""
    from conftest import git, make_git_repo

    files = {
        "README.md": "# tiny\n\nTiny routes requests to handlers.\n",
        "CHANGELOG.md": "## v4.13.9 (2026-02-25)\n\n- A fix.\n",
        "pyproject.toml": '[project]\nname = "tiny"\nversion = "4.17.0"\n',
        "tiny/__init__.py": '"""Tiny."""\n',
    }
    root = make_git_repo(tmp_path / "stated", files)
    docs, linker = _project(root)
    assert [(p.heading, p.text) for p in docs.release] == [("Version", "4.17.0")]
    git(root, "tag", "v4.17.0")
    docs, linker = _project(root)
    assert docs.tag is not None and docs.tag.name == "v4.17.0"
    assert release_markdown(docs, linker)[-1].startswith("- **Latest release:** [`v4.17.0`]")
    # a Go module states no version: its tags do (a changelog left at v0.9.0 beside the tag v1.0.0)
    go = {
        "CHANGELOG.md": "# Changelog\n\n## v0.9.0\n\n- A fix.\n",
        "go.mod": "module example.org/tiny\n\ngo 1.22\n",
    }
    root = make_git_repo(tmp_path / "tagged", {**go, "tiny.go": "package tiny\n"})
    git(root, "tag", "v1.0")
    docs, _ = _project(root)
    assert docs.tag is not None and docs.tag.name == "v1.0"
    assert "Latest release" not in [p.heading for p in docs.release]
    # … and a changelog heading the tagged release (1.0.0 is the tag v1.0) is the latest release
    (root / "CHANGELOG.md").write_text("# Changelog\n\n## 1.0.0\n\n- Routing.\n")
    docs, _ = _project(root)
    assert docs.tag is None and "Latest release" in [p.heading for p in docs.release]
