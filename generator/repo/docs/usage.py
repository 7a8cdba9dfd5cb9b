"""The usage examples: the code blocks of the README and the getting-started pages, whole, each with the
sentence that introduces it and the paragraphs saying what it did."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from generator.documents import Document
from generator.documents.markdown import is_label
from generator.documents.model import Block, Section
from generator.repo.docs.codeblocks import SHELL, badge_markup, install_only, program_output
from generator.repo.docs.headings import HOW_TO_HEADING, NO_USAGE, under_install
from generator.repo.docs.model import DocPassage
from generator.repo.docs.passages import FIRST_EXAMPLE_LINES, worth_quoting
from generator.repo.docs.started import GETTING_STARTED
from generator.repo.synthesize.readme import NOTICE
from generator.text.sentences import split_sentences

QUICK_START_LINES = 600  # … and the first of a "Quick Start" section is the first use whole, to this length
MAX_EXAMPLES = 8
EXPLAINING = 3  # paragraphs after an example that say what it did, quoted with it
INTRODUCTION_WORDS, INTRODUCTION_SENTENCES = 60, 3  # a paragraph before an example quoted whole up to these
# code under a `NO_USAGE` heading is no usage example, nor is a Go API listing's entry, which godocdown and
# gomarkdoc write into READMEs under "Usage": a heading naming a declaration ("func  BackOffDelay", "func (Error)
# Unwrap", "type Option") over its signature (retry-go's Getting started showed five such signatures after its
# synopsis)
_DECLARATION_HEADING = re.compile(r"^(?:func|type)\s+(?:\([^)]*\)\s*)?[A-Za-z_]\w*(?:\[[^\]]*\])?\s*$")
# … nor a block of benchmark results or of the machine they ran on, whatever its heading: fasthttp's "HTTP
# server performance comparison with net/http" (`go test -bench=…`, `15327 ns/op`), gnet's "Benchmarks on
# TechEmpower" ("28 HT Cores Intel(R) Xeon(R) Gold …") had been their Getting started's first examples
_BENCHMARK_OUTPUT = re.compile(
    r"\b(?:ns|allocs|B)/op\b|\b(?:requests|req|ops)/s(?:ec)?\b|\bGOMAXPROCS\b|\bIntel\(R\)|\bAMD EPYC\b"
    r"|\bgo test -bench\b",
    re.IGNORECASE,
)


def usage_examples(documents: Iterable[Document]) -> list[DocPassage]:
    """The code blocks of the README and the getting-started pages, whole, each with the sentence that
    introduces it (the block's `lead`), shell-only install lines left out. A numbered walk-through the
    budget stops in is read on to its last step, one example a step: grpc-gateway's "Usage" steps 1 to 6,
    whose step 5 writes the entrypoint the steps before it lead to."""
    found: list[DocPassage] = []
    seen: set[str] = set()
    for document in documents:
        for section, n, block in _numbered_blocks(document):
            if not _usage_example(section, block, first=not found) or block.text in seen:
                continue
            seen.add(block.text)
            found += _example_passages(document, section, n)
            if sum(p.kind == "code" for p in found) >= MAX_EXAMPLES:
                return found + _rest_of_walkthrough(document, section, seen)
    return found


# a walk-through's step: "1.Define your gRPC service", "5. Write an entrypoint", "Step 2: Create a table"
_STEP_HEADING = re.compile(r"^\W*(?:step\s*)?\d{1,2}(?:\.\d{1,2})*(?:[.):]|\s)", re.IGNORECASE)


def _usage_example(section: Section, block: Block, *, first: bool) -> bool:
    """Whether a block is code a usage example shows: whole, not output, a badge, a declaration's signature,
    an install line, or under a section about the project's process."""
    if block.kind != "code" or any(p.search(h) for p in NO_USAGE for h in section.path):
        return False
    if _DECLARATION_HEADING.match(" ".join(section.heading.split())):
        return False
    if _BENCHMARK_OUTPUT.search(block.text) or program_output(block) or badge_markup(block.text):
        return False
    if not _shown_whole(block, section.path, first=first or _quick_start(section, block)):
        return False
    return not (install_only(block.text) or _installing(section.path, block.language))


def _example_passages(document: Document, section: Section, n: int) -> list[DocPassage]:
    """The example at `n` with its lead, a content tab's label over it, and the paragraphs saying what it did."""
    block = section.blocks[n]
    found: list[DocPassage] = []
    if lead := _example_lead(document, section, n):
        found.append(lead)
    if n and (label := section.blocks[n - 1]).kind == "paragraph" and is_label(label.text):
        if lead is None or lead.text != label.text:  # a content tab's title, under what opens the tabs
            found.append(
                DocPassage(document.origin, label.start, label.end, "paragraph", label.text, section.heading)
            )
    found.append(
        DocPassage(
            block.origin or document.origin,
            block.start,
            block.end,
            "code",
            block.text,
            section.heading,
            block.language,
            document.origin if block.origin else "",
        )
    )
    found += [
        DocPassage(document.origin, b.start, b.end, b.kind, b.text, section.heading)
        for b in _explaining(section.blocks, n)
    ]
    return found


def _rest_of_walkthrough(document: Document, at: Section, seen: set[str]) -> list[DocPassage]:
    """The first example of each numbered step after section `at` in the walk-through it is a step of (the
    sections under the heading its numbered steps stand under); [] when `at` is no step."""
    steps = [n for n, heading in enumerate(at.path) if _STEP_HEADING.match(heading)]
    if not steps:
        return []
    root = at.path[: steps[0]]
    sections = list(document.sections)
    after = next(n for n, section in enumerate(sections) if section is at) + 1
    found: list[DocPassage] = []
    for section in sections[after:]:
        if section.path[: len(root)] != root or len(section.path) <= len(root):
            break
        if not _STEP_HEADING.match(section.heading):
            continue
        for n, block in enumerate(section.blocks):
            if _usage_example(section, block, first=False) and block.text not in seen:
                seen.add(block.text)
                found += _example_passages(document, section, n)
                break
    return found


def _shown_whole(block: Block, path: Sequence[str], *, first: bool) -> bool:
    """Whether an example is short enough to show whole; the first one under a usage heading may run
    longer: it is the example the project chose to teach with (grape's 74-line "Basic Usage", bull's,
    transitions' "Quickstart"), and its smaller neighbours only make sense after it."""
    if worth_quoting("code", block.text):
        return True
    lines = block.text.count("\n") + 1
    if first and GETTING_STARTED.match(path[-1] if path else ""):
        return lines <= QUICK_START_LINES
    return first and lines <= FIRST_EXAMPLE_LINES and any(HOW_TO_HEADING.search(h) for h in path)


def _quick_start(section: Section, block: Block) -> bool:
    """Whether a block is the first code of a section headed "Quick Start" or "Getting started": the first
    use the project shows whole, wherever it stands and however long (ormar's README opens its 430-line
    Quick Start script after a partial migrations snippet: `OrmarConfig`, two models, `create_all`,
    `Author.objects.create`, `Book.objects.get`)."""
    if not GETTING_STARTED.match(section.heading):
        return False
    return block is next((b for b in section.blocks if b.kind == "code"), None)


def _example_lead(document: Document, section: Section, n: int) -> DocPassage | None:
    """What introduces the example at `n`: the short paragraph right before it, whole ("As an alternative
    to `Parser.parse`, you can decorate your view with `use_args`. The parsed arguments will be injected
    …": its last sentence alone drops what the example shows), cited at its own lines; else the block's
    lead sentence, cited at the example's; None for a lead of fewer than three words."""
    block = section.blocks[n]
    if not block.lead or len(block.lead.split()) < 3:
        return None
    before = section.blocks[n - 1] if n else None
    if (
        before is not None
        and before.kind == "paragraph"
        and " ".join(before.text.split()).endswith(" ".join(block.lead.split()))
        and len(before.text.split()) <= INTRODUCTION_WORDS
        and len(split_sentences(before.text)) <= INTRODUCTION_SENTENCES
    ):
        return DocPassage(document.origin, before.start, before.end, "lead", before.text, section.heading)
    return DocPassage(
        block.origin or document.origin,
        block.start,
        block.end,
        "lead",
        block.lead,
        section.heading,
        page=document.origin if block.origin else "",
    )


def _numbered_blocks(document: Document) -> Iterator[tuple[Section, int, Block]]:
    """Every block with its section and its place among the section's blocks."""
    for section in document.sections:
        for n, block in enumerate(section.blocks):
            yield section, n, block


def _explaining(blocks: Sequence[Block], n: int) -> list[Block]:
    """The paragraphs right after the example at `n` that say what it did (swr's "In this example, the React
    Hook `useSWR` accepts a `key` and a `fetcher` function."), at most `EXPLAINING` of them, up to the next
    block that is not one; the last left out when code follows it, being that code's lead. A paragraph ending
    in a colon comes with the list it announces: gqlgen's "… it will always be used when:" had ended its
    answer, the two cases it names dropped."""
    after: list[Block] = []
    for block in blocks[n + 1 :]:
        announced = bool(after) and (after[-1].kind == "item" or _announces(after[-1]))
        if block.kind != "paragraph" and not (block.kind == "item" and announced):
            break
        after.append(block)
    if (
        after
        and after[-1].kind == "paragraph"
        and n + 1 + len(after) < len(blocks)
        and blocks[n + 1 + len(after)].kind == "code"
    ):
        after = after[:-1]
    kept: list[Block] = []
    paragraphs = 0
    for block in after:
        if block.kind == "item":  # … kept with the paragraph that announces its list
            if kept and (kept[-1].kind == "item" or _announces(kept[-1])):
                kept.append(block)
            continue
        paragraphs += 1
        if paragraphs > EXPLAINING:
            break
        if worth_quoting(block.kind, block.text) and not NOTICE.match(block.text):
            kept.append(block)
    return kept


def _announces(block: Block) -> bool:
    return block.kind == "paragraph" and block.text.rstrip().endswith((":", "："))


def _installing(path: Sequence[str], language: str) -> bool:
    """A shell block under an "Installation" heading: setting up a package source, then installing."""
    return language.lower() in SHELL and under_install(path)
