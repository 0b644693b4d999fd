# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154  # IOO_LIST, VMO_LIST are set and BACKUP_ROOT read by the generated part
# The fixed functions of aix_tuning.sh; the renderer writes the rest around them.
BACKUP_ROOT=${AIX_TUNING_BACKUP_ROOT:-/var/adm/sas-tuning}
BACKUP_DIR=''
DRY_RUN=0
WITH_DIO_MOUNTS=0
WITH_SPDS_DIRS=0
PHASE=check
ROLLBACK=''
IOO_LIST=''
VMO_LIST=''
PLANNED=''
PROBLEMS=''

say() { printf '%s\n' "$*"; }
die() { printf 'aix_tuning.sh: %s\n' "$*" >&2; exit 1; }
usage() {
  say 'usage: aix_tuning.sh [-n] [--with-dio-mounts] [--with-spds-dirs]' >&2
  exit 2
}

# now CMD NAME: the tunable's value in the plain listing read before any change.
now() {
  if [ "$1" = ioo ]; then listing=$IOO_LIST; else listing=$VMO_LIST; fi
  printf '%s\n' "$listing" | awk -v n="$2" '$1 == n && $2 == "=" { print $3; exit }'
}

# undo LINE: the plan phase puts LINE first in rollback.sh, so undos run in reverse order.
undo() { ROLLBACK=$(printf '%s\n%s' "$1" "$ROLLBACK"); }

# problem TEXT: the check phase found a change that would be refused or break an order.
problem() { PROBLEMS=$(printf '%s\n%s' "$PROBLEMS" "$1"); }

# planned CMD NAME: NAME's value at this point of the plan: the last value planned for it,
# else the value read before any change.
planned() {
  found=$(printf '%s\n' "$PLANNED" | awk -v c="$1" -v n="$2" '$1 == c && $2 == n { v = $3 } END { print v }')
  if [ -z "$found" ]; then found=$(now "$1" "$2"); fi
  printf '%s\n' "$found"
}

# outside CMD NAME VALUE: why VALUE is outside the range `CMD -L NAME` gives (MIN and MAX,
# K M G T suffixes read as powers of 1024; a name too long for its column puts its values
# on the next line, and a name alone on a line is otherwise another tunable's dependency);
# '?' when no range can be read; nothing when VALUE is inside it.
outside() {
  "$1" -L "$2" 2>/dev/null | awk -v n="$2" -v v="$3" '
    function num(s,   m, u) {
      m = 1
      u = substr(s, length(s), 1)
      if (u == "K") m = 1024
      else if (u == "M") m = 1048576
      else if (u == "G") m = 1073741824
      else if (u == "T") m = 1099511627776
      if (m > 1) s = substr(s, 1, length(s) - 1)
      if (s !~ /^[0-9]+$/) return -1
      return s * m
    }
    wrapped == 1 && NF >= 5 && $1 ~ /^([0-9]|n\/a)/ { lo = $4; hi = $5; got = 1 }
    { wrapped = 0 }
    got != 1 && $1 == n { if (NF == 1) wrapped = 1; else if (NF >= 6) { lo = $5; hi = $6; got = 1 } }
    END {
      if (got != 1 || num(lo) < 0 || num(hi) < 0 || v !~ /^[0-9]+$/) { print "?"; exit }
      if (v + 0 < num(lo) || v + 0 > num(hi)) print "is outside the range " lo ".." hi " that -L gives"
    }'
}

# keeps CMD A OP CMD B: in the check phase, with the values planned so far, A OP B must
# hold (le: at most, lt: below); the order is one IBM documents between the two tunables.
keeps() {
  if [ "$PHASE" != check ]; then return 0; fi
  a=$(planned "$1" "$2")
  b=$(planned "$4" "$5")
  case $a in '' | *[!0-9]*) say "note: $1 $2 cannot be read; $1 will judge it against $5"; return 0 ;; esac
  case $b in '' | *[!0-9]*) say "note: $4 $5 cannot be read; $4 will judge it against $2"; return 0 ;; esac
  if [ "$3" = lt ] && [ "$a" -lt "$b" ]; then return 0; fi
  if [ "$3" = le ] && [ "$a" -le "$b" ]; then return 0; fi
  if [ "$3" = lt ]; then must=below; else must='at most'; fi
  problem "$2 would be $a and $5 $b: $2 must stay $must $5 (change $5 first, or leave both)"
}

# tune CMD NAME VALUE: the check phase checks VALUE against `CMD -L` and records it as
# planned; the plan phase records the undo; the apply phase changes.
# The listing is read without -F, so a restricted tunable (not for end users) has no value
# here and is never changed; nor is any value that cannot be read back, since it could not
# be restored.
tune() {
  old=$(now "$1" "$2")
  case $old in
    '' | n/a | *[!A-Za-z0-9_.:-]*)
      if [ "$PHASE" = apply ]; then
        say "skip: $1 $2 is not in the plain $1 -a listing (restricted or unknown here); left alone"
      fi
      return 0 ;;
  esac
  if [ "$old" = "$3" ]; then
    if [ "$PHASE" = apply ]; then say "ok: $1 $2 is already $3"; fi
    return 0
  fi
  if [ "$PHASE" = check ]; then
    why=$(outside "$1" "$2" "$3")
    case $why in
      '?') say "note: $1 -L $2 gives no range; $1 will judge $2=$3" ;;
      ?*) problem "$1 $2=$3 $why" ;;
    esac
    PLANNED=$(printf '%s\n%s %s %s' "$PLANNED" "$1" "$2" "$3")
    return 0
  fi
  act "restore $1 -p -o '$2=$old'" "change: $1 $2 from $old to $3" "$1" -p -o "$2=$3"
}

# act UNDO SAID ARGV...: the check phase does nothing; the plan phase records UNDO; a dry
# run says it would do SAID; the apply phase says SAID and runs ARGV, stopping at the first
# failure.
act() {
  undo_line=$1
  said=$2
  shift 2
  if [ "$PHASE" = check ]; then
    return 0
  elif [ "$PHASE" = plan ]; then
    undo "$undo_line"
  elif [ "$DRY_RUN" = 1 ]; then
    say "would $said"
  else
    say "$said"
    "$@" || failed "$*"
  fi
}

failed() {
  say "aix_tuning.sh: $1 failed; stopping." >&2
  if [ -n "$BACKUP_DIR" ]; then
    say "To undo the changes made so far: sh $BACKUP_DIR/rollback.sh" >&2
  fi
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

# check_disks EXPECT LV ATTR...: lsattr each attribute of every disk `lslv -l LV` lists.
check_disks() {
  if [ "$PHASE" != apply ]; then return 0; fi
  expect=$1
  lv=$2
  shift 2
  say "check: the disks of $lv (lslv -l $lv)"
  disks=$(lslv -l "$lv" 2>/dev/null | awk 'NR > 2 && $1 ~ /^[A-Za-z0-9_.]+$/ { print $1 }')
  if [ -z "$disks" ]; then say "  (lslv -l $lv listed no disks)"; fi
  for disk in $disks; do
    say "  $disk:"
    for attr in "$@"; do
      lsattr -El "$disk" -a "$attr" 2>&1 || say "  (lsattr -El $disk -a $attr failed)"
    done
  done
  say "  expect: $expect"
}

# plain PATH: refuse anything but an absolute path of plain characters.
plain() {
  case $1 in
    /*) ;;
    *) die "refusing a relative path: $1" ;;
  esac
  case $1 in
    *[!A-Za-z0-9_./:=%-]*) die "refusing a path with special characters: $1" ;;
  esac
}

# mounted PATH: PATH is the mount point of a mounted file system (mount lists the local
# ones as device, mount point; remote ones with the node first).
mounted() {
  mount | awk -v p="$1" '$2 == p || $3 == p { found = 1 } END { exit !found }'
}

# make_dir DIR: create DIR directly on a mounted file system (its parent is a mount point)
# and record its removal; a directory that already exists is left as it is.
make_dir() {
  plain "$1"
  if [ -d "$1" ]; then
    if [ "$PHASE" = apply ]; then say "ok: $1 exists"; fi
    return 0
  fi
  parent=$(dirname "$1")
  if ! mounted "$parent"; then
    if [ "$PHASE" = apply ]; then say "skip: $parent is not a mounted file system; $1 not created"; fi
    return 0
  fi
  act "restore rmdir '$1'" "create: $1 (mode 755, owned by root)" mkdir -m 755 "$1"
}

# dio_mount FS POINT: mount FS a second time at POINT with -o dio (bartucca2005).
dio_mount() {
  plain "$1"
  plain "$2"
  if mounted "$2"; then
    if [ "$PHASE" = apply ]; then say "ok: $2 is already mounted"; fi
    return 0
  fi
  if ! mounted "$1"; then
    if [ "$PHASE" = apply ]; then say "skip: $1 is not a mounted file system; $2 not mounted"; fi
    return 0
  fi
  make_dir "$2"
  act "restore umount '$2'" "mount: mount -o dio $1 $2" mount -o dio "$1" "$2"
}

# offer OPTION TEXT: name an opt-in step that this run leaves out.
offer() {
  if [ "$PHASE" = apply ]; then say "optional, not run (add $1): $2"; fi
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
# Undoes what aix_tuning.sh changed, newest first: ioo/vmo values saved before the change,
# the dio mounts it made and the directories it created (never ones that existed).
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
}
