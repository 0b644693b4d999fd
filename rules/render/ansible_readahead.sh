#!/bin/sh
# shellcheck shell=sh
# The read-ahead task of ansible_linux.yml (rules/render/ansible.py): what linux_tuning.sh's
# mount_item does for one mount. Ansible passes SAS_MOUNT, SAS_KB, SAS_MODE (at-least or
# set) and SAS_KIND (block or nfs) in the environment. It prints "changed: …" when it wrote,
# and last the udev line that sets the value again at boot (NFS's raises only; none for a
# block device left alone above SAS_KB).
set -eu
majmin=$(mountpoint -d "$SAS_MOUNT" 2>/dev/null) || majmin=''
if [ -z "$majmin" ]; then
  echo "skip: $SAS_MOUNT is not a mount point here"
  exit 0
fi
path="/sys/class/bdi/$majmin/read_ahead_kb"
if [ ! -e "$path" ]; then path="/sys/dev/block/$majmin/../queue/read_ahead_kb"; fi
old=$(cat "$path")
if [ "$SAS_MODE" = at-least ] && [ "$old" -ge "$SAS_KB" ]; then
  echo "ok: read_ahead_kb $SAS_MOUNT ($majmin) is $old"
elif [ "$old" = "$SAS_KB" ]; then
  echo "ok: read_ahead_kb $SAS_MOUNT ($majmin) is $old"
else
  printf '%s\n' "$SAS_KB" > "$path"
  echo "changed: read_ahead_kb $SAS_MOUNT ($majmin) $old -> $SAS_KB"
fi
dev="/sys/dev/block/$majmin"
if [ "$SAS_MODE" = at-least ] && [ "$SAS_KIND" != nfs ] && [ "$old" -gt "$SAS_KB" ]; then
  exit 0  # a block device already above: left alone now and at boot (no udev rule for it)
fi
if [ "$SAS_KIND" = nfs ]; then
  # shellcheck disable=SC2016  # $kernel and $4 are udev's and awk's, written as they are
  echo 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="/usr/bin/awk -v bdi=$kernel -v kb='"$SAS_KB"' -v f=/sys/class/bdi/$kernel/read_ahead_kb '"'"'BEGIN{ret=1} {if ($4 == bdi) {ret=0}} END{if ((getline ra < f) > 0 && ra + 0 >= kb) {ret=1}; exit ret}'"'"' /proc/fs/nfsfs/volumes", ATTR{read_ahead_kb}="'"$SAS_KB"'"'
elif [ -r "$dev/dm/name" ]; then
  echo "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DM_NAME}==\"$(cat "$dev/dm/name")\", ATTR{queue/read_ahead_kb}=\"$SAS_KB\""
else
  if [ -e "$dev/partition" ]; then dev="$dev/.."; fi
  kname=$(cd "$dev" && pwd -P)
  echo "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"${kname##*/}\", ATTR{queue/read_ahead_kb}=\"$SAS_KB\""
fi
