#!/bin/sh
# `make test`'s Swift tests: the library's, then the Star Wars app's, each package built once into
# SCRATCH. The adoption test, the library's slowest (a fixture app that compiles a tagged copy of the
# library: about three minutes, mostly of one core), runs in the background from the library's test
# binary while the library's other tests run, the app builds and the app's tests start (the fixture's
# last minute, its plugins' planning, is mostly one core, and the app's tests wait 30 s or more for any
# server or file); its output is printed after the app's tests. Each command is echoed before it
# runs, as make echoes its own (scripts/phase-times.py reads them). Where the test binary is not a
# program of its own (macOS's test bundles), every test runs through `swift test`, one package after
# the other. Set by the Makefile: SWIFT, SCRATCH, SCRATCH_FLAGS (the scratch folder's build flags,
# the Makefile's for every target), APP, SWIFT_FLAGS.
set -u
SWIFT=${SWIFT:-swift}
SCRATCH=${SCRATCH:-.build/shared}
SCRATCH_FLAGS=${SCRATCH_FLAGS:---scratch-path $SCRATCH}
APP=${APP:-StarWars}
SWIFT_FLAGS=${SWIFT_FLAGS:-}
flags="$SCRATCH_FLAGS $SWIFT_FLAGS"
run() {
  echo "$*"
  "$@"
}

# shellcheck disable=SC2086 # flags are words
run $SWIFT build --build-tests $flags || exit 1
binary=$SCRATCH/debug/FlowSitePackageTests.xctest
adoption=
skip=
if [ -f "$binary" ] && [ -x "$binary" ]; then
  log=$(mktemp "${TMPDIR:-/tmp}/adoption-test.XXXXXX")
  echo "$binary --testing-library swift-testing --filter AdoptionTests (in the background)"
  "$binary" --testing-library swift-testing --filter AdoptionTests > "$log" 2>&1 &
  adoption=$!
  skip="--skip AdoptionTests"
fi
# shellcheck disable=SC2086
run $SWIFT test $flags $skip
status=$?
# shellcheck disable=SC2086
[ "$status" -eq 0 ] && { run $SWIFT build --package-path "$APP" --build-tests $flags || status=1; }
# shellcheck disable=SC2086
[ "$status" -eq 0 ] && { run $SWIFT test --package-path "$APP" $flags || status=1; }
if [ -n "$adoption" ]; then
  echo "Waiting for the adoption test (started after the library's build)..."
  wait "$adoption" || status=1
  cat "$log"
  rm -f "$log"
fi
exit "$status"
