"""Whether a document's "## Implementation" section says how its design works or where the work stands, read
from what the section says: the heading alone names both. A Filecoin FIP's "## Implementation" lists the pull
requests and branches the work lives in ("Actors changes are in progress here: https://…"), a data package
recipe's "## Implementations" says "There are no known implementations of this pattern at present.": the state
of the work. A Harbor proposal's "## Implementation" holds the rule's model, its API and "### Apply the immutable
tag rule" (the interceptor failing a push of an immutable tag): how it works, and no state at all."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .headings import facet_words, unnumbered
from .section_tree import TextSection, text_sections

# a heading naming the implementation and nothing else: "Implementation status", "Reference implementation"
# and "Implementation plan" say what they are by name (headings.py's _STATUS_HEADING)
_BARE_IMPLEMENTATION = re.compile(r"^\W*implementations?\W*$", re.IGNORECASE)
# what an opening saying where the work stands says: a link to the work, the repository or branch it lives in,
# its release, that there is none yet or that it comes later ("To be provided before 'Final' status.",
# "TBA.", "Implementation to follow discussion…"), a template's placeholder ("[A description of the steps…]")
_STANDING = re.compile(
    r"https?://|(?<![\w-])#\d+\b|^\s*\[[^\]]*\]\s*$|(?<![A-Za-z])(?:pull\s+requests?|PRs?|branch(?:es)?"
    r"|repos?|repositor(?:y|ies)|merged|releases?d?|v\d[\w.]*|in\s+progress|lives?\s+in|located|tracked"
    r"|implemented\s+in|available\s+(?:in|at)|none|no\s+known|to\s+be\s+(?:provided|done|determined|completed)"
    r"|TB[AD]|TODO|deferred|to\s+follow|can\s+be\s+provided|expected|at\s+present|at\s+the\s+time\s+of\s+writing"
    r"|not\s+discussed|reference\s+implementations?|see|links?|(?:being\s+)?worked\s+on)(?![A-Za-z])",
    re.IGNORECASE | re.MULTILINE,
)
# the least text a design stands in: a status section is a line or a few links; "The model for immutable tag
# rule:" with its struct, its table, its API and how a push is checked runs to thousands of characters
MIN_DESIGN_CHARS = 400
# what frames a block rather than says anything: a template's comment on the section
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def design_implementations(sections: Sequence[TextSection]) -> set[int]:
    """The indices of the sections headed "Implementation" alone that say how the design works (`says_design`)."""
    return {
        n
        for n, section in enumerate(sections)
        if _BARE_IMPLEMENTATION.match(facet_words(unnumbered(section.heading.strip())))
        and says_design(_with_subsections(sections, n))
    }


def design_headings(text: str) -> tuple[str, ...]:
    """The headings of a text's "Implementation" sections that say how its design works, as written."""
    sections = text_sections(text)
    return tuple(sections[n].heading for n in sorted(design_implementations(sections)))


def says_design(blocks: Sequence[str]) -> bool:
    """Whether an implementation section's blocks (its subsections' with them) say how the design works: they
    run to MIN_DESIGN_CHARS, and their first prose block states nothing of where the work stands."""
    said = [_COMMENT.sub("", b).strip() for b in blocks]
    opening = next((b for b in said if b and not b.startswith(("```", "~~~", "|"))), "")
    return bool(opening) and sum(map(len, said)) >= MIN_DESIGN_CHARS and not _STANDING.search(opening)


def _with_subsections(sections: Sequence[TextSection], n: int) -> list[str]:
    """The blocks of the n-th section and of every section standing in it."""
    blocks = list(sections[n].blocks)
    for section in sections[n + 1 :]:
        if section.level <= sections[n].level:
            break
        blocks += section.blocks
    return blocks
