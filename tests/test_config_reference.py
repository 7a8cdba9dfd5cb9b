"""A docs page whose body is one long commented configuration file (nfpm's configuration.md: a 640-line
`nfpm.yaml`, every option with a comment saying what it does) is the project's configuration reference: its
options reach the page as a table, each key linked to its line, rather than the block being dropped as too
long to show whole."""

from __future__ import annotations

from generator.documents import read_text
from generator.repo.analyze.citations import Linker
from generator.repo.docs.config_reference import config_options
from generator.repo.docs.passages import passages
from generator.site.pages.repo_guide import passage_markdown

_FILLER = "".join(
    f"# Setting {i} tunes one more part of the package.\nsetting_{i}: {i}\n\n" for i in range(30)
)
REFERENCE = (
    "# Name. (required)\n"
    "name: foo\n"
    "\n"
    "# Version Schema says how to parse the version.\n"
    "# Default is `semver`\n"
    "version_schema: semver\n"
    "\n"
    "# Dependencies. (overridable)\n"
    "depends:\n"
    "  - git\n"
    "  - ${DEPENDS_NGINX}\n"
    "\n"
    "# Contents to add to the package\n"
    "contents:\n"
    "  # A file with the type 'tree' copies a whole folder.\n"
    "  - src: some/directory/\n"
    "    dst: /etc # notice the trailing slash\n"
    "    type: tree\n"
    "  - src: other/\n"
    "    dst: /opt\n"
    "  # Files owned by the package but never installed.\n"
    "  - dst: /var/log/boo.log\n"
    "    type: ghost\n"
    "    file_info:\n"
    "      # The mode, in octal.\n"
    "      mode: 0644\n"
    "\n"
    "# Custom configuration applied only to the Deb packager.\n"
    "deb:\n"
    "  # The package is signed if a key_file is set\n"
    "  signature:\n"
    '    # Signature method, either "dpkg-sig" or "debsign". Defaults to "debsign"\n'
    "    method: dpkg-sig\n"
    "    # PGP secret key; its passphrase is read from NFPM_DEB_PASSPHRASE.\n"
    "    key_file: key.gpg\n"
    "  # The rules script.\n"
    "  rules: |\n"
    "    build: all\n"
    "    clean: none\n"
    "scripts:\n"
    "  preinstall: ./scripts/preinstall.sh\n"
    "\n" + _FILLER
)
PAGE = (
    "---\ntitle: Configuration\n---\n\n## Reference\n\nA commented `nfpm.yaml` configuration file example:\n\n"
    f"```yaml\n{REFERENCE}```\n\n## Templating\n\nTemplating is not and will not be supported, use envsubst.\n"
)


def _line(text: str, wanted: str) -> int:
    """The 1-based line of `text` that holds `wanted`."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if wanted in line)


def test_every_option_of_a_commented_config_block_with_its_key_path_comment_default_and_line() -> None:
    options = {o.path: o for o in config_options(REFERENCE, "yaml", 1)}
    assert options["name"].doc == "Name. (required)"
    assert options["name"].line == _line(REFERENCE, "name: foo")
    assert (options["version_schema"].value, options["version_schema"].default) == ("semver", "semver")
    assert options["depends"].value == "git, ${DEPENDS_NGINX}"  # a list's entries are its example
    assert options["deb.signature.method"].default == "debsign"
    assert options["deb.signature.key_file"].line == _line(REFERENCE, "key_file: key.gpg")
    assert options["contents[].file_info.mode"].value == "0644"
    assert options["scripts.preinstall"].value == "./scripts/preinstall.sh"  # no comment, still an option
    # a commented entry of a list is an option of its own, its keys its example; an uncommented one is not
    entries = [o for o in config_options(REFERENCE, "yaml", 1) if o.path == "contents[]"]
    assert [(e.value, e.line) for e in entries] == [
        ("src: some/directory/, dst: /etc, type: tree", _line(REFERENCE, "- src: some/directory/")),
        ("dst: /var/log/boo.log, type: ghost", _line(REFERENCE, "- dst: /var/log/boo.log")),
    ]
    assert "contents[].src" not in options
    # the lines of a block of text are no keys
    assert "deb.rules.build" not in options and "deb.rules" in options
    assert not any(o.default == "extracted" for o in options.values())


def test_a_block_with_few_comments_or_of_another_language_is_no_reference() -> None:
    plain = "\n".join(f"key_{i}: {i}" for i in range(40))
    assert config_options(plain + "\n# Only one note.\nlast: 1\n", "yaml", 1) == ()
    assert config_options(REFERENCE, "python", 1) == ()


def test_the_configuration_page_quotes_the_long_block_as_its_options_each_linked_to_its_line() -> None:
    document = read_text(
        PAGE, name="www/content/docs/configuration.md", origin="www/content/docs/configuration.md"
    )
    quoted = passages(document)
    table = next(p for p in quoted if p.kind == "options")
    assert table.heading == "Reference"
    # the lead-in stays with what it announces
    assert any(p.text.startswith("A commented `nfpm.yaml`") for p in quoted)
    assert len(table.lines) == table.text.count("\n")  # a line for each row below the header
    linker = Linker(
        {"www/content/docs/configuration.md": PAGE.count("\n")}, "a" * 40, "https://github.com/o/r"
    )
    shown = passage_markdown(table, linker)
    key = _line(PAGE, "key_file: key.gpg")
    assert (
        f"[`deb.signature.key_file`](https://github.com/o/r/blob/{'a' * 40}/www/content/docs/configuration.md#L{key})"
        in shown
    )
    assert "| `dpkg-sig` | `debsign` | Signature method" in shown
    assert "*Source:*" in shown


def test_a_commented_config_block_short_enough_to_show_or_introduced_is_shown_whole() -> None:
    """A values file a setup step tells the reader to write (traefik's kubernetes.md "Create a `values.yaml`
    file with the following content:") is quoted whole, comments and all: the reader copies it."""
    page = f"## Install\n\nCreate a `values.yaml` file with the following content:\n\n```yaml\n{REFERENCE[:2600]}```\n"
    quoted = passages(read_text(page, name="docs/setup.md"))
    assert [p.kind for p in quoted if p.kind in {"code", "options"}] == ["code"]


GQLGEN_LIKE = (
    "# Where should the generated server code go?\n"
    "exec:\n"
    "  package: graph\n"
    '  layout: single-file # Only other option is "follow-schema," ie multi-file.\n'
    "\n"
    "  # Only for follow-schema layout:\n"
    "  # dir: graph\n"
    '  # filename_template: "{name}.generated.go"\n'
    "\n"
    "  # Optional: Maximum number of goroutines in concurrency to use per child resolvers(default: unlimited)\n"
    "  # worker_limit: 1000\n"
    "\n"
    "# Optional: Pass in a path to a new gotpl template to use for generating the models\n"
    "# model_template: [your/path/model.gotpl]\n"
    "\n"
    "# Optional: turn on to use []Thing instead of []*Thing\n"
    "# omit_slice_element_pointers: false\n"
    "\n"
    "# Optional: turn on to omit Is<Name>() methods to interface and unions\n"
    "# omit_interface_checks : true\n"
    "\n"
    "# Optional: set to use -gcflags during validation to disable compiler\n"
    "# optimizations. This makes validation faster. Default: false\n"
    "# fast_validation: false\n"
    "\n"
    "# note: this line is prose about the file, not an option\n"
    "# e.g. type Thing struct { FieldA OtherThing }\n" + _FILLER
)


def test_an_option_the_example_leaves_commented_out_is_an_option_marked_so() -> None:
    """gqlgen's default gqlgen.yml comments out ~20 options (`# worker_limit: 1000` under "# Optional: Maximum
    number of goroutines…"): they are what a reader looks for, and were on no page."""
    options = {o.path: o for o in config_options(GQLGEN_LIKE, "yaml", 1)}
    worker = options["exec.worker_limit"]
    assert (worker.value, worker.commented, worker.line) == (
        "1000",
        True,
        _line(GQLGEN_LIKE, "# worker_limit"),
    )
    assert worker.doc.startswith("Optional: Maximum number of goroutines")
    assert options["exec.dir"].doc == "Only for follow-schema layout:"
    assert options["exec.filename_template"].value == '"{name}.generated.go"'
    assert options["model_template"].value == "[your/path/model.gotpl]"
    assert options["omit_interface_checks"].value == "true"
    assert options["fast_validation"].default == "false"
    assert not options["exec.package"].commented
    # prose that looks like a key is no option
    assert not {"note", "Optional", "Default", "e.g"} & set(options)
    page = f"## Configuration\n\n```yaml\n{GQLGEN_LIKE}```\n"
    table = next(p for p in passages(read_text(page, name="docs/config.md")) if p.kind == "options")
    assert (
        "\nexec.worker_limit | 1000 | unlimited | Commented out in the example. Optional: Maximum"
        in table.text
    )
    # a remark after the value says what the option is when no comment stands above it
    assert options["exec.layout"].doc == 'Only other option is "follow-schema," ie multi-file.'
