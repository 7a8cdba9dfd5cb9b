"""The guarded crawler: fetch one page (or a few same-site pages) as inert markdown.

Every request (the page, each of at most five redirect hops, robots.txt) passes `Guard.check` and goes to
the checked address, the host kept for Host and TLS SNI. robots.txt is honoured, a host's requests spaced,
bodies capped; only HTML, text, markdown and PDF are read, and the text is made inert (`inert_markdown`).
"""

from __future__ import annotations

import html
import re
import ssl
import threading
import time
import urllib.robotparser
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import httpx

from generator.http import USER_AGENT, EncodingRefused, iter_decoded

from ..documents import Budget, read_bytes, read_text, stated_title
from ..documents.html import keep_formulas
from ..errors import DeepkbError, ProviderError, ProviderTimeout, UnsafeSourceError
from ..jsontypes import JSONObject
from ..netguard import Resolver
from ..text.htmlpage import read_html
from ..text.pagetext import absolute_links, html_to_markdown, inert_markdown
from .dedupe import canonical_url
from .ssrf import Guard, Target, system_resolver

CONTENT_TYPES = frozenset(
    {"text/html", "application/xhtml+xml", "text/plain", "text/markdown", "application/pdf"}
)
REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5
ROBOTS_MAX_BYTES = 500_000


class FetchRefused(UnsafeSourceError):
    """The page was reachable but deepkb will not read it: robots.txt, content type, size, redirects."""


class FetchFailed(ProviderError):
    """The site answered with an error status or the connection failed."""


@dataclass
class FetchedPage:
    """One fetched page. `text` is inert markdown; `title` is plain text (escape it before rendering)."""

    url: str
    final_url: str
    title: str
    text: str
    content_type: str
    status: int
    links: list[str] = field(default_factory=list)

    @property
    def plain_text(self) -> str:
        """`text` with the inert entities undone: for code that escapes it again (the raw-source writer)."""
        return html.unescape(self.text)

    def to_json(self) -> JSONObject:
        return asdict(self)


@dataclass
class _Body:
    url: str
    status: int
    content_type: str
    charset: str
    data: bytes


@dataclass
class CrawlResult:
    """Pages fetched by `crawl_site`, and the URLs skipped with the reason."""

    pages: list[FetchedPage]
    skipped: list[tuple[str, str]]


class Crawler:
    """A polite, guarded fetcher. One per run: it remembers robots.txt files and per-host timing."""

    def __init__(
        self,
        *,
        allow_loopback: bool | frozenset[str] = False,
        max_bytes: int = 5_000_000,
        timeout: float = 20.0,
        user_agent: str = USER_AGENT,
        delay: float = 1.0,
        respect_robots: bool = True,
        resolver: Resolver = system_resolver,
        sleep: Callable[[float], None] = time.sleep,
        verify: ssl.SSLContext | bool = True,
    ) -> None:
        """`allow_loopback` is for tests against local servers only (see `topic.ssrf`); never set it elsewhere.

        `delay` spaces requests to one host (seconds); `sleep` is how the wait is spent (tests record it);
        `verify` is the TLS trust (an SSLContext with a private CA bundle, for example).
        """
        self.guard = Guard(allow_loopback=allow_loopback, resolver=resolver)
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.user_agent = user_agent
        self.delay = delay
        self.respect_robots = respect_robots
        self._sleep = sleep
        self._robots: dict[str, urllib.robotparser.RobotFileParser | None] = {}
        self._last_request: dict[str, float] = {}
        self._lock = threading.Lock()
        # trust_env=False: a proxy from the environment would do its own name resolution, unpinned.
        # No keep-alive: pooled connections are keyed by IP, so a TLS session set up for one host name
        # must not be reused for another name served from the same address.
        self._client = httpx.Client(
            timeout=timeout,
            trust_env=False,
            follow_redirects=False,
            limits=httpx.Limits(max_keepalive_connections=0),
            verify=verify,
        )

    def __enter__(self) -> Crawler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def fetch(self, url: str) -> FetchedPage:
        """Fetch and read one page, or raise BlockedTarget / FetchRefused / FetchFailed / ProviderTimeout."""
        body = self._get(url, max_bytes=self.max_bytes, check_robots=self.respect_robots)
        if body.status >= 400:
            raise FetchFailed(f"{url[:200]} answered HTTP {body.status}")
        if body.content_type not in CONTENT_TYPES:
            raise FetchRefused(
                f"{url[:200]} is {body.content_type or 'of unknown type'}, which deepkb does not crawl",
                hint="crawled types: " + ", ".join(sorted(CONTENT_TYPES)),
            )
        return _read_page(url, body)

    # --- one guarded GET with manual redirects --------------------------------------------------

    def _get(self, url: str, *, max_bytes: int, check_robots: bool = False) -> _Body:
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            target = self.guard.check(current)
            if check_robots and not self._robots_allow(target):
                raise FetchRefused(
                    f"robots.txt of {target.host} disallows {current[:200]}", hint="deepkb honours robots.txt"
                )
            self._wait_turn(target)
            status, headers, data = self._send(target, max_bytes)
            location = headers.get("location")
            if status in REDIRECTS and location:
                current = _join(target, location)
                continue
            content_type, charset = _content_type(headers.get("content-type", ""))
            return _Body(str(target.url), status, content_type, charset, data)
        raise FetchRefused(f"{url[:200]} redirects more than {MAX_REDIRECTS} times")

    def _send(self, target: Target, max_bytes: int) -> tuple[int, httpx.Headers, bytes]:
        request = self._client.build_request(
            "GET",
            target.url.copy_with(host=target.address, fragment=None),
            headers={
                "Host": target.url.netloc.decode("ascii"),
                "User-Agent": self.user_agent,
                "Accept": "text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf;q=0.8",
                "Accept-Encoding": "gzip, deflate",
            },
            extensions={"sni_hostname": target.host} if target.url.scheme == "https" else {},
        )
        try:
            response = self._client.send(request, stream=True)
        except httpx.TimeoutException as exc:
            raise ProviderTimeout(f"{target.host} did not answer within {self.timeout:g}s") from exc
        except httpx.HTTPError as exc:
            raise FetchFailed(f"cannot fetch {target.host}: {exc}") from exc
        try:
            return response.status_code, response.headers, self._read_capped(response, max_bytes)
        finally:
            response.close()

    def _read_capped(self, response: httpx.Response, max_bytes: int) -> bytes:
        if response.status_code in REDIRECTS:
            return b""
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise FetchRefused(f"page is larger than {max_bytes} bytes", hint="raise max_bytes to read it")
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.timeout * 3  # a server trickling bytes cannot hold us forever
        try:
            for chunk in iter_decoded(response):  # decoded a bounded piece at a time: the cap bounds bombs
                size += len(chunk)
                if size > max_bytes:
                    raise FetchRefused(
                        f"page is larger than {max_bytes} bytes", hint="raise max_bytes to read it"
                    )
                if time.monotonic() > deadline:
                    raise ProviderTimeout(f"{response.url.host} is sending too slowly")
                chunks.append(chunk)
        except EncodingRefused as exc:
            raise FetchRefused(f"{response.url.host}: {exc}") from None
        except httpx.TimeoutException as exc:
            raise ProviderTimeout(f"reading from {response.url.host} timed out") from exc
        except httpx.HTTPError as exc:
            raise FetchFailed(f"reading the page failed: {exc}") from exc
        return b"".join(chunks)

    # --- politeness -----------------------------------------------------------------------------

    def _wait_turn(self, target: Target) -> None:
        """Space requests to one host by `delay` seconds (or the robots.txt crawl-delay, capped at 10 s)."""
        with self._lock:
            robots = self._robots.get(_origin(target))
            crawl_delay = robots.crawl_delay(self.user_agent) if robots else None
            delay = max(self.delay, min(float(crawl_delay or 0), 10.0)) if self.delay > 0 else 0.0
            now = time.monotonic()
            wait = self._last_request.get(target.host, -1e9) + delay - now
            self._last_request[target.host] = now + max(wait, 0.0)  # reserve the slot before sleeping
        if wait > 0:
            self._sleep(wait)

    def _robots_allow(self, target: Target) -> bool:
        origin = _origin(target)
        if origin not in self._robots:
            self._robots[origin] = self._load_robots(origin)
        robots = self._robots[origin]
        return robots is None or robots.can_fetch(self.user_agent, str(target.url))

    def _load_robots(self, origin: str) -> urllib.robotparser.RobotFileParser | None:
        """RFC 9309: a 4xx robots.txt allows everything; 5xx or no answer disallows everything."""
        parser = urllib.robotparser.RobotFileParser(origin + "/robots.txt")
        try:
            body: _Body | None = self._get(origin + "/robots.txt", max_bytes=ROBOTS_MAX_BYTES)
        except DeepkbError:
            body = None
        if body is not None and 400 <= body.status < 500:
            return None
        if body is None or body.status >= 500:
            parser.parse(["User-agent: *", "Disallow: /"])
        else:
            parser.parse(body.data.decode("utf-8", errors="replace").splitlines())
        return parser


def _origin(target: Target) -> str:
    return f"{target.url.scheme}://{target.url.netloc.decode('ascii')}"


def _join(target: Target, location: str) -> str:
    try:
        return str(target.url.join(location.strip()))
    except (httpx.InvalidURL, ValueError) as exc:
        raise FetchFailed(f"{target.host} redirects to an unreadable location {location[:100]!r}") from exc


def _content_type(header: str) -> tuple[str, str]:
    kind, _, params = header.partition(";")
    match = re.search(r"charset=[\"']?([\w.:-]+)", params, re.IGNORECASE)
    return kind.strip().lower(), (match.group(1) if match else "")


def _decode(body: _Body) -> str:
    charset = body.charset
    if not charset and body.content_type in {"text/html", "application/xhtml+xml"}:
        meta = re.search(rb"<meta[^>]+charset=[\"']?([\w.:-]+)", body.data[:4096], re.IGNORECASE)
        charset = meta.group(1).decode("ascii") if meta else ""
    try:
        return body.data.decode(charset or "utf-8", errors="replace")
    except LookupError:
        return body.data.decode("utf-8", errors="replace")


def _read_page(url: str, body: _Body) -> FetchedPage:
    links: list[str] = []
    if body.content_type == "application/pdf":
        doc = read_bytes(body.data, name=body.url, budget=Budget())  # the run's deadline reaches it
        title, text = stated_title(doc), "\n\n".join(block.text for _, block in doc.blocks())
    elif body.content_type in {"text/html", "application/xhtml+xml"}:
        markup = _decode(body)
        parsed = read_html(markup)
        title, text, links = (
            parsed.title,
            html_to_markdown(keep_formulas(markup), body.url),
            absolute_links(parsed.links, body.url),
        )
    else:
        text = _decode(body)
        markup = "markdown" if body.content_type == "text/markdown" else "text"
        title = stated_title(read_text(text, name=body.url, markup=markup)) or next(
            (ln.strip() for ln in text.splitlines() if ln.strip()), ""
        )
        title = title[:200]
    return FetchedPage(
        url=url,
        final_url=body.url,
        title=" ".join(title.split())[:300] or body.url,
        text=inert_markdown(text),
        content_type=body.content_type,
        status=body.status,
        links=links,
    )


def crawl_site(url: str, depth: int = 0, *, crawler: Crawler, max_pages: int = 20) -> CrawlResult:
    """The page at `url` plus same-site pages linked from it, breadth first, up to `depth` links away.

    The first page's failure is raised; later failures are collected in `skipped` (seed: skip and log).
    """
    site = _site(url)
    queue: deque[tuple[str, int]] = deque([(url, 0)])
    seen = {canonical_url(url)}
    pages: list[FetchedPage] = []
    skipped: list[tuple[str, str]] = []
    while queue and len(pages) < max(max_pages, 1):
        current, level = queue.popleft()
        try:
            page = crawler.fetch(current)
        except DeepkbError as exc:
            if current == url:
                raise
            skipped.append((current, exc.line()))
            continue
        pages.append(page)
        if level >= depth:
            continue
        for link in page.links:
            key = canonical_url(link)
            if key not in seen and _site(link) == site:
                seen.add(key)
                queue.append((link, level + 1))
    return CrawlResult(pages=pages, skipped=skipped)


def _site(url: str) -> str:
    try:
        host = httpx.URL(url).host.lower()
    except (httpx.InvalidURL, ValueError):
        return ""
    return host.removeprefix("www.")
