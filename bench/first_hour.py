"""Walk a new user's first hour and print each step's exit code and wall time.

    python bench/first_hour.py [--checkout DIR] [--work DIR] [--skip-make-build] [--make-test]

1. a fresh clone of the checkout (`git clone` of its committed HEAD) and `make build` in it (creates .venv,
   installs deepkb, researches the shipped deepkb.yml, builds site/);
2. `deepkb --version` from that install, and `deepkb init` of a knowledge base of one's own;
3. a build of it listing two repositories (fixture git repositories made here) and one topic (a folder of
   local documents), then a commit and `deepkb publish` into a local bare repository;
4. a no-op `deepkb refresh`, `deepkb ask` (English and Chinese), and the MCP tools through the SDK's own
   client over stdio (`deepkb mcp`), as tests/test_mcp.py drives them.

Everything runs offline (the `offline` provider; no API key reaches a step) in a temporary folder, with the
pip cache of the user who runs it. PYTHONDONTWRITEBYTECODE is dropped from the steps' environment, as a user's
shell does not set it: with it every start recompiles deepkb's modules. `--make-test` also times `make test`
in the clone (minutes). Prints one line per step and a JSON summary last.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "TAVILY_API_KEY", "EXA_API_KEY", "BRAVE_API_KEY")

WEBCLIENT = {
    "README.md": "# webclient\n\nWebclient is a small HTTP client: sessions keep cookies, adapters send requests "
    "and middleware wraps every call.\n",
    "webclient/__init__.py": '"""The webclient package."""\n\nfrom .sessions import Session\n',
    "webclient/sessions.py": '"""Sessions keep cookies and settings across requests."""\n\n'
    "from .middleware import compose\n\n\nclass Session:\n"
    '    """A session: settings and cookies shared by its requests."""\n\n'
    "    def request(self, method: str, url: str) -> str:\n"
    '        """Build a request, pass it through the middleware chain and send it."""\n'
    "        return compose([])(method + ' ' + url)\n",
    "webclient/middleware.py": '"""Middleware: functions wrapped around sending a request, composed in order."""\n\n\n'
    "def compose(layers: list) -> object:\n"
    '    """Compose middleware layers into one handler; the first layer runs first."""\n\n'
    "    def handler(request: str) -> str:\n        for layer in layers:\n"
    "            request = layer(request)\n        return request\n\n    return handler\n",
}
ABACUS = {
    "README.md": "# abacus\n\nAbacus is a calculator library: it tokenizes arithmetic expressions, parses them "
    "into a tree and evaluates the tree.\n",
    "abacus/__init__.py": '"""Tokenize, parse and evaluate arithmetic expressions."""\n\n'
    "from .engine import evaluate\n",
    "abacus/engine.py": '"""The evaluation engine."""\n\nfrom .parser import parse\n\n\n'
    'def evaluate(text: str) -> float:\n    """Evaluate an arithmetic expression."""\n'
    "    return sum(parse(text))\n",
    "abacus/parser.py": '"""The parser: turns tokens into numbers."""\n\n\n'
    'def parse(text: str) -> list[float]:\n    """Split an expression on plus signs into numbers."""\n'
    '    return [float(t) for t in text.split("+")]\n',
}
DOCS = {
    "middleware.md": "# Middleware\n\nMiddleware is code that runs around every request a client sends. Each "
    "middleware layer receives the request, may change it, and passes it to the next layer. Layers are composed "
    "in order: the first one registered runs first and sees the response last.\n",
    "sessions.md": "# Sessions\n\nA session keeps cookies and settings across requests. Requests made through "
    "one session share its connection pool, which makes repeated calls to one host faster.\n",
    "retries.md": "# Retries\n\nA client retries a request that failed with a transient error. Retries wait "
    "longer after each failure (exponential backoff) and give up after a fixed number of attempts.\n",
}
TOPIC = "How do HTTP clients compose middleware around requests?"


@dataclass
class Step:
    name: str
    code: int
    seconds: float
    note: str = ""


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEYS and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(DEEPKB_PROVIDER="offline", GIT_TERMINAL_PROMPT="0", CI="")
    return env


def run(name: str, command: list[str], cwd: Path, env: dict[str, str], steps: list[Step]) -> Step:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    lines = (done.stderr or done.stdout).strip().splitlines()
    step = Step(name, done.returncode, time.perf_counter() - started, lines[-1][:140] if lines else "")
    steps.append(step)
    print(f"{step.code:>3}  {step.seconds:8.2f} s  {name:<34} {step.note}", flush=True)
    return step


def fixture_repo(folder: Path, files: dict[str, str], env: dict[str, str]) -> Path:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "initial"]):
        subprocess.run(["git", *args], cwd=folder, env=env, check=True)
    return folder


def own_config(kb: Path, repos: list[Path]) -> None:
    """The init'ed deepkb.yml with two repositories and a topic over local documents appended."""
    (kb / "docs").mkdir()
    for name, text in DOCS.items():
        (kb / "docs" / name).write_text(text, encoding="utf-8")
    listed = "".join(f"  - source: {repo}\n" for repo in repos)
    topic = f"topics:\n  - topic: {TOPIC}\n    sources: ['local:docs']\n"
    with open(kb / "deepkb.yml", "a", encoding="utf-8") as config:
        config.write(f"\nrepos:\n{listed}{topic}")


def mcp_tools(deepkb: Path, kb: Path, env: dict[str, str]) -> dict[str, Any]:
    """list_entries, search_pages, lookup_symbol, read_entry and ask through the SDK's client over stdio."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def main() -> dict[str, Any]:
        params = StdioServerParameters(command=str(deepkb), args=["--root", str(kb), "mcp"], env=env)
        with open(os.devnull, "w") as quiet:
            async with stdio_client(params, errlog=quiet) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    calls = {
                        "list_entries": {},
                        "search_pages": {"query": "middleware", "limit": 5},
                        "lookup_symbol": {"name": "compose"},
                        "read_entry": {"entry_id": "repo:local/webclient"},
                        "ask": {"question": "How is middleware composed in webclient?"},
                    }
                    out = {}
                    for tool, arguments in calls.items():
                        result = await session.call_tool(tool, arguments)
                        out[tool] = "error" if result.is_error else "ok"
                    return out

    return anyio.run(main)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", type=Path, default=HERE, help="the deepkb checkout to clone")
    parser.add_argument("--work", type=Path, default=None, help="keep everything in this folder")
    parser.add_argument("--skip-make-build", action="store_true", help="install with pip only (no research)")
    parser.add_argument("--make-test", action="store_true", help="also time `make test` in the clone")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="deepkb-first-hour-"))
    work.mkdir(parents=True, exist_ok=True)
    env, steps = environment(), []
    clone = work / "deepkb"
    shutil.rmtree(clone, ignore_errors=True)
    print(f"work folder: {work}\ncode  seconds  step", flush=True)
    run("git clone (fresh clone)", ["git", "clone", "-q", str(args.checkout), str(clone)], work, env, steps)
    if args.skip_make_build:
        run("make .venv/.installed", ["make", ".venv/.installed"], clone, env, steps)
    else:
        run("make build", ["make", "build"], clone, env, steps)
    deepkb = clone / ".venv" / "bin" / "deepkb"
    run("deepkb --version", [str(deepkb), "--version"], work, env, steps)
    kb = work / "my-kb"
    shutil.rmtree(kb, ignore_errors=True)
    run("deepkb init my-kb", [str(deepkb), "init", str(kb)], work, env, steps)
    run("deepkb init my-kb (again: refused)", [str(deepkb), "init", str(kb)], work, env, steps)
    repos = [
        fixture_repo(work / name, files, env)
        for name, files in (("webclient", WEBCLIENT), ("abacus", ABACUS))
    ]
    own_config(kb, repos)
    run("deepkb build (2 repos + 1 topic)", [str(deepkb), "build"], kb, env, steps)
    remote = work / "pages.git"
    shutil.rmtree(remote, ignore_errors=True)
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    for git_args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["commit", "-q", "-m", "my knowledge base"],
    ):
        subprocess.run(["git", *git_args], cwd=kb, env=env, check=True)
    run("deepkb publish (bare repository)", [str(deepkb), "publish", "--remote", str(remote)], kb, env, steps)
    run("deepkb refresh (no change)", [str(deepkb), "refresh"], kb, env, steps)
    run(
        "deepkb ask (English)",
        [str(deepkb), "ask", "How is middleware composed in webclient?"],
        kb,
        env,
        steps,
    )
    run("deepkb ask (Chinese)", [str(deepkb), "ask", "中间件如何组合？"], kb, env, steps)
    started = time.perf_counter()
    try:
        tools = mcp_tools(deepkb, kb, env)
        code = 0 if set(tools.values()) == {"ok"} else 1
        note = ", ".join(f"{tool} {status}" for tool, status in tools.items())
    except Exception as exc:  # the bench reports a failed step instead of stopping
        code, note = 1, f"{type(exc).__name__}: {exc}"[:140]
    steps.append(Step("MCP tools over stdio (SDK client)", code, time.perf_counter() - started, note))
    print(f"{code:>3}  {steps[-1].seconds:8.2f} s  {steps[-1].name:<34} {note}", flush=True)
    if args.make_test:
        run("make test", ["make", "test"], clone, env, steps)
    print(json.dumps({"work": str(work), "steps": [s.__dict__ for s in steps]}, ensure_ascii=False))


if __name__ == "__main__":
    main()
