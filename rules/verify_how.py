"""How a verify row that could not be verified could be: the collector option or listing
that reads its setting, or why no reading of the server ever verifies it.

Verify judges only what a newer reading shows (`rules.compare.value_read`). A setting it
did not show is `unknown`, and each reader here names what shows it: the SAS options come
from the files given with the collector's `--sas-config PATH`, SPD Server's from
`--spds-parm PATH`, AIX tunables from `ioo -a` and `vmo -a`, devices from `lsattr -El`,
Linux from `sysctl -a`, the THP file and /sys/block/*/queue (rules/collect/collector.sh
runs all of these). Checks and advice set no value: nothing on the server says whether
they were followed.
"""

from __future__ import annotations

from rules.model import AIX_SCRIPT, SPDSSERV, Recommendation
from rules.payloads import Check, LinuxTunable, Tunable

READ_ONLY = "a read-only check, not verifiable from the server"
ADVICE = "advice for jobs and programs, not a setting: not verifiable from the server"
THP_FILE = "/sys/kernel/mm/transparent_hugepage/enabled"


def how_to_verify(rec: Recommendation, config_file: str) -> str:
    """What reads `rec`'s setting on the server, or why nothing can."""
    if rec.kind == "check":
        return f"{READ_ONLY}: run it there by hand{_command(rec)}"
    if rec.kind == "advice":
        return ADVICE
    if rec.target == config_file:
        return f"run the collector with --sas-config PATH (the {config_file} it goes in)"
    if rec.target == SPDSSERV:
        return "run the collector with --spds-parm PATH (the server's spdsserv.parm)"
    if rec.target == AIX_SCRIPT and isinstance(rec.payload, Tunable):
        return f"run the collector on the server itself: it reads `{rec.payload.command} -a`"
    if isinstance(rec.payload, Check):
        return f"{READ_ONLY}{_command(rec)}"
    if isinstance(rec.payload, LinuxTunable):
        return _linux(rec.payload)
    return f"{READ_ONLY}: the collector does not read {rec.target}"


def _command(rec: Recommendation) -> str:
    if isinstance(rec.payload, Check):
        return f" (`{' '.join(rec.payload.argv)}`)"
    return ""


def _linux(tunable: LinuxTunable) -> str:
    """The listing of the collector's bundle that holds a Linux setting."""
    if tunable.path.startswith("/proc/sys/"):
        return "give the collector's whole bundle: it reads `sysctl -a`"
    if tunable.path == THP_FILE:
        return f"give the collector's whole bundle: it reads {THP_FILE}"
    if tunable.devices and "/queue/" in tunable.path:
        devices = ", ".join(tunable.devices)
        return f"give the collector's whole bundle: it reads /sys/block/*/queue ({devices})"
    return f"{READ_ONLY}: the collector does not read {tunable.path}"
