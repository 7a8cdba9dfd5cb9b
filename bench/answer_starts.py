"""Benchmark: where each question's answer page starts, against labels written before the run (issue 29 item 5).

    python bench/answer_starts.py --labels bench/answers_spotcheck.json --root /tmp/bench
    python bench/answer_starts.py --labels bench/repo_expectations.json --root /tmp/answers/tune
    python bench/answer_starts.py --labels bench/answers_heldout_s11.json --root /tmp/answers/src [--only jest]
    python bench/answer_starts.py --labels bench/answers_heldout_s12.json --root DIR   (held out in session 12)
    python bench/answer_starts.py --labels bench/answers_heldout_s13.json --root DIR   (session 13; attrs, logrus
        and axios were seen in session 11)
    python bench/answer_starts.py --labels bench/answers_heldout_s13_fresh.json --root DIR   (held out in session 13)
    python bench/answer_starts.py --labels bench/answers_heldout_s15.json --root DIR   (held out in session 15:
        huey, urllib3, koajs/router, avvio, gocron; seen since)
    python bench/answer_starts.py --labels bench/answers_tune_s16.json --root DIR   (session 16, seen: the
        session-15 miss shapes asked of earlier repositories, each class on a second input)
    python bench/answer_starts.py --labels bench/answers_heldout_s16.json --root DIR   (held out in session 16:
        rq, quart, expressjs/session, asynq, nats.go; every earlier label file is seen)
    python bench/answer_starts.py --labels bench/answers_heldout_s17.json --root DIR   (held out in session 17:
        arq, bullmq, gocraft/work, sanic, httpcore; every earlier label file is seen)
    python bench/answer_starts.py --labels bench/answers_heldout_s18.json --root /tmp/rt18   (session 18: kombu,
        ws, go-nsq, axum, agenda; seen since)
    python bench/answer_starts.py --labels bench/answers_heldout_s19.json --root /tmp/fl19   (session 19: pika,
        kafka-go, tower, websockets, bull; seen since)
    python bench/answer_starts.py --labels bench/answers_tuning_s20.json --root /tmp/flows/repos   (session 20's
        tuning set: paho.mqtt.python, amqplib, bee-queue, amqp091-go, tungstenite-rs, coder/websocket)
    python bench/answer_starts.py --labels bench/answers_heldout_s20.json --root /tmp/flows/repos   (held out in
        session 20: paho.mqtt.golang, MQTT.js, python-socketio; seen since)
    python bench/answer_starts.py --labels bench/answers_heldout_s21.json --root /tmp/flows21/repos   (session 21:
        stompjs and go-stomp held out then, six tuning repositories)
    python bench/answer_starts.py --labels bench/answers_heldout_s22.json --root /tmp/flows22/repos   (session 22:
        needle and gomemcache held out then, six tuning repositories; seen now)
    python bench/answer_starts.py --labels bench/answers_heldout_s23.json --root /tmp/flows23/repos   (session 23:
        kazoo and memjs held out then, cloned in /tmp/flows23/held; the six tuning repositories in /tmp/flows23/repos)
    python bench/answer_starts.py --labels bench/answers_heldout_s24.json --root /tmp/flows24/repos   (session 24:
        rust-memcache and pynsq held out, cloned in /tmp/flows24/held; the six tuning repositories in
        /tmp/flows24/repos)
    python bench/answer_starts.py --labels bench/answers_heldout_s25.json --root /tmp/flows25/repos   (session 25:
        rpyc and nsqjs held out, cloned in /tmp/flows25/held; the six tuning repositories in /tmp/flows25/repos)
    python bench/answer_starts.py --labels bench/answers_heldout_s26.json --root /tmp/flows26/repos   (session 26:
        requests-mock and filelock held out, cloned in /tmp/flows26/held; the six tuning repositories in
        /tmp/flows26/repos)
    python bench/answer_starts.py --labels bench/answers_heldout_s27.json --root /tmp/flows27/repos   (session 27:
        go-cache and node-resque held out, cloned in /tmp/flows27/held; the six tuning repositories in
        /tmp/flows27/repos)
    python bench/answer_starts.py --labels bench/answers_heldout_s28.json --root /tmp/flows28/repos   (session 28:
        freecache and aiosmtpd held out, cloned in /tmp/flows28/held; the six tuning repositories in
        /tmp/flows28/repos)
    python bench/answer_starts.py --labels bench/answers_heldout_s29.json --root /tmp/flows29/repos   (session 29:
        ssh and hypercorn held out, cloned in /tmp/flows29/held; the six tuning repositories in
        /tmp/flows29/repos)

Labels are either `{"questions": [{"repo", "question", "start": [names]}]}` or repo_expectations.json's
`{"repos": {name: {"question", "answer": [names]}}}`; a repository is the folder `ROOT/<repo>`. Each
repository is researched offline once, with all its questions (as `deepkb repo run SRC --request …` does),
and each answer page is read back from its record: the symbol it starts at, the first three it names, and
whether the start is a labelled one (start ✓), or where the first labelled name sits among the first three.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_quality import scratch_checkout  # noqa: E402

from generator.app.targets import repo_target  # noqa: E402
from generator.config import Config  # noqa: E402
from generator.llm import open_provider  # noqa: E402
from generator.repo.run.pipeline import run_repo_research  # noqa: E402
from generator.store import KBPaths  # noqa: E402

Label = tuple[str, str, list[str]]  # (repository folder, question, names a right start has)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument("--root", type=Path, required=True, help="the folder holding the repositories")
    parser.add_argument("--only", action="append", default=[], help="only these repositories")
    args = parser.parse_args()
    labels = [
        label
        for label in read_labels(json.loads(args.labels.read_text(encoding="utf-8")))
        if (args.root / label[0]).is_dir() and (not args.only or label[0] in args.only)
    ]
    by_repo: dict[str, list[Label]] = {}
    for label in labels:
        by_repo.setdefault(label[0], []).append(label)
    right = top3 = 0
    print("| repository | question | starts at | then | start | rank |")
    print("|---|---|---|---|---|---|")
    for repo, asked in by_repo.items():
        answers = research(args.root / repo, [question for _, question, _ in asked])
        for _, question, wanted in asked:
            names = answers.get(question, [])
            rank = next((i for i, name in enumerate(names[:3], 1) if _same(name, wanted)), 0)
            right += rank == 1
            top3 += rank > 0
            start = "✓" if rank == 1 else "✗"
            then = " → ".join(names[1:4])
            print(
                f"| {repo} | {question} | {names[0] if names else '—'} | {then} | {start} | {rank or '✗'} |"
            )
    print(f"\nstart right {right}/{len(labels)}; a labelled name among the first three {top3}/{len(labels)}")
    return 0


def read_labels(data: dict) -> list[Label]:
    """Both label formats as (repository, question, names)."""
    if "questions" in data:
        return [(q["repo"], q["question"], list(q["start"])) for q in data["questions"]]
    return [
        (name, entry["question"], list(entry["answer"]))
        for name, entry in data["repos"].items()
        if entry.get("question") and entry.get("answer")
    ]


def research(source: Path, questions: list[str]) -> dict[str, list[str]]:
    """Each question's answer page's symbols, in page order, from one offline research of `source`."""
    with tempfile.TemporaryDirectory(prefix="deepkb-answers-") as scratch:
        checkout = source if (source / ".git").exists() else scratch_checkout(source, Path(scratch))
        paths = KBPaths(Path(scratch) / "kb")
        config = Config()
        provider, _ = open_provider(paths, config.llm, "offline")
        target = repo_target(paths, config, str(checkout), requests=questions)
        result = run_repo_research(paths, config, provider, target)
    return {answer.request: [s.name for s in answer.symbols] for answer in result.synthesis.answers}


def _same(name: str, wanted: list[str]) -> bool:
    """The name is a labelled one (a Go receiver may be written `*Engine`)."""
    return name.replace("*", "") in wanted


if __name__ == "__main__":
    sys.exit(main())
