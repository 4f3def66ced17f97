#!/usr/bin/env bash
# `make bench`: how fast holocron builds, and how much memory it needs, on the embedded data
# (291 pages) and on synthetic data at 10x SWAPI's size (about 2,800 pages). Uses hyperfine for
# times and GNU time for peak memory; installs them with apt-get when missing and root.
set -euo pipefail
cd "$(dirname "$0")/.."
need() { command -v "$1" >/dev/null 2>&1 || { [ "$(id -u)" = 0 ] && apt-get install -y -qq "$2" >/dev/null; } || { echo "error: install $2" >&2; exit 1; }; }
need hyperfine hyperfine
[ -x /usr/bin/time ] || need /usr/bin/time time
swift build -c release --product holocron
bin=.build/release/holocron
work=.build/bench
rm -rf "$work" && mkdir -p "$work"
$bin snapshot --synthetic 10 --output "$work/data-10x"
echo
hyperfine --warmup 1 --runs 10 \
  -n "embedded (291 pages)" "$bin build --quiet --output $work/site-embedded" \
  -n "synthetic 10x" "$bin build --quiet --data $work/data-10x --output $work/site-10x"
echo
for args in "--output $work/site-embedded" "--data $work/data-10x --output $work/site-10x"; do
  /usr/bin/time -f "peak memory %M KiB, %e s wall: holocron build $args" $bin build --quiet $args
done
echo
$bin build --data "$work/data-10x" --output "$work/site-10x"
