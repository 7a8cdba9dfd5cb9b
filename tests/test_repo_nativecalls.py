"""C, C++ and Rust calls (facts/nativecalls.py, facts/native.py): which repository function each call
reaches, the main flow they give, and what the facts read of the types' fields."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.calltree import main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.native import type_name
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts

WORK = "".join(f"    let step{i} = {i};\n" for i in range(10))
C_WORK = "".join(f"    int step{i} = {i};\n" for i in range(10))

SERVER = {
    "Cargo.toml": '[package]\nname = "kv"\n',
    "src/main.rs": (
        "mod server;\nmod cmd;\nmod connection;\n\n"
        "fn main() {\n    let listener = bind();\n    server::run(listener);\n}\n\n"
        "fn bind() -> u16 {\n    6379\n}\n"
    ),
    "src/server.rs": (
        "use crate::connection::Connection;\nuse crate::cmd::Command;\n\n"
        "struct Handler {\n    connection: Connection,\n    db: Db,\n}\n\n"
        "pub struct Db {\n    entries: u32,\n}\n\n"
        "impl Db {\n    pub fn set(&self, key: u32) {\n" + WORK + "    }\n}\n\n"
        "pub fn run(port: u16) {\n    let mut handler = Handler::new(port);\n    handler.run();\n}\n\n"
        "impl Handler {\n    fn new(port: u16) -> Handler {\n        todo!()\n    }\n\n"
        "    fn run(&mut self) {\n        let frame = self.connection.read_frame();\n"
        "        let cmd = Command::from_frame(frame)?;\n        cmd.apply(&self.db);\n    }\n}\n"
    ),
    "src/connection.rs": (
        "pub struct Connection {\n    buffer: Vec<u8>,\n}\n\n"
        "impl<'a> Connection {\n    pub fn read_frame(&mut self) -> u8 {\n" + WORK + "        0\n    }\n}\n"
    ),
    "src/cmd/mod.rs": (
        "mod get;\nmod set;\nuse get::Get;\nuse set::Set;\n\n"
        "pub enum Command {\n    Get(Get),\n    Set(Set),\n}\n\n"
        "impl Command {\n    pub fn from_frame(frame: u8) -> Result<Command, ()> {\n"
        + WORK
        + "        todo!()\n    }\n\n"
        "    pub fn apply(self, db: &Db) {\n        match self {\n"
        "            Command::Get(cmd) => cmd.apply(db),\n            Command::Set(cmd) => cmd.apply(db),\n"
        "        }\n    }\n}\n"
    ),
    "src/cmd/get.rs": "pub struct Get {\n    key: String,\n}\n\nimpl Get {\n    pub fn apply(self, db: &Db) {\n"
    + WORK
    + "    }\n}\n",
    "src/cmd/set.rs": (
        "pub struct Set {\n    key: String,\n}\n\nimpl Set {\n    pub fn apply(self, db: &Db) {\n"
        "        db.set(1);\n    }\n}\n"
    ),
    "build.rs": 'fn main() {\n    println!("cargo:rerun-if-changed=build.rs");\n}\n',
}


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    root = write_tree(tmp_path / "repo", files)
    return extract_facts(root, map_repository(root))


def edges_of(facts: Facts) -> set[tuple[str, str]]:
    assert facts.calls is not None
    return {(e.caller, e.callee) for e in facts.calls.edges()}


def test_rust_calls_reach_module_functions_fields_locals_and_enum_payloads(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, SERVER)
    edges = edges_of(facts)
    assert ("main", "run") in edges  # `server::run`: a function of the module server.rs
    assert ("run", "Handler.new") in edges  # `Handler::new`: an associated function of a type
    assert ("run", "Handler.run") in edges  # a local made by `Handler::new(…)`
    assert ("Handler.run", "Connection.read_frame") in edges  # a field of `self`, its impl generic
    assert ("Handler.run", "Command.from_frame") in edges
    assert ("Handler.run", "Command.apply") in edges  # a local made by `Command::from_frame(…)?`
    # each match arm's binding holds its own variant's payload
    assert ("Command.apply", "Get.apply") in edges and ("Command.apply", "Set.apply") in edges
    assert ("Set.apply", "Db.set") in edges  # a parameter's declared type, `&Db`


def test_rust_main_flow_starts_at_main_not_at_a_build_script_and_reaches_the_work(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, SERVER)
    assert facts.calls is not None
    assert facts.calls.commands == [("src/main.rs", "main")]  # build.rs is Cargo's build script
    line = main_line(facts.calls.tree())
    names = [line[0].caller, *(edge.callee for edge in line)]
    assert names[:3] == ["main", "run", "Handler.run"]
    assert "Command.apply" in names


def test_a_rust_library_crate_opens_at_its_api_not_at_a_binary(tmp_path: Path) -> None:
    files = {**SERVER, "src/lib.rs": "pub mod server;\n"}
    facts = facts_of(tmp_path, files)
    assert facts.calls is not None and facts.calls.commands == []


TRAIT = {
    "src/lib.rs": (
        "pub trait Store {\n    fn put(&self, key: u32);\n}\n\n"
        "pub struct Memory {\n    keys: Vec<u32>,\n}\n\n"
        "impl Store for Memory {\n    fn put(&self, key: u32) {\n" + WORK + "    }\n}\n\n"
        "pub fn save(store: &dyn Store) {\n    store.put(1);\n}\n"
    ),
}


def test_a_call_on_a_trait_object_goes_on_into_the_implementations(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, TRAIT)
    assert facts.calls is not None
    dispatched = {(e.caller, e.callee) for e in facts.calls.calls_of("src/lib.rs", {"save"}, dispatched=True)}
    assert ("save", "Memory.put") in dispatched
    assert ("save", "Memory.put") not in edges_of(facts)  # the tree's only: no ranking counts it


INVOKER = {
    "src/lib.rs": (
        "pub trait Invoke {\n    fn invoke(&self, key: u32) -> u32;\n}\n\n"
        "pub struct Context<'a> {\n    invoker: Arc<dyn Invoke + Send + Sync + 'a>,\n}\n\n"
        "impl<'a> Context<'a> {\n    pub fn send(&self, key: u32) -> u32 {\n        self.invoker.invoke(key)\n    }\n}\n\n"
        "pub struct Client {\n    keys: Vec<u32>,\n}\n\n"
        "impl Invoke for &Client {\n    fn invoke(&self, key: u32) -> u32 {\n"
        + WORK
        + "        0\n    }\n}\n"
    ),
}


def test_a_trait_object_with_bounds_reaches_the_implementation_for_a_reference(tmp_path: Path) -> None:
    """`Arc<dyn Invoke + Send + Sync + 'a>` holds an Invoke (its first bound, not the lifetime), and the
    methods of `impl Invoke for &Client` are Client's: isahc's interceptor context reaches its client."""
    facts = facts_of(tmp_path, INVOKER)
    assert facts.calls is not None
    assert "Client.invoke" in {s.name for s in facts.files["src/lib.rs"].symbols}
    dispatched = {
        (e.caller, e.callee) for e in facts.calls.calls_of("src/lib.rs", {"Context.send"}, dispatched=True)
    }
    assert ("Context.send", "Client.invoke") in dispatched
    assert type_name("&'a mut Arc<dyn Invoke + Send>") == "Invoke"


CLIENT = {
    "client.h": (
        "typedef struct reader {\n    char *buf;\n    int pos;\n} reader;\n\n"
        "typedef struct context {\n    int fd;\n    reader *reader;\n} context;\n\n"
        "void *command(context *c, const char *fmt);\n"
    ),
    "client.c": (
        '#include "client.h"\n\n'
        "static int append(context *c, const char *cmd) {\n" + C_WORK + "    return 0;\n}\n\n"
        "static int get_reply(context *c, void **reply) {\n"
        "    reader *r = c->reader;\n    reader_feed(r, 0);\n    return reader_get_reply(c->reader, reply);\n}\n\n"
        "void *command(context *c, const char *fmt) {\n    void *reply;\n    append(c, fmt);\n"
        "    set_callback(c, on_push);\n    get_reply(c, &reply);\n    return reply;\n}\n\n"
        "static void on_push(void *reply) {\n" + C_WORK + "}\n"
    ),
    "read.c": (
        '#include "client.h"\n\n'
        "int reader_feed(reader *r, int n) {\n" + C_WORK + "    return 0;\n}\n\n"
        "int reader_get_reply(reader *r, void **reply) {\n" + C_WORK + "    return 0;\n}\n\n"
        "void set_callback(context *c, void (*fn)(void *)) {\n}\n"
    ),
}


def test_c_calls_reach_functions_across_files_and_callbacks_handed_by_name(tmp_path: Path) -> None:
    edges = edges_of(facts_of(tmp_path, CLIENT))
    assert ("command", "append") in edges and ("command", "get_reply") in edges
    assert ("get_reply", "reader_feed") in edges and ("get_reply", "reader_get_reply") in edges
    assert ("command", "on_push") in edges  # handed over by name


def test_a_self_test_main_built_on_request_does_not_open_a_c_librarys_flow(tmp_path: Path) -> None:
    """A `main` compiled only when a build defines a macro (`#ifdef SDS_TEST_MAIN`) is a self-test driver:
    the flow opens at the API; a platform split's `main` (`#ifdef WIN32 … #else`) and one a build may
    switch off (`#ifndef NO_MAIN`) stay programs."""
    buffer = (
        "int buf_test(void) {\n" + C_WORK + "    return 0;\n}\n\n"
        "#ifdef BUF_TEST_MAIN\nint main(void) {\n    return buf_test();\n}\n#endif\n"
    )
    facts = facts_of(tmp_path, {**CLIENT, "buf.c": buffer})
    assert facts.calls is not None and facts.calls.commands == []
    line = main_line(facts.calls.tree())
    assert [line[0].caller, line[0].callee] == ["command", "get_reply"]

    from generator.repo.facts.languages import extract

    split = "#ifdef WIN32\nint wmain(void) {\n    return 0;\n}\n#else\nint main(void) {\n    return 0;\n}\n#endif\n"
    assert extract("c", split).has_main
    assert extract("c", "#ifndef NO_MAIN\nint main(void) {\n    return 0;\n}\n#endif\n").has_main
    assert not extract("c", buffer).has_main
    assert not extract("c", "#if defined(SELFTEST)\nint main(void) {\n    return 0;\n}\n#endif\n").has_main


def test_c_struct_fields_are_read_with_their_types(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, CLIENT)
    fields = facts.files["client.h"].fields
    assert [(name, kind) for name, kind, _ in fields["context"]] == [("fd", "int"), ("reader", "reader*")]


LOGGER = {
    "include/log/sink.h": (
        "namespace log {\nclass LOG_API sink {\npublic:\n    virtual ~sink() = default;\n"
        "    void log(const msg &m) { sink_it_(m); }\nprotected:\n    virtual void sink_it_(const msg &m) = 0;\n"
        "};\n}\n"
    ),
    "include/log/logger.h": (
        '#include <vector>\n#include "sink.h"\nnamespace log {\nclass LOG_API logger {\npublic:\n'
        "    void info(const char *text);\nprotected:\n    void log_it_(const msg &m);\n"
        "    std::vector<sink_ptr> sinks_;\n    std::shared_ptr<sink> first_;\n};\n}\n"
    ),
    "src/logger.cpp": (
        '#include "log/logger.h"\nnamespace log {\n'
        "void logger::info(const char *text) {\n    log_it_(msg(text));\n}\n\n"
        "void logger::log_it_(const msg &m) {\n    for (auto &s : sinks_) {\n        s->log(m);\n    }\n"
        "    first_->log(m);\n}\n}\n"
    ),
    "src/file_sink.cpp": (
        '#include "log/sink.h"\nnamespace log {\nclass file_sink : public sink {\nprotected:\n'
        "    void sink_it_(const msg &m) override {\n" + C_WORK + "    }\n};\n}\n"
    ),
}


def test_cpp_methods_defined_outside_their_class_calls_through_members_and_pure_virtuals(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, LOGGER)
    symbols = {s.name: s for s in facts.files["src/logger.cpp"].symbols}
    # `void logger::info(…)` is the class's method, inside its namespace; the export macro is no name
    assert symbols["log.logger.info"].kind == "method" and symbols["log.logger.info"].parent == "log.logger"
    assert "log.logger" in {s.name for s in facts.files["include/log/logger.h"].symbols}
    edges = edges_of(facts)
    assert ("log.logger.info", "log.logger.log_it_") in edges  # a member called without `this->`
    assert ("log.logger.log_it_", "log.sink.log") in edges  # a loop over a member's elements, a smart pointer
    assert facts.calls is not None
    below = facts.calls.calls_of("include/log/sink.h", {"log.sink.sink_it_"}, dispatched=True)
    assert [(e.callee_path, e.callee) for e in below] == [("src/file_sink.cpp", "log.file_sink.sink_it_")]


def test_a_cpp_header_is_read_as_cpp() -> None:
    from generator.repo.facts.languages import extract

    found = extract("c", "namespace kit {\nclass Box {\npublic:\n    int size() { return 1; }\n};\n}\n")
    assert [s.name for s in found.symbols] == ["kit", "kit.Box", "kit.Box.size"]


def test_type_names_peel_wrappers_references_and_paths() -> None:
    assert type_name("&'a mut Arc<Mutex<State>>") == "State"
    assert type_name("std::unique_ptr<formatter>") == "formatter"
    assert type_name("const struct redis_reader *") == "redis_reader"
    assert type_name("std::vector<sink_ptr>", element=True) == "sink_ptr"
    assert type_name("std::vector<sink_ptr>") == "vector"


# attohttpc's shape: a builder's `send` prepares the request and sends what `try_prepare` returns, a client
# made through its builder (`Self::builder().add_server(t)?.build()`), a local holding a method's result
BUILT = {
    "Cargo.toml": '[package]\nname = "fetch"\n',
    "src/lib.rs": (
        "pub struct RequestBuilder {\n    url: String,\n}\n\n"
        "pub struct PreparedRequest {\n    url: String,\n}\n\n"
        "pub struct Response {\n    status: u16,\n}\n\n"
        "impl RequestBuilder {\n"
        "    /// Builds the request.\n"
        "    pub fn builder() -> RequestBuilder {\n        todo!()\n    }\n\n"
        "    pub fn header(self, name: &str) -> Result<Self, String> {\n        Ok(self)\n    }\n\n"
        "    pub fn try_prepare(self) -> Result<PreparedRequest<'static>, String> {\n        todo!()\n    }\n\n"
        "    pub fn send(self) -> Result<Response, String> {\n        self.try_prepare()?.send()\n    }\n\n"
        "    pub fn status(self) -> u16 {\n"
        '        let built = Self::builder().header("a")?;\n'
        "        let prepared = built.try_prepare()?;\n        prepared.send().unwrap().code()\n    }\n}\n\n"
        "impl PreparedRequest {\n    pub fn send(&mut self) -> Result<Response, String> {\n"
        + WORK
        + "        todo!()\n    }\n}\n\n"
        "impl Response {\n    pub fn code(&self) -> u16 {\n        self.status\n    }\n}\n"
    ),
}


def test_a_rust_call_on_what_a_method_returns_reaches_the_returned_types_method(tmp_path: Path) -> None:
    """`self.try_prepare()?.send()`: `send` is the method of the type `try_prepare` declares it returns
    (`Result<PreparedRequest<'static>, String>`), not unresolved; so is a local holding such a result, and a
    chain through `Self`."""
    edges = edges_of(facts_of(tmp_path, BUILT))
    assert ("RequestBuilder.send", "PreparedRequest.send") in edges
    assert ("RequestBuilder.status", "RequestBuilder.try_prepare") in edges  # `Self::builder().header(…)?`
    assert ("RequestBuilder.status", "PreparedRequest.send") in edges  # `let prepared = built.try_prepare()?`
