"""libnames.parm's domains give the role of the file systems they live on (combine_spds).

The domain is SPD Server 4.5's own example (tests/fixtures/parse/sas/, SKULIST: metadata
under /metadata, data over six file systems, indexes over four); the df beside it is this
test's, one file system per path and two the domain does not use.
"""

from __future__ import annotations

from rules.parse import draft
from tests.rules.parse.fixtures import transcript

SKULIST = "sas/libnames_spdsag45_skulist_paths.txt"
MOUNTS = ("/metadata", "/data01", "/data06", "/idx01", "/idx04", "/work01", "/saswork")


def _paste(mounts: tuple[str, ...] = MOUNTS) -> str:
    rows = "\n".join(
        f"/dev/mapper/vg{i}-lv{i} 104857600 1048576 103809024 1% {m}" for i, m in enumerate(mounts)
    )
    head = "# uname -a\nLinux spds01 5.14.0-362.8.1.el9_3.x86_64 #1 SMP x86_64 GNU/Linux\n"
    df = f"# df -Pk\nFilesystem 1024-blocks Used Available Capacity Mounted on\n{rows}\n"
    return head + df + transcript(SKULIST)


def test_each_file_system_takes_the_role_its_domain_paths_give() -> None:
    found = draft(_paste())
    roles = {e["mount"]: e["role"] for e in found.document["storage"]}
    assert roles == {
        "/metadata": "spds_meta", "/data01": "spds_data", "/data06": "spds_data",
        "/idx01": "spds_index", "/idx04": "spds_index", "/work01": "work",
        "/saswork": "work",
    }  # fmt: skip
    i = list(roles).index("/idx04")
    read = found.provenance[f"storage[{i}].role"]
    assert (read.command, read.note) == (
        "cat /opt/sas/spds/site/libnames.parm",
        "libnames.parm: the INDEXPATH of SKULIST",
    )
    guessed = {m.path for m in found.missing}
    assert f"storage[{i}].role" not in guessed and "storage[5].role" in guessed
    assert not any("libnames.parm" in u["command"] for u in found.unused)


def test_a_file_system_holding_several_roles_takes_data_first_and_names_the_rest() -> None:
    found = draft(_paste(("/",)))  # every path of the domain is on /
    (entry,) = found.document["storage"]
    assert entry["role"] == "spds_data"
    note = found.provenance["storage[0].role"].note
    assert note == (
        "libnames.parm: the DATAPATH of SKULIST; also spds_index (INDEXPATH of SKULIST), "
        "spds_meta (PATHNAME of SKULIST)"
    )
