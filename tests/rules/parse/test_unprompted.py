"""Command lines pasted without a prompt (`rules.parse.unprompted`): a runbook's or a mail's
`df -h`, its output, `lsblk`, its output. Real pastes: a linux-raid mail that pastes its
commands bare, Chinese RHEL 8 notes with their prompts taken away as a copy from a
`script` log without them would be, and a runbook's list of commands with no output.
"""

from __future__ import annotations

from rules.parse import draft, parse_text
from rules.parse.sections import split
from rules.parse.unprompted import MAX_CANDIDATES
from tests.rules.parse.pastes import paste

MAIL = "imsm_raid5_no_prompt_linux_raid_list.txt"
NOTES = "rhel8_lsblk_f_installer_label_zh.txt"
# https://github.com/VA-PLE/Shparhalka/blob/d022e00a9480b131cdbc16b886670f24c7967433/Disk/README.md
# ("Disk replacement in software RAID"): the commands a runbook lists, no output under them.
RUNBOOK = "cat /proc/mdstat\nlshw -class disk -class storage\nlsblk\nsmartctl -a /dev/nvme0n1\n"


def _bare(text: str) -> str:
    """The paste with each `[user@host dir]# ` prompt taken off its command."""
    return "\n".join(line.split("]# ", 1)[-1] for line in text.split("\n"))


def test_a_mail_s_bare_commands_start_their_sections() -> None:
    text = paste(MAIL)
    assert [(s.command, s.line) for s in split(text).sections] == [
        ("uname -a", 1), ("cat /proc/mdstat", 13),
    ]  # fmt: skip
    parsed = parse_text(text)
    md126 = parsed.first("mdstat").value[0]
    assert (md126.name, md126.level, md126.members, md126.chunk_kb) == (
        "md126", "raid5", ("sda", "sde", "sdd"), 128,
    )  # fmt: skip
    assert draft(text).document["server"]["hostname"] == "bjoernbaer"


def test_lines_no_parser_reads_stay_output() -> None:
    """`mdadm --version` and the mail's `mdstat -D` (for mdadm -D) start nothing."""
    commands = [s.command for s in split(paste(MAIL)).sections]
    assert "mdadm --version" not in commands
    assert not any(c.startswith("mdstat") for c in commands)


def test_a_note_names_the_commands_read_without_a_prompt() -> None:
    notes = draft(paste(MAIL)).notes
    assert any("no prompt before the commands: `uname -a` (line 1)" in n for n in notes)


def test_a_paste_without_its_prompts_reads_as_with_them() -> None:
    prompted = draft(paste(NOTES))
    bare_text = _bare(paste(NOTES))
    assert "]# " not in bare_text
    bare = draft(bare_text)
    assert bare.document["storage"] == prompted.document["storage"]
    assert [s.command for s in split(bare_text).sections] == ["lsblk -f", "df -Th"]


def test_a_runbook_s_command_list_is_no_output() -> None:
    """`lsblk` over `smartctl -a …` and `cat /proc/mdstat` over `lshw …`: typed commands,
    not output, so nothing is read."""
    assert split(RUNBOOK).sections == []
    assert parse_text(RUNBOOK).problems == []


def test_a_prompted_paste_reads_no_bare_line_after_its_first_prompt() -> None:
    """After the first prompt only prompts start commands: a bare `lsblk` line inside
    a printed file stays that file's."""
    text = "[root@h ~]# cat /etc/motd\nlsblk\nNAME MAJ:MIN RM SIZE RO TYPE MOUNTPOINT\n"
    assert [s.command for s in split(text).sections] == ["cat /etc/motd"]


def test_past_the_most_command_lines_read_a_note_says_where_reading_stopped() -> None:
    text = "nproc\n8\n" * (MAX_CANDIDATES + 5)
    parsed = parse_text(text)
    stop = 2 * MAX_CANDIDATES + 1
    assert any(line == stop and "not read" in note for line, note in parsed.notes)
    assert parsed.problems == []
