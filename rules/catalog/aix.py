"""Rules: AIX VMM (vmo), JFS2 I/O (ioo) and device checks, by AIX release.

bartucca2005 tuned AIX 5.3: ioo j2_minPageReadAhead 2→16, j2_nPagesPerWriteBehindCluster
32→128, sync_release_ilock 0→1 for 256 KB transfers ("Results from running dd"), and vmo
maxperm 80→60 with strict_maxperm 0→1 when SAS was paged out by the file cache ("Initial
adjustments"). Later releases changed the VMM (ibm-aix72-vmm, oracle19c-aix): on 6.1+ the
defaults already protect computational pages, lru_file_repage is gone on 7.1+ and the
strict_* knobs are deprecated on 7.2+, so there the advisor checks instead of changing.

Every AIX_SCRIPT recommendation carries a payload for the renderer: a `Tunable` (setting =
tunable, value = new value) or a `Check` (kind "check": a read-only command and the
healthy value to expect).
"""

from __future__ import annotations

import re
from typing import Literal

from rules.derive.io import choose_transfer
from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule
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


def _check(out: Emitter, setting: str, argv: str, expect: str, rationale: str) -> None:
    # Check refuses anything but plain tokens; the contract holds device names to those.
    out.set(
        AIX_SCRIPT,
        setting,
        argv,
        kind="check",
        rationale=rationale,
        payload=Check(tuple(argv.split()), expect),
    )


def _tune(
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


# --- vmo ---------------------------------------------------------------------------------


def _vmo_53(inv: Inventory, out: Emitter) -> None:
    ram = inv.server.ram_gb
    cache = ram * int(VMO_PAPER["maxperm%"][1]) / 100
    why = (
        f"The largest table ({inv.workload.largest_table_gb:g} GB) exceeds RAM ({ram:g} GB): "
        f"on AIX {inv.server.os_version} the file cache may take 80 % and pages SAS out. "
        f"maxperm% 60 with strict_maxperm 1 caps file pages at {cache:g} GB, leaving "
        f"{ram - cache:g} GB for SAS and other programs."
    )
    evidence = "bartucca2005 'Initial adjustments' (maxperm 80→60, strict_maxperm 0→1)"
    effect = "bartucca2005: SAS then held 39.2 % of real memory without paging."
    _tune(
        out, "vmo", "maxclient%", MAXCLIENT_53[1], MAXCLIENT_53[0],
        rationale="JFS2 caches file data as client pages, capped by maxclient%, which IBM "
        "says should stay ≤ maxperm%; lowering it to 60 with maxperm% is an inference, not "
        "a paper figure.",
        sources=("bartucca2005", "ibm-aix72-vmm"),
    )  # fmt: skip
    for name, (default, new) in VMO_PAPER.items():
        _tune(out, "vmo", name, new, default, rationale=why, evidence=evidence, effect=effect)


def _vmstat_expect(inv: Inventory) -> str:
    if inv.server.version >= AIX61:
        return (
            "minperm percentage 3.0 and maxperm percentage 90.0 (defaults); paging space "
            "page outs not growing while SAS runs"
        )
    return "numperm percentage below maxperm percentage; paging space page outs not growing"


def _vmo_61(inv: Inventory, out: Emitter) -> None:
    version = inv.server.os_version
    if inv.server.version >= AIX71:
        keeps = "the file-page-first LRU of 5.3 is gone"
    else:
        keeps = "lru_file_repage 0 makes the LRU steal file pages first"
    rationale = (
        f"AIX {version} defaults (minperm% 3, maxperm% 90) already protect SAS's "
        f"computational pages — {keeps} — so the 2005 change for 5.3 is not repeated. "
        "maxperm% is a restricted tunable here; lower it only if vmstat shows SAS paging "
        "(pi/po) during large sorts."
    )
    _check(out, "check:vmstat -v", "vmstat -v", _vmstat_expect(inv), rationale)
    if inv.server.version < AIX71:
        _check(
            out, "check:vmo -o lru_file_repage", "vmo -o lru_file_repage",
            "lru_file_repage = 0 (a 5.3 nextboot file can carry 1 over a migration)",
            "AIX 6.1 protects computational pages only with lru_file_repage at its default 0.",
        )  # fmt: skip


@rule(
    id="aix.vmo",
    title="Keep the file cache from paging SAS out (vmo, by AIX release)",
    sources=("bartucca2005", "ibm-aix72-vmm", "oracle19c-aix", "aix-defaults-secondary"),
    settings=(
        (AIX_SCRIPT, "maxclient%"),
        (AIX_SCRIPT, "maxperm%"),
        (AIX_SCRIPT, "strict_maxperm"),
        (AIX_SCRIPT, "check:vmstat -v"),
        (AIX_SCRIPT, "check:vmo -o lru_file_repage"),
    ),
    applies=ON_AIX,
    inputs=("server.os_version", "server.ram_gb", "workload.largest_table_gb"),
)
def vmo(inv: Inventory, out: Emitter) -> None:
    """5.3: the paper's maxperm change when sort data outgrows RAM; 6.1+: a check only."""
    if inv.server.version >= AIX61:
        _vmo_61(inv, out)
    elif inv.workload.largest_table_gb > inv.server.ram_gb:
        _vmo_53(inv, out)
    else:
        _check(
            out, "check:vmstat -v", "vmstat -v", _vmstat_expect(inv),
            f"The largest table ({inv.workload.largest_table_gb:g} GB) fits in RAM "
            f"({inv.server.ram_gb:g} GB), so the paper's maxperm change is not needed; "
            "watch for paging instead.",
        )  # fmt: skip


# --- ioo ---------------------------------------------------------------------------------


def _ioo_values(kb: int) -> tuple[dict[str, int], str]:
    """The paper's values for 256 KB, scaled linearly for other sizes (an inference)."""
    if kb == BARTUCCA_TRANSFER_KB:
        return {n: new for n, (_, new) in IOO_PAPER.items()}, ""
    scale = min(kb / BARTUCCA_TRANSFER_KB, MAX_SCALE)
    values = {n: max(d, round(new * scale)) for n, (d, new) in IOO_PAPER.items()}
    values["sync_release_ilock"] = 1
    note = (
        f" The paper measured 256 KB transfers; scaling its values by {scale:g} for {kb} KB is "
        "an inference"
        + (f", capped at {MAX_SCALE}×" if kb / BARTUCCA_TRANSFER_KB > scale else "")
        + " (never below the defaults)."
    )
    return values, note


def _restricted(inv: Inventory, name: str) -> bool:
    return name == "sync_release_ilock" and inv.server.version >= AIX70


def _restricted_note(inv: Inventory, restricted: bool) -> str:
    if not restricted:
        return ""
    return (
        f" Restricted on AIX {inv.server.os_version} (needs -F) — an unconfirmed inference "
        "from captured ioo output."
    )


@rule(
    id="aix.ioo",
    title="JFS2 read-ahead and write-behind sized for the max transfer (ioo)",
    sources=("bartucca2005", "ibm-aix-ioo"),
    settings=(
        (AIX_SCRIPT, "j2_minPageReadAhead"),
        (AIX_SCRIPT, "j2_nPagesPerWriteBehindCluster"),
        (AIX_SCRIPT, "sync_release_ilock"),
        (AIX_SCRIPT, "check:ioo -o j2_maxPageReadAhead"),
    ),
    applies=ON_AIX,
    inputs=("server.os_version", "storage[].filesystem", "storage[].max_transfer_kb"),
)
def ioo(inv: Inventory, out: Emitter) -> None:
    """Raise read-ahead and write-behind so JFS2 issues full max-transfer I/Os."""
    jfs2 = [s for s in inv.storage if s.filesystem == "jfs2"]
    if not jfs2:
        out.skip("storage", "no JFS2 file system: the j2_* ioo tunables do not apply")
        return
    choice = choose_transfer(jfs2)
    if choice.kb is None:
        out.skip(choice.missing or "storage", f"ioo values need it: {choice.reason}")
        return
    values, note = _ioo_values(choice.kb)
    why = f"Make {choice.kb} KB transfers the common case: {choice.reason}.{note}"
    for name, value in values.items():
        restricted = _restricted(inv, name)
        _tune(
            out, "ioo", name, str(value), str(IOO_PAPER[name][0]), restricted=restricted,
            rationale=why + _restricted_note(inv, restricted),
            evidence="bartucca2005 'Results from running dd' (2→16, 32→128, 0→1)",
            effect="bartucca2005 run 4: almost every physical transfer was 256 KB.",
        )  # fmt: skip
    _check(
        out, "check:ioo -o j2_maxPageReadAhead", "ioo -o j2_maxPageReadAhead",
        f"at least {values['j2_minPageReadAhead']} (the new j2_minPageReadAhead); default "
        f"{J2_MAX_PAGE_READ_AHEAD_DEFAULT}",
        "j2_maxPageReadAhead must stay ≥ j2_minPageReadAhead (and below "
        "j2_nBufferPerPagerDevice, technote swg21640392).",
    )  # fmt: skip


# --- device checks -----------------------------------------------------------------------


def _fc_adapters(inv: Inventory) -> list[str]:
    """fcsN for each FC adapter named in storage[].adapters (fscsiN's parent is fcsN)."""
    found: list[str] = []
    for s in inv.storage:
        for a in s.adapters:
            match = _FSCSI.match(a)
            name = f"fcs{match.group(1)}" if match else a if _FCS.match(a) else None
            if name and name not in found:
                found.append(name)
    return found


def _lv_checks(inv: Inventory, out: Emitter) -> None:
    for s in inv.storage:
        if s.filesystem not in ("jfs2", "jfs"):
            continue
        want = (
            f"0x{s.max_transfer_kb * 1024:x} ({s.max_transfer_kb} KB) as the inventory says"
            if s.max_transfer_kb
            else "a value to record as max_transfer_kb"
        )
        _check(
            out, "check:lslv -l", f"lslv -l {s.name}",
            f"lists the hdisks or vpaths of {s.name}; lsattr -El hdiskN -a max_transfer on "
            f"each shows {want}",
            f"The page sizes and ioo values assume {s.name}'s disks take {want}.",
        )  # fmt: skip


@rule(
    id="aix.max_transfer",
    title="Check hdisk max_transfer and FC adapter transfer size and queue",
    sources=("bartucca2005", "ibm-aix-ioo"),
    settings=(
        (AIX_SCRIPT, "check:lslv -l"),
        (AIX_SCRIPT, "check:lsattr max_xfer_size"),
        (AIX_SCRIPT, "check:lsattr num_cmd_elems"),
    ),
    applies=ON_AIX,
    inputs=(
        "storage[].name",
        "storage[].filesystem",
        "storage[].max_transfer_kb",
        "storage[].adapters",
    ),
)
def max_transfer(inv: Inventory, out: Emitter) -> None:
    """lsattr checks that the transfer sizes the other rules assume are real."""
    _lv_checks(inv, out)
    for fcs in _fc_adapters(inv):
        _check(
            out, "check:lsattr max_xfer_size", f"lsattr -El {fcs} -a max_xfer_size",
            "0x100000 or larger, and never below the hdisks' max_transfer",
            f"{fcs} (parent of the fscsi device named in the inventory; confirm with "
            "lsdev) caps every transfer through it.",
        )  # fmt: skip
        _check(
            out, "check:lsattr num_cmd_elems", f"lsattr -El {fcs} -a num_cmd_elems",
            "200 by default (range 200–4096); raise with chdev -P if fcstat shows "
            "No Command Resource Count growing",
            f"{fcs}'s command queue limits how many I/Os SAS can keep in flight.",
        )  # fmt: skip


RULES: tuple[Rule, ...] = (vmo, ioo, max_transfer)
