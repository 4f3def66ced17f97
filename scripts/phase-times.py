#!/usr/bin/env python3
"""Times a fresh clone's `make site`, `make test` and `.ci/run`, phase by phase.

    scripts/phase-times.py [--commit REV] [--runs site,test,ci] [--keep] [--output FILE]

Each run clones the repository (at REV, default HEAD) into a new folder under /tmp, so nothing
is built beforehand, and runs one command there with every output line time-stamped. The report
is a Markdown table per run:

- the command's wall time;
- package resolution (until the first build step);
- build time by package: the wall time between one build step's line and the next is given to
  the package of the module that line names (with two cores two steps overlap, so this is an
  estimate whose column sums to the build's wall time);
- every test suite's own time as Swift Testing reports it (the adoption fixture is
  `AdoptionTests`), and the visual matrix's Python tests.

The clones are removed afterwards unless --keep is given.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

COMMANDS = {"site": ["make", "site"], "test": ["make", "test"], "ci": [".ci/run"]}
STEP = re.compile(r"^\[\d+/\d+\] (?:Compiling|Emitting module|Linking|Wrapping AST for|Write|Building|Merging module|Generating|Applying|Copying|Plugin|Running)\s+(?:[^ ]+ for )?([A-Za-z0-9_.\-]+)")
SUITE = re.compile(r'[✔✘] Suite "?([^"]+?)"? (?:passed|failed) after ([0-9.]+) seconds')
RUN_TOTAL = re.compile(r"[✔✘━] Test run with (\d+) tests?(?: in \d+ suites?)? (?:passed|failed) after ([0-9.]+) seconds")
UNITTEST = re.compile(r"^Ran (\d+) tests? in ([0-9.]+)s")


C_SOURCE = (".c", ".cc", ".cpp", ".S", ".s")


def module_owners(clone):
    """Maps module names, and the names of C sources, to their package: each checkout's
    Sources/<module> folders and files, and the repository's own two packages."""
    owners = {}
    for build in (".build/shared", ".build", "StarWars/.build"):
        checkouts = os.path.join(clone, build, "checkouts")
        if not os.path.isdir(checkouts):
            continue
        for package in os.listdir(checkouts):
            for root, dirs, files in os.walk(os.path.join(checkouts, package)):
                if os.path.basename(root) == "Sources":
                    for module in dirs:
                        owners.setdefault(module, package)
                for name in files:
                    if name.endswith(C_SOURCE):
                        owners.setdefault(name, package)
    for package, sources in (("FlowSite", "Sources"), ("FlowSite", "Tests"), ("Holocron (app)", "StarWars/Sources"), ("Holocron (app)", "StarWars/Tests")):
        folder = os.path.join(clone, sources)
        if os.path.isdir(folder):
            for module in os.listdir(folder):
                owners[module] = package
    return owners


def owner(module, owners):
    for candidate in (module, module.removesuffix("PackageTests"), module.split(".")[0]):
        if candidate in owners:
            return owners[candidate]
    if module.endswith(("PackageTests", ".xctest")):
        return "test bundles (link)"
    return "other"


def run(name, commit, keep):
    clone = tempfile.mkdtemp(prefix=f"holocron-phases-{name}-")
    subprocess.run(["git", "clone", "--quiet", ".", clone], check=True)
    subprocess.run(["git", "-C", clone, "checkout", "--quiet", commit], check=True)
    lines = []
    start = time.monotonic()
    process = subprocess.Popen(COMMANDS[name], cwd=clone, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    for line in process.stdout:
        lines.append((time.monotonic() - start, line.rstrip("\n")))
    _, status, usage = os.wait4(process.pid, 0)
    status = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    owners = module_owners(clone)
    with open(os.path.join(tempfile.gettempdir(), f"holocron-phases-{name}.log"), "w") as log:
        for at, line in lines:
            log.write(f"{at:8.1f} {line}\n")
    if not keep:
        shutil.rmtree(clone, ignore_errors=True)
    return summarise(name, status, wall, lines, owners, cpu)


def summarise(name, status, wall, lines, owners, cpu=None):
    by_package = collections.Counter()
    steps = collections.Counter()
    first_step = None
    previous = None
    for at, line in lines:
        if previous is not None:
            by_package[previous] += at - previous_at
            previous = None
        match = STEP.match(line.strip())
        if match:
            first_step = at if first_step is None else first_step
            previous, previous_at = owner(match.group(1), owners), at
            steps[previous] += 1
    suites = {}
    totals = []
    for _, line in lines:
        if (match := SUITE.search(line)):
            suites[match.group(1)] = float(match.group(2))
        if (match := RUN_TOTAL.search(line)):
            totals.append((int(match.group(1)), float(match.group(2))))
        if (match := UNITTEST.search(line)):
            totals.append((int(match.group(1)), float(match.group(2))))
    out = [f"### `{' '.join(COMMANDS[name])}`: {wall:.0f} s{'' if status == 0 else f' (exit {status})'}", ""]
    if cpu is not None:
        out.append(f"- CPU time (user and system, every process): {cpu:.0f} s, {cpu / wall / (os.cpu_count() or 1):.0%} of the cores")
    out.append(f"- resolution and checks before the first build step: {first_step or 0:.0f} s")
    for count, seconds in totals:
        out.append(f"- a test run of {count} tests: {seconds:.0f} s")
    out += ["", "| package | build steps | wall s (est.) |", "|---|---:|---:|"]
    for package, seconds in by_package.most_common():
        if seconds < 1:
            continue
        out.append(f"| {package} | {steps[package]} | {seconds:.0f} |")
    if suites:
        out += ["", "| test suite | s |", "|---|---:|"]
        for suite, seconds in sorted(suites.items(), key=lambda item: -item[1])[:25]:
            out.append(f"| {suite} | {seconds:.1f} |")
    return status, "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--runs", default="site,test,ci")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--output")
    parser.add_argument("--from-log", metavar="NAME=LOG", help="summarise a kept log again (packages from this checkout's .build)")
    arguments = parser.parse_args()
    if arguments.from_log:
        name, path = arguments.from_log.split("=", 1)
        lines = []
        with open(path) as log:
            for line in log:
                at, _, text = line.rstrip("\n").lstrip().partition(" ")
                lines.append((float(at), text))
        print(summarise(name, 0, lines[-1][0] if lines else 0, lines, module_owners("."))[1])
        return
    commit = subprocess.run(["git", "rev-parse", "--short", arguments.commit], check=True, capture_output=True, text=True).stdout.strip()
    report = [f"## Fresh-clone phases at `{commit}` ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores)", ""]
    worst = 0
    for name in arguments.runs.split(","):
        status, text = run(name, commit, arguments.keep)
        worst = max(worst, status)
        report.append(text)
        print(text, flush=True)
    if arguments.output:
        with open(arguments.output, "a") as file:
            file.write("\n".join(report) + "\n")
    sys.exit(worst)


if __name__ == "__main__":
    main()
