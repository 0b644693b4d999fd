"""psrinfo -pv and prtconf on Solaris, real captures (tests/fixtures/parse/solaris/)."""

from __future__ import annotations

import pytest

from rules.parse.aix_cpu import prtconf
from rules.parse.registry import Garbled, Section, find
from rules.parse.solaris import psrinfo
from tests.rules.parse.fixtures import section


def test_routing() -> None:
    for argv in (("psrinfo", "-pv"), ("psrinfo", "-vp"), ("/usr/sbin/psrinfo", "-p", "-v")):
        found = find(argv)
        assert found is not None and found.name == "psrinfo"
    assert find(("prtconf", "-vp")).name == "prtconf"  # type: ignore[union-attr]


def test_t1_with_cores_and_core_lines() -> None:
    p = psrinfo(section("solaris/psrinfo_t1_cores_glpi.txt"))
    assert (p.chips, p.cores, p.virtual_processors) == (1, 8, 32)
    chip = p.chip_list[0]
    assert (chip.model, chip.clock_mhz) == ("UltraSPARC-T1 (chipid 0, clock 1000 MHz)", 1000)


def test_t5_without_a_core_count() -> None:
    p = psrinfo(section("solaris/psrinfo_sparc_t5_fusioninventory.txt"))
    assert (p.chips, p.cores, p.virtual_processors) == (1, None, 64)
    assert p.chip_list[0].clock_mhz == 3600


def test_mixed_ultrasparc_iv_and_iii() -> None:
    p = psrinfo(section("solaris/psrinfo_e6900_mixed_glpi.txt"))
    assert (p.chips, p.cores, p.virtual_processors) == (12, None, 20)
    assert [c.virtual_processors for c in p.chip_list].count(2) == 8
    assert p.chip_list[-1].clock_mhz == 900


def test_solaris_9_shape_names_the_chip_in_the_sentence() -> None:
    p = psrinfo(section("solaris/psrinfo_v240_old_shape_glpi.txt"))
    assert (p.chips, p.cores, p.virtual_processors) == (2, None, 2)
    assert [c.model for c in p.chip_list] == ["UltraSPARC-IIIi", "UltraSPARC-IIIi"]


def test_x86_chips_take_the_first_indented_line_as_model() -> None:
    p = psrinfo(section("solaris/psrinfo_x86_four_chips_glpi.txt"))
    assert (p.chips, p.virtual_processors) == (4, 4)
    assert p.chip_list[0].clock_mhz == 2333
    assert p.chip_list[0].model == "x86 (GenuineIntel family 6 model 23 step 6 clock 2333 MHz)"


def test_psrinfo_p_alone_counts_chips() -> None:
    p = psrinfo(Section("psrinfo -p", ("psrinfo", "-p"), ("2",), 1))
    assert (p.chips, p.cores, p.virtual_processors) == (2, None, None)


def test_psrinfo_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        psrinfo(Section("psrinfo -pv", ("psrinfo", "-pv"), ("psrinfo: not found",), 1))


def test_prtconf_e6900_megabyte_singular() -> None:
    conf = prtconf(section("solaris/prtconf_e6900_glpi.txt"))
    assert (conf.os, conf.memory_mb) == ("solaris", 16384)
    assert (conf.vendor, conf.platform) == ("Sun Microsystems", "sun4u")
    assert conf.processors is None


def test_prtconf_openindiana() -> None:
    conf = prtconf(section("solaris/prtconf_openindiana_glpi_issue.txt"))
    assert (conf.os, conf.memory_mb, conf.platform) == ("solaris", 32756, "i86pc")
    assert conf.vendor == "Project OpenIndiana"
