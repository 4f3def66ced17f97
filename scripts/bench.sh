#!/usr/bin/env bash
# `make bench`: how fast holocron builds and how much memory it needs, on synthetic data at 10x
# and 100x SWAPI's size (about 2,800 and 28,000 pages), and at 1000x (about 280,000 pages) with
# BENCH_1000=1 (it takes minutes; BENCH_SCALES=10 runs 10x alone), and on an archive of 100,000 characters with BENCH_WIDE=1 (a
# full build's time and peak memory). For each: pages, wall seconds, pages per second, CPU time over
# wall time, peak memory, the cmark-only floor and the build's ratio to it, the floor of cmark
# plus writing the files and the ratio to that, a rebuild with nothing changed and its ratio to
# the full build, a rebuild after one record's edit and after one template's (medians of five),
# and a rebuild after renaming one character. BENCH_BASELINE=path/to/holocron adds the same rows
# for another binary (an older commit's), measured in the same run on the same data, and then
# the no-change rebuild and the one-record edit of the two taken in turn, pair by pair.
# Data and output go to a tmpfs folder (/dev/shm) when there is one. Uses hyperfine for the full
# build and GNU time for CPU and memory; installs them with apt-get when missing and root.
set -euo pipefail
cd "$(dirname "$0")/.."
need() { command -v "$1" >/dev/null 2>&1 || { [ "$(id -u)" = 0 ] && apt-get install -y -qq "$2" >/dev/null; } || { echo "error: install $2" >&2; exit 1; }; }
need hyperfine hyperfine
[ -x /usr/bin/time ] || need /usr/bin/time time
# The release holocron as `make release` builds it; cmark-floor with the same flags (RELEASE_FLAGS in the
# Makefile). cmark-floor imports every module it inlines, so SwiftPM compiles it again when one changes.
make --no-print-directory release
release_flags=${RELEASE_FLAGS-$([ "$(uname -s)" = Linux ] && echo --static-swift-stdlib) -Xswiftc -cross-module-optimization}
swift build --package-path StarWars --scratch-path .build/shared --disable-build-manifest-caching -c release --product cmark-floor $release_flags
bin=$PWD/.build/shared/release/holocron
# The bench's own tool: cmark alone over every page's Markdown, and the Markdown for the baselines.
cmarkfloor=$PWD/.build/shared/release/cmark-floor
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=$PWD/.build
work=$(mktemp -d "$base/holocron-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
scales=${BENCH_SCALES:-10 100}; [ "${BENCH_1000:-0}" = 1 ] && scales="$scales 1000"

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
printf "\n%-6s %8s %8s %9s %8s %9s %9s %7s %9s %7s %10s %7s %9s %7s %9s %7s %12s\n" scale pages wall pages/s cpu/wall "peak MiB" "cmark s" ratio "+write s" ratio "no-change" ratio "1-record" ratio "template" ratio "rename"
# One binary's figures at one scale, from its own copy of the data into its own folders (a build
# by another binary renders every page again, so two binaries never share a site).
measure() {
  local bin=$1 label=$2 scale=$3 suffix=$4
  local data=$work/data-$scale$suffix out=$work/site-$scale$suffix
  # Full builds from nothing: the site and the spare folder beside it (the last generation, the
  # journal and the decoded data) are removed before each, so every run decodes every file and
  # renders and writes every page.
  local spare=$work/.site-$scale$suffix.spare
  local runs=5; [ "$scale" = 1000 ] && runs=1
  hyperfine --warmup 1 --runs $runs --export-json "$work/full-$scale$suffix.json" \
    --prepare "rm -rf $out $spare" "$bin build --quiet --data $data --output $out" >/dev/null
  local wall; wall=$(python3 -c "import json,sys; print(json.load(open('$work/full-$scale$suffix.json'))['results'][0]['median'])")
  rm -rf "$out" "$spare"
  /usr/bin/time -f "%e %U %S %M" -o "$work/time-$scale$suffix" $bin build --data "$data" --output "$out" > "$work/summary-$scale$suffix"
  local twall user sys peak
  read -r twall user sys peak < "$work/time-$scale$suffix"
  local pages; pages=$(head -n 1 "$work/summary-$scale$suffix" | sed -E 's/^Built ([0-9]+) pages.*/\1/')
  local floor; floor=$($cmarkfloor --data "$data" | sed -E 's/.* in ([0-9.]+) s.*/\1/')
  # The same with every page's HTML written to its file: what a build would take if making
  # the Markdown and the layout cost nothing.
  local wfloor; wfloor=$($cmarkfloor --data "$data" --write-into "$work/floor-$scale" | sed -E 's/.* in ([0-9.]+) s.*/\1/')
  rm -rf "$work/floor-$scale"
  # A rebuild with nothing changed, then one after renaming a character.
  # Median of thirty runs without a shell (-N): one run of GNU time has 10 ms steps, a tenth of
  # a 10x build, and a few runs of 30 ms on a busy machine are noise.
  hyperfine -N --warmup 2 --runs 30 --export-json "$work/nochange-$scale$suffix.json" \
    "$bin build --quiet --data $data --output $out" >/dev/null
  local nochange; nochange=$(python3 -c "import json,sys; print(json.load(open('$work/nochange-$scale$suffix.json'))['results'][0]['median'])")
  # One record edited (the first character's mass, a new value each run) and one template
  # edited (the footer, every page changes), each the median of five rebuilds.
  local templates=$work/templates-$scale$suffix
  $bin templates --output "$templates" >/dev/null
  hyperfine --warmup 1 --runs 5 --export-json "$work/record-$scale$suffix.json" \
    --prepare "python3 scripts/bench-edit.py record $data" "$bin build --quiet --data $data --output $out" >/dev/null
  local record; record=$(python3 -c "import json,sys; print(json.load(open('$work/record-$scale$suffix.json'))['results'][0]['median'])")
  $bin build --quiet --data "$data" --templates "$templates" --output "$out"
  hyperfine --warmup 1 --runs 5 --export-json "$work/template-$scale$suffix.json" \
    --prepare "python3 scripts/bench-edit.py template $templates" "$bin build --quiet --data $data --templates $templates --output $out" >/dev/null
  local template; template=$(python3 -c "import json,sys; print(json.load(open('$work/template-$scale$suffix.json'))['results'][0]['median'])")
  $bin build --quiet --data "$data" --output "$out"
  sed -i 's/"Person 7"/"Person Seven"/' "$data/people.json"
  local edit; edit=$( { /usr/bin/time -f "%e" $bin build --data "$data" --output "$out"; } 2>&1 | tr '\n' ' ')
  local rendered; rendered=$(echo "$edit" | sed -E 's/.*\(([0-9]+) rendered.*/\1/')
  local editwall; editwall=$(echo "$edit" | awk '{print $NF}')
  python3 - "$label" "$scale" "$pages" "$wall" "$user" "$sys" "$twall" "$peak" "$floor" "$wfloor" "$nochange" "$rendered" "$editwall" "$record" "$template" <<'EOF'
import sys
label, scale, pages, wall, user, sys_, twall, peak, floor, wfloor, nochange, rendered, editwall, record, template = sys.argv[1:]
pages, wall, cpu, twall, peak, floor, wfloor, nochange = int(pages), float(wall), float(user) + float(sys_), float(twall), int(peak), float(floor), float(wfloor), float(nochange)
record, template = float(record), float(template)
print(f"{scale+'x'+label:<6} {pages:8d} {wall:8.3f} {pages/wall:9.0f} {cpu/twall:8.2f} {peak/1024:9.0f} {floor:9.3f} {wall/floor:7.2f} {wfloor:9.3f} {wall/wfloor:7.2f} {nochange:10.3f} {nochange/wall:7.1%} {record:9.3f} {record/wall:7.1%} {template:9.3f} {template/wall:7.1%} {rendered:>5} in {float(editwall):.2f}s")
EOF
}

# BENCH_BASELINE=path/to/another/holocron measures that binary too, in the same run, on a copy of
# the same data, each scale's two rows one after the other (the baseline's row is marked "b").
baseline=${BENCH_BASELINE:-}
paired=()
for scale in $scales; do
  $bin snapshot --synthetic "$scale" --output "$work/data-$scale" --quiet
  measure "$bin" "" "$scale" ""
  if [ -n "$baseline" ]; then
    $bin snapshot --synthetic "$scale" --output "$work/data-$scale-b" --quiet
    measure "$baseline" "b" "$scale" "-b"
    paired+=("$scale" "$bin" "$baseline")
  fi
done
# The same figures for the two binaries in turn, pair by pair (scripts/paired.py): the rows
# above are taken minutes apart, and this machine's speed drifts more than that between them.
# Both sites have the same history (the runs above), and each binary rebuilds its own.
if [ -n "$baseline" ]; then
  echo
  echo "This holocron against the baseline, paired (median of the per-pair ratios; below 1 is faster):"
  set -- "${paired[@]}"
  while [ $# -gt 0 ]; do
    scale=$1 a=$2 b=$3; shift 3
    data=$work/data-$scale out=$work/site-$scale
    python3 scripts/paired.py --pairs 40 --label "  ${scale}x no-change rebuild" \
      "$a build --quiet --data $data --output $out" "$b build --quiet --data $data-b --output $out-b"
    python3 scripts/paired.py --pairs 20 --label "  ${scale}x one-record edit" \
      --prepare-a "python3 scripts/bench-edit.py record $data" --prepare-b "python3 scripts/bench-edit.py record $data-b" \
      "$a build --quiet --data $data --output $out" "$b build --quiet --data $data-b --output $out-b"
    rm -rf "$data-b" "$out-b" "$work/.site-$scale-b.spare" "$work/templates-$scale-b"
  done
fi
# A language that falls back keeps its journal: a one-record edit of a 10x site in English, Spanish
# and a French table read with --strings costs the same whether French is complete (Spanish's words)
# or lacks keys shown on every page (--fallback-language en), the two taken in turn.
if [[ " $scales " == *" 10 "* ]]; then
  echo
  echo "A one-record edit of a 10x site in en, es and fr (a --strings table): fr lacking keys and falling"
  echo "back to English against fr complete, paired (median of the per-pair ratios; below 1 is faster):"
  for table in complete fallback; do
    mkdir -p "$work/strings-$table"
    cp -r "$work/data-10" "$work/data-10-$table"
    python3 - "$work/strings-$table/fr.json" "$table" <<'EOF4'
import json, sys
words = json.load(open("StarWars/Sources/StarWarsApp/Resources/Strings/es.json"))
words["@locale"] = "fr-FR"
if sys.argv[2] == "fallback":
    for key in ["navigation.search", "home.link.search", "detail.summary"]:
        words.pop(key, None)
json.dump(words, open(sys.argv[1], "w"), ensure_ascii=False)
EOF4
    $bin build --quiet --data "$work/data-10-$table" --output "$work/site-10-$table" --languages en,es,fr \
      --strings "$work/strings-$table" --fallback-language en
  done
  build="build --quiet --languages en,es,fr --fallback-language en"
  python3 scripts/paired.py --pairs 20 --label "  10x one-record edit, fr falling back" \
    --prepare-a "python3 scripts/bench-edit.py record $work/data-10-fallback" \
    --prepare-b "python3 scripts/bench-edit.py record $work/data-10-complete" \
    "$bin $build --strings $work/strings-fallback --data $work/data-10-fallback --output $work/site-10-fallback" \
    "$bin $build --strings $work/strings-complete --data $work/data-10-complete --output $work/site-10-complete"
  rm -rf "$work"/*-10-fallback "$work"/*-10-complete "$work"/.site-10-fallback.spare "$work"/.site-10-complete.spare \
    "$work"/strings-*
fi
echo
echo "Baselines outside holocron, from the same pages' Markdown (cmark-floor --dump-markdown),"
echo "writing the same folder-per-page tree: the C floor (bench/floor.c: read each page's Markdown,"
echo "cmark on $(nproc) threads, write its index.html; no layout) and Hugo (a template of {{ .Content }}"
echo "alone, pretty URLs, no feeds, sitemap or taxonomies). Medians of five (Hugo: three), from nothing."
need cc gcc
need hugo hugo
cc -O2 -o "$work/floor" bench/floor.c -lcmark -lpthread
mkdir -p "$work/hugo/layouts/_default"
for layout in _default/single _default/list index; do printf '{{ .Content }}' > "$work/hugo/layouts/$layout.html"; done
printf '%-6s %8s %12s %9s %7s %9s %7s\n' scale pages "holocron s" "C floor s" ratio "Hugo s" "Hugo/holocron"
for scale in $scales; do
  [ "$scale" = 1000 ] && continue
  markdown=$work/markdown-$scale
  $cmarkfloor --data "$work/data-$scale" --dump-markdown "$markdown" >/dev/null
  printf 'baseURL = "/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\ncontentDir = "%s"\n' "$markdown/content" > "$work/hugo/hugo.toml"
  hyperfine --warmup 1 --runs 5 --export-json "$work/cfloor-$scale.json" --prepare "rm -rf $work/cfloor-out" \
    "$work/floor $markdown/pages.tsv $markdown/content $work/cfloor-out $(nproc)" >/dev/null
  hyperfine --warmup 1 --runs 3 --export-json "$work/hugo-$scale.json" --prepare "rm -rf $work/hugo-out" \
    "hugo --quiet -s $work/hugo -d $work/hugo-out" >/dev/null
  [ "$(find "$work/hugo-out" -name '*.html' | wc -l)" = "$(wc -l < "$markdown/pages.tsv")" ] || { echo "error: Hugo did not write every page" >&2; exit 1; }
  rm -rf "$markdown" "$work/cfloor-out" "$work/hugo-out"
  python3 - "$scale" "$work" <<'EOF3'
import json, sys
scale, work = sys.argv[1:]
median = lambda name: json.load(open(f"{work}/{name}-{scale}.json"))["results"][0]["median"]
pages = int(open(f"{work}/summary-{scale}").readline().split()[1])
full, floor, hugo = median("full"), median("cfloor"), median("hugo")
print(f"{scale+'x':<6} {pages:8d} {full:12.3f} {floor:9.3f} {full/floor:7.2f} {hugo:9.3f} {hugo/full:7.2f}")
EOF3
done
echo
echo "The flow's own work (screen kinds, flow lint with its per-page link-text check, the flow map's"
echo "Graphviz layouts and pages) as a share of the build's CPU time, median of five fresh builds."
echo "(The walk's per-link transition count is not in it: about 0.3 % of the CPU at 10x and 100x by perf.)"
for scale in $scales; do
  [ "$scale" = 1000 ] && continue
  for run in 1 2 3 4 5; do
    rm -rf "$work/flow-$scale"
    /usr/bin/time -f "%U %S" -o "$work/flow-time" $bin build --data "$work/data-$scale" --output "$work/flow-$scale" --timings \
      | sed -nE 's/^ +flow lint and map +([0-9.]+)$/\1/p' > "$work/flow-seconds"
    echo "$(cat "$work/flow-seconds") $(cat "$work/flow-time")"
  done > "$work/flow-runs-$scale"
  rm -rf "$work/flow-$scale"
  python3 - "$scale" "$work/flow-runs-$scale" <<'EOF2'
import statistics, sys
runs = [tuple(map(float, line.split())) for line in open(sys.argv[2]) if line.strip()]
flow = statistics.median(r[0] for r in runs)
share = statistics.median(r[0] / (r[1] + r[2]) for r in runs)
print(f"  {sys.argv[1]}x: {flow:.3f} s of CPU, {share:.1%} of the build's")
EOF2
done
echo
echo "holocron diff of two builds that differ in one record (a character renamed), median of ten:"
echo "pages whose fingerprints match are not read. (Each side is a full build of its data.)"
for scale in $scales; do
  [ "$scale" = 1000 ] && continue
  cp -r "$work/data-$scale" "$work/data-$scale-b"
  sed -i 's/"Person Seven"/"Person 7"/' "$work/data-$scale-b/people.json"
  $bin build --quiet --data "$work/data-$scale-b" --output "$work/site-$scale-b"
  hyperfine --warmup 1 --runs 10 -i --export-json "$work/diff-$scale.json" \
    "$bin diff $work/site-$scale $work/site-$scale-b" >/dev/null
  seconds=$(python3 -c "import json; print(json.load(open('$work/diff-$scale.json'))['results'][0]['median'])")
  echo "  ${scale}x: $seconds s"
  rm -rf "$work/data-$scale-b" "$work/site-$scale-b"
done
if [[ " $scales " == *" 100 "* ]]; then
  echo
  echo "Where a 100x build's time goes:"
  $bin build --data "$work/data-100" --output "$work/timings" --timings | tail -n +2
  echo
  echo "serve --watch at 100x, the preview on tmpfs: save to reload event (scripts/reload-latency.py)"
  python3 scripts/reload-latency.py --holocron "$bin" --data "$work/data-100" --runs 10 | sed 's/^/  /'
  if [ -n "$baseline" ]; then
    echo "  the baseline ($baseline):"
    python3 scripts/reload-latency.py --holocron "$baseline" --data "$work/data-100" --runs 10 | sed 's/^/  /'
  fi
fi

if [ "${BENCH_WIDE:-0}" = 1 ]; then
  echo
  echo "An archive with 100,000 characters (scripts/wide-archive.py), built from nothing:"
  # The other sites go first: tmpfs has an inode limit, and a 1000x site and its spare hold 1.1 million.
  rm -rf "$work"/site-* "$work"/.site-*
  python3 scripts/wide-archive.py "$bin" "$work/data-wide"
  /usr/bin/time -f "%e %M" -o "$work/time-wide" $bin build --data "$work/data-wide" --output "$work/site-wide" > "$work/summary-wide"
  read -r wall peak < "$work/time-wide"
  pages=$(head -n 1 "$work/summary-wide" | sed -E 's/^Built ([0-9]+) pages.*/\1/')
  python3 -c "print(f'  {$pages} pages in {$wall:.2f} s, {$pages / $wall:.0f} pages/s, peak {$peak / 1024:.0f} MiB')"
  rm -rf "$work/data-wide" "$work/site-wide"
fi
