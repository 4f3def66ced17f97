#!/usr/bin/env python3
"""One edit for `make bench`, a new one on every call, as a user saves a file.

    bench-edit.py record DATA       the first character's mass in DATA/people.json, plus one
    bench-edit.py template FOLDER   a counter in FOLDER/partials/footer.mustache, plus one
"""
import os
import re
import sys

kind, folder = sys.argv[1], sys.argv[2]
if kind == "record":
    path = os.path.join(folder, "people.json")
    text = open(path, encoding="utf-8").read()
    mass = re.search(r'"mass"\s*:\s*"([^"]*)"', text)
    value = int(mass.group(1)) + 1 if mass.group(1).isdigit() else 100
    text = text[:mass.start()] + f'"mass" : "{value}"' + text[mass.end():]
else:
    path = os.path.join(folder, "partials", "footer.mustache")
    text = open(path, encoding="utf-8").read()
    counter = re.search(r"<!-- edit (\d+) -->", text)
    if counter:
        text = text.replace(counter.group(0), f"<!-- edit {int(counter.group(1)) + 1} -->")
    else:
        text = text.replace("</footer>", "<!-- edit 1 --></footer>")
with open(path, "w", encoding="utf-8") as file:
    file.write(text)
