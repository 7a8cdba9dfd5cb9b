"""The diagrams of repository pages, built from the research records: the flow of calls as a sequence
diagram with its cited steps, key types' inheritance as a class diagram, a shard's modules and neighbouring
subsystems, and the architecture of the whole repository. Every diagram is validated (diagrams.py).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from generator.repo.model import FlowBranch, FlowHop, KeyType, RepoSynthesis, ShardAnalysis, SubsystemEdge
from generator.site.pages import diagrams
from generator.site.pages.model_text import citation_markdown, inline_code
from generator.site.text import Markdown, md_escape

MAX_NODES = 10  # a diagram stays readable: at most this many boxes
MAX_EDGES = 8  # and this many arrows before only each subsystem's strongest dependencies are drawn
MAX_OUT = 2  # dependencies drawn per subsystem
HIERARCHY_EDGES = 12
# roots every class has: drawing them says nothing about the design
IGNORED_BASES = frozenset(
    {"object", "Generic", "Protocol", "ABC", "Enum", "IntEnum", "StrEnum", "NamedTuple", "TypedDict"}
)


def hierarchy_diagram(types: Sequence[KeyType]) -> Markdown:
    """The key types' inheritance (each with its bases), when at least two of them take part in it."""
    bases = [(re.sub(r"\[.*", "", base).rsplit(".", 1)[-1], t.symbol.name) for t in types for base in t.bases]
    pairs = list(dict.fromkeys((base, name) for base, name in bases if base not in IGNORED_BASES))
    if len(pairs) < 2:
        return Markdown("")
    drawn: list[tuple[str, str]] = []
    for pair in pairs[:HIERARCHY_EDGES]:
        if len({n for p in [*drawn, pair] for n in p}) <= MAX_NODES:
            drawn.append(pair)
    left = [f"{name} ← {base}" for base, name in pairs if (base, name) not in drawn]
    return _with_note(diagrams.fenced(diagrams.class_diagram(drawn)), left, "inheritance links", len(pairs))


def neighbourhood_diagram(analysis: ShardAnalysis) -> Markdown:
    """The shard's modules (thick border), the imports among them, and the subsystems it uses or is used
    by: each arrow leaves the module that imports or calls, labelled with what crosses it; at most
    MAX_NODES nodes, and a note naming the neighbours left out. "" when there is nothing to connect."""
    files = [m.path for m in analysis.files]
    links = [*analysis.depends_on, *analysis.used_by]
    neighbours = list(dict.fromkeys(link.name for link in links))
    # a neighbour reached only through modules not on this page has no module to draw its arrow from
    drawable = list(dict.fromkeys(link.name for link in links if link.by_file))
    if not analysis.imports and not drawable:
        return Markdown("")
    shown = drawable[: max(MAX_NODES - len(files), 0)]
    nodes = [f.rsplit("/", 1)[-1] for f in files] + shown
    at = {path: i for i, path in enumerate(files)}
    other = {name: len(files) + i for i, name in enumerate(shown)}
    edges = [(at[a], at[b]) for a, b in analysis.imports if a in at and b in at]
    labels: dict[tuple[int, int], str] = {}
    for link in analysis.depends_on:
        for path, names in link.by_file if link.name in other else ():
            labels[(at[path], other[link.name])] = names_label(names)
    for link in analysis.used_by:
        for path, names in link.by_file if link.name in other else ():
            labels[(other[link.name], at[path])] = names_label(names)
    # what this subsystem uses first, then what uses it; past MAX_EDGES the lists above the diagram say it
    crossing = list(labels)[:MAX_EDGES]
    edges += crossing
    source = diagrams.flowchart(nodes, edges, highlight=range(len(files)), edge_labels=labels)
    left = [name for name in neighbours if name not in other]
    diagram = _with_note(diagrams.fenced(source), left, "subsystems", len(neighbours))
    if len(labels) > len(crossing):
        diagram = Markdown(
            f"{diagram}\n\n*{len(crossing)} of {len(labels)} arrows to and from other subsystems drawn;"
            " the list above names every subsystem it uses or is used by.*"
        )
    return diagram


def names_label(names: Sequence[str]) -> str:
    """An arrow's label: as many of the names as fit whole (a label cut mid-name names nothing)."""
    kept: list[str] = []
    for name in names:
        if kept and len(", ".join([*kept, name])) > diagrams.MAX_LABEL:
            break
        kept.append(name)
    return ", ".join(kept)


def _with_note(diagram: Markdown, left: Sequence[str], kind: str, total: int) -> Markdown:
    """The diagram, and when it leaves something out, a line saying what ("6 of 12 … shown; not shown: …")."""
    if not left:
        return diagram
    names = ", ".join(md_escape(name) for name in left)
    return Markdown(f"{diagram}\n\n*{total - len(left)} of {total} {kind} shown; not shown: {names}.*")


def flow_markdown(hops: Sequence[FlowHop]) -> tuple[Markdown, list[Markdown]]:
    """A sequence diagram of the hops and the numbered, cited steps beneath it ("" and [] without hops)."""
    if not hops:
        return Markdown(""), []
    # the hops drawn: as many as stay within MAX_NODES participants; the steps below list every one
    participants: list[str] = []
    drawn = 0
    for hop in hops:
        names = list(dict.fromkeys([*participants, hop.caller, hop.callee]))
        if len(names) > MAX_NODES:
            break
        participants, drawn = names, drawn + 1
    at = {name: i for i, name in enumerate(participants)}
    messages = [(at[h.caller], at[h.callee], h.callee.rsplit(".", 1)[-1]) for h in hops[:drawn]]
    diagram = diagrams.fenced(diagrams.sequence(participants, messages))
    if drawn < len(hops):
        diagram = Markdown(
            f"{diagram}\n\n*The first {drawn} of {len(hops)} calls drawn; the steps below list all.*"
        )
    steps = []
    for hop in hops:
        where = f" — {citation_markdown(hop.citation)}" if hop.citation else ""
        steps.append(Markdown(f"{inline_code(hop.caller)} {_verb(hop)} {inline_code(hop.callee)}{where}"))
    return diagram, steps


def flow_tree_markdown(tree: Sequence[FlowBranch]) -> Markdown:
    """The main flow's call tree as a nested list under its entry point, every call cited: where the work
    branches, several calls side by side ("" without a tree); a value handed over rather than called says
    so ("hands over `H11Protocol.data_received`"), and so does an implementation of the interface called
    ("calls the implementation `ExponentialBackOff.NextBackOff`")."""
    if not tree:
        return Markdown("")
    lines = [f"- {inline_code(tree[0].hop.caller)}{_entered_by(tree[0].hop.caller)}"]
    stack = [(branch, 1, _shared_names(tree)) for branch in reversed(tree)]
    while stack:
        branch, depth, shared = stack.pop()
        hop = branch.hop
        where = f" — {citation_markdown(hop.citation)}" if hop.citation else ""
        # calls of one name side by side (an abstract method's implementations, one per backend) say whose
        home = f" in {inline_code(hop.callee_path)}" if hop.callee in shared and hop.callee_path else ""
        lines.append(f"{'    ' * depth}- {_verb(hop)} {inline_code(hop.callee)}{home}{where}")
        below = _shared_names(branch.below)
        stack.extend((b, depth + 1, below) for b in reversed(branch.below))
    return Markdown("\n".join(lines))


def _shared_names(branches: Sequence[FlowBranch]) -> frozenset[str]:
    """The callee names two or more of these side-by-side calls go by (anyio's `Event.set`, implemented by
    its asyncio and its trio backend): each of them is told by the file defining it."""
    named = Counter(b.hop.callee for b in branches)
    return frozenset(name for name, count in named.items() if count > 1)


# what runs a special method the user never calls by name, said of the class it is defined on
_RUN_BY = {
    "__enter__": "what a {with} block on {cls} runs first",
    "__aenter__": "what an {async_with} block on {cls} runs first",
    "__iter__": "what a {for} loop over {cls} runs first",
    "__aiter__": "what an {async_for} loop over {cls} runs first",
    "__next__": "what each step of a {for} loop over {cls} runs",
    "__anext__": "what each step of an {async_for} loop over {cls} runs",
    "__call__": "what calling {cls} runs",
}


def _entered_by(entry: str) -> str:
    """What runs an entry point the user never calls by name: a context manager's `__enter__` is what a
    `with` block on its class runs first (`async with`, `__aenter__`), `__anext__` each step of an
    `async for` loop over it (anyio's streams), `__call__` a call of an instance."""
    owner, _, method = entry.rpartition(".")
    said = _RUN_BY.get(method)
    if not owner or said is None:
        return ""
    words = {w: inline_code(w.replace("_", " ")) for w in ("with", "async_with", "for", "async_for")}
    name = owner.rpartition(".")[2]
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return " — " + said.format(cls=f"{article} {inline_code(name)}", **words)


def _verb(hop: FlowHop) -> str:
    """How a hop reaches its callee: a call, a value handed over (a callback, a class its receiver calls
    back), one of the implementations of the interface or abstract method called, or what the user plugs in
    (a handler given to the repository, kept in the field named)."""
    if hop.plugged:
        return "calls your code, kept in"
    return "hands over" if hop.handed else "calls the implementation" if hop.dispatched else "calls"


# --------------------------------------------------------------------------- the index page


def architecture_diagram(synthesis: RepoSynthesis) -> Markdown:
    """Subsystems as nodes, an arrow labelled with what one uses from another; "" with fewer than two. A
    dependency the diagram leaves out (the weaker of a subsystem's, or one past MAX_NODES) is named under it."""
    landed = synthesis.landed[:MAX_NODES]
    if len(landed) < 2:
        return Markdown("")
    at = {a.index: i for i, a in enumerate(landed)}
    names = {a.index: a.shard.name for a in synthesis.landed}
    every = [e for e in synthesis.architecture if e.source in names and e.target in names]
    inside = [e for e in every if e.source in at and e.target in at]
    drawn = inside if len(inside) <= MAX_EDGES else strongest(inside)
    pairs = [(at[e.source], at[e.target]) for e in drawn]
    labels = {(at[e.source], at[e.target]): names_label(e.uses) for e in drawn}
    source = diagrams.flowchart([a.shard.name for a in landed], pairs, edge_labels=labels)
    left = [f"{names[e.source]} → {names[e.target]}" for e in every if e not in drawn]
    return _with_note(diagrams.fenced(source), left, "dependencies", len(every))


def strongest(edges: Sequence[SubsystemEdge]) -> list[SubsystemEdge]:
    """Per subsystem, the dependencies at least half as strong as its strongest (at most MAX_OUT), and of
    two subsystems that use each other only the dominant direction unless both are strong: the diagram
    shows what each subsystem is built on, not every call that crosses a border (the shard pages list all).
    A dependency the main flow's calls cross is always drawn: it is how a request travels."""
    strength = {(e.source, e.target): e.strength for e in edges}
    kept = []
    for edge in edges:
        if edge.on_flow:
            kept.append(edge)
            continue
        mine = sorted((e.strength for e in edges if e.source == edge.source), reverse=True)
        if edge.strength * 2 < mine[0] or edge.strength < mine[:MAX_OUT][-1]:
            continue
        if strength.get((edge.target, edge.source), 0) > 2 * edge.strength:
            continue
        kept.append(edge)
    return kept
