"""What the AIX rules share: the release thresholds, the paper's values, and the two
ways they speak to aix_tuning.sh (a read-only check, a tunable change)."""

from __future__ import annotations

import re
from typing import Literal

from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.model import AIX_SCRIPT
from rules.payloads import Check, Tunable

AIX61 = (6, 1)
AIX70 = (7, 0)
AIX71 = (7, 1)
# bartucca2005 "Results from running dd": (default, new) for 256 KB max transfers.
BARTUCCA_TRANSFER_KB = 256
IOO_PAPER = {
    "j2_minPageReadAhead": (2, 16),
    "j2_nPagesPerWriteBehindCluster": (32, 128),
    "sync_release_ilock": (0, 1),
}
# Scaling past 1 MB transfers (4 × the paper) is not extrapolated further.
MAX_SCALE = 4
J2_MAX_PAGE_READ_AHEAD_DEFAULT = 128  # notes: 6.1+ default; technote swg21640392
# bartucca2005 "Initial adjustments": maxperm 80→60, strict_maxperm 0→1 on AIX 5.3.
VMO_PAPER = {"maxperm%": ("80", "60"), "strict_maxperm": ("0", "1")}
# maxclient% (JFS2's cache limit, 5.3 default 80) should stay ≤ maxperm% (IBM "Enhanced
# JFS file system cache limit Maxclient"); lowering it with maxperm% is an inference.
MAXCLIENT_53 = ("80", "60")
_FSCSI = re.compile(r"^fscsi([0-9]+)$")
_FCS = re.compile(r"^fcs[0-9]+$")


ON_AIX = on_os("aix")


def check(out: Emitter, setting: str, argv: str, expect: str, rationale: str) -> None:
    # Check refuses anything but plain tokens; the contract holds device names to those.
    out.set(
        AIX_SCRIPT,
        setting,
        argv,
        kind="check",
        rationale=rationale,
        payload=Check(tuple(argv.split()), expect),
    )


def tune(
    out: Emitter,
    command: Literal["ioo", "vmo"],
    name: str,
    new: str,
    default: str,
    *,
    rationale: str,
    restricted: bool = False,
    sources: tuple[str, ...] | None = None,
    evidence: str = "",
    effect: str = "",
) -> None:
    out.set(
        AIX_SCRIPT,
        name,
        new,
        rationale=rationale,
        sources=sources,
        evidence=evidence,
        effect=effect,
        payload=Tunable(command, default, restricted),
    )
