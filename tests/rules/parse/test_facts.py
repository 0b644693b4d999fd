"""facts.check on a hand-made draft: each expect key lands where the draft holds it; a
parser's own fact (rows=, swap_mb=, a disk's size …) where its parsers' readings are given."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rules.parse import parse_text
from rules.parse.aix import PathRow, Paths, PvEntry, Pvs
from rules.parse.aix_fs import PagingSpace
from rules.parse.draft import Draft, Missing, Provenance
from rules.parse.linux_devices import MultipathMap, NvmeNamespace, XfsInfo
from rules.parse.linux_host import Free
from rules.parse.linux_lvm import LogicalVolume, MdArray
from rules.parse.linux_storage import BlockDevice
from rules.parse.registry import Section
from rules.parse.unix_df import DfRow
from tests.rules.parse.facts import (
    BAD,
    GUESSED,
    LEFT_OUT,
    MISSING,
    UNREPRESENTABLE,
    WRONG,
    Readings,
    check,
    parse_expect,
    verdict,
)
from tests.rules.parse.fixtures import section, transcript

DOCUMENT = {
    "server": {
        "os": "aix", "os_version": "7.2", "hostname": "aix01", "cpus": 32, "cores": 8,
        "smt_threads": 4, "ram_gb": 61.5,
    },
    "storage": [
        {"name": "saslv", "mount": "/sasdata", "filesystem": "jfs2", "size_gb": 4000.0,
         "devices": ["hdisk4", "hdisk5"], "raid": "0", "stripe_kb": 256, "media": "hdd"},
        {"name": "centos-root", "mount": "/", "filesystem": "xfs", "size_gb": 1,
         "devices": ["sda"], "raid": "jbod", "media": "ssd"},
        {"name": "md0", "mount": "/md", "filesystem": "ext4", "size_gb": 10,
         "devices": ["vda", "vdb"], "raid": "5", "stripe_kb": 512, "media": "hdd"},
    ],
    "current": {
        "aix_ioo": {"j2_maxPageReadAhead": "128"}, "aix_vmo": None,
        "linux_sysctl": {"vm.swappiness": "60"}, "linux_thp": "madvise", "tuned_profile": None,
        "devices": {
            "hdisk4": {"max_transfer": "0x40000"},
            "sdb": {"scheduler": "[mq-deadline] kyber none", "rotational": "0",
                    "read_ahead_kb": "128", "nr_requests": "64", "max_sectors_kb": "512"},
        },
    },
}  # fmt: skip


def _draft() -> Draft:
    def at(path: str, value: object, command: str, line: int, raw: str = "") -> Provenance:
        return Provenance(path, value, command, line, raw)

    return Draft(
        document=DOCUMENT,
        provenance={
            "server.cores": at("server.cores", 8, "lparstat -i", 12),
            "storage[0].name": at("storage[0].name", "saslv", "mount", 3, "/dev/saslv"),
            "storage[0].size_gb": at("storage[0].size_gb", 4000.0, "df -k", 7),
            "storage[1].name": at(
                "storage[1].name", "centos-root", "findmnt", 2, "/dev/mapper/centos-root"
            ),
        },
        missing=[
            Missing("storage[1].size_gb", "no size was read for this file system", 1),
            Missing("storage[1].media", "whether its disks spin was not read", "ssd"),
        ],
        notes=["left out /boot: a system file system"],
    )


HOLDS = (
    "os=aix", "os_release=7.2", "os_release=7.2.0.0", "hostname=aix01", "cpus_online=32",
    "cores=8", "smt=4", "ram_mb=62976", "ram_gb=62",
    "mount=/sasdata fstype=jfs2 size_gb=4096 device=/dev/saslv",
    "mount=/sasdata device=hdisk4", "mount=/ fstype=xfs device=/dev/mapper/centos-root",
    "device=sdb rotational=0 scheduler=mq-deadline read_ahead_kb=128",
    "device=hdisk4 max_transfer_kb=256", "device=sdb max_transfer_kb=512",
    "device=vda rotational=1", "md=md0 level=raid5 chunk_kb=512 devices=vda,vdb",
    "lv=saslv stripes=4 stripe_kb=256 devices=hdisk5,hdisk4",
    "tunable=vm.swappiness value=60", "tunable=transparent_hugepage value=madvise",
    "tunable=j2_maxPageReadAhead value=128", "tunable=nr_requests value=64",
)  # fmt: skip


FAILS = (
    ("os=linux", WRONG, "expected os=linux, draft has os=aix"),
    ("cores=4", WRONG, "draft has cores=8 (from `lparstat -i` line 12)"),
    ("ram_mb=4096", WRONG, "draft has ram_gb=61.5"),
    ("distribution=rhel", MISSING, "draft has no distribution (server.distribution)"),
    ("mount=/sasdata size_gb=8000", WRONG, "draft has size_gb=4000.0 (from `df -k` line 7)"),
    ("mount=/ size_gb=17", GUESSED, "draft only guesses size_gb=1 (a guess: no size was read"),
    ("mount=/sasdata fstype=xfs", WRONG, "draft has filesystem=jfs2"),
    ("mount=/sasdata device=/dev/otherlv", WRONG, "draft has device=saslv"),
    ("mount=/boot fstype=xfs", LEFT_OUT, "draft leaves it out: left out /boot"),
    ("mount=/saswork size_gb=1", MISSING, "no storage entry for /saswork (has: /sasdata, /, /md"),
    ("device=sda rotational=0", GUESSED, "draft only guesses media=ssd"),
    ("device=sdb scheduler=bfq", WRONG, "draft has scheduler=[mq-deadline] kyber none"),
    ("device=sdc scheduler=none", MISSING, "draft has no current.devices.sdc"),
    ("device=sdb size_gb=20", UNREPRESENTABLE, "not representable in the draft: device size_gb"),
    ("swap_mb=512", UNREPRESENTABLE, "not representable in the draft: swap_mb"),
    ("rows=4", UNREPRESENTABLE, "not representable in the draft: rows"),
    ("path_count=hdisk4:2", UNREPRESENTABLE, "not representable in the draft: path_count"),
    ("lv=otherlv stripes=2", UNREPRESENTABLE, "not representable in the draft: lv"),
    ("md=md0 level=raid10", WRONG, "draft has raid=5"),
    ("tunable=vm.dirty_ratio value=20", MISSING, "draft has no vm.dirty_ratio"),
    ("tunable=tuned_profile value=virtual-guest", MISSING, "draft has no tuned_profile"),
    ("tunable=minfree value=960", MISSING, "draft has no current value named minfree"),
    ("colour=blue", BAD, "not in the expect vocabulary"),
    ("size_gb=4", BAD, "cannot open an expect line"),
)  # fmt: skip


def test_the_first_failing_attribute_is_named_with_its_provenance() -> None:
    message = check("mount=/sasdata fstype=jfs2 size_gb=1", _draft())
    assert message == (
        "expected mount=/sasdata fstype=jfs2 size_gb=1, draft has size_gb=4000.0 "
        "(from `df -k` line 7)"
    )


def test_a_mount_point_with_blanks_is_one_value() -> None:
    assert parse_expect("mount=/V M T o o l s size_gb=50 device=/dev/sdb1") == [
        ("mount", "/V M T o o l s"),
        ("size_gb", "50"),
        ("device", "/dev/sdb1"),
    ]


def test_sizes_allow_for_rounding() -> None:
    draft = _draft()
    assert check("mount=/sasdata size_gb=3906", draft) is None  # 2.4 % off: df -h rounding
    assert check("mount=/sasdata size_gb=3700", draft) is not None  # 7.5 % off
    assert check("mount=/md size_gb=10", draft) is None


def test_distribution_names_of_the_corpus_map_to_the_contract() -> None:
    draft = _draft()
    draft.document = {**DOCUMENT, "server": {"os": "linux", "distribution": "ol"}}
    assert check("distribution=oracle", draft) is None


# A parser's own facts, checked against its value (parser_facts) where readings are given.

GIB = 2**30
READINGS = Readings(
    {
        "df": (
            (
                DfRow("/dev/sda1", 1038336, 800736, "/boot", None),
                DfRow("/dev/mapper/centos-root", 17811456, 16005876, "/", None),
                DfRow("tmpfs", 386136, 386136, "/run/user/1000", None),
            ),
        ),
        "free": (Free(mem_total_kb=3861332, swap_total_kb=2097148, rounded=False),),
        "aix_lsps": (PagingSpace(total_mb=512, used_pct=26, spaces=()),),
        "lsblk": (
            (BlockDevice("sda", None, None, "disk", 20 * GIB, None, None, None, None, {}, None),),
        ),
        "nvme_list": ((NvmeNamespace("/dev/nvme0n1", "Samsung SSD 950 PRO", 512110000000),),),
        "multipath": ((MultipathMap("mpatha", "3600a0b80", "dm-2", 2 * GIB, ("sdb", "sdc")),),),
        "aix_lspath": (
            Paths((PathRow("Enabled", "hdisk4", "fscsi0"), PathRow("Enabled", "hdisk4", "fscsi1"))),
        ),
        "xfs_info": (XfsInfo("/dev/sda", 32, 4096, 32, 128),),
        "lvs": ((LogicalVolume("[pool1_tdata]", "data1", None, None, None, ("/dev/sdb1(0)",)),),),
        "mdstat": ((MdArray("md3", "active", "raid5", ("sdc1", "sdd1"), (), 1024, 100),),),
    },
    refused=(("mdadm_detail", "mdadm --detail /dev/md9", "not mdadm --detail output"),),
    unread=("swap -l",),
)
PARSER_HOLDS = (
    "swap_mb=2048", "swap_mb=512", "device=sda size_gb=20", "device=/dev/nvme0n1 size_gb=512",
    "path_count=mpatha:2", "path_count=3600a0b80:2", "path_count=hdisk4:2",
    "xfs=/dev/sda agcount=32 sunit_blks=32 swidth_blks=128", "lv=[pool1_tdata] devices=sdb1",
    "md=md3 level=raid5 chunk_kb=1024 devices=sdd1,sdc1",
    "md=md0 level=raid5 chunk_kb=512 devices=vda,vdb",  # the draft's storage entry md0
)  # fmt: skip


# expect line → (category, a part of the message), against READINGS.
PARSER_FAILS = {
    "swap_mb=4096": (WRONG, "free read swap_mb=2048; aix_lsps read swap_mb=512"),
    "device=sda size_gb=40": (WRONG, "lsblk read size_gb=20.0 (the parser's own reading)"),
    "device=sdz size_gb=1": (MISSING, "no reading gives a device named sdz: aix_lspath, aix_lsps"),
    "device=sda size_gb=20 scheduler=none": (MISSING, "draft has no current.devices.sda"),
    "path_count=hdisk4:4": (WRONG, "aix_lspath read path_count=2"),
    "xfs=/dev/sda agcount=32 sunit_blks=64": (WRONG, "xfs_info read sunit_blks=32"),
    "lv=[pool1_tdata] stripes=2": (WRONG, "lvs read stripes=nothing"),
    "md=md3 level=raid6 devices=sdc1": (WRONG, "mdstat read level=raid5; mdstat read devices="),
    "md=md9 level=raid1": (MISSING, "mdadm_detail refused `mdadm --detail /dev/md9`"),
    "md=md0 level=raid10": (WRONG, "draft has raid=5"),
    "rows=3": (BAD, "rows= names no command in a paste of several readings"),
    "md=md3": (BAD, "md=md3 needs an attribute"),
}  # fmt: skip


@pytest.mark.parametrize(
    ("line", "readings"), [(h, None) for h in HOLDS] + [(h, READINGS) for h in PARSER_HOLDS]
)
def test_a_fact_the_draft_or_its_parser_holds_passes(line: str, readings: Readings | None) -> None:
    assert check(line, _draft(), readings) is None


@pytest.mark.parametrize(
    ("line", "category", "part", "readings"),
    [(*f, None) for f in FAILS] + [(k, *v, READINGS) for k, v in PARSER_FAILS.items()],
)
def test_a_fact_that_fails_says_what_was_read(
    line: str, category: str, part: str, readings: Readings | None
) -> None:
    found = verdict(line, _draft(), readings)
    assert found is not None
    assert (found.category, part in found.message) == (category, True), found.message
    assert check(line, _draft(), readings) == found.message


def test_rows_are_a_readings_entries_whatever_its_shape() -> None:
    df = Readings({"df": READINGS.values["df"]})
    assert check("rows=3", _draft(), df) is None
    assert (
        check("rows=4", _draft(), df)
        == "expected rows=4, df read 3 rows (the parser's own reading)"
    )
    pvs = Pvs((PvEntry("hdisk0", "00c6", "rootvg", "active"),))
    assert check("rows=1", _draft(), Readings({"aix_lspv": (pvs,)})) is None  # its one row list
    assert check("rows=2", _draft(), Readings({"block_queue": ({"sda": {}, "sdb": {}},)})) is None
    assert check("rows=0", _draft(), Readings({"mdstat": ((),)})) is None
    one = verdict("rows=1", _draft(), Readings({"xfs_info": READINGS.values["xfs_info"]}))
    assert one is not None and one.category == BAD and "parser_facts.ROWS" in one.message


@dataclass(frozen=True)
class Property:  # the shape of `zfs get`'s rows: one a data set's property, as printed
    dataset: str
    property: str
    value: str


@dataclass(frozen=True)
class Dataset:  # the shape of `zfs list -o name,recordsize`'s rows
    name: str
    recordsize_bytes: int


@pytest.mark.parametrize(
    ("value", "line", "holds"),
    [
        ((Property("big/a", "type", "filesystem"), Property("big/a", "recordsize", "1M")),
         "zfs=big/a recordsize_kb=1024", True),
        ((Property("data0", "recordsize", "131072"),), "zfs=data0 recordsize_kb=128", True),
        ((Property("pool/home/bob", "recordsize", "128K"),), "zfs=pool/home/bob recordsize_kb=8",
         False),
        ((Dataset("rpool/sas", 1048576),), "zfs=rpool/sas recordsize_kb=1024", True),
    ],
)  # fmt: skip
def test_a_zfs_recordsize_is_read_from_zfs_get_or_zfs_list(
    value: tuple[object, ...], line: str, holds: bool
) -> None:
    found = check(line, _draft(), Readings({"zfs": (value,)}))
    assert (found is None) == holds, found
    if not holds:
        assert found == f"expected {line}, zfs read recordsize_kb=128.0 (the parser's own reading)"


def test_without_a_reading_the_fact_names_what_the_paste_held() -> None:
    message = check("swap_mb=16384", _draft(), Readings(unread=("swap -l",)))
    assert message == (
        "expected swap_mb=16384, no reading gives a swap size; no parser reads `swap -l` "
        "(the parser's own reading)"
    )


def test_a_fixture_is_checked_against_its_own_parser() -> None:
    """Readings.of_section runs the fixture's parser on its section, as the corpus does."""
    lspv = Readings.of_section(section("aix/lspv_hdisk0_aix61_glpi.txt"))  # 543 PPs × 64 MB
    assert check("device=hdisk0 size_gb=34", _draft(), lspv) is None
    lslv = Readings.of_section(section("aix/lslv_lv_tpc_glpi.txt"))  # no STRIPE WIDTH line
    assert check("lv=lv_tpc stripes=1", _draft(), lslv) is None
    garbled = Readings.of_section(Section("lvs", ("lvs",), (), 1))  # no output: Garbled
    assert garbled.values == {} and garbled.refused[0][:2] == ("lvs", "lvs")
    missing = check("lv=swap devices=sda2", _draft(), garbled)
    assert missing is not None and "lvs refused `lvs`: " in missing


def test_a_transcript_names_the_repeated_section_let_go() -> None:
    name = "aix/lspv_hdisk3_aix61_glpi.txt"
    readings = Readings.of_parsed(parse_text(transcript(name, name)))
    assert len(readings.values["aix_lspv_disk"]) == 1
    assert readings.unused == (
        "`lspv hdisk3` (11 lines) not used: `lspv hdisk3` at line 1 says as much",
    )
    assert check("device=hdisk3 size_gb=30", _draft(), readings) is None
    let_go = Readings(
        unused=("`lspv hdisk3` (11 lines) not used: `lspv hdisk1` at line 48 says more",)
    )
    message = check("device=hdisk3 size_gb=30", _draft(), let_go)
    assert message is not None and message.endswith("line 48 says more (the parser's own reading)")
