#!/bin/sh
# Runs a command with TMPDIR set to a new folder on /dev/shm (tmpfs) when there is one, and removes the
# folder when the command ends. The tests build sites into temporary folders: tens of thousands of small
# files written and deleted, which on ext4 cost a scan of recently deleted inodes at each new one; on
# tmpfs they cost memory only (bench/RESULTS.md has the figures). Without /dev/shm the command runs as is.
set -u
if [ -d /dev/shm ] && [ -w /dev/shm ] && dir=$(mktemp -d /dev/shm/holocron-tmp.XXXXXX 2>/dev/null); then
  trap 'rm -rf "$dir"' EXIT
  trap 'exit 130' INT TERM
  TMPDIR=$dir "$@"
  exit $?
fi
exec "$@"
