#!/usr/bin/env python3
"""Times each phase of a fresh clone's `make site`, `make test` and `.ci/run` (issue 48).

    scripts/phase-times.py run [--targets site,test,ci] [--clone-from DIR] [--keep]
    scripts/phase-times.py report LOG...

`run` clones the repository (DIR, by default the one this script is in) into a new folder under
/tmp for each target, so nothing is built beforehand, runs the target's command there and writes
its output to a log, each line stamped with the seconds since the start as it arrives through the
pipe. It keeps the logs, removes the clones (unless --keep) and prints a Markdown table per target.
`report` prints the same tables from logs written by `run`, without building anything.

How the log's lines become phases (each phase runs from one marker line to the next):
- package resolution: from an echoed `swift build|test|package` command to SwiftPM's
  "Building for debugging..." (fetching, resolving, loading manifests, planning);
- the build: each step line (`[12/501] Compiling NIOCore ByteBuffer.swift`) closes the time since
  the step line before it, which goes to the package or group of the module the line names:
  SwiftPM prints a step's line when the step *finishes* (a slow module's line comes after its
  compile, not before), so that time is mostly that step's. With two compile jobs at once two
  steps overlap, so the split is approximate; the build rows sum to the builds' wall time;
- running the tests: from a `swift test`'s "Build complete!" to the next command; each suite's
  own time is the one Swift Testing reports (suites run in parallel, so these overlap);
- waiting for the adoption test: scripts/run-tests.sh runs it in the background from the library's
  build on, and after the app's tests prints "Waiting for the adoption test"; from there to the
  next command (its output, printed then, is not read as build steps);
- the visual matrix: from its echoed `python3 -m unittest scripts/test_visual_matrix.py` line to
  the next command;
- everything else (make itself, installing packages, formatting, docs, rendering the site).
"""
import argparse
import collections
import glob
import json
import os
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
COMMANDS = {"site": ["make", "site"], "test": ["make", "test"], "ci": [".ci/run"]}

# The three groups of the repository's own modules; every other group is a dependency package.
LIBRARY, APP, TESTS = "FlowSite library", "Star Wars app", "test targets"

# The rows that partition the wall time, besides one "build: <group>" row per package or group.
RESOLUTION = "package resolution (fetch, resolve, load manifests, plan)"
LINKING = "build: linking"
BUILD_OTHER = "build: other steps (writing files, copying resources, unattributed modules)"
TEST_RUN = "tests: running the test binaries"
ADOPTION_WAIT = "tests: waiting for the adoption test after the app's tests"
VISUAL_MATRIX = "visual matrix (`python3 -m unittest scripts/test_visual_matrix.py`)"
OTHER = "other (make, installing packages, formatting, docs, rendering the site)"
ADOPTION = "AdoptionTests"

# Lines of the output that mark a phase. Commands are the lines make echoes before running them.
# (`make test` runs each `swift test` through scripts/with-tmpfs.sh.)
SWIFT_COMMAND = re.compile(r"^(scripts/with-tmpfs\.sh )?(\S*/)?swift (build|test|package|run)\b")
SWIFT_TEST = re.compile(r"^(scripts/with-tmpfs\.sh )?(\S*/)?swift test\b")
VISUAL_COMMAND = re.compile(r"^python3? .*test_visual_matrix\.py")
# scripts/run-tests.sh runs the adoption test in the background and prints this once the app is built.
ADOPTION_WAIT_LINE = re.compile(r"^Waiting for the adoption test\b")
# Other commands: what the Makefile and .ci/run run besides swift (a compiler's diagnostic, which
# starts with a file's path and a colon, never matches).
OTHER_COMMAND = re.compile(r"^(swift|python3?|make|docc|rm|cp|mkdir|scripts/[\w.-]+|\.build/\S+/holocron)( |$)")
BUILD_START = re.compile(r"^Building for (debugging|production)\.\.\.")
BUILD_END = re.compile(r"^Build (of .+ )?complete!")
STEP = re.compile(r"^\[\d+/\d+\] (.*)$")
# A step's text names its module first ("Compiling NIOCore ByteBuffer.swift", "Emitting module
# NIOCore"); a C file's step may name the file alone ("Compiling c-atomics.c").
STEP_MODULE = re.compile(r"^(?:Compiling plugin|Compiling|Emitting module|Merging module|Wrapping AST for|Generating)"
                         r" (\S+)(?: (\S+))?")
# Modules SwiftPM makes for a package's tests (the test bundle, the discovered-tests list).
SYNTHESIZED_TEST_MODULE = re.compile(r"Package(Discovered)?Tests$")
SUITE = re.compile(r'^[✔✘] Suite ("[^"]*"|\S+) (?:passed|failed) after ([0-9.]+) seconds')
ANSI = re.compile(r"\x1b\[[0-9;]*m")
C_SOURCE = (".c", ".cc", ".cpp", ".m", ".mm", ".s", ".S")


def checkout_modules(clone):
    """Maps module names and C source file names to the dependency package whose checkout (in
    the clone's scratch folders) holds them: a module is a folder under the package's Sources/."""
    modules, c_sources = {}, {}
    packages = [(package, os.path.join(folder, package, "Sources"))
                for folder in sorted(glob.glob(os.path.join(clone, ".build", "checkouts"))
                                     + glob.glob(os.path.join(clone, ".build", "*", "checkouts")))
                for package in sorted(os.listdir(folder))]
    # Every package's Sources/<Module> first, so that a folder further down in one package (kept
    # for packages that nest targets) never takes the name of another package's module.
    for package, sources in packages:
        for name in sorted(os.listdir(sources)) if os.path.isdir(sources) else []:
            modules.setdefault(name, package)
    for package, sources in packages:
        for _, folders, files in os.walk(sources):
            for name in folders:
                modules.setdefault(name, package)
            for name in files:
                if name.endswith(C_SOURCE):
                    c_sources.setdefault(name, package)
    return modules, c_sources


def module_groups(clone):
    """Maps the modules a build may compile to their group, as {group: [module, ...]}, plus C
    source file names to their group: the dependencies' checkouts, and the targets `swift package
    describe` lists for the repository's two packages."""
    modules, c_sources = checkout_modules(clone)
    # The repository's own targets override any same-named folder of a checkout.
    for package, group in ((clone, LIBRARY), (os.path.join(clone, "StarWars"), APP)):
        described = subprocess.run(["swift", "package", "--package-path", package, "describe", "--type", "json"],
                                   capture_output=True, text=True)
        if described.returncode != 0:
            print(f"warning: swift package describe failed in {package}:\n{described.stderr}", file=sys.stderr)
            continue
        for target in json.loads(described.stdout)["targets"]:
            target_group = TESTS if target["path"].startswith("Tests/") else group
            for name in {target["name"], target.get("c99name", target["name"])}:
                modules[name] = target_group
            for _, _, files in os.walk(os.path.join(package, target["path"])):
                for name in files:
                    if name.endswith(C_SOURCE):
                        c_sources[name] = target_group
    by_group = collections.defaultdict(list)
    for name, group in sorted(modules.items()):
        by_group[group].append(name)
    return dict(by_group), c_sources


def run(target, clone_from, keep):
    """Runs one target's command in a fresh clone; returns the log's path and the exit status."""
    clone = tempfile.mkdtemp(prefix="holocron-phases-")
    log_path = f"{clone}-{target}.log"
    subprocess.run(["git", "clone", "--quiet", str(clone_from), clone], check=True)
    commit = subprocess.run(["git", "-C", clone, "rev-parse", "--short", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    command = COMMANDS[target]
    print(f"{target}: `{' '.join(command)}` in {clone}, log {log_path}", flush=True)
    # Python children write their lines as they go, so each is stamped when it is printed.
    environment = dict(os.environ, PYTHONUNBUFFERED="1")
    with open(log_path, "w") as log:
        log.write(f"# target {target}\n# command {' '.join(command)}\n# commit {commit}\n# clone {clone}\n"
                  f"# started {time.strftime('%Y-%m-%d %H:%M')}\n# cores {os.cpu_count()}\n")
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        process = subprocess.Popen(command, cwd=clone, env=environment, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, errors="replace")
        for line in process.stdout:
            at, text = time.monotonic() - start, line.rstrip("\n")
            log.write(f"{at:9.3f} {text}\n")
            log.flush()
        status = process.wait()
        wall = time.monotonic() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime - children.ru_utime - children.ru_stime
        modules, c_sources = module_groups(clone)
        log.write(f"# exit {status}\n# wall {wall:.3f}\n# cpu {cpu:.1f}\n")
        log.write(f"# modules {json.dumps(modules)}\n# c-sources {json.dumps(c_sources)}\n")
    if not keep:
        shutil.rmtree(clone, ignore_errors=True)
    return log_path, status


def read_log(path):
    """A log's meta lines ("# key value") as a dict and its stamped lines as (seconds, text)."""
    meta, lines = {}, []
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            if line.startswith("# "):
                key, _, value = line[2:].partition(" ")
                meta[key] = value
            elif (match := re.match(r"^\s*(\d+\.\d+) (.*)$", line)):
                lines.append((float(match.group(1)), ANSI.sub("", match.group(2))))
    return meta, lines


def step_row(text, modules, c_sources, unattributed):
    """The row a build step's time goes to: its module's package or group, linking, or other."""
    if text.startswith("Linking "):
        return LINKING
    match = STEP_MODULE.match(text)
    if not match:
        return BUILD_OTHER
    for name in match.groups():
        if name in modules:
            return "build: " + modules[name]
        if name in c_sources:
            return "build: " + c_sources[name]
    if SYNTHESIZED_TEST_MODULE.search(match.group(1)):
        return "build: " + TESTS
    unattributed.add(match.group(1))
    return BUILD_OTHER


def phases(meta, lines):
    """Splits the log's wall time into rows; returns (seconds by row, suites, unattributed module
    names). Each stretch between two lines goes to one row."""
    modules = {name: group for group, names in json.loads(meta.get("modules", "{}")).items() for name in names}
    c_sources = json.loads(meta.get("c-sources", "{}"))
    seconds = collections.defaultdict(float)
    suites, unattributed = [], set()
    state, testing, since = OTHER, False, 0.0

    def close(at, row):
        # The stretch from the previous marker to this line goes to row (an empty one to none).
        nonlocal since
        if at > since:
            seconds[row] += at - since
        since = at

    for at, text in lines:
        text = text.strip()
        # A test's output (the adoption fixture's build log in a failure's message) may hold build
        # lines; while the tests run, only the next command ends their stretch.
        building = state not in (TEST_RUN, ADOPTION_WAIT)
        if building and (step := STEP.match(text)):
            close(at, step_row(step.group(1), modules, c_sources, unattributed))
        elif building and BUILD_START.match(text):
            close(at, state)
            state = BUILD_OTHER
        elif building and BUILD_END.match(text):
            close(at, BUILD_OTHER)
            state = TEST_RUN if testing else OTHER
        elif ADOPTION_WAIT_LINE.match(text):
            close(at, state)
            state = ADOPTION_WAIT
        elif VISUAL_COMMAND.match(text) or SWIFT_COMMAND.match(text) or OTHER_COMMAND.match(text):
            close(at, state)
            testing = bool(SWIFT_TEST.match(text))
            if VISUAL_COMMAND.match(text):
                state = VISUAL_MATRIX
            elif SWIFT_COMMAND.match(text):
                state = RESOLUTION
            else:
                state = OTHER
        elif (suite := SUITE.match(text)):
            suites.append((suite.group(1).strip('"'), float(suite.group(2))))
    wall = float(meta["wall"]) if "wall" in meta else (lines[-1][0] if lines else 0.0)
    close(wall, state)
    return seconds, suites, unattributed


def table(meta, lines):
    """The Markdown table of one log: the rows in the issue's order, seconds and share of the total."""
    seconds, suites, unattributed = phases(meta, lines)
    wall = sum(seconds.values())
    build_seconds = sum(s for row, s in seconds.items() if row.startswith("build: "))
    rows = [RESOLUTION]
    packages = [row for row in seconds if row.startswith("build: ") and row[7:] not in (LIBRARY, APP, TESTS)
                and row not in (LINKING, BUILD_OTHER)]
    rows += sorted(packages, key=lambda row: -seconds[row])
    rows += ["build: " + LIBRARY, "build: " + APP, "build: " + TESTS, LINKING, BUILD_OTHER, TEST_RUN, ADOPTION_WAIT]
    # Suites are Swift Testing's own times, inside "running the test binaries" and overlapping.
    suite_rows = [(f"↳ suite {name}", s) for name, s in sorted(suites, key=lambda suite: -suite[1])
                  if name != ADOPTION]
    suite_rows += [(f"↳ adoption fixture (suite {name})", s) for name, s in suites if name == ADOPTION]

    def share(s):
        return f"{s / wall * 100:.1f} %" if wall else "–"

    out = [f"### `{meta.get('command', '?')}` at `{meta.get('commit', '?')}` ({meta.get('started', '?')}, "
           f"{meta.get('cores', '?')} cores, exit {meta.get('exit', '?')})", "",
           "| phase | s | share |", "|---|---:|---:|"]
    for row in rows:
        if row in seconds:
            out.append(f"| {row} | {seconds[row]:.1f} | {share(seconds[row])} |")
        if row == TEST_RUN:
            out += [f"| {name} | {s:.1f} | {share(s)} |" for name, s in suite_rows]
    for row in (VISUAL_MATRIX, OTHER):
        if row in seconds:
            out.append(f"| {row} | {seconds[row]:.1f} | {share(seconds[row])} |")
    out.append(f"| **total (wall)** | **{wall:.1f}** | 100 % |")
    notes = [f"The rows{' without ↳' if suite_rows else ''} sum to the total. The build rows are approximate: "
             "the time between two of SwiftPM's build-step lines goes to the module the later line names (SwiftPM "
             "prints a step's line when the step finishes), and with two compile jobs at once two steps overlap. "
             f"They sum to the builds' wall time, {build_seconds:.1f} s."]
    if suite_rows:
        notes.append("Rows marked ↳ are the times Swift Testing reports for each suite, within the test binaries' "
                     "run; suites run in parallel, so they overlap and are not part of the sum.")
    if "cpu" in meta and wall:
        cores = int(meta.get("cores") or 1)
        cpu = float(meta["cpu"])
        notes.append(f"CPU time (user and system, every process): {cpu:.0f} s, "
                     f"{cpu / wall / cores * 100:.0f} % of the {cores} cores.")
    if unattributed:
        notes.append(f"Modules no package claimed (in the other build steps): {', '.join(sorted(unattributed))}.")
    # Wrapped as bench/RESULTS.md's paragraphs are, so the table and its notes paste as they are.
    out += ["", textwrap.fill(" ".join(notes), width=110, break_on_hyphens=False)]
    return "\n".join(out) + "\n"


def main(arguments=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="mode", required=True)
    run_parser = commands.add_parser("run", help="time fresh clones and print the tables")
    run_parser.add_argument("--targets", default="site,test,ci", help="comma-separated: site, test, ci")
    run_parser.add_argument("--clone-from", default=str(REPOSITORY), metavar="DIR",
                            help="the repository to clone (default: the one this script is in)")
    run_parser.add_argument("--keep", action="store_true", help="keep the clones")
    report_parser = commands.add_parser("report", help="print the tables of logs written by run")
    report_parser.add_argument("logs", nargs="+", metavar="LOG")
    arguments = parser.parse_args(arguments)
    if arguments.mode == "report":
        print("\n".join(table(*read_log(path)) for path in arguments.logs), end="")
        return 0
    targets = arguments.targets.split(",")
    unknown = [target for target in targets if target not in COMMANDS]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)} (known: {', '.join(COMMANDS)})")
    results = [run(target, arguments.clone_from, arguments.keep) for target in targets]
    print()
    for log_path, _ in results:
        print(table(*read_log(log_path)))
    print("Logs:", *(log_path for log_path, _ in results))
    return max(status for _, status in results)


if __name__ == "__main__":
    sys.exit(main())
