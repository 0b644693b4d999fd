"""Renderer: aix_tuning.sh, the AIX ioo/vmo changes as a script safe to hand to an admin.

POSIX sh (AIX runs it with ksh). The script refuses to run off AIX or on another release
than the inventory's; saves the current ioo/vmo values (and `lsattr -El` of each device it
names) to a timestamped directory and writes rollback.sh there BEFORE it changes anything;
changes with `-p` (now and at every boot, bartucca2005 and the ioo/vmo references); skips a
tunable whose current value it cannot read, since it could not undo that change; and with
`-n` only prints what it would do. Checks run read-only commands and print their output.

Recommendations for this file carry a payload (rules.payloads): a `Tunable` (setting =
tunable, value = new value) or a `Check` (kind "check": argv and the expected answer).
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from rules.inventory import Inventory
from rules.model import AIX_SCRIPT
from rules.payloads import TUNABLE_NAME as TUNABLE
from rules.payloads import TUNABLE_VALUE as VALUE
from rules.payloads import Check, Tunable
from rules.render._common import input_lines, one_line
from rules.render.base import Renderer, named
from rules.render.shell import command, comment, quote, shell_part

if TYPE_CHECKING:
    from rules.engine import Decisions
    from rules.model import Recommendation

DEVICE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
TUNING_COMMANDS = ("ioo", "vmo")


USAGE = [
    "#",
    "# Usage, as root: sh aix_tuning.sh [-n]",
    "#   -n  dry run: print what would change; change nothing, write nothing.",
    "# Before any change it saves the current values (ioo -a, vmo -a, lsattr -El) in",
    "# ${AIX_TUNING_BACKUP_ROOT:-/var/adm/sas-tuning}/<timestamp>/ and writes rollback.sh",
    "# there; `sh <that directory>/rollback.sh` restores them. It refuses to run anywhere",
    "# but AIX at the release named above.",
]

# The script's fixed parts live in real shell files beside this module, so shellcheck reads
# them directly. Phases: `changes` runs once to plan the rollback (PHASE=plan) and once to
# apply (PHASE=apply), so the undo is on disk before the first change.
PRELUDE = shell_part("aix_tuning_lib.sh")
MAIN = "\n" + shell_part("aix_tuning_main.sh")


class RenderError(ValueError):
    """A recommendation this file cannot carry: a rule bug, not bad input."""


def _capture(restricted: set[str]) -> list[str]:
    """Read every listing once, before anything changes; `-F` adds the restricted ones."""
    lines = ["", "capture() {"]
    for cmd in TUNING_COMMANDS:
        up = cmd.upper()
        lines.append(f"  {up}_A=$({cmd} -a) || die 'cannot list the {cmd} tunables'")
        if cmd in restricted:
            lines.append(f"  {up}_FA=$({cmd} -F -a) || die 'cannot list the {cmd} tunables'")
        lines.append(f"  {up}_LIST=${up}_{'FA' if cmd in restricted else 'A'}")
    return [*lines, "}"]


def _backup(restricted: set[str], devices: list[str]) -> list[str]:
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
    for cmd in TUNING_COMMANDS:
        lines.append(f'  save {cmd}-a.txt "${cmd.upper()}_A"')
        if cmd in restricted:
            lines.append(f'  save {cmd}-F-a.txt "${cmd.upper()}_FA"')
    lines += [f"  {command('save_device', d)}" for d in devices]
    return [*lines, "  write_rollback", "}"]


def _tune(rec: Recommendation, tunable: Tunable) -> list[str]:
    if not TUNABLE.fullmatch(rec.setting) or not VALUE.fullmatch(rec.value):
        raise RenderError(f"{rec.rule}: bad tunable {rec.setting!r}={rec.value!r}")
    if rec.kind != "change":
        raise RenderError(f"{rec.rule}: {tunable.command} needs kind 'change'")
    note = f"{tunable.command} {rec.setting}: default {tunable.default}, set {rec.value}"
    restricted = "yes" if tunable.restricted else "no"
    if tunable.restricted:
        note += "; a restricted tunable, changed with -F"
    return [*comment(note), command("tune", tunable.command, restricted, rec.setting, rec.value)]


def _check(rec: Recommendation, check: Check) -> list[str]:
    if rec.kind != "check":
        raise RenderError(f"{rec.rule}: a check must have kind 'check'")
    return [command("check", one_line(check.expect), *check.argv)]


def _step(rec: Recommendation) -> list[str]:
    lines = comment(f"{rec.rule}: {rec.rationale}", indent="  ")
    payload = rec.payload
    if isinstance(payload, Tunable):
        action = _tune(rec, payload)
    elif isinstance(payload, Check):
        action = _check(rec, payload)
    elif payload is None and rec.kind == "advice":
        action = []  # advice has no command: the comment above is all of it
    else:
        raise RenderError(f"{rec.rule}: no command for {AIX_SCRIPT} in {payload!r}")
    return [*lines, *(f"  {line}" for line in action)]


def _devices(result: Decisions, recs: list[Recommendation]) -> list[str]:
    """Devices the script names: the inventory's adapters and any `lsattr -El DEV` checks."""
    names = [a for s in result.inventory.storage for a in s.adapters]
    for rec in recs:
        if isinstance(rec.payload, Check) and rec.payload.argv[:1] == ("lsattr",):
            argv = rec.payload.argv
            names += [b for a, b in itertools.pairwise(argv) if a in ("-l", "-El")]
    return [d for d in dict.fromkeys(names) if DEVICE.fullmatch(d)]


def _restricted(recs: list[Recommendation]) -> set[str]:
    return {
        r.payload.command for r in recs if isinstance(r.payload, Tunable) and r.payload.restricted
    }


def render(result: Decisions) -> str:
    recs = result.for_target(AIX_SCRIPT)
    restricted = _restricted(recs)
    steps = [line for rec in recs for line in ["", *_step(rec)]]
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
        *_capture(restricted),
        *_backup(restricted, _devices(result, recs)),
        "",
        "# The changes, in rule order. Run twice: once to plan the rollback, once to apply.",
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
