"""Where a command's output lies in the text, and the command split as a shell would.

Shared by the cutting of a text into sections (`rules.parse.sections`) and the reshaping
of what a transcript's prompts alone cut (`rules.parse.reshape`).
"""

from __future__ import annotations

import functools
import re
import shlex
from dataclasses import dataclass

from rules.parse.registry import Argv

_PIPE = re.compile(r"\s[|;&]{1,2}\s|\s[|]|[|]\s")
_PLAIN = re.compile(r"[^'\"\\]*")
_WRAPPERS = {"sudo", "command", "exec", "nice", "time"}


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
    """The command split as a shell would (first pipeline element, wrappers dropped)."""
    head = _PIPE.split(command, maxsplit=1)[0]
    if _PLAIN.fullmatch(head):  # the common case needs no shell quoting rules
        words = head.split()
    else:
        try:
            words = shlex.split(head, comments=False, posix=True)
        except ValueError:
            words = head.split()
    while words and (words[0] in _WRAPPERS or words[0].startswith("-") or "=" in words[0]):
        words = words[1:]
    return tuple(words)


def program_of(argv: Argv) -> str:
    """The program's base name ('lsattr' of '/usr/sbin/lsattr'), '' for no command."""
    return argv[0].rsplit("/", 1)[-1] if argv else ""
