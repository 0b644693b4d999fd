"""Every Linux/Unix parser answers any text with a value or Garbled, never another error."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse import linux
from rules.parse.registry import Garbled, Section
from rules.parse.sections import argv_of

COMMANDS: list[tuple[Callable[[Section], Any], str]] = [
    (linux.uname, "uname -a"),
    (linux.hostname, "hostname"),
    (linux.df, "df -kP"),
    (linux.mount, "mount"),
    (linux.os_release, "cat /etc/os-release"),
    (linux.redhat_release, "cat /etc/redhat-release"),
    (linux.nproc, "nproc"),
    (linux.lscpu, "lscpu"),
    (linux.meminfo, "cat /proc/meminfo"),
    (linux.findmnt, "findmnt -rn -b -o TARGET,SOURCE,FSTYPE,OPTIONS,SIZE"),
    (linux.proc_mounts, "cat /proc/mounts"),
    (linux.lsblk, "lsblk"),
    (linux.block_queue, "cat /sys/block/sda/queue/scheduler"),
    (linux.sysctl, "sysctl -n vm.swappiness"),
    (linux.thp, "cat /sys/kernel/mm/transparent_hugepage/enabled"),
    (linux.tuned_active, "tuned-adm active"),
    (linux.lvs, "lvs --noheadings -o lv_name,vg_name,lv_path,stripes,stripe_size,devices"),
    (linux.mdstat, "cat /proc/mdstat"),
]
PIECES = st.sampled_from(
    [
        "",
        " ",
        "  ",
        "\t",
        ":",
        "=",
        '"',
        "[",
        "]",
        "(",
        ")",
        "/",
        "-",
        "%",
        ",",
        "\\x20",
        "\\040",
        "└─",
        "|-",
        "1",
        "99999999999999999999999",
        "k",
        "md0",
        "on",
        "type",
        "LV",
        "NAME=",
        'TARGET="/"',
        "Filesystem",
        "Jan 1 10:00",
        "blocks",
        "CPU(s)",
        "kB",
        "#Str",
    ]
)
LINES = st.lists(st.lists(PIECES | st.text(max_size=8), max_size=12).map("".join), max_size=8)


@pytest.mark.parametrize(("fn", "command"), COMMANDS, ids=[c for _, c in COMMANDS])
@settings(max_examples=150, deadline=None)
@given(lines=LINES)
def test_any_text_gives_a_value_or_garbled(
    fn: Callable[[Section], Any], command: str, lines: list[str]
) -> None:
    try:
        fn(Section(command, argv_of(command), tuple(lines), 1))
    except Garbled as exc:
        assert 0 <= exc.offset <= max(0, len(lines) - 1)


LONG = 64 * 1024  # the splitter's longest line
ADVERSARIAL = [
    "a on " * (LONG // 5),
    " on /a (" * (LONG // 8),
    " " * (LONG // 2) + "x" * (LONG // 2),
    'a="' * (LONG // 3),
    "1 " * (LONG // 2),
    "a on b type c (" * (LONG // 16),
]


@pytest.mark.parametrize(("fn", "command"), COMMANDS, ids=[c for _, c in COMMANDS])
def test_a_long_hostile_line_is_read_in_linear_time(
    fn: Callable[[Section], Any], command: str
) -> None:
    started = time.perf_counter()
    for line in ADVERSARIAL:
        with contextlib.suppress(Garbled):
            fn(Section(command, argv_of(command), (line,), 1))
    assert time.perf_counter() - started < 2.0
