"""tuned.conf and linux_tuning.sh for the Linux examples: the profile loads with tuned's own
loader (Debian's tuned package), the scripts pass every shell's parser and shellcheck, and
no output names a sysctl its kernel does not have."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import rules
from rules.render import linux_tuning
from tests.conftest import example

LINUX_EXAMPLES = ("linux-rhel8-sas94", "linux-rhel9-sas94", "linux-128cpu-multiuser",
                  "aws-i4i-rhel9-sas94m8", "sasgrid-gpfs-rhel8", "linux-192core-4tb")  # fmt: skip
# 512 GB of RAM and more: dirty limits in bytes, throughput-performance's ratios dropped.
DIRTY_BYTES = ("linux-128cpu-multiuser", "sasgrid-gpfs-rhel8", "linux-192core-4tb")
# The read-ahead goes on the device each SAS file system is mounted from: the instance-store
# NVMe disks themselves, or the md RAID 0 (its members keep the parent's value).
MOUNTED_FROM = {
    "aws-i4i-rhel9-sas94m8": [
        "disk", "nvme*", {"readahead": ">4096", "elevator": "none"}
    ],
    "sasgrid-gpfs-rhel8": ["disk", "md0", {"readahead": ">16384"}],
    "linux-192core-4tb": ["disk", "md0", {"readahead": ">16384"}],
}  # fmt: skip
TUNED_PYTHON = "/usr/bin/python3"
TUNED_PROFILES = Path("/usr/lib/tuned")
SCHEDULER_SYSCTLS = ("kernel.sched_min_granularity_ns", "kernel.sched_wakeup_granularity_ns",
                     "kernel.sched_migration_cost_ns")  # fmt: skip
LOAD = """
import json, sys
import tuned.profiles as profiles
from tuned.utils.global_config import GlobalConfig
from tuned.profiles.variables import Variables
locator = profiles.Locator([sys.argv[1], sys.argv[2]])
factory, merger = profiles.Factory(), profiles.Merger()
loader = profiles.Loader(locator, factory, merger, GlobalConfig(), Variables())
merged = loader.load(["sas-performance"])
print(json.dumps({n: [u.type, u.devices, dict(u.options)] for n, u in merged.units.items()}))
"""


def artifacts(name: str) -> dict[str, str]:
    return rules.advise_inventory(rules.inventory_from(example(name))).artifacts


def need(tool: str, present: bool) -> None:
    if not present:
        message = f"{tool} is not installed"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)


def load_with_tuned(profile: str, tmp_path: Path) -> dict[str, list[object]]:
    """The merged profile as tuned's own loader builds it (parent from /usr/lib/tuned)."""
    installed = subprocess.run([TUNED_PYTHON, "-c", "import tuned"], capture_output=True)
    need("tuned (Debian's package)", installed.returncode == 0 and TUNED_PROFILES.is_dir())
    (tmp_path / "sas-performance").mkdir()
    (tmp_path / "sas-performance/tuned.conf").write_text(profile)
    done = subprocess.run(
        [TUNED_PYTHON, "-c", LOAD, str(TUNED_PROFILES), str(tmp_path)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    merged: dict[str, list[object]] = json.loads(done.stdout)
    return merged


@pytest.mark.parametrize("name", LINUX_EXAMPLES)
def test_the_profile_loads_with_tuneds_loader(name: str, tmp_path: Path) -> None:
    merged = load_with_tuned(artifacts(name)["tuned.conf"], tmp_path)
    assert merged["vm"][2] == {"transparent_hugepages": "never"}
    assert merged["sysctl"][2]["vm.swappiness"] == "10"
    sysctl = merged["sysctl"][2]
    if name in DIRTY_BYTES:  # byte limits, the parent's ratios dropped
        assert sysctl["vm.dirty_bytes"] == str(96 * 2**30)
        assert "vm.dirty_ratio" not in sysctl and "vm.dirty_background_ratio" not in sysctl
    else:
        assert sysctl["vm.dirty_ratio"] == "30"
    assert merged["cpu"][2]["governor"] == "performance"
    if name in MOUNTED_FROM:
        assert merged["disk"] == MOUNTED_FROM[name]
    elif name != "linux-128cpu-multiuser":  # the examples that name their devices
        # every NVMe namespace: NVMe kernel names may change at boot (aws-ebs-nvme)
        assert merged["disk"][:2] == ["disk", "nvme*"]
        # The members of the md/LVM layers keep the parent's read-ahead: the SAS value goes to
        # the device each file system is mounted from, found from the mount by the script.
        assert merged["disk"][2] == {"readahead": ">4096", "elevator": "none"}
        assert merged["disk_sdb_sdc_sdd_sde"] == [
            "disk", "sdb,sdc,sdd,sde", {"elevator": "mq-deadline"}
        ]  # fmt: skip


def test_no_output_names_a_scheduler_sysctl() -> None:
    # RHEL 9's kernel (5.14) has none of them (kernel-sched-debugfs); no Linux output names
    # them at all, as tuned's own profiles dropped them (tuned c6d6fdc).
    for name in LINUX_EXAMPLES:
        for text in artifacts(name).values():
            assert not any(sysctl in text for sysctl in SCHEDULER_SYSCTLS), name


@pytest.mark.parametrize("shell", ["sh", "dash", "bash", "ksh"])
def test_the_scripts_parse_in_every_shell(shell: str, tmp_path: Path) -> None:
    need(shell, shutil.which(shell) is not None)
    for name in LINUX_EXAMPLES:
        path = tmp_path / f"{name}.sh"
        path.write_text(artifacts(name)["linux_tuning.sh"])
        done = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True)
        assert done.returncode == 0, (name, done.stderr)


def test_the_scripts_and_their_fixed_parts_pass_shellcheck(tmp_path: Path) -> None:
    need("shellcheck", shutil.which("shellcheck") is not None)
    paths = []
    for name in LINUX_EXAMPLES:
        paths.append(tmp_path / f"{name}.sh")
        paths[-1].write_text(artifacts(name)["linux_tuning.sh"])
    parts = Path(linux_tuning.__file__).parent
    paths += [parts / "linux_tuning_lib.sh", parts / "linux_tuning_main.sh"]
    done = subprocess.run(
        ["shellcheck", "-s", "sh", *map(str, paths)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout


def test_the_script_carries_the_profile_and_the_release_it_was_made_for() -> None:
    files = artifacts("linux-rhel8-sas94")
    script = files["linux_tuning.sh"]
    assert files["tuned.conf"].rstrip("\n") in script
    assert "EXPECT_MAJOR='8'" in script and "EXPECT_LABEL='RHEL 8'" in script
    assert "EXPECT_IDS='rhel ol centos rocky almalinux'" in script
