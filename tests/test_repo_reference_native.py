"""The Configuration and Data model pages of C and Rust repositories (reference/build.py with the facts'
fields, reference/settings.py, clap flags in reference/flags.py): records with their fields, environment
variables, command-line flags and build settings, each cited at the line that declares it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.reference.flags import cli_flags
from generator.repo.reference.settings import cargo_features, cmake_options, overridable_macros
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

RUST = {
    "Cargo.toml": (
        '[package]\nname = "kv"\nversion = "0.1.0"\n\n[features]\ndefault = ["tls"]\n'
        'tls = ["dep:rustls"]\notel = []\n'
    ),
    "src/main.rs": (
        "use clap::Parser;\n\n"
        "#[derive(Parser, Debug)]\nstruct Cli {\n    /// The port to listen on\n"
        "    #[arg(long, default_value_t = 6379)]\n    port: u16,\n\n"
        '    #[arg(short, long = "host-name")]\n    host: String,\n\n    /// A positional key\n    key: String,\n}\n\n'
        "fn main() {\n    let cli = Cli::parse();\n"
        '    let dir = std::env::var("KV_DATA_DIR").ok();\n    kv::serve(cli.port);\n}\n'
    ),
    "build.rs": 'fn main() {\n    let out = std::env::var("OUT_DIR").unwrap();\n}\n',
    "benches/put.rs": 'fn bench() {\n    let url = std::env::var("BENCH_URL").unwrap();\n}\n',
    "src/error.rs": (
        "#[derive(Debug, thiserror::Error)]\npub enum Error {\n    Io(std::io::Error),\n    Closed,\n}\n\n"
        "pub struct Failure {\n    pub error: Error,\n}\n"
    ),
    "src/frame.rs": (
        "/// A frame of the protocol.\n#[derive(Clone, Debug, Serialize)]\npub enum Frame {\n"
        "    Simple(String),\n    Bulk(Bytes),\n    Null,\n}\n\n"
        "/// One stored value.\npub struct Entry {\n    /// The bytes stored.\n    pub data: Bytes,\n"
        "    /// When it expires.\n    #[serde(skip)]\n"
        "    expires_at: Option<Instant>,\n}\n"
    ),
}

C = {
    "CMakeLists.txt": 'project(tiny C)\noption(ENABLE_TLS "Build the TLS transport" OFF)\n',
    "tiny.h": (
        "#ifndef TINY_H\n#define TINY_H\n\n/* How deeply nested a reply may be. */\n"
        "#ifndef TINY_MAX_DEPTH\n#define TINY_MAX_DEPTH 7\n#endif\n\n"
        "/* The reply object. */\ntypedef struct tinyReply {\n    int type; /* TINY_REPLY_* */\n"
        "    char *str;\n    struct tinyReply **element;\n} tinyReply;\n#endif\n"
    ),
    "tiny.c": (
        '#include "tiny.h"\n\nvoid tiny_init(void) {\n    const char *home = getenv("TINY_HOME");\n}\n'
    ),
}


def _pages(tmp_path: Path, files: dict[str, str]) -> tuple[Path, str]:
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    return result.study.harvest_dir, result.synthesis.revision


def test_a_rust_crate_has_its_records_flags_environment_and_features(tmp_path: Path) -> None:
    directory, _ = _pages(tmp_path, RUST)
    model = read_page(directory / "reference" / "data-model.md")[1]
    assert "## `Frame`" in model and "*enum deriving Serialize*" in model  # its variants, typed by payload
    assert "`Simple`" in model and "| `Bytes` |" in model
    assert (
        "## `Entry`" in model
        and "The bytes stored." in model
        and "When it expires." in model
        and "<code>Option&lt;Instant&gt;</code>" in model
    )
    assert "## `Error`" not in model  # an error enum is no record of the program's data
    config = read_page(directory / "reference" / "configuration.md")[1]
    assert "`KV_DATA_DIR`" in config
    assert "OUT_DIR" not in config and "BENCH_URL" not in config  # Cargo's build script, a benchmark
    assert "`--port`" in config and "`6379`" in config and "The port to listen on" in config
    assert "`--host-name`" in config and "--key" not in config  # a positional argument is no flag
    assert "## Cargo features" in config and "| `tls` | `on` | enables dep:rustls |" in config
    assert "| `otel` | `off` |" in config


def test_a_c_library_has_its_structs_environment_cmake_options_and_overridable_macros(tmp_path: Path) -> None:
    directory, _ = _pages(tmp_path, C)
    model = read_page(directory / "reference" / "data-model.md")[1]
    assert "## `tinyReply`" in model
    assert (
        "| `char*` |" in model
        and "| `struct tinyReply**` |" in model
        and "| `int` | — | TINY\\_REPLY\\_\\*. |" in model
    )
    config = read_page(directory / "reference" / "configuration.md")[1]
    assert "`TINY_HOME`" in config
    assert "## CMake options" in config and "| `ENABLE_TLS` | `OFF` | Build the TLS transport |" in config
    assert "| `TINY_MAX_DEPTH` | `7` | How deeply nested a reply may be. |" in config
    assert "`TINY_H`" not in config  # an include guard defines no value


def test_build_setting_readers() -> None:
    assert [(s.name, s.default) for s in cmake_options('option(A "x" ON)\n  OPTION(B "y")\n')] == [
        ("A", "ON"),
        ("B", ""),
    ]
    assert [
        (s.name, s.default) for s in cargo_features('[features]\ndefault = ["a"]\na = []\nb = ["a"]\n')
    ] == [
        ("a", "on"),
        ("b", "off"),
    ]
    assert [
        s.name
        for s in overridable_macros("#ifndef GUARD_H\n#define GUARD_H\n#ifndef N\n#define N 3\n#endif\n")
    ] == ["N"]
    shims = (
        "#ifndef LOCKABLE\n#define LOCKABLE ATTRIBUTE(lockable)\n#endif\n#ifndef FALL\n#define FALL \\\n  x\n"
    )
    found = overridable_macros(
        shims + '#endif\n#ifndef NAME\n#define NAME "kv"\n#endif\n#ifndef BIG\n#define BIG (1<<30)\n'
    )
    assert [s.name for s in found] == ["NAME", "BIG"]  # a portability shim is no setting


def test_clap_flags_skip_subcommands_and_read_help_and_defaults() -> None:
    text = (
        "#[derive(Parser)]\nstruct Opts {\n    #[command(subcommand)]\n    cmd: Cmd,\n"
        '    #[clap(long, help = "Depth to descend")]\n    max_depth: Option<usize>,\n'
        "    #[arg(short = 'j', long, default_value = \"4\")]\n    pub threads: usize,\n}\n"
    )
    flags = cli_flags(text, "rust")
    assert [(f.name, f.default, f.help, f.command) for f in flags] == [
        ("--max-depth", "", "Depth to descend", "Opts"),
        ("--threads", "4", "", "Opts"),
    ]


JVM = {
    "settings.gradle.kts": 'rootProject.name = "tinyio"\n',
    "src/main/java/io/tiny/Source.java": (
        "package io.tiny;\n\n/** Supplies a stream of bytes. */\npublic interface Source {\n"
        "  /** Reads up to count bytes into the sink. */\n  long read(Buffer sink, long count);\n\n"
        "  /** Closes this source. */\n  void close();\n\n"
        "  /** Reads everything: an implementation need not provide it. */\n"
        "  default long readAll(Buffer sink) { return read(sink, Long.MAX_VALUE); }\n\n"
        "  static Source empty() { return null; }\n}\n"
    ),
    "src/main/java/io/tiny/TypeAdapter.java": (
        "package io.tiny;\n\n/** Converts values to and from bytes. */\npublic abstract class TypeAdapter<T> {\n"
        "  /** Writes one value. */\n  public abstract void write(Buffer out, T value);\n\n"
        "  /** Writes a value and returns the buffer. */\n  public final Buffer toBuffer(T value) { return null; }\n}\n"
    ),
    "src/main/java/io/tiny/Buffer.java": (
        "package io.tiny;\n\n/** A collection of bytes. */\npublic final class Buffer implements Source {\n"
        "  public long read(Buffer sink, long count) { return 0; }\n  public void close() {}\n}\n"
    ),
    "src/main/kotlin/io/tiny/Sink.kt": (
        "package io.tiny\n\n/** Receives a stream of bytes. */\ninterface Sink {\n"
        "  /** Appends count bytes from source. */\n  fun write(source: Buffer, count: Long)\n\n"
        "  /** Flushes what is buffered. */\n  fun flush() {}\n}\n"
    ),
}


def test_java_and_kotlin_interfaces_and_abstract_classes_are_extension_points(tmp_path: Path) -> None:
    """okio's `Source` and `Sink`, javalin's `Handler`, gson's `TypeAdapter`: a Java or Kotlin repository had
    no Extension points page (the reference read no JVM language); an implementation provides the interface's
    own methods, never its `default` or `static` ones, and an abstract class's `abstract` ones."""
    directory, _ = _pages(tmp_path, JVM)
    page = read_page(directory / "reference" / "extension-points.md")[1]
    assert "## `Source`" in page and "## `TypeAdapter`" in page and "## `Sink`" in page
    source = page.split("## `Source`")[1].split("\n## ")[0]
    assert "`read`" in source and "`close`" in source and "readAll" not in source and "`empty`" not in source
    adapter = page.split("## `TypeAdapter`")[1].split("\n## ")[0]
    assert "`write`" in adapter and "toBuffer" not in adapter
    sink = page.split("## `Sink`")[1].split("\n## ")[0]
    assert "`write`" in sink and "flush" not in sink
    assert "## `Buffer`" not in page  # a final class is nobody's to extend


JVM_RECORDS = {
    "settings.gradle.kts": 'rootProject.name = "tinyweb"\n',
    "src/main/java/io/tiny/Limits.java": (
        "package io.tiny;\n\n/** Limits on what a request may hold. */\npublic class Limits {\n"
        "  public static final int DEFAULT_DEPTH = 1000;\n\n"
        "  /** How deeply a document may nest. */\n  private final int maxDepth = DEFAULT_DEPTH;\n\n"
        "  /** The longest string read. */\n  protected long maxStringLength;\n\n"
        "  public int depth() {\n    int local = 3;\n    return maxDepth + local;\n  }\n}\n"
    ),
    "src/main/java/io/tiny/Point.java": "package io.tiny;\n\n/** A point. */\npublic record Point(int x, int y) {}\n",
    "src/main/kotlin/io/tiny/Cookie.kt": (
        "package io.tiny\n\n/** An HTTP cookie. */\ndata class Cookie(\n"
        "    /** The cookie's name. */\n    val name: String,\n"
        '    val path: String = "/",\n    var maxAge: Int = -1,\n) {\n  fun expired() = maxAge == 0\n}\n\n'
        '/** A header. */\ndata class Header(val key: String, val value: String = "")\n'
    ),
}


def test_java_and_kotlin_classes_records_and_data_classes_are_records_with_their_fields(
    tmp_path: Path,
) -> None:
    """javalin's `Cookie` data class, okio's `Path`, a Java class's instance fields: a JVM repository had no
    Data model (or a vendored C header's structs as its only records)."""
    directory, _ = _pages(tmp_path, JVM_RECORDS)
    page = read_page(directory / "reference" / "data-model.md")[1]
    limits = page.split("## `Limits`")[1].split("\n## ")[0]
    assert (
        "`maxDepth`" in limits and "| `int` | `DEFAULT_DEPTH` | How deeply a document may nest. |" in limits
    )
    assert (
        "`maxStringLength`" in limits and "DEFAULT_DEPTH` | `int`" not in limits and "`local`" not in limits
    )
    point = page.split("## `Point`")[1].split("\n## ")[0]
    assert "`x`" in point and "`y`" in point and point.count("| `int` |") == 2
    cookie = page.split("## `Cookie`")[1].split("\n## ")[0]
    assert (
        "*data class*" in cookie and "`name`" in cookie and "| `String` | — | The cookie's name. |" in cookie
    )
    assert '| `String` | `"/"` |' in cookie and "`maxAge`" in cookie and "| `Int` | `-1` |" in cookie
    header = page.split("## `Header`")[1].split("\n## ")[0]
    assert "`key`" in header and "`value`" in header and header.count("| `String` |") == 2


NATIVE_EXTENSIONS = {
    "Cargo.toml": '[package]\nname = "par"\nversion = "0.1.0"\n',
    "src/lib.rs": (
        "//! Parallel folds.\n\npub mod fold;\n\npub use fold::Folder;\n"
        "/// A log sink.\npub trait Sink: Send {\n    /// Writes one record.\n    fn write(&self, record: &str);\n\n"
        "    /// Flushes what is buffered.\n    fn flush(&self) {}\n}\n\n"
        "/// Marks a type safe to share.\npub trait Marker {}\n\n"
        "pub struct Stdout;\nimpl Sink for Stdout {\n    fn write(&self, record: &str) {}\n}\n\n"
        "pub struct Stderr;\nimpl Sink for Stderr {\n    fn write(&self, record: &str) {}\n}\n"
    ),
    "src/fold.rs": (
        "/// The `Folder` trait encapsulates the standard fold\n/// operation.\npub trait Folder<Item>: Sized {\n"
        "    /// The type of result that will ultimately be produced.\n    type Result;\n\n"
        "    /// Consume next item and return new sequential state.\n"
        "    fn consume(self, item: Item) -> Self;\n\n"
        "    /// Finish consuming items.\n    fn complete(self)\n        -> Self::Result\n    where\n"
        "        Self: Sized;\n\n"
        "    /// Hint whether to stop.\n    fn full(&self) -> bool {\n        false\n    }\n}\n"
    ),
}

CPP_EXTENSIONS = {
    "CMakeLists.txt": "project(tinylog CXX)\n",
    "include/tinylog/sink.h": (
        "#pragma once\n#include <string>\n\nnamespace tinylog {\n\n/// A destination for messages.\n"
        "class sink {\npublic:\n    virtual ~sink() = default;\n"
        "    /// Writes one message.\n    virtual void log(const std::string &msg) = 0;\n"
        "    virtual void flush() = 0;\n    /// Sets the level.\n    virtual void set_level(int level) { level_ = level; }\n\n"
        "private:\n    int level_ = 0;\n};\n\n/// A sink that drops everything.\nclass null_sink : public sink {\npublic:\n"
        "    void log(const std::string &msg) override {}\n    void flush() override {}\n};\n\n}  // namespace tinylog\n"
    ),
}


def test_rust_traits_and_cpp_abstract_classes_are_extension_points(tmp_path: Path) -> None:
    """rayon's `Producer`/`Consumer`, log's `Log`, spdlog's sinks, Catch2's `IEventListener`, leveldb's `Env`:
    native code had no extension points (its records only). An implementation provides a trait's required
    methods (a signature ending in `;`, one spanning lines included), not its provided ones or associated
    types; a C++ class's pure virtual methods, not a virtual method with a body; a trait requiring nothing
    and a class with no pure method are no extension points."""
    directory, _ = _pages(tmp_path, NATIVE_EXTENSIONS)
    page = read_page(directory / "reference" / "extension-points.md")[1]
    sink = page.split("## `Sink`")[1].split("\n## ")[0]
    assert "*trait*" in sink and "`write`" in sink and "Writes one record." in sink and "flush" not in sink
    assert "2 types implement it" in sink  # a trait is implemented, not extended by classes
    folder = page.split("## `Folder`")[1].split("\n## ")[0]
    assert (
        "`consume`" in folder and "`complete`" in folder and "`full`" not in folder and "Result" not in folder
    )
    assert "The Folder trait encapsulates the standard fold operation." in folder
    assert "## `Marker`" not in page
    directory, _ = _pages(tmp_path / "cpp", CPP_EXTENSIONS)
    page = read_page(directory / "reference" / "extension-points.md")[1]
    cpp = page.split("## `tinylog.sink`")[1].split("\n## ")[0]
    assert "*abstract base class*" in cpp and "`log`" in cpp and "`flush`" in cpp and "set_level" not in cpp
    assert "null_sink" not in page.split("## `tinylog.sink`")[0]


def test_a_cpp_method_declaration_is_no_field_a_function_pointer_is() -> None:
    """cxxopts' `Options` showed `parse`, `add_options`, `help` as fields typed `ParseResult (*)(…)` on the
    Configuration page: every C++ class declaring its methods in a header (Catch2, spdlog, leveldb, fmt,
    CLI11) had its methods in its record's fields. A C struct's function pointer stays a field."""
    from generator.repo.facts.languages import parse_tree
    from generator.repo.facts.native import declared_fields

    source = (
        "struct ops { void (*free_fn)(void *p); int n; };\n"
        "class Options { public: ParseResult parse(int argc, char **argv); int *get(); Options &allow(bool b);\n"
        "  virtual void log() = 0; std::string name; int x, *y; };\n"
    )
    found = []

    def walk(node: Any) -> None:
        if node.type in {"struct_specifier", "class_specifier"} and node.child_by_field_name("body"):
            found.append(declared_fields(node, "cpp"))
        for child in node.children:
            walk(child)

    walk(parse_tree("cpp", source).root_node)
    assert found == [
        [("free_fn", "void (*)(…)", 1), ("n", "int", 1)],
        [("name", "std::string", 3), ("x", "int", 3), ("y", "int*", 3)],
    ]
