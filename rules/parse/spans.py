"""Where a command's output lies in the text, and the command split as a shell would.

The argv a parser is chosen by is the command that prints the output: past a leading
`cd DIR &&` or `cd DIR;` chain (`cd /opt/sastsst && ./rhel_iotest.sh -t /saswork`: `cd`
prints nothing), past wrappers that run the command after them (`sudo`, `time`, `nice`,
`env X=1`, `nohup`, with their options and `VAR=value` assignments), and only the first
element of a pipeline or list, where every command may print (`lsblk && df -h` stays
`lsblk`), and `mount | grep xfs` is mount's output, filtered. A PowerShell pipeline
(its first command a cmdlet: `Get-Partition -DiskNumber 1 | Get-Volume`) prints what its
last producing cmdlet makes of its input: Get-Volume's volumes there, and
`Get-CimInstance Win32_LogicalDisk | Select-Object DeviceID,Size | Format-Table` still
Get-CimInstance's disks, as the cmdlets that select, filter, sort or format (PASS_THROUGH)
and the native programs after a cmdlet (`findstr`) change which rows and columns show,
not what they say. A Select-Object that computes a property (`@{…}`) or expands one
changes the values, so it is then the producer (and no parser reads it as the disks).
The command line itself (and so its line number) is kept as typed.

Shared by the cutting of a text into sections (`rules.parse.sections`) and the reshaping
of what a transcript's prompts alone cut (`rules.parse.reshape`).
"""

from __future__ import annotations

import functools
import re
import shlex
from dataclasses import dataclass

from rules.parse.powershell import is_cmdlet, producer
from rules.parse.registry import Argv

_PIPE = re.compile(r"\s[|;&]{1,2}\s|\s[|]|[|]\s")
_PLAIN = re.compile(r"[^'\"\\]*")
_WRAPPERS = {"sudo", "command", "exec", "nice", "time", "env", "nohup"}
# Options of a wrapper that take the next word as their value (`sudo -u sas`, `nice -n 5`).
_WRAPPER_VALUES = {
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"},
    "nice": {"-n"},
    "env": {"-u", "-C", "--unset", "--chdir"},
    "time": {"-o", "-f", "--output", "--format"},
}
# Words a command line may open with before the program that prints its output.
LEADERS = frozenset({"cd", "pushd", *_WRAPPERS})
# A leading `cd DIR &&` or `cd DIR;` (`pushd` too): DIR one word, bare or quoted.
_CD = re.compile(r"\s*(?:cd|pushd)(?:\s+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s;&|'\"]+))?\s*(?:&&|;)\s*")


@dataclass(frozen=True)
class Span:
    """Where one command's output lies in the cleaned text (offsets, end exclusive)."""

    command: str
    argv: Argv
    line: int  # 1-based number of the command's own line
    start: int
    end: int
    rc: int | None = None


@functools.lru_cache(maxsize=4096)  # a bundle runs one command on each of many disks
def argv_of(command: str) -> Argv:
    """The command split as a shell would (past a leading `cd` chain, first pipeline
    element, wrappers dropped); of a PowerShell pipeline, its producing cmdlet."""
    text = past_cd(command)
    words = _words(_PIPE.split(text, maxsplit=1)[0])
    if words and is_cmdlet(words[0].rstrip(";")) and ("|" in text or ";" in text):
        words = _words(producer(text))
    return tuple(_unwrapped(words))


def _words(head: str) -> list[str]:
    if _PLAIN.fullmatch(head):  # the common case needs no shell quoting rules
        return head.split()
    try:
        return shlex.split(head, comments=False, posix=True)
    except ValueError:
        return head.split()


def past_cd(command: str) -> str:
    """The command after a leading chain of `cd DIR &&` / `cd DIR;`; the command itself
    where it has none or nothing follows the chain."""
    at = 0
    while (found := _CD.match(command, at)) is not None and found.end() > at:
        at = found.end()
    rest = command[at:]
    return rest if rest.strip() else command


def _unwrapped(words: list[str]) -> list[str]:
    """The words from the wrapped command on: wrappers, their options (and the values
    those take) and `VAR=value` assignments dropped."""
    at, wrapper = 0, ""
    while at < len(words):
        word = words[at]
        if word in _WRAPPERS:
            wrapper = word
        elif word.startswith("-"):
            at += word in _WRAPPER_VALUES.get(wrapper, ())
        elif "=" not in word:
            break
        at += 1
    return words[at:]


def program_of(argv: Argv) -> str:
    """The program's base name ('lsattr' of '/usr/sbin/lsattr'), '' for no command."""
    return argv[0].rsplit("/", 1)[-1] if argv else ""
