"""What real pastes showed the reading missed: an AIX `[user@host]/path # ` prompt, an LV
spanning all its VG's disks, closed LVs, a `free` row cut short, `more` of /proc/sys.

Each paste is real (tests/fixtures/pastes/, each naming its source): CMOD migration notes
on AIX (aix_ondemand2_bracket_prompt_lsvg.txt), a Wazuh issue's RHEL 8.9 session that
breaks off inside `free -g` (rhel89_free_g_cut_wazuh24848.txt), Cloudera install notes on
CentOS (centos_more_swappiness_cloudera.txt, centos_thp_before_after_cloudera.txt).
"""

from __future__ import annotations

import time

import pytest

from rules.parse import draft, parse_text
from rules.parse.cutoff import seems_cut
from rules.parse.prompts import prompt_lines
from rules.parse.registry import Section
from rules.parse.sections import argv_of, split
from tests.rules.parse.fixtures import corpus_names, section, transcript
from tests.rules.parse.pastes import paste

ONDEMAND2 = "aix_ondemand2_bracket_prompt_lsvg.txt"
RHEL89_CUT = "rhel89_free_g_cut_wazuh24848.txt"
SWAPPINESS = "centos_more_swappiness_cloudera.txt"
THP = "centos_thp_before_after_cloudera.txt"
# The mount points `lsvg -l` shows open in the CMOD notes (rootvg, dbvg, workvg).
ONDEMAND2_OPEN = {
    "/", "/usr", "/var", "/tmp", "/home", "/opt", "/afpfont", "/rps2",
    "/usr/opt/jboss-4.0.3SP1", "/sysmgr", "/jmr-old", "/reptmgmt-old",
    "/usr/opt/apache-tomcat-6.0.35", "/ars/db1", "/ars/db2", "/report", "/reptmgmt", "/jmr",
    "/worktmp", "/audit",
}  # fmt: skip
SCHEDULER = "linux/scheduler_sdb_deadline.txt"


def _storage(text: str) -> dict[str, dict[str, object]]:
    return {s["mount"]: s for s in draft(text).document.get("storage", [])}


# 1. `[user@host]/path # `: the bracket, then the working directory, then the sign


def test_the_aix_bracket_prompt_with_the_directory_after_it_reads_the_whole_paste() -> None:
    """`[root@ondemand2]/ # lsvg -l rootvg` (the CMOD notes): each command is read."""
    text = paste(ONDEMAND2)
    parsed = parse_text(text)
    assert parsed.unknown == []
    assert [p.host for p in parsed.prompts] == ["ondemand2"]
    got = draft(text)
    assert got.document["server"]["os"] == "aix"
    assert got.document["server"]["hostname"] == "ondemand2"
    assert set(_storage(text)) == ONDEMAND2_OPEN


@pytest.mark.parametrize(
    ("prompt", "host"),
    [("[root@ondemand2]/ # ", "ondemand2"), ("[sas@aix01]/home/sas $ ", "aix01"),
     ("[sas@aix01]~ $ ", "aix01"), ("[sas@aix01]tmp $ ", "aix01"),
     ("[root@aix01] /var # ", "aix01"), ("[root@aix01:/tmp]# ", "aix01"),
     ("[root@aix01]/$ ", "aix01")],
)  # fmt: skip
def test_every_bracket_shape_starts_a_command_and_names_its_host(prompt: str, host: str) -> None:
    cut = split(transcript(SCHEDULER, SCHEDULER, prompt=prompt))
    assert [s.argv[0] for s in cut.sections] == ["cat", "cat"]
    assert [p.host for p in cut.prompts] == [host]


@pytest.mark.parametrize(
    "line",
    ["[INFO]/var/log/app # started", "[1]+  Done  sleep 10 # x", "[mysqld]/var/lib # path",
     "[ 0.000000]/dev/sda1 # x", "[x]~ $ y"],
)  # fmt: skip
def test_bracketed_output_lines_stay_output(line: str) -> None:
    """A bracket without user@host in it, a path after it, is no prompt."""
    assert list(prompt_lines(line + "\n")) == []


@pytest.mark.parametrize(
    "line",
    ["[a@" + "b" * 4000 + "] # x", "[a@b]" + "/" * 4000 + " #", "[@" * 2000 + "] $",
     "[a@b]" + "x" * 150 + " " * 3000 + "#"],
)  # fmt: skip
def test_a_long_bracket_line_is_read_in_linear_time(line: str) -> None:
    text = (line + "\n") * 500
    started = time.perf_counter()
    list(prompt_lines(text))
    assert time.perf_counter() - started < 2.0


# 2. AIX LVs: the disks a VG's LV spans, closed LVs


def test_an_lv_spanning_every_disk_of_its_vg_is_on_those_disks() -> None:
    """dbvg's LVs show `PVs 3`, lspv lists hdisk1-3 in dbvg: they are the LV's disks."""
    got = draft(paste(ONDEMAND2))
    storage = {s["mount"]: (i, s) for i, s in enumerate(got.document["storage"])}
    for mount in ("/ars/db1", "/ars/db2"):
        i, entry = storage[mount]
        assert entry["devices"] == ["hdisk1", "hdisk2", "hdisk3"]
        assert entry["disks"] == 3
        assert f"storage[{i}].disks" not in {m.path for m in got.missing}
        note = got.provenance[f"storage[{i}].disks"].note
        assert note == "`lsvg -l`: the LV spans 3 PVs, as many as dbvg has"
    assert storage["/report"][1]["devices"] == ["hdisk4"]
    assert storage["/"][1]["devices"] == ["hdisk0"]


def test_without_the_vg_disks_the_pvs_count_is_the_number_of_disks() -> None:
    text = paste(ONDEMAND2)
    text = text[: text.index("[root@ondemand2]/ # lspv")]
    got = draft(text)
    storage = {s["mount"]: (i, s) for i, s in enumerate(got.document["storage"])}
    i, entry = storage["/ars/db1"]
    assert entry["disks"] == 3 and "devices" not in entry
    assert f"storage[{i}].disks" not in {m.path for m in got.missing}
    assert got.provenance[f"storage[{i}].disks"].raw == "PVs 3"
    assert storage["/report"][1]["disks"] == 1


def test_a_closed_lv_is_left_out_with_a_note() -> None:
    """bkuplv01 (/backup) and softlv01 (/software) are `closed/syncd` in lsvg -l workvg."""
    got = draft(paste(ONDEMAND2))
    mounts = {s["mount"] for s in got.document["storage"]}
    assert not {"/backup", "/software"} & mounts
    for mount, lv in (("/backup", "bkuplv01"), ("/software", "softlv01")):
        assert any(mount in n and lv in n and "closed: not mounted" in n for n in got.notes)


def test_a_closed_lv_that_df_shows_mounted_is_kept() -> None:
    """df -g's rows for /backup and /report from the same notes ("new file system ref",
    the notes' own label column left out): df shows /backup mounted, so it stays."""
    df = "\n".join([
        "[root@ondemand2]/ # df -g",
        "Filesystem    GB blocks      Free %Used    Iused %Iused Mounted on",
        "/dev/lv06         80.00     60.24   25%    50372     1% /report",
        "/dev/bkuplv01      5.00      1.21   76%       70     1% /backup",
        "[root@ondemand2]/ # ",
    ])  # fmt: skip
    text = paste(ONDEMAND2).rstrip("\n").removesuffix("[root@ondemand2]/ # ") + df
    got = draft(text)
    storage = _storage(text)
    assert "/backup" in storage and "/software" not in storage
    assert storage["/backup"]["size_gb"] == 5.0
    assert not any("/backup" in n and "closed" in n for n in got.notes)


# 3. A `free` row cut short


def test_a_free_row_cut_after_its_first_value_is_noted_and_still_read() -> None:
    """The Wazuh paste ends with `Mem:              3`, the other five values missing."""
    got = draft(paste(RHEL89_CUT))
    assert got.document["server"]["ram_gb"] == 3.0
    assert any("`free -g` seems cut off" in n for n in got.notes)


@pytest.mark.parametrize(
    "name", [n for n in corpus_names() if n.startswith("linux/free")]
)  # fmt: skip
def test_a_whole_free_output_is_not_cut(name: str) -> None:
    assert not seems_cut(section(name), "free")


@pytest.mark.parametrize("name", ["linux/free_centos77_jc.txt", "linux/free_w_wide_jc.txt"])
def test_a_free_output_cut_inside_its_last_row_is_cut(name: str) -> None:
    whole = section(name)
    last = whole.lines[-1].split()
    lines = (*whole.lines[:-1], " ".join(last[:2]))
    cut = Section(whole.command, argv_of(whole.command), lines, 1)
    assert seems_cut(cut, "free")
    header_only = Section(whole.command, argv_of(whole.command), whole.lines[:1], 1)
    assert seems_cut(header_only, "free")


# 4. /proc/sys and THP files printed by more, cat or head


def test_more_of_proc_sys_vm_gives_the_present_value() -> None:
    """30 as user centos, `echo 1 >` as root, then 1: the later reading is the present."""
    got = draft(paste(SWAPPINESS))
    assert got.document["current"]["linux_sysctl"] == {"vm.swappiness": "1"}
    assert [u["command"] for u in got.unknown] == ["echo 1 > /proc/sys/vm/swappiness"]


@pytest.mark.parametrize("reader", ["cat", "head", "tail", "pg"])
def test_other_readers_of_the_file_give_the_same_value(reader: str) -> None:
    """The same notes with the file printed by another reader (the file's text is what
    each prints, one value on one line)."""
    text = paste(SWAPPINESS).replace("# more ", f"# {reader} ").replace("$ more ", f"$ {reader} ")
    got = draft(text)
    assert got.document["current"]["linux_sysctl"] == {"vm.swappiness": "1"}


def test_grep_of_proc_sys_files_gives_each_sysctl() -> None:
    """`path:value` lines as `grep . /proc/sys/vm/*` prints them: four of the 24 a
    linux-mm report on 2.6.18-rc3-mm2 lists (Laurent Riffard's OOM mail to linux-mm, 2006,
    as an archive copy holds it); the mail prints the lines without their command."""
    lines = ["/proc/sys/vm/dirty_background_ratio:10", "/proc/sys/vm/dirty_ratio:40",
             "/proc/sys/vm/swappiness:60", "/proc/sys/vm/vfs_cache_pressure:100"]  # fmt: skip
    text = "\n".join(["# grep . /proc/sys/vm/*", *lines, "# "])
    assert parse_text(text).found["sysctl"][0].value == {
        "vm.dirty_background_ratio": "10", "vm.dirty_ratio": "40", "vm.swappiness": "60",
        "vm.vfs_cache_pressure": "100",
    }  # fmt: skip


def test_a_missing_proc_sys_file_is_no_problem() -> None:
    text = "# cat /proc/sys/vm/nope\ncat: /proc/sys/vm/nope: No such file or directory\n# "
    assert parse_text(text).problems == []


@pytest.mark.parametrize("reader", ["more", "head"])
def test_thp_printed_by_more_or_head_is_read(reader: str) -> None:
    text = paste(THP).replace("# cat ", f"# {reader} ")
    got = draft(text)
    assert got.document["current"]["linux_thp"] == "never"
    assert got.unknown == []
