"""Python calls through a chain of attributes: `self.owner.codec.loads()` is the method of the class the
owner's class gives its `codec`, the owner typed by the parameter it was set from (no name to guess by)."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository

BROKER = {
    "queue/__init__.py": '"""A task queue."""\n',
    "queue/formatter.py": (
        "class Formatter:\n    def loads(self, message):\n        return decode(message)\n\n\n"
        "def decode(message):\n    return message\n"
    ),
    "queue/backend.py": "class Backend:\n    def set_result(self, task_id, result):\n        return task_id\n",
    "queue/broker.py": (
        "from queue.backend import Backend\nfrom queue.formatter import Formatter\n\n\n"
        "class Broker:\n    def __init__(self, backend: Backend | None = None):\n"
        "        self.codec: Formatter = Formatter()\n        self.store = backend\n\n"
        "    def find_task(self, name):\n        return name\n"
    ),
    "queue/receiver.py": (
        "from queue.broker import Broker\n\n\n"
        "class Receiver:\n    def __init__(self, broker: Broker):\n        self.owner = broker\n\n"
        "    def callback(self, message):\n        data = self.owner.codec.loads(message)\n"
        "        task = self.owner.find_task(data)\n"
        "        return self.owner.store.set_result(task, data)\n"
    ),
}


def test_a_chain_of_typed_attributes_leads_to_the_method_of_the_last_ones_class(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", BROKER)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    edges = facts.calls.edges(["queue/receiver.py"])
    calls = {(e.caller, e.callee_path, e.callee) for e in edges if not e.dispatched and not e.inferred}
    assert ("Receiver.callback", "queue/broker.py", "Broker.find_task") in calls  # the parameter's class
    assert ("Receiver.callback", "queue/formatter.py", "Formatter.loads") in calls  # the broker's attribute
    assert ("Receiver.callback", "queue/backend.py", "Backend.set_result") in calls  # `Backend | None`


WIRE = {
    "wire/__init__.py": '"""Messages on the wire."""\n',
    "wire/message.py": "class Message:\n    def parse(self, raw):\n        return raw\n",
    "wire/codec.py": (
        "class Codec:\n    def load(self, raw):\n        return raw\n\n    def dump(self, value):\n        return value\n"
    ),
    "wire/compat.py": "def validate(model, data):\n    return model(data)\n",
    "wire/formatter.py": (
        "from wire.codec import Codec\nfrom wire.compat import validate\nfrom wire.message import Message\n\n\n"
        "class Formatter:\n    def __init__(self, codec: Codec):\n        self.codec = codec\n\n"
        "    def loads(self, raw):\n        return validate(Message, self.codec.load(raw))\n"
    ),
}


def test_a_class_handed_beside_a_typed_call_on_one_line_registers_with_neither(tmp_path: Path) -> None:
    # `validate(Message, self.codec.load(raw))` hands Message to `validate`, not to the codec: the codec's
    # other methods (`dump`) look nothing up
    root = write_tree(tmp_path / "repo", WIRE)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    calls = {(e.caller, e.callee) for e in facts.calls.edges(["wire/formatter.py", "wire/codec.py"])}
    assert ("Formatter.loads", "Codec.load") in calls
    assert not {callee for caller, callee in calls if caller == "Codec.dump"}
