"""Where the project stands, from its own files: the README's stability section (fx's "This library is `v1`
and follows SemVer strictly"), the latest release its changelog heads (griffe's 2.2.0 of 2026-08-16), and
what its manifest declares — a development status, the language version it requires (pyproject's
`requires-python` or Poetry's `python`, go.mod's `go`, package.json's `engines`). Each a passage cited at
its line. A project whose changelog heads no release is read from its git tags: the newest release tag the
revision reaches (taskiq's 0.12.4, grpc-gateway's v2.30.0), with its date."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

from generator.documents.model import Document
from generator.errors import ResearchError
from generator.repo.checkout.gitcmd import run_git
from generator.repo.docs.model import ReleaseTag
from generator.repo.map.walk import read_or_none
from generator.repo.model import DocPassage

MANIFEST_BYTES = 200_000
CHANGELOG_LINES = 300  # the latest release is headed near the top
STABILITY_PASSAGES = 3
LATEST = "Latest release"  # the heading of the changelog's latest release passage
# the README section saying how far the project can be relied on
_STABILITY = re.compile(
    r"^\W*(?:(?:api |project )?stability|(?:project |development )?status|(?:semantic )?versioning|maturity"
    r"|compatibility|release policy)\W*$",
    re.IGNORECASE,
)
_CHANGELOG = re.compile(
    r"^(?:change[-_ ]?log|changes|history|news|releases)(?:\.(?:md|markdown|rst|txt))?$", re.I
)
_MD_HEADING = re.compile(r"^#{1,4}[ \t]+(.+?)[ \t#]*$")
_RST_UNDERLINE = re.compile(r"^([=\-~^*+#])\1{2,}[ \t]*$")
_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)?(?:[-.+]?[0-9A-Za-z.]+)?(?![\w.])")
_UNRELEASED = re.compile(r"unreleased|upcoming|\bnext\b|in progress|\bmain\b|\bmaster\b", re.IGNORECASE)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_STATUS = re.compile(r"Development Status\s*::\s*\d+\s*-\s*([\w/ -]+)")
_GO_DIRECTIVE = re.compile(r"^go[ \t]+(\d+\.\d+(?:\.\d+)?)[ \t]*$", re.MULTILINE)
# a release's tag: a version alone ("v2.30.0", "0.12.4"), never a pre-release ("v3.0.0-rc1") nor a tag of
# one module of several ("protoc-gen-openapiv2/v2.0.0"), nor a moving one ("latest", "v1")
_RELEASE_TAG = re.compile(r"v?\d+(?:\.\d+){1,3}")
# a pre-release's tag: "1.0a37", "v3.0.0-rc1", "2.0.0-beta.1", "1.2.0.dev3"
_PRERELEASE_TAG = re.compile(r"v?\d+(?:\.\d+){1,3}[-.]?(?:a|b|rc|alpha|beta|pre|preview|dev)\.?\d*")

Tag = tuple[str, str]  # a tag's name and its date (2024-05-01)


def release_passages(
    root: Path, readme: Document | None, paths: Collection[str], tags: Sequence[Tag]
) -> tuple[DocPassage, ...]:
    """The project's release state, each passage headed by what it says (`DocPassage.heading`): the
    README's stability section, the latest release, the manifests' status and requirements. `tags` are
    `release_tags`'."""
    manifests = tuple(_manifests(root, paths))
    stated = [p.text for p in manifests if p.heading == "Version"]
    latest = [p for p in _latest_release(root, paths) if not _behind(p.text, [*stated, _newest_tag(tags)[0]])]
    return (*_stability(readme), *latest, *manifests)


def release_tag(root: Path, release: Collection[DocPassage], tags: Sequence[Tag]) -> ReleaseTag | None:
    """The newest release tag reachable from the revision read, when no changelog passage of `release`
    already names the latest release; None when there is none (a clone without tags, no git)."""
    if any(p.heading == LATEST for p in release):
        return None
    return _tagged(root, *_newest_tag(tags))


def prerelease_tag(root: Path, release: Collection[DocPassage], tags: Sequence[Tag]) -> ReleaseTag | None:
    """The newest pre-release tag reachable from the revision read when it is newer than every release tag,
    by date and by version (datasette's revision is tagged 1.0a37 while its last release, 0.63.1, is 1,279
    commits behind: the pages named only that); None when a changelog names the latest release or no
    pre-release is newer (an rc made before its final release is history)."""
    if any(p.heading == LATEST for p in release):
        return None
    latest: tuple[int, ...] = ()
    newer: list[tuple[str, str]] = []
    for name, date in tags:
        if _RELEASE_TAG.fullmatch(name):
            latest = _numbers(name)
            break
        if _PRERELEASE_TAG.fullmatch(name):
            newer.append((name, date))
    shown = next(((n, d) for n, d in newer if _numbers(n) > latest), None)
    return _tagged(root, *shown) if shown else None


def _tagged(root: Path, name: str, date: str) -> ReleaseTag | None:
    if not name:
        return None
    try:
        since = run_git(["rev-list", "--count", f"refs/tags/{name}..HEAD"], cwd=root).strip()
    except ResearchError:
        return None
    return ReleaseTag(name, date, int(since)) if since.isdigit() else None


def _newest_tag(tags: Sequence[Tag]) -> Tag:
    """The newest release tag of `tags` and its date; ("", "") when there is none."""
    return next(((n, d) for n, d in tags if _RELEASE_TAG.fullmatch(n)), ("", ""))


def release_tags(root: Path) -> list[Tag]:
    """The tags reachable from the revision read with their dates, the newest first; none without git.
    Listed once for `release_passages`, `release_tag` and `prerelease_tag`."""
    try:
        listed = run_git(
            [
                "tag",
                "--merged",
                "HEAD",
                "--sort=-creatordate",
                "--format=%(refname:strip=2)%09%(creatordate:short)",
            ],
            cwd=root,
        )
    except ResearchError:
        return []
    return [(name, date) for name, _, date in (line.partition("\t") for line in listed.splitlines())]


def _behind(heading: str, releases: Collection[str]) -> bool:
    """Whether the release a changelog heads is older than a release the manifest states or a tag names:
    commitizen's CHANGELOG.md heads v4.13.9 beside `version = "4.17.0"` and the tag v4.17.0 — a changelog
    no longer kept, whose head is not the latest release."""
    found = _VERSION.search(heading)
    headed = _numbers(found.group()) if found else ()
    return bool(headed) and any(_RELEASE_TAG.fullmatch(r) and _numbers(r) > headed for r in releases)


def _numbers(version: str) -> tuple[int, ...]:
    """A version's release numbers, four of them ("v4.13.9-rc1" → (4, 13, 9, 0); "1.4" is "1.4.0"), for
    comparing releases."""
    found = re.match(r"v?(\d+(?:\.\d+)*)", version)
    numbers = [int(n) for n in found.group(1).split(".")[:4]] if found else []
    return (*numbers, *[0] * (4 - len(numbers))) if numbers else ()


def _stability(readme: Document | None) -> Iterator[DocPassage]:
    if readme is None:
        return
    for section in readme.sections:
        if not _STABILITY.match(section.heading):
            continue
        said = [b for b in section.blocks if b.kind in ("paragraph", "item") and b.text.strip()]
        for block in said[:STABILITY_PASSAGES]:
            yield DocPassage(readme.origin, block.start, block.end, block.kind, block.text, section.heading)
        return


def _latest_release(root: Path, paths: Collection[str]) -> Iterator[DocPassage]:
    """The first released version the root's changelog heads (an "Unreleased" heading passed over)."""
    for path in sorted(p for p in paths if "/" not in p and _CHANGELOG.match(p)):
        lines = (read_or_none(root, path, max_bytes=MANIFEST_BYTES) or "").splitlines()[:CHANGELOG_LINES]
        for number in range(len(lines)):
            heading = _heading(lines, number)
            if heading and not _UNRELEASED.search(heading) and _VERSION.search(heading):
                yield DocPassage(path, number + 1, number + 1, "paragraph", heading, LATEST)
                return


def _heading(lines: list[str], number: int) -> str:
    """The text of a Markdown heading at `number`, or of a reST title underlined on the next line."""
    if found := _MD_HEADING.match(lines[number]):
        text = found.group(1)
    elif number + 1 < len(lines) and _RST_UNDERLINE.match(lines[number + 1]) and lines[number].strip():
        text = lines[number]
    else:
        return ""
    return " ".join(_LINK.sub(r"\1", text).split())


def _manifests(root: Path, paths: Collection[str]) -> Iterator[DocPassage]:
    if "pyproject.toml" in paths:
        yield from _pyproject(root)
    if "go.mod" in paths:
        text = read_or_none(root, "go.mod", max_bytes=MANIFEST_BYTES) or ""
        if found := _GO_DIRECTIVE.search(text):
            line = text.count("\n", 0, found.start()) + 1
            yield DocPassage("go.mod", line, line, "paragraph", f"Go {found.group(1)}", "Requires")
    if "package.json" in paths:
        yield from _package_json(root)


def _pyproject(root: Path) -> Iterator[DocPassage]:
    """The version, status and Python the `[project]` table declares; where it leaves one out, the form
    Poetry keeps it in — `version` and `classifiers` under `[tool.poetry]`, the Python as `python` under
    `[tool.poetry.dependencies]` (ormar's `python = "^3.10.0"`). PDM and Hatch read `[project]` alone."""
    text = read_or_none(root, "pyproject.toml", max_bytes=MANIFEST_BYTES) or ""
    try:
        manifest = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    project = _table(manifest, "project")
    poetry = _table(_table(manifest, "tool"), "poetry")
    version = project.get("version")
    # a Poetry version the dynamic-versioning plugin writes at build time stands as a placeholder ("0.0.0")
    if version is None and "poetry-dynamic-versioning" not in text:
        version = poetry.get("version")
    if isinstance(version, str) and (line := _line_of(text, "version", version)):
        yield DocPassage("pyproject.toml", line, line, "paragraph", version, "Version")
    classifiers = project.get("classifiers", poetry.get("classifiers"))
    listed = classifiers if isinstance(classifiers, list) else []
    status = next((m.group(1).strip() for c in listed if (m := _STATUS.search(str(c)))), "")
    if status and (line := _line_of(text, "Development Status", status)):
        yield DocPassage("pyproject.toml", line, line, "paragraph", status, "Development status")
    key, python = "requires-python", project.get("requires-python")
    if python is None:
        key, python = "python", _table(poetry, "dependencies").get("python")
    if isinstance(python, str) and (line := _line_of(text, key, python)):
        yield DocPassage("pyproject.toml", line, line, "paragraph", f"Python `{python}`", "Requires")


def _table(parent: dict[str, object], key: str) -> dict[str, object]:
    """`parent`'s table `key`, empty when it has none or holds something else there."""
    found = parent.get(key)
    return found if isinstance(found, dict) else {}


def _package_json(root: Path) -> Iterator[DocPassage]:
    text = read_or_none(root, "package.json", max_bytes=MANIFEST_BYTES) or ""
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError:
        return
    if not isinstance(manifest, dict):
        return
    version = manifest.get("version")
    # a package semantic-release publishes keeps no release in its file (immer's "10.0.3-beta")
    if "semantic-release" in text:
        version = None
    if isinstance(version, str) and (line := _line_of(text, '"version"', version)):
        yield DocPassage("package.json", line, line, "paragraph", version, "Version")
    engines = manifest.get("engines")
    for engine, wanted in engines.items() if isinstance(engines, dict) else ():
        if isinstance(wanted, str) and (line := _line_of(text, f'"{engine}"', wanted)):
            yield DocPassage("package.json", line, line, "paragraph", f"{engine} `{wanted}`", "Requires")


def _line_of(text: str, key: str, value: str) -> int:
    """The 1-based line holding both `key` and `value`, 0 when none does."""
    return next((n for n, line in enumerate(text.splitlines(), 1) if key in line and value in line), 0)
