"""The "System configuration:" header of AIX's vmstat, iostat, lparstat, sar and mpstat, on
real captures (tests/fixtures/parse/aix/), and what the AIX combiner takes from it."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.parse import draft, parse_text
from rules.parse.aix_sysconfig import MAX_WORDS, NO_HEADER, SysConfig, sysconfig
from rules.parse.os_evidence import evidence
from rules.parse.registry import Section, find
from rules.parse.sections import argv_of
from tests.rules.parse.fixtures import header_and_output, section, transcript

NEOFETCH = "aix/vmstat_shared_lpar_neofetch.txt"  # lcpu=4 mem=4096MB ent=0.10
CHECKMK = "aix/vmstat_lcpu8_6gb_checkmk.txt"  # lcpu=8 mem=6144MB ent=4.00
SMT8 = "aix/lparstat_shared_smt8_mgben.txt"  # type=Shared … smt=8 lcpu=8 mem=2048MB
SALT = "aix/iostat_dD_hdisk6_salt.txt"  # lcpu=8 drives=1 paths=2 vdisks=2
HYPERVISOR = "aix/lparstat_H_shared_smt_on_datadog.txt"  # smt=On lcpu=4 mem=7936MB
MEMORY = "aix/lparstat_m_eR_shared_datadog.txt"  # lcpu=4 mem=7936MB mpsz= iome= iomp=
SPURR = "aix/lparstat_E_spurr_datadog.txt"  # … ent=0.20 Power=Disabled
DEDICATED = "aix/lparstat_dedicated_capped_smt4_checkmk.txt"  # type=Dedicated … lcpu=4
FIXTURES = (NEOFETCH, CHECKMK, SMT8, SALT, HYPERVISOR, MEMORY, SPURR, DEDICATED)
# procps' vmstat on Linux: no header line.
LINUX_VMSTAT = (
    "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
    " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
    " 1  0      0 6510964 126264 1023640    0    0    41    16   97  164  1  0 98  0  0",
)


def _of(command: str, *lines: str) -> SysConfig:
    value = sysconfig(Section(command, argv_of(command), lines, 1))
    assert isinstance(value, SysConfig)
    return value


def _server(text: str) -> tuple[dict[str, object], dict[str, tuple[str, str, str]]]:
    found = draft(text)
    where = {p: (v.command, v.raw, v.note) for p, v in found.provenance.items()}
    return found.document["server"], where


# ---------------------------------------------------------------------------------------
# The parser, shape by shape


def test_vmstat_header_gives_logical_cpus_memory_and_entitlement() -> None:
    conf = sysconfig(section(NEOFETCH))
    assert (conf.logical_cpus, conf.memory_mb, conf.entitled_capacity) == (4, 4096, 0.1)
    assert (conf.offset, conf.header) == (1, "System configuration: lcpu=4 mem=4096MB ent=0.10")
    assert (conf.smt_threads, conf.type, conf.mode, conf.pool_size) == (None, None, None, None)


def test_lparstat_header_gives_type_mode_smt_and_pool() -> None:
    conf = sysconfig(section(SMT8))
    assert (conf.type, conf.mode, conf.smt_threads, conf.smt_on) == ("Shared", "Uncapped", 8, True)
    assert (conf.logical_cpus, conf.memory_mb, conf.pool_size) == (8, 2048, 20)
    assert conf.entitled_capacity == 0.25


def test_a_dedicated_lpar_prints_no_entitlement_or_pool() -> None:
    conf = sysconfig(section(DEDICATED))
    assert (conf.type, conf.mode, conf.smt_threads, conf.logical_cpus) == (
        "Dedicated",
        "Capped",
        4,
        4,
    )
    assert (conf.entitled_capacity, conf.pool_size, conf.memory_mb) == (None, None, 16384)


def test_smt_on_without_a_count_leaves_the_threads_unknown() -> None:
    conf = sysconfig(section(HYPERVISOR))
    assert (conf.smt_threads, conf.smt_on, conf.logical_cpus, conf.memory_mb) == (
        None,
        True,
        4,
        7936,
    )
    off = _of("lparstat 1 1", "System configuration: type=Dedicated mode=Capped smt=Off lcpu=2")
    assert (off.smt_threads, off.smt_on, off.type, off.mode) == (1, False, "Dedicated", "Capped")


def test_memory_is_mem_only_never_the_io_entitlement_beside_it() -> None:
    conf = sysconfig(section(MEMORY))
    assert (conf.memory_mb, conf.logical_cpus, conf.entitled_capacity) == (7936, 4, 0.2)
    assert conf.values["iome"] == "7936.00MB" and conf.values["mpsz"] == "0.00GB"


def test_iostat_header_any_case_with_its_disk_counts() -> None:
    conf = sysconfig(section(SALT))
    assert (conf.logical_cpus, conf.memory_mb, conf.values["drives"]) == (8, None, "1")
    upper = _of("iostat", "System Configuration: lcpu=16 drives=3 paths=6 vdisks=0")
    assert (upper.logical_cpus, upper.values["paths"]) == (16, "6")


def test_mpstat_header_in_its_own_order() -> None:
    conf = _of("mpstat -h", "", "System configuration: lcpu=4 ent=0.2 mode=Uncapped", "")
    assert (conf.logical_cpus, conf.entitled_capacity, conf.mode) == (4, 0.2, "Uncapped")


def test_active_memory_expansion_keeps_the_true_memory() -> None:
    line = "System configuration: lcpu=2 mem=4096MB tmem=2048MB ent=0.40 mmode=dedicated-E"
    conf = _of("vmstat 2 1", line)
    assert (conf.memory_mb, conf.true_memory_mb, conf.values["mmode"]) == (
        4096,
        2048,
        "dedicated-E",
    )


def test_linux_output_has_no_header_and_reads_as_none() -> None:
    assert _of("vmstat 1 5", *LINUX_VMSTAT) == NO_HEADER
    assert _of("sar -u 1 1") == NO_HEADER


@pytest.mark.parametrize(
    "command",
    ["vmstat", "vmstat 1 5", "vmstat -t 2 3", "iostat", "iostat -dD hdisk6 1 3", "lparstat",
     "lparstat 1 2", "lparstat -H 1 1", "sar 1 1", "mpstat -h", "/usr/bin/vmstat -w 1"],
)  # fmt: skip
def test_the_commands_that_print_the_header_route_here(command: str) -> None:
    found = find(argv_of(command))
    assert found is not None and found.name == "aix_sysconfig"


@pytest.mark.parametrize(
    ("command", "parser"),
    [("vmstat -v", "aix_vmstat_v"), ("vmstat -sv", "aix_vmstat_v"), ("lparstat -i", "aix_lparstat"),
     ("vmstat -s", None), ("vmstat -i", None), ("vmstat -f", None)],
)  # fmt: skip
def test_the_reports_without_a_header_go_elsewhere(command: str, parser: str | None) -> None:
    found = find(argv_of(command))
    assert (found.name if found else None) == parser


def test_every_fixture_reads_its_header() -> None:
    for name in FIXTURES:
        conf = sysconfig(section(name))
        assert conf.header is not None and conf.logical_cpus, name


# ---------------------------------------------------------------------------------------
# Only the header, bounded


HEADERS = [header_and_output(name)[1] for name in FIXTURES]
ROW_ALPHABET = string.ascii_letters + string.digits + " \t:=.-%/[]" + "\x1b"
ROWS = st.lists(st.text(ROW_ALPHABET, max_size=120), max_size=40)


def _is_header(row: str) -> bool:
    return row.strip().lower().startswith("system configuration:")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(output=st.sampled_from(HEADERS), rows=ROWS)
def test_statistic_rows_after_the_header_never_change_what_is_read(
    output: list[str], rows: list[str]
) -> None:
    rows = [r for r in rows if not _is_header(r)]
    head = [line for line in output[:2]]  # the blank line vmstat prints first, the header
    alone = _of("vmstat 1 5", *head)
    assert alone.header is not None
    assert _of("vmstat 1 5", *head, *rows) == alone
    assert _of("vmstat 1 5", *output, *rows) == alone


def test_a_later_header_does_not_replace_the_first() -> None:
    conf = _of("lparstat 1 3", "System configuration: lcpu=4 mem=4096MB", "1 2 3",
               "System configuration: lcpu=8 mem=8192MB")  # fmt: skip
    assert (conf.logical_cpus, conf.memory_mb) == (4, 4096)


def test_the_header_is_looked_for_among_the_first_lines_only() -> None:
    late = _of("vmstat 1 50", *(["1 2 3"] * 40), "System configuration: lcpu=4")
    assert late == NO_HEADER


def test_an_enormous_header_is_cut_to_its_bound() -> None:
    words = " ".join(f"k{i}={i}" for i in range(100_000))
    conf = _of("vmstat", f"System configuration: lcpu=4 {words}")
    assert conf.logical_cpus == 4 and len(conf.values) <= MAX_WORDS
    wide = _of("vmstat", "System configuration: lcpu=" + "9" * 1_000_000)
    assert wide.logical_cpus is None and wide.header is not None


# ---------------------------------------------------------------------------------------
# The combiner: evidence and precedence


def test_the_header_alone_proves_aix_and_gives_cpus_and_memory() -> None:
    server, where = _server(transcript(CHECKMK))
    assert (server["os"], server["cpus"], server["ram_gb"]) == ("aix", 8, 6.0)
    assert where["server.cpus"][:2] == ("vmstat", "lcpu=8")
    assert where["server.ram_gb"][:2] == ("vmstat", "mem=6144MB")
    assert [e.why for e in evidence(parse_text(transcript(CHECKMK)))] == [
        "a header only AIX prints"
    ]


def test_linux_vmstat_is_no_aix_evidence() -> None:
    text = "$ vmstat 1 5\n" + "\n".join(LINUX_VMSTAT) + "\n"
    parsed = parse_text(text)
    assert not parsed.problems and not [e for e in evidence(parsed) if e.os == "aix"]
    assert draft(text).document["server"]["os"] == "linux"


def test_bindprocessor_wins_over_the_header_for_logical_cpus() -> None:
    server, where = _server(transcript(NEOFETCH, "aix/bindprocessor_q_younsl.txt"))
    assert server["cpus"] == 8 and where["server.cpus"][0] == "bindprocessor -q"


def test_the_header_wins_over_cores_times_threads() -> None:
    text = transcript("aix/smtctl_power8_smt4_younsl.txt", NEOFETCH)
    server, where = _server(text)
    assert (server["cpus"], server["smt_threads"]) == (4, 4)
    assert where["server.cpus"] == ("vmstat", "lcpu=4", "the System configuration header: "
                                    "logical CPUs on-line")  # fmt: skip
    assert where["server.smt_threads"][0] == "smtctl"


def test_smt_from_the_header_only_where_nothing_else_tells() -> None:
    server, where = _server(transcript(SMT8))
    assert (server["smt_threads"], where["server.smt_threads"][:2]) == (8, ("lparstat", "smt=8"))
    server, where = _server(transcript("aix/smtctl_power8_smt4_younsl.txt", SMT8))
    assert (server["smt_threads"], where["server.smt_threads"][0]) == (4, "smtctl")


def test_memory_from_the_header_comes_after_prtconf_and_sys0() -> None:
    server, where = _server(transcript("aix/prtconf_power7_header_wazuh.txt", CHECKMK))
    assert where["server.ram_gb"][0] == "prtconf" and server["ram_gb"] != 6.0
    server, where = _server(transcript("aix/lsattr_sys0_realmem_ralph.txt", CHECKMK))
    assert (server["ram_gb"], where["server.ram_gb"][2]) == (4.0, "realmem")


def test_active_memory_expansion_is_named_in_the_memory_note() -> None:
    line = "System configuration: lcpu=2 mem=4096MB tmem=2048MB ent=0.40 mmode=dedicated-E"
    server, where = _server(f"$ vmstat 2 1\n{line}\n")
    assert server["ram_gb"] == 4.0
    assert where["server.ram_gb"][2].endswith("Active Memory Expansion: 2048 MB true memory")


def test_the_first_header_that_prints_a_value_is_read() -> None:
    server, where = _server(transcript(SALT, NEOFETCH))
    assert (server["cpus"], where["server.cpus"][0]) == (8, "iostat -dD hdisk6 1 3")
    assert (server["ram_gb"], where["server.ram_gb"][0]) == (4.0, "vmstat")
