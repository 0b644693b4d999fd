"""The OS and release from what the paste shows, not only from uname."""

from __future__ import annotations

import tracemalloc

import pytest

from rules.parse import draft
from rules.parse.os_evidence import el_release
from tests.rules.parse.fixtures import transcript_file
from tests.rules.parse.metamorphic import without_uname

MEMORY_BUDGET = 100 * 1024 * 1024  # bytes of tracemalloc peak for any 8 MB paste


@pytest.mark.parametrize(
    ("name", "os_name"),
    [("aix_dedicated_younsl.txt", "aix"), ("aix61_glpi.txt", "aix"),
     ("aix61_shared_neofetch.txt", "aix"), ("solaris11_glpi.txt", "solaris")],
)  # fmt: skip
def test_aix_and_solaris_without_uname(name: str, os_name: str) -> None:
    found = draft(without_uname(transcript_file(name)[2]))
    assert found.document["server"]["os"] == os_name
    assert "server.os" in found.provenance


def test_the_release_file_tells_linux_and_its_release() -> None:
    found = draft(transcript_file("sles15_wazuh20204.txt")[2])
    assert found.document["server"]["os"] == "linux"
    assert found.provenance["server.os"].command == "cat /etc/os-release"
    assert found.document["server"]["os_version"] == "15.5"


def test_two_systems_in_one_paste_is_a_problem_naming_both_lines() -> None:
    aix, rhel = (
        transcript_file(n)[2] for n in ("aix_dedicated_younsl.txt", "rhel9_wazuh21357.txt")
    )
    text = aix + "\n" + rhel
    found = draft(text)
    assert found.document["server"]["os"] == "aix"
    assert any("two systems" in p["message"] and "aix" in p["message"]
               and "linux" in p["message"] for p in found.problems)  # fmt: skip


def test_el_kernel_gives_the_rhel_family_release() -> None:
    assert el_release("5.14.0-362.8.1.el9_3.x86_64") == "9.3"
    assert el_release("3.10.0-1160.el7.x86_64") == "7"
    assert el_release("6.5.0-1014-aws") is None


@pytest.mark.slow
@pytest.mark.parametrize(
    "unit", ["# lscpu\n", "[root@h ~]# \n", "xy\n", "# cat /proc/meminfo\nab\n"]
)
def test_any_8_mb_paste_stays_under_the_memory_budget(unit: str) -> None:
    text = unit * (8 * 1024 * 1024 // len(unit))
    tracemalloc.start()
    try:
        draft(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BUDGET, f"{peak / 2**20:.0f} MiB"
