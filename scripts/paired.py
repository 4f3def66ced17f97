#!/usr/bin/env python3
"""Times two commands in turn, pair by pair, and prints the median of the per-pair ratios.

On a shared machine the speed of both sides drifts together over minutes; a ratio taken
within each pair cancels that drift, where two medians taken minutes apart do not. Each pair
runs the two commands one after the other, the first one changing from pair to pair, each
after its own untimed preparation (an edit, say). Wall time and CPU time (user + system of
the command and its children) are both given.

    scripts/paired.py --pairs 40 --label "no-change" "holocron build …" "old-holocron build …"
"""
import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import time


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(prepare, command):
    if prepare:
        subprocess.run(prepare, shell=True, check=True, stdout=subprocess.DEVNULL)
    cpu, wall = children_cpu(), time.perf_counter()
    subprocess.run(shlex.split(command), check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - wall, children_cpu() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the command measured")
    parser.add_argument("b", help="the command it is compared with")
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--prepare-a", default="", help="a shell command run, untimed, before each run of A")
    parser.add_argument("--prepare-b", default="", help="the same before each run of B")
    parser.add_argument("--label", default="A against B")
    args = parser.parse_args()
    # One untimed pair first: files cached, both sites as the pairs will find them.
    timed(args.prepare_a, args.a)
    timed(args.prepare_b, args.b)
    walls, cpus, wall_a, wall_b = [], [], [], []
    for index in range(args.pairs):
        if index % 2 == 0:
            a = timed(args.prepare_a, args.a)
            b = timed(args.prepare_b, args.b)
        else:
            b = timed(args.prepare_b, args.b)
            a = timed(args.prepare_a, args.a)
        walls.append(a[0] / b[0])
        cpus.append(a[1] / b[1] if b[1] > 0 else 1.0)
        wall_a.append(a[0])
        wall_b.append(b[0])
    median = statistics.median
    print(f"{args.label}: wall {median(walls):.3f} of the baseline's ({median(wall_a) * 1000:.1f} against "
          f"{median(wall_b) * 1000:.1f} ms), CPU {median(cpus):.3f}, median of {args.pairs} pairs")


if __name__ == "__main__":
    sys.exit(main())
