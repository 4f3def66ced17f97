#!/usr/bin/env python3
"""Times `holocron serve --watch` from saving a template to the reload event.

Starts the server on a free port with a copy of the built-in templates, listens on its
live-reload channel (Server-Sent Events) as a browser would, then saves the footer template
again and again; each run is the time from the moment the save is closed to the moment the
`reload` event is read, and the page is then fetched to check it shows the edit. Also prints
what the server said each rebuild took.

    swift build -c release --product holocron
    scripts/reload-latency.py                          # the embedded data (291 pages)
    .build/release/holocron snapshot --synthetic 10 --output /tmp/syn10
    scripts/reload-latency.py --data /tmp/syn10        # 10x synthetic data
"""
import argparse
import http.client
import os
import queue
import re
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read().decode("utf-8", "replace")


def listen(port, events):
    """Puts (time, name) for every event of the live-reload channel."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("GET", "/__holocron/events", headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    name = None
    while True:
        line = response.fp.readline()
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line == "" and name:
            events.put((time.monotonic(), name))
            name = None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--holocron", default=".build/release/holocron")
    parser.add_argument("--data", help="a SWAPI snapshot folder; the embedded data without it")
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    holocron = os.path.abspath(args.holocron)

    work = tempfile.mkdtemp(prefix="reload-latency-")
    try:
        templates = os.path.join(work, "templates")
        subprocess.run([holocron, "templates", "--output", templates], check=True, stdout=subprocess.DEVNULL)
        footer = os.path.join(templates, "partials", "footer.mustache")
        original = open(footer, encoding="utf-8").read()
        port = free_port()
        command = [holocron, "serve", "--watch", "--templates", templates, "--output", os.path.join(work, "site"), "--port", str(port)]
        if args.data:
            command += ["--data", os.path.abspath(args.data)]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        builds = queue.Queue()

        def read_output():
            for line in server.stdout:
                match = re.search(r"^Built (\d+) pages.* in ([\d.]+) s", line)
                if match:
                    builds.put((int(match.group(1)), float(match.group(2))))
                elif line.startswith("Serving "):
                    builds.put(("serving", 0))

        threading.Thread(target=read_output, daemon=True).start()
        pages, first = builds.get(timeout=600)
        assert builds.get(timeout=600)[0] == "serving"
        events = queue.Queue()
        threading.Thread(target=listen, args=(port, events), daemon=True).start()
        assert events.get(timeout=30)[1] == "hello"
        print(f"{pages} pages; the first build took {first:.2f} s")

        latencies, rebuilds = [], []
        for run in range(args.runs):
            marker = f"edit number {run} at {time.time()}"
            with open(footer, "w", encoding="utf-8") as file:
                file.write(original.replace("</footer>", f"<p>{marker}</p></footer>"))
            saved = time.monotonic()
            while True:
                at, name = events.get(timeout=600)
                if name == "reload":
                    break
            latencies.append(at - saved)
            status, body = get(port, "/characters/")
            assert status == 200 and marker in body, "the reload came before the new page was served"
            rebuilds.append(builds.get(timeout=60)[1])
        server.terminate()
        server.wait(timeout=30)

        def summary(values):
            return f"median {statistics.median(values):.3f} s, min {min(values):.3f} s, max {max(values):.3f} s"

        print(f"save to reload event over {args.runs} saves: {summary(latencies)}")
        print(f"the rebuild itself, as holocron reports it: {summary(rebuilds)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
