"""A Rust workspace's flows open in the crate a user works with (facts/crates.py): the one its README's code
names, else the one most of the other packages depend on — never a derive-macro or demo crate beside it."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository


def _rust_steps(count: int) -> str:
    return "".join(f"    let step{i} = {i};\n" for i in range(count))


def _workspace(readme: str) -> dict[str, str]:
    example = '[package]\nname = "example-{0}"\n\n[dependencies]\nweb = {{ path = "../../web" }}\n'
    return {
        "Cargo.toml": '[workspace]\nmembers = ["web", "web-macros", "web-demo"]\n',
        "README.md": readme,
        "web/Cargo.toml": '[package]\ndescription = "A web framework"\nname = "web"\n\n[dependencies]\nweb-macros = "1"\n',
        "web/src/lib.rs": (
            "pub struct Router {}\n\nimpl Router {\n"
            "    pub fn call(&self, path: &str) -> usize {\n        self.find(path)\n    }\n\n"
            f"    fn find(&self, path: &str) -> usize {{\n{_rust_steps(6)}        0\n    }}\n}}\n"
        ),
        "web-macros/Cargo.toml": '[package]\nkeywords = ["web"]\nname = "web-macros"\n\n[lib]\nproc-macro = true\n',
        "web-macros/src/lib.rs": (
            "pub fn derive_handler(input: String) -> String {\n    expand(input)\n}\n\n"
            f"fn expand(input: String) -> String {{\n{_rust_steps(30)}    fields(input)\n}}\n\n"
            f"fn fields(input: String) -> String {{\n{_rust_steps(30)}    input\n}}\n"
        ),
        "web-demo/Cargo.toml": '[package]\nname = "web-demo"\n',
        "web-demo/src/lib.rs": f"pub fn run_demo() -> usize {{\n{_rust_steps(40)}    0\n}}\n",
        "examples/hello/Cargo.toml": example.format("hello"),
        "examples/hello/src/main.rs": "fn main() {}\n",
        "examples/chat/Cargo.toml": example.format("chat"),
        "examples/chat/src/main.rs": "fn main() {}\n",
    }


def _first_entry(tmp_path: Path, files: dict[str, str]) -> tuple[str, str]:
    write_tree(tmp_path, files)
    facts = extract_facts(tmp_path, map_repository(tmp_path))
    assert facts.calls is not None
    return facts.calls.entries()[0]


def test_a_workspace_opens_in_the_crate_its_readme_uses(tmp_path: Path) -> None:
    readme = '# web\n\n```rust\nuse web::Router;\n\nlet hits = Router {}.call("/");\n```\n'
    assert _first_entry(tmp_path, _workspace(readme)) == ("web/src/lib.rs", "Router.call")


def test_a_workspace_whose_readme_names_no_crate_opens_in_the_one_most_others_depend_on(
    tmp_path: Path,
) -> None:
    assert _first_entry(tmp_path, _workspace("# web\n\nA web framework.\n"))[0] == "web/src/lib.rs"
