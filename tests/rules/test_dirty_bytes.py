"""Dirty page limits on large memory: byte forms with a bound, one side of each pair.

Sources: the kernel's Documentation/admin-guide/sysctl/vm.rst (dirty_bytes is the counterpart
of dirty_ratio, dirty_background_bytes of dirty_background_ratio; only one of each pair is in
effect and writing one zeroes the other; dirty_bytes below two pages is refused) and commit
2da02997 "mm: add dirty_background_bytes and dirty_bytes sysctls" (percentages stop being
sufficient as memory grows); tuned's vm plugin (both sides of a pair in one profile are
"conflicting", "undefined behavior") and throughput-performance (40 %, 10 %; in [vm] from
tuned 2.25); SUSE TID 7010287 (lower the dirty cache in bytes on large-RAM servers).
"""

from __future__ import annotations

import shutil
import subprocess
from configparser import ConfigParser
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.conftest import example
from tests.rules.linux_script import FakeLinux
from tests.rules.test_render_linux import load_with_tuned

GIB = 2**30
PAIRS = (("dirty_ratio", "dirty_bytes"), ("dirty_background_ratio", "dirty_background_bytes"))


def big_box(ram_gb: float = 4096, version: str = "9.4", distribution: str = "rhel") -> Any:
    """The finding's server: 192 cores, 4 TB of RAM, three sessions."""
    doc = example("linux-128cpu-multiuser")
    doc["server"].update(ram_gb=ram_gb, cpus=192, cores=192, os_version=version,
                         distribution=distribution)  # fmt: skip
    doc["workload"]["concurrent_sessions"] = 3
    return doc


def dirty(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["setting"]: r for r in result["recommendations"] if r["rule"] == "linux.dirty"}


def sections(profile: str) -> ConfigParser:
    parser = ConfigParser(interpolation=None, comment_prefixes=("#",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(profile)
    return parser


def test_dirty_ratio_30_on_4_tb_becomes_a_byte_bound() -> None:
    """The finding: vm.dirty_ratio=30 on 4 TB let ~1.2 TB of dirty pages build before
    writers were throttled. vm.rst and commit 2da02997: on large memory the byte forms."""
    done = rules.advise(big_box())
    found = dirty(done)
    assert set(found) == {"dirty_bytes", "dirty_background_bytes"}
    assert found["dirty_bytes"]["value"] == str(96 * GIB)
    assert found["dirty_background_bytes"]["value"] == str(32 * GIB)
    why = found["dirty_bytes"]["rationale"]
    assert "1228.8 GB of dirty pages" in why  # what 30 % of 4096 GB would have allowed
    assert "commit 2da02997" in why and "Documentation/admin-guide/sysctl/vm.rst" in why
    assert "The bound is unconfirmed" in why and "Measure before keeping it" in why
    assert "/proc/meminfo" in why
    assert set(found["dirty_bytes"]["sources"]) >= {"kernel-vm-sysctl", "suse-dirty-cache"}
    profile = sections(done["artifacts"]["tuned.conf"])
    assert profile["sysctl"]["drop"] == "vm.dirty_ratio,vm.dirty_background_ratio"
    assert "vm.dirty_ratio" not in profile["sysctl"]
    sysctl_d = done["artifacts"]["linux_tuning.sh"].split("sysctl_conf() {")[1]
    assert f"vm.dirty_bytes = {96 * GIB}\n" in sysctl_d and "vm.dirty_ratio" not in sysctl_d


def test_the_byte_limits_are_the_ones_tuneds_loader_keeps(tmp_path: Path) -> None:
    """tuned's own loader (Debian's tuned) merges the child over throughput-performance:
    the parent's ratios are dropped, so the byte limits are the only dirty limits left."""
    profile = rules.advise(big_box())["artifacts"]["tuned.conf"]
    merged = load_with_tuned(profile, tmp_path)
    sysctl = merged["sysctl"][2]
    assert isinstance(sysctl, dict)
    assert sysctl["vm.dirty_bytes"] == str(96 * GIB)
    assert sysctl["vm.dirty_background_bytes"] == str(32 * GIB)
    assert not {"vm.dirty_ratio", "vm.dirty_background_ratio", "drop"} & set(sysctl)


def test_a_256_gb_server_keeps_the_sas_profiles_percentages() -> None:
    """30 % of 256 GB is 76.8 GB, under the 96 GiB bound: the ratios stay as they were."""
    found = dirty(rules.advise(example("linux-rhel9-sas94")))
    assert {k: v["value"] for k, v in found.items()} == {
        "dirty_ratio": "30", "dirty_background_ratio": "10",
    }  # fmt: skip


def test_tuned_vm_plugin_drops_the_parents_other_side(tmp_path: Path) -> None:
    """RHEL 9.6 (tuned 2.25+): the values go in [vm]; tuned 2.26's parent sets dirty_bytes
    as a percentage there, so a child dirty_ratio drops it, and a child dirty_bytes drops
    the ratios (tuned plugin_vm: both sides are 'conflicting')."""
    small = sections(rules.advise(big_box(ram_gb=256, version="9.6"))["artifacts"]["tuned.conf"])
    assert small["vm"]["dirty_ratio"] == "30"
    assert small["vm"]["drop"] == "dirty_bytes,dirty_background_bytes"
    large = sections(rules.advise(big_box(version="9.6"))["artifacts"]["tuned.conf"])
    assert large["vm"]["dirty_bytes"] == str(96 * GIB)
    assert large["vm"]["drop"] == "dirty_ratio,dirty_background_ratio"
    assert "sysctl" not in large or "vm.dirty_bytes" not in large["sysctl"]


@pytest.mark.parametrize(
    ("version", "distribution"), [("7.9", "rhel"), ("15.5", "sles"), ("8.1", "rhel")]
)
def test_where_tuned_cannot_drop_the_ratios_they_are_lowered_to_the_bound(
    version: str, distribution: str
) -> None:
    """tuned before 2.13 has no drop=: a byte limit beside the parent's ratio would depend
    on which one tuned writes last, so the percentages themselves carry the bound."""
    done = rules.advise(big_box(version=version, distribution=distribution))
    found = dirty(done)
    assert {k: v["value"] for k, v in found.items()} == {
        "dirty_ratio": "2", "dirty_background_ratio": "1",  # 96 GiB and 32 GiB of 4096 GB
    }  # fmt: skip
    assert "unconfirmed" in found["dirty_ratio"]["rationale"]
    assert "\ndrop=" not in done["artifacts"]["tuned.conf"]


@pytest.mark.parametrize("ram_gb", [8, 256, 320, 321, 1024, 4096, 65536])
@pytest.mark.parametrize(
    ("version", "distribution"),
    [("8.8", "rhel"), ("9.6", "rhel"), ("7.9", "rhel"), ("22.04", "ubuntu")],
)
def test_no_profile_or_file_sets_both_sides_of_a_pair(
    ram_gb: float, version: str, distribution: str
) -> None:
    """Only one of each pair is ever in effect (vm.rst): the advice names one side, and
    every sysctl.d line and tuned section carries one side of each pair."""
    done = rules.advise(big_box(ram_gb, version, distribution))
    settings = set(dirty(done))
    profile = sections(done["artifacts"]["tuned.conf"])
    sysctl_d = done["artifacts"]["linux_tuning.sh"].split("sysctl_conf() {")[1]
    for ratio, size in PAIRS:
        assert len(settings & {ratio, size}) == 1
        assert (f"vm.{ratio} =" in sysctl_d) != (f"vm.{size} =" in sysctl_d)
        for name in profile.sections():
            keys = set(profile[name])
            assert not {ratio, size} <= keys and not {f"vm.{ratio}", f"vm.{size}"} <= keys


def test_rollback_restores_the_ratio_that_was_in_effect(tmp_path: Path) -> None:
    """vm.rst: the side not in effect reads 0, and dirty_bytes refuses anything below two
    pages. So rollback.sh puts back the ratio that was in effect, never dirty_bytes=0."""
    files = rules.advise(example("linux-128cpu-multiuser"))["artifacts"]
    script = tmp_path / "linux_tuning.sh"
    script.write_text(files["linux_tuning.sh"])
    fake = FakeLinux(tmp_path / "fake", tuned=False, version="8.8")
    fake.write("proc/sys/vm/dirty_bytes", "0")
    fake.write("proc/sys/vm/dirty_background_bytes", "0")
    shown = fake.run(script, "-n")
    assert shown.returncode == 0, shown.stderr
    assert (
        f"change: vm.dirty_bytes: 0 (dirty_ratio 20 in effect) -> {96 * GIB}"
        in shown.stdout.splitlines()
    )
    done = fake.run(script)
    assert done.returncode == 0, done.stdout + done.stderr
    assert fake.value("proc/sys/vm/dirty_bytes") == str(96 * GIB)
    (rollback,) = fake.backups.glob("*/rollback.sh")
    text = rollback.read_text()
    assert f"restore '{fake.root}/proc/sys/vm/dirty_ratio' '20'" in text
    assert f"restore '{fake.root}/proc/sys/vm/dirty_background_ratio' '10'" in text
    assert "dirty_bytes' '0'" not in text and "dirty_background_bytes' '0'" not in text


@pytest.mark.parametrize("shell", ["sh", "ksh", "dash"])
def test_the_large_memory_script_parses_and_passes_shellcheck(shell: str, tmp_path: Path) -> None:
    if not shutil.which(shell):
        pytest.skip(f"{shell} is not installed")
    path = tmp_path / "linux_tuning.sh"
    path.write_text(rules.advise(big_box())["artifacts"]["linux_tuning.sh"])
    done = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    if shell == "sh" and shutil.which("shellcheck"):
        lint = subprocess.run(["shellcheck", "-s", "sh", str(path)], capture_output=True,
                              text=True)  # fmt: skip
        assert lint.returncode == 0, lint.stdout
