"""Output a paste seems to have lost: cut off at its end, or hard-wrapped by a terminal.

The last section of a paste that ends with no prompt after it may stop mid-line or
mid-table: its last line has fewer fields than the table's rows, a `key: value` listing's
last line has no separator, or a listing that always prints many lines (lscpu,
/proc/meminfo) prints few. Any section whose lines are exactly 80 characters several
times over was likely wrapped by an 80-column console, which splits a row in two.
"""

from __future__ import annotations

from collections import Counter

from rules.parse.registry import Section

WRAP_COLUMNS = 80
WRAPPED_LINES = 2  # lines of exactly 80 characters: one may be real, two rarely are
# Lines a complete output has at least (lscpu prints 13 or more; /proc/meminfo over 30).
MIN_LINES = {"lscpu": 12, "meminfo": 20}
_SEPARATORS = (":", "=")


def seems_cut(section: Section, parser: str) -> bool:
    """Whether the output looks cut off at its end (the paste ended inside it)."""
    lines = [line for line in section.lines if line.strip()]
    if not lines:
        return False
    if len(lines) < MIN_LINES.get(parser, 0):
        return True
    keyed = sum(any(s in line for s in _SEPARATORS) for line in lines[:-1])
    if len(lines) > 2 and keyed == len(lines) - 1:
        return not any(s in lines[-1] for s in _SEPARATORS)
    widths = Counter(len(line.split()) for line in lines[1:-1])
    if len(lines) > 3 and widths:
        usual, count = widths.most_common(1)[0]
        return count * 2 > len(lines) - 2 and len(lines[-1].split()) < usual
    return False


def seems_wrapped(section: Section) -> bool:
    """Rows split by an 80-column console: lines of exactly 80 characters whose own field
    count, or the next line's, is not the rows' usual one (a real row that happens to be
    80 wide is followed by another whole row), or so many of them that no real output
    would be that regular."""
    lines = [line for line in section.lines if line.strip()]
    at_80 = [i for i, line in enumerate(lines) if len(line) == WRAP_COLUMNS]
    if len(at_80) < WRAPPED_LINES:
        return False
    if len(at_80) * 3 >= len(lines):
        return True
    fields = [len(line.split()) for line in lines]
    usual = Counter(fields).most_common(1)[0][0]
    after = [fields[min(i + 1, len(lines) - 1)] for i in at_80]
    broken = sum(fields[i] != usual or nxt != usual for i, nxt in zip(at_80, after, strict=True))
    return broken >= WRAPPED_LINES
