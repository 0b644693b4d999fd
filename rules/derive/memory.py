"""Memory facts: SAS's share of RAM, each session's share, MEMSIZE and SORTSIZE.

Sources: bartucca2005 (MEMSIZE 8G and SORTSIZE 4G on the 16 GB lemans box), SAS 9.4
Companion for UNIX (the 512M MEMSIZE default).
"""

from __future__ import annotations

from rules.inventory import Inventory
from rules.units import pow2_floor

# bartucca2005 "Setup": MEMSIZE 8G on a 16 GB machine; the rest stayed with AIX (after
# maxperm 80→60, SAS and other programs held 39.2 % of real memory without paging).
SAS_RAM_SHARE = 0.5
# bartucca2005 "Setup": SORTSIZE 4G under MEMSIZE 8G.
SORTSIZE_OF_MEMSIZE = 0.5
# SAS 9.4 Companion for UNIX, MEMSIZE: the shipped default is 512M. Below it SAS itself,
# not just PROC SORT, runs short, so no session is given less.
MEMSIZE_FLOOR_MB = 512


def session_share_mb(inv: Inventory) -> float:
    """Real memory each session can count on: SAS's share of RAM over peak sessions."""
    return inv.server.ram_mb * SAS_RAM_SHARE / inv.workload.concurrent_sessions


def rounded_mb(share_mb: float, sessions: int) -> int:
    """A power of two for shared boxes; whole gigabytes (else megabytes) for a lone job."""
    if share_mb < 1:
        return 0
    if sessions > 1:
        return pow2_floor(share_mb)
    if share_mb >= 1024:
        return int(share_mb // 1024) * 1024
    return int(share_mb)


def real_mb(inv: Inventory) -> int:
    """The session's share of physical RAM, rounded; 0 when it is under a megabyte."""
    return rounded_mb(session_share_mb(inv), inv.workload.concurrent_sessions)


def memsize_mb(inv: Inventory) -> int:
    return max(MEMSIZE_FLOOR_MB, real_mb(inv))


def floored(inv: Inventory) -> bool:
    """True when the 512M floor lifted MEMSIZE above the session's real share."""
    return session_share_mb(inv) < MEMSIZE_FLOOR_MB


def sortsize_mb(inv: Inventory) -> int:
    """Half of MEMSIZE, or of the real share when the floor lifted MEMSIZE above it.

    Always strictly below MEMSIZE (which is at least 512M) and at least 1M.
    """
    return max(1, int(min(memsize_mb(inv), real_mb(inv)) * SORTSIZE_OF_MEMSIZE))


def mb_text(mb: float) -> str:
    """A human figure for rationales: 26214 -> '25.6 GB', 82 -> '82 MB'."""
    if mb >= 1024:
        return f"{mb / 1024:.1f}".removesuffix(".0") + " GB"
    return f"{mb:.0f} MB"
