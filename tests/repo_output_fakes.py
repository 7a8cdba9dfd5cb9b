"""Shared fixtures of the repository-research output tests: a multi-package project and a scripted model.

The model is the real `openai` provider talking to `llm_fakes.FakeOpenAI`; `scripted_reply` answers the
architect, focus and analyst prompts the way a well-behaved model would, with citations both valid and not.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_git_repo
from llm_fakes import RecordedRequest, Reply

from generator.config import Config, LLMConfig, RepoResearchConfig
from generator.llm import Provider, open_provider
from generator.store import KBPaths

PROJECT: dict[str, str] = {
    "README.md": "# Shop\n\nShop is a small web shop used to test deepkb. It serves routes and computes prices with an engine.\n",
    "core/__init__.py": '"""The pricing core."""\n\nfrom .engine import price\n',
    "core/engine.py": '"""Price computation engine."""\n\nfrom .models import Item\n\n\ndef price(item: Item) -> float:\n    """Price of one item."""\n    return item.cost * 1.2\n',
    "core/models.py": '"""Data models."""\n\n\nclass Item:\n    """A thing for sale."""\n\n    cost: float = 1.0\n',
    "app/__init__.py": '"""The web app."""\n',
    "app/server.py": '"""HTTP server."""\n\nfrom app.routes import ROUTES\n\n\ndef serve() -> None:\n    """Serve forever."""\n    print(ROUTES)\n',
    "app/routes.py": '"""URL routes."""\n\nfrom core.engine import price\n\nROUTES = {"/price": price}\n',
    "util/strings.py": '"""String helpers."""\n\n\ndef slug(text: str) -> str:\n    """Lower-case slug."""\n    return text.lower()\n',
    "util/timefmt.py": '"""Time formatting."""\n\n\ndef stamp() -> str:\n    """Now, as text."""\n    return "now"\n',
    "cli/main.py": '"""Command line."""\n\nfrom app.server import serve\n\nif __name__ == "__main__":\n    serve()\n',
}

PLAN = {
    "shards": [
        {
            "name": "Pricing core",
            "files": ["core/engine.py", "core/models.py", "core/__init__.py", "nope.py"],
            "rationale": "prices",
        },
        {
            "name": "Web app",
            "files": ["app/server.py", "app/routes.py", "app/__init__.py"],
            "rationale": "serving",
        },
        {
            "name": "Tools",
            "files": ["util/strings.py", "util/timefmt.py", "cli/main.py"],
            "rationale": "helpers",
        },
    ]
}

ANALYSIS = (
    "Summary: {name} is analyzed here.\n\n## Purpose\n\nThe code lives in {first}:1-3 <script>alert(1)</script>.\n"
    "It also cites {first}:400-410 and ghost/file.py:1-2, which do not exist.\n\n- a list item\n"
)


def make_project(root: Path, files: dict[str, str] | None = None) -> Path:
    return make_git_repo(root, files or PROJECT, origin="https://github.com/acme/shop.git")


def is_architect(req: RecordedRequest) -> bool:
    return "software architect" in (req.system or "")


def is_analyst(req: RecordedRequest) -> bool:
    return "senior software engineer" in (req.system or "")


def scripted_reply(req: RecordedRequest) -> str | Reply:
    if is_architect(req):
        return json.dumps(PLAN)
    if is_analyst(req):
        name = req.prompt.split("Subsystem: ", 1)[1].split(".", 1)[0]
        packed = req.prompt.split("Files (each line", 1)[1]
        first = min((f for f in PROJECT if f in packed), key=packed.index)
        return ANALYSIS.format(name=name, first=first)
    if "relevant" in req.prompt:
        return json.dumps({"scores": []})
    if "summary of the whole repository" in req.prompt:
        return "The shop computes item prices in its core and serves them through a small web app."
    return "ok"


def online_setup(kb: Path, base_url: str, **repo: object) -> tuple[KBPaths, Config, Provider]:
    paths = KBPaths(kb)
    config = Config(
        llm=LLMConfig(provider="openai", base_url=base_url, max_retries=0, timeout=20),
        repo=RepoResearchConfig(**repo),  # type: ignore[arg-type]
    )
    provider, _ = open_provider(paths, config.llm)
    return paths, config, provider


def offline_setup(kb: Path) -> tuple[KBPaths, Config, Provider]:
    paths = KBPaths(kb)
    config = Config()
    provider, _ = open_provider(paths, config.llm, "offline")
    return paths, config, provider


def page_bytes(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*.md"))}
