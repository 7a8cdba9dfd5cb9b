"""The SSRF guard: which targets are refused before any connection, and that redirects are re-checked."""

from __future__ import annotations

import ipaddress
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from search_fakes import FakeSearchServer, Reply

from generator.errors import UnsafeSourceError
from generator.netguard import address_problem
from generator.topic.crawl import Crawler, FetchedPage, FetchFailed
from generator.topic.ssrf import BlockedTarget, Guard

PUBLIC = "93.184.215.14"


def fetch_page(url: str, *, allow_loopback: bool = False) -> FetchedPage:
    """One page through a fresh crawler's SSRF guard, with no politeness wait."""
    with Crawler(allow_loopback=allow_loopback, delay=0.0) as crawler:
        return crawler.fetch(url)


def resolver_for(table: dict[str, list[str]]):  # noqa: ANN201 - a small test resolver
    def resolve(host: str, port: int) -> list[str]:
        return table[host]

    return resolve


@pytest.fixture
def target() -> Iterator[FakeSearchServer]:
    """A server that must never be reached by a refused fetch."""
    with FakeSearchServer() as server:
        server.route(
            "/secret",
            Reply(200, "<html><body><p>internal secret</p></body></html>", content_type="text/html"),
        )
        yield server


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[::127.0.0.1]/",
        "http://10.0.0.1/",
        "http://172.16.5.4/",
        "http://192.168.1.1/",
        "http://100.64.0.1/",
        "http://127.0.0.1/",
        "http://[::1]/",
        "http://0.0.0.0/",
        "http://[fd00:ec2::254]/",
        "http://[fe80::1]/",
        "http://224.0.0.1/",
        "http://240.0.0.1/",
        "http://[2002:7f00:1::]/",  # 6to4 embedding 127.0.0.1
        "http://[2002:a00:1::]/",  # 6to4 embedding 10.0.0.1
        "http://[64:ff9b::a00:1]/",  # NAT64 embedding 10.0.0.1
        "http://2130706433/",  # 127.0.0.1 as one decimal number
        "http://localhost/",
    ],
)
def test_refused_addresses(url: str) -> None:
    with pytest.raises(BlockedTarget):
        Guard().check(url)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.org/",
        "gopher://example.org/",
        "http://user:pw@example.org/",
        "http:///x",
    ],
)
def test_refused_urls(url: str) -> None:
    with pytest.raises(BlockedTarget):
        Guard(resolver=resolver_for({"example.org": [PUBLIC]})).check(url)


def test_hostname_resolving_to_loopback_refused() -> None:
    guard = Guard(resolver=resolver_for({"evil.example": ["127.0.0.1"]}))
    with pytest.raises(BlockedTarget, match="loopback"):
        guard.check("https://evil.example/")


def test_any_bad_address_refuses_the_host() -> None:
    guard = Guard(resolver=resolver_for({"mixed.example": [PUBLIC, "10.1.2.3"]}))
    with pytest.raises(BlockedTarget, match="private"):
        guard.check("https://mixed.example/")


def test_public_host_is_pinned_to_checked_address() -> None:
    target = Guard(
        resolver=resolver_for({"docs.example": [PUBLIC, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]})
    ).check("https://Docs.Example/page?q=1")
    assert (target.host, target.port, target.address) == ("docs.example", 443, PUBLIC)


def test_odd_ports_refused_web_ports_allowed() -> None:
    guard = Guard(resolver=resolver_for({"docs.example": [PUBLIC]}))
    with pytest.raises(BlockedTarget, match="port 6379"):
        guard.check("http://docs.example:6379/")
    assert guard.check("http://docs.example:8080/").port == 8080


def test_loopback_switch_is_per_host_when_a_set() -> None:
    guard = Guard(
        allow_loopback=frozenset({"fixture.test"}), resolver=resolver_for({"fixture.test": ["127.0.0.1"]})
    )
    assert guard.check("http://fixture.test:5000/").address == "127.0.0.1"
    with pytest.raises(BlockedTarget):
        guard.check("http://127.0.0.1:5000/")


def test_loopback_switch_never_allows_private_or_mapped() -> None:
    guard = Guard(allow_loopback=True)
    for url in ("http://10.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/"):
        with pytest.raises(BlockedTarget):
            guard.check(url)


def test_address_problem_public_is_none() -> None:
    assert address_problem(ipaddress.ip_address(PUBLIC)) is None
    assert address_problem(ipaddress.ip_address("2606:4700::1111")) is None


@pytest.mark.parametrize(
    "url",
    ["http://169.254.169.254/secret", "http://[::ffff:127.0.0.1]:{port}/secret", "http://10.0.0.1/secret"],
)
def test_refusals_send_nothing(url: str, target: FakeSearchServer) -> None:
    with pytest.raises(UnsafeSourceError):
        fetch_page(url.format(port=target.port))
    assert target.hits() == 0


def test_localhost_refused_without_the_switch(target: FakeSearchServer) -> None:
    with pytest.raises(BlockedTarget, match="loopback"):
        fetch_page(f"http://localhost:{target.port}/secret")
    assert target.hits() == 0


@pytest.mark.parametrize(
    "form",
    [
        "http://127.0.0.1:{port}/secret",
        "http://localhost:{port}/secret",
        "http://[::ffff:127.0.0.1]:{port}/secret",
    ],
)
def test_redirect_to_loopback_refused_with_zero_hits_on_target(form: str, target: FakeSearchServer) -> None:
    """A 'public' site (the fake name public.test, pinned to a local redirector) redirects to loopback."""
    with FakeSearchServer() as redirector:
        redirector.route("/robots.txt", Reply(404, "none"))
        redirector.route("/start", Reply(302, "", headers={"location": form.format(port=target.port)}))
        crawler = Crawler(
            allow_loopback=frozenset({"public.test"}),
            resolver=resolver_for({"public.test": ["127.0.0.1"], "localhost": ["127.0.0.1"]}),
            delay=0,
        )
        with crawler, pytest.raises(BlockedTarget):
            crawler.fetch(f"http://public.test:{redirector.port}/start")
        assert redirector.hits("/start") == 1
    assert target.hits() == 0


def test_redirect_limit(target: FakeSearchServer) -> None:
    target.route("/loop", Reply(302, "", headers={"location": "/loop"}))
    with (
        Crawler(allow_loopback=True, delay=0, respect_robots=False) as crawler,
        pytest.raises(UnsafeSourceError, match="redirects more than 5"),
    ):
        crawler.fetch(f"http://127.0.0.1:{target.port}/loop")
    assert target.hits("/loop") == 6


def test_connects_to_pinned_address_with_original_host_header(target: FakeSearchServer) -> None:
    """public.test resolves once, to the checked address; the request still names public.test."""
    calls: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return ["127.0.0.1"]

    crawler = Crawler(
        allow_loopback=frozenset({"public.test"}), resolver=resolve, delay=0, respect_robots=False
    )
    with crawler:
        page = crawler.fetch(f"http://public.test:{target.port}/secret")
    assert "internal secret" in page.text
    assert calls == ["public.test"]
    assert target.requests[-1].headers["host"] == f"public.test:{target.port}"


def self_signed(tmp_path: Path, name: str) -> tuple[Path, Path]:
    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}", "-addext", "basicConstraints=critical,CA:TRUE"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def test_https_pinned_address_still_verifies_the_name(tmp_path: Path) -> None:
    """The TLS connection goes to the checked IP, but SNI and certificate checks use the URL's name."""
    cert, key = self_signed(tmp_path, "public.test")
    server_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_tls.load_cert_chain(cert, key)
    trust = ssl.create_default_context(cafile=str(cert))
    names = {"public.test": ["127.0.0.1"], "other.test": ["127.0.0.1"]}
    with FakeSearchServer(tls=server_tls) as server:
        server.route(
            "/page", Reply(200, "<html><body><p>over tls</p></body></html>", content_type="text/html")
        )
        crawler = Crawler(allow_loopback=frozenset(names), resolver=resolver_for(names), delay=0,
                          respect_robots=False, verify=trust)  # fmt: skip
        with crawler:
            page = crawler.fetch(f"https://public.test:{server.port}/page")
            assert "over tls" in page.text
            assert server.requests[-1].headers["host"] == f"public.test:{server.port}"
            with pytest.raises(FetchFailed):  # same address, wrong name: the certificate does not match
                crawler.fetch(f"https://other.test:{server.port}/page")
    assert server.hits("/page") == 1
