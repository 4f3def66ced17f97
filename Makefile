# Holocron's two commands: `make site` and `make test`. Each installs libcmark-dev (and on Linux
# libjemalloc-dev) first when missing, so a fresh Debian machine with Swift needs nothing else.
SWIFT ?= swift
SWIFT_FLAGS ?=
# The top of the repository is the FlowSite library; the Star Wars app (`holocron`) is the
# package in StarWars/, which depends on it by path. Every target here builds both packages
# into one folder, SCRATCH: the app's build then reuses the library and each dependency the
# library's build compiled instead of compiling them again. SwiftPM keeps one build plan per
# folder, so each command plans afresh (--disable-build-manifest-caching): with the plan of the
# other package, `swift test` would run that package's tests. A plain `swift build` or
# `swift test` uses .build as usual, apart from this folder.
# The debug builds carry no debug information (-debug-info-format none): they compile about a
# quarter faster, and nothing here runs them under a debugger (a plain `swift build` does carry it).
# They compile each module whole (-wmo; its code generated on one thread per core): from nothing,
# that takes a sixth less CPU than SwiftPM's batches, each of which parses the whole module again.
# An edit then recompiles its whole module, so the edit loop is a plain `swift build` or
# `swift test --filter` in .build (bench/RESULTS.md has both figures).
APP = StarWars
SCRATCH = .build/shared
CORES := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
SCRATCH_FLAGS = --scratch-path $(SCRATCH) --disable-build-manifest-caching -debug-info-format none \
	-Xswiftc -wmo -Xswiftc -num-threads -Xswiftc $(CORES)
LIB_SWIFT = $(SWIFT) $(1) $(SCRATCH_FLAGS)
APP_SWIFT = $(SWIFT) $(1) --package-path $(APP) $(SCRATCH_FLAGS)
# `make site` runs a debug build: it compiles in half the time of the release build below and
# writes the same bytes, in about a second and a half for the 300-page site (bench/RESULTS.md).
HOLOCRON_DEBUG = $(SCRATCH)/debug/holocron
# The release binary, for `make bench`, `make screenshots` and `make tsan`'s comparison. It
# links the Swift runtime and Foundation statically on Linux: it starts in 8 ms instead of 14
# (a rebuild with nothing changed is mostly start-up) and calls the runtime without going
# through the dynamic linker's tables (about 10 % faster at 28,000 pages). Cross-module
# optimisation lets the app's code specialise FlowSite's generics (FlowSite is generic over an
# app's route type); it is passed here, not set in Package.swift, because a package that
# others depend on by version may carry no unsafe flag (see bench/RESULTS.md).
HOLOCRON = $(SCRATCH)/release/holocron
RELEASE_FLAGS ?= $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,) -Xswiftc -cross-module-optimization
export RELEASE_FLAGS

.PHONY: site release test build deps bench docs api-check api-record clean validate browser-check screenshots test-visual-matrix fuzz tsan \
	format format-check phase-times

## Build the site from the embedded data into site/, its flow map marking the transitions no
## test takes by the coverage the app's coordinator tests record (StarWars/flow-coverage).
site: deps
	$(call APP_SWIFT,build) --product holocron $(SWIFT_FLAGS)
	$(HOLOCRON_DEBUG) build --output site --coverage $(APP)/flow-coverage

## The optimised, statically linked binary the benchmarks measure (not needed for the site).
## Its own module is compiled anew every time (18 s): cross-module optimisation puts the engine,
## specialised for the app, into it from modules it does not import itself, and SwiftPM compiles a
## module again only when one it imports changes, so an engine edit would leave the old engine there.
release: deps
	rm -rf $(SCRATCH)/release/holocron.build
	$(SWIFT) build --package-path $(APP) --scratch-path $(SCRATCH) --disable-build-manifest-caching -c release --product holocron $(RELEASE_FLAGS) $(SWIFT_FLAGS)

## Run every test: the library's (with the adoption test, which builds a fixture app that depends
## on a tagged copy of this checkout by version, in the background while the app builds and tests; see
## scripts/run-tests.sh), then the Star Wars app's. Installs Node too, for the search script's test,
## and Pillow, for the visual matrix's report tests (no browser). Then the phase timer's parser test
## (scripts/test_phase_times.py, a synthetic log). The tests' temporary folders are on tmpfs when
## there is one (scripts/with-tmpfs.sh).
test:
	@scripts/install-deps.sh test
	SWIFT="$(SWIFT)" SCRATCH="$(SCRATCH)" SCRATCH_FLAGS="$(SCRATCH_FLAGS)" APP="$(APP)" SWIFT_FLAGS="$(SWIFT_FLAGS)" \
		scripts/with-tmpfs.sh scripts/run-tests.sh
	python3 -m unittest scripts/test_visual_matrix.py
	python3 -m unittest scripts/test_phase_times.py

## The public API against the last release's (RELEASE names its version and commit; api/<version>/
## records its API): fails on a break that CHANGELOG.md's Unreleased section does not name
## (scripts/api-check.py). It builds the library into the same folder, with the same flags, as the
## tests, so after them it only reads the API. api-record makes the release's record anew from its
## commit (after a release, or when a new toolchain no longer reads the old record).
api-check: deps
	scripts/api-check.py $(SWIFT) $(SCRATCH_FLAGS) $(SWIFT_FLAGS)
api-record: deps
	scripts/api-check.py --record $(SWIFT) $(SCRATCH_FLAGS) $(SWIFT_FLAGS)

## Format every Swift file by the repository's .swift-format (swift-format ships with the toolchain).
## format-check fails on any file that `make format` would change, and on any line over 120 characters
## (swift-format leaves a long string literal as it is); CI runs it.
FORMAT_PATHS = Package.swift Sources Tests Plugins Examples $(APP)/Package.swift $(APP)/Sources $(APP)/Tests $(APP)/Fuzz \
	$(APP)/Benchmarks
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)
format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)
	@LC_ALL=C.UTF-8 grep -rnE '^.{121,}$$' --include='*.swift' $(FORMAT_PATHS); test $$? -eq 1 || \
		{ echo "format-check: the lines above are over 120 characters"; exit 1; }

## Build everything (debug): the library, then the Star Wars app.
build: deps
	$(call LIB_SWIFT,build) $(SWIFT_FLAGS)
	$(call APP_SWIFT,build) $(SWIFT_FLAGS)

## Benchmark: 10x and 100x synthetic data (BENCH_1000=1 adds 1000x, BENCH_WIDE=1 100,000 characters); see bench/RESULTS.md.
bench: deps
	@scripts/bench.sh

## ThreadSanitizer (slow, so outside `make test`); any report fails it. The library's tests, the
## app's tests, and a 100x build of the site (a full build, a one-record edit, then a rebuild
## with nothing changed) by a release holocron built with the sanitizer and without jemalloc.
## The app's suite runs one test at a time: its tests start servers and wait for their answers,
## and run all at once under the sanitizer (5 to 15 times slower) they outlast those waits.
## Builds into .build-tsan folders of their own.
TSAN = TSAN_OPTIONS="halt_on_error=1 $$TSAN_OPTIONS"
TSAN_HOLOCRON = $(APP)/.build-tsan/release/holocron
tsan: deps
	$(TSAN) $(SWIFT) test --scratch-path .build-tsan --sanitize=thread --skip AdoptionTests $(SWIFT_FLAGS)
	HOLOCRON_TSAN=1 $(TSAN) $(SWIFT) test --package-path $(APP) --scratch-path $(APP)/.build-tsan-debug --sanitize=thread --no-parallel $(SWIFT_FLAGS)
	rm -rf $(APP)/.build-tsan/release/holocron.build
	HOLOCRON_TSAN=1 $(SWIFT) build --package-path $(APP) --scratch-path $(APP)/.build-tsan -c release --product holocron --sanitize=thread $(SWIFT_FLAGS)
	rm -rf .build-tsan/data-100 .build-tsan/site-100 .build-tsan/.site-100.spare
	$(TSAN_HOLOCRON) snapshot --synthetic 100 --output .build-tsan/data-100 --quiet
	$(TSAN) $(TSAN_HOLOCRON) build --data .build-tsan/data-100 --output .build-tsan/site-100
	python3 scripts/bench-edit.py record .build-tsan/data-100
	$(TSAN) $(TSAN_HOLOCRON) build --data .build-tsan/data-100 --output .build-tsan/site-100
	$(TSAN) $(TSAN_HOLOCRON) build --data .build-tsan/data-100 --output .build-tsan/site-100

## Checks outside `make test` (they need Java, Chromium, nginx; see scripts/install-checkers.sh).
## Run the Nu HTML checker over the golden site, a build with a base URL and a multilingual build
## (every language's tree and the root's pages): 0 errors, 0 warnings.
validate: deps
	@scripts/install-checkers.sh
	$(call APP_SWIFT,build) --product holocron $(SWIFT_FLAGS)
	rm -rf .build/validate-base && $(HOLOCRON_DEBUG) build --quiet --output .build/validate-base --base-url https://example.com/holocron/
	rm -rf .build/validate-languages && $(HOLOCRON_DEBUG) build --quiet --output .build/validate-languages --languages en,es,en-XA,ar-XB --base-url https://example.com/holocron/
	scripts/validate.py site .build/validate-base .build/validate-languages

## Serve the site with nginx under /deep/sub/ and drive it in headless Chromium: the 404 page at
## depth, axe-core in light and dark mode, search without JavaScript and under a strict CSP; then
## the multilingual build (en, es, en-XA, ar-XB): every page's language switcher, axe per language,
## right-to-left and overflow at phone and desktop widths, Spanish search, per-language 404 pages.
## BROWSER_CHECK_FLAGS=--all-pages runs axe over every page.
browser-check: deps
	@scripts/install-checkers.sh
	$(call APP_SWIFT,build) --product holocron $(SWIFT_FLAGS)
	scripts/browser_check.py $(HOLOCRON_DEBUG) $(BROWSER_CHECK_FLAGS)

## Fuzz SWAPI's JSON readers with libFuzzer for SECONDS seconds (not part of `make test`); the
## corpus and anything found go to .build/fuzz (see scripts/fuzz.sh).
SECONDS ?= 60
fuzz:
	@scripts/fuzz.sh $(SECONDS)

## The visual matrix: one PNG per screen kind (from `holocron graph --level screens`, plus the
## 404 page and the flow map) in every language of a multilingual build (en, es, en-XA, ar-XB, in
## .build/visual-matrix-site) x light/dark x phone/desktop, and a static report, into .build/visual-matrix. PREVIOUS=dir compares with an earlier run's folder (a copy of
## .build/visual-matrix) and exits 1 when a cell changed, was added or removed;
## VISUAL_MATRIX_FLAGS passes more, e.g. --pixel-tolerance 16 or --max-changed-share 0.1.
screenshots: release
	@scripts/install-checkers.sh
	rm -rf .build/visual-matrix-site && $(HOLOCRON) build --quiet --output .build/visual-matrix-site --languages en,es,en-XA,ar-XB
	scripts/visual_matrix.py .build/visual-matrix-site --holocron $(HOLOCRON) --output .build/visual-matrix $(if $(PREVIOUS),--previous $(PREVIOUS)) $(VISUAL_MATRIX_FLAGS)

## The visual matrix's report and comparison tests (Pillow only, no browser).
test-visual-matrix:
	@python3 -c "import PIL" 2>/dev/null || python3 -m pip install --quiet pillow || python3 -m pip install --quiet --break-system-packages pillow
	python3 -m unittest scripts/test_visual_matrix.py

## The API documentation of the three library targets (DocC), one archive each into
## .build/docs/<Target>.doccarchive. Fails on a public symbol without a doc comment (each listed
## with its file and line, read from the compiler's symbol graphs) and on any DocC warning (a
## broken symbol link, a bad disambiguation, an article no topic reaches). The toolchain's
## `docc` converts each catalog with the target's symbol graphs, the ones the doc-comment check
## reads. The tests are built first: the symbol graph dump reads every module of the package,
## test modules too.
DOC_TARGETS = FlowSite FlowSiteCommandLine FlowSiteTesting
SYMBOL_GRAPHS = $(dir $(shell $(call LIB_SWIFT,build) $(SWIFT_FLAGS) --show-bin-path))symbolgraph
docs: deps
	$(call LIB_SWIFT,build) --build-tests $(SWIFT_FLAGS)
	$(call LIB_SWIFT,package) $(SWIFT_FLAGS) dump-symbol-graph --minimum-access-level public --skip-synthesized-members \
		--emit-extension-block-symbols >/dev/null
	scripts/check-doc-comments.py $(SYMBOL_GRAPHS) $(DOC_TARGETS)
	@for target in $(DOC_TARGETS); do \
		rm -rf .build/docs/$$target.doccarchive .build/docs/$$target-symbols && mkdir -p .build/docs/$$target-symbols && \
		cp $(SYMBOL_GRAPHS)/$$target.symbols.json $$(ls $(SYMBOL_GRAPHS)/$$target@*.symbols.json 2>/dev/null) .build/docs/$$target-symbols/ && \
		echo "docc convert Sources/$$target/$$target.docc" && \
		docc convert Sources/$$target/$$target.docc --additional-symbol-graph-dir .build/docs/$$target-symbols \
			--output-path .build/docs/$$target.doccarchive --fallback-display-name $$target \
			--fallback-bundle-identifier $$target --transform-for-static-hosting --warnings-as-errors >/dev/null || exit 1; \
	done

## Time each phase of `make site`, `make test` and `.ci/run`, each on a fresh clone in /tmp (resolution, each
## dependency's build, the library, the app, tests, linking, each suite, the visual matrix): one Markdown
## table per command, the logs kept (see bench/RESULTS.md). PHASE_TIMES_FLAGS=--targets site times one.
phase-times:
	scripts/phase-times.py run $(PHASE_TIMES_FLAGS)

## Install the C library cmark when pkg-config can't find it.
deps:
	@scripts/install-deps.sh

clean:
	rm -rf .build .build-tsan $(APP)/.build $(APP)/.build-tsan $(APP)/.build-tsan-debug
