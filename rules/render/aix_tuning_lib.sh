# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154  # IOO_LIST, VMO_LIST are set and BACKUP_ROOT read by the generated part
# The fixed functions of aix_tuning.sh; the renderer writes the rest around them.
BACKUP_ROOT=${AIX_TUNING_BACKUP_ROOT:-/var/adm/sas-tuning}
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
}
