"""Rule: WORK's file system block size, as each operating system lets one choose it (xu).

xu timed WORK at several file system block sizes on HP-UX 10 (l.40-42, Table 2 l.77-88):
8K was best on solid state, 4K on the 4-disk stripe, 32K lost a fifth of the stripe's
gain. Only HP-UX is where those figures were measured. Elsewhere the choice is narrower:
- Linux: a local file system's block is at most the page size, 4K on x86_64, for XFS and
  ext4 alike, so 8K cannot be mounted there (general administration knowledge, unconfirmed
  by the sources). What is left to set is the alignment to the stripe: mkfs.xfs -d su=,sw=
  and mkfs.ext4 -E stride=,stripe-width=, with the stripe unit at 64K, 128K or 256K as SAS
  aligns its I/O (Crevar, SAS569-2017, source `sas569-2017`).
- AIX: JFS2's agblksize is 512 to 4096 bytes (general knowledge, unconfirmed), so 4K, the
  stripe's best in xu's table, is the largest there is.
- Windows: windows.work_volumes sets WORK's allocation unit (64 KB, win-sas-field).
- Shared file systems (NFS, GPFS) take their block size from the server or cluster.
"""

from __future__ import annotations

from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, Rule, rule
from rules.payloads import Watch

WORK_ROLES = ("work", "utilloc")
# xu Table 2 (l.77–88), relative to the one-disk benchmark (100), by file system block size.
XU_BLOCK_SSD = {"4K": 251, "8K": 282, "16K": 251}
XU_BLOCK_STRIPE = {"4K": 151, "8K": 149, "32K": 118}
# Crevar, SAS569-2017: the stripe unit SAS's I/O aligns with.
SAS569_STRIPE_UNITS = "64K, 128K or 256K"
BLOCK_SIZE_TOOLS = {
    "aix": "lsfs -q {mount} (agblksize)",
    "linux": "xfs_info {mount} (bsize, sunit, swidth) or tune2fs -l <device> (Block size, "
    "RAID stride, RAID stripe width)",
    "solaris": "fstyp -v <device> | head (bsize)",
    "hpux": "fstyp -v <device> (f_bsize)",
}
UNCONFIRMED = "general administration knowledge, unconfirmed by the sources"


def _blocks(table: dict[str, int]) -> str:
    return ", ".join(f"{size} {score}" for size, score in table.items())


def _xu_table() -> str:
    return (
        f"relative to one plain disk (100), solid state scored {_blocks(XU_BLOCK_SSD)} and a "
        f"4-disk stripe {_blocks(XU_BLOCK_STRIPE)} (xu Table 2, l.77–88)"
    )


def data_disks(s: Storage) -> int | None:
    """The disks that carry data in one stripe (RAID 0: all; 10: half; 5: one less; 6: two
    less), None where the entry is no stripe."""
    if not s.striped:
        return None
    return {"0": s.disks, "10": s.disks // 2, "5": s.disks - 1, "6": s.disks - 2}[s.raid]


def _linux_align(s: Storage) -> str:
    """The mkfs options that align the file system to its stripe, with this entry's disks."""
    width = data_disks(s)
    if width is None:
        return (
            f"{s.mount} is no stripe ({s.disks} × {s.media}, RAID {s.raid}), so 4K blocks "
            "are all there is to check"
        )
    if s.filesystem == "ext4":
        how = f"mkfs.ext4 -E stride=<stripe unit / 4K>,stripe-width=<stride × {width}>"
    else:
        how = f"mkfs.xfs -d su=<stripe unit>,sw={width}"
    return (
        f"align it to the stripe instead: {how} ({width} data disks in RAID {s.raid}), with "
        f"the array's stripe unit at {SAS569_STRIPE_UNITS} (Crevar, SAS569-2017)"
    )


def _linux(s: Storage) -> tuple[str, str]:
    return (
        "4K blocks, aligned to the stripe" if s.striped else "4K blocks",
        "On Linux, XFS's and ext4's block is at most the page size, 4K on x86_64, on the "
        f"kernels the distributions ship ({UNCONFIRMED}), so 8K is not on offer; "
        f"{_linux_align(s)}. "
        "A new layout means a new file system: time a WORK-heavy job before and after.",
    )


# What each OS's own file system offers, after xu's table: (value, what to do).
FIXED_ADVICE = {
    "aix": (
        "agblksize 4096",
        f"JFS2's agblksize runs from 512 to 4096 bytes ({UNCONFIRMED}), so 8K is not on "
        "offer and 4K, the stripe's best, is the largest there is: check that WORK was "
        "made with it (crfs -a agblksize=4096 when it is made again).",
    ),
    "hpux": (
        "test 4K and 8K against the current size",
        "Those are HP-UX 10 file systems: time your own WORK-heavy job at two block sizes "
        "before rebuilding one.",
    ),
}
OTHER_ADVICE = (
    "time two block sizes the file system offers",
    "They were measured on another system's file systems: time your own WORK-heavy job at "
    "two block sizes this file system offers before rebuilding one.",
)
# The file systems each OS's advice speaks of.
NATIVE = {"linux": ("xfs", "ext4"), "aix": ("jfs2",), "hpux": ("vxfs", "jfs")}


def _not_here(inv: Inventory, s: Storage) -> str | None:
    """Why no block size is WORK's to choose here; None where one is."""
    if inv.server.os == "windows":
        return "windows.work_volumes sets WORK's allocation unit on Windows"
    if s.filesystem == "zfs":
        return (
            f"{s.mount} is ZFS: its I/O size is the dataset's recordsize, not a block size; "
            "zfs.recordsize checks it (zfs get recordsize)"
        )
    if s.shared_kind is not None:
        return f"{s.mount} is a shared file system: its block size is set where it is served"
    return None


def _advice(inv: Inventory, s: Storage) -> tuple[str, str]:
    """The OS's own advice where the file system is the one it speaks of, else the general;
    each after xu's table."""
    os = inv.server.os
    if s.filesystem not in NATIVE.get(os, ()):
        value, text = OTHER_ADVICE
    else:
        value, text = _linux(s) if os == "linux" else FIXED_ADVICE[os]
    measured = f"The block size of WORK's file system changed xu's results (l.42): {_xu_table()}."
    return value, f"{measured} {text}"


@rule(
    id="work.block_size",
    title="Check WORK's file system block size",
    sources=("xu", "sas569-2017"),
    settings=((SYSTEM, "WORK file system block size"),),
    inputs=("storage[].role", "storage[].mount", "storage[].filesystem", "server.os"),
)
def block_size(inv: Inventory, out: Emitter) -> None:
    """xu timed WORK at several block sizes: small blocks won, 32K lost a fifth of the gain."""
    work = inv.by_role(*WORK_ROLES)
    if not work:
        out.skip("storage", "no file system marked SAS WORK or UTILLOC")
        return
    s = work[0]
    why_not = _not_here(inv, s)
    if why_not is not None:
        out.skip("storage", why_not)
        return
    value, rationale = _advice(inv, s)
    tool = BLOCK_SIZE_TOOLS.get(inv.server.os, "the file system's own tool")
    out.set(
        SYSTEM,
        "WORK file system block size",
        value,
        kind="check",
        rationale=rationale,
        evidence="xu l.40–42, l.66, Table 2",
        payload=Watch(tool.format(mount=s.mount)),
    )


RULES: tuple[Rule, ...] = (block_size,)
