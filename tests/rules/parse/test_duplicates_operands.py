"""Repeated sections of one command that ask about different things are all read.

A command whose operand names a disk, volume or device (`lspv hdisk0`, `lsattr -El hdisk4`,
`lslv hd2`) is one reading per operand, never a repeat of the first: the AIX 6.1 GLPI
transcript (tests/fixtures/transcripts/aix61_glpi.txt) pastes `lspv hdiskN` for four
disks, and each disk's size must reach the draft. Listings of every file system or disk
(`df`, `lsblk`, `mount`, `findmnt`, `psrinfo`) are one reading however they are asked
without an operand; narrowed to one file system (`df -h /boot`) such a section goes with
an unfiltered whole listing where one was pasted, else stands for its operand. The
narrowed df sections below are the rows of jc's real CentOS 7.7 `df -h` (rhel7_jc.txt)
under its header, as df prints them for one operand.
"""

from __future__ import annotations

import pytest

from rules.parse import draft, parse_text
from rules.parse.duplicates import filtered, source_of
from rules.parse.registry import Section
from rules.parse.sections import argv_of
from tests.rules.parse.corpus import transcript_failures
from tests.rules.parse.fixtures import header_and_output, transcript_file

AIX = "aix61_glpi.txt"
DISK_FACTS = ("device=hdisk0 size_gb=34", "device=hdisk2 size_gb=100", "device=hdisk3 size_gb=30")
RHEL = "rhel7_jc.txt"
PROMPT = "[root@localhost ~]# "


def lines_of(text: str) -> list[str]:
    return text.rstrip("\n").split("\n")


def df_rows(text: str, *mounts: str) -> list[str]:
    """The header and the rows of `mounts` of the transcript's `df -h`."""
    lines = lines_of(text)
    start = lines.index(f"{PROMPT}df -h") + 1
    header = lines[start]
    rows = [ln for ln in lines[start + 1 : start + 9] if ln.split()[-1] in mounts]
    assert len(rows) == len(mounts)
    return [header, *rows]


def without_df(text: str) -> list[str]:
    """The transcript's lines without its `df -h` section."""
    lines = lines_of(text)
    start = lines.index(f"{PROMPT}df -h")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(PROMPT))
    return lines[:start] + lines[end:]


def storage_sizes(text: str) -> dict[str, float]:
    return {s["mount"]: s["size_gb"] for s in draft(text).document["storage"]}


def test_every_lspv_hdisk_of_the_aix_transcript_is_read() -> None:
    _, _, text = transcript_file(AIX)
    parsed = parse_text(text)
    disks = [f.value.name for f in parsed.all("aix_lspv_disk")]
    assert disks == ["hdisk0", "hdisk1", "hdisk2", "hdisk3"]
    assert not [u for u in parsed.unused if u[1].startswith("lspv")]


def test_the_three_disk_sizes_settle_dropped_now_hold() -> None:
    _, expects, _ = transcript_file(AIX)
    assert set(DISK_FACTS) <= set(expects)
    assert transcript_failures(AIX) == {}


def test_each_disk_names_its_own_lspv_section() -> None:
    _, _, text = transcript_file(AIX)
    lines = lines_of(text)
    readings = {f.value.name: f for f in parse_text(text).all("aix_lspv_disk")}
    for disk, f in readings.items():
        assert f.section.command == f"lspv {disk}"
        assert lines[f.section.line - 1] == f"# lspv {disk}"


def paste(*names: str) -> str:
    out = []
    for name in names:
        header, lines = header_and_output(name)
        out += [f"# {header['command']}", *lines]
    return "\n".join(out) + "\n"


def test_lsattr_of_three_disks_keeps_three_readings() -> None:
    text = paste(
        "aix/lsattr_hdisk4_aixpcm_bondhuang.txt",
        "aix/lsattr_hdisk2_emc_invista_andy.txt",
        "aix/lsattr_hdisk10_hitachi_squeezed_csdn.txt",
    )
    parsed = parse_text(text)
    assert [f.value.device for f in parsed.all("aix_lsattr_disk")] == [
        "hdisk4",
        "hdisk2",
        "hdisk10",
    ]
    assert parsed.unused == []
    assert set(draft(text).document["current"]["devices"]) == {"hdisk4", "hdisk2", "hdisk10"}


def test_one_disk_listed_twice_is_one_reading_and_a_note() -> None:
    """bond-huang's hdisk4 under SDDPCM, then under AIXPCM: one disk asked about twice."""
    text = paste("aix/lsattr_hdisk4_sddpcm_bondhuang.txt", "aix/lsattr_hdisk4_aixpcm_bondhuang.txt")
    parsed = parse_text(text)
    assert len(parsed.all("aix_lsattr_disk")) == 1
    assert len(parsed.unused) == 1
    assert "lsattr -El hdisk4" in parsed.unused[0][2]


def test_each_lslv_of_the_aix_transcript_is_read() -> None:
    _, _, text = transcript_file(AIX)
    names = [f.value.name for f in parse_text(text).all("aix_lslv")]
    assert names == ["hd2", "lv_tpc", "fslv01"]


def test_df_of_two_mount_points_without_the_whole_df_keeps_both() -> None:
    _, _, text = transcript_file(RHEL)
    rest = without_df(text)
    narrowed = [
        f"{PROMPT}df -h /", *df_rows(text, "/"),
        f"{PROMPT}df -h /boot", *df_rows(text, "/boot"),
    ]  # fmt: skip
    pasted = "\n".join([rest[0], rest[1], *narrowed, *rest[2:]]) + "\n"
    parsed = parse_text(pasted)
    assert [f.section.command for f in parsed.all("df")] == ["df -h /", "df -h /boot"]
    assert not [u for u in parsed.unused if u[1].startswith("df")]
    whole = storage_sizes(text)
    assert storage_sizes(pasted) == whole
    assert (whole["/"], whole["/boot"]) == (17, 0.99)  # 17G and 1014M


def test_a_narrowed_df_goes_with_the_whole_df_pasted_after_it() -> None:
    _, _, text = transcript_file(RHEL)
    lines = lines_of(text)
    at = lines.index(f"{PROMPT}df -h")
    pasted_lines = [*lines[:at], f"{PROMPT}df -h /boot", *df_rows(text, "/boot"), *lines[at:]]
    pasted = "\n".join(pasted_lines) + "\n"
    parsed = parse_text(pasted)
    assert [f.section.command for f in parsed.all("df")] == ["df -h"]
    (line, _, why) = next(u for u in parsed.unused if u[1] == "df -h /boot")
    whole = pasted_lines.index(f"{PROMPT}df -h") + 1
    assert line == at + 1
    assert why == f"`df -h /boot` (2 lines) not used: the full `df -h` at line {whole} says more"
    assert storage_sizes(pasted) == storage_sizes(text)


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("lsblk -o NAME,SIZE,ROTA", ""),  # -o's argument is no operand
        ("lsblk /dev/sda", "/dev/sda"),
        ("lsblk -d", "-d"),
        ("df -h /sas", "/sas"),
        ("df -t xfs", "-t"),
        ("df -h", ""),
        ("findmnt -o TARGET,SOURCE", ""),
        ("lspv hdisk0", ""),  # one disk's listing, not a filtered lspv
        ("lspv -l hdisk0", ""),
        ("lsvg rootvg", ""),
        ("mount | grep /sas", "| grep"),
    ],
)
def test_what_narrows_a_listing(command: str, why: str) -> None:
    assert filtered(Section(command, argv_of(command), (), 1)) == why


def test_lsblk_with_chosen_columns_and_the_plain_tree_are_one_listing() -> None:
    """jc's CentOS 7.7 `lsblk -o +KNAME,…` and `lsblk`: the same disks twice, one kept."""
    text = paste("linux/lsblk_o_allcols_centos77_jc.txt", "linux/lsblk_tree_centos77_jc.txt")
    parsed = parse_text(text)
    assert len(parsed.all("lsblk")) == 1
    assert len(parsed.unused) == 1


def test_merged_cats_name_the_section_of_each_value() -> None:
    """The RHEL 10 EC2 transcript's three `cat /sys/block/nvme0n1/queue/X`: one reading,
    each value naming the cat that printed it."""
    _, _, text = transcript_file("rhel_nvme_chhanz_ec2.txt")
    lines = lines_of(text)
    (found,) = parse_text(text).all("block_queue")
    assert len(found.also) == 2
    for attr in ("rotational", "max_sectors_kb", "scheduler"):
        origin = source_of(found, "nvme0n1", attr)
        assert origin.command == f"cat /sys/block/nvme0n1/queue/{attr}"
        assert lines[origin.line - 1].endswith(f"# {origin.command}")
