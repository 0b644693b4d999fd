"""Renderer: linux_tuning.sh, the Linux settings as a script safe to hand to an admin.

POSIX sh. It refuses anything but Linux of the distribution family and major release the
inventory names; `-n` shows current → new for every value and changes nothing. Then it
checks every change before the first (each sysctl key exists, each file it writes exists
and is writable, the kernel takes the value where that is knowable: a choice the list
offers, vm.rst's ranges) and stops with nothing changed if one would be refused. Before any
change it saves what it will touch (the active tuned profile, every value at its path,
every file it will replace) in a timestamped directory and writes rollback.sh there. With
tuned it installs the tuned.conf profile (the same text as the tuned.conf file) as
/etc/tuned/sas-performance/tuned.conf, activates it and runs `tuned-adm verify`; without
tuned (or with --without-tuned) it writes the values through /proc/sys and /sys and keeps
them at boot in /etc/sysctl.d and /etc/udev/rules.d. An I/O scheduler is chosen from the
rule's preferences among those the kernel offers; read-ahead only ever grows ('>').

It owns no settings: it renders the tuned.conf recommendations (`LinuxTunable` payloads)
and the read-only checks the Linux rules address to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.derive.linux import linux_release
from rules.inventory import Inventory
from rules.model import LINUX_SCRIPT
from rules.payloads import Check, LinuxTunable
from rules.render import tuned_profile
from rules.render._common import input_lines, one_line
from rules.render.base import Renderer, named
from rules.render.mount_readahead import mount_steps
from rules.render.shell import command, comment, quote, shell_part

if TYPE_CHECKING:
    from rules.engine import Decisions

USAGE = [
    "#",
    "# Usage, as root: sh linux_tuning.sh [-n] [--without-tuned]",
    "#   -n  dry run: print current -> new for every value; change nothing, write nothing.",
    "#   --without-tuned  apply through /proc/sys, /sys, sysctl.d and udev even if tuned is",
    "#       installed.",
    "# It first checks every change (the sysctl key or file exists and is writable, the kernel",
    "# takes the value where that is knowable) and changes nothing if one would be refused.",
    "# Before any change it saves the active tuned profile, every value it touches and every",
    "# file it replaces in ${LINUX_TUNING_BACKUP_ROOT:-/var/backups/sas-tuning}/<timestamp>/",
    "# and writes rollback.sh there; `sh <that directory>/rollback.sh` undoes every change.",
]
OS_IDS = {
    "rhel": ("rhel", "ol", "centos", "rocky", "almalinux"),
    "sles": ("sles", "sled", "opensuse-leap"),
    "ubuntu": ("ubuntu",),
}
PRELUDE = shell_part("linux_tuning_lib.sh")
MAIN = "\n" + shell_part("linux_tuning_main.sh")
HEREDOC_END = "SAS_TUNING_END_OF_FILE"


class RenderError(ValueError):
    """A recommendation this file cannot carry: a rule bug, not bad input."""


def _mode(tunable: LinuxTunable, value: str) -> tuple[str, str]:
    if tunable.alternatives:
        return "choose", " ".join((value, *tunable.alternatives))
    if value.startswith(">"):
        return "at-least", value[1:]
    return ("each-cpu" if "{cpu}" in tunable.path else "set"), value


def _items(result: Decisions) -> list[str]:
    lines = ["", "plan() {", "  :"]
    for rec, tunable in tuned_profile.tunables(result):
        mode, value = _mode(tunable, rec.value)
        lines += comment(f"{rec.rule}: {one_line(rec.rationale)}", indent="  ")
        # The other side of a dirty-limit pair: rollback.sh restores it when this one
        # reads 0 (the kernel zeroes the side not in effect, and refuses 0 bytes).
        other = tuned_profile.COUNTERPART_PATHS.get(tunable.path)
        for device in tunable.devices or ("",):
            path = tunable.path.replace("{dev}", device)
            name = f"{tunable.option} {device}".strip()
            lines.append("  " + command("item", name, path, value, mode, *filter(None, [other])))
    return [*lines, "}"]


def _mounts(result: Decisions) -> list[str]:
    """Read-ahead the script finds from a mount: the device it is mounted from, or its NFS
    client (`mount_item`, linux_tuning_lib.sh)."""
    lines = ["", "mounts() {", "  :"]
    for rec, steps in mount_steps(result):
        lines += comment(f"{rec.rule}: {one_line(rec.rationale)}", indent="  ")
        lines += ["  " + command("mount_item", *step) for step in steps]
    return [*lines, "}"]


def _checks(result: Decisions) -> list[str]:
    lines = ["", "checks() {", "  :"]
    for rec in result.for_target(LINUX_SCRIPT):
        if rec.kind == "check" and isinstance(rec.payload, Check):
            lines += comment(f"{rec.rule}: {one_line(rec.rationale)}", indent="  ")
            lines.append(f"  say {quote('check: ' + ' '.join(rec.payload.argv))}")
            lines.append(f"  say {quote('expect: ' + one_line(rec.payload.expect))}")
            lines.append("  " + command(*rec.payload.argv) + " || say 'check failed'")
    return [*lines, "}"]


def _heredoc(function: str, text: str) -> list[str]:
    if HEREDOC_END in text:
        raise RenderError(f"{function}: the text holds the heredoc end marker")
    return ["", f"{function}() {{", f"  cat <<'{HEREDOC_END}'", text.rstrip("\n"), HEREDOC_END, "}"]


def _sysctl_conf(result: Decisions) -> str:
    lines = ["# Written by linux_tuning.sh (SAS Tuning Advisor); rollback.sh removes it."]
    for rec, tunable in tuned_profile.tunables(result):
        if tunable.path.startswith("/proc/sys/"):
            lines.append(f"{tunable.path[len('/proc/sys/') :].replace('/', '.')} = {rec.value}")
    return "\n".join(lines)


def _udev_rules(result: Decisions) -> str:
    lines = ["# Written by linux_tuning.sh (SAS Tuning Advisor); rollback.sh removes it."]
    for rec, tunable in tuned_profile.tunables(result):
        attribute = tunable.path.split("/queue/", 1)[-1]
        value = rec.value.lstrip(">")
        for device in tunable.devices:
            # A pattern (nvme*) is every disk of a kind, whose kernel names may change at boot.
            disk = ', SUBSYSTEM=="block", ENV{DEVTYPE}=="disk"' if "*" in device else ""
            lines.append(
                f'ACTION=="add|change"{disk}, KERNEL=="{device}", '
                f'ATTR{{queue/{attribute}}}="{value}"'
            )
    return "\n".join(lines)


def render(result: Decisions) -> str:
    inv = result.inventory
    release = linux_release(inv)
    ids = OS_IDS.get(release.family, (inv.server.distribution or "linux",))
    lines = [
        "#!/bin/sh",
        *(line for text in input_lines(result, LINUX_SCRIPT) for line in comment(text)),
        *USAGE,
        "",
        "set -u",
        "umask 022",
        "",
        f"PROFILE_NAME={quote(tuned_profile.PROFILE)}",
        f"EXPECT_IDS={quote(' '.join(ids))}",
        f"EXPECT_MAJOR={quote(str(release.major))}",
        f"EXPECT_LABEL={quote(release.label)}",
        PRELUDE,
        *_items(result),
        *_mounts(result),
        *_checks(result),
        *_heredoc("profile", tuned_profile.render(result)),
        *_heredoc("sysctl_conf", _sysctl_conf(result)),
        *_heredoc("udev_rules", _udev_rules(result)),
        MAIN,
    ]
    return "\n".join(lines) + "\n"


def applies(inv: Inventory) -> bool:
    return inv.server.os == "linux"


RENDERER = Renderer(LINUX_SCRIPT, "Linux tuning script", named(LINUX_SCRIPT), applies, render)
