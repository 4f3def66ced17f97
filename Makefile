# Holocron's two commands: `make site` and `make test`. Each installs libcmark-dev first when
# it is missing, so a fresh Debian machine with Swift needs nothing else.
SWIFT ?= swift
SWIFT_FLAGS ?=
HOLOCRON = .build/release/holocron

.PHONY: site test build deps bench clean

## Build the site from the embedded data into site/.
site: deps
	$(SWIFT) build -c release --product holocron $(SWIFT_FLAGS)
	$(HOLOCRON) build --output site

## Run every test (installs Node too, for the search script's test).
test:
	@scripts/install-deps.sh test
	$(SWIFT) test $(SWIFT_FLAGS)

## Build everything (debug).
build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

## Benchmark: 10x and 100x synthetic data (BENCH_1000=1 adds 1000x); see bench/RESULTS.md.
bench: deps
	@scripts/bench.sh

## Install the C library cmark when pkg-config can't find it.
deps:
	@scripts/install-deps.sh

clean:
	rm -rf .build
