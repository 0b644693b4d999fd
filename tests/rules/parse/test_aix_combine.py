"""The AIX combiner on real whole-server pastes: what proves AIX, the LPAR, its storage.

combine.py decides the OS; these tests call the AIX combiner directly, as it does once
the OS is AIX, so they hold whatever that decision reads.
"""

from __future__ import annotations

from typing import Any

from rules.parse import parse_text
from rules.parse.builder import Builder
from rules.parse.combine_aix import aix_evidence, aix_server, aix_storage
from tests.rules.parse.fixtures import transcript, transcript_file


def _built(text: str) -> tuple[Builder, Any]:
    parsed = parse_text(text)
    b = Builder()
    b.guess("server.hostname", "server", "no hostname or uname")
    aix_server(parsed, b)
    aix_storage(parsed, b)
    return b, parsed


def _whole(name: str) -> str:
    return transcript_file(name)[2]


def test_evidence_names_each_aix_section_and_the_release_oslevel_gives() -> None:
    parsed = parse_text(
        transcript("aix/lparstat_shared_smt4_glpi.txt", "aix/oslevel_s_aix61_wazuh.txt")
    )
    found = aix_evidence(parsed)
    assert [(f.section.command, release) for f, release in found] == [
        ("lparstat -i", ""), ("oslevel -s", "6.1"),
    ]  # fmt: skip


def test_evidence_from_aix_df_and_mount_headers_only() -> None:
    aix = parse_text(transcript("aix/df_512_ahafs_ansible.txt", "aix/mount_aix71_afs_nfs_jc.txt"))
    assert [f.section.command for f, _ in aix_evidence(aix)] == ["df", "mount"]
    linux = parse_text(transcript("unix/df_centos77_jc.txt", "unix/mount_centos77_jc.txt"))
    assert aix_evidence(linux) == []


def test_dedicated_lpar_without_uname() -> None:
    b, _ = _built(_whole("aix_dedicated_younsl.txt"))
    server = b.doc["server"]
    assert (server["cores"], server["smt_threads"], server["cpus"]) == (2, 4, 8)
    assert (server["ram_gb"], server["hostname"]) == (60.25, "devserver")
    assert b.provenance["server.cpus"].command == "bindprocessor -q"
    assert b.provenance["server.hostname"].command.strip() == "lparstat -i"


def test_processors_and_proc0_smt_threads() -> None:
    b, _ = _built(_whole("aix71_gcc111_ansible.txt"))
    server = b.doc["server"]
    assert (server["cores"], server["smt_threads"], server["cpus"]) == (12, 4, 48)
    assert b.provenance["server.smt_threads"].command.endswith("-a smt_threads")


def test_mem0_gives_the_memory() -> None:
    b, _ = _built(transcript("aix/lsattr_mem0_colon_glpi.txt"))
    assert b.doc["server"]["ram_gb"] == 24.0
    assert b.provenance["server.ram_gb"].raw == "size 24576 MB"


def test_shared_lpar_prtconf_and_the_vmstat_header() -> None:
    b, _ = _built(_whole("aix61_shared_neofetch.txt"))
    server = b.doc["server"]
    assert (server["cores"], server["ram_gb"], server["hostname"]) == (1, 4.0, "bobaixgcc62")
    # No SMT mode is printed, but vmstat's "System configuration: lcpu=4" counts them.
    assert server["cpus"] == 4 and "server.cpus" not in b.missing
    assert b.provenance["server.cpus"].command == "vmstat"


def test_storage_from_lsvg_lslv_lspv_and_lsfs_without_mount() -> None:
    b, _ = _built(_whole("aix61_glpi.txt"))
    storage = {e["mount"]: e for e in b.doc["storage"]}
    web = storage["/usr/WebSphere"]
    assert (web["name"], web["filesystem"], web["size_gb"]) == ("lv_web1", "jfs2", 45.0)
    assert (
        b.provenance["storage[" + str(list(storage).index("/usr/WebSphere")) + "].size_gb"].command
        == "lsfs -c"
    )
    assert storage["/usr"]["size_gb"] == 3.0
    assert any(n.startswith("no `mount` output: file systems read from") for n in b.notes)


def test_an_lv_of_a_one_disk_vg_gets_the_disk_and_its_max_request() -> None:
    text = transcript(
        "aix/lsvg_l_vg_apps01_glpi.txt",
        "aix/lspv_hdisk3_aix61_glpi.txt",
        "aix/lsfs_c_aix61_glpi.txt",
    )
    b, _ = _built(text)
    i, entry = next(
        (i, e) for i, e in enumerate(b.doc["storage"]) if e["mount"] == "/home/apps/glvmt"
    )
    assert (entry["devices"], entry["disks"], entry["max_transfer_kb"]) == (["hdisk3"], 1, 256)
    assert b.provenance[f"storage[{i}].devices"].note == "the only disk of vg_apps01"
    assert b.provenance[f"storage[{i}].max_transfer_kb"].raw == "MAX REQUEST 256 kilobytes"


def test_df_alone_gives_sizes_and_guesses_the_type() -> None:
    b, _ = _built(transcript("aix/df_512_ahafs_ansible.txt"))
    i, usr = next((i, e) for i, e in enumerate(b.doc["storage"]) if e["mount"] == "/usr")
    assert (usr["name"], usr["size_gb"]) == ("hd2", 13.06)
    assert f"storage[{i}].filesystem" in b.missing
    assert "/proc" not in {e["mount"] for e in b.doc["storage"]}


def test_paging_space_is_noted() -> None:
    b, _ = _built(transcript("aix/lsps_s_aix61_glpi.txt"))
    assert any("paging space 512 MB" in n for n in b.notes)
