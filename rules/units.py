"""Sizes as SAS and SPD Server write them ("8G", "1024M", "256K") and small arithmetic helpers."""

from __future__ import annotations

import math
import re

_SIZE = re.compile(r"^([0-9]+)([KMG])$")
_FACTOR_KB = {"K": 1, "M": 1024, "G": 1024 * 1024}


def size_text(megabytes: float) -> str:
    """Whole gigabytes as 'NG', else whole megabytes as 'NM' (rounded down)."""
    mb = int(megabytes)
    if mb >= 1024 and mb % 1024 == 0:
        return f"{mb // 1024}G"
    return f"{mb}M"


def kb_text(kilobytes: int) -> str:
    """256 -> '256K'; 1024 -> '1M'."""
    if kilobytes >= 1024 and kilobytes % 1024 == 0:
        return f"{kilobytes // 1024}M"
    return f"{kilobytes}K"


def parse_size_mb(text: str) -> float:
    """'8G' -> 8192.0, '1024M' -> 1024.0, '256K' -> 0.25."""
    match = _SIZE.match(text.strip().upper())
    if not match:
        raise ValueError(f"not a size: {text!r}")
    return int(match.group(1)) * _FACTOR_KB[match.group(2)] / 1024


def pow2_floor(value: float) -> int:
    """The largest power of two not above value (value >= 1)."""
    if value < 1:
        raise ValueError("pow2_floor needs a value of at least 1")
    return 1 << math.floor(math.log2(value))


def gb(value: float) -> str:
    """A human figure for GB in rationales: 16 -> '16 GB', 998.5 -> '998.5 GB'."""
    return f"{value:g} GB"
