"""A check setting names no check, no level or no option: in a file's `checks:` or in `ttr-maps.toml`.

Reported where the setting is written: the key of an unknown code in a board's
or variant's `checks:`, a level that is not `off`, `error`, `warning` or
`info`, and in `ttr-maps.toml` unknown keys, unknown options, option values of
the wrong type, `max_findings` that is not a whole number, and TOML syntax
errors. A bad setting is not applied: the check runs as if it were not there.

Unlike the design checks, C001 is not limited by `--select` or `select`: it
reports the settings themselves. `--ignore C001`, `C001 = "off"` in
`ttr-maps.toml` or `checks: {C001: off}` silence it.

Why: a misspelt code (`G06: off`) or level (`G002: of`) would otherwise be
silently ignored, and the check it meant to change would keep running (or stay
off) without anyone noticing.

Failing:

```yaml
checks:
  G06: off       # no check G06
  G002: loud     # not a level
```

Passing:

```yaml
checks:
  G006: off
  G002: info
```
"""

from __future__ import annotations

from typing import Iterator

from .base import Finding
from .config import BAD_SETTING
from .context import Context

CODE, NAME = BAD_SETTING
SEVERITY = "error"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    """Nothing to look at on the board: the settings are checked as they are read (`config`)."""
    return iter(())
