"""bench/page_quality.py's docs figures: what the project's own documentation gave the pages."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "page_quality.py"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("page_quality_bench", _SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


STARTED = """# tinyweb · Getting started

How to install the project, then its own usage examples.

## Install

```sh
pip install tinyweb
```

*Source:* [README.md:5-7](https://github.com/acme/tinyweb/blob/r/README.md#L5-L7)

## Quick start

```python
app = App()
```

```python
app.serve(8000)
```
"""


def test_the_install_steps_are_counted_apart_from_the_examples() -> None:
    bench = _bench()
    figures = bench.docs_figures(None, {"guide/getting-started.md": STARTED})
    assert (figures["install"], figures["examples"]) == ("✓", 2)
    assert bench.install_section(STARTED).startswith("```sh\npip install tinyweb\n```")
    without = STARTED.replace("## Install", "## Setup")
    assert (bench.docs_figures(None, {"guide/getting-started.md": without})["install"]) == "✗"
