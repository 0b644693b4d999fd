"""Renderer: tuned.conf, a tuned child profile for SAS on Linux.

tuned's own profiles are the model (redhat-performance/tuned, profiles/*/tuned.conf): a
`[main]` section whose `include=throughput-performance` inherits Red Hat's throughput
profile, then one section per plugin. tuned gives each block device to one [disk] instance
only, the first that matches it, and the parent's [disk] matches every device: so the
first set of devices takes over the parent's [disk] unit (`devices=` narrows it to them)
and each further set is an instance of its own (`[disk_nvme0n1]`, `type=disk`), so data
and WORK devices can differ. Devices named in none of them lose the parent's read-ahead
(>4096), which only SAS storage needed here. Every setting line is preceded by
`# rule-id: reason`; the header echoes the inputs and the rules version. linux_tuning.sh
installs this text as /etc/tuned/<PROFILE>/tuned.conf.

Only recommendations of kind "change" with a `LinuxTunable` payload become lines: the
rules decided everything, this module only groups and formats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.inventory import Inventory
from rules.model import TUNED
from rules.payloads import LINUX_OPTION, LINUX_VALUE, LinuxTunable
from rules.render._common import input_lines, one_line
from rules.render.base import Renderer, named
from rules.render.shell import comment

if TYPE_CHECKING:
    from rules.engine import Decisions
    from rules.model import Recommendation

PROFILE = "sas-performance"  # the directory under /etc/tuned the script installs it as
PARENT = "throughput-performance"
PLUGIN_ORDER = ("cpu", "vm", "sysctl", "disk")
# The kernel keeps one limit of each pair: writing dirty_bytes zeroes dirty_ratio and the
# other way round (Documentation/admin-guide/sysctl/vm.rst). Per /proc/sys path, its
# counterpart.
COUNTERPART_PATHS = {
    "/proc/sys/vm/dirty_bytes": "/proc/sys/vm/dirty_ratio",
    "/proc/sys/vm/dirty_ratio": "/proc/sys/vm/dirty_bytes",
    "/proc/sys/vm/dirty_background_bytes": "/proc/sys/vm/dirty_background_ratio",
    "/proc/sys/vm/dirty_background_ratio": "/proc/sys/vm/dirty_background_bytes",
}
# What the parent sets of those pairs, per section, over the tuned releases the rules
# write for: [sysctl] vm.dirty_ratio and vm.dirty_background_ratio (tuned before 2.25);
# [vm] dirty_ratio and dirty_background_ratio (2.25), dirty_bytes and
# dirty_background_bytes as percentages (2.26 on). A child setting one side of a pair
# drops the other from the parent (`drop=`, tuned 2.13): tuned calls both sides in one
# profile conflicting, "undefined behavior" (plugin_vm).
PARENT_DIRTY = {
    "sysctl": ("vm.dirty_ratio", "vm.dirty_background_ratio"),
    "vm": ("dirty_ratio", "dirty_background_ratio", "dirty_bytes", "dirty_background_bytes"),
}


class RenderError(ValueError):
    """A recommendation this file cannot carry: a rule bug, not bad input."""


def applies(inv: Inventory) -> bool:
    return inv.server.os == "linux"


def tunables(result: Decisions) -> list[tuple[Recommendation, LinuxTunable]]:
    """The profile's settings, in rule order: (recommendation, payload)."""
    out = []
    for rec in result.for_target(TUNED):
        if rec.kind != "change" or not isinstance(rec.payload, LinuxTunable):
            continue
        if not LINUX_OPTION.fullmatch(rec.payload.option) or not LINUX_VALUE.fullmatch(rec.value):
            raise RenderError(f"{rec.rule}: bad tuned line {rec.payload.option!r}={rec.value!r}")
        out.append((rec, rec.payload))
    return out


def _disk_groups(
    pairs: list[tuple[Recommendation, LinuxTunable]],
) -> dict[tuple[str, ...], list[tuple[Recommendation, LinuxTunable]]]:
    """Devices that take the same disk settings, with those settings: tuned gives a device
    to one [disk] instance only, so each device must sit in exactly one."""
    per_device: dict[str, list[tuple[Recommendation, LinuxTunable]]] = {}
    for rec, tunable in pairs:
        for device in tunable.devices:
            per_device.setdefault(device, []).append((rec, tunable))
    groups: dict[tuple[str, ...], list[tuple[Recommendation, LinuxTunable]]] = {}
    by_settings: dict[tuple[int, ...], list[str]] = {}
    for device, entries in per_device.items():
        by_settings.setdefault(tuple(id(rec) for rec, _ in entries), []).append(device)
    for devices in by_settings.values():
        groups[tuple(devices)] = per_device[devices[0]]
    return groups


def _sections(result: Decisions) -> list[tuple[str, tuple[str, ...], list[Any]]]:
    """(section name, its devices, its settings) in tuned plugin order."""
    pairs = tunables(result)
    out: list[tuple[str, tuple[str, ...], list[Any]]] = []
    for plugin in PLUGIN_ORDER:
        chosen = [(rec, t) for rec, t in pairs if t.plugin == plugin]
        if not chosen:
            continue
        if plugin != "disk":
            out.append((plugin, (), chosen))
            continue
        for i, (devices, entries) in enumerate(_disk_groups(chosen).items()):
            # The first group takes over the parent's [disk] unit (its devices= narrows it);
            # each further group is an instance of its own for devices no unit took yet.
            name = "disk_" + "_".join(
                d.replace(".", "_").replace("-", "_").replace("*", "_all") for d in devices
            )
            out.append(("disk" if i == 0 else name[:120], devices, entries))
    return out


def counterpart_option(tunable: LinuxTunable) -> str | None:
    """The option naming the other side of a dirty-limit pair in the same section."""
    other = COUNTERPART_PATHS.get(tunable.path)
    if other is None:
        return None
    name = other.rsplit("/", 1)[1]
    return f"vm.{name}" if tunable.plugin == "sysctl" else name


def _drops(name: str, entries: list[Any]) -> list[str]:
    """`drop=` for the parent's side of each dirty-limit pair this section sets the other
    side of, so the limit the child sets is the one in effect."""
    options = {t.option for _, t in entries}
    others = [counterpart_option(t) for _, t in entries]
    drop = [o for o in others if o in PARENT_DIRTY.get(name, ()) and o not in options]
    if not drop:
        return []
    why = (
        f"the kernel keeps one limit of each dirty pair, so the parent's {', '.join(drop)} "
        "would fight the values below; dropped (tuned 2.13 and later)"
    )
    return [*comment(why), f"drop={','.join(drop)}"]


def _section(name: str, devices: tuple[str, ...], entries: list[Any]) -> list[str]:
    lines = ["", f"[{name}]"]
    if devices:
        lines += ["type=disk", f"devices={','.join(devices)}"]
    lines += _drops(name, entries)
    for rec, tunable in entries:
        lines += comment(f"{rec.rule}: {one_line(rec.rationale)}")
        lines.append(f"{tunable.option}={rec.value}")
    return lines


def render(result: Decisions) -> str:
    server = result.inventory.server
    lines = [line for text in input_lines(result, TUNED) for line in comment(text)]
    lines += comment(
        f"Install as /etc/tuned/{PROFILE}/tuned.conf and run `tuned-adm profile {PROFILE}` "
        f"(linux_tuning.sh does both, with a backup and a rollback)."
    )
    lines += [
        "",
        "[main]",
        f"summary=SAS on {server.hostname}: {PARENT} with the SAS Tuning Advisor's settings",
        f"include={PARENT}",
    ]
    for name, devices, entries in _sections(result):
        lines += _section(name, devices, entries)
    return "\n".join(lines) + "\n"


RENDERER = Renderer(TUNED, "tuned profile", named(TUNED), applies, render)
