"""Block queue attributes, sysctl, transparent huge pages and tuned-adm."""

from __future__ import annotations

import pytest

from rules.parse.linux_tuning import block_queue, sysctl, thp, tuned_active
from rules.parse.registry import Garbled, Section
from tests.rules.parse.fixtures import section


def test_block_queue_grep_h_all_attributes() -> None:
    q = block_queue(section("linux/sys_block_queue_debian12.txt"))
    assert q["vda"] == {
        "max_sectors_kb": "4096",
        "max_hw_sectors_kb": "2147483647",
        "read_ahead_kb": "8192",
        "scheduler": "mq-deadline",
        "rotational": "1",
    }
    assert q["loop0"]["scheduler"] == "none"
    assert "scheduler" not in q["zram0"]  # zram has no elevator file
    assert q["zram0"]["max_sectors_kb"] == "124"


def test_block_queue_single_file_takes_device_from_argv() -> None:
    assert block_queue(section("linux/scheduler_sdb_deadline.txt")) == {
        "sdb": {"scheduler": "deadline"}
    }


def test_block_queue_missing_file_is_garbled() -> None:
    argv = ("cat", "/sys/block/sdz/queue/scheduler")
    lines = ("cat: /sys/block/sdz/queue/scheduler: No such file or directory",)
    with pytest.raises(Garbled):
        block_queue(Section(" ".join(argv), argv, lines, 1))


def test_sysctl_a_as_non_root_skips_permission_errors() -> None:
    values = sysctl(section("linux/sysctl_a_debian12_nobody.txt"))
    assert values["vm.swappiness"] == "60"
    assert values["vm.dirty_ratio"] == "20"
    assert values["fs.dentry-state"].split("\t")[:2] == ["150669", "148920"]
    assert "kernel.cad_pid" not in values
    assert len(values) == 59


def test_sysctl_with_a_malformed_setting() -> None:
    assert sysctl(section("linux/sysctl_malformed_setting.txt")) == {"vm.swappiness": "60"}


def test_sysctl_n_maps_values_to_the_keys_asked() -> None:
    argv = ("sysctl", "-n", "vm.swappiness", "vm.dirty_ratio")
    assert sysctl(Section(" ".join(argv), argv, ("60", "20"), 1)) == {
        "vm.swappiness": "60",
        "vm.dirty_ratio": "20",
    }


def test_sysctl_only_errors_is_an_empty_answer() -> None:
    argv = ("sysctl", "vm.nosuch")
    lines = ("sysctl: cannot stat /proc/sys/vm/nosuch: No such file or directory",)
    assert sysctl(Section(" ".join(argv), argv, lines, 1)) == {}


@pytest.mark.parametrize(
    ("name", "setting", "active"),
    [
        ("linux/thp_enabled_debian12.txt", "enabled", "madvise"),
        ("linux/thp_enabled_never_insights.txt", "enabled", "never"),
        ("linux/thp_defrag_debian12.txt", "defrag", "madvise"),
        ("linux/thp_defrag_azurelinux.txt", "defrag", "madvise"),
    ],
)
def test_thp(name: str, setting: str, active: str) -> None:
    t = thp(section(name))
    assert (t.setting, t.active, t.redhat_path) == (setting, active, False)
    assert "never" in t.choices


def test_thp_rhel6_path_and_missing_file() -> None:
    argv = ("cat", "/sys/kernel/mm/redhat_transparent_hugepage/enabled")
    t = thp(Section(" ".join(argv), argv, ("[always] madvise never",), 1))
    assert (t.active, t.redhat_path) == ("always", True)
    missing = (
        "cat: /sys/kernel/mm/redhat_transparent_hugepage/enabled: No such file or directory",
    )
    assert thp(Section(" ".join(argv), argv, missing, 1)).active is None


def test_tuned_active() -> None:
    t = tuned_active(section("linux/tuned_active_balanced.txt"))
    assert (t.profile, t.post_loaded, t.preset, t.running) == ("balanced", None, None, True)


def test_tuned_post_loaded_profile() -> None:
    t = tuned_active(section("linux/tuned_active_post_loaded.txt"))
    assert (t.profile, t.post_loaded) == ("balanced post", "post")


def test_tuned_off() -> None:
    t = tuned_active(section("linux/tuned_active_off.txt"))
    assert (t.profile, t.preset) == (None, None)


def test_tuned_daemon_not_running_has_only_a_preset() -> None:
    t = tuned_active(section("linux/tuned_list_daemon_not_running.txt"))
    assert (t.profile, t.preset, t.running) == (None, "virtual-guest", False)


def test_tuned_without_a_profile_line_is_garbled() -> None:
    argv = ("tuned-adm", "active")
    with pytest.raises(Garbled):
        tuned_active(Section("tuned-adm active", argv, ("bash: tuned-adm: command not found",), 1))
