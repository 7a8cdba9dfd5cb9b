"""What a section's heading says it is about: the project's process (licence, contributing, its own tests),
its policies, other projects, a reader's question, installing it, teaching its use, what it is."""

from __future__ import annotations

import re
from collections.abc import Sequence

from generator.documents.model import Section

# what a tutorial or a usage section is called, in a heading and in a file name ("getting-started.md"),
# where a starter page also says "intro" or "basic"
HOW_TO = r"getting[-_ ]?started|get[-_ ]?started|quick[-_ ]?start|tutorials?|usage|how[-_ ]to[-_ ]use|examples?|walk-?through|first[-_ ]steps"
# a section that teaches use step by step: its prose walks through code ("To start we'll define our package")
HOW_TO_HEADING = re.compile(rf"\b(?:{HOW_TO})\b", re.IGNORECASE)
# a section that is about the project's process, not about it: the whole heading says so ("Security
# Analyzers" is a feature; "Security" or "Security policy" is a notice)
_SKIPPED_HEADING = re.compile(
    r"^\W*(?:how to )?(?:licen[cs]es?|licensing|contribut\w*|sponsors?|backers|security|changelog|credits"
    # "Contribution to Documentation", "Contributing to existing KEEPs", "Code Contributors" (voluptuous, Kotlin
    # KEEP, graphql-wg, json-schema-spec, fiber, fastify)
    r"|contribut\w* to \w.*|(?:code|financial|emeritus|core) contributors|call for contributions.*"
    r"|authors|badges|(?:table of )?contents|citation|citing|acknowledg\w*|support|community|star history"
    r"|(?:special )?(?:thanks|thank you|shout-?outs?)"  # javalin's, vue-router's, x64dbg's "Special thanks"
    r"|indices and tables"  # the links sphinx-quickstart puts under an index.rst: genindex, modindex, search
    r"|contact(?: us)?)(?:\s+(?:policy|guide|guidelines|information|info|(?:and|&) \w+))?\W*$",
    re.IGNORECASE,
)
# how the project is kept and where to turn, beside what it is: fx's "Stability", libuv's "Versioning", vue's
# "Questions", retrofit's "Download", leveldb's "Documentation" (a pointer), mkdocstrings' "Used by"; a
# commercial offer ("Mockito for enterprise", "attrs for Enterprise", urllib3's "For Enterprise", jackson's
# "Enterprise support": Tidelift's subscription, in 14 mirrors' READMEs)
POLICY_HEADING = re.compile(
    r"^\W*(?:(?:semantic )?versioning|(?:api )?stability|questions|downloads?|documentation|release policy"
    r"|(?:who(?:'s| is) )?us(?:ed|ing) (?:by|it)|users|adopters"
    # "Documentation & Help" (mitmproxy), "Documentation & Support" (django-rest-framework)
    r"|(?:\S+ )?for enterprise|(?:enterprise|commercial|professional|paid) support)"
    r"(?:\s+(?:policy|(?:and|&) \w+))?\W*$",
    re.IGNORECASE,
)
# other projects: who uses this one, and the ones beside it (zerolog's "Who uses zerolog" and "Related Projects",
# ajv's "Who uses Ajv", nlohmann/json's "Projects using JSON for Modern C++", httpie's "Alternatives")
OTHER_PROJECTS = re.compile(
    r"^\W*(?:who uses\b.*|(?:other )?projects? using\b.*|related (?:projects|libraries|tools|packages|work)"
    r"|similar (?:projects|libraries|tools)|alternatives|see also)\W*$",
    re.IGNORECASE,
)
# a question a reader asks, answered for that reader ("What is it?" and "Why X?" say what the project is)
_FAQ_HEADING = re.compile(
    r"^\W*(?:is|are|can|could|do|does|did|will|should|how (?:do|can|should) (?:i|you|we))\b.*\?\W*$",
    re.IGNORECASE,
)
# how the project itself is worked on: a README section for contributors, not a part of the project
_README_PROCESS = re.compile(
    r"^\W*(?:(?:running )?(?:the )?tests?|testing|releas(?:e|ing)(?: process)?|roadmap|maintainers?)\W*$",
    re.IGNORECASE,
)
# the maintainers' own set-up: fsspec's "Develop" (a conda environment, `pip install -e`), boltons' and pyee's
# "Development" (tox runs) — never a use of the project, in the overview or in Getting started
_DEVELOPING = re.compile(
    r"^\W*(?:develop|development|developing|hacking|building(?: from source)?|(?:local )?development setup"
    r"|local development)\W*$",
    re.IGNORECASE,
)
# the project checking itself: its benchmarks, how to run its own tests; never a use of the project
_OWN_CHECKS = re.compile(
    r"^\W*(?:benchmark(?:s|ing)?|(?:running )?(?:the )?test suite|running (?:the )?tests?)\W*$", re.IGNORECASE
)
# README sections whose code is never a use of the project (a "Testing" section may show the project's test
# client, so _README_PROCESS is not among them)
NO_USAGE = (_SKIPPED_HEADING, _OWN_CHECKS, _DEVELOPING)
ABOUT_HEADING = re.compile(
    r"^\W*(?:why\b|what\b|about\b|overview|introduction|intro\b|description|summary|motivation"
    r"|(?:basic |core |key |main )?concepts\W*$)",
    re.IGNORECASE,
)


# a README section that closes it: the project's community, contributing, support, licence and sponsors
# headings, however they go on (chainsaw's "Community Meetings", "Community & Support", "Sponsors and
# Backers"); past it a README no longer says what the project is. "Support for …" and "Supported …" are features
_CLOSING_HEADING = re.compile(
    r"^\W*(?:community|contribut\w*|support(?!ed|s\b|\s+(?:for|of)\b)|licen[cs](?:e|es|ing)|sponsor\w*|backers"
    r"|get(?:ting)? (?:help|involved)|join us)\b",
    re.IGNORECASE,
)


def closing(heading: str) -> bool:
    """Whether a README heading opens its closing part (community, contributing, support, licence, sponsors):
    nothing under or after it is the project's lead."""
    return _CLOSING_HEADING.match(heading) is not None


def skipped_section(section: Section) -> bool:
    """Whether a section is under a heading no page quotes (licence, contributing, contents …)."""
    return any(_SKIPPED_HEADING.search(h) for h in section.path)


def answers_a_question(heading: str) -> bool:
    """Whether a section answers a reader's question of the FAQ kind ("Does Guzzle require cURL?", "How do
    I debug?"); "What is it?" and "Why X?" say what the project is."""
    return _FAQ_HEADING.match(heading) is not None


def aside(heading: str) -> bool:
    """A README section beside what the project is: its process (licence, contributing, roadmap), its
    policies (versioning, stability), where to ask or download, a pointer to its documentation, who uses it,
    a reader's question of the FAQ kind ("Is svelte.dev down?", "How do I submit a JEP?")."""
    return about_process(heading) or any(
        p.match(heading) for p in (POLICY_HEADING, _FAQ_HEADING, OTHER_PROJECTS)
    )


_INSTALL_HEADING = re.compile(r"\binstall(?:s|ing|ation)?\b", re.IGNORECASE)


def about_process(heading: str) -> bool:
    """A README section about the project's process (licence, contributing, developing, its own tests and
    benchmarks), not a part of the project."""
    return any(p.search(heading) for p in (*NO_USAGE, _README_PROCESS))


def under_install(path: Sequence[str]) -> bool:
    """Whether a section stands under an "Installation" heading, at any depth ("macOS" under it too)."""
    return any(_INSTALL_HEADING.search(heading) for heading in path)
