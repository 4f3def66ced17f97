#!/usr/bin/env python3
"""Times `holocron serve --watch` from saving an edit to the reload event.

Starts the server on a free port with a copy of the built-in templates (and of the data, when
given), listens on its live-reload channel (Server-Sent Events) as a browser would, then saves
an edit again and again: the footer template (every page changes), then one record of the data
(the first character's mass, one record). Each run is the time from the moment the save is
closed to the moment the `reload` event is read, and the page is then fetched to check it shows
the edit. Also prints what the server said each rebuild took. `--edit` picks one kind.

    swift build -c release --product holocron
    scripts/reload-latency.py                          # the embedded data (291 pages)
    .build/shared/release/holocron snapshot --synthetic 10 --output /tmp/syn10
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
    connection.request("GET", "/__flowsite/events", headers={"Accept": "text/event-stream"})
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
    parser.add_argument("--holocron", default=".build/shared/release/holocron")
    parser.add_argument("--data", help="a SWAPI snapshot folder; the embedded data without it")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--edit", choices=["template", "data", "both"], default="both")
    args = parser.parse_args()
    holocron = os.path.abspath(args.holocron)

    work = tempfile.mkdtemp(prefix="reload-latency-")
    try:
        templates = os.path.join(work, "templates")
        subprocess.run([holocron, "templates", "--output", templates], check=True, stdout=subprocess.DEVNULL)
        footer = os.path.join(templates, "partials", "footer.mustache")
        original = open(footer, encoding="utf-8").read()
        port = free_port()
        # No --output: the preview is built where serve --watch keeps it by default (tmpfs).
        command = [holocron, "serve", "--watch", "--templates", templates, "--port", str(port)]
        data = os.path.join(work, "data")
        if args.data:
            shutil.copytree(os.path.abspath(args.data), data)
        else:
            # The data built into the binary, as the repository keeps it.
            shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "SWAPI", "Resources", "snapshot"), data)
        command += ["--data", data]
        people = os.path.join(data, "people.json")
        people_text = open(people, encoding="utf-8").read()
        first_mass = re.search(r'"mass"\s*:\s*"[^"]*"', people_text)
        first_name = re.search(r'"name"\s*:\s*"([^"]*)"', people_text).group(1)
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

        # The first character's page, found by its name on the first list page.
        status, listing = get(port, "/characters/")
        person_path = re.search(r'href="([^"]*)"[^>]*>' + re.escape(first_name) + "<", listing).group(1)
        person_path = "/characters/" + person_path.lstrip("./")

        def measure(kind):
            latencies, rebuilds = [], []
            for run in range(args.runs):
                if kind == "template":
                    marker = f"edit number {run} at {time.time()}"
                    with open(footer, "w", encoding="utf-8") as file:
                        file.write(original.replace("</footer>", f"<p>{marker}</p></footer>"))
                    page = "/characters/"
                else:
                    marker = f"{100 + run} kg"  # below 1,000: no thousands separator
                    edited = people_text[:first_mass.start()] + f'"mass" : "{marker}"' + people_text[first_mass.end():]
                    with open(people, "w", encoding="utf-8") as file:
                        file.write(edited)
                    page = person_path
                saved = time.monotonic()
                while True:
                    at, name = events.get(timeout=600)
                    if name == "reload":
                        break
                latencies.append(at - saved)
                status, body = get(port, page)
                assert status == 200 and marker in body, f"the reload came before the new page was served ({page})"
                rebuilds.append(builds.get(timeout=60)[1])
            return latencies, rebuilds

        def summary(values):
            return f"median {statistics.median(values):.3f} s, min {min(values):.3f} s, max {max(values):.3f} s"

        for kind in (["template", "data"] if args.edit == "both" else [args.edit]):
            latencies, rebuilds = measure(kind)
            what = "a footer template edit" if kind == "template" else "a one-record data edit"
            print(f"{what}: save to reload event over {args.runs} saves: {summary(latencies)}")
            print(f"{what}: the rebuild itself, as holocron reports it: {summary(rebuilds)}")
        server.terminate()
        server.wait(timeout=30)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
