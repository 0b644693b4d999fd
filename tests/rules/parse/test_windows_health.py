"""A Get-Volume drive that reports itself unwell, and cluster shared volumes.

The listing is Icinga/icinga-powershell-plugins issue #431 (2025-01-21,
https://github.com/Icinga/icinga-powershell-plugins/issues/431): a cluster node whose C:
needs a full repair, beside two CSVFS volumes and a system partition without letters. The
issue shows the output only; the prompt line is added here.
"""

from __future__ import annotations

from rules.parse import draft

LISTING = """PS C:\\> get-volume

DriveLetter FileSystemLabel FileSystem DriveType HealthStatus OperationalStatus  SizeRemaining       Size
----------- --------------- ---------- --------- ------------ -----------------  -------------       ----
                            NTFS       Fixed     Healthy      OK                     104.13 MB     450 MB
C                           NTFS       Fixed     Warning      Full Repair Needed     720.33 GB  930.93 GB
            CSV_SYS_011     CSVFS      Fixed     Healthy      OK                     817.98 GB     2.1 TB
            CSV_DAT_106     CSVFS      Fixed     Healthy      OK                       3.18 TB     4.1 TB
"""  # noqa: E501


def test_a_drive_needing_repair_is_said_with_its_line() -> None:
    notes = draft(LISTING).notes
    said = [n for n in notes if "Full Repair Needed" in n]
    assert said == [
        "line 6: C:\\ reports Warning, Full Repair Needed: repair it (`Repair-Volume "
        "-DriveLetter C -Scan`, then chkdsk) before measuring or tuning it"
    ]


def test_healthy_drives_get_no_health_note() -> None:
    healthy = LISTING.replace("Warning      Full Repair Needed", "Healthy      OK                ")
    assert not [n for n in draft(healthy).notes if "repair" in n]


def test_cluster_shared_volumes_are_named_in_the_left_out_note() -> None:
    d = draft(LISTING)
    assert [e["mount"] for e in d.document["storage"]] == ["C:\\"]
    left = next(n for n in d.notes if n.startswith("left out "))
    assert "a volume (CSV_DAT_106, CSVFS, 4.1 TB) (a cluster shared volume" in left
    assert "a volume (NTFS, 450 MB) (no drive letter)" in left
