"""Building site_src/ into site/ with MkDocs as a library call, and previewing it with `mkdocs serve`.

The MkDocs configuration is the knowledge-base root's mkdocs.yml (or, for a root without one, the one deepkb
ships: `site.defaults`), overridden with the paths, the `site:` settings of deepkb.yml and the generated
bounded nav. MkDocs' log output is captured; a failed build becomes one DeepkbError line naming the first
problem. The build writes into a fresh folder beside site/ that replaces site/ only once every check passed,
so a refused page (or a half-written build) is never left where a web server or a publish step would pick it
up.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict

from ..config import Config
from ..errors import ConfigError, DeepkbError
from ..store import KBPaths
from .catalog import load_catalog
from .defaults import MKDOCS_YML as PROJECT_MKDOCS
from .gate import SiteSourceRefused
from .nav import build_nav
from .preview import serve_error

SANITIZER = "deepkb-sanitize"
REQUIRED_PLUGINS = {
    SANITIZER: "it keeps untrusted text from becoming live markup",
    "deepkb-site": "it serves diagrams, search and styles from the site itself",
}


class SiteBuildError(DeepkbError):
    """MkDocs could not build the site (a strict-mode warning, a broken page, a theme error)."""


def mkdocs_file(paths: KBPaths) -> Path:
    """The mkdocs.yml to build with: the knowledge base's own, else the one deepkb ships."""
    for candidate in (paths.mkdocs_yml, PROJECT_MKDOCS):
        if candidate.is_file():
            return candidate
    raise ConfigError(
        f"no mkdocs.yml in {paths.root}",
        hint="copy mkdocs.yml from the deepkb repository into the knowledge-base root",
    )


class MkDocsOverrides(TypedDict, total=False):
    """The mkdocs.yml settings deepkb sets (keyword arguments of mkdocs' load_config)."""

    docs_dir: str
    site_name: str
    site_description: str
    nav: list[Any]
    site_url: str
    repo_url: str
    edit_uri: str


def config_overrides(paths: KBPaths, config: Config) -> MkDocsOverrides:
    """What deepkb sets on top of mkdocs.yml: paths, deepkb.yml's site settings and the bounded nav."""
    site = config.site
    overrides: MkDocsOverrides = {
        "docs_dir": str(paths.site_src),
        "site_name": site.title,
        "site_description": site.description,
        "nav": build_nav(paths.site_src, load_catalog(paths)),
    }
    if site.site_url:
        overrides["site_url"] = site.site_url
    if site.repo_url:
        overrides["repo_url"] = site.repo_url
        overrides["edit_uri"] = site.edit_uri or "edit/main/site_src/"
    return overrides


def sitemap_warning(config: Config) -> str | None:
    """The one line a build says when deepkb.yml sets no `site.site_url`: MkDocs then writes a sitemap.xml
    that lists no page, silently."""
    if config.site.site_url:
        return None
    return (
        "site.site_url is not set in deepkb.yml: sitemap.xml lists no pages"
        " (set it to the published address, e.g. https://OWNER.github.io/REPO/)"
    )


def load_mkdocs_config(paths: KBPaths, config: Config, **extra: Any) -> Any:
    """The validated MkDocs configuration for this knowledge base (sanitizer plugin required)."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import ConfigurationError

    source = mkdocs_file(paths)
    paths.site_src.mkdir(parents=True, exist_ok=True)
    try:
        with _captured_logs():
            mk_config = load_config(str(source), **config_overrides(paths, config), **extra)
    except ConfigurationError as exc:
        raise ConfigError(
            f"{source}: {_one_line(exc)}", hint="fix mkdocs.yml or delete it to use the default"
        ) from None
    for plugin, why in REQUIRED_PLUGINS.items():
        if plugin not in mk_config.plugins:
            raise ConfigError(
                f"{source}: the '{plugin}' plugin is missing", hint=f"add '- {plugin}' under plugins: {why}"
            )
    return mk_config


def build_site(paths: KBPaths, config: Config, strict: bool = True) -> Path:
    """Build site_src/ into site/ (strict: any MkDocs warning fails the build). Returns the site folder."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import Abort, MkDocsException

    site_dir = paths.site_dir
    staging = site_dir.with_name(f".{site_dir.name}.building-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    mk_config = load_mkdocs_config(paths, config, site_dir=str(staging), strict=strict)
    with _captured_logs() as problems:
        try:
            build(mk_config)
        except (Abort, MkDocsException) as exc:
            shutil.rmtree(staging, ignore_errors=True)
            _raise_refused_source(exc)
            # MkDocs logs "Error building page 'x':" and then the cause; the cause is the useful line
            useful = [line for line in problems if not line.endswith(":")] or problems or [_one_line(exc)]
            first = useful[0]
            more = f" (and {len(useful) - 1} more)" if len(useful) > 1 else ""
            raise SiteBuildError(
                f"site build failed: {first}{more}",
                hint="fix the page named above, or build with --no-strict",
            ) from None
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    _replace_folder(site_dir, staging)
    return site_dir


def _raise_refused_source(exc: BaseException) -> None:
    """The gate's own line and hint when it refused a file (MkDocs wraps it in an Abort)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, SiteSourceRefused):
            raise SiteSourceRefused(seen.message, hint=seen.hint) from None
        seen = seen.__cause__ or seen.__context__


def _replace_folder(target: Path, built: Path) -> None:
    """Put a finished build where the site lives: two renames, so site/ is never half old, half new."""
    retired = target.with_name(f".{target.name}.old-{os.getpid()}")
    shutil.rmtree(retired, ignore_errors=True)
    if target.exists():
        target.rename(retired)
    built.rename(target)
    shutil.rmtree(retired, ignore_errors=True)


def serve_site(paths: KBPaths, config: Config, dev_addr: str = "127.0.0.1:8000") -> None:
    """Preview the site with live reload until interrupted (mkdocs serve, same configuration as the build)."""
    from mkdocs.commands import serve as mkdocs_serve
    from mkdocs.exceptions import MkDocsException

    load_mkdocs_config(paths, config)  # fail early with one line when the configuration is wrong
    try:
        mkdocs_serve.serve(
            config_file=str(mkdocs_file(paths)), dev_addr=dev_addr, **config_overrides(paths, config)
        )
    except MkDocsException as exc:
        raise SiteBuildError(f"mkdocs serve failed: {_one_line(exc)}") from None
    except OSError as exc:  # the port was taken between deepkb's check and MkDocs' bind
        if exc.errno not in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES):
            raise
        raise serve_error(dev_addr, exc) from None


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(_one_line(record.getMessage()))


@contextmanager
def _captured_logs() -> Iterator[list[str]]:
    """Keep MkDocs (and jieba's dictionary chatter) off the console; collect warnings and errors."""
    collector = _Collector()
    mkdocs_log = logging.getLogger("mkdocs")
    jieba_log = logging.getLogger("jieba")
    saved = (mkdocs_log.propagate, mkdocs_log.level, jieba_log.level)
    mkdocs_log.addHandler(collector)
    mkdocs_log.propagate = False
    mkdocs_log.setLevel(logging.INFO)  # INFO still reaches the strict-mode counter's level filter
    jieba_log.setLevel(logging.WARNING)
    try:
        yield collector.messages
    finally:
        mkdocs_log.removeHandler(collector)
        mkdocs_log.propagate, _, _ = saved
        mkdocs_log.setLevel(saved[1])
        jieba_log.setLevel(saved[2])


def _one_line(value: object) -> str:
    return " ".join(str(value).split())[:400]
