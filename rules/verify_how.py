"""How a verify row that could not be verified could be: the collector option or listing
that reads its setting, or why no reading of the server ever verifies it.

Verify judges only what a newer reading shows (`rules.compare.value_read`). A setting it
did not show is `unknown`, and each reader here names what shows it: the SAS options come
from the files given with the collector's `--sas-config PATH`, SPD Server's from
`--spds-parm PATH`, AIX tunables from `ioo -a` and `vmo -a`, devices from `lsattr -El`,
Linux from `sysctl -a`, the THP file and /sys/block/*/queue (rules/collect/collector.sh
runs all of these). Checks and most advice set no value: nothing on the server says
whether they were followed. Three rows are neither advice for jobs nor read-only checks,
and each says what would show it: the I/O throughput target is what `--measure DIR` measures
(compared before → after on the page, not in the table); the open-file and process limits
are the SAS account's, set in /etc/security/limits.conf and limits.d, which the collector
does not read (nor `ulimit`); the CPU governor is set by the tuned profile (`tuned-adm
active` is in the bundle), and the collector reads neither `cpupower` nor scaling_governor.
"""

from __future__ import annotations

from rules.model import AIX_SCRIPT, SPDSSERV, Recommendation
from rules.payloads import Check, LinuxTunable, Tunable

READ_ONLY = "a read-only check, not verifiable from the server"
ADVICE = "advice for jobs and programs, not a setting: not verifiable from the server"
THP_FILE = "/sys/kernel/mm/transparent_hugepage/enabled"
GOVERNOR_FILE = "scaling_governor"
THROUGHPUT = "I/O throughput target"
MEASURE = (
    "run the collector with --measure DIR for each WORK and data file system: what it "
    "measures is compared with the assessment's under “Measured throughput”"
)
ULIMIT_FLAGS = {"nofile": "-n", "nproc": "-u"}  # bash's ulimit, as the SAS account sees it
LIMITS_FILES = "/etc/security/limits.conf and /etc/security/limits.d/*.conf"
GOVERNOR = (
    "set by the tuned profile (the bundle's `tuned-adm active` names it); the collector "
    "does not read the governor: run `cpupower frequency-info -p` or `cat "
    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor` there"
)


def how_to_verify(rec: Recommendation, config_file: str) -> str:
    """What reads `rec`'s setting on the server, or why nothing can."""
    if rec.kind == "check":
        return f"{READ_ONLY}: run it there by hand{_command(rec)}"
    if rec.kind == "advice":
        return _advice(rec.setting)
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


def _advice(setting: str) -> str:
    """Advice is for jobs and programs, but for a figure of the server itself."""
    if setting == THROUGHPUT:
        return MEASURE
    what, _, name = setting.partition(":")
    if what == "limits" and name in ULIMIT_FLAGS:
        return (
            f"a system limit the collector does not read: see {LIMITS_FILES} on the server, "
            f"or run `su - sas -c 'ulimit {ULIMIT_FLAGS[name]}'` there (for each SAS account)"
        )
    return ADVICE


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
    if tunable.path.endswith(f"/{GOVERNOR_FILE}"):
        return GOVERNOR
    return f"{READ_ONLY}: the collector does not read {tunable.path}"
