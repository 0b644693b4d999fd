"""Issue 24, the estates of today: CPUCOUNT on big and small boxes, the Windows default and
SGIO's buffers, BUFNO per job, sort space, measured throughput and WORK on `/`.

Each test names the paper line or vendor page it rests on: chew (l.96 the many-user cap,
l.577-582 LOESS, l.588-601 simultaneous CPUCOUNT=8 jobs, l.629 run-queue thresholds),
bartucca2005 (l.269 and l.312-316 the sort's utility file, l.647 -bufno 16 on the sort
job's command line), SAS's CPUCOUNT=, SGIO and PROC SORT pages (rules/sources.py:
sas94-cpucount, sas-win-sgio, sas-proc-sort-space).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import Result
from rules.derive import cpu
from rules.model import PROGRAM
from rules.sources import SOURCES
from tests.conftest import example
from tests.rules.conftest import advise, only

OSES = {"aix": "7.2", "linux": "9", "solaris": "11.4", "windows": "10.0"}
FILESYSTEMS = {"aix": "jfs2", "linux": "xfs", "solaris": "zfs", "windows": "ntfs"}


def small_box(os: str, sessions: int) -> dict[str, Any]:
    """The 2-CPU departmental box on each OS, with `sessions` at peak."""
    doc = example("small-overloaded-2cpu")
    doc["server"].update(os=os, os_version=OSES[os])
    doc["workload"]["concurrent_sessions"] = sessions
    for i, s in enumerate(doc["storage"]):
        s["filesystem"] = FILESYSTEMS[os]
        if os == "windows":
            s["mount"] = f"{'DE'[i]}:{s['mount'].replace('/', chr(92))}"
    return doc


def big_box(sessions: int = 3) -> dict[str, Any]:
    """A 192-core, 4 TB Linux box (384 logical CPUs) with few sessions."""
    doc = example("linux-128cpu-multiuser")
    doc["server"].update(cpus=384, cores=192, ram_gb=4096)
    doc["workload"]["concurrent_sessions"] = sessions
    return doc


def cpu_warnings(result: Result) -> list[str]:
    return [w.message for w in result.warnings if w.rule == "cpu.cpucount_cap"]


def test_cpucount_few_sessions_on_many_cores() -> None:
    # chew l.96: the 4–6 cap is for "many simultaneous V9 SAS users" on a shared box. Three
    # sessions on 384 CPUs have 128 each; a job gets about its share whatever CPUCOUNT says
    # (chew l.588-601: two CPUCOUNT=8 jobs on 8 CPUs took 6:47, near one job on 4 CPUs, 6:34
    # at l.580), so each gets every CPU up to the 8 the papers measured (l.582).
    rec = only(advise(big_box()), "CPUCOUNT")
    assert rec.value == "8"
    assert "3 sessions on 384 CPUs leave each 128 CPUs at peak" in rec.rationale
    assert "chew l.588-601" in rec.rationale and "capped" not in rec.rationale
    # Twelve sessions still have 32 CPUs each; two hundred share the box: chew's cap.
    assert only(advise(big_box(12)), "CPUCOUNT").value == "8"
    assert only(advise(big_box(200)), "CPUCOUNT").value == "4"


@pytest.mark.parametrize("os", sorted(OSES))
def test_cpucount_thirty_sessions_on_two_vcpus_agrees_with_the_run_queue(os: str) -> None:
    # 30 sessions × CPUCOUNT 2 on 2 CPUs: a run queue of 29 per CPU, red above 5 (chew l.629,
    # Cockcroft). At that load threads buy no time (chew l.588-601: eight CPUCOUNT=8 jobs on 8
    # CPUs averaged 23:40, about one job on one CPU, 21:31), so CPUCOUNT is 1 on every OS and
    # the warning counts the same 30 threads.
    result = advise(small_box(os, 30))
    rec = only(result, "CPUCOUNT")
    assert rec.value == "1"
    assert "At CPUCOUNT 2 the peak run queue would be 29.0 per CPU" in rec.rationale
    (warning,) = cpu_warnings(result)
    assert "30 SAS sessions × 1 = 30 threads on 2 CPUs" in warning
    assert "run queue of 14.0 per CPU" in warning
    # Twelve sessions: CPUCOUNT 1 brings the run queue to 5.0, amber, and nothing warns.
    twelve = advise(small_box(os, 12))
    assert only(twelve, "CPUCOUNT").value == "1" and cpu_warnings(twelve) == []


@settings(max_examples=120, deadline=None)
@given(cpus=st.integers(1, 512), sessions=st.integers(1, 400))
def test_cpucount_never_rises_as_sessions_grow_and_never_contradicts_the_warning(
    cpus: int, sessions: int
) -> None:
    # chew l.96 and l.662: more simultaneous users, a smaller (never larger) CPUCOUNT; a red
    # run queue (l.629) only where CPUCOUNT is already 1.
    def run(n: int) -> tuple[int, bool]:
        doc = small_box("linux", n)
        doc["server"]["cpus"] = cpus
        result = advise(doc)
        return int(only(result, "CPUCOUNT").value), bool(cpu_warnings(result))

    value, warned = run(sessions)
    more, _ = run(sessions + 1)
    assert more <= value
    assert value == 1 or not warned


def test_windows_cpucount_default_is_actual() -> None:
    # SAS CPUCOUNT= documentation: "Under Windows ... the default is ACTUAL. Under UNIX, the
    # default is either ACTUAL or 4 for systems that have more than four processors."
    assert "https://support.sas.com/" in SOURCES["sas94-cpucount"].publication
    rec = only(advise(example("windows-sas94")), "CPUCOUNT")
    assert "CPUCOUNT=ACTUAL, all 16 CPUs on Windows" in rec.rationale
    assert "8 × 16 = 128" in rec.rationale and "(CPUCOUNT 4)" not in rec.rationale
    assert "sas94-cpucount" in rec.sources
    unix = only(advise(example("linux-128cpu-multiuser")), "CPUCOUNT")
    assert "CPUCOUNT 4 on UNIX boxes with more than 4 CPUs" in unix.rationale


def test_sgio_comes_with_bufno() -> None:
    # SAS 9.4 Companion for Windows, SGIO System Option: "When SGIO is active, SAS uses the
    # number of buffers that are specified by the BUFNO system option"; tune BUFNO for each
    # job. So SGIO is started with the big jobs, with BUFNO 16 beside it (bartucca2005
    # l.647), and neither is left site-wide at BUFNO 1.
    assert "hostwin/69955" in SOURCES["sas-win-sgio"].publication
    result = advise(example("windows-sas94"))
    sgio, bufno = only(result, "SGIO"), only(result, "BUFNO")
    assert (sgio.target, bufno.target, bufno.value) == (PROGRAM, PROGRAM, "16")
    assert sgio.payload is not None and "-sgio -bufno 16" in str(sgio.payload)
    assert bufno.rationale.startswith("Direct I/O through SGIO")
    assert "sas-win-sgio" in bufno.sources
    cfg = result.artifacts["sasv9_append.cfg"]
    assert "\n-SGIO\n" not in cfg and "\n-BUFNO" not in cfg


@pytest.mark.parametrize(("sas", "os"), [("9.1.3", "aix"), ("9.4", "aix"), ("9.4", "linux")])
def test_bufno_is_per_program_not_site_wide(sas: str, os: str) -> None:
    # bartucca2005 measured BUFNO=16 only under direct I/O, given on the sort job's command
    # line ("-bufno 16 added to the command line", l.647); direct I/O itself is advised per
    # program (ENABLEDIRECTIO/USEDIRECTIO) or per mount for the big sorts, so BUFNO goes with
    # those jobs and never into the site config.
    doc = example("lemans-aix53-etl")
    doc["sas"]["version"] = sas
    if os == "linux":
        doc["server"].update(os="linux", os_version="9")
        for s in doc["storage"]:
            s["filesystem"] = "xfs"
    result = advise(doc)
    rec = only(result, "BUFNO")
    assert (rec.target, rec.kind, rec.value) == (PROGRAM, "advice", "16")
    assert "not site-wide" in rec.rationale and "l.647" in rec.rationale
    assert "-bufno 16" in str(rec.payload)
    for name, text in result.artifacts.items():
        assert "\n-BUFNO" not in text, name


def test_one_tb_sort_needs_two_tb_of_work() -> None:
    # bartucca2005 l.269, l.312-316: a 17 GB compressed (60 GB uncompressed) data set made a
    # utility file of about 60 GB (120,804 MB written and read once); Base SAS PROC SORT:
    # the output library needs room for a copy of the original data set. WORK holding both
    # needs about 2× the table.
    doc = example("linux-rhel9-sas94")
    doc["storage"] = [s for s in doc["storage"] if s["role"] not in ("work", "utilloc")]
    work = {"name": "work", "mount": "/saswork", "role": "work", "raid": "0", "disks": 4,
            "size_gb": 1000, "media": "nvme", "filesystem": "xfs"}  # fmt: skip
    doc["storage"].append(work)
    doc["workload"]["largest_table_gb"] = 1000
    result = advise(doc)
    (warning,) = [w for w in result.warnings if w.rule == "work.placement"]
    assert "largest table (1000 GB) into WORK needs about 2000 GB" in warning.message
    assert "work (/saswork) holds 1000 GB" in warning.message
    assert set(warning.sources) == {"bartucca2005", "sas-proc-sort-space"}
    assert "https://support.sas.com/" in SOURCES["sas-proc-sort-space"].publication
    doc["storage"][-1]["size_gb"] = 2000
    assert not [w for w in advise(doc).warnings if w.rule == "work.placement"]
    # UTILLOC on a file system of its own takes the utility file: 1 TB each suffices.
    doc["storage"][-1]["size_gb"] = 1000
    doc["storage"].append({**doc["storage"][-1], "name": "util", "mount": "/sasutil",
                           "role": "utilloc"})  # fmt: skip
    assert not [w for w in advise(doc).warnings if w.rule == "work.placement"]


def test_measured_rate_drops_the_spindle_caveat() -> None:
    # storage[].measured_mb_s replaces the 15–20 MB/s per spindle guess (sas-io-throughput);
    # a warning built on it says so instead of "assumes each listed disk is a spindle".
    doc = small_box("aix", 12)
    for s in doc["storage"]:
        s["measured_mb_s"] = 50
    found = [w for w in advise(doc).warnings if w.rule == "throughput.estimate"]
    assert len(found) == 2
    for w in found:
        assert w.message.startswith("Measured") and "spindle" not in w.message
        assert "(Measured MB/s)" in w.message and "Measure it" not in w.action
    doc["storage"][1]["measured_mb_s"] = None
    data = [w for w in advise(doc).warnings if w.rule == "throughput.estimate"][1]
    assert "assumes each listed disk is a spindle" in data.message  # hdd: named by media


def test_throughput_need_is_per_core_in_use() -> None:
    # SAS's 100–150 MB/s is per core SAS keeps busy (sas-io-throughput; Azure's SAS guide:
    # per physical core in use): 3 sessions × CPUCOUNT 8 = 24 of 192 cores → 2,400 MB/s,
    # not 192 × 100 = 19,200.
    rec = only(advise(big_box()), "I/O throughput target")
    assert rec.value == "2400 MB/s"
    assert "24 of 192 cores in use (24 threads at peak: sessions × CPUCOUNT 8)" in rec.rationale
    # A box its sessions fill still needs every core.
    assert only(advise(big_box(200)), "I/O throughput target").value == "19200 MB/s"
    assert cpu.cores_in_use(rules.inventory_from(big_box()), 192) == 24


def test_root_only_file_system_gets_no_work_and_a_warning() -> None:
    # WORK or a utility file that fills / stops the OS's own writes; bartucca2005 put WORK
    # and UTILLOC on /raid0, "set up for temporary storage" (l.269), xu gave WORK its own disks.
    doc = example("linux-rhel9-sas94")
    doc["storage"] = [{"name": "root", "mount": "/", "role": "work", "raid": "1", "disks": 2,
                       "size_gb": 200, "media": "ssd", "filesystem": "xfs"}]  # fmt: skip
    result = advise(doc)
    assert not [r for r in result.recommendations if r.setting in ("WORK", "UTILLOC")]
    (warning,) = [w for w in result.warnings if w.rule == "work.placement"]
    assert warning.severity == "high" and "stops the operating system" in warning.message
    assert "dedicated file system" in warning.action
    assert "marked SAS WORK" in warning.action and "role work" not in warning.action
    for text in result.artifacts.values():
        assert "-WORK /\n" not in text and "-UTILLOC /\n" not in text
    # Beside a real WORK file system, / is left out of WORK and UTILLOC with a note.
    doc["storage"].append({**doc["storage"][0], "name": "work", "mount": "/saswork"})
    result = advise(doc)
    assert only(result, "WORK").value == "/saswork" and only(result, "UTILLOC").value == "/saswork"
    assert any("left out of WORK" in w.message for w in result.warnings)
