"""Output a paste seems to have lost: cut off at its end, or hard-wrapped by a terminal.

The last section of a paste that ends with no prompt after it may stop mid-line or
mid-table. Its last line is then left open (a bracket, a quote, a JSON document not
closed), or ends short of what that output always ends with (mdstat's `unused devices:`,
zpool status' `errors:`, prtdiag's closing section), or, in an output with no such ending,
is a table's heading rule with no row under it, a `key: value` line with no value, or a
row with fewer fields than every row above it. A listing that always prints many lines
(lscpu, /proc/meminfo) that prints few was cut too. A row merely missing at the end of a
table cannot be seen, and is not claimed.

A console that hard-wraps at 80 columns splits a longer row in two: a line of exactly 80
characters followed by a fragment that starts like no row of that output, or holds a
word or two where rows hold many. Outputs that pad their rows to 80 columns (free, lspv,
lsvg -p, ioo -L) have such lines too, each followed by a whole row or a rule; a change of
field count alone does not tell (free's Swap row is shorter than its Mem row by nature).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from rules.parse.registry import Section

WRAP_COLUMNS = 80
# Lines a complete listing has at least. lscpu: 18 on x86_64 and aarch64 (the corpus's
# shortest have 22 and 29 lines), 10 elsewhere (util-linux's POWER7 listing has 11, its
# s390 LPAR 17); /proc/meminfo has 43 to 54 lines in the corpus, 20 leaves old kernels room.
MIN_LINES = {"lscpu": 10, "meminfo": 20}
LSCPU_MIN_LINES = {"x86_64": 18, "aarch64": 18}
_SEPARATORS = (":", "=")
# A key's separator: `: ` or ` = ` (lscpu, sysctl), `="` (lsblk -P), `KEY=` (os-release),
# never the colon inside a value (MAJ:MIN's 8:0, a time)
_KEY = re.compile(r"[:=](?:\s|$)|=\"|^\w{1,64}=")
_RULE = re.compile(r"^[\s=-]+$")  # with three characters or more: `-----  ---`, `=====`
_ARCH = re.compile(r"^Architecture:\s*(\S+)")
_LETTERS, _NUMBERS = re.compile(r"[A-Za-z_]+"), re.compile(r"[0-9]+")
_PRTDIAG_HEADING = re.compile(r"^=+([^=]+)=+$")
_PRTDIAG_FOOTER = re.compile(r"[Ff]ailures found in System")
# The sections prtdiag closes with: FRU Status (sun4v), System Processor Mode (SPARC
# Enterprise M), Upgradeable Slots (x86), Memory Configuration (the V210/V240 family).
PRTDIAG_CLOSING = (
    "FRU Status",
    "System Processor Mode",
    "Upgradeable Slots",
    "Memory Configuration",
)


def _rule(line: str) -> bool:
    return len(line.strip()) >= 3 and _RULE.match(line) is not None


def _prtdiag_ends(lines: list[str]) -> bool:
    if any(_PRTDIAG_FOOTER.search(line) for line in lines[-3:]):
        return True
    headings = [m[1].strip() for line in lines if (m := _PRTDIAG_HEADING.match(line.strip()))]
    return bool(headings) and headings[-1] in PRTDIAG_CLOSING and not _rule(lines[-1])


def _free_ends(lines: list[str]) -> bool:
    """free: its last row has every value its kind has (Mem: one per header column; Swap:,
    Total:, Low:, High: total, used and free; `-/+ buffers/cache:` used and free)."""
    words = lines[-1].split()
    if words[:1] == ["-/+"]:
        return len(words) >= 4
    header = lines[0].split()
    if header[0].endswith(":"):  # `free | grep Mem`: no header to count by
        return True
    if len(lines) == 1:
        return False  # the header alone
    values = len(header) if words[0] == "Mem:" else 3
    return len(words) > 1 and len(words) - 1 >= values


def _last_is(pattern: str) -> Callable[[list[str]], bool]:
    compiled = re.compile(pattern)
    return lambda lines: compiled.search(lines[-1]) is not None


# How a complete output of these ends, where the general checks below would misjudge it.
ENDINGS: dict[str, Callable[[list[str]], bool]] = {
    "mdstat": _last_is(r"^unused devices: "),
    # psrinfo -pv: a chip's model line, indented (or Solaris 9's one-line form, closed),
    # never a line that announces more under it; psrinfo -p: a count
    "psrinfo": _last_is(r"^\s+(?!The core has )\S|^The \S+ physical processor has .*\)$|^\d+$"),
    # zpool status: its errors line or the files -v lists under it, or a whole vdev row
    # (name, state, three counters) where a quoted excerpt stops at the config
    "zpool_status": _last_is(r"^errors: |^\s*[/<]|:<0x|^\s*\S+\s+[A-Z]+\s+\S+\s+\S+\s+\S+\s*$"),
    # multipath: a path line or -v4's chatter, never a map's own lines (its name, size,
    # path group), which always have a path under them
    "multipath": _last_is(r"^(?!.*(?:\sdm-\d+\s|size=|policy=|round-robin))"),
    "prtdiag": _prtdiag_ends,
    "solaris_release": _last_is(r"^\s*Assembled "),  # /etc/release's banner closes so
    # vmstat, iostat, lparstat, sar: only the System configuration header above the
    # statistics is read, so a paste ending among them loses nothing read
    "aix_sysconfig": lambda lines: True,
    "free": _free_ends,
}


def seems_cut(section: Section, parser: str) -> bool:
    """Whether the output looks cut off at its end (the paste ended inside it)."""
    program = section.argv[0].rsplit("/", 1)[-1] if section.argv else ""
    lines = [
        line.rstrip()
        for line in section.lines
        if line.strip() and not line.startswith(f"{program}: ")  # its own complaints
    ]
    if not lines:
        return False
    if lines[0].lstrip()[:1] in ("{", "["):
        return _unclosed("\n".join(lines))
    if _unclosed(lines[-1]) or lines[-1].count('"') % 2:
        return True
    ending = ENDINGS.get(parser)
    if ending is not None:
        return not ending(lines)
    return len(lines) < _min_lines(parser, lines) or _short_last(lines)


def _keys(line: str) -> int:
    return len(_KEY.findall(line))


def _unclosed(text: str) -> bool:
    return any(text.count(a) > text.count(b) for a, b in ("()", "[]", "{}"))


def _min_lines(parser: str, lines: list[str]) -> int:
    if parser != "lscpu":
        return MIN_LINES.get(parser, 0)
    arch = next((m.group(1) for line in lines[:3] if (m := _ARCH.match(line))), "")
    return LSCPU_MIN_LINES.get(arch, MIN_LINES["lscpu"])


def _short_last(lines: list[str]) -> bool:
    """A heading rule with nothing under it; a last line that ends unlike every line above
    it (all `..."`, all `Processor`); in a `key: value` listing, a last line with no
    separator or no value; in a table, a row with fewer fields than every row above it."""
    last, above = lines[-1], [line for line in lines[:-1] if not _rule(line)]
    if _rule(last):
        return True
    ends = {line[-1] for line in above}
    if len(above) >= 2 and len(ends) == 1 and last[-1] not in ends:
        return True
    keyed = [line for line in above if _KEY.search(line)]
    if len(above) >= 2 and len(keyed) == len(above):
        fewer = _keys(last) < min(map(_keys, keyed))  # lsblk -P: a pair short
        return fewer or (
            last.endswith(_SEPARATORS) and not any(k.endswith(_SEPARATORS) for k in keyed)
        )
    rows = [len(line.split()) for line in above[1:]]
    return len(rows) >= 2 and len(last.split()) < min(rows)


def _shape(line: str) -> str:
    """How a line starts: indented or not, and its first word's letters (with underscores)
    and digits folded ('hdisk12' and 'hdisk0' alike, ioo -L's dependency line
    'aio_minservers' and its 'DEPENDENCIES' heading alike, 'ime,nosuid' unlike 'tmpfs')."""
    word = line.split(maxsplit=1)[0][:40] if line.strip() else ""
    folded = _NUMBERS.sub("9", _LETTERS.sub("a", word))
    return (" " if line[:1].isspace() else "") + folded


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def seems_wrapped(section: Section) -> bool:
    """A row split by an 80-column console: a line of exactly 80 characters (not a heading
    or a rule) followed by a shorter fragment, not indented as that line is, that either
    starts unlike that line and every row of the output (a line that follows a shorter
    one), or has at most half the fields of the shortest row (`ivedump`, the end of
    `/var/adm/ras/livedump`)."""
    if WRAP_COLUMNS not in map(len, section.lines):
        return False  # most outputs: nothing to weigh
    lines = [line for line in section.lines if line.strip()]
    pairs = [
        (above, line)
        for above, line in pairwise(lines[1:])  # a heading line of 80 is no row
        if len(above) == WRAP_COLUMNS > len(line)
        and not _rule(above)
        and not _indent(line) == _indent(above) > 0  # the output's own continuation line
    ]
    if not pairs:
        return False
    rows = [lines[i] for i in range(1, len(lines)) if len(lines[i - 1]) != WRAP_COLUMNS]
    shapes = {_shape(line) for line in rows}
    fewest = min((len(line.split()) for line in rows), default=0)
    return any(
        _shape(line) not in shapes | {_shape(above)} or 2 * len(line.split()) <= fewest
        for above, line in pairs
    )
