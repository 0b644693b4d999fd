"""A draft keeps at most the contract's file systems (MAX_STORAGE), the largest, and says so.

A `df` of hundreds of data sets or LVs would otherwise give a draft the contract refuses.
The df here is 600 rows of one real capture's row shape (jc's CentOS 7.7 `df`, its
/dev/sda1 row), with sizes of 1 to 600 GB in a shuffled order.
"""

from __future__ import annotations

import random

import pytest

from rules.inventory import MAX_STORAGE
from rules.parse import draft
from rules.problems import InventoryError
from rules.validate import parse
from tests.rules.parse.fixtures import header_and_output

ROWS = 600
CAPTURE = "unix/df_centos77_jc.txt"


def df_of(rows: int) -> tuple[str, list[int]]:
    """A pasted `df` of `rows` LVs; and each row's size in GB, in the order printed."""
    _, lines = header_and_output(CAPTURE)
    row = next(line for line in lines if line.startswith("/dev/sda1 "))
    _, _, used, _, percent, _ = row.split()
    sizes = random.Random(ROWS).sample(range(1, rows + 1), rows)
    out = ["$ df", lines[0]]
    for n, gb in enumerate(sizes):
        blocks = gb * 1024 * 1024
        out.append(
            f"/dev/mapper/vg-lv{n:03d} {blocks:>10} {used:>7} {blocks - int(used):>10} "
            f"{percent:>4} /data/lv{n:03d}"
        )
    return "\n".join([*out, "$ "]), sizes


def test_a_df_of_600_file_systems_keeps_the_512_largest_and_names_the_rest() -> None:
    text, sizes = df_of(ROWS)
    got = draft(text)
    storage = got.document["storage"]
    left = [n for n, gb in enumerate(sizes) if gb <= ROWS - MAX_STORAGE]
    kept = [n for n in range(ROWS) if n not in set(left)]
    assert [e["mount"] for e in storage] == [f"/data/lv{n:03d}" for n in kept]  # order read
    assert min(e["size_gb"] for e in storage) == pytest.approx(ROWS - MAX_STORAGE + 1)
    named = ", ".join(f"/data/lv{n:03d}" for n in left[:5])
    assert (
        f"600 file systems read, the contract holds 512: the largest kept, 88 smaller ones "
        f"left out ({named} and 83 more)"
    ) in got.notes


def test_the_kept_file_systems_keep_their_provenance_and_the_draft_fits_the_contract() -> None:
    got = draft(df_of(ROWS)[0])
    storage = got.document["storage"]
    for path, p in got.provenance.items():
        assert p.path == path
        if path.startswith("storage[") and path.endswith("].mount"):
            assert storage[int(path[8 : path.index("]")])]["mount"] == p.value
    mounts = [p for p in got.provenance if p.endswith(".mount") and p.startswith("storage")]
    assert len(mounts) == MAX_STORAGE
    indexes = {int(m.path[8 : m.path.index("]")]) for m in got.missing if m.path[:8] == "storage["}
    assert indexes == set(range(MAX_STORAGE))  # each kept entry's guesses, none of the rest
    [section] = got.used  # the df, credited with the kept entries' fields only
    credited = {f[8 : f.index("]")] for f in section["fields"] if f.startswith("storage[")}
    assert credited == {str(i) for i in range(MAX_STORAGE)}
    with pytest.raises(InventoryError) as refused:
        parse(got.document)
    # refused for exactly what the draft asks for: the workload (never guessed) and the
    # release a df cannot tell
    asked = sorted(m.path for m in got.missing if m.guess is None)
    assert asked == ["server.os_version", "workload"]
    assert sorted(p.path for p in refused.value.problems) == asked


def test_a_real_df_is_kept_whole_with_no_note() -> None:
    _, lines = header_and_output(CAPTURE)
    got = draft("\n".join(["$ df", *lines, "$ "]))
    assert not [n for n in got.notes if "the contract holds" in n]
    assert len(got.document["storage"]) <= MAX_STORAGE
