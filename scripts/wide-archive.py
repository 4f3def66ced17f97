#!/usr/bin/env python3
"""An archive with 100,000 characters, for the scale benchmark (`make bench` with BENCH_WIDE=1).

    wide-archive.py HOLOCRON OUTPUT

Writes the 1000x synthetic data plus the 220x synthetic data into OUTPUT, the second's ids
moved past 5,000,000 (in every URL, so its relations stay its own) and " II" added to its
names and titles: 82,000 + 18,040 = 100,040 characters, about 341,000 pages. Each file is
merged on its own, so the script holds one kind of both archives at a time.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

holocron, output = sys.argv[1], sys.argv[2]
SHIFT = 5_000_000
resource_url = re.compile(r"^(https?://[^ ]*/api/[a-z]+/)(\d+)/?$")


def shifted(value):
    """`value` with every resource URL's id moved by SHIFT."""
    if isinstance(value, str):
        match = resource_url.match(value)
        return f"{match.group(1)}{int(match.group(2)) + SHIFT}/" if match else value
    if isinstance(value, list):
        return [shifted(item) for item in value]
    return value


with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(output)) or ".") as work:
    large, small = os.path.join(work, "large"), os.path.join(work, "small")
    for scale, folder in (("1000", large), ("220", small)):
        subprocess.run([holocron, "snapshot", "--synthetic", scale, "--output", folder, "--quiet"], check=True)
    os.makedirs(output, exist_ok=True)
    for name in sorted(os.listdir(large)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(large, name), encoding="utf-8") as file:
            resources = json.load(file)
        with open(os.path.join(small, name), encoding="utf-8") as file:
            extra = json.load(file)
        for resource in extra:
            for key, value in resource.items():
                resource[key] = shifted(value)
            for key in ("name", "title"):
                if key in resource:
                    resource[key] += " II"
        with open(os.path.join(output, name), "w", encoding="utf-8") as file:
            json.dump(resources + extra, file, indent=1)
        del resources, extra
