"""The OS release where a paste does not print it: read, guessed from a line that shows it
(an installer disc's label, an installer-named volume group), or asked of the admin; never
left silently out and never an impossible '1'.

Real inputs: the whole-server transcripts (tests/fixtures/transcripts/) and pieces of
real pastes (tests/fixtures/pastes/, each naming its source).
"""

from __future__ import annotations

import pytest

from rules import InventoryError, inventory_from
from rules.parse import draft
from rules.parse.draft import Draft
from tests.rules.parse.fixtures import transcript_file, transcript_names
from tests.rules.parse.pastes import paste
from tests.rules.parse.test_pasted_storage import missing

WORKLOAD = {"concurrent_sessions": 4, "mix": {"etl": 1.0}, "largest_table_gb": 50,
            "total_data_gb": 500}  # fmt: skip


def refused_for(found: Draft) -> list[str]:
    """The paths the contract refuses the draft for, once the workload is given."""
    document = found.document | {"workload": WORKLOAD}
    try:
        inventory_from(document)
    except InventoryError as exc:
        return sorted(p.path for p in exc.problems)
    return []


def asked(found: Draft) -> list[str]:
    return sorted(m.path for m in found.missing if m.guess is None and m.path != "workload")


@pytest.mark.parametrize("name", transcript_names())
def test_every_transcript_reads_guesses_or_asks_the_release(name: str) -> None:
    found = draft(transcript_file(name)[2])
    release = found.document["server"].get("os_version")
    assert release != "1"
    held = missing(found, "server.os_version")
    if "server.os_version" in found.provenance:
        assert held is None and release
    else:
        assert held is not None, "the release is neither read nor asked"
        assert (held.guess is None) == (release is None)
    # the contract refuses such a draft for what it asks, and for nothing else
    assert refused_for(found) == asked(found)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("aix_dedicated_younsl.txt", "no `oslevel -s` or `uname -a` was read: give the AIX"),
        ("solaris11_glpi.txt", "no `uname -a` or `cat /etc/release` was read"),
        ("ubuntu_jc.txt", "no /etc/os-release, release file, hostnamectl or .el kernel"),
    ],
)
def test_a_release_no_command_prints_is_asked(name: str, words: str) -> None:
    found = draft(transcript_file(name)[2])
    held = missing(found, "server.os_version")
    assert "os_version" not in found.document["server"]
    assert held.guess is None and held.reason.startswith(words)
    assert refused_for(found) == ["server.os_version"]


def test_a_paste_that_tells_no_os_asks_the_release_not_1() -> None:
    found = draft(paste("oci_nfs_8e_df_h_oracle_operator.txt"))
    assert missing(found, "server.os").guess == "linux"
    assert "os_version" not in found.document["server"]
    assert missing(found, "server.os_version").guess is None


def test_an_installer_discs_label_guesses_the_release_naming_its_line() -> None:
    found = draft(paste("rhel8_lsblk_f_installer_label_zh.txt"))
    server = found.document["server"]
    assert (server["os_version"], server["distribution"]) == ("8", "rhel")
    for path in ("server.os_version", "server.distribution"):
        assert path not in found.provenance  # a guess, for the admin to confirm
        reason = missing(found, path).reason
        assert "RHEL-8-0-0-BaseOS-x86_64 in `lsblk -f` (line 1)" in reason
    assert refused_for(found) == []


def test_a_paste_that_tells_no_os_asks_for_the_release_and_guesses_none() -> None:
    """No command tells the OS: Linux is guessed, its release is asked for, never "1"."""
    d = draft("nothing a parser reads\n")
    missing = {m.path: m for m in d.missing}
    assert missing["server.os"].guess == "linux"
    assert missing["server.os_version"].guess is None
    assert "os_version" not in d.document["server"]
