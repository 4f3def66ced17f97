"""Tests of scripts/phase-times.py's log parser: a small stamped log written here (resolution,
two dependency packages, the library, a test target, a link, suites, the visual matrix), no build.

    python3 -m unittest scripts/test_phase_times.py
"""
import contextlib
import importlib.util
import io
import pathlib
import tempfile
import unittest

# The script's name has a hyphen, so it is loaded from its path rather than imported by name.
SCRIPT = pathlib.Path(__file__).resolve().parent / "phase-times.py"
spec = importlib.util.spec_from_file_location("phase_times", SCRIPT)
pt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pt)

# What `run` writes: meta lines, then each output line after the seconds since the start.
LOG = """\
# target test
# command make test
# commit abc1234
# started 2026-11-29 10:00
# cores 2
    0.000 scripts/with-tmpfs.sh swift test --scratch-path .build/shared --disable-build-manifest-caching
    1.000 Fetching https://github.com/apple/swift-nio from cache
    3.000 Computing version for https://github.com/apple/swift-nio
    4.000 Working copy of https://github.com/apple/swift-nio resolved at 2.80.0
    5.000 Building for debugging...
    6.000 [1/9] Write sources
   10.000 [2/9] Compiling CNIOAtomics c-atomics.c
   20.000 [3/9] Emitting module NIOCore
   29.000 /tmp/clone/.build/shared/checkouts/swift-nio/Sources/NIOCore/ByteBuffer.swift:1:1: warning: w
   30.000 [4/9] Compiling NIOCore ByteBuffer.swift
   32.000 [5/9] Compiling Logging Logger.swift
   33.000 [6/9] Compiling Mystery Thing.swift
   40.000 [7/9] Compiling FlowSite Site.swift
   45.000 [8/9] Compiling FlowSiteTests FlowMapTests.swift
   47.000 [9/9] Linking FlowSitePackageTests.xctest
   48.000 Build complete! (43.00s)
   49.000 ◇ Test run started.
   50.000 Building for debugging...
   51.000 [3/9] Compiling CrewApp CrewScreen.swift
   52.000 Build complete! (2.00s)
   58.000 ✔ Suite FlowMapTests passed after 10.500 seconds.
   59.000 ✔ Suite AdoptionTests passed after 8.300 seconds.
   59.500 ✘ Suite "Site builder" failed after 2.000 seconds with 1 issue.
   60.000 ✘ Test run with 4 tests in 3 suites failed after 11.000 seconds with 1 issue.
   61.000 python3 -m unittest scripts/test_visual_matrix.py
   64.000 Ran 29 tests in 2.100s
   65.000 OK
# exit 0
# wall 66.000
# cpu 99.0
# modules {"swift-nio": ["CNIOAtomics", "NIOCore"], "swift-log": ["Logging"], \
"FlowSite library": ["FlowSite"], "test targets": ["FlowSiteTests"]}
# c-sources {"c-atomics.c": "swift-nio"}
""".replace("\\\n", "")


class PhaseTimesTests(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.path = pathlib.Path(folder.name) / "make-test.log"
        self.path.write_text(LOG, encoding="utf-8")

    def test_each_stretch_goes_to_its_row_and_the_rows_sum_to_the_wall_time(self):
        seconds, suites, unattributed = pt.phases(*pt.read_log(self.path))
        self.assertEqual(dict(seconds), {
            pt.RESOLUTION: 5.0,  # from the swift command to "Building for debugging..."
            pt.BUILD_OTHER: 1.0 + 1.0 + 1.0,  # Write sources, the unknown module, after the link
            "build: swift-nio": 4.0 + 10.0 + 10.0,  # a warning line doesn't end a stretch
            "build: swift-log": 2.0,
            "build: FlowSite library": 7.0,
            "build: test targets": 5.0,
            pt.LINKING: 2.0,
            pt.TEST_RUN: 13.0,  # from "Build complete!" to the next command, a test's build lines within
            pt.VISUAL_MATRIX: 5.0,  # to the end of the log
        })
        self.assertAlmostEqual(sum(seconds.values()), 66.0)
        self.assertEqual(suites, [("FlowMapTests", 10.5), ("AdoptionTests", 8.3), ("Site builder", 2.0)])
        self.assertEqual(unattributed, {"Mystery"})

    def test_the_table_lists_the_rows_in_order_with_seconds_and_shares(self):
        rows = [line for line in pt.table(*pt.read_log(self.path)).splitlines() if line.startswith("| ")]
        self.assertEqual(rows, [
            "| phase | s | share |",
            f"| {pt.RESOLUTION} | 5.0 | 7.6 % |",
            "| build: swift-nio | 24.0 | 36.4 % |",
            "| build: swift-log | 2.0 | 3.0 % |",
            "| build: FlowSite library | 7.0 | 10.6 % |",
            "| build: test targets | 5.0 | 7.6 % |",
            "| build: linking | 2.0 | 3.0 % |",
            f"| {pt.BUILD_OTHER} | 3.0 | 4.5 % |",
            f"| {pt.TEST_RUN} | 13.0 | 19.7 % |",
            "| ↳ suite FlowMapTests | 10.5 | 15.9 % |",
            "| ↳ suite Site builder | 2.0 | 3.0 % |",
            "| ↳ adoption fixture (suite AdoptionTests) | 8.3 | 12.6 % |",
            f"| {pt.VISUAL_MATRIX} | 5.0 | 7.6 % |",
            "| **total (wall)** | **66.0** | 100 % |",
        ])

    def test_the_notes_give_the_build_wall_time_cpu_and_unattributed_modules(self):
        text = pt.table(*pt.read_log(self.path)).replace("\n", " ")
        self.assertIn("### `make test` at `abc1234` (2026-11-29 10:00, 2 cores, exit 0)", text)
        self.assertIn("They sum to the builds' wall time, 43.0 s.", text)
        self.assertIn("CPU time (user and system, every process): 99 s, 75 % of the 2 cores.", text)
        self.assertIn("Modules no package claimed (in the other build steps): Mystery.", text)

    def test_report_prints_the_table_of_each_log(self):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            status = pt.main(["report", str(self.path), str(self.path)])
        self.assertEqual(status, 0)
        self.assertEqual(output.getvalue().count("| **total (wall)** | **66.0** | 100 % |"), 2)

    def phases_of(self, lines):
        """Writes `lines` as the log and splits it into rows."""
        self.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return pt.phases(*pt.read_log(self.path))

    def test_the_site_builds_run_and_other_commands_go_to_other(self):
        seconds, suites, _ = self.phases_of([
            "    0.000 swift build --package-path StarWars --product holocron",
            "    2.000 Building for debugging...",
            "    3.000 [1/2] Compiling Logging Logger.swift",
            "    4.000 [2/2] Linking holocron",
            "    4.500 Build of product 'holocron' complete! (2.50s)",
            "    5.000 .build/shared/debug/holocron build --output site --coverage StarWars/flow-coverage",
            "# wall 7.000",
            '# modules {"swift-log": ["Logging"]}',
        ])
        self.assertEqual(dict(seconds), {pt.RESOLUTION: 2.0, "build: swift-log": 1.0, pt.LINKING: 1.0,
                                         pt.BUILD_OTHER: 0.5, pt.OTHER: 2.5})
        self.assertEqual(suites, [])
        self.assertIn("They sum to the builds' wall time, 2.5 s.", pt.table(*pt.read_log(self.path)).replace("\n", " "))

    def test_the_wait_for_the_background_adoption_test_is_a_row_and_its_output_no_build(self):
        # scripts/run-tests.sh: the app's build, then the app's tests, then the wait, then the adoption
        # test's output (a failure's message may quote build lines).
        seconds, suites, _ = self.phases_of([
            "    0.000 swift build --package-path StarWars --build-tests --scratch-path .build/shared",
            "    1.000 Building for debugging...",
            "    3.000 [1/1] Compiling Logging Logger.swift",
            "    4.000 Build complete! (3.00s)",
            "    4.000 swift test --package-path StarWars --scratch-path .build/shared",
            "    5.000 Building for debugging...",
            "    6.000 Build complete! (1.00s)",
            "   13.000 Waiting for the adoption test (started after the library's build)...",
            "   29.000 [5/9] Compiling CrewApp CrewScreen.swift",
            "   29.000 ✔ Suite AdoptionTests passed after 60.000 seconds.",
            "   30.000 python3 -m unittest scripts/test_visual_matrix.py",
            "# wall 30.000",
            '# modules {"swift-log": ["Logging"]}',
        ])
        self.assertEqual(dict(seconds), {pt.RESOLUTION: 1.0 + 1.0, "build: swift-log": 2.0, pt.BUILD_OTHER: 1.0 + 1.0,
                                         pt.ADOPTION_WAIT: 17.0, pt.TEST_RUN: 7.0})
        self.assertEqual(suites, [("AdoptionTests", 60.0)])
        rows = [line for line in pt.table(*pt.read_log(self.path)).splitlines() if line.startswith("| ")]
        self.assertLess(rows.index(f"| {pt.TEST_RUN} | 7.0 | 23.3 % |"), rows.index(f"| {pt.ADOPTION_WAIT} | 17.0 | 56.7 % |"))

    def test_a_checkouts_modules_are_its_folders_under_sources_before_any_nested_folder(self):
        # swift-aaa nests a folder named like swift-zzz's module; the module is still swift-zzz's.
        clone = self.path.parent / "clone"
        for folder in ("swift-aaa/Sources/AAA/Internal/ZZZ", "swift-aaa/Sources/VersionMarkers/AAA509",
                       "swift-zzz/Sources/ZZZ", "swift-zzz/Sources/CZZZ/src"):
            (clone / ".build/shared/checkouts" / folder).mkdir(parents=True)
        (clone / ".build/shared/checkouts/swift-zzz/Sources/CZZZ/src/shims.c").write_text("")
        modules, c_sources = pt.checkout_modules(str(clone))
        self.assertEqual((modules["AAA"], modules["ZZZ"], modules["AAA509"], modules["CZZZ"]),
                         ("swift-aaa", "swift-zzz", "swift-aaa", "swift-zzz"))
        self.assertEqual(c_sources, {"shims.c": "swift-zzz"})


if __name__ == "__main__":
    unittest.main()
