"""Shell prompts in a pasted transcript: where a command starts, where output ends.

A command line is a prompt ending in `$ `, `# `, `> ` or `% ` followed by the command.
A prompt with a user, host or path before the sign always starts a command:

    [root@rhel9 ~]# lscpu        RHEL, Fedora (bash's default PS1)
    [root@aix01]/ # lsvg         AIX (a PS1 of [$USER@$(hostname)]$PWD # ); [u@h:/p]#
    kbrazil@ubuntu:~$ df -h      Debian, Ubuntu
    root@host ~ # mount          Gentoo, some zsh themes
    aix01:/> lsattr -El sys0     AIX (a PS1 of $(hostname):$PWD> )
    sles15:~ # free -g           SLES (root's default)
    C:\\> systeminfo              Windows cmd; `PS C:\\Users\\sas> ` PowerShell (a drive: no host)
    C:\\work>systeminfo          cmd's default prompt ($P$G): no blank before the command
    PS C:\\> Get-Volume |         PowerShell's `>> ` lines after it are the same command
    >> Format-Table               (its console's continuation prompt), joined on
    bash-5.1$ uname -a           a shell started without a profile
    (venv) user@host:~$ nproc
    /# ioo -a                    AIX root (a PS1 of $PWD# ), /home/sas$ , ~#
    ]# df -h                     `[root@host ~]# ` with its start left out of the selection
    st ~]# lsblk                 (`~]# `, `localhost ~]$ `): the tail of the bracket prompt

What a terminal leaves before a prompt is passed over: an arrow key's escape in caret
notation (`^[[A[root@h ~]# `, as many terminals copy it), a letter typed before the prompt
came (`s[root@h ~]# nproc`), a word before a `[user@host]` prompt.

A bare sign (`# lscpu`, `$ lscpu`, `#lsattr -El hdisk4` with no blank) starts one before
a program some parser reads; before another command only where the paste already used
that bare sign as its prompt (`rules.parse.sections` decides), so the `# ` comments of a
printed configuration file stay output. A prompt with nothing after the sign
(`[root@localhost ~]#`, the line a paste usually ends on) is a bare prompt: it ends the
output before it and starts nothing. The prompt's host name is kept with the first line it
was seen on, for the draft's host name where no command printed one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

MAX_PROMPT = 4096  # characters: a longer line is output, never a command line
# A Windows prompt: a drive letter, a colon and a backslash (`C:\`, cmd's default
# `$P$G`; `PS C:\Users\sas`, PowerShell's). Never an AIX `host:/path`: AIX paths start
# with `/` or `~`, and no host name is one letter before `:\`.
_WINDOWS = r"(?:PS )?[A-Za-z]:\\[^\n$#>%<\"|?*]{0,200}"
_PREFIX = (
    rf"(?:{_WINDOWS}(?=>)"  # C:\, PS C:\Users\sas, C:\Program Files\SASHome
    r"|\[[^\]\n@]{0,64}@[^\]\n]{1,120}\] ?[^\s\[\]$#>%]{1,200}"  # [root@aix01]/home
    r"|\[[^\]\n]{1,120}\]"  # [root@rhel9 ~], [sas@aix01:/home/sas]
    r"|[\w.-]{1,64}@[\w.-]{1,253}(?::[^\s$#>%]{0,200}| [^\s$#>%]{1,200})?"  # user@host:~
    r"|[\w.-]{1,253}:[^\s$#>%]{0,200}"  # aix01:/home/sas, sles15:~
    r"|(?:ba|k|z|da)?sh-[\d.]{1,10}"  # bash-5.1
    r"|\([\w.-]{1,64}\) ?[\w.@:~/-]{0,200}"  # (venv) user@host
    r"|[/~][^\s$#>%<]{0,200}(?=[$#])"  # /, /home/sas, ~ (a PS1 of $PWD# ): no blank
    r"|[^\s\[\]$#>%]{0,64}(?: [^\s\[\]$#>%]{1,200})?\](?=[$#]))"  # ]#, ost ~]#: chopped
)
_PROMPT = re.compile(rf"(?P<prefix>{_PREFIX})? ?(?P<sign>[$#>%])(?: (?P<cmd>\S.*))?")
# What a prompt line has at least (a sign, then a blank and a command or the line's end),
# found by one C-level pass over the whole text: most lines never take a Python step.
# A match starts only at a line's start (the lookbehind), so each line is scanned once.
# The sign of a prompt line: before a blank and a command, or ending the line after
# something that is not a sign (so a text of lone signs takes no Python step). Opening
# with the sign lets the engine skip to the next sign character by a fast scan; each hit
# is read as its whole line, and the search goes on after that line.
_SIGN = re.compile(
    r"[$#>%](?: \S|(?:(?<=[^\s$#>%][$#>%])|(?<=[^\s$#>%] [$#>%])) ?(?=\n|\Z)"
    r"|(?<=#)(?<![^\n]#)(?=[a-z/])"  # or a `#` opening its line, a command right after it
    r"|(?<=[\w\\.)]>)(?=[A-Za-z.]))"  # or cmd's `C:\work>dir`: no blank after `>`
)
# `#lsattr -El hdisk4`: a bare `#` with no blank before the command.
_TIGHT = re.compile(r"#(?P<cmd>[a-z/]\S*(?: .*)?)")
# `C:\work>systeminfo`: cmd's default prompt ($P$G) puts no blank before the command.
_WINDOWS_TIGHT = re.compile(rf"(?P<prefix>{_WINDOWS})>(?P<cmd>[A-Za-z.]\S*(?: .*)?)")
# What a terminal leaves before a prompt: escapes in caret notation (an arrow key: ^[[A,
# ^[OA; ^C); a letter or word typed before the prompt came, only before `[user@host …]`.
_CARETS = re.compile(r"(?:\^\[(?:\[[0-9;?]{0,16}[A-Za-z~]|O[A-Za-z])|\^[A-Z@])+")
_STRAY = re.compile(r"[^\s\[]{1,32} ?(?=\[[^\]\n]{0,120}@)")
_DRIVE = re.compile(_WINDOWS)
_HOST_AFTER_AT = re.compile(r"@([\w.-]{1,253})")
_HOST_BEFORE_COLON = re.compile(r"([\w.-]{1,253}):")
BARE_SIGNS = ("$", "#")  # alone on the paste's last line: the prompt it ended on
# PowerShell's console asks for the rest of an unfinished command (a line ending in `|` or
# a backtick, an open brace) on lines opened by its continuation prompt `>> `; some
# consoles show `>>> `. Those lines are the command's, joined on, never its output.
_CONTINUATION = re.compile(r">>>?(?: (?P<rest>.*))?")
MAX_CONTINUED = 64  # continuation lines joined onto one command


@dataclass(frozen=True)
class PromptLine:
    number: int  # 1-based line number
    start: int  # offset of the line's first character in the text
    end: int  # offset of its end (the newline, or the text's end)
    prefix: str  # what stood before the sign: '[root@rhel9 ~]', '' for a bare sign
    sign: str
    command: str | None  # None: a bare prompt
    tight: bool = False  # `#lsattr`: no blank between the sign and the command


@dataclass(frozen=True)
class Prompt:
    """A distinct prompt seen in the paste: its host (None where it names none) and sign."""

    line: int
    host: str | None
    sign: str
    shape: str  # 'user@host', 'host:path', 'shell', 'windows', 'bare'


def prompt_lines(text: str) -> Iterator[PromptLine]:
    """Every line of `text` shaped as a prompt, with or without a command, in order."""
    number, at, pos = 1, 0, 0
    last_bare = ""  # a bare prompt repeated after another changes nothing: not yielded
    while (hit := _SIGN.search(text, pos)) is not None:
        start = text.rfind("\n", 0, hit.start()) + 1
        end = text.find("\n", hit.end())
        end = len(text) if end < 0 else end
        pos = end + 1
        if end - start > MAX_PROMPT or text[start].isspace():
            continue
        line = text[start:end].strip()
        if line == last_bare:
            continue
        found = _prompt(line)
        if found is None:
            continue
        prefix, sign, cmd, tight = found
        if cmd is not None and sign == ">" and _DRIVE.fullmatch(prefix):
            cmd, end = _continued(text, cmd, end)
            pos = end + 1
        last_bare = line if cmd is None else ""
        number += text.count("\n", at, start)
        at = start
        yield PromptLine(number, start, end, prefix, sign, cmd, tight)


def _continued(text: str, command: str, end: int) -> tuple[str, int]:
    """A PowerShell command with the continuation lines right after it joined on (one blank
    between, a line-ending backtick dropped), and the end offset of its last line."""
    parts = [command]
    while len(parts) <= MAX_CONTINUED and end < len(text):
        after = text.find("\n", end + 1)
        after = len(text) if after < 0 else after
        found = _CONTINUATION.fullmatch(text[end + 1 : after].strip())
        if found is None:
            break
        parts.append(found.group("rest") or "")
        end = after
    return " ".join(kept for part in parts if (kept := part.strip().rstrip("`").strip())), end


def _prompt(line: str) -> tuple[str, str, str | None, bool] | None:
    """(prefix, sign, command, tight) of a prompt line, past what a terminal left before it."""
    found = _PROMPT.fullmatch(line)
    if found is None and (junk := _CARETS.match(line) or _STRAY.match(line)) is not None:
        found = _PROMPT.fullmatch(line, junk.end())
    if found is not None:
        return found.group("prefix") or "", found.group("sign"), found.group("cmd"), False
    windows = _WINDOWS_TIGHT.fullmatch(line)
    if windows is not None:
        return windows.group("prefix"), ">", windows.group("cmd"), False
    tight = _TIGHT.fullmatch(line)
    return None if tight is None else ("", "#", tight.group("cmd"), True)


def prompt_of(prefix: str, sign: str, line: int) -> Prompt:
    """The host and shape a prompt's prefix shows, first seen on `line`."""
    host, shape = _shape(prefix)
    return Prompt(line, host, sign, shape)


@functools.lru_cache(maxsize=256)  # a transcript repeats one prompt on every command
def _shape(prefix: str) -> tuple[str | None, str]:
    if not prefix:
        return None, "bare"
    if prefix.startswith(("bash-", "sh-", "ksh-", "zsh-", "dash-")):
        return None, "shell"
    if _DRIVE.fullmatch(prefix):
        return None, "windows"  # it names no host: `C:` is a drive
    if (at := _HOST_AFTER_AT.search(prefix)) is not None:
        return at.group(1), "user@host"
    if (colon := _HOST_BEFORE_COLON.match(prefix)) is not None:
        return colon.group(1), "host:path"
    return None, "other"


def is_bare_last_line(text: str) -> tuple[int, int] | None:
    """(line number, offset) of the text's last non-blank line where it is a sign alone."""
    kept = text.rstrip()
    start = kept.rfind("\n") + 1
    if kept[start:].strip() not in BARE_SIGNS:
        return None
    return kept.count("\n") + 1, start
