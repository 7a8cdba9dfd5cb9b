"""Stage 7, pack: a shard's files as one text for the LLM, every line numbered as in the original file.

Options remove comments, remove empty lines and compress (keep signatures, docstrings and structure, drop
function bodies). Line numbers stay the original ones, so a citation `path:start-end` made from the pack
points at the file on disk. Secrets are redacted before anything is numbered, and the whole text is capped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import DeepkbError, UnsafeSourceError
from generator.redact import Redactor
from generator.repo.map.walk import language_of, read_source
from generator.repo.model import PACK_CHAR_CAP, Facts
from generator.repo.pack.shrink import comment_cuts, elided_ranges

NOTE_RESERVE = 400  # room kept under the cap for the truncation note


@dataclass
class PackedShard:
    text: str
    files_included: list[str]  # files present in the text (the last one possibly cut short)
    truncated: bool
    redactions: int
    files_omitted: list[str] = field(default_factory=list)  # left out by the cap or unreadable
    last_cut: bool = False  # the last file included was cut short by the cap
    files_cut: list[str] = field(default_factory=list)  # included, but only their first lines (shared cap)


@dataclass(frozen=True)
class PackOptions:
    remove_comments: bool = False
    remove_empty_lines: bool = False
    compress: bool = False


def pack_files(
    root: Path,
    files: Sequence[str],
    facts: Facts | None,
    *,
    remove_comments: bool = False,
    remove_empty_lines: bool = False,
    compress: bool = False,
    cap: int = PACK_CHAR_CAP,
    redactor: Redactor,
    max_file_bytes: int = 1_000_000,
    shared: bool = False,
) -> PackedShard:
    """Pack `files` (repository-relative paths) into at most `cap` characters: the first files whole, or with
    `shared`, the start of every file (each as much of the cap as the smaller ones leave)."""
    options = PackOptions(remove_comments, remove_empty_lines, compress)
    sections: list[tuple[str, str]] = []
    redactions = 0
    unreadable: list[str] = []
    for rel in files:
        language = facts.files[rel].language if facts and rel in facts.files else language_of(rel)
        try:
            text = _read_for_pack(root, rel, facts, max_file_bytes)
        except DeepkbError as exc:
            unreadable.append(rel)
            sections.append((rel, f"{_header(rel, language, 0)}\n(not included: {_display(exc.message)})\n"))
            continue
        text, count = redactor.redact(text)
        redactions += count
        sections.append((rel, render_file(rel, language, text, options)))
    if shared:
        return _assemble_shared(sections, cap, redactions, unreadable)
    return _assemble(sections, cap, redactions, unreadable)


def _read_for_pack(root: Path, rel: str, facts: Facts | None, max_bytes: int) -> str:
    # with facts, only files the map accepted are packed: a planner naming `.env` or a gitignored or
    # binary file gets nothing from it
    if facts is not None and rel not in facts.files:
        raise UnsafeSourceError(f"{rel!r} is not in the repository map (skipped, ignored or missing)")
    text = read_source(root, rel, max_bytes=max_bytes)
    if "\0" in text[:8192]:
        raise UnsafeSourceError(f"{rel!r} is binary")
    return text


def render_file(rel: str, language: str, text: str, options: PackOptions) -> str:
    """One file under its header, each kept line prefixed by its original 1-based line number."""
    lines = split_lines(text)
    width = len(str(max(len(lines), 1)))
    elided = elided_ranges(language, text) if options.compress else []
    cuts = comment_cuts(language, text) if options.remove_comments else {}
    starts = {start: end for start, end in elided}
    out = [_header(rel, language, len(lines))]
    number = 1
    while number <= len(lines):
        if number in starts:
            end = starts[number]
            out.append(f"{' ' * width} ⋮ … lines {number}-{end} elided (body)")
            number = end + 1
            continue
        line = lines[number - 1]
        if number in cuts:
            line = _apply_cuts(line, cuts[number])
            if not line.strip() and lines[number - 1].strip():
                number += 1
                continue  # the line held only a comment
        if options.remove_empty_lines and not line.strip():
            number += 1
            continue
        out.append(f"{number:>{width}}| {line}")
        number += 1
    return "\n".join(out) + "\n"


def split_lines(text: str) -> list[str]:
    """Lines as git and editors number them: split on \\n only (str.splitlines also splits on \\f, \\x1c…)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _apply_cuts(line: str, spans: list[tuple[int, int]]) -> str:
    data = line.encode("utf-8", errors="replace")
    for start, end in sorted(spans, reverse=True):  # byte columns, from the right so earlier ones hold
        data = data[:start] + data[end:]
    return data.decode("utf-8", errors="replace").rstrip()


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _display(text: str) -> str:
    # a file name may hold newlines; it must not be able to forge a header in the pack
    return _CONTROL.sub("?", text)


def _header(rel: str, language: str, lines: int) -> str:
    return f"==== FILE: {_display(rel)} ({language}, {lines} lines) ===="


def _assemble(
    sections: list[tuple[str, str]], cap: int, redactions: int, unreadable: list[str]
) -> PackedShard:
    parts: list[str] = []
    included: list[str] = []
    used = 0
    budget = max(0, cap - NOTE_RESERVE)
    for index, (rel, section) in enumerate(sections):
        piece = section if index == 0 else "\n" + section
        if used + len(piece) <= budget or (used + len(piece) <= cap and index == len(sections) - 1):
            parts.append(piece)
            used += len(piece)
            if rel not in unreadable:
                included.append(rel)
            continue
        partial = _cut_at_line(piece, budget - used)
        # keep a cut file only with its header and at least one numbered line
        cut_short = rel not in unreadable and partial.lstrip("\n").count("\n") >= 2
        if cut_short:
            parts.append(partial)
            included.append(rel)
        omitted = [r for r, _ in sections[index + 1 :]] + ([] if cut_short else [rel])
        note = _truncation_note(cap, len(included), len(sections), omitted, cut_short)
        text = ("".join(parts) + note)[:cap]
        left_out = set(omitted) | set(unreadable)
        left = [r for r, _ in sections if r in left_out]
        return PackedShard(text, included, True, redactions, left, last_cut=cut_short)
    return PackedShard("".join(parts), included, False, redactions, list(unreadable))


CUT_MARK = "⋮ (the rest of this file is left out to fit the model's window)\n"


def _assemble_shared(
    sections: list[tuple[str, str]], cap: int, redactions: int, unreadable: list[str]
) -> PackedShard:
    """Every file's start within `cap`: the smaller files whole, the rest an equal share of what they leave
    (a small window then still shows the model each file's imports, classes and first functions)."""
    allowance = _fair_shares([len(section) + 1 for _, section in sections], max(0, cap - NOTE_RESERVE))
    parts: list[str] = []
    included: list[str] = []
    cut: list[str] = []
    for (rel, section), room in zip(sections, allowance, strict=True):
        if len(section) + 1 <= room:
            parts.append(section)
            if rel not in unreadable:
                included.append(rel)
            continue
        partial = _cut_at_line(section, room - len(CUT_MARK))
        if rel not in unreadable and partial.count("\n") >= 2:  # its header and at least one numbered line
            parts.append(partial + CUT_MARK)
            included.append(rel)
            cut.append(rel)
    omitted = [rel for rel, _ in sections if rel not in included]
    text = "\n".join(parts)
    if omitted:
        text += _truncation_note(cap, len(included), len(sections), omitted, False)
    return PackedShard(
        text[:cap], included, bool(cut or omitted), redactions, omitted, last_cut=False, files_cut=cut
    )


def _fair_shares(sizes: list[int], budget: int) -> list[int]:
    """Water-filling: each size gets min(size, an equal share of what the smaller ones left)."""
    shares = [0] * len(sizes)
    left, remaining = budget, len(sizes)
    for index in sorted(range(len(sizes)), key=sizes.__getitem__):
        shares[index] = min(sizes[index], left // remaining)
        left -= shares[index]
        remaining -= 1
    return shares


def _cut_at_line(piece: str, room: int) -> str:
    if room <= 0:
        return ""
    cut = piece[:room]
    return cut[: cut.rfind("\n") + 1] if "\n" in cut else ""


def _truncation_note(cap: int, included: int, total: int, omitted: list[str], cut_short: bool) -> str:
    names = ", ".join(_display(name) for name in omitted)
    if len(names) > 200:
        names = names[:200].rsplit(",", 1)[0] + ", …"
    shown = f"{included} of {total} files shown" + (" (the last one cut short)" if cut_short else "")
    tail = f"; not included: {names}" if names else ""
    return f"\n[TRUNCATED: this pack is capped at {cap:,} characters; {shown}{tail}]\n"
