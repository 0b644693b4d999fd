"""Which prompt lines of a pasted transcript start a command, and where each output ends.

A prompt with a user, host or path before its sign always starts a command. A bare sign
(`# `, `$ `, or `#` with no blank: `#lsattr -El hdisk4`) starts one before a program some
parser reads; before another command-looking line (`# chps -s 64 hd6`, `$ su -`) only
once the paste has used that bare sign as its prompt before a program read (the paste's
own prompt style) and outside a printed file, so the `# ` comments of a configuration
file a `cat` shows stay its output. Such a command is listed as unknown, and its output
is no part of its neighbours'. Bare commands before the paste's first section wait until
the prompt style is seen (a paste that opens with `# su -`, then `# lscpu`). One word with
no blank right under a command (`#size_in_mb` under `lsattr -EOl hdisk0 -a size_in_mb`)
is that output's heading, not a command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.parse.prompts import Prompt, PromptLine, is_bare_last_line, prompt_lines, prompt_of
from rules.parse.registry import Argv
from rules.parse.spans import Span, argv_of, program_of

MAX_PROMPTS = 32  # distinct prompts kept (host, sign, shape): a paste has one or two
MAX_WAITING = 64  # bare commands held before the paste's first section
# Programs whose output is a file's text, where `# word` is a comment, never a prompt.
FILE_PRINTERS = frozenset({"cat", "more", "less", "pg", "head", "tail", "grep", "egrep",
                           "fgrep", "zcat", "sed", "awk", "strings", "crontab", "view", "tac",
                           "nl", "od", "xxd", "diff", "vi", "vim", "nano"})  # fmt: skip
# Words a comment opens with that no admin types as a command.
PROSE = frozenset({"a", "an", "the", "this", "that", "these", "those", "see", "for", "to",
                   "if", "use", "note", "default", "example", "do", "not", "and", "or", "is",
                   "it", "in", "of", "on", "by", "with", "you", "we", "should", "must", "may",
                   "can", "will", "all", "only", "some", "when", "where", "which", "be", "are",
                   "was", "uncomment", "comment", "edit", "add", "change", "remove", "set",
                   "please", "here", "there"})  # fmt: skip
_COMMAND_WORD = re.compile(r"[a-z][a-z0-9_.+-]{0,31}")
_SENTENCE_END = re.compile(r"[A-Za-z)][.:,;!?]$")


def commandish(command: str) -> bool:
    """Whether a bare sign's text reads as a typed command ('chps -s 64 hd6', 'su -'),
    not as a comment ('# see sysctl.conf(5).', '# Kernel settings')."""
    words = command.split()
    if not words or not _COMMAND_WORD.fullmatch(words[0]) or words[0] in PROSE:
        return False
    return _SENTENCE_END.search(command.rstrip()) is None


@dataclass
class Cut:
    spans: list[Span] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    open_line: int = 0  # the section that runs to the text's end with no prompt after it


class Cutter:
    """Sections from the prompts: a command line opens one, the next prompt (a bare one
    too) closes it. Past `limit` commands the rest is named as skipped."""

    def __init__(self, text: str, programs: frozenset[str], limit: int, too_many: str) -> None:
        self.text, self.programs, self.limit, self.too_many = text, programs, limit, too_many
        self.out = Cut()
        self.seen: set[tuple[str | None, str, str]] = set()
        self.open: tuple[str, Argv, int, int] | None = None
        self.styles: set[str] = set()  # bare signs the paste uses as its prompt
        self.waiting: list[tuple[PromptLine, Argv]] = []

    def cut(self) -> Cut:
        for p in prompt_lines(self.text):
            if not self._take(p):
                return self.out
        self._close_last()
        return self.out

    def _take(self, p: PromptLine) -> bool:
        """Read one prompt line; False once the section limit is reached."""
        if p.command is None and not p.prefix:
            return True  # a sign alone is a comment line unless it ends the paste
        argv = argv_of(p.command.strip()) if p.command is not None else ()
        if p.command is not None and not p.prefix and not self._starts(p, argv):
            return True
        return self._open(p, argv)

    def _starts(self, p: PromptLine, argv: Argv) -> bool:
        """Whether a bare sign's command starts a section (see the module's docstring)."""
        assert p.command is not None
        style = "#tight" if p.tight else p.sign
        if program_of(argv) in self.programs:
            if style not in self.styles:
                self.styles.add(style)
                self._release(p)
            return True
        if not commandish(p.command) or self._in_printed_file():
            return False
        if style in self.styles or p.sign in self.styles:
            return not (p.tight and self._heading(p))
        first = self.open is None and not self.out.spans
        if first and not p.tight and len(self.waiting) < MAX_WAITING:
            self.waiting.append((p, argv))
        return False

    def _heading(self, p: PromptLine) -> bool:
        """Whether the line is a `#name` or `#name:name` heading, one word opening the open
        section's output, as `lsattr -EO` and `lsuser -c` print."""
        one_word = p.command is not None and " " not in p.command.strip()
        return one_word and self.open is not None and p.start <= self.open[3]

    def _in_printed_file(self) -> bool:
        if self.open is None:
            return False
        argv = self.open[1]
        return program_of(argv) in FILE_PRINTERS or argv[:2] == ("systemctl", "cat")

    def _release(self, p: PromptLine) -> None:
        """The bare commands of this sign held before the first section, now that the
        paste shows the sign is its prompt."""
        if self.open is not None or self.out.spans:
            self.waiting = []
            return
        held = [(w, a) for w, a in self.waiting if w.sign == p.sign and not p.tight]
        self.waiting = []
        if not held:
            return
        for (w, argv), nxt in zip(held, [*(h for h, _ in held[1:]), p], strict=True):
            self._remember(w)
            end = max(w.end + 1, nxt.start - 1)
            self.out.spans.append(Span(str(w.command).strip(), argv, w.number, w.end + 1, end))

    def _open(self, p: PromptLine, argv: Argv) -> bool:
        if self.open is not None:
            command, args, line, start = self.open
            self.out.spans.append(Span(command, args, line, start, max(start, p.start - 1)))
            self.open = None
        self._remember(p)
        if p.command is None:
            return True
        if len(self.out.spans) >= self.limit:
            self.out.skipped.append((p.number, self.too_many))
            return False
        self.open = (p.command.strip(), argv, p.number, p.end + 1)
        return True

    def _close_last(self) -> None:
        if self.open is None:
            return
        command, argv, line, start = self.open
        end = len(self.text)
        bare = is_bare_last_line(self.text)
        if bare is not None and bare[1] >= start:
            end = max(start, bare[1] - 1)
        else:
            self.out.open_line = line
        self.out.spans.append(Span(command, argv, line, start, end))

    def _remember(self, p: PromptLine) -> None:
        """Each distinct prompt once (host, sign, shape), up to MAX_PROMPTS of them."""
        if len(self.seen) >= MAX_PROMPTS:
            return
        prompt = prompt_of(p.prefix, p.sign, p.number)
        key = (prompt.host, prompt.sign, prompt.shape)
        if key not in self.seen:
            self.seen.add(key)
            self.out.prompts.append(prompt)
