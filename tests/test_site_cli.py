"""`deepkb site` and `deepkb serve` through the real click entry point."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import SharedSite

from generator.cli import cli


def test_site_command_builds_anywhere(kb_root: Path) -> None:
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 0, result.output
    assert (kb_root / "site" / "index.html").is_file()
    assert (kb_root / "site_src" / "index.md").is_file()
    assert "Site built" in result.output and "deepkb serve" in result.output


def test_site_command_builds_a_hostile_kb_strictly(shared_site: SharedSite) -> None:
    # the run's shared site is the hostile KB (and more) built by `deepkb site`, strict by default
    result, kb_root = shared_site.result, shared_site.paths.root
    assert result.exit_code == 0, result.output
    assert (kb_root / "site" / "tags" / "trade" / "index.html").is_file()


def test_site_command_reports_a_broken_build_in_one_line(kb_root: Path) -> None:
    page = kb_root / "site_src" / "topics" / "t" / "index.md"
    page.parent.mkdir(parents=True)
    page.write_text("---\ntitle: T\n---\n\n[broken](missing.md)\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: site build failed:") and "missing.md" in result.output
    assert "Traceback" not in result.output
    assert CliRunner().invoke(cli, ["--root", str(kb_root), "site", "--no-strict"]).exit_code == 0


def test_serve_command_runs_mkdocs_serve_with_the_site_config(
    kb_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mkdocs.commands.serve

    calls: list[dict[str, Any]] = []
    # the far side: mkdocs' server loop, which would block; record how it was asked to serve instead
    monkeypatch.setattr(mkdocs.commands.serve, "serve", lambda **kwargs: calls.append(kwargs))
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "serve", "--dev-addr", "127.0.0.1:8765"])
    assert result.exit_code == 0, result.output
    [call] = calls
    assert call["dev_addr"] == "127.0.0.1:8765"
    assert call["docs_dir"] == str(kb_root / "site_src")
    assert call["nav"][0] == {"Home": "index.md"}
    assert Path(call["config_file"]).name == "mkdocs.yml"
    assert "site_dir" not in call  # mkdocs serve builds into its own temporary folder


def test_serve_on_a_busy_port_is_one_line_before_any_rendering(
    kb_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    import mkdocs.commands.serve

    monkeypatch.setattr(mkdocs.commands.serve, "serve", lambda **kwargs: pytest.fail("served on a busy port"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        addr = f"127.0.0.1:{busy.getsockname()[1]}"
        result = CliRunner().invoke(cli, ["--root", str(kb_root), "serve", "--dev-addr", addr])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: cannot serve on {addr}: the port is already in use")
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert "Serving on" not in result.output
    assert not (kb_root / "site_src" / "index.md").exists()  # nothing rendered


def test_serve_when_mkdocs_loses_the_port_race_is_one_line(
    kb_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import mkdocs.commands.serve

    def taken(**kwargs: Any) -> None:
        raise OSError(errno.EADDRINUSE, "Address already in use")

    monkeypatch.setattr(mkdocs.commands.serve, "serve", taken)
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "serve", "--dev-addr", "127.0.0.1:0"])
    assert result.exit_code == 2, result.output
    assert "cannot serve on 127.0.0.1:0: the port is already in use" in result.output
    assert "Traceback" not in result.output


def test_serve_refuses_an_address_without_a_port(kb_root: Path) -> None:
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "serve", "--dev-addr", "localhost"])
    assert result.exit_code == 2
    assert "is not IP:PORT" in result.output


def test_a_site_without_site_url_warns_once_that_the_sitemap_is_empty(kb_root: Path) -> None:
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 0, result.output
    assert result.output.count("site.site_url is not set in deepkb.yml: sitemap.xml lists no pages") == 1
    assert "<loc>" not in (kb_root / "site" / "sitemap.xml").read_text(encoding="utf-8")
    config = kb_root / "deepkb.yml"
    config.write_text(
        (config.read_text(encoding="utf-8") if config.exists() else "")
        + "\nsite:\n  site_url: https://acme.github.io/kb/\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "site"])
    assert result.exit_code == 0, result.output
    assert "sitemap.xml lists no pages" not in result.output
    assert "<loc>https://acme.github.io/kb/</loc>" in (kb_root / "site" / "sitemap.xml").read_text(
        encoding="utf-8"
    )
