"""Tokens and estimated cost of research with Claude: synchronous vs prompt-cached vs batched.

    python bench/llm_cost.py [REPO_PATH]

Runs the real pipelines against fake Anthropic servers on 127.0.0.1 (tests/llm_fakes.py: the Messages API
with prompt-cache accounting, and the Message Batches API), counting tokens from the request text (about
4 characters a token) and pricing them with deepkb's default price table (claude-sonnet list prices).

For each mode, in a fresh knowledge base and cache:
  1. research REPO_PATH (default: a clone of this repository) and a topic over a small corpus;
  2. commit a change to one file of the repository, then `refresh`: the nightly run of one changed
     repository (only the changed shard and the synthesis are asked again).
Modes: sync (no prompt caching, synchronous), cached (prompt caching: the prefixes the pipelines mark),
batched (Message Batches, prompt caching too). A last synthetic line shows what caching saves when five
prompts share a 3,000-token prefix, the shape repository shard prompts are asked to take.

The last line is JSON: {"sync_usd", "cached_usd", "batched_usd", "batched_over_sync", ...} for the nightly
refresh of one changed repository (anchor: batched ≤ 0.5 × sync).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(HERE), str(HERE / "tests")]

from llm_fakes import FakeAnthropicBatches, RecordedRequest, Reply  # noqa: E402
from repo_output_fakes import is_analyst, is_architect  # noqa: E402
from test_topic_llm import Team  # noqa: E402
from topic_fakes import make_corpus  # noqa: E402

from generator.app.entries import config_entries  # noqa: E402
from generator.app.refresh import run_refresh  # noqa: E402
from generator.app.run import research_entries  # noqa: E402
from generator.config import Config, validated  # noqa: E402
from generator.llm.anthropic import AnthropicProvider  # noqa: E402
from generator.llm.base import Completion, Prompt, Provider, Usage  # noqa: E402
from generator.llm.batch import BatchProvider  # noqa: E402
from generator.llm.cache import CachedProvider, ReplyCache  # noqa: E402
from generator.llm.cost import usage_cost  # noqa: E402
from generator.store import KBPaths, read_page  # noqa: E402

MODES = ("sync", "cached", "batched")
ANALYSIS = (
    "Summary: this subsystem turns inputs into pages.\n\n## Purpose\n\nIt reads {first}:1-20 and writes results.\n\n"
    "## How it works\n\nA loop over the files; each step is cited ({first}:1-5).\n\n## Risks and notes\n\nNone known.\n"
)


class NoPromptCache(Provider):
    """The synchronous baseline: the same prompts with their cache breakpoints removed."""

    def __init__(self, inner: Provider) -> None:
        super().__init__(inner.config)
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]

    def model_for(self, stage: str) -> str:
        return self.inner.model_for(stage)

    def complete(self, prompt: Prompt) -> Completion:
        completion = self.inner.complete(dataclasses.replace(prompt, cache_prefix_chars=0))
        self.usage.add(completion)
        return completion


def model_reply(team: Team) -> Callable[[RecordedRequest], str | Reply]:
    def reply(req: RecordedRequest) -> str | Reply:
        if is_architect(req):
            return '{"shards": []}'  # the architect's plan is not the subject here: the grouping plan is used
        if is_analyst(req):
            packed = req.prompt.split("Files (each line", 1)[-1]
            first = next(
                (line.split()[1] for line in packed.splitlines() if line.startswith("### ")), "README.md"
            )
            return ANALYSIS.format(first=first)
        return team(req)

    return reply


def provider_for(mode: str, paths: KBPaths, config: Config) -> Provider:
    inner: Provider = AnthropicProvider(config.llm)
    replies = ReplyCache(paths.cache_dir / "llm")
    if mode == "sync":
        inner = NoPromptCache(inner)
    if mode == "batched":
        inner = BatchProvider(inner, replies, settle=0.3, poll_first=0.0, sleep=lambda _: None)  # type: ignore[arg-type]
    return CachedProvider(inner, replies.folder)


def run_mode(mode: str, source_repo: Path, work: Path) -> dict[str, Any]:
    root = work / mode / "kb"
    repo = work / mode / "repo"
    subprocess.run(["git", "clone", "-q", str(source_repo), str(repo)], check=True)
    make_corpus(root)
    os.environ["DEEPKB_CACHE_DIR"] = str(root / ".cache" / "deepkb")
    with FakeAnthropicBatches(default=model_reply(Team([])), polls_until_end=1, prompt_cache=True) as fake:
        os.environ["ANTHROPIC_BASE_URL"] = fake.base_url
        config = validated(
            Config,
            {
                "repos": [str(repo)],
                "topics": [{"topic": "vector databases", "sources": ["local:docs"], "verify": False}],
                "llm": {"provider": "anthropic", "max_retries": 0, "batch": mode == "batched"},
            },
        )
        paths = KBPaths(root)
        provider = provider_for(mode, paths, config)
        outcomes = research_entries(
            paths, config, lambda: provider, config_entries(paths, config), batch=mode == "batched"
        )
        first = {o.entry.kind: o.cost or {} for o in outcomes}
        change_one_file(repo, paths)
        nightly = provider_for(mode, paths, config)
        report = run_refresh(paths, config, lambda: nightly, site=False)
        refreshed = [i.id for i in report.items if i.status == "refreshed"]
        usd, _ = usage_cost(nightly.usage, config.llm)
        return {"first": first, "nightly": tokens(nightly.usage), "nightly_usd": usd, "refreshed": refreshed}


def change_one_file(repo: Path, paths: KBPaths) -> None:
    """Append a function to the first file of the first shard page (a file the research analyzed)."""
    shard_page = sorted(paths.repos_dir.glob("*/*/shards/*.md"))[0]
    target = repo / read_page(shard_page)[0]["files"][0]
    with target.open("a", encoding="utf-8") as handle:
        handle.write(
            '\n\ndef nightly_change() -> str:\n    """A change made for the benchmark."""\n    return "x"\n'
        )
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
    }
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "change"], check=True, env=env)


def tokens(usage: Usage) -> dict[str, int]:
    return {
        "calls": usage.calls,
        "input": usage.input_tokens,
        "cache_read": usage.cache_read_tokens,
        "cache_write": usage.cache_write_tokens,
        "output": usage.output_tokens,
    }


def synthetic_prefix() -> tuple[float, float]:
    """Five prompts sharing a 3,000-token prefix: synchronous cost without and with prompt caching."""
    shared = "Repository map and facts of the repository.\n" * 270
    costs = []
    for mark in (False, True):
        with FakeAnthropicBatches(default="Summary: fine.", prompt_cache=True) as fake:
            os.environ["ANTHROPIC_BASE_URL"] = fake.base_url
            config = validated(Config, {"llm": {"provider": "anthropic", "max_retries": 0}})
            provider = AnthropicProvider(config.llm)
            for shard in range(5):
                user = shared + f"Shard {shard}: its files, about 600 tokens of code.\n" + "x = 1\n" * 400
                provider.complete(Prompt(user=user, cache_prefix_chars=len(shared) if mark else 0))
            costs.append(usage_cost(provider.usage, config.llm)[0])
    return costs[0], costs[1]


def main() -> None:
    source = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
    os.environ["ANTHROPIC_API_KEY"] = "bench-key"
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="deepkb-llm-cost-") as tmp:
        for mode in MODES:
            results[mode] = run_mode(mode, source, Path(tmp))
    print(
        f"{'mode':<8} {'entry':<6} {'calls':>5} {'input':>9} {'cache rd':>9} {'cache wr':>9} {'output':>7} {'USD':>9}"
    )
    for mode in MODES:
        for kind, cost in sorted(results[mode]["first"].items()):
            print(
                f"{mode:<8} {kind:<6} {cost.get('calls', 0):>5} {cost.get('input_tokens', 0):>9,}"
                f" {cost.get('cache_read_tokens', 0):>9,} {cost.get('cache_write_tokens', 0):>9,}"
                f" {cost.get('output_tokens', 0):>7,} {cost.get('cost_usd', 0):>9.4f}"
            )
    print("\nnightly refresh of one changed repository:")
    for mode in MODES:
        n = results[mode]["nightly"]
        print(
            f"{mode:<8} {n['calls']:>5} calls {n['input']:>9,} in {n['cache_read']:>7,} read"
            f" {n['cache_write']:>7,} written {n['output']:>6,} out  ${results[mode]['nightly_usd']:.4f}"
            f"  refreshed {', '.join(results[mode]['refreshed'])}"
        )
    plain, cached = synthetic_prefix()
    print(f"\nsynthetic: 5 prompts sharing a 3,000-token prefix: ${plain:.4f} plain, ${cached:.4f} cached")
    sync, cached_usd, batched = (results[m]["nightly_usd"] for m in MODES)
    print(
        json.dumps(
            {
                "sync_usd": round(sync, 6),
                "cached_usd": round(cached_usd, 6),
                "batched_usd": round(batched, 6),
                "batched_over_sync": round(batched / sync, 3) if sync else None,
                "anchor_batched_over_sync": 0.5,
                "first_research_usd": {
                    m: {k: c.get("cost_usd", 0) for k, c in results[m]["first"].items()} for m in MODES
                },
                "synthetic_prefix_cached_over_plain": round(cached / plain, 3) if plain else None,
            }
        )
    )


if __name__ == "__main__":
    main()
