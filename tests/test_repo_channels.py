"""Go channel hand-offs (facts/channels.py) and same-named delegation in the call tree (calltree.py): a
consumer's flow goes on from where a message arrives into the loop that handles it, and a method handing its
work to the same-named method of another object goes there first."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.calltree import call_tree, main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    write_tree(tmp_path, files)
    return extract_facts(tmp_path, map_repository(tmp_path))


def _go_steps(count: int) -> str:
    return "".join(f"\tstep{i} := {i}\n\t_ = step{i}\n" for i in range(count))


# go-nsq's shape: the connection's delegate hands each message to the consumer, which puts it on a channel
# that the handler loop (started by AddHandler) reads; a stop signal on another channel wakes a loop too
GO_CONSUMER = {
    "go.mod": "module example.com/queue\n\ngo 1.21\n",
    "consumer.go": (
        "package queue\n\ntype Consumer struct {\n\tincoming chan string\n\tdone chan struct{}\n}\n\n"
        "func (c *Consumer) AddHandler() {\n\tgo c.handlerLoop()\n}\n\n"
        "func (c *Consumer) onMessage(m string) {\n\tc.incoming <- m\n}\n\n"
        "func (c *Consumer) Stop() {\n\tc.done <- struct{}{}\n}\n\n"
        "func (c *Consumer) handlerLoop() {\n\tfor {\n\t\tselect {\n"
        "\t\tcase m := <-c.incoming:\n\t\t\tc.handle(m)\n\t\tcase <-c.done:\n\t\t\treturn\n\t\t}\n\t}\n}\n\n"
        f"func (c *Consumer) handle(m string) {{\n{_go_steps(8)}}}\n\n"
        "func (c *Consumer) Drain(out chan string) {\n\tout <- <-c.incoming\n}\n"
    ),
}


def test_a_go_method_sending_on_a_channel_field_calls_the_loop_receiving_from_it(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GO_CONSUMER)
    assert facts.calls is not None
    edges = {(e.caller, e.callee) for e in facts.calls.edges(["consumer.go"])}
    assert ("Consumer.onMessage", "Consumer.handlerLoop") in edges
    assert ("Consumer.Stop", "Consumer.handlerLoop") not in edges  # a signal, no value to work on
    assert not any(callee == "Consumer.Drain" for _, callee in edges)  # no loop: a one-off receive


# kombu's shape: `Connection.drain_events` hands the work to its transport's `drain_events`, passing a
# lazily opened connection whose set-up leads to more code than the transport's drain loop
DELEGATING = {
    "mq/__init__.py": '"""Messaging."""\nfrom .connection import Connection\n\n__all__ = ["Connection"]\n',
    "mq/transport.py": (
        '"""Transports."""\n\n\nclass Transport:\n'
        "    def drain_events(self, connection):\n"
        + "".join(f"        step{i} = {i}\n" for i in range(6))
        + "        return self._deliver(connection)\n\n"
        "    def _deliver(self, connection):\n"
        + "".join(f"        step{i} = {i}\n" for i in range(6))
        + "        return connection\n"
    ),
    "mq/opening.py": (
        '"""Opening connections."""\n\n\n'
        + "".join(
            f"def resolve{n}(value):\n"
            + "".join(f"    step{i} = {i}\n" for i in range(20))
            + "    return value\n\n\n"
            for n in range(3)
        )
        + "def ensure(value):\n    return resolve0(resolve1(resolve2(value)))\n"
    ),
    "mq/connection.py": (
        '"""Connections."""\nfrom .opening import ensure\nfrom .transport import Transport\n\n\n'
        "class Connection:\n"
        "    def __init__(self):\n        self.transport = Transport()\n\n"
        "    def drain_events(self):\n"
        "        events = self.transport.drain_events(None)\n"
        "        self.ensure_connection()\n"
        "        return events\n\n"
        "    def ensure_connection(self):\n        return ensure(self)\n"
    ),
}


def test_a_method_handing_its_work_to_a_same_named_method_goes_there_first(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, DELEGATING)
    assert facts.calls is not None
    tree = call_tree(facts.calls, facts.files, ("mq/connection.py", "Connection.drain_events"))
    line = [edge.callee for edge in main_line(tree)]
    assert line[:2] == ["Transport.drain_events", "Transport._deliver"]
    assert "Connection.ensure_connection" in {branch.edge.callee for branch in tree}  # still a branch
