"""Mermaid diagrams built from data, never from model text: flowcharts (optionally with labelled edges) and
sequence diagrams, with generated node ids, scrubbed labels and a line-by-line validation before a diagram
is written into a page.

File names in a repository are untrusted (a file may be called `"]; click n0 "javascript:…`), so labels keep
only a small alphabet and every emitted line must match one of the shapes below.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from generator.site.text import Markdown

_LABEL_KEEP = re.compile(r"[^\w .,:/+@=()'\ue000-]", re.UNICODE)
_HASH = "\ue000"  # a `#` (JavaScript's private `#fetch`) stands here until written as Mermaid's entity
_ENTITY = "#35;"  # Mermaid's own code for `#`: the only entity a label holds
_SAFE = r'(?:[^"`<>#&;\\\[\]{}|\n]|#35;)*'
_LINE_SHAPES = (
    re.compile(r"flowchart (LR|TD)"),
    re.compile(rf'    n\d+\["{_SAFE}"\]'),
    re.compile(r"    n\d+ (-->|-\.->) n\d+"),
    re.compile(rf'    n\d+ --\>\|"{_SAFE}"\| n\d+'),
    re.compile(r"    classDef \w+ [\w:#,;-]+"),
    re.compile(r"    class n\d+(,n\d+)* \w+"),
)
_SEQUENCE_SHAPES = (
    re.compile(r"sequenceDiagram"),
    re.compile(r"    autonumber"),
    re.compile(r"    participant p\d+ as (?:[\w .,/+@=()'…-]|#35;)+"),  # no colon here
    re.compile(r"    p\d+->>p\d+: (?:[\w .,:/+@=()'…-]|#35;)+"),
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,59}")
_CLASS_SHAPES = (
    re.compile(r"classDiagram"),
    re.compile(r"    [A-Za-z_][A-Za-z0-9_]{0,59} <\|-- [A-Za-z_][A-Za-z0-9_]{0,59}"),
)
MAX_LABEL = 60


class MermaidError(ValueError):
    """A diagram line that does not match the allowed shapes (a bug, or text that slipped past the scrub)."""


def label(text: str, empty: str = "unnamed") -> str:
    """A label safe inside `["…"]`: no quotes, backticks, HTML, entity or markdown syntax, one short line; a
    `#` (`Ky.#fetch`) is Mermaid's own entity for it, `#35;`, where it was a space."""
    cleaned = _LABEL_KEEP.sub(" ", " ".join(str(text).replace(_HASH, " ").replace("#", _HASH).split()))
    cleaned = re.sub(r" {2,}", " ", cleaned).strip()
    if len(cleaned) > MAX_LABEL:
        cleaned = "…" + cleaned[-(MAX_LABEL - 1) :]
    return (cleaned or empty).replace(_HASH, _ENTITY)


def flowchart(
    labels: Sequence[str],
    edges: Iterable[tuple[int, int]],
    *,
    direction: str = "LR",
    dotted: Iterable[tuple[int, int]] = (),
    highlight: Iterable[int] = (),
    edge_labels: Mapping[tuple[int, int], str] | None = None,
) -> str:
    """Mermaid source for nodes `labels` (ids n0, n1, …) and edges given as index pairs; validated."""
    lines = [f"flowchart {'TD' if direction == 'TD' else 'LR'}"]
    lines += [f'    n{i}["{label(text)}"]' for i, text in enumerate(labels)]
    count = len(labels)
    seen: set[tuple[int, int, str]] = set()
    for arrow, pairs in (("-->", edges), ("-.->", dotted)):
        for a, b in pairs:
            if 0 <= a < count and 0 <= b < count and a != b and (a, b, arrow) not in seen:
                seen.add((a, b, arrow))
                text = label((edge_labels or {}).get((a, b), ""), empty="") if arrow == "-->" else ""
                lines.append(f'    n{a} -->|"{text}"| n{b}' if text else f"    n{a} {arrow} n{b}")
    marked = sorted({i for i in highlight if 0 <= i < count})
    if marked:
        lines.append("    classDef focus stroke-width:3px")
        lines.append(f"    class {','.join(f'n{i}' for i in marked)} focus")
    source = "\n".join(lines)
    validate(source)
    return source


def sequence(participants: Sequence[str], messages: Iterable[tuple[int, int, str]]) -> str:
    """A sequence diagram: participants (ids p0, p1, …) and numbered messages (from, to, text); validated."""
    lines = ["sequenceDiagram", "    autonumber"]
    # a colon would end the alias in mermaid's grammar
    lines += [
        f"    participant p{i} as {label(text).replace(':', ' ')}" for i, text in enumerate(participants)
    ]
    count = len(participants)
    for a, b, text in messages:
        if 0 <= a < count and 0 <= b < count:
            lines.append(f"    p{a}->>p{b}: {label(text)}")
    source = "\n".join(lines)
    validate(source)
    return source


def class_diagram(inherits: Iterable[tuple[str, str]]) -> str:
    """A class diagram of (base, subclass) pairs; names that are not plain identifiers are left out."""
    lines = ["classDiagram"]
    seen: set[tuple[str, str]] = set()
    for base, child in inherits:
        pair = (base.rsplit(".", 1)[-1], child.rsplit(".", 1)[-1])
        if all(_IDENTIFIER.fullmatch(name) for name in pair) and pair not in seen and pair[0] != pair[1]:
            seen.add(pair)
            lines.append(f"    {pair[0]} <|-- {pair[1]}")
    source = "\n".join(lines)
    validate(source)
    return source


def validate(source: str) -> None:
    """Raise MermaidError unless every line has one of the allowed shapes."""
    lines = source.split("\n")
    kinds = {"flowchart": _LINE_SHAPES, "sequenceDiagram": _SEQUENCE_SHAPES, "classDiagram": _CLASS_SHAPES}
    shapes = next((v for k, v in kinds.items() if lines and lines[0].startswith(k)), None)
    if shapes is None or not shapes[0].fullmatch(lines[0]):
        raise MermaidError("a diagram must start with 'flowchart LR|TD', 'sequenceDiagram' or 'classDiagram'")
    for number, line in enumerate(lines[1:], 2):
        if not any(shape.fullmatch(line) for shape in shapes[1:]):
            raise MermaidError(f"diagram line {number} has an unexpected shape: {line[:80]!r}")


def fenced(source: str) -> Markdown:
    """The markdown block MkDocs Material renders as a diagram (pymdownx.superfences custom fence)."""
    validate(source)
    return Markdown(f"```mermaid\n{source}\n```")


def workflow_diagram() -> str:
    """The repository-research workflow itself, for `deepkb repo visualize`."""
    stages = [
        "Clone (pinned revision)",
        "Map (tree, sizes, languages)",
        "Facts (symbols, imports, calls, importance)",
        "Focus (iterative retrieval, when a request is given)",
        "Architect (LLM plan or graph communities)",
        "Normalize (max 5 per shard, 30 total)",
        "Pack + redact (per shard)",
        "Analyze (per shard, concurrent)",
        "Synthesize (records: subsystems, catalogue, flows)",
        "Pages (index.md + shard pages, through the store)",
    ]
    edges = [(i, i + 1) for i in range(len(stages) - 1)]
    return flowchart(stages, edges, direction="TD", dotted=[(2, 4)])
