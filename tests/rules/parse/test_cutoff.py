"""Output a console wrapped at 80 columns is noted; real rows that are 80 wide are not."""

from __future__ import annotations

from rules.parse import parse_text
from rules.parse.cutoff import WRAP_COLUMNS
from tests.rules.parse.fixtures import section

MTAB = "linux/etc_mtab_btrfs_sshfs_ansible.txt"  # three real rows of exactly 80 characters


def notes_of(command: str, lines: list[str]) -> list[str]:
    text = "\n".join([f"$ {command}", *lines, "$ "])
    return [note for _, note in parse_text(text).notes]


def wrapped(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        while len(line) > WRAP_COLUMNS:
            out.append(line[:WRAP_COLUMNS])
            line = line[WRAP_COLUMNS:]
        out.append(line)
    return out


def test_real_rows_of_exactly_80_characters_are_not_taken_for_wrapping() -> None:
    lines = list(section(MTAB).lines)
    assert sum(len(line) == WRAP_COLUMNS for line in lines) >= 2
    assert not [n for n in notes_of("cat /etc/mtab", lines) if "wrapped" in n]


def test_the_same_output_wrapped_by_a_console_is_noted() -> None:
    lines = wrapped([*section(MTAB).lines, "tmpfs /run/user/1000 tmpfs " + "rw," * 30 + " 0 0"])
    assert "the output of `cat /etc/mtab` seems wrapped at 80 columns" in notes_of(
        "cat /etc/mtab", lines
    )
