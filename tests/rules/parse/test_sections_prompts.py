"""Sectioning as people paste: prompt shapes, bare prompts, the prompt's host, repeats."""

from __future__ import annotations

import pytest

from rules.parse import draft, parse_text
from rules.parse.sections import split
from tests.rules.parse.fixtures import transcript, transcript_file

SCHEDULERS = (
    "linux/scheduler_sda_bfq_procfs.txt",
    "linux/scheduler_sdb_deadline.txt",
    "linux/scheduler_vdc_noop_insights.txt",
    "linux/scheduler_nvme0n1_none_utillinux.txt",
)


@pytest.mark.parametrize(
    "prompt",
    ["[root@rhel9 ~]# ", "kbrazil@ubuntu:~$ ", "root@gentoo ~ # ", "aix01:/> ",
     "sles15:~ # ", "sh-4.2# ", "bash-5.1$ ", "# ", "$ "],
)  # fmt: skip
def test_every_prompt_shape_starts_a_command(prompt: str) -> None:
    cut = split(transcript(*SCHEDULERS, prompt=prompt))
    assert [s.argv[0] for s in cut.sections] == ["cat"] * len(SCHEDULERS)
    assert all(len(s.lines) == 1 for s in cut.sections)


def test_a_bare_prompt_ends_the_output_before_it() -> None:
    text = transcript(*SCHEDULERS, prompt="[root@localhost ~]# ") + "[root@localhost ~]#\n"
    cut = split(text)
    assert cut.sections[-1].lines == ("[none] mq-deadline ",)
    assert cut.open_line == 0  # the paste did not end inside an output


def test_the_prompt_names_the_host_with_its_line() -> None:
    _, _, text = transcript_file("rhel9_wazuh21357.txt")
    found = draft(text)
    assert found.document["server"]["hostname"] == "ip-172-31-5-136"
    assert found.provenance["server.hostname"].note == "the shell prompt"
    assert found.provenance["server.hostname"].line == 1


def test_a_command_named_host_wins_over_the_prompt_and_the_difference_is_noted() -> None:
    _, _, text = transcript_file("ubuntu_jc.txt")
    text = text.replace("kbrazil@kbrazil-ubuntu:", "kbrazil@other-host:")
    found = draft(text)
    assert found.document["server"]["hostname"] == "kbrazil-ubuntu"
    assert any("other-host" in note for note in found.notes)


def test_per_device_sections_all_count() -> None:
    parsed = parse_text(transcript(*SCHEDULERS, prompt="[root@h ~]# "))
    merged = parsed.first("block_queue")
    assert merged is not None
    assert set(merged.value) == {"sda", "sdb", "vdc", "nvme0n1"}
    assert len(merged.also) == len(SCHEDULERS) - 1
    accounting = draft(transcript(*SCHEDULERS, prompt="[root@h ~]# ")).accounting
    assert accounting["used"] + accounting["unused"] == len(SCHEDULERS)


def test_a_filtered_duplicate_gives_way_to_the_full_output_with_a_note() -> None:
    _, _, text = transcript_file("rhel7_jc.txt")
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.endswith("# mount"))
    kept = [line for line in lines[at + 1 :] if "xfs" in line]
    grep = ["[root@localhost ~]# mount | grep xfs", *kept]
    found = draft("\n".join(lines[:at] + grep + lines[at:]))
    assert found.document == draft(text).document
    assert any(u["command"] == "mount | grep xfs" and "the full `mount`" in u["why"]
               for u in found.unused)  # fmt: skip


def test_a_paste_that_ends_inside_a_table_is_noted() -> None:
    _, _, text = transcript_file("ubuntu_jc.txt")
    df = text.index("$ df -h")
    row = text.index("\n/dev/sda2", df) + 1
    found = draft(text[: row + len("/dev/sda2") + 6])  # the paste stops inside a df row
    assert any("`df -h` seems cut off" in note for note in found.notes)
    assert not any("cut off" in note for note in draft(text).notes)


def test_the_draft_counts_what_it_used() -> None:
    _, _, text = transcript_file("rhel7_jc.txt")
    found = draft(text)
    counts = found.to_dict()["accounting"]
    assert counts == {"used": 5, "unused": 1, "unknown": 0, "problems": 0}
    assert {u["command"] for u in found.unused} == {"free -h"}
    assert all(u["fields"] for u in found.used)


def test_a_bundle_header_keeps_no_control_characters() -> None:
    # A header line can hold anything; the draft's name and its reading's source are
    # contract strings, which refuse control characters.
    text = "# sas-tuning-advisor bundle 1\n# collector: 1\x00.2\n# started: 2026\x01-11-25\n"
    found = draft(text)
    name = found.document["name"]
    assert "\x01" not in name and name.endswith("2026-11-25")
    source = found.document.get("current", {}).get("source", "")
    assert not any(ord(c) < 32 for c in source)
