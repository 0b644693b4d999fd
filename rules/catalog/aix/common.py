"""What the AIX rules share: the release thresholds, the paper's values, which tunables
are restricted on which release, and the two ways they speak to aix_tuning.sh (a
read-only check, a tunable change)."""

from __future__ import annotations

import re
from typing import Literal

from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT
from rules.payloads import Check, Tunable
from rules.sources import SOURCES

AIX52 = (5, 2)
AIX61 = (6, 1)
AIX70 = (7, 0)
AIX71 = (7, 1)
# bartucca2005 l.246-257 ("Results from running dd"): (default, new) for 256 KB transfers.
BARTUCCA_TRANSFER_KB = 256
IOO_PAPER = {
    "j2_minPageReadAhead": (2, 16),
    "j2_nPagesPerWriteBehindCluster": (32, 128),
    "sync_release_ilock": (0, 1),
}
# Scaling past 1 MB transfers (4 × the paper) is not extrapolated further.
MAX_SCALE = 4
J2_MAX_PAGE_READ_AHEAD_DEFAULT = 128  # notes: 6.1+ default; technote swg21640392
# IBM's later figures for SAS on AIX 7.1 (ibm-sas-aix71), used there instead of the paper's
# where they exist: (AIX default, IBM's value). The paper's sync_release_ilock has none.
IOO_LATER = {
    "j2_minPageReadAhead": (2, 16),
    "j2_nPagesPerWriteBehindCluster": (32, 64),
    "j2_dynamicBufferPreallocation": (16, 256),
}
IBM_MAX_READ_AHEAD = 1024  # ibm-sas-aix71, set with j2_nBufferPerPagerDevice 2048
# j2_nBufferPerPagerDevice: AIX default 512, restricted and applied at mount on 7.1
# (aix71-ioo-capture); IBM's default advice keeps j2_maxPageReadAhead at half of it
# (technote swg21640392).
J2_BUFFERS_DEFAULT = 512
# bartucca2005 l.279-285 ("Initial adjustments"): maxperm 80→60, strict_maxperm 0→1 on 5.3.
VMO_PAPER = {"maxperm%": ("80", "60"), "strict_maxperm": ("0", "1")}
# maxclient% (JFS2's cache limit, 5.3 default 80) should stay ≤ maxperm% (IBM "Enhanced
# JFS file system cache limit Maxclient"); lowering it with maxperm% is an inference.
MAXCLIENT_53 = ("80", "60")
# Restricted tunables: "not recommended for end user modification", hidden without -F, a
# confirmation prompt with -p and an error-log entry at every boot (IBM "Tunable parameters
# type", tunrestore; ibm-aix-tunables). The class came with AIX 6.1. Per tunable: the first
# release where it is restricted, and the source. The AIX 7.3 capture (aix73-capture: `ioo
# -a` and `vmo -a` without -F omit them) is the only per-tunable evidence for the strict_*,
# lru_file_repage and sync_release_ilock; treating them as restricted from 6.1 is the
# cautious reading, unconfirmed for 6.1-7.2.
RESTRICTED: dict[str, tuple[tuple[int, ...], str]] = {
    "maxperm%": (AIX61, "ibm-aix72-vmm"),
    "maxclient%": (AIX61, "ibm-aix72-vmm"),
    "strict_maxperm": (AIX61, "aix73-capture"),
    "strict_maxclient": (AIX61, "aix73-capture"),
    "lru_file_repage": (AIX61, "aix73-capture"),
    "sync_release_ilock": (AIX61, "aix73-capture"),
}
# bartucca2005 l.678: the paper tuned one sort job alone and asks for validation under
# real multi-user load.
MULTIUSER_CAVEAT = (
    " bartucca2005 tuned a single sort job on an otherwise idle box and says its changes "
    "need validating in real multi-user use (l.678)."
)
_FSCSI = re.compile(r"^fscsi([0-9]+)$")
_FCS = re.compile(r"^fcs[0-9]+$")


ON_AIX = on_os("aix")


def with_tuning_commands(inv: Inventory) -> str | None:
    """Applies on AIX 5.2+, the first release with vmo and ioo (ibm-aix52-tuning)."""
    reason = ON_AIX(inv)
    if reason is None and inv.server.version < AIX52:
        reason = (
            f"AIX {inv.server.os_version} has no vmo or ioo: AIX 5.2 introduced them to "
            "replace vmtune (ibm-aix52-tuning), and the advisor writes no vmtune commands"
        )
    return reason


def restricted_on(inv: Inventory, name: str) -> str | None:
    """The source saying `name` is restricted on this release, or None."""
    since, source = RESTRICTED.get(name, ((99,), ""))
    return source if inv.server.version >= since else None


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
    inv: Inventory,
    command: Literal["ioo", "vmo"],
    name: str,
    new: str,
    default: str,
    *,
    rationale: str,
    sources: tuple[str, ...] | None = None,
    evidence: str = "",
    effect: str = "",
    paper: str = "",
) -> None:
    """A change, or on a release where `name` is restricted a read-only check instead that
    gives the paper's value and `paper`, why the paper set it."""
    source = restricted_on(inv, name)
    if source is not None:
        check(
            out, f"check:{command} -o {name}", f"{command} -o {name}",
            f"{default} (the default); the paper set {new} on AIX 5.3",
            f"{name} is a restricted tunable on AIX {inv.server.os_version} "
            f"({source}{'' if SOURCES[source].confirmed else ', unconfirmed before 7.3'}): IBM "
            "says restricted tunables are not for end users, -p asks for confirmation and "
            "every boot logs an error entry, so the script shows it and changes nothing. "
            f"Change it only on IBM support's advice. Why the paper set {new}: "
            f"{paper or rationale}",
        )  # fmt: skip
        return
    out.set(
        AIX_SCRIPT,
        name,
        new,
        rationale=rationale,
        sources=sources,
        evidence=evidence,
        effect=effect,
        payload=Tunable(command, default),
    )
