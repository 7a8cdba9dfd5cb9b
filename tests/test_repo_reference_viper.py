"""Environment variables a Go program reads through spf13/viper: ko's `KO_DEFAULTBASEIMAGE` is the key
`defaultBaseImage` of an instance with `SetEnvPrefix("KO")` and `AutomaticEnv()`, never written whole in the
code, so the Configuration page listed only the literal `os.Getenv` reads."""

from __future__ import annotations

import re
from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.model import Symbol
from generator.repo.reference.viper import viper_env
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

_LINK = re.compile(r"\]\(https://[^)]*\)")

OPTIONS = """package options

import (
	"os"
	"strings"

	"github.com/spf13/viper"
)

const defaultBase = "cgr.dev/chainguard/static:latest"

// Load reads the options from defaults, the environment and the config file.
func Load() (string, error) {
	v := viper.New()
	v.SetDefault("defaultBaseImage", defaultBase)
	v.SetEnvPrefix("SHOP")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	if dir := os.Getenv("SHOP_CONFIG_PATH"); dir != "" {
		v.AddConfigPath(dir)
	}
	platforms := v.GetStringSlice("defaultPlatforms")
	port := v.GetInt("server.port")
	_ = v.BindEnv("auth", "SHOP_TOKEN", "GITHUB_TOKEN")
	return v.GetString("defaultBaseImage") + v.GetString("auth"), nil
}

// FromFile reads a file-only config: its keys are no environment variables.
func FromFile() string {
	v := viper.New()
	v.SetConfigName("shop")
	v.BindEnv("region")
	return v.GetString("theme") + v.GetString("region")
}
"""


def _symbols(text: str) -> list[Symbol]:
    lines = text.splitlines()
    starts = [n for n, line in enumerate(lines, 1) if line.startswith("func ")]
    ends = [n for n, line in enumerate(lines, 1) if line == "}"]
    return [Symbol(f"f{i}", "function", s, e) for i, (s, e) in enumerate(zip(starts, ends, strict=True))]


def test_a_viper_instance_reading_the_environment_names_its_keys_as_variables() -> None:
    """`AutomaticEnv` makes every key the instance reads or defaults `PREFIX_KEY` upper-cased, through its
    key replacer; `BindEnv("key", "NAME", …)` names them; the default is what `SetDefault` gives (through a
    constant). Another instance in another function with no `AutomaticEnv` reads only what it binds."""
    rows = {name: (default, line) for name, default, line in viper_env(OPTIONS, _symbols(OPTIONS))}
    lines = OPTIONS.splitlines()
    assert rows["SHOP_DEFAULTBASEIMAGE"][0] == '"cgr.dev/chainguard/static:latest"'
    assert 'GetString("defaultBaseImage")' in lines[rows["SHOP_DEFAULTBASEIMAGE"][1] - 1]
    assert rows["SHOP_DEFAULTPLATFORMS"][0] == ""
    assert 'GetStringSlice("defaultPlatforms")' in lines[rows["SHOP_DEFAULTPLATFORMS"][1] - 1]
    assert 'GetInt("server.port")' in lines[rows["SHOP_SERVER_PORT"][1] - 1]
    # the names bound, and the key's own name too: viper looks at both
    assert "SHOP_TOKEN" in rows and "GITHUB_TOKEN" in rows and "SHOP_AUTH" in rows
    # the file-only instance: `theme` is no variable, `region` is bound with no prefix of its own
    assert "THEME" not in rows and "SHOP_THEME" not in rows and "REGION" in rows
    assert set(rows) == {
        "SHOP_DEFAULTBASEIMAGE",
        "SHOP_DEFAULTPLATFORMS",
        "SHOP_SERVER_PORT",
        "SHOP_TOKEN",
        "GITHUB_TOKEN",
        "SHOP_AUTH",
        "REGION",
    }


def test_viper_with_no_environment_or_no_viper_names_nothing() -> None:
    """A key read from a config file alone, or a `GetString` of another library, is no variable."""
    file_only = OPTIONS.replace("\tv.AutomaticEnv()\n", "").replace('v.BindEnv("region")', "")
    assert {name for name, _, _ in viper_env(file_only, _symbols(file_only))} == {
        "SHOP_TOKEN",
        "GITHUB_TOKEN",
    }
    other = OPTIONS.replace("github.com/spf13/viper", "example.com/conf")
    assert viper_env(other, _symbols(other)) == []


def test_the_configuration_page_lists_viper_variables_with_defaults(tmp_path: Path) -> None:
    files = {"go.mod": "module example.com/shop\n\ngo 1.22\n", "options/load.go": OPTIONS}
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    page = _LINK.sub("]", read_page(result.study.harvest_dir / "reference" / "configuration.md")[1])
    table = page.split("## Environment variables")[1].split("\n## ")[0]
    assert "| `SHOP_CONFIG_PATH` |" in table  # the literal read stays
    assert '| `SHOP_DEFAULTBASEIMAGE` | `"cgr.dev/chainguard/static:latest"` |' in table
    assert "`SHOP_SERVER_PORT`" in table and "`GITHUB_TOKEN`" in table
    assert "THEME" not in table


def test_a_prefix_the_code_computes_names_no_variable() -> None:
    """cometbft's `viper.SetEnvPrefix(prefix)` with the caller's "CMT": the key `home` is read from
    `CMT_HOME`, never `HOME`, so no name can be told; a name `BindEnv` gives whole still can."""
    computed = OPTIONS.replace('v.SetEnvPrefix("SHOP")', "v.SetEnvPrefix(prefix)")
    names = {name for name, _, _ in viper_env(computed, _symbols(computed))}
    assert names == {"SHOP_TOKEN", "GITHUB_TOKEN", "REGION"}


ROOT_CMD = """package cmd

import (
	"strings"

	"github.com/spf13/viper"
)

func initConfig() {
	viper.SetEnvPrefix("SHOP")
	viper.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	viper.AutomaticEnv()
	viper.SetDefault("log-level", "info")
}
"""

SERVE_CMD = """package cmd

import "github.com/spf13/viper"

func serve() int {
	_ = viper.BindEnv("token")
	return viper.GetInt("listen-port")
}
"""

# another package's global viper, set up nowhere in its own package: only what it binds is a variable
WORKER = """package worker

import "github.com/spf13/viper"

func queue() string {
	_ = viper.BindEnv("region")
	return viper.GetString("queue")
}
"""


def test_the_global_viper_set_up_in_one_file_names_the_keys_its_package_reads(tmp_path: Path) -> None:
    """cobra's shape: cmd/root.go's `initConfig` sets the package-global viper up, cmd/serve.go reads
    `viper.GetInt("listen-port")` — `SHOP_LISTEN_PORT`, at serve.go's line. A package that sets up nothing
    names only what it binds."""
    files = {
        "go.mod": "module example.com/shop\n\ngo 1.22\n",
        "cmd/root.go": ROOT_CMD,
        "cmd/serve.go": SERVE_CMD,
        "worker/queue.go": WORKER,
    }
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    page = _LINK.sub("]", read_page(result.study.harvest_dir / "reference" / "configuration.md")[1])
    table = page.split("## Environment variables")[1].split("\n## ")[0]
    assert '| `SHOP_LOG_LEVEL` | `"info"` | [cmd/root.go:13] |' in table
    assert "| `SHOP_LISTEN_PORT` | — | [cmd/serve.go:7] |" in table
    # a key bound in a file the package's setup does not sit in takes that setup's prefix
    assert "| `SHOP_TOKEN` | — | [cmd/serve.go:6] |" in table and "| `TOKEN` |" not in table
    assert "QUEUE" not in table and "| `REGION` | — | [worker/queue.go:6] |" in table
