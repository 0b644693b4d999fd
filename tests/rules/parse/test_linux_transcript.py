"""A pasted Linux session reaches the Linux parsers through parse_text."""

from __future__ import annotations

from typing import Any

from rules.parse import Parsed, parse_text
from tests.rules.parse.fixtures import DEBIAN12, transcript

SESSION = (
    *DEBIAN12,
    "linux/sys_block_queue_debian12.txt",
    "linux/thp_enabled_debian12.txt",
    "linux/sysctl_a_debian12_nobody.txt",
    "unix/df_kp_debian12.txt",
    "unix/mount_debian12.txt",
    "linux/tuned_active_balanced.txt",
    "linux/mdstat_raid5_chunk.txt",
    "linux/lvs_sos_stripes.txt",
)


def value(parsed: Parsed, name: str) -> Any:
    found = parsed.first(name)
    assert found is not None, name
    return found.value


def test_every_section_is_read_by_its_parser() -> None:
    parsed = parse_text(transcript(*SESSION, prompt="[root@vm ~]# "))
    assert parsed.problems == []
    assert parsed.unknown == []
    assert value(parsed, "uname").machine == "x86_64"
    assert value(parsed, "hostname").name == "vm"
    assert value(parsed, "os_release").id == "debian"
    assert value(parsed, "nproc") == 2
    assert value(parsed, "lscpu").cores == 2
    assert value(parsed, "meminfo").mem_total_kb == 24684084
    assert len(value(parsed, "findmnt")) == 21
    assert value(parsed, "lsblk")[1].name == "vda"
    assert value(parsed, "block_queue")["vda"]["scheduler"] == "mq-deadline"
    assert value(parsed, "thp").active == "madvise"
    assert value(parsed, "sysctl")["vm.swappiness"] == "60"
    assert value(parsed, "df")[2].mount == "/"
    assert value(parsed, "mount")[5].target == "/"
    assert value(parsed, "tuned_active").profile == "balanced"
    assert value(parsed, "mdstat")[0].chunk_kb == 64
    assert value(parsed, "lvs")[0].lv == "lv1"
