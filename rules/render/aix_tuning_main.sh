# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154  # EXPECTED_RELEASE is set above this part; PHASE is read by tune()
# The end of aix_tuning.sh: options, refusal (OS, release, root), capture, check, plan,
# backup, apply.
for arg in "$@"; do
  case $arg in
    -n) DRY_RUN=1 ;;
    --with-dio-mounts) WITH_DIO_MOUNTS=1 ;;
    --with-spds-dirs) WITH_SPDS_DIRS=1 ;;
    *) usage ;;
  esac
done
say "aix_tuning.sh: dry run $DRY_RUN, --with-dio-mounts $WITH_DIO_MOUNTS, --with-spds-dirs $WITH_SPDS_DIRS"

os=$(uname -s)
if [ "$os" != AIX ]; then die "refusing to run: this script is for AIX, not $os"; fi
level=$(oslevel) || die 'refusing to run: oslevel failed'
case $level in
  "$EXPECTED_RELEASE" | "$EXPECTED_RELEASE".*) ;;
  *) die "refusing to run: written for AIX $EXPECTED_RELEASE, this is AIX $level" ;;
esac
# ioo -p and vmo -p change tunables only as root: refuse before reading or saving anything,
# rather than fail at the first change. A dry run changes and writes nothing.
uid=$(id -u) || die 'refusing to run: id -u failed'
if [ "$uid" != 0 ] && [ "$DRY_RUN" != 1 ]; then
  die "refusing to run as user id $uid: ioo and vmo change tunables only as root; run it as root, or with -n for a dry run"
fi

capture
# Every change is checked before the first one: its value against `ioo/vmo -L`, and the
# orders between tunables at each step. A refusal leaves nothing half-applied.
changes
if [ -n "$PROBLEMS" ]; then
  printf '%s\n' "$PROBLEMS" | sed -e '/^$/d' -e 's/^/refused: /' >&2
  die 'nothing was changed: a change above would be refused or break an order between tunables'
fi
PHASE=plan
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
fi
