"""Finding 11: remote repository hosts that resolve to a non-public address are refused before git runs.

Resolution is injected (no DNS, no network); the one real git process in these tests talks to a TLS server
on 127.0.0.1, reached under a made-up name through the address pin.
"""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
from search_fakes import FakeSearchServer, Reply
from test_ssrf import self_signed

from generator.config import Config, validated
from generator.errors import ResearchError, UnsafeSourceError
from generator.netguard import literal_address
from generator.repo.checkout.clone import check_remote_host, checkout, parse_source, remote_head
from generator.repo.checkout.gitcmd import run_remote_git

PUBLIC = "93.184.215.14"


def resolver_for(table: dict[str, list[str]]):  # noqa: ANN201 - a small test resolver
    calls: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return table[host]

    resolve.calls = calls  # type: ignore[attr-defined]
    return resolve


NAMES = {
    "localhost": ["127.0.0.1", "::1"],
    "intranet.example": ["10.1.2.3"],
    "home.example": ["192.168.0.10"],
    "cgnat.example": ["100.64.7.7"],
    "linklocal.example": ["169.254.10.10"],
    "metadata.example": ["169.254.169.254"],
    "metadata6.example": ["fd00:ec2::254"],
    "ula.example": ["fd12:3456::1"],
    "mapped.example": ["::ffff:127.0.0.1"],
    "mixed.example": [PUBLIC, "10.0.0.1"],  # every address counts, not the first
    "public.example": [PUBLIC, "2606:2800:220:1:248:1893:25c8:1946"],
}

REFUSED = [
    "https://localhost/acme/tool",
    "https://intranet.example/acme/tool",
    "https://home.example:8443/acme/tool",
    "https://cgnat.example/acme/tool",
    "https://linklocal.example/acme/tool",
    "https://metadata.example/acme/tool",
    "https://metadata6.example/acme/tool",
    "https://ula.example/acme/tool",
    "https://mapped.example/acme/tool",
    "https://mixed.example/acme/tool",
    "https://127.0.0.1/acme/tool",
    "https://169.254.169.254/acme/tool",
    "https://2130706433/acme/tool",  # decimal 127.0.0.1
    "https://0x7f.1/acme/tool",  # hex, short form
    "https://0177.0.0.1/acme/tool",  # octal
    "https://127.1/acme/tool",
    "https://0xa9fea9fe/acme/tool",  # 169.254.169.254
    "git@localhost:acme/tool.git",
    "git@10.0.0.8:acme/tool.git",
    "git@metadata.example:acme/tool.git",
]


@pytest.mark.parametrize("raw", REFUSED)
def test_non_public_hosts_refused_before_any_process(raw: str, tmp_path: Path, no_process: None) -> None:
    source = parse_source(raw, tmp_path)
    resolver = resolver_for(NAMES)
    for attempt in (checkout, remote_head):
        with pytest.raises(UnsafeSourceError) as info:
            attempt(source, tmp_path / "cache", resolver=resolver)
        assert "repo.allow_private_hosts" in (info.value.hint or "")
        assert "\n" not in info.value.line()
    assert not (tmp_path / "cache" / "clones").exists()


def test_ipv6_literal_hosts_are_refused_by_the_parser(tmp_path: Path, no_process: None) -> None:
    for raw in ("https://[::1]/a/b", "https://[::ffff:7f00:1]/a/b", "https://[fd00:ec2::254]/a/b"):
        with pytest.raises(UnsafeSourceError):
            parse_source(raw, tmp_path)


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("2130706433", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("10.1", "10.0.0.1"),
        ("[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe"),
        ("1.2.3.4", "1.2.3.4"),
        ("github.com", None),
        ("0day.example", None),
        ("deadbeef", None),  # letters first: a name, resolved as one
    ],
)
def test_numeric_host_forms_are_read_as_addresses(host: str, address: str | None) -> None:
    found = literal_address(host)
    assert (str(found) if found else None) == address


def test_public_host_is_pinned_to_the_addresses_checked() -> None:
    resolver = resolver_for(NAMES)
    pin = check_remote_host("https://public.example:8443/acme/tool", False, resolver)
    assert pin == (
        ("http.curloptResolve", f"public.example:8443:{PUBLIC},[2606:2800:220:1:248:1893:25c8:1946]"),
    )
    assert check_remote_host("git@public.example:acme/tool.git", False, resolver) == ()  # checked, not pinned
    assert resolver.calls == ["public.example", "public.example"]  # type: ignore[attr-defined]


def test_allow_private_hosts_skips_the_check(tmp_path: Path) -> None:
    resolver = resolver_for({})
    assert check_remote_host("https://intranet.example/acme/tool", True, resolver) == ()
    assert resolver.calls == []  # type: ignore[attr-defined]
    # the operator's switch really lets git go there: port 9 on loopback refuses, so the clone fails
    source = parse_source("https://127.0.0.1:9/acme/tool", tmp_path)
    with pytest.raises(ResearchError) as info:
        checkout(source, tmp_path / "cache", allow_private_hosts=True, resolver=resolver)
    assert not isinstance(info.value, UnsafeSourceError)
    assert "could not clone" in info.value.line()


def test_config_field_defaults_off() -> None:
    assert Config().repo.allow_private_hosts is False
    assert validated(Config, {"repo": {"allow_private_hosts": True}}).repo.allow_private_hosts is True


@pytest.fixture
def git_tls_server(tmp_path: Path):  # noqa: ANN201 - yields (server, certificate)
    cert, key = self_signed(tmp_path, "repo.test")
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    with FakeSearchServer(tls=tls) as server:
        yield server, cert


def test_git_connects_to_the_pinned_address_and_never_follows_a_redirect(
    git_tls_server: tuple[FakeSearchServer, Path], tmp_path: Path
) -> None:
    server, cert = git_tls_server
    # an allowed host answering with a redirect to a path (or a host) the check never saw
    server.route(
        "/acme/tool/info/refs",
        Reply(302, "", headers={"Location": f"https://repo.test:{server.port}/internal/info/refs"}),
    )
    url = f"https://repo.test:{server.port}/acme/tool"
    pin = (("http.curloptResolve", f"repo.test:{server.port}:127.0.0.1"),)
    with pytest.raises(ResearchError):
        run_remote_git(
            ["ls-remote", "--", url, "HEAD"], cwd=tmp_path, pin=pin, environ={"GIT_SSL_CAINFO": str(cert)}
        )
    assert server.hits("/acme/tool/info/refs") == 1  # "repo.test" has no DNS: the pin took git there
    assert server.requests[0].headers["host"] == f"repo.test:{server.port}"
    assert server.hits("/internal/info/refs") == 0


@pytest.mark.parametrize("allow", [False, True])
def test_refresh_checks_hosts_and_honours_the_switch(allow: bool, kb_root: Path) -> None:
    from kb_fakes import add_repo

    from generator.app.refresh import find_stale
    from generator.config import load_config
    from generator.store import KBPaths

    (kb_root / "deepkb.yml").write_text(
        f"repos: ['https://127.0.0.1:9/acme/tool']\nrepo: {{allow_private_hosts: {str(allow).lower()}}}\n",
        encoding="utf-8",
    )
    paths = KBPaths(kb_root)
    add_repo(paths, "acme", "tool", tags=["x"], source="https://127.0.0.1:9/acme/tool")
    [item] = [i for i in find_stale(paths, load_config(kb_root / "deepkb.yml")) if i.kind == "repo"]
    assert item.status == "failed"
    if allow:  # git was allowed to try loopback port 9, which refuses
        assert "refused host" not in item.reason and "could not read the remote HEAD" in item.reason
    else:
        assert "refused host 127.0.0.1: it is a loopback address" in item.reason


def test_unresolvable_host_is_one_clear_line(tmp_path: Path, no_process: None) -> None:
    def no_dns(host: str, port: int) -> list[str]:
        return []

    source = parse_source("https://nowhere.example/acme/tool", tmp_path)
    with pytest.raises(UnsafeSourceError, match="has no address"):
        checkout(source, tmp_path / "cache", resolver=no_dns)


@pytest.mark.parametrize("allow", [False, True])
def test_repo_run_honours_the_switch(allow: bool, kb_root: Path) -> None:
    """`repo run` (and build, which runs the same pipeline) passes repo.allow_private_hosts to the clone."""
    from click.testing import CliRunner

    from generator.cli import cli

    (kb_root / "deepkb.yml").write_text(
        f"repo: {{allow_private_hosts: {str(allow).lower()}}}\n", encoding="utf-8"
    )
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "repo", "run", "https://127.0.0.1:9/acme/tool"])
    assert result.exit_code != 0
    if allow:  # git was allowed to try loopback port 9, which refuses
        assert "refused host" not in result.output
    else:
        assert "refused host 127.0.0.1: it is a loopback address" in result.output
