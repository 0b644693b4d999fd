#!/bin/sh
# shellcheck shell=sh
# sas-advisor-collect.sh @COLLECTOR_VERSION@: the SAS Tuning Advisor's read-only collector.
#
# Runs read-only listings (uname, lscpu, lsattr, vmo -a, ...) and writes what they print
# to one text bundle for the advisor. It changes nothing: it runs no command that alters
# the system and writes no file but the bundle and, only with --measure, one test file
# that it always removes. It needs no root; as root it adds the listings that need root
# (lvs). Each command runs under a watchdog (--timeout) and the whole run under a time
# budget (--max-seconds). Plain POSIX sh: AIX's sh and ksh, bash, dash and Solaris 11's sh
# run it (on Solaris 10, whose /bin/sh is the old Bourne shell, run it with ksh).
#
#   sh sas-advisor-collect.sh --help
#
# Bundle: '# key: value' header lines, then for each command `@@@ cmd: COMMAND LINE`,
# its output (stdout and stderr), `@@@ end: rc=N`; `@@@ skip: WHAT: WHY` and
# `@@@ note: TEXT` say what was left out and why. An output line that starts with @@@
# gets a leading space, so no command can forge a section.

VERSION='@COLLECTOR_VERSION@'
PROG=sas-advisor-collect.sh
NL='
'
CR=$(printf '\r')
LC_ALL=C
LANG=C
PATH=$PATH:/usr/sbin:/sbin:/usr/bin:/bin
export LC_ALL LANG PATH
umask 077

OUT=./sas-advisor-bundle.txt
FORCE=0
REDACT=0
TIMEOUT=30
MAX_SECONDS=600
MEASURE_DIR=''
MEASURE_MB=1024
MEASURE_MB_SET=0
MEASURE_FILE=''
FILES=''
LONG=0
KEPT=''
OS=''
ROOT=no
START=0

say() { printf '%s\n' "$*"; }
note() { say "@@@ note: $*"; }
skip() { say "@@@ skip: $*"; }
die() {
  say "$PROG: $*" >&2
  exit 1
}

usage() {
  printf '%s\n' \
    "usage: sh $PROG [--out FILE|-] [--force] [--redact] [--sas-config PATH]..." \
    '         [--spds-parm PATH] [--libnames-parm PATH] [--timeout SECONDS]' \
    '         [--max-seconds SECONDS] [--measure DIR [--measure-mb MIB]] [--help] [--version]' \
    '' \
    'Collects read-only facts about this server for the SAS Tuning Advisor and writes' \
    'them to one text file to upload. Changes nothing; needs no root.' \
    '' \
    '  --out FILE          the bundle (default ./sas-advisor-bundle.txt; - for stdout)' \
    '  --force             overwrite FILE if it exists' \
    '  --redact            write redacted-host for the host name and 0.0.0.0 for IPv4 addresses' \
    '  --sas-config PATH   add a sasv9.cfg (repeat for several)' \
    '  --spds-parm PATH    add spdsserv.parm' \
    '  --libnames-parm PATH  add libnames.parm' \
    '  --timeout SECONDS   stop any one command after this long (default 30)' \
    '  --max-seconds N     skip what is left after N seconds in all (default 600)' \
    '  --measure DIR       also time writing and reading back a test file in DIR (removed' \
    '                      afterwards); --measure-mb sets its size (default 1024 MiB)'
}

bad() {
  say "$PROG: $*" >&2
  usage >&2
  exit 2
}

# count NAME VALUE MAX: VALUE as a whole number from 1 to MAX, or a usage error.
count() {
  case $2 in
    '' | *[!0-9]*) bad "$1 needs a whole number of at least 1, not '$2'" ;;
  esac
  if [ "${#2}" -gt 7 ] || [ "$2" -lt 1 ] || [ "$2" -gt "$3" ]; then
    bad "$1 must be from 1 to $3, not $2"
  fi
}

# path NAME VALUE: refuse a path a bundle line could not hold.
path() {
  case $2 in
    '' | *"$NL"* | *"$CR"*) bad "$1 needs a path on one line" ;;
  esac
}

# absolute PATH: PATH from /, so the bundle names the file it read.
absolute() {
  case $1 in
    /*) say "$1" ;;
    *) say "$(pwd)/$1" ;;
  esac
}

option() {
  case $1 in
    --out) path "$1" "$2" && OUT=$2 ;;
    --sas-config | --spds-parm | --libnames-parm)
      path "$1" "$2"
      FILES=$FILES$(absolute "$2")$NL
      ;;
    --timeout) count "$1" "$2" 86400 && TIMEOUT=$2 ;;
    --max-seconds) count "$1" "$2" 604800 && MAX_SECONDS=$2 ;;
    --measure) path "$1" "$2" && MEASURE_DIR=$2 ;;
    --measure-mb) count "$1" "$2" 1048576 && MEASURE_MB=$2 && MEASURE_MB_SET=1 ;;
  esac
}

options() {
  while [ "$#" -gt 0 ]; do
    case $1 in
      --out | --sas-config | --spds-parm | --libnames-parm | --timeout | --max-seconds | \
        --measure | --measure-mb)
        if [ "$#" -lt 2 ]; then bad "$1 needs a value"; fi
        option "$1" "$2"
        shift 2
        ;;
      --out=* | --sas-config=* | --spds-parm=* | --libnames-parm=* | --timeout=* | \
        --max-seconds=* | --measure=* | --measure-mb=*)
        option "${1%%=*}" "${1#*=}"
        shift
        ;;
      --force) FORCE=1 && shift ;;
      --redact) REDACT=1 && shift ;;
      -h | --help) usage && exit 0 ;;
      --version) say "$PROG $VERSION" && exit 0 ;;
      *) bad "unknown option: $1" ;;
    esac
  done
  if [ "$MEASURE_MB_SET" = 1 ] && [ -z "$MEASURE_DIR" ]; then
    bad '--measure-mb needs --measure DIR'
  fi
}

# now: seconds since the epoch (awk's srand where date lacks %s, as on Solaris 10).
now() {
  _now=$(date +%s 2>/dev/null)
  case $_now in
    '' | *[!0-9]*) _now=$(awk 'BEGIN { srand(); print srand() }') ;;
  esac
  say "$_now"
}

# left: seconds of the --max-seconds budget still unspent.
left() {
  _t=$(now)
  case $_t in
    '' | *[!0-9]*) say "$MAX_SECONDS" ;;
    *) say "$((MAX_SECONDS - (_t - START)))" ;;
  esac
}

# quoted WORD: WORD as the shell reads it back (single quotes only where needed).
quoted() {
  case $1 in
    *[!A-Za-z0-9_./:=+,@%-]* | '') printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
    *) printf '%s' "$1" ;;
  esac
}

# words ARG...: a command line of ARGs, each quoted as needed.
words() {
  _line=''
  for _word in "$@"; do _line="$_line${_line:+ }$(quoted "$_word")"; done
  printf '%s' "$_line"
}

# safe NAME: NAME may be passed to a command (a device, volume group or LV name).
safe() {
  case $1 in
    '' | -* | *[!A-Za-z0-9_.-]*) return 1 ;;
  esac
  [ "${#1}" -le 64 ]
}

# shown NAME: NAME printable on one line, whatever it holds.
shown() { printf '%s\n' "$1" | awk '{ gsub(/[^ -~]/, "?"); printf "%s", substr($0, 1, 200) }'; }

escaped() { awk '{ if (substr($0, 1, 3) == "@@@") print " " $0; else print }'; }

# kill_tree PID: end PID and every process it started (a command killed alone would leave
# its children holding the output pipe open).
kill_tree() {
  _pids=$(ps -e -o pid= -o ppid= 2>/dev/null | awk -v root="$1" '
    { kids[$2] = kids[$2] " " $1 }
    END {
      n = 1; q[1] = root
      for (i = 1; i <= n && n < 10000; i++) {
        m = split(kids[q[i]], k, " ")
        for (j = 1; j <= m; j++) q[++n] = k[j]
      }
      for (i = 1; i <= n; i++) print q[i]
    }')
  for _pid in ${_pids:-$1}; do kill -TERM "$_pid" 2>/dev/null; done
  sleep 1
  for _pid in ${_pids:-$1}; do kill -KILL "$_pid" 2>/dev/null; done
}

# watchdog PID SECONDS: kill PID's tree after SECONDS and exit 9. It sleeps a second at a
# time, in the foreground, so that killing it leaves no sleeper behind (a sleeper would
# hold ksh93's pipes open, and the bundle's with them).
watchdog() {
  _ticks=0
  while [ "$_ticks" -lt "$2" ]; do
    sleep 1
    : $((_ticks += 1))
  done
  trap '' TERM
  kill_tree "$1"
  exit 9
}

# guarded SECONDS ARGV...: run ARGV, its stdout and stderr on stdout, killed after SECONDS;
# then "RC TIMEOUT" on fd 3 (TIMEOUT 0 unless the watchdog fired).
guarded() {
  _limit=$1
  shift
  "$@" </dev/null 2>&1 3>&- 4>&- &
  _cmd=$!
  watchdog "$_cmd" "$_limit" </dev/null >/dev/null 2>&1 3>&- 4>&- &
  _dog=$!
  wait "$_cmd" 2>/dev/null
  _rc=$?
  kill "$_dog" 2>/dev/null
  wait "$_dog" 2>/dev/null
  if [ "$?" -eq 9 ]; then _fired=$_limit; else _fired=0; fi
  if [ "$_rc" -gt 256 ]; then # ksh93 reports a death by signal N as 256+N, not 128+N
    printf '\n%s %s\n' "$((_rc - 128))" "$_fired" >&3
  else
    printf '\n%s %s\n' "$_rc" "$_fired" >&3
  fi
}

# opened LABEL PROGRAM: start a section if PROGRAM exists and time is left (sets LIMIT).
opened() {
  if ! command -v "$2" >/dev/null 2>&1; then
    skip "$2: not found"
    return 1
  fi
  _left=$(left)
  if [ "$_left" -le 0 ]; then
    skip "$1: the time budget (--max-seconds $MAX_SECONDS) is used up"
    return 1
  fi
  LIMIT=$TIMEOUT
  if [ "$LONG" = 1 ] || [ "$_left" -lt "$LIMIT" ]; then LIMIT=$_left; fi
  say "@@@ cmd: $1"
}

# streamed ARGV...: run ARGV under the watchdog, its output into the bundle (sets STATUS).
streamed() {
  STATUS=$({ guarded "$LIMIT" "$@" | escaped >&4; } 3>&1)
  STATUS=${STATUS##*"$NL"}
}

# closed LABEL: end the section with the exit status; note a timeout after it.
closed() {
  case $STATUS in
    *[0-9]' '*[0-9]) ;;
    *) STATUS='? 0' ;;
  esac
  say "@@@ end: rc=${STATUS% *}"
  if [ "${STATUS#* }" != 0 ]; then note "$1: timed out after ${STATUS#* } s"; fi
}

# run_as LABEL ARGV...: one section headed LABEL that runs ARGV.
run_as() {
  _label=$1
  shift
  opened "$_label" "$1" || return 1
  streamed "$@"
  closed "$_label"
}

# run ARGV...: one section, headed by ARGV as typed.
run() { run_as "$(words "$@")" "$@"; }

# run_root ARGV...: a section only root may run.
run_root() {
  if command -v "$1" >/dev/null 2>&1 && [ "$ROOT" != yes ]; then
    skip "$1: needs root"
    return 1
  fi
  run "$@"
}

# run_file PATH: `cat PATH` of a system file, skipped when it is not there.
run_file() {
  if [ ! -e "$1" ]; then
    skip "cat $1: not found"
  elif [ ! -r "$1" ]; then
    skip "cat $1: not readable"
  else
    run cat "$1"
  fi
}

# kept ARGV...: like run, and keeps the output in KEPT to read names from.
kept() {
  KEPT=''
  _label=$(words "$@")
  opened "$_label" "$1" || return 1
  _all=$(guarded "$LIMIT" "$@" 3>&1)
  STATUS=${_all##*"$NL"}
  KEPT=$(printf '%s' "${_all%"$NL"*}")
  if [ -n "$KEPT" ]; then say "$KEPT" | escaped; fi
  closed "$_label"
}

# each WHAT NAME: NAME if safe to pass to a command, else a skip line for each of WHAT
# (the command lines it would have headed) and failure.
each() {
  if safe "$2"; then return 0; fi
  _bad=$(shown "$2")
  _old=$IFS
  IFS=,
  for _what in $1; do skip "$_what $_bad: unsafe name"; done
  IFS=$_old
  return 1
}

header() {
  _measure=none
  if [ -n "$MEASURE_DIR" ]; then _measure="$(quoted "$MEASURE_DIR") measure-mb=$MEASURE_MB"; fi
  _redact=no
  if [ "$REDACT" = 1 ]; then _redact=yes; fi
  say '# sas-tuning-advisor bundle 1'
  say "# collector: $VERSION"
  say "# started: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  say "# options: redact=$_redact measure=$_measure timeout=$TIMEOUT max-seconds=$MAX_SECONDS"
  say "# root: $ROOT"
}

linux() {
  run_file /etc/os-release
  run nproc
  run lscpu
  run_file /proc/meminfo
  if command -v findmnt >/dev/null 2>&1; then
    run findmnt -P -b -o TARGET,SOURCE,FSTYPE,OPTIONS,SIZE
  else
    skip 'findmnt: not found'
    run_file /proc/mounts
  fi
  run df -kP
  run lsblk -P -b -o NAME,KNAME,PKNAME,TYPE,SIZE,ROTA,MOUNTPOINT,FSTYPE,MODEL
  set +f
  run_as 'grep -H . /sys/block/*/queue/max_sectors_kb /sys/block/*/queue/max_hw_sectors_kb /sys/block/*/queue/read_ahead_kb /sys/block/*/queue/scheduler /sys/block/*/queue/rotational' \
    grep -H . /sys/block/*/queue/max_sectors_kb /sys/block/*/queue/max_hw_sectors_kb \
    /sys/block/*/queue/read_ahead_kb /sys/block/*/queue/scheduler /sys/block/*/queue/rotational
  set -f
  run sysctl -a
  run_file /sys/kernel/mm/transparent_hugepage/enabled
  run_file /sys/kernel/mm/transparent_hugepage/defrag
  run tuned-adm active
  run_root lvs --noheadings --units k -o lv_name,vg_name,lv_path,stripes,stripe_size,devices
  run_file /proc/mdstat
}

aix() {
  run oslevel -s
  run prtconf
  run lparstat -i
  run smtctl
  run lsattr -El sys0 -a realmem
  run lsdev -Cc processor
  run mount
  run df -k
  aix_volume_groups
  aix_disks
  aix_adapters
  run ioo -a
  run vmo -a
  run vmstat -v
}

# Each volume group lsvg lists; the jfs2/jfs logical volumes of each.
aix_volume_groups() {
  kept lsvg || return 0
  _vgs=$(say "$KEPT" | awk 'NF == 1 { print $1 }')
  for _vg in $_vgs; do
    each 'lsvg,lsvg -l,lsvg -p' "$_vg" || continue
    run lsvg "$_vg"
    kept lsvg -l "$_vg"
    _lvs=$(say "$KEPT" | awk 'NF >= 6 && ($2 == "jfs2" || $2 == "jfs") { print $1 }')
    run lsvg -p "$_vg"
    for _lv in $_lvs; do
      each 'lslv,lslv -l' "$_lv" || continue
      run lslv "$_lv"
      run lslv -l "$_lv"
    done
  done
}

# Each disk lspv lists, with its attributes and paths.
aix_disks() {
  kept lspv
  _disks=$(say "$KEPT" | awk 'NF >= 3 && $1 !~ /^[0-9]+-[0-9]+$/ { print $1 }')
  run lsdev -Cc disk
  for _disk in $_disks; do
    each 'lsattr -El,lspath -l' "$_disk" || continue
    run lsattr -El "$_disk"
    run lspath -l "$_disk"
  done
}

# Each Fibre Channel adapter, with its attributes.
aix_adapters() {
  kept lsdev -Cc adapter
  _adapters=$(say "$KEPT" | awk '$1 ~ /^fcs/ { print $1 }')
  for _adapter in $_adapters; do
    each 'lsattr -El' "$_adapter" || continue
    run lsattr -El "$_adapter"
  done
}

solaris() {
  run psrinfo -pv
  run prtconf
  run mount
  run df -k
}

# The files named by --sas-config, --spds-parm and --libnames-parm.
given_files() {
  _old=$IFS
  IFS=$NL
  for _file in $FILES; do
    IFS=$_old
    if [ ! -f "$_file" ] || [ ! -r "$_file" ]; then
      skip "cat $(quoted "$_file"): not a readable regular file"
    elif [ -n "$(find "$_file" -prune -size +10485760c 2>/dev/null)" ]; then
      skip "cat $(quoted "$_file"): larger than 10 MiB"
    else
      run cat "$_file"
    fi
  done
  IFS=$_old
}

# free_kb DIR: the KiB free for unprivileged users on DIR's file system.
free_kb() {
  { df -kP "$1" 2>/dev/null || df -k "$1" 2>/dev/null; } | awk '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(Avail|Available|avail|Free)$/) col = i; next }
    col && NF >= col { v = $col }
    END { if (v ~ /^[0-9]+$/) print v }'
}

# measure_plan: check --measure DIR before anything is written, and say what will happen.
measure_plan() {
  [ -d "$MEASURE_DIR" ] || die "--measure: $MEASURE_DIR is not a directory"
  [ -w "$MEASURE_DIR" ] || die "--measure: $MEASURE_DIR is not writable"
  MEASURE_DIR=$(cd "$MEASURE_DIR" && pwd) || die "--measure: cannot enter $MEASURE_DIR"
  MEASURE_FILE=$MEASURE_DIR/.sas-advisor-measure.$$
  _free=$(free_kb "$MEASURE_DIR")
  [ -n "$_free" ] || die "--measure: df does not say how much space $MEASURE_DIR has"
  # A tenth more than the file, so the test never fills the file system.
  if ! awk -v f="$_free" -v n="$MEASURE_MB" 'BEGIN { exit !(f >= n * 1024 * 1.1) }'; then
    die "--measure: $MEASURE_DIR has $((_free / 1024)) MiB free; the test needs $MEASURE_MB MiB and a tenth more"
  fi
  # Writing and reading back at 100 MB/s: 2 * 1.048576 / 100 s per MiB.
  MEASURE_PLAN="writes $MEASURE_MB MiB to $MEASURE_FILE, reads it back and removes it; about $(((MEASURE_MB * 21 + 999) / 1000)) s at 100 MB/s"
  say "$PROG: --measure $MEASURE_PLAN" >&2
}

measure_cleanup() {
  if [ -n "$MEASURE_FILE" ]; then rm -f "$MEASURE_FILE"; fi
}

# timed DD-ARG...: one dd section, timed by time -p, by GNU dd's own report, or by the
# clock in whole seconds (the last added as a line of the collector's own).
timed() {
  if [ -x /usr/bin/time ]; then
    set -- /usr/bin/time -p dd "$@"
    _clock=0
  elif dd --version </dev/null 2>/dev/null | grep GNU >/dev/null; then
    set -- dd "$@"
    _clock=0
  else
    set -- dd "$@"
    _clock=1
  fi
  _label=$(words "$@")
  LONG=1
  opened "$_label" dd || {
    LONG=0
    return 1
  }
  LONG=0
  _t0=$(now)
  streamed "$@"
  if [ "$_clock" = 1 ]; then say "$PROG: elapsed $(($(now) - _t0)) s by the clock"; fi
  closed "$_label"
  [ "${STATUS%% *}" = 0 ]
}

# measure: write MEASURE_FILE with dd, read it back, remove it. The read may be served
# partly from the page cache when the file is smaller than memory.
measure() {
  note "measure: $MEASURE_PLAN"
  if ! (set -C && : >"$MEASURE_FILE") 2>/dev/null; then
    skip "measure: cannot create $MEASURE_FILE"
    return 0
  fi
  _sync=''
  if [ "$OS" = Linux ]; then _sync=conv=fdatasync; fi
  # shellcheck disable=SC2086  # _sync is one word or none
  if timed if=/dev/zero "of=$MEASURE_FILE" bs=1048576 "count=$MEASURE_MB" $_sync; then
    timed "if=$MEASURE_FILE" of=/dev/null bs=1048576
  else
    skip 'measure: read-back: the write did not finish'
  fi
  measure_cleanup
  if [ -e "$MEASURE_FILE" ]; then note "measure: could not remove $MEASURE_FILE"; fi
}

collect() {
  exec 4>&1
  set -f
  header
  run uname -a
  run hostname
  case $OS in
    Linux) linux ;;
    AIX) aix ;;
    SunOS) solaris ;;
    *) note "no listings for this system ($(shown "$OS")) beyond uname and hostname" ;;
  esac
  given_files
  if [ -n "$MEASURE_DIR" ]; then measure; fi
  if [ "$(left)" -le 0 ]; then
    note "the time budget (--max-seconds $MAX_SECONDS) ran out; later sections were skipped"
  fi
  note "finished in $(($(now) - START)) s"
}

# The host's names (as hostname and uname -n give them, and their first labels), longest
# first so a full name is replaced before its first label.
host_names() {
  { hostname; uname -n; } 2>/dev/null | awk '
    { n = tolower($1); if (n ~ /^[a-z0-9._-]+$/) { seen[n] = 1; sub(/[.].*/, "", n); if (n != "") seen[n] = 1 } }
    END { for (n in seen) print length(n), n }' | sort -rn | awk '{ printf "%s ", $2 }'
}

# shellcheck disable=SC2016  # an awk program: its $ are awk's
REDACT_AWK='
function word(c) { return c ~ /[A-Za-z0-9_-]/ }
function hostless(s, h,   out, low, p, size, before) {
  out = ""; low = tolower(s); size = length(h)
  while ((p = index(low, h)) > 0) {
    before = p > 1 ? substr(s, p - 1, 1) : ""
    if (!word(before) && !word(substr(s, p + size, 1))) out = out substr(s, 1, p - 1) "redacted-host"
    else out = out substr(s, 1, p + size - 1)
    s = substr(s, p + size); low = substr(low, p + size)
  }
  return out s
}
function ipless(s,   out, m, ok, octet, i) {
  out = ""
  while (match(s, /[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+/)) {
    m = substr(s, RSTART, RLENGTH)
    ok = (RSTART == 1 || substr(s, RSTART - 1, 1) !~ /[0-9.]/) && substr(s, RSTART + RLENGTH, 2) !~ /^[.][0-9]/
    split(m, octet, ".")
    for (i = 1; i <= 4; i++) if (length(octet[i]) > 3) ok = 0
    out = out substr(s, 1, RSTART - 1) (ok ? "0.0.0.0" : m)
    s = substr(s, RSTART + RLENGTH)
  }
  return out s
}
function clean(s,   i) { for (i = 1; i <= n; i++) s = hostless(s, host[i]); return ipless(s) }
BEGIN {
  n = split(ENVIRON["SAS_ADVISOR_HOSTS"], host, " ")
  head = 1
}
/^@@@ / { head = 0 }
/^@@@ / || (head && /^# /) { p = index($0, ": "); if (p) { print substr($0, 1, p + 1) clean(substr($0, p + 2)); next } }
{ print clean($0) }'

# filtered: the bundle as written; with --redact, host names and IPv4 addresses replaced.
filtered() {
  if [ "$REDACT" = 1 ]; then
    SAS_ADVISOR_HOSTS=$(host_names) awk "$REDACT_AWK"
  else
    cat
  fi
}

main() {
  options "$@"
  if [ -n "$MEASURE_DIR" ]; then measure_plan; fi
  if [ "$OUT" != - ]; then
    if [ -d "$OUT" ]; then die "$OUT is a directory"; fi
    if [ "$FORCE" != 1 ] && { [ -e "$OUT" ] || [ -h "$OUT" ]; }; then
      die "$OUT exists; use --force to overwrite it or --out to name another file"
    fi
    if [ "$FORCE" != 1 ]; then
      (set -C && : >"$OUT") 2>/dev/null || die "cannot create $OUT"
    fi
  fi
  OS=$(uname -s 2>/dev/null)
  _uid=$(id -u 2>/dev/null) || _uid=$(id | sed 's/^uid=\([0-9]*\).*/\1/')
  if [ "$_uid" = 0 ]; then ROOT=yes; fi
  START=$(now)
  trap 'measure_cleanup' EXIT
  trap 'measure_cleanup; exit 129' HUP
  trap 'measure_cleanup; exit 130' INT
  trap 'measure_cleanup; exit 143' TERM
  if [ "$OUT" = - ]; then
    collect | filtered
  else
    collect | filtered >"$OUT" || die "cannot write $OUT"
    say "$PROG: wrote $OUT" >&2
  fi
}

main "$@"
