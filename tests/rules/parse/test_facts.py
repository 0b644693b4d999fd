"""facts.check on a hand-made draft: each expect key lands where the draft holds it."""

from __future__ import annotations

import pytest

from rules.parse.draft import Draft, Missing, Provenance
from tests.rules.parse.facts import (
    BAD,
    GUESSED,
    LEFT_OUT,
    MISSING,
    UNREPRESENTABLE,
    WRONG,
    check,
    parse_expect,
    verdict,
)

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


@pytest.mark.parametrize("line", HOLDS)
def test_a_fact_the_draft_holds_passes(line: str) -> None:
    assert check(line, _draft()) is None


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


@pytest.mark.parametrize(("line", "category", "part"), FAILS)
def test_a_fact_the_draft_misses_says_what_it_has(line: str, category: str, part: str) -> None:
    found = verdict(line, _draft())
    assert found is not None
    assert (found.category, part in found.message) == (category, True), found.message
    assert check(line, _draft()) == found.message


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
