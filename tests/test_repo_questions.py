"""Questions asked of a repository (answer pages that accumulate and are re-answered at every refresh) and a
maintainer's notes (deepkb.yml `notes:`), through the real CLI on a fixture repository, offline."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml
from conftest import SAMPLE_PROJECT, deepkb, git, make_git_repo

from generator.repo.synthesize.questions import answer_slugs
from generator.store import KBPaths, read_page

# the sample project with its package renamed: a folder named "sample" reads as example code
CALC = {
    path.replace("sample/", "calc/"): text.replace("sample.", "calc.")
    for path, text in SAMPLE_PROJECT.items()
}
NOTES = "# Where to start\n\nRead `evaluate` first.\n\n<script>alert(1)</script> [a link](javascript:x)\n"


@pytest.fixture
def calc_repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "calc", CALC, origin="https://github.com/acme/sample.git")


def _kb(kb_root: Path, sample_repo: Path, **entry: object) -> KBPaths:
    config = {"repos": [{"source": str(sample_repo), **entry}]}
    (kb_root / "deepkb.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return KBPaths(kb_root)


def _answers(paths: KBPaths) -> dict[str, dict]:
    folder = paths.repo_dir("acme", "sample") / "answers"
    return {p.name: read_page(p)[0] for p in sorted(folder.glob("*.md"))}


def test_questions_accumulate_and_a_refresh_re_answers_them_and_keeps_the_notes(
    kb_root: Path, calc_repo: Path
) -> None:
    sample_repo = calc_repo
    (kb_root / "kb-notes").mkdir()
    (kb_root / "kb-notes" / "sample.md").write_text(NOTES, encoding="utf-8")
    paths = _kb(kb_root, sample_repo, request=["How are expressions parsed?"], notes="kb-notes/sample.md")
    first = deepkb(kb_root, "--provider", "offline", "repo", "run", str(sample_repo), "--json")
    assert first.exit_code == 0, first.output
    # a second question from the command line adds a page; the first stays
    second = deepkb(
        kb_root,
        "--provider",
        "offline",
        "repo",
        "run",
        str(sample_repo),
        "--request",
        "How is a sum evaluated?",
    )
    assert second.exit_code == 0, second.output
    answers = _answers(paths)
    assert sorted(answers) == ["how-are-expressions-parsed.md", "how-is-a-sum-evaluated.md"]
    # evaluate calls parse: the caller opens the answer
    assert answers["how-are-expressions-parsed.md"]["symbols"][:2] == ["evaluate", "parse"]

    git(sample_repo, "mv", "calc/parser.py", "calc/parsing.py")
    (sample_repo / "calc" / "core.py").write_text(
        (sample_repo / "calc" / "core.py").read_text().replace(".parser", ".parsing")
    )
    git(sample_repo, "commit", "-qam", "rename the parser")
    head = git(sample_repo, "rev-parse", "HEAD")
    refreshed = deepkb(kb_root, "--provider", "offline", "refresh", "--no-site", "--json")
    assert refreshed.exit_code == 0, refreshed.output
    assert json.loads(refreshed.stdout)["refreshed"] == 1
    answers = _answers(paths)
    assert sorted(answers) == ["how-are-expressions-parsed.md", "how-is-a-sum-evaluated.md"]
    assert {meta["revision"] for meta in answers.values()} == {head}
    parsed = read_page(paths.repo_dir("acme", "sample") / "answers" / "how-are-expressions-parsed.md")[1]
    assert f"/blob/{head}/calc/parsing.py#L" in parsed and "calc/parser.py" not in parsed

    meta, index = read_page(paths.repo_dir("acme", "sample") / "index.md")
    notes = index.split("## Maintainer's notes", 1)[1].split("\n## Questions answered", 1)[0]
    assert "Where to start" in notes and "Read `evaluate` first." in notes
    assert "<script>" not in notes and "](javascript:" not in notes
    assert meta["questions"] == ["How are expressions parsed?", "How is a sum evaluated?"]
    entry = json.loads((paths.site_src / "_index.json").read_text())["topics"]["repo:acme/sample"]
    assert entry["questions"] == meta["questions"]


@pytest.mark.parametrize(
    ("notes", "says"),
    [
        ("../outside.md", "must be a path inside the knowledge base"),
        ("/etc/hostname", "must be a path inside the knowledge base"),
        ("linked/notes.md", "leads outside the knowledge base"),
        ("kb-notes/missing.md", "no such file"),
    ],
)
def test_notes_outside_the_knowledge_base_or_missing_are_one_line(
    kb_root: Path, sample_repo: Path, tmp_path: Path, notes: str, says: str
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "notes.md").write_text("secret plans\n", encoding="utf-8")
    (tmp_path / "outside.md").write_text("secret plans\n", encoding="utf-8")
    os.symlink(outside, kb_root / "linked")
    paths = _kb(kb_root, sample_repo, notes=notes)
    result = deepkb(kb_root, "--provider", "offline", "repo", "run", str(sample_repo))
    assert result.exit_code == 2
    assert says in result.output and len(result.output.strip().splitlines()) <= 2
    assert "Traceback" not in result.output
    assert not (paths.repo_dir("acme", "sample") / "index.md").exists()  # refused before any work


# the extraheader actions/checkout stores in .git/config: base64 of "x-access-token:<the job's token>"
CI_TOKEN = "ghs_4fKq9ZrT2mWx8LpB3nVc7YdE1hJs6GaU0oNi"
EXTRAHEADER = (
    "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzXzRmS3E5WnJUMm1XeDhMcEIzblZjN1lkRTFoSnM2R2FVMG9OaQ=="
)


@pytest.mark.parametrize(
    "notes", [".git/config", ".env", ".cache/deepkb/notes.md", "kb-notes/.secret.md", "kb-notes/link.md"]
)
def test_notes_in_a_hidden_file_are_refused_with_one_line(
    kb_root: Path, sample_repo: Path, notes: str
) -> None:
    """#32.3: `notes:` published any file under the root verbatim, the CI token in .git/config included."""
    (kb_root / ".git").mkdir()
    (kb_root / ".git" / "config").write_text(f'[http "https://github.com/"]\n\textraheader = {EXTRAHEADER}\n')
    (kb_root / ".env").write_text(f"GITHUB_TOKEN={CI_TOKEN}\n")
    (kb_root / ".cache" / "deepkb").mkdir(parents=True)
    (kb_root / ".cache" / "deepkb" / "notes.md").write_text(f"token {CI_TOKEN}\n")
    (kb_root / "kb-notes").mkdir()
    (kb_root / "kb-notes" / ".secret.md").write_text(f"token {CI_TOKEN}\n")
    os.symlink(kb_root / ".git" / "config", kb_root / "kb-notes" / "link.md")  # inside the root, but hidden
    paths = _kb(kb_root, sample_repo, notes=notes)
    result = deepkb(kb_root, "--provider", "offline", "repo", "run", str(sample_repo))
    assert result.exit_code == 2, result.output
    assert "hidden file or folder" in result.output and len(result.output.strip().splitlines()) <= 2
    assert not (paths.repo_dir("acme", "sample") / "index.md").exists()


def test_notes_are_redacted_like_repository_text(kb_root: Path, sample_repo: Path) -> None:
    (kb_root / "kb-notes").mkdir()
    (kb_root / "kb-notes" / "sample.md").write_text(
        f"# Deploying\n\nThe job sends `extraheader = {EXTRAHEADER}`.\n\nGITHUB_TOKEN={CI_TOKEN}\n"
        "AWS key AKIAIOSFODNN7EXAMPLF in the notes.\n",
        encoding="utf-8",
    )
    paths = _kb(kb_root, sample_repo, notes="kb-notes/sample.md")
    assert deepkb(kb_root, "--provider", "offline", "repo", "run", str(sample_repo)).exit_code == 0
    page = (paths.repo_dir("acme", "sample") / "index.md").read_text(encoding="utf-8")
    assert "Deploying" in page and "REDACTED" in page
    for secret in (CI_TOKEN, EXTRAHEADER.split()[-1], "AKIAIOSFODNN7EXAMPLF"):
        assert secret not in page
    assert not any(secret in p.read_text() for p in paths.site_src.rglob("*.md") for secret in (CI_TOKEN,))


def test_an_empty_question_is_refused(kb_root: Path, sample_repo: Path) -> None:
    result = deepkb(kb_root, "--provider", "offline", "repo", "run", str(sample_repo), "--request", "  ")
    assert result.exit_code == 2 and "a request is empty" in result.output


def test_questions_sharing_a_slug_keep_distinct_stable_pages() -> None:
    slugs = answer_slugs(["How is X parsed?", "how is x parsed", "What is Y?"])
    assert slugs["What is Y?"] == "what-is-y"
    assert slugs["How is X parsed?"] != slugs["how is x parsed"]
    assert answer_slugs(["how is x parsed", "How is X parsed?"]) == {
        k: v for k, v in slugs.items() if k != "What is Y?"
    }


def test_an_answer_page_walks_with_its_repository_in_the_site(kb_root: Path, calc_repo: Path) -> None:
    sample_repo = calc_repo
    _kb(kb_root, sample_repo, request="How are expressions parsed?")
    assert deepkb(kb_root, "--provider", "offline", "repo", "run", str(sample_repo)).exit_code == 0
    built = deepkb(kb_root, "site")
    assert built.exit_code == 0, built.output
    site = KBPaths(kb_root).site_dir / "repos" / "acme" / "sample"
    page = (site / "answers" / "how-are-expressions-parsed" / "index.html").read_text(encoding="utf-8")
    nav = page.split('class="md-sidebar md-sidebar--primary"', 1)[1].split("md-sidebar--secondary")[0]
    shards = sorted(p.parent.name for p in (site / "shards").glob("*/index.html"))
    assert shards and all(f"../../shards/{name}/" in nav for name in shards)
    # under the repository's own section the entry is the question; the page's title keeps the repository
    assert "How are expressions parsed?" in nav and "sample · How are expressions parsed?" not in nav
    assert "<title>sample · How are expressions parsed?" in page
    path = page.split('class="md-path"', 1)[1].split("</nav>", 1)[0]
    assert "Repositories" in path
    footer = page.split('class="md-footer"', 1)[1]
    assert re.search(rf'href="\.\./\.\./shards/{shards[-1]}/"[^>]*md-footer__link--prev', footer)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="answers/how-are-expressions-parsed/"' in index
    found = deepkb(kb_root, "knowledge", "search", "How are expressions parsed", "--json")
    assert found.exit_code == 0, found.output
    assert "answers/how-are-expressions-parsed.md" in found.stdout


def test_a_word_every_symbol_names_weighs_less_than_the_one_that_picks_the_answer() -> None:
    """In an HTTP library "request" is in most docstrings; "connection" is what the question is about."""
    from generator.repo.model import Symbol
    from generator.repo.synthesize.answer import term_hits, term_weights, weighed

    def sym(name: str, doc: str) -> Symbol:
        return Symbol(name, "function", 1, 2, doc_source=doc)

    symbols = [
        sym("prepare_request", "Prepare the request and merge the request settings."),
        sym("merge_request_headers", "Merge the request headers."),
        sym("build_request", "Build a request."),
        sym("send_over_connection", "Send the bytes over a pooled connection."),
    ]
    terms = ["request", "connection"]
    weights = term_weights(terms, [term_hits(s, terms) for s in symbols])
    assert weights["connection"] > 1.5 * weights["request"]
    ranked = sorted(symbols, key=lambda s: -weighed(terms, term_hits(s, terms), weights))
    assert ranked[0].name == "send_over_connection"
    unweighted = sorted(symbols, key=lambda s: -weighed(terms, term_hits(s, terms)))
    assert unweighted[0].name == "prepare_request"  # counted alike, the frequent word wins


def test_a_refresh_re_researches_a_repository_whose_deepkb_yml_settings_changed(
    kb_root: Path, calc_repo: Path
) -> None:
    (kb_root / "kb-notes").mkdir()
    notes = kb_root / "kb-notes" / "sample.md"
    notes.write_text("Start at `evaluate`.\n", encoding="utf-8")
    paths = _kb(kb_root, calc_repo, notes="kb-notes/sample.md")
    assert deepkb(kb_root, "--provider", "offline", "repo", "run", str(calc_repo)).exit_code == 0

    def refresh() -> dict:
        result = deepkb(kb_root, "--provider", "offline", "refresh", "--no-site", "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert refresh()["refreshed"] == 0  # nothing moved, nothing edited: nothing to do
    notes.write_text("Start at `parse`.\n", encoding="utf-8")
    first = refresh()
    assert first["refreshed"] == 1 and "settings in deepkb.yml changed" in json.dumps(first)
    index = read_page(paths.repo_dir("acme", "sample") / "index.md")[1]
    assert "Start at `parse`." in index
    assert refresh()["refreshed"] == 0
    _kb(kb_root, calc_repo, notes="kb-notes/sample.md", request="How is a sum evaluated?")
    assert refresh()["refreshed"] == 1  # a new question is answered without waiting for a commit
    assert "how-is-a-sum-evaluated.md" in _answers(paths)
