"""End to end through the real entry point, in process: `deepkb build` on a fixture git repository and a tiny
corpus. The first build is shared: one test reads what it wrote, another builds again and compares."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import frontmatter
import pytest
from click.testing import Result
from conftest import SAMPLE_PROJECT, deepkb, make_git_repo
from site_checks import indexed_pages

CORPUS = {
    "calculators.md": "# Calculators\n\nA calculator evaluates arithmetic expressions. Parsers split the "
    "expression into tokens before evaluation. Expression evaluation is the core of every calculator.\n",
    "history.md": "# History of calculators\n\nMechanical calculators appeared in the seventeenth century. "
    "Electronic calculators replaced them in the 1970s. Calculators made arithmetic cheap.\n",
    "parsing.md": "# Parsing\n\nA parser turns text into a tree. Recursive descent parsers are easy to write "
    "by hand. Parsing errors should name the line and column.\n",
}


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def make_kb(folder: Path) -> Path:
    """The sample repository and the corpus under `folder`, and a KB root whose deepkb.yml lists both."""
    repo = make_git_repo(folder / "sample", SAMPLE_PROJECT, origin="https://github.com/acme/sample.git")
    root = folder / "kb"
    (root / "corpus").mkdir(parents=True)
    for name, text in CORPUS.items():
        (root / "corpus" / name).write_text(text, encoding="utf-8")
    (root / "deepkb.yml").write_text(
        f"repos:\n  - source: {repo}\ntopics:\n  - topic: How calculators evaluate expressions\n"
        # a small corpus cannot pass verification (it ends `unverified`, exit 3): not what is tested here
        "    sources: ['local:corpus']\n    verify: false\n",
        encoding="utf-8",
    )
    return root


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    return make_kb(tmp_path)


@dataclass
class Built:
    root: Path
    first: Result
    site_src_after_first: dict[str, str]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = make_kb(tmp_path_factory.mktemp("build-e2e"))
    first = deepkb(root, "build")
    return Built(root, first, tree_digest(root / "site_src"))


def test_build_researches_and_publishes_offline(built: Built) -> None:
    kb, result = built.root, built.first
    assert result.exit_code == 0, result.stderr[-3000:]
    assert "offline" in result.stderr  # the provider is announced

    site = kb / "site"
    assert (site / "index.html").is_file()
    text = json.dumps(indexed_pages(site), ensure_ascii=False).replace("\\u200b", "")
    for identifier in ("evaluate", "Calculator", "parse"):
        assert identifier in text

    repo_dir = kb / "site_src" / "repos" / "acme" / "sample"
    index = frontmatter.load(repo_dir / "index.md")
    assert index["title"] == "sample"
    for field in ("source", "revision", "revision_date", "generated", "shards"):
        assert index.get(field) not in (None, ""), field
    assert len(index["revision"]) == 40
    assert index["provider"] == "offline"
    shard_pages = sorted((repo_dir / "shards").glob("*.md"))
    assert shard_pages
    for page in shard_pages:
        post = frontmatter.load(page)
        assert post["files"] and all(isinstance(f, str) for f in post["files"])
        assert "offline" in post.content.lower()

    topic_dirs = [p for p in (kb / "site_src" / "topics").iterdir() if p.is_dir()]
    assert len(topic_dirs) == 1
    meta = json.loads((topic_dirs[0] / "_meta.json").read_text(encoding="utf-8"))
    assert meta["status"] == "completed"
    assert list((topic_dirs[0] / "raw").glob("*.md"))

    index_json = json.loads((kb / "site_src" / "_index.json").read_text(encoding="utf-8"))
    assert any(key.startswith("repo:") for key in index_json["topics"])
    assert any(key.startswith("topic:") for key in index_json["topics"])


def test_second_build_changes_nothing(built: Built) -> None:
    assert built.first.exit_code == 0, built.first.stderr[-3000:]
    second = deepkb(built.root, "build")
    assert second.exit_code == 0, second.stderr[-3000:]
    assert tree_digest(built.root / "site_src") == built.site_src_after_first


def test_repo_run_json_prints_the_result_object(kb: Path, tmp_path: Path) -> None:
    result = deepkb(kb, "repo", "run", str(tmp_path / "sample"), "--json")
    assert result.exit_code == 0, result.stderr[-3000:]
    data = json.loads(result.stdout)
    assert data["success"] is True
    assert data["shards_analyzed"] >= 1
    assert len(data["revision"]) == 40
    assert data["harvest_dir"].endswith("repos/acme/sample")
    assert all(link.startswith("[") for link in data["shard_summaries"])
    assert data["summary"]


def test_build_stops_an_entry_whose_model_never_finishes_and_goes_on(kb: Path) -> None:
    """`build` opens each entry's run deadline (repo.*/topic.* timeouts) as `repo run`/`topic run` do:
    a model endpoint that trickles forever fails that entry with one line, the others and the site go on."""
    from llm_fakes import FakeOpenAI, Reply

    config = (kb / "deepkb.yml").read_text(encoding="utf-8")
    with FakeOpenAI(default=Reply.trickling("x" * 10_000, every=0.5)) as fake:
        (kb / "deepkb.yml").write_text(
            config
            + f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  timeout: 600\n"
            + "repo:\n  total_timeout: 1.5\ntopic:\n  total_timeout: 1.5\n",
            encoding="utf-8",
        )
        # without the entry's deadline this build never ends: the timeout fails the test
        done = deepkb(kb, "build", timeout=120)
    assert done.exit_code == 3, done.stderr
    assert "total timeout" in done.stdout + done.stderr
    assert (kb / "site" / "index.html").is_file()
    assert "Traceback" not in done.stderr


def test_an_unverified_topic_is_an_honest_outcome_and_strict_makes_it_fail(tmp_path: Path) -> None:
    """A three-document corpus cannot pass verification: `build` publishes the report labelled "not
    verified" and exits 0 (a newcomer's `make build` must not fail on it); `--strict` exits 3 for a CI that
    wants that; a second plain build leaves the topic alone (a no-op run costs nothing)."""
    root = tmp_path / "kb"
    (root / "corpus").mkdir(parents=True)
    for name, text in CORPUS.items():
        (root / "corpus" / name).write_text(text, encoding="utf-8")
    (root / "deepkb.yml").write_text(
        "topics:\n  - topic: How calculators evaluate expressions\n    sources: ['local:corpus']\n",
        encoding="utf-8",
    )
    first = deepkb(root, "build", "--no-site")
    assert first.exit_code == 0, first.stderr[-3000:]
    assert "not verified" in first.stderr
    landing = root / "site_src" / "topics" / "how-calculators-evaluate-expressions" / "index.md"
    assert "not verified" in landing.read_text(encoding="utf-8")
    strict = deepkb(root, "build", "--no-site", "--strict")
    assert strict.exit_code == 3 and "1 unverified" in strict.stderr
    runs = json.loads((landing.parent / "_meta.json").read_text(encoding="utf-8"))["runs"]
    assert len(runs) == 1


def test_a_folder_outside_git_is_researched_and_says_so_once_and_on_its_page(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    for name, text in SAMPLE_PROJECT.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    root = tmp_path / "kb"
    root.mkdir()
    (root / "deepkb.yml").write_text(f"repos:\n  - source: {folder}\n", encoding="utf-8")
    result = deepkb(root, "build", "--no-site")
    assert result.exit_code == 0, result.stderr[-3000:]
    assert result.stderr.count("is not a git repository") == 1
    assert f"{folder} is not a git repository: researched as a plain folder" in result.stderr
    [index_md] = (root / "site_src" / "repos").glob("*/plain/index.md")
    page = frontmatter.load(index_md)
    assert page["title"] == "plain" and page["revision"] == ""
    assert "**Revision:** none (not a git repository, so no permalinks)" in page.content
    assert "/blob/" not in index_md.read_text(encoding="utf-8")  # no permalink anywhere
