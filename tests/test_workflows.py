"""The GitHub workflows: triggers, permissions, concurrency, step order, secrets, and site/ never committed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"


def load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as the boolean True
    if True in data:
        data["on"] = data.pop(True)
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job["steps"])


def index_of(job_steps: list[dict[str, Any]], predicate: Any) -> int:
    found = [i for i, step in enumerate(job_steps) if predicate(step)]
    assert found, "step not found"
    return found[0]


def uses(action: str) -> Any:
    return lambda step: str(step.get("uses", "")).startswith(action + "@")


def runs(pattern: str) -> Any:
    return lambda step: re.search(pattern, str(step.get("run", ""))) is not None


@pytest.fixture(scope="module")
def pages() -> dict[str, Any]:
    return load("pages.yml")


@pytest.fixture(scope="module")
def nightly() -> dict[str, Any]:
    return load("nightly.yml")


def test_pages_triggers_permissions_concurrency(pages: dict[str, Any]) -> None:
    assert pages["on"]["push"]["branches"] == ["main"]
    assert "workflow_dispatch" in pages["on"]
    # issue 22 #17: nothing by default; the build (committed pages: untrusted) reads, only deploy writes Pages
    assert pages["permissions"] == {}
    assert pages["jobs"]["build"]["permissions"] == {"contents": "read"}
    assert pages["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert pages["concurrency"]["group"] and pages["concurrency"]["cancel-in-progress"] is False


def test_pages_builds_then_deploys_with_official_actions(pages: dict[str, Any]) -> None:
    build = steps(pages["jobs"]["build"])
    order = [
        index_of(build, uses("actions/checkout")),
        index_of(build, uses("actions/setup-python")),
        index_of(build, runs(r"pip install -r requirements-ci\.txt")),
        index_of(build, runs(r"^deepkb site\b")),
        index_of(build, uses("actions/upload-pages-artifact")),
    ]
    assert order == sorted(order)
    assert build[order[-1]]["with"]["path"] == "site"
    deploy = pages["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert any(uses("actions/deploy-pages")(s) for s in steps(deploy))


@pytest.mark.parametrize("name", ["pages.yml", "nightly.yml"])
def test_pip_cache_is_keyed_on_pinned_requirements(name: str) -> None:
    workflow = load(name)
    first_job = next(iter(workflow["jobs"].values()))
    setup = next(s for s in steps(first_job) if uses("actions/setup-python")(s))
    assert setup["with"]["cache"] == "pip"
    assert setup["with"]["cache-dependency-path"] == "requirements-ci.txt"
    pinned = (ROOT / "requirements-ci.txt").read_text(encoding="utf-8").splitlines()
    requirements = [line for line in pinned if line and not line.startswith("#")]
    assert requirements and all(re.match(r"^[A-Za-z0-9_.\-]+==\S+$", line) for line in requirements)
    names = {_normalized(line.split("==")[0]) for line in requirements}
    # the workflows install deepkb itself with --no-deps: every runtime dependency must be pinned here
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    wanted = {_normalized(re.split(r"[\[<>=!~; ]", spec, maxsplit=1)[0]) for spec in declared}
    assert wanted <= names, f"not pinned in requirements-ci.txt: {sorted(wanted - names)}"


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def test_nightly_triggers_permissions_concurrency(nightly: dict[str, Any]) -> None:
    assert nightly["on"]["schedule"][0]["cron"].count(" ") == 4
    assert "workflow_dispatch" in nightly["on"]
    # issue 22 #17: the publish job inherited pages and id-token rights; now each job names what it uses
    assert nightly["permissions"] == {}
    jobs = nightly["jobs"]
    assert {name: job["permissions"] for name, job in jobs.items()} == {
        "plan": {"contents": "read"},
        "research": {"contents": "read"},
        "publish": {"contents": "write"},
        "deploy": {"pages": "write", "id-token": "write"},
    }
    assert nightly["concurrency"]["group"] and nightly["concurrency"]["cancel-in-progress"] is False


def test_nightly_is_a_matrix_of_research_jobs_sized_by_one_setting(nightly: dict[str, Any]) -> None:
    jobs = nightly["jobs"]
    assert list(jobs) == ["plan", "research", "publish", "deploy"]
    plan = steps(jobs["plan"])
    count = plan[index_of(plan, runs(r"deepkb shards --matrix"))]
    assert count["id"] == "shards" and "GITHUB_OUTPUT" in count["run"]
    assert jobs["plan"]["outputs"]["shards"] == "${{ steps.shards.outputs.shards }}"
    research = jobs["research"]
    assert research["needs"] == "plan"
    assert research["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.plan.outputs.shards) }}"
    assert research["strategy"]["fail-fast"] is False  # one failing shard does not cancel the others
    assert research["permissions"] == {"contents": "read"}  # research jobs never push


def test_nightly_research_refreshes_its_shard_and_uploads_its_entries(nightly: dict[str, Any]) -> None:
    job = steps(nightly["jobs"]["research"])
    refresh = index_of(job, runs(r'deepkb refresh --no-site --shard "\$\{SHARD\}"'))
    collect = index_of(job, runs(r"shard-entries"))
    upload = index_of(job, uses("actions/upload-artifact"))
    report = index_of(job, runs(r"exit 1"))
    assert refresh < collect < upload < report
    assert job[refresh]["env"]["SHARD"] == "${{ matrix.shard }}/${{ needs.plan.outputs.total }}"
    # a refresh that failed for some entries still uploads what landed
    assert job[refresh].get("continue-on-error") is True
    assert job[upload]["with"]["name"] == "research-${{ matrix.shard }}"
    assert job[upload]["with"]["path"] == "shard-entries"
    cache = job[index_of(job, uses("actions/cache"))]
    assert "${{ matrix.shard }}" in cache["with"]["key"]  # each shard keeps its own LLM replies and batch ids


def test_nightly_publish_merges_commits_builds_then_deploys(nightly: dict[str, Any]) -> None:
    publish = nightly["jobs"]["publish"]
    assert publish["needs"] == ["plan", "research"]
    assert "!cancelled()" in publish["if"]  # merge what landed even when a research job failed
    job = steps(publish)
    download = index_of(job, uses("actions/download-artifact"))
    merge = index_of(job, runs(r"deepkb merge --no-site shards/research-\*"))
    commit = index_of(job, runs(r"git commit"))
    build = index_of(job, runs(r"^deepkb site\b"))
    upload = index_of(job, uses("actions/upload-pages-artifact"))
    assert download < merge < commit < build < upload
    assert job[download]["with"]["pattern"] == "research-*"
    deploy = nightly["jobs"]["deploy"]
    assert deploy["needs"] == "publish"
    assert any(uses("actions/deploy-pages")(s) for s in steps(deploy))


def test_nightly_commits_site_src_only_and_pushes_to_main(nightly: dict[str, Any]) -> None:
    script = next(s["run"] for s in steps(nightly["jobs"]["publish"]) if runs(r"git commit")(s))
    adds = re.findall(r"git add[^\n]*", script)
    assert adds and all(add.rstrip().endswith("-- site_src") for add in adds)
    assert "git push origin HEAD:main" in script
    everything = (WORKFLOWS / "nightly.yml").read_text(encoding="utf-8")
    assert not re.search(r"git add[^\n]*\bsite(/|\s|$)", everything)
    assert "git add -A\n" not in everything and "git add .\n" not in everything
    assert everything.count("git push") == 1  # only the publish job writes to main


@pytest.mark.parametrize("name", ["pages.yml", "nightly.yml"])
def test_api_keys_only_from_secrets(name: str) -> None:
    text = (WORKFLOWS / name).read_text(encoding="utf-8")
    for key, value in re.findall(r"^\s*([A-Z_]*(?:API_KEY|TOKEN|SECRET))\s*:\s*(.+)$", text, re.MULTILINE):
        assert re.fullmatch(r"\$\{\{\s*secrets\." + key + r"\s*\}\}", value.strip()), (key, value)
    assert not re.search(r"sk-[A-Za-z0-9]{8,}", text)


def test_nightly_refresh_gets_llm_keys(nightly: dict[str, Any]) -> None:
    job = steps(nightly["jobs"]["research"])
    refresh = job[index_of(job, runs(r"deepkb refresh --no-site"))]
    env = refresh["env"]
    assert env["ANTHROPIC_API_KEY"] == "${{ secrets.ANTHROPIC_API_KEY }}"
    assert "OPENAI_API_KEY" in env
    # no key: the step only reports (dry run) instead of overwriting model research with offline research
    assert 'deepkb refresh --dry-run --shard "${SHARD}"' in refresh["run"]
    # keys are given to the one step that needs them, never to a whole job or the workflow; the push step
    # alone gets the workflow's own token
    assert "env" not in nightly and all("env" not in job for job in nightly["jobs"].values())
    publish = steps(nightly["jobs"]["publish"])
    push = publish[index_of(publish, runs(r"git push"))]
    assert push["env"] == {"GITHUB_TOKEN": "${{ secrets.GITHUB_TOKEN }}"}
    for name, other in nightly["jobs"].items():
        for step in steps(other) if "steps" in other else []:
            if step is not refresh and step is not push:
                assert "secrets." not in str(step), (name, step.get("name"))


@pytest.mark.parametrize("name", ["pages.yml", "nightly.yml"])
def test_checkouts_leave_no_token_behind(name: str) -> None:
    """Issue 22 #17: with the token in .git/config, a symlinked page could publish it (issue 22 #4)."""
    workflow = load(name)
    checkouts = [
        s for job in workflow["jobs"].values() for s in job.get("steps", []) if uses("actions/checkout")(s)
    ]
    assert checkouts and all(s["with"]["persist-credentials"] is False for s in checkouts)


def test_the_push_hands_the_token_to_git_for_that_step_only(nightly: dict[str, Any]) -> None:
    publish = steps(nightly["jobs"]["publish"])
    script = publish[index_of(publish, runs(r"git push"))]["run"]
    auth = script.index("GIT_CONFIG_VALUE_0")
    assert script.index("git commit") < auth < script.index("git pull --rebase") < script.index("git push")
    assert "git config" not in script[auth:] and "::add-mask::" in script  # nothing written to .git/config


@pytest.mark.parametrize("name", ["pages.yml", "nightly.yml"])
def test_actions_are_pinned_to_commits(name: str) -> None:
    """Issue 22 #17: a tag can be moved to other code; a commit cannot. The tag stays readable in a comment."""
    text = (WORKFLOWS / name).read_text(encoding="utf-8")
    references = re.findall(r"^\s*(?:-\s*)?uses:\s*(\S+)(.*)$", text, re.MULTILINE)
    assert references
    for action, comment in references:
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", action), action
        assert re.fullmatch(r"\s*# v\d+(\.\d+)*", comment), (action, comment)


def test_nightly_collects_entries_with_non_ascii_and_spaced_slugs(
    nightly: dict[str, Any], tmp_path: Path
) -> None:
    """Issue 22 #9: `git status` quoted a topic slug such as 套利, so its shard uploaded none of its research.
    The step's own script runs here in a throwaway repository with changed and new entries."""
    import shutil
    import subprocess

    if shutil.which("git") is None or shutil.which("bash") is None:
        pytest.fail("the workflow step needs git and bash")
    job = steps(nightly["jobs"]["research"])
    script = job[index_of(job, runs(r"shard-entries"))]["run"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, env=env, check=True
        )

    def write(rel: str, text: str) -> None:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")

    git("init", "-q")
    write("site_src/topics/old/index.md", "old\n")
    write("site_src/topics/unchanged/index.md", "same\n")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    write("site_src/topics/old/index.md", "changed\n")
    write("site_src/topics/套利/index.md", "新\n")
    write("site_src/topics/套利/raw/a.md", "raw\n")
    write("site_src/topics/with space/index.md", "s\n")
    write("site_src/repos/Acme/Widgets-ü/index.md", "r\n")
    subprocess.run(
        ["bash", "-eo", "pipefail", "-c", script], cwd=tmp_path, env=env, check=True, capture_output=True
    )
    collected = tmp_path / "shard-entries"
    assert (collected / "topics" / "套利" / "raw" / "a.md").read_text(encoding="utf-8") == "raw\n"
    assert (collected / "topics" / "with space" / "index.md").is_file()
    assert (collected / "topics" / "old" / "index.md").read_text(encoding="utf-8") == "changed\n"
    assert (collected / "repos" / "Acme" / "Widgets-ü" / "index.md").is_file()
    assert not (collected / "topics" / "unchanged").exists()
