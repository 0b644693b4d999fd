"""A measurement reaches the file system that holds its directory, and says so when that
file system is not the directory's own: a df without /saswork puts /saswork's figures on /,
which is right for that df, and the draft's notes name it so the admin can see it."""

from __future__ import annotations

from rules.parse import draft

DF = (
    "$ df -kP\nFilesystem 1024-blocks Used Available Capacity Mounted on\n"
    "/dev/mapper/rhel-root 52403200 4194304 48208896 9% /\n"
)
# rhel_iotest.sh's RESULTS as its echo lines print them (the format of
# sascommunities/technical-support-code's port); the figures are made up.
IOTEST = (
    "$ ./rhel_iotest.sh -t /saswork\nRESULTS\n-------\nINVOCATION:  rhel_iotest.sh -t /saswork\n"
    "\nTARGET DETAILS\n  target dir:   /saswork\n  iterations:   16\n\nSTATISTICS\n"
    "  read throughput rate:   62.47 megabytes/second per physical core\n"
    "  write throughput rate:  48.31 megabytes/second per physical core\n"
)


def test_a_directory_without_its_own_file_system_is_named_where_it_lands() -> None:
    found = draft(DF + IOTEST)
    (root,) = found.document["storage"]
    assert root["mount"] == "/" and root["measured_write_mb_s"] > 0
    (note,) = [n for n in found.notes if "no file system read has as its mount point" in n]
    assert "/saswork" in note and "go to /" in note


def test_a_directory_that_is_a_mount_point_gets_no_such_note() -> None:
    df = DF + "/dev/sdb1 1048576000 1024 1048574976 1% /saswork\n"
    found = draft(df + IOTEST)
    assert [s["mount"] for s in found.document["storage"] if "measured_write_mb_s" in s] == [
        "/saswork"
    ]
    assert not [n for n in found.notes if "no file system read has as its mount point" in n]
