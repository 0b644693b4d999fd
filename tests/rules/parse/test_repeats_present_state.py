"""A command pasted more than once: the later output is the present state where they
differ, the first is read where they are the same, the same rule for every command;
filtered greps of one command add up; two systems are a problem naming a line of each.

Real pieces (tests/fixtures/pastes/, each naming its source): an AIX admin's blog post
(`df -g` before and after `chfs -a size=+30G /oracle`, `lsps -a` before and after
`chps`), a Solaris 11 session (`zfs list rpool/swap` before and after a volsize change),
a csdn admin's `vmo -a |grep …` one tunable at a time, a wazuh issue's paste of two
Ubuntu servers; and corpus captures standing for a setting changed between two `cat`s.
"""

from __future__ import annotations

from rules.parse import draft, parse_text
from tests.rules.parse.fixtures import transcript
from tests.rules.parse.pastes import line_of, paste

GIB = 1024**3


def unused(text: str) -> dict[int, str]:
    return {u["line"]: u["why"] for u in draft(text).unused}


def lines_of(text: str, line: str) -> list[int]:
    """The 1-based numbers of every line of the paste that is exactly `line`."""
    return [i + 1 for i, ln in enumerate(text.split("\n")) if ln == line]


def test_df_after_chfs_is_the_present_state() -> None:
    text = paste("aix_blog_mklv_crfs_chfs_df.txt")
    before, after = lines_of(text, "# df -g")
    found = draft(text)
    at = next(i for i, s in enumerate(found.document["storage"]) if s["mount"] == "/oracle")
    assert found.document["storage"][at]["size_gb"] == 33.0
    assert found.provenance[f"storage[{at}].size_gb"].line == after
    assert unused(text)[before] == (
        "`df -g` (11 lines) not used: the later `df -g` at line "
        f"{after} prints /oracle otherwise and is read as the present state"
    )
    assert f"line {after}: `df -g` prints /oracle otherwise than at line {before}" in " ".join(
        found.notes
    )


def test_the_same_output_twice_is_read_from_the_first_and_says_as_much() -> None:
    text = paste("aix_blog_mklv_crfs_chfs_df.txt")
    lines = text.split("\n")
    start = line_of(text, "# df -g")
    df = lines[start - 1 : start + 11]  # the first df -g and its 11 lines
    twice = "\n".join(df + df) + "\n"
    assert unused(twice) == {13: "`df -g` (11 lines) not used: `df -g` at line 1 says as much"}
    assert not any("present state" in n for n in draft(twice).notes)


def test_lsps_after_chps_keeps_the_later_by_the_same_rule() -> None:
    text = paste("aix_blog_lsps_chps.txt")
    first, later = lines_of(text, "# lsps -a")
    assert unused(text)[first] == (
        f"`lsps -a` (2 lines) not used: the later `lsps -a` at line {later} prints otherwise "
        "and is read as the present state"
    )
    lsps = parse_text(text).all("aix_lsps")
    assert [f.section.line for f in lsps] == [later]


def test_zfs_list_after_a_volsize_change_is_the_present_state() -> None:
    text = paste("solaris11_zfs_list_volsize.txt")
    readings = parse_text(text).all("zfs_list")
    assert [f.section.line for f in readings] == [5]
    (swap,) = readings[0].value
    assert (swap.name, swap.used_bytes) == ("rpool/swap", 8 * GIB)
    assert unused(text)[1].endswith(
        "the later `zfs list rpool/swap` at line 5 prints rpool/swap otherwise and is read "
        "as the present state"
    )


def test_filtered_greps_of_one_command_add_up() -> None:
    text = paste("aix_ahix_su_pwd_prompt_ioo.txt")
    found = draft(text)
    assert found.document["current"]["aix_vmo"] == {
        "minfree": "960", "maxfree": "1088", "minperm%": "20", "maxperm%": "80",
    }  # fmt: skip
    for name in ("minfree", "maxfree", "minperm%", "maxperm%"):
        line = line_of(text, f"# vmo -a |grep {name}")
        assert found.provenance[f"current.aix_vmo.{name}"].line == line
        assert any(u["line"] == line for u in found.used)
    assert not found.unused


def test_a_later_cat_of_a_setting_is_the_present_state() -> None:
    # sda's scheduler as two captures print it: bfq (procfs), then cfq (insights-core)
    text = transcript(
        "linux/scheduler_sda_bfq_procfs.txt", "linux/scheduler_sda_cfq_insights.txt",
        prompt="[root@h ~]# ",
    )  # fmt: skip
    found = draft(text)
    assert found.document["current"]["devices"]["sda"]["scheduler"] == "cfq"
    assert found.provenance["current.devices.sda.scheduler"].line == 3
    assert any(n.startswith("line 3: ") and "sda.scheduler otherwise than at line 1" in n
               for n in found.notes)  # fmt: skip


def test_two_ubuntu_releases_are_two_systems() -> None:
    text = paste("ubuntu_two_servers_wazuh27814.txt")
    found = draft(text)
    first, second = lines_of(text, "root@ip-xx-xx-xx-xx:/home/ubuntu# cat /etc/os-release")
    assert found.problems == [{
        "line": second, "command": "cat /etc/os-release",
        "message": f"the paste shows two systems: `cat /etc/os-release` at line {first} prints "
                   f"Ubuntu 20.04, at line {second} Ubuntu 22.04; line {first}'s is used",
    }]  # fmt: skip
    assert found.document["server"]["os_version"] == "20.04"


def test_release_files_that_disagree_are_two_systems() -> None:
    text = transcript("linux/redhat_release_rhel72.txt", "linux/os_release_rhel77_ansible.txt")
    messages = [p["message"] for p in draft(text).problems]
    assert messages == [
        "the paste shows two systems: linux 7.2 from line 1 (`cat /etc/redhat-release`) and "
        "linux 7.7 from line 3 (`cat /etc/os-release`)"
    ]
    rhel77 = ("linux/redhat_release_rhel77_ansible.txt", "linux/os_release_rhel77_ansible.txt")
    same = transcript(*rhel77)
    assert draft(same).problems == []


def test_two_host_names_are_two_systems() -> None:
    text = transcript("unix/uname_rhel6.txt", "unix/hostname_debian12.txt")
    (problem,) = draft(text).problems
    assert problem["line"] == 1 and problem["command"] == "uname -a"
    assert problem["message"].startswith("the paste shows two systems: host 'vm' from `hostname`")
