"""Finding 1: a repository's own git configuration never runs a program, whatever deepkb asks git.

Each case plants a program-running setting in the researched repository (directly, or through an include)
whose command leaves a marker file; deepkb's stages and every git command run through `run_git` must
leave no marker, and must write nothing into the repository.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SAMPLE_PROJECT, git, make_git_repo

from generator.errors import ResearchError
from generator.repo.checkout.clone import checkout, parse_source, remote_head
from generator.repo.checkout.gitcmd import run_git
from generator.repo.checkout.history import file_history
from generator.repo.map.walk import tracked_files


def marker_program(base: Path, tag: str) -> Path:
    """A script that leaves base/pwned-<tag> and, asked to sign, prints a PGP-looking signature."""
    script = base / f"prog-{tag}.sh"
    script.write_text(
        "#!/bin/sh\n"
        f"touch '{base}/pwned-{tag}'\n"
        'case "$*" in *-bsau*) echo "[GNUPG:] SIG_CREATED D 1 8 00 0 X" >&2;'
        ' printf -- "-----BEGIN PGP SIGNATURE-----\\nfake\\n-----END PGP SIGNATURE-----\\n";; esac\n'
        "cat >/dev/null 2>&1\nexit 0\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def signed_repo(base: Path) -> Path:
    """A repository whose HEAD commit is signed (by a fake gpg), with two commits for diffs."""
    repo = make_git_repo(base / "repo", SAMPLE_PROJECT, origin="https://github.com/acme/sample.git")
    signer = marker_program(base, "signing")
    (repo / "sample" / "core.py").write_text('"""Changed."""\n', encoding="utf-8")
    git(repo, "-c", f"gpg.program={signer}", "-c", "user.signingkey=x", "commit", "-q", "-S", "-am", "signed")
    assert "gpgsig" in git(repo, "cat-file", "commit", "HEAD")
    (base / "pwned-signing").unlink()
    return repo


def _config(repo: Path, *pairs: tuple[str, str], file: Path | None = None) -> None:
    for key, value in pairs:
        git(repo, "config", *(["--file", str(file)] if file else []), key, value)


def plant_show_signature(repo: Path, base: Path) -> None:
    _config(repo, ("log.showSignature", "true"), ("gpg.program", str(marker_program(base, "gpg"))))


def plant_include(repo: Path, base: Path) -> None:
    included = base / "included.gitconfig"
    _config(
        repo, ("log.showSignature", "true"), ("gpg.program", str(marker_program(base, "gpg"))), file=included
    )
    _config(repo, ("include.path", str(included)))


def plant_include_if(repo: Path, base: Path) -> None:
    included = base / "conditional.gitconfig"
    _config(
        repo, ("log.showSignature", "true"), ("gpg.program", str(marker_program(base, "gpg"))), file=included
    )
    _config(repo, (f"includeIf.gitdir:{repo}/.path", str(included)))


def plant_pager(repo: Path, base: Path) -> None:
    _config(repo, ("core.pager", str(marker_program(base, "pager"))), ("pager.log", "true"))


def plant_external_diff(repo: Path, base: Path) -> None:
    _config(repo, ("diff.external", str(marker_program(base, "external-diff"))))


def plant_textconv(repo: Path, base: Path) -> None:
    (repo / ".git" / "info" / "attributes").write_text("* diff=evil\n", encoding="utf-8")
    _config(repo, ("diff.evil.textconv", str(marker_program(base, "textconv"))))


def plant_filter(repo: Path, base: Path) -> None:
    (repo / ".gitattributes").write_text("* filter=evil\n", encoding="utf-8")
    program = str(marker_program(base, "filter"))
    _config(
        repo,
        ("filter.evil.clean", program),
        ("filter.evil.smudge", program),
        ("filter.evil.required", "true"),
    )


def plant_fsmonitor(repo: Path, base: Path) -> None:
    _config(repo, ("core.fsmonitor", str(marker_program(base, "fsmonitor"))))


def plant_hooks(repo: Path, base: Path) -> None:
    hooks = base / "hooks"
    hooks.mkdir()
    for name in ("reference-transaction", "post-checkout", "post-index-change"):
        os.symlink(marker_program(base, f"hook-{name}"), hooks / name)
        os.symlink(marker_program(base, f"hook-{name}"), repo / ".git" / "hooks" / name)
    _config(repo, ("core.hooksPath", str(hooks)))


def plant_transport(repo: Path, base: Path) -> None:
    program = str(marker_program(base, "transport"))
    git(repo, "remote", "add", "ssh-remote", "ssh://git@127.0.0.1:9/acme/tool.git")
    git(repo, "remote", "add", "path-remote", str(base / "elsewhere.git"))
    _config(
        repo,
        ("core.sshCommand", program),
        ("remote.path-remote.uploadpack", program),
        ("credential.helper", program),
        ("core.askPass", program),
        ("protocol.allow", "always"),
        ("alias.co", f"!{program}"),
    )


PLANTS: dict[str, Callable[[Path, Path], None]] = {
    "log.showSignature + gpg.program": plant_show_signature,
    "include.path": plant_include,
    "includeIf": plant_include_if,
    "core.pager": plant_pager,
    "diff.external": plant_external_diff,
    "textconv": plant_textconv,
    "filter driver": plant_filter,
    "core.fsmonitor": plant_fsmonitor,
    "core.hooksPath + hooks": plant_hooks,
    "sshCommand, uploadpack, credential helper, askPass, protocol.allow, alias": plant_transport,
}

# Commands that would consult each setting if git read the repository's configuration.
PROBES: tuple[tuple[str, ...], ...] = (
    ("log", "-1", "HEAD"),
    ("log", "-p", "-2", "HEAD"),
    ("show", "HEAD"),
    ("diff", "HEAD~1", "HEAD"),
    ("status", "--porcelain"),
    ("update-ref", "refs/heads/planted", "HEAD"),
    ("ls-remote", "ssh-remote"),
    ("fetch", "path-remote"),
    ("co",),
)


@pytest.fixture
def planted(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Path]:
    repo = signed_repo(tmp_path)
    PLANTS[request.param](repo, tmp_path)
    (repo / "sample" / "parser.py").write_text('"""Dirty: status must compare it."""\n', encoding="utf-8")
    return repo, tmp_path


def _markers(base: Path) -> list[str]:
    return sorted(p.name for p in base.glob("pwned-*"))


@pytest.mark.parametrize("planted", list(PLANTS), indirect=True)
def test_research_stages_never_run_repository_config(planted: tuple[Path, Path]) -> None:
    repo, base = planted
    head = git(repo, "rev-parse", "HEAD")
    source = parse_source(str(repo), base)
    result = checkout(source, base / "cache")
    assert result.revision == head  # the stages still read what they need
    assert remote_head(source, base / "cache") == head
    assert file_history(repo, ["sample/core.py"]).counts == {"sample/core.py": 2}
    assert "sample/core.py" in tracked_files(repo)
    assert _markers(base) == []


@pytest.mark.parametrize("planted", list(PLANTS), indirect=True)
def test_no_git_command_run_through_run_git_consults_repository_config(planted: tuple[Path, Path]) -> None:
    repo, base = planted
    refs_before = git(repo, "for-each-ref")
    for probe in PROBES:
        try:
            run_git(list(probe), cwd=repo, timeout=60)
        except ResearchError:
            pass  # a command may fail in the sealed view; it must never run a program
    assert _markers(base) == []
    assert git(repo, "for-each-ref") == refs_before  # writes land in the throw-away view, not the repository


def test_bare_repository_lookalike_is_not_opened(tmp_path: Path) -> None:
    """A plain folder holding HEAD, objects/, refs/ and config is not taken for a bare repository."""
    bare = tmp_path / "looks-bare"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    _config(bare, ("core.fsmonitor", str(marker_program(tmp_path, "bare"))), ("core.bare", "false"))
    _config(bare, ("log.showSignature", "true"), ("gpg.program", str(marker_program(tmp_path, "bare"))))
    with pytest.raises(ResearchError):
        run_git(["status"], cwd=bare)
    assert _markers(tmp_path) == []


def test_symlinked_dot_git_is_not_followed(tmp_path: Path) -> None:
    other = make_git_repo(tmp_path / "other", {"secret-history.txt": "x\n"})
    tree = tmp_path / "tree"
    tree.mkdir()
    os.symlink(other / ".git", tree / ".git")
    assert tracked_files(tree) == frozenset()
    assert file_history(tree, ["secret-history.txt"]).counts == {}


def test_hostile_head_is_never_opened_as_a_path(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    (repo / ".git" / "HEAD").write_text("ref: ../../../../../../etc/passwd\n", encoding="utf-8")
    result = checkout(parse_source(str(repo), tmp_path), tmp_path / "cache")
    assert result.revision == ""  # read as an unborn branch


def test_worktree_and_sha256_repositories_are_read(tmp_path: Path) -> None:
    main = make_git_repo(tmp_path / "main", {"a.py": "x = 1\n"})
    git(main, "worktree", "add", "-q", "-b", "side", str(tmp_path / "side"))
    plant_show_signature(main, tmp_path)
    assert checkout(parse_source(str(tmp_path / "side"), tmp_path), tmp_path / "c").revision == git(
        main, "rev-parse", "HEAD"
    )
    assert tracked_files(tmp_path / "side") == frozenset({"a.py"})
    sha256 = tmp_path / "sha256"
    sha256.mkdir()
    git(sha256, "init", "-q", "--object-format=sha256")
    (sha256 / "b.py").write_text("y = 2\n", encoding="utf-8")
    git(sha256, "add", "-A")
    git(sha256, "commit", "-q", "-m", "one")
    assert len(checkout(parse_source(str(sha256), tmp_path), tmp_path / "c").revision) == 64
    assert _markers(tmp_path) == []


def test_repo_run_and_refresh_never_run_repository_config(tmp_path: Path) -> None:
    """The commands of finding 1, through the real CLI: `repo run PATH`, then `refresh` after a new commit."""
    from click.testing import CliRunner

    from generator.cli import cli

    repo = signed_repo(tmp_path)
    plant_include(repo, tmp_path)
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "deepkb.yml").write_text(f"repos:\n  - {repo}\n", encoding="utf-8")
    base = ["--root", str(kb), "--provider", "offline"]
    run = CliRunner().invoke(cli, [*base, "repo", "run", str(repo)])
    assert run.exit_code == 0, run.output
    assert (kb / "site_src" / "repos" / "acme" / "sample" / "index.md").is_file()
    assert _markers(tmp_path) == []
    (repo / "sample" / "extra.py").write_text('"""New."""\n', encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "new")
    for marker in tmp_path.glob("pwned-*"):
        marker.unlink()  # committing above is the test's own git, not deepkb's
    refresh = CliRunner().invoke(cli, [*base, "refresh", "--no-site", "--json"])
    assert refresh.exit_code == 0, refresh.output
    assert '"refreshed": 1' in refresh.output
    assert _markers(tmp_path) == []


@pytest.mark.parametrize("name", ["config", "HEAD", "index", "packed-refs"])
def test_fifo_in_git_directory_never_blocks(name: str, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"}, origin="https://github.com/acme/tool.git")
    target = repo / ".git" / name
    target.unlink(missing_ok=True)
    os.mkfifo(target)  # opening it for reading would wait for a writer forever
    source = parse_source(str(repo), tmp_path)
    assert source.name in {"tool", "repo"}
    result = checkout(source, tmp_path / "cache")
    assert len(result.revision) in {0, 40}
    tracked_files(repo)
    file_history(repo, ["a.py"])


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give files away")
def test_repository_of_another_user_is_read_without_trusting_it(tmp_path: Path) -> None:
    repo = signed_repo(tmp_path)
    plant_show_signature(repo, tmp_path)
    head = git(repo, "rev-parse", "HEAD")
    for path in [repo, *repo.rglob("*")]:
        os.lchown(path, 65534, 65534)
    assert checkout(parse_source(str(repo), tmp_path), tmp_path / "cache").revision == head
    assert "sample/core.py" in tracked_files(repo)
    assert _markers(tmp_path) == []


@pytest.mark.parametrize("linked", ["refs/tags", "refs"])
def test_symlinked_tags_folder_is_not_copied_into_the_view(linked: str, tmp_path: Path) -> None:
    """A `refs/tags` (or `refs`) planted as a link to another folder lends the sealed view none of its files."""
    from generator.repo.checkout.sealed import find_layout, sealed_view

    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    git(repo, "tag", "v1.0")
    git(repo, "pack-refs", "--all")
    outside = tmp_path / "outside"
    (outside / "tags").mkdir(parents=True)
    (outside / "tags" / "v9.9").write_text("secret line\n", encoding="utf-8")
    (outside / "heads").mkdir()
    planted = repo / ".git" / linked
    moved = tmp_path / "moved"
    planted.rename(moved)
    os.symlink(outside / "tags" if linked == "refs/tags" else outside, planted)
    layout = find_layout(repo)
    assert layout is not None
    with sealed_view(repo, layout) as env:
        view = Path(env["GIT_DIR"])
        assert not (view / "refs" / "tags" / "v9.9").exists()
        assert run_git(["tag", "--list"], cwd=repo).splitlines() == ["v1.0"]  # the packed tag is still read
