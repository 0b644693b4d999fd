"""oslevel, prtconf (AIX), lparstat -i, smtctl and bindprocessor -q on real captures
(tests/fixtures/parse/aix/)."""

from __future__ import annotations

import pytest

from rules.parse.aix_cpu import bindprocessor, lparstat, oslevel, prtconf, smtctl
from rules.parse.registry import Garbled, Section, find
from tests.rules.parse.fixtures import section


def _routed(name: str) -> str:
    found = find(section(name).argv)
    assert found is not None
    return found.name


def test_oslevel_s_gives_release_tl_sp_and_build() -> None:
    level = oslevel(section("aix/oslevel_s_aix61_wazuh.txt"))
    assert (level.release, level.technology_level, level.service_pack) == ("6.1", 9, 12)
    assert (level.text, level.build) == ("6100-09-12-1837", "1837")


def test_plain_oslevel_gives_the_release_only() -> None:
    level = oslevel(section("aix/oslevel_aix71_wazuh.txt"))
    assert (level.release, level.technology_level, level.service_pack) == ("7.1", None, None)
    assert oslevel(section("aix/oslevel_aix53_ralph.txt")).release == "5.3"


def test_oslevel_r_shape() -> None:
    level = oslevel(Section("oslevel -r", ("oslevel", "-r"), ("7200-05",), 1))
    assert (level.release, level.technology_level, level.service_pack) == ("7.2", 5, None)


def test_oslevel_routing_leaves_listing_forms_alone() -> None:
    assert _routed("aix/oslevel_s_aix61_wazuh.txt") == "aix_oslevel"
    assert find(("oslevel", "-rl", "7200-04")) is None


def test_oslevel_error_is_garbled_at_its_line() -> None:
    with pytest.raises(Garbled) as err:
        oslevel(Section("oslevel -s", ("oslevel", "-s"), ("", "ksh: oslevel: not found"), 1))
    assert err.value.offset == 1


def test_prtconf_power7_header() -> None:
    conf = prtconf(section("aix/prtconf_power7_header_wazuh.txt"))
    assert conf.os == "aix"
    assert (conf.model, conf.processor_type) == ("IBM,8231-E2D", "PowerPC_POWER7")
    assert (conf.processors, conf.clock_mhz) == (2, 4228)
    assert (conf.memory_mb, conf.good_memory_mb) == (4096, 4096)
    assert (conf.lpar_number, conf.lpar_name) == (69, "soaxp248")
    assert (conf.kernel_type, conf.firmware) == ("64-bit", "AL770_126")


def test_prtconf_with_network_paging_and_vg_parts() -> None:
    conf = prtconf(section("aix/prtconf_power7_45cpu_datadog.txt"))
    assert (conf.processors, conf.clock_mhz, conf.memory_mb) == (45, 3304, 256000)
    assert (conf.lpar_number, conf.lpar_name) == (12, "aibdbsrv06")
    # The indented network and paging lines are not header fields.
    assert "Host Name" not in conf.values and "Total Paging Space" not in conf.values


def test_prtconf_paging_space_total() -> None:
    assert prtconf(section("aix/prtconf_shared_power8_aix61_neofetch.txt")).swap_mb == 512
    assert prtconf(section("aix/prtconf_qemu_bondhuang.txt")).swap_mb is None  # not printed


def test_prtconf_of_an_emulated_lpar() -> None:
    conf = prtconf(section("aix/prtconf_qemu_bondhuang.txt"))
    assert conf.model == "IBM pSeries (emulated by qemu)"
    assert (conf.processors, conf.clock_mhz, conf.memory_mb) == (1, 1000, 2048)
    assert (conf.lpar_number, conf.lpar_name, conf.firmware) == (0, "aix_on_kvm", "Not Available")


def test_prtconf_of_neither_system_is_garbled() -> None:
    with pytest.raises(Garbled):
        prtconf(Section("prtconf", ("prtconf",), ("prtconf: not found",), 1))


def test_lparstat_shared_uncapped_smt4() -> None:
    lpar = lparstat(section("aix/lparstat_shared_smt4_glpi.txt"))
    assert (lpar.type, lpar.mode, lpar.shared) == ("Shared-SMT-4", "Uncapped", True)
    assert (lpar.smt, lpar.smt_threads, lpar.entitled_capacity) == (True, 4, 0.30)
    assert (lpar.online_virtual_cpus, lpar.maximum_virtual_cpus) == (1, 1)
    assert (lpar.online_memory_mb, lpar.active_physical_cpus, lpar.active_cpus_in_pool) == (
        16384,
        64,
        2,
    )
    assert lpar.partition_number == 61


def test_lparstat_shared_with_memory_expansion() -> None:
    lpar = lparstat(section("aix/lparstat_shared_uncapped_ame_htdavis.txt"))
    assert (lpar.shared, lpar.smt_threads, lpar.entitled_capacity) == (True, 4, 0.30)
    assert (lpar.online_virtual_cpus, lpar.online_memory_mb) == (2, 12288)
    assert lpar.values["Target Memory Expansion Factor"] == "1.70"


def test_lparstat_dedicated_smt4() -> None:
    lpar = lparstat(section("aix/lparstat_dedicated_smt4_younsl.txt"))
    assert (lpar.type, lpar.shared, lpar.smt_threads) == ("Dedicated-SMT-4", False, 4)
    assert (lpar.entitled_capacity, lpar.online_virtual_cpus) == (2.0, 2)
    assert (lpar.maximum_virtual_cpus, lpar.online_memory_mb) == (12, 61696)
    assert (lpar.node_name, lpar.partition_name) == ("devserver", "dev1")
    assert lpar.active_cpus_in_pool is None  # '-' on a dedicated LPAR


def test_lparstat_comma_locale_and_doubled_spaces() -> None:
    lpar = lparstat(section("aix/lparstat_dedicated_comma_locale_glpi.txt"))
    assert (lpar.type, lpar.shared, lpar.smt, lpar.smt_threads) == (
        "Dedicated-SMT",
        False,
        True,
        None,
    )
    assert (lpar.entitled_capacity, lpar.online_virtual_cpus, lpar.online_memory_mb) == (
        4.0,
        4,
        7808,
    )
    assert lpar.node_name == "sample1"  # 'Node  Name' with two spaces


def test_lparstat_single_spaced_keys() -> None:
    lpar = lparstat(section("aix/lparstat_single_spaced_glpi.txt"))
    assert (lpar.type, lpar.mode, lpar.shared, lpar.smt_threads) == (
        "Shared-SMT",
        "Capped",
        True,
        None,
    )
    assert (lpar.entitled_capacity, lpar.online_virtual_cpus, lpar.online_memory_mb) == (
        2.0,
        4,
        16384,
    )


def test_lparstat_dedicated_without_smt() -> None:
    lines = ("Type                                       : Dedicated",)
    lpar = lparstat(Section("lparstat -i", ("lparstat", "-i"), lines, 1))
    assert (lpar.shared, lpar.smt, lpar.smt_threads) == (False, False, 1)


def test_lparstat_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        lparstat(Section("lparstat -i", ("lparstat", "-i"), ("lparstat: permission denied",), 1))


def test_smtctl_smt4_on_two_cores() -> None:
    smt = smtctl(section("aix/smtctl_power8_smt4_younsl.txt"))
    assert (smt.capable, smt.enabled, smt.max_threads, smt.threads) == (True, True, 8, 4)
    assert smt.processors == ("proc0", "proc8")
    assert (smt.logical_cpus, smt.boot_mode) == (8, "not set")


def test_smtctl_smt8_trimmed() -> None:
    smt = smtctl(section("aix/smtctl_power9_smt8_powercampus.txt"))
    assert (smt.enabled, smt.max_threads, smt.threads) == (True, 8, 8)
    assert smt.processors == ("proc0", "proc8")
    assert smt.logical_cpus == 13  # the capture stops inside proc8's list


def test_smtctl_with_smt_off() -> None:
    # No capture of this state was found; the lines are the SMT-4 capture's, turned off as
    # smtctl words it (enabled/disabled), with the threads lines it then leaves out.
    real = section("aix/smtctl_power8_smt4_younsl.txt").lines[:6]
    lines = tuple(line.replace("currently enabled", "currently disabled") for line in real)
    smt = smtctl(Section("smtctl", ("smtctl",), lines, 1))
    assert (smt.capable, smt.enabled, smt.threads, smt.processors) == (True, False, 1, ())


def test_smtctl_routes_only_the_bare_command() -> None:
    assert _routed("aix/smtctl_power8_smt4_younsl.txt") == "aix_smtctl"
    assert find(("smtctl", "-m", "off")) is None


def test_smtctl_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        smtctl(Section("smtctl", ("smtctl",), ("ksh: smtctl: not found",), 1))


def test_bindprocessor_lists_the_logical_processors() -> None:
    found = bindprocessor(section("aix/bindprocessor_q_younsl.txt"))
    assert found.processors == (0, 1, 2, 3, 4, 5, 6, 7)


def test_bindprocessor_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        bindprocessor(Section("bindprocessor -q", ("bindprocessor", "-q"), ("usage",), 1))


def test_prtconf_names_the_host_of_its_network_part() -> None:
    conf = prtconf(section("aix/prtconf_shared_power8_aix61_neofetch.txt"))
    assert (conf.host_name, conf.lpar_name, conf.memory_mb) == ("bobaixgcc62", "bobaixgcc62", 4096)
    assert prtconf(section("aix/prtconf_grep_processor_younsl.txt")).host_name is None
