"""lsblk pads its columns in console cells, as PowerShell does: a cell of East Asian wide
characters takes two cells a character (rules/parse/columns.py).

Metamorphic: jc's CentOS 7.7 `lsblk -o +…` listing (real output, blank cells in every row)
with its sixteen-cell MODEL, "VMware Virtual S", given as eight wide characters, as lsblk
prints a model or label in Chinese: every other column reads as before.
"""

from __future__ import annotations

import dataclasses

from rules.parse.registry import find
from rules.parse.sections import argv_of
from tests.rules.parse.fixtures import section

NAME = "linux/lsblk_o_allcols_centos77_jc.txt"
WIDE_MODEL = "虚拟磁盘虚拟磁盘"  # eight characters, sixteen cells


def _read(lines: tuple[str, ...]) -> tuple[object, ...]:
    real = section(NAME)
    changed = dataclasses.replace(real, lines=lines)
    parser = find(argv_of(real.command))
    assert parser is not None
    return tuple(parser.fn(changed))


def test_a_wide_model_leaves_every_other_column_in_place() -> None:
    real = section(NAME)
    assert any("VMware Virtual S" in line for line in real.lines)
    wide = tuple(line.replace("VMware Virtual S", WIDE_MODEL) for line in real.lines)
    before, after = _read(real.lines), _read(wide)
    assert len(before) == len(after)
    for old, new in zip(before, after, strict=True):
        assert dataclasses.replace(new, model=old.model) == old  # type: ignore[call-arg]
    assert any(getattr(d, "model", None) == WIDE_MODEL for d in after)
