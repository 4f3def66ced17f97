#!/usr/bin/env bash
# Makes sure the system packages Holocron builds against are present: cmark's library and
# headers (Debian's libcmark-dev), Graphviz's (libgraphviz-dev, which lays out the flow map)
# and pkg-config to find them, and on Linux jemalloc (Debian's
# libjemalloc-dev), the allocator the holocron binary links. Installs them with apt-get when
# running as root; otherwise says what to install.
set -euo pipefail
# `install-deps.sh test` also makes sure Node is there: a test runs the site's search script.
if [ "${1:-}" = test ] && ! command -v node >/dev/null 2>&1 && ! command -v nodejs >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing nodejs (the search script's test runs it)..."
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null
  else
    echo "note: Node is missing, so the search script's test will be skipped; install nodejs to run it." >&2
  fi
fi
needed="libcmark libgvc"
packages="libcmark-dev libgraphviz-dev pkg-config"
if [ "$(uname -s)" = Linux ]; then
  needed="$needed jemalloc"
  packages="$packages libjemalloc-dev"
fi
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $needed; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing $packages (cmark, the CommonMark library Holocron renders with, Graphviz, which lays out the flow map, and the jemalloc allocator)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq $packages >/dev/null
  pkg-config --exists $needed || { echo "error: $packages installed but pkg-config still can't find $needed" >&2; exit 1; }
elif command -v brew >/dev/null 2>&1; then
  echo "error: cmark is missing: run 'brew install cmark pkg-config' and try again." >&2
  exit 1
else
  echo "error: $needed is missing: run 'sudo apt-get install $packages' (Debian/Ubuntu) and try again." >&2
  exit 1
fi
