"""Every AIX and Solaris parser answers any text with a value or Garbled, in linear time."""

from __future__ import annotations

import contextlib
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse.registry import PARSERS, Garbled, Parser, Section
from rules.parse.sections import argv_of

COMMANDS = {
    "aix_oslevel": "oslevel -s", "prtconf": "prtconf", "aix_lparstat": "lparstat -i",
    "aix_smtctl": "smtctl", "aix_lsattr_disk": "lsattr -El hdisk4",
    "aix_lsattr_fcs": "lsattr -El fcs0", "aix_lsattr_sys0": "lsattr -El sys0 -a realmem",
    "aix_lsattr": "lsattr -El en0", "aix_lsdev_processor": "lsdev -Cc processor",
    "aix_lsdev_disk": "lsdev -Cc disk", "aix_lsdev_adapter": "lsdev -Cc adapter",
    "aix_lsdev": "lsdev -C", "aix_lspath": "lspath -l hdisk4", "aix_lsvg_list": "lsvg",
    "aix_lsvg": "lsvg datavg", "aix_lsvg_lvs": "lsvg -l datavg", "aix_lsvg_pvs": "lsvg -p datavg",
    "aix_lslv": "lslv lv01", "aix_lslv_pvs": "lslv -l lv01", "aix_lspv": "lspv", "ioo": "ioo -a",
    "vmo": "vmo -L", "aix_vmstat_v": "vmstat -v", "psrinfo": "psrinfo -pv",
}  # fmt: skip
OURS = [p for p in PARSERS if p.name in COMMANDS]
PIECES = st.sampled_from(
    [
        "", " ", "  ", "\t", ":", " : ", "=", " = ", ",", "%", "-", "..", "(", ")", "0x40000",
        "99999999999999999999999", "1,00", "n/a", "N/A", "None", "none", "True", "True+",
        "False", "hdisk4", "proc0", "Available", "Defined", "Enabled", "fscsi0", "rootvg:",
        "LV NAME", "PV_NAME", "PP SIZE:", "STRIPE SIZE:", "64K", "megabyte(s)", "Type",
        "Shared-SMT-4", "SMT is currently enabled.", "proc8 has 4 SMT threads.",
        "##Restricted tunables", "NAME", "D", "The physical processor has", "cores and",
        "virtual processors", "Memory size:", "Memory Size:", "0516-010", "7200-05-03-2148",
    ]
)  # fmt: skip
LINES = st.lists(st.lists(PIECES | st.text(max_size=8), max_size=12).map("".join), max_size=10)


def test_every_parser_here_has_a_command() -> None:
    assert sorted(p.name for p in OURS) == sorted(COMMANDS)


@pytest.mark.parametrize("parser", OURS, ids=lambda p: p.name)
@settings(max_examples=120, deadline=None)
@given(lines=LINES)
def test_any_text_gives_a_value_or_garbled(parser: Parser, lines: list[str]) -> None:
    command = COMMANDS[parser.name]
    try:
        parser.fn(Section(command, argv_of(command), tuple(lines), 1))
    except Garbled as exc:
        assert 0 <= exc.offset <= max(0, len(lines) - 1)
        assert exc.message


LONG = 64 * 1024  # the splitter's longest line
ADVERSARIAL = [
    "A" + " " * (LONG - 3) + "x",
    "A: " + " " * (LONG // 2) + "x",
    "a:" * (LONG // 2) + " x",
    "Key : " * (LONG // 6),
    "STALE PPs: " * (LONG // 11),
    "1 " * (LONG // 2),
    "hdisk0 " * (LONG // 7),
    "The physical processor has " * (LONG // 28),
    "Bind processor 1 is bound with proc0 " * (LONG // 38),
    "0x" + "f" * (LONG - 2),
]


@pytest.mark.parametrize("parser", OURS, ids=lambda p: p.name)
def test_a_long_hostile_line_is_read_in_linear_time(parser: Parser) -> None:
    command = COMMANDS[parser.name]
    started = time.perf_counter()
    for line in ADVERSARIAL:
        with contextlib.suppress(Garbled):
            parser.fn(Section(command, argv_of(command), (line, line), 1))
    assert time.perf_counter() - started < 2.0
