"""How a field's provenance reads to the admin under the field."""

from __future__ import annotations

from rules.parse.draft import PROMPT, Provenance


def test_a_list_reads_as_names_not_as_python() -> None:
    found = Provenance("storage[0].devices", ["nvme0n1", "nvme1n1"], "lsblk", 12)
    assert found.text == "devices nvme0n1, nvme1n1 from `lsblk` (line 12)"


def test_a_prompt_is_not_shown_as_a_command() -> None:
    found = Provenance("server.hostname", "ip-172-31-8-200", f"{PROMPT}ip-172-31-8-200", 40)
    assert found.text == "hostname ip-172-31-8-200 from the prompt of ip-172-31-8-200 (line 40)"


def test_a_command_keeps_its_raw_text_and_note() -> None:
    found = Provenance("storage[1].max_transfer_kb", 256, "lsattr -El hdisk4", 120, "0x40000")
    assert found.text == "max_transfer_kb 256 from `lsattr -El hdisk4` (line 120), 0x40000"


def test_a_current_setting_keeps_its_whole_name() -> None:
    found = Provenance("current.linux_sysctl.vm.swappiness", "30", "sysctl -a", 60)
    assert found.text == "vm.swappiness 30 from `sysctl -a` (line 60)"
    device = Provenance("current.devices.hdisk4.max_transfer", "0x40000", "lsattr -El hdisk4", 9)
    assert device.text.startswith("hdisk4.max_transfer 0x40000 from")
    assert Provenance("current.linux_thp", "always", "cat x", 3).text.startswith("linux_thp ")
