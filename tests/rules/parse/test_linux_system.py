"""os-release, redhat-release, nproc, lscpu and meminfo (tests/fixtures/parse/linux/)."""

from __future__ import annotations

import pytest

from rules.parse.linux_system import lscpu, meminfo, nproc, os_release, redhat_release
from rules.parse.registry import Garbled, Section
from tests.rules.parse.fixtures import section


def test_os_release_debian() -> None:
    r = os_release(section("linux/os_release_debian12.txt"))
    assert (r.id, r.version_id, r.name) == ("debian", "12", "Debian GNU/Linux")
    assert r.pretty_name == "Debian GNU/Linux 12 (bookworm)"
    assert r.fields["VERSION_CODENAME"] == "bookworm"


def test_os_release_rhel_with_a_blank_line_and_an_unquoted_value() -> None:
    r = os_release(section("linux/os_release_rhel72.txt"))
    assert (r.id, r.version_id, r.pretty_name) == ("rhel", "7.2", "Employee SKU")
    assert r.fields["REDHAT_BUGZILLA_PRODUCT_VERSION"] == "7.2"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("linux/redhat_release_rhel72.txt", ("Red Hat Enterprise Linux Server", "7.2", "Maipo")),
        ("linux/redhat_release_centos7.txt", ("CentOS Linux", "7.6.1810", "Core")),
        (
            "linux/redhat_release_rhel610_nospace.txt",
            ("Red Hat Enterprise Linux Server", "6.10", "Santiago"),
        ),
        ("linux/redhat_release_centos_stream8.txt", ("CentOS Stream", "8", None)),
    ],
)
def test_redhat_release(name: str, expected: tuple[str, str, str | None]) -> None:
    r = redhat_release(section(name))
    assert (r.name, r.version, r.codename) == expected


def test_nproc() -> None:
    assert nproc(section("linux/nproc_debian12.txt")) == 2


@pytest.mark.parametrize("text", ["0", "nproc: invalid option -- 'x'", "99999999999999999999999"])
def test_nproc_rejects_what_is_not_a_count(text: str) -> None:
    with pytest.raises(Garbled):
        nproc(Section("nproc", ("nproc",), (text,), 1))


def test_lscpu_debian_kvm() -> None:
    c = lscpu(section("linux/lscpu_debian12_kvm.txt"))
    assert (c.architecture, c.cpus, c.online_cpus) == ("x86_64", 2, 2)
    assert (c.threads_per_core, c.cores_per_socket, c.sockets, c.cores) == (1, 2, 1, 2)
    assert (c.model_name, c.numa_nodes) == ("AMD EPYC", 1)


def test_lscpu_rhel9_nested_sections() -> None:
    c = lscpu(section("linux/lscpu_rhel9_nested.txt"))
    assert (c.cpus, c.threads_per_core, c.cores_per_socket, c.sockets, c.cores) == (2, 1, 1, 2, 2)
    assert c.model_name == "Intel Core Processor (Haswell, no TSX, IBRS)"
    assert c.numa_nodes == 1
    assert c.fields["Hypervisor vendor"] == "KVM"


def test_lscpu_offline_cpu_is_counted_apart() -> None:
    c = lscpu(section("linux/lscpu_rhel7_offline_cpu.txt"))
    assert (c.cpus, c.online_cpus, c.cores) == (2, 1, 2)


def test_lscpu_power9_lpar_smt8() -> None:
    c = lscpu(section("linux/lscpu_power9_phyp_rhel75.txt"))
    assert (c.architecture, c.cpus, c.threads_per_core, c.cores) == ("ppc64le", 80, 8, 10)
    assert c.model_name == "POWER9 (architected), altivec supported"
    assert c.fields["Hypervisor vendor"] == "pHyp"


def test_lscpu_power9_socket_under_model_name() -> None:
    c = lscpu(section("linux/lscpu_power9_nested.txt"))
    assert (c.cpus, c.threads_per_core, c.cores_per_socket, c.sockets, c.cores) == (32, 4, 8, 1, 8)


def test_lscpu_power7_without_architecture() -> None:
    c = lscpu(section("linux/lscpu_ppc64_power7.txt"))
    assert c.architecture is None
    assert (c.cpus, c.threads_per_core, c.sockets, c.cores) == (16, 4, 4, 4)


def test_lscpu_s390_books_capped_by_the_partition_cpus() -> None:
    c = lscpu(section("linux/lscpu_s390_lpar.txt"))
    assert c.model_name is None  # lscpu prints "-"
    assert (c.cpus, c.online_cpus, c.cores_per_socket) == (20, 17, 4)
    assert c.sockets == 24  # 6 sockets per book x 4 books: the whole machine
    assert c.cores == 20  # not 96: 20 CPUs at 1 thread per core


def test_lscpu_big_little_sums_its_core_types() -> None:
    c = lscpu(section("linux/lscpu_arm_big_little.txt"))
    assert (c.cpus, c.cores, c.threads_per_core) == (8, 8, 1)
    assert c.model_name == "Cortex-A510"
    assert c.cores_per_socket == 3


def test_lscpu_german_labels() -> None:
    lines = (
        "Architektur:                     x86_64",
        "CPU(s):                          16",
        "Thread(s) pro Kern:              2",
        "Kern(e) pro Sockel:              8",
        "Sockel:                          1",
        "Modellname:                      AMD Ryzen 7",
    )
    c = lscpu(Section("lscpu", ("lscpu",), lines, 1))
    assert (c.architecture, c.cpus, c.threads_per_core, c.cores, c.model_name) == (
        "x86_64",
        16,
        2,
        8,
        "AMD Ryzen 7",
    )


def test_meminfo() -> None:
    m = meminfo(section("linux/meminfo_rhel71.txt"))
    assert m.mem_total_kb == 8009912
    assert m.values["HugePages_Total"] == 0
    assert m.values["Hugepagesize"] == 2048
    assert m.values["VmallocTotal"] == 34359738367


def test_meminfo_debian() -> None:
    m = meminfo(section("linux/meminfo_debian12.txt"))
    assert m.mem_total_kb == 24684084
    assert m.values["SwapTotal"] == 0
