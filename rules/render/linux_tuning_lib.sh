# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154  # PROFILE_NAME, EXPECT_* and the plan are in the generated part
# The fixed functions of linux_tuning.sh; the renderer writes the rest around them.
SYSROOT=${LINUX_TUNING_SYSROOT:-}
BACKUP_ROOT=${LINUX_TUNING_BACKUP_ROOT:-/var/backups/sas-tuning}
TUNED_ROOT=${LINUX_TUNING_TUNED_ROOT:-/etc/tuned}
SYSCTL_FILE="$SYSROOT/etc/sysctl.d/99-sas-tuning.conf"
UDEV_FILE="$SYSROOT/etc/udev/rules.d/99-sas-tuning.rules"
BACKUP_DIR=''
DRY_RUN=0
PHASE=show
USE_TUNED=0
CHANGED=0

say() { printf '%s\n' "$*"; }
die() { printf 'linux_tuning.sh: %s\n' "$*" >&2; exit 1; }
usage() {
  say 'usage: linux_tuning.sh [-n] [--without-tuned]' >&2
  exit 2
}

# q WORD: WORD single-quoted for a line of rollback.sh.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# now PATH: the value at PATH; for a kernel choice list ('always [never]') the chosen one.
now() {
  if [ ! -r "$SYSROOT$1" ]; then return 1; fi
  value=$(cat "$SYSROOT$1") || return 1
  case $value in
    *'['*']'*) value=${value#*[}; value=${value%%]*} ;;
  esac
  printf '%s\n' "$value"
}

# offered PATH: the choices a kernel list file offers, brackets removed.
offered() { tr -d '[]' < "$SYSROOT$1"; }

# write PATH VALUE: set a kernel value (sysfs or /proc/sys).
write() { printf '%s\n' "$2" > "$SYSROOT$1"; }

# item NAME PATH VALUE MODE [OTHER]: one setting of the plan; MODE is set, at-least, choose
# (VALUE a list of preferences) or each-cpu (PATH has {cpu}). OTHER is the other side of a
# pair the kernel keeps one of (dirty_bytes and dirty_ratio): writing one zeroes the other.
item() {
  if [ "$4" = each-cpu ]; then
    found=0
    for dir in "$SYSROOT"/sys/devices/system/cpu/cpu[0-9]*; do
      [ -d "$dir" ] || continue
      cpu=${dir##*/}
      path=$(printf '%s\n' "$2" | sed "s/{cpu}/$cpu/")
      if [ -e "$SYSROOT$path" ]; then found=1; one "$1 $cpu" "$path" "$3" set; fi
    done
    if [ "$found" = 0 ] && [ "$PHASE" = show ]; then
      say "skip: $1: no cpufreq driver here (a virtual machine?): left alone"
    fi
    return 0
  fi
  one "$@"
}

# target NAME PATH VALUE MODE: the value the plan wants at PATH, or nothing to leave it.
target() {
  old=$(now "$2") || return 0
  case $4 in
    at-least) if [ "$old" -ge "$3" ] 2>/dev/null; then return 0; fi; say "$3" ;;
    choose)
      choices=$(offered "$2")
      for want in $3; do
        for have in $choices; do
          if [ "$want" = "$have" ]; then say "$want"; return 0; fi
        done
      done ;;
    *) say "$3" ;;
  esac
}

one() {
  if ! old=$(now "$2"); then
    if [ "$PHASE" = show ]; then say "skip: $1: $2 does not exist here: left alone"; fi
    return 0
  fi
  new=$(target "$@")
  # The side of a pair in effect now: PATH, or OTHER when PATH reads 0.
  live=$2
  if [ "$old" = 0 ] && [ -n "${5:-}" ] && other=$(now "$5") && [ "$other" != 0 ]; then
    live=$5
  fi
  case $PHASE in
    show)
      if [ -z "$new" ] && [ "$4" = choose ]; then
        say "skip: $1: none of $3 is offered ($(offered "$2")): left alone"
      elif [ -z "$new" ] || [ "$new" = "$old" ]; then say "ok: $1 is $old"
      elif [ "$live" != "$2" ]; then say "change: $1: $old (${5##*/} $other in effect) -> $new"
      else say "change: $1: $old -> $new"; fi ;;
    backup) say "restore $(q "$SYSROOT$live") $(q "$(now "$live")")" >> "$BACKUP_DIR/rollback.sh" ;;
    apply)
      if [ -n "$new" ] && [ "$new" != "$old" ]; then
        write "$2" "$new" || die "cannot write $2; undo with: sh $BACKUP_DIR/rollback.sh"
        CHANGED=$((CHANGED + 1))
      fi ;;
  esac
}
