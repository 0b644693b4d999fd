"""monitoring.fullstimer and monitoring.thresholds (chew, bartucca2005, AIX notes)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import Result
from rules.catalog import monitoring
from rules.model import Recommendation
from tests.conftest import example
from tests.rules.conftest import advise
from tests.rules.fitting import fit_filesystems


def box(
    os: str = "aix", version: str = "5.3", mix: dict[str, float] | None = None
) -> dict[str, Any]:
    doc = example("lemans-aix53-etl")
    doc["server"]["os"] = os
    doc["server"]["os_version"] = version
    doc["workload"]["mix"] = mix or {"etl": 1.0}
    if os == "windows":  # Windows storage lives on drive paths: /raid0 → E:\raid0
        for entry in doc["storage"]:
            entry["mount"] = "E:" + entry["mount"].replace("/", "\\")
    return fit_filesystems(doc)


def checks(result: Result) -> dict[str, Recommendation]:
    return {r.setting: r for r in result.recommendations if r.rule == "monitoring.thresholds"}


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(float(secs))


def test_fullstimer_is_a_flag_in_the_site_config() -> None:
    (rec,) = [r for r in advise(box()).recommendations if r.rule == "monitoring.fullstimer"]
    assert (rec.target, rec.setting, rec.value, rec.kind) == (
        "sasv9_append.cfg", "FULLSTIMER", "", "change",
    )  # fmt: skip
    assert "4:14.61" in rec.evidence and "23:36.91" in rec.evidence


def test_one_check_per_metric_on_the_system() -> None:
    found = checks(advise(box()))
    assert set(found) == {
        monitoring.DISK,
        monitoring.RUNQ,
        monitoring.PAGING,
        monitoring.REAL_VS_CPU,
    }
    assert {r.target for r in found.values()} == {"system"}
    assert {r.kind for r in found.values()} == {"check"}
    assert all(r.payload.tool for r in found.values())


def test_disk_thresholds_are_chews() -> None:
    # chew: iostat -xtc 5 — svc_t > 50 ms or more than 20 % busy.
    disk = checks(advise(box()))[monitoring.DISK]
    assert disk.value == "service time ≤ 50 ms, busy ≤ 20 %"
    assert disk.payload.tool.startswith("iostat -D 5")
    solaris = checks(advise(box(os="solaris", version="10")))[monitoring.DISK]
    assert solaris.payload.tool == "iostat -xtc 5 (svc_t, %b)"


def test_run_queue_is_scaled_to_the_cpus() -> None:
    # Cockcroft via chew: green ≤ 2 per CPU, amber ≤ 5; lemans has 8 CPUs.
    runq = checks(advise(box()))[monitoring.RUNQ]
    assert runq.value == "green ≤ 2, amber ≤ 5, red above"
    assert "green up to 16 queued threads, amber up to 40" in runq.rationale
    assert "vmstat" in runq.payload.tool and "topas" in runq.payload.tool


def test_paging_check_follows_the_aix_release() -> None:
    old = checks(advise(box(version="5.3")))[monitoring.PAGING]
    assert old.payload.tool == "vmstat -v (numperm% against maxperm%); topas"
    assert "maxperm 80→60 with strict_maxperm=1" in old.rationale
    assert "ibm-aix72-vmm" not in old.sources
    new = checks(advise(box(version="7.2")))[monitoring.PAGING]
    assert new.payload.tool == "vmstat -v; vmstat 5 (pi, po)"
    assert "change vmo only on evidence of paging" in new.rationale
    assert "ibm-aix72-vmm" in new.sources
    linux = checks(advise(box(os="linux", version="8.10")))[monitoring.PAGING]
    assert linux.payload.tool == "vmstat 5 (si, so) and sar -B"


def test_tlb_check_only_for_analytics() -> None:
    # chew trapstat -t: 5–10 % or more is a problem; LOESS showed ~30 %, IML ~20 %.
    assert monitoring.TLB not in checks(advise(box()))
    tlb = checks(advise(box(os="solaris", version="9", mix={"analytics": 1.0})))[monitoring.TLB]
    assert tlb.value == "< 5 % of CPU time"
    assert tlb.payload.tool.startswith("trapstat -t 3")
    assert "LOESS 4.5 h → 1.5 h" in tlb.rationale


def test_tlb_check_names_large_pages_as_the_remedy_with_chews_conditions() -> None:
    # chew l.533–569: large pages (ISM MAP / Solaris 9 MPSS) cut TLB time under 2–3 %, for
    # CPU-bound jobs with 2–4 MB+ segments; short of free memory they made it worse (l.562).
    tlb = checks(advise(box(os="solaris", version="9", mix={"analytics": 1.0})))[monitoring.TLB]
    assert "large pages are the remedy chew found" in tlb.rationale
    assert "Solaris 9+ MPSS" in tlb.rationale
    assert "2–4 MB" in tlb.rationale and "made things worse (l.562)" in tlb.rationale
    tlb = checks(advise(box(mix={"analytics": 1.0})))[monitoring.TLB]
    assert "unconfirmed, not from chew" in tlb.rationale


def test_real_vs_cpu_cut_separates_bartuccas_runs() -> None:
    # bartucca2005: first run 33:35 real vs 24:43 user + 13:59 system (cached I/O);
    # second run 52:32 real vs 24:41 + 8:29 (direct I/O, diagnosed as I/O wait).
    first = seconds("33:35") / (seconds("24:43") + seconds("13:59"))
    second = seconds("52:32") / (seconds("24:41") + seconds("8:29"))
    assert first < monitoring.IO_BOUND_REAL_OVER_CPU < second
    rec = checks(advise(box()))[monitoring.REAL_VS_CPU]
    assert rec.value == "real ≤ 1.5 × (user + system CPU)"
    assert "filemon and topas" in rec.rationale


def test_nothing_is_skipped() -> None:
    for name in ("lemans-aix53-etl", "prime-spds-aix"):
        skipped = advise(example(name)).skipped
        assert [s for s in skipped if s.rule.startswith("monitoring.")] == []


@pytest.mark.parametrize(
    ("os", "version"),
    [("aix", "5.3"), ("aix", "6.1"), ("aix", "7.2"), ("linux", "8.10"), ("solaris", "9"),
     ("hpux", "11.31"), ("windows", "10")],
)  # fmt: skip
def test_every_os_gets_a_command_for_every_check(os: str, version: str) -> None:
    found = checks(advise(box(os=os, version=version, mix={"analytics": 1.0})))
    assert set(found) == {
        monitoring.DISK, monitoring.RUNQ, monitoring.PAGING, monitoring.TLB,
        monitoring.REAL_VS_CPU,
    }  # fmt: skip
    assert all(r.value and r.rationale and r.payload.tool for r in found.values())
