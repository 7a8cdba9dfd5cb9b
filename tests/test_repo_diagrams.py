"""Repository diagrams say true things: each arrow leaves the module that imports, labelled with what it
imports; a pruned diagram names what it left out; at most ten boxes."""

from __future__ import annotations

import re

from generator.repo.model import (
    ModuleLine,
    RepoSynthesis,
    Shard,
    ShardAnalysis,
    SubsystemEdge,
)
from generator.repo.synthesize.architecture import link_subsystems, subsystem_edges
from generator.site.pages import diagrams
from generator.site.pages.repo_diagrams import architecture_diagram, neighbourhood_diagram


def analysis(index: int, name: str, files: list[str]) -> ShardAnalysis:
    shard = Shard(name, tuple(files))
    lines = [ModuleLine(path, "python", 10, "") for path in files]
    return ShardAnalysis(index, shard, f"0{index}_{name.lower()}", "", files=lines)


def nodes_and_arrows(source: str) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    nodes = dict(re.findall(r'    (n\d+)\["([^"]*)"\]', source))
    arrows = re.findall(r'    (n\d+) -->(?:\|"([^"]*)"\|)? (n\d+)', source)
    return nodes, [(nodes[a], nodes[b], text) for a, text, b in arrows]


def test_each_arrow_leaves_the_module_that_imports_and_names_what_it_imports(tmp_path):
    from types import SimpleNamespace

    # client.py imports Transport from transports; models.py imports nothing across: its arrow must not exist
    files = {
        "pkg/client.py": SimpleNamespace(
            symbols=[],
            path="",
            depends_on=["pkg/transport.py"],
            names_from={"pkg/transport.py": ["Transport"]},
        ),
        "pkg/models.py": SimpleNamespace(symbols=[], path="", depends_on=[], names_from={}),
        "pkg/transport.py": SimpleNamespace(
            symbols=[], path="", depends_on=["pkg/models.py"], names_from={"pkg/models.py": ["Request"]}
        ),
    }
    facts = SimpleNamespace(files=files)
    placement = {"pkg/models.py": 1, "pkg/client.py": 1, "pkg/transport.py": 2}
    edges = subsystem_edges(placement, facts)  # type: ignore[arg-type]
    core = analysis(1, "Core", ["pkg/models.py", "pkg/client.py"])
    transports = analysis(2, "Transports", ["pkg/transport.py"])
    link_subsystems([core, transports], edges)
    _, arrows = nodes_and_arrows(neighbourhood_diagram(core))
    # the shard's first file is models.py; the arrow to Transports leaves client.py, which imports it
    assert ("client.py", "Transports", "Transport") in arrows
    assert ("Transports", "models.py", "Request") in arrows  # used by: points at the module that defines it
    assert not any(a == "models.py" and b == "Transports" for a, b, _ in arrows)


def test_a_pruned_architecture_says_what_it_left_out_and_draws_ten_boxes_at_most():
    landed = [analysis(i, f"S{i}", [f"s{i}/a.py"]) for i in range(1, 13)]
    # S1 depends on S2 strongly and on S3 weakly: with many arrows the weak one is pruned, and said so
    architecture = [
        SubsystemEdge(1, 2, ("Client",), 9),
        SubsystemEdge(1, 3, ("helper",), 1),
        SubsystemEdge(4, 12, ("far",), 3),  # S12 is past the tenth box
        *(SubsystemEdge(i, i + 1, ("x",), 5) for i in range(3, 10)),
    ]
    synthesis = RepoSynthesis(
        "t", "o/r", "", "", "", "", "", "offline", "", True, landed, architecture=architecture
    )
    text = architecture_diagram(synthesis)
    nodes, arrows = nodes_and_arrows(text.split("```")[1])
    assert len(nodes) == 10
    assert ("S1", "S2", "Client") in arrows and len(arrows) == 8
    assert "8 of 10 dependencies shown; not shown: S1 → S3, S4 → S12." in text
    few = RepoSynthesis(
        "t", "o/r", "", "", "", "", "", "offline", "", True, landed[:3], architecture=architecture[:2]
    )
    assert "not shown" not in architecture_diagram(few)  # a few arrows are all drawn


def test_a_busy_neighbourhood_draws_at_most_eight_crossing_arrows_and_says_so():
    from generator.repo.model import SubsystemLink

    files = [f"pkg/m{i}.py" for i in range(5)]
    shard = analysis(1, "Core", files)
    shard.depends_on = [
        SubsystemLink(f"N{n}", f"0{n}_n", ("x",), tuple((path, ("x",)) for path in files))
        for n in range(2, 6)
    ]
    text = neighbourhood_diagram(shard)
    nodes, arrows = nodes_and_arrows(text.split("```")[1])
    assert len(nodes) == 9 and len(arrows) == 8
    assert "*8 of 20 arrows to and from other subsystems drawn;" in text


def test_long_flows_and_wide_hierarchies_draw_ten_boxes_and_say_what_is_left():
    from generator.repo.model import CitedSymbol, FlowHop, KeyType
    from generator.site.pages.repo_diagrams import flow_markdown, hierarchy_diagram

    hops = [FlowHop(f"f{i}", f"f{i + 1}") for i in range(14)]
    diagram, steps = flow_markdown(hops)
    assert len(re.findall(r"participant p\d+", diagram)) == 10
    assert "The first 9 of 14 calls drawn" in diagram and len(steps) == 14
    types = [KeyType(CitedSymbol(f"C{i}", "class", "m.py"), bases=(f"B{i}",)) for i in range(8)]
    text = hierarchy_diagram(types)
    assert len(re.findall(r"<\|--", text)) == 5  # five pairs are ten classes
    assert "5 of 8 inheritance links shown; not shown: C5 ← B5, C6 ← B6, C7 ← B7." in text


def test_a_module_imported_whole_is_labelled_by_its_file_and_labels_keep_whole_names():
    from types import SimpleNamespace

    from generator.site.pages.repo_diagrams import names_label

    files = {
        "a/x.py": SimpleNamespace(symbols=[], path="", depends_on=["b/helpers.py"], names_from={}),
        "b/helpers.py": SimpleNamespace(symbols=[], path="", depends_on=[], names_from={}),
    }
    edges = subsystem_edges({"a/x.py": 1, "b/helpers.py": 2}, SimpleNamespace(files=files))  # type: ignore[arg-type]
    assert edges[0].uses == ("helpers.py",) and edges[0].crossings == (
        ("a/x.py", "b/helpers.py", ("helpers.py",)),
    )
    long = ["estimateDataURLDecodedBytes.js", "estimateDataURLBufferAllocation", "x"]
    assert names_label(long) == "estimateDataURLDecodedBytes.js"
    assert names_label(["Client", "Request"]) == "Client, Request"


def test_error_imports_weigh_least_and_the_main_flow_s_crossing_is_always_drawn():
    from types import SimpleNamespace

    from generator.repo.model import CallEdge, Symbol
    from generator.site.pages.repo_diagrams import strongest

    def fact(path, symbols=(), depends_on=(), names_from=None):
        found = [Symbol(name, "class", 1, 2) for name in symbols]
        return SimpleNamespace(
            path=path, symbols=found, depends_on=list(depends_on), names_from=names_from or {}
        )

    files = {
        "a/models.py": fact(
            "a/models.py", depends_on=["b/errors.py"], names_from={"b/errors.py": ["BadURLError"]}
        ),
        "b/errors.py": fact("b/errors.py", ["BadURLError"]),
        "b/adapter.py": fact("b/adapter.py", ["Adapter"]),
        "c/session.py": fact("c/session.py", depends_on=["d/util.py"], names_from={"d/util.py": ["merge"]}),
        "d/util.py": fact("d/util.py", ["merge", "Client"]),
    }
    placement = {"a/models.py": 1, "b/errors.py": 2, "b/adapter.py": 2, "c/session.py": 3, "d/util.py": 4}
    send = CallEdge("c/session.py", "Session.send", "b/adapter.py", "Adapter.send", 9)
    helpers = [CallEdge("c/session.py", "Session.send", "d/util.py", "merge", n) for n in range(5)]
    edges = subsystem_edges(placement, SimpleNamespace(files=files), helpers, [send])  # type: ignore[arg-type]
    by_pair = {(e.source, e.target): e for e in edges}
    # importing only another subsystem's error weighs less than one plain import would
    assert by_pair[(1, 2)].strength == 1 and by_pair[(3, 4)].strength > by_pair[(3, 2)].strength
    assert by_pair[(3, 2)].on_flow and not by_pair[(3, 4)].on_flow
    kept = strongest([*edges, SubsystemEdge(3, 1, ("x",), 40)])
    assert by_pair[(3, 2)] in kept  # the flow's hop: drawn though it is the session's weakest dependency


def test_sequence_keeps_a_long_name_cut_with_an_ellipsis() -> None:
    """A participant named past MAX_LABEL is cut to "…<its end>": still a valid diagram, not a crash."""
    long_name = "VerifyWebhookStatus.check_if_webhook_already_exists_on_resource_and_register_it"
    source = diagrams.sequence(["main", long_name], [(0, 1, long_name)])
    assert "    participant p1 as …" in source
