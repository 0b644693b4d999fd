#!/bin/sh
# The fake AIX: bin/<command> links here. Prints the captured output stored for this exact
# command line (out/<command>_<arg>_<arg>.txt, or the same name under $FAKE_AIX_OUT first)
# and logs the command line to $FAKE_AIX_LOG. With FAKE_AIX_SLEEP=<command> that command
# hangs in a child process instead, as a command stuck on a dead disk would.
prog=$(basename "$0")
key=$prog
line=$prog
for arg in "$@"; do
  key=${key}_$arg
  line="$line $arg"
done
if [ -n "${FAKE_AIX_LOG:-}" ]; then printf '%s\n' "$line" >>"$FAKE_AIX_LOG"; fi
if [ "${FAKE_AIX_SLEEP:-}" = "$prog" ]; then
  sleep 97
  echo 'woke up'
  exit 0
fi
for dir in ${FAKE_AIX_OUT:+"$FAKE_AIX_OUT"} "$(dirname "$0")/../out"; do
  if [ -f "$dir/$key.txt" ]; then
    cat "$dir/$key.txt"
    exit 0
  fi
done
printf 'fake AIX: no captured output for: %s\n' "$line" >&2
exit 1
