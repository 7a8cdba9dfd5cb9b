"""`deepkb init`: a knowledge-base repository of one's own, from init through build to a published site."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from conftest import SAMPLE_PROJECT, deepkb, git, make_git_repo
from test_build_e2e import CORPUS

from generator.cli import cli
from generator.config import load_config
from generator.scaffold import WORKFLOW, default_install

MADE = {"deepkb.yml", ".gitignore", ".github/workflows/deepkb.yml"}


def init(folder: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["init", str(folder), *args])


def made_files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def workflow(folder: Path) -> dict[str, Any]:
    data = yaml.safe_load((folder / WORKFLOW).read_text(encoding="utf-8"))
    data["on"] = data.pop(True)  # YAML 1.1 reads the key `on` as true
    return data


def test_init_makes_a_knowledge_base_repository(tmp_path: Path) -> None:
    result = init(tmp_path / "kb")
    assert result.exit_code == 0, result.output
    assert made_files(tmp_path / "kb") == MADE
    assert "deepkb build" in result.output and "deepkb serve" in result.output
    ignored = (tmp_path / "kb" / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".cache/" in ignored and "site/" in ignored
    assert load_config(tmp_path / "kb" / "deepkb.yml").site.title == "My knowledge base"


def test_the_commented_examples_are_a_valid_config_once_uncommented(tmp_path: Path) -> None:
    assert init(tmp_path / "kb").exit_code == 0
    text = (tmp_path / "kb" / "deepkb.yml").read_text(encoding="utf-8")
    examples = re.sub(r"^# (repos:|topics:|llm:|  )", r"\1", text, flags=re.MULTILINE)
    (tmp_path / "kb" / "deepkb.yml").write_text(examples, encoding="utf-8")
    (tmp_path / "kb" / "docs").mkdir()
    config = load_config(tmp_path / "kb" / "deepkb.yml")
    assert [r.source for r in config.repos] == ["https://github.com/pallets/click", "../my-project"]
    assert config.repos[0].request and config.topics[0].sources == ["local:docs"]
    assert config.llm.provider == "anthropic"


@pytest.mark.parametrize("existing", sorted(MADE))
def test_init_refuses_to_overwrite_and_writes_nothing(tmp_path: Path, existing: str) -> None:
    folder = tmp_path / "kb"
    (folder / existing).parent.mkdir(parents=True)
    (folder / existing).write_text("mine\n", encoding="utf-8")
    result = init(folder)
    assert result.exit_code == 2
    assert result.output == (
        f"Error: {folder / existing} already exists: deepkb init writes only new files"
        " (run it in an empty folder, or move the file away)\n"
    )
    assert made_files(folder) == {existing}
    assert (folder / existing).read_text(encoding="utf-8") == "mine\n"


def test_the_workflow_installs_deepkb_as_a_package_and_passes_actionlint(tmp_path: Path) -> None:
    assert init(tmp_path, "--install", "git+https://github.com/acme/deepkb@0123abc").exit_code == 0
    text = (tmp_path / WORKFLOW).read_text(encoding="utf-8")
    assert "-e ." not in text and "requirements" not in text
    data = workflow(tmp_path)
    assert data["env"]["DEEPKB_INSTALL"] == "git+https://github.com/acme/deepkb@0123abc"
    installs = [
        s["run"] for job in data["jobs"].values() for s in job["steps"] if "pip install" in s.get("run", "")
    ]
    assert installs == ['python -m pip install "${DEEPKB_INSTALL}"'] * 3
    actionlint = Path(sys.executable).parent / "actionlint"  # the dev extras' binary
    checked = subprocess.run([str(actionlint), str(tmp_path / WORKFLOW)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_workflow_researches_in_shards_merges_and_deploys_to_pages(tmp_path: Path) -> None:
    assert init(tmp_path).exit_code == 0
    data = workflow(tmp_path)
    assert set(data["on"]) >= {"schedule", "workflow_dispatch"} and data["permissions"] == {}
    jobs = data["jobs"]
    assert list(jobs) == ["plan", "research", "publish", "deploy"]
    assert "deepkb shards --matrix" in jobs["plan"]["steps"][-1]["run"]
    assert jobs["research"]["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.plan.outputs.shards) }}"
    research = " ".join(str(s.get("run", "")) for s in jobs["research"]["steps"])
    assert 'deepkb refresh --no-site --shard "${SHARD}"' in research
    publish = " ".join(str(s.get("run", "")) for s in jobs["publish"]["steps"])
    assert "deepkb merge --no-site shards/research-*" in publish and "git add --all -- site_src" in publish
    assert publish.index("deepkb merge") < publish.index("deepkb site")
    assert jobs["deploy"]["steps"][-1]["uses"].startswith("actions/deploy-pages@")
    # only publish may push, only deploy may write Pages
    assert jobs["publish"]["permissions"] == {"contents": "write"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


@pytest.mark.parametrize("install", ["deepkb; rm -rf /", 'deepkb" x', "-e .", "git+ssh://host/x", "a b"])
def test_init_refuses_an_install_that_is_not_one_requirement(tmp_path: Path, install: str) -> None:
    result = init(tmp_path / "kb", "--install", install)
    assert result.exit_code == 2 and "is not a package requirement" in result.output
    assert not (tmp_path / "kb").exists()


def test_the_default_install_is_where_this_deepkb_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    class Installed:
        def __init__(self, direct: dict[str, Any] | None) -> None:
            self.direct = direct

        def read_text(self, name: str) -> str | None:
            return json.dumps(self.direct) if self.direct is not None else None

    def installed(direct: dict[str, Any] | None) -> None:
        monkeypatch.setattr(metadata, "distribution", lambda name: Installed(direct))

    installed({"url": "https://github.com/acme/deepkb", "vcs_info": {"vcs": "git", "commit_id": "f00d"}})
    assert default_install() == "git+https://github.com/acme/deepkb@f00d"
    installed({"url": "file:///home/me/deepkb", "dir_info": {"editable": True}})  # a checkout: not reachable
    assert re.fullmatch(r"deepkb==\d+\.\d+\.\d+.*", default_install())
    installed(None)  # from the package index
    assert re.fullmatch(r"deepkb==\d+\.\d+\.\d+.*", default_install())


def test_init_build_publish_into_a_bare_repository(tmp_path: Path) -> None:
    remote = tmp_path / "pages.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    project = make_git_repo(tmp_path / "sample", SAMPLE_PROJECT, origin="https://github.com/acme/sample.git")
    root = tmp_path / "kb"
    assert init(root).exit_code == 0
    (root / "docs").mkdir()
    for name, text in CORPUS.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    config = (root / "deepkb.yml").read_text(encoding="utf-8")
    (root / "deepkb.yml").write_text(
        config + f"repos:\n  - source: {project}\ntopics:\n  - topic: How calculators evaluate expressions\n"
        "    sources: ['local:docs']\n    verify: false\n",
        encoding="utf-8",
    )
    built = deepkb(root, "build")
    assert built.exit_code == 0, built.stderr[-3000:]
    assert (root / "site" / "index.html").is_file()
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    tracked = set(git(root, "diff", "--cached", "--name-only").splitlines())
    assert not any(path.startswith((".cache/", "site/")) for path in tracked)  # the .gitignore holds
    assert {"deepkb.yml", ".gitignore", ".github/workflows/deepkb.yml"} <= tracked
    assert any(path.startswith("site_src/repos/acme/sample/") for path in tracked)
    git(root, "commit", "-q", "-m", "my knowledge base")
    published = deepkb(root, "publish", "--remote", str(remote))
    assert published.exit_code == 0, published.stderr[-3000:]
    head = git(root, "rev-parse", "HEAD")
    assert f"knowledge-base commit {head[:12]}" in published.stderr
    pages = set(git(remote, "ls-tree", "-r", "--name-only", "gh-pages").splitlines())
    assert {"index.html", ".nojekyll", "repos/acme/sample/index.html"} <= pages
