"""Calls through a Go channel a struct keeps in a field: a method sending on it (`r.incomingMessages <- msg`)
hands the value to the loop of the same type that receives from it (`<-r.incomingMessages`, `range
r.jobs`, a `select` case), which a goroutine runs: go-nsq's `Consumer.onConnMessage` → `handlerLoop`, where
the user's handler is called. No call names the loop there; these edges say the work goes on in it, so a
consumer's flow and an answer reach it from where the message arrives.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from generator.repo.facts.runtime import receiver
from generator.repo.model import CallEdge, FileFacts, Symbol

Read = Callable[[str], str | None]
MAX_LOOPS = 3  # loops receiving from one channel; more is a fan-out of workers, drawn by none of them
_LOOP = re.compile(r"^\s*for\b")
# a value that only signals (stop, done, wake up): the loop it reaches does no work with it
_SIGNAL = re.compile(r"\s*(?:struct\s*\{\s*\}\s*\{\s*\}|true|false|nil|\d+|err\b)\s*(?:$|[;}])")
# what ends the text before a `<-` that sends: an operand (`ch <- v`), not an assignment, `case` or `return`
_SENDING = re.compile(r"(?:^|[^\w])(?!(?:return|case|go|range)\s*$)[\w.)\]]+\s*$")


def channel_calls(
    edges: Mapping[str, list[CallEdge]], files: Mapping[str, FileFacts], read: Read
) -> list[CallEdge]:
    """An edge from each Go method sending on a channel field of its type to each method of that type
    (in the same package) that receives from the field inside a loop, at the sending line."""
    sends: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
    loops: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for path, fact in files.items():
        if fact.language != "go" or path not in edges:
            continue
        lines = (read(path) or "").splitlines()
        package = path.rpartition("/")[0]
        for symbol in fact.symbols:
            if symbol.kind == "method" and symbol.parent:
                _note(symbol, lines, path, package, sends, loops)
    found: list[CallEdge] = []
    for key, senders in sends.items():
        receivers = loops.get(key, [])
        if len(receivers) > MAX_LOOPS:
            continue
        for path, caller, line in senders:
            found += [
                CallEdge(path, caller, rpath, loop, line) for rpath, loop in receivers if loop != caller
            ]
    return found


def _note(
    symbol: Symbol,
    lines: list[str],
    path: str,
    package: str,
    sends: dict[tuple[str, str], list[tuple[str, str, int]]],
    loops: dict[tuple[str, str], list[tuple[str, str]]],
) -> None:
    """Note the channel fields `symbol` sends on (with the line) and those it receives from in a loop."""
    body = lines[symbol.start - 1 : symbol.end]
    own = receiver("go", body[0]) if body else ""
    if not own:
        return
    name = re.escape(own)
    send = re.compile(rf"(?<![\w.]){name}\.(\w+)\s*<-")
    receive = re.compile(rf"(?:<-\s*|\brange\s+){name}\.(\w+)\b")
    owner = (package, symbol.parent)
    looped = False
    for at, line in enumerate(body[1:], start=symbol.start + 1):
        text = line.split("//", 1)[0]
        looped = looped or bool(_LOOP.match(text))
        for match in send.finditer(text):
            if not _SIGNAL.match(text[match.end() :]):  # a value for the loop to work on
                sends.setdefault(_key(owner, match.group(1)), []).append((path, symbol.name, at))
        for match in receive.finditer(text) if looped else ():
            if _SENDING.search(text[: match.start()]):
                continue  # `r.out <- r.value`: a send of the field's value, no receive
            found = loops.setdefault(_key(owner, match.group(1)), [])
            if (path, symbol.name) not in found:
                found.append((path, symbol.name))


def _key(owner: tuple[str, str], field: str) -> tuple[str, str]:
    return (f"{owner[0]}:{owner[1]}", field)
