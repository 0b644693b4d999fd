"""The documents every entry point must treat alike (the form, the API, the CLI, fleets):
one refused by each check across fields (`rules.inventory_fit`), each naming one field,
and one warned about (`storage.device_names`). Each is lemans (AIX 5.3) with one slip."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.conftest import example

Doc = dict[str, Any]


@dataclass(frozen=True)
class Slip:
    change: Callable[[Doc], None]
    path: str  # the JSON path the problem (or the warning) names
    says: str  # what the message says about it, word for word


def _largest_table(doc: Doc) -> None:
    doc["workload"]["largest_table_gb"] = 1001  # total_data_gb is 1000


def _stripe(doc: Doc) -> None:
    doc["storage"][1]["stripe_kb"] = 98  # not whole 4 KB pages (96 is a stripe arrays have)


def _filesystem(doc: Doc) -> None:
    doc["storage"][1]["filesystem"] = "ntfs"


def _device(doc: Doc) -> None:
    doc["storage"][0]["devices"] = ["hdisk4", "sdb"]


REFUSED = {
    "largest_table": Slip(
        _largest_table, "workload.largest_table_gb",
        "is larger than the total data (1000 GB), which holds it: at most 1000 GB",
    ),
    "stripe": Slip(
        _stripe, "storage[1].stripe_kb",
        "is not a stripe a RAID can have: a multiple of 4 KB (… 32, 64, 96, 128, 256 …) from "
        "4 KB to 131072 KB (128 MB)",
    ),
    "filesystem": Slip(
        _filesystem, "storage[1].filesystem",
        "'ntfs' does not run on AIX: one of 'jfs2', 'jfs', 'gpfs', 'vxfs', 'nfs', 'other'",
    ),
}  # fmt: skip
WARNED = Slip(
    _device, "storage[0].devices[1]",
    "storage[0].devices[1]: sdb is a Linux name, not one AIX gives; AIX names them like "
    "hdisk4 (lspv).",
)  # fmt: skip


def slipped(slip: Slip, hostname: str = "lemans") -> Doc:
    doc = copy.deepcopy(example("lemans-aix53-etl"))
    doc["server"]["hostname"] = hostname
    slip.change(doc)
    return doc
