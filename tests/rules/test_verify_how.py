"""A verify row not verified says how it could be: the collector option or listing that
reads its setting, or that nothing read from the server verifies it."""

from __future__ import annotations

import pytest

from rules.model import AIX_SCRIPT, SPDSSERV, Kind, Recommendation
from rules.payloads import Check, LinuxTunable, Payload, Tunable
from rules.verify import read_advice, verify
from rules.verify_how import ADVICE, READ_ONLY, how_to_verify
from tests.stored_results import LEMANS_2026_11_0, lemans_reading, stored

CONFIG = "sasv9_local.cfg"


def rec(target: str, payload: Payload | None = None, kind: Kind = "change") -> Recommendation:
    return Recommendation("r", target, "S", "1", "why", (), kind=kind, payload=payload)


def advice(setting: str) -> Recommendation:
    return Recommendation("r", "system", setting, "1", "why", (), kind="advice")


def tuned(path: str, devices: tuple[str, ...] = ()) -> LinuxTunable:
    return LinuxTunable("disk" if devices else "sysctl", "o", path, devices)


@pytest.mark.parametrize(
    ("given", "how"),
    [
        (rec(CONFIG), "run the collector with --sas-config PATH (the sasv9_local.cfg it goes in)"),
        (rec(SPDSSERV), "run the collector with --spds-parm PATH (the server's spdsserv.parm)"),
        (rec(AIX_SCRIPT, Tunable("vmo", "90")),
         "run the collector on the server itself: it reads `vmo -a`"),
        (rec("tuned.conf", tuned("/proc/sys/vm/swappiness")),
         "give the collector's whole bundle: it reads `sysctl -a`"),
        (rec("tuned.conf", tuned("/sys/kernel/mm/transparent_hugepage/enabled")),
         "give the collector's whole bundle: it reads "
         "/sys/kernel/mm/transparent_hugepage/enabled"),
        (rec("tuned.conf", tuned("/sys/block/{dev}/queue/read_ahead_kb", ("sdb", "nvme*"))),
         "give the collector's whole bundle: it reads /sys/block/*/queue (sdb, nvme*)"),
        (rec("tuned.conf", tuned("/sys/devices/system/cpu/{cpu}/cpufreq/scaling_governor")),
         "set by the tuned profile (the bundle's `tuned-adm active` names it); the collector "
         "does not read the governor: run `cpupower frequency-info -p` or `cat "
         "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor` there"),
        (rec("linux_tuning.sh", Check(("df", "-T", "/"), "xfs"), kind="check"),
         f"{READ_ONLY}: run it there by hand (`df -T /`)"),
        (rec("system", kind="advice"), ADVICE),
        (advice("I/O throughput target"),
         "run the collector with --measure DIR for each WORK and data file system: what it "
         "measures is compared with the assessment's under “Measured throughput”"),
        (advice("limits:nofile"),
         "a system limit the collector does not read: see /etc/security/limits.conf and "
         "/etc/security/limits.d/*.conf on the server, or run `su - sas -c 'ulimit -n'` "
         "there (for each SAS account)"),
        (advice("limits:nproc"),
         "a system limit the collector does not read: see /etc/security/limits.conf and "
         "/etc/security/limits.d/*.conf on the server, or run `su - sas -c 'ulimit -u'` "
         "there (for each SAS account)"),
        (rec("limits.conf"), f"{READ_ONLY}: the collector does not read limits.conf"),
    ],
)  # fmt: skip
def test_each_kind_of_row_says_what_reads_it(given: Recommendation, how: str) -> None:
    assert how_to_verify(given, CONFIG) == how


def test_only_rows_not_verified_carry_how() -> None:
    checked = verify(read_advice(stored(LEMANS_2026_11_0)), lemans_reading())
    by_status = {r.status: r for r in checked.rows}
    assert by_status["keep"].how is None and by_status["change"].how is None
    assert by_status["unknown"].how == "run the collector on the server itself: it reads `vmo -a`"
    assert all(r.how for r in checked.rows if r.compliant is None)
    assert all(
        row["how"] == r.how for row, r in zip(checked.to_dict()["rows"], checked.rows, strict=True)
    )
