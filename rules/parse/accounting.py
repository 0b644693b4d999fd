"""How much of the paste a draft used: each section read and the fields it gave, each
section read and not used and why, next to the unknown commands and unreadable outputs.

A section counts as used when some field of the draft was put from it (`Builder.put`, and
the `current` block's values, record the section's line), and is credited with those
fields only: of a paste's per-device `cat`s or sysctl sections merged into one reading,
each with the values it printed itself. One not used is either a repeated section the
most complete reading replaced (`rules.parse.duplicates` names it), or a reading no field
of the draft comes from: where the section is of another system than the one the paste is
taken for, that is why; where the `current` block reads its parser, what became of its
values (read from another section, none of the kinds the block keeps, refused by the
contract); else the parser it was read as.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_current import BLOCK, PSEUDO_DEVICES, SYSCTL_FAMILIES
from rules.parse.duplicates import own_sections
from rules.parse.registry import Section

MAX_LISTED = 200  # sections listed each way; the counts stay whole


# The `current` block's fields a value of each parser it reads would fill
# (`rules.parse.combine_current`), and why a value fills none.
def _sysctl(v: Any) -> list[str]:
    return [f"current.linux_sysctl.{k}" for k in v if k.startswith(SYSCTL_FAMILIES)]


def _table(name: str, attr: str) -> Callable[[Any], list[str]]:
    return lambda v: [f"current.{BLOCK[name]}.{k}" for k in getattr(v, attr)]


def _attrs(v: Any) -> list[str]:
    return [f"current.devices.{v.device}.{k}" for k in v.attrs]


def _queues(v: Any) -> list[str]:
    disks = (d for d in v if not d.startswith(PSEUDO_DEVICES))
    return [f"current.devices.{d}.{k}" for d in disks for k in v[d]]


def _thp(v: Any) -> list[str]:
    return ["current.linux_thp"] if v.setting == "enabled" and v.active is not None else []


def _thp_none(v: Any) -> str:
    if v.setting != "enabled":
        return f"only transparent_hugepage/enabled is read, and this is {v.setting}"
    return "the file could not be read"


def _tuned(v: Any) -> list[str]:
    return ["current.tuned_profile"] if v.profile is not None else []


def _tuned_none(v: Any) -> str:
    stopped = "; the tuned daemon is not running" if v.running is False else ""
    return f"it names no active profile{stopped}"


PREFIXES = ", ".join(SYSCTL_FAMILIES)
NA = "every tunable it prints is n/a"
READS: dict[str, tuple[Callable[[Any], list[str]], Callable[[Any], str]]] = {
    "sysctl": (_sysctl, lambda v: f"none of its keys starts as those read do ({PREFIXES})"),
    "ioo": (_table("ioo", "values"), lambda v: NA),
    "vmo": (_table("vmo", "values"), lambda v: NA),
    "sas_config": (_table("sas_config", "options"), lambda v: "it sets no option"),
    "spds_parm": (_table("spds_parm", "parameters"), lambda v: "it sets no parameter"),
    "aix_lsattr_disk": (_attrs, lambda v: "it lists no attribute"),
    "aix_lsattr_fcs": (_attrs, lambda v: "it lists no attribute"),
    "block_queue": (_queues, lambda v: f"its devices are not disks ({', '.join(PSEUDO_DEVICES)})"),
    "thp": (_thp, _thp_none),
    "tuned_active": (_tuned, _tuned_none),
}


def account(
    parsed: Parsed, b: Builder, os_name: str, foreign: dict[str, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(used, unused) sections; `foreign` maps a parser name to the OS only it runs on."""
    used: list[dict[str, Any]] = []
    unused: list[dict[str, Any]] = [
        {"line": line, "command": cmd, "why": why} for line, cmd, why in parsed.unused
    ]
    credit = _credit(b)
    for name, found in parsed.found.items():
        for f in found:
            for section in own_sections(f):
                fields = credit.get(section.line)
                if fields:
                    used.append({"line": section.line, "command": section.command,
                                 "fields": sorted(set(fields))})  # fmt: skip
                else:
                    why = _why(name, f, section, b, (os_name, foreign))
                    unused.append({"line": section.line, "command": section.command, "why": why})
    used.sort(key=lambda u: int(u["line"]))
    unused.sort(key=lambda u: int(u["line"]))
    return used[:MAX_LISTED], unused[:MAX_LISTED]


def _credit(b: Builder) -> dict[int, list[str]]:
    """The fields each section (by its line) filled."""
    out: dict[int, list[str]] = {}
    for (line, _command), fields in b.used.items():
        out.setdefault(line, []).extend(fields)
    return out


def _why(
    name: str, found: Found, section: Section, b: Builder, system: tuple[str, dict[str, str]]
) -> str:
    os_name, foreign = system
    other = foreign.get(name)
    if other is not None and other != os_name:
        return f"a {other} command, and the paste is taken for {os_name}"
    return _current_why(name, found, section, b) or (
        f"read as {name}, but no field of the draft comes from what it holds"
    )


def _current_why(name: str, found: Found, section: Section, b: Builder) -> str | None:
    """What became of the values of a section the `current` block reads and that filled
    none of its fields; None for a parser the block does not read."""
    reads = READS.get(name)
    if reads is None:
        return None
    paths_of, nothing = reads
    value = _own(found, section)
    if found.origins and not value:
        return "each value it prints was read from another section that prints it too"
    paths = paths_of(value)
    if not paths:
        return f"read as {name}: {nothing(value)}"
    other = next((b.provenance[p] for p in paths if p in b.provenance), None)
    if other is not None:
        return f"its values were read from `{other.command}` (line {other.line}) instead"
    return "the contract refuses the values it holds (the notes name them)"


def _own(found: Found, section: Section) -> Any:
    """The part of a reading that `section` printed: of a merged mapping, the entries read
    from it; else the whole value."""
    if not found.origins:
        return found.value
    out: dict[str, Any] = {}
    for key, origin in found.origins.items():
        if origin.line != section.line:
            continue
        if len(key) == 1:
            out[key[0]] = found.value[key[0]]
        else:
            out.setdefault(key[0], {})[key[1]] = found.value[key[0]][key[1]]
    return out
