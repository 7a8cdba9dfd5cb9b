"""Stage 1 (clone) and git history: unsafe sources refused before any process, clone + refresh of a bare repo."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from conftest import SAMPLE_PROJECT, git, make_git_repo

from generator.errors import ResearchError, UnsafeSourceError
from generator.repo.checkout.clone import checkout, parse_source, remote_head
from generator.repo.checkout.gitcmd import git_environment, run_git
from generator.repo.checkout.history import file_history
from generator.repo.model import RepoSource

REFUSED = [
    "ext::sh -c touch% /tmp/pwned",
    "ext::git-upload-pack",
    "fd::17",
    "fd::0,1/repo",
    "somehelper::https://github.com/a/b",
    "-uhttps://github.com/a/b",
    "--upload-pack=touch /tmp/pwned",
    "-oProxyCommand=touch@host:a/b",
    "$HOME/repo",
    "${IFS}repo",
    "%USERPROFILE%/repo",
    "~/repo",
    "~root/repo",
    "`id`/repo",
    "file:///etc",
    "FILE:///tmp/repo.git",
    "file://localhost/tmp/repo.git",
    "https://github.com/a/b --upload-pack=x",
    "https://github.com/a/b\n--config=core.sshCommand=x",
    "https://github.com/a/b\x00",
    "https://github.com/a/b\x1b[31m",
    "https://user:pass@github.com/a/b",
    "https://ghp_abcdef1234567890@github.com/a/b",
    "http://github.com/a/b",
    "ssh://git@github.com/a/b",
    "git://github.com/a/b",
    "https://github.com/-a/b",
    "https://github.com/a",
    "https://github.com/a/b?x=1",
    "https://github.com:notaport/a/b",
    "https://tok3n@github.com/a/b\n",
    "https://-host/a/b",
    "git@github.com:-oProxyCommand=x/y",
    "git@github.com:/etc/passwd",
    "",
    "   ",
    "no/such/dir",
]


@pytest.mark.parametrize("raw", REFUSED)
def test_unsafe_sources_refused_before_any_process(raw: str, tmp_path: Path, no_process: None) -> None:
    with pytest.raises(UnsafeSourceError) as info:
        parse_source(raw, tmp_path)
    assert "\n" not in info.value.line()
    assert "user:pass" not in info.value.line()  # credentials are never echoed back


@pytest.mark.parametrize(
    "raw", ["https://ghp_abcdef1234567890@github.com/a/b", "https://ghp_abcdef1234567890@github.com/a/b\x00"]
)
def test_credentials_never_echoed(raw: str, tmp_path: Path) -> None:
    with pytest.raises(UnsafeSourceError) as info:
        parse_source(raw, tmp_path)
    assert "ghp_abcdef1234567890" not in info.value.line()


def test_checkout_refuses_unparsed_location_without_git(tmp_path: Path, no_process: None) -> None:
    source = RepoSource(raw="x", kind="url", location="file:///tmp/x.git", owner="a", name="b")
    with pytest.raises(UnsafeSourceError):
        checkout(source, tmp_path)
    with pytest.raises(UnsafeSourceError):
        remote_head(source, tmp_path)


@pytest.mark.parametrize(
    ("raw", "owner", "name", "location", "web"),
    [
        (
            "https://github.com/acme/sample",
            "acme",
            "sample",
            "https://github.com/acme/sample",
            "https://github.com/acme/sample",
        ),
        (
            "https://github.com/acme/sample.git",
            "acme",
            "sample",
            "https://github.com/acme/sample",
            "https://github.com/acme/sample",
        ),
        (
            "https://github.com/acme/sample/tree/main/src",
            "acme",
            "sample",
            "https://github.com/acme/sample",
            "https://github.com/acme/sample",
        ),
        (
            "git@github.com:acme/sample.git",
            "acme",
            "sample",
            "git@github.com:acme/sample.git",
            "https://github.com/acme/sample",
        ),
        ("git@gitlab.example.org:group/tool", "group", "tool", "git@gitlab.example.org:group/tool.git", None),
        ("https://gitlab.com/group/sub/proj.git", "sub", "proj", "https://gitlab.com/group/sub/proj", None),
    ],
)
def test_remote_sources_accepted(
    raw: str, owner: str, name: str, location: str, web: str | None, tmp_path: Path, no_process: None
) -> None:
    source = parse_source(raw, tmp_path)
    assert (source.kind, source.owner, source.name, source.location, source.web_url) == (
        "url",
        owner,
        name,
        location,
        web,
    )


def test_local_path_owner_from_origin(tmp_path: Path) -> None:
    make_git_repo(
        tmp_path / "work" / "sample", SAMPLE_PROJECT, origin="https://tok3n@github.com/acme/sample.git"
    )
    source = parse_source("work/sample", tmp_path)
    assert (source.kind, source.owner, source.name) == ("local", "acme", "sample")
    assert source.web_url == "https://github.com/acme/sample"
    assert source.location == str((tmp_path / "work" / "sample").resolve())


def test_local_path_without_origin_is_local_owner(tmp_path: Path) -> None:
    make_git_repo(tmp_path / "my tool", {"a.py": "x = 1\n"})
    source = parse_source("my tool", tmp_path)
    assert (source.owner, source.name, source.web_url) == ("local", "my-tool", None)


def test_local_checkout_of_plain_folder(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "a.py").write_text("x = 1\n")
    result = checkout(parse_source("plain", tmp_path), tmp_path / "cache")
    assert result.revision == "" and result.revision_date == dt.date.today().isoformat()
    assert result.path == (tmp_path / "plain").resolve()


def test_local_checkout_records_revision(sample_repo: Path, tmp_path: Path) -> None:
    result = checkout(parse_source(str(sample_repo), tmp_path), tmp_path / "cache")
    assert result.revision == git(sample_repo, "rev-parse", "HEAD") and len(result.revision) == 40
    assert dt.datetime.fromisoformat(result.revision_date).year >= 2020
    assert remote_head(result.source, tmp_path / "cache") == result.revision


def _bare_remote(tmp_path: Path) -> tuple[Path, Path]:
    work = make_git_repo(tmp_path / "upstream", {**SAMPLE_PROJECT})
    os.symlink("/etc/passwd", work / "passwd-link")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "add a symlink")
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(bare))
    return work, bare


def test_clone_then_refresh_fetches_new_commit(tmp_path: Path) -> None:
    work, bare = _bare_remote(tmp_path)
    source = RepoSource(raw="test", kind="url", location=f"file://{bare}", owner="acme", name="sample")
    cache = tmp_path / "cache"
    first = checkout(source, cache, allow_local_remote=True)
    assert first.path == cache / "clones" / "acme" / "sample"
    assert first.revision == git(work, "rev-parse", "HEAD")
    assert (first.path / "sample" / "core.py").is_file()
    assert not (
        first.path / "passwd-link"
    ).is_symlink()  # core.symlinks=false: a plain file with the link text
    (first.path / "untracked-marker").write_text("kept only if the clone is reused\n")

    (work / "sample" / "extra.py").write_text('"""New module."""\n')
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "second")
    git(work, "push", "-q", str(bare), "main")
    new_head = git(work, "rev-parse", "HEAD")
    assert remote_head(source, cache, allow_local_remote=True) == new_head

    second = checkout(source, cache, allow_local_remote=True)
    assert second.revision == new_head
    assert (second.path / "sample" / "extra.py").is_file()
    assert (second.path / "untracked-marker").is_file()  # fetched in place, not re-cloned


def test_clone_failure_is_one_clear_line(tmp_path: Path) -> None:
    source = RepoSource(raw="t", kind="url", location=f"file://{tmp_path}/missing.git", owner="a", name="b")
    with pytest.raises(ResearchError) as info:
        checkout(source, tmp_path / "cache", allow_local_remote=True)
    assert "could not clone" in info.value.line() and "\n" not in info.value.line()
    assert not (tmp_path / "cache" / "clones" / "a" / "b").exists()


def test_file_protocol_blocked_without_test_flag(tmp_path: Path) -> None:
    # defence in depth: even a hand-made RepoSource cannot make git use file:// unless the test flag says so
    _, bare = _bare_remote(tmp_path)
    source = RepoSource(raw="t", kind="url", location=f"file://{bare}", owner="a", name="b")
    with pytest.raises(UnsafeSourceError):
        checkout(source, tmp_path / "cache")


def test_git_environment_strips_secrets() -> None:
    env = git_environment(
        {
            "PATH": "/usr/bin",
            "FOO_API_KEY": "k",
            "GH_TOKEN": "t",
            "APP_SECRET": "s",
            "GIT_ASKPASS": "/bin/evil",
            "GIT_DIR": "/elsewhere/.git",
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "core.sshCommand",
            "GIT_CONFIG_VALUE_0": "touch /tmp/pwned",
        }
    )
    assert "FOO_API_KEY" not in env and "GH_TOKEN" not in env and "APP_SECRET" not in env
    for name in ("GIT_ASKPASS", "GIT_DIR", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"):
        assert name not in env
    assert env["GIT_PROTOCOL_FROM_USER"] == "0" and env["GIT_TERMINAL_PROMPT"] == "0"
    assert env["PATH"] == "/usr/bin"


def test_change_counts(sample_repo: Path, tmp_path: Path) -> None:
    for i in range(3):
        (sample_repo / "sample" / "core.py").write_text(f"x = {i}\n")
        git(sample_repo, "commit", "-q", "-am", f"change {i}")
    counts = file_history(sample_repo, ["sample/core.py", "sample/parser.py", "README.md", "nope.py"]).counts
    assert counts == {"sample/core.py": 4, "README.md": 1, "sample/parser.py": 1}
    assert list(counts)[0] == "sample/core.py"
    plain = tmp_path / "plain"
    plain.mkdir()
    assert file_history(plain, ["a.py"]).counts == {}


def test_git_processes_never_see_our_secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOO_API_KEY", "sekrit-value-123")
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    # a git alias starting with '!' runs a shell with git's environment: print it
    out = run_git(["-c", "alias.showenv=!env", "showenv"], cwd=tmp_path)
    assert "sekrit-value-123" not in out and "GIT_DIR=" not in out
    assert "GIT_PROTOCOL_FROM_USER=0" in out and "GIT_TERMINAL_PROMPT=0" in out


def test_partial_clone_fetches_its_blobs_on_checkout_and_refresh(tmp_path: Path) -> None:
    """With a server that honours --filter=blob:none, checkout and refresh must still fetch the blobs."""
    work, bare = _bare_remote(tmp_path)
    git(bare, "config", "uploadpack.allowFilter", "true")
    source = RepoSource(raw="t", kind="url", location=f"file://{bare}", owner="acme", name="partial")
    first = checkout(source, tmp_path / "cache", allow_local_remote=True)
    assert git(first.path, "config", "remote.origin.promisor") == "true"  # really a partial clone
    assert (first.path / "sample" / "core.py").read_text(encoding="utf-8").startswith('"""Core')
    (work / "sample" / "core.py").write_text('"""Core, second edition."""\n', encoding="utf-8")
    git(work, "commit", "-q", "-am", "second")
    git(work, "push", "-q", str(bare), "main")
    second = checkout(source, tmp_path / "cache", allow_local_remote=True)
    assert (second.path / "sample" / "core.py").read_text(encoding="utf-8") == '"""Core, second edition."""\n'
