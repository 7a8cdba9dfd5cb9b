"""Stage 1, clone: classify what the operator named, refuse anything unsafe before git runs, check it out.

Every git process runs through `gitcmd` (fixed argument vectors, user text only after `--`, an environment
without our secrets, none of the repository's own configuration, no prompts, no user-chosen transports, no
submodules, no symlinks). A remote host is resolved first and refused unless every address it stands for is
public (`repo.allow_private_hosts` lifts this for self-hosted git); https connections are pinned to the
addresses checked, so a second DNS answer cannot send git elsewhere.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from generator.errors import ResearchError, UnsafeSourceError
from generator.netguard import Resolver, public_addresses, system_resolver
from generator.repo.checkout.gitcmd import run_git, run_remote_git
from generator.repo.checkout.sealed import config_value, find_layout
from generator.repo.model import Checkout, RepoSource

_SCP_LIKE = re.compile(
    r"^(?P<user>[A-Za-z0-9_][A-Za-z0-9._-]*)@(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*):(?P<path>[^:]+)$"
)
_HOST = re.compile(
    r"^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$"
)
_SEGMENT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]*$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def parse_source(raw: str, root: Path) -> RepoSource:
    """Classify `raw` as a https URL, a `git@host:owner/repo` remote, or an existing local directory.

    Refuses (UnsafeSourceError) every form git could turn into a command or an option, before any process.
    """
    text = raw.strip()
    _refuse_dangerous(raw, text)
    if text.lower().startswith("https://"):
        return _parse_https(raw, text)
    scp = _SCP_LIKE.match(text)
    if scp:
        return _parse_scp(raw, scp)
    if _SCHEME.match(text) and not re.match(r"^[A-Za-z]:[\\/]", text):  # C:\ is a Windows path
        scheme = text.split(":", 1)[0]
        raise UnsafeSourceError(
            f"refused repository source {raw!r}: the {scheme}: scheme is not allowed",
            hint="use a https:// URL, git@host:owner/repo, or a local path",
        )
    return _parse_local(raw, text, root)


def _refuse_dangerous(raw: str, text: str) -> None:
    def refuse(why: str) -> None:
        raise UnsafeSourceError(
            f"refused repository source {_without_userinfo(raw)!r}: {why}",
            hint="use a https:// URL, git@host:owner/repo, or a local path",
        )

    if not text:
        refuse("it is empty")
    if any(ord(c) < 32 or ord(c) == 127 for c in raw):
        refuse("it contains control characters")
    if text.startswith("-"):
        refuse("it starts with '-' and would be read as an option")
    if "::" in text:
        refuse("'transport::address' forms (ext::, fd::, …) can run commands")
    if any(c in text for c in "$%~`"):
        refuse("'$', '%', '~' and '`' expansions are not allowed")
    if text.lower().startswith("file:"):
        refuse("file: URLs are not allowed (give the local path itself)")
    if re.search(r"(^|\s)--?[A-Za-z]", text):
        refuse("it contains an option-like value")


def _repo_segments(raw: str, path: str) -> list[str]:
    segments = [s for s in path.strip("/").split("/") if s]
    if len(segments) < 2 or not all(_SEGMENT.match(s) for s in segments):
        raise UnsafeSourceError(
            f"refused repository source {raw!r}: the path must be owner/repo",
            hint="e.g. https://github.com/owner/repo",
        )
    segments[-1] = segments[-1].removesuffix(".git")
    if not segments[-1] or segments[-1] in {".", ".."}:
        raise UnsafeSourceError(f"refused repository source {raw!r}: the repository name is empty")
    return segments


def _parse_https(raw: str, text: str) -> RepoSource:
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise UnsafeSourceError(
            f"refused repository source {_without_userinfo(raw)!r}: not a valid URL"
        ) from None
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise UnsafeSourceError(
            f"refused repository source {_without_userinfo(raw)!r}: it embeds credentials",
            hint="remove the user/token from the URL; git uses your credential helper",
        )
    host = parts.hostname or ""
    if not _HOST.match(host) or parts.query or parts.fragment:
        raise UnsafeSourceError(f"refused repository source {raw!r}: not a plain https://host/owner/repo URL")
    segments = _repo_segments(raw, parts.path)
    if host.lower() in {"github.com", "www.github.com"}:
        owner, name = segments[0], segments[1].removesuffix(".git")  # /owner/repo/tree/main → owner/repo
        url = f"https://github.com/{owner}/{name}"
        return RepoSource(raw=raw, kind="url", location=url, owner=owner, name=name, web_url=url)
    netloc = host + (f":{port}" if port else "")
    location = f"https://{netloc}/" + "/".join(segments)
    return RepoSource(raw=raw, kind="url", location=location, owner=segments[-2], name=segments[-1])


def _parse_scp(raw: str, match: re.Match[str]) -> RepoSource:
    host = match["host"]
    if not _HOST.match(host):
        raise UnsafeSourceError(f"refused repository source {raw!r}: invalid host")
    segments = _repo_segments(raw, match["path"])
    if match["path"].startswith(("/", "-")):
        raise UnsafeSourceError(f"refused repository source {raw!r}: the path must be owner/repo")
    owner, name = segments[-2], segments[-1]
    location = f"{match['user']}@{host}:" + "/".join(segments) + ".git"
    web = f"https://github.com/{owner}/{name}" if host.lower() == "github.com" else None
    return RepoSource(raw=raw, kind="url", location=location, owner=owner, name=name, web_url=web)


def _parse_local(raw: str, text: str, root: Path) -> RepoSource:
    path = (root / text).resolve()
    if not path.is_dir():
        raise UnsafeSourceError(
            f"repository source {raw!r} is neither a URL nor an existing directory", hint=f"looked for {path}"
        )
    origin = read_origin_url(path)
    remote = _classify_remote(origin) if origin else None
    if remote is not None:  # named after its origin (owner, name, web view)
        return dataclasses.replace(remote, raw=raw, kind="local", location=str(path))
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", path.name).strip("-.") or "repo"
    return RepoSource(raw=raw, kind="local", location=str(path), owner="local", name=name)


def _classify_remote(url: str) -> RepoSource | None:
    """owner/name of an origin URL; credentials in it are dropped, not refused (it is the operator's repo)."""
    text = _without_userinfo(url.strip())
    if text.lower().startswith("ssh://"):
        parts = urlsplit(text)
        text = f"git@{parts.hostname}:{parts.path.lstrip('/')}"
    elif text.lower().startswith("http://"):
        text = "https://" + text[len("http://") :]
    try:
        return parse_source(text, Path("/nonexistent")) if not text.startswith("/") else None
    except UnsafeSourceError:
        return None


def _without_userinfo(url: str) -> str:
    """`url` without `user:password@` (never echo credentials in an error line)."""
    return re.sub(r"^(\s*[A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@", r"\1", url)


def read_origin_url(path: Path) -> str | None:
    """The `remote "origin"` url from the repository's config, read as text (no git process)."""
    layout = find_layout(path)
    return config_value(layout.common_dir / "config", 'remote "origin"', "url") if layout else None


# --- checkout ----------------------------------------------------------------------------------------


def checkout(
    source: RepoSource,
    cache_dir: Path,
    *,
    allow_local_remote: bool = False,
    allow_private_hosts: bool = False,
    resolver: Resolver = system_resolver,
) -> Checkout:
    """A working tree for `source`: the local path in place, or a clone cached under cache_dir/clones.

    A cached clone is refreshed by fetching and resetting to the fetched HEAD, never re-cloned.
    A remote host must resolve to public addresses only unless `allow_private_hosts`.
    `allow_local_remote=True` is for tests only: it lets a `file://` URL or absolute path of a bare
    repository stand in for a remote, which `parse_source` refuses for operators.
    """
    if source.kind == "local":
        return _local_checkout(source)
    _check_remote_location(source, allow_local_remote)
    pin = check_remote_host(source.location, allow_private_hosts or allow_local_remote, resolver)
    dest = cache_dir / "clones" / source.owner / source.name
    if (dest / ".git").is_dir() and read_origin_url(dest) == source.location:
        _fetch(dest, allow_local_remote, pin)
    else:
        _clone(source.location, dest, allow_local_remote, pin)
    revision, date = _head(dest)
    return Checkout(source=source, path=dest, revision=revision, revision_date=date)


def _check_remote_location(source: RepoSource, allow_local_remote: bool) -> None:
    location = source.location
    if location.startswith("https://") or _SCP_LIKE.match(location):
        return
    if allow_local_remote and (location.startswith("file://") or location.startswith("/")):
        return
    raise UnsafeSourceError(f"refused repository location {location!r}", hint="use parse_source() first")


def remote_host(location: str) -> tuple[str, int]:
    """The host and port git would connect to for a https or `user@host:path` location."""
    scp = _SCP_LIKE.match(location)
    if scp:
        return scp["host"], 22
    parts = urlsplit(location)
    return parts.hostname or "", parts.port or 443


_PRIVATE_HINT = "only public hosts are contacted; for self-hosted git set repo.allow_private_hosts: true"


def check_remote_host(location: str, allow_private: bool, resolver: Resolver) -> tuple[tuple[str, str], ...]:
    """Refuse a host with any non-public address (before any git process); the https pin for the rest.

    `http.curloptResolve` makes git's libcurl connect to the addresses checked here instead of asking DNS
    again. ssh resolves the host itself (the operator's ssh config may rename it), so it is checked only.
    """
    if allow_private or location.startswith(("file://", "/")):
        return ()
    host, port = remote_host(location)
    addresses = public_addresses(host, port, resolver, hint=_PRIVATE_HINT)
    if _SCP_LIKE.match(location):
        return ()
    listed = ",".join(f"[{a}]" if a.version == 6 else str(a) for a in addresses)
    return (("http.curloptResolve", f"{host}:{port}:{listed}"),)


def _local_checkout(source: RepoSource) -> Checkout:
    path = Path(source.location)
    if not path.is_dir():
        raise ResearchError(f"local repository {path} does not exist")
    if not (path / ".git").exists():
        today = dt.date.today().isoformat()
        return Checkout(source=source, path=path, revision="", revision_date=today, git=False)
    # git reads it through a sealed view we own, so another user's repository is read like ours: the
    # ownership check (safe.directory) exists to stop its config from running, and we never read that config
    try:
        revision, date = _head(path)
    except ResearchError:
        revision, date = "", dt.date.today().isoformat()  # a repository without commits yet
    return Checkout(source=source, path=path, revision=revision, revision_date=date)


def _head(path: Path) -> tuple[str, str]:
    out = run_git(["log", "-1", "--format=%H %cI", "HEAD", "--"], cwd=path).split()
    if len(out) != 2:
        raise ResearchError(f"could not read the current commit of {path}")
    return out[0], out[1]


def _clone(location: str, dest: Path, allow_file: bool, pin: tuple[tuple[str, str], ...]) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    # clone beside the target and rename, so a killed clone never leaves a half-made cache entry
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        run_remote_git(
            [
                "clone",
                "--no-recurse-submodules",
                "--filter=blob:none",
                "--no-tags",
                "--quiet",
                "--",
                location,
                str(staging / "tree"),
            ],
            cwd=dest.parent,
            allow_file=allow_file,
            pin=pin,
        )
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(staging / "tree", dest)
    except ResearchError as exc:
        raise ResearchError(
            f"could not clone {location}: {exc.message}",
            hint="check the URL, your network and your git credentials",
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _fetch(dest: Path, allow_file: bool, pin: tuple[tuple[str, str], ...]) -> None:
    try:
        run_remote_git(
            ["fetch", "--no-recurse-submodules", "--no-tags", "--quiet", "origin", "HEAD"],
            cwd=dest,
            allow_file=allow_file,
            pin=pin,
        )
        # the checkout may fetch missing blobs of the partial clone: same host, same pin
        run_remote_git(["reset", "--hard", "--quiet", "FETCH_HEAD"], cwd=dest, allow_file=allow_file, pin=pin)
    except ResearchError as exc:
        raise ResearchError(
            f"could not refresh the clone in {dest}: {exc.message}",
            hint="check your network, or delete the cached clone to start over",
        ) from None


def remote_head(
    source: RepoSource,
    cache_dir: Path,
    *,
    allow_local_remote: bool = False,
    allow_private_hosts: bool = False,
    resolver: Resolver = system_resolver,
) -> str:
    """The commit the remote's HEAD points at now (local sources: the current HEAD; "" when not git)."""
    if source.kind == "local":
        return _local_checkout(source).revision
    _check_remote_location(source, allow_local_remote)
    pin = check_remote_host(source.location, allow_private_hosts or allow_local_remote, resolver)
    cache_dir.mkdir(parents=True, exist_ok=True)  # ls-remote runs outside every repository
    out = run_remote_git(
        ["ls-remote", "--", source.location, "HEAD"],
        cwd=cache_dir,
        allow_file=allow_local_remote,
        pin=pin,
        timeout=120,
    )
    first = out.split()
    if not first:
        raise ResearchError(f"{source.location} has no HEAD", hint="is the repository empty?")
    return first[0]
