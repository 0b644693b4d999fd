"""Renderer: tuned.conf, a tuned child profile for SAS on Linux.

tuned's own profiles are the model (redhat-performance/tuned, profiles/*/tuned.conf): a
`[main]` section whose `include=throughput-performance` inherits Red Hat's throughput
profile, then one section per plugin. Settings for block devices go in one `[disk_…]`
instance per device set (`type=disk`, `devices=sdb,sdc`), as tuned's instance syntax
allows, so data and WORK devices can differ. Every setting line is preceded by
`# rule-id: reason`; the header echoes the inputs and the rules version. linux_tuning.sh
installs this text as /etc/tuned/<PROFILE>/tuned.conf.

Only recommendations of kind "change" with a `LinuxTunable` payload become lines: the
rules decided everything, this module only groups and formats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def section_name(tunable: LinuxTunable) -> str:
    """`[vm]`, `[sysctl]`…; a disk setting's instance is named after its devices."""
    if tunable.plugin != "disk":
        return tunable.plugin
    return "disk_" + "_".join(d.replace(".", "_").replace("-", "_") for d in tunable.devices)


def _sections(result: Decisions) -> dict[str, list[tuple[Recommendation, LinuxTunable]]]:
    grouped: dict[str, list[tuple[Recommendation, LinuxTunable]]] = {}
    ordered = sorted(tunables(result), key=lambda pair: PLUGIN_ORDER.index(pair[1].plugin))
    for rec, tunable in ordered:
        grouped.setdefault(section_name(tunable), []).append((rec, tunable))
    return grouped


def _section(name: str, entries: list[tuple[Recommendation, LinuxTunable]]) -> list[str]:
    lines = ["", f"[{name}]"]
    first = entries[0][1]
    if first.plugin == "disk":
        lines += ["type=disk", f"devices={','.join(first.devices)}"]
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
    for name, entries in _sections(result).items():
        lines += _section(name, entries)
    return "\n".join(lines) + "\n"


RENDERER = Renderer(TUNED, "tuned profile", named(TUNED), applies, render)
