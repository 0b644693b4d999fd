"""Parsers of current Linux tuning: block queue attributes, sysctl, THP, tuned.

Shapes: the kernel's Documentation/block/queue-sysfs.rst (`scheduler` lists the choices
with the active one in brackets, or "none" alone on a queue with no elevator),
`grep -H` prefixing each line with its file; procps `sysctl` ("key = value", errors as
"sysctl: …", older procps "error: …"); the kernel's transparent_hugepage files
(RHEL 6: /sys/kernel/mm/redhat_transparent_hugepage); tuned-adm's messages in
redhat-performance/tuned tuned/admin/admin.py. A file under /proc/sys printed by cat, more,
head or grep is the sysctl of its path (/proc/sys/vm/swappiness is vm.swappiness, as
sysctl(8) names it): its value alone, `path:value` from `grep . FILE…`, or each file under
the `==> FILE <==` heading head prints, or the `FILE` between `::::` lines of more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import meaningful, require
from rules.parse.registry import Argv, Garbled, Section, command, command_with, parser, reads_file

_QUEUE = re.compile(r"/sys/(?:class/)?block/(?P<dev>[^/]{1,64})/queue/(?P<attr>[\w.-]{1,64})")


def active_choice(value: str) -> str:
    """The bracketed choice of a sysfs selector ("mq-deadline kyber [bfq] none" → bfq)."""
    found = re.search(r"\[([^\[\]\s]{1,64})\]", value)
    return found.group(1) if found else value.strip()


@parser("block_queue", reads_file("/sys/*block/*/queue/*"), commands=("grep", "cat"))
def block_queue(section: Section) -> dict[str, dict[str, str]]:
    paths = [a for a in section.argv[1:] if a.startswith("/")]
    single = _QUEUE.fullmatch(paths[0]) if len(paths) == 1 and "*" not in paths[0] else None
    out: dict[str, dict[str, str]] = {}
    for _offset, line in meaningful(section):
        path, sep, value = line.partition(":")
        found = _QUEUE.fullmatch(path) if sep else None
        if found is None and single is not None and not line.startswith(("grep:", "cat:")):
            found, value = single, line
        if found is not None:
            attr = found.group("attr")
            value = value.strip()
            out.setdefault(found.group("dev"), {})[attr] = (
                active_choice(value) if attr == "scheduler" else value
            )
    require(out, section, "/sys/block/<dev>/queue/<attribute> values")
    return out


# What prints a file's text: the readers `reads_file` accepts.
FILE_READERS = ("cat", "more", "head", "tail", "grep", "pg")
_PROC_SYS = "/proc/sys/"
_HEAD_HEADING = re.compile(r"==> (?P<path>/\S{1,4096}) <==")
_SYSCTL = re.compile(r"(?P<key>[A-Za-z0-9_][\w.\-/:@*]{0,255})\s*=\s?(?P<value>.*)")
_SYSCTL_ERROR = ("sysctl:", "error:")


def _sysctl_or_proc_sys(argv: Argv) -> bool:
    return command_with("sysctl")(argv) or reads_file(f"{_PROC_SYS}*")(argv)


@parser("sysctl", _sysctl_or_proc_sys, commands=("sysctl", *FILE_READERS))
def sysctl(section: Section) -> dict[str, str]:
    if section.argv[0].rsplit("/", 1)[-1] != "sysctl":
        return _proc_sys(section)
    if "-n" in section.argv:
        return _sysctl_values(section)
    out: dict[str, str] = {}
    errors = 0
    for _offset, line in meaningful(section):
        if line.startswith(_SYSCTL_ERROR):
            errors += 1  # "permission denied on key", "reading key", "cannot stat"
            continue
        found = _SYSCTL.fullmatch(line.rstrip())
        if found:
            out[found.group("key")] = found.group("value").strip(" ")
    if not errors:
        require(out, section, "'key = value' lines")
    return out


def _sysctl_values(section: Section) -> dict[str, str]:
    keys = [a for a in section.argv[1:] if not a.startswith("-")]
    values = [line.rstrip() for line in section.lines if not line.startswith(_SYSCTL_ERROR)]
    values = [v for v in values if v.strip()]
    if len(values) != len(keys):
        raise Garbled(f"{len(values)} values for {len(keys)} keys asked with -n", 0)
    return dict(zip(keys, values, strict=True))


def _proc_sys(section: Section) -> dict[str, str]:
    """/proc/sys files as `cat`, `more`, `head` or `grep .` print them, by sysctl name."""
    program = section.argv[0].rsplit("/", 1)[-1]
    paths = [a for a in section.argv[1:] if a.startswith(_PROC_SYS) and "*" not in a]
    out: dict[str, str] = {}
    current = paths[0] if len(paths) == 1 else None
    complaints = 0
    for _offset, line in meaningful(section):
        text = line.strip()
        heading = _HEAD_HEADING.fullmatch(text)
        if heading is not None or text in paths:
            current = heading.group("path") if heading is not None else text
        elif text.startswith(f"{program}:") or set(text) == {":"}:
            complaints += text.startswith(f"{program}:")  # "No such file"; more's rule
        elif text.startswith(_PROC_SYS) and ":" in text:
            path, _, value = text.partition(":")
            out[_sysctl_name(path)] = value.strip()
        elif current is not None:
            out[_sysctl_name(current)] = text
            current = None
        elif len(paths) > 1 and len(out) < len(paths):
            out[_sysctl_name(paths[len(out)])] = text  # `cat a b`: one value per file, in order
    if not complaints:
        require(out, section, f"values of {_PROC_SYS} files")
    return out


def _sysctl_name(path: str) -> str:
    return path.removeprefix(_PROC_SYS).strip("/").replace("/", ".")


@dataclass(frozen=True)
class Thp:
    path: str
    setting: str  # enabled, defrag, …
    active: str | None  # None where the file could not be read
    choices: tuple[str, ...]
    redhat_path: bool  # RHEL 6's /sys/kernel/mm/redhat_transparent_hugepage


@parser("thp", reads_file("/sys/kernel/mm/*transparent_hugepage/*"), commands=FILE_READERS)
def thp(section: Section) -> Thp:
    path = next((a for a in section.argv[1:] if a.startswith("/")), "")
    setting = path.rstrip("/").rsplit("/", 1)[-1]
    redhat = "redhat_transparent_hugepage" in path
    program = section.argv[0].rsplit("/", 1)[-1]
    for offset, line in meaningful(section):
        if line.startswith(f"{program}:"):
            return Thp(path, setting, None, (), redhat)  # "No such file or directory"
        choices = tuple(w.strip("[]") for w in line.split())
        if "[" not in line and len(choices) != 1:
            raise Garbled("no [active] choice on this line", offset)
        return Thp(path, setting, active_choice(line), choices, redhat)
    raise Garbled("the output is empty", 0)


@dataclass(frozen=True)
class TunedActive:
    profile: str | None  # active profile(s), space-separated as tuned-adm prints them
    post_loaded: str | None
    preset: str | None  # the profile that would be applied when the daemon is off
    running: bool | None  # False when tuned-adm says the daemon is not running


def _tuned_adm(argv: Argv) -> bool:
    return command("tuned-adm", "active")(argv) or command("tuned-adm", "list")(argv)


@parser("tuned_active", _tuned_adm, commands=("tuned-adm",))
def tuned_active(section: Section) -> TunedActive:
    found: dict[str, str] = {}
    running: bool | None = None
    for _offset, line in meaningful(section):
        text = line.strip()
        key, _, value = text.partition(": ")
        if key in ("Current active profile", "Current post-loaded profile", "Preset profile"):
            found[key] = value.strip()
            running = running if key == "Preset profile" else True
        elif text == "No current active profile.":
            found["none"] = ""
        elif "daemon is not running" in text or text.lower().endswith("daemon running?"):
            running = False
    if not found:
        raise Garbled("no tuned-adm profile line found", 0)
    return TunedActive(
        profile=found.get("Current active profile"),
        post_loaded=found.get("Current post-loaded profile"),
        preset=found.get("Preset profile"),
        running=running,
    )
