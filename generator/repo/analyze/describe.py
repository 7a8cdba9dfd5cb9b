"""What a page says about code, from the facts: the key types with their main methods, the key functions and
one line per module. Shared by the shard pages, the index's catalogue and the prompts, so the offline analyst
and the model are shown the same things. Which symbols matter is the facts' ranking
(generator/repo/facts/ranking.py); this module cites them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence

from generator.repo.analyze.citations import Linker
from generator.repo.facts.apart import serving_tests
from generator.repo.facts.deprecation import deprecated_by_doc
from generator.repo.facts.ranking import TYPE_KINDS, RankedSymbol, key_symbols, leading_symbols
from generator.repo.map.filetypes import in_go_internal
from generator.repo.model import (
    CallEdge,
    CallTree,
    CitedSymbol,
    Facts,
    FileEntry,
    FileFacts,
    FlowBranch,
    FlowHop,
    KeyType,
    ModuleLine,
    RepoMap,
    Symbol,
)
from generator.text.pointers import continues, points_elsewhere
from generator.text.sentences import lead_sentences

MODULE_SYMBOLS = 3  # symbols named on a module's catalogue line
# what a module only the tests use is to the project (facts/apart.py), in place of its own doc
SERVING_TESTS = "Used by the tests only: an internal package the project's own code never imports."
SHORT_LEAD = 40  # a symbol's first sentence shorter than this ("Too many redirects.") takes the next


def cite(
    symbol: Symbol, path: str, linker: Linker, *, described: bool = True, secondary: bool = False
) -> CitedSymbol:
    """The symbol as a page shows it; `described=False` leaves out its doc's first sentence (a page naming
    the symbol only need not summarize its docstring)."""
    return CitedSymbol(
        symbol.name,
        symbol.kind,
        path,
        lead(symbol.doc) if described else "",
        linker.check(path, symbol.start, symbol.end),
        secondary,
        deprecated_by_doc(symbol.doc_source),
    )


def ranked(paths: Iterable[str], facts: Facts) -> list[RankedSymbol]:
    """The key symbols of `paths`, best first across the files; error types and compat shims after the
    primary ones (`secondary_names`), which are what the subsystem is made of."""
    paths = list(paths)
    found = [
        RankedSymbol(entry.symbol, entry.score, path, entry.methods, entry.secondary)
        for path in paths
        for entry in key_symbols(facts, path)
    ]
    # a Go internal package's types serve the package a user imports: beside it they come after its own
    # (pond's Pool subsystem led with `LinkedBuffer`, its queue's storage in internal/linkedbuffer)
    hidden = {path for path in paths if _go_internal(path, facts)}
    behind = bool(hidden) and len(hidden) < len(paths)
    found.sort(key=lambda r: (r.secondary, behind and r.path in hidden, -r.score, r.path, r.symbol.start))
    # a Rust `impl` of a type another of the files defines is that type (minijinja's `impl ArgType for Value`
    # in argtypes.rs was a key type "Value" above the struct in value/mod.rs): the type stands where the
    # better ranked of the two does
    types: dict[str, RankedSymbol] = {}
    for r in found:
        if r.symbol.kind in TYPE_KINDS and r.symbol.kind != "impl":
            types.setdefault(r.symbol.name, r)
    found = list(
        {
            id(t): t for t in (types.get(r.symbol.name, r) if r.symbol.kind == "impl" else r for r in found)
        }.values()
    )
    # a definition repeated in a sibling file (Go's build-tagged twins: binding.go, binding_nomsgpack.go) is
    # one symbol to a reader: its first, best-ranked place stands for it
    seen: set[tuple[str, str, str, str]] = set()
    unique = []
    for r in found:
        key = (posixpath.dirname(r.path), r.symbol.name, r.symbol.kind, r.symbol.doc_source)
        if key not in seen:
            seen.add(key)
            unique.append(r)
    return unique


def _go_internal(path: str, facts: Facts) -> bool:
    fact = facts.files.get(path)
    return fact is not None and fact.language == "go" and in_go_internal(path)


def key_types(paths: Sequence[str], facts: Facts, linker: Linker, limit: int = 8) -> list[KeyType]:
    """The classes (structs, interfaces) of `paths`, most important first, each with its main methods."""
    return [
        KeyType(
            cite(r.symbol, r.path, linker, secondary=r.secondary),
            tuple(cite(m, r.path, linker) for m in r.methods),
            r.symbol.bases,
        )
        for r in ranked(paths, facts)
        if r.symbol.kind in TYPE_KINDS
    ][:limit]


def key_functions(paths: Sequence[str], facts: Facts, linker: Linker, limit: int = 10) -> list[CitedSymbol]:
    """Functions (and methods standing on their own, like `app.use`), most important first."""
    found = [
        cite(r.symbol, r.path, linker, secondary=r.secondary)
        for r in ranked(paths, facts)
        if r.symbol.kind not in TYPE_KINDS
    ]
    return found[:limit]


def module_lines(paths: Iterable[str], repo_map: RepoMap, facts: Facts, linker: Linker) -> list[ModuleLine]:
    """One line per module: what it is for, its size and its most important symbols, named and cited (a
    module line shows their names, not their docs: those are left unsummarized for every module)."""
    paths = list(paths)
    wanted = set(paths)
    sizes = {f.path: f for f in repo_map.files if f.path in wanted}
    serving = serving_tests(facts)
    return [_module_line(path, sizes.get(path), facts, linker, path in serving) for path in paths]


def _module_line(
    path: str, entry: FileEntry | None, facts: Facts, linker: Linker, serving: bool = False
) -> ModuleLine:
    """`serving`: code only the tests use (facts/apart.py), often another project's copy (expr's
    internal/spew, whose bypass.go opens on a build tag's notice): its own doc does not describe the
    project, so the line says what it is to the project."""
    fact = facts.files.get(path)
    lines = entry.lines if entry else 0
    symbols = leading_symbols(facts, path, MODULE_SYMBOLS)
    return ModuleLine(
        path=path,
        language=entry.language if entry else "",
        lines=lines,
        purpose=SERVING_TESTS if serving else module_purpose(path, fact) if fact else "",
        symbols=tuple(cite(s, path, linker, described=False) for s in symbols),
        citation=linker.check(path, 1, max(lines, 1)),
    )


# Java and C# keep one main type per file, named after the file: its doc comment says what the file is for
_TYPE_PER_FILE = {"java", "csharp"}


def module_purpose(path: str, fact: FileFacts) -> str:
    """The first sentence of the module's own doc; in Java and C#, which rarely give a file a doc of its
    own, the doc of the type named after the file (`AbstractValidator.cs`: "Base class for object
    validators.")."""
    said = first_sentence(fact.doc)
    if said or fact.language not in _TYPE_PER_FILE:
        return said
    stem = posixpath.splitext(posixpath.basename(path))[0]
    main = next(
        (s for s in fact.symbols if s.kind in TYPE_KINDS and s.name.rsplit(".", 1)[-1] == stem),
        None,
    )  # C# names a type with its namespace: `GitHub.GitHubHostProvider` in GitHubHostProvider.cs
    return first_sentence(main.doc) if main is not None else ""


def opening_sentence(paragraphs: Iterable[str], limit: int = 240) -> str:
    """What a docs page opens by saying, as written: the first sentence of its first paragraph that says
    something alone. Never a lead-in ("All Got errors contain various metadata, such as:"), a question
    ("Want to skip the article?"), a sentence pointing above or below it ("The function above is exposed
    by …"), one whose pronoun stands for what came before ("This will expose …") or a notice ("Note: …",
    "Read the primer to learn more …": `_NOTICE`); '' when none does within the limit."""
    for text in paragraphs:
        first = lead_sentences(text, 3, as_written=True) if text.strip() else [""]
        # a chapter recalling the one before opens on its recap: what it adds comes next, unless that only
        # speaks of the recap ("This mimics somewhat the behavior of `redux-thunk` …")
        sentence = first[1] if _RECAP.match(first[0]) and len(first) > 1 else first[0]
        if _RECAP.match(sentence) or (sentence is not first[0] and _RECALLED.match(sentence)):
            continue
        if sentence[-1:] not in (".", "!") or len(sentence) > limit:
            continue
        alone = not (_CLAUSE_ALONE.match(sentence) and len(sentence.split()) <= CLAUSE_WORDS)
        if (
            alone
            and not continues(sentence)
            and not points_elsewhere(sentence)
            and not _LEANS_BACK.match(sentence)
            and not _NOTICE.match(sentence)
        ):
            return sentence
    return ""


# a notice or a pointer says how not to trip or where to read on, not what the page says: sqlglot's custom
# dialects page "Note: when `sqlglot[c]` is installed, subclassing may not work properly …" and its metadata
# page "Read the ast primer to learn more …", boltons' "Note: `ceil` and `floor` functions are based on …",
# dynaconf's "Note that `-i`/`--instance` cannot be used with `init` …"
_NOTICE = re.compile(
    r"^(?:(?:note|nb|n\.b\.|warning|caution|tip)\s*(?::|that\b)|please\b|(?:read|see|refer\s+to|check\s+out)\s)",
    re.IGNORECASE,
)


def lead_in_statement(paragraphs: Iterable[str], limit: int = 240) -> str:
    """What a docs page that opens with a lead-in says, as a statement: minijinja's "The Environment is the
    central configuration object:" before its example, python-tabulate's "The module provides just one function,
    `tabulate`, which takes a list of lists …:", falcon's "Instances of the `falcon.Request` and
    `falcon.Response` classes are passed into WSGI app responders …:" — the first of `paragraphs` whose first
    sentence leads into what follows, with its colon made a full stop, when it says something alone: never
    one pointing at what follows ("Suppose you want … from the following json:"), one left hanging ("The
    collection types … currently implemented are:") or one too short to say much ("The modules we will
    use:"); '' when none does within the limit."""
    for text in paragraphs:
        sentence = lead_sentences(text, 2, as_written=True)[0] if text.strip() else ""
        if not sentence.endswith((":", "：")) or len(sentence) > limit:
            continue
        statement = sentence[:-1].rstrip() + ("。" if sentence.endswith("：") else ".")
        words = re.findall(r"[^\W_]+", statement.lower())
        if (
            len(words) >= LEAD_IN_WORDS
            and words[-1] not in _HANGING
            and (statement[:1].isalnum() or statement[:1] in "`\"'")  # not reST's ".. note::"
            and not continues(statement)
            and not points_elsewhere(statement)
            and not _POINTS_AHEAD.search(statement)
            and not _LEANS_BACK.match(statement)
            and not _PURPOSE.match(statement)
        ):
            return statement
    return ""


LEAD_IN_WORDS = 6
# a step's purpose leading into its command ("To install the latest version from the PyPI:"): no statement
_PURPOSE = re.compile(r"to\s+[a-z]+\b", re.IGNORECASE)
# a lead-in's last word that leaves its sentence hanging without what it announces
_HANGING = frozenset(
    "are is as be like follows following include includes including e g eg i use with".split()
)
# a lead-in announcing what comes next ("the following json", "as below", "here:")
_POINTS_AHEAD = re.compile(r"\b(?:following|below|here|these|this example)\b", re.IGNORECASE)


# a pronoun standing for what came before ("This will expose the `Superstruct` global.", after the script tag
# that does it; "This is because Rust modules … cannot contain hyphens"; "It can also be integrated easily in
# your Flask app."): alone it says nothing of what it stands for
# a tutorial chapter's recap of an earlier one: redux-saga's "We saw already an example of cancellation in
# the Non blocking calls section.", "Until now we've used the `take` and `put` effects …", "In the basics
# section, we saw how to use …", "In the previous section, we saw how …" — what the reader met before
_RECAP = re.compile(
    r"(?:until now|so far|up to now|previously)\b"
    r"|(?:in|on) the (?:previous|preceding|last|earlier|basics?|first) (?:\w+ )?(?:section|chapter|page|part|step"
    r"|tutorial|lesson)s?\b"
    r"|we(?:'ve| have)? (?:already )?(?:saw|seen|learned|covered|looked at|discussed) (?:already )?(?:how|an?|the|that)\b"
    r"|we saw already\b"
    # … and its promise of what it will go over ("In this section we'll review cancellation in more detail.")
    r"|in this (?:section|chapter|page|part|tutorial),? (?:we(?:'ll| will)|you(?:'ll| will))\b",
    re.IGNORECASE,
)
_RECALLED = re.compile(r"(?:this|that|these|those|it|they)\b", re.IGNORECASE)
_LEANS_BACK = re.compile(
    r"(?:this|that|it)\s+(?:will|would|is\s+because|was\s+because|can\s+also|also)\b", re.IGNORECASE
)


# a short subordinate clause standing alone ("When a request fails."): its sentence is elsewhere
CLAUSE_WORDS = 6
_CLAUSE_ALONE = re.compile(
    r"(?:when|if|because|although|while|since|unless|whether)\b[^,;:]*$", re.IGNORECASE
)


def first_sentence(text: str, limit: int = 240) -> str:
    """The first sentence of a docstring, whole; "" when it would have to be cut mid-sentence."""
    sentence = lead_sentences(text, 2)[0]
    return sentence if len(sentence) <= limit else ""


def lead(text: str, limit: int = 240) -> str:
    """`first_sentence`, with the next sentence when the first is too short to say much ("Receives a
    Response. Returns a generator of Responses or Requests.") and both fit."""
    parts = lead_sentences(text, 3)
    first = parts[0] if len(parts[0]) <= limit else ""
    if first and len(first) < SHORT_LEAD and len(parts) > 1 and len(first) + 1 + len(parts[1]) <= limit:
        return f"{first} {parts[1]}"
    return first


def sentences(text: str, limit: int = 3) -> list[str]:
    """The leading whole sentences of a docstring (at most `limit`)."""
    return [s for s in lead_sentences(text)[:limit] if s and len(s) <= 400]


def flow_hops(chain: Sequence[CallEdge], linker: Linker) -> list[FlowHop]:
    """A call chain as hops, each cited at the line of its call."""
    return [
        FlowHop(
            edge.caller or edge.caller_path.rsplit("/", 1)[-1],
            edge.callee,
            linker.check(edge.caller_path, edge.line),
            edge.handed,
            edge.dispatched,
            edge.plugged,
            edge.callee_path,
        )
        for edge in chain
    ]


def flow_branches(tree: Sequence[CallTree], linker: Linker) -> list[FlowBranch]:
    """A call tree as hops, each cited at the line of its call, with the hops below it."""
    return [
        FlowBranch(flow_hops([branch.edge], linker)[0], tuple(flow_branches(branch.below, linker)))
        for branch in tree
    ]
