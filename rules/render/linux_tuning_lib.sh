# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154  # PROFILE_NAME, EXPECT_* and the plan are in the generated part
# The fixed functions of linux_tuning.sh; the renderer writes the rest around them.
SYSROOT=${LINUX_TUNING_SYSROOT:-}
BACKUP_ROOT=${LINUX_TUNING_BACKUP_ROOT:-/var/backups/sas-tuning}
TUNED_ROOT=${LINUX_TUNING_TUNED_ROOT:-/etc/tuned}
SYSCTL_FILE="$SYSROOT/etc/sysctl.d/99-sas-tuning.conf"
UDEV_FILE="$SYSROOT/etc/udev/rules.d/99-sas-tuning.rules"
# Read-ahead found from a mount (its device, or its NFS client): kept at boot by its own
# rules, written with or without tuned; after nfs-utils' 99-nfs.rules (nfsrahead) by name.
MOUNT_RULES="$SYSROOT/etc/udev/rules.d/99-sas-readahead.rules"
MOUNT_LINES=''
BACKUP_DIR=''
DRY_RUN=0
PHASE=show
USE_TUNED=0
CHANGED=0
PROBLEMS=''

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

# problem TEXT: the check phase found a change the kernel would refuse.
problem() { PROBLEMS=$(printf '%s\n%s' "$PROBLEMS" "$1"); }

# most PATH: the largest value the kernel takes at PATH where it is known, else nothing
# (Documentation/admin-guide/sysctl/vm.rst: the ratios are percentages; swappiness goes to
# 200 from 5.8, to 100 before).
most() {
  case $1 in
    */vm/dirty_ratio | */vm/dirty_background_ratio) say 100 ;;
    */vm/swappiness)
      release=$(uname -r 2>/dev/null) || release=''
      major=${release%%.*}
      minor=${release#*.}
      minor=${minor%%[!0-9]*}
      case $major$minor in
        '' | *[!0-9]*) say 100 ;;
        *) if [ "$major" -gt 5 ] || { [ "$major" = 5 ] && [ "$minor" -ge 8 ]; }; then say 200; else say 100; fi ;;
      esac ;;
  esac
}

# refusal PATH VALUE: why the kernel would refuse VALUE at PATH, where that is knowable; nothing
# when it would take it. A choice list must offer it; a number goes where a number is, within
# the range vm.rst gives; dirty_bytes takes at least two pages (mm/page-writeback.c).
refusal() {
  case $(cat "$SYSROOT$1") in
    *'['*']'*)
      for have in $(offered "$1"); do
        if [ "$have" = "$2" ]; then return 0; fi
      done
      say "$2 is not one of the choices offered ($(offered "$1"))"
      return 0 ;;
  esac
  case $(now "$1") in
    '' | *[!0-9]*) return 0 ;;
  esac
  case $2 in
    '' | *[!0-9]*) say "$2 is not a number, and $1 holds one"; return 0 ;;
  esac
  top=$(most "$1")
  if [ -n "$top" ] && [ "$2" -gt "$top" ]; then say "$2 is above $top, the most it takes"; fi
  case $1 in
    */vm/dirty_bytes)
      page=$(getconf PAGESIZE 2>/dev/null) || page=4096
      if [ "$2" -lt $((2 * page)) ]; then say "$2 is below two pages ($((2 * page)) bytes), the least it takes"; fi ;;
  esac
}

# checked NAME PATH NEW: in the check phase, a problem where PATH cannot take NEW.
checked() {
  if [ ! -w "$SYSROOT$2" ]; then problem "$1: $2 is not writable here"; return 0; fi
  why=$(refusal "$2" "$3")
  if [ -n "$why" ]; then problem "$1: $2: $why"; fi
}

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
  case $2 in
    *'*'*) each_device "$@"; return 0 ;;
  esac
  one "$@"
}

# each_device NAME PATH VALUE MODE: PATH names every device of a kind (/sys/block/nvme*/...),
# whose kernel names may change at boot: each device present now, by its name now.
each_device() {
  found=0
  prefix=${2%%\**}
  suffix=${2#*\*}
  for dir in "$SYSROOT$prefix"*; do
    [ -e "$dir$suffix" ] || continue
    dev=${dir#"$SYSROOT$prefix"}
    found=1
    one "${1%%\**}$dev" "$prefix$dev$suffix" "$3" "$4"
  done
  if [ "$found" = 0 ] && [ "$PHASE" = show ]; then say "skip: $1: no such device here: left alone"; fi
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
    case $PHASE in
      show) say "refuse: $1: $2 does not exist here" ;;
      check)
        case $2 in
          /proc/sys/*) problem "$1: $2 does not exist: this kernel has no such sysctl key" ;;
          *) problem "$1: $2 does not exist here (the inventory names what this host lacks?)" ;;
        esac ;;
    esac
    return 0
  fi
  new=$(target "$@")
  # The side of a pair in effect now: PATH, or OTHER when PATH reads 0.
  live=$2
  if [ "$old" = 0 ] && [ -n "${5:-}" ] && other=$(now "$5") && [ "$other" != 0 ]; then
    live=$5
  fi
  case $PHASE in
    check) if [ -n "$new" ] && [ "$new" != "$old" ]; then checked "$1" "$2" "$new"; fi ;;
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

# udev_line MAJ:MIN KB KIND: the udev rule that sets this read-ahead again at boot. NFS: the
# vendor's rule for every NFS mount (its bdi listed in /proc/fs/nfsfs/volumes), which here
# only raises (it leaves a mount whose read-ahead is already KB or more, as nfsrahead may
# have set it); a block
# device: by its device-mapper name (dm-N is numbered at boot), else its kernel name (the
# disk's, for a partition).
udev_line() {
  if [ "$3" = nfs ]; then
    # shellcheck disable=SC2016  # $kernel and $4 are udev's and awk's, written as they are
    say 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="/usr/bin/awk -v bdi=$kernel -v kb='"$2"' -v f=/sys/class/bdi/$kernel/read_ahead_kb '"'"'BEGIN{ret=1} {if ($4 == bdi) {ret=0}} END{if ((getline ra < f) > 0 && ra + 0 >= kb) {ret=1}; exit ret}'"'"' /proc/fs/nfsfs/volumes", ATTR{read_ahead_kb}="'"$2"'"'
    return 0
  fi
  dev="$SYSROOT/sys/dev/block/$1"
  if [ -r "$dev/dm/name" ]; then
    say "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DM_NAME}==\"$(cat "$dev/dm/name")\", ATTR{queue/read_ahead_kb}=\"$2\""
    return 0
  fi
  if [ -e "$dev/partition" ]; then dev="$dev/.."; fi
  kname=$(cd "$dev" 2>/dev/null && pwd -P) || return 0
  # A disk by its WWID where it has one (an NVMe namespace's own, a SCSI disk's device's):
  # kernel names of NVMe and cloud disks can change at the next boot.
  for attr in wwid device/wwid; do
    wwid=$(cat "$kname/$attr" 2>/dev/null) || continue
    case $wwid in ''|*'"'*|*"\\"*) continue ;; esac
    key=ATTR; if [ "$attr" = device/wwid ]; then key=ATTRS; fi
    say "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", $key{wwid}==\"$wwid\", ATTR{queue/read_ahead_kb}=\"$2\""
    return 0
  done
  say "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"${kname##*/}\", ATTR{queue/read_ahead_kb}=\"$2\""
}

# mount_item MOUNT VALUE MODE KIND: the read-ahead of what MOUNT is mounted from, found by its
# major:minor (/sys/class/bdi/MAJ:MIN; a partition's is its disk's queue). KIND is block or
# nfs; in the apply phase it also notes the udev line that keeps the value at boot.
mount_item() {
  majmin=$(mountpoint -d "$1" 2>/dev/null) || majmin=''
  if [ -z "$majmin" ]; then
    if [ "$PHASE" = show ]; then say "skip: read_ahead_kb $1: not a mount point here: left alone"; fi
    return 0
  fi
  path="/sys/class/bdi/$majmin/read_ahead_kb"
  if [ ! -e "$SYSROOT$path" ]; then path="/sys/dev/block/$majmin/../queue/read_ahead_kb"; fi
  one "read_ahead_kb $1 ($majmin)" "$path" "$2" "$3"
  if [ "$PHASE" = apply ]; then
    # at-least: a block device already above is left alone now and at boot (no rule for it)
    if [ "$3" = at-least ] && [ "$4" != nfs ] && [ "$old" -gt "$2" ] 2>/dev/null; then return 0; fi
    line=$(udev_line "$majmin" "$2" "$4")
    if [ -n "$line" ]; then MOUNT_LINES="$MOUNT_LINES$line
"; fi
  fi
}

# apply_mounts: set the mounts' read-ahead now and write the udev rules that keep it.
apply_mounts() {
  PHASE=apply
  MOUNT_LINES=''
  mounts
  [ -n "$MOUNT_LINES" ] || return 0
  mkdir -p "$(dirname "$MOUNT_RULES")" || die "cannot create $(dirname "$MOUNT_RULES")"
  {
    say '# Written by linux_tuning.sh (SAS Tuning Advisor); rollback.sh removes it.'
    printf '%s' "$MOUNT_LINES" | awk '!seen[$0]++'
  } > "$MOUNT_RULES" || die "cannot write $MOUNT_RULES"
  say "read-ahead of the SAS mounts set now; $MOUNT_RULES keeps it at boot"
}
