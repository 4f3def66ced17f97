#!/usr/bin/env python3
"""FlowSite's public API against the last release's: fails on a break CHANGELOG.md does not name.

RELEASE names the last release (`0.1.0 <commit>`); api/<version>/ is its public API as the Swift API
digester records it (one JSON file per product module), committed with the release so that a check
need not build the old commit. `swift package diagnose-api-breaking-changes` reads that record
(copied to .build/api-baseline/<commit>/, where it looks), builds this checkout, and lists every
change that breaks a user of the products. Without the record it builds the release's commit first;
`--record` makes the record anew from that commit (after a release, or when a new toolchain reads
the old one no longer) and writes it to api/<version>/. Each must be named in the
changelog's Unreleased section, which must also say "Breaking": by the declaration's name in
backticks (`timings` or `BuildReport.timings`; an accessor by its property, `T.init` for a
constructor). Run by `make api-check`; the Swift command and its flags come as arguments
(`scripts/api-check.py swift --scratch-path .build/shared ...`).
"""

import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PRODUCTS = ["FlowSite", "FlowSiteTesting", "FlowSiteCommandLine"]
# What the tool says of a declaration: "💔 API breakage: func SiteBuilder.build(into:) has been removed".
BREAK = re.compile(r"API breakage: (?P<text>.*)$")
DECLARATION = re.compile(
    r"^(?:(?:static|class|mutating|final)\s+)*"
    r"(?:func|var|let|struct|class|enum|protocol|typealias|case|constructor|subscript|accessor|"
    r"associatedtype|init|extension|actor|macro|enumelement)\s+(?P<name>[A-Za-z_][A-Za-z0-9_.]*)"
)


def release():
    try:
        version, commit = (ROOT / "RELEASE").read_text(encoding="utf-8").split()[:2]
    except (OSError, ValueError):
        sys.exit("api-check: RELEASE must hold the last release's version and commit, such as `0.1.0 9979d4f…`")
    return version, commit


def unreleased():
    """The changelog's Unreleased section."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    match = re.search(r"^## Unreleased\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not match:
        sys.exit("api-check: CHANGELOG.md has no `## Unreleased` section")
    return match.group(1)


def named(declaration, section):
    """Whether `section` names the declaration in backticks: its whole name or its last part; an accessor
    (`accessor T.x.Get()`) by its property, a constructor (`constructor T.init(a:)`) as `T.init`."""
    match = DECLARATION.match(declaration)
    if not match:
        return False
    parts = match.group("name").split(".")
    if declaration.startswith("accessor ") and len(parts) > 1:
        parts = parts[:-1]
    if declaration.startswith("constructor "):
        candidates = {".".join(parts)}
    else:
        candidates = {".".join(parts), parts[-1]}
    return any(f"`{candidate}" in section for candidate in candidates)


def main():
    verbose = "-v" in sys.argv[1:]
    record = "--record" in sys.argv[1:]
    swift = [argument for argument in sys.argv[1:] if argument not in ("-v", "--record")] or ["swift"]
    version, commit = release()
    baseline = ROOT / ".build" / "api-baseline"
    recorded = ROOT / "api" / version
    modules = sorted(recorded.glob("*.json")) if recorded.is_dir() else []
    if modules and not record:
        (baseline / commit).mkdir(parents=True, exist_ok=True)
        for module in modules:
            shutil.copyfile(module, baseline / commit / module.name)
    command = swift[:1] + ["package"] + swift[1:] + [
        "diagnose-api-breaking-changes", commit, "--products", *PRODUCTS, "--baseline-dir", str(baseline)
    ] + (["--regenerate-baseline"] if record else [])
    print(" ".join(command), flush=True)
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    output = run.stdout + run.stderr
    if record:
        made = sorted((baseline / commit).glob("*.json"))
        if not made:
            print(output[-4000:])
            print(f"api-check: no API record of {version} was made (above)")
            return 1
        shutil.rmtree(recorded, ignore_errors=True)
        recorded.mkdir(parents=True)
        for module in made:
            shutil.copyfile(module, recorded / module.name)
        print(f"api-check: recorded {version}'s API in {recorded.relative_to(ROOT)}/ ({len(made)} modules)")
    breaks = [match.group("text").strip() for match in map(BREAK.search, output.splitlines()) if match]
    if not breaks:
        if run.returncode != 0:
            print(output[-4000:])
            print("api-check: the API comparison failed (above) without naming a break")
            return 1
        print(f"api-check: no public API of {version} changed in a breaking way")
        return 0
    section = unreleased()
    unnamed = [text for text in breaks if not named(text, section)]
    says_breaking = "Breaking" in section
    if not unnamed and says_breaking:
        print(f"api-check: {len(breaks)} breaking change(s) since {version} ({commit[:7]}), each named in "
              "CHANGELOG.md's Unreleased section (`-v` lists them)")
        if verbose:
            for text in breaks:
                print("  " + text)
        return 0
    print(f"api-check: {len(breaks)} breaking change(s) since {version} ({commit[:7]}):")
    for text in breaks:
        print(("  named:   " if text not in unnamed else "  UNNAMED: ") + text)
    if unnamed or not says_breaking:
        print(
            "api-check: every breaking change must be named in CHANGELOG.md's Unreleased section, under a "
            "**Breaking** entry, by its declaration's name in backticks"
            + ("" if says_breaking else " (the section does not say Breaking)"))
        return 1
    print("api-check: each is named in CHANGELOG.md's Unreleased section")
    return 0


if __name__ == "__main__":
    sys.exit(main())
