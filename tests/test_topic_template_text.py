"""A collection written from a proposal template: the template's instructions a document leaves in are the
template's words, not the document's, and are never read as what the document says."""

from __future__ import annotations

from pathlib import Path

from generator.topic.research import local_document

TEMPLATE = """---
title: Neat-enhancement-idea
---

# Neat Enhancement Idea

## Use cases

Add a list of detailed use cases this enhancement intends to take care of.

## Proposal

This is where we get down to details of what the proposal is about.
"""

PROPOSAL = """---
title: Neat-enhancement-idea
---

# Neat Enhancement Idea

Each controller of a sharded application controller claims a shard.

## Use cases

Add a list of detailed use cases this enhancement intends to take care of.

- An operator adds a controller replica and the clusters spread over it without a restart.

## Proposal

Each controller records the shard it owns in a ConfigMap with a heartbeat.
"""


def test_a_templates_instructions_left_in_a_document_are_not_its_text(tmp_path: Path) -> None:
    # Argo CD's proposals keep "Add a list of detailed use cases …" from 001-proposal-template.md (13 of its
    # proposals); fslang's RFCs keep "This RFC covers the detailed proposal for this suggestion." (51)
    (tmp_path / "001-proposal-template.md").write_text(TEMPLATE)
    (tmp_path / "rebalancing.md").write_text(PROPOSAL)
    prose = local_document(tmp_path / "rebalancing.md", tmp_path, "markdown")[0]
    assert "Add a list of detailed use cases" not in prose
    assert "An operator adds a controller replica" in prose
    assert "records the shard it owns in a ConfigMap" in prose


def test_a_title_kept_from_the_template_names_no_document(tmp_path: Path) -> None:
    # 7 of Argo CD's proposals keep the template's "title: Neat-enhancement-idea" (and "# Neat Enhancement
    # Idea"), 4 of OpenKruise's "Proposal Template", 7 of gRPC's "Title": each was cited under that name
    (tmp_path / "001-proposal-template.md").write_text(TEMPLATE)
    (tmp_path / "rebalancing-clusters-across-shards.md").write_text(PROPOSAL)
    title = local_document(tmp_path / "rebalancing-clusters-across-shards.md", tmp_path, "markdown")[4]
    assert title == "rebalancing clusters across shards"
    (tmp_path / "own.md").write_text(PROPOSAL.replace("# Neat Enhancement Idea", "# Dynamic rebalancing"))
    assert local_document(tmp_path / "own.md", tmp_path, "markdown")[4] == "Dynamic rebalancing"
    # the template itself, searched as a document, keeps its words
    assert (
        "Add a list of detailed use cases"
        in local_document(tmp_path / "001-proposal-template.md", tmp_path, "markdown")[0]
    )


def test_a_template_is_told_by_its_name_not_by_naming_templates(tmp_path: Path) -> None:
    # ember's "0278-template-only-components.md" and mise's "templates.md" are documents about templates
    for name in ("0278-template-only-components.md", "templates.md"):
        folder = tmp_path / name.partition(".")[0]
        folder.mkdir()
        (folder / name).write_text(TEMPLATE)
        (folder / "rebalancing.md").write_text(PROPOSAL)
        prose = local_document(folder / "rebalancing.md", folder, "markdown")[0]
        assert "Add a list of detailed use cases" in prose, name
    folder = tmp_path / "keps"
    (folder / "NNNN-template").mkdir(parents=True)
    (folder / "NNNN-template" / "README.md").write_text(TEMPLATE)
    (folder / "rebalancing.md").write_text(PROPOSAL)
    assert "Add a list of detailed" not in local_document(folder / "rebalancing.md", folder, "markdown")[0]


def test_a_templates_instruction_left_in_without_its_code_spans_is_the_templates_still(
    tmp_path: Path,
) -> None:
    # Cluster API's ClusterResourceSet proposal keeps "The Alternatives section is used to highlight and record
    # other possible approaches…" from YYYYMMDD-template.md, which writes "The `Alternatives` section…" (Cilium's,
    # PyTorch's and Kotlin's collections hold 6 more such blocks); it was quoted as an alternative considered
    template = TEMPLATE.replace(
        "## Proposal",
        "## Alternatives\n\nThe `Alternatives` section records other approaches.\n\n## Proposal",
    )
    (tmp_path / "YYYYMMDD-template.md").write_text(template)
    proposal = PROPOSAL + "\n## Alternatives\n\nThe Alternatives section records other approaches.\n"
    (tmp_path / "20200220-rebalancing.md").write_text(proposal)
    prose = local_document(tmp_path / "20200220-rebalancing.md", tmp_path, "markdown")[0]
    assert "section records other approaches" not in prose
    assert "records the shard it owns in a ConfigMap" in prose
