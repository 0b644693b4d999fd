"""Rule placement.system_file_system: WORK and UTILLOC kept off the file systems the
operating system and SAS itself need to write.

xu gave WORK disks and a controller of its own; bartucca2005 kept WORK and UTILLOC on
/raid0, a file system set up for temporary storage (l.269). What a full system file system
does is general administration knowledge, not measured by the papers (unconfirmed, and the
warnings say so): the OS writes its logs, spool and package state on /, /var and /tmp, and
its programs live on /usr and /opt; most SAS deployments keep their servers' logs and lock
files beside the installation. WORK fills whatever holds it, by design: a sort writes a
utility file of about its input. The root file system `/` itself is work.placement's
(rules.catalog.work_space): it leaves / out of WORK and says why; this rule takes every
other case.

What the inventory tells: a mount point that is the OS's own (/usr, /var, /tmp, /opt); on
Windows the system drive C:; disks or a volume group in common with one of those file
systems (rhel/saswork beside rhel/root), or the group the OS boots from by its installer's
name (AIX rootvg, its LVs hd4 for /, hd2 for /usr …; HP-UX vg00; Solaris rpool); and the
SAS installation folder, held by the listed file system with the longest mount point above
it (on Windows, by its drive).
"""

from __future__ import annotations

from rules.catalog.placement_words import fs_name, own_file_system, scratch_label
from rules.derive.storage_layers import same_disks
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import Rule, rule
from rules.parse.paths import holder, is_windows

SCRATCH_ROLES = ("work", "utilloc")
ROOT = "/"
# The OS's own file systems besides / (work_space's), with what it writes there.
SYSTEM_MOUNTS = {
    "/usr": "the operating system's programs and libraries",
    "/var": "the system's logs, print spool, mail and package state",
    "/tmp": "every program's temporary files, and logins that need them",
    "/opt": "add-on software (often SAS itself)",
}
WINDOWS_SYSTEM_DRIVE = "c:"
# AIX's rootvg logical volumes for /, /usr, /var, /tmp, /home, /opt, /admin and paging.
AIX_ROOTVG_LVS = ("hd4", "hd2", "hd9var", "hd3", "hd1", "hd10opt", "hd11admin", "hd6")
# The volume group or pool each OS boots from, when the admin kept the installer's name.
BOOT_GROUPS = {
    "aix": ("rootvg", "rootvg, the volume group AIX boots, pages and logs from"),
    "hpux": ("vg00", "vg00, the volume group HP-UX boots, pages and logs from"),
    "solaris": ("rpool", "rpool, the ZFS pool Solaris boots and swaps from"),
}
UNCONFIRMED = (
    "What a full file system does to the system is general administration knowledge, "
    "unconfirmed by the papers"
)


def drive(mount: str) -> str | None:
    """'d:' for D:\\saswork; the share for a UNC path; None for a POSIX mount."""
    if not is_windows(mount):
        return None
    head = mount.replace("/", "\\").lower()
    if head.startswith("\\\\"):
        return "\\\\" + "\\".join(head.lstrip("\\").split("\\")[:2])
    return head[:2]


def system_mount(inv: Inventory, s: Storage) -> str | None:
    """Why s is an OS file system (None when it is not): a POSIX system mount or the
    Windows system drive."""
    if inv.server.os == "windows":
        system = drive(s.mount) == WINDOWS_SYSTEM_DRIVE
        return "Windows itself, its page file and its updates" if system else None
    return SYSTEM_MOUNTS.get(s.mount) if s.mount != ROOT else None


def system_entries(inv: Inventory) -> list[Storage]:
    """The listed OS file systems (/ among them), by mount point."""
    found = [o for o in inv.storage if o.mount == ROOT or system_mount(inv, o) is not None]
    return sorted(found, key=lambda o: o.mount)


def volume_group(s: Storage) -> str | None:
    """'vg_sas' of a volume named vg_sas/lv_work (LVM's VG/LV, a ZFS pool/dataset)."""
    return s.volume.split("/")[0] if s.volume and "/" in s.volume else None


def _in_boot_group(inv: Inventory, s: Storage) -> str | None:
    group, boot = volume_group(s), BOOT_GROUPS.get(inv.server.os)
    if boot and (group == boot[0] or (inv.server.os == "aix" and s.name in AIX_ROOTVG_LVS)):
        return boot[1]
    return None


def _on_system_disks(inv: Inventory, s: Storage, system: list[Storage]) -> str | None:
    """The OS file systems s shares its disks or volume group with, or its place in the
    group the OS boots from (AIX rootvg, HP-UX vg00, Solaris rpool)."""
    if (boot := _in_boot_group(inv, s)) is not None:
        return boot
    group = volume_group(s)
    others = [o for o in system if o.index != s.index]
    names = [fs_name(o) for o in others if same_disks(s, o)]
    if names:
        return f"the same disks as {' and '.join(names)}"
    names = [fs_name(o) for o in others if group and volume_group(o) == group]
    return f"the volume group {group}, with {' and '.join(names)}" if names else None


def holds_install(inv: Inventory, s: Storage) -> bool:
    """s is the listed file system holding SAS's installation folder: the one with the
    longest mount point above it; on Windows, any folder of its drive."""
    path = inv.sas.install_path
    if path is None:
        return False
    if is_windows(path):
        return drive(path) == drive(s.mount)
    i = holder(path, [o.mount for o in inv.storage])
    return i == s.index


def _hazards(inv: Inventory, s: Storage) -> list[str]:
    found = []
    why = system_mount(inv, s)
    if why:
        found.append(f"it is {fs_name(s)}, which holds {why}")
    if holds_install(inv, s):
        found.append(
            f"it holds SAS's own installation ({inv.sas.install_path}): when it is full, "
            "SAS's servers cannot write the logs and lock files most deployments keep beside "
            "it, and sessions can fail to start"
        )
    return found


@rule(
    id="placement.system_file_system",
    title="WORK and UTILLOC off the file systems the OS and SAS's installation write to",
    sources=("xu", "bartucca2005"),
    inputs=(
        "storage[].role",
        "storage[].mount",
        "storage[].name",
        "storage[].devices",
        "storage[].volume",
        "server.os",
        "sas.install_path",
    ),
)
def system_file_system(inv: Inventory, out: Emitter) -> None:
    """Warn, per WORK or UTILLOC file system, where filling it stops the OS or SAS, and
    (less) where it only shares the OS's disks."""
    system = system_entries(inv)
    for s in inv.by_role(*SCRATCH_ROLES):
        if s.mount == ROOT:
            continue  # work.placement leaves / out of WORK and warns
        hazards = _hazards(inv, s)
        if hazards:
            _warn_full(inv, out, s, hazards)
        elif (disks := _on_system_disks(inv, s, system)) is not None:
            _warn_disks(inv, out, s, disks)


def _warn_full(inv: Inventory, out: Emitter, s: Storage, hazards: list[str]) -> None:
    out.warn(
        f"{scratch_label(s)} at {s.mount} is at risk: {'; and '.join(hazards)}. WORK fills "
        "whatever holds it (a sort writes a utility file about the size of its input), and a "
        "full file system there stops those writes, and with them services, logins or SAS "
        f"itself. {UNCONFIRMED}; the papers gave WORK storage of its own.",
        action=f"Give {scratch_label(s, short=True)} {own_file_system(inv)}, sized for the "
        "largest sort, move it there and run the advisor again.",
        severity="high",
    )


def _warn_disks(inv: Inventory, out: Emitter, s: Storage, disks: str) -> None:
    out.warn(
        f"{scratch_label(s)} at {s.mount} is a file system of its own but lies on {disks}: "
        "every WORK write competes with the system's own reads and writes (and paging), so a "
        "busy WORK slows the whole server and the OS slows WORK. The papers gave WORK disks "
        "of its own.",
        action=f"At the next change of storage, give {scratch_label(s, short=True)} "
        f"{own_file_system(inv)}.",
        severity="medium",
    )


RULES: tuple[Rule, ...] = (system_file_system,)
