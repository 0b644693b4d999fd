"""How direct I/O is reached on each system when SAS itself has no switch for it (SAS 9.1.3
on AIX and Solaris) or has its own (SGIO on Windows): bartucca2005's dio mounts, UFS
forcedirectio (oracle-mount-ufs) and SGIO (sas-win-sgio). io.direct_io decides; these
helpers only say it."""

from __future__ import annotations

from rules.derive.io import SCRATCH_ROLES
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, SYSTEM
from rules.payloads import DioMounts

DATA_ROLES = ("data",)
DIRECT_IO_GAIN_PCT = 6.0
DIRECT_IO_EFFECT = (
    "Run 2 (direct I/O, 16K pages) took 52:32.08 vs 33:35.62 cached — 56 % slower — but "
    "system CPU fell 53 % and 60 % of memory was freed; with 256K pages and BUFNO=16 the "
    "final run took 31:32.07, 6 % faster than cached, with 68 % less system CPU."
)


def _dio_mounts(inv: Inventory) -> list[tuple[str, str]]:
    """(file system, its dio mount point): /raid0 -> /raid0dio, as bartucca2005 named them."""
    mounts = [s.mount for s in inv.storage if s.role in DATA_ROLES + SCRATCH_ROLES]
    return [(m, f"{m.rstrip('/') or '/root'}dio") for m in dict.fromkeys(mounts)]


def dio_mount_advice(inv: Inventory, out: Emitter, why: str) -> None:
    """SAS 9.1.3 on AIX: bartucca2005's second mounts with -o dio."""
    mounts = _dio_mounts(inv)
    if not mounts:
        out.skip("storage", "no data, work or utilloc file system to mount with -o dio")
        return
    mkdir = " ".join(point for _, point in mounts)
    out.set(
        SYSTEM,
        "direct I/O mount",
        "; ".join([f"mkdir {mkdir}"] + [f"mount -o dio {fs} {pt}" for fs, pt in mounts]),
        kind="advice",
        rationale=f"Mount the data and work file systems a second time with -o dio and "
        f"point the big sort's libraries at the new paths: {why}. SAS 9.1.3 has no "
        "direct I/O option of its own. aix_tuning.sh --with-dio-mounts makes these "
        "mounts and records their undo.",
        sources=("bartucca2005",),
        evidence="bartucca2005 'Direct I/O mounts' (mount -o dio /raid0 /raid0dio)",
        effect=DIRECT_IO_EFFECT,
        payload=DioMounts(tuple(mounts)),
        gain_pct=DIRECT_IO_GAIN_PCT,
    )


def ufs_mounts(inv: Inventory) -> list[str]:
    return [s.mount for s in inv.storage if s.role in DATA_ROLES + SCRATCH_ROLES
            and s.filesystem == "ufs"]  # fmt: skip


def forcedirectio(inv: Inventory, out: Emitter, why: str) -> None:
    """SAS 9.1.3 on Solaris: direct I/O from the UFS mount, as bartucca2005's dio on AIX."""
    mounts = ufs_mounts(inv)
    out.set(
        SYSTEM, "forcedirectio mount",
        "; ".join(f"mount -F ufs -o remount,forcedirectio {m}" for m in mounts),
        kind="advice",
        rationale=f"Remount the UFS data and work file systems with forcedirectio while the "
        f"big sorts run: {why}. SAS 9.1.3 has no direct I/O option of its own; on Solaris "
        "UFS gives it per mount (mount_ufs(1M)). Undo with mount -F ufs -o "
        "remount,noforcedirectio on each; ZFS file systems take no such option.",
        sources=("bartucca2005", "oracle-mount-ufs"),
        evidence="bartucca2005 'Second run analysis'; mount_ufs(1M) forcedirectio",
        effect=DIRECT_IO_EFFECT, gain_pct=DIRECT_IO_GAIN_PCT,
    )  # fmt: skip


def sgio(inv: Inventory, out: Emitter, why: str) -> None:
    """Windows: SGIO is SAS's own path past the file cache, on every SAS 9 release."""
    out.set(
        SAS_CONFIG, "SGIO", "",
        rationale=f"Read and write the big sort inputs and outputs past the Windows file "
        f"cache: {why}. On Windows SAS does this with SGIO (scatter-read/gather-write), "
        "a start-up option for the configuration file. It pays on files larger than memory, "
        "and each I/O then moves BUFNO × BUFSIZE bytes, so the BUFNO advice here matters "
        "more (SAS 9.4 Companion for Windows, 'SGIO System Option: Windows').",
        sources=("sas-win-sgio", "bartucca2005"),
        evidence="bartucca2005 'Second run analysis' (the direct I/O gain); sas-win-sgio",
        effect=DIRECT_IO_EFFECT, gain_pct=DIRECT_IO_GAIN_PCT,
    )  # fmt: skip
