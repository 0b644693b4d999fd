"""Advice in the words of the OS in hand, and of the form, not of the contract.

1. xu's best block sizes (8K solid state, 4K stripe: xu l.66, Table 2 l.77-88) are HP-UX 10
   figures: said on HP-UX only. On Linux, XFS and ext4 blocks stop at the 4K page (x86_64),
   so the check is the stripe alignment (mkfs.xfs su/sw, mkfs.ext4 stride/stripe-width) with
   Crevar's 64K-256K stripe unit (SAS569-2017); on AIX, JFS2 stops at agblksize 4096.
2. chew l.665 holds a department to its CPU share with Solaris Resource Manager: each OS is
   told its own counterpart (cgroups on Linux, WLM on AIX, job objects on Windows).
3. Storage is named as the form marks it ("marked SAS WORK"), never "role work".
4. No contract path or raw field name in the rules' texts.
5. No WORK listed and `/` holding /tmp, SAS's default WORK: the warning says WORK lands on /.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import rules
from tests.conftest import example
from tests.rules.test_estate_linux_distro import on_distribution, rule_texts, texts
from tests.rules.test_properties_linux import on

NOT_ON_LINUX = re.compile(r"HP-UX|\bWLM\b|Workload Manager|role work|\brole (?:utilloc|other)\b")


def _block(result: dict[str, Any]) -> dict[str, Any]:
    (rec,) = [r for r in result["recommendations"] if r["rule"] == "work.block_size"]
    return rec


def _hpux() -> dict[str, Any]:
    doc = example("lemans-aix53-etl")
    doc["server"].update(os="hpux", os_version="11.31")
    for s in doc["storage"]:
        s["filesystem"] = "vxfs"
    return doc


@pytest.mark.parametrize("distribution", ["rhel", "debian"])
def test_linux_block_size_is_4k_and_the_stripe_alignment(distribution: str) -> None:
    doc = on_distribution(distribution, "xfs")
    result = rules.advise(doc)
    rec = _block(result)
    assert rec["value"] == "4K blocks, aligned to the stripe" and rec["kind"] == "check"
    # /saswork: RAID 0 over 2 NVMe disks, both carry data.
    assert "mkfs.xfs -d su=<stripe unit>,sw=2 (2 data disks in RAID 0)" in rec["rationale"]
    assert "64K, 128K or 256K (Crevar, SAS569-2017)" in rec["rationale"]
    assert "unconfirmed" in rec["rationale"] and "test 4K and 8K" not in rec["value"]
    assert "sunit, swidth" in rec["extra"]["command"]
    assert not [t for t in texts(result) if NOT_ON_LINUX.search(t)]


def test_ext4_stripe_is_given_as_stride_and_stripe_width() -> None:
    doc = on_distribution("debian", "ext4")
    doc["storage"][0].update(raid="6", disks=8)
    rec = _block(rules.advise(doc))
    assert "mkfs.ext4 -E stride=<stripe unit / 4K>,stripe-width=<stride × 6>" in rec["rationale"]
    doc["storage"][0].update(raid="jbod", disks=1)
    rec = _block(rules.advise(doc))
    assert rec["value"] == "4K blocks" and "is no stripe" in rec["rationale"]


def test_aix_block_size_stops_at_agblksize_4096() -> None:
    result = rules.advise(example("lemans-aix53-etl"))
    rec = _block(result)
    assert rec["value"] == "agblksize 4096"
    assert "512 to 4096 bytes" in rec["rationale"] and "8K is not on offer" in rec["rationale"]
    assert not [t for t in texts(result) if "HP-UX" in t]


def test_hpux_keeps_xus_block_sizes() -> None:
    result = rules.advise(_hpux())
    rec = _block(result)
    assert rec["value"] == "test 4K and 8K against the current size"
    assert "HP-UX 10 file systems" in rec["rationale"]
    work = next(r for r in result["recommendations"] if r["setting"] == "WORK")
    assert "best file system block size (HP-UX) 8K solid state, 4K striping" in work["rationale"]


@pytest.mark.parametrize(
    ("stem", "os", "manager"),
    [
        ("small-overloaded-2cpu", "linux", "systemd slice with CPUQuota= or AllowedCPUs="),
        ("small-overloaded-2cpu", "solaris", "projects with resource pools"),
        ("small-overloaded-2cpu", "windows", "job objects with a CPU rate limit"),
        ("small-overloaded-2cpu", "aix", "AIX WLM"),
    ],
)
def test_resource_manager_is_the_oses_own(stem: str, os: str, manager: str) -> None:
    doc = example(stem)
    versions = {"linux": "9", "solaris": "11.4", "windows": "10.0", "aix": "7.2"}
    fss = {"linux": "xfs", "solaris": "zfs", "windows": "ntfs", "aix": "jfs2"}
    doc["server"].update(os=os, os_version=versions[os])
    doc["workload"]["concurrent_sessions"] = 30
    for i, s in enumerate(doc["storage"]):
        s["filesystem"] = fss[os]
        if os == "windows":
            s["mount"] = f"{'DE'[i]}:{s['mount'].replace('/', chr(92))}"
    result = rules.advise(doc)
    said = " ".join(rule_texts(result, "cpu.cpucount_cap"))
    said += " ".join(w["action"] for w in result["warnings"] if w["rule"] == "cpu.cpucount_cap")
    assert manager in said and "chew l.665" in said
    if os != "aix":
        assert "WLM" not in said
    if os != "solaris":
        assert "counterpart of the Solaris Resource Manager chew names, unconfirmed" in said


def _root_only(role: str = "other") -> dict[str, Any]:
    doc = example("linux-rhel9-sas94")
    doc["storage"] = [{"name": "root", "mount": "/", "role": role, "raid": "1", "disks": 2,
                       "size_gb": 200, "media": "ssd", "filesystem": "xfs"}]  # fmt: skip
    return doc


def _placement_warning(doc: dict[str, Any]) -> dict[str, Any]:
    (warning,) = [w for w in rules.advise(doc)["warnings"] if w["rule"] == "work.placement"]
    return warning


def test_root_only_as_other_says_work_lands_on_root() -> None:
    warning = _placement_warning(_root_only())
    assert warning["message"].startswith("No file system marked SAS WORK is listed")
    assert (
        "Here /tmp is on the root file system / (root, the only file system listed)"
        in (warning["message"])
    )
    assert "stops the operating system's own writes" in warning["message"]
    assert "dedicated file system" in warning["action"] and "marked SAS WORK" in warning["action"]


def test_root_holding_tmp_beside_data_says_so() -> None:
    doc = _root_only()
    doc["storage"].append({**doc["storage"][0], "name": "data", "mount": "/sasdata",
                           "role": "data"})  # fmt: skip
    warning = _placement_warning(doc)
    assert "(root; no file system of its own is listed for /tmp)" in warning["message"]
    # /tmp on a file system of its own: WORK's default is not on /.
    doc["storage"].append({**doc["storage"][0], "name": "tmp", "mount": "/tmp"})
    warning = _placement_warning(doc)
    assert "root file system" not in warning["message"]
    assert warning["action"] == "Add a striped or solid-state file system marked SAS WORK."


def test_role_words_are_the_forms() -> None:
    dropped = _root_only("work")
    dropped["storage"].append({**dropped["storage"][0], "name": "work", "mount": "/saswork"})
    for doc in (_root_only("work"), dropped, _root_only()):
        said = texts(rules.advise(doc))
        assert not [t for t in said if re.search(r"\brole (?:work|other|utilloc)\b", t)]


# The fields the catalog's texts named by their contract path; the form's labels now.
CONTRACT_WORDS = [
    "server.cores", "server.smt_threads", "storage[].volume", "storage[].devices",
    "storage[].gpfs_block_size_kb", "total_data_gb", "server.distribution", "os_version",
    "storage[].measured_mb_s", "storage[].filesystem", "server.os",
]  # fmt: skip


@pytest.mark.parametrize(
    "stem",
    ["lemans-aix53-etl", "linux-192core-4tb", "sasgrid-gpfs-rhel8", "prime-spds-aix",
     "small-overloaded-2cpu", "linux-rhel9-sas94"],
)  # fmt: skip
def test_no_contract_paths_in_the_rules_words(stem: str) -> None:
    doc = example(stem)
    doc["server"].pop("distribution", None)  # Linux: read as RHEL, and said so
    for s in doc["storage"]:
        s["measured_mb_s"] = 50
    result = rules.advise(doc)
    said = [r["rationale"] for r in result["recommendations"]]
    said += [w["message"] + " " + w["action"] for w in result["warnings"]]
    said += [s["reason"] for s in result["skipped"]]
    found = [(w, t) for w in CONTRACT_WORDS for t in said if w in t]
    assert not found, found[0]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(on("linux"))
def test_no_hpux_wlm_or_role_words_on_linux(document: dict[str, Any]) -> None:
    """Over generated Linux inventories (every distribution, RAID, media and file system):
    no HP-UX block sizes, no AIX WLM, no contract role words."""
    document = document | {"name": "a generated server"}  # the name is echoed as given
    result = rules.advise(document)
    found = [t for t in texts(result) if NOT_ON_LINUX.search(t)]
    assert not found, found[0][:300]
