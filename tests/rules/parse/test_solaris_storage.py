"""Solaris server and storage (combine_solaris), called directly on real captures until
combine.py routes Solaris to it."""

from __future__ import annotations

from rules.parse import parse_text
from rules.parse.builder import Builder
from rules.parse.combine_solaris import solaris_server, solaris_storage
from rules.parse.solaris import prtdiag
from tests.rules.parse.fixtures import section, transcript


def _built(*names: str) -> Builder:
    b = Builder()
    parsed = parse_text(transcript(*names))
    solaris_server(parsed, b)
    solaris_storage(parsed, b)
    return b


def test_mount_v_gives_zfs_datasets_with_df_sizes() -> None:
    b = _built("solaris/mount_v_zfs_zone_glpi.txt", "solaris/df_k_zfs_zone_glpi.txt")
    found = {e["mount"]: e for e in b.doc["storage"]}
    assert found["/oracle"]["filesystem"] == "zfs"
    assert b.provenance[f"storage[{list(found).index('/oracle')}].name"].raw == (
        "Z_FS_DATAPOOL/Z_FS_LV_ORACLE"
    )
    assert "/proc" not in found and "/dev" not in found


def test_df_pk_alone_gives_datasets_and_tmp_on_swap() -> None:
    b = _built("solaris/df_pk_openindiana_glpi.txt")
    found = {e["mount"]: e for e in b.doc["storage"]}
    assert round(found["/"]["size_gb"]) == 31 and found["/"]["filesystem"] == "zfs"
    assert round(found["/tmp"]["size_gb"]) == 5
    assert "/etc/svc/volatile" not in found and "/lib/libc.so.1" not in found


def test_psrinfo_pv_threads_per_core_and_prtdiag_memory() -> None:
    b = _built("solaris/psrinfo_vp_t5120_glpi.txt", "solaris/prtdiag_t5120_glpi.txt")
    server = b.doc["server"]
    assert server["cpus"] == 32 and server["ram_gb"] == 3.88
    assert prtdiag(section("solaris/prtdiag_v210_gb_glpi.txt")).memory_mb == 4096
    assert prtdiag(section("solaris/prtdiag_t5120_glpi.txt")).cpus_online == 32
