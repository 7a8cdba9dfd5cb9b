"""The crawler's SSRF guard: decide whether a URL may be fetched, and pin the address that was checked.

A URL passes when it is http(s) without credentials, on port 80, 443, 8080 or 8443, and *every* address its
host resolves to is public unicast: no loopback, private, link-local, CGNAT, multicast, reserved,
documentation or metadata address, nor an IPv6 form embedding a non-public IPv4 one. The crawler connects
to the checked `Target.address`, so DNS rebinding cannot redirect it. `allow_loopback` is the one test
switch (True, or the host names allowed); production code never passes it.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, field

import httpx

from ..errors import UnsafeSourceError
from ..netguard import Address, Resolver, address_problem, resolve

WEB_PORTS = frozenset({80, 443, 8080, 8443})


class BlockedTarget(UnsafeSourceError):
    """A crawl target refused before any connection was made."""


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for `host` (A and AAAA)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise BlockedTarget(f"cannot resolve host '{host}'", hint=str(exc)) from exc
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True)
class Target:
    """A URL that passed the guard, with the address the connection must go to."""

    url: httpx.URL
    host: str
    port: int
    address: str


@dataclass(frozen=True)
class Guard:
    allow_loopback: bool | frozenset[str] = False
    resolver: Resolver = field(default=system_resolver, compare=False)
    ports: frozenset[int] = WEB_PORTS

    def check(self, url: str | httpx.URL) -> Target:
        """The pinned target for `url`, or BlockedTarget saying why not."""
        parsed = _parse(url)
        host = parsed.raw_host.decode("ascii").lower().rstrip(".")
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        addresses = self._addresses(host, port)
        loopback_ok = self._loopback_allowed(host)
        for address in addresses:
            problem = address_problem(address, loopback_ok=loopback_ok)
            if problem:
                raise BlockedTarget(
                    f"refusing to fetch {_display(parsed)}: {host} is {problem} ({address})",
                    hint="only public web addresses are crawled",
                )
        if port not in self.ports and not (loopback_ok and all(a.is_loopback for a in addresses)):
            raise BlockedTarget(
                f"refusing to fetch {_display(parsed)}: port {port} is not a web port",
                hint=f"allowed ports: {', '.join(map(str, sorted(self.ports)))}",
            )
        return Target(url=parsed, host=host, port=port, address=str(addresses[0]))

    def _addresses(self, host: str, port: int) -> list[Address]:
        try:
            return [ipaddress.ip_address(host.strip("[]"))]
        except ValueError:
            pass
        return resolve(host, port, self.resolver, error=BlockedTarget)

    def _loopback_allowed(self, host: str) -> bool:
        if isinstance(self.allow_loopback, bool):
            return self.allow_loopback
        return host in self.allow_loopback


def _parse(url: str | httpx.URL) -> httpx.URL:
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise BlockedTarget(f"not a valid URL: {str(url)[:200]!r}") from exc
    if parsed.scheme not in {"http", "https"}:
        raise BlockedTarget(f"refusing to fetch {str(url)[:200]!r}: only http and https URLs are crawled")
    if parsed.userinfo:
        raise BlockedTarget("refusing to fetch a URL that carries credentials", hint="remove user:password@")
    if not parsed.raw_host:
        raise BlockedTarget(f"URL has no host: {str(url)[:200]!r}")
    return parsed


def _display(url: httpx.URL) -> str:
    return str(url.copy_with(query=None, fragment=None))[:200]
