"""Which network addresses deepkb may contact: public unicast ones only.

Shared by the crawler's SSRF guard (`topic/ssrf.py`) and the check on remote repository hosts
(`repo/checkout/clone.py`). Refused: loopback, private (RFC 1918, ULA), link-local, CGNAT (100.64/10),
multicast, reserved, unspecified, documentation ranges, cloud metadata endpoints (169.254.169.254,
fd00:ec2::254, 100.100.100.200), IPv4-mapped and IPv4-compatible IPv6 (`::ffff:127.0.0.1`), and 6to4 /
Teredo / NAT64 addresses that embed a non-public IPv4 address. A host is judged by *every* address it
resolves to, and numeric hosts in any form a resolver accepts (`2130706433`, `0x7f.1`, `0177.0.0.1`) are
read as the address they spell.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

from generator.errors import ResearchError, UnsafeSourceError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]

METADATA = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200", "169.254.170.2")
)
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
_NUMERIC_HOST = frozenset("0123456789abcdefxABCDEFX.")


def address_problem(address: Address, *, loopback_ok: bool = False) -> str | None:
    """Why `address` must not be contacted ("loopback", "private", …), or None for a public address."""
    if address in METADATA:
        return "a cloud metadata address"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return "an IPv4-mapped IPv6 address"
        if address in _IPV4_COMPATIBLE and int(address) > 1:
            return "an IPv4-compatible IPv6 address"
        embedded = _embedded_ipv4(address)
        if embedded is not None and address_problem(embedded):
            return f"an IPv6 address embedding a non-public IPv4 address ({embedded})"
    if address.is_loopback:
        return None if loopback_ok else "a loopback address"
    return _range_problem(address)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _range_problem(address: Address) -> str | None:
    checks = (
        (address.is_unspecified, "an unspecified address"),
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (isinstance(address, ipaddress.IPv4Address) and address in _CGNAT, "a CGNAT address"),
        (address.is_private, "a private address"),
        (address.is_reserved, "a reserved address"),
        (not address.is_global, "not a public address"),
    )
    return next((reason for failed, reason in checks if failed), None)


def literal_address(host: str) -> Address | None:
    """The address a numeric host spells (IPv6 in brackets or not, dotted, decimal, octal or hex IPv4)."""
    text = host.strip("[]").split("%")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if not text or not set(text) <= _NUMERIC_HOST or not text[0].isdigit():
        return None
    try:  # inet_aton reads the legacy forms curl and getaddrinfo accept: 127.1, 0x7f000001, 017700000001
        return ipaddress.IPv4Address(socket.inet_aton(text))
    except OSError:
        return None


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for `host` (A and AAAA)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ResearchError(
            f"cannot resolve host '{host}': {exc}", hint="check the host name and your network"
        ) from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def public_addresses(
    host: str,
    port: int,
    resolver: Resolver = system_resolver,
    *,
    hint: str = "only public hosts are contacted",
) -> list[Address]:
    """Every address `host` stands for, each checked; UnsafeSourceError names the first that is not public."""
    literal = literal_address(host)
    addresses = [literal] if literal is not None else resolve(host, port, resolver)
    for address in addresses:
        problem = address_problem(address)
        if problem:
            raise UnsafeSourceError(f"refused host {host}: it is {problem} ({address})", hint=hint)
    return addresses


def resolve(
    host: str, port: int, resolver: Resolver, *, error: type[UnsafeSourceError] = UnsafeSourceError
) -> list[Address]:
    """Every address `resolver` gives for `host` (IPv6 zone ids dropped); none, or one unreadable, is `error`."""
    found: list[Address] = []
    for raw in resolver(host, port):
        try:
            found.append(ipaddress.ip_address(raw.split("%")[0]))
        except ValueError:
            raise error(f"host '{host}' resolved to an unreadable address {raw!r}") from None
    if not found:
        raise error(f"host '{host}' has no address")
    return found


_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The Host header values a server of ours on `host:port` answers (lower case): the preview, the MCP server."""
    shown = f"[{host}]" if ":" in host else host
    names = {shown.lower()}
    if _is_loopback(host):
        names.update(_LOOPBACK_NAMES)
    hosts = {f"{name}:{port}" for name in names}
    return frozenset(hosts | (names if port == 80 else set()))


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() == "localhost"
