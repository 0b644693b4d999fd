"""Every parser, and the whole pipeline, on any text: facts or a line-numbered problem.

A bundle is untrusted text. Whatever it holds, each registered parser returns a value or
raises `Garbled` (which `parse_text` turns into a problem with its line number); no other
exception, and `draft` always returns a draft.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.parse import draft, parse_text
from rules.parse.registry import PARSERS, Garbled, Parser, Section, find
from rules.parse.sections import argv_of

MEASURE_LINES = (
    "/usr/bin/time -p dd if=/dev/zero of=/saswork/.sas-advisor-measure.42 bs=1048576"
    " count=1024 conv=fdatasync",
    "dd if=/saswork/.sas-advisor-measure.42 of=/dev/null bs=1048576",
    "sas-advisor-measure /saswork",
    "fio --output-format=json seq.fio",
    "./rhel_iotest.sh -t /saswork",
    "diskspd.exe -c8G -b512K -t8 -w100 -Sh D:\\saswork\\iotest.dat",
    "sasiotest.exe D:\\saswork\\test.out -w -filesize 8GB -pagesize 64K",
)
WINDOWS_LINES = (
    "systeminfo",
    "wmic cpu get NumberOfCores,NumberOfLogicalProcessors",
    "Get-Volume",
    "fsutil fsinfo ntfsinfo D:",
    "Get-PhysicalDisk",
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Text shaped like command output: words, numbers, separators, the odd control character.
ALPHABET = string.ascii_letters + string.digits + " \t:=,;()[]{}/.-_%#$>@'\"\\|*" + "\x00\x1b└─é"
LINES = st.lists(st.text(ALPHABET, max_size=80), max_size=30)
# Command lines as the collector or a person runs them; each parser is fed the first one
# the registry routes to it.
COMMAND_LINES = (
    "uname -a", "hostname", "oslevel -s", "prtconf", "lparstat -i", "smtctl", "psrinfo -pv",
    "lsattr -El hdisk0", "lsattr -El fcs0", "lsattr -El sys0 -a realmem", "lsattr -El en0",
    "lsdev -Cc disk", "lsdev -Cc processor", "lsdev -Cc adapter", "lsdev -C", "lsvg",
    "lsvg datavg", "lsvg -l datavg", "lsvg -p datavg", "lslv lv01", "lslv -l lv01", "lspv",
    "lspath -l hdisk0", "lspv hdisk0", "lspv -l hdisk0", "lsfs -c", "lsps -s",
    "bindprocessor -q", "ioo -a", "vmo -a", "vmstat -v", "vmstat 1 5", "df -k", "mount", "findmnt",
    "lsblk", "lscpu", "nproc", "sysctl -a", "tuned-adm active", "lvs", "cat /proc/meminfo",
    "cat /etc/os-release", "cat /etc/redhat-release", "cat /proc/mounts", "cat /proc/mdstat",
    "cat /sys/kernel/mm/transparent_hugepage/enabled",
    "grep -H . /sys/block/sda/queue/scheduler", "cat /opt/sas/9.4/sasv9_local.cfg",
    "cat /spds/site/spdsserv.parm", "cat /spds/site/libnames.parm",
    "nvme list", "multipath -ll", "xfs_info /saswork", "free -m", "hostnamectl",
    "cat /etc/SuSE-release", "mdadm --detail /dev/md0", "uname -r", "prtdiag -v",
    "psrinfo -v", "zfs list", "zfs get all", "zpool status", "zpool list", "swap -l",
    "cat /etc/release", "btrfs filesystem show", "btrfs subvolume list /", "swapon --show",
    "cat /proc/swaps",
    *MEASURE_LINES,
    *WINDOWS_LINES,
)  # fmt: skip


def _command(parser: Parser) -> str:
    found = next((c for c in COMMAND_LINES if find(argv_of(c)) is parser), None)
    assert found is not None, f"no sample command line reaches parser {parser.name}"
    return found


def _section(parser: Parser, lines: list[str]) -> Section:
    command = _command(parser)
    return Section(command, argv_of(command), tuple(lines), 1)


@pytest.mark.parametrize("parser", PARSERS, ids=lambda p: p.name)
@SETTINGS
@given(lines=LINES)
def test_each_parser_gives_a_value_or_garbled(parser: Parser, lines: list[str]) -> None:
    try:
        parser.fn(_section(parser, lines))
    except Garbled as exc:
        assert 0 <= exc.offset <= max(0, len(lines) - 1) or not lines
        assert exc.message


COMMANDS = st.sampled_from(
    sorted({c for p in PARSERS for c in p.commands}) + list(COMMAND_LINES) + ["unknowncmd -x"]
)


@st.composite
def transcripts(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        parts.append(draw(st.sampled_from(["$ ", "# ", "[root@h ~]# ", "h:/> "])) + draw(COMMANDS))
        parts.extend(draw(LINES))
    return "\n".join(parts)


@SETTINGS
@given(text=transcripts())
def test_any_transcript_gives_a_draft_with_problems_by_line(text: str) -> None:
    assert_drafts_with_problems_by_line(text)


def assert_drafts_with_problems_by_line(text: str) -> None:
    """`text` gives a draft (asking for the workload) and every problem names a line of it."""
    parsed = parse_text(text)
    lines = text.count("\n") + 1
    assert all(1 <= p.line <= lines for p in parsed.problems)
    found = draft(text)
    assert found.document["schema_version"] == 1
    assert any(m.path == "workload" for m in found.missing)
