"""Renderer: aix_tuning.sh, the AIX ioo/vmo changes as a script safe to hand to an admin.

POSIX sh (AIX runs it with ksh). The script refuses to run off AIX or on another release
than the inventory's; saves the current ioo/vmo values (and `lsattr -El` of each device it
names) to a timestamped directory and writes rollback.sh there BEFORE it changes anything;
changes with `-p` (now and at every boot, bartucca2005 and the ioo/vmo references); skips a
tunable whose current value it cannot read, since it could not undo that change; and with
`-n` only prints what it would do. Checks run read-only commands and print their output.

Recommendations for this file carry `extra` (schema set by the AIX rules):
  command = "ioo" | "vmo": setting = tunable, value = new value, default, restricted = yes|no
  command = "check" (kind "check"): argv = space-separated tokens, expect = one-line hint
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from rules.model import AIX_SCRIPT
from rules.render._common import for_target, input_lines, one_line
from rules.render.shell import command, comment, quote

if TYPE_CHECKING:
    from rules.engine import Result
    from rules.model import Recommendation

TUNABLE = re.compile(r"^[A-Za-z0-9_%]{1,64}$")
VALUE = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
TOKEN = re.compile(r"^[A-Za-z0-9_.:%/=-]+$")
DEVICE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
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

# The script's fixed part. Phases: `changes` runs once to plan the rollback (PHASE=plan)
# and once to apply (PHASE=apply), so the undo is on disk before the first change.
PRELUDE = r"""BACKUP_ROOT=${AIX_TUNING_BACKUP_ROOT:-/var/adm/sas-tuning}
BACKUP_DIR=''
DRY_RUN=0
PHASE=plan
ROLLBACK=''

say() { printf '%s\n' "$*"; }
die() { printf 'aix_tuning.sh: %s\n' "$*" >&2; exit 1; }
usage() { say 'usage: aix_tuning.sh [-n]   (-n: dry run, change nothing)' >&2; exit 2; }

# now CMD NAME: the tunable's value in the listing read before any change.
now() {
  if [ "$1" = ioo ]; then listing=$IOO_LIST; else listing=$VMO_LIST; fi
  printf '%s\n' "$listing" | awk -v n="$2" '$1 == n && $2 == "=" { print $3; exit }'
}

# tune CMD RESTRICTED NAME VALUE: the plan phase records the undo, the apply phase changes.
# A value that cannot be read cannot be restored, so that tunable is left alone.
tune() {
  old=$(now "$1" "$3")
  case $old in
    '' | n/a | *[!A-Za-z0-9_.:-]*)
      if [ "$PHASE" = apply ]; then say "skip: $1 $3 has no readable value here; left alone"; fi
      return 0 ;;
  esac
  if [ "$old" = "$4" ]; then
    if [ "$PHASE" = apply ]; then say "ok: $1 $3 is already $4"; fi
    return 0
  fi
  if [ "$2" = yes ]; then force=' -F'; else force=''; fi
  if [ "$PHASE" = plan ]; then
    ROLLBACK=$(printf "restore %s -p%s -o '%s=%s'\n%s" "$1" "$force" "$3" "$old" "$ROLLBACK")
  else
    apply "$1" "$2" "$3" "$4" "$old"
  fi
}

# apply CMD RESTRICTED NAME VALUE OLD: change now and at every boot (-p).
apply() {
  if [ "$2" = yes ]; then say "note: $1 $3 is a restricted tunable; it is changed with -F"; fi
  if [ "$DRY_RUN" = 1 ]; then
    say "would change: $1 $3 from $5 to $4"
    return 0
  fi
  say "change: $1 $3 from $5 to $4"
  if [ "$2" = yes ]; then
    "$1" -p -F -o "$3=$4" || failed "$1 $3"
  else
    "$1" -p -o "$3=$4" || failed "$1 $3"
  fi
}

failed() {
  say "aix_tuning.sh: $1 could not be changed; stopping." >&2
  say "To undo the changes made so far: sh $BACKUP_DIR/rollback.sh" >&2
  exit 1
}

# check EXPECT ARGV...: run a read-only command and show its output; changes nothing.
check() {
  if [ "$PHASE" != apply ]; then return 0; fi
  expect=$1
  shift
  say "check: $*"
  "$@" 2>&1 || say "  (the command failed)"
  say "  expect: $expect"
}

save() { printf '%s\n' "$2" > "$BACKUP_DIR/$1" || die "cannot write $BACKUP_DIR/$1"; }

save_device() {
  if ! lsattr -El "$1" > "$BACKUP_DIR/lsattr-El-$1.txt" 2>&1; then
    say "warning: lsattr -El $1 failed; its attributes are not saved (nothing here changes them)"
  fi
}

write_rollback() {
  {
    cat <<'EOF'
#!/bin/sh
# Restores the ioo/vmo values aix_tuning.sh saved in this directory before changing them.
status=0
restore() {
  printf 'restore: %s\n' "$*"
  "$@" || status=1
}
EOF
    if [ -n "$ROLLBACK" ]; then printf '%s\n' "$ROLLBACK"; fi
    cat <<'EOF'
exit "$status"
EOF
  } > "$BACKUP_DIR/rollback.sh" || die "cannot write $BACKUP_DIR/rollback.sh"
}"""

MAIN = r"""
while getopts n opt; do
  case $opt in
    n) DRY_RUN=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
if [ "$#" -ne 0 ]; then usage; fi

os=$(uname -s)
if [ "$os" != AIX ]; then die "refusing to run: this script is for AIX, not $os"; fi
level=$(oslevel) || die 'refusing to run: oslevel failed'
case $level in
  "$EXPECTED_RELEASE" | "$EXPECTED_RELEASE".*) ;;
  *) die "refusing to run: written for AIX $EXPECTED_RELEASE, this is AIX $level" ;;
esac

capture
changes
if [ "$DRY_RUN" = 1 ]; then
  say 'Dry run: nothing is changed and nothing is written.'
else
  backup
  say "Saved the current values in $BACKUP_DIR"
  say "To undo: sh $BACKUP_DIR/rollback.sh"
fi
PHASE=apply
changes
if [ "$DRY_RUN" = 1 ]; then
  say 'Dry run finished. Run without -n to apply; that run prints its rollback command.'
else
  say "Done. To roll back: sh $BACKUP_DIR/rollback.sh"
fi"""


class RenderError(ValueError):
    """A recommendation that breaks this file's `extra` schema: a rule bug, not bad input."""


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


def _tune(rec: Recommendation) -> list[str]:
    cmd = rec.extra["command"]
    restricted = rec.extra.get("restricted", "no")
    if not TUNABLE.match(rec.setting) or not VALUE.match(rec.value):
        raise RenderError(f"{rec.rule}: bad tunable {rec.setting!r}={rec.value!r}")
    if restricted not in ("yes", "no") or rec.kind != "change":
        raise RenderError(f"{rec.rule}: {cmd} needs kind 'change' and restricted yes|no")
    note = f"{cmd} {rec.setting}: default {rec.extra.get('default', 'unknown')}, set {rec.value}"
    if restricted == "yes":
        note += "; a restricted tunable, changed with -F"
    return [*comment(note), command("tune", cmd, restricted, rec.setting, rec.value)]


def _argv(rec: Recommendation) -> list[str]:
    argv = rec.extra.get("argv", "").split()
    if not argv or not all(TOKEN.match(t) for t in argv):
        raise RenderError(f"{rec.rule}: check argv must be tokens of [A-Za-z0-9_.:%/=-]")
    return argv


def _check(rec: Recommendation) -> list[str]:
    if rec.kind != "check":
        raise RenderError(f"{rec.rule}: a check must have kind 'check'")
    expect = one_line(rec.extra.get("expect", ""))
    return [command("check", expect, *_argv(rec))]


def _step(rec: Recommendation) -> list[str]:
    lines = comment(f"{rec.rule}: {rec.rationale}", indent="  ")
    cmd = rec.extra.get("command")
    if cmd in TUNING_COMMANDS:
        action = _tune(rec)
    elif cmd == "check":
        action = _check(rec)
    elif cmd is None and rec.kind == "advice":
        action = []  # advice has no command: the comment above is all of it
    else:
        raise RenderError(f"{rec.rule}: unknown command {cmd!r} for {AIX_SCRIPT}")
    return [*lines, *(f"  {line}" for line in action)]


def _devices(result: Result, recs: list[Recommendation]) -> list[str]:
    """Devices the script names: the inventory's adapters and any `lsattr -l DEV` checks."""
    names = [a for s in result.inventory.storage for a in s.adapters]
    for rec in recs:
        argv = rec.extra.get("argv", "").split()
        if argv[:1] == ["lsattr"]:
            names += [b for a, b in itertools.pairwise(argv) if a in ("-l", "-El")]
        names += [rec.extra["device"]] if "device" in rec.extra else []
    return [d for d in dict.fromkeys(names) if DEVICE.match(d)]


def _restricted(recs: list[Recommendation]) -> set[str]:
    return {
        r.extra["command"]
        for r in recs
        if r.extra.get("command") in TUNING_COMMANDS and r.extra.get("restricted") == "yes"
    }


def render(result: Result) -> str:
    recs = for_target(result, AIX_SCRIPT)
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
