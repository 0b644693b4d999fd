"""The disks below a Linux file system when lsblk is not pasted, and where each queue value
was read.

The RHEL 10 EC2 transcript (tests/fixtures/transcripts/rhel_nvme_chhanz_ec2.txt) pasted
without its `lsblk`: df -h names /dev/nvme0n1p3 and /dev/nvme0n1p2, and the three
`cat /sys/block/nvme0n1/queue/X` name the disk. The kernel's partition names put each file
system on nvme0n1, so the NVMe facts must hold as they do with lsblk, each value credited
to the `cat` that printed it. The name → disk mapping is checked on the device names of
the corpus's real df, mount, findmnt, mdadm and lsblk captures, and against every lsblk
tree of the corpus (a partition's parent there is the disk its name gives).
"""

from __future__ import annotations

import pytest

from rules.parse import draft, parse_text
from rules.parse.combine_linux_tree import disk_of
from rules.parse.draft import Draft
from rules.parse.linux_storage import BlockDevice, lsblk
from tests.rules.parse.facts import verdict
from tests.rules.parse.fixtures import corpus_names, section, transcript, transcript_file
from tests.rules.parse.metamorphic import _program, chunks, join

RHEL = "rhel_nvme_chhanz_ec2.txt"
MOUNTS = ("/", "/boot/efi")
CATS = {
    attr: f"cat /sys/block/nvme0n1/queue/{attr}"
    for attr in ("rotational", "max_sectors_kb", "scheduler")
}  # fmt: skip


def without(text: str, program: str) -> str:
    pre, parts = chunks(text)
    return join(pre, [p for p in parts if _program(p) != program])


def line_of(text: str, command: str) -> int:
    """The 1-based line of the paste that runs `command`."""
    lines = text.split("\n")
    return next(i for i, line in enumerate(lines, 1) if line.endswith(f"# {command}"))


def entry(found: Draft, mount: str) -> tuple[int, dict[str, object]]:
    storage = found.document["storage"]
    i = next(i for i, s in enumerate(storage) if s["mount"] == mount)
    return i, storage[i]


def used_fields(found: Draft) -> dict[str, set[str]]:
    return {u["command"]: set(u["fields"]) for u in found.used}


@pytest.fixture(scope="module")
def rhel() -> tuple[list[str], str]:
    _, expects, text = transcript_file(RHEL)
    return expects, text


def test_without_lsblk_the_nvme_disk_is_still_solid_state_with_its_max_transfer(
    rhel: tuple[list[str], str],
) -> None:
    expects, text = rhel
    bare = without(text, "lsblk")
    assert bare != text and "lsblk" not in bare
    found = draft(bare)
    for mount in MOUNTS:
        i, s = entry(found, mount)
        assert s["devices"] == ["nvme0n1"] and s["disks"] == 1
        assert s["media"] == "nvme"  # solid state, read: not the "hdd" guess
        assert s["max_transfer_kb"] == 1280
        at = f"storage[{i}]"
        assert not any(m.path.startswith((f"{at}.media", f"{at}.disks")) for m in found.missing)
        media, size = found.provenance[f"{at}.media"], found.provenance[f"{at}.max_transfer_kb"]
        assert (media.command, media.line) == (
            CATS["rotational"],
            line_of(bare, CATS["rotational"]),
        )
        assert (size.command, size.line) == (
            CATS["max_sectors_kb"], line_of(bare, CATS["max_sectors_kb"]),
        )  # fmt: skip
    assert [line for line in expects if verdict(line, found) is not None] == []


def test_the_storage_facts_are_those_read_with_lsblk(rhel: tuple[list[str], str]) -> None:
    _, text = rhel
    whole, bare = draft(text), draft(without(text, "lsblk"))
    keys = ("name", "mount", "size_gb", "devices", "disks", "media", "max_transfer_kb")
    for mount in MOUNTS:
        (_, a), (_, b) = entry(whole, mount), entry(bare, mount)
        assert {k: a.get(k) for k in keys} == {k: b.get(k) for k in keys}
    assert whole.document["current"]["devices"] == bare.document["current"]["devices"]


def test_max_transfer_names_the_max_sectors_kb_cat(rhel: tuple[list[str], str]) -> None:
    _, text = rhel
    found = draft(text)
    for mount in MOUNTS:
        i, _ = entry(found, mount)
        size = found.provenance[f"storage[{i}].max_transfer_kb"]
        assert size.command == CATS["max_sectors_kb"]
        assert size.line == line_of(text, CATS["max_sectors_kb"]) == 34
        assert "more like it" not in size.text


def test_each_cat_is_credited_with_the_fields_it_filled(rhel: tuple[list[str], str]) -> None:
    _, text = rhel
    for paste in (text, without(text, "lsblk")):
        found = draft(paste)
        used = used_fields(found)
        device = "current.devices.nvme0n1"
        assert used[CATS["max_sectors_kb"]] == {
            f"{device}.max_sectors_kb", "storage[0].max_transfer_kb", "storage[1].max_transfer_kb",
        }  # fmt: skip
        assert used[CATS["scheduler"]] == {f"{device}.scheduler"}
        rotational = used[CATS["rotational"]]
        assert f"{device}.rotational" in rotational
        assert not any(f.endswith("max_transfer_kb") for f in rotational)
        assert not found.unused
    # With lsblk, lsblk tells the disk and that it is NVMe; the rotational cat its own value.
    assert used_fields(draft(text))[CATS["rotational"]] == {"current.devices.nvme0n1.rotational"}


def test_the_cats_in_another_order_credit_the_same_lines(rhel: tuple[list[str], str]) -> None:
    _, text = rhel
    pre, parts = chunks(without(text, "lsblk"))
    cats = [p for p in parts if _program(p) == "cat" and "/sys/block/" in p[1][0]]
    rest = [p for p in parts if p not in cats]
    pasted = join(pre, [*rest[:-1], *cats[::-1], rest[-1]])  # the bare prompt stays last
    found = draft(pasted)
    i, s = entry(found, "/")
    assert (s["media"], s["max_transfer_kb"]) == ("nvme", 1280)
    size = found.provenance[f"storage[{i}].max_transfer_kb"]
    assert size.line == line_of(pasted, CATS["max_sectors_kb"])
    assert used_fields(found)[CATS["scheduler"]] == {"current.devices.nvme0n1.scheduler"}


# Real df captures with a partition of an sd disk (unix/df_h_ubuntu1804_jc.txt: /dev/sda2
# on /), and a real sda's /sys/block cats: an SSD's rotational 0 (util-linux's sysfs dump
# of a Kingston SSD) or a spinning disk's 1 (prometheus/procfs), and max_sectors_kb 1280.
DF_SDA2 = "unix/df_h_ubuntu1804_jc.txt"
SSD, HDD = "linux/rotational_sda_ssd_utillinux.txt", "linux/rotational_sda_procfs.txt"
MAX_SECTORS = "linux/max_sectors_kb_sda_procfs.txt"


@pytest.mark.parametrize(("rotational", "media"), [(SSD, "ssd"), (HDD, "hdd")])
def test_the_rotational_cat_tells_an_sd_partition_s_media(rotational: str, media: str) -> None:
    paste = transcript(DF_SDA2, MAX_SECTORS, rotational, prompt="[root@h ~]# ")
    found = draft(paste)
    i, s = entry(found, "/")
    assert s["devices"] == ["sda"] and s["media"] == media and s["max_transfer_kb"] == 1280
    told = found.provenance[f"storage[{i}].media"]
    assert told.command == "cat /sys/block/sda/queue/rotational"
    assert told.line == line_of(paste, told.command)
    size = found.provenance[f"storage[{i}].max_transfer_kb"]
    assert (size.command, size.line) == (
        "cat /sys/block/sda/queue/max_sectors_kb", line_of(paste, size.command),
    )  # fmt: skip


def test_a_partition_whose_disk_nothing_shows_stays_a_guess() -> None:
    found = draft(transcript(DF_SDA2, prompt="[root@h ~]# "))
    i, s = entry(found, "/")
    assert "devices" not in s
    assert {f"storage[{i}].disks", f"storage[{i}].media"} <= {m.path for m in found.missing}


# Device names of the corpus's real captures, as df, mount, findmnt, mdadm and lsblk print
# them, with the disk the kernel's naming puts each on (None: not a partition).
CORPUS_NAMES = {
    "/dev/sda1": "sda",  # unix/df_alp_spaces_mountpoint_insights.txt, df_centos77_jc.txt
    "/dev/sda2": "sda",  # unix/df_h_ubuntu1804_jc.txt
    "/dev/sda3": "sda",  # unix/df_ptk_fuseblk_glpi.txt
    "/dev/sda5": "sda",
    "/dev/sda7": "sda",
    "/dev/sdb1": "sdb",  # unix/df_alp_spaces_mountpoint_insights.txt
    "/dev/sdv1": "sdv",  # linux/mdadm_detail_raid5_21disks_insights.txt
    "/dev/nvme0n1p2": "nvme0n1",  # transcripts/rhel_nvme_chhanz_ec2.txt (df -h)
    "/dev/nvme0n1p3": "nvme0n1",
    "xvda1": "xvda",  # transcripts/rhel8_wazuh24848.txt (lsblk)
    "xvda3": "xvda",
    "/dev/vda1": "vda",  # linux/mdadm_detail_raid0_jc.txt
    "/dev/vda2": "vda",
    "vdb2": "vdb",  # linux/lsblk_tree_md_raid1.txt
    "/dev/md0": None,  # linux/mdadm_detail_raid0_jc.txt: an array, not a partition
    "/dev/md127": None,
    "md126": None,  # linux/lsblk_tree_md_raid1.txt
    "/dev/dm-2": None,  # linux/swaps_procfs.txt
    "dm-0": None,  # linux/lsblk_tree_multipath.txt
    "/dev/mapper/rootvg-rootlv": None,  # unix/df_* (LVM)
    "/dev/mapper/centos-root": None,
    "/dev/vda": None,  # linux/findmnt_raw_debian12.txt: a whole disk
    "nvme0n1": None,
    "/dev/loop0": None,  # linux/lsblk_tree_ubuntu1804_loops_jc.txt
    "/dev/ram0": None,
    "tmpfs": None,
    # hyphop/khadas-openwrt files/docs/README.fs.md (blkid of an eMMC board)
    "/dev/mmcblk1p1": "mmcblk1",
    "/dev/mmcblk1p2": "mmcblk1",
    "/dev/mmcblk1": None,
}


@pytest.mark.parametrize(("source", "disk"), CORPUS_NAMES.items())
def test_a_partition_name_gives_its_disk(source: str, disk: str | None) -> None:
    assert disk_of(source.rsplit("/", 1)[-1]) == disk


def test_the_names_are_those_the_corpus_prints() -> None:
    """Each /dev name above is printed by some capture of the corpus or the transcripts."""
    from tests.rules.parse.fixtures import ROOT, TRANSCRIPTS

    texts = [
        p.read_text(encoding="utf-8") for d in ("linux", "unix") for p in (ROOT / d).glob("*.txt")
    ]
    texts += [p.read_text(encoding="utf-8") for p in TRANSCRIPTS.glob("*.txt")]
    corpus = [n for n in CORPUS_NAMES if "mmcblk" not in n and n != "tmpfs"]
    missing = [n for n in corpus if not any(n in t for t in texts)]
    assert missing == []


def lsblk_trees() -> list[tuple[str, tuple[BlockDevice, ...]]]:
    out = [(n, lsblk(section(n))) for n in corpus_names() if n.startswith("linux/lsblk_")]
    for name in ("rhel8_wazuh24848.txt", RHEL, "sles15_wazuh20204.txt"):
        out += [(name, f.value) for f in parse_text(transcript_file(name)[2]).all("lsblk")]
    return out


def test_every_partition_of_the_corpus_lsblk_trees_is_on_the_disk_its_name_gives() -> None:
    checked, wrong = 0, []
    for name, rows in lsblk_trees():
        kinds = {r.name: r.type for r in rows}
        for r in rows:
            own = r.kname or r.name
            if r.type == "part" and r.parent is not None and kinds.get(r.parent) == "disk":
                checked += 1
                if disk_of(own) != r.parent:
                    wrong.append(f"{name}: {own} on {r.parent}, named for {disk_of(own)}")
            elif r.type not in (None, "part") and disk_of(own) is not None:
                wrong.append(f"{name}: {own} is a {r.type}, named as a partition")
    assert wrong == []
    assert checked >= 20  # the trees hold sda1…, vdb1…, nvme0n1p1…, xvda1…


def test_a_name_too_long_for_the_kernel_is_no_partition() -> None:
    assert disk_of("sd" + "a" * 200 + "1") is None
    assert disk_of("nvme0n1p" + "1" * 100) is None
