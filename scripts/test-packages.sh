#!/usr/bin/env bash
# `make test`'s two packages, sharing both cores: builds the library's tests, then runs them from their test
# binary in the background (the adoption test, most of that run, compiles a fixture app on one core and a half)
# while the app's tests build and run; then prints the library's output after the app's, so each package's
# summary is whole. Both test runs get TMPDIR on tmpfs (scripts/with-tmpfs.sh). The library's tests run from
# their binary, not `swift test`, because SwiftPM holds the build folder's lock until a `swift test` ends, and
# the app's build uses the same folder. Exits with the first failure's status.
#
#   scripts/test-packages.sh SCRATCH SWIFT-FLAGS...
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=$1
shift
swift=${SWIFT:-swift}
log="$scratch/library-tests.log"
testing=(--testing-library swift-testing)

run() {
  echo "$*"
  "$@"
}

run "$swift" build --scratch-path "$scratch" "$@" --build-tests || exit
mkdir -p "$scratch"
echo "scripts/with-tmpfs.sh $scratch/debug/FlowSitePackageTests.xctest ${testing[*]} > $log (in the background)"
scripts/with-tmpfs.sh "$scratch/debug/FlowSitePackageTests.xctest" "${testing[@]}" >"$log" 2>&1 &
library=$!
trap 'kill "$library" 2>/dev/null; exit 130' INT TERM

run "$swift" build --package-path StarWars --scratch-path "$scratch" "$@" --build-tests
app=$?
if [ "$app" -eq 0 ]; then
  run scripts/with-tmpfs.sh "$scratch/debug/HolocronPackageTests.xctest" "${testing[@]}"
  app=$?
fi

wait "$library"
library_status=$?
echo "The library's tests ($log):"
cat "$log"
if [ "$app" -ne 0 ]; then exit "$app"; fi
exit "$library_status"
