"""Docusaurus and VitePress sidebars read as data: `sidebars.js/ts` and `.vitepress/config.{js,ts,mts}`'s
`sidebar` are JavaScript, never run here. A small reader takes the object and array literals they are made
of (strings, numbers, nested literals; a name bound to a literal in the same file, or a function that
returns one); anything else (a call, a spread, a template with `${…}`) is left out, and the pages the
sidebar does not reach keep their place in the folder tree."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from generator.documents import stated_field
from generator.repo.map.walk import read_or_none

SIDEBAR_BYTES = 200_000
MAX_DEPTH = 40  # nesting of literals read; deeper is not a sidebar
# An unclosed comment or string runs to the end of the text (of its line, for quotes) and is one token: were
# it left unmatched, every later `/*` or quote would scan to the end again (quadratic on a hostile file)
_TOKEN = re.compile(
    r"""(?P<space>\s+|//[^\n]*|/\*(?:.*?\*/|.*))"""
    r"""|(?P<string>"(?:[^"\\\n]|\\.)*(?:"|(?=\n)|\\?\Z)|'(?:[^'\\\n]|\\.)*(?:'|(?=\n)|\\?\Z)"""
    r"""|`(?:[^`\\]|\\.)*(?:`|\\?\Z))"""
    r"""|(?P<name>[A-Za-z_$][\w$]*)|(?P<number>-?\d+(?:\.\d+)?)|(?P<spread>\.\.\.)|(?P<punct>[{}\[\]():,;=])"""
    r"""|(?P<other>.)""",
    re.DOTALL,
)
_CLOSED = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`""", re.DOTALL)
_NUMBER_PREFIX = re.compile(r"^\d+[-_.]")
_EXTENSIONS = (".md", ".mdx", ".markdown")


class Dynamic:
    """A value the reader does not evaluate (a call, a spread, a variable it cannot find)."""


DYNAMIC = Dynamic()
Value = object  # str | float | bool | None | list[Value] | dict[str, Value] | Dynamic


@dataclass(frozen=True)
class Token:
    kind: str
    text: str


def tokens(source: str) -> list[Token]:
    """The JavaScript's tokens, comments and spaces left out (a string's quotes removed)."""
    found = []
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup or "other"
        if kind == "space":
            continue
        text = match.group(0)
        if kind == "string" and not _CLOSED.fullmatch(text):
            kind = "other"  # unclosed: not a value
        found.append(Token(kind, text[1:-1] if kind == "string" else text))
    return found


class Reader:
    """Reads literals from a token list; names bound in the same file are looked up once each."""

    def __init__(self, found: Sequence[Token]) -> None:
        self.tokens = list(found)
        self.resolving: set[str] = set()

    def value_at(self, i: int, depth: int = 0) -> tuple[Value, int]:
        """The literal starting at token `i` and the index after it (DYNAMIC for what is not a literal)."""
        if i >= len(self.tokens) or depth > MAX_DEPTH:
            return DYNAMIC, len(self.tokens)
        token = self.tokens[i]
        if self._at(i, "{"):
            return self._object(i + 1, depth)
        if self._at(i, "["):
            return self._array(i + 1, depth)
        if token.kind == "string":
            return (token.text if "${" not in token.text else DYNAMIC), self._after_value(i + 1)
        if token.kind == "number":
            return float(token.text), self._after_value(i + 1)
        if token.kind == "name":
            return self._name(i, depth)
        return DYNAMIC, self._after_value(i + 1)

    def _name(self, i: int, depth: int) -> tuple[Value, int]:
        name = self.tokens[i].text
        constants = {"true": True, "false": False, "null": None, "undefined": None}
        if name in constants:
            return constants[name], self._after_value(i + 1)
        if i + 1 < len(self.tokens) and self.tokens[i + 1].text == ".":
            return DYNAMIC, self._after_value(i + 1)  # a member (`x.items`, `path.resolve(…)`): not evaluated
        return self.bound(name, function=self._at(i + 1, "("), depth=depth), self._after_value(i + 1)

    def bound(self, name: str, function: bool = False, depth: int = 0) -> Value:
        """The literal `const name = …` (or `function name() { return … }`) binds in this file."""
        if name in self.resolving:
            return DYNAMIC
        self.resolving.add(name)
        try:
            for j, token in enumerate(self.tokens[:-2]):
                if token.text != name or token.kind != "name":
                    continue
                before = self.tokens[j - 1].text if j else ""
                if not function and before in ("const", "let", "var"):
                    assigned = self._assigned(j + 1)
                    if assigned is not None:
                        return self.value_at(assigned, depth + 1)[0]
                if function and before == "function":
                    returned = self._return_of(j)
                    if returned is not None:
                        return self.value_at(returned, depth + 1)[0]
            return DYNAMIC
        finally:
            self.resolving.discard(name)

    def _assigned(self, i: int) -> int | None:
        """After `const name`: the token after `=`, past a type annotation (`: SidebarsConfig`)."""
        if self._at(i, ":"):
            while i < len(self.tokens) and not self._at(i, "=", ";"):
                i = self._balanced(i) if self._at(i, "(", "[", "{") else i + 1
        return i + 1 if self._at(i, "=") else None

    def _return_of(self, j: int) -> int | None:
        """The token after `return` in the body of the function declared at token `j`."""
        k = j
        while k < len(self.tokens) and self.tokens[k].text != "{":
            k += 1
        for m in range(k, min(len(self.tokens), k + 20_000)):
            if self.tokens[m].text == "return" and self.tokens[m].kind == "name":
                return m + 1
        return None

    def _object(self, i: int, depth: int) -> tuple[Value, int]:
        found: dict[str, Value] = {}
        while i < len(self.tokens) and not self._at(i, "}"):
            token = self.tokens[i]
            if token.kind == "spread":
                _, i = self.value_at(i + 1, depth + 1)
            elif token.kind in ("name", "string", "number") and self._at(i + 1, ":"):
                found[token.text], i = self.value_at(i + 2, depth + 1)
            elif token.kind == "name" and self._at(i + 1, ",", "}"):
                found[token.text], i = self.bound(token.text, depth=depth + 1), i + 1  # shorthand `{ items }`
            else:
                i = self._skip(i)
            if self._at(i, ","):
                i += 1
        return found, self._after_value(i + 1)

    def _array(self, i: int, depth: int) -> tuple[Value, int]:
        found: list[Value] = []
        while i < len(self.tokens) and not self._at(i, "]"):
            if self.tokens[i].kind == "spread":
                spread, i = self.value_at(i + 1, depth + 1)
                found += spread if isinstance(spread, list) else [DYNAMIC]
            else:
                item, i = self.value_at(i, depth + 1)
                found.append(item)
            if self._at(i, ","):
                i += 1
            elif i < len(self.tokens) and not self._at(i, "]"):
                i = self._skip(i)
        return found, self._after_value(i + 1)

    def _after_value(self, i: int) -> int:
        """Past a value's trailing call arguments, member access or `as`/`satisfies` type (all ignored)."""
        while i < len(self.tokens):
            token = self.tokens[i]
            if self._at(i, "("):
                i = self._balanced(i)
            elif token.text in ("as", "satisfies") and token.kind == "name":
                i = self._skip(i + 1)
            elif token.kind == "other" and token.text == ".":
                i += 2
            else:
                break
        return i

    def _skip(self, i: int) -> int:
        """To the next `,` or closing bracket at this level."""
        while i < len(self.tokens) and not self._at(i, ",", "}", "]", ")", ";"):
            i = self._balanced(i) if self._at(i, "(", "[", "{") else i + 1
        return i

    def _balanced(self, i: int) -> int:
        depth = 0
        while i < len(self.tokens):
            text = self.tokens[i].text if self.tokens[i].kind == "punct" else ""
            depth += (text in "([{" and text != "") - (text in ")]}" and text != "")
            i += 1
            if depth <= 0:
                break
        return i

    def _at(self, i: int, *texts: str) -> bool:
        return i < len(self.tokens) and self.tokens[i].kind == "punct" and self.tokens[i].text in texts


# --------------------------------------------------------------------------- Docusaurus


SITE_FOLDERS = ("website", "site", "docs-site")
"""Where a Docusaurus site sits when the docs folder is not inside it (its docs path is `../docs`)."""


def docusaurus_order(root: Path, paths: Sequence[str], docs: str) -> list[str]:
    """The pages `sidebars.js/ts/json` lists, in its order (autogenerated parts in the folder order the
    caller gives `paths` in): the sidebars beside the docs folder, else in a site folder next to it."""
    parent = str(PurePosixPath(docs).parent) if docs else "."
    sites = [parent, *(f"{parent}/{s}" if parent != "." else s for s in SITE_FOLDERS)]
    for site in sites:
        for name in ("sidebars.js", "sidebars.ts", "sidebars.mjs", "sidebars.cjs", "sidebars.json"):
            source = read_or_none(root, name if site == "." else f"{site}/{name}", max_bytes=SIDEBAR_BYTES)
            if source is None:
                continue
            value = _exported(Reader(tokens(source)))
            index = _doc_ids(root, paths, docs)
            return list(dict.fromkeys(_docusaurus_pages(value, index, paths, docs)))
    return []


def _exported(reader: Reader) -> Value:
    """What `module.exports =` or `export default` gives (a name bound in the file followed), else the first
    object literal bound to a name."""
    found = reader.tokens
    for i, token in enumerate(found):
        if token.text == "exports" and reader._at(i + 1, "="):
            return reader.value_at(i + 2)[0]
        if token.text == "default" and i and found[i - 1].text == "export":
            return reader.value_at(i + 1)[0]
    for i, token in enumerate(found[:-1]):
        if token.text in ("const", "let", "var") and found[i + 1].kind == "name":
            value = reader.bound(found[i + 1].text)
            if isinstance(value, dict):
                return value
    return reader.value_at(0)[0] if reader._at(0, "{") else DYNAMIC  # sidebars.json: the object itself


def _docusaurus_pages(value: Value, index: dict[str, str], paths: Sequence[str], docs: str) -> Iterator[str]:
    if isinstance(value, str):
        if value in index:
            yield index[value]
    elif isinstance(value, list):
        for item in value:
            yield from _docusaurus_pages(item, index, paths, docs)
    elif isinstance(value, dict):
        kind = value.get("type")
        if kind == "autogenerated" and isinstance(value.get("dirName"), str):
            folder = str(PurePosixPath(docs, str(value["dirName"]))).rstrip("/")
            yield from (p for p in paths if folder in (".", docs) or p.startswith(folder + "/"))
            return
        for key in ("id", "link"):
            yield from _docusaurus_pages(value.get(key), index, paths, docs)
        if "items" in value:
            yield from _docusaurus_pages(value["items"], index, paths, docs)
        elif kind is None:  # `{ "Category": ["a", "b"] }` or the file's `{ mySidebar: [...] }`
            for item in value.values():
                yield from _docusaurus_pages(item, index, paths, docs)


def _doc_ids(root: Path, paths: Sequence[str], docs: str) -> dict[str, str]:
    """Doc ids → the file: the id a page's front matter states (in its folder), else its path under the docs
    folder without the extension, number prefixes left out as Docusaurus does."""
    index: dict[str, str] = {}
    for path in paths:
        rel = PurePosixPath(path[len(docs) + 1 :] if docs else path)
        if rel.suffix.lower() not in _EXTENSIONS:
            continue
        plain = rel.with_suffix("").as_posix()
        stripped = "/".join(_NUMBER_PREFIX.sub("", part) for part in PurePosixPath(plain).parts)
        stated = _stated_id(root, path)
        folder = rel.parent.as_posix()
        named = [f"{folder}/{stated}" if folder != "." else stated] if stated else []
        for key in (*named, plain, stripped):
            index.setdefault(key, path)
    return index


def _stated_id(root: Path, path: str) -> str:
    """The `id:` of a page's front matter ("" when it states none)."""
    return stated_field(read_or_none(root, path, max_bytes=SIDEBAR_BYTES) or "", "id")


# --------------------------------------------------------------------------- VitePress


def vitepress_order(root: Path, paths: Sequence[str], docs: str) -> list[str]:
    """The pages `.vitepress/config.*`'s `sidebar` links to, in its order (VitePress's source folder is the
    one that holds `.vitepress`)."""
    for folder in dict.fromkeys([docs, ""]):
        for name in ("config.ts", "config.mts", "config.js", "config.mjs"):
            config = f"{folder}/.vitepress/{name}" if folder else f".vitepress/{name}"
            source = read_or_none(root, config, max_bytes=SIDEBAR_BYTES)
            if source is None:
                continue
            reader = Reader(tokens(source))
            sidebar = _keyed(reader, "sidebar")
            return list(dict.fromkeys(_vitepress_pages(sidebar, "", set(paths), folder)))
    return []


def _keyed(reader: Reader, key: str) -> Value:
    """The value of the first `key:` in the file (a name bound in the file followed)."""
    for i, token in enumerate(reader.tokens):
        if token.text == key and token.kind in ("name", "string") and reader._at(i + 1, ":"):
            return reader.value_at(i + 2)[0]
    return DYNAMIC


def _vitepress_pages(value: Value, base: str, known: set[str], src: str) -> Iterator[str]:
    if isinstance(value, list):
        for item in value:
            yield from _vitepress_pages(item, base, known, src)
    elif isinstance(value, dict):
        if isinstance(value.get("base"), str):
            base = str(value["base"])
        if isinstance(value.get("link"), str):
            found = _linked(base, str(value["link"]), known, src)
            if found:
                yield found
        if "items" in value:
            yield from _vitepress_pages(value["items"], base, known, src)
        elif "link" not in value and "text" not in value:  # `{ '/guide/': [...] }`: one sidebar per path
            for item in value.values():
                yield from _vitepress_pages(item, base, known, src)


def _linked(base: str, link: str, known: set[str], src: str) -> str:
    """The file a sidebar link opens, or "" (an external link, or a page not in the repository)."""
    if "://" in link or link.startswith(("mailto:", "#")):
        return ""
    target = link.split("#", 1)[0].split("?", 1)[0]
    if not target.startswith("/"):
        target = base.rstrip("/") + "/" + target
    target = target.strip("/").removesuffix(".html").removesuffix(".md")
    stem = f"{src}/{target}" if src else target
    candidates = [f"{stem}.md", f"{stem}/index.md"] if target else [f"{src}/index.md" if src else "index.md"]
    return next((c for c in candidates if c in known), "")


def sidebar_order(root: Path, paths: Sequence[str], docs: str) -> list[str]:
    """Docusaurus's sidebar, else VitePress's: the pages in the order the docs' sidebar shows them."""
    return docusaurus_order(root, paths, docs) or vitepress_order(root, paths, docs)
