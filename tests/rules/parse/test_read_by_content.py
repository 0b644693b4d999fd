"""A file printed under a name no parser knows is read by its content, where the content
is unmistakably one output (os-release's NAME=/VERSION_ID= block, lscpu's Architecture …
CPU(s) block, free's heading and Mem: row, df's Filesystem … Mounted on table), with a
note; a block of another shape stays unread.

Real pastes: Oracle Linux 8.8's `cat etc/os-release` typed from `/` (wazuh issue 20014,
tests/fixtures/transcripts/ol88_wazuh20014_script_log.txt) and a Slurm job's saved output
(`cat output.txt`, tests/fixtures/pastes/rhel9_slurm_session_korean.txt).
"""

from __future__ import annotations

from rules.parse import draft
from rules.parse.sections import split
from tests.rules.parse.fixtures import header_and_output, transcript_file
from tests.rules.parse.pastes import line_of, paste

SLURM = "rhel9_slurm_session_korean.txt"


def test_a_relative_os_release_path_is_read_by_its_content() -> None:
    _, _, text = transcript_file("ol88_wazuh20014_script_log.txt")
    found = draft(text)
    server = found.document["server"]
    assert (server["os_version"], server["distribution"]) == ("8.8", "ol")
    assert found.provenance["server.os_version"].command == "cat etc/os-release"
    assert "line 1: `cat etc/os-release` read as /etc/os-release, recognised by its content" in (
        found.notes
    )
    assert "cat etc/os-release" not in [u["command"] for u in found.unknown]


def test_a_saved_job_output_is_read_block_by_block() -> None:
    text = paste(SLURM)
    found = draft(text)
    server = found.document["server"]
    assert (server["cpus"], server["cores"], server["smt_threads"]) == (40, 20, 2)
    assert server["ram_gb"] == 187.0
    sizes = {s["mount"]: s["size_gb"] for s in found.document["storage"]}
    assert sizes == {"/": 70.0, "/boot": 0.94, "/boot/efi": 0.58, "/home": 3481.6}
    cat = line_of(text, "[root@localhost ~]# cat output.txt")
    lscpu = line_of(text, "Architecture:                         x86_64")
    assert (
        f"line {lscpu}: lines {lscpu}-{lscpu + 42} of `cat output.txt` (line {cat}) read as "
        "`lscpu`, recognised by their content"
    ) in found.notes
    assert any("read as `free -h`" in n for n in found.notes)
    assert any("read as `df`" in n for n in found.notes)
    # its other lines (banners, hostname, whoami, date) stay the unknown command's
    assert {"line": cat, "command": "cat output.txt"} in found.unknown


def test_the_banner_lines_between_blocks_are_no_part_of_them() -> None:
    text = paste(SLURM)
    blocks = [s for s in split(text).sections if s.command == "cat output.txt"]
    assert [b.argv for b in blocks] == [("cat", "output.txt"), ("lscpu",), ("free", "-h"), ("df",)]
    assert not any(line.startswith("=====") for b in blocks[1:] for line in b.lines)


def test_key_value_lines_of_another_shape_stay_unread() -> None:
    # lsblk -P's pairs open with NAME= too, but no VERSION_ID: no os-release
    _, output = header_and_output("linux/lsblk_pairs_debian12.txt")
    text = "[root@h ~]# cat lsblk.txt\n" + "\n".join(output) + "\n[root@h ~]# \n"
    found = draft(text)
    assert found.unknown == [{"line": 1, "command": "cat lsblk.txt"}]
    assert "server.os_version" not in found.provenance
    assert not any("recognised" in n for n in found.notes)
