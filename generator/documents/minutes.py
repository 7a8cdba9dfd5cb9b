"""Whether a document records a meeting — minutes, notes or an agenda — rather than giving an account of
its subject: such a record says what was said about a proposal on one day ("Workspaces v2:", "1. PR: #375
…"), never what the proposal is."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

# a folder that holds meeting records: npm RFCs' meetings/, the GraphQL WG's agendas/, C#'s meetings/
_FOLDER = re.compile(r"^(?:meetings?|meeting[-_ ]notes|minutes|agendas)$", re.I)
# a title naming a meeting ("Open RFC Meeting (npm)", "Meeting notes") or its minutes
_TITLE = re.compile(r"\bmeetings?\b|\bminutes\b", re.I)
# notes of one date: "GraphQL WG Notes – February 2021" (but not "Design Notes on Kotlin Value Classes")
_DATED_NOTES = re.compile(
    r"\bnotes\b.*(?:\b(?:19|20)\d\d\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)", re.I
)
# the heading of who was there: only a meeting's record has one
_ATTENDANCE = re.compile(r"^\W*(?:attendees|attendance|participants|present)\W*$", re.I)


def records_meeting(title: str, headings: Iterable[str], path: str = "") -> bool:
    """Whether a document (its title, headings and path inside its collection) records a meeting."""
    folders = PurePosixPath(path).parts[:-1]
    return (
        any(_FOLDER.match(folder) for folder in folders)
        or bool(_TITLE.search(title) or _DATED_NOTES.search(title))
        or any(_ATTENDANCE.match(heading) for heading in headings)
    )
