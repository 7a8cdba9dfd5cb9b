"""Issue 22 #2, #4, #5: whatever reaches site_src/ by another road than deepkb's page writer (a merged folder,
a contributor's commit, a planted link) goes through one gate when the site is built."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import alarm
from mkdocs.exceptions import PluginError

from generator import store
from generator.cli import cli
from generator.errors import StoreError
from generator.site import gate
from generator.site.gate import SiteSourceRefused, check_site_source
from generator.site.plugin import SanitizePlugin

PAGE = "---\ntitle: Fine\n---\n\nA fine page.\n"
# ≈500 bytes that expand to 9^9 values: PyYAML alone takes minutes and gigabytes on it
ALIAS_BOMB = (
    "---\ntitle: bomb\n"
    + "".join(
        f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['x'] * 9)}]\n"
        for prev, name in zip(["", *"abcdefgh"], "abcdefghi", strict=True)
    )
    + "---\n\nbody\n"
)


def _site_src(root: Path) -> Path:
    site_src = root / "site_src"
    (site_src / "topics" / "t").mkdir(parents=True)
    (site_src / "index.md").write_text(PAGE, encoding="utf-8")
    (site_src / "topics" / "t" / "index.md").write_text(PAGE, encoding="utf-8")
    return site_src


def _refusal(site_src: Path) -> str:
    with pytest.raises(SiteSourceRefused) as caught:
        check_site_source(site_src)
    return caught.value.message


def test_the_kinds_deepkb_writes_pass(tmp_path: Path) -> None:
    site_src = _site_src(tmp_path)
    (site_src / "_index.json").write_text("{}", encoding="utf-8")
    for name in ("a.png", "b.JPG", "c.jpeg", "d.gif", "e.webp"):
        (site_src / "topics" / "t" / name).write_bytes(b"\x89PNG")
    (site_src / ".hidden-notes.txt").write_text("not published", encoding="utf-8")
    check_site_source(site_src)


@pytest.mark.parametrize(
    "link, target",
    [
        ("topics/t/passwd.md", "/etc/passwd"),
        ("topics/t/environ.txt", "/proc/self/environ"),
        ("topics/gitconfig.md", "../../.git/config"),
        ("topics/elsewhere", "/etc"),
        ("topics/t/.hidden.md", "/etc/passwd"),
    ],
)
def test_a_symlink_at_any_depth_is_refused_with_its_path(tmp_path: Path, link: str, target: str) -> None:
    site_src = _site_src(tmp_path)
    (site_src / link).symlink_to(target)
    message = _refusal(site_src)
    assert message == f"site_src/{link} is a symbolic link; only regular files are published"


def test_a_symlinked_site_src_is_refused(tmp_path: Path) -> None:
    real = _site_src(tmp_path / "real")
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "site_src").symlink_to(real)
    assert "symbolic link" in _refusal(tmp_path / "kb" / "site_src")


@pytest.mark.parametrize(
    "name", ["x.svg", "x.SVG", "x.htm", "x.HTML", "x.xhtml", "x.xml", "x.js", "x.txt", "CNAME"]
)
def test_file_types_outside_the_allow_list_are_refused_whatever_their_case(tmp_path: Path, name: str) -> None:
    site_src = _site_src(tmp_path)
    (site_src / "topics" / "t" / name).write_text("<svg onload=alert(1)>", encoding="utf-8")
    message = _refusal(site_src)
    assert message.startswith(f"site_src/topics/t/{name} ") and "not published" in message


def test_a_custom_domain_and_robots_txt_are_allowed_at_the_top_only(tmp_path: Path) -> None:
    site_src = _site_src(tmp_path)
    (site_src / "CNAME").write_text("kb.example.org\n", encoding="utf-8")
    (site_src / "robots.txt").write_text("User-agent: *\nDisallow:\n", encoding="utf-8")
    check_site_source(site_src)
    (site_src / "CNAME").write_text("<script>alert(1)</script>", encoding="utf-8")
    assert _refusal(site_src).startswith("site_src/CNAME must be one host name")
    (site_src / "CNAME").write_text("kb.example.org", encoding="utf-8")
    (site_src / "topics" / "robots.txt").write_text("x", encoding="utf-8")
    assert "not published" in _refusal(site_src)


def test_a_special_file_is_refused(tmp_path: Path) -> None:
    site_src = _site_src(tmp_path)
    os.mkfifo(site_src / "topics" / "pipe.md")
    assert _refusal(site_src) == "site_src/topics/pipe.md is not a regular file"


def test_a_file_over_the_size_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site_src = _site_src(tmp_path)
    monkeypatch.setattr(gate, "MAX_FILE_BYTES", 1000)
    (site_src / "topics" / "t" / "raw.md").write_text("x" * 1001, encoding="utf-8")
    assert _refusal(site_src) == "site_src/topics/t/raw.md is larger than 0 MB"


def test_an_alias_bomb_in_a_page_frontmatter_is_one_line_within_seconds(tmp_path: Path) -> None:
    assert len(ALIAS_BOMB) < 600
    site_src = _site_src(tmp_path)
    (site_src / "topics" / "t" / "bomb.md").write_text(ALIAS_BOMB, encoding="utf-8")
    started = time.process_time()
    message = _refusal(site_src)
    assert message.startswith("site_src/topics/t/bomb.md (frontmatter): more than 100000 values")
    assert time.process_time() - started < 30  # unbounded, PyYAML needs minutes and gigabytes


def test_a_deeply_nested_frontmatter_is_refused(tmp_path: Path) -> None:
    site_src = _site_src(tmp_path)
    (site_src / "deep.md").write_text(
        "---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n\nbody\n", encoding="utf-8"
    )
    assert "nested more than 64 levels" in _refusal(site_src)


def test_read_page_refuses_an_alias_bomb_and_deep_frontmatter(tmp_path: Path) -> None:
    """The store's page reader (merge, refresh, the index, the catalog) uses the same bounded loader."""
    bomb = tmp_path / "bomb.md"
    bomb.write_text(ALIAS_BOMB, encoding="utf-8")
    with pytest.raises(StoreError, match="more than 100000 values"):
        store.read_page(bomb)
    deep = tmp_path / "deep.md"
    deep.write_text(
        "---\nx:\n" + "".join("  " * i + "- \n" for i in range(3000)) + "---\n\nb\n", encoding="utf-8"
    )
    with pytest.raises(StoreError, match="nested more than 64 levels"):
        store.read_page(deep)


def test_read_page_keeps_a_body_rule_that_is_not_frontmatter(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("no frontmatter\n\n---\n\nafter a rule\n", encoding="utf-8")
    assert store.read_page(page) == ({}, "no frontmatter\n\n---\n\nafter a rule")
    page.write_text(PAGE, encoding="utf-8")
    assert store.read_page(page) == ({"title": "Fine"}, "A fine page.")


def test_deepkb_site_refuses_a_symlink_in_one_line_and_publishes_nothing(kb_root: Path) -> None:
    site_src = _site_src(kb_root)
    (site_src / "topics" / "t" / "passwd.md").symlink_to("/etc/passwd")
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "site_src/topics/t/passwd.md is a symbolic link" in lines[0], result.output
    assert "--no-strict" not in result.output and "Traceback" not in result.output
    assert not (kb_root / "site").exists()


def test_deepkb_site_refuses_an_alias_bomb_page(kb_root: Path) -> None:
    site_src = _site_src(kb_root)
    (site_src / "topics" / "t" / "bomb.md").write_text(ALIAS_BOMB, encoding="utf-8")
    with alarm(60):  # unbounded, PyYAML takes minutes and gigabytes
        result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code != 0
    assert "bomb.md (frontmatter): more than 100000 values" in result.output, result.output
    assert not (kb_root / "site").exists()


@pytest.mark.parametrize("name", ["x.HTM", "x.htm", "x.xhtml", "feed.XML", "x.svg", "x.Svg"])
def test_the_final_check_reads_every_markup_file_type(tmp_path: Path, name: str) -> None:
    """A markup file another plugin or theme wrote into the built site is checked like an .html page."""
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / name).write_text(
        '<svg onload="alert(1)"><script>alert(2)</script></svg>', encoding="utf-8"
    )
    with pytest.raises(PluginError, match=name.replace(".", r"\.")):
        SanitizePlugin().on_post_build(config=SimpleNamespace(site_dir=str(tmp_path), site_url=None))  # type: ignore[arg-type]


def test_the_store_reads_back_regular_files_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page or record planted as a FIFO, a link (→ /dev/zero, → /etc/passwd) or an oversized file is one
    StoreError; the readers behind merge, refresh, the index and the catalog never block or fill memory."""
    os.mkfifo(tmp_path / "pipe.md")
    os.mkfifo(tmp_path / "_meta.json")
    (tmp_path / "zero.md").symlink_to("/dev/zero")
    (tmp_path / "passwd.json").symlink_to("/etc/passwd")
    with alarm(20):
        with pytest.raises(StoreError, match="not a regular file"):
            store.read_page(tmp_path / "pipe.md")
        with pytest.raises(StoreError, match="not a regular file"):
            store.read_json(tmp_path / "_meta.json")
        with pytest.raises(StoreError, match="symbolic link"):
            store.read_page(tmp_path / "zero.md")
        with pytest.raises(StoreError, match="symbolic link"):
            store.read_json(tmp_path / "passwd.json")
    monkeypatch.setattr(store, "MAX_READ_BYTES", 100)
    (tmp_path / "big.md").write_text("---\ntitle: x\n---\n" + "y" * 100, encoding="utf-8")
    with pytest.raises(StoreError, match="larger than"):
        store.read_page(tmp_path / "big.md")
    assert store.read_json(tmp_path / "missing.json", default={"d": 1}) == {"d": 1}


def test_deepkb_site_with_a_fifo_page_is_one_line(kb_root: Path) -> None:
    """`deepkb site` reads the pages (catalog, nav) before MkDocs runs: a FIFO there blocked it forever."""
    site_src = _site_src(kb_root)
    page = site_src / "topics" / "t" / "index.md"
    page.unlink()
    os.mkfifo(page)
    with alarm(120):
        result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 1, result.output
    assert (
        result.output.count("\n") == 1 and "site_src/topics/t/index.md is not a regular file" in result.output
    )
    assert not (kb_root / "site").exists()
