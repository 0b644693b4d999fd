"""The read-only collector an admin runs on the server: sas-advisor-collect.sh.

`collector.sh` beside this module is the script (POSIX sh, for AIX ksh, bash, dash and
Solaris sh); `collector_script()` gives it with the rules version stamped in. What it
writes is the bundle `rules.parse.sections` cuts into sections, and the commands it runs
are the ones the parsers under `rules.parse` read.
"""

from __future__ import annotations

from pathlib import Path

from rules.version import RULES_VERSION

COLLECTOR_NAME = "sas-advisor-collect.sh"
COLLECTOR_VERSION = RULES_VERSION
PLACEHOLDER = "@COLLECTOR_VERSION@"
SOURCE = Path(__file__).with_name("collector.sh")


def collector_script() -> str:
    """The script as the admin downloads it, its version stamped in."""
    return SOURCE.read_text(encoding="utf-8").replace(PLACEHOLDER, COLLECTOR_VERSION)
