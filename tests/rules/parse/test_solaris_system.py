"""swap -l/-s, /etc/release, psrinfo's two views and prtdiag's CPU tables on real captures."""

from __future__ import annotations

import pytest

from rules.parse.registry import Garbled, Section
from rules.parse.solaris import prtdiag, psrinfo, psrinfo_virtual
from rules.parse.solaris_system import solaris_release, swap
from tests.rules.parse.fixtures import section


@pytest.mark.parametrize(
    ("name", "total_mb", "devices"),
    [
        ("solaris/swap_l_dev_swap_neofetch.txt", 16384, ("/dev/swap",)),
        ("solaris/swap_l_encrypted_s114_psutil.txt", 4096, ("/dev/zvol/dsk/rpool/swap",)),
        ("solaris/swap_l_two_zvols_facter.txt", 1723,
         ("/dev/zvol/dsk/rpool/swap", "/dev/zvol/dsk/rpool/swap_test")),
        ("solaris/swap_l_vxvm_solaris26_monitoring_plugins_issue.txt", 2047,
         ("/dev/vx/dsk/swapvol",)),
    ],
)  # fmt: skip
def test_swap_l_sums_512_byte_blocks(name: str, total_mb: int, devices: tuple[str, ...]) -> None:
    got = swap(section(name))
    assert (got.swap_total_kb // 1024, got.devices, got.view) == (total_mb, devices, "l")


def test_swap_s_is_used_plus_available_even_when_wrapped() -> None:
    ohai = swap(section("solaris/swap_s_ohai.txt"))
    assert (ohai.swap_total_kb, ohai.swap_free_kb) == (470096232 + 47057688, 47057688)
    wrapped = swap(section("solaris/swap_s_wrapped_salt_pr.txt"))
    assert wrapped.swap_total_kb == 4079128 + 181507256 and wrapped.system == "solaris"


def test_aix_swap_s_counts_4_kb_blocks() -> None:
    got = swap(section("aix/swap_s_aix_ohai.txt"))
    assert (got.swap_total_kb, got.system) == (23887872 * 4, "aix")


def test_swap_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled, match="swapfile"):
        swap(Section("swap -l", ("swap", "-l"), ("No swap devices configured",), 1))


@pytest.mark.parametrize(
    ("name", "distribution", "release"),
    [
        ("release_solaris10_u11_sparc_glpi.txt", "Oracle Solaris", "10"),
        ("release_solaris10_u7_sun_glpi.txt", "Solaris", "10"),
        ("release_solaris10_x86_facter.txt", "Oracle Solaris", "10"),
        ("release_solaris9_glpi.txt", "Solaris", "9"),
        ("release_openindiana151_glpi.txt", "OpenIndiana", "11"),
        ("release_openindiana_hipster_pfetch.txt", "OpenIndiana", "11"),
    ],
)
def test_etc_release(name: str, distribution: str, release: str) -> None:
    got = solaris_release(section(f"solaris/{name}"))
    assert (got.distribution, got.release) == (distribution, release)


def test_solaris_11_4_release_line_and_another_file() -> None:
    argv = ("cat", "/etc/release")
    line = ("                             Oracle Solaris 11.4 SPARC",)
    assert solaris_release(Section("cat /etc/release", argv, line, 1)).release == "11.4"
    with pytest.raises(Garbled):
        solaris_release(Section("cat /etc/release", argv, ("Ubuntu",), 1))


@pytest.mark.parametrize(
    ("name", "total", "online"),
    [
        ("solaris/psrinfo_v_t1_glpi.txt", 16, 16),
        ("solaris/psrinfo_v_solaris11_t1_glpi.txt", 32, 32),
        ("solaris/psrinfo_v_v240_short_dates_glpi.txt", 2, 2),
        ("solaris/psrinfo_plain_omnios_glpi_issue.txt", 8, 8),
    ],
)
def test_psrinfo_virtual_counts_on_line_processors(name: str, total: int, online: int) -> None:
    got = psrinfo_virtual(section(name))
    assert (got.virtual_processors, got.online) == (total, online)


def test_psrinfo_virtual_off_line_processor_is_not_on_line() -> None:
    lines = ("0  on-line   since 08/11/2025 17:09:36", "1  off-line  since 08/12/2025 10:00:00")
    got = psrinfo_virtual(Section("psrinfo", ("psrinfo",), lines, 1))
    assert (got.virtual_processors, got.online) == (2, 1)


@pytest.mark.parametrize(
    ("name", "chips", "cores", "virtual"),
    [
        ("psrinfo_vp_1cpu_1core_gopsutil.txt", 1, None, 1),
        ("psrinfo_vp_2cpu_1core_gopsutil.txt", 2, None, 2),
        ("psrinfo_vp_2cpu_8core_gopsutil.txt", 2, 16, 32),
        ("psrinfo_vp_2cpu_12core_gopsutil.txt", 2, None, 24),
        ("psrinfo_p_omnios_glpi_issue.txt", 1, None, None),
    ],
)
def test_psrinfo_physical_on_x86(name: str, chips: int, cores: int | None, virtual: int) -> None:
    got = psrinfo(section(f"solaris/{name}"))
    assert (got.chips, got.cores, got.virtual_processors) == (chips, cores, virtual)


@pytest.mark.parametrize(
    ("name", "cpus"),
    [
        ("prtdiag_m4000_glpi.txt", 16),  # 2 rows of 8 ids
        ("prtdiag_v890_glpi.txt", 16),  # 8 rows of 2 ids
        ("prtdiag_v210_gb_glpi.txt", 2),  # a Status column
        ("prtdiag_t7_1_facter.txt", 8),  # sun4v's Virtual CPUs
        ("prtdiag_x86_r510_glpi.txt", None),  # sockets only
    ],
)
def test_prtdiag_cpus(name: str, cpus: int | None) -> None:
    assert prtdiag(section(f"solaris/{name}")).cpus_online == cpus
