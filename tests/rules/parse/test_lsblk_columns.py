"""`lsblk` pasted with other columns (`lsblk -f`, then plain `lsblk`; `-o NAME,MODEL`,
then the basic columns): the same devices, one listing with each device's cells from all
(`rules.parse.duplicates_columns`), never a later one replacing an earlier one. Real
outputs: util-linux's lsblk tests over one machine's dump (basic and vendor columns), jc's
CentOS 7.7 `lsblk -o +KNAME,…` (which prints all plain `lsblk` does, so it is read alone).
"""

from __future__ import annotations

import pytest

from rules.parse import draft, parse_text
from tests.rules.parse.fixtures import transcript

BASIC = "linux/lsblk_o_basic_simple_lvm_utillinux.txt"
VENDOR = "linux/lsblk_o_vendor_simple_lvm_utillinux.txt"


@pytest.mark.parametrize("order", [(VENDOR, BASIC), (BASIC, VENDOR)])
def test_two_column_sets_are_one_listing(order: tuple[str, str]) -> None:
    parsed = parse_text(transcript(*order))
    (found,) = parsed.all("lsblk")
    rows = {r.name: r for r in found.value}
    assert (rows["sda"].model, rows["sda"].type) == ("KINGSTON SH103S3", "disk")
    assert rows["nvme0n1p2"].mountpoint == "/home"
    assert parsed.unused == []
    assert not any("otherwise" in text for _, text in parsed.notes)
    assert any("list the same devices with other columns" in t for _, t in parsed.notes)


def test_the_merged_listing_gives_the_plain_one_s_storage() -> None:
    alone = draft(transcript(BASIC)).document["storage"]
    both = draft(transcript(VENDOR, BASIC)).document["storage"]
    assert both == alone
    assert {s["mount"] for s in both} >= {"/", "/home", "/home/archive"}


def test_a_listing_that_prints_all_the_other_does_is_read_alone() -> None:
    text = transcript("linux/lsblk_o_allcols_centos77_jc.txt", "linux/lsblk_tree_centos77_jc.txt")
    parsed = parse_text(text)
    assert len(parsed.all("lsblk")) == 1
    assert "says as much" in parsed.unused[0][2]
    assert not any("other columns" in t for _, t in parsed.notes)
