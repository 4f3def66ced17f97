#!/usr/bin/env bash
# `make fuzz SECONDS=N` (or scripts/fuzz.sh N): fuzzes SWAPI's JSON readers with libFuzzer for N
# seconds (60 by default). SwiftPM builds the app's JSONReaderFuzz target (StarWars/Fuzz) with
# -DFUZZING and -sanitize=fuzzer,address into .build/fuzz/build; this seeds .build/fuzz/corpus with
# the embedded data files and a few small cases, and runs. The corpus is kept between runs. An
# input that crashes, hangs or breaks an invariant is written to .build/fuzz/crash-… (or
# timeout-…, slow-unit-…) and the run fails; add it to FoundCase.all in
# StarWars/Tests/SWAPITests/JSONDifferentialTests.swift and fix it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out/corpus"

# Optimised, with the fuzzer's instrumentation; -enable-testing for the harness's
# `@testable import SWAPI`; linked by lld, as gold stops with an internal error on these objects.
echo "building json-reader-fuzz"
swift build --package-path StarWars --scratch-path "$out/build" -c release --product json-reader-fuzz \
  -Xswiftc -enable-testing -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
fuzzer="$out/build/release/json-reader-fuzz"

# Seeds: the embedded files, and small cases of each kind of JSON.
cp StarWars/Sources/SWAPI/Resources/snapshot/*.json "$out/corpus/"
seed() { printf '%b' "$2" >"$out/corpus/seed-$1"; }
seed empty-array '[]'
seed object '{"a": [1, -2.5e3, 0, 0.5E-7, true, false, null, "x"]}'
seed person '[{"name":"Luke","height":172,"films":["https://swapi.dev/api/films/1/"],"url":"https://swapi.dev/api/people/1/"}]'
seed film '[{"title":"A New Hope","episode_id":4,"characters":[],"url":"/api/films/1"}]'
seed escapes '["Lu\\u006Be \\"5\\" \\ud83d\\ude80 \\/\\\\\\b\\f\\n\\r\\t", "\\ud800"]'
seed numbers '[-0, 0e0, 1E+308, 1e400, -1e-400, 9007199254740993, 123456789012345678901234567890]'
seed bom '\xEF\xBB\xBF [1]'
seed utf8 '["Padm\xC3\xA9", "\xE6\x9D\xB1", "\xF0\x9F\x91\x8D"]'
seed deep '[[[[[[[[[[[[[[[[{"a":[[[[[[[[[[[]]]]]]]]]]]}]]]]]]]]]]]]]]]]'
seed trailing-comma '[1,]'

# Tokens the mutations splice in.
cat >"$out/json.dict" <<'EOF'
"{"
"}"
"["
"]"
","
":"
"\""
"\\"
"\\u"
"\\ud800"
"\\udc00"
"true"
"false"
"null"
"-0"
"1e400"
"0.5E-7"
"\xEF\xBB\xBF"
"\xED\xA0\x80"
"\xC0\x80"
"\"name\":"
"\"title\":"
"\"url\":"
"\"films\":"
"\"homeworld\":"
"\"episode_id\":"
"\"https://swapi.dev/api/people/1/\""
EOF

echo "fuzzing for $seconds seconds"
"$fuzzer" "$out/corpus" -dict="$out/json.dict" -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$out/" 2>&1 | tee "$out/fuzz.log"
