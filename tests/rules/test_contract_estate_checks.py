"""The checks across fields for the contract's later fields (rules/inventory_checks.py):
each setting where it belongs, refused by its path with a message naming the field it is
weighed against, alike for every entry point (`rules.inventory_from` is the one validator
behind the form, the API, the CLI and fleets)."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from tests.rules.test_contract_estate_fields import linux_nfs, problems, put, windows_2022

Doc = dict[str, Any]


def aix() -> Doc:
    from tests.conftest import example

    return example("aix73-sas94-1mb")


REFUSED: list[tuple[str, Doc, str, str]] = [
    ("nfs setting on xfs", put(linux_nfs(), "storage[0].nfs_rsize_kb", 1024),
     "storage[0].nfs_rsize_kb", "is for NFS mounts; storage[0].filesystem is 'xfs'"),
    ("nfs nconnect on xfs", put(linux_nfs(), "storage[0].nfs_nconnect", 8),
     "storage[0].nfs_nconnect", "is for NFS mounts; storage[0].filesystem is 'xfs'"),
    ("nfs read-ahead on xfs", put(linux_nfs(), "storage[0].nfs_read_ahead_kb", 15360),
     "storage[0].nfs_read_ahead_kb", "is for NFS mounts; storage[0].filesystem is 'xfs'"),
    ("zfs recordsize on nfs", put(linux_nfs(), "storage[1].zfs_recordsize_kb", 128),
     "storage[1].zfs_recordsize_kb", "is for ZFS; storage[1].filesystem is 'nfs'"),
    ("gpfs block on xfs", put(linux_nfs(), "storage[0].gpfs_block_size_kb", 1024),
     "storage[0].gpfs_block_size_kb",
     "is for GPFS (IBM Storage Scale); storage[0].filesystem is 'xfs'"),
    ("shared nfs on xfs", put(linux_nfs(), "storage[0].shared", "nfs"), "storage[0].shared",
     "'nfs' is mounted as file system 'nfs'; storage[0].filesystem is 'xfs'"),
    ("shared gpfs on nfs", put(linux_nfs(), "storage[1].shared", "gpfs"), "storage[1].shared",
     "'gpfs' is mounted as file system 'gpfs'; storage[1].filesystem is 'nfs'"),
    ("nfs said local", put(linux_nfs(), "storage[1].shared", "none"), "storage[1].shared",
     "must be 'nfs' (or null) where storage[1].filesystem is 'nfs'"),
    ("gpfs said local", put(put(linux_nfs(), "storage[0].filesystem", "gpfs"),
                            "storage[0].shared", "none"),
     "storage[0].shared", "must be 'gpfs' (or null) where storage[0].filesystem is 'gpfs'"),
    ("volume kind alone", put(linux_nfs(), "storage[0].volume_kind", "lvm"),
     "storage[0].volume_kind", "is the kind of storage[0].volume, which is not given"),
    ("cluster rate on local", put(put(linux_nfs(), "storage[0].measured_mb_s", 900),
                                  "storage[0].measured_is_cluster_total", True),
     "storage[0].measured_is_cluster_total",
     "is for a shared file system; storage[0].shared is not given and "
     "storage[0].filesystem is 'xfs'"),
    ("cluster rate not measured", put(linux_nfs(), "storage[1].measured_is_cluster_total", True),
     "storage[1].measured_is_cluster_total",
     "says whose storage[1].measured_mb_s it is, which is not given"),
    ("instance storage shared", put(linux_nfs(), "storage[1].ephemeral", True),
     "storage[1].ephemeral",
     "is for a local file system; storage[1].shared is not given and "
     "storage[1].filesystem is 'nfs'"),
    ("instance storage on lustre", put(put(linux_nfs(), "storage[0].shared", "lustre"),
                                       "storage[0].ephemeral", True),
     "storage[0].ephemeral", "is for a local file system; storage[0].shared is 'lustre'"),
    ("release on linux", put(linux_nfs(), "server.os_release_name", "2022"),
     "server.os_release_name", "is for Windows; server.os is linux"),
    ("release on 6.3", put(windows_2022(), "server.os_version", "6.3"),
     "server.os_release_name",
     "Windows Server 2022 is OS version 10.0; server.os_version is '6.3'"),
    ("arc on aix", put(aix(), "server.zfs_arc_max_gb", 8), "server.zfs_arc_max_gb",
     "is for ZFS, which runs on Solaris and Linux; server.os is aix"),
    ("arc past ram", put(linux_nfs(), "server.zfs_arc_max_gb", 300), "server.zfs_arc_max_gb",
     "is more than the RAM (256 GB): at most 256"),
    ("pagepool past ram", put(put(linux_nfs(), "storage[1].filesystem", "gpfs"),
                              "server.gpfs_pagepool_gb", 512),
     "server.gpfs_pagepool_gb", "is more than the RAM (256 GB): at most 256"),
    ("pagepool without gpfs", put(linux_nfs(), "server.gpfs_pagepool_gb", 16),
     "server.gpfs_pagepool_gb",
     "is for IBM Storage Scale (GPFS) nodes: no storage[] entry has filesystem 'gpfs'"),
    ("maintenance 9.3", put(put(linux_nfs(), "sas.version", "9.3"), "sas.maintenance", "M5"),
     "sas.maintenance", "SAS 9.3 had no M5: one of 'M0', 'M1', 'M2'"),
    ("maintenance 9.1.3", put(put(aix(), "sas.version", "9.1.3"), "sas.maintenance", "M8"),
     "sas.maintenance", "SAS 9.1.3 had no M8: one of 'M3'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("doc", "path", "says"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_a_setting_where_it_does_not_belong_is_refused_by_its_path(
    doc: Doc, path: str, says: str
) -> None:
    assert problems(doc) == {path: says}


ACCEPTED: list[tuple[str, Doc]] = [
    ("nfs settings on an nfs mount", put(linux_nfs(), "storage[1].nfs_nconnect", 4)),
    ("nfs named twice", put(put(linux_nfs(), "storage[1].shared", "nfs"),
                            "storage[1].nfs_rsize_kb", 256)),
    ("gpfs block on gpfs", put(put(linux_nfs(), "storage[0].filesystem", "gpfs"),
                               "storage[0].gpfs_block_size_kb", 16384)),
    ("cluster rate on nfs", put(put(linux_nfs(), "storage[1].measured_mb_s", 5000),
                                "storage[1].measured_is_cluster_total", True)),
    ("cluster rate on lustre", put(put(put(linux_nfs(), "storage[0].shared", "lustre"),
                                       "storage[0].measured_mb_s", 5000),
                                   "storage[0].measured_is_cluster_total", True)),
    ("instance storage said local", put(put(linux_nfs(), "storage[0].shared", "none"),
                                        "storage[0].ephemeral", True)),
    ("not instance storage on nfs", put(linux_nfs(), "storage[1].ephemeral", False)),
    ("windows 2025", put(windows_2022(), "server.os_release_name", "2025")),
    ("windows version 10", put(windows_2022(), "server.os_version", "10")),
    ("arc within ram", put(linux_nfs(), "server.zfs_arc_max_gb", 256)),
    ("9.2 M3", put(put(linux_nfs(), "sas.version", "9.2"), "sas.maintenance", "M3")),
    ("9.1.3 M3", put(put(aix(), "sas.version", "9.1.3"), "sas.maintenance", "M3")),
]  # fmt: skip


@pytest.mark.parametrize("doc", [a[1] for a in ACCEPTED], ids=[a[0] for a in ACCEPTED])
def test_a_setting_where_it_belongs_is_accepted(doc: Doc) -> None:
    assert rules.inventory_from(doc)


def test_every_problem_is_listed_together() -> None:
    doc = put(put(linux_nfs(), "storage[0].nfs_nconnect", 8), "storage[0].volume_kind", "md")
    doc = put(put(doc, "sas.maintenance", "M9"), "sas.version", "9.3")
    assert set(problems(doc)) == {
        "storage[0].nfs_nconnect",
        "storage[0].volume_kind",
        "sas.maintenance",
    }
