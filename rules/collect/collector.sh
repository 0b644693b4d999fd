#!/bin/sh
# shellcheck shell=sh
# sas-advisor-collect.sh @COLLECTOR_VERSION@: the SAS Tuning Advisor's read-only collector.
#
# Runs read-only listings (uname, lscpu, lsattr, vmo -a, ...) and writes what they print
# to one text bundle for the advisor. It changes nothing: it runs no command that alters
# the system and writes no file but the bundle and, only with --measure, the test files in
# a directory of its own that it always removes. It needs no root; as root it adds the listings that need root
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
MEASURE_DIRS=''
MEASURE_MB=''
MEASURE_TOOL=''
STREAMS=''
BLOCK_KB=64
QUICK=0
DIRECT=0
QUICK_MB=256
QUICK_SECONDS=120
MEASURE_TMP=''
MEASURE_PID=''
MEASURE_DOG=''
MEASURE_OPTION=''
FIRED=0
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
    '         [--max-seconds SECONDS] [--measure DIR]... [--streams N] [--block-kb KB]' \
    '         [--measure-mb MIB] [--quick] [--direct] [--measure-tool dd|fio] [--help] [--version]' \
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
    '  --measure DIR       also measure the file system holding DIR (repeat for several), as' \
    '                      SAS'"'"'s rhel_iotest.sh does: one stream a physical core writes 64 KB' \
    '                      blocks with a flush at the end, then reads them back; the files,' \
    '                      together as large as the RAM, go in a new directory in DIR that' \
    '                      is removed on any exit. It says what it will write and how long' \
    '                      it may take first, and uses fio where installed' \
    '  --streams N         streams (default: the physical cores)' \
    '  --block-kb KB       block size (default 64)' \
    '  --measure-mb MIB    each stream'"'"'s file (default: the RAM over the streams)' \
    '  --quick             at most 256 MiB a stream and 120 s: the read figure may include cache' \
    '  --direct            direct I/O where dd offers it (GNU dd), 1 GiB a stream by default' \
    '  --measure-tool T    dd or fio (default: fio where installed, else dd)'
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
    --measure) path "$1" "$2" && MEASURE_DIRS=$MEASURE_DIRS$2$NL ;;
    --measure-mb) count "$1" "$2" 1048576 && MEASURE_MB=$2 && MEASURE_OPTION=$1 ;;
    --streams) count "$1" "$2" 1024 && STREAMS=$2 && MEASURE_OPTION=$1 ;;
    --block-kb) count "$1" "$2" 65536 && BLOCK_KB=$2 && MEASURE_OPTION=$1 ;;
    --measure-tool)
      case $2 in
        dd | fio) MEASURE_TOOL=$2 && MEASURE_OPTION=$1 ;;
        *) bad "--measure-tool is dd or fio, not '$(shown "$2")'" ;;
      esac
      ;;
  esac
}

options() {
  while [ "$#" -gt 0 ]; do
    case $1 in
      --out | --sas-config | --spds-parm | --libnames-parm | --timeout | --max-seconds | \
        --measure | --measure-mb | --streams | --block-kb | --measure-tool)
        if [ "$#" -lt 2 ]; then bad "$1 needs a value"; fi
        option "$1" "$2"
        shift 2
        ;;
      --out=* | --sas-config=* | --spds-parm=* | --libnames-parm=* | --timeout=* | \
        --max-seconds=* | --measure=* | --measure-mb=* | --streams=* | --block-kb=* | \
        --measure-tool=*)
        option "${1%%=*}" "${1#*=}"
        shift
        ;;
      --force) FORCE=1 && shift ;;
      --redact) REDACT=1 && shift ;;
      --quick) QUICK=1 && MEASURE_OPTION=$1 && shift ;;
      --direct) DIRECT=1 && MEASURE_OPTION=$1 && shift ;;
      -h | --help) usage && exit 0 ;;
      --version) say "$PROG $VERSION" && exit 0 ;;
      *) bad "unknown option: $1" ;;
    esac
  done
  if [ -n "$MEASURE_OPTION" ] && [ -z "$MEASURE_DIRS" ]; then
    bad "$MEASURE_OPTION needs --measure DIR"
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
  if [ -n "$MEASURE_DIRS" ]; then
    _measure="$(printf '%s' "$MEASURE_DIRS" | awk '{ printf "%s%s", (NR > 1 ? "," : ""), $0 }') tool=$MEASURE_TOOL streams=$STREAMS block-kb=$BLOCK_KB stream-bytes=$STREAM_BYTES quick=$(yes_no "$QUICK") direct=$(yes_no "$DIRECT")"
  fi
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

# --measure: per named file system, one stream a physical core, each writing a file of
# 64 KB blocks (flushed to disk at the end) and then reading it back, as SAS's
# rhel_iotest.sh and iotest.sh do; the files together at least as large as the RAM, so
# that the page cache cannot serve the reads (unless --quick or --direct says otherwise).
# Everything it writes is in a directory it makes there and removes on any exit.

# physical_cores: the physical cores this system shows (lscpu or /proc/cpuinfo on Linux,
# the processors lsdev lists on AIX, kstat's core_id on Solaris), else the online CPUs.
physical_cores() {
  _n=''
  case $OS in
    Linux)
      _n=$(lscpu -p=socket,core 2>/dev/null | awk -F, '!/^#/ && !seen[$0]++ { n++ } END { if (n) print n }')
      if [ -z "$_n" ]; then
        _n=$(awk -F: '/^physical id/ { p = $2 } /^core id/ && !seen[p ":" $2]++ { n++ } END { if (n) print n }' /proc/cpuinfo 2>/dev/null)
      fi
      if [ -z "$_n" ]; then _n=$(nproc 2>/dev/null); fi
      ;;
    AIX) _n=$(lsdev -Cc processor 2>/dev/null | awk '/Available/ { n++ } END { if (n) print n }') ;;
    SunOS) _n=$(kstat -p cpu_info:::core_id 2>/dev/null | awk '!seen[$2]++ { n++ } END { if (n) print n }') ;;
  esac
  case $_n in
    '' | *[!0-9]* | 0) _n=1 ;;
  esac
  say "$_n"
}

# ram_mib: the RAM in MiB (/proc/meminfo, lsattr realmem, prtconf), or nothing.
ram_mib() {
  case $OS in
    Linux) awk '$1 == "MemTotal:" { print int($2 / 1024) }' /proc/meminfo 2>/dev/null ;;
    AIX) lsattr -El sys0 -a realmem 2>/dev/null | awk '$1 == "realmem" { print int($2 / 1024) }' ;;
    SunOS) prtconf 2>/dev/null | awk '/^Memory size:/ { v = $3; if ($4 ~ /^G/) v *= 1024; print v }' ;;
  esac
}

yes_no() { if [ "$1" = 1 ]; then say yes; else say no; fi; }

# measure_sizes: the streams, each stream's bytes and the time bound (before any check).
measure_sizes() {
  DD_GNU=0
  if dd --version </dev/null 2>/dev/null | grep GNU >/dev/null; then DD_GNU=1; fi
  case $MEASURE_TOOL in
    '') if command -v fio >/dev/null 2>&1; then MEASURE_TOOL='fio'; else MEASURE_TOOL='dd'; fi ;;
    fio) command -v fio >/dev/null 2>&1 || die '--measure-tool fio: fio is not installed' ;;
  esac
  if [ "$DIRECT" = 1 ] && [ "$MEASURE_TOOL" = dd ] && [ "$DD_GNU" != 1 ]; then
    say "$PROG: --direct: this dd has no oflag=direct; the files are sized to the RAM instead" >&2
    DIRECT=0
  fi
  if [ -z "$STREAMS" ]; then STREAMS=$(physical_cores); fi
  RAM_MIB=$(ram_mib)
  if [ -n "$MEASURE_MB" ]; then
    _mib=$MEASURE_MB
  elif [ "$DIRECT" = 1 ]; then
    _mib=1024
  elif [ -n "$RAM_MIB" ]; then
    : $((_mib = (RAM_MIB + STREAMS - 1) / STREAMS))
  else
    die '--measure: cannot tell how much RAM this server has; give --measure-mb (MiB a stream)'
  fi
  if [ "$QUICK" = 1 ] && [ "$_mib" -gt "$QUICK_MB" ]; then _mib=$QUICK_MB; fi
  : $((BLOCKS = _mib * 1024 / BLOCK_KB))
  if [ "$BLOCKS" -lt 1 ]; then BLOCKS=1; fi
  : $((STREAM_BYTES = BLOCKS * BLOCK_KB * 1024))
  # Written and read back at SAS's 100 MB/s a stream (the streams run side by side).
  : $((MEASURE_SECONDS = (2 * STREAM_BYTES / 1000000 + 99) / 100))
  : $((MEASURE_LIMIT = MEASURE_SECONDS * 10 + 60))
  if [ "$QUICK" = 1 ]; then MEASURE_LIMIT=$QUICK_SECONDS; fi
}

# measure_plan: check each --measure DIR before anything is written, and say what will
# be written there and for about how long.
measure_plan() {
  measure_sizes
  _dirs=''
  _old=$IFS
  IFS=$NL
  for _dir in $MEASURE_DIRS; do
    IFS=$_old
    [ -d "$_dir" ] || die "--measure: $_dir is not a directory"
    [ -w "$_dir" ] || die "--measure: $_dir is not writable"
    _dir=$(cd "$_dir" && pwd) || die "--measure: cannot enter $_dir"
    _free=$(free_kb "$_dir")
    [ -n "$_free" ] || die "--measure: df does not say how much space $_dir has"
    : $((_mib = STREAMS * STREAM_BYTES / 1048576))
    # A tenth more than the files, so the test never fills the file system.
    if ! awk -v f="$_free" -v n="$_mib" 'BEGIN { exit !(f >= n * 1024 * 1.1) }'; then
      die "--measure: $_dir has $((_free / 1024)) MiB free; the test needs $_mib MiB and a tenth more; nothing was collected: measure another directory, or use --direct (1 GiB a stream), --measure-mb MIB or --quick (the read may then be the page cache's)"
    fi
    say "$PROG: --measure $_dir: $(measure_words) writes $_mib MiB in a new directory there, reads it back and removes it; about $MEASURE_SECONDS s at 100 MB/s a stream$(measure_caveat)" >&2
    _dirs=$_dirs$_dir$NL
  done
  IFS=$_old
  MEASURE_DIRS=$_dirs
}

measure_words() {
  _flush='conv=fsync'
  if [ "$MEASURE_TOOL" = fio ]; then _flush='end_fsync=1'; elif [ "$DD_GNU" != 1 ]; then _flush=sync; fi
  if [ "$DIRECT" = 1 ]; then _flush="direct I/O, $_flush"; fi
  printf '%s' "$STREAMS streams of $((STREAM_BYTES / 1048576)) MiB in $BLOCK_KB KB blocks by $MEASURE_TOOL ($_flush)"
}

# measure_caveat: why the read figure may come from the page cache, if it may.
measure_caveat() {
  if [ "$DIRECT" = 1 ] || [ "$MEASURE_TOOL" = fio ]; then return 0; fi
  : $((_mib = STREAMS * STREAM_BYTES / 1048576))
  if [ -z "$RAM_MIB" ] || [ "$_mib" -lt "$RAM_MIB" ]; then
    printf '%s' "; the files are smaller than the RAM (${RAM_MIB:-unknown} MiB), so the read figure may include cache"
  fi
}

# make_tmp DIR: a new directory of the collector's own in DIR (mktemp -d, else mkdir).
make_tmp() {
  _made=''
  if command -v mktemp >/dev/null 2>&1; then
    _made=$(mktemp -d "$1/.sas-advisor-measure.XXXXXX" 2>/dev/null)
  fi
  if [ -z "$_made" ]; then
    _made=$1/.sas-advisor-measure.$$
    mkdir "$_made" 2>/dev/null || return 1
  fi
  say "$_made"
}

# measure_cleanup: end a running test and remove every file in the directory it made.
measure_cleanup() {
  if [ -n "$MEASURE_DOG" ]; then kill "$MEASURE_DOG" 2>/dev/null; fi
  MEASURE_DOG=''
  if [ -n "$MEASURE_PID" ]; then kill_tree "$MEASURE_PID"; fi
  MEASURE_PID=''
  if [ -n "$MEASURE_TMP" ] && [ -d "$MEASURE_TMP" ]; then
    set +f
    for _file in "$MEASURE_TMP"/* "$MEASURE_TMP"/.[!.]*; do
      if [ -f "$_file" ] || [ -h "$_file" ]; then rm -f "$_file"; fi
    done
    rmdir "$MEASURE_TMP" 2>/dev/null || say "$PROG: could not remove $MEASURE_TMP" >&2
  fi
  MEASURE_TMP=''
}

# backgrounded ARGV...: run ARGV in the background under the watchdog and wait for it, so
# that a signal ends the wait at once (the trap then ends ARGV and removes its files).
backgrounded() {
  "$@" </dev/null 3>&- 4>&- &
  MEASURE_PID=$!
  watchdog "$MEASURE_PID" "$MEASURE_LIMIT" </dev/null >/dev/null 2>&1 3>&- 4>&- &
  MEASURE_DOG=$!
  wait "$MEASURE_PID"
  _rc=$?
  MEASURE_PID=''
  kill "$MEASURE_DOG" 2>/dev/null
  wait "$MEASURE_DOG" 2>/dev/null
  if [ "$?" -eq 9 ]; then FIRED=1; else FIRED=0; fi
  MEASURE_DOG=''
  return "$_rc"
}

# dd_stream DIRECTION FILE LOG: one stream's dd, its report, the clock's seconds and its
# exit status in LOG. A write is flushed before it ends: conv=fsync, else sync.
dd_stream() {
  _way=$1
  _file=$2
  _log=$3
  _t0=$(now)
  : $((_bs = BLOCK_KB * 1024))
  if [ "$_way" = write ] && [ "$DD_GNU" = 1 ]; then
    set -- dd if=/dev/zero "of=$_file" "bs=$_bs" "count=$BLOCKS" conv=fsync
    if [ "$DIRECT" = 1 ]; then set -- "$@" oflag=direct; fi
  elif [ "$_way" = write ]; then
    # shellcheck disable=SC2016  # the inner shell's $1
    set -- sh -c 'dd if=/dev/zero of="$1" bs="$2" count="$3" && sync' sh "$_file" "$_bs" "$BLOCKS"
  else
    set -- dd "if=$_file" of=/dev/null "bs=$_bs"
    if [ "$DIRECT" = 1 ]; then set -- "$@" iflag=direct; fi
  fi
  if [ -x /usr/bin/time ]; then set -- /usr/bin/time -p "$@"; fi
  "$@" >"$_log" 2>&1
  _rc=$?
  say "clock $(($(now) - _t0))" >>"$_log"
  say "rc $_rc" >>"$_log"
}

# dd_phase DIRECTION: every stream at once, each on MEASURE_TMP/stream.N; fails if one did.
dd_phase() {
  _i=1
  _pids=''
  while [ "$_i" -le "$STREAMS" ]; do
    dd_stream "$1" "$MEASURE_TMP/stream.$_i" "$MEASURE_TMP/$1.$_i.log" &
    _pids="$_pids $!"
    : $((_i = _i + 1))
  done
  _bad=0
  for _pid in $_pids; do wait "$_pid" || _bad=1; done
  return "$_bad"
}

# shellcheck disable=SC2016  # an awk program: its $ are awk's
STREAM_AWK='
/^[0-9]+ bytes/ { b = $1; if (match($0, /copied, [0-9.]+(e[-+]?[0-9]+)? s/)) own = substr($0, RSTART + 8, RLENGTH - 10) + 0 }
/^[0-9]+\+[0-9]+ records out$/ { split($1, r, "+"); rec = r[1] }
$1 == "real" && NF == 2 { real = $2 + 0 }
$1 == "clock" { clock = $2 + 0; next }
$1 == "rc" { rc = $2; next }
first == "" && $1 != "real" && $1 != "user" && $1 != "sys" && !/ records (in|out)$/ && !/^[0-9]+ bytes/ { first = $0 }
END {
  if (b == "" && rec != "") b = rec * bs
  s = own > 0 ? own : (real > 0 ? real : clock)
  if (rc != "0" || b == "") { gsub(/[^ -~]/, "?", first); printf "%s stream=%d failed: %s\n", way, n, substr(first, 1, 200); exit }
  printf "%s stream=%d bytes=%.0f seconds=%.6f", way, n, b, s
  if (s > 0) printf " mb_s=%.1f", b / 1e6 / s
  printf "\n"
}'

# shellcheck disable=SC2016  # an awk program: its $ are awk's
TOTAL_AWK='
$3 ~ /^bytes=/ { sub(/^bytes=/, "", $3); sub(/^seconds=/, "", $4); b += $3; if ($4 + 0 > s) s = $4 + 0; n++; next }
{ bad++ }
END {
  if (bad) { printf "%s total failed: %d of %d streams\n", way, bad, n + bad; exit }
  printf "%s total streams=%d bytes=%.0f seconds=%.6f", way, n, b, s
  if (s > 0) printf " mb_s=%.1f", b / 1e6 / s
  printf "\n"
}'

# figures DIRECTION: a line a stream (bytes, seconds, MB/s) and the total (the streams ran
# side by side: their bytes over the slowest one's seconds).
figures() {
  _i=1
  _lines=''
  while [ "$_i" -le "$STREAMS" ]; do
    _lines=$_lines$(awk -v way="$1" -v n="$_i" -v bs="$((BLOCK_KB * 1024))" "$STREAM_AWK" \
      "$MEASURE_TMP/$1.$_i.log" 2>/dev/null)$NL
    : $((_i = _i + 1))
  done
  printf '%s' "$_lines"
  printf '%s' "$_lines" | awk -v way="$1" "$TOTAL_AWK"
}

# measure_dd DIR: the dd test as one section: its settings, then the figures.
measure_dd() {
  say "@@@ cmd: sas-advisor-measure $(quoted "$1")"
  say "date=$(date -u '+%Y-%m-%dT%H:%M:%SZ') tool=dd block_kb=$BLOCK_KB streams=$STREAMS stream_bytes=$STREAM_BYTES direct=$(yes_no "$DIRECT") quick=$(yes_no "$QUICK") ram_mib=${RAM_MIB:-unknown}"
  say "plan: $(measure_words)$(measure_caveat)"
  _done=1
  if backgrounded dd_phase write; then
    figures write
    backgrounded dd_phase read || _done=0
    figures read
  else
    figures write
    _done=0
    say 'read: not run: the write did not finish'
  fi
  if [ "$FIRED" = 1 ]; then say "stopped: after $MEASURE_LIMIT s"; fi
  if [ "$_done" = 1 ]; then say '@@@ end: rc=0'; else say '@@@ end: rc=1'; fi
}

# measure_fio DIR: fio's sequential write (end_fsync) then read, one job a stream on the
# same files, each job's figures in fio's JSON.
measure_fio() {
  _where=$1
  # shellcheck disable=SC2016  # $jobnum is fio's
  set -- fio --output-format=json "--directory=$MEASURE_TMP" '--filename_format=stream.$jobnum' \
    "--bs=${BLOCK_KB}k" "--size=$STREAM_BYTES" --ioengine=psync --end_fsync=1
  if [ "$DIRECT" = 1 ]; then set -- "$@" --direct=1; fi
  if [ "$QUICK" = 1 ]; then set -- "$@" "--runtime=$QUICK_SECONDS"; fi
  set -- "$@" --name=write --rw=write "--numjobs=$STREAMS" --name=read --stonewall --rw=read \
    "--numjobs=$STREAMS"
  note "measure $(quoted "$_where"): date=$(date -u '+%Y-%m-%dT%H:%M:%SZ') tool=fio block_kb=$BLOCK_KB streams=$STREAMS stream_bytes=$STREAM_BYTES direct=$(yes_no "$DIRECT") quick=$(yes_no "$QUICK")"
  say "@@@ cmd: $(words "$@")"
  backgrounded "$@" >"$MEASURE_TMP/fio.out" 2>&1
  _rc=$?
  escaped <"$MEASURE_TMP/fio.out"
  say "@@@ end: rc=$_rc"
  if [ "$FIRED" = 1 ]; then note "measure: fio stopped after $MEASURE_LIMIT s"; fi
}

# measure_all: each --measure DIR in turn, its section kept in its own directory until
# the test is over, then added to the bundle.
measure_all() {
  _old=$IFS
  IFS=$NL
  for _dir in $MEASURE_DIRS; do
    IFS=$_old
    if ! MEASURE_TMP=$(make_tmp "$_dir"); then
      skip "sas-advisor-measure $(quoted "$_dir"): cannot make a directory there" | filtered
      continue
    fi
    if [ "$MEASURE_TOOL" = fio ]; then
      measure_fio "$_dir" >"$MEASURE_TMP/section"
    else
      measure_dd "$_dir" >"$MEASURE_TMP/section"
    fi
    filtered <"$MEASURE_TMP/section"
    measure_cleanup
  done
  IFS=$_old
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
  OS=$(uname -s 2>/dev/null)
  if [ -n "$MEASURE_DIRS" ]; then measure_plan; fi
  if [ "$OUT" != - ]; then
    if [ -d "$OUT" ]; then die "$OUT is a directory"; fi
    if [ "$FORCE" != 1 ] && { [ -e "$OUT" ] || [ -h "$OUT" ]; }; then
      die "$OUT exists; use --force to overwrite it or --out to name another file"
    fi
    if [ "$FORCE" != 1 ]; then
      (set -C && : >"$OUT") 2>/dev/null || die "cannot create $OUT"
    fi
  fi
  _uid=$(id -u 2>/dev/null) || _uid=$(id | sed 's/^uid=\([0-9]*\).*/\1/')
  if [ "$_uid" = 0 ]; then ROOT=yes; fi
  START=$(now)
  trap 'measure_cleanup' EXIT
  trap 'measure_cleanup; exit 129' HUP
  trap 'measure_cleanup; exit 130' INT
  trap 'measure_cleanup; exit 143' TERM
  trap 'measure_cleanup; exit 141' PIPE
  if [ "$OUT" = - ]; then
    collect | filtered
    if [ -n "$MEASURE_DIRS" ]; then measure_all; fi
  else
    collect | filtered >"$OUT" || die "cannot write $OUT"
    if [ -n "$MEASURE_DIRS" ]; then measure_all >>"$OUT" || die "cannot write $OUT"; fi
    say "$PROG: wrote $OUT" >&2
  fi
}

main "$@"
