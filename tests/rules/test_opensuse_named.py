"""openSUSE Leap is read and named as itself, and advised as the SLES of its release.

Source of the paste: https://github.com/wazuh/wazuh/issues/20204, an AWS EC2 openSUSE Leap
15.5 instance's `cat /etc/os-release` (ID="opensuse-leap", VERSION_ID="15.5"), kept as
tests/fixtures/transcripts/sles15_wazuh20204.txt. Older openSUSE wrote /etc/SuSE-release
("openSUSE 12.2 (x86_64)", chef/ohai's platform spec, tests/fixtures/parse/linux).
"""

from __future__ import annotations

from typing import Any

import rules
from rules.derive.labels import os_name
from rules.parse import draft
from tests.conftest import example
from tests.rules.parse.fixtures import section, transcript_file


def leap_draft() -> dict[str, Any]:
    _sources, _expects, text = transcript_file("sles15_wazuh20204.txt")
    document: dict[str, Any] = draft(text).document
    return document


def on(distribution: str) -> dict[str, Any]:
    doc = example("linux-rhel8-sas94")
    doc["server"].update(distribution=distribution, os_version="15.5", kernel="5.14.21")
    return doc


def test_opensuse_leap_paste_is_opensuse_not_sles() -> None:
    server = leap_draft()["server"]
    assert (server["distribution"], server["os_version"]) == ("opensuse", "15.5")


def test_opensuse_leap_named_as_the_product_in_the_files() -> None:
    result = rules.advise(on("opensuse"))
    headers = [t for name, t in result["artifacts"].items() if name.endswith((".sh", ".conf"))]
    assert headers and all("openSUSE Leap 15.5" in text for text in headers)
    assert not any("SLES" in text for text in headers)
    assert os_name("linux", "15.5", "opensuse") == "openSUSE Leap 15.5"
    assert os_name("linux", "12.2", "opensuse") == "openSUSE 12.2"
    assert os_name("linux", "15.5", "sles") == "SLES 15.5"


def test_opensuse_leap_gets_the_tuning_sles_of_its_release_gets() -> None:
    def settings(distribution: str) -> list[tuple[str, str, str, str]]:
        result = rules.advise(on(distribution))
        return [
            (r["rule"], r["target"], r["setting"], r["value"]) for r in result["recommendations"]
        ]

    assert settings("opensuse") == settings("sles")


def test_old_opensuse_release_file_is_opensuse() -> None:
    found = draft(
        "# cat /etc/SuSE-release\n"
        + "\n".join(section("linux/suse_release_opensuse122_ohai.txt").lines)
        + "\n"
    ).document
    assert found["server"].get("distribution") == "opensuse"
