"""Each distribution's own guidance, never RHEL's on another distribution.

Sources: Red Hat "Managing file systems" (rhel-filesystems: XFS is RHEL's default for large
files); SUSE Storage Administration Guide, "Overview of file systems in Linux" (Btrfs for the
operating system, XFS the default for all other uses:
https://documentation.suse.com/sles/15-SP5/html/SLES-all/cha-filesystems.html); Oracle Linux 8
"About File System Management" (XFS scales in threads, bandwidth and size); Oracle's
"Setting Transparent HugePages to madvise" (THP enabled by default with Oracle Linux); the
kernel's THP config choice (commit 13ece886: always or madvise, chosen at build time), which
is why Ubuntu (madvise) and Debian get no claimed default.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from tests.conftest import example
from tests.rules.test_properties_linux import on

NOT_RHEL = ["ol", "centos", "rocky", "alma", "sles", "opensuse", "ubuntu", "debian", "other"]
RHEL_WORD = re.compile(r"\bRHEL\b")
SHARED_OR_LOCAL = ["xfs", "ext4", "nfs", "gpfs", "other"]


def on_distribution(distribution: str, filesystem: str = "ext4") -> dict[str, Any]:
    doc = example("linux-rhel8-sas94") | {"name": f"{distribution} SAS compute server"}
    doc["server"].update(distribution=distribution, os_version="22.04", kernel="5.15.0")
    for entry in doc["storage"]:
        entry["filesystem"] = filesystem
    return doc


def texts(result: dict[str, Any]) -> list[str]:
    """Everything the advice says in words: rationales, warnings, skips and the files."""
    said = [r["rationale"] for r in result["recommendations"]]
    said += [w["message"] + " " + w["action"] for w in result["warnings"]]
    said += [s["reason"] for s in result["skipped"]]
    return said + list(result["artifacts"].values())


def rule_texts(result: dict[str, Any], rule: str) -> list[str]:
    said = [r["rationale"] for r in result["recommendations"] if r["rule"] == rule]
    return said + [w["message"] for w in result["warnings"] if w["rule"] == rule]


def test_rhel_wording_on_other_distributions_ubuntu() -> None:
    """The audit's Ubuntu server was told "RHEL recommends XFS" and "RHEL's THP default is
    always"; Ubuntu's kernel defaults to madvise (a build-time choice, kernel commit
    13ece886), and Ubuntu publishes no file system guidance for data."""
    result = rules.advise(on_distribution("ubuntu"))
    fs = " ".join(rule_texts(result, "linux.filesystems"))
    thp = " ".join(rule_texts(result, "linux.thp"))
    assert "XFS" in fs and "Ubuntu publishes no guidance of its own" in fs
    assert "Ubuntu's kernel chose its default (always or madvise)" in thp
    assert not any(RHEL_WORD.search(t) for t in texts(result))
    thp_rec = next(r for r in result["recommendations"] if r["rule"] == "linux.thp")
    assert thp_rec["extra"]["default"] == ""  # no claimed default: the script reads it
    assert "kernel-thp-config" in thp_rec["sources"]


def test_rhel_wording_on_other_distributions_suse_and_oracle_linux() -> None:
    """SUSE's own guide (XFS for everything but the OS's Btrfs) and Oracle's own pages speak
    for SLES and Oracle Linux; the script's refusal names Oracle Linux, not RHEL."""
    suse = rules.advise(
        on_distribution("sles")
        | {
            "server": {
                **on_distribution("sles")["server"],
                "os_version": "15.5",
                "kernel": "5.14.21",
            }
        }
    )
    said = " ".join(rule_texts(suse, "linux.filesystems"))
    assert "SUSE makes XFS the default" in said
    assert any("suse-filesystems" in w["sources"] for w in suse["warnings"])
    ol_doc = on_distribution("ol")
    ol_doc["server"].update(os_version="9.4", kernel="5.14.0")
    ol = rules.advise(ol_doc)
    assert "Oracle's Oracle Linux file system guide" in " ".join(
        rule_texts(ol, "linux.filesystems")
    )
    assert "Oracle Linux's kernels ship with always" in " ".join(rule_texts(ol, "linux.thp"))
    assert "EXPECT_LABEL='Oracle Linux 9'" in ol["artifacts"]["linux_tuning.sh"]
    assert not any(RHEL_WORD.search(t) for t in texts(ol) + texts(suse))


def test_rhel_wording_kept_on_rhel() -> None:
    """On RHEL itself Red Hat's guidance is the one to name."""
    result = rules.advise(
        on_distribution("rhel")
        | {"server": {**on_distribution("rhel")["server"], "os_version": "9.4", "kernel": "5.14.0"}}
    )
    assert "RHEL recommends XFS" in " ".join(rule_texts(result, "linux.filesystems"))
    assert "RHEL's default is always" in " ".join(rule_texts(result, "linux.thp"))


@st.composite
def non_rhel(draw: st.DrawFn) -> dict[str, Any]:
    doc = draw(on("linux")) | {"name": "a generated server"}  # the name is echoed as given
    doc["server"]["distribution"] = draw(st.sampled_from(NOT_RHEL))
    for entry in doc["storage"][:20]:
        entry["filesystem"] = draw(st.sampled_from(SHARED_OR_LOCAL))
        entry["devices"] = draw(st.lists(st.sampled_from(["sdb", "sdc", "md0", "dm-3"]),
                                         max_size=3, unique=True))  # fmt: skip
    return doc


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(non_rhel())
def test_no_rhel_wording_on_a_non_rhel_distribution(document: dict[str, Any]) -> None:
    """Issue 24 item 5: no RHEL wording on another distribution, over generated inventories
    (every distribution but RHEL, local and shared file systems, md/dm and plain devices)."""
    result = rules.advise(document)
    found = [t for t in texts(result) if RHEL_WORD.search(t)]
    assert not found, found[0][:300]
