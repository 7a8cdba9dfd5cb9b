"""A C# repository's Configuration, Data model and Extension points pages: its options classes with their
properties, its records, its interfaces and abstract classes (serilog's `ILogEventSink`, Polly's
`RetryStrategyOptions` and `ResilienceStrategy`), each property with what its XML doc comment says."""

from __future__ import annotations

import re
from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

_LINK = re.compile(r"\]\(https://[^)]*\)")


def _page(path: Path) -> str:
    """A page's body with its permalinks dropped: `[`Name`]` stands for the linked name."""
    return _LINK.sub("]", read_page(path)[1])


CSHARP = {
    "Tiny.sln": "",
    "src/Tiny/Tiny.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>\n',
    "src/Tiny/ISink.cs": (
        "namespace Tiny;\n\n/// <summary>\n/// A destination for events.\n/// </summary>\npublic interface ISink\n{\n"
        "    /// <summary>\n    /// Emit the event to the sink.\n    /// </summary>\n"
        "    void Emit(Event e);\n}\n"
    ),
    "src/Tiny/Strategy.cs": (
        "namespace Tiny;\n\n/// <summary>\n/// The base of every strategy.\n/// </summary>\n"
        '[SuppressMessage("Design", "CA1000")]\npublic abstract class Strategy\n{\n'
        "    /// <summary>\n    /// Runs the callback under the strategy.\n    /// </summary>\n"
        "    protected abstract int ExecuteCore(int input);\n\n"
        "    /// <summary>\n    /// Runs it.\n    /// </summary>\n"
        "    public int Execute(int input) => ExecuteCore(input);\n}\n"
    ),
    "src/Tiny/RetryOptions.cs": (
        "namespace Tiny;\n\n/// <summary>\n/// Represents the options used to configure a retry.\n/// </summary>\n"
        "public class RetryOptions\n{\n"
        "    public const int MaxCount = 100;\n\n"
        "    public static RetryOptions Shared { get; } = new();\n\n"
        "    /// <summary>\n    /// Gets or sets the maximum number of retries.\n    /// </summary>\n"
        "    /// <value>\n    /// The default value is 3 retries.\n    /// </value>\n"
        "    [Range(1, MaxCount)]\n    public int MaxRetryAttempts { get; set; } = 3;\n\n"
        "    /// <summary>\n    /// Gets or sets the type of the back-off.\n    /// </summary>\n"
        '    /// <value>\n    /// The default value is <see cref="Backoff.Constant"/>.\n    /// </value>\n'
        "    public Backoff BackoffType { get; set; } = Backoff.Constant;\n\n"
        "    /// <summary>\n    /// Gets or sets a value indicating whether jitter is used.\n    /// </summary>\n"
        "    public bool UseJitter { get; set; }\n\n"
        "    /// <summary>Gets how many were tried.</summary>\n"
        "    public int Tried => MaxRetryAttempts - 1;\n\n"
        "    /// <summary>\n    /// Gets or sets the timeout.\n    /// </summary>\n"
        "    public TimeSpan Timeout\n    {\n        get => _timeout;\n        set { _timeout = value; }\n    }\n\n"
        "    public int Attempts(int n)\n    {\n        var local = n;\n        return local;\n    }\n}\n"
    ),
    "src/Tiny/Event.cs": (
        "namespace Tiny;\n\n/// <summary>\n/// A log event.\n/// </summary>\n"
        "public record Event(DateTimeOffset Timestamp, string Message);\n\n"
        "/// <summary>\n/// A property of an event.\n/// </summary>\npublic sealed class Property\n{\n"
        "    /// <summary>The property's name.</summary>\n    public string Name { get; }\n\n"
        "    /// <summary>The property's value.</summary>\n    public object? Value { get; }\n\n"
        "    public Property(string name, object? value) { Name = name; Value = value; }\n}\n"
    ),
}


def _pages(tmp_path: Path, files: dict[str, str]) -> Path:
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    return result.study.harvest_dir


def test_a_csharp_repository_has_configuration_data_model_and_extension_points(tmp_path: Path) -> None:
    """Polly, serilog, FluentValidation, git-credential-manager: a C# repository had no reference pages at
    all (the reference read no C#). An options class's public properties are its options, with the default
    the `<value>` states; constants, static and computed properties and a method's locals are not."""
    directory = _pages(tmp_path, CSHARP)
    configuration = _page(directory / "reference" / "configuration.md")
    retry = configuration.split("## `RetryOptions`")[1].split("\n## ")[0]
    assert "Represents the options used to configure a retry." in retry
    assert (
        "| [`MaxRetryAttempts`] | `int` | `3 retries` | Gets or sets the maximum number of retries. |"
        in retry
    )
    assert "| [`BackoffType`] | `Backoff` | `Backoff.Constant` |" in retry and "`UseJitter`" in retry
    # a property whose accessors stand on lines of their own (serilog's MinimumLevel, git-credential-manager
    # 98 such) is one too; a method with a body is not
    assert (
        "| [`Timeout`] | `TimeSpan` | — | Gets or sets the timeout. |" in retry and "`Attempts`" not in retry
    )
    assert "MaxCount" not in retry and "`Shared`" not in retry and "`Tried`" not in retry
    assert "`local`" not in retry and "<summary>" not in retry
    model = _page(directory / "reference" / "data-model.md")
    event = model.split("## `Event`")[1].split("\n## ")[0]
    assert "`Timestamp`" in event and "`Message`" in event
    prop = model.split("## `Property`")[1].split("\n## ")[0]
    assert "| [`Name`] | `string` | — | The property's name. |" in prop and "`Value`" in prop
    extensions = _page(directory / "reference" / "extension-points.md")
    sink = extensions.split("## `ISink`")[1].split("\n## ")[0]
    assert "*interface*" in sink and "[`Emit`] — Emit the event to the sink." in sink
    strategy = extensions.split("## `Strategy`")[1].split("\n## ")[0]
    assert "*abstract base class*" in strategy and "`ExecuteCore`" in strategy and "`Execute`" not in strategy
