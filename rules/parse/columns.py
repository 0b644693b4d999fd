"""Fixed-column tables as a console draws them: a column per display cell, not per character.

PowerShell's Format-Table, wmic and lsblk pad each column to a width counted in console
cells, and a console draws an East Asian wide or fullwidth character (`unicodedata.east_asian_width`
"W" or "F": 新加卷, ＡＢＣ) two cells wide. Get-Volume's row

    D           新加卷       NTFS           Fixed     Healthy      OK         87.26 GB    276 GB

puts NTFS under FileSystemType's header only when 新加卷 counts six cells; cut by
characters, three to the left, FileSystemType reads `S           Fix`. `by_width` gives a
line whose character positions are its display cells: each wide character is followed by
FILL, a character no pasted text holds (a NUL is dropped first), which is no whitespace,
so a label stays one word. A table's header and its rows both pass through it before any
position is taken, and `unfill` takes FILL out of each cell's text. Both are one pass over
the line; an ASCII line (the usual one) is returned as it is.
"""

from __future__ import annotations

from unicodedata import east_asian_width

FILL = "\0"
WIDE = ("W", "F")


def by_width(line: str) -> str:
    """The line with FILL after each character drawn two cells wide."""
    if line.isascii():
        return line
    line = line.replace(FILL, "")
    return "".join(f"{char}{FILL}" if east_asian_width(char) in WIDE else char for char in line)


def unfill(text: str) -> str:
    """A cell's text as pasted: without the FILL `by_width` put in."""
    return text.replace(FILL, "") if FILL in text else text
