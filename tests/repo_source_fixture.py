"""A small multi-language repository (Python, Go, TypeScript, Rust, Java, C) for the facts and pack tests."""

from __future__ import annotations

from pathlib import Path


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path → text) under `root`; returns `root`."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


FIXTURE: dict[str, str] = {
    "app.py": ('import sys\nfrom pkg.core import build\n\nif __name__ == "__main__":\n    build().run()\n'),
    "broken.py": ("def oops(:\n    pass\n"),
    "c/main.c": ('#include "util.h"\n\nint main(void) {\n    return add(1, 2);\n}\n'),
    "c/util.c": (
        '#include "util.h"\n'
        "#include <stdio.h>\n"
        "\n"
        "/* Adds. */\n"
        "int add(int a, int b) {\n"
        "    return a + b;\n"
        "}\n"
        "\n"
        "static int hidden(void) {\n"
        "    return 0;\n"
        "}\n"
    ),
    "c/util.h": ("#ifndef UTIL_H\n#define UTIL_H\nint add(int a, int b);\n#endif\n"),
    "gosvc/go.mod": ("module example.com/svc\n\ngo 1.22\n"),
    "gosvc/lib/lib.go": (
        "package lib\n"
        "\n"
        "// Add adds two numbers.\n"
        "func Add(a, b int) int {\n"
        "\treturn a + b\n"
        "}\n"
        "\n"
        "type Point struct {\n"
        "\tX, Y int\n"
        "}\n"
        "\n"
        "func (p *Point) Norm() int {\n"
        "\treturn p.X\n"
        "}\n"
        "\n"
        "func helper() {}\n"
    ),
    "gosvc/main.go": (
        "// Command svc serves things.\n"
        "package main\n"
        "\n"
        "import (\n"
        '\t"fmt"\n'
        "\n"
        '\t"example.com/svc/lib"\n'
        ")\n"
        "\n"
        "func main() {\n"
        "\tfmt.Println(lib.Add(1, 2))\n"
        "}\n"
    ),
    "java/src/com/acme/App.java": (
        "package com.acme;\n"
        "\n"
        "import com.acme.util.Helper;\n"
        "import java.util.List;\n"
        "\n"
        "/** The application. */\n"
        "public class App {\n"
        "    public static void main(String[] args) {\n"
        "        System.out.println(Helper.help());\n"
        "    }\n"
        "}\n"
    ),
    "java/src/com/acme/util/Helper.java": (
        "package com.acme.util;\n"
        "\n"
        "public class Helper {\n"
        "    /** Helps. */\n"
        "    public static String help() {\n"
        '        return "help";\n'
        "    }\n"
        "\n"
        "    private int hidden() { return 1; }\n"
        "}\n"
    ),
    "pkg/__init__.py": ('"""The pkg package."""\nfrom .core import Engine\n'),
    "pkg/core.py": (
        '"""Core engine.\n'
        "\n"
        "More text.\n"
        '"""\n'
        "from .util import helper\n"
        "from pkg import util\n"
        "\n"
        "\n"
        "class Engine:\n"
        '    """Runs things."""\n'
        "\n"
        "    def run(self) -> int:\n"
        '        """Run once."""\n'
        "        return helper()\n"
        "\n"
        "    def _private(self):\n"
        "        pass\n"
        "\n"
        "\n"
        "def build() -> Engine:\n"
        "    return Engine()\n"
    ),
    "pkg/util.py": ('def helper() -> int:\n    """Help."""\n    return 1\n'),
    "rs/src/main.rs": (
        "mod parser;\n"
        "use crate::parser::parse;\n"
        "\n"
        "/// Program entry.\n"
        "fn main() {\n"
        '    println!("{}", parse("x"));\n'
        "}\n"
    ),
    "rs/src/parser.rs": (
        "//! Parsing helpers.\n"
        "\n"
        "/// Parse a string.\n"
        "pub fn parse(s: &str) -> usize {\n"
        "    s.len()\n"
        "}\n"
        "\n"
        "pub struct Parser {\n"
        "    depth: usize,\n"
        "}\n"
        "\n"
        "impl Parser {\n"
        "    pub fn new() -> Self {\n"
        "        Parser { depth: 0 }\n"
        "    }\n"
        "}\n"
    ),
    "web/comp/index.ts": (
        'export class Widget {\n  name = "w";\n  render(): string {\n    return this.name;\n  }\n}\n'
    ),
    "web/index.ts": (
        'import { greet } from "./util";\n'
        'import { Widget } from "./comp";\n'
        'import React from "react";\n'
        "\n"
        "/** Entry of the web app. */\n"
        "export function start(): void {\n"
        "  greet(new Widget().name);\n"
        "}\n"
    ),
    "web/util.ts": (
        "/** Greets someone. */\n"
        "export const greet = (name: string): string => {\n"
        "  return `hi ${name}`;\n"
        "};\n"
        "\n"
        "function internal() {}\n"
    ),
}
