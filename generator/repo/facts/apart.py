"""Code a repository keeps beside its own that does not answer for the project: what its tests alone use.

Folders named for other projects' code (vendor/, third_party/) and folders with a licence of their own built
apart are never mapped (map/filetypes.py `ignored_dir`, `separate_work`). What remains here is a Go `internal/`
package only the tests reach: no user can import an internal package, so one the project's code never
imports, directly or through another such package, serves the tests — often a copy of another project
(expr's internal/testify, and the internal/spew and internal/difflib that only testify imports). Its types,
functions and doc comments are no part of the project's API, flows, data model or descriptions.
"""

from __future__ import annotations

from collections import defaultdict

from generator.repo.map.filetypes import in_go_internal, is_context_file
from generator.repo.model import Facts


def serving_tests(facts: Facts) -> frozenset[str]:
    """The Go modules of `internal/` packages that only tests import, or only tests and other such
    modules (testify's assert imports spew and difflib; only the tests import assert); found once per facts,
    whose imports are settled when the facts stage ends."""
    if facts.serving_tests is None:
        facts.serving_tests = _serving_tests(facts)
    return facts.serving_tests


def _serving_tests(facts: Facts) -> frozenset[str]:
    importers: defaultdict[str, set[str]] = defaultdict(set)
    for importer, fact in facts.files.items():
        for target in fact.depends_on:
            if target != importer:
                importers[target].add(importer)
    found = {
        path
        for path, fact in facts.files.items()
        if fact.language == "go" and in_go_internal(path) and not is_context_file(path) and importers[path]
    }
    shrunk = True
    while shrunk:  # a module the project's own code imports, or one such a module imports, is the project's
        used = {p for p in found if any(i not in found and not is_context_file(i) for i in importers[p])}
        found -= used
        shrunk = bool(used)
    return frozenset(found)
