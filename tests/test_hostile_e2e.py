"""Hostile input end to end: `python -m generator build` on a trap-filled repository, a hostile corpus and,
in a second knowledge base, a model that answers with hostile output. Nothing may break the build, leak a
secret or a byte from outside the repository, or reach the published site as live markup.

Each knowledge base is built once per module (two `build` runs: the second must change nothing and, for the
LLM variant, send nothing); every assertion reads those results.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import frontmatter
import pytest
import yaml
from conftest import deepkb
from hostile_fixtures import (
    ENV_SECRET,
    ENV_SECRET_NAME,
    LEAK_MARKERS,
    hostile_model_reply,
    make_hostile_corpus,
    make_hostile_repo,
)
from llm_fakes import FakeOpenAI
from site_checks import as_displayed, indexed_pages

# `python -m generator ARGS` exactly (run_module with alter_sys is what -m does), plus an exit hook that
# saves the process's /proc/self/io: how many bytes it read, to prove the 3 GiB sparse files were not read.
_RUNNER = """\
import atexit, runpy, sys
def _io(target=sys.argv[1]):
    try:
        with open('/proc/self/io') as src, open(target, 'w') as out:
            out.write(src.read())
    except OSError:
        pass
atexit.register(_io)
sys.argv = ['generator', *sys.argv[2:]]
runpy.run_module('generator', run_name='__main__', alter_sys=True)
"""
SPARSE_BYTES = 3 * 1024**3


@dataclass
class Run:
    returncode: int
    stderr: str
    read_bytes: int | None


@dataclass
class HostileKB:
    """One knowledge base built twice from hostile inputs, plus everything needed to judge the runs."""

    base: Path
    root: Path
    cache: Path
    first: Run
    second: Run
    site_src_after_first: dict[str, str]
    outside_before: dict[str, tuple[int, int]]
    outside_after: dict[str, tuple[int, int]]
    fake: FakeOpenAI | None = None
    requests_after_first: int = 0
    request_bodies: list[str] = field(default_factory=list)


def _environment(base: Path, cache: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith(("_API_KEY", "_TOKEN", "_SECRET"))
        and not k.startswith(("DEEPKB_", "OPENAI_", "ANTHROPIC_"))
    }
    env.update(
        HOME=str(base / "home"),
        TMPDIR=str(base / "tmp"),
        DEEPKB_CACHE_DIR=str(cache),
        GIT_CONFIG_NOSYSTEM="1",
        PYTHONDONTWRITEBYTECODE="1",
        **{ENV_SECRET_NAME: ENV_SECRET},
    )
    return env


def _deepkb(kb: Path, env: dict[str, str], *args: str) -> Run:
    io_file = kb.parent / "tmp" / "io.txt"
    io_file.unlink(missing_ok=True)
    result = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(io_file), "--root", str(kb), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,  # a hang (a FIFO, /dev/urandom) fails the test instead of stalling CI
        cwd=kb,
    )
    read_bytes = None
    if io_file.exists():
        stats = dict(line.split(": ") for line in io_file.read_text().splitlines() if ": " in line)
        read_bytes = int(stats["rchar"])
        io_file.unlink()
    return Run(result.returncode, result.stderr, read_bytes)


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _outside_state(base: Path, *exclude: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime) of every entry under base except the excluded trees; symlinks are not followed."""
    state: dict[str, tuple[int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(base):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in exclude]
        for name in [*dirnames, *filenames]:
            st = os.lstat(here / name)
            state[str((here / name).relative_to(base))] = (st.st_size, st.st_mtime_ns)
    return state


def _write_config(root: Path, repo: Path, llm: str) -> None:
    (root / "deepkb.yml").write_text(
        yaml.safe_dump(
            {
                "repos": [
                    {"source": str(repo), "request": "How does the client <script>alert(1)</script> connect?"}
                ],
                "topics": [
                    {
                        "topic": "Widget frameworks <img src=x onerror=alert(1)>",
                        "sources": ["local:corpus"],
                        "slug": "widgets",
                        # the small hostile corpus cannot pass verification offline (the topic would end
                        # `unverified`, exit 3): what is tested here is what reaches the pages
                        "verify": False,
                    }
                ],
                "site": {"repo_url": "https://github.com/acme/kb", "edit_uri": "edit/main/site_src/"},
                **yaml.safe_load(llm),
            }
        ),
        encoding="utf-8",
    )


def _build_kb(base: Path, llm: str, fake: FakeOpenAI | None = None) -> HostileKB:
    repo = make_hostile_repo(base)
    root = base / "kb"
    make_hostile_corpus(root / "corpus")
    _write_config(root, repo, llm)
    cache = base / "cache"
    for folder in ("home", "tmp"):
        (base / folder).mkdir()
    env = _environment(base, cache)
    before = _outside_state(base, root, cache)
    first = _deepkb(root, env, "build")
    after_first = _digest(root / "site_src")
    requests_after_first = len(fake.requests) if fake else 0
    second = _deepkb(root, env, "build")
    return HostileKB(
        base=base,
        root=root,
        cache=cache,
        first=first,
        second=second,
        site_src_after_first=after_first,
        outside_before=before,
        outside_after=_outside_state(base, root, cache),
        fake=fake,
        requests_after_first=requests_after_first,
        request_bodies=[json.dumps(r.json) for r in fake.requests] if fake else [],
    )


@pytest.fixture(scope="module")
def hostile_kbs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, HostileKB]]:
    """Both knowledge bases, built side by side: each build runs in its own child process."""
    offline_base = tmp_path_factory.mktemp("hostile-offline")
    llm_base = tmp_path_factory.mktemp("hostile-llm")
    with FakeOpenAI(default=hostile_model_reply) as fake, ThreadPoolExecutor(2) as pool:
        llm = f"llm: {{provider: openai, base_url: '{fake.base_url}', max_retries: 0}}"
        offline = pool.submit(_build_kb, offline_base, "llm: {provider: offline}")
        with_llm = pool.submit(_build_kb, llm_base, llm, fake)
        yield {"offline": offline.result(), "llm": with_llm.result()}


@pytest.fixture(scope="module")
def offline_kb(hostile_kbs: dict[str, HostileKB]) -> HostileKB:
    return hostile_kbs["offline"]


@pytest.fixture(scope="module")
def llm_kb(hostile_kbs: dict[str, HostileKB]) -> HostileKB:
    return hostile_kbs["llm"]


@pytest.fixture(scope="module", params=["offline", "llm"])
def kb(request: pytest.FixtureRequest) -> HostileKB:
    return request.getfixturevalue(f"{request.param}_kb")


# --- the built HTML -------------------------------------------------------------------------------------

# Material's own inline scripts: its JSON config, and the small snippets of its partials/javascripts/ templates
# (the only variable part is the relative base URL). Anything else executable must be a file of the theme.
_INERT_SCRIPT_TYPES = {"application/json"}


def _theme_snippets() -> list[re.Pattern[str]]:
    import material

    snippets = []
    for template in (Path(material.__file__).parent / "templates" / "partials" / "javascripts").glob(
        "*.html"
    ):
        for body in re.findall(r"<script>(.*?)</script>", template.read_text(encoding="utf-8"), re.S):
            parts = re.split(r"\{\{.*?\}\}", body)
            snippets.append(re.compile(r"[./]*".join(re.escape(part) for part in parts), re.S))
    assert snippets, "Material's inline script templates moved; update _theme_snippets"
    return snippets


_THEME_SNIPPETS = _theme_snippets()
_URL_ATTRIBUTES = {
    "href",
    "src",
    "action",
    "formaction",
    "xlink:href",
    "poster",
    "background",
    "srcset",
    "data",
}
_BAD_SCHEMES = ("javascript:", "data:", "vbscript:")
_FORBIDDEN_TAGS = {"iframe", "object", "embed", "frame", "frameset", "applet", "base"}


class LiveMarkup(HTMLParser):
    """Collects every piece of markup in a page that could run script."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.mermaid: list[str] = []
        self._mermaid_depth = 0
        self._buffer: list[str] = []
        self._inline_script = False
        self._script: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "script":
            self._check_script(values)
        if tag in _FORBIDDEN_TAGS:
            self.problems.append(f"<{tag}>")
        for name, value in values.items():
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…>")
            plain = re.sub(r"[\x00-\x20]", "", value).lower()
            if name in _URL_ATTRIBUTES and plain.startswith(_BAD_SCHEMES):
                self.problems.append(f"<{tag} {name}={value[:40]!r}>")
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            self.problems.append("<meta http-equiv=refresh>")
        self._track_mermaid(tag, values)

    def _check_script(self, values: dict[str, str]) -> None:
        src = values.get("src", "")
        if src:
            if "assets/javascripts/" not in src or re.match(r"^[a-z]+:", src):
                self.problems.append(f"<script src={src!r}>")
        elif values.get("type") not in _INERT_SCRIPT_TYPES:
            self._inline_script = True  # judged by its body in handle_endtag
            self._script = []

    def _track_mermaid(self, tag: str, values: dict[str, str]) -> None:
        if self._mermaid_depth:
            self._mermaid_depth += 1
        elif "deepkb-diagram" in values.get("class", "").split():
            self._mermaid_depth = 1
            self._buffer = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._inline_script:
            self._inline_script = False
            body = "".join(self._script)
            if not any(snippet.fullmatch(body) for snippet in _THEME_SNIPPETS):
                self.problems.append(f"inline <script>{body[:60]!r}")
        if self._mermaid_depth:
            self._mermaid_depth -= 1
            if not self._mermaid_depth:
                self.mermaid.append("".join(self._buffer))

    def handle_data(self, data: str) -> None:
        if self._inline_script:
            self._script.append(data)
        if self._mermaid_depth:
            self._buffer.append(data)


_CLICK = re.compile(r"(^|[;\n])\s*click\s", re.IGNORECASE)


def _html_pages(kb: HostileKB) -> list[Path]:
    pages = sorted((kb.root / "site").rglob("*.html"))
    assert len(pages) > 10
    return pages


def test_build_succeeds_both_times(kb: HostileKB) -> None:
    # Exit 0: every trap is data, so no shard or topic has a legitimate reason to fail (3 would be "partial").
    assert kb.first.returncode == 0, kb.first.stderr[-4000:]
    assert kb.second.returncode == 0, kb.second.stderr[-4000:]
    assert "Traceback" not in kb.first.stderr + kb.second.stderr
    assert (kb.root / "site" / "index.html").is_file()
    assert list((kb.root / "site_src" / "repos").rglob("shards/*.md"))
    assert list((kb.root / "site_src" / "topics" / "widgets" / "raw").glob("*.md"))


def test_built_html_has_no_live_markup(kb: HostileKB) -> None:
    problems: dict[str, list[str]] = {}
    for page in _html_pages(kb):
        parser = LiveMarkup()
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        found = parser.problems + [f"mermaid click: {m[:80]!r}" for m in parser.mermaid if _CLICK.search(m)]
        if found:
            problems[str(page.relative_to(kb.root))] = found
    assert not problems


def test_article_bodies_carry_no_styles(kb: HostileKB) -> None:
    # page content may not restyle the page (overlays that fake the UI); the theme's own <style> is in <head>
    for page in _html_pages(kb):
        article = page.read_text(encoding="utf-8").split("<article", 1)[-1].split("</article>", 1)[0]
        assert not re.search(r"<style|\sstyle\s*=", article, re.I), page


def test_search_index_holds_no_live_markup(kb: HostileKB) -> None:
    # the search UI shows each hit's title and excerpt, so the index is published markup too
    docs = indexed_pages(kb.root / "site")
    assert docs
    for doc in docs:
        for text in (doc["meta"].get("title", ""), doc["content"]):
            parser = LiveMarkup()
            parser.feed(as_displayed(kb.root / "site", text))
            parser.close()
            assert not parser.problems, (doc["url"], parser.problems)


def test_generated_mermaid_has_no_click_directives(kb: HostileKB) -> None:
    fences = []
    for page in (kb.root / "site_src").rglob("*.md"):
        fences += re.findall(r"```mermaid\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert not [f for f in fences if _CLICK.search(f)]
    if kb.fake is None:
        assert fences  # the offline analyst draws each shard's files
    else:  # the model's diagram (with click callbacks) reaches the page only as inert text
        shards = "".join(
            p.read_text(encoding="utf-8") for p in kb.root.glob("site_src/repos/*/*/shards/*.md")
        )
        assert re.search(r"```text\ngraph TD\n.*click A call", shards)


def test_model_citations_to_missing_lines_and_files_are_dropped(llm_kb: HostileKB) -> None:
    pages = list((llm_kb.root / "site_src" / "repos" / "acme" / "hostile" / "shards").glob("*.md"))
    assert pages
    for page in pages:
        post = frontmatter.load(page)
        meta: dict[str, Any] = post.metadata
        assert meta["citations_dropped"] >= 2  # svc/client.py:9000-9100 and ghost/missing.py:1-3
        assert "#L9000" not in post.content and "ghost/missing.py" not in post.content
        assert "svc/client.py#L1-L5" in post.content  # the one real citation became a permalink
        assert not {"../../outside/secret.txt", "/etc/passwd", "leak.py"} & set(meta["files"])
    analysis = frontmatter.load(llm_kb.root / "site_src" / "topics" / "widgets" / "processed" / "analysis.md")
    assert analysis["method"] == "llm"
    assert int(str(analysis["unresolved_citations"])) >= 1  # [99] names no source


def _files_containing(folder: Path, markers: tuple[str, ...]) -> dict[str, list[str]]:
    hits: dict[str, list[str]] = {}
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            found = [m for m in markers if m.encode() in data]
            if found:
                hits[str(path.relative_to(folder))] = found
    return hits


def test_no_secret_or_outside_byte_is_written(kb: HostileKB) -> None:
    for folder in (kb.root / "site_src", kb.root / "site", kb.cache):
        assert not _files_containing(folder, LEAK_MARKERS), folder
    assert ENV_SECRET not in kb.first.stderr + kb.second.stderr


def test_no_secret_or_outside_byte_reaches_the_model(llm_kb: HostileKB) -> None:
    assert llm_kb.request_bodies  # the model was really asked, and shown the redacted secrets' places
    assert any("REDACTED" in body for body in llm_kb.request_bodies)
    leaks = {m for body in llm_kb.request_bodies for m in LEAK_MARKERS if m in body}
    assert not leaks


def test_every_page_frontmatter_parses_with_a_one_line_title(kb: HostileKB) -> None:
    pages = sorted((kb.root / "site_src").rglob("*.md"))
    assert pages
    for page in pages:
        post = frontmatter.load(page)
        title = post.get("title")
        assert isinstance(title, str) and title and "\n" not in title, page
        assert "pwned" not in post.metadata, page
        description = post.get("description", "")
        assert "\n" not in str(description), page


def test_sparse_file_is_skipped_unread(kb: HostileKB) -> None:
    index = (kb.root / "site_src" / "repos" / "acme" / "hostile" / "index.md").read_text(encoding="utf-8")
    skipped = index.split("## What the map skipped", 1)[1]
    assert re.search(r"\| too large \| 1 \| huge\.py \|", skipped)
    assert re.search(r"\| symlink \| 7 \| .*leak\.py", skipped)
    if sys.platform == "linux":  # the run read far less than one of the two 3 GiB sparse files
        assert kb.first.read_bytes is not None
        assert kb.first.read_bytes < SPARSE_BYTES // 4


def test_the_repository_git_config_and_hooks_never_run(kb: HostileKB) -> None:
    assert not list(kb.base.glob("pwned-*"))


def test_nothing_is_written_outside_the_kb_and_its_cache(kb: HostileKB) -> None:
    changed = {
        k: v for k, v in kb.outside_after.items() if kb.outside_before.get(k) != v and not k.startswith("tmp")
    }
    assert not changed
    leftovers = [p for p in (kb.base / "tmp").rglob("*") if p.is_file()]
    assert not leftovers


def test_second_build_is_byte_identical(kb: HostileKB) -> None:
    assert _digest(kb.root / "site_src") == kb.site_src_after_first


def test_second_llm_build_sends_nothing(llm_kb: HostileKB) -> None:
    assert llm_kb.fake is not None
    assert llm_kb.requests_after_first > 0
    assert len(llm_kb.fake.requests) == llm_kb.requests_after_first
    assert not llm_kb.fake.failures


# --- focused regressions for the holes this file found -----------------------------------------------------


def test_model_mermaid_with_callbacks_is_shown_as_text() -> None:
    from generator.repo.analyze.citations import Linker
    from generator.site.pages.model_text import render_model_markdown

    linker = Linker(line_counts={"a.py": 3}, revision="0" * 40)
    hostile = render_model_markdown('```mermaid\ngraph TD\n  A["x"]; click A call alert(1)\n```\n', linker)
    assert "```mermaid" not in hostile.markdown and "```text\n" in hostile.markdown
    ours = render_model_markdown(
        '```mermaid\nflowchart LR\n    n0["a.py"]\n    n1["b.py"]\n    n0 --> n1\n```', linker
    )
    assert "```mermaid\n" in ours.markdown  # a diagram in our own validated shapes stays a diagram


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_local_corpus_with_a_fifo_is_indexed_without_blocking(tmp_path: Path) -> None:
    import threading

    from generator.sources.base import create_search_provider

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "widgets.md").write_text(
        "# Widgets\n\nWidget frameworks render widget trees.\n", encoding="utf-8"
    )
    os.mkfifo(corpus / "pipe.md")
    provider = create_search_provider(f"local:{corpus}", root=tmp_path, cache_dir=tmp_path / "cache")
    titles: list[str] = []
    worker = threading.Thread(
        target=lambda: titles.extend(h.title for h in provider.search("widget")), daemon=True
    )
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():  # blocked opening the FIFO: release it so the thread can end, then fail
        with open(corpus / "pipe.md", "w"):
            pass
        pytest.fail("indexing the corpus blocked on a FIFO")
    assert titles == ["Widgets"]


# Loopback spellings only: were the guard ever broken, git would reach 127.0.0.1 and nothing else (metadata and
# private addresses are tested in test_repo_hosts.py, where starting any process fails the test).
@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("https://2130706433/acme/tool", "a loopback address"),
        ("https://127.1:9/acme/tool", "a loopback address"),
        ("git@0x7f.1:acme/tool.git", "a loopback address"),
        ("https://0177.0.0.1:9/acme/tool", "a loopback address"),
    ],
)
def test_remote_source_on_a_non_public_address_is_refused(
    source: str, problem: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 11 through the real entry point (the click group, in process): one line, exit 2, no clone."""
    kb = tmp_path / "kb"
    kb.mkdir()
    monkeypatch.setenv("DEEPKB_CACHE_DIR", str(tmp_path / "cache"))
    run = deepkb(kb, "repo", "run", source)
    assert run.exit_code == 2
    errors = [line for line in run.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and problem in errors[0] and "repo.allow_private_hosts" in errors[0]
    assert not (tmp_path / "cache" / "clones").exists()
