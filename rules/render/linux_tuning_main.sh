# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154  # the functions and EXPECT_* come from the generated part
# The main flow of linux_tuning.sh: refuse, show, check every change, back up and write the
# rollback, change.

while [ $# -gt 0 ]; do
  case $1 in
    -n) DRY_RUN=1 ;;
    --without-tuned) USE_TUNED=-1 ;;
    *) usage ;;
  esac
  shift
done

# Refuse anything but Linux of the distribution family and major release it was made for.
[ "$(uname -s)" = Linux ] || die "this script is for Linux; this is $(uname -s)"
[ -r "$SYSROOT/etc/os-release" ] || die "no /etc/os-release: cannot tell the distribution"
os_id=$(sed -n 's/^ID=//p' "$SYSROOT/etc/os-release" | tr -d '"')
os_version=$(sed -n 's/^VERSION_ID=//p' "$SYSROOT/etc/os-release" | tr -d '"')
family_ok=0
for id in $EXPECT_IDS; do
  if [ "$os_id" = "$id" ]; then family_ok=1; fi
done
[ "$family_ok" = 1 ] || die "made for $EXPECT_LABEL; this is $os_id $os_version"
[ "${os_version%%.*}" = "$EXPECT_MAJOR" ] || die "made for $EXPECT_LABEL; this is $os_id $os_version"
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then die 'run it as root (or -n for a dry run)'; fi
if [ "$USE_TUNED" = 0 ] && command -v tuned-adm >/dev/null 2>&1; then USE_TUNED=1; fi

active_profile() { tuned-adm active 2>/dev/null | sed -n 's/^Current active profile: //p'; }

say "linux_tuning.sh: $os_id $os_version; $(if [ "$USE_TUNED" = 1 ]; then
  say "tuned: profile $PROFILE_NAME (active now: $(active_profile))"
else say 'no tuned: sysctl.d, udev and sysfs'; fi)"
PHASE=show
plan
mounts
# Every change is checked before the first one: the key or file exists and is writable, and
# the kernel takes the value where that is knowable. A refusal leaves nothing half-applied.
PHASE=check
plan
mounts
if [ -n "$PROBLEMS" ]; then
  printf '%s\n' "$PROBLEMS" | sed -e '/^$/d' -e 's/^/refused: /' >&2
  die 'nothing was changed: a change above would be refused (every change is checked before the first)'
fi
if [ "$DRY_RUN" = 1 ]; then
  say 'dry run: nothing changed, nothing written.'
  checks
  exit 0
fi

# keep FILE: back FILE up (or note that it did not exist), for rollback.sh to put back.
keep() {
  if [ -e "$1" ]; then
    mkdir -p "$BACKUP_DIR/files$(dirname "$1")" || die "cannot back up $1"
    cp -p "$1" "$BACKUP_DIR/files$1" || die "cannot back up $1"
    say "cp -p $(q "$BACKUP_DIR/files$1") $(q "$1")" >> "$BACKUP_DIR/rollback.sh"
  else
    say "rm -f $(q "$1")" >> "$BACKUP_DIR/rollback.sh"
    if [ ! -d "$(dirname "$1")" ]; then
      say "rmdir $(q "$(dirname "$1")")" >> "$BACKUP_DIR/rollback.sh"
    fi
  fi
}

backup() {
  stamp=$(date +%Y%m%d-%H%M%S) || die 'date failed'
  BACKUP_DIR="$BACKUP_ROOT/$stamp-$$"
  if ! mkdir -p "$BACKUP_ROOT" || ! mkdir "$BACKUP_DIR"; then
    die "cannot create the backup directory $BACKUP_DIR"
  fi
  {
    say '#!/bin/sh'
    say "# Written by linux_tuning.sh before it changed anything: puts back what it found."
    # shellcheck disable=SC2016  # written as it is, for rollback.sh to expand
    say 'restore() { printf "%s\n" "$2" > "$1" || echo "could not restore $1" >&2; }'
  } > "$BACKUP_DIR/rollback.sh" || die "cannot write $BACKUP_DIR/rollback.sh"
  if [ "$USE_TUNED" = 1 ]; then
    previous=$(active_profile)
    say "$previous" > "$BACKUP_DIR/tuned-active.txt"
    if [ -n "$previous" ]; then
      say "tuned-adm profile $(q "$previous")" >> "$BACKUP_DIR/rollback.sh"
    else
      say 'tuned-adm off' >> "$BACKUP_DIR/rollback.sh"
    fi
    keep "$TUNED_ROOT/$PROFILE_NAME/tuned.conf"
  else
    keep "$SYSCTL_FILE"
    keep "$UDEV_FILE"
  fi
  keep "$MOUNT_RULES"
  PHASE=backup
  plan
  mounts
  say "backup and rollback: $BACKUP_DIR (undo: sh $BACKUP_DIR/rollback.sh)"
}

with_tuned() {
  mkdir -p "$TUNED_ROOT/$PROFILE_NAME" || die "cannot create $TUNED_ROOT/$PROFILE_NAME"
  profile > "$TUNED_ROOT/$PROFILE_NAME/tuned.conf" || die 'cannot write the tuned profile'
  tuned-adm profile "$PROFILE_NAME" || die "tuned-adm profile failed; undo: sh $BACKUP_DIR/rollback.sh"
  if tuned-adm verify; then
    say "tuned-adm verify: the system matches profile $PROFILE_NAME"
  else
    say "tuned-adm verify FAILED: see /var/log/tuned/tuned.log; undo: sh $BACKUP_DIR/rollback.sh"
    exit 1
  fi
}

without_tuned() {
  mkdir -p "$(dirname "$SYSCTL_FILE")" "$(dirname "$UDEV_FILE")" || die 'cannot create /etc dirs'
  sysctl_conf > "$SYSCTL_FILE" || die "cannot write $SYSCTL_FILE"
  udev_rules > "$UDEV_FILE" || die "cannot write $UDEV_FILE"
  PHASE=apply
  plan
  say "applied $CHANGED values now; $SYSCTL_FILE and $UDEV_FILE keep them at boot"
  say 'transparent huge pages: add transparent_hugepage=never to the kernel command line to keep it at boot'
}

backup
if [ "$USE_TUNED" = 1 ]; then with_tuned; else without_tuned; fi
apply_mounts
say 'now:'
PHASE=show
plan
mounts
checks
