"""Renderer: aix_tuning.sh, the AIX ioo/vmo changes as a script safe to hand to an admin.

POSIX sh (AIX runs it with ksh). The script refuses to run off AIX or on another release
than the inventory's; checks every change before the first one (each value against the
range `ioo -L`/`vmo -L` gives, and the orders between tunables in ORDERS at every step,
with the values planned so far), so a change that would be refused stops it with nothing
changed; saves the current ioo/vmo values (and `lsattr -El` of each device it
names) to a timestamped directory and writes rollback.sh there BEFORE it changes anything;
changes with `-p` (now and at every boot, bartucca2005 and the ioo/vmo references); reads
the tunables without `-F`, so it never changes a restricted tunable nor one whose value it
cannot read back; and with `-n` only prints what it would do. Checks run read-only commands
and print their output.

Two opt-in steps run only when asked: `--with-dio-mounts` mounts the file systems a second
time with `-o dio` (io.direct_io, bartucca2005 l.195-207) and `--with-spds-dirs` creates
the SPD Server domain directories (spds.libnames; the server does not start without them).
Each records its undo (umount; rmdir of what it created, never of what existed).

Recommendations for this file carry a payload (rules.payloads): a `Tunable`, a `Check` or
a `DiskCheck`; the opt-in steps come from the `DioMounts` and `Domain` payloads the io and
spds rules attach to their own recommendations.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from rules.inventory import Inventory
from rules.kinds import DEVICE
from rules.model import AIX_SCRIPT
from rules.payloads import TUNABLE_NAME as TUNABLE
from rules.payloads import TUNABLE_VALUE as VALUE
from rules.payloads import Check, DioMounts, DiskCheck, Domain, Tunable
from rules.render._common import input_lines, one_line
from rules.render.base import Renderer, named
from rules.render.shell import command, comment, quote, shell_part

if TYPE_CHECKING:
    from rules.engine import Decisions
    from rules.model import Recommendation

TUNING_COMMANDS = ("ioo", "vmo")
SHOWN = {"dio_mount": "mount -o dio", "make_dir": "mkdir"}  # what an offered step runs
# Orders between tunables that must hold at every step; the script checks them, with every
# planned value, before its first change. JFS2 read-ahead starts at j2_minPageReadAhead and
# doubles up to j2_maxPageReadAhead (IBM "Sequential page read ahead"); `vmo -L` names
# minperm%, maxperm% and maxclient%, and minfree and maxfree, as dependencies of one another
# (its DEPENDENCIES column, AIX 6.1 and 7.1 captures in the nmon2influxdb and nmonchart
# samples); IBM keeps maxclient% at most maxperm% ("Enhanced JFS file system cache limit").
# (command, lower, le|lt, command, higher)
ORDERS: tuple[tuple[str, str, str, str, str], ...] = (
    ("ioo", "j2_minPageReadAhead", "le", "ioo", "j2_maxPageReadAhead"),
    ("vmo", "minperm%", "lt", "vmo", "maxperm%"),
    ("vmo", "maxclient%", "le", "vmo", "maxperm%"),
    ("vmo", "minfree", "lt", "vmo", "maxfree"),
)


USAGE = [
    "#",
    "# Usage, as root: sh aix_tuning.sh [-n] [--with-dio-mounts] [--with-spds-dirs]",
    "#   -n  dry run: print what would change; change nothing, write nothing.",
    "#   --with-dio-mounts  also mount the file systems listed below with -o dio.",
    "#   --with-spds-dirs   also create the SPD Server domain directories listed below.",
    "# It first checks every change (the ranges ioo -L and vmo -L give, the orders between",
    "# tunables at each step) and changes nothing if one would be refused.",
    "# Before any change it saves the current values (ioo -a, vmo -a, lsattr -El) in",
    "# ${AIX_TUNING_BACKUP_ROOT:-/var/adm/sas-tuning}/<timestamp>/ and writes rollback.sh",
    "# there; `sh <that directory>/rollback.sh` undoes every change. It refuses to run",
    "# anywhere but AIX at the release named above.",
]

# The script's fixed parts live in real shell files beside this module, so shellcheck reads
# them directly. Phases: `changes` runs once to check every change (PHASE=check), once to
# plan the rollback (PHASE=plan) and once to apply (PHASE=apply), so nothing changes unless
# every change passed and the undo is on disk before the first change.
PRELUDE = shell_part("aix_tuning_lib.sh")
MAIN = "\n" + shell_part("aix_tuning_main.sh")


class RenderError(ValueError):
    """A recommendation this file cannot carry: a rule bug, not bad input."""


def _capture(commands: list[str]) -> list[str]:
    """Read each listing once, before anything changes, without -F (no restricted ones)."""
    lines = ["", "capture() {", "  :"]
    for cmd in commands:
        up = cmd.upper()
        lines.append(f"  {up}_LIST=$({cmd} -a) || die 'cannot list the {cmd} tunables'")
    return [*lines, "}"]


def _backup(commands: list[str], devices: list[str]) -> list[str]:
    """Save the listings and devices in a fresh timestamped directory, then the rollback."""
    lines = [
        "",
        "backup() {",
        "  stamp=$(date +%Y%m%d-%H%M%S) || die 'date failed'",
        '  BACKUP_DIR="$BACKUP_ROOT/$stamp-$$"',
        '  if ! mkdir -p "$BACKUP_ROOT" || ! mkdir "$BACKUP_DIR"; then',
        '    die "cannot create the backup directory $BACKUP_DIR"',
        "  fi",
    ]
    lines += [f'  save {cmd}-a.txt "${cmd.upper()}_LIST"' for cmd in commands]
    lines += [f"  {command('save_device', d)}" for d in devices]
    return [*lines, "  write_rollback", "}"]


def _tune(rec: Recommendation, tunable: Tunable) -> list[str]:
    if not TUNABLE.fullmatch(rec.setting) or not VALUE.fullmatch(rec.value):
        raise RenderError(f"{rec.rule}: bad tunable {rec.setting!r}={rec.value!r}")
    if rec.kind != "change":
        raise RenderError(f"{rec.rule}: {tunable.command} needs kind 'change'")
    note = f"{tunable.command} {rec.setting}: default {tunable.default}, set {rec.value}"
    keeps = [
        command("keeps", *order)
        for order in ORDERS
        if (tunable.command, rec.setting) in ((order[0], order[1]), (order[3], order[4]))
    ]
    return [*comment(note), command("tune", tunable.command, rec.setting, rec.value), *keeps]


def _check(rec: Recommendation, check: Check | DiskCheck) -> list[str]:
    if rec.kind != "check":
        raise RenderError(f"{rec.rule}: a check must have kind 'check'")
    if isinstance(check, DiskCheck):
        return [command("check_disks", one_line(check.expect), check.lv, *check.attributes)]
    return [command("check", one_line(check.expect), *check.argv)]


def _step(rec: Recommendation) -> list[str]:
    lines = comment(f"{rec.rule}: {rec.rationale}", indent="  ")
    payload = rec.payload
    if isinstance(payload, Tunable):
        action = _tune(rec, payload)
    elif isinstance(payload, Check | DiskCheck):
        action = _check(rec, payload)
    elif payload is None and rec.kind == "advice":
        action = []  # advice has no command: the comment above is all of it
    else:
        raise RenderError(f"{rec.rule}: no command for {AIX_SCRIPT} in {payload!r}")
    return [*lines, *(f"  {line}" for line in action)]


def _opt_in(flag: str, variable: str, why: str, steps: list[tuple[str, ...]]) -> list[str]:
    """An opt-in block: the steps when `flag` is given, else a line naming each one."""
    if not steps:
        return []
    shown = [" ".join((SHOWN[step[0]], *step[1:])) for step in steps]
    return [
        "",
        *comment(f"Opt-in ({flag}): {why}", indent="  "),
        f'  if [ "${variable}" = 1 ]; then',
        *(f"    {command(*step)}" for step in steps),
        "  else",
        *(f"    {command('offer', flag, text)}" for text in shown),
        "  fi",
    ]


def _mounts(result: Decisions) -> list[str]:
    recs = [r for r in result.recommendations if isinstance(r.payload, DioMounts)]
    pairs = [m for r in recs if isinstance(r.payload, DioMounts) for m in r.payload.mounts]
    why = "; ".join(f"{r.rule}: {r.rationale}" for r in recs)
    why += " Not added to /etc/filesystems: the mounts end at reboot, as in the paper."
    steps: list[tuple[str, ...]] = [("dio_mount", fs, pt) for fs, pt in dict.fromkeys(pairs)]
    return _opt_in("--with-dio-mounts", "WITH_DIO_MOUNTS", why, steps)


def _spds_dirs(result: Decisions) -> list[str]:
    domains = [r.payload for r in result.recommendations if isinstance(r.payload, Domain)]
    paths = dict.fromkeys(p for d in domains for p in d.directories)
    why = (
        "SPD Server refuses to start while a path in libnames.parm is missing "
        f"(spds.libnames: domains {', '.join(d.name for d in domains)}). Each directory is "
        "created only directly on a mounted file system, so nothing lands on / when one is "
        "not mounted; chown them to the SPD Server user."
    )
    return _opt_in("--with-spds-dirs", "WITH_SPDS_DIRS", why, [("make_dir", p) for p in paths])


def _devices(result: Decisions, recs: list[Recommendation]) -> list[str]:
    """Devices the script names: the inventory's adapters and any `lsattr -El DEV` checks."""
    names = [a for s in result.inventory.storage for a in s.adapters]
    for rec in recs:
        if isinstance(rec.payload, Check) and rec.payload.argv[:1] == ("lsattr",):
            argv = rec.payload.argv
            names += [b for a, b in itertools.pairwise(argv) if a in ("-l", "-El")]
    return [d for d in dict.fromkeys(names) if DEVICE.compiled.fullmatch(d)]


def _commands(recs: list[Recommendation]) -> list[str]:
    used = {r.payload.command for r in recs if isinstance(r.payload, Tunable)}
    return [c for c in TUNING_COMMANDS if c in used]


def render(result: Decisions) -> str:
    recs = result.for_target(AIX_SCRIPT)
    commands = _commands(recs)
    steps = [line for rec in recs for line in ["", *_step(rec)]]
    steps += [*_mounts(result), *_spds_dirs(result)]
    lines = [
        "#!/bin/sh",
        *(line for text in input_lines(result, AIX_SCRIPT) for line in comment(text)),
        *USAGE,
        "",
        "set -u",
        "umask 077",
        "",
        f"EXPECTED_RELEASE={quote(result.inventory.server.os_version)}",
        PRELUDE,
        *_capture(commands),
        *_backup(commands, _devices(result, recs)),
        "",
        "# The changes, in rule order. Run three times: to check every change before the",
        "# first, to plan the rollback, to apply.",
        "changes() {",
        "  :",
        *steps[1:],
        "}",
        MAIN,
    ]
    return "\n".join(lines) + "\n"


def applies(inv: Inventory) -> bool:
    return inv.server.os == "aix"


RENDERER = Renderer(AIX_SCRIPT, "AIX tuning script", named(AIX_SCRIPT), applies, render)
